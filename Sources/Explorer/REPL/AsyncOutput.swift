import CLibEdit
import Foundation

/// Text that arrives while the user is typing (WebSocket frames and state
/// changes). It is never written from the thread it arrives on: that would
/// land in the middle of the line being edited. It waits here, a byte in
/// libedit's output pipe wakes the read function, and that prints it above
/// the line and redraws the prompt and the partial input (shim.h, `ex_getc`).
/// Text posted while a command runs (no line is being edited) is written at
/// once: a streamed answer shows its lines as they come.
final class AsyncOutput: @unchecked Sendable {
    static let shared = AsyncOutput()
    private let lock = NSLock()
    private var pending = ""
    /// Whether no line is being edited (a command runs): text goes out at once.
    private var direct = false

    /// Called as the editor starts and stops reading a line.
    func editing(_ isEditing: Bool) {
        // Written under the lock: a frame posted straight out (`direct`) the
        // moment after must not pass the ones still waiting (it did: the echo
        // of a second frame showed before the first's).
        lock.withLock {
            direct = !isEditing
            guard direct, !pending.isEmpty else { return }
            ex_write_stdout(pending)
            pending = ""
        }
    }

    /// Makes the pipe and the hook; returns false when the pipe cannot be made.
    func install() -> Bool {
        guard ex_output_pipe_init() == 0 else { return false }
        ex_set_output_hook(Self.hook)
        return true
    }

    /// Queues text (whole lines) and wakes the editor. Any thread.
    func post(_ text: String) {
        // Written under the lock, so it cannot cross the switch back to editing.
        let queued: Bool = lock.withLock {
            if direct {
                ex_write_stdout(text)
                return false
            }
            pending += text
            return true
        }
        if queued { ex_output_wake() }
    }

    private func take() -> String {
        lock.withLock {
            defer { pending = "" }
            return pending
        }
    }

    /// The waiting text for the read function to print (it frees it), or
    /// nil when none waits: then it redraws nothing.
    private static let hook: @convention(c) () -> UnsafeMutablePointer<CChar>? = {
        let text = shared.take()
        return text.isEmpty ? nil : strdup(text)
    }
}
