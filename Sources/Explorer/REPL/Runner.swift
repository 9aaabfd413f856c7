import Core
import Foundation
import Sandbox

/// Drives one interpreter from a line editor, a script, or a single line.
/// The REPL, `run`, `-c` and piped stdin all go through `runLine`.
final class Runner {
    let interpreter: Interpreter
    let renderer: Renderer
    let console: Console
    let offline: Bool

    init(interpreter: Interpreter, renderer: Renderer, console: Console, offline: Bool) {
        self.interpreter = interpreter
        self.renderer = renderer
        self.console = console
        self.offline = offline
    }

    /// Runs one line and returns its exit status. `editor` is set in the REPL,
    /// where missing login details are asked for and Ctrl-C cancels.
    func runLine(_ line: String, editor: LineEditor? = nil, location: String? = nil, promptWidth: Int = 0) -> (ExitStatus, exit: Bool) {
        let parser = runBlocking { [interpreter] in await interpreter.parser }
        var command: Command
        do {
            command = try parser.parse(line)
        } catch {
            if editor != nil, let column = error.column {
                console.err(String(repeating: " ", count: promptWidth + column) + renderer.palette.red("^") + "\n")
            }
            let prefix = location.map { "\($0): " } ?? ""
            console.err(prefix + renderer.palette.red("error: ") + error.message + "\n")
            return (.usage, false)
        }
        if case let .http(method, path, items, false) = command, offline {
            command = .http(method: method, path: path, items: items, offline: true)
        }
        if case let .login(email, password) = command, password == nil, let editor {
            guard let filled = askLogin(email: email, editor: editor) else { return (.ok, false) }
            command = filled
        }
        let outcome = runBlocking(interruptible: editor != nil) { [interpreter, command] in
            await interpreter.execute(command)
        }
        let (out, err) = renderer.render(outcome)
        console.out(out)
        if case .failure = outcome, let location { console.err("\(location): ") }
        console.err(err)
        if case .exit = outcome { return (.ok, true) }
        return (outcome.exitStatus, false)
    }

    private func askLogin(email: String?, editor: LineEditor) -> Command? {
        var email = email
        if email == nil {
            guard case let .line(typed) = editor.read(prompt: "email: "), !typed.isEmpty else { return nil }
            email = typed.trimmingCharacters(in: .whitespaces)
        }
        guard let password = LineEditor.readSecret(prompt: "password: ") else { return nil }
        return .login(email: email, password: password)
    }

    /// The interactive loop: prompt, read, run, until Ctrl-D or `exit`.
    func repl(editor: LineEditor) -> ExitStatus {
        while true {
            let label = runBlocking { [interpreter] in await interpreter.promptLabel() }
            let prompt = label + "> "
            switch editor.read(prompt: prompt) {
            case .endOfInput:
                console.out("\n")
                return .ok
            case .interrupted:
                continue
            case let .line(line):
                if let safe = Redactor.redact(line: line) { editor.remember(safe) }
                let (_, exit) = runLine(line, editor: editor, promptWidth: prompt.count)
                if exit { return .ok }
            }
        }
    }

    /// Runs lines from a script or a pipe; `#` lines are comments. Keeps going
    /// after a failure and returns the worst status.
    func script(_ lines: some Sequence<String>, name: String) -> ExitStatus {
        var worst = ExitStatus.ok
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let (status, exit) = runLine(line, location: "\(name):\(index + 1)")
            worst = max(worst, status)
            if exit { break }
        }
        return worst
    }
}
