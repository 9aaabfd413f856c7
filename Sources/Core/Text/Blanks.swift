extension StringProtocol {
    /// The text without the spaces and tabs (and other Unicode spaces) at
    /// its ends: what Foundation's `trimmingCharacters(in: .whitespaces)`
    /// gives, scalar by scalar, without its trip through `NSString` and
    /// UTF-16, which made it most of the cost of showing an answer (a
    /// request's token was trimmed twice for every answer shown).
    public func trimmingBlanks() -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, scalars[start].isBlank { start = scalars.index(after: start) }
        while start < end, scalars[scalars.index(before: end)].isBlank { end = scalars.index(before: end) }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }
}

extension Unicode.Scalar {
    /// In `CharacterSet.whitespaces`: a tab, or a space separator (Zs), or
    /// the zero-width space Foundation counts with them.
    var isBlank: Bool {
        switch value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}
