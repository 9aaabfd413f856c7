/// Where and why JSON text could not be parsed.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Byte offset of the problem in the input (0-based).
    public let offset: Int
    /// 1-based line and column of the problem.
    public let line: Int
    public let column: Int
    public let reason: String

    public var description: String { "\(reason) at line \(line), column \(column)" }

    /// Why a byte below 0x20 cannot stand in a string: a line break said
    /// as one (a frame pasted over lines broke inside a string).
    static func controlInString(_ byte: UInt8) -> String {
        byte == 0x0A ? "a line break inside a string (write it as \\n)" : "control character in string (escape it)"
    }
}

/// A strict RFC 8259 parser producing `JSONValue`, keeping key order and
/// number literals. Depth is bounded so hostile input cannot blow the stack.
public struct JSONParser {
    public static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// Values that start past this offset are checked but not kept (`parsePrefix`).
    private var keepUntil = Int.max
    /// Whether some value was checked and not kept.
    private var cut = false
    /// The bytes are the start of a longer text (`parsePrefix(_:keep:truncated:)`):
    /// reaching their end stops the parse rather than failing it.
    private var truncated = false
    /// Whether the parse stopped at the end of truncated bytes.
    private var stopped = false

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses a complete JSON document (surrounding whitespace allowed).
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Parses a complete JSON document from UTF-8 bytes.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected text after the JSON value")
        }
        return value
    }

    /// The start of a large document, for a preview: values that start past
    /// the first `keep` bytes are checked to the end (an error anywhere still
    /// throws) but not kept, so the tree holds about what a preview shows.
    /// `complete` is false when something was left out.
    public static func parsePrefix(_ bytes: [UInt8], keep: Int) throws(JSONParseError) -> (value: JSONValue, complete: Bool) {
        var parser = JSONParser(bytes)
        parser.keepUntil = keep
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected text after the JSON value")
        }
        return (value, !parser.cut)
    }

    /// The start of a text whose rest is elsewhere (a body spooled to disk
    /// keeps its first bytes in memory): parsed as `parsePrefix` does, a
    /// container the bytes end inside kept as far as it goes, a string, number
    /// or word they cut left out. Whether the whole text is JSON is not known
    /// here (`JSONChecker` reads all of it); an error near the end is taken
    /// for the cut. Fails when the text's first value itself is cut.
    public static func parsePrefix(_ bytes: [UInt8], keep: Int, truncated: Bool) throws(JSONParseError) -> (value: JSONValue, complete: Bool) {
        guard truncated else { return try parsePrefix(bytes, keep: keep) }
        var parser = JSONParser(bytes)
        parser.keepUntil = keep
        parser.truncated = true
        parser.skipWhitespace()
        let value = try parser.parseValue()
        return (value, false)
    }

    /// Whether an error thrown now is the end of truncated bytes: the
    /// longest lookahead (a surrogate pair's `\uXXXX`) is 6 bytes.
    private var atCut: Bool { truncated && index + 8 >= bytes.count }

    private func error(_ reason: String, at offset: Int? = nil) -> JSONParseError {
        let offset = min(offset ?? index, bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<offset where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        // Columns count characters, not bytes.
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        return JSONParseError(offset: offset, line: line, column: column, reason: reason)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let b = bytes[index]
        if b >= 0x20 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))'" }
        return "byte 0x\(String(b, radix: 16))"
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("expected a JSON value, found end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("expected a JSON value, found \(describeCurrent())")
        }
    }

    private mutating func expectWord(_ word: String) throws(JSONParseError) {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
            throw error("expected a JSON value, found \(describeCurrent())")
        }
        index += w.count
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        do throws(JSONParseError) {
            try objectMembers(into: &members)
        } catch {
            try keepIfCut(error)
        }
        return .object(members)
    }

    /// An error inside a container: in truncated bytes, at their end, it is
    /// the cut, and the container is kept as far as it went; else thrown.
    private mutating func keepIfCut(_ error: JSONParseError) throws(JSONParseError) {
        guard atCut || stopped else { throw error }
        (stopped, cut) = (true, true)
    }

    private mutating func objectMembers(into members: inout [(key: String, value: JSONValue)]) throws(JSONParseError) {
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key, found \(describeCurrent())")
            }
            let keep = index < keepUntil
            let key = keep ? try parseString() : ""
            if !keep { try skipString() }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after key, found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            if keep {
                members.append((key, try parseValue()))
                if stopped { return }
            } else {
                try skipValue()
                cut = true
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or '}', found end of input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return }
            throw error("expected ',' or '}', found \(describeCurrent())")
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var items: [JSONValue] = []
        do throws(JSONParseError) {
            try arrayItems(into: &items)
        } catch {
            try keepIfCut(error)
        }
        return .array(items)
    }

    private mutating func arrayItems(into items: inout [JSONValue]) throws(JSONParseError) {
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return }
        while true {
            skipWhitespace()
            if index < keepUntil {
                items.append(try parseValue())
                if stopped { return }
            } else {
                try skipValue()
                cut = true
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or ']', found end of input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return }
            throw error("expected ',' or ']', found \(describeCurrent())")
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        try scanNumber()
        // Digits up to the end of truncated bytes may go on past it.
        if truncated, index == bytes.count { throw error("number cut") }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    /// Moves past a number, checking its grammar.
    private mutating func scanNumber() throws(JSONParseError) {
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.index
            while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) { p.index += 1 }
            return p.index - s
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("expected digits in number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits(&self) == 0 {
            throw error("expected digits in number, found \(describeCurrent())")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits(&self) == 0 { throw error("expected digits after '.', found \(describeCurrent())") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            if digits(&self) == 0 { throw error("expected digits in exponent, found \(describeCurrent())") }
        }
    }

    // MARK: Checked, not kept (parsePrefix past its budget)

    private mutating func skipValue() throws(JSONParseError) {
        guard index < bytes.count else { throw error("expected a JSON value, found end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try skipContainer(close: UInt8(ascii: "}"), keyed: true)
        case UInt8(ascii: "["): try skipContainer(close: UInt8(ascii: "]"), keyed: false)
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try expectWord("true")
        case UInt8(ascii: "f"): try expectWord("false")
        case UInt8(ascii: "n"): try expectWord("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
        default: throw error("expected a JSON value, found \(describeCurrent())")
        }
    }

    private mutating func skipContainer(close: UInt8, keyed: Bool) throws(JSONParseError) {
        try enter()
        defer { depth -= 1 }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == close { index += 1; return }
        while true {
            skipWhitespace()
            if keyed {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error("expected a string key, found \(describeCurrent())")
                }
                try skipString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw error("expected ':' after key, found \(describeCurrent())")
                }
                index += 1
                skipWhitespace()
            }
            try skipValue()
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or '\(Character(UnicodeScalar(close)))', found end of input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == close { index += 1; return }
            throw error("expected ',' or '\(Character(UnicodeScalar(close)))', found \(describeCurrent())")
        }
    }

    /// Moves past a string, checking its escapes as `parseString` does.
    private mutating func skipString() throws(JSONParseError) {
        let open = index
        index += 1
        while true {
            while index < bytes.count {
                let b = bytes[index]
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { break }
                index += 1
            }
            guard index < bytes.count else { throw error("unterminated string", at: open) }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                var nothing: [UInt8]?
                try escape(openedAt: open, into: &nothing)
            default:
                throw error(JSONParseError.controlInString(bytes[index]))
            }
        }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        let open = index
        index += 1
        // Most strings hold no escape: made from their bytes in one piece,
        // not byte by byte (a fifth of parsing a large answer).
        let start = index
        var end = index
        while end < bytes.count {
            let b = bytes[end]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { break }
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            index = end + 1
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
        var out: [UInt8]? = Array(bytes[start..<end])
        index = end
        while true {
            guard index < bytes.count else {
                // Truncated bytes end inside it: as much of it as came, and the parse stops.
                if truncated { return stop(with: out!) }
                throw error("unterminated string", at: open)
            }
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: out!, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                do throws(JSONParseError) { try escape(openedAt: open, into: &out) } catch {
                    if atCut { return stop(with: out!) }
                    throw error
                }
            case 0x00..<0x20:
                throw error(JSONParseError.controlInString(b))
            default:
                out!.append(b)
                index += 1
            }
        }
    }

    /// A string the end of truncated bytes cut: what came of it, without a
    /// character cut in half; the parse stops there.
    private mutating func stop(with bytes: [UInt8]) -> String {
        (stopped, cut) = (true, true)
        return String(decoding: Self.wholeCharacters(bytes), as: UTF8.self)
    }

    /// `bytes` without a UTF-8 sequence cut at their end (the start of a
    /// spooled body, a string the start cuts).
    public static func wholeCharacters(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        var lead = bytes.endIndex
        // The last lead byte is at most 3 back; continuation bytes are 10xxxxxx.
        while lead > bytes.startIndex, bytes.endIndex - lead < 4, bytes[lead - 1] & 0xC0 == 0x80 { lead -= 1 }
        guard lead > bytes.startIndex else { return bytes[...] }
        let first = bytes[lead - 1]
        let length = first < 0x80 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
        return bytes.endIndex - (lead - 1) < length ? bytes[..<(lead - 1)] : bytes[...]
    }

    /// One escape, past its backslash: checked, and what it stands for
    /// appended to `out` when there is one (`skipString` passes none).
    private mutating func escape(openedAt open: Int, into out: inout [UInt8]?) throws(JSONParseError) {
        guard index < bytes.count else { throw error("unterminated string", at: open) }
        let e = bytes[index]
        index += 1
        let byte: UInt8
        switch e {
        case UInt8(ascii: "\""): byte = 0x22
        case UInt8(ascii: "\\"): byte = 0x5C
        case UInt8(ascii: "/"): byte = 0x2F
        case UInt8(ascii: "b"): byte = 0x08
        case UInt8(ascii: "f"): byte = 0x0C
        case UInt8(ascii: "n"): byte = 0x0A
        case UInt8(ascii: "r"): byte = 0x0D
        case UInt8(ascii: "t"): byte = 0x09
        case UInt8(ascii: "u"):
            let scalar = try escapedScalar()
            out?.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
            return
        default:
            throw error("invalid escape '\\\(Character(UnicodeScalar(e)))'", at: index - 2)
        }
        out?.append(byte)
    }

    /// The scalar of a `\u` escape (past its `u`), a surrogate pair joined.
    /// A surrogate alone (`"\ud800"`, from a server that cut an emoji in
    /// half) is U+FFFD, as Python's json and HTTPie read it: RFC 8259's
    /// grammar allows it, and the whole body fell back to text over it.
    private mutating func escapedScalar() throws(JSONParseError) -> UInt32 {
        let scalar = try parseHex4()
        if (0xD800...0xDBFF).contains(scalar) {
            if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                let next = index
                index += 2
                let low = try parseHex4()
                if (0xDC00...0xDFFF).contains(low) { return 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) }
                // Not its low half: read as an escape of its own.
                index = next
            }
            return 0xFFFD
        }
        return (0xDC00...0xDFFF).contains(scalar) ? 0xFFFD : scalar
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            // At the first byte that is not a digit, or the end: where `JSONChecker` finds it too.
            guard index < bytes.count else { throw error("expected 4 hex digits after \\u") }
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("expected 4 hex digits after \\u")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }
}
