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
