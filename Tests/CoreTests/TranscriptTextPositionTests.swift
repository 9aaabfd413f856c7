import Testing
@testable import Core

/// The body and pattern parsers walk UTF-8 bytes; what a person reads counts
/// characters. These pin non-ASCII text: values decode whole, and an error's
/// column is the character an editor would put the cursor on.
struct TranscriptTextPositionTests {
    static let head = "# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n> get /x\nHTTP/1.1 200 OK\n"

    @Test func nonASCIIStringsDecodeWhole() throws {
        let transcript = try TranscriptParser.parse(Self.head + "{\"city\": \"Zürich 🚲\", \"名前\": \"\\u00e9t\\u00e9\"}\n")
        let body = try #require(transcript.steps.first?.expectation.body)
        #expect(body == .json(.object([.init("city", .literal(.string("Zürich 🚲"))), .init("名前", .literal(.string("été")))], open: false)))
    }

    @Test func aPatternAfterNonASCIITextKeepsItsLiteralPrefix() throws {
        let transcript = try TranscriptParser.parse(Self.head + "{\"note\": \"café {{uuid}}\"}\n")
        let body = try #require(transcript.steps.first?.expectation.body)
        guard case let .json(.object(members, _)) = body, case let .text(text)? = members.first?.value else {
            Issue.record("expected a text pattern, got \(body)")
            return
        }
        #expect(text.pieces.first == .literal("café "))
        #expect(text.pieces.count == 2)
    }

    @Test(arguments: [
        // `tru` starts at the 18th character, after two CJK keys' worth of multi-byte text.
        ("{\"名前\": \"値\", \"a\": tru}\n", 6, 18, "'tru' is not a JSON value"),
        // A tab inside a string is invalid JSON, also after an accent.
        ("{\"é\": \"a\tb\"}\n", 6, 7, "invalid string: control character in string (escape it)"),
        ("{\"é\": 1 ü}\n", 6, 9, "expected ',' or '}', found 'ü'"),
        // A header's unclosed pattern, after an accented letter.
        ("X-Id: é{{nope\n", 6, 8, "'{{' is not closed by '}}' on its line (a literal '{{' is written {{/\\{\\{/}})"),
    ])
    func errorColumnsCountCharacters(body: String, line: Int, column: Int, message: String) {
        #expect(throws: TranscriptParseError(line: line, column: column, message: message)) { try TranscriptParser.parse(Self.head + body) }
    }

    @Test func aFileWithCRLFLineEndsReadsAsTheSameTranscript() throws {
        let text = Self.head + "{\"a\": 1}\n\n# a comment\n> get /y\n| text\n"
        let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try TranscriptParser.parse(crlf) == TranscriptParser.parse(text))
        #expect(try TranscriptParser.parse(crlf).steps.map(\.command) == ["get /x", "get /y"])
    }

    @Test func aLineOfUnicodeSpacesIsBlank() throws {
        // U+00A0 and U+3000 between two steps: blank, as spaces are.
        let text = Self.head + "{\"a\": 1}\n\u{00A0}\u{3000}\n> get /y\n"
        #expect(try TranscriptParser.parse(text).steps.count == 2)
    }
}
