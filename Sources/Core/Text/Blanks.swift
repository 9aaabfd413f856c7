extension StringProtocol {
    /// The text without the spaces and tabs (and other Unicode spaces) at
    /// its ends: what Foundation's `trimmingCharacters(in: .whitespaces)`
    /// gives, scalar by scalar, without its trip through `NSString` and
    /// UTF-16, which made it most of the cost of showing an answer (a
    /// request's token was trimmed twice for every answer shown) and a
    /// tenth of reading a profile's catalog.
    public func trimmingBlanks() -> String { trimming(\.isBlank) }

    /// The same for `.whitespacesAndNewlines`: line breaks go too.
    public func trimmingBlanksAndNewlines() -> String { trimming { $0.isBlank || $0.isLineBreak } }

    private func trimming(_ trimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, trimmed(scalars[start]) { start = scalars.index(after: start) }
        while start < end, trimmed(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        if start == scalars.startIndex, end == scalars.endIndex { return String(self) }
        // Scalar boundaries are UTF-8 boundaries: the bytes are copied at once.
        return String(decoding: utf8[start..<end], as: UTF8.self)
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

    /// In `CharacterSet.newlines`: LF, VT, FF, CR, NEL and the line and paragraph separators.
    var isLineBreak: Bool {
        switch value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}

extension StringProtocol {
    /// Whether the ASCII text `needle` occurs, searched as UTF-8 bytes. A
    /// String literal's `contains` resolves to Foundation's, an `NSString`
    /// search through UTF-16 that showed in every profile of a replay.
    /// The search is by hand: the standard library's generic
    /// `firstRange(of:)` cost a script more than running its lines' requests
    /// took to parse (6% of a scripted GET's CPU, for one 9-byte search).
    public func includes(ascii needle: StaticString) -> Bool {
        needle.withUTF8Buffer { needle in
            utf8.withContiguousStorageIfAvailable { Self.search(needle, in: $0) } ?? Self.search(needle, in: Array(utf8))
        }
    }

    private static func search(_ needle: UnsafeBufferPointer<UInt8>, in text: some Collection<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        var rest = text[...]
        while let start = rest.firstIndex(of: first) {
            rest = rest[start...]
            if rest.starts(with: needle) { return true }
            rest = rest.dropFirst()
        }
        return false
    }
}
