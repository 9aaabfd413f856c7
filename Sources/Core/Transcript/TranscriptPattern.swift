import Foundation

/// One `{{…}}` of the transcript pattern language (docs/transcripts.md,
/// "Patterns"): a value that is volatile, secret, captured or reused.
///
/// `{{*}}`, `{{integer}}`, `{{number}}`, `{{string}}`, `{{uuid}}`,
/// `{{timestamp}}`, `{{jwt}}`, `{{/regex/}}`, `{{secret:NAME}}`,
/// `{{name:=KIND}}` (bind on first sight) and `{{name}}` (what `name` holds).
public struct TranscriptPattern: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case any, integer, number, string, uuid, timestamp, jwt
        /// Matches the whole text; the source is kept as written.
        case regex(String)
        /// A secret the recorder hid: matches any non-empty value, and the
        /// live value is never compared, written or shown.
        case secret(String)
        /// `{{name}}`: equal to what a capture (or a session variable) holds.
        case reference(String)
    }

    public var kind: Kind
    /// `{{name:=KIND}}`: the first match binds `name`; later ones must equal it.
    public var capture: String?

    public init(_ kind: Kind, capture: String? = nil) {
        self.kind = kind
        self.capture = capture
    }

    /// `{{secret:NAME}}` for a secret an item, header or variable called
    /// `name` holds (`X-Api-Key` → `{{secret:x_api_key}}`): how a recording,
    /// its header's variables and the history write one.
    public static func secretPlaceholder(forItem name: String) -> String {
        TranscriptPattern(.secret(ExpectedValue.secretName(name))).description
    }

    /// Why the text between `{{` and `}}` is not a pattern.
    public struct SyntaxError: Error, Equatable, Sendable {
        public let reason: String
    }

    /// Words that name a kind; they cannot be capture names.
    static let kindWords: [String: Kind] = [
        "*": .any, "integer": .integer, "number": .number, "string": .string,
        "uuid": .uuid, "timestamp": .timestamp, "jwt": .jwt,
    ]

    /// Whether `name` means something else between braces in a transcript
    /// (a kind, or `ws_base_url`), so a variable of that name could not be
    /// written as `{{name}}`: a recording read `{{uuid}}` as the kind.
    public static func isReservedName(_ name: String) -> Bool {
        kindWords[name] != nil || name == "ws_base_url"
    }

    /// Parses what stands between the braces, such as `task_id:=integer`.
    public static func parse(_ body: String) throws(SyntaxError) -> TranscriptPattern {
        let text = body.trimmingBlanks()
        if let separator = text.range(of: ":=") {
            let name = String(text[..<separator.lowerBound]).trimmingBlanks()
            guard isName(name), kindWords[name] == nil else {
                throw SyntaxError(reason: "'\(name)' cannot be a capture name: use letters, digits and _, not a kind word")
            }
            let kind = try parseKind(String(text[separator.upperBound...]).trimmingBlanks())
            if case .secret = kind { throw SyntaxError(reason: "a secret cannot be captured") }
            if case let .reference(word) = kind {
                throw SyntaxError(reason: "'\(word)' is not a kind: use *, integer, number, string, uuid, timestamp, jwt or /regex/"
                                  + (nearestKindWord(word).map { " (did you mean \($0)?)" } ?? ""))
            }
            return TranscriptPattern(kind, capture: name)
        }
        return TranscriptPattern(try parseKind(text))
    }

    private static func parseKind(_ text: String) throws(SyntaxError) -> Kind {
        if let kind = kindWords[text] { return kind }
        if text.count >= 2, text.hasPrefix("/"), text.hasSuffix("/") {
            let source = String(text.dropFirst().dropLast())
            guard (try? Regex(source)) != nil else { throw SyntaxError(reason: "'\(source)' is not a valid regular expression") }
            return .regex(source)
        }
        if text.hasPrefix("secret:") {
            let name = String(text.dropFirst("secret:".count))
            guard isName(name) else { throw SyntaxError(reason: "'\(name)' is not a secret name: use letters, digits and _") }
            return .secret(name)
        }
        guard isName(text) else {
            throw SyntaxError(reason: "'\(text)' is not a pattern: use *, integer, number, string, uuid, timestamp, jwt, /regex/, secret:NAME, NAME:=KIND or NAME")
        }
        return .reference(text)
    }

    /// The kind word `word` is one typo away from (`intger`, `uuidd`), if any.
    public static func nearestKindWord(_ word: String) -> String? {
        let lower = Array(word.lowercased())
        func distance(_ other: String) -> Int {
            let b = Array(other)
            var row = Array(0...b.count)
            for (i, x) in lower.enumerated() {
                var next = [i + 1]
                for (j, y) in b.enumerated() { next.append(min(row[j] + (x == y ? 0 : 1), row[j + 1] + 1, next[j] + 1)) }
                row = next
            }
            return row[b.count]
        }
        return kindWords.keys.filter { $0 != "*" && lower != Array($0) && distance($0) <= 2 }.min { distance($0) < distance($1) }
    }

    /// A name as `capture` and `set` take it: letters of any script, digits and `_`, not a digit first
    /// (`capture 名 = .数据.名字` recorded `{{名}}`, which the parser then refused: its own file did not replay).
    static func isName(_ s: String) -> Bool {
        guard let first = s.first, first.isLetter || first == "_" else { return false }
        return s.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    public var description: String {
        let body: String
        switch kind {
        case .any: body = "*"
        case .integer: body = "integer"
        case .number: body = "number"
        case .string: body = "string"
        case .uuid: body = "uuid"
        case .timestamp: body = "timestamp"
        case .jwt: body = "jwt"
        case let .regex(source): body = "/" + source + "/"
        case let .secret(name): body = "secret:" + name
        case let .reference(name): body = name
        }
        return "{{" + (capture.map { $0 + ":=" } ?? "") + body + "}}"
    }

    /// Whether `value`, a whole JSON value, has this pattern's kind.
    /// References are the matcher's business (they need the captures).
    public func accepts(_ value: JSONValue) -> Bool {
        switch (kind, value) {
        case (.any, _), (.reference, _): return true
        // Any integer, however long (a 64-bit id past Int's range was refused), `1E2` and `1.0` too.
        case let (.integer, .number(text)): return ExactNumber(text)?.isInteger ?? false
        case (.number, .number), (.string, .string), (.secret, .number): return true
        case let (.secret, .string(s)): return !s.isEmpty
        case let (.uuid, .string(s)), let (.timestamp, .string(s)), let (.jwt, .string(s)), let (.regex, .string(s)):
            return accepts(text: s)
        case let (.regex, .number(text)): return accepts(text: text)
        // `"flag": {{/true|false/}}`, bare, as a number's text is matched.
        case let (.regex, .bool(flag)): return accepts(text: flag ? "true" : "false")
        default: return false
        }
    }

    /// Whether `text`, part of a string or a line, has this pattern's kind.
    public func accepts(text: String) -> Bool {
        switch kind {
        case .any, .string, .reference: return true
        case .secret: return !text.isEmpty
        case .integer: return Self.isInteger(text)
        case .number:
            guard let first = text.first, first == "-" || first.isASCII && first.isNumber else { return false }
            if case .number? = try? JSONParser.parse(text) { return true }
            return false
        case .uuid: return Self.isUUID(text)
        case .timestamp: return Self.isTimestamp(text)
        case .jwt: return Redactor.looksLikeJWT(text)
        case let .regex(source):
            guard let regex = try? Regex(source) else { return false }
            return (try? regex.matchingSemantics(.unicodeScalar).wholeMatch(in: text)) != nil
        }
    }

    static func isInteger(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, each field in its range.
    static func isHTTPDate(_ text: String) -> Bool {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), weekdays.contains(String(parts[0].dropLast())),
              parts[1].count == 2, let day = Int(parts[1]), (1...31).contains(day), months.contains(parts[2]),
              parts[3].count == 4, Int(parts[3]) != nil, parts[5] == "GMT" else { return false }
        let time = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard time.count == 3, time.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return false }
        return Int(time[0])! <= 23 && Int(time[1])! <= 59 && Int(time[2])! <= 60
    }

    /// 8-4-4-4-12 hexadecimal digits, either case.
    public static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// ISO 8601 date and time: `2025-01-05T09:00:00Z`, with optional seconds,
    /// fraction and offset (`+01:00`, `+0100`); a space may stand for the `T`.
    /// RFC 3339 (its `T` and `Z` in either case, or a space for the `T`),
    /// with each field in its range: `2025-13-45T99:99:99Z` is no time.
    /// Or an HTTP date (RFC 9110's IMF-fixdate): `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func isTimestamp(_ text: String) -> Bool {
        if text.utf8.count == 29, text.hasSuffix(" GMT") { return isHTTPDate(text) }
        let c = Array(text)
        func digits(_ range: Range<Int>) -> Bool { range.upperBound <= c.count && c[range].allSatisfy { $0.isASCII && $0.isNumber } }
        func value(_ range: Range<Int>, in bounds: ClosedRange<Int>) -> Bool { digits(range) && bounds.contains(Int(String(c[range]))!) }
        guard c.count >= 16, digits(0..<4), c[4] == "-", value(5..<7, in: 1...12), c[7] == "-", digits(8..<10),
              c[10] == "T" || c[10] == "t" || c[10] == " ", value(11..<13, in: 0...23), c[13] == ":", value(14..<16, in: 0...59) else { return false }
        // The day within its month: 2025-02-30 is no day.
        let year = Int(String(c[0..<4]))!, month = Int(String(c[5..<7]))!
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard value(8..<10, in: 1...days) else { return false }
        var i = 16
        if i < c.count, c[i] == ":" {
            guard value(i + 1..<i + 3, in: 0...60) else { return false }
            i += 3
            if i < c.count, c[i] == "." || c[i] == "," {
                let start = i + 1
                i = start
                while i < c.count, c[i].isASCII, c[i].isNumber { i += 1 }
                guard i > start else { return false }
            }
        }
        let zone = String(c[i...])
        if zone.isEmpty || zone == "Z" || zone == "z" { return true }
        let z = Array(zone)
        guard z[0] == "+" || z[0] == "-" else { return false }
        let rest = Array(String(z.dropFirst()).replacingOccurrences(of: ":", with: ""))
        guard rest.count == 4, rest.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        // An offset of at most 23:59 (`+25:00` is none).
        return Int(String(rest[0..<2]))! <= 23 && Int(String(rest[2..<4]))! <= 59
    }
}
