import CLibEdit
import Foundation
import Synchronization

/// Where output goes. The REPL writes through C stdio, which libedit shares,
/// so prompt and output never interleave out of order.
struct Console: Sendable {
    func out(_ text: String) {
        guard !text.isEmpty, Self.failure.load(ordering: .relaxed) == 0 else { return }
        let error = ex_write_stdout(Self.visible(text))
        if error != 0 { Self.failure.compareExchange(expected: 0, desired: error, ordering: .relaxed) }
    }

    /// The errno of the first write to standard output that failed (a full
    /// disk, a closed pipe), or 0. From then on nothing more is written;
    /// a script stops after its line, and the process ends with `exitStatus`.
    private static let failure = Atomic<Int32>(0)

    /// Whether standard output can no longer be written.
    static var outputFailed: Bool { failure.load(ordering: .relaxed) != 0 }

    /// A standard output closed before the start (`explorer … >&-`) gets
    /// /dev/null in its place, so no file or socket opened later takes its
    /// number and receives the output, and counts as failed.
    static func guardStandardOutput() {
        guard ex_is_open(1) == 0 else { return }
        let null = open("/dev/null", O_WRONLY)
        if null >= 0, null != 1 { dup2(null, 1); close(null) }
        failure.store(EBADF, ordering: .relaxed)
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
        let visible = Self.visible(text)
        ex_write_stderr(visible, visible.utf8.count)
    }

    /// A NUL byte ended the C string the text went out as, and the rest of
    /// the output was lost (`set a=x<NUL>y`, then `vars`, printed `a = x`):
    /// it is written as `\0`.
    static func visible(_ text: String) -> String {
        text.utf8.contains(0) ? text.replacingOccurrences(of: "\u{0}", with: "\\0") : text
    }
}
