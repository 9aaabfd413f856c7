import Core
import Foundation

/// A transcript's `@file` paths are relative to its folder (docs/transcripts.md,
/// "Files"). Replaying inside a REPL session, whose request builder reads
/// files from the working directory, rewrites them onto that folder.
enum FilePaths {
    /// What reading a file to its end found.
    enum Contents {
        case bytes([UInt8])
        /// More than the limit asked for.
        case tooLarge
        case unreadable
    }

    /// A file's bytes read to its end, a MiB at a time, and no more than
    /// `limit`: a pipe (`<(…)`, /dev/stdin) has no size to look at first
    /// (`replay <(…)` said "cannot be read"), and /dev/zero has no end.
    static func contents(of handle: FileHandle, atMost limit: Int) -> Contents {
        var bytes: [UInt8] = []
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch { return .unreadable }
            guard let chunk, !chunk.isEmpty else { return .bytes(bytes) }  // the end
            bytes += chunk
            if bytes.count > limit { return .tooLarge }
        }
    }

    /// `line` with each relative path of a file item prefixed by `folder`
    /// (`file@../fixtures/a.png` → `file@sessions/fixtures/a.png`). Only
    /// request lines have items: `login alice@example.com` is left alone.
    static func rebase(_ line: String, onto folder: String) -> String {
        rebase(line) { normalized((folder as NSString).appendingPathComponent($0)) }
    }

    /// `line` with each relative path of a file item (absolute and `~` ones
    /// stay) as `move` makes it.
    static func rebase(_ line: String, _ move: (String) -> String) -> String {
        guard line.contains("@"), let words = try? LineTokenizer.split(line).map(\.text), let first = words.first,
              CommandTable.methods.contains(first.uppercased()) || first.hasPrefix("/") else { return line }
        var changed = false
        let rebased = words.enumerated().map { index, word -> String in
            // `@-` is standard input, no file (it was written `@../-`).
            guard index > 0, let path = filePath(word), path != "-", !path.hasPrefix("/"), !path.hasPrefix("~"),
                  let at = word.range(of: "@" + path) else { return word }
            let moved = move(path)
            guard moved != path else { return word }
            changed = true
            return word.replacingCharacters(in: at, with: "@" + moved)
        }
        return changed ? LineTokenizer.join(rebased) : line
    }

    /// `path` as seen from `folder` (`../profiles/shop.yaml`), so a transcript
    /// names a file the same from any working directory.
    static func relative(_ path: String, from folder: String) -> String {
        let target = absolute(path).split(separator: "/"), base = absolute(folder).split(separator: "/")
        let shared = zip(target, base).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: base.count - shared) + target.dropFirst(shared).map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// `path` from the root, normalized (`.`, `..` and an empty path read from the working directory).
    static func absolute(_ path: String) -> String {
        normalized(path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path.isEmpty ? "." : path))
    }

    /// `a/b/../c` as `a/c`: Foundation's `standardizingPath` keeps `..` in relative paths.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            if part == "..", let last = parts.last, last != "..", !last.isEmpty { parts.removeLast() }
            else if part != "." { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    private static func filePath(_ word: String) -> String? {
        switch try? RequestItem.parse(word) {
        case let .file(_, path, _)?, let .stringFieldFromFile(_, path)?, let .jsonFieldFromFile(_, path)?,
             let .queryFromFile(_, path)?, let .headerFromFile(_, path)?:
            return path
        default:
            return nil
        }
    }
}
