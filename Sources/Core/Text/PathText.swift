/// File paths as text, where Foundation's own cannot be trusted: on Linux
/// `NSString.deletingLastPathComponent` traps on a one-character last
/// component with nothing before it (`a`, `é`, `x/`, `a//`), so `-o a`,
/// `save a` and `--record b` took the whole process down.
public enum PathText {
    /// The folder part of `path`, as `deletingLastPathComponent` means it:
    /// `a/b` → `a`, `a/b/` → `a`, `/a` → `/`, `/` → `/`, `a` → `` (the
    /// working directory).
    public static func folder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.last == "/" { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var folder = trimmed[..<slash]
        while folder.last == "/" { folder.removeLast() }
        return folder.isEmpty ? (path.hasPrefix("/") ? "/" : "") : String(folder)
    }

    /// The last component of `path`: `a/b` → `b`, `a/b/` → `b`, `a` → `a`.
    public static func name(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.last == "/" { trimmed.removeLast() }
        return String(trimmed.split(separator: "/", omittingEmptySubsequences: true).last ?? trimmed)
    }
}
