import Testing
@testable import Sandbox

/// The hand-written base64url decoder of token parts, against the encoder.
struct Base64URLTests {
    @Test func decodingUndoesEncodingForEveryLength() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...48 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = TokenSigner.base64URL(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(TokenSigner.decodeBase64URL(text) == bytes, "length \(length): \(text)")
        }
        // Every byte value, in the positions of a three-byte group.
        let all = (0...255).map(UInt8.init)
        #expect(TokenSigner.decodeBase64URL(TokenSigner.base64URL(all)) == all)
    }

    @Test(arguments: [
        ("AA", [UInt8(0)]),
        ("_-8", [0xFF, 0xEF]),
        ("eyJhIjoxfQ", Array(#"{"a":1}"#.utf8)),
    ])
    func knownValues(text: String, bytes: [UInt8]) {
        #expect(TokenSigner.decodeBase64URL(text) == bytes)
    }

    @Test(arguments: ["A", "AAAAA", "AA==", "A+", "A/", "A A", "AB", "é"])
    func refusesWhatNoEncoderWrites(text: String) {
        #expect(TokenSigner.decodeBase64URL(text) == nil)
    }
}

/// Tokens as the sandbox reads them off a request: the header's scheme, then
/// the three dot-separated parts.
struct TokenReadingTests {
    let signer = TokenSigner(key: .init(data: [UInt8](repeating: 7, count: 32)))

    func token(expires: Double = 2_000) -> String {
        signer.sign(.init(subject: "1", kind: "access", expires: expires, generation: 0, id: "j"))
    }

    @Test func aSignedTokenVerifiesAndEveryAlterationIsRefused() throws {
        let good = token()
        let claims = try signer.verify(good, kind: "access", now: 1_000)
        #expect(claims.subject == "1" && claims.id == "j")
        let parts = good.split(separator: ".").map(String.init)
        let malformed = [parts[0] + "." + parts[1], good + ".x", good + ".", "." + good, "", parts[0] + "." + parts[1] + ".!!"]
        for text in malformed {
            #expect(throws: TokenSigner.Failure.malformed, "\(text)") { try signer.verify(text, kind: "access", now: 1_000) }
        }
        // An empty part is valid base64url (no bytes), so these fail at the signature.
        for text in [parts[0] + ".." + parts[2], ".."] {
            #expect(throws: TokenSigner.Failure.badSignature, "\(text)") { try signer.verify(text, kind: "access", now: 1_000) }
        }
        let otherPayload = TokenSigner.base64URL(Array(#"{"sub":"2","typ":"access","exp":2000,"gen":0,"jti":"j"}"#.utf8))
        #expect(throws: TokenSigner.Failure.badSignature) {
            try signer.verify([parts[0], otherPayload, parts[2]].joined(separator: "."), kind: "access", now: 1_000)
        }
        #expect(throws: TokenSigner.Failure.expired) { try signer.verify(token(expires: 999), kind: "access", now: 1_000) }
        #expect(throws: TokenSigner.Failure.wrongKind) { try signer.verify(good, kind: "refresh", now: 1_000) }
    }

    @Test(arguments: [
        ("Bearer abc", "abc"), ("bearer abc", "abc"), ("BEARER abc", "abc"), ("Bearer  \tabc \t", "abc"),
        ("Bearer ", ""),
    ])
    func readsTheBearerScheme(header: String, token: String) {
        #expect(SandboxState.bearerToken(header) == token)
    }

    @Test(arguments: ["Bearerabc", "Bearer", "Basic abc", "Bearer\tabc", "Bearer\u{0}abc", "Béarer abc", ""])
    func refusesOtherSchemes(header: String) {
        #expect(SandboxState.bearerToken(header) == nil)
    }
}
