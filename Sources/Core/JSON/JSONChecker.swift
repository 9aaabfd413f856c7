/// Checks JSON text fed in pieces, as a body arrives, keeping nothing of it:
/// a body spooled to disk is checked on the way there. It accepts exactly
/// what `JSONParser.parse` accepts and reports the same first error (reason
/// and offset); it keeps a container stack of at most
/// `JSONParser.maximumDepth` entries and no other memory.
///
/// The error's column counts characters from its line's start, which may be
/// bytes this checker no longer has: `finish(reading:)` asks for them.
public struct JSONChecker: Sendable {
    /// Where and why the text is not JSON, before its column is counted.
    public struct Failure: Equatable, Sendable {
        public let offset: Int
        public let reason: String
        /// 1-based line of `offset`, and where that line starts.
        public let line: Int
        public let lineStart: Int
    }

    private enum State: Sendable {
        /// A value must come; or may, right after '[', where ']' closes.
        case value
        case valueOrClose
        /// An object's key must come; or may, right after '{', where '}' closes.
        case key(orClose: Bool)
        case colon
        case afterValue
        case string(isKey: Bool)
        case escape(isKey: Bool)
        /// `\u` digits: `count` read so far, `low` for the second of a pair.
        case hex(isKey: Bool, count: Int, scalar: UInt32, low: Bool)
        /// After a high surrogate: `slash` once its '\' came.
        case pair(isKey: Bool, slash: Bool)
        case word(UInt8, matched: Int)
        case number(Number)
        case done
    }

    private enum Number: Sendable {
        case minus, zero, integer, dot, fraction, exponent, exponentSign, exponentDigits
    }

    /// "true", "false" or "null" by its first byte: its bytes packed, first
    /// lowest, and its length (a table lookup per byte was a tenth of the check).
    @inline(__always) private static func word(_ first: UInt8) -> (bytes: UInt64, count: Int) {
        switch first {
        case UInt8(ascii: "t"): (0x6575_7274, 4)
        case UInt8(ascii: "f"): (0x65_736C_6166, 5)
        default: (0x6C6C_756E, 4)
        }
    }

    private var state = State.value
    /// Open containers, innermost last: true for an object.
    private var stack: [Bool] = []
    /// Bytes fed so far.
    public private(set) var count = 0
    private var line = 1
    private var lineStart = 0
    /// Where the string or word under way started, and its escape's '\'.
    private var tokenStart = 0
    private var escapeStart = 0
    /// The '\' of a high surrogate's escape, while its low half is awaited.
    private var highStart = 0
    public private(set) var failure: Failure?

    public init() {}

