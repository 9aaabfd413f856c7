import Foundation

/// What a typed line came back as.
enum TerminalInput: Equatable, Sendable {
    case line(String)
    /// Ctrl-C: the line is dropped.
    case interrupted
    /// Ctrl-D, or the end of a pipe.
    case endOfInput
}

/// Everything a session says and hears goes through one of these: the
/// user's terminal (libedit), a pipe or file of lines, or a test's fake. The
/// `SessionController` touches no file descriptor and no global itself.
protocol Terminal: AnyObject {
    /// Whether a person is at the keyboard: then missing login details and
    /// secrets are asked for, a parse error gets a caret under the prompt
    /// line, tours can be walked, and Ctrl-C cancels a running command.
    var isInteractive: Bool { get }
    func out(_ text: String)
    /// Bytes as they are (a binary body piped with `-b`).
    func out(bytes: [UInt8])
    func err(_ text: String)
    /// The next line typed at `prompt`; `editing` is on the line already, to
    /// run as it is or edit first (a tour's step).
    func readLine(prompt: String, editing: String?) -> TerminalInput
    /// A secret typed without echo; nil when cancelled.
    func readSecret(prompt: String) -> String?
    /// Whether the prompt is seen where errors are (`explorer | cat` shows
    /// none: it goes with standard output), so a caret counts its width.
    var showsPrompt: Bool { get }
    /// Keeps a line, already free of secrets, in the history.
    func remember(_ line: String)
    /// Writes `secret` as `placeholder` wherever the history holds it: a
    /// value learned to be a secret after the line that typed it was kept.
    func forget(_ secret: String, as placeholder: String)
    /// The lines the history holds, oldest first (none without a line editor).
    func pastLines() -> [String]
    /// Ctrl-C presses since the last call, checked while a command runs.
    func takeInterrupts() -> Int
    /// Where text that arrives while the user types (WebSocket frames) goes,
    /// printed above the line being edited; nil where nothing can print
    /// between lines (a script sees frames only through `ws recv`).
    func asyncOutput() -> (@Sendable (String) -> Void)?
    /// Where a script writes a streamed answer's rows as they come (its
    /// standard output); nil at the REPL, whose `asyncOutput` shows them.
    func streamedOutput() -> (@Sendable (String) -> Void)?
    /// Where a script says what happens to its socket as it happens (lost,
    /// reconnecting, closed by the server: its standard error); nil at the
    /// REPL, whose `asyncOutput` shows it above the prompt.
    func asyncErrors() -> (@Sendable (String) -> Void)?
}

extension Terminal {
    func asyncErrors() -> (@Sendable (String) -> Void)? { nil }
    var showsPrompt: Bool { isInteractive }
}

/// The REPL's terminal: libedit for lines, history and TAB; C stdio for output.
final class EditorTerminal: Terminal {
    let editor: LineEditor
    let console = Console()

    init(editor: LineEditor) { self.editor = editor }

    var isInteractive: Bool { true }
    func out(_ text: String) { console.out(text) }
    func out(bytes: [UInt8]) { console.out(bytes: bytes) }
    func err(_ text: String) { console.err(text) }
    func readLine(prompt: String, editing: String?) -> TerminalInput {
        AsyncOutput.shared.editing(true)
        // Until the next prompt a command runs: what arrives meanwhile is written at once.
        defer { AsyncOutput.shared.editing(false) }
        return editing.map { editor.read(prompt: prompt, editing: $0) } ?? editor.read(prompt: prompt)
    }
    func readSecret(prompt: String) -> String? {
        // Nothing is written over a password prompt: it waits, as at the line prompt.
        AsyncOutput.shared.editing(true)
        defer { AsyncOutput.shared.editing(false) }
        return LineEditor.readSecret(prompt: prompt)
    }
    func remember(_ line: String) {
        if let problem = editor.remember(line) { console.err("warning: \(problem)\n") }
    }
    func forget(_ secret: String, as placeholder: String) {
        if let problem = editor.forget(secret, as: placeholder) { console.err("warning: \(problem)\n") }
    }
    var showsPrompt: Bool { isatty(STDOUT_FILENO) != 0 }
    func pastLines() -> [String] { editor.pastLines }
    func takeInterrupts() -> Int { LineEditor.takeInterrupts() }
    func asyncOutput() -> (@Sendable (String) -> Void)? {
        guard AsyncOutput.shared.install() else { return nil }
        return { AsyncOutput.shared.post($0) }
    }
    func streamedOutput() -> (@Sendable (String) -> Void)? { nil }
}

/// `-c LINE`, a pipe, or `explorer run FILE`: output only; nobody to ask.
final class PlainTerminal: Terminal {
    let console = Console()

    var isInteractive: Bool { false }
    func out(_ text: String) { console.out(text) }
    func out(bytes: [UInt8]) { console.out(bytes: bytes) }
    func err(_ text: String) { console.err(text) }
    func readLine(prompt: String, editing: String?) -> TerminalInput { .endOfInput }
    func readSecret(prompt: String) -> String? { nil }
    func remember(_ line: String) {}
    func forget(_ secret: String, as placeholder: String) {}
    func pastLines() -> [String] { [] }
    func takeInterrupts() -> Int { 0 }
    func asyncOutput() -> (@Sendable (String) -> Void)? { nil }
    func streamedOutput() -> (@Sendable (String) -> Void)? { { [console] in console.out($0) } }
    func asyncErrors() -> (@Sendable (String) -> Void)? { { [console] in console.err($0) } }
}
