import ArgumentParser
import Core
import Foundation
import Sandbox

/// Everything a run needs: the backend and the stack on it (a `LiveSession`)
/// and the session controller with its terminal (libedit for the REPL,
/// plain output for `-c`, pipes and files).
final class ExplorerSession {
    private(set) var live: LiveSession
    let controller: SessionController
    /// The profile file in use, if any, and its path.
    private(set) var chosen: ChosenProfile?
    private var chosenPath: String?
    /// The OpenAPI document the catalog came from, for an interpreter on another environment.
    private var spec: ImportedSpec?
    private let offline: Bool
    /// The interpreter TAB completes against (another after `env NAME`).
    private let completing: CurrentInterpreter

    var interpreter: Interpreter { live.interpreter }
    var profile: Profile { live.profile }
    var baseURL: URL { live.baseURL }

    static var historyURL: URL {
        XDG.stateHome(Surroundings.current.environment).appendingPathComponent("explorer").appendingPathComponent("history")
    }

    private init(live: LiveSession, controller: SessionController, chosen: ChosenProfile?, chosenPath: String?, spec: ImportedSpec?,
                 offline: Bool, completing: CurrentInterpreter) {
        self.live = live
        self.controller = controller
        self.chosen = chosen
        self.chosenPath = chosenPath
        self.spec = spec
        self.offline = offline
        self.completing = completing
    }

