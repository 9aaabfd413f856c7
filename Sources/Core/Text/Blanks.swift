extension StringProtocol where SubSequence == Substring {
    /// The text without the spaces and tabs (and other Unicode spaces) at
    /// its ends: what Foundation's `trimmingCharacters(in: .whitespaces)`
    /// gives, scalar by scalar, without its trip through `NSString` and
    /// UTF-16, which made it most of the cost of showing an answer (a
    /// request's token was trimmed twice for every answer shown) and a
    /// tenth of reading a profile's catalog.
    /// (As a Substring, to a function that is not generic: this extension
    /// is, and is not specialized where it is called.)
    public func trimmingBlanks() -> String { trimming(self[...], \.isBlank) }

    /// The same for `.whitespacesAndNewlines`: line breaks go too.
    public func trimmingBlanksAndNewlines() -> String { trimming(self[...]) { $0.isBlank || $0.isLineBreak } }
}

private func trimming(_ text: Substring, _ trimmed: (Unicode.Scalar) -> Bool) -> String {
    let scalars = text.unicodeScalars
    var start = scalars.startIndex, end = scalars.endIndex
    while start < end, trimmed(scalars[start]) { start = scalars.index(after: start) }
    while start < end, trimmed(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
    if start == scalars.startIndex, end == scalars.endIndex { return String(text) }
    // Scalar boundaries are UTF-8 boundaries: the bytes are copied at once.
    return String(decoding: text.utf8[start..<end], as: UTF8.self)
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
    /// Whether the ASCII text `needle` occurs, searched as UTF-8 bytes by
    /// hand. A String literal's `contains` resolves to Foundation's, an
    /// `NSString` search through UTF-16; the standard library's
    /// `firstRange(of:)`, generic and not specialized for a caller of this
    /// generic extension, went through a protocol witness for every byte.
    /// Either was several percent of a scripted GET's CPU, for one search
    /// of a short line.
    public func includes(ascii needle: StaticString) -> Bool {
        needle.withUTF8Buffer { needle in
            utf8.withContiguousStorageIfAvailable { search(needle, in: $0) } ?? Array(utf8).withUnsafeBufferPointer { search(needle, in: $0) }
        }
    }
}

extension String {
    /// Whether `needle` occurs byte for byte, searched as `includes(ascii:)`
    /// searches: Foundation's `contains` (an `NSString` search through
    /// UTF-16) of each carried token in each string of an answer was a tenth
    /// of a scripted GET's CPU.
    public func includes(_ needle: String) -> Bool {
        var needle = needle
        return needle.withUTF8 { needle in
            utf8.withContiguousStorageIfAvailable { search(needle, in: $0) } ?? Array(utf8).withUnsafeBufferPointer { search(needle, in: $0) }
        }
    }
}

private func search(_ needle: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = needle.first else { return true }
    guard needle.count <= text.count else { return false }
    var start = 0
    while start <= text.count - needle.count {
        if text[start] == first, UnsafeBufferPointer(rebasing: text[start..<start + needle.count]).elementsEqual(needle) { return true }
        start += 1
    }
    return false
}
