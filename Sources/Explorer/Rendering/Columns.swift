/// Text in columns as a terminal shows it: a Chinese character or an emoji
/// takes two columns, a combining accent none, so a table of field names,
/// profiles or TAB candidates lines up whatever script they are in.
extension String {
    /// The columns a terminal gives this text.
    var columns: Int {
        reduce(0) { $0 + $1.columns }
    }

    /// The longest start of the text that fits in `width` columns.
    func prefix(columns width: Int) -> String {
        var used = 0
        return String(prefix { character in
            used += character.columns
            return used <= width
        })
    }

    /// Each line that is wider than `width` columns broken between words, its
    /// later lines indented as far as its text starts: after the gap of two
    /// or more spaces that starts a table's last column (`  --timeout S   give
    /// up…`), else after its own indent. A table row whose last column starts
    /// past half the width has it on the lines below, indented four more. A
    /// word wider than the room left stands alone on its line. Text
    /// hard-wrapped wider is one paragraph again: after a line over `width`,
    /// prose at the left edge, and a table row's lines indented to its last
    /// column. Indented lines of their own (examples, a list) stay apart: at
    /// 50 columns `help get` joined two examples into two false ones.
    /// `joiningLines: false`: each line is wrapped alone (text whose lines
    /// are each a thing of their own, as `describe` writes them).
    func wrapped(width: Int = 80, joiningLines: Bool = true) -> String {
        // Tables are laid out for 80 columns: their last column is found as it is there.
        let tableLimit = Swift.max(width, 80) / 2
        var paragraphs: [String] = []
        for line in split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let indent = line.prefix { $0 == " " }.count
            // A heading (`Examples:`) begins what follows; it is not the end of the paragraph before.
            if joiningLines, let last = paragraphs.last, last.columns > width, indent < line.count, line.last != ":",
               Self.hangingIndent(of: line, below: tableLimit) == indent,
               case let hang = Self.hangingIndent(of: last, below: tableLimit), indent == hang,
               indent == 0 || hang > last.prefix(while: { $0 == " " }).count {
                paragraphs[paragraphs.count - 1] = last + " " + line.dropFirst(indent)
            } else {
                paragraphs.append(line)
            }
        }
        return paragraphs.map { line -> String in
            guard line.columns > width else { return line }
            let leading = line.prefix { $0 == " " }.count
            var hang = Self.hangingIndent(of: line, below: tableLimit)
            var head = String(line.prefix(hang))
            var indent = String(repeating: " ", count: head.columns)
            var lines: [String] = []
            if hang > leading, head.columns > width / 2 {
                // `  get PATH [ITEM…] [OPTION…]   send a GET request`: no room beside it.
                lines.append(String(head.reversed().drop { $0 == " " }.reversed()))
                indent = String(repeating: " ", count: leading + 4)
                head = indent
            } else if hang > leading {
                hang = Swift.min(hang, Self.hangingIndent(of: line, below: width / 2))
                head = String(line.prefix(hang))
                indent = String(repeating: " ", count: head.columns)
            } else if leading > width / 2 {
                // A last column's line of its own (under a row too long to share it): as above.
                head = "      "
                indent = head
            } else if leading <= 4, leading > 0 || !joiningLines {
                // An example cut in two: its rest indented under it, not read as the next example.
                indent = String(repeating: " ", count: leading + 2)
            }
            var current = ""
            var words: [String] = []
            for piece in line.dropFirst(line.prefix(hang).count).split(separator: " ") {
                var word = String(piece)
                while !word.isEmpty {
                    let room = width - (words.isEmpty && lines.isEmpty ? head : indent).columns
                    let used = current.isEmpty ? 0 : current.columns + 1
                    if used + word.columns <= room {
                        current += (current.isEmpty ? "" : " ") + word
                        break
                    }
                    if word.contains(where: { String($0).columns > 1 }) {
                        // Text written without spaces (Chinese, Japanese) breaks between its characters, as a
                        // browser breaks it: a summary in Chinese ran past the terminal's edge, and wrapped at column 0.
                        var fits = ""
                        for character in word {
                            guard used + fits.columns + String(character).columns <= room else { break }
                            fits.append(character)
                        }
                        if fits.isEmpty, current.isEmpty { fits = String(word.first!) }
                        if !fits.isEmpty {
                            current += (current.isEmpty ? "" : " ") + fits
                            word.removeFirst(fits.count)
                        }
                    } else if current.isEmpty {
                        // One word longer than the line: it stands alone, as long as it is.
                        current = word
                        break
                    }
                    words.append(current)
                    current = ""
                }
            }
            if !current.isEmpty { words.append(current) }
            let body = words.enumerated().map { ($0.offset == 0 && lines.isEmpty ? head : indent) + $0.element }
            return (lines + body).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Characters before the text a wrapped line's continuation lines up
    /// under: the end of the last run of two or more spaces that ends before
    /// column `limit` and follows some text, else the line's leading spaces.
    private static func hangingIndent(of line: String, below limit: Int) -> Int {
        let characters = Array(line)
        let leading = characters.prefix { $0 == " " }.count
        var hang = leading
        var index = leading
        var column = leading
        while index < characters.count, column < limit {
            if characters[index] == " ", index + 1 < characters.count, characters[index + 1] == " " {
                var end = index
                while end < characters.count, characters[end] == " " { end += 1 }
                if String(characters[index..<end]).columns + column < limit { hang = end }
                column += end - index
                index = end
                continue
            }
            column += characters[index].columns
            index += 1
        }
        return hang
    }

    /// The text followed by spaces up to `width` columns; text that wide or
    /// wider is left as it is. (Foundation's `padding(toLength:withPad:startingAt:)`
    /// counts UTF-16 units, cuts longer text, and bridges through `NSString`:
    /// a few percent of a whole `-c` request, for the help text alone.)
    func padded(to width: Int) -> String {
        let missing = width - columns
        return missing > 0 ? self + String(repeating: " ", count: missing) : self
    }
}

extension Character {
    /// Two for East Asian wide and fullwidth characters and emoji shown as
    /// emoji, none for a lone combining mark or format character, one
    /// otherwise: what `wcwidth` says of the scalars that decide it.
    var columns: Int {
        if unicodeScalars.contains(where: { $0.isWide || $0 == "\u{FE0F}" }) { return 2 }
        return unicodeScalars.allSatisfy(\.isZeroWidth) ? 0 : 1
    }
}

extension Unicode.Scalar {
    fileprivate var isZeroWidth: Bool {
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: true
        default: false
        }
    }

    /// East Asian Wide (W) and Fullwidth (F), by Unicode's blocks, and emoji
    /// with emoji presentation by default.
    fileprivate var isWide: Bool {
        if properties.isEmojiPresentation { return true }
        return switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }
}
