import Crypto
import Foundation
import Core

/// HS256 JSON Web Tokens: the sandbox's access and refresh tokens.
struct TokenSigner: Sendable {
    let key: SymmetricKey

    struct Claims: Sendable {
        var subject: String
        var kind: String          // "access" or "refresh"
        var expires: Double       // seconds since 1970; signed as whole seconds, rounded up
        var generation: Int       // bumped by the "expire all access tokens" fault switch
        var id: String
    }

    enum Failure: Error { case malformed, badSignature, expired, wrongKind }

    func sign(_ claims: Claims) -> String {
        let header = Self.base64URL(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload: JSONValue = .object([
            ("sub", .string(claims.subject)),
            ("typ", .string(claims.kind)),
            // Whole seconds, as RFC 7519's NumericDate is mostly read (an iOS decoder of an Int refused `1795947640.216`),
            // rounded up: a token lasts its lifetime at least.
            ("exp", .number(String(Int(claims.expires.rounded(.up))))),
            ("gen", .int(claims.generation)),
            ("jti", .string(claims.id)),
        ])
        let body = Self.base64URL(Array(JSONPrinter.compact(payload).utf8))
        let input = header + "." + body
        let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: key)
        return input + "." + Self.base64URL(Array(mac))
    }

    func verify(_ token: String, kind: String, now: Double) throws(Failure) -> Claims {
        // Split at the two dots over the bytes: every authenticated request
        // comes through here.
        let bytes = Array(token.utf8)
        let dot = UInt8(ascii: ".")
        guard let first = bytes.firstIndex(of: dot),
              let second = bytes[(first + 1)...].firstIndex(of: dot),
              !bytes[(second + 1)...].contains(dot),
              let signature = Self.decodeBase64URL(bytes[(second + 1)...]),
              let payloadBytes = Self.decodeBase64URL(bytes[(first + 1)..<second]) else { throw .malformed }
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: bytes[..<second], using: key) else { throw .badSignature }
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

    /// Unpadded base64url (RFC 4648 §5), as JWTs carry it; nil for any other
    /// character, a length no encoder makes, or stray bits in the last one.
    /// Decoded by hand: every authenticated request decodes two parts, and
    /// rewriting the text for Foundation's decoder showed in profiles.
    static func decodeBase64URL(_ text: String) -> [UInt8]? {
        decodeBase64URL(Array(text.utf8)[...])
    }

    static func decodeBase64URL(_ input: ArraySlice<UInt8>) -> [UInt8]? {
        func sextet(_ c: UInt8) -> UInt32? {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(c - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "-"): 62
            case UInt8(ascii: "_"): 63
            default: nil
            }
        }
        guard input.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(input.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for c in input {
            guard let value = sextet(c) else { return nil }
            accumulator = accumulator << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // The leftover bits of the last character must be zero (canonical encoding).
        guard accumulator == 0 else { return nil }
        return out
    }
}
