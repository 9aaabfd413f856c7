import Core
import Foundation

/// `--download` (`-d`): a 2xx answer's body written to a file as it
/// arrives, whatever its size (nothing of it is kept in memory), with a
/// progress line at a terminal. The file is named as HTTPie names it: `-o
/// FILE`, else the `filename` of Content-Disposition, else the URL's last
/// segment; a name already taken gets `-1`, `-2`… before its extension.
/// Created new, mode 0600 (an answer may hold what the account sees).
/// Where `-o`, `save` and `--download` write a relative name: the working
/// directory, or a replay's scratch folder (a transcript's `-o out.json`
/// neither finds the file its recording left nor litters the suite).
/// Messages name the file as typed either way, so a replay matches.
struct OutputFolder: Sendable, Equatable {
    var path: String?
    /// The mock's: every name goes inside `path`, a whole one too (`/tmp/x` as `_tmp_x`), and none is refused.
    /// Working out what each step answered, the mock ran its `-o`, `save` and `--download` where the recording
    /// did: it emptied the files they named (`-o ~/notes.txt --force`), and left files where it was started.
    var takesEveryName = false

    /// Where `name` goes on disk. The folder is made when first used (0700):
    /// a replay that writes no file leaves none behind, even when stopped.
    func place(_ name: String) -> String {
        let expanded = RequestBuilder.expandingHome(name)
        guard let path, expanded != "/dev/null", takesEveryName || !expanded.hasPrefix("/") else { return expanded }
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return (path as NSString).appendingPathComponent(takesEveryName ? expanded.replacingOccurrences(of: "/", with: "_") : expanded)
    }

    /// Why a replay does not write `name`: it is outside the replay's folder
    /// (`-o /home/me/.bashrc --force` in a transcript someone else wrote
    /// replaced the file). `/dev/null` is no place. Nil outside a replay.
    func refusal(of name: String) -> String? {
        guard path != nil, !takesEveryName else { return nil }
        let expanded = RequestBuilder.expandingHome(name)
        guard expanded != "/dev/null" else { return nil }
        guard expanded.hasPrefix("/") || expanded.split(separator: "/").contains("..") else { return nil }
        return "\(name) is outside the replay's folder: a replay writes files there alone (give a name within it)"
    }
}

final class Download: @unchecked Sendable {
    private let lock = NSLock()
    private let chosen: String?
    private let url: URL
    private let progress: (@Sendable (String) -> Void)?
    private let folder: OutputFolder
    private var file: OutputFile?
    private var lastShown = ContinuousClock.now
    private(set) var path: String?
    private(set) var written = 0
    private(set) var expected: Int?
    private(set) var problem: String?

    /// `-o FILE --force`: a file of that name is replaced, not refused.
    private let replaces: Bool

    init(chosen: String?, replaces: Bool = false, url: URL, progress: (@Sendable (String) -> Void)?, folder: OutputFolder = OutputFolder(),
         columns: @escaping @Sendable () -> Int = { 80 }) {
        self.columns = columns
        self.chosen = chosen.map { RequestBuilder.expandingHome($0) }
        self.replaces = replaces && chosen != nil
        self.url = url
        self.progress = progress
        self.folder = folder
    }

    /// The answer's head: the file is named and created.
    func begin(status: Int, headers: [HTTPHeader]) {
        lock.withLock {
            expected = headers.first { $0.hasName("Content-Length") }.flatMap { Int($0.value) }
            let name = chosen ?? Self.freeName(Self.name(headers: headers, url: url), in: folder)
            if let refused = folder.refusal(of: name) { return problem = refused }
            switch OutputFile.open(name, at: folder.place(name), replacing: replaces) {
            case let .success(opened):
                file = opened
                path = name
            case .failure(.exists): problem = "\(name) exists; give -o with a new name, or --force to replace it"
            case let .failure(.problem(line)): problem = line
            }
        }
    }

