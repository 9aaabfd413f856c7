import CLibEdit
import Foundation
import Synchronization

/// Where output goes. The REPL writes through C stdio, which libedit shares,
/// so prompt and output never interleave out of order.
struct Console: Sendable {
    func out(_ text: String) {
        guard !text.isEmpty, Self.failure.load(ordering: .relaxed) == 0 else { return }
        let error = ex_write_stdout(Self.visible(text))
        if error != 0 { _ = Self.failure.compareExchange(expected: 0, desired: error, ordering: .relaxed) }
    }

    /// Bytes as they are, not text: a binary body piped with `-b`.
    func out(bytes: [UInt8]) {
        guard !bytes.isEmpty, Self.failure.load(ordering: .relaxed) == 0 else { return }
        let error = bytes.withUnsafeBufferPointer { ex_write_stdout_bytes($0.baseAddress, $0.count) }
        if error != 0 { _ = Self.failure.compareExchange(expected: 0, desired: error, ordering: .relaxed) }
    }

    /// The errno of the first write to standard output or error that failed
    /// (a full disk, a closed pipe), or 0. From then on nothing more goes to
    /// standard output; a script stops after its line, and the process ends
    /// with `exitStatus`.
    private static let failure = Atomic<Int32>(0)

    /// Whether a write to standard output or error has failed: what is
    /// printed from now on is lost, so a script stops.
    static var outputFailed: Bool { failure.load(ordering: .relaxed) != 0 }

    /// Whether standard error was closed at the start: its first error then fails.
    private static let errorClosed = Atomic<Bool>(false)

    /// A standard output or error closed before the start (`explorer … >&-`)
    /// gets /dev/null in its place, so that no file or socket opened later
    /// takes its number and receives the text. A closed output counts as
    /// failed at once; a closed error when an error is to be said.
    static func prepareStandardStreams() {
        // A reader that went away is a failed write (EPIPE), said as others
        // are, not a signal that ends the process mid-line: that lost a
        // recording's last step, before NIO came to ignore it.
        signal(SIGPIPE, SIG_IGN)
        // Past a file size limit (`ulimit -f`) a write fails (EFBIG) and is said as a full disk is:
        // the signal's default ended the process with no word, a recording's step unwritten.
        signal(SIGXFSZ, SIG_IGN)
        // A script's download cut by Ctrl-C, SIGTERM or SIGHUP leaves no part behind (the REPL's own handlers do the same).
        ex_install_cleanup_handlers()
        for descriptor: Int32 in [1, 2] where ex_is_open(descriptor) == 0 {
            let null = open("/dev/null", O_WRONLY)
            if null >= 0, null != descriptor { dup2(null, descriptor); close(null) }
            if descriptor == 1 { failure.store(EBADF, ordering: .relaxed) } else { errorClosed.store(true, ordering: .relaxed) }
        }
    }

    /// The exit status with a failed output counted, which is then said in
    /// one line, unless a reader went away (`| head`), which is how a pipe
    /// ends and worth no word, as for curl and git.
    static func exitStatus(_ status: Int32) -> Int32 {
        let error = failure.load(ordering: .relaxed)
        guard error != 0 else { return status }
        if error != EPIPE {
            let reason = error == EBADF ? "it is closed" : String(cString: strerror(error)).lowercased()
            Console().err("error: cannot write the output: \(reason)\n")
        }
        return max(status, ExitStatus.runtime.rawValue)
    }

    /// Writes out what stdio holds: a pipe (a CI log) sees each line as it is printed.
    func flush() { ex_flush_stdout() }

    func err(_ text: String) {
        guard !text.isEmpty else { return }
        ex_flush_stdout()
        let visible = Self.visible(Self.plainErrors.load(ordering: .relaxed) ? Self.withoutColour(text) : text)
        let error = Self.errorClosed.load(ordering: .relaxed) ? EBADF : ex_write_stderr(visible, visible.utf8.count)
        // An error that cannot be said stops a script as an output that cannot be written does.
        if error != 0 { _ = Self.failure.compareExchange(expected: 0, desired: error, ordering: .relaxed) }
    }

    /// Colour chosen for a terminal on standard output stays off a standard
    /// error that is not one (`2>err.log` got `^[[31merror: ^[[0m`).
    private static let plainErrors = Atomic<Bool>(false)

    /// Whether `--color auto` coloured standard output while standard error goes to a file or pipe.
    static func keepColourOffErrors(_ off: Bool) { plainErrors.store(off, ordering: .relaxed) }

    /// `text` without its colour codes (ESC [ … m: the only escapes the palette writes; a
    /// server's own were made visible before).
    static func withoutColour(_ text: String) -> String {
        guard text.utf8.contains(0x1B) else { return text }
        return text.replacing(#/\u{1B}\[[0-9;]*m/#, with: "")
    }

    /// A NUL byte ended the C string the text went out as, and the rest of
    /// the output was lost (`set a=x<NUL>y`, then `vars`, printed `a = x`):
    /// it is written as `\0`.
    static func visible(_ text: String) -> String {
        // Searched with memchr: a byte at a time through the view was a hundredth of a scripted GET.
        let hasNUL = text.utf8.withContiguousStorageIfAvailable { bytes in bytes.baseAddress.map { memchr($0, 0, bytes.count) != nil } ?? false }
            ?? text.utf8.contains(0)
        return hasNUL ? text.replacingOccurrences(of: "\u{0}", with: "\\0") : text
    }
}
