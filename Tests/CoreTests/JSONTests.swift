import Foundation
import Testing
@testable import Core

@Suite struct JSONParserTests {
    @Test func keepsKeyOrderAndNumberLiterals() throws {
        let value = try JSONParser.parse(#"{"z": 1.50, "a": [true, null, -2e3], "m": "x"}"#)
        guard case let .object(members) = value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["z", "a", "m"])
        #expect(JSONPrinter.compact(value) == #"{"z":1.50,"a":[true,null,-2e3],"m":"x"}"#)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONParser.parse(#""a\"b\\c\n\u00e9\ud83d\ude00""#)
        #expect(value == .string("a\"b\\c\n\u{e9}😀"))
    }

    /// A surrogate alone (an emoji a server cut in half) is U+FFFD, as
    /// Python's json and HTTPie read it: the whole body fell back to text,
    /// and `show .ok` of its other members failed. The checker agrees.
    @Test func aSurrogateAloneIsTheReplacementCharacter() throws {
        let cases: [(String, String)] = [(#""\ud800""#, "\u{FFFD}"), (#""\udc00x""#, "\u{FFFD}x"), (#""\ud800\u0041""#, "\u{FFFD}A"),
                                         (#""\ud800\ud83d\ude00""#, "\u{FFFD}😀"), (#""\ud800\n""#, "\u{FFFD}\n"), (#""a\ud83d""#, "a\u{FFFD}")]
        for (text, decoded) in cases {
            #expect(try JSONParser.parse(text) == .string(decoded), "\(text)")
            #expect(JSONCheckerTests.check(Array(text.utf8)) == nil, "\(text)")
        }
        #expect(try JSONParser.parse(#"{"lone": "\ud800", "ok": 1}"#)["ok"] == .int(1))
    }

    @Test(arguments: [
        (#"{"a": 1,}"#, 1, 9, "expected a string key"),
        ("[1, 2", 1, 6, "expected ',' or ']'"),
        ("{\n  \"a\": tru\n}", 2, 8, "expected a JSON value"),
        (#""abc"#, 1, 1, "unterminated string"),
        ("01", 1, 2, "unexpected text after the JSON value"),
        ("", 1, 1, "expected a JSON value, found end of input"),
        // A line break in a string is said as one (`ws send @note.json` written by hand), a tab as any control.
        ("{\"a\": \"two\nlines\"}", 1, 11, #"a line break inside a string (write it as \n)"#),
        ("[\"a\tb\"]", 1, 4, "control character in string (escape it)"),
    ])
    func reportsWhereAndWhy(input: String, line: Int, column: Int, reason: String) {
        do {
            _ = try JSONParser.parse(input)
            Issue.record("parsed \(input)")
        } catch {
            #expect(error.line == line)
            #expect(error.column == column)
            #expect(error.reason.hasPrefix(reason), "\(error.reason)")
        }
    }

    @Test func boundsNestingDepth() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect((try? JSONParser.parse(fine)) != nil)
    }

    /// A preview's parse keeps the values that start in its first bytes
    /// and checks the rest: the same value when all fits, the same error
    /// wherever the text is wrong, a shorter tree when not all fits.
    @Test func aPrefixParseKeepsTheStartAndChecksTheRest() throws {
        let items = (0..<50).map { #"{"id": \#($0), "name": "n\u00e9 \#($0)", "tags": ["a", {"b": [1, 2.5e3, true, null]}]}"# }
        let text = "{\"items\": [" + items.joined(separator: ", ") + "], \"total\": 50}"
        let bytes = Array(text.utf8)
        let whole = try JSONParser.parse(bytes)
        let all = try JSONParser.parsePrefix(bytes, keep: bytes.count)
        #expect(all.complete && all.value == whole)
        let start = try JSONParser.parsePrefix(bytes, keep: 300)
        #expect(!start.complete)
        guard case let .array(kept)? = start.value["items"] else { Issue.record("no items"); return }
        #expect(kept.count >= 2 && kept.count < 10)
        #expect(kept.first == whole["items"]?[0])
        #expect(start.value["total"] == nil, "a member past the budget is left out")
        for broken in [text + "x", text.replacingOccurrences(of: "\"total\": 50", with: "\"total\": 5O"),
                       text.replacingOccurrences(of: "n\\u00e9 49", with: "n\\u00g9 49"), String(text.dropLast(3))] {
            let full = Result<JSONValue, JSONParseError> { () throws(JSONParseError) in try JSONParser.parse(broken) }
            let prefix = Result<JSONValue, JSONParseError> { () throws(JSONParseError) in try JSONParser.parsePrefix(Array(broken.utf8), keep: 300).value }
            guard case let .failure(expected) = full, case let .failure(got) = prefix else {
                Issue.record("\(broken.suffix(20)) should fail both ways"); continue
            }
            #expect(got == expected)
        }
    }

    @Test func numbersCompareByValue() throws {
        #expect(try JSONParser.parse("1.0") == JSONParser.parse("1"))
        #expect(try JSONParser.parse("1.5") != JSONParser.parse("1"))
    }
}

@Suite struct JSONPrinterTests {
    @Test func prettyPrintsWithTwoSpaces() throws {
        let value = try JSONParser.parse(#"{"b":[1,{"c":null}],"a":{},"e":[]}"#)
        #expect(JSONPrinter.pretty(value) == """
        {
          "b": [
            1,
            {
              "c": null
            }
          ],
          "a": {},
          "e": []
        }
        """)
    }

    @Test func escapesControlCharacters() {
        #expect(JSONPrinter.quote("a\u{1}\t\"") == #""a\u0001\t\"""#)
        // Strings with nothing to escape are copied whole; a lone backslash is not.
        #expect(JSONPrinter.quote("Zürich 🚲") == "\"Zürich 🚲\"")
        #expect(JSONPrinter.quote("a\\b") == #""a\\b""#)
        #expect(JSONPrinter.compact(.object([("k\"", .array([.string("é\n"), .null]))])) == #"{"k\"":["é\n",null]}"#)
    }

    /// The byte writer a server answers with prints exactly what `compact` prints.
    @Test func compactBytesAreCompactText() throws {
        let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        let values: [JSONValue] = [
            .null, .bool(true), .bool(false), .number("-2e3"), .string(""), .string(controls),
            .string("a\\b\"c"), .string("Zürich 🚲 東京"), .array([]), .object([]),
            .object([("k\"\u{7}", .array([.string("é\n"), .null, .object([("", .number("1.50"))])]))]),
            try JSONParser.parse(#"{"tasks":[{"id":1,"title":"Walk a dog","images":[],"taker_id":null}],"total":1}"#),
        ]
        for value in values {
            #expect(JSONPrinter.compactUTF8(value) == Array(JSONPrinter.compact(value).utf8))
        }
        #expect(String(decoding: JSONPrinter.compactUTF8(.string("\u{1F}")), as: UTF8.self) == #""\u001f""#)
    }

    @Test func stylesTokens() throws {
        let style = JSONStyle(key: ("<k>", "</k>"), string: ("<s>", "</s>"), number: ("<n>", "</n>"), literal: ("<l>", "</l>"), punctuation: ("", ""))
        let text = JSONPrinter.pretty(try JSONParser.parse(#"{"a":"x","b":2,"c":true}"#), style: style)
        #expect(text.contains(#"<k>"a"</k>: <s>"x"</s>"#))
        #expect(text.contains("<n>2</n>"))
        #expect(text.contains("<l>true</l>"))
    }
}

@Suite struct JSONPathTests {
    let body = try! JSONParser.parse(#"{"tasks":[{"id":7,"odd key":"v"},{"id":9}],"total":2}"#)

    @Test(arguments: [(".tasks[0].id", "7"), ("tasks[1].id", "9"), (".tasks[-1].id", "9"),
                      (#".tasks[0]["odd key"]"#, #""v""#), (".total", "2")])
    func picksValues(path: String, expected: String) throws {
        let value = try JSONPath.parse(path).evaluate(body).get()
        #expect(JSONPrinter.compact(value) == expected)
    }

    @Test func rootIsTheWholeValue() throws {
        #expect(try JSONPath.parse(".").evaluate(body).get() == body)
    }

    /// jq's quoted keys after a dot: `.""` was "unexpected '\"'", and a
    /// jq user's `."a.b"` read as two keys.
    @Test func aKeyQuotedAfterADotIsOneKey() throws {
        let odd = try JSONParser.parse(#"{"": "empty", "a.b": {"c d": 1}, "a": {"b": 2}}"#)
        #expect(try JSONPath.parse(#"."""#).evaluate(odd).get() == .string("empty"))
        #expect(try JSONPath.parse(#"."a.b"."c d""#).evaluate(odd).get() == .int(1))
        #expect(try JSONPath.parse(".a.b").evaluate(odd).get() == .int(2))
        #expect(throws: JSONPath.ParseError.self) { try JSONPath.parse(#"."open"#) }
    }

    @Test func explainsMisses() throws {
        guard case let .failure(e1) = try JSONPath.parse(".tasks[5]").evaluate(body) else { Issue.record("found"); return }
        #expect(e1.message == ".tasks has 2 elements, no index 5")
        guard case let .failure(e2) = try JSONPath.parse(".total.x").evaluate(body) else { Issue.record("found"); return }
        #expect(e2.message == ".total is a number, not an object")
        guard case let .failure(e3) = try JSONPath.parse(".nope").evaluate(body) else { Issue.record("found"); return }
        #expect(e3.message == #". has no key "nope""#)
    }

    @Test func rejectsBadSyntax() {
        #expect(throws: JSONPath.ParseError.self) { try JSONPath.parse(".tasks[") }
        #expect(throws: JSONPath.ParseError.self) { try JSONPath.parse(".a..b") }
        #expect(throws: JSONPath.ParseError.self) { try JSONPath.parse(".tasks[x]") }
    }
}

/// `JSONValue` through Codable (issue 11 #16: error details of any shape).
@Suite struct JSONValueCodableTests {
    @Test func anyJSONRoundTripsThroughCodable() throws {
        let text = #"{"a":[1,2.5,"x",true,null,{"b":-3}],"c":{}}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(value == (try JSONParser.parse(text)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == text)
    }
}

/// A large body's preview is printed only as far as it shows; the rest is never made.
@Suite struct JSONPreviewTests {
    static let samples: [String] = [
        #"{"a": 1, "b": [true, false, null], "c": {"d": "e\"\\\n\u0001", "f": []}, "g": {}}"#,
        #"[1, 2.50, "x", [[]], {"k": [{"z": "ünïcødé 🎉"}]}]"#,
        #""just a string""#,
        #"{"access_token": "abc", "list": ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"], "password": ""}"#,
        #"{"api_key": 12345, "pin_code": 7, "passcode": 0, "n": [1, {"secret": -2.5}]}"#,
    ]

    @Test(arguments: samples)
    func aCutPreviewIsTheStartOfTheWholeText(text: String) throws {
        let value = try JSONParser.parse(text)
        let whole = JSONPrinter.pretty(Redactor.redact(json: value), style: .plain)
        for limit in [1, 5, 17, 40, 10_000] {
            let (start, complete) = JSONPrinter.pretty(value, limit: limit, shown: Redactor.shownRememberingKeys())
            #expect(whole.hasPrefix(start))
            #expect(complete == (start == whole))
            if !complete { #expect(start.utf8.count >= limit) }
        }
    }

    @Test func aBodyOfManyItemsStopsSoonAfterTheLimit() {
        let big = JSONValue.array((0..<100_000).map { .object([("id", .int($0)), ("name", .string("item \($0)"))]) })
        let (start, complete) = JSONPrinter.pretty(big, limit: 1_000)
        #expect(!complete)
        #expect(start.utf8.count < 1_100)
    }
}

extension JSONPreviewTests {
    @Test(arguments: samples)
    func rememberingKeysHidesWhatShownHides(text: String) throws {
        let value = try JSONParser.parse(text)
        let remembering = Redactor.shownRememberingKeys()
        for _ in 0..<2 {
            #expect(JSONPrinter.pretty(value, limit: .max, shown: remembering).text == JSONPrinter.pretty(Redactor.redact(json: value)))
        }
    }
}