    /// Whether the text so far can still be JSON.
    public var isValid: Bool { failure == nil }

    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil, !bytes.isEmpty else { return }
        let base = count
        var i = 0
        let n = bytes.count
        while i < n, failure == nil {
            let b = bytes[i]
            switch state {
            case .string(let isKey):
                // Most of a body is string bytes: the fast path runs to the next byte that matters.
                while i < n {
                    let c = bytes[i]
                    if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
                    i += 1
                }
                guard i < n else { continue }
                let c = bytes[i]
                if c == UInt8(ascii: "\"") {
                    state = isKey ? .colon : .afterValue
                } else if c == UInt8(ascii: "\\") {
                    escapeStart = base + i
                    state = .escape(isKey: isKey)
                } else {
                    fail(JSONParseError.controlInString(c), at: base + i)
                }
                i += 1
            case .escape(let isKey):
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    state = .string(isKey: isKey)
                case UInt8(ascii: "u"):
                    state = .hex(isKey: isKey, count: 0, scalar: 0, low: false)
                default:
                    fail("invalid escape '\\\(Character(UnicodeScalar(b)))'", at: escapeStart)
                }
                i += 1
            case let .hex(isKey, read, scalar, low):
                guard let digit = Self.hexDigit(b) else {
                    fail("expected 4 hex digits after \\u", at: base + i)
                    continue
                }
                let value = scalar * 16 + digit
                i += 1
                guard read == 3 else {
                    state = .hex(isKey: isKey, count: read + 1, scalar: value, low: low)
                    continue
                }
                // A surrogate alone is taken (the parser reads it as U+FFFD); a high one waits for its low half.
                if (0xD800...0xDBFF).contains(value), !(low && (0xDC00...0xDFFF).contains(value)) {
                    highStart = escapeStart
                    state = .pair(isKey: isKey, slash: false)
                } else {
                    state = .string(isKey: isKey)
                }
            case let .pair(isKey, slash):
                if !slash, b == UInt8(ascii: "\\") {
                    // Where an escape that is not the low half's `\u` is said to be wrong, as the parser says it.
                    escapeStart = base + i
                    state = .pair(isKey: isKey, slash: true)
                } else if slash, b == UInt8(ascii: "u") {
                    escapeStart = base + i - 1
                    state = .hex(isKey: isKey, count: 0, scalar: 0, low: true)
                } else {
                    // A high surrogate alone: this byte is the string's again (or the escape's its `\` began).
                    state = slash ? .escape(isKey: isKey) : .string(isKey: isKey)
                    continue
                }
                i += 1
            case let .word(first, matched):
                let word = Self.word(first)
                guard b == UInt8(truncatingIfNeeded: word.bytes >> (8 * matched)) else {
                    fail("expected a JSON value, found \(Self.describe(first))", at: tokenStart)
                    continue
                }
                i += 1
                state = matched + 1 == word.count ? .afterValue : .word(first, matched: matched + 1)
            case let .number(part):
                let digit = b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
                switch part {
                case .minus:
                    if b == UInt8(ascii: "0") { state = .number(.zero) } else if digit { state = .number(.integer) } else {
                        fail("expected digits in number, found \(Self.describe(b))", at: base + i)
                        continue
                    }
                case .zero, .integer, .fraction:
                    if digit, part != .zero {
                        while i + 1 < n, bytes[i + 1] >= UInt8(ascii: "0"), bytes[i + 1] <= UInt8(ascii: "9") { i += 1 }
                    } else if b == UInt8(ascii: "."), part != .fraction {
                        state = .number(.dot)
                    } else if b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                        state = .number(.exponent)
                    } else {
                        state = .afterValue
                        continue
                    }
                case .dot:
                    guard digit else { fail("expected digits after '.', found \(Self.describe(b))", at: base + i); continue }
                    state = .number(.fraction)
                case .exponent, .exponentSign:
                    if part == .exponent, b == UInt8(ascii: "+") || b == UInt8(ascii: "-") {
                        state = .number(.exponentSign)
                    } else if digit {
                        state = .number(.exponentDigits)
                    } else {
                        fail("expected digits in exponent, found \(Self.describe(b))", at: base + i)
                        continue
                    }
                case .exponentDigits:
                    guard digit else { state = .afterValue; continue }
                    while i + 1 < n, bytes[i + 1] >= UInt8(ascii: "0"), bytes[i + 1] <= UInt8(ascii: "9") { i += 1 }
                }
                i += 1
            default:
                // Between tokens: whitespace, counted by line, then a structural byte.
                var c = b
                while c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A {
                    if c == 0x0A {
                        line += 1
                        lineStart = base + i + 1
                    }
                    i += 1
                    guard i < n else { break }
                    c = bytes[i]
                }
                guard i < n else { continue }
                structural(c, at: base + i)
                i += 1
            }
        }
        count = base + n
    }

    public mutating func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// The end of the text: what was fed is JSON, or the first error, its
    /// column from `characters(lineStart..<offset)`, the count of characters
    /// its line has before it (bytes the caller may have, and this does not).
    public mutating func finish(characters: (Range<Int>) -> Int) -> JSONParseError? {
        if failure == nil { end() }
        guard let failure else { return nil }
        let column = characters(failure.lineStart..<failure.offset) + 1
        return JSONParseError(offset: failure.offset, line: failure.line, column: column, reason: failure.reason)
    }

    private mutating func end() {
        let close = stack.last.map { $0 ? "}" : "]" }
        switch state {
        case .value, .valueOrClose: fail("expected a JSON value, found end of input", at: count)
        case .key: fail("expected a string key, found end of input", at: count)
        case .colon: fail("expected ':' after key, found end of input", at: count)
        case .afterValue, .done:
            if let close { fail("expected ',' or '\(close)', found end of input", at: count) }
        case .string, .escape, .pair: fail("unterminated string", at: tokenStart)
        case .hex: fail("expected 4 hex digits after \\u", at: count)
        case let .word(first, _): fail("expected a JSON value, found \(Self.describe(first))", at: tokenStart)
        case let .number(part):
            switch part {
            case .minus: fail("expected digits in number", at: count)
            case .dot: fail("expected digits after '.', found end of input", at: count)
            case .exponent, .exponentSign: fail("expected digits in exponent, found end of input", at: count)
            case .zero, .integer, .fraction, .exponentDigits:
                state = .afterValue
                end()
            }
        }
    }

    /// A byte outside strings, numbers and words, not whitespace.
    @inline(__always) private mutating func structural(_ b: UInt8, at offset: Int) {
        switch state {
        case .value, .valueOrClose:
            if case .valueOrClose = state, b == UInt8(ascii: "]") { close(); return }
            startValue(b, at: offset)
        case let .key(orClose):
            if orClose, b == UInt8(ascii: "}") { close(); return }
            guard b == UInt8(ascii: "\"") else { fail("expected a string key, found \(Self.describe(b))", at: offset); return }
            tokenStart = offset
            state = .string(isKey: true)
        case .colon:
            guard b == UInt8(ascii: ":") else { fail("expected ':' after key, found \(Self.describe(b))", at: offset); return }
            state = .value
        case .afterValue:
            guard let object = stack.last else { fail("unexpected text after the JSON value", at: offset); return }
            let closing = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
            if b == UInt8(ascii: ",") {
                state = object ? .key(orClose: false) : .value
            } else if b == closing {
                close()
            } else {
                fail("expected ',' or '\(Character(UnicodeScalar(closing)))', found \(Self.describe(b))", at: offset)
            }
        case .done:
            fail("unexpected text after the JSON value", at: offset)
        default:
            preconditionFailure("JSONChecker: a token's byte taken as structural")
        }
    }

    @inline(__always) private mutating func startValue(_ b: UInt8, at offset: Int) {
        switch b {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard stack.count < JSONParser.maximumDepth else {
                fail("nesting deeper than \(JSONParser.maximumDepth) levels", at: offset)
                return
            }
            let object = b == UInt8(ascii: "{")
            stack.append(object)
            state = object ? .key(orClose: true) : .valueOrClose
        case UInt8(ascii: "\""):
            tokenStart = offset
            state = .string(isKey: false)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            tokenStart = offset
            state = .word(b, matched: 1)
        case UInt8(ascii: "-"): state = .number(.minus)
        case UInt8(ascii: "0"): state = .number(.zero)
        case UInt8(ascii: "1")...UInt8(ascii: "9"): state = .number(.integer)
        default: fail("expected a JSON value, found \(Self.describe(b))", at: offset)
        }
    }

    @inline(__always) private mutating func close() {
        stack.removeLast()
        state = stack.isEmpty ? .done : .afterValue
    }

    private mutating func fail(_ reason: String, at offset: Int) {
        failure = Failure(offset: offset, reason: reason, line: line, lineStart: lineStart)
    }

    private static func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// A byte as the parser names it in an error.
    static func describe(_ b: UInt8) -> String {
        if b >= 0x20 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))'" }
        return "byte 0x\(String(b, radix: 16))"
    }
}
