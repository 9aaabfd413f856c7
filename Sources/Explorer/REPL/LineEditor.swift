import CLibEdit
import Core
import Foundation

/// The interactive line: libedit with emacs keys, history persisted under
/// `$XDG_STATE_HOME/explorer/history`, TAB completion and Ctrl-C.
///
/// libedit calls back through `@convention(c)` functions, which cannot
/// capture, so the completer and the "was interrupted" flag live in
/// `LineEditorHooks`, used only from the thread that reads lines.
final class LineEditor {
    private let editor: OpaquePointer
    private let history: OpaquePointer?
    let historyURL: URL?

    /// Creates the editor, or nil when libedit cannot set up the terminal.
    init?(historyURL: URL?, complete: @escaping (String) -> Completion) {
        guard ex_install_signal_handlers() == 0, let editor = ex_el_init("explorer") else { return nil }
        self.editor = editor
        history = ex_history_init(Self.historySize)
        self.historyURL = historyURL
        var read = true
        if let history {
            ex_el_set_history(editor, history)
            if let path = historyURL?.path, FileManager.default.fileExists(atPath: path) {
                read = ex_history_load(history, path) >= 0
            }
        }
        historyProblem = historyURL.flatMap { Self.problem(saving: $0, read: read) }
        LineEditorHooks.complete = complete
        ex_el_bind(editor, "ex-complete", "Complete the word", LineEditorHooks.completeFunction, "^I", 0)
        ex_el_bind(editor, "ex-interrupt", "Abandon the line", LineEditorHooks.interruptFunction, "^C", 1)
    }

    /// Why this session's lines will not reach the history file, said once at start (they were lost
    /// without a word, and a file libedit does not read was written over with the first line).
    let historyProblem: String?

    /// `read`: whether libedit read the file (it refuses one without its first line).
    static func problem(saving url: URL, read: Bool) -> String? {
        let path = url.path, folder = url.deletingLastPathComponent().path
        let fileManager = FileManager.default
        var isFolder: ObjCBool = false
        if fileManager.fileExists(atPath: folder, isDirectory: &isFolder) {
            if !isFolder.boolValue { return "history is not saved: \(folder) is a file, not a folder" }
        } else {
            do {
                try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                return "history is not saved: cannot make \(folder)"
            }
        }
        guard fileManager.fileExists(atPath: path, isDirectory: &isFolder) else {
            return access(folder, W_OK) == 0 ? nil : "history is not saved: \(folder) cannot be written"
        }
        if isFolder.boolValue { return "history is not saved: \(path) is a folder" }
        if access(path, R_OK | W_OK) != 0 { return "history is not saved: \(path) cannot be read and written" }
        guard !read, let size = (try? fileManager.attributesOfItem(atPath: path))?[.size] as? Int, size > 0 else { return nil }
        return "history is not saved: \(path) is not a history explorer wrote (left as it is; move it away to start one)"
    }

    deinit {
        if let history { history_end(history) }
        el_end(editor)
    }

    func read(prompt: String) -> TerminalInput {
        ex_set_prompt(prompt)
        LineEditorHooks.interrupted = false
        LineEditorHooks.lastTab = nil
        var count: Int32 = 0
        let result = el_gets(editor, &count)
        if LineEditorHooks.interrupted {
            ex_write_stdout("^C\n")
            return .interrupted
        }
        guard let result, count > 0 else { return .endOfInput }
        var line = String(cString: result)
        if line.hasSuffix("\n") { line.removeLast() }
        return .line(line)
    }

    /// Reads a line whose buffer starts as `text`, for the user to run as it
    /// is or edit first (`tour`): libedit reads pushed characters before the
    /// terminal's, so the text appears as if typed.
    func read(prompt: String, editing text: String) -> TerminalInput {
        text.withCString { el_push(editor, $0) }
        return read(prompt: prompt)
    }

