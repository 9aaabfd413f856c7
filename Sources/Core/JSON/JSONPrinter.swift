/// How each kind of JSON token is decorated when printed. Core knows nothing
/// about terminals: the Explorer passes ANSI colours here, tests pass `.plain`.
public struct JSONStyle: Sendable {
    public var key: (String, String)
    public var string: (String, String)
    public var number: (String, String)
    public var literal: (String, String)
    public var punctuation: (String, String)

    public init(key: (String, String), string: (String, String), number: (String, String),
                literal: (String, String), punctuation: (String, String)) {
        self.key = key
        self.string = string
        self.number = number
        self.literal = literal
        self.punctuation = punctuation
    }

    public static let plain = JSONStyle(key: ("", ""), string: ("", ""), number: ("", ""), literal: ("", ""), punctuation: ("", ""))
}

/// Prints `JSONValue`s as compact or indented text, in the value's own key order.
public enum JSONPrinter {
    /// One line, no spaces: what goes on the wire.
    public static func compact(_ value: JSONValue) -> String {
        written(value, indent: nil, style: .plain).text
    }

    /// One line, in colour, each string seen by `shown` first (a row of JSON lines as shown).
    public static func compact(_ value: JSONValue, style: JSONStyle, shown: ((_ key: String?, _ text: String) -> String)?) -> String {
        written(value, indent: nil, style: style, shown: shown).text
    }

    /// `compact`'s text as UTF-8 bytes, written without building a String:
    /// what a server puts in a response body.
    public static func compactUTF8(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        writeCompact(value, into: &out)
        return out
    }

