import Foundation
@testable import Explorer

/// A `Terminal` for driving a `SessionController` in-process: what the user
/// types is scripted, what the session prints is kept, and Ctrl-C can be
/// pressed at a moment of the test's choosing.
final class FakeTerminal: Terminal, @unchecked Sendable {
    /// What the user does at a prompt.
    enum Answer {
        /// Types this line and presses Enter.
        case type(String)
        /// Presses Enter on what is on the line already (a tour's step).
        case accept
        case ctrlC
        case ctrlD
    }

    let isInteractive: Bool
    private let lock = NSLock()
    private var answers: [Answer]
    private var secretAnswers: [String?]
    private var _output = ""
    private var _errors = ""
    private var _prompts: [String] = []
    private var _history: [String] = []
    private var ctrlCAt: ContinuousClock.Instant?

    init(interactive: Bool = true, answers: [Answer] = [], secrets: [String?] = []) {
        isInteractive = interactive
        self.answers = answers
        secretAnswers = secrets
    }

    var output: String { lock.withLock { _output } }
    var errors: String { lock.withLock { _errors } }
    /// Every prompt shown, secrets' too, in order.
    var prompts: [String] { lock.withLock { _prompts } }
    var history: [String] { lock.withLock { _history } }

    /// Ctrl-C is pressed once, `delay` from now (while a command runs).
    func pressCtrlC(after delay: Duration) {
        lock.withLock { ctrlCAt = .now + delay }
    }

    /// Ctrl-C is pressed once `writes` more writes to standard output have been made.
    func pressCtrlC(afterWrites writes: Int) {
        lock.withLock { ctrlCAfterWrites = writes }
    }

    private var ctrlCAfterWrites: Int?

    func out(_ text: String) {
        lock.withLock {
            _output += text
            if let left = ctrlCAfterWrites {
                ctrlCAfterWrites = left > 1 ? left - 1 : nil
                if left <= 1 { ctrlCAt = .now }
            }
        }
    }
    func out(bytes: [UInt8]) { out(String(decoding: bytes, as: UTF8.self)) }
    func err(_ text: String) { lock.withLock { _errors += text } }

    func readLine(prompt: String, editing: String?) -> TerminalInput {
        lock.withLock {
            _prompts.append(prompt)
            guard !answers.isEmpty else { return .endOfInput }
            switch answers.removeFirst() {
            case let .type(line): return .line(line)
            case .accept: return .line(editing ?? "")
            case .ctrlC: return .interrupted
            case .ctrlD: return .endOfInput
            }
        }
    }

    func readSecret(prompt: String) -> String? {
        lock.withLock {
            _prompts.append(prompt)
            return secretAnswers.isEmpty ? nil : secretAnswers.removeFirst()
        }
    }

    func remember(_ line: String) { lock.withLock { _history.append(line) } }
    func forget(_ secret: String, as placeholder: String) {
        lock.withLock { _history = _history.map { $0.replacingOccurrences(of: secret, with: placeholder) } }
    }
    func pastLines() -> [String] { history }

    func takeInterrupts() -> Int {
        lock.withLock {
            guard let at = ctrlCAt, ContinuousClock.now >= at else { return 0 }
            ctrlCAt = nil
            return 1
        }
    }

    func asyncOutput() -> (@Sendable (String) -> Void)? {
        { [weak self] text in self?.out(text) }
    }
    /// As the real terminals: a script writes streamed rows out, the REPL shows them through `asyncOutput`.
    func streamedOutput() -> (@Sendable (String) -> Void)? {
        guard !isInteractive else { return nil }
        return { [weak self] text in self?.out(text) }
    }
    /// As the real terminals: a script says what happens to its socket on standard error.
    func asyncErrors() -> (@Sendable (String) -> Void)? {
        guard !isInteractive else { return nil }
        return { [weak self] text in self?.err(text) }
    }
}
