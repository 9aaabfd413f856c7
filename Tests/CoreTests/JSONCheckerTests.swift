import Testing
@testable import Core

/// `JSONChecker` reads a body in the pieces it arrives in and must judge it
/// exactly as `JSONParser` does: the same verdict, the same first error.
@Suite struct JSONCheckerTests {
    /// The checker's verdict on `bytes` fed in pieces split at `cuts`.
    static func check(_ bytes: [UInt8], cuts: [Int] = []) -> JSONParseError? {
        var checker = JSONChecker()
        var start = 0
        for cut in cuts.sorted() + [bytes.count] where cut >= start && cut <= bytes.count {
            checker.feed(Array(bytes[start..<cut]))
            start = cut
        }
        return checker.finish { String(decoding: bytes[$0], as: UTF8.self).count }
    }

    static func parserError(_ bytes: [UInt8]) -> JSONParseError? {
        do { _ = try JSONParser.parse(bytes); return nil } catch { return error }
    }

    static let corpus: [String] = [
        "", " ", "0", "-0", "-", "-x", "01", "1.", "1.5", "1.5.2", "1e", "1e+", "1E-7", "1e+x", "-12.5e10", "12 ", " 12 13",
        "true", "tru", "truex", "false", "fals", "null", "nul", "nulll", "x", "[", "]", "{", "}", "[]", "{}", "[ ]", "{ }",
        "[1,]", "[1 2]", "[,1]", "[1,2,[3,[4]]]", "[[[[", "]]", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{\"a\" 1}", "{1:2}",
        "{\"a\":1 \"b\":2}", "{\"a\":[1,{\"b\":null}],\"c\":\"d\"}", "{\"a\":1}}", "{\"a\":1}x", "[1]\n\n x",
        "\"abc", "\"abc\"", "\"a\\\"b\"", "\"a\\", "\"a\\x\"", "\"\\u00e9\"", "\"\\u00\"", "\"\\u00g9\"", "\"\\u12",
        "\"\\ud83d\\ude00\"", "\"\\ud83d\"", "\"\\ud83dx\"", "\"\\ud83d\\n\"", "\"\\ud83d\\", "\"\\ud83d\\u0041\"", "\"\\ude00\"",
        "\"\\ud83d\\ude0", "\"tab\there\"", "\"line\nbreak\"", "\"\u{7F}\"", "\"é😀\"", "[\"é\", 1, x]",
        "{\n  \"a\": tru\n}", "[\n1,\n2,\n\"é\" x]", "\r\n[1]\r\n", "\t{\"k\":\n\n}", "[1e5, -0.0, 0.1E+2, 1E2]",
        "{\"a\":{\"b\":{\"c\":[true,false,null]}}}", "[\"\\/\\b\\f\\n\\r\\t\"]", "[nulL]", "[-]", "[0x10]", "[.5]", "[+1]",
        "\u{FEFF}[1]", "[1]\u{0}", "[\"a\u{0}\"]",
    ]

    @Test(arguments: corpus)
    func agreesWithTheParser(text: String) {
        let bytes = Array(text.utf8)
        let expected = Self.parserError(bytes)
        #expect(Self.check(bytes) == expected, "whole: \(text.debugDescription)")
        // Every split into two pieces, and a piece per byte.
        for cut in 0...bytes.count {
            #expect(Self.check(bytes, cuts: [cut]) == expected, "cut at \(cut): \(text.debugDescription)")
        }
        #expect(Self.check(bytes, cuts: Array(0..<bytes.count)) == expected, "byte by byte: \(text.debugDescription)")
    }

    @Test func nestingStopsWhereTheParserStops() {
        for depth in [JSONParser.maximumDepth, JSONParser.maximumDepth + 1] {
            let bytes = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
            let expected = Self.parserError(bytes)
            #expect((expected == nil) == (depth == JSONParser.maximumDepth))
            #expect(Self.check(bytes, cuts: [depth / 2, depth]) == expected)
        }
    }

    /// Mutations of a document that uses every construct, each byte replaced,
    /// dropped or doubled: thousands of broken texts, each judged the same way.
    @Test func agreesOnMutatedDocuments() throws {
        let source = Array(#"{"id": 12, "name": "R\u00e9my \ud83d\ude00", "ok": true, "no": null, "f": false, "n": -1.5e+3, "list": [0, [], {}, "a\"b"]}"#.utf8)
        let replacements: [UInt8] = Array("\"\\{}[]:,0-.eE+ tfnu9x\n".utf8) + [0x01, 0xC3]
        var disagreements: [String] = []
        for position in source.indices {
            var variants: [[UInt8]] = [Array(source[..<position] + source[(position + 1)...]),
                                       Array(source[...position] + source[position...])]
            for byte in replacements where byte != source[position] {
                var changed = source
                changed[position] = byte
                variants.append(changed)
            }
            for variant in variants where Self.check(variant, cuts: [position, position + 1]) != Self.parserError(variant) {
                disagreements.append(String(decoding: variant, as: UTF8.self))
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagree; first: \(disagreements.first ?? "")")
    }

    @Test func countsColumnsInCharactersFromBytesItNoLongerHas() {
        let bytes = Array("[\n  \"é😀\", x]".utf8)
        let error = Self.check(bytes, cuts: [3, 7])
        #expect(error == JSONParseError(offset: 14, line: 2, column: 9, reason: "expected a JSON value, found 'x'"))
        #expect(error == Self.parserError(bytes))
    }
}

/// The start of a spooled body, parsed for a preview without its rest.
@Suite struct TruncatedPrefixTests {
    static let document: String = {
        let items = (0..<40).map { #"{"id": \#($0), "title": "Task \#($0) \u00e9", "done": \#($0 % 2 == 0), "price": 12.5, "tags": ["a", null]}"# }
        return #"{"items": ["# + items.joined(separator: ", ") + #"], "total": 40}"#
    }()

    @Test func everyCutGivesTheStartOfTheWhole() throws {
        let bytes = Array(Self.document.utf8)
        let whole = try JSONParser.parse(bytes)
        guard case let .array(all)? = whole["items"] else { Issue.record("no items"); return }
        for end in stride(from: 12, to: bytes.count, by: 7) {
            let start = try JSONParser.parsePrefix(Array(bytes[..<end]), keep: end, truncated: true)
            #expect(!start.complete)
            guard case let .array(kept)? = start.value["items"] else { Issue.record("no items when cut at \(end)"); continue }
            // Items kept whole are the whole's; the last may be cut short, never made up.
            for (index, item) in kept.enumerated() where index < kept.count - 1 {
                #expect(item == all[index], "cut at \(end), item \(index)")
            }
            // Its members but the last came whole; the last may be a list cut short.
            if let last = kept.last, case let .object(members) = last, case let .object(full) = all[kept.count - 1] {
                for (index, member) in members.enumerated() {
                    #expect(member.key == full[index].key, "cut at \(end)")
                    if index < members.count - 1 { #expect(member.value == full[index].value, "cut at \(end)") }
                }
            }
        }
    }

    @Test func aNumberAtTheCutIsLeftOutAndAStringKeptAsFarAsItCame() throws {
        let cut = try JSONParser.parsePrefix(Array("[1, 22, 333".utf8), keep: 100, truncated: true)
        #expect(cut.value == .array([.number("1"), .number("22")]))
        #expect(throws: JSONParseError.self) { try JSONParser.parsePrefix(Array("123".utf8), keep: 100, truncated: true) }
        // A value longer than the start (a file's base64) was left out, and the preview looked whole.
        let file = try JSONParser.parsePrefix(Array(#"{"name": "report.pdf", "content": "JVBERi0xLjQK"#.utf8), keep: 100, truncated: true)
        #expect(file.value == .object([("name", .string("report.pdf")), ("content", .string("JVBERi0xLjQK"))]))
        #expect(try JSONParser.parsePrefix(Array("\"a long string".utf8), keep: 100, truncated: true).value == .string("a long string"))
        // Cut inside an escape, or inside a character: what came whole.
        #expect(try JSONParser.parsePrefix(Array(#"["\u00e9\u00e9\u00"#.utf8), keep: 100, truncated: true).value == .array([.string("éé")]))
        #expect(try JSONParser.parsePrefix(Array("[\"aé".utf8).dropLast(), keep: 100, truncated: true).value == .array([.string("a")]))
        // An error well before the cut is still an error.
        #expect(throws: JSONParseError.self) {
            try JSONParser.parsePrefix(Array(("[1, x, " + String(repeating: "2, ", count: 20)).utf8), keep: 100, truncated: true)
        }
    }
}
