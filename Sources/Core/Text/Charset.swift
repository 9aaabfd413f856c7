import Foundation

/// Text in the charset a Content-Type declares (`charset=iso-8859-1`), for
/// bodies that are not UTF-8: what the renderer shows as text, and what the
/// JSON parser reads (RFC 8259 asks for UTF-8; older servers send Latin-1 or
/// UTF-16 and say so).
public enum Charset {
    /// Whether `name` is UTF-8 itself, or says nothing UTF-8 does not.
    public static func isUTF8(_ name: String) -> Bool {
        ["utf-8", "utf8", "us-ascii", "ascii"].contains(name.lowercased())
    }

    /// `bytes` read in `charset`; nil for a charset this Foundation does not
    /// know, or bytes that are not in it.
    public static func decode(_ bytes: [UInt8], charset: String) -> String? {
        guard let encoding = encodings[charset.lowercased()] else { return nil }
        if let text = String(bytes: bytes, encoding: encoding) { return text }
        // The five bytes Windows-1252 leaves undefined are the C1 controls
        // of Latin-1 to the WHATWG Encoding Standard (Foundation refuses them).
        return encoding == .windowsCP1252 ? String(bytes: bytes, encoding: .isoLatin1) : nil
    }

    /// What text without a `charset=` that is not UTF-8 is read in: Windows-1252,
    /// as browsers read it (the WHATWG default, a superset of the ISO 8859-1
    /// of RFC 2616's text/* default). An old Apache or IIS page says
    /// `text/html` alone and writes Latin-1; it was called a binary body.
    public static let textDefault = "windows-1252"

    /// `text` written in `charset`; nil for UTF-8 and a charset not known
    /// (the text's own bytes serve), or text the charset cannot hold.
    public static func encode(_ text: String, charset: String) -> [UInt8]? {
        encodings[charset.lowercased()].flatMap { text.data(using: $0) }.map { [UInt8]($0) }
    }

    private static let encodings: [String: String.Encoding] = [
        "iso-8859-1": .isoLatin1, "iso_8859-1": .isoLatin1, "latin1": .isoLatin1, "l1": .isoLatin1,
        // Python's names (`charset=latin-1` from a Python server was no charset at all) and the WHATWG labels.
        "latin-1": .isoLatin1, "iso8859-1": .isoLatin1, "iso88591": .isoLatin1, "cp819": .isoLatin1, "ibm819": .isoLatin1,
        "iso-ir-100": .isoLatin1, "csisolatin1": .isoLatin1, "x-cp1252": .windowsCP1252, "latin-2": .isoLatin2, "iso8859-2": .isoLatin2,
        "windows-1252": .windowsCP1252, "cp1252": .windowsCP1252, "shift_jis": .shiftJIS, "sjis": .shiftJIS,
        "euc-jp": .japaneseEUC, "utf-16": .utf16, "utf-16le": .utf16LittleEndian, "utf-16be": .utf16BigEndian,
        "iso-8859-2": .isoLatin2, "latin2": .isoLatin2, "windows-1250": .windowsCP1250, "windows-1251": .windowsCP1251,
        "windows-1253": .windowsCP1253, "windows-1254": .windowsCP1254, "us-ascii": .ascii,
        // Chinese, Korean and Cyrillic pages (an nginx error page of a
        // Chinese deployment is often GBK): Foundation reads them through
        // Core Foundation's encodings. As the WHATWG Encoding Standard
        // reads them, gb2312 and gbk are read as GB 18030, which holds both.
        "gb2312": cf(0x0632), "gbk": cf(0x0632), "x-gbk": cf(0x0632), "cp936": cf(0x0632), "gb18030": cf(0x0632),
        "big5": cf(0x0A06), "big5-hkscs": cf(0x0A06), "euc-kr": cf(0x0422), "cp949": cf(0x0422),
        "koi8-r": cf(0x0A02), "koi8-u": cf(0x0A08),
    ]

    /// The Foundation encoding of a Core Foundation one (`kCFStringEncodingGB_18030_2000` is 0x0632).
    private static func cf(_ encoding: UInt) -> String.Encoding { String.Encoding(rawValue: 0x8000_0000 | encoding) }
}
