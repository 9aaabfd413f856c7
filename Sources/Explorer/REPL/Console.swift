import CLibEdit
import Foundation

/// Where output goes. The REPL writes through C stdio, which libedit shares,
/// so prompt and output never interleave out of order.
struct Console: Sendable {
    func out(_ text: String) {
        guard !text.isEmpty else { return }
        ex_write_stdout(Self.visible(text))
    }

    /// Writes out what stdio holds: a pipe (a CI log) sees each line as it is printed.
    func flush() { ex_flush_stdout() }

    func err(_ text: String) {
        guard !text.isEmpty else { return }
        ex_flush_stdout()
        FileHandle.standardError.write(Data(Self.visible(text).utf8))
    }

    /// A NUL byte ended the C string the text went out as, and the rest of
    /// the output was lost (`set a=x<NUL>y`, then `vars`, printed `a = x`):
    /// it is written as `\0`.
    static func visible(_ text: String) -> String {
        text.utf8.contains(0) ? text.replacingOccurrences(of: "\u{0}", with: "\\0") : text
    }
}
