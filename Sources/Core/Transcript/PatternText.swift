import Foundation

/// Text in which `{{…}}` stands for a pattern: an expected JSON string, a
/// header value, a text or error line. `{{` always opens a pattern, so a
/// literal `{{` is written as the regex pattern `{{/\{\{/}}`.
public struct PatternText: Sendable, Equatable, CustomStringConvertible {
    public enum Piece: Sendable, Equatable {
        case literal(String)
        case pattern(TranscriptPattern)
    }

    public var pieces: [Piece]

    public init(_ pieces: [Piece]) { self.pieces = pieces }

    /// The text with its literal ids as patterns of their kind: a segment
    /// between `/`, `?`, `&`, `=`, `#` that is all digits (any digits: not
    /// `-1`, a server's "no id") or a UUID (`{{uuid}}`). What a `Location`
    /// is matched as.
    var idsOfTheirKind: PatternText {
        PatternText(pieces.flatMap { piece -> [Piece] in
            guard case let .literal(text) = piece else { return [piece] }
            var out: [Piece] = [], literal = "", segment = ""
            func endSegment() {
                if !segment.isEmpty, segment.allSatisfy({ $0.isASCII && $0.isNumber }) {
                    if !literal.isEmpty { out.append(.literal(literal)); literal = "" }
                    out.append(.pattern(TranscriptPattern(.regex("[0-9]+"))))
                } else if TranscriptPattern.isUUID(segment) {
                    if !literal.isEmpty { out.append(.literal(literal)); literal = "" }
                    out.append(.pattern(TranscriptPattern(.uuid)))
                } else {
                    literal += segment
                }
                segment = ""
            }
            for character in text {
                if "/?&=#".contains(character) {
                    endSegment()
                    literal.append(character)
                } else {
                    segment.append(character)
                }
            }
            endSegment()
            if !literal.isEmpty { out.append(.literal(literal)) }
            return out
        })
    }

    /// Text matched character for character.
    public static func literal(_ text: String) -> PatternText { PatternText(text.isEmpty ? [] : [.literal(text)]) }

    /// What a literal `{{` is written as.
    static let escapedBraces = TranscriptPattern(.regex(#"\{\{"#))

    /// A pattern that is not closed or not valid, at a character offset of the text.
    public struct SyntaxError: Error, Equatable, Sendable {
        public let offset: Int
        public let reason: String
    }

    public static func parse(_ text: String) throws(SyntaxError) -> PatternText {
        // Most text (headers, status lines, plain strings) holds no pattern.
        guard text.includes(ascii: "{{") else { return .literal(text) }
        // Walked as UTF-8: `{`, `}`, `/` and the rest of the syntax are ASCII.
        let bytes = Array(text.utf8)
        /// Offsets in errors count characters, as the caller shows them.
        func characterOffset(_ byteOffset: Int) -> Int { String(decoding: bytes[..<byteOffset], as: UTF8.self).count }
        var pieces: [Piece] = []
        var literalStart = 0
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "{"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "{") else {
                i += 1
                continue
            }
            let bodyStart = i + 2
            // A pattern is on one line: a `}}` lines below closes another (the error quoted both lines).
            guard let end = closing(bytes, from: bodyStart), !bytes[bodyStart..<end].contains(UInt8(ascii: "\n")) else {
                throw SyntaxError(offset: characterOffset(i), reason: "'{{' is not closed by '}}' on its line (a literal '{{' is written {{/\\{\\{/}})")
            }
            let pattern: TranscriptPattern
            do { pattern = try TranscriptPattern.parse(String(decoding: bytes[bodyStart..<end], as: UTF8.self)) } catch {
                throw SyntaxError(offset: characterOffset(i), reason: error.reason)
            }
            if literalStart < i { pieces.append(.literal(String(decoding: bytes[literalStart..<i], as: UTF8.self))) }
            pieces.append(.pattern(pattern))
            i = end + 2
            literalStart = i
        }
        if literalStart < bytes.count { pieces.append(.literal(String(decoding: bytes[literalStart...], as: UTF8.self))) }
        return PatternText(pieces)
    }