    /// `interactive`: a REPL when standard input is a terminal and libedit
    /// can drive it; otherwise lines come from a pipe, a file or `-c`.
    static func open(_ options: ConnectionSettings, interactive: Bool) throws -> ExplorerSession {
        let environment = Surroundings.current.environment
        let file = try profileFile(options, environment: environment)
        // A server named on the command line is not LinkU unless the user says so.
        // `--base-url` moves the REST API and the sockets with it: the file's socket URL is for its environment.
        let chosen = (options.baseURL == nil ? file?.profile : file?.document.profile) ?? options.profile.flatMap(Profile.named)
        let profile = chosen ?? (options.baseURL != nil || options.spec != nil ? .generic : Profile.linku)
        var spec: ImportedSpec?
        if let path = options.spec ?? file?.document.spec {
            // One line, not the whole usage: the document is wrong, not the command line.
            do { spec = try SpecLoader.load(path) } catch {
                // A profile file's `spec:` is the file's problem: said as one, exit 2.
                let named = options.spec == nil ? file.map { "\($0.document.path): spec: " } : nil
                Console().err("error: \(named ?? "")\(error.description)\n")
                throw ExitCode((named == nil ? ExitStatus.usage : .parse).rawValue)
            }
            for note in spec?.notes ?? [] where SpecCatalog.isDocumentFault(note) { Console().err("warning: \(path): \(note)\n") }
            for note in spec?.notes ?? [] where SpecCatalog.changesWhatIsSent(note) { Console().err("note: \(path): \(note)\n") }
            // A profile file's own catalog is kept beside its document's.
            if let file { spec = spec?.adding(file.document.profile) }
        }
        let target: LiveSession.Target
        let store: any TokenStore
        // A built-in profile's deployment, by --env (the seeds' dev, staging, production).
        let deployment = options.env.flatMap { env in options.profile.flatMap { Profile.builtIn(named: $0) }?.environment(named: env) }
        // A document whose servers are a path alone (`/api/v1`) puts the API there on the host given.
        let given = options.baseURL.flatMap { URL(string: URLCheck.lowercasingScheme($0)) }.map { spec?.placing($0) ?? $0 }
        if let url = given ?? file?.environment.baseURL ?? deployment ?? spec?.servers.first {
            target = .url(url)
            store = FileTokenStore(url: FileTokenStore.defaultURL(environment: environment))
        } else if let path = spec?.serverPath, options.profile == nil {
            // It said "no sandbox for profile 'generic'".
            Console().err("error: the document's server is \(path), a path on no host: give --base-url (\(path) goes after it)\n")
            throw ExitCode(ExitStatus.usage.rawValue)
        } else if spec != nil, chosen == nil {
            // No server at all (or none with a host): it said "no sandbox for profile 'generic'" too.
            Console().err("error: \(options.spec ?? file?.document.path ?? "the document") names no server with an absolute URL: give --base-url URL too\n")
            throw ExitCode(ExitStatus.usage.rawValue)
        } else {
            var configuration = SandboxConfiguration()
            configuration.apply(environment: environment)
            target = .sandbox(configuration)
            // The sandbox's tokens die with it: keep them in memory, not on disk.
            store = MemoryTokenStore()
        }
        // `--offline` sends nothing, ever: not a login, not a refresh.
        let live: LiveSession
        do {
            live = try runBlockingThrowing { [target, store, offline = options.offline] in
                try await LiveSession.open(profile: profile, target: target, offline: offline, store: store)
            }
        } catch let unsupported as ProxyRules.Unsupported {
            Console().err("error: \(unsupported)\n")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        let interpreter = live.interpreter
        if let spec { runBlocking { await interpreter.use(spec) } }
        // `--verify`, `--cert`, `--cert-key` on explorer's command line: as if `defaults` had said them.
        if let preset = options.requestDefaults { runBlocking { _ = await interpreter.execute(.defaults(preset)) } }
        if let file { runBlocking { await file.apply(to: interpreter) } }
        let palette = Palette.forStandardOutput(options.color, environment: environment)
        var terminal: any Terminal = PlainTerminal()
        let completing = CurrentInterpreter(interpreter)
        if interactive, Surroundings.current.inputIsTerminal, let editor = LineEditor(historyURL: historyURL, complete: { complete($0, on: completing.value) }) {
            terminal = EditorTerminal(editor: editor)
            if let problem = editor.historyProblem { Console().err("warning: \(problem)\n") }
            runBlocking { await interpreter.learnIDs() }
        }
        var renderer = Renderer(palette: palette, envelope: profile.errorEnvelope, secretHeaders: profile.secretHeaders,
                                secretParameters: profile.secretParameters)
        renderer.secretNames = Set(SecretFields(profile.secretFields).paths.compactMap(\.last))
        renderer.formatsOfflineJSON = Surroundings.current.outputIsTerminal
        renderer.escapesControls = Surroundings.current.outputIsTerminal
        renderer.printsWholeBodies = !Surroundings.current.outputIsTerminal
        if Surroundings.current.outputIsTerminal { renderer.columns = { Surroundings.terminalColumns() } }
        let controller = SessionController(interpreter: interpreter, renderer: renderer,
                                           terminal: terminal, offline: options.offline,
                                           target: live.sandbox != nil ? .sandbox : .url(live.baseURL.absoluteString))
        controller.stopsOnError = options.stopOnError
        var chosenPath: String?
        if let file, let given = options.profile {
            let path = ProfileLookup(environment: environment).file(named: given) ?? given
            chosenPath = path
            // A recording names the file as it was found: by the name given
            // (`b7` for b7.yaml, whatever its `name:` says), or by its path.
            let byPath = ProfileLookup.isPath(given)
            controller.profileFile = (path, byPath ? file.document.name : given, byPath, file.isOtherEnvironment ? file.environment.name : nil,
                                      file.secrets, file.document.spec)
            runBlocking { await interpreter.setEnvironments(file.document.environments.map(\.name)) }
        }
        if let path = options.record {
            do { try controller.startRecording(path) } catch {
                // One line, as `record FILE` says it: the file is the problem, not the command line.
                runBlocking { await live.close() }
                Console().err("error: \(error.description)\n")
                throw ExitCode(ExitStatus.runtime.rawValue)
            }
        }
        let session = ExplorerSession(live: live, controller: controller, chosen: file, chosenPath: chosenPath, spec: spec,
                                      offline: options.offline, completing: completing)
        if file != nil, options.baseURL == nil {
            controller.environments = EnvironmentSwitcher(list: { [unowned session] in session.environments },
                                                          move: { [unowned session] in session.move(to: $0) })
        } else if file == nil, options.baseURL == nil, options.spec == nil, !profile.environments.isEmpty {
            // A built-in profile: the sandbox and the deployments its seeds list.
            session.deployment = options.env ?? Self.sandboxEnvironment
            let names = [Self.sandboxEnvironment] + profile.environments.map(\.name)
            runBlocking { await interpreter.setEnvironments(names) }
            if let env = options.env, env != Self.sandboxEnvironment { runBlocking { await interpreter.setEnvironmentLabel(env) } }
            controller.environments = EnvironmentSwitcher(list: { [unowned session] in session.deployments },
                                                          move: { [unowned session] in session.move(toDeployment: $0) })
        }
        return session
    }

    /// A built-in profile's environment now in use (`sandbox`, or one of
    /// `Profile.environments`); nil for a profile file or `--base-url`.
    private var deployment: String?
    static let sandboxEnvironment = "sandbox"

    /// The built-in profile's environments: the sandbox first, the one in use marked.
    private var deployments: [(name: String, url: String, current: Bool)] {
        [(Self.sandboxEnvironment, "a fresh in-process sandbox", deployment == Self.sandboxEnvironment)]
            + profile.environments.map { ($0.name, $0.baseURL, $0.name == deployment) }
    }

    /// `env NAME` for a built-in profile: a new stack on that deployment (or a
    /// fresh sandbox), the user's variables carried over; the old one is closed.
    private func move(toDeployment name: String) -> Result<EnvironmentSwitcher.Moved, ChosenProfile.Problem> {
        let environment = Surroundings.current.environment
        let names = [Self.sandboxEnvironment] + profile.environments.map(\.name)
        let target: LiveSession.Target
        let store: any TokenStore
        if name == Self.sandboxEnvironment {
            var configuration = SandboxConfiguration()
            configuration.apply(environment: environment)
            target = .sandbox(configuration)
            store = MemoryTokenStore()
        } else if let url = profile.environment(named: name) {
            target = .url(url)
            store = FileTokenStore(url: FileTokenStore.defaultURL(environment: environment))
        } else {
            return .failure(.init(description: "the \(profile.name) profile has no environment '\(name)'; it has \(names.joined(separator: ", "))"))
        }
        let opened = replaceLive(profile: profile, target: target, store: store, describing: name) { interpreter in
            await interpreter.setEnvironments(names)
            await interpreter.setEnvironmentLabel(name == Self.sandboxEnvironment ? nil : name)
        }
        let leftSandbox = deployment == Self.sandboxEnvironment && name != Self.sandboxEnvironment
        return opened.map { opened in
            deployment = name
            // The sandbox went with its stack, its data and logins with it, unsaid: `env sandbox` came back to an empty one.
            let note = leftSandbox ? "the sandbox was closed, and what it held with it (env sandbox starts a fresh one)" : nil
            return EnvironmentSwitcher.Moved(interpreter: opened.live.interpreter, url: opened.live.baseURL.absoluteString, leftHeaders: opened.leftHeaders,
                                             note: note)
        }
    }

    /// The profile file's environments, the one in use marked.
    private var environments: [(name: String, url: String, current: Bool)] {
        guard let chosen else { return [] }
        return chosen.document.environments.map { ($0.name, $0.baseURL.absoluteString, $0.name == chosen.environment.name) }
    }

    /// `env NAME`: a new stack on that environment, its credential filled in
    /// again, the user's variables carried over; the old one is closed.
    private func move(to name: String) -> Result<EnvironmentSwitcher.Moved, ChosenProfile.Problem> {
        guard let path = chosenPath else { return .failure(.init(description: "no profile file")) }
        let environment = Surroundings.current.environment
        let ask: ((String) -> String?)? = Surroundings.current.inputIsTerminal ? { LineEditor.readSecret(prompt: $0) } : nil
        let next: ChosenProfile
        switch ChosenProfile.resolve(path, environment: name, variables: environment, ask: ask) {
        case let .failure(problem): return .failure(problem)
        case let .success(found): next = found
        }
        let store = FileTokenStore(url: FileTokenStore.defaultURL(environment: environment))
        let opened = replaceLive(profile: next.profile, target: .url(next.environment.baseURL), store: store,
                                 describing: next.environment.baseURL.absoluteString) { [spec] interpreter in
            if let spec { await interpreter.use(spec) }
            await next.apply(to: interpreter)
            await interpreter.setEnvironments(next.document.environments.map(\.name))
        }
        return opened.map { opened in
            chosen = next
            controller.profileFile?.environment = next.isOtherEnvironment ? name : nil
            controller.profileFile?.secrets = next.secrets
            // The credential came from a variable every environment shares: it went along, said (the dev
            // token went to production unsaid).
            let shared = next.sharedSecretVariables.isEmpty ? nil
                : "its credential is \(next.sharedSecretVariables.joined(separator: ", "))'s, the same as every environment's "
                + "(\(next.sharedSecrets.map { ChosenProfile.variable($0, environment: name) }.joined(separator: ", ")) gives \(name) its own)"
            return EnvironmentSwitcher.Moved(interpreter: opened.live.interpreter, url: next.environment.baseURL.absoluteString,
                                             leftHeaders: opened.leftHeaders, note: shared)
        }
    }

    /// `env NAME`'s one way to move: a new stack on `target`, made ready by
    /// `prepare`, the user's variables, `defaults`, cookies and session headers carried over (not a
    /// credential: its name is in `leftHeaders`), the old stack closed, and TAB and recording
    /// pointed at the new one.
    private func replaceLive(profile: Profile, target: LiveSession.Target, store: any TokenStore, describing place: String,
                             prepare: @escaping @Sendable (Interpreter) async -> Void)
        -> Result<(live: LiveSession, leftHeaders: [String]), ChosenProfile.Problem> {
        let old = live
        let opened = runBlocking { [offline] () -> Result<(live: LiveSession, leftHeaders: [String]), ChosenProfile.Problem> in
            do {
                let live = try await LiveSession.open(profile: profile, target: target, offline: offline, store: store)
                await prepare(live.interpreter)
                for (name, value) in await old.interpreter.userVariables {
                    _ = await live.interpreter.execute(.set(name: name, value: value))
                }
                // `header X-Team:blue` went with the old session, said nowhere (variables and defaults came along).
                var left: [String] = []
                let secretHeaders = old.profile.secretHeaders + profile.secretHeaders
                let kept = await live.interpreter.session.sessionHeaders
                for header in await old.interpreter.session.sessionHeaders where !kept.contains(where: { $0.hasName(header.name) }) {
                    // By its name, its look, or what filled it (`header X-Tenant:{{secret:tenant_key}}`: its name
                    // says nothing, and it went to the other environment's server).
                    let filledBySecret = await old.interpreter.holdsSecret(header.value)
                    if Redactor.isSecretHeaderName(header.name) || secretHeaders.contains(where: { header.hasName($0) })
                        || Redactor.looksLikeCredential(header.value) || filledBySecret {
                        left.append(header.name)
                    } else {
                        await live.interpreter.session.setSessionHeader(header.name, header.value)
                    }
                }
                // The jar too: a cookie-session login was gone after `env b` then `env a`, said nowhere. Each
                // cookie goes only to its own origin, so none reaches the other environment's server.
                await live.interpreter.session.adoptCookies(await old.interpreter.session.cookies)
                await live.interpreter.holdSecret(await old.interpreter.secretVariables)
                _ = await live.interpreter.execute(.defaults(await old.interpreter.requestDefaults))
                if await old.interpreter.learnsIDs { await live.interpreter.learnIDs() }
                await old.close()
                return .success((live, left))
            } catch {
                return .failure(.init(description: "cannot open \(place): \(error)"))
            }
        }
        if case let .success((live, _)) = opened {
            self.live = live
            completing.value = live.interpreter
            controller.target = live.sandbox != nil ? .sandbox : .url(live.baseURL.absoluteString)
        }
        return opened
    }

    /// The profile file `--profile` names, if it names one, resolved; a
    /// problem with it is one line and exit 2, before anything starts.
    private static func profileFile(_ options: ConnectionSettings, environment: [String: String]) throws -> ChosenProfile? {
        let lookup = ProfileLookup(environment: environment)
        guard let given = options.profile, Profile.named(given) == nil, let path = lookup.file(named: given) else { return nil }
        // A project's file of the same name wins, and gets the secrets: said (a cloned repository's `rec.yaml`
        // took the production token to the host it names, and only `explorer profiles` told).
        if !ProfileLookup.isPath(given), let hidden = lookup.shadowed().first(where: { $0.name == given }) {
            // Sending the user's secrets where the user's own file does not: refused, the file named by its path chooses it.
            let elsewhere = ProfileLookup.newOrigins(of: path, hiding: hidden.path)
            guard case .success([]) = elsewhere else {
                let why = switch elsewhere {
                case let .success(origins): "would send your secrets to \(origins.joined(separator: ", ")), where yours does not"
                case let .failure(unreadable): "cannot be compared with it (\(unreadable))"
                }
                Console().err("error: --profile \(given) is \(path), which hides your \(hidden.path) and \(why): give its path "
                              + "(--profile \(path)) to use it, or rename one; nothing was run\n")
                throw ExitCode(ExitStatus.parse.rawValue)
            }
            Console().err("warning: --profile \(given) is \(path), which hides your \(hidden.path)\n")
        }
        let ask: ((String) -> String?)? = Surroundings.current.inputIsTerminal ? { LineEditor.readSecret(prompt: $0) } : nil
        switch ChosenProfile.resolve(path, environment: options.env, variables: environment, ask: ask) {
        case let .success(chosen): return chosen
        case let .failure(problem):
            Console().err("error: \(problem)\n")
            throw ExitCode(ExitStatus.parse.rawValue)
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
        // A password in the URL (`https://user:PASSWORD@host`) is hidden here as `vars` hides it.
        let shownURL = Redactor.hidingCredentials(inText: baseURL.absoluteString)
        if live.sandbox != nil {
            lines.append(palette.bold("\(profile.displayName) sandbox") + " at \(baseURL.absoluteString) (in-process; its data is gone when you leave)")
            let accounts = profile.demoAccounts.map { "\($0.email) / \($0.password)" }.joined(separator: ", ")
            lines.append("Demo accounts: \(accounts)")
        } else if let chosen {
            let others = chosen.document.environments.map(\.name).filter { $0 != chosen.environment.name }
            lines.append(palette.bold(profile.displayName) + ", environment \(chosen.environment.name), at \(shownURL)"
                         + (others.isEmpty ? "" : " (also: \(others.joined(separator: ", ")); --env NAME)"))
        } else {
            lines.append(palette.bold(profile.displayName) + " at \(shownURL)")
        }
        lines.append("Type " + palette.bold("help") + " for commands; TAB completes; Ctrl-D leaves.")
        if !Tours().tours(for: profile.name).isEmpty {
            lines.append(palette.bold("tour") + " lists guided examples, tour NAME walks one.")
        }
        let width = Surroundings.terminalColumns() ?? 80
        return lines.map { $0.wrapped(width: width) }.joined(separator: "\n") + "\n"
    }

    func close() {
        // Frames that came after the last step are still written.
        controller.finishRecording()
        // Quietly: no "closed" notice after the user has left.
        runBlocking { [live] in await live.close() }
    }

    /// Ends the process after a script's or `-c`'s lines, with `status`:
    /// what `close()` does but shut the HTTP client down. Its connections are
    /// closed by the end of the process as by a shutdown, which cost a
    /// one-line `-c` 0.5 to 2.7 ms when it went through async-http-client
    /// (BENCHMARKS.md). The REPL uses `close()`, which leaves its line editor
    /// to restore the terminal.
    func finish(_ status: ExitStatus) -> Never {
        controller.finishRecording()
        runBlocking { [live] in await live.close(leavingConnections: true) }
        exit(Console.exitStatus(max(status, controller.recordingFailed ? .runtime : .ok).rawValue))
    }
}


/// The interpreter TAB completes against, which `env NAME` replaces.
final class CurrentInterpreter: @unchecked Sendable {
    var value: Interpreter
    init(_ value: Interpreter) { self.value = value }
}
