import Core
import Foundation
import Sandbox

/// Replays a transcript: each command line goes through the same
/// `CommandParser` and `Interpreter` the REPL uses (docs/architecture.md), and its
/// outcome is compared with what the transcript expects. Runs against the
/// transcript's own base URL, a fresh in-process sandbox of its profile
/// when it says `sandbox`, or `baseURL` when given. Returns data; prints nothing.
struct Replayer: Sendable {
    /// `--base-url`: this server instead of the transcript's own.
    var baseURL: URL?
    /// `--update`: steps that differ get new expectations and the file is rewritten.
    var update = false
    /// Where `EXPLORER_SECRET_*` values come from.
    var environment: [String: String] = Surroundings.current.environment
    /// A value for every secret a profile file's credential names, instead of
    /// `EXPLORER_SECRET_*`: for `explorer mock`, which sends nothing anywhere.
    var anySecret: String?
    /// `--env`: the profile file's environment to run against, instead of the transcript's.
    var profileEnvironment: String?
    /// `explorer test --env NAME` over a suite: a transcript of a built-in
    /// profile, which has no environments, is skipped, not broken (a mixed
    /// suite failed as a whole). `replay` of one named file still refuses it.
    var skipsWhatEnvDoesNotApplyTo = false
    /// Options every request line gets unless it says otherwise, as
    /// `defaults` gives them (`--verify`, `--cert`, `--cert-key`).
    var requestDefaults: RequestOptions?
    /// Asks for a `{{secret:NAME}}` nothing supplies (`explorer replay` at a
    /// terminal), given the transcript's path and the name.
    var askSecret: (@Sendable (_ path: String, _ name: String) -> String?)?
    /// Each step as it finishes, with the width of the transcript's line
    /// numbers: `explorer replay` prints a long transcript as it goes.
    var onStep: (@Sendable (_ step: StepRun, _ lineWidth: Int) -> Void)?

    func run(_ path: String) async -> TranscriptRun {
        let started = ContinuousClock.now
        // As reports show it: a file named with escape codes set the terminal's title and cleared its screen.
        var run = TranscriptRun(path: Renderer.visible(path, keepingLines: false))
        await replay(path, into: &run)
        run.duration = ContinuousClock.now - started
        return run
    }

    private func replay(_ path: String, into run: inout TranscriptRun) async {
        let transcript: Transcript
        // The text as read is kept: --update rewrites the file only if it still holds it.
        let read: String
        switch TranscriptSource.read(path).flatMap({ text in TranscriptSource.parsed(text, of: path, update: update).map { (text, $0) } }) {
        case let .failure(failure): run.failure = failure; return
        case let .success((text, parsed)): (read, transcript) = (text, parsed)
        }
        run.torn = transcript.torn
        run.total = transcript.steps.count
        run.planned = transcript.steps.map { ($0.line, StepRun.shown($0.command)) }
        let header = transcript.header
        if skipsWhatEnvDoesNotApplyTo, let profileEnvironment, envDoesNotApply(to: header) {
            run.skipped = "--env \(profileEnvironment) picks an environment of a profile file; its profile is the built-in \(header.profile)"
            return
        }
        let chosen: ChosenProfile?
        switch profile(of: header, in: path) {
        case let .failure(failure): run.failure = failure; return
        case let .success(found): chosen = found
        }
        // A header alone (a recording left at once, every step commented out) passed, a test of nothing.
        if transcript.steps.isEmpty, transcript.torn == nil {
            run.failure = .broken("\(path): no steps: a transcript tests its '> ' command lines, and this one has none")
            return
        }
        if let (line, message) = Self.unparsable(transcript.steps, locateFile: Self.locateFile(relativeTo: PathText.folder(of: path))) {
            run.failure = .broken("\(path):\(line): \(message); nothing was run")
            return
        }
        // --base-url is the backend's, sockets too, as in the REPL: the environment's `websocket-url`
        // was kept, and a token the --base-url server handed out went to that other host.
        let fromFile = baseURL == nil ? chosen?.profile : chosen?.document.profile
        let profile = fromFile ?? Profile.named(header.profile == "none" ? Profile.generic.name : header.profile)!
        // A header's `login:` under a profile with no login flow: a mistake in the file, said before a
        // password was asked for that could not help (it ran, and failed with exit 3).
        if let email = header.login, profile.auth == nil {
            let line = header.lines.firstIndex { $0.hasPrefix("login:") }.map { ":\($0 + 2)" } ?? ""
            run.failure = .broken("\(path)\(line): 'login: \(email)' needs a profile that logs in, and \(header.profile)'s does not "
                                  + "(drop the line, or name a profile file with an auth: section); nothing was run")
            return
        }
        let target: LiveSession.Target
        if let baseURL {
            target = .url(baseURL)
        } else if let chosen, profileEnvironment != nil || header.target == .sandbox {
            target = .url(chosen.environment.baseURL)
        } else if case let .url(text) = header.target, let given = URL(string: text) {
            // The profile file's credential goes to its environment's origin alone: a transcript (a file anyone
            // commits) naming another host in its base-url got the production token sent there, without a word.
            // A login flow's too: the header's `login:` sent the password there.
            if let chosen, chosen.credential != nil || chosen.parameter != nil || chosen.profile.auth != nil,
               Origin(given) != Origin(chosen.environment.baseURL) {
                let environment = chosen.environment.name, shown = Redactor.hidingCredentials(inText: text)
                run.failure = .broken("\(path): its base-url \(shown) is not the origin of \(header.profile)'s "
                                      + "\(environment) environment (\(chosen.environment.baseURL.absoluteString)), and the profile's credential goes "
                                      + "to its environments alone: give --base-url \(shown) to send it there, "
                                      + "or --env \(environment) to replay against \(environment); nothing was run")
                return
            }
            target = .url(given)
        } else {
            target = .sandbox()
        }
        let live: LiveSession
        do {
            live = try await LiveSession.open(profile: profile, target: target,
                                              readFile: Self.readFile(relativeTo: PathText.folder(of: path)),
                                              sending: { FailureNotingTransport($0) })
        } catch let unsupported as ProxyRules.Unsupported {
            run.failure = .runtime("\(path): \(unsupported)")
            return
        } catch {
            run.failure = .runtime("\(path): cannot start the \(profile.name) sandbox: \(error)")
            return
        }
        await chosen?.apply(to: live.interpreter)
        do throws(ChosenProfile.Problem) {
            var catalog = try chosen?.catalog()
            if catalog == nil { catalog = try Self.headerCatalog(header, of: path) }
            if let catalog { await live.interpreter.use(catalog) }
        } catch {
            await live.close()
            run.failure = .broken("\(path): \(error.description)")
            return
        }
        if let requestDefaults { _ = await live.interpreter.execute(.defaults(requestDefaults)) }
        var resolver = SecretResolver(environment: environment, demoAccounts: profile.demoAccounts)
        resolver.demoPasswordsFirst = live.sandbox != nil
        if let askSecret { resolver.ask = { askSecret(path, $0) } }
        // Every secret a line names, before any step runs: one missing was found at its step, after the
        // steps before it had changed the server (5 ran, then the run stopped).
        // Every one missing is said at once: a run per value learned them one at a time.
        let missing = Self.missingSecrets(transcript.steps, resolver: resolver, profile: profile)
        if let (line, first) = missing.first {
            await live.close()
            let others = missing.dropFirst().map { "\(SecretResolver.environmentName($0.missing.name)) (line \($0.line))" }
            run.failure = .runtime("\(path):\(line): \(first)" + (others.isEmpty ? "" : "; also \(others.joined(separator: ", "))") + "; nothing was run")
            return
        }
        var steps = Steps(path: path, interpreter: live.interpreter, transport: live.sending as? FailureNotingTransport, profile: profile,
                          baseURL: live.baseURL.absoluteString, resolver: resolver, update: update)
        if let onStep {
            let width = String(transcript.steps.last?.line ?? 0).count
            steps.onStep = { onStep($0, width) }
        }
        // Files the steps save go to a scratch folder, made by the first
        // (`OutputFolder.place`) and removed after the run.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        await live.interpreter.setOutputFolder(scratch.path)
        await live.interpreter.confineFiles(to: Self.readableRoot(of: PathText.folder(of: path)), relativeTo: PathText.folder(of: path))
        await Self.drive(&steps, header: header, transcript.steps, on: live.interpreter)
        await live.close()
        run.steps = steps.runs
        run.failure = steps.shownFailure
        if update, run.failure != nil, run.steps.contains(where: \.updated) {
            // Nothing is written: the differences are failures, shown and in JUnit (a JUnit case passed, its
            // difference said nowhere, where a plain `test` run failed it).
            for index in run.steps.indices { run.steps[index].updated = false }
            run.updateDropped = true
        }
        guard update, run.failure == nil, !steps.updated.isEmpty || transcript.torn != nil else { return }
        // Read as bytes: Foundation's UTF-8 reading drops a byte-order mark, which the rewrite keeps.
        guard let bytes = FileManager.default.contents(atPath: path), let original = String(validating: bytes, as: UTF8.self) else {
            return notRewritten(&run, "\(path): cannot read it again to rewrite it")
        }
        // A file made read-only is not replaced (the rewrite moves a new file over it, which a folder's
        // write permission allows): said, as an editor would.
        if let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int, mode & 0o222 == 0 {
            return notRewritten(&run, "\(path): cannot rewrite it: it is read-only (chmod u+w \(path) lets --update write it)")
        }
        // Steps are put back by their line numbers in the text this run read: another run's --update
        // (or an editor) that wrote the file meanwhile had the same step written twice.
        guard (bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? String(original.dropFirst()) : original) == read else {
            return notRewritten(&run, "\(path): not rewritten: the file changed while this run went (another --update, or an editor); run again")
        }
        do {
            // Only the steps that differed are written anew, and what the server answered may hold
            // a secret the run supplied or was handed: written by name. Every other byte stays.
            let text = TranscriptWriter.rewriting(original, steps: steps.updated, torn: transcript.torn, scrub: steps.secrets.scrub)
            try Self.rewrite(path, with: text)
            run.rewritten = true
        } catch {
            notRewritten(&run, "\(path): cannot rewrite it: \(Self.whyNotWritten(path, error))")
        }
    }