    /// Where the `}}` closing a pattern body starts, as a UTF-8 offset. A
    /// regex body (`/…/`, possibly after `name:=`) ends at `/}}`, so the
    /// regex may hold braces.
    static func closing(_ bytes: [UInt8], from start: Int) -> Int? {
        let space = UInt8(ascii: " "), brace = UInt8(ascii: "}"), slash = UInt8(ascii: "/")
        func find(_ needle: [UInt8], from: Int) -> Int? {
            guard from + needle.count <= bytes.count else { return nil }
            for i in from...(bytes.count - needle.count) where bytes[i..<i + needle.count].elementsEqual(needle) { return i }
            return nil
        }
        /// A capture name's bytes: letters, digits, `_`, and any non-ASCII byte (letters of other scripts).
        func isNameByte(_ c: UInt8) -> Bool {
            c >= 0x80 || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
                || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "_")
        }
        guard let plainEnd = find([brace, brace], from: start) else { return nil }
        var j = start
        while j < bytes.count, bytes[j] == space { j += 1 }
        var k = j
        while k < bytes.count, isNameByte(bytes[k]) { k += 1 }
        var bodyStart = j
        if k > j, k + 1 < bytes.count, bytes[k] == UInt8(ascii: ":"), bytes[k + 1] == UInt8(ascii: "=") {
            bodyStart = k + 2
            while bodyStart < bytes.count, bytes[bodyStart] == space { bodyStart += 1 }
        }
        guard bodyStart < bytes.count, bytes[bodyStart] == slash else { return plainEnd }
        return find([slash, brace, brace], from: bodyStart + 1).map { $0 + 1 }
    }

    /// The text as written in a transcript, with any literal `{{` escaped.
    /// The text as a transcript writes it. A control character (a server's
    /// escape codes in a text body, an error line) is written as the regex
    /// pattern that matches it (`{{/\x{1B}/}}`): in the file as it came, it
    /// cleared the screen of whoever read the transcript with `cat`.
    public var description: String { written(controlsAsPatterns: true) }

    /// The text inside a JSON string as a transcript writes it: its control characters are left to the string's
    /// own escapes (`\n`), which read back as they were. A GraphQL document's line breaks were written as
    /// `{{/\x{A}/}}`, and its braces before them as `{{/\{/}}`: a subscription's frame could not be read.
    public var inJSONString: String { written(controlsAsPatterns: false) }

    private func written(controlsAsPatterns: Bool) -> String {
        var out = ""
        /// A pattern after a literal `{` (`{{{uuid}}}` of a braced GUID, `{` then an escape code) is read as
        /// `{{` opening `{uuid`: that brace is written as the pattern matching it, `{{/\{/}}`.
        func append(pattern: String) {
            if out.hasSuffix("{") {
                out.removeLast()
                out += Self.escapedBrace.description
            }
            out += pattern
        }
        for piece in pieces {
            switch piece {
            case let .literal(text):
                let braced = Self.escapingBraces(text)
                guard controlsAsPatterns, braced.unicodeScalars.contains(where: Self.isControl) else {
                    out += braced
                    continue
                }
                for scalar in braced.unicodeScalars {
                    if Self.isControl(scalar) {
                        append(pattern: TranscriptPattern(.regex("\\x{" + String(scalar.value, radix: 16, uppercase: true) + "}")).description)
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            case let .pattern(pattern): append(pattern: pattern.description)
            }
        }
        // Spaces that end a line were written as they came: an editor or git that trims them made the replay
        // fail on a difference nobody could see. They are written as the pattern that matches them, `{{/  /}}`.
        if controlsAsPatterns, case let .literal(text)? = pieces.last, text.last == " " || text.last == "\t" {
            let run = out.reversed().prefix { $0 == " " || $0 == "\t" }.count
            let trailing = out.suffix(run).map { $0 == "\t" ? "\\t" : " " }.joined()
            out.removeLast(run)
            append(pattern: TranscriptPattern(.regex(trailing)).description)
        }
        return out
    }

    /// What a literal `{` just before a pattern is written as.
    static let escapedBrace = TranscriptPattern(.regex(#"\{"#))

    /// Each `{{` as the pattern that matches it, found by code point: one
    /// whose second brace carries a combining mark (`{{\u{301}`) is one
    /// character, which a search by characters did not find, and the
    /// transcript did not parse.
    static func escapingBraces(_ text: String) -> String {
        let brace = UInt8(ascii: "{")
        guard text.utf8.contains(brace) else { return text }
        var out: [UInt8] = []
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == brace, previous == brace {
                out.removeLast()
                out += Self.escapedBraces.description.utf8
                previous = 0
                continue
            }
            out.append(byte)
            previous = byte
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// C0 (but a tab), DEL and C1: what a terminal takes for a command.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }

    /// The text when it holds no pattern.
    public var literalText: String? {
        var text = ""
        for piece in pieces {
            guard case let .literal(s) = piece else { return nil }
            text += s
        }
        return text
    }

    /// The patterns, in order.
    public var patterns: [TranscriptPattern] {
        pieces.compactMap { if case let .pattern(p) = $0 { return p } else { return nil } }
    }

    /// Matches all of `text`. `bound` gives the text an earlier capture or a
    /// variable holds. Returns the captures this text binds (empty when it
    /// binds none), or nil when it does not match. A capture takes the
    /// shortest text that lets the rest match.
    public func match(_ text: String, bound: (String) -> String?) -> [String: String]? {
        // Most texts are literals and values already held (`{{base_url}}/a.png`):
        // put together, they are compared whole, without the search below.
        if let whole = fixedText(bound: bound) { return whole.sameCodePoints(text) ? [:] : nil }
        // Code points, not characters: a `\r\n` is one character, and the two patterns a
        // recording wrote for it (`{{/\x{D}/}}{{/\x{A}/}}`) could not each take one; a
        // composed `é` was equal to a decomposed one.
        let chars = Array(text.unicodeScalars)
        func slice(_ range: Range<Int>) -> String {
            var out = String.UnicodeScalarView()
            out.append(contentsOf: chars[range])
            return String(out)
        }
        // Compiled once per match, not once per candidate end position.
        let regexes = pieces.map { piece -> Regex<AnyRegexOutput>? in
            guard case let .pattern(pattern) = piece, case let .regex(source) = pattern.kind else { return nil }
            // By code point, as the rest of the text is matched (and as jq and Python match): `.` is one.
            return (try? Regex(source))?.matchingSemantics(.unicodeScalar)
        }
        func accepts(_ pattern: TranscriptPattern, _ index: Int, _ candidate: String) -> Bool {
            guard let regex = regexes[index] else { return pattern.accepts(text: candidate) }
            return (try? regex.wholeMatch(in: candidate)) != nil
        }
        func go(_ index: Int, _ position: Int, _ local: [String: String]) -> [String: String]? {
            guard index < pieces.count else { return position == chars.count ? local : nil }
            switch pieces[index] {
            case let .literal(s):
                let expected = Array(s.unicodeScalars)
                guard position + expected.count <= chars.count,
                      Array(chars[position..<position + expected.count]) == expected else { return nil }
                return go(index + 1, position + expected.count, local)
            case let .pattern(pattern):
                var name: String?
                if case let .reference(n) = pattern.kind { name = n } else { name = pattern.capture }
                if let name, let fixed = local[name] ?? bound(name) {
                    guard accepts(pattern, index, fixed) else { return nil }
                    return matchFixed(fixed, index, position, local)
                }
                if case .reference = pattern.kind { return nil }
                // The last piece can only end where the text does.
                for end in (index == pieces.count - 1 ? chars.count : position)...chars.count {
                    let candidate = slice(position..<end)
                    guard accepts(pattern, index, candidate) else { continue }
                    var next = local
                    if let capture = pattern.capture { next[capture] = candidate }
                    if let result = go(index + 1, end, next) { return result }
                }
                return nil
            }
        }
        func matchFixed(_ fixed: String, _ index: Int, _ position: Int, _ local: [String: String]) -> [String: String]? {
            let expected = Array(fixed.unicodeScalars)
            guard position + expected.count <= chars.count,
                  Array(chars[position..<position + expected.count]) == expected else { return nil }
            return go(index + 1, position + expected.count, local)
        }
        return go(0, 0, [:])
    }

    /// The whole text when every piece is a literal or a value already held
    /// that its pattern accepts; nil when some piece is left to search for.
    private func fixedText(bound: (String) -> String?) -> String? {
        var whole = ""
        for piece in pieces {
            switch piece {
            case let .literal(s): whole += s
            case let .pattern(pattern):
                let name: String? = if case let .reference(n) = pattern.kind { n } else { pattern.capture }
                guard let name, let fixed = bound(name), pattern.accepts(text: fixed) else { return nil }
                whole += fixed
            }
        }
        return whole
    }
}
