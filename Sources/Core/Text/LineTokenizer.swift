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
        public init(text: String, start: Int) {
            self.text = text
            self.start = start
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
                    i += 1
                } else {
                    current.append(c)
                }
            } else if c == " " || c == "\t" {
                if let s = start {
                    words.append(Word(text: current, start: s))
                    current = ""
                    start = nil
                }
            } else {
                if start == nil { start = i }
                if c == "'" || c == "\"" {
                    quote = c
                    quoteStart = i
                } else if c == "\\", i + 1 < chars.count, [" ", "\t", "'", "\"", "\\"].contains(chars[i + 1]) {
                    current.append(chars[i + 1])
                    i += 1
                } else {
                    current.append(c)
                }
            }
            i += 1
        }
        if quote != nil {
            throw ParseError(offset: quoteStart, reason: "unterminated \(quote == "'" ? "single" : "double") quote")
        }
        if let s = start { words.append(Word(text: current, start: s)) }
        return words
    }

    /// Joins words back into a line that splits into the same words.
    public static func join(_ words: [String]) -> String {
        words.map(quote).joined(separator: " ")
    }

    /// A word quoted only when it needs to be.
    public static func quote(_ word: String) -> String {
        if word.isEmpty { return "''" }
        let special: Set<Character> = [" ", "\t", "'", "\"", "\\"]
        guard word.contains(where: { special.contains($0) }) else { return word }
        if !word.contains("'") { return "'" + word + "'" }
        return "\"" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