    /// A run whose --update could not be written: its steps that differed
    /// are failures again, shown with their differences, and why is said.
    private func notRewritten(_ run: inout TranscriptRun, _ message: String) {
        for index in run.steps.indices { run.steps[index].updated = false }
        run.failure = .runtime(message)
    }

    /// Why a rewrite failed, in the user's terms: it writes a new file beside
    /// the old one and moves it over, so its folder must be writable too.
    private static func whyNotWritten(_ path: String, _ error: any Error) -> String {
        let named = PathText.folder(of: path), folder = named.isEmpty ? "." : named
        if access(folder, W_OK) != 0 { return "its folder \(folder) is not writable (a rewrite puts a new file in its place)" }
        if access(path, W_OK) != 0 { return "it is not writable" }
        return error.localizedDescription
    }

    /// The first `{{secret:NAME}}` of a step's line that neither the
    /// environment, a demo account, nor the person at the terminal (asked
    /// now, each name once) supplies, with its step's line. The session's
    /// tokens (`access_token`, filled in as the replay logs in) are left
    /// for their step.
    static func missingSecrets(_ steps: [TranscriptStep], resolver: SecretResolver, profile: Profile) -> [(line: Int, missing: SecretResolver.Missing)] {
        var sessions: Set<String> = ["access_token", "refresh_token"]
        if let auth = profile.auth {
            for path in [auth.accessTokenPath, auth.refreshTokenPath] {
                if case let .key(key)? = path.components.last { sessions.insert(ExpectedValue.secretName(key)) }
            }
        }
        var checked: Set<String> = []
        var missing: [(line: Int, missing: SecretResolver.Missing)] = []
        for step in steps where step.command.contains("{{secret:") {
            let words = (try? LineTokenizer.split(step.command).map(\.text)) ?? []
            let email = resolver.demoEmail(in: words)
            // A variable may hold the demo account's email (`login {{who}} …`, `-a {{who}}:{{secret:password}}`): known only
            // at its step. Not one inside a URL (`curl -u bob:{{secret:password}} {{base_url}}/x`: its password was left out).
            let unknownEmail = email == nil && words.contains { word in
                word.wholeMatch(of: /\{\{[^{}:]+\}\}(:.*)?/) != nil
            }
            for name in SecretResolver.placeholderNames(in: step.command) where !sessions.contains(name) {
                if unknownEmail, SecretResolver.isPasswordName(name) { continue }
                guard checked.insert(name + "\u{0}" + (email ?? "")).inserted else { continue }
                do { _ = try resolver.value(name, email: email) } catch where !missing.contains(where: { $0.missing == error }) {
                    missing.append((step.line, error))
                } catch {}
            }
        }
        return missing
    }

