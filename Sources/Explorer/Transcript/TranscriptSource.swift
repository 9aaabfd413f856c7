import Core
import Foundation

/// Finds transcripts and reads them, saying in one line why one cannot be read.
enum TranscriptSource {
    static let fileExtension = "transcript"
    /// Parsing takes about 14 times a transcript's size in memory: 64 MiB is
    /// far beyond what a session records, and well within what it can hold.
    static let maximumBytes = 64 * 1024 * 1024

    /// The transcripts to run: files as given, directories searched for
    /// `*.transcript` at any depth, in path order. A path that does not exist
    /// is kept, so that reading it reports it. What a search finds that is
    /// not a file (a FIFO, a socket) is left out and named in `skipped`:
    /// reading a FIFO waits for a writer, and `test DIR` hung on one.
    static func files(in paths: [String]) -> (files: [String], emptyDirectories: [String], skipped: [String]) {
        var files: [String] = []
        var empty: [String] = []
        var skipped: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let found = Self.entries(under: path)
                .filter { ($0 as NSString).pathExtension == fileExtension }
                .sorted()
                .map { (path as NSString).appendingPathComponent($0) }
            let (regular, other) = found.reduce(into: ([String](), [String]())) { sorted, file in
                if Self.isFile(file) { sorted.0.append(file) } else { sorted.1.append(file) }
            }
            if regular.isEmpty { empty.append(path) }
            files += regular
            skipped += other
        }
        // A file named twice (`test a.transcript ./a.transcript suite/`) ran twice, and with --update
        // --jobs was rewritten twice at once: each runs once, where it was first named.
        var seen: Set<String> = []
        files = files.filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path).inserted }
        return (files, empty, skipped)
    }

    /// Every path under `folder`, relative to it, symlinked folders gone
    /// into as folders are (`sessions/common -> ../common`: its failing
    /// transcript was left out of the suite without a word; `ln -s
    /// ~/suites/api sessions` found nothing), each real folder once.
    private static func entries(under folder: String) -> [String] {
        var found: [String] = []
        var visited: Set<String> = []
        func walk(_ relative: String) {
            let absolute = relative.isEmpty ? folder : (folder as NSString).appendingPathComponent(relative)
            guard visited.insert(URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path).inserted,
                  let names = try? FileManager.default.contentsOfDirectory(atPath: absolute) else { return }
            for name in names {
                let path = relative.isEmpty ? name : (relative as NSString).appendingPathComponent(name)
                found.append(path)
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(path), isDirectory: &isFolder), isFolder.boolValue {
                    walk(path)
                }
            }
        }
        walk("")
        return found
    }

    /// A regular file, or a link to one that exists (a dangling link is kept:
    /// reading it says "no such file").
    private static func isFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return true }
        return info.st_mode & S_IFMT == S_IFREG
    }

    /// How a search's skipped path is said.
    static func skippedLine(_ path: String) -> String {
        var info = stat()
        let type = stat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
        let kind: String = switch type {
        case S_IFIFO: "a FIFO, not a file"
        case S_IFSOCK: "a socket, not a file"
        case S_IFCHR, S_IFBLK: "a device, not a file"
        default: "not a file"
        }
        return "warning: skipped \(path): \(kind)"
    }

    /// The file, parsed, or why it cannot be: unreadable, not text, or a line
    /// that breaks the format (`path:line:column: reason`). `update`: the
    /// run will write answers (`--update`), so a last request with none is
    /// one to fill in, not a recording cut short (`tearingUnanswered`).
    static func parsed(_ path: String, update: Bool = false) -> Result<Transcript, TranscriptRun.Failure> {
        read(path).flatMap { parsed($0, of: path, update: update) }
    }

    /// `text`, read from `path`, parsed as `parsed(_:update:)` does.
    static func parsed(_ text: String, of path: String, update: Bool = false) -> Result<Transcript, TranscriptRun.Failure> {
        do {
            let transcript = try TranscriptParser.parse(text)
            return .success(update ? transcript : tearingUnanswered(transcript, text: text))
        } catch {
            return .failure(.broken("\(path):\(error)"))
        }
    }

    /// A file that ends right after a last command line that sends something
    /// was cut before its answer: the writer puts an answer (and a blank line)
    /// under every step that sends, so that step is torn and not run (a
    /// `delete` whose answer was never written would be sent again). A last
    /// `set` or `auth` line with nothing under it runs: an editor that trims
    /// the final blank line leaves one. `--update` runs it and writes its answer.
    static func tearingUnanswered(_ parsed: Transcript, text: String) -> Transcript {
        guard parsed.torn == nil, let last = parsed.steps.last, text.hasSuffix("\n"),
              last.line == text.utf8.count(where: { $0 == UInt8(ascii: "\n") }), Command.sends(line: last.command) else { return parsed }
        var transcript = parsed
        transcript.steps.removeLast()
        transcript.torn = TornStep(line: last.line, reason: "the file ends right after this command line, before its answer")
        return transcript
    }

    /// Why `open` refuses the file, in words: a symlink loop was "no such
    /// file", a file of another user's "cannot be read".
    static func whyNotOpened(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        if descriptor >= 0 { close(descriptor); return nil }
        switch errno {
        // A name in Latin-1 (`caf\xE9.transcript`), found by a folder's walk, reads as U+FFFD and opens nothing.
        case ENOENT where path.contains("\u{FFFD}"): return "its name is not UTF-8, which explorer reads names as: rename the file"
        case ENOENT: return "no such file"
        case ELOOP: return "a symbolic link that leads back to itself (a loop)"
        case EACCES, EPERM: return "permission denied (this user cannot read it)"
        case let code: return String(cString: strerror(code)).lowercased()
        }
    }

    /// The file's text, or why it is not a transcript at all.
    static func read(_ path: String) -> Result<String, TranscriptRun.Failure> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(.broken("\(path): \(whyNotOpened(path) ?? "no such file")"))
        }
        guard !isDirectory.boolValue else { return .failure(.broken("\(path): is a directory")) }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maximumBytes {
            return .failure(.broken("\(path): \((size + 1024 * 1024 - 1) / 1024 / 1024) MiB; a transcript is at most \(maximumBytes / 1024 / 1024) MiB (split it: a folder runs as one suite)"))
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return .failure(.broken("\(path): \(whyNotOpened(path) ?? "cannot be read")")) }
        defer { try? handle.close() }
        var bytes: [UInt8]
        switch FilePaths.contents(of: handle, atMost: maximumBytes) {
        case let .bytes(read): bytes = read
        case .tooLarge: return .failure(.broken("\(path): more than \(maximumBytes / 1024 / 1024) MiB; a transcript is at most that (split it: a folder runs as one suite)"))
        case .unreadable: return .failure(.broken("\(path): cannot be read"))
        }
        // Windows' "Unicode" is UTF-16: its NULs read as a binary file. Without its byte order mark it is
        // told by a NUL beside each ASCII character of the first line.
        if bytes.starts(with: [0xFF, 0xFE, 0, 0]) || bytes.starts(with: [0, 0, 0xFE, 0xFF]) {
            return .failure(.broken("\(path): UTF-32 text (its first bytes say so); save it as UTF-8"))
        }
        let start = bytes.prefix(64)
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
            || start.count >= 8 && (start.enumerated().allSatisfy { $0.offset % 2 == 1 ? $0.element == 0 : $0.element != 0 }
                                    || start.enumerated().allSatisfy { $0.offset % 2 == 0 ? $0.element == 0 : $0.element != 0 }) {
            return .failure(.broken("\(path): UTF-16 text; save it as UTF-8"))
        }
        // An editor's byte order mark is not part of the first line.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self), !bytes.contains(0) else {
            // Where, as every other problem of a transcript is said: a file of thousands of lines, one bad byte.
            guard let (line, column, byte) = Self.firstNonText(bytes) else { return .failure(.broken("\(path): not UTF-8 text")) }
            let said = byte == 0 ? "a NUL byte: a binary file, not a transcript"
                : "byte 0x\(String(byte, radix: 16, uppercase: true)) is not UTF-8 (saved as Latin-1 or Windows-1252? save it as UTF-8)"
            return .failure(.broken("\(path):\(line):\(column): \(said)"))
        }
        return .success(text)
    }

    /// The line and column (in characters) of the first NUL or byte that is
    /// not UTF-8 in `bytes`, and that byte.
    static func firstNonText(_ bytes: [UInt8]) -> (line: Int, column: Int, byte: UInt8)? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var (line, column, offset) = (1, 1, 0)
        while true {
            switch parser.parseScalar(from: &iterator) {
            case let .valid(encoded):
                if encoded.count == 1, encoded.first == 0 { return (line, column, 0) }
                if encoded.count == 1, encoded.first == 0x0A { (line, column) = (line + 1, 1) } else { column += 1 }
                offset += encoded.count
            case .error:
                return (line, column, bytes[offset])
            case .emptyInput:
                return nil
            }
        }
    }
}
