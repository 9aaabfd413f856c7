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

    private let chars: [Character]
    private var index = 0
    private var depth = 0

    static func parse(_ text: String) throws(SyntaxError) -> ExpectedValue {
        var parser = ExpectedJSONParser(chars: Array(text))
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        if parser.index < parser.chars.count { throw parser.error("unexpected text after the body") }
        return value
    }

    private init(chars: [Character]) { self.chars = chars }

    private func error(_ reason: String, at offset: Int? = nil) -> SyntaxError {
        let offset = min(offset ?? index, chars.count)
        var line = 1
        var column = 1
        for c in chars[..<offset] {
            if c == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return SyntaxError(line: line, column: column, reason: reason, atEnd: offset >= chars.count)
    }

    private var current: Character? { index < chars.count ? chars[index] : nil }

    private func found() -> String { current.map { "'\($0)'" } ?? "the end of the body" }

    private mutating func skipWhitespace() {
        while let c = current, c == " " || c == "\n" || c == "\t" || c == "\r" { index += 1 }
    }

    private func startsWith(_ word: String) -> Bool {
        let w = Array(word)
        return index + w.count <= chars.count && Array(chars[index..<index + w.count]) == w
    }

    private mutating func value() throws(SyntaxError) -> ExpectedValue {
        guard let c = current else { throw error("expected a value, found the end of the body") }
        switch c {
        case "{" where startsWith("{{"): return .pattern(try bracedPattern())
        case "{": return try object()
        case "[": return try array()
        case "\"": return try string()
        case "t", "f", "n", "-", "0"..."9": return .literal(try scalar())
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
        if current == "}" { index += 1; return .object(members, open: false) }
        while true {
            skipWhitespace()
            if startsWith("...") {
                index += 3
                open = true
            } else {
                guard current == "\"" else { throw error("expected a string key or '...', found \(found())") }
                let keyStart = index
                guard case let .literal(.string(key)) = try string(allowPatterns: false) else {
                    throw error("expected a string key", at: keyStart)
                }
                skipWhitespace()
                guard current == ":" else { throw error("expected ':' after the key, found \(found())") }
                index += 1
                skipWhitespace()
                members.append(.init(key, try value()))
            }
            skipWhitespace()
            guard let c = current else { throw error("expected ',' or '}', found the end of the body") }
            index += 1
            if c == "," { continue }
            if c == "}" { return .object(members, open: open) }
            throw error("expected ',' or '}', found '\(c)'", at: index - 1)
        }
    }

    private mutating func array() throws(SyntaxError) -> ExpectedValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var items: [ExpectedValue] = []
        var contains = false
        skipWhitespace()
        if current == "]" { index += 1; return .array(items, contains: false) }
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
            if c == "," { continue }
            if c == "]" { return .array(items, contains: contains) }
            throw error("expected ',' or ']', found '\(c)'", at: index - 1)
        }
    }

    /// A bare `{{…}}`, which ends at `}}` (or `/}}` for a regex).
    private mutating func bracedPattern() throws(SyntaxError) -> TranscriptPattern {
        let start = index
        guard let end = PatternText.closing(chars, from: start + 2) else {
            throw error("'{{' is not closed by '}}'", at: start)
        }
        do {
            let pattern = try TranscriptPattern.parse(String(chars[start + 2..<end]))
            index = end + 2
            return pattern
        } catch {
            throw self.error(error.reason, at: start)
        }
    }

    /// A string literal: decoded as JSON, then searched for patterns.
    private mutating func string(allowPatterns: Bool = true) throws(SyntaxError) -> ExpectedValue {
        let start = index
        index += 1
        while true {
            guard let c = current else { throw error("unterminated string", at: start) }
            if c == "\n" { throw error("unterminated string (a line break inside a string must be written \\n)", at: start) }
            index += 1
            if c == "\\" { index += 1; continue }
            if c == "\"" { break }
        }
        let parsed: JSONValue
        do { parsed = try JSONParser.parse(String(chars[start..<index])) } catch {
            throw self.error("invalid string: \(error.reason)", at: start)
        }
        guard case let .string(decoded) = parsed else { throw error("expected a string", at: start) }
        guard allowPatterns, decoded.contains("{{") else { return .literal(.string(decoded)) }
        do {
            let text = try PatternText.parse(decoded)
            return text.literalText.map { .literal(.string($0)) } ?? .text(text)
        } catch {
            throw self.error(error.reason, at: start + 1 + error.offset)
        }
    }

    /// `true`, `false`, `null` or a number, validated by the JSON parser.
    private mutating func scalar() throws(SyntaxError) -> JSONValue {
        let start = index
        while let c = current, c.isLetter || c.isNumber || c == "-" || c == "+" || c == "." { index += 1 }
        let token = String(chars[start..<index])
        do { return try JSONParser.parse(token) } catch {
            throw self.error("'\(token)' is not a JSON value", at: start)
        }
    }
}