    /// The first command line that cannot parse, whatever the steps before
    /// it bind: found before any step runs (a typo at line 40 was found
    /// after the steps before it had changed the server). A word holding a
    /// `{{variable}}` is left to its step, as only its value settles it
    /// (each reference stands in as `0` here), and so is a line that
    /// expects an error: a recorded typo tests its message.
    /// `locateFile`: the replay's (a TLS flag's file is checked as the step's own parse will).
    static func unparsable(_ steps: [TranscriptStep], locateFile: @escaping @Sendable (String) throws -> String) -> (line: Int, message: String)? {
        for step in steps where step.expectation.errors.isEmpty {
            var parser = CommandParser()
            // Read nothing yet (a curl's `-d @FILE`): the step's own parse reads it, through the replay's reader.
            parser.readFile = { _ in [] }
            parser.locateFile = locateFile
            for opening in step.command.ranges(of: "{{") {
                let rest = step.command[opening.upperBound...]
                guard let closing = rest.firstRange(of: "}}") else { continue }
                parser.variables[rest[..<closing.lowerBound].trimmingBlanks()] = "0"
            }
            do { _ = try parser.parse(step.command) } catch {
                if step.command.contains("{{"), !error.placeholderSyntax {
                    guard let column = error.column, let words = try? LineTokenizer.split(step.command),
                          let word = words.last(where: { $0.start <= column }), !word.text.contains("{{") else { continue }
                }
                return (step.line, error.message)
            }
        }
        return nil
    }

