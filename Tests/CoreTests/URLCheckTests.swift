import Foundation
import Testing
@testable import Core

/// A scheme has no case (RFC 3986 3.1): `HTTPS://host` was refused as "not
/// an http:// or https:// URL" everywhere but on a request line.
@Suite struct URLCheckTests {
    @Test(arguments: [("HTTPS://H.example/A?B", "https://H.example/A?B"), ("Http://h:1", "http://h:1"), ("WSS://h/ws", "wss://h/ws"),
                      ("https://h", "https://h"), ("/path://x", "/path://x"), ("no scheme", "no scheme"), ("a1b://x", "a1b://x")])
    func aSchemeIsReadInAnyCase(text: String, lowered: String) {
        #expect(URLCheck.lowercasingScheme(text) == lowered)
    }

    @Test func everyPlaceThatTakesABaseURLTakesAnUpperCaseScheme() throws {
        #expect(URLCheck.problem("HTTPS://h.example") == nil)
        #expect(try URLCheck.url("HTTP://h.example:8080/v1").get().absoluteString == "http://h.example:8080/v1")
        #expect(URLCheck.problem("FTP://h.example") == "'FTP://h.example' is not an http:// or https:// URL")
        let transcript = try TranscriptParser.parse("\(Transcript.versionLine)\nprofile: generic\nbase-url: HTTPS://h.example\n")
        #expect(transcript.header.target == .url("https://h.example"))
    }
}