    private static func writeCompact(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case let .bool(b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case let .number(n): out.append(contentsOf: n.utf8)
        case let .string(s): quoteUTF8(s, into: &out)
        case let .array(items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeCompact(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(members):
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                quoteUTF8(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                writeCompact(member.value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `quote` over bytes: the same escapes (bytes of 0x80 and above are
    /// UTF-8 continuation and lead bytes, copied as they are).
    private static func quoteUTF8(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let needsEscape = text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }
        guard needsEscape else {
            out.append(contentsOf: text.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        let hexDigits = Array("0123456789abcdef".utf8)
        // DEL and the C1 controls (U+0080 to U+009F: 0xC2 0x80…0x9F) are escaped as C0 ones are:
        // U+009B is CSI to some terminals, so a server's string must not reach one raw. A 0xC2
        // waits for the byte after it (the bytes are walked once, not copied).
        var afterC2 = false
        // The bidi overrides and isolates (U+202A…U+202E, U+2066…U+2069: 0xE2 0x80|0x81 …) are escaped
        // too: raw, a server's `‮gnp.exe` showed as `exe.png`. The same string to a JSON reader.
        var afterE2: [UInt8] = []
        for byte in text.utf8 {
            if !afterE2.isEmpty {
                afterE2.append(byte)
                if afterE2.count == 2, byte == 0x80 || byte == 0x81 { continue }
                if afterE2.count == 3 {
                    let scalar = 0x2000 | (UInt32(afterE2[1] & 0x3F) << 6) | UInt32(byte & 0x3F)
                    if (0x202A...0x202E).contains(scalar) || (0x2066...0x2069).contains(scalar) {
                        out.append(contentsOf: Array("\\u\(String(scalar, radix: 16))".utf8))
                        afterE2 = []
                        continue
                    }
                }
                out.append(contentsOf: afterE2)
                afterE2 = []
                continue
            }
            if byte == 0xE2 { afterE2 = [byte]; continue }
            if afterC2 {
                afterC2 = false
                if (0x80...0x9F).contains(byte) {
                    out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                            hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
                    continue
                }
                out.append(0xC2)
            }
            if byte == 0xC2 { afterC2 = true; continue }
            if byte == 0x7F {
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), UInt8(ascii: "7"), UInt8(ascii: "f")])
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case ..<0x20:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
            default: out.append(byte)
            }
        }
        out.append(contentsOf: afterE2)
        out.append(UInt8(ascii: "\""))
    }

    /// Indented with `indent` spaces per level, as a person reads it.
    public static func pretty(_ value: JSONValue, indent: Int = 2, style: JSONStyle = .plain) -> String {
        written(value, indent: String(repeating: " ", count: indent), style: style).text
    }

    /// A JSON string literal for `text`, with the escapes RFC 8259 requires.
    public static func quote(_ text: String) -> String {
        var out = ""
        quote(text, into: &out)
        return out
    }

    /// Appends the literal to `out`. Most strings need no escape: those are
    /// copied whole after one pass over their bytes (appending scalar by
    /// scalar was a tenth of the sandbox's time per request).
    static func quote(_ text: String, into out: inout String) {
        let needsEscape = text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }
        guard needsEscape else {
            out += "\""
            out += text
            out += "\""
            return
        }
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case let s where s.value < 0x20 || (0x7F...0x9F).contains(s.value) || (0x202A...0x202E).contains(s.value) || (0x2066...0x2069).contains(s.value):
                let hex = String(s.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// The first `limit` bytes or so of the pretty text (colour codes do not
    /// count), for a preview of a large body: the rest is never made, so a
    /// 60 MB answer costs its first screenfuls, not 60 MB of text. `shown`
    /// sees each string (and the key of its member, or of the member whose
    /// list it is in) and may hide it.
    /// `complete` is false when the text stops short.
    public static func pretty(_ value: JSONValue, indent: Int = 2, style: JSONStyle = .plain, limit: Int,
                              shown: ((_ key: String?, _ text: String) -> String)? = nil) -> (text: String, complete: Bool) {
        written(value, indent: String(repeating: " ", count: indent), style: style, limit: limit, shown: shown)
    }

    /// Every text above is this: `indent` nil for one line.
    private static func written(_ value: JSONValue, indent: String?, style: JSONStyle, limit: Int = .max,
                                shown: ((_ key: String?, _ text: String) -> String)? = nil) -> (text: String, complete: Bool) {
        var writer = PrettyWriter(indent: indent, style: style, limit: limit, shown: shown)
        writer.write(value, key: nil, level: 0)
        return (String(decoding: writer.out, as: UTF8.self), !writer.stopped)
    }

    /// Writes pretty (or compact, with no indent) text piece by piece, as
    /// UTF-8 bytes (appending to a String checked and grew it at every
    /// token): no temporary strings per token. Stops once `limit` visible
    /// bytes are out.
    private struct PrettyWriter {
        private(set) var out: [UInt8] = []
        let indent: [UInt8]?
        let style: JSONStyle
        let limit: Int
        let shown: ((_ key: String?, _ text: String) -> String)?
        /// Bytes of colour codes in `out`: they do not count against `limit`.
        var decoration = 0
        /// No colours (a pipe, `NO_COLOR`): tokens go out without them.
        let isPlain: Bool
        private(set) var stopped = false

        init(indent: String?, style: JSONStyle, limit: Int, shown: ((_ key: String?, _ text: String) -> String)?) {
            self.indent = indent.map { Array($0.utf8) }
            self.style = style
            self.limit = limit
            self.shown = shown
            isPlain = [style.key, style.string, style.number, style.literal, style.punctuation].allSatisfy { $0.0.isEmpty && $0.1.isEmpty }
            out.reserveCapacity(1024)
        }

        private mutating func full() -> Bool {
            if !stopped, out.count - decoration >= limit { stopped = true }
            return stopped
        }

        private mutating func decorated(_ text: String, _ pair: (String, String)) {
            guard !isPlain else { return out.append(contentsOf: text.utf8) }
            out.append(contentsOf: pair.0.utf8)
            out.append(contentsOf: text.utf8)
            out.append(contentsOf: pair.1.utf8)
            decoration += pair.0.utf8.count + pair.1.utf8.count
        }

        /// A string or a key: quoted, inside its decoration.
        private mutating func quoted(_ text: String, _ pair: (String, String)) {
            guard !isPlain else { return quoteUTF8(text, into: &out) }
            out.append(contentsOf: pair.0.utf8)
            quoteUTF8(text, into: &out)
            out.append(contentsOf: pair.1.utf8)
            decoration += pair.0.utf8.count + pair.1.utf8.count
        }

        private mutating func punct(_ s: String) { decorated(s, style.punctuation) }

        private mutating func newline(_ level: Int) {
            guard let indent else { return }
            out.append(UInt8(ascii: "\n"))
            for _ in 0..<level { out.append(contentsOf: indent) }
        }

        mutating func write(_ value: JSONValue, key: String?, level: Int) {
            guard !full() else { return }
            switch value {
            case .null: decorated("null", style.literal)
            case let .bool(b): decorated(b ? "true" : "false", style.literal)
            case let .number(n):
                // A number `shown` hides (a numeric key or PIN) prints as the string that stands for it.
                if let shown, case let text = shown(key, n), text != n { quoted(text, style.string) } else { decorated(n, style.number) }
            case let .string(s): quoted(shown?(key, s) ?? s, style.string)
            case let .array(items):
                if items.isEmpty { punct("[]"); return }
                punct("[")
                for (i, item) in items.enumerated() {
                    if full() { return }
                    if i > 0 { punct(",") }
                    newline(level + 1)
                    // A list's items are seen under its member's key (`"password": ["x"]` is a list of passwords).
                    write(item, key: key, level: level + 1)
                    if stopped { return }
                }
                newline(level)
                punct("]")
            case let .object(members):
                if members.isEmpty { punct("{}"); return }
                punct("{")
                for (i, member) in members.enumerated() {
                    if full() { return }
                    if i > 0 { punct(",") }
                    newline(level + 1)
                    quoted(member.key, style.key)
                    punct(":")
                    if indent != nil { out.append(UInt8(ascii: " ")) }
                    write(member.value, key: member.key, level: level + 1)
                    if stopped { return }
                }
                newline(level)
                punct("}")
            }
        }
    }
}
