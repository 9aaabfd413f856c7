import Testing
@testable import Core

@Suite struct TranscriptPatternTests {
    /// A server's escape codes in a text body or an error line were written
    /// into the transcript as they came: `cat` of the file cleared the screen
    /// and set the window's title. They are written as patterns that match
    /// them; a reason phrase (never compared) as `\u{1B}`.
    @Test func controlCharactersAreWrittenAsPatternsThatMatchThem() throws {
        let live = "\u{1B}[31mred\u{1B}[0m\tand \u{1B}]0;title\u{07} \u{9B}x {{"
        let written = PatternText.literal(live).description
        #expect(!written.unicodeScalars.contains { PatternText.isControl($0) })
        #expect(written == #"{{/\x{1B}/}}[31mred{{/\x{1B}/}}[0m"# + "\t" + #"and {{/\x{1B}/}}]0;title{{/\x{7}/}} {{/\x{9B}/}}x {{/\{\{/}}"#)
        #expect(try PatternText.parse(written).match(live, bound: { _ in nil }) != nil)
        #expect(try PatternText.parse(written).match(live.replacingOccurrences(of: "\u{1B}", with: "^["), bound: { _ in nil }) == nil)
        #expect(Materializer.sample(of: #"\x{1B}"#) == "\u{1B}", "the mock sends the character back")
        let line = TranscriptWriter.response(Expectation(status: 200, reason: "O\u{1B}[2JK"))
        #expect(line == [#"HTTP/1.1 200 O\u{1B}[2JK"#])
    }