    /// Writes `text` over the file at `path` atomically, keeping its
    /// permissions (a recording's 0600 became 0644) and writing through a
    /// symlink to its target (the link was replaced by a file, the target left stale).
    static func rewrite(_ path: String, with text: String) throws {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let mode = try? FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions]
        try Data(text.utf8).write(to: target, options: .atomic)
        if let mode { try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: target.path) }
    }

    /// The catalog of the document a header's `spec:` names, relative to the transcript at `path`; read, in a
    /// replay (`confined`), as its `@file` items are (`spec: ../../.ssl/client.key` was read, and said not to parse).
    static func headerCatalog(_ header: TranscriptHeader, of path: String, confined: Bool = true) throws(ChosenProfile.Problem) -> ImportedSpec? {
        guard let file = header.spec else { return nil }
        // `~/specs/x.yaml` is the home folder's, as `@~/…` and `--cert ~/…` are (it was looked for as `sessions/~/…`).
        let expanded = RequestBuilder.expandingHome(file)
        let located = expanded.hasPrefix("/") ? expanded : FilePaths.normalized((PathText.folder(of: path) as NSString).appendingPathComponent(expanded))
        if confined, let refused = refusal(reading: located, under: readableRoot(of: PathText.folder(of: path)), typed: file) {
            throw ChosenProfile.Problem(description: "spec: \(refused)")
        }
        do { return try SpecLoader.load(located) } catch {
            throw ChosenProfile.Problem(description: "spec: \(error.description)")
        }
    }

    /// Whether `--env` picks nothing for a transcript: its profile is a
    /// built-in one (save the sandbox's, which `--env sandbox` names).
    private func envDoesNotApply(to header: TranscriptHeader) -> Bool {
        guard Profile.named(header.profile) != nil || header.profile == "none", let profileEnvironment else { return false }
        return !(profileEnvironment == ExplorerSession.sandboxEnvironment && header.target == .sandbox)
    }

    /// The profile a transcript's header names: a built-in one (nil here), or
    /// a profile file, by name or by a path relative to the transcript, with
    /// its environment (`--env`, else the header's `env:`) and credential.
    /// Project profile files already said to hide the user's own, in this run.
    private static let hidingSaid = Shared<Set<String>>([])

    func profile(of header: TranscriptHeader, in path: String) -> Result<ChosenProfile?, TranscriptRun.Failure> {
        let place = "\(path):\(header.profileLine):\(header.profileColumn)"
        if Profile.named(header.profile) != nil || header.profile == "none" {
            // A built-in profile's transcript runs where its header says: the
            // sandbox is the one environment that asks nothing more of it.
            if let profileEnvironment, envDoesNotApply(to: header) {
                let deployments = Profile.builtIn(named: header.profile)?.environments ?? []
                // It said "replayed where its header says", and was not run.
                let elsewhere = deployments.isEmpty ? "" : "; to replay it against \(deployments.map(\.name).joined(separator: ", ")), give --base-url URL"
                return .failure(.broken("\(place): --env \(profileEnvironment) picks an environment of a profile file, and this transcript's "
                                        + "profile is the built-in \(header.profile): not run (without --env it runs where its header says\(elsewhere))"))
            }
            // `env: staging` under a built-in profile was taken without a word (`--env staging` was refused).
            if let named = header.environment {
                return .failure(.broken("\(path):\(header.environmentLine):\(header.environmentColumn): env: \(named) picks an environment of a "
                                        + "profile file; this transcript's profile is the built-in \(header.profile), replayed where its header says (drop the env: line)"))
            }
            return .success(nil)
        }
        let folder = PathText.folder(of: path)
        let lookup = ProfileLookup(environment: environment)
        let file = ProfileLookup.isPath(header.profile)
            ? (header.profile.hasPrefix("/") || folder.isEmpty ? header.profile : (folder as NSString).appendingPathComponent(header.profile))
            : lookup.file(named: header.profile, near: folder)
        // A project's file that hides the user's own gets the user's secrets: said, as `--profile NAME` says it.
        // Once a run: `explorer test` of a folder said it for every transcript.
        if let file, !ProfileLookup.isPath(header.profile), let own = lookup.userFile(named: header.profile),
           FilePaths.normalized(own) != FilePaths.normalized(file) {
            // Sending the user's secrets where the user's own file does not: refused, as `--profile NAME` refuses it.
            let elsewhere = ProfileLookup.newOrigins(of: file, hiding: own)
            guard case .success([]) = elsewhere else {
                let why = switch elsewhere {
                case let .success(origins): "would send your secrets to \(origins.joined(separator: ", ")), where yours does not"
                case let .failure(unreadable): "cannot be compared with it (\(unreadable))"
                }
                return .failure(.broken("\(place): profile \(header.profile) is \(file), which hides your \(own) and \(why): name the file "
                                        + "by its path in the profile: line to use it, or rename one; nothing was run"))
            }
            if Self.hidingSaid.update({ $0.insert(file).inserted }) {
                Console().err("warning: \(path): profile \(header.profile) is \(file), which hides your \(own)\n")
            }
        }
        guard let file else {
            return .failure(.broken("\(place): unknown profile '\(header.profile)': not built in (\(Profile.names.joined(separator: ", "))), "
                                    + "and no \(header.profile).yaml in a .explorer/profiles/ beside the transcript or above it, "
                                    + "in the working directory's or in $XDG_CONFIG_HOME/explorer/profiles/"))
        }
        let ask = anySecret.map { value in { (_: String) -> String? in value } }
        switch ChosenProfile.resolve(file, environment: profileEnvironment ?? header.environment, variables: environment, ask: ask) {
        case let .success(chosen): return .success(chosen)
        case let .failure(problem) where problem.isUnknownEnvironment:
            // Said where it was named: the `env:` line, or `--env` (no line of the transcript's).
            let named = profileEnvironment.map { "\(path): --env \($0)" } ?? "\(path):\(header.environmentLine):\(header.environmentColumn)"
            return .failure(.broken("\(named): \(problem)"))
        case let .failure(problem): return .failure(problem.isMissingSecret ? .runtime("\(place): \(problem)") : .broken("\(place): \(problem)"))
        }
    }

    /// `@file` items read relative to the transcript's folder, so a session
    /// and its fixtures replay the same from any working directory; none from
    /// outside the files the transcript belongs with (`readableRoot`), and no
    /// hidden one: a transcript someone else wrote read `@~/.ssh/id_ed25519`
    /// and sent it where its line went. A replay reads no standard input
    /// (`@-` read a file named `-`). The mock, which sends nothing, reads
    /// them all (`confined` false).
    static func readFile(relativeTo folder: String, confined: Bool = true,
                         home: String = RequestBuilder.expandingHome("~")) -> @Sendable (String) throws -> [UInt8] {
        let root = confined ? readableRoot(of: folder, home: home) : nil
        return { path in
            if path == "-", root != nil { throw RequestBuilder.BuildError(standardInputRefusal) }
            let full = Self.path(path, from: folder)
            if let root, let refused = refusal(reading: full, under: root, typed: path) { throw RequestBuilder.BuildError(refused) }
            return try RequestBuilder.readFileFromDisk(full == RequestBuilder.expandingHome(path) ? path : full)
        }
    }

    /// The folder a transcript's files lie under: its repository's (the nearest folder above it holding
    /// `.git`, below the home folder), else the folder above its own (`sessions/app/x.transcript` reads `@../fixtures/…`), unless
    /// that is the home folder, one above it or `/` (a transcript in ~/Downloads reads its own folder's files alone).
    /// A transcript in the home folder or above it reads none (`readsNoFile`): `~/evil.transcript` read all of /home.
    static func readableRoot(of folder: String, home: String = RequestBuilder.expandingHome("~")) -> String {
        let here = FileManager.default.currentDirectoryPath
        let own = realPath(folder.isEmpty ? here : folder.hasPrefix("/") ? folder : (here as NSString).appendingPathComponent(folder))
        let home = realPath(home)
        func holdsHome(_ folder: String) -> Bool { folder == home || home.hasPrefix(folder == "/" ? "/" : folder + "/") }
        if holdsHome(own) { return readsNoFile }
        var at = own
        // Not the home folder as a repository (a dotfiles one): all of it was readable.
        while at != home, at != "/" {
            if FileManager.default.fileExists(atPath: (at as NSString).appendingPathComponent(".git")) { return at }
            let up = (at as NSString).deletingLastPathComponent
            guard !up.isEmpty, up != at else { break }
            at = up
        }
        let above = (own as NSString).deletingLastPathComponent
        // `/home/bob/x.transcript` read /home, Alice's home folder among it.
        return above.isEmpty || holdsHome(above) ? own : above
    }

    /// Where a file a flag names is opened (`--cert`, `--verify CA`): found as `readFile` finds an `@file`, and
    /// kept under `readableRoot` the same way.
    static func locateFile(relativeTo folder: String) -> @Sendable (String) throws -> String {
        let root = readableRoot(of: folder)
        return { path in
            let full = Self.path(path, from: folder)
            if let refused = refusal(reading: full, under: root, typed: path) { throw RequestBuilder.BuildError(refused) }
            return full
        }
    }

    /// A path as a line types it, found from `folder` (a transcript's) unless whole or `folder` is none.
    static func path(_ typed: String, from folder: String) -> String {
        let expanded = RequestBuilder.expandingHome(typed)
        return expanded.hasPrefix("/") || folder.isEmpty ? expanded : (folder as NSString).appendingPathComponent(expanded)
    }

    static let standardInputRefusal = "cannot read '@-': a replay reads no standard input (keep the body in a file beside the transcript)"

    /// The root of a transcript that reads no file (one in the home folder, or above it): no path is under it.
    static let readsNoFile = ""

    /// Why a replay does not read `path`: outside `root`, or hidden below it (`.env`, `.git/config`).
    static func refusal(reading path: String, under root: String, typed: String) -> String? {
        if root == readsNoFile {
            return "cannot read file '\(typed)': this transcript is in the home folder (or above it), where a replay reads no file "
                + "(keep it in a project folder with its files)"
        }
        let real = realPath(path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path))
        guard real == root || real.hasPrefix(root == "/" ? "/" : root + "/") else {
            return "cannot read file '\(typed)': it is outside \(root), where this transcript's files are (a replay reads no file elsewhere: keep it in the transcript's repository)"
        }
        if let hidden = real.dropFirst(root.count).split(separator: "/").first(where: { $0.hasPrefix(".") }) {
            return "cannot read file '\(typed)': \(hidden) is hidden (a replay reads no hidden file or folder: give it a name without a leading dot)"
        }
        return nil
    }

    /// `path` with its symbolic links, `.` and `..` resolved (as much of it as exists).
    private static func realPath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Runs the steps on the interpreter's executor (the transport's event
    /// loop), so a step's command, its request and its matching share one
    /// thread; from the global executor every step crossed threads twice more.
    private static func drive(_ steps: inout Steps, header: TranscriptHeader, _ list: [TranscriptStep],
                              on interpreter: isolated Interpreter) async {
        if await steps.prepare(header, steps: list) {
            await steps.replay(list)
        }
    }

    /// The state of one replay: the interpreter, the captures, the secrets
    /// used; its methods run on the caller's executor (`nonisolated(nonsending)`).
    /// `replay FILE` and `tour` in the REPL drive one on the session's own
    /// interpreter, whose transport notes no failures (`transport` nil) and
    /// whose files are read from the working directory (`filesFolder`).
    struct Steps: Sendable {
        let path: String
        let interpreter: Interpreter
        let transport: FailureNotingTransport?
        let profile: Profile
        let baseURL: String
        var resolver: SecretResolver
        let update: Bool
        /// The socket's frames, matched against what each step expects.
        let frames: FrameSubscription
        /// The last step's command as run (secrets filled in), for a recording of a tour.
        private(set) var lastCommand: Command?
        var matcher = TranscriptMatcher()
        /// Every secret this replay has held: the values it supplied for
        /// `{{secret:NAME}}`, the session's tokens, the secrets answers
        /// handed out. Reports show none of them; `--update` writes their names.
        var secrets = SecretScrubber()
        /// The values filled in for `{{secret:NAME}}`, however short (the mock leaves them out of what it matches).
        var supplied: Set<String> = []
        /// The credentials the step's request carried, written in the file or
        /// not (`X-Api-Key:sk-live-…`): a status line that quotes one
        /// (`403 Forbidden for key sk-live-…`) was shown so in the report and JUnit.
        private var carried: [String] = []
        /// The verdicts so far; `record` adds one and tells `onStep`. (A
        /// `didSet` that read `oldValue` copied the whole array at every
        /// step: a replay grew with the square of its steps, a quarter of a
        /// 5,000-step replay's CPU.)
        private(set) var runs: [StepRun] = []

        mutating func record(_ run: StepRun) {
            runs.append(run)
            onStep?(run)
        }
        var onStep: (@Sendable (StepRun) -> Void)?
        /// The steps that differed, as they should be written back (`--update`).
        var updated: [TranscriptStep] = []
        /// What `capture` lines have set so far, for the steps `--update` writes anew.
        private var captured = CaptureReferences()
        var failure: TranscriptRun.Failure?
        /// Relative `@file` paths of command lines are read from this folder.
        var filesFolder: String?

        init(path: String, interpreter: Interpreter, transport: FailureNotingTransport?, profile: Profile, baseURL: String,
             resolver: SecretResolver, update: Bool) {
            self.path = path
            self.interpreter = interpreter
            self.transport = transport
            self.profile = profile
            self.baseURL = baseURL
            self.resolver = resolver
            self.update = update
            frames = interpreter.frameTap.subscribe()
            // The environment's own socket URL where its profile names one (`websocket-url:`), as its recording wrote it.
            let socketBase = profile.webSocketBaseURL.map(TranscriptRecorder.trimmingSlashes) ?? PatternText.socketURL(baseURL)
            matcher.extraVariables = [PatternText.socketBaseVariable: socketBase]
        }

        /// What the header did (its `set`s and login), as lines a recording
        /// of this replay writes before the steps.
        var headerSteps: [(line: String, command: Command, outcome: Outcome)] = []

        /// A REPL recording (`frames: live`): each `ws recv` gets the frames
        /// after those its transcript lists under earlier steps, kept for it
        /// whenever they came (`Interpreter.skipFramesShownBefore`).
        private var replaysLive = false
        /// The frame tap's count of received frames when the steps began, and
        /// how many the steps run so far list.
        private var receivedBefore = 0
        private var receivedListed = 0

        /// Whether the steps log in before anything else goes to the server
        /// (`header apikey:…`, then `login …`): the header's `login:` (a
        /// recording begun logged in) is then not done first, which went out
        /// without the header the backend wants and failed the whole replay.
        static func logInFirst(_ steps: [TranscriptStep]) -> Bool {
            for step in steps {
                // By its first word: its `{{secret:password}}` is not filled in yet, and a parse would refuse it.
                if step.command.split(separator: " ", maxSplits: 1).first?.lowercased() == "login" { return true }
                if Command.sends(line: step.command) { return false }
            }
            return false
        }

        /// Sets the header's variables and logs in when it says so, unless
        /// `steps` log in first.
        nonisolated(nonsending) mutating func prepare(_ header: TranscriptHeader, steps: [TranscriptStep] = []) async -> Bool {
            // Frames are taken as the recording took them: at the REPL a frame showed as it came, and a later
            // `ws recv` waited for one not shown yet. Kept here, each recv skips those its transcript lists
            // before it: the same frames whatever the timing (a fixed pause stood in for the typing, and a
            // recording typed faster failed its replay).
            replaysLive = header.framesLive
            receivedBefore = interpreter.frameTap.receivedSoFar
            if replaysLive { await interpreter.takeFramesAsRecordedLive() } else { await interpreter.setFramesLive(false) }
            do {
                for variable in header.variables {
                    let value: String, used: [(name: String, value: String)]
                    do { (value, used) = try resolver.fill(variable.value, email: nil) } catch {
                        // Said at its line, as a step's missing secret is.
                        let line = header.lines.firstIndex { $0.hasPrefix("var:") && $0.dropFirst(4).trimmingBlanks().hasPrefix(variable.name + "=") }
                        failure = .runtime("\(path)\(line.map { ":\($0 + 2)" } ?? ""): \(error)")
                        return false
                    }
                    learn(supplied: used)
                    let command = Command.set(name: variable.name, value: value)
                    headerSteps.append(("set \(variable.name)=\(variable.value)", command, await interpreter.execute(command)))
                }
                if let email = header.login, !Self.logInFirst(steps) {
                    let password = try resolver.value("password", email: email)
                    learn(supplied: [("password", password)])
                    let command = Command.login(email: email, password: password)
                    let outcome = await interpreter.execute(command)
                    headerSteps.append(("login \(email) {{secret:password}}", command, outcome))
                    guard case let .exchange(exchange, _, _) = outcome, (200..<300).contains(exchange.response.status), exchange.refusal == nil else {
                        let line = header.lines.firstIndex { $0.hasPrefix("login:") }.map { ":\($0 + 2)" } ?? ""
                        failure = .runtime("\(path)\(line): the header says 'login: \(email)', but logging in failed: \(describe(outcome))")
                        return false
                    }
                }
            } catch {
                failure = .runtime("\(path): the header needs a secret: \(error)")
                return false
            }
            return true
        }

        /// A socket that could not be reached (nothing listens, no answer): the
        /// run stops there as it does when an HTTP server cannot be reached
        /// (exit 3, "did not run"), not as a difference, each later step
        /// waiting for frames from a socket that never opened.
        static func unreachableSocket(_ command: Command?, _ outcome: Outcome) -> String? {
            guard case .ws(.connect)? = command, case let .failure(line, _) = outcome else { return nil }
            let unreachable = ["connection refused: ", "could not connect to ", "no answer from ", "cannot resolve host "].contains { line.hasPrefix($0) }
            return unreachable ? line : nil
        }

        nonisolated(nonsending) mutating func replay(_ steps: [TranscriptStep]) async {
            // An output that cannot be written (a full disk, a closed pipe) ends it: the rest would run unseen.
            // Said as its failure: a JUnit report listed such a run as a suite of no steps, passed.
            for step in Self.leavingCapturedValues(steps) {
                guard !Console.outputFailed else {
                    failure = .runtime("\(path):\(step.line): stopped here: the output could not be written (a reader that went away, a full disk)")
                    return
                }
                guard let outcome = await run(step) else { return }
                if case .exit = outcome { return }
            }
        }

        /// Each answer's value that the next step captures (`post /notes …`
        /// then `capture note_id = .id`) expected as a value of its kind: a
        /// server that makes random ids answers with another, which the
        /// capture takes, and later steps use. Written as recorded, it failed
        /// every replay against any server but the sandbox.
        /// Every capture up to the next step that gets an answer reads the
        /// same one (`capture loc = header:Location`, then `capture id =
        /// .id`: the id was compared as recorded, and failed). A captured
        /// header is expected present, whatever its value (a created thing's
        /// Location whose id is not digits: `/notes/n_16e24c1c`).
        static func leavingCapturedValues(_ steps: [TranscriptStep]) -> [TranscriptStep] {
            var steps = steps
            for (index, sources) in capturesReading(steps) {
                for source in sources {
                    switch source {
                    case let .body(path):
                        if case let .json(body)? = steps[index].expectation.body {
                            steps[index].expectation.body = .json(body.loosening(at: path.components[...]))
                        }
                    case let .header(name): steps[index].expectation.capturedHeaders.insert(name.lowercased())
                    case .cookie: break
                    }
                }
            }
            return steps
        }

        /// What the `capture` steps after each step read of its answer, up to
        /// the next step that is no `capture`, `show`, `vars`, `set` or `unset`
        /// (the step whose answer they would read next); steps none read are left out.
        static func capturesReading(_ steps: [TranscriptStep]) -> [(index: Int, sources: [CaptureSource])] {
            var parser = CommandParser()
            parser.readFile = { _ in [] }
            var found: [(index: Int, sources: [CaptureSource])] = []
            for index in steps.indices {
                var sources: [CaptureSource] = []
                var next = index + 1
                while next < steps.count, let command = try? parser.parse(steps[next].command) {
                    switch command {
                    case let .capture(_, source): sources.append(source)
                    case .show, .vars, .set, .unset: break
                    default: next = steps.count
                    }
                    next += 1
                }
                if !sources.isEmpty { found.append((index, sources)) }
            }
            return found
        }

        /// Where a step sends its line, when that is not the backend's origin
        /// (nor its socket's): an absolute URL typed in it. A `{{secret:NAME}}`
        /// there (`get http://elsewhere/q t=={{secret:dev_token}}`) handed any
        /// `EXPLORER_SECRET_` variable to whoever wrote the file.
        static func foreignTarget(of command: Command, scope: CredentialScope) -> URL? {
            let target: String
            switch command {
            case let .http(_, path, _, _): target = path
            case let .ws(.connect(typed?, _)): target = typed
            default: return nil
            }
            let lower = target.prefix(8).lowercased()
            guard ["http://", "https://", "ws://", "wss://"].contains(where: lower.hasPrefix), let url = URL(string: target) else { return nil }
            return scope.admits(url) ? nil : url
        }

        /// Why a step was not run: it sends `secrets` to `url`, another origin.
        /// `held`: through a variable, a capture or a socket, not typed there.
        private func sendsElsewhere(_ step: TranscriptStep, secrets: [String], to url: URL, held: Bool = false) -> TranscriptRun.Failure {
            .broken("\(path):\(step.line): sends \(secrets.map { "{{secret:\($0)}}" }.joined(separator: ", "))\(held ? " (held in what the line sends)" : "") to "
                    + "\(Origin.named(in: url) ?? Redactor.hidingCredentials(inText: url.absoluteString)), which is not the backend's origin "
                    + "(\(interpreter.session.scope.origin?.description ?? "none")): a replay sends a transcript's secrets to its backend alone "
                    + "(give that origin as --base-url to replay against it); this step and those after it were not run")
        }

        /// Runs one step and records its verdict in `runs`. `typed` replaces
        /// its command line (a tour lets the user edit it first). Nil when
        /// the replay cannot go on (`failure` says why).
        nonisolated(nonsending) mutating func run(_ step: TranscriptStep, typed: String? = nil) async -> Outcome? {
            let started = ContinuousClock.now
            // Frames from now on came in this step, as in the REPL that recorded it (`FrameTap.startLine`).
            interpreter.frameTap.startLine()
            defer { receivedListed += step.expectation.frameCount(.received) }
            var line: String
            var secretsNamed: [String] = []
            resolver.session = await sessionSecrets()
            resolver.variables = interpreter.allVariables
            do {
                let resolved = try resolver.resolveNamed(typed ?? step.command)
                line = resolved.line
                secretsNamed = resolved.secrets.map(\.name)
                learn(supplied: resolved.secrets)
                await interpreter.supply(resolved.secrets)
            } catch {
                failure = .runtime("\(path):\(step.line): \(error)")
                return nil
            }
            if let filesFolder { line = FilePaths.rebase(line, onto: filesFolder) }
            let parser = interpreter.parser
            var outcome: Outcome
            lastCommand = nil
            do {
                var command = try parser.parse(line)
                // `spec load FILE` names a file beside the transcript, as `@file` does; what it says names it as typed.
                var located: (path: String, typed: String)?
                if case let .specLoad(file) = command, !file.hasPrefix("/"), !file.hasPrefix("~") {
                    located = (FilePaths.normalized((PathText.folder(of: path) as NSString).appendingPathComponent(file)), file)
                    command = .specLoad(path: located!.path)
                }
                lastCommand = command
                if !secretsNamed.isEmpty, let elsewhere = Self.foreignTarget(of: command, scope: interpreter.session.scope) {
                    failure = sendsElsewhere(step, secrets: secretsNamed, to: elsewhere)
                    return nil
                }
                if replaysLive, case .ws(.recv) = command {
                    // In the REPL what the earlier steps list was shown above the prompt (or taken), not handed to it.
                    await interpreter.skipFramesShownBefore(receivedBefore + receivedListed, takingHeartbeats: step.expectation.takesHeartbeats)
                } else if replaysLive, case .ws(.status) = command {
                    // Its "not yet shown" counted what the REPL had shown as it came (0 there, 2 here, every
                    // time): those listed under earlier steps, and under this one, which came while it ran.
                    await interpreter.skipFramesShownBefore(receivedBefore + receivedListed + step.expectation.frameCount(.received))
                }
                await interpreter.keepSuppliedAtOrigin(true)
                outcome = await interpreter.execute(command)
                await interpreter.keepSuppliedAtOrigin(false)
                // One held through a variable, a capture or a socket opened elsewhere: refused by the interpreter.
                if let refused = await interpreter.takeRefusal() {
                    failure = sendsElsewhere(step, secrets: [refused.secret], to: refused.url, held: true)
                    return nil
                }
                if let located {
                    switch outcome {
                    case let .message(text): outcome = .message(text.replacingOccurrences(of: located.path, with: located.typed))
                    case let .failure(text, status): outcome = .failure(text.replacingOccurrences(of: located.path, with: located.typed), status)
                    default: break
                    }
                }
            } catch {
                // A line that does not parse, where the file expects no error (`captur x = .id`): a mistake
                // in the file, not a change of the server's (it was a FAIL, exit 4, as a regression is).
                if !error.unknownVariable, step.expectation.errors.isEmpty {
                    failure = .broken("\(path):\(step.line): \(error.message)")
                    return nil
                }
                outcome = .failure(error.message, .usage)
            }
            var observation = outcome.observation(renderer: Renderer(palette: .plain, envelope: profile.errorEnvelope))
            await learnSecrets(from: observation)
            // The cookies it carried or was given, as a recording learns them: `--update` wrote an echo's
            // `sid=…` in clear where the recording had written `{{secret:sid}}`.
            if case let .exchange(exchange, _, _) = outcome {
                for (name, value) in TranscriptRecorder.cookies(of: exchange) where secrets.name(of: value) == nil {
                    secrets.learn(value, name: ExpectedValue.secretName(name))
                }
            }
            carried = if case let .exchange(exchange, _, _) = outcome {
                Renderer.credentials(of: exchange.request, secretHeaders: profile.secretHeaders, secretParameters: profile.secretParameters)
            } else { [] }
            // `-a bob:{{secret:pw}}`: the Basic header made of it, which a server may echo whole (base64).
            if case let .exchange(exchange, _, _) = outcome, let authorization = exchange.request.header("Authorization"),
               let basic = BasicCredentials(authorization: authorization), supplied.contains(basic.password) {
                secrets.learn(authorization, name: "authorization")
            }
            // A captured secret (`capture csrf = cookie:csrftoken`): hidden in what the report shows, as the REPL hides it.
            if let secret = SuppliedSecrets.captured(by: lastCommand, outcome: outcome, variables: interpreter.allVariables) {
                secrets.learn(secret.value, name: ExpectedValue.secretName(secret.name))
                supplied.insert(secret.value)
            }
            let unreachable = Self.unreachableSocket(lastCommand, outcome)
            if !step.expectation.frames.isEmpty, unreachable == nil {
                var wait = step.expectation.frameTimeout ?? Expectation.defaultFrameTimeout
                // A `ws recv --timeout 7` waited 7 s for its frames when recorded: its replay waits as long (it waited 5).
                if step.expectation.frameTimeout == nil, case let .ws(.recv(_, timeout, _, _))? = lastCommand { wait = max(wait, timeout) }
                observation.frames = await frames.take(sent: step.expectation.frameCount(.sent),
                                                       received: step.expectation.frameCount(.received), timeout: wait)
                observation.frameWait = wait
                // The socket closed for good: nothing more could come, and the wait ended for it.
                if frames.socketGone { observation.framesEnded = "the socket was closed before it came" }
            }
            // Shared with the interpreter, not copied: every copy or merge of
            // all variables, or of all captures, at each step made a replay
            // that captures at every step grow with the square of its steps
            // (issue 11 #9). `before` is kept only when --update may roll back to it.
            matcher.variables = interpreter.allVariables
            let capturedBefore = matcher.captureOrder.count
            let before = update ? matcher : nil
            var mismatches = matcher.match(step.expectation, observation).map(hidingSecrets)
            // The line did not run here (`unknown variable {{note_idd}}`): its error is the cause, said first,
            // and `--update` does not write it down as what the step expects (the mistake is the line's, or an earlier step's).
            let didNotRun = observation.status == nil && step.expectation.status != nil && lastCommand == nil
            if didNotRun {
                // The cause alone: the missing status, headers and body followed from it, three blocks more to read past.
                let cause = mismatches.filter { if case .error = $0.place { true } else { false } }
                if !cause.isEmpty { mismatches = cause }
            }
            // A supplied secret written by hand in the line (`note="my password is …"`) is hidden there as in its differences.
            var run = StepRun(line: step.line, command: hidingSecrets(in: StepRun.shown(step.command)), mismatches: mismatches,
                              duration: ContinuousClock.now - started)
            if case .specLoad? = lastCommand, case let .failure(message, _) = outcome, !mismatches.isEmpty {
                // The steps after it would be checked against another catalog: a line the REPL refused would go out.
                record(run)
                failure = .runtime("\(path):\(step.line): \(message); the steps after it are not run (a spec load FILE in a transcript names a file beside it)")
                return nil
            }
            if !mismatches.isEmpty, let problem = transport.flatMap({ $0.takeFailure()?.description }) ?? unreachable {
                // "expected 200 OK, got no HTTP response" and a block for each header and the body: the cause alone.
                run.gotNoAnswer = true
                run.mismatches = run.mismatches.filter { if case .error = $0.place { true } else { false } }
                if run.mismatches.isEmpty { run.mismatches = mismatches }
                record(run)
                failure = .runtime("\(path):\(step.line): \(problem)")
                return nil
            }
            // A line that sent nothing here where the file expects an answer: a fixture missing or named in another case
            // (a Windows checkout), a file a replay does not read, a catalog's check. Its own failure was written over
            // the step's answer ("cannot read file '…' in /home/me") and the captures after it.
            if update, !mismatches.isEmpty, !didNotRun, step.expectation.status != nil, observation.status == nil {
                record(run)
                let why = if case let .failure(message, _) = outcome { message } else { "it sent no request" }
                failure = .runtime("\(path):\(step.line): \(why); the step expects an answer, and --update does not write a line's own failure "
                                   + "down as what it expects, and rewrote nothing")
                return nil
            }
            // A refusal where the file expects success is a wrong or stale secret far more often than a change of the
            // backend's: written down, a CI job with an old password turned the suite into one that expects 401s.
            if update, !mismatches.isEmpty, let expected = step.expectation.status, expected < 400,
               let got = observation.status, got == 401 || got == 403 {
                record(run)
                failure = .runtime("\(path):\(step.line): answered \(got) where \(expected) was expected; --update does not write a refusal "
                                   + "down as what a step expects (is a secret wrong or stale?), and rewrote nothing")
                return nil
            }
            // So is a server error where none was: a dead upstream behind a proxy answers every step 502, and
            // the suite was rewritten to expect its page (its captures gone, so it could not pass again).
            if update, !mismatches.isEmpty, let expected = step.expectation.status, expected < 500, let got = observation.status, got >= 500 {
                record(run)
                failure = .runtime("\(path):\(step.line): answered \(got) where \(expected) was expected; --update does not write a server error "
                                   + "down as what a step expects (is the server, or a proxy in front of it, down?), and rewrote nothing")
                return nil
            }
            // And a rate limit or a timeout (429, 408): as passing as an outage; written down, the smoke test expected it.
            if update, !mismatches.isEmpty, let expected = step.expectation.status, ![408, 429].contains(expected), let got = observation.status,
               got == 408 || got == 429 {
                record(run)
                failure = .runtime("\(path):\(step.line): answered \(got) where \(expected) was expected; --update does not write a rate limit "
                                   + "or a timeout down as what a step expects (run it again later), and rewrote nothing")
                return nil
            }
            // And a page where JSON was expected (a proxy's or a firewall's error page, a login portal, a web
            // app's fallback) even with a 200: the step's JSON was written over by `<html>…502 Bad Gateway`.
            if update, !mismatches.isEmpty, case .json? = step.expectation.body, case let .text(lines)? = observation.body,
               lines.first(where: { !$0.trimmingBlanks().isEmpty })?.trimmingBlanks().hasPrefix("<") == true {
                record(run)
                failure = .runtime("\(path):\(step.line): answered a page (HTML or XML) where JSON was expected; --update does not write "
                                   + "it down as what a step expects (is a proxy, a firewall or a login portal in front of the server?), and rewrote nothing")
                return nil
            }
            if update, !mismatches.isEmpty, !didNotRun, let before {
                matcher = before
                var blessed = step
                // As a recording writes it: a value the transcript captured earlier is `{{name}}`, not its number; in what
                // changed alone (a hand-written `{{uuid}}`, a literal id that still matched, became a capture's reference).
                let rewritten = step.expectation.updated(with: observation, matcher: &matcher, baseURL: baseURL)
                let referenced = captured.referencing(in: rewritten, values: interpreter.allVariables, observed: observation, line: step.command)
                blessed.expectation = referenced.keeping(unchangedIn: rewritten, from: step.expectation)
                if case .capture? = lastCommand {
                    // What a capture takes is volatile: a pattern of its kind, as the recorder writes it (it wrote the number).
                    blessed.expectation.body = Expectation(recording: observation, baseURL: baseURL, volatileBody: true).body
                }
                updated.append(blessed)
                run.updated = true
            }
            captured.note(lastCommand)
            _ = transport?.takeFailure()
            record(run)
            // Values this step captured feed later command lines as {{name}}.
            // The matcher lets go of the variables first, so that setting one
            // changes the interpreter's dictionary in place instead of copying it.
            matcher.variables = [:]
            for name in matcher.captureOrder.dropFirst(capturedBefore) {
                guard let capture = matcher.captures[name] else { continue }
                _ = await interpreter.execute(.set(name: name, value: capture.text))
                // A piece of a text that held a secret (`"path": "/echo?t={{a:=/.{5}/}}{{b:=/.*/}}"` of an echoed token) is a
                // piece of the secret: sent to another origin one at a time, the pieces were it.
                if let source = capture.source, let secret = await secret(under: capture.text, in: source) {
                    await interpreter.holdPart(name, of: secret)
                }
            }
            return outcome
        }

        /// The name of the secret `piece` of `text` was taken from: a supplied one, or the session's token.
        nonisolated(nonsending) private func secret(under piece: String, in text: String) async -> String? {
            var tokens = SuppliedSecrets()
            _ = tokens.add(await sessionSecrets().map { ($0.key, $0.value) })
            if let token = tokens.secret(under: piece, in: text) { return token.name }
            return await interpreter.suppliedSecret(under: piece, in: text)
        }

        /// The session's tokens under the names a recording gives them
        /// (`access_token`, LevelUp's `accesstoken`), for `{{secret:…}}` in command lines.
        nonisolated(nonsending) private func sessionSecrets() async -> [String: String] {
            guard let tokens = await interpreter.session.tokens else { return [:] }
            var secrets: [String: String] = [:]
            guard let auth = profile.auth else { return ["access_token": tokens.accessToken] }
            for (path, value) in [(auth.accessTokenPath, Optional(tokens.accessToken)), (auth.refreshTokenPath, tokens.refreshToken)] {
                guard let value, case let .key(key)? = path.components.last else { continue }
                secrets[ExpectedValue.secretName(key)] = value
            }
            secrets["access_token"] = secrets["access_token"] ?? tokens.accessToken
            return secrets
        }

        private mutating func learn(supplied values: [(name: String, value: String)]) {
            for (name, value) in values {
                // Supplied as a secret, so hidden from 4 characters, as a typed one is when recording.
                secrets.learn(value, name: name, typed: true)
                supplied.insert(value)
            }
        }

        /// The session's tokens, and what an answer hands out as a recording
        /// would learn it (secret-named members, the profile's secret fields,
        /// JWTs): a server that echoes one back must not print it in a report.
        nonisolated(nonsending) private mutating func learnSecrets(from observation: Observation) async {
            for (name, value) in await sessionSecrets() { secrets.learn(value, name: name) }
            if case let .json(body)? = observation.body, (observation.status ?? 200) < 400 {
                secrets.learn(secretsIn: body, fields: SecretFields(profile.secretFields))
            }
        }

        /// A mismatch as shown: any secret this replay has held is hidden,
        /// and a value it supplied however short (the scrubber, which also
        /// rewrites files, leaves short ones: a 3-letter password was shown
        /// in an echo's `got`).
        private func hidingSecrets(_ mismatch: Mismatch) -> Mismatch {
            var shown = mismatch
            shown.expected = hidingSecrets(in: shown.expected)
            shown.actual = hidingSecrets(in: shown.actual)
            return shown
        }

        func hidingSecrets(in text: String) -> String {
            var shown = secrets.hide(text)
            for value in supplied where value.count >= 3 && value.count < SecretScrubber.typedMinimumLength {
                shown = shown.replacingOccurrences(of: value, with: "<hidden>")
            }
            for value in carried.sorted(by: { $0.count > $1.count }) where value.count >= 3 {
                shown = shown.replacingOccurrences(of: value, with: "<hidden>")
            }
            return shown
        }

        /// Why the run stopped, as a report shows it: a server's refusal may
        /// quote what it was sent (`wrong password S3cr3t… for carol@…`).
        var shownFailure: TranscriptRun.Failure? {
            switch failure {
            case nil: nil
            case let .broken(text)?: .broken(hidingSecrets(in: text))
            case let .runtime(text)?: .runtime(hidingSecrets(in: text))
            }
        }

        private func describe(_ outcome: Outcome) -> String {
            let observation = outcome.observation(renderer: Renderer(palette: .plain, envelope: profile.errorEnvelope))
            return observation.errors.first ?? observation.status.map { "HTTP \($0)" } ?? "no answer"
        }
    }
}
