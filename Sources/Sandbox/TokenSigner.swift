import Crypto
import Foundation
import Core

/// HS256 JSON Web Tokens: the sandbox's access and refresh tokens.
struct TokenSigner: Sendable {
    let key: SymmetricKey

    struct Claims: Sendable {
        var subject: String
        var kind: String          // "access" or "refresh"
        var expires: Double       // seconds since 1970, fractional allowed (RFC 7519 NumericDate)
        var generation: Int       // bumped by the "expire all access tokens" fault switch
        var id: String
    }

    enum Failure: Error { case malformed, badSignature, expired, wrongKind }

    func sign(_ claims: Claims) -> String {
        let header = Self.base64URL(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload: JSONValue = .object([
            ("sub", .string(claims.subject)),
            ("typ", .string(claims.kind)),
            ("exp", .number(String(format: "%.3f", claims.expires))),
            ("gen", .int(claims.generation)),
            ("jti", .string(claims.id)),
        ])
        let body = Self.base64URL(Array(JSONPrinter.compact(payload).utf8))
        let input = header + "." + body
        let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: key)
        return input + "." + Self.base64URL(Array(mac))
    }

    func verify(_ token: String, kind: String, now: Double) throws(Failure) -> Claims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let signature = Self.decodeBase64URL(String(parts[2])),
              let payloadBytes = Self.decodeBase64URL(String(parts[1])) else { throw .malformed }
        let input = Array("\(parts[0]).\(parts[1])".utf8)
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: input, using: key) else { throw .badSignature }
        guard let payload = try? JSONParser.parse(payloadBytes),
              let sub = payload["sub"]?.stringValue,
              let typ = payload["typ"]?.stringValue,
              let exp = payload["exp"].flatMap({ if case let .number(n) = $0 { return Double(n) } else { return nil } }),
              let gen = payload["gen"]?.intValue,
              let jti = payload["jti"]?.stringValue else { throw .malformed }
        guard typ == kind else { throw .wrongKind }
        guard exp > now else { throw .expired }
        return Claims(subject: sub, kind: typ, expires: exp, generation: gen, id: jti)
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decodeBase64URL(_ text: String) -> [UInt8]? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s).map { [UInt8]($0) }
    }
}
