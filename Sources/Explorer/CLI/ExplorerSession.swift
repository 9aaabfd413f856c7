import ArgumentParser
import Core
import Foundation
import Sandbox

/// Everything a run needs: the backend and the stack on it (a `LiveSession`)
/// and the session controller with its terminal (libedit for the REPL,
/// plain output for `-c`, pipes and files).
final class ExplorerSession {
    let live: LiveSession
    let controller: SessionController

    var interpreter: Interpreter { live.interpreter }
    var profile: Profile { live.profile }
    var baseURL: URL { live.baseURL }

    static var historyURL: URL {
        XDG.stateHome(ProcessInfo.processInfo.environment).appendingPathComponent("explorer").appendingPathComponent("history")
    }

    private init(live: LiveSession, controller: SessionController) {
        self.live = live
        self.controller = controller
    }

    /// `interactive`: a REPL when standard input is a terminal and libedit
    /// can drive it; otherwise lines come from a pipe, a file or `-c`.
    static func open(_ options: ConnectionOptions, interactive: Bool) throws -> ExplorerSession {
        let environment = ProcessInfo.processInfo.environment
        let file = try profileFile(options, environment: environment)
        // A server named on the command line is not LinkU unless the user says so.
        let chosen = file?.document.profile ?? options.profile.flatMap(Profile.named)
        let profile = chosen ?? (options.baseURL != nil || options.spec != nil ? .generic : .linku)
        var spec: ImportedSpec?
        if let file = options.spec ?? file?.document.spec {
            // One line, not the whole usage: the document is wrong, not the command line.
            do { spec = try SpecLoader.load(file) } catch {
                Console().err("error: \(error.description)\n")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
        }
        let target: LiveSession.Target
        let store: any TokenStore
        if let url = options.baseURL.flatMap(URL.init(string:)) ?? file?.environment.baseURL ?? spec?.servers.first {
            target = .url(url)
            store = FileTokenStore(url: FileTokenStore.defaultURL(environment: environment))
        } else {
            var configuration = SandboxConfiguration()
            configuration.apply(environment: environment)
            target = .sandbox(configuration)
            // The sandbox's tokens die with it: keep them in memory, not on disk.
            store = MemoryTokenStore()
        }
        // `--offline` sends nothing, ever: not a login, not a refresh.
        let live = try runBlockingThrowing { [target, store, offline = options.offline] in
            try await LiveSession.open(profile: profile, target: target, offline: offline, store: store)
        }
        let interpreter = live.interpreter
        if let spec { runBlocking { await interpreter.use(spec) } }
        if let file {
            let label = file.environment.name == file.document.defaultEnvironment ? nil : file.environment.name
            let credential = file.credential
            runBlocking {
                await interpreter.setEnvironmentLabel(label)
                if let credential { await interpreter.session.setSessionHeader(credential.name, credential.value) }
            }
        }
        let palette = Palette.choose(options.color, isTerminal: isatty(1) == 1, environment: environment)
        var terminal: any Terminal = PlainTerminal()
        if interactive, isatty(0) == 1, let editor = LineEditor(historyURL: historyURL, complete: { complete($0, on: interpreter) }) {
            terminal = EditorTerminal(editor: editor)
        }
        let renderer = Renderer(palette: palette, envelope: profile.errorEnvelope, secretHeaders: profile.secretHeaders)
        let controller = SessionController(interpreter: interpreter, renderer: renderer,
                                           terminal: terminal, offline: options.offline,
                                           target: live.sandbox != nil ? .sandbox : .url(live.baseURL.absoluteString))
        if let path = options.record {
            do { try controller.startRecording(path) } catch {
                runBlocking { await live.close() }
                throw ValidationError(error.description)
            }
        }
        return ExplorerSession(live: live, controller: controller)
    }

    /// A profile file named by `--profile`, its environment, and its credential
    /// header with the secrets filled in (from `EXPLORER_SECRET_NAME`, or asked
    /// for without echo at a terminal). Every problem is one line and exit 2.
    private static func profileFile(_ options: ConnectionOptions, environment: [String: String]) throws -> ChosenProfile? {
        guard let given = options.profile, Profile.named(given) == nil,
              let path = ProfileLookup(environment: environment).file(named: given) else { return nil }
        func fail(_ message: String) -> ExitCode {
            Console().err("error: \(message)\n")
            return ExitCode(ExitStatus.parse.rawValue)
        }
        let document: ProfileFile
        do { document = try ProfileFile.read(path) } catch { throw fail(error.description) }
        guard let chosen = document.environment(named: options.env) else {
            throw fail("\(path): no environment '\(options.env ?? "")'; there are " + document.environments.map(\.name).joined(separator: ", "))
        }
        guard let header = document.auth.header else { return ChosenProfile(document: document, environment: chosen, credential: nil) }
        let filled = SecretTemplate.fill(header.template) { name in
            if let value = environment[SecretResolver.environmentName(name)], !value.isEmpty { return value }
            guard isatty(0) == 1 else { return nil }
            return LineEditor.readSecret(prompt: "\(name) for \(document.displayName): ")
        }
        switch filled {
        case let .success(value): return ChosenProfile(document: document, environment: chosen, credential: HTTPHeader(name: header.name, value: value))
        case let .failure(missing):
            throw fail("\(document.displayName) needs {{secret:\(missing.name)}} for its \(header.name) header: set \(SecretResolver.environmentName(missing.name))")
        }
    }

    /// TAB: complete against the interpreter's current state (variables, last response).
    func complete(_ before: String) -> Completion { Self.complete(before, on: interpreter) }

    private static func complete(_ before: String, on interpreter: Interpreter) -> Completion {
        Completer.complete(before, state: runBlocking(on: interpreter) { $0.completionState() })
    }

    var welcome: String {
        let palette = controller.renderer.palette
        var lines: [String] = []
        if live.sandbox != nil {
            lines.append(palette.bold("\(profile.displayName) sandbox") + " at \(baseURL.absoluteString) (in-process; its data is gone when you leave)")
            let accounts = profile.demoAccounts.map { "\($0.email) / \($0.password)" }.joined(separator: ", ")
            lines.append("Demo accounts: \(accounts)")
        } else {
            lines.append(palette.bold(profile.displayName) + " at \(baseURL.absoluteString)")
        }
        lines.append("Type " + palette.bold("help") + " for commands; TAB completes; Ctrl-D leaves.")
        if !Tours().tours(for: profile.name).isEmpty {
            lines.append(palette.bold("tour") + " lists guided examples, tour NAME walks one.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func close() {
        // Frames that came after the last step are still written.
        controller.finishRecording()
        // Quietly: no "closed" notice after the user has left.
        runBlocking { [live] in await live.close() }
    }
}

/// A profile file as a session uses it: the environment picked, the credential filled in.
struct ChosenProfile: Sendable {
    let document: ProfileFile
    let environment: ProfileFile.Environment
    let credential: HTTPHeader?
}
