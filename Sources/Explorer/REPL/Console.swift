import CLibEdit
import Foundation

/// Where output goes. The REPL writes through C stdio, which libedit shares,
/// so prompt and output never interleave out of order.
struct Console: Sendable {
    let isInteractive: Bool

    func out(_ text: String) {
        guard !text.isEmpty else { return }
        ex_write_stdout(text)
    }

    func err(_ text: String) {
        guard !text.isEmpty else { return }
        ex_flush_stdout()
        FileHandle.standardError.write(Data(text.utf8))
    }
}
