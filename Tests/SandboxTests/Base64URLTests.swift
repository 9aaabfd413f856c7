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