    /// Adds a line (already free of secrets) to the history and to the file,
    /// mode 0600. The file is read, added to and written under a lock, so
    /// two REPLs at once keep each other's lines (each used to rewrite the
    /// whole file from its own memory), and what the others added since is
    /// loaded here too. Returns why the file could not be written, the
    /// first time it cannot (the line is still recalled in this session).
    func remember(_ line: String) -> String? {
        guard let history, !line.trimmingBlanks().isEmpty else { return nil }
        guard let url = historyURL else {
            _ = ex_history_enter(history, line)
            return nil
        }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            // History is a convenience: failing to save it must not stop the REPL.
        }
        let status = ex_history_append(history, Self.historySize, url.path, line)
        let problem = errno
        guard status != 0 else {
            savingFailed = false
            return nil
        }
        _ = ex_history_enter(history, line)
        // Said at start already (a file libedit does not read); else once, until it works again.
        guard status == -1, historyProblem == nil, !savingFailed else { return nil }
        savingFailed = true
        return "history is not saved: \(url.path): \(String(cString: strerror(problem))); the file was left as it was"
    }

    /// Writes `secret` as `placeholder` in the history and its file (a
    /// value typed in clear, `set cs=…`, then sent as a `client_secret`):
    /// `history` hid it, the file kept it. Returns why the file could not
    /// be rewritten, when it could not.
    func forget(_ secret: String, as placeholder: String) -> String? {
        guard let history else { return nil }
        guard ex_history_scrub(history, Self.historySize, historyURL?.path, secret, placeholder) == 0 else {
            let problem = String(cString: strerror(errno))
            return "the history file still holds a secret typed before it was known as one: \(historyURL?.path ?? "history"): \(problem)"
        }
        return nil
    }

    /// The last line could not be written to the history file (said once).
    private var savingFailed = false

    static let historySize: Int32 = 1000

    /// The lines history holds, oldest first: this session's and, since each
    /// line is added under a lock to what the file holds, the other sessions'.
    var pastLines: [String] {
        guard let history else { return [] }
        var lines: [String] = []
        withUnsafeMutablePointer(to: &lines) { pointer in
            ex_history_each(history, { line, context in
                guard let line, let context else { return }
                context.assumingMemoryBound(to: [String].self).pointee.append(String(cString: line))
            }, pointer)
        }
        return lines
    }

    /// Ctrl-C presses since the last call (while a command runs).
    static func takeInterrupts() -> Int { Int(ex_take_interrupts()) }

    /// Asks for a secret without echo; nil when cancelled (Ctrl-C or Ctrl-D).
    static func readSecret(prompt: String) -> String? {
        if case let .typed(text) = askSecret(prompt: prompt) { return text }
        return nil
    }

    enum SecretAnswer: Equatable {
        case typed(String)
        /// Ctrl-D, or the input ended.
        case ended
        /// Ctrl-C.
        case interrupted
    }

    /// Asks for a secret without echo, saying how a prompt with no answer ended.
    static func askSecret(prompt: String) -> SecretAnswer {
        var buffer = [CChar](repeating: 0, count: 1024)
        let n = ex_read_secret(prompt, &buffer, Int32(buffer.count))
        if n == -2 { return .interrupted }
        guard n >= 0 else { return .ended }
        return .typed(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}

/// State shared with libedit's C callbacks. Touched only on the REPL thread.
enum LineEditorHooks {
    nonisolated(unsafe) static var complete: ((String) -> Completion)?
    nonisolated(unsafe) static var interrupted = false
    /// The line at the last TAB, to tell a second TAB (list) from a first.
    nonisolated(unsafe) static var lastTab: String?

    static let interruptFunction: @convention(c) (OpaquePointer?, Int32) -> UInt8 = { editor, _ in
        guard let editor else { return UInt8(CC_ERROR) }
        // End the line; `read` sees the flag, discards it and writes "^C".
        interrupted = true
        return UInt8(CC_NEWLINE)
    }

    static let completeFunction: @convention(c) (OpaquePointer?, Int32) -> UInt8 = { editor, _ in
        guard let editor, let info = el_line(editor)?.pointee, let complete else { return UInt8(CC_ERROR) }
        let before = String(decoding: UnsafeRawBufferPointer(start: info.buffer, count: info.cursor - info.buffer), as: UTF8.self)
        let whole = String(decoding: UnsafeRawBufferPointer(start: info.buffer, count: info.lastchar - info.buffer), as: UTF8.self)
        let secondTab = lastTab == whole + "\u{0}\(before.count)"
        let completion = complete(before)
        let typed = String(Array(before)[completion.start...])
        let typedScalars = Int32(typed.unicodeScalars.count)

        switch completion.candidates.count {
        case 0:
            lastTab = nil
            guard let note = completion.note else { return UInt8(CC_REFRESH_BEEP) }
            ex_write_below_line(editor, "\n" + note + "\n")
            return UInt8(CC_NORM)
        case 1 where completion.note != nil:
            // `/api/users/` could be `me` or an `{id}`: list both, insert neither.
            lastTab = nil
            ex_write_below_line(editor, "\n" + CandidateList.format(completion.candidates, width: Int(ex_el_columns(editor))) + completion.note! + "\n")
            return UInt8(CC_NORM)
        case 1:
            let candidate = completion.candidates[0]
            el_deletestr(editor, typedScalars)
            // Mid-line, before a space already there, no second one (`get /api/ta|sks status==x`).
            let spaced = whole.dropFirst(before.count).first.map { $0 == " " || $0 == "\t" } ?? false
            el_insertstr(editor, candidate.text + (candidate.isFinal && !spaced ? " " : ""))
            lastTab = nil
            return UInt8(CC_REFRESH)
        default:
            let prefix = completion.commonPrefix
            if prefix.count > typed.count {
                el_deletestr(editor, typedScalars)
                el_insertstr(editor, prefix)
                // The next TAB lists the candidates, as after a TAB that
                // added nothing: it took three before (issue 11 #27).
                let after = String(whole.dropFirst(before.count))
                let newBefore = String(before.dropLast(typed.count)) + prefix
                lastTab = newBefore + after + "\u{0}\(newBefore.count)"
                return UInt8(CC_REFRESH)
            }
            if secondTab {
                let note = completion.note.map { $0 + "\n" } ?? ""
                ex_write_below_line(editor, "\n" + CandidateList.format(completion.candidates, width: Int(ex_el_columns(editor))) + note)
                lastTab = nil
                return UInt8(CC_NORM)
            }
            lastTab = whole + "\u{0}\(before.count)"
            return UInt8(CC_REFRESH_BEEP)
        }
    }
}

/// Candidates in columns, or one per line with hints when hints fit; past
/// `listed`, the first of them and how many more (a spec of 6,000 paths
/// filled screens at `get /` TAB TAB, as bash asks before it does).
enum CandidateList {
    static let listed = 200

    static func format(_ candidates: [Completion.Candidate], width: Int) -> String {
        guard candidates.count <= listed else {
            return format(Array(candidates.prefix(listed)), width: width)
                + "… and \(candidates.count - listed) more: type more of it to narrow them\n"
        }
        let longest = candidates.map(\.text.columns).max() ?? 0
        if candidates.contains(where: { $0.hint != nil }), candidates.count <= 40 {
            return candidates.map { c in
                guard let hint = c.hint else { return c.text }
                let line = c.text.padded(to: longest + 2) + hint
                // Cut where it no longer fits, and said to be (it stopped mid-word, as if that were all).
                return line.columns > width ? line.prefix(columns: max(width - 2, longest)) + "…" : line
            }.joined(separator: "\n") + "\n"
        }
        let columnWidth = longest + 2
        let columns = max(1, width / columnWidth)
        let rows = (candidates.count + columns - 1) / columns
        var lines: [String] = []
        for r in 0..<rows {
            var line = ""
            for c in 0..<columns {
                let i = c * rows + r
                guard i < candidates.count else { continue }
                line += candidates[i].text.padded(to: columnWidth)
            }
            lines.append(String(line.reversed().drop(while: { $0 == " " }).reversed()))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
