/// Splits a command line into words, shell style but friendlier to HTTPie
/// items: `'single'` quotes are literal, `"double"` quotes honour `\"` and
/// `\\`, and outside quotes a backslash escapes only a space, a quote or a
/// backslash; any other backslash is kept, so `a\=b=c` reaches the request
/// item parser intact.
public enum LineTokenizer {
    public struct Word: Sendable, Equatable {
        public var text: String
        /// Character offset of the word's first character in the line.
        public var start: Int
        /// Where each character of `text` stands in the line, when quotes or
        /// backslashes make that differ from `start` plus its offset; else empty.
        public var positions: [Int] = []

        public init(text: String, start: Int, positions: [Int] = []) {
            self.text = text
            self.start = start
            self.positions = positions
        }

        /// The word from its character at `offset` on, where it stands in the
        /// line (the value of `--timeout=5`, the path of `capture id=.id`).
        public func dropping(_ offset: Int) -> Word {
            let text = String(text.dropFirst(offset))
            return Word(text: text, start: column(at: offset), positions: positions.isEmpty ? [] : Array(positions.dropFirst(offset)))
        }

        /// The line's column of the character at `offset` in `text` (a caret
        /// under `tru` in `n:='{"a":tru}'`, past the quote); past the end, after the last.
        public func column(at offset: Int) -> Int {
            guard !positions.isEmpty else { return start + offset }
            if offset < positions.count { return positions[max(0, offset)] }
            return positions[positions.count - 1] + 1 + (offset - positions.count)
        }
    }

    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "\(reason) (column \(offset + 1))" }
    }

    public static func split(_ line: String) throws(ParseError) -> [Word] {
        var words: [Word] = []
        var current = ""
        var positions: [Int] = []
        var shifted = false
        var start: Int?
        var quote: Character?
        var quoteStart = 0
        let chars = Array(line)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if let q = quote {
                if c == q {
                    quote = nil
                } else if q == "\"", c == "\\", i + 1 < chars.count, chars[i + 1] == "\"" || chars[i + 1] == "\\" {
                    current.append(chars[i + 1])
                    positions.append(i + 1)
                    i += 1
                } else {
                    current.append(c)
                    positions.append(i)
                }
            } else if c == " " || c == "\t" {
                if let s = start {
                    words.append(Word(text: current, start: s, positions: shifted ? positions : []))
                    current = ""
                    positions = []
                    shifted = false
                    start = nil
                }
            } else {
                if start == nil { start = i }
                if c == "$", i + 1 < chars.count, chars[i + 1] == "'" {
                    // Bash's ANSI-C quoting, `$'{"a":"x\ny"}'`: how browsers' "Copy as cURL" writes a body
                    // holding a newline or a quote. Its `$` was sent, and its escapes were not read.
                    let (text, at, end) = try ansiQuoted(chars, from: i + 2)
                    current += text
                    positions += at
                    shifted = true
                    i = end + 1
                    continue
                }
                if c == "'" || c == "\"" {
                    quote = c
                    quoteStart = i
                    shifted = true
                } else if c == "\\", i + 1 < chars.count, [" ", "\t", "'", "\"", "\\"].contains(chars[i + 1]) {
                    current.append(chars[i + 1])
                    positions.append(i + 1)
                    shifted = true
                    i += 1
                } else {
                    current.append(c)
                    positions.append(i)
                }
            }
            i += 1
        }
        if quote != nil {
            throw ParseError(offset: quoteStart, reason: "unterminated \(quote == "'" ? "single" : "double") quote")
        }
        if let s = start { words.append(Word(text: current, start: s, positions: shifted ? positions : [])) }
        return words
    }

    /// The text of a `$'…'` quote whose first character is at `from`, each
    /// character's position, and where its closing quote is. Its escapes are
    /// bash's: `\n`, `\t`, `\r`, `\\`, `\'`, `\"`, `\e`, `\a`, `\b`, `\f`,
    /// `\v`, `\xHH`, `\uHHHH`, `\UHHHHHHHH`, octal `\NNN`; another is kept as written.
    static func ansiQuoted(_ chars: [Character], from: Int) throws(ParseError) -> (String, [Int], Int) {
        var text = ""
        var positions: [Int] = []
        var i = from
        func digits(_ count: Int, radix: Int) -> (Unicode.Scalar, Int)? {
            var j = i + 1
            var value: UInt32 = 0
            while j < chars.count, j - i - 1 < count, let digit = chars[j].hexDigitValue, digit < radix {
                value = value * UInt32(radix) + UInt32(digit)
                j += 1
            }
            guard j > i + 1, let scalar = Unicode.Scalar(value) else { return nil }
            return (scalar, j - 1)
        }
        while i < chars.count {
            let c = chars[i]
            if c == "'" { return (text, positions, i) }
            guard c == "\\", i + 1 < chars.count else {
                text.append(c)
                positions.append(i)
                i += 1
                continue
            }
            let at = i
            let simple: [Character: Character] = ["n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", "\"": "\"", "?": "?",
                                                  "e": "\u{1B}", "E": "\u{1B}", "a": "\u{07}", "b": "\u{08}", "f": "\u{0C}", "v": "\u{0B}"]
            let next = chars[i + 1]
            if let plain = simple[next] {
                text.append(plain)
                i += 1
            } else if ["x", "u", "U"].contains(next) {
                i += 1
                guard let (scalar, end) = digits(next == "x" ? 2 : next == "u" ? 4 : 8, radix: 16) else {
                    text += "\\" + String(next)
                    positions.append(at)
                    positions.append(i)
                    i += 1
                    continue
                }
                text.unicodeScalars.append(scalar)
                i = end
            } else if let octal = next.wholeNumberValue, octal < 8 {
                guard let (scalar, end) = digits(3, radix: 8) else { i += 1; continue }
                text.unicodeScalars.append(scalar)
                i = end
            } else {
                text += "\\" + String(next)
                positions.append(at)
                i += 1
            }
            positions.append(at)
            i += 1
        }
        throw ParseError(offset: from - 2, reason: "unterminated $' quote")
    }

    /// Joins words back into a line that splits into the same words. A
    /// `curl` line is quoted for a shell too (`-d
    /// 'a=1&b=2'`): it is pasted into one, where an unquoted `&` ends it.
    public static func join(_ words: [String]) -> String {
        let forShell = words.first == "curl"
        return words.map { quote($0, forShell: forShell) }.joined(separator: " ")
    }

    /// A word quoted only when it needs to be (for a shell too: its `&`, `;`, `|`, `$`…).
    public static func quote(_ word: String, forShell: Bool = false) -> String {
        if word.isEmpty { return "''" }
        let special: Set<Character> = forShell ? [" ", "\t", "'", "\"", "\\", "&", ";", "|", "<", ">", "(", ")", "$", "`", "*", "?", "[", "]", "#", "~", "!"]
            : [" ", "\t", "'", "\"", "\\"]
        guard word.contains(where: { special.contains($0) }) else { return word }
        if !word.contains("'") { return "'" + word + "'" }
        return "\"" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