    /// A part of the body, appended; the progress line redrawn now and then.
    func write(_ bytes: [UInt8]) {
        let line: String? = lock.withLock {
            guard let file, problem == nil else { return nil }
            var rest = bytes[...]
            while !rest.isEmpty {
                let count = rest.withUnsafeBytes { Foundation.write(file.descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    problem = "cannot write \(path ?? "the file"): \(String(cString: strerror(errno)))"
                    return nil
                }
                rest = rest.dropFirst(count)
                written += count
            }
            guard progress != nil, ContinuousClock.now - lastShown > .milliseconds(200) else { return nil }
            lastShown = .now
            return Self.progressLine(name: path ?? "", amount: amount, width: columns())
        }
        if let line { progress?(line) }
    }

    /// `12.3 MiB of 40.0 MiB (31%)`, or the size so far when the total is unknown.
    private var amount: String {
        guard let expected, expected > 0 else { return Renderer.size(written) }
        return "\(Renderer.size(written)) of \(Renderer.size(expected)) (\(written * 100 / expected)%)"
    }

    /// Closes the file; a download stopped or failed half-way is removed
    /// (a file `--force` was to replace is left as it was). Returns the line to show.
    func finish(complete: Bool) -> String? {
        let line: String? = lock.withLock {
            defer { file = nil }
            guard let file, let path else { return problem.map { "not saved: \($0)" } }
            if problem == nil, complete {
                guard let failed = file.keep() else { return "saved \(Renderer.size(written)) to \(path)" }
                return "not saved: \(failed); \(file.leftBehind(partial: true))"
            }
            file.discard()
            if let problem { return "not saved: \(problem); \(file.leftBehind(partial: true))" }
            return "stopped after \(Renderer.size(written)); \(file.leftBehind(partial: true))"
        }
        progress?("\r\u{1B}[K")
        return line
    }

    /// The terminal's width for the progress line.
    private let columns: @Sendable () -> Int

    /// `downloading NAME 1.1 MiB of 3.0 MiB (35%)`, redrawn in place, fitted
    /// to `width` columns by shortening the name: a line that wrapped was
    /// redrawn below itself every 200 ms on a narrow terminal.
    /// Too narrow for both, the amount goes down to its percentage (or its
    /// size) before the name goes below a few columns.
    static func progressLine(name: String, amount: String, width: Int) -> String {
        let fit = max(width - 1, 1)
        var amounts = [amount]
        if let open = amount.lastIndex(of: "("), let close = amount.lastIndex(of: ")"), open < close {
            amounts.append(String(amount[amount.index(after: open)..<close]))
        } else if let size = amount.components(separatedBy: " of ").first, size != amount {
            amounts.append(size)
        }
        for shown in amounts {
            let room = fit - "downloading ".count - 1 - shown.columns
            if name.columns <= room { return "\r\u{1B}[Kdownloading \(name) \(shown)" }
            if room >= 6 { return "\r\u{1B}[Kdownloading \(name.prefix(columns: room - 1))… \(shown)" }
        }
        return "\r\u{1B}[K" + ("downloading " + name).prefix(columns: fit)
    }

    /// The name the answer or the URL gives, reduced to a plain file name.
    static func name(headers: [HTTPHeader], url: URL) -> String {
        if let disposition = headers.first(where: { $0.hasName("Content-Disposition") })?.value, let given = filename(in: disposition) {
            let plain = plainName(given)
            if !plain.isEmpty { return plain }
        }
        // A token in the path (`/files/eyJ…`) is no name: it would be said on screen and left on disk.
        let component = url.lastPathComponent.removingPercentEncoding ?? url.lastPathComponent
        let last = plainName(Redactor.hidingJWTs(in: component) { _ in "download" })
        return last.isEmpty || last == "/" ? "download" : last
    }

    /// `filename*=UTF-8''r%C3%A9sum%C3%A9.pdf` (RFC 6266) first, else `filename="x.pdf"`.
    static func filename(in disposition: String) -> String? {
        var plain: String?
        for (name, value) in parameters(of: disposition) {
            switch name.lowercased() {
            case "filename*":
                guard let quote = value.range(of: "''") else { continue }
                if let decoded = value[quote.upperBound...].removingPercentEncoding { return decoded }
            case "filename":
                plain = value
            default: continue
            }
        }
        return plain
    }

    /// A header's `; name=value` parameters, a quoted value's quotes and
    /// backslashes undone (RFC 9110 5.6.4): a `;` inside the quotes is the
    /// name's (`filename="a;b.txt"` was cut to `a`).
    static func parameters(of value: String) -> [(name: String, value: String)] {
        var parts: [String] = [""]
        var quoted = false, escaped = false
        for character in value {
            if escaped {
                parts[parts.count - 1].append(character)
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ";" && !quoted {
                parts.append("")
            } else {
                parts[parts.count - 1].append(character)
            }
        }
        return parts.compactMap { part in
            guard let equals = part.firstIndex(of: "=") else { return nil }
            return (part[..<equals].trimmingBlanks(), part[part.index(after: equals)...].trimmingBlanks())
        }
    }

    /// The last component, with nothing that could leave the folder.
    static func plainName(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        // Control characters go, and leading dots too, as HTTPie does: a
        // server does not get to write `.bashrc` or `.env` into the folder.
        let cleaned = last.filter { !$0.isNewline && $0 != "\0" && !($0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) }
        return shortened(String(cleaned.drop { $0 == "." }))
    }

    /// Bytes a name may have: a file system's 255, less room for `freeName`'s `-12`.
    static let longestName = 240

    /// `name` cut to `longestName` bytes, its extension kept (as HTTPie
    /// does): a server's 300-character name failed the download with "File
    /// name too long", the body lost.
    static func shortened(_ name: String) -> String {
        guard name.utf8.count > longestName else { return name }
        let ext = (name as NSString).pathExtension
        let suffix = ext.isEmpty || ext.utf8.count > 20 ? "" : "." + ext
        var stem = Substring(suffix.isEmpty ? name : String(name.dropLast(suffix.count)))
        while stem.utf8.count + suffix.utf8.count > longestName { stem = stem.dropLast() }
        return stem + suffix
    }

    /// `name`, or `name-1.ext`, `name-2.ext`… when it is taken.
    static func freeName(_ name: String, in folder: OutputFolder = OutputFolder()) -> String {
        guard FileManager.default.fileExists(atPath: folder.place(name)) else { return name }
        let stem = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        for n in 1... {
            let candidate = ext.isEmpty ? "\(stem)-\(n)" : "\(stem)-\(n).\(ext)"
            if !FileManager.default.fileExists(atPath: folder.place(candidate)) { return candidate }
        }
        return name
    }
}
