/// Parses an expected body: JSON plus bare `{{…}}` patterns as values and
/// `...` as an object member or array element (see `ExpectedValue`).
/// Strings are decoded as JSON first, then searched for patterns, so the
/// body stays valid JSON wherever no bare pattern or `...` is used.
struct ExpectedJSONParser {
    /// A syntax error at a 1-based line and column of the body text.
    struct SyntaxError: Error, Equatable {
        let line: Int
        let column: Int
        let reason: String
        /// The text ended before the value did: what a file cut mid-step looks like.
        let atEnd: Bool
    }

    // The body as UTF-8: every structural character is ASCII, so the parser
    // walks bytes; strings and scalars are handed to `JSONParser`. (Walking
    // `[Character]` spent most of a replay's parse in grapheme breaking.)
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    static func parse(_ text: String) throws(SyntaxError) -> ExpectedValue {
        var parser = ExpectedJSONParser(bytes: Array(text.utf8))
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        if parser.index < parser.bytes.count { throw parser.error("unexpected text after the body") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// Line and column count characters, as an editor shows them.
    private func error(_ reason: String, at offset: Int? = nil) -> SyntaxError {
        let offset = min(offset ?? index, bytes.count)
        let before = bytes[..<offset]
        let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        return SyntaxError(line: line, column: column, reason: reason, atEnd: offset >= bytes.count)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func found() -> String { found(at: index) }

    private func found(at offset: Int) -> String {
        guard offset < bytes.count, let c = String(decoding: bytes[offset..<min(offset + 4, bytes.count)], as: UTF8.self).first else {
            return "the end of the body"
        }
        return "'\(c)'"
    }

    private mutating func skipWhitespace() {
        while let c = current, c == UInt8(ascii: " ") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") {
            index += 1
        }
    }

    private func startsWith(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return word.withUTF8Buffer { bytes[index..<index + count].elementsEqual($0) }
    }

    private mutating func value() throws(SyntaxError) -> ExpectedValue {
        guard let c = current else { throw error("expected a value, found the end of the body") }
        switch c {
        case UInt8(ascii: "{") where startsWith("{{"): return .pattern(try bracedPattern())
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return try string()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .literal(try scalar())
        default: throw error("expected a JSON value or a {{pattern}}, found \(found())")
        }
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
    }

    private mutating func object() throws(SyntaxError) -> ExpectedValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [ExpectedValue.Member] = []
        var open = false
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members, open: false) }
        while true {
            skipWhitespace()
            if startsWith("...") {
                index += 3
                open = true
            } else {
                guard current == UInt8(ascii: "\"") else { throw error("expected a string key or '...', found \(found())") }
                let keyStart = index
                guard case let .literal(.string(key)) = try string(allowPatterns: false) else {
                    throw error("expected a string key", at: keyStart)
                }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key, found \(found())") }
                index += 1
                skipWhitespace()
                members.append(.init(key, try value()))
            }
            skipWhitespace()
            guard let c = current else { throw error("expected ',' or '}', found the end of the body") }
            index += 1
            if c == UInt8(ascii: ",") { continue }
            if c == UInt8(ascii: "}") { return .object(members, open: open) }
            throw error("expected ',' or '}', found \(found(at: index - 1))", at: index - 1)
        }
    }

    private mutating func array() throws(SyntaxError) -> ExpectedValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var items: [ExpectedValue] = []
        var contains = false
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return .array(items, contains: false) }
        while true {
            skipWhitespace()
            if startsWith("...") {
                index += 3
                contains = true
            } else {
                items.append(try value())
            }
            skipWhitespace()
            guard let c = current else { throw error("expected ',' or ']', found the end of the body") }
            index += 1
            if c == UInt8(ascii: ",") { continue }
            if c == UInt8(ascii: "]") { return .array(items, contains: contains) }
            throw error("expected ',' or ']', found \(found(at: index - 1))", at: index - 1)
        }
    }

    /// A bare `{{…}}`, which ends at `}}` (or `/}}` for a regex).
    private mutating func bracedPattern() throws(SyntaxError) -> TranscriptPattern {
        let start = index
        // A pattern is on one line: a `}}` lines below closes another (the error quoted both lines).
        guard let end = PatternText.closing(bytes, from: start + 2), !bytes[(start + 2)..<end].contains(UInt8(ascii: "\n")) else {
            throw error("'{{' is not closed by '}}' on its line", at: start)
        }
        do {
            let pattern = try TranscriptPattern.parse(String(decoding: bytes[start + 2..<end], as: UTF8.self))
            index = end + 2
            return pattern
        } catch {
            throw self.error(error.reason, at: start)
        }
    }

    /// A string literal: decoded as JSON, then searched for patterns.
    private mutating func string(allowPatterns: Bool = true) throws(SyntaxError) -> ExpectedValue {
        let start = index
        var plain = true
        index += 1
        while true {
            guard let c = current else { throw error("unterminated string", at: start) }
            if c == UInt8(ascii: "\n") { throw error("unterminated string (a line break inside a string must be written \\n)", at: start) }
            index += 1
            if c == UInt8(ascii: "\\") { plain = false; index += 1; continue }
            if c < 0x20 { plain = false }
            if c == UInt8(ascii: "\"") { break }
        }
        let decoded: String
        if plain {
            // No escape and no control character: the bytes are the string.
            decoded = String(decoding: bytes[start + 1..<index - 1], as: UTF8.self)
        } else {
            let parsed: JSONValue
            do { parsed = try JSONParser.parse(Array(bytes[start..<index])) } catch {
                throw self.error("invalid string: \(error.reason)", at: start)
            }
            guard case let .string(value) = parsed else { throw error("expected a string", at: start) }
            decoded = value
        }
        guard allowPatterns, decoded.includes(ascii: "{{") else { return .literal(.string(decoded)) }
        do {
            let text = try PatternText.parse(decoded)
            return text.literalText.map { .literal(.string($0)) } ?? .text(text)
        } catch {
            // The pattern's offset counts characters of the decoded string.
            let prefix = decoded.prefix(error.offset).utf8.count
            throw self.error(error.reason, at: start + 1 + prefix)
        }
    }

    /// `true`, `false`, `null` or a number, validated by the JSON parser.
    /// The token runs over letters, digits, signs and dots (any non-ASCII
    /// byte too, so an error quotes the whole word).
    private mutating func scalar() throws(SyntaxError) -> JSONValue {
        let start = index
        while let c = current, c >= 0x80 || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") {
            index += 1
        }
        let token = Array(bytes[start..<index])
        do { return try JSONParser.parse(token) } catch {
            throw self.error("'\(String(decoding: token, as: UTF8.self))' is not a JSON value", at: start)
        }
    }
}
