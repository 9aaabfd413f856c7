import Core
import Foundation
import Sandbox

/// Drives one interpreter from a line editor, a script, or a single line.
/// The REPL, `run`, `-c` and piped stdin all go through `runLine`, and so
/// does recording: each line's outcome is handed to the recorder, if any.
final class Runner {
    let interpreter: Interpreter
    let renderer: Renderer
    let console: Console
    let offline: Bool
    /// What a recording's header names as its backend.
    let target: TranscriptHeader.Target
    private(set) var recorder: TranscriptRecorder?

    init(interpreter: Interpreter, renderer: Renderer, console: Console, offline: Bool, target: TranscriptHeader.Target) {
        self.interpreter = interpreter
        self.renderer = renderer
        self.console = console
        self.offline = offline
        self.target = target
    }

    /// Runs one line and returns its exit status. `editor` is set in the REPL,
    /// where missing login details are asked for and Ctrl-C cancels.
    func runLine(_ line: String, editor: LineEditor? = nil, location: String? = nil, promptWidth: Int = 0) -> (ExitStatus, exit: Bool) {
        // Frames that came since the last step belong to it, not to this line.
        whileRecording { try $0.flushFrames() }
        let parser = interpreter.parser
        var command: Command
        do {
            command = try parser.parse(line)
        } catch {
            if editor != nil, let column = error.column {
                console.err(String(repeating: " ", count: promptWidth + column) + renderer.palette.red("^") + "\n")
            }
            let prefix = location.map { "\($0): " } ?? ""
            console.err(prefix + renderer.palette.red("error: ") + error.message + "\n")
            whileRecording { try $0.record(line: line, command: nil, outcome: .failure(error.message, .usage), forcedOffline: false) }
            return (.usage, false)
        }
        if case let .record(action) = command {
            let outcome = record(action)
            show(outcome, location: location)
            return (outcome.exitStatus, false)
        }
        if case let .transcript(action) = command {
            let outcome = run(action, editor: editor)
            show(outcome, location: location)
            return (outcome.exitStatus, false)
        }
        if case .empty = command, line.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
            whileRecording { try $0.comment(line) }
        }
        var forcedOffline = false
        if case let .http(method, path, items, false) = command, offline {
            command = .http(method: method, path: path, items: items, offline: true)
            forcedOffline = true
        }
        if case let .login(email, password) = command, password == nil, let editor {
            guard let filled = askLogin(email: email, editor: editor) else { return (.ok, false) }
            command = filled
        }
        let outcome = runBlocking(on: interpreter, interruptible: editor != nil) { [command] interpreter in
            await interpreter.execute(command)
        }
        show(outcome, location: location)
        whileRecording { try $0.record(line: line, command: command, outcome: outcome, forcedOffline: forcedOffline) }
        if case .exit = outcome { return (.ok, true) }
        return (outcome.exitStatus, false)
    }

    private func show(_ outcome: Outcome, location: String?) {
        let (out, err) = renderer.render(outcome)
        console.out(out)
        if case .failure = outcome, let location { console.err("\(location): ") }
        console.err(err)
    }

    // MARK: Recording

    /// Starts recording into `path` (`--record` and `record FILE`). The
    /// header keeps the variables set so far and, when logged in, the email,
    /// so that a replay starts where the recording did.
    func startRecording(_ path: String) throws(TranscriptRecorder.Failure) {
        let (variables, email) = runBlocking { [interpreter] in
            (await interpreter.userVariables, await interpreter.session.tokens?.user?["email"]?.stringValue)
        }
        var secrets = SecretScrubber()
        let header = TranscriptHeader.make(
            profile: interpreter.session.profile.name, target: target,
            variables: variables.sorted { $0.key < $1.key }.map { name, value in
                guard Redactor.isSecretName(name) else { return .init(name: name, value: value) }
                secrets.learn(value, name: ExpectedValue.secretName(name))
                return .init(name: name, value: TranscriptPattern(.secret(ExpectedValue.secretName(name))).description)
            },
            login: email)
        recorder = try TranscriptRecorder(path: path, header: header, renderer: renderer,
                                          baseURL: interpreter.session.builder.baseURL.absoluteString, secrets: secrets,
                                          secretFields: SecretFields(interpreter.session.profile.secretFields),
                                          frames: interpreter.frameTap.subscribe(),
                                          variables: { [interpreter] in interpreter.allVariables })
    }

    private func record(_ action: RecordAction) -> Outcome {
        switch action {
        case let .start(path):
            if let recorder { return .failure("already recording to \(recorder.path) (record stop ends it)", .usage) }
            do { try startRecording(path) } catch { return .failure(error.description, .runtime) }
            return .text("recording to \(path)")
        case .stop:
            guard let recorder else { return .text("not recording") }
            finishRecording()
            return .text("recorded \(Self.steps(recorder.steps)) to \(recorder.path)")
        case .status:
            guard let recorder else { return .text("not recording") }
            return .text("recording to \(recorder.path): \(Self.steps(recorder.steps)) so far")
        }
    }

    private static func steps(_ n: Int) -> String { n == 1 ? "1 step" : "\(n) steps" }

    /// Writes the frames that came after the last step, and ends the
    /// recording (`record stop`, `exit`, end of input).
    func finishRecording() {
        whileRecording { try $0.flushFrames() }
        recorder = nil
    }

    /// Runs `body` on the recorder; a write that fails ends the recording, said once.
    func whileRecording(_ body: (TranscriptRecorder) throws -> Void) {
        guard let recorder else { return }
        do { try body(recorder) } catch {
            self.recorder = nil
            console.err(renderer.palette.red("error: ") + "recording stopped: \(error)\n")
        }
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
        printSocketNoticesAsync()
        while true {
            let label = runBlocking(on: interpreter) { await $0.promptLabel() }
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
            if trimmed.hasPrefix("#") { whileRecording { try $0.comment(trimmed) } }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let (status, exit) = runLine(line, location: "\(name):\(index + 1)")
            worst = max(worst, status)
            if exit { break }
        }
        return worst
    }
}