    /// A `\r\n` is one character: its two patterns could not each take one,
    /// and a recording failed against the server it was made from. A `{{`
    /// whose second brace carries a combining mark is one character too:
    /// left unescaped, the transcript did not parse.
    @Test func whatIsOneCharacterOfTwoCodePointsIsWrittenSoItReplays() throws {
        for live in ["a\r\nb", "{{\u{301}x}}", "\r\n\r\n", "e\u{301}{{"] {
            let written = PatternText.literal(live).description
            #expect(!written.unicodeScalars.contains { PatternText.isControl($0) })
            let parsed = try PatternText.parse(written)
            #expect(parsed.match(live, bound: { _ in nil }) != nil, "\(written)")
            #expect(parsed.match(live + "x", bound: { _ in nil }) == nil, "\(written)")
        }
        #expect(PatternText.literal("{{\u{301}x}}").description == #"{{/\{\{/}}"# + "\u{301}x}}")
        // A regex reads code points too, as jq and Python do: `.` is one.
        #expect(try PatternText.parse("{{/caf..$/}}").match("cafe\u{301}", bound: { _ in nil }) != nil)
        #expect(try PatternText.parse("{{/caf.$/}}").match("cafe\u{301}", bound: { _ in nil }) == nil)
        #expect(TranscriptPattern(.regex("caf..")).accepts(.string("cafe\u{301}")))
        // Any whole number is an integer, however long.
        for text in ["12345678901234567890", "-0", "1E2", "1.0", "1e400"] { #expect(TranscriptPattern(.integer).accepts(.number(text)), "\(text)") }
        for text in ["1.5", "1e-1", "12345678901234567890.1"] { #expect(!TranscriptPattern(.integer).accepts(.number(text)), "\(text)") }
        // Composed and decomposed accents are other bytes: not the same text.
        #expect(try PatternText.parse("caf\u{E9} {{/.*/}}").match("cafe\u{301} x", bound: { _ in nil }) == nil)
        #expect(PatternText.literal("caf\u{E9}").match("cafe\u{301}", bound: { _ in nil }) == nil)
    }

    @Test(arguments: [
        ("*", TranscriptPattern(.any)), ("integer", TranscriptPattern(.integer)), ("number", TranscriptPattern(.number)),
        ("string", TranscriptPattern(.string)), ("uuid", TranscriptPattern(.uuid)), ("timestamp", TranscriptPattern(.timestamp)),
        ("jwt", TranscriptPattern(.jwt)), (#"/ab+c/"#, TranscriptPattern(.regex("ab+c"))),
        ("secret:access_token", TranscriptPattern(.secret("access_token"))), ("task_id", TranscriptPattern(.reference("task_id"))),
        ("task_id:=integer", TranscriptPattern(.integer, capture: "task_id")), (" id := * ", TranscriptPattern(.any, capture: "id")),
        // A name as `capture` and `set` take it, in any script: `capture 名 = .数据.名字` recorded `{{名}}`, which did not parse.
        ("名", TranscriptPattern(.reference("名"))), ("名字_2:=string", TranscriptPattern(.string, capture: "名字_2")),
    ])
    func parsesEveryKind(text: String, pattern: TranscriptPattern) throws {
        #expect(try TranscriptPattern.parse(text) == pattern)
        #expect(try TranscriptPattern.parse(String(pattern.description.dropFirst(2).dropLast(2))) == pattern)
    }

    @Test(arguments: ["integer:=string", "secret:", "a b", "id:=secret:x", "/(/", "2名", "名-字"])
    func rejectsWhatIsNotAPattern(text: String) {
        #expect(throws: TranscriptPattern.SyntaxError.self) { try TranscriptPattern.parse(text) }
    }

    @Test func typedKindsAcceptWholeValues() throws {
        let uuid = JSONValue.string("123e4567-e89b-12d3-a456-426614174000")
        let jwt = JSONValue.string("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl")
        #expect(TranscriptPattern(.integer).accepts(.number("42")))
        #expect(TranscriptPattern(.integer).accepts(.number("42.0")))
        #expect(!TranscriptPattern(.integer).accepts(.number("4.5")))
        #expect(!TranscriptPattern(.integer).accepts(.string("42")))
        #expect(TranscriptPattern(.number).accepts(.number("4.5e3")))
        #expect(!TranscriptPattern(.number).accepts(.null))
        #expect(TranscriptPattern(.string).accepts(.string("")))
        #expect(!TranscriptPattern(.string).accepts(.number("1")))
        #expect(TranscriptPattern(.uuid).accepts(uuid))
        #expect(!TranscriptPattern(.uuid).accepts(.string("123e4567-e89b-12d3-a456")))
        #expect(TranscriptPattern(.jwt).accepts(jwt))
        #expect(!TranscriptPattern(.jwt).accepts(.string("a.b.c")))
        #expect(TranscriptPattern(.any).accepts(.null))
        #expect(TranscriptPattern(.any).accepts(.object([])))
        #expect(TranscriptPattern(.secret("x")).accepts(.string("s3cret")))
        #expect(!TranscriptPattern(.secret("x")).accepts(.string("")))
        #expect(TranscriptPattern(.regex("[a-z]+-[0-9]+")).accepts(.string("task-12")))
        #expect(!TranscriptPattern(.regex("[a-z]+")).accepts(.string("task-12")))
        #expect(TranscriptPattern(.regex("4[0-9]")).accepts(.number("42")))
    }

    @Test(arguments: ["2025-01-05T09:00:00Z", "2025-01-05T09:00Z", "2025-01-05 09:00:00.123+01:00", "2025-01-05T09:00:00,5-0800",
                      "2025-01-05T09:00:00", "2025-01-05t09:00:00z", "2016-12-31T23:59:60Z", "2025-12-31T00:00:00Z", "2024-02-29T00:00:00Z",
                      "2000-02-29T00:00:00Z", "2025-01-05T09:00:00+14:00"])
    func timestamps(text: String) {
        #expect(TranscriptPattern(.timestamp).accepts(text: text))
    }

    @Test(arguments: ["2025-01-05", "2025-1-05T09:00:00Z", "2025-01-05T09:00:00+1", "yesterday", "2025-01-05T09:00:00ZZ",
                      "2025-13-45T99:99:99Z", "2025-00-05T09:00:00Z", "2025-01-32T09:00:00Z", "2025-01-05T24:00:00Z", "2025-01-05T09:60:00Z",
                      "2025-02-30T09:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2025-04-31T00:00:00Z",
                      "2025-01-05T09:00:00+25:00", "2025-01-05T09:00:00+01:60"])
    func notTimestamps(text: String) {
        #expect(!TranscriptPattern(.timestamp).accepts(text: text))
    }
}

@Suite struct PatternTextTests {
    @Test func splitsLiteralsAndPatterns() throws {
        let text = try PatternText.parse("Bearer {{secret:access_token}} for {{id:=integer}}")
        #expect(text.pieces == [.literal("Bearer "), .pattern(.init(.secret("access_token"))), .literal(" for "),
                                .pattern(.init(.integer, capture: "id"))])
        #expect(text.description == "Bearer {{secret:access_token}} for {{id:=integer}}")
    }

    @Test func aRegexMayHoldBraces() throws {
        let text = try PatternText.parse(#"x{{/a{2}}b/}}y"#)
        #expect(text.pieces == [.literal("x"), .pattern(.init(.regex("a{2}}b"))), .literal("y")])
        #expect(try PatternText.parse(#"{{n:=/[0-9]{3}/}}"#).patterns == [TranscriptPattern(.regex("[0-9]{3}"), capture: "n")])
    }

    @Test func literalBracesAreWrittenAsARegex() throws {
        let text = PatternText.literal("a {{b}} c")
        #expect(text.description == #"a {{/\{\{/}}b}} c"#)
        let back = try PatternText.parse(text.description)
        #expect(back.match("a {{b}} c", bound: { _ in nil }) != nil)
    }

    /// A literal `{` just before a pattern (a braced GUID, `{` then an escape
    /// code, a GraphQL query's `{` at a line's end) was written `{{{uuid}}}`,
    /// which reads as `{{` opening `{uuid`: the recording did not parse.
    @Test func aBraceBeforeAPatternIsWrittenSoItReadsBack() throws {
        let cases: [(PatternText, String)] = [
            (PatternText([.literal("{"), .pattern(.init(.uuid)), .literal("}")]), "{123e4567-e89b-12d3-a456-426614174000}"),
            (PatternText([.literal("{{"), .pattern(.init(.timestamp)), .literal("}")]), "{{2024-01-05T09:00:00Z}"),
            (PatternText.literal("{\u{1B}[31m}"), "{\u{1B}[31m}"),
            (PatternText.literal("{\n}"), "{\n}"),
        ]
        for (text, live) in cases {
            let written = text.description
            let back = try PatternText.parse(written)
            #expect(back.match(live, bound: { _ in nil }) != nil, "\(written)")
        }
        #expect(PatternText([.literal("{"), .pattern(.init(.uuid)), .literal("}")]).description == #"{{/\{/}}{{uuid}}}"#)
    }

    @Test func unclosedPatternSaysWhere() {
        #expect(throws: PatternText.SyntaxError(offset: 4, reason: "'{{' is not closed by '}}' on its line (a literal '{{' is written {{/\\{\\{/}})")) {
            try PatternText.parse("abc {{integer")
        }
    }

    @Test func matchesAndCapturesTheShortestText() throws {
        let text = try PatternText.parse("/api/tasks/{{id:=integer}}/{{rest:=*}}")
        #expect(text.match("/api/tasks/42/a/b", bound: { _ in nil }) == ["id": "42", "rest": "a/b"])
        #expect(text.match("/api/tasks/x/a", bound: { _ in nil }) == nil)
        let pair = try PatternText.parse("{{a:=*}}-{{b:=*}}")
        #expect(pair.match("x-y-z", bound: { _ in nil }) == ["a": "x", "b": "y-z"])
    }

    @Test func referencesUseWhatIsBound() throws {
        let text = try PatternText.parse("task {{id}} of {{base_url}}")
        let bound = ["id": "6", "base_url": "http://h:1"]
        #expect(text.match("task 6 of http://h:1", bound: { bound[$0] }) == [:])
        #expect(text.match("task 7 of http://h:1", bound: { bound[$0] }) == nil)
        #expect(text.match("task 6 of http://h:1", bound: { _ in nil }) == nil)
        let twice = try PatternText.parse("{{x:=integer}}+{{x}}")
        #expect(twice.match("2+2", bound: { _ in nil }) == ["x": "2"])
        #expect(twice.match("2+3", bound: { _ in nil }) == nil)
    }

    /// Texts whose every pattern is already bound are compared whole (the
    /// replay's common case); a bound value the pattern does not accept
    /// still fails, and a last pattern still takes the rest of the text.
    @Test func boundPatternsAndALastPatternMatchAsTheSearchDid() throws {
        let bound = ["id": "12", "word": "abc", "base_url": "http://h:1"]
        let cases: [(pattern: String, text: String, captures: [String: String]?)] = [
            ("{{base_url}}/uploads/a.png", "http://h:1/uploads/a.png", [:]),
            ("{{base_url}}/uploads/a.png", "http://h:1/uploads/b.png", nil),
            ("{{base_url}}/uploads/a.png", "http://h:1/uploads/a.png/", nil),
            ("/tasks/{{id:=integer}}", "/tasks/12", [:]),
            ("/tasks/{{id:=integer}}", "/tasks/13", nil),
            ("/tasks/{{word:=integer}}", "/tasks/abc", nil),
            ("/tasks/{{word:=/[a-c]+/}}", "/tasks/abc", [:]),
            ("/tasks/{{word:=/[x-z]+/}}", "/tasks/abc", nil),
            ("/tasks/{{n:=integer}}", "/tasks/12345", ["n": "12345"]),
            ("/tasks/{{n:=integer}}", "/tasks/12a", nil),
            ("at {{timestamp}}", "at 2026-11-26T10:00:00Z", [:]),
            ("{{/[A-Za-z0-9.:-]+/}}", "127.0.0.1:8080", [:]),
            ("{{/[A-Za-z0-9.:-]+/}}", "127.0.0.1 8080", nil),
        ]
        for (pattern, text, captures) in cases {
            #expect(try PatternText.parse(pattern).match(text, bound: { bound[$0] }) == captures, "\(pattern) against \(text)")
        }
    }
}
