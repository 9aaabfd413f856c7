import Core
import Foundation

/// Runs commands against one backend. Holds the session state (tokens via
/// `AuthSession`, variables, the last response) and returns `Outcome`s;
/// rendering and terminal I/O are someone else's job.
actor Interpreter {
    let session: AuthSession
    /// The user's variables live in `published` alone, changed in place one
    /// at a time: a copy kept here and republished whole on every `set` cost
    /// a copy of every variable per set, and a replay that captures at each
    /// step grew with the square of its steps (issue 11 #9).
    private var variables: [String: String] { published.user }
    /// The variables, readable without a hop onto the actor: the runner
    /// builds every line's parser from them, on the main thread.
    private nonisolated let published: VariableSnapshot
    /// `base_url` and `profile`: fixed for a session.
    private nonisolated let builtIns: [String: String]
    /// The variables every session has, which `set` and `unset` refuse.
    static let builtInNames: Set<String> = ["base_url", "profile"]
    /// The last response; its body's JSON is parsed when first asked for
    /// (`show`, `capture`, TAB), not for every answer shown.
    var lastResponse: ReceivedResponse? {
        didSet {
            lastDownloaded = nil
            lastGotNoAnswer = false
        }
    }
    /// The last request got no answer (a reset, a timeout, Ctrl-C): `show`,
    /// `save` and `capture` say so. They used the answer before it, and
    /// `save` wrote that one's body under the name meant for this one.
    private var lastGotNoAnswer = false
    /// Where the last response's body went instead of memory (`--download`):
    /// `save` and `show` say so (`save` wrote an empty file, and said "saved 0 B").
    private var lastDownloaded: String?
    /// The request the last response answered: `show` and `capture` hide
    /// the credentials it carried where its answer echoes them, as the
    /// answer's display did. Worked out when asked, not for every answer.
    private var lastRequest: PreparedRequest?
    /// The session's tokens when the last answer came (`Exchange.heldTokens`).
    private var lastHeldTokens: [String] = []
    private var lastCarried: [String] {
        (lastRequest.map { Renderer.credentials(of: $0, secretHeaders: profile.secretHeaders, secretParameters: profile.secretParameters) } ?? [])
            + (lastResponse.map { Renderer.cookiesSet(in: $0.headers) } ?? []) + lastHeldTokens + supplied.shown
    }
    /// Values the session filled in for `{{secret:NAME}}` so far (from the
    /// environment, or typed without echo): hidden where an answer echoes
    /// them, shell variables in `--curl`.
    private var supplied = SuppliedSecrets()

    func supplying(_ secrets: SuppliedSecrets) { supplied = secrets }
    /// Values a replay filled in for a line's `{{secret:NAME}}` before it was
    /// parsed: known as the session's, so a redirect to another origin drops a
    /// header holding one and refuses to send a body holding one again (a
    /// replay sent them there, where the same line in a script did not).
    func supply(_ secrets: [(name: String, value: String)]) { _ = supplied.add(secrets) }

    /// The supplied secret `piece` of `text` was taken from, by name (`SuppliedSecrets.secret(under:in:)`).
    func suppliedSecret(under piece: String, in text: String) -> String? { supplied.secret(under: piece, in: text)?.name }

    /// A variable a replay captured from an answer that held the secret `secret`: kept at the backend's origin
    /// however short (`SuppliedSecrets.parts`), and hidden by `vars`.
    func holdPart(_ name: String, of secret: String) {
        guard let value = allVariables[name] else { return }
        supplied.addPart(value, of: secret)
        secretVariables.insert(name)
    }
    /// A replay sends what it filled in for a `{{secret:NAME}}` to the
    /// backend's origin alone, however the line came to hold it (set by the
    /// replayer while a step runs; a script's lines are its author's own).
    private(set) var keepsSuppliedAtOrigin = false
    func keepSuppliedAtOrigin(_ keeps: Bool) { keepsSuppliedAtOrigin = keeps }
    /// The secret a line was refused for sending elsewhere, and where (`refusal(sending:bytes:to:)`).
    private var refusedElsewhere: (secret: String, url: URL)?
    func takeRefusal() -> (secret: String, url: URL)? {
        defer { refusedElsewhere = nil }
        return refusedElsewhere
    }

    /// In a replay, the refusal of what would carry a supplied secret to
    /// another origin: a variable set from one (`set k={{secret:tok}}`, then
    /// `get http://elsewhere/ t=={{k}}`), a capture of an echo, a frame on a
    /// socket opened elsewhere. The replay's check of the line as written saw
    /// no `{{secret:}}` there, and sent it.
    func refusal(sending texts: [String], bytes: [UInt8]? = nil, to url: URL) -> Outcome? {
        guard keepsSuppliedAtOrigin, Origin(url) != nil, !session.scope.admits(url), let secret = supplied.held(in: texts, bytes: bytes) else {
            return nil
        }
        refusedElsewhere = (secret.name, url)
        return .failure("not sent: it holds \(secret.placeholder) and goes to \(Origin.named(in: url) ?? "another origin"), "
                        + "which is not the backend's", .parse)
    }

    /// In a replay, what stops a redirect that would carry a supplied secret to another origin (in its
    /// URL, a header's name or value, a 307's body): the backend's open redirect took it there.
    private var redirectVetting: (@Sendable (PreparedRequest) -> RedirectPolicy.Vetoed?)? {
        guard keepsSuppliedAtOrigin, !supplied.isEmpty else { return nil }
        let (supplied, scope) = (supplied, session.scope)
        return { next in
            guard Origin(next.url) != nil, !scope.admits(next.url),
                  let secret = supplied.held(in: [next.url.absoluteString] + next.headers.flatMap { [$0.name, $0.value] }, bytes: next.body) else {
                return nil
            }
            return RedirectPolicy.Vetoed(secret: secret.name, url: next.url,
                                         why: "it holds \(secret.placeholder) and would go to \(Origin.named(in: next.url) ?? "another origin"), "
                                             + "which is not the backend's")
        }
    }
    /// A WebSocket frame received since the last response (its JSON, or nil
    /// for text that is not JSON): `show` shows it instead.
    var lastFrame: JSONValue??
    /// What `show` and `capture` read: the last frame's JSON, else the last response's.
    var lastBody: JSONValue? {
        if let frame = lastFrame { return frame }
        return lastResponse?.json
    }
    /// The last GET and its answer, for `next` (a POST or a login since does not change them).
    var lastList: Paging.Last?
    var lastListResponse: ReceivedResponse?
    /// `ws pretty on`: JSON frames shown indented as they arrive.
    var prettyFrames = false
    /// The proxies requests go through, for sockets too (set by `LiveSession.open`).
    var proxies: ProxyRules?

    func setProxies(_ rules: ProxyRules?) { proxies = rules }
    /// The `ws` socket, its unread frames and who hears about it (Interpreter+WebSocket.swift).
    var sockets = SocketState()
    /// Where a streamed answer's rows go as they come when no socket
    /// listener shows them (a script, `-c`): written out at once, so a
    /// stream that never ends, or breaks, has shown what came. Nil: the
    /// body is shown whole when it ends (a replay).
    private(set) var streamedRows: (@Sendable (String) -> Void)?

    func setStreamedRows(_ post: (@Sendable (String) -> Void)?) { streamedRows = post }

    /// How a streamed answer's request is shown above its rows with `-v`,
    /// as HTTPie shows it (it came after them), and where it goes in a
    /// script (the REPL's goes as a notice, with the rows).
    private(set) var streamedRequest: (text: @Sendable (PreparedRequest, PrintParts) -> String, out: (@Sendable (String) -> Void)?)?

    func setStreamedRequest(_ text: @escaping @Sendable (PreparedRequest, PrintParts) -> String, out: (@Sendable (String) -> Void)?) {
        streamedRequest = (text, out)
    }
    /// Every frame the socket sends or receives, for a recording or a replay to follow.
    nonisolated let frameTap = FrameTap()
    /// Variables captured from a secret (`capture t = .access_token`): `vars`
    /// hides them whatever they are called.
    private(set) var secretVariables: Set<String> = []

    /// Variables another interpreter held as secrets (`env NAME` carries them over).
    func holdSecret(_ names: Set<String>) {
        secretVariables.formUnion(names.filter { allVariables[$0] != nil })
    }

    /// Whether `text` holds a value the session keeps secret: one supplied
    /// for a `{{secret:NAME}}`, or a variable captured as a secret.
    func holdsSecret(_ text: String) -> Bool {
        holdsSupplied(text) || secretVariables.contains { allVariables[$0].map { !$0.isEmpty && text.includes($0) } ?? false }
    }

    /// Whether `text` holds a value supplied for a `{{secret:NAME}}` (an empty one holds nothing).
    private func holdsSupplied(_ text: String) -> Bool {
        supplied.shown.contains { !$0.isEmpty && text.includes($0) }
    }

    /// Ids from answers so far, for TAB on `{id}` segments: learnt only
    /// where there is TAB (`learnIDs()`). A script or a replay has no use
    /// for them, and walking each answer for them was 6% of a replay's CPU.
    private var seenIDs: SeenIDs?

    /// From now on, ids in answers are learnt for TAB.
    func learnIDs() {
        if seenIDs == nil { seenIDs = SeenIDs() }
    }

    var learnsIDs: Bool { seenIDs != nil }

    /// The session's executor, which is the HTTP transport's event loop: a
    /// command and its requests run on one thread (`HTTPTransport.executor`).
    nonisolated var unownedExecutor: UnownedSerialExecutor { session.unownedExecutor }

    /// Request options every line gets unless it says otherwise (`defaults`).
    private var defaults = RequestOptions() {
        didSet { formsByDefault.set(defaults.form) }
    }
    /// `defaults.form`, for the parser (which checks a JSON body's nested names, not a form's).
    private nonisolated let formsByDefault = Shared(false)

    /// `--offline`: every command shows what it would send and sends nothing
    /// (the session's transport refuses too: `OfflineTransport`).
    let offline: Bool

    /// The commands this interpreter parses, helps with and completes.
    nonisolated let table: CommandTable

    init(session: AuthSession, offline: Bool = false, table: CommandTable = .standard) {
        self.session = session
        self.offline = offline
        self.table = table
        let builtIns = ["base_url": session.builder.baseURL.absoluteString, "profile": session.profile.name]
        assert(Set(builtIns.keys) == Self.builtInNames)
        self.builtIns = builtIns
        published = VariableSnapshot(builtIns: builtIns)
    }

    /// Where `-o`, `save` and `--download` write (a replay's scratch folder).
    private(set) var outputs = OutputFolder()

    func setOutputFolder(_ folder: String?, takesEveryName: Bool = false) { outputs = OutputFolder(path: folder, takesEveryName: takesEveryName) }

    /// The header `auth` set: a secret whatever it is called, and what the next `auth` replaces.
    private(set) var credentialHeader: String? {
        didSet { remakeProfile() }
    }

    /// The session's profile, its catalog replaced by a loaded spec's, and
    /// the header `auth` set among its secret headers. Made again when either
    /// changes, not for each use: a spec's catalog was indexed again for
    /// every answer (`Profile.endpoints` drops its index).
    private(set) lazy var profile = madeProfile()

    private func remakeProfile() {
        profile = madeProfile()
        lastLookup = nil
    }

    /// The last catalog lookup, kept: a line's body check, its access and
    /// its answer's drift check ask for the same endpoint.
    private var lastLookup: (method: String, path: String, endpoint: Endpoint?)?

    private func endpoint(method: String, path: String) -> Endpoint? {
        if let last = lastLookup, last.method == method, last.path == path { return last.endpoint }
        let found = profile.endpoint(method: method, path: path)
        lastLookup = (method, path, found)
        return found
    }

    private func madeProfile() -> Profile {
        var profile = session.profile
        if let credentialHeader { profile.secretHeaders.append(credentialHeader) }
        if let spec {
            profile.endpoints = spec.endpoints
            profile.importedModels = spec.models
        }
        return profile
    }

    /// The OpenAPI document loaded with `--spec` or `spec load`.
    private var spec: ImportedSpec? {
        didSet { remakeProfile() }
    }

    /// The file of the OpenAPI document the catalog came from (`--spec`, `spec load`), if any.
    var specSource: String? { spec?.source }

    func use(_ loaded: ImportedSpec) {
        spec = loaded
        modelIndex = nil
    }

    /// The catalog's models by name, for the drift check of every answer:
    /// built on first use, again after a spec is loaded.
    private var modelIndex: [String: Model]?

    /// Replaces the catalog with an OpenAPI document's; the outcome says how many endpoints and what was left out.
    func loadSpec(_ path: String) -> Outcome {
        // In a replay, a document beside the transcript, as its `@file`s are (`spec load ~/.ssh/…` was read).
        if let refused = refusal(reading: path) { return .failure(refused, .usage) }
        do {
            let loaded = try SpecLoader.load(path)
            use(loaded)
            let lines = ["loaded \(loaded.endpoints.count) endpoint\(loaded.endpoints.count == 1 ? "" : "s") from \(path)"] + loaded.notes.map { "note: \($0)" }
            return .message(lines.joined(separator: "\n"))
        } catch {
            return .failure(error.description, .usage)
        }
    }

    /// Variables a line may use: the user's plus the built-ins.
    nonisolated var allVariables: [String: String] { published.all }

    /// Variables set with `set` or `capture` (a recording's header keeps them).
    var userVariables: [String: String] { variables }

    /// Variables a `capture` took from a JSON string (`"id": "1"`): text,
    /// though it reads as a number. The mock answers them as strings (an
    /// app decoding a String id got the number 1).
    private(set) var capturedStrings: Set<String> = []

    /// The request options every line gets unless it says otherwise (`defaults`).
    var requestDefaults: RequestOptions { defaults }

    /// The parser, with the current variables.
    nonisolated var parser: CommandParser {
        CommandParser(variables: allVariables, table: table, formsByDefault: formsByDefault.value, readFile: readFile, locateFile: locateFile)
    }

    /// Where files may be read from while a transcript runs (`explorer replay`, `replay FILE` at the prompt;
    /// `Replayer.readableRoot`); nil: anywhere.
    /// `folder`: where the session's reader finds a relative path (`explorer replay`'s: the transcript's; nil, the
    /// working directory).
    private nonisolated let readableRoot = Shared<(root: String, folder: String?)?>(nil)

    func confineFiles(to root: String?, relativeTo folder: String? = nil) { readableRoot.set(root.map { ($0, folder) }) }

    /// Why a replay does not read `path`, by `readableRoot`; nil outside one.
    private nonisolated func refusal(reading path: String) -> String? {
        guard let (root, folder) = readableRoot.value else { return nil }
        if path == "-" { return Replayer.standardInputRefusal }
        return Replayer.refusal(reading: Replayer.path(path, from: folder ?? FileManager.default.currentDirectoryPath), under: root, typed: path)
    }

    /// Where a file a flag names is opened (`--cert`, `--verify CA`): in a replay, from the transcript's folder, as
    /// its `@file` items are, and under `readableRoot` (a transcript sent `~/.ssl/client.pem` as its client
    /// certificate to a server of its choosing).
    nonisolated var locateFile: @Sendable (String) throws -> String {
        guard readableRoot.value != nil else { return RequestBuilder.expandingHome }
        return { [self] typed in
            if let refused = refusal(reading: typed) { throw RequestBuilder.BuildError(refused) }
            return Replayer.path(typed, from: readableRoot.value?.folder ?? FileManager.default.currentDirectoryPath)
        }
    }

    /// How the session reads a file a line names: its builder's reader, kept under `readableRoot` when one is set.
    nonisolated var readFile: @Sendable (String) throws -> [UInt8] {
        let read = session.builder.readFile
        guard readableRoot.value != nil else { return read }
        return { [self] path in
            if let refused = refusal(reading: path) { throw RequestBuilder.BuildError(refused) }
            return try read(path)
        }
    }

    /// The session's builder with `readFile` as its reader.
    private var builder: RequestBuilder {
        var builder = session.builder
        builder.readFile = readFile
        return builder
    }

    /// What TAB completion needs to know right now.
    func completionState() -> CompletionState {
        CompletionState(profile: profile, variables: allVariables.keys.sorted(), lastBody: lastBody, seenIDs: seenIDs ?? SeenIDs(), table: table, environments: environments)
    }

    /// A profile file's environment when it is not the default one (`staging`): the prompt shows it.
    private var environmentLabel: String?

    func setEnvironmentLabel(_ label: String?) { environmentLabel = label }

    /// The profile file's headers and credential as it writes them, and the
    /// secrets filled into them: `--curl` prints such a header as the file
    /// writes it (`pre-{{secret:plainsec}}-post` was `"$X_PLAIN"` whole,
    /// its text lost, the variable named after the header, not the secret).
    private var profileTemplates: [(name: String, template: String)] = []
    private var profileSecrets: [String: String] = [:]
    func useProfileTemplates(_ templates: [(name: String, template: String)], secrets: [String: String]) {
        profileTemplates = templates
        profileSecrets = secrets
    }

    /// A header the profile file gave, unchanged, as `--curl` prints it: each
    /// of its secrets a shell variable of the secret's name.
    private func profileWritten(_ header: HTTPHeader) -> String? {
        guard let template = profileTemplates.last(where: { header.hasName($0.name) })?.template, !template.contains("{{basic:"),
              case let .success(filled) = SecretTemplate.fill(template, { profileSecrets[$0] }), filled == header.value,
              case let .success(shown) = SecretTemplate.fill(template, { name in profileSecrets[name].map { CurlCommand.placeholder(name, for: $0) } })
        else { return nil }
        return shown
    }

    /// A profile file's environment names, for TAB after `env`.
    private var environments: [String] = []

    func setEnvironments(_ names: [String]) { environments = names }

    /// `linku` or `linku alice`, `gitea staging`; for a backend without a
    /// profile, its host (`api.example.com`, `127.0.0.1:8080`).
    func promptLabel() async -> String {
        var label = profile.name == Profile.generic.name ? session.builder.baseURL.host.map { host in
            session.builder.baseURL.port.map { "\(host):\($0)" } ?? host
        } ?? profile.name : profile.name
        if let environmentLabel { label += " " + environmentLabel }
        if let name = await session.userName { return "\(label) \(name)" }
        return label
    }

    /// What a request cancelled with Ctrl-C says (and what a recording leaves out).
    static let cancelled = "request cancelled"
    /// What `ws recv` stopped with Ctrl-C before any frame came says: no request was cancelled.
    static let waitCancelled = "stopped waiting: no frame came"
    /// How a stream Ctrl-C stopped begins (`stopped: 12 lines streamed above`).
    static let streamStopped = "stopped: "

    func execute(_ command: Command) async -> Outcome {
        do {
            return try await run(command)
        } catch {
            if command.sends, error is TransportError || error is CancellationError { forgetLastAnswer() }
            let (message, status) = Self.failure(error)
            return .failure(message, status)
        }
    }

    /// Whether a WebSocket is open (or opening).
    var hasOpenSocket: Bool {
        get async {
            guard let socket = sockets.socket else { return false }
            return await socket.state != .closed
        }
    }

    /// A request that got no answer leaves none to show: not the one before it.
    private func forgetLastAnswer() {
        lastResponse = nil
        lastFrame = nil
        lastRequest = nil
        lastGotNoAnswer = true
    }

    /// What `show`, `save` or `capture` says with no answer to read.
    private func noAnswer(_ nothing: String) -> Outcome {
        .failure(lastGotNoAnswer ? "the last request got no answer: nothing to \(nothing)" : "no response yet: send a request first", .usage)
    }

    /// What a command that threw says, in one line, and its exit status.
    private static func failure(_ error: any Error) -> (String, ExitStatus) {
        switch error {
        case let error as TransportError: (error.kind == .cancelled ? cancelled : error.description, .runtime)
        case let error as RequestBuilder.BuildError: (error.message, .usage)
        case let error as AuthError: (error.message, .runtime)
        case let error as RedirectPolicy.TooMany: (error.description, .runtime)
        case is CancellationError: (cancelled, .runtime)
        default: ("\(error)", .runtime)
        }
    }

    private func run(_ command: Command) async throws -> Outcome {
        switch command {
        case .empty: return .nothing
        case .exit: return .exit
        case let .next(print):
            return try await nextPage(print: print)
        case let .http(method, path, items, typed):
            let listing = method == "GET" && !typed.offline && !typed.curl
            let options = typed.over(defaults)
            if let key = options.certificateKey, options.certificate == nil {
                return .failure("--cert-key \(key) is the key of a client certificate: give --cert FILE too (not sent)", .usage)
            }
            var request = try builder.build(method: method, path: path, items: items, form: options.form, multipart: options.multipart,
                                                    raw: options.raw, json: options.json)
            request.timeout = options.timeoutDuration
            request.tls = options.tls
            if !supplied.isEmpty {
                request.secretHeaderNames = Set(request.headers.filter { holdsSupplied($0.value) }.map(\.name))
            }
            // A secret under a name that says nothing (`note={{secret:key}}`, `note={{captured_token}}`): a 307 or
            // 308 to another origin would send it there with the body.
            if let body = request.body {
                let held = supplied.shown + secretVariables.compactMap { allVariables[$0] }
                request.bodyHoldsSecret = held.contains { $0.count >= 4 && body.firstRange(of: Array($0.utf8)) != nil }
            }
            let certificateNote = withholdingSessionCertificate(from: &request, typed: typed)
            let known = endpoint(method: method, path: session.catalogPath(of: request))
            // The document's media type for a JSON body (a PATCH as application/merge-patch+json was a 415), unless one was typed.
            if let type = known?.bodyMediaType, request.header("Content-Type") == "application/json",
               !items.contains(where: { if case let .header(name, _) = $0 { name.lowercased() == "content-type" } else { false } }) {
                request.setHeader("Content-Type", type)
            }
            if !options.force, let endpoint = known {
                // The catalog knows this body is wrong: say so rather than send it (--force sends it anyway).
                // A form's and a multipart body's fields are text: `--form done=true` was refused as a string for a
                // boolean, and its `done:=true` as no form field.
                let uploads = items.contains { if case let .file(name, _, _) = $0 { !name.isEmpty } else { false } }
                let problems = endpoint.bodyProblems(in: items, textFields: options.form || options.multipart || uploads, models: profile.model(named:))
                if !problems.isEmpty {
                    return .failure(problems.joined(separator: "\n") + " (not sent; --force sends it anyway)", .usage)
                }
            }
            if options.curl { return try await curlView(method: method, path: path, items: items, options: options, typed: typed) }
            if options.offline || offline {
                // `-p B` prints the body alone, `-p H` the head, as HTTPie's --offline does; a -p of the answer's parts
                // alone (`defaults -p hb`) leaves both, so --offline never prints nothing.
                let asked = (options.print ?? []).intersection([.requestHeaders, .requestBody])
                return await offlineView(of: request, also: certificateNote, parts: asked.isEmpty ? [.requestHeaders, .requestBody] : asked)
            }
            if let file = options.output, let taken = Self.taken(file, force: options.force, in: outputs, forcing: "--force") {
                return .failure("\(taken.message): not sent", .usage)
            }
            // Header names too: `{{k}}:1` sent the secret as one.
            if let refused = refusal(sending: [request.url.absoluteString] + request.headers.flatMap { [$0.name, $0.value] }, bytes: request.body,
                                     to: request.url) {
                return refused
            }
            let rule = access(for: request)
            // `--download` follows redirects, as HTTPie's does: a 302 to the file saved nothing and exited 0.
            let follows = options.follow ?? options.download
            let follow = follows ? RedirectPolicy(maximum: options.maxRedirects ?? RedirectPolicy().maximum, vetting: redirectVetting) : nil
            let (stream, download) = takeBodyAsItComes(&request, options: options, follows: follows)
            let exchange: Exchange
            do {
                exchange = try await session.send(request, isPublic: rule?.isPublic, token: rule?.token ?? .bearer, follow: follow)
            } catch let error as TransportError where error.kind == .cancelled && (stream?.shown ?? 0) > 0 {
                // Ctrl-C is how a stream that never ends is left; `show` then has what came.
                if let partial = stream?.partial {
                    lastResponse = partial
                    lastFrame = nil
                }
                return .message(Self.streamStopped + Self.streamedNote(stream!.shown))
            } catch {
                forgetLastAnswer()
                // A replay's secret that a redirect would have taken elsewhere: refused as the line would be (exit 2).
                if let vetoed = (error as? RedirectPolicy.Unfollowable)?.vetoed { refusedElsewhere = (vetoed.secret, vetoed.url) }
                if let line = download?.finish(complete: false), download?.path != nil {
                    // Why it stopped, unless Ctrl-C stopped it: the person who pressed it knows.
                    let why = (error as? TransportError).flatMap { $0.kind == .cancelled ? nil : $0.description }
                    return .failure(why.map { "\($0); \(line)" } ?? line, .runtime)
                }
                // A stream that broke (a dropped connection, a silence past --timeout): `show` and `save` have
                // what came, as after Ctrl-C (they said the request got no answer, and the rows shown were lost).
                let broken = stream?.partial
                if let broken { lastResponse = broken }
                // -v shows the request that got no answer, as it went out (Ctrl-C's needs no showing).
                let view = options.print ?? PrintParts.standard(for: method)
                var (message, status) = Self.failure(error)
                // The session's certificate stayed behind (another origin): the cause of a TLS failure, said
                // there; "(--cert FILE)" sent the user to give the certificate they had given.
                // Under TLS 1.3 a server that wants a client certificate closes the connection after the handshake.
                let withheld = certificateNote != nil && (error as? TransportError).map {
                    $0.kind == .tls || $0.detail.hasPrefix(LiveTransport.closedBeforeAnswerDetail)
                } == true
                if let certificateNote, withheld {
                    message = message.replacingOccurrences(of: " (--cert FILE)", with: "") + "; " + certificateNote
                }
                if broken != nil, message != Self.cancelled {
                    // The half event or line it broke inside is shown, said to be cut, as the rows before it were.
                    stream?.finish(broken: true)
                    message += "; show and save have what came"
                }
                if !view.isDisjoint(with: [.requestHeaders, .requestBody]), message != Self.cancelled {
                    // A redirect followed on the way was lost from view when a later hop failed (HTTPie's --all shows them).
                    // A redirect not followed was answered: it is the last hop (`AuthSession.lastHops`).
                    let answered = error is RedirectPolicy.TooMany || error is RedirectPolicy.Unfollowable
                    return .unanswered(answered ? nil : await session.lastSent ?? request, hops: await session.lastHops, view: view,
                                       failure: message, status)
                }
                if broken != nil || withheld, message != Self.cancelled { return .failure(message, status) }
                throw error
            }
            if listing {
                lastList = Paging.Last(path: path, items: items, options: typed)
                lastListResponse = exchange.response
            }
            var view = options.print ?? PrintParts.standard(for: method)
            var notes = certificateNote.map { [$0] } ?? []
            // Not after `--no-follow`, which says it (beside a session's `defaults --follow --max-redirects 2`).
            if !follows, options.follow == nil, options.maxRedirects != nil, (300..<400).contains(exchange.response.status),
               exchange.response.header("Location") != nil {
                notes.append("not followed: --max-redirects counts the redirects --follow follows")
            }
            if follows, [301, 302, 303, 307, 308].contains(exchange.response.status),
               (exchange.response.header("Location")?.trimmingBlanks()).map(\.isEmpty) ?? true {
                notes.append("not followed: the \(exchange.response.status) has no Location")
            }
            // A redirect that left the origin went on without the certificate (`AuthSession.send`).
            if request.tls?.certificate != nil, exchange.request.tls?.certificate == nil,
               let from = Origin(request.url), let to = Origin(exchange.request.url) {
                notes.append("client certificate not sent to \(to): the redirect left \(from)")
            }
            // A 404 or 405 to a path the catalog does not have: the one it has that the line most likely meant.
            if known == nil, [404, 405].contains(exchange.response.status), Origin(exchange.request.url) == session.scope.origin,
               let hint = catalogHint(method: method, path: session.catalogPath(of: request)) {
                notes.append(hint)
            }
            // A 401 to a session that never logged in showed the server's refusal alone: what to do is said.
            if exchange.response.status == 401, !exchange.sessionExpired, profile.auth != nil, await !session.isLoggedIn,
               Origin(exchange.request.url) == session.scope.origin {
                notes.append(Self.notLoggedIn)
            }
            /// Why a body that was to be saved was not.
            var unsaved: String?
            if let stream { notes += Self.settle(stream, view: &view) }
            if let download {
                let (line, failed) = Self.settle(download, exchange: exchange, chosen: options.output, view: &view, folder: outputs)
                notes += line.map { [$0] } ?? []
                if failed { unsaved = line }
            } else if let file = options.output {
                // -o: the body goes to the file, not the screen.
                view.remove(.responseBody)
                switch Self.write(exchange.response, to: file, force: options.force, in: outputs, forcing: "--force") {
                case let .success(line): notes.append(line)
                case let .failure(problem):
                    unsaved = "not saved: \(problem.message)"
                    notes.append(unsaved!)
                }
            }
            // A register or a code login answers with tokens: the session is then logged in, as after `login`.
            if try await session.adoptTokens(from: exchange) {
                let user = await session.userName
                notes.append("logged in as \(user ?? "the new user")")
                // As `login` says it: a login typed as a request left alice's socket open, unsaid.
                if let note = await socketOwnerNote(loggedInAs: user) { notes.append(note) }
            }
            let outcome = remember(exchange, note: notes.isEmpty ? nil : notes.joined(separator: "\n"), view: view)
            if let path = download?.path, unsaved == nil { lastDownloaded = path }
            // A body that was to be saved and was not fails the line: a script must not go on without its file.
            if (200..<300).contains(exchange.response.status), let unsaved { return .failure(unsaved, .runtime) }
            return outcome
        case let .login(email, password):
            let flow = try session.loginFlow()
            // At the prompt a password left out is asked for; here (a script, -c) nothing can ask: say how a script gives one.
            let fromEnvironment = "login EMAIL {{secret:password}}, with the password in EXPLORER_SECRET_PASSWORD"
            guard let email else { return .failure("login needs an email and a password: \(fromEnvironment)", .usage) }
            if let refused = Self.notADemoEmail(email, in: session.profile) { return refused }
            guard let password else { return .failure("login needs a password, and there is no terminal to ask at: \(fromEnvironment)", .usage) }
            if offline {
                // The request as it would go, its Content-Length the real body's; the password is hidden where it is shown.
                // With the session headers it carries (Supabase's `apikey`: shown without it, the login went with it).
                return await offlineView(of: try session.loginRequest(email: email, password: password), isPublic: true)
            }
            let before = await session.userName
            let exchange = try await session.login(email: email, password: password)
            // A redirect is refused below, as an answer without a token is.
            guard (200..<400).contains(exchange.response.status) else {
                // What a refusal leaves: the login before it stands (the prompt still names it, unsaid); a 404
                // or 405 is the profile's login-path, not the password (the page and a bare status were all).
                // The path as sent: a base URL's own path (`/v1`) is before the profile's login-path.
                var said = [404, 405].contains(exchange.response.status)
                    ? [Self.noLoginStart + "POST \(exchange.request.url.path) (the profile's login-path: \(flow.loginPath))"] : []
                if let before { said.append(Self.stillLoggedInStart + before) }
                return remember(exchange, note: said.isEmpty ? nil : said.joined(separator: "\n"))
            }
            // The login before it, if any, stands: "not logged in" under a prompt that still named the user read as a lie.
            if let refusal = exchange.refusal { return remember(exchange, note: refusal + (before.map { ": still logged in as \($0)" } ?? ": not logged in")) }
            let user = await session.userName ?? email
            var note = "logged in as \(user)"
            if let owner = await socketOwnerNote(loggedInAs: user) { note += "\n" + owner }
            if credentialHeader?.lowercased() == "authorization" {
                // `auth bearer X` then `login`: the Authorization header auth set went with every request, over
                // the login's token, and each got a 401 under "logged in as".
                await session.setCredential(nil, replacing: credentialHeader)
                credentialHeader = nil
                note += "; the session's Authorization header is dropped (requests carry this login's token)"
            }
            return remember(exchange, note: note)
        case .logout:
            guard await session.isLoggedIn else {
                // A backend that logs in by cookie (a form post, then a session cookie): logout has no login of
                // explorer's to end, and the cookies stay; how to drop them is said.
                let held = await session.cookies.cookies.count
                return .message("not logged in" + (held == 0 ? "" : "; the session holds \(held) cookie\(held == 1 ? "" : "s") (cookies clear forgets them)"))
            }
            if offline, let request = try await session.logoutRequest() { return await offlineView(of: request, isPublic: false) }
            // The socket was opened with this login's token: it ends with it.
            let closed = await closeSocketOfEndingLogin()
            let exchange = try await session.logout()
            let note = ["logged out", closed].compactMap { $0 }.joined(separator: "\n")
            if let exchange {
                let outcome = remember(exchange, note: note)
                // A script must not take it as done: its next run is logged in again.
                if let kept = exchange.storeWarning { return .failure(kept, .runtime) }
                return outcome
            }
            // The tokens stay in the file: the next run is logged in again, which "logged out" hid.
            if let kept = await session.takeStoreWarning() { return .failure(kept, .runtime) }
            return .message(note)
        case .whoami:
            let flow = try session.loginFlow()
            guard await session.isLoggedIn else { return .failure("not logged in (try: login EMAIL)", .runtime) }
            let request = try session.builder.build(method: "GET", path: flow.whoAmIPath, items: [])
            if offline { return await offlineView(of: request) }
            return remember(try await session.send(request), note: nil)
        case let .set(name, value):
            // `set base_url=…` used to be kept and shown by vars while every request still went to the old URL.
            if builtIns[name] != nil { return fixedForTheSession(name) }
            published.set(name, value)
            secretVariables.remove(name)
            capturedStrings.remove(name)
            return .nothing
        case let .unset(name):
            secretVariables.remove(name)
            guard published.remove(name) else {
                return .failure(builtIns[name] != nil ? "'\(name)' is built in and cannot be unset" : "no variable '\(name)'", .usage)
            }
            return .nothing
        case .vars:
            let all = allVariables.sorted { $0.key < $1.key }
            return .variables(all.map { variable in
                // A value captured from an answer that echoed a supplied secret is that secret.
                let secret = secretVariables.contains(variable.key) || holdsSupplied(variable.value)
                let shown = secret && !variable.value.isEmpty ? Redactor.hidden(variable.value) : Self.shown(variable: variable.key, variable.value)
                return Outcome.Variable(name: variable.key, shown: shown, hidden: shown != variable.value)
            })
        case let .cookies(clear):
            if clear {
                let count = await session.cookies.cookies.count
                await session.clearCookies()
                return .message("forgot \(count) cookie\(count == 1 ? "" : "s")")
            }
            return .cookies(await session.unexpiredCookies().cookies)
        case let .show(path):
            guard let response = lastResponse else { return noAnswer("show") }
            if let file = lastDownloaded { return .failure("the last body went to \(file) (--download), not kept to show", .usage) }
            guard let path else {
                if let body = lastBody { return .value(hidingCarried(body)) }
                return response.isReadableWhole ? .body(response, hiding: lastFrame == nil ? lastCarried : []) : .failure(OutcomeText.tooLargeToRead(response), .usage)
            }
            guard let body = lastBody else { return notJSON(response) }
            switch path.evaluate(body) {
            case let .success(value): return .value(hidingCarried(value), secret: isSecret(path))
            case let .failure(error): return .failure(error.message, .usage)
            }
        case let .defaults(options):
            if let options, options != RequestOptions() {
                defaults = options.over(defaults)
            } else if options == nil {
                defaults = RequestOptions()
            }
            // The session's own requests (login, refresh) check the server, and wait, as the lines do.
            await session.setTLS(defaults.tls)
            await session.setTimeout(defaults.timeoutDuration)
            return .defaults(defaults)
        case let .header(action):
            switch action {
            case .clear:
                await session.clearSessionHeaders()
                credentialHeader = nil
                return .message("no session headers")
            case let .set(headers):
                for header in headers {
                    await session.setSessionHeader(header.name, header.value)
                    if header.name.lowercased() == credentialHeader?.lowercased(), header.value.isEmpty { credentialHeader = nil }
                }
                return await execute(.header(.list))
            case let .credential(header):
                await session.setCredential(header.map { HTTPHeader(name: $0.name, value: $0.value) }, replacing: credentialHeader)
                credentialHeader = header?.name
                return await execute(.header(.list))
            case .list:
                let headers = await session.sessionHeaders.map { Redactor.redact(header: $0, alsoSecret: profile.secretHeaders) }
                let query = await session.sessionQuery.map { "?\($0.name)=" + Redactor.hidden($0.value) }
                return .sessionHeaders(headers, query: query, origin: session.scope.origin.map(\.description) ?? "the backend")
            }
        case let .save(file, force):
            guard let response = lastResponse else { return noAnswer("save") }
            if let saved = lastDownloaded { return .failure("the last body went to \(saved) (--download), not kept: nothing to save", .usage) }
            switch Self.write(response, to: file, force: force, in: outputs) {
            case let .success(line) where response.streamCut:
                // It said "saved 64.0 MiB" of an 80 MB stream, as if that were all.
                return .message(line + ": the start of a streamed answer; the rest was shown as it came, not kept")
            case let .success(line): return .message(line)
            case let .failure(problem): return .failure(problem.message, .runtime)
            }
        case let .capture(name, _) where builtIns[name] != nil:
            // `vars` showed `profile = 2` while requests still went as before.
            return fixedForTheSession(name)
        case let .capture(name, .body(path)):
            guard let response = lastResponse else { return noAnswer("capture") }
            guard let body = lastBody else { return notJSON(response) }
            switch path.evaluate(body) {
            case let .success(value):
                return captured(name, value, secret: isSecret(path))
            case let .failure(error): return .failure(error.message, .usage)
            }
        case let .capture(name, .header(header)):
            guard let response = lastResponse else { return noAnswer("capture") }
            guard lastFrame == nil else { return .failure("the last thing received is a WebSocket frame, which has no headers", .usage) }
            let fields = response.headers.filter { $0.hasName(header) }.map(\.value)
            guard var value = fields.first else {
                let names = response.headers.map(\.name).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
                return .failure("the last response has no \(header) header" + (names.isEmpty ? "" : " (it has \(names.joined(separator: ", ")))"), .usage)
            }
            // Fields of one name are one list (RFC 9110 §5.3): the second Warning was dropped. Set-Cookie is not a list.
            if header.lowercased() != "set-cookie" { value = fields.joined(separator: ", ") }
            let shown = ["location", "content-location"].contains(header.lowercased()) ? sendable(value) : value
            return captured(name, .string(shown), secret: Redactor.isSecretHeaderName(header) || header.lowercased() == "set-cookie")
        case let .capture(name, .cookie(cookie)):
            // The one a request to the backend would carry: of two for `/admin` and `/`, the base URL's; never
            // another port's (it took the first held, and sent another service's token to the backend).
            let jar = await session.unexpiredCookies()
            guard let found = jar.cookie(named: cookie, for: session.builder.baseURL) else {
                // One that went by its Max-Age or Expires: said so (the origin it was held for was blamed).
                if jar.expiredNames.contains(cookie), !jar.cookies.contains(where: { $0.name == cookie }) {
                    let names = jar.cookies.map(\.name)
                    return .failure("the cookie named \(cookie) expired (Max-Age or Expires); "
                                    + (names.isEmpty ? "the session holds none" : "the session holds \(names.joined(separator: ", "))"), .usage)
                }
                let elsewhere = jar.cookies.filter { $0.name == cookie }.map { "\($0.domain):\($0.port)\($0.path)" }
                if !elsewhere.isEmpty {
                    return .failure("no cookie named \(cookie) goes to \(session.builder.baseURL.absoluteString) (one is held for \(elsewhere.joined(separator: ", ")))", .usage)
                }
                let names = jar.cookies.map(\.name)
                return .failure("no cookie named \(cookie)" + (names.isEmpty ? ": the session holds none" : " (the session holds \(names.joined(separator: ", ")))"), .usage)
            }
            // A cookie's value is a credential, whatever it is called.
            return captured(name, .string(found.value), secret: true)
        case let .endpoints(filter):
            guard !profile.endpoints.isEmpty else {
                // A document was loaded, and has nothing: loading one is not the answer.
                if let spec {
                    let file = spec.source ?? "the OpenAPI document"
                    return .failure("the catalog is empty: \(file) lists no operations under paths; add some, then spec load \(spec.source ?? "FILE") again", .usage)
                }
                // A profile file of the user's own: its catalog goes in that file.
                let own = profile.name != Profile.generic.name && Profile.builtIn(named: profile.name) == nil
                let hint = own ? "list endpoints: in its profile file or name its document there (spec:; docs/profiles.md), or spec load FILE"
                    : "load an OpenAPI document with spec load FILE, name one with --spec FILE or in a profile file (spec:), or start with --profile NAME"
                return .failure("no catalog for \(profile.displayName): " + hint, .usage)
            }
            let found = CatalogText.matching(filter, in: profile.endpoints)
            guard !found.isEmpty else { return .failure("no endpoint matches '\(filter ?? "")'", .usage) }
            return .endpoints(found)
        case let .describe(name):
            return describe(name)
        case let .specLoad(path):
            return loadSpec(path)
        case .record, .transcript, .environment, .history:
            // The session controller handles these in a session; a transcript being replayed cannot record or nest.
            return .failure("record, replay, tour, env and history work at the prompt, not inside a replayed transcript", .usage)
        case let .ws(action):
            return await webSocket(action)
        case let .help(topic):
            return help(topic)
        }
    }

    private func remember(_ exchange: Exchange, note: String?, view: PrintParts = .plain) -> Outcome {
        lastResponse = exchange.response
        lastRequest = exchange.request
        lastHeldTokens = exchange.heldTokens
        lastFrame = nil
        // Ids for TAB come from the first elements of lists, which the preview's parse has (a large answer is not parsed whole).
        if seenIDs != nil, exchange.response.status < 400,
           case let .success(start) = exchange.response.jsonPreview(keep: ReceivedResponse.previewParseBytes) {
            seenIDs?.learn(from: start.value, path: exchange.request.url.path)
        }
        if exchange.sessionExpired {
            // The refresh's own refusal says why (a rotated refresh token used twice), not the request's 401.
            let why = exchange.refreshRefusal.map { " (\($0))" } ?? ""
            return .exchange(exchange, note: "session expired\(why), please log in", view: view)
        }
        // A 401 whose refresh failed: said as the line's error, under the answer.
        if let refusal = exchange.refusal, note == nil { return .exchange(exchange, note: refusal, view: view) }
        // Drift from the catalog's model is said under the body, one line per problem.
        var lines = note.map { [$0] } ?? []
        if exchange.tokenWithheld { lines.append(session.scope.withheldNote(for: exchange.request.url)) }
        if exchange.headersWithheld { lines.append(session.scope.withheldNote(for: exchange.request.url, what: sessionCredentials)) }
        // Drift needs the whole body, and only where the catalog has a model for the answer.
        if (200..<300).contains(exchange.response.status) {
            if let endpoint = endpoint(method: exchange.request.method, path: session.catalogPath(of: exchange.request)),
               endpoint.response != nil, let body = exchange.response.json {
                let index = modelIndex ?? Drift.index(profile.models)
                modelIndex = index
                lines += profile.drift(of: endpoint, body: body, models: index).map { "drift: \($0)" }
            }
            if let errors = Self.graphQLErrors(in: exchange.response) { lines.append(errors) }
        }
        return .exchange(exchange, note: lines.isEmpty ? nil : lines.joined(separator: "\n"), view: view)
    }

    /// The request as the session would send it, with the token shown as a
    /// placeholder: tokens are never printed. A token the origin rule keeps
    /// back is said under the request, as it is when sending.
    private func offlineView(of request: PreparedRequest, isPublic: Bool? = nil, also certificateNote: String? = nil,
                             parts: PrintParts = [.requestHeaders, .requestBody]) async -> Outcome {
        // With the session headers it would carry. Every credential is hidden,
        // those typed on the line too, as -v hides them: HTTPie's --offline
        // prints them, but a screen (and a terminal's scrollback) is no place for them.
        var shown = await session.withSessionHeaders(request)
        // And the cookies it would carry (a CSRF-protected post sends its csrftoken), hidden below as -v hides them.
        if shown.header("Cookie") == nil, let cookie = await session.cookieHeader(for: request.url) { shown.setHeader("Cookie", cookie) }
        let headers = await session.sessionHeaders, query = await session.sessionQuery
        let carries = !headers.isEmpty || query != nil
        let sessionNote = carries && !session.scope.admits(request.url) ? session.scope.withheldNote(for: request.url, what: sessionCredentials) : nil
        let notes = [sessionNote, certificateNote].compactMap { $0 }
        let headersNote = notes.isEmpty ? nil : notes.joined(separator: "\n")
        for index in shown.headers.indices {
            shown.headers[index] = Redactor.redact(header: shown.headers[index], alsoSecret: profile.secretHeaders)
        }
        let rule = access(for: request)
        let placement = rule?.token ?? .bearer
        switch await session.tokenDecision(for: request, isPublic: isPublic ?? rule?.isPublic, token: placement) {
        case .none: return .offline(shown, note: headersNote, parts: parts)
        case .attached:
            shown.setHeader(placement.headerName, placement.headerValue("<access_token>"))
            return .offline(shown, note: headersNote, parts: parts)
        case .withheld:
            return .offline(shown, note: [session.scope.withheldNote(for: request.url), headersNote].compactMap { $0 }.joined(separator: "\n"), parts: parts)
        }
    }

    /// A client certificate of the session's (`defaults --cert`, explorer's
    /// own `--cert`) is the backend's credential: a request to another
    /// origin goes without it, and the line says so. One typed on the line
    /// goes where the line goes.
    private func withholdingSessionCertificate(from request: inout PreparedRequest, typed: RequestOptions) -> String? {
        guard typed.certificate == nil, defaults.certificate != nil, !session.scope.admits(request.url) else { return nil }
        request.tls = request.tls?.withoutCertificate
        // Plain http shows no certificate anyway.
        return request.url.scheme == "https" ? session.scope.withheldNote(for: request.url, what: "client certificate") : nil
    }

    struct SaveProblem: Error { let message: String }

    /// A socket opened as another user goes on as that user (to watch what this one does, as a chat's other
    /// side): said, as it went unsaid; by who opened it (after alice, bob and alice again, it was "still open as
    /// bob" of alice's socket).
    func socketOwnerNote(loggedInAs user: String?) async -> String? {
        guard let socket = sockets.socket, await socket.state != .closed, let owner = await socket.openedAs, owner != user else { return nil }
        return "the WebSocket is still open as \(owner) (ws close, then ws connect, opens it as \(user ?? "the new user"))"
    }

    /// `login bob` where a demo account is bob@example.com: the prompt names users by that, and the login was
    /// sent (asking the password first) to be refused as "incorrect email or password".
    static func notADemoEmail(_ typed: String, in profile: Profile) -> Outcome? {
        guard !typed.contains("@"), let account = profile.demoAccounts.first(where: { $0.email.lowercased().hasPrefix(typed.lowercased() + "@") })
        else { return nil }
        return .failure("\(typed) is not an email: did you mean login \(account.email)? (nothing sent)", .usage)
    }

    /// `base_url` and `profile` are the session's own: not a variable `set` or `capture` can change.
    private func fixedForTheSession(_ name: String) -> Outcome {
        .failure("'\(name)' is fixed for the session: start explorer with --\(name == "base_url" ? "base-url URL" : "profile NAME") to change it", .usage)
    }

    /// `capture`'s value kept as `{{name}}`; a secret one (by its source or
    /// the variable's name) hidden wherever variables are shown.
    private func captured(_ name: String, _ value: JSONValue, secret: Bool) -> Outcome {
        published.set(name, value.plainText)
        if case .string = value { capturedStrings.insert(name) } else { capturedStrings.remove(name) }
        let secret = secret || Redactor.isSecretName(name)
        if secret { secretVariables.insert(name) } else { secretVariables.remove(name) }
        // The session's from now on, as a typed secret is: hidden wherever an answer echoes it (the session controller
        // adds it to its copy, which the screen hides).
        if secret { _ = supplied.add([(name, value.plainText)]) }
        return .value(hidingCarried(value), secret: secret)
    }

    /// `value` from the last answer, the credentials its request carried hidden where it echoes them.
    private func hidingCarried(_ value: JSONValue) -> JSONValue {
        // A frame carried no request's credentials, but may echo a supplied secret.
        Self.hiding(lastFrame == nil ? lastCarried : supplied.shown, in: value,
                    secretNames: Set(SecretFields(profile.secretFields).paths.compactMap(\.last)))
    }

    /// `value` as `show` prints it: secret-named members hidden whole first,
    /// as the first display hides them, then the credentials `carried`
    /// wherever they stand. The other way round, an echo of `token=X` was
    /// hidden twice: `<hidden: 29 characters>` counted the placeholder.
    static func hiding(_ carried: [String], in value: JSONValue, secretNames: Set<String>) -> JSONValue {
        Redactor.hiding(credentials: carried, in: Redactor.redact(json: value, alsoSecret: secretNames, carried: carried))
    }

    /// Why `show .path` or `capture` has no JSON to read.
    private func notJSON(_ response: ReceivedResponse) -> Outcome {
        if lastFrame == nil, !response.isReadableWhole { return .failure(OutcomeText.tooLargeToRead(response), .usage) }
        // A 204, or a 200 whose JSON type came with no body: "not JSON" sent the reader looking for what it was.
        if lastFrame == nil, response.bodySize == 0 { return .failure("the last response has no body", .usage) }
        return .failure("the last response is not JSON", .usage)
    }

    /// A response's whole body written to `path`, byte for byte, to a new
    /// file of mode 0600 (an answer may hold tokens); an existing file is
    /// kept unless `force`. A spooled body is copied from its file.
    /// `forcing`: how the line that wrote it replaces a file (`save F --force`, or `-o`'s `--force`).
    static func write(_ response: ReceivedResponse, to path: String, force: Bool, in folder: OutputFolder = OutputFolder(),
                      forcing: String? = nil) -> Result<String, SaveProblem> {
        let written = if let spool = response.spool {
            write(to: path, force: force, in: folder, size: spool.size, forcing: forcing) { descriptor throws(SpoolError) in try spool.copy(to: descriptor) }
        } else {
            write(response.body, to: path, force: force, in: folder, forcing: forcing)
        }
        // A body in brotli said only "saved 144 B": the file held compressed bytes, unsaid.
        return written.map { line in response.undecodedEncoding.map { line + ", " + Self.undecodedNote($0, undecodable: response.undecodable) } ?? line }
    }

    /// How a body in an encoding explorer cannot undo is said where its bytes are written as they came.
    static func undecodedNote(_ encoding: String, undecodable: Bool = false) -> String {
        let said = Renderer.visible(encoding, keepingLines: false)
        return (undecodable ? "not the \(said) its Content-Encoding says" : "encoded as \(said), which explorer cannot decode") + ": the bytes as they came"
    }

    static func write(_ body: [UInt8], to path: String, force: Bool, in folder: OutputFolder = OutputFolder(),
                      forcing: String? = nil) -> Result<String, SaveProblem> {
        write(to: path, force: force, in: folder, size: body.count, forcing: forcing) { descriptor throws(SpoolError) in
            try SpooledBody.writeAll(descriptor, body[...])
        }
    }

    private static func write(to path: String, force: Bool, in folder: OutputFolder, size: Int, forcing: String?,
                              _ fill: (Int32) throws(SpoolError) -> Void) -> Result<String, SaveProblem> {
        let forcing = forcing ?? "save \(path) --force"
        if let taken = taken(path, force: force, in: folder, forcing: forcing) { return .failure(taken) }
        let file: OutputFile
        switch OutputFile.open(path, at: folder.place(path), replacing: force) {
        case let .success(opened): file = opened
        case .failure(.exists): return .failure(SaveProblem(message: "\(path) exists; \(forcing) replaces it"))
        case let .failure(.problem(line)): return .failure(SaveProblem(message: line))
        }
        do throws(SpoolError) { try fill(file.descriptor) } catch {
            // What was written of it is no file to keep (a full disk), and would stand in the way of the next try.
            file.discard()
            return .failure(SaveProblem(message: "cannot write \(path): \(error.reason); \(file.leftBehind())"))
        }
        if let problem = file.keep() { return .failure(SaveProblem(message: problem + "; " + file.leftBehind())) }
        return .success("saved \(Renderer.size(size)) to \(path)")
    }

    /// Why a body may not be written to `path`: a directory is there, or a
    /// file and no `--force`. `-o` asks before sending: a POST went out and
    /// its answer was thrown away for a name already taken.
    static func taken(_ path: String, force: Bool, in folder: OutputFolder, forcing: String) -> SaveProblem? {
        if let refused = folder.refusal(of: path) { return SaveProblem(message: refused) }
        var isDirectory: ObjCBool = false
        let placed = folder.place(path)
        var status = stat()
        guard lstat(placed, &status) == 0 else {
            // `-o nodir/x.json`: a POST went out, then its answer had nowhere to go.
            let parent = PathText.folder(of: placed)
            var parentIsFolder: ObjCBool = false
            guard parent.isEmpty || FileManager.default.fileExists(atPath: parent, isDirectory: &parentIsFolder) && parentIsFolder.boolValue else {
                return SaveProblem(message: "cannot write \(path): no folder \(PathText.folder(of: path))")
            }
            // A folder that cannot be written to was found after the POST had acted.
            guard Glibc.access(parent.isEmpty ? "." : parent, W_OK) == 0 else {
                return SaveProblem(message: "cannot write \(path): \(String(cString: strerror(errno)))")
            }
            return nil
        }
        if FileManager.default.fileExists(atPath: placed, isDirectory: &isDirectory), isDirectory.boolValue {
            return SaveProblem(message: "\(path) is a directory")
        }
        // `-o /dev/null`, `/dev/stdout`, a named pipe: written as they are, nothing replaced.
        if OutputFile.isWrittenAsItIs(placed, status) { return nil }
        guard force else { return SaveProblem(message: "\(path) exists; \(forcing) replaces it") }
        // A link is not written through, nor replaced by a file: the file it names is meant, so that is asked for.
        return status.st_mode & S_IFMT == S_IFLNK ? SaveProblem(message: OutputFile.symbolicLink(path)) : nil
    }

    /// A relative URL an answer gave (a `Location: /api/v1/items/49`) as a
    /// line sends it: read against the request it answered, then as a path
    /// under the base URL when it is one (`/items/49` under …/api/v1), else
    /// whole. Kept as it came, `get {{loc}}` went to /api/v1/api/v1/items/49.
    private func sendable(_ reference: String) -> String {
        guard !reference.contains("://"), let from = lastRequest?.url,
              let absolute = URL(string: reference, relativeTo: from)?.absoluteURL.absoluteString else { return reference }
        var base = session.builder.baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        return absolute.hasPrefix(base + "/") ? String(absolute.dropFirst(base.count)) : absolute
    }

    /// What a request to another origin goes without, in a few words.
    private var sessionCredentials: String {
        profile.secretParameters.isEmpty ? "session headers" : "session credentials (the \(profile.secretParameters.joined(separator: ", ")) parameter)"
    }

    /// Where a body goes as it arrives, if anywhere: a `--download` file, or
    /// the rows of a streamed answer, to the REPL's screen or a script's output.
    private func takeBodyAsItComes(_ request: inout PreparedRequest, options: RequestOptions, follows: Bool) -> (StreamLines?, Download?) {
        if options.download {
            // The file gets the bytes as sent, of any size, as HTTPie's --download
            // asks: a gzip body would have to be decoded whole in memory first.
            if request.header("Accept-Encoding") == RequestBuilder.acceptEncoding { request.setHeader("Accept-Encoding", "identity") }
            // At a terminal the progress line is redrawn on standard error, a one-shot `get URL -d`'s too (it
            // was the REPL's alone); not where TERM says the terminal cannot redraw a line, nor in a replay.
            let redraws = Surroundings.current.errorIsTerminal && (Surroundings.current.environment["TERM"] ?? "dumb") != "dumb"
                && outputs.path == nil
            let progress: (@Sendable (String) -> Void)? = redraws ? Self.writeToStandardError : nil
            let file = Download(chosen: options.output, replaces: options.force, url: request.url, progress: progress, folder: outputs,
                                columns: { Surroundings.terminalColumns(of: STDERR_FILENO) ?? 80 })
            request.stream = StreamSink(download: { file.write($1) }, head: { file.begin(status: $0.status, headers: $0.headers) })
            return (nil, file)
        }
        let shown: (@Sendable (String) -> Void)? = sockets.listener.map { listener in { @Sendable in listener(SocketNotice(time: Date(), kind: .streamed, text: $0)) } }
            ?? streamedRows
        guard let shown, options.output == nil else { return (nil, nil) }
        // `-h`, `-p h`: the rows are not asked for (they were shown all the same); the stream still goes as one.
        let asked = (options.print ?? PrintParts.standard(for: request.method)).contains(.responseBody)
        let lines = StreamLines(post: asked ? shown : Self.unshown)
        // What the rows must not show is known at the head: the jar's cookies and the session's
        // token are added as the request goes, and the answer may set a cookie it then echoes.
        let typed = request
        let secretHeaders = profile.secretHeaders, secretParameters = profile.secretParameters, secretFields = profile.secretFields
        // `-v`: the request goes above the rows, as it went out (it was printed after them). Not when redirects
        // are followed: the hops are known at the end only, and the line typed is not the request that streamed.
        let requestParts = follows ? [] : (options.print ?? PrintParts.standard(for: request.method)).intersection([.requestHeaders, .requestBody])
        let listener = sockets.listener
        let requestAbove: (@Sendable (PreparedRequest) -> Void)? = requestParts.isEmpty ? nil : streamedRequest.flatMap { shown in
            let out: (@Sendable (String) -> Void)? = listener.map { listener in { @Sendable in listener(SocketNotice(time: Date(), kind: .shown, text: $0)) } } ?? shown.out
            return out.map { out in { @Sendable request in out(shown.text(request, requestParts) + "\n") } }
        }
        let begin: @Sendable (StreamHead) -> Void = { head in
            var sent = typed
            sent.headers = head.sentHeaders
            if let requestAbove {
                lines.shownRequest()
                requestAbove(sent)
            }
            let carried = Renderer.credentials(of: sent, secretHeaders: secretHeaders, secretParameters: secretParameters,
                                               secretNames: Set(SecretFields(secretFields).paths.compactMap(\.last)))
            lines.begin(status: head.status, headers: head.headers, hiding: carried + Renderer.cookiesSet(in: head.headers))
        }
        // A script whose reader went away (`| head -3`) stops reading a stream that may never end.
        request.stream = StreamSink({ lines.feed(contentType: $0, $1) }, head: begin, goesOn: { !Console.outputFailed })
        return (lines, nil)
    }

    /// Where a stream's rows go when the line does not ask for the body (`-h`).
    private static let unshown: @Sendable (String) -> Void = { _ in }

    /// A streamed answer's rows were shown as they came: not again under the
    /// status line (`show` has it whole). Said under what else is shown; with
    /// the body alone (`-b`), the rows are all (`-b | jq` reads them).
    private static func settle(_ stream: StreamLines, view: inout PrintParts) -> [String] {
        stream.finish()
        // The request was shown above the rows, as it went.
        if stream.requestShown { view.subtract([.requestHeaders, .requestBody]) }
        guard stream.shown > 0, view.contains(.responseBody) else { return [] }
        view.remove(.responseBody)
        return view.isEmpty ? [] : [streamedNote(stream.shown)]
    }

    /// How a body shown as it came is said: on screen or in a script's
    /// output, not recorded (a replay shows the body whole and says nothing).
    static func streamedNote(_ count: Int) -> String { "\(count) \(count == 1 ? "line" : "lines") streamed above" }

    static func isStreamedNote(_ line: String) -> Bool {
        guard let count = Int(line.prefix { $0.isNumber }) else { return false }
        return line == streamedNote(count)
    }

    /// What a 401 to a session that never logged in is told: a hint for the
    /// person at the screen, not recorded (a suite recorded before it was
    /// said would differ by it).
    static let notLoggedIn = "not logged in: login EMAIL, then send it again"

    /// Notes said on screen and left out of recordings.
    static func isScreenOnlyNote(_ line: String) -> Bool {
        line == notLoggedIn || isStreamedNote(line)
            || [catalogHintStart, noLoginStart, stillLoggedInStart, graphQLErrorsStart].contains { line.hasPrefix($0) }
    }

    /// A GraphQL answer's errors under a 200 (`{"data": null, "errors": [{"message": …}]}`): the status says
    /// all went well, and the one clue was at the body's end. Said on screen (its body is recorded).
    static let graphQLErrorsStart = "the answer holds GraphQL errors: "

    static func graphQLErrors(in response: ReceivedResponse) -> String? {
        guard response.spool == nil, let body = response.json, case let .array(errors)? = body["errors"], !errors.isEmpty else { return nil }
        // Beside its data; or, a request that failed whole (a syntax error), without it, its errors in
        // GraphQL's shape (`locations`, `path`, `extensions`): a 200 that said nothing at all.
        let shaped = errors.contains { $0["locations"] != nil || $0["path"] != nil || $0["extensions"] != nil }
        guard body["data"] != nil || shaped else { return nil }
        let messages = errors.compactMap { $0["message"]?.stringValue }.map { Redactor.hidingCredentials(inText: $0) }
        guard let first = messages.first else { return nil }
        let shown = first.count > 200 ? first.prefix(200) + "…" : first
        return graphQLErrorsStart + shown + (errors.count > 1 ? " (and \(errors.count - 1) more)" : "")
    }

    /// What a refused login is told, on screen only (a replay may start with
    /// another login kept): the login before it stands; a 404 is the profile's path.
    static let stillLoggedInStart = "still logged in as "
    static let noLoginStart = "no login at "

    /// How a hint from the catalog under a 404 begins: said on screen, not
    /// recorded (a transcript from before it would differ by it).
    static let catalogHintStart = "the catalog has "


    /// A download's line: saved, or why not, and whether it failed to save
    /// a body it should have (a 404 is not one). A body that came encoded
    /// (gzip) came whole and decoded, and is written now, named the same way.
    private static func settle(_ download: Download, exchange: Exchange, chosen: String?, view: inout PrintParts,
                               folder: OutputFolder) -> (line: String?, failed: Bool) {
        if download.path != nil || download.problem != nil {
            view.remove(.responseBody)
            return (download.finish(complete: true), download.problem != nil)
        }
        guard (200..<300).contains(exchange.response.status) else { return ("not saved: the answer was \(exchange.response.status)", false) }
        view.remove(.responseBody)
        let name = chosen ?? Download.freeName(Download.name(headers: exchange.response.headers, url: exchange.request.url), in: folder)
        switch write(exchange.response, to: name, force: false, in: folder) {
        case let .success(line): return (line, false)
        case let .failure(problem): return ("not saved: \(problem.message)", true)
        }
    }

    /// A progress line, redrawn in place on standard error.
    @Sendable static func writeToStandardError(_ text: String) {
        Console().err(text)
    }

    /// A next link as a URL to ask: absolute by its scheme, in any case
    /// (`HTTP://…` went as a path), else joined to the page it came from
    /// (one with `://` in its query, `/r?to=http://a`, was not joined).
    static func linkTarget(_ link: String, from page: URL) -> String {
        if let scheme = URL(string: link)?.scheme, ["http", "https"].contains(scheme.lowercased()) { return URLCheck.lowercasingScheme(link) }
        return URL(string: link, relativeTo: page)?.absoluteString ?? link
    }

    /// The list line's items a page its answer links to is asked with: its
    /// headers and the query items the link does not name (a gateway's API
    /// key: page 2 went without it, and got a 401), where the link stays on
    /// the list's origin; another origin gets none of them.
    static func keptForLink(_ items: [RequestItem], to target: String, from list: URL) -> [RequestItem] {
        guard let url = URL(string: target), let origin = Origin(url), origin == Origin(list) else { return [] }
        let named = Set(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? [])
        return items.filter { item in
            switch item {
            case .header, .headerFromFile: true
            case let .query(name, _), let .queryFromFile(name, _): !named.contains(name)
            default: false
            }
        }
    }

    /// `next`: the page after the last GET's answer (Paging says how to ask for it).
    private func nextPage(print: PrintParts?) async throws -> Outcome {
        guard let last = lastList, let response = lastListResponse else {
            // An example from this backend's own catalog, when it has a list to get.
            let example = profile.endpoints.filter { $0.method == "GET" && $0.pathParameters.isEmpty && ($0.responseIsList || $0.query.contains("page") || $0.query.contains("cursor")) }
                .min { $0.path.count < $1.path.count }
            return .failure("next follows a list: GET one first" + (example.map { " (get \($0.path))" } ?? ""), .usage)
        }
        guard (200..<300).contains(response.status) else { return .failure("the last answer was \(response.status): no page to go on from", .usage) }
        // A server that does not read the offset (or the page) answers each `next` with the same page: about fifty
        // identical requests went out before the total was reached.
        if last.previousPages.contains(Paging.Last.digest(response)) {
            return .message("no next page: this page has the items of one before it (the server did not move on)")
        }
        var request = PreparedRequest(method: "GET", url: session.builder.baseURL)
        if let built = try? builder.build(method: "GET", path: last.path, items: last.items) { request = built }
        let query = endpoint(method: "GET", path: session.catalogPath(of: request))?.query ?? []
        // `next -b` shows this page so; the list's own options stay for the next `next`.
        var options = last.options
        if let print { options.print = print }
        let (path, items): (String, [RequestItem])
        switch Paging.next(after: last, response: response, endpointQuery: query, declared: profile.pagination) {
        case let .end(reason): return .message(reason)
        case let .request(nextPath, nextItems): (path, items) = (nextPath, nextItems)
        case let .url(url):
            // A relative link is relative to the page it came from, as a browser reads it: `/api/v1/items?page=2`
            // joined to a base URL ending in /api/v1 went to /api/v1/api/v1/items.
            let target = Self.linkTarget(url, from: request.url)
            (path, items) = (target, Self.keptForLink(last.items, to: target, from: request.url))
        }
        // A page this list has shown already (a cursor that comes back, a Link to itself): `next` in a loop went
        // round for ever, page after page the same. A page is its URL and its Range of items (PostgREST's pages
        // share one URL).
        func page(_ request: PreparedRequest) -> String { request.url.absoluteString + (request.header("Range").map { " " + $0 } ?? "") }
        let fetched = last.fetched + [page(request)]
        if let next = try? builder.build(method: "GET", path: path, items: items), fetched.contains(page(next)) {
            let shown = Redactor.hidingSecretsInTarget(Redactor.hidingCredentials(inText: next.url.absoluteString), hide: Redactor.hidden)
            return .message("no next page: the answer's next is \(shown), a page this list has fetched already (its pages loop)")
        }
        let outcome = try await run(.http(method: "GET", path: path, items: items, options: options))
        if response.headers.contains(where: { $0.hasName("Link") }) { lastList?.linked = true }
        lastList?.options.print = last.options.print
        lastList?.fetched = fetched
        lastList?.previousPages = last.previousPages.union([Paging.Last.digest(response)])
        return outcome
    }

    /// `--curl`: the request as a curl command, the token and secret-named
    /// items as shell variables; nothing is sent.
    private func curlView(method: String, path: String, items: [RequestItem], options: RequestOptions, typed: RequestOptions) async throws -> Outcome {
        // The supplied secrets, and the variables holding a credential (`set f=user=a&password=X`, which vars and
        // history hide): a variable each (`{{f}}` was printed in clear).
        let held = supplied.named + allVariables.sorted { $0.key < $1.key }.compactMap { name, value in
            (secretVariables.contains(name) || Redactor.holdsCredential(value) || Redactor.looksLikeCredential(value)) && value.count >= 3
                && !supplied.named.contains { $0.value == value }
                ? SuppliedSecrets.Secret(name: name, value: value) : nil
        }
        // A query typed in the path: its secret pairs as variables, a URL's in a value too (`?next=/cb%3Ftoken%3DX`).
        let path = Redactor.hidingServiceTokens(in: Redactor.redactQuery(in: path, hide: CurlCommand.placeholder) ?? path) {
            CurlCommand.placeholder("service_key", for: $0)
        }
        var request = try builder.build(method: method, path: CurlCommand.hiding(held, in: path),
                                                items: CurlCommand.hidingSecrets(items, supplied: held), form: options.form,
                                                multipart: options.multipart,
                                                raw: options.raw.map { CurlCommand.hiding(held, in: Redactor.redactBody($0, hidingValue: CurlCommand.placeholder(_:for:))) },
                                                json: options.json)
        // A JSON body's secret-named members, at any depth, as shell variables: a field read from a file
        // (`creds:=@creds.json`) printed the file's password, where the same JSON typed was hidden.
        if request.header("Content-Type")?.lowercased().contains("json") == true, let body = request.body,
           let text = String(validating: body, as: UTF8.self) {
            request.body = Array(Redactor.redactBody(text, hidingValue: CurlCommand.placeholder(_:for:)).utf8)
        }
        // A service's key wherever it stands in the URL or the body (`note=sk_live_…`, `--raw 'ghp_…'`), not under a secret's name.
        func hidingKeys(_ text: String) -> String { Redactor.hidingServiceTokens(in: text) { CurlCommand.placeholder("service_key", for: $0) } }
        if let body = request.body, let text = String(validating: body, as: UTF8.self) { request.body = Array(hidingKeys(text).utf8) }
        if let url = URL(string: hidingKeys(request.url.absoluteString)) { request.url = url }
        let typedCount = request.headers.count
        let typedURL = request.url
        request = await session.withSessionHeaders(request)
        if request.url != typedURL, let (name, value) = await session.sessionQuery,
           var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) {
            // The profile's query credential, as a shell variable like the token.
            components.queryItems = components.queryItems?.map { $0.name == name && $0.value == value ? URLQueryItem(name: name, value: CurlCommand.placeholder(name)) : $0 }
            if let url = components.url { request.url = url }
        }
        // Whether the session's token goes, decided on the request as it is sent: a typed `-a user:pw` is taken
        // off as curl's `-u` below, and the token was then added beside it (curl sent the Bearer header, not -u's).
        let rule = access(for: request)
        let placement = rule?.token ?? .bearer
        let decision = await session.tokenDecision(for: request, isPublic: rule?.isPublic, token: placement)
        // Basic credentials (typed, `auth basic`, a URL's `user:password@`) go as curl's `-u 'bob:'"$PASSWORD"`:
        // the user kept, the password a variable (`render` takes them from the URL).
        if let index = request.headers.firstIndex(where: { $0.hasName("Authorization") }),
           let credentials = BasicCredentials(authorization: request.headers[index].value),
           var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) {
            func variable(for value: String, _ name: String) -> String {
                // One already a variable (a typed `-a bob:PW`'s, made one with the items) stays it: wrapped again,
                // the same password became a second variable.
                if value.contains("⟦") { return value }
                return CurlCommand.placeholder(held.first { $0.value == value }?.name ?? name, for: value)
            }
            // An empty password (`-a 'sk_test_KEY:'`, `http://TOKEN@host`) makes the user a token: `-u "$TOKEN"':'`.
            let tokenAsUser = credentials.password.isEmpty && !credentials.user.contains("⟦")
            components.user = tokenAsUser ? variable(for: credentials.user, "token") : credentials.user
            components.password = credentials.password.isEmpty ? "" : variable(for: credentials.password, "password")
            if let url = components.url {
                request.url = url
                request.headers.remove(at: index)
            }
        }
        // The session's secret headers.
        for index in request.headers.indices where index >= typedCount || !request.headers[index].value.contains("⟦") {
            let header = request.headers[index]
            if let written = profileWritten(header) {
                request.headers[index].value = written
            } else if Redactor.redact(header: header, alsoSecret: profile.secretHeaders) != header {
                // `auth bearer {{secret:tok}}` is `Bearer "$TOK"`, the name the user gave it; the token whole otherwise (a
                // shorter secret found inside it, `X-Api-Key:Bearer` or a PIN's digits, stood for part and printed the rest).
                request.headers[index].value = CurlCommand.credential(header.value, supplied: held)
                    ?? CurlCommand.hidingCredential(named: header.name, header.value)
            } else if index >= typedCount {
                // A session header no name makes secret, holding one (`header X-Foo:'a-{{secret:token}}-b'`): the
                // command held the token, and the screen's hiding put `<hidden: 16 characters>` in it.
                request.headers[index].value = CurlCommand.hiding(held.filter { $0.value.count >= 8 }, in: header.value)
            }
        }
        // The session's cookies go as the request would carry them, each value a shell variable of its name (`sid='"$SID"'`).
        if request.header("Cookie") == nil, let jar = await session.cookieHeader(for: request.url) {
            request.setHeader("Cookie", jar.split(separator: ";").map { pair in
                let cookie = pair.trimmingBlanks()
                return cookie.firstIndex(of: "=").map {
                    cookie[..<$0] + "=" + CurlCommand.placeholder(String(cookie[..<$0]), for: String(cookie[cookie.index(after: $0)...]))
                } ?? cookie
            }.joined(separator: "; "))
        }
        request.tls = options.tls
        request.timeout = options.timeoutDuration
        var notes = withholdingSessionCertificate(from: &request, typed: typed).map { [$0] } ?? []
        switch decision {
        case .none: break
        case .attached: request.setHeader(placement.headerName, placement.headerValue(CurlCommand.placeholder("access_token")))
        case .withheld: notes.insert(session.scope.withheldNote(for: request.url), at: 0)
        }
        // `--download` follows redirects, as the line itself does.
        let follow = options.follow ?? options.download ? options.maxRedirects ?? RedirectPolicy().maximum : nil
        if follow != nil, request.tls?.certificate != nil {
            // Explorer drops it where a redirect leaves the origin; curl cannot be told to.
            notes.append("with -L curl shows the client certificate to every host a redirect leads to")
        }
        if follow != nil, !["GET", "HEAD"].contains(request.method), request.method != "POST" || request.body == nil {
            // curl's -X holds for every hop (`render` leaves it out only for a POST with a body).
            notes.append("with -X and -L curl sends \(request.method) again after a 303 (explorer follows with GET), "
                         + "and without its body after a 301 or 302 (explorer sends it again)")
        }
        let saving: CurlCommand.Saving? = options.output.map { .file($0) } ?? (options.download ? .remoteName : nil)
        let multipart = request.header("Content-Type")?.lowercased().hasPrefix("multipart/form-data") == true
        let bodyFile = items.lazy.compactMap { item -> String? in if case let .file("", path, _) = item { path } else { nil } }.first
        return .curl(request, follow: follow, form: multipart ? CurlCommand.FormPart.parts(of: CurlCommand.hidingSecrets(items, supplied: held)) : nil,
                     bodyFile: bodyFile, saving: saving, removed: Self.removedForCurl(request, multipart: multipart),
                     note: notes.isEmpty ? nil : notes.joined(separator: "\n"))
    }

    /// The headers a line removed that curl would send of its own: its User-Agent and Accept, and the
    /// form type it gives a body (`post /x a=1 Content-Type:` went without one, curl's run with it).
    static func removedForCurl(_ request: PreparedRequest, multipart: Bool) -> [String] {
        let body = !(request.body ?? []).isEmpty && !multipart
        return ["User-Agent", "Accept"].filter { request.header($0) == nil } + (body && request.header("Content-Type") == nil ? ["Content-Type"] : [])
    }

    /// Whether a JSON path ends at a secret: a secret-named member
    /// (`.tokens.access_token`) or one of the profile's secret fields, by the
    /// rule a recording hides them with (`SecretFields`).
    private func isSecret(_ path: JSONPath) -> Bool {
        let keys = path.components.compactMap { if case let .key(name) = $0 { name } else { nil } }
        guard let last = keys.last else { return false }
        return Redactor.isSecretName(last) || SecretFields(profile.secretFields).contains(keys)
    }

    /// A variable's value as `vars` prints it: a secret's (by its name, or a
    /// value shaped like a token or a credentials header) as its length only,
    /// as history and transcripts hide it.
    static func shown(variable name: String, _ value: String) -> String {
        guard !value.isEmpty else { return value }
        if Redactor.isSecretName(name) || Redactor.looksLikeCredential(value) { return Redactor.hidden(value) }
        // A path or URL holding a credential (`/a?token=X`, `http://bob:PW@h/`, a captured Location with `?key=`),
        // and what else a text holds (a fragment's `#access_token=`, JSON in a string, `client-secret=X`).
        return Redactor.hidingCredentials(inText: Redactor.hidingSecretsInTarget(value, hide: Redactor.hidden))
    }

    /// With a loaded spec, its security decides whether a request is public
    /// and where the token goes: the matching operation's, else the
    /// document's. Nil without a spec: the profile's public list decides.
    private func access(for request: PreparedRequest) -> (isPublic: Bool, token: TokenPlacement)? {
        guard let spec else { return nil }
        let path = session.catalogPath(of: request)
        if let endpoint = endpoint(method: request.method, path: path) { return (endpoint.isPublic, endpoint.token) }
        return (spec.defaultAccess.isPublic, spec.defaultAccess.token)
    }

    /// `describe [METHOD] PATH` (a template or a concrete path) or `describe MODEL`.
    private func describe(_ name: String) -> Outcome {
        let words = name.split(separator: " ").map(String.init)
        if let path = words.last, path.hasPrefix("/") {
            let method = words.count > 1 ? words[0].uppercased() : nil
            let found = profile.endpoints.filter { e in
                (method == nil || e.method == method) && (e.path == path || e.matches(path: path))
            }
            guard !found.isEmpty else {
                // `describe POST /tasks` where the catalog has the path under other methods.
                let others = profile.endpoints.filter { $0.path == path || $0.matches(path: path) }
                if let first = others.first {
                    return .failure("no endpoint \(name); the catalog has \(others.map(\.method).joined(separator: ", ")) \(first.path)", .usage)
                }
                let near = Self.nearest(to: path, in: profile.endpoints.filter { method == nil || $0.method == method }.map(\.path))
                return .failure("no endpoint \(name)" + (near.map { "; did you mean \($0)?" } ?? " (endpoints lists them)"), .usage)
            }
            return .endpointDetails(found, in: profile)
        }
        guard let model = profile.model(named: name) else {
            if let (enumName, values) = enumeration(named: name) { return .message("\(enumName): one of " + values.joined(separator: ", ")) }
            let models = profile.models.map(\.name)
            // `describe Tsk`: a typo was answered with every model's name, and none of the enums describe takes too.
            if let near = Self.nearest(to: name, in: models + enumerationNames) {
                return .failure("no endpoint or model '\(CommandError.quotable(name))'; did you mean \(near)?", .usage)
            }
            return .failure("no endpoint or model '\(CommandError.quotable(name))'" + (models.isEmpty ? " (the catalog has no models)" : "; models: " + models.joined(separator: ", ")), .usage)
        }
        return .model(model)
    }

    /// What the catalog has near a method and path it does not: the same
    /// path under other methods (`patch` where it has PUT), else the path
    /// of that method nearest a typo (`/api/taks`), its `{id}`s filled in as typed.
    private func catalogHint(method: String, path: String) -> String? {
        let typed = Endpoint.segments(of: path)
        let others = profile.endpoints.filter { $0.method != method && $0.matches(segments: typed) }
        if let first = others.first {
            return Self.catalogHintStart + "\(others.map(\.method).joined(separator: ", ")) \(first.path), not \(method)"
        }
        let filled = profile.endpoints.filter { $0.method == method }.map { endpoint -> String in
            let template = Endpoint.segments(of: endpoint.path)
            guard template.count == typed.count else { return endpoint.path }
            return "/" + zip(template, typed).map { Endpoint.isParameter($0) ? String($1) : String($0) }.joined(separator: "/")
        }
        guard let near = Self.nearest(to: path, in: filled), near != path else { return nil }
        return Self.catalogHintStart + "no \(method) \(path); did you mean \(near)?"
    }

    /// The name a typo most likely meant (case aside), if one is near enough for its length.
    private static func nearest(to typed: String, in names: [String]) -> String? {
        Core.nearest(to: typed, in: names, ignoringCase: true) { distance, _ in distance <= max(1, min(3, typed.count / 3)) }
    }

    /// The catalog's enums by name: declared, or written in place in a field.
    private var enumerationNames: [String] {
        func names(_ type: FieldType) -> [String] {
            switch type {
            case let .enumeration(name, _): [name]
            case let .array(element): names(element)
            default: []
            }
        }
        var seen = Set<String>()
        return (profile.enums.keys.sorted() + profile.models.flatMap(\.fields).flatMap { names($0.type) }).filter { seen.insert($0).inserted }
    }

    /// An enum of the catalog by name, case-insensitively: declared, or written in place in a field.
    private func enumeration(named name: String) -> (String, [String])? {
        let lower = name.lowercased()
        if let declared = profile.enums.first(where: { $0.key.lowercased() == lower }) { return (declared.key, declared.value) }
        func find(_ type: FieldType) -> (String, [String])? {
            switch type {
            case let .enumeration(found, values) where found.lowercased() == lower: return (found, values)
            case let .array(element): return find(element)
            default: return nil
            }
        }
        return profile.models.lazy.flatMap(\.fields).compactMap { find($0.type) }.first
    }

    private func help(_ topic: String?) -> Outcome {
        if let topic {
            guard let info = table.spec(named: topic) else {
                var message = "no help for '\(CommandError.quotable(topic))'"
                if let near = table.closest(to: topic) { message += "; did you mean '\(near)'?" }
                // As an unknown command says: where the list is.
                return .failure(message + " (type help for the list)", .usage)
            }
            return .commandHelp(info)
        }
        return .help(table.specs)
    }
}

/// The interpreter's variables behind a lock: the user's, and all of them
/// (the built-ins under the user's), both kept up to date one change at a
/// time, so reading either is a reference, not a merge. A reader that keeps
/// what it read while a variable changes makes that change copy.
final class VariableSnapshot: @unchecked Sendable {
    private let lock = NSLock()
    private let builtIns: [String: String]
    private var userValues: [String: String] = [:]
    private var allValues: [String: String]

    init(builtIns: [String: String] = [:]) {
        self.builtIns = builtIns
        allValues = builtIns
    }

    var user: [String: String] { lock.withLock { userValues } }
    var all: [String: String] { lock.withLock { allValues } }

    func set(_ name: String, _ value: String) {
        lock.withLock {
            userValues[name] = value
            allValues[name] = value
        }
    }

    /// Whether the user had set `name`; a built-in it hid shows again.
    func remove(_ name: String) -> Bool {
        lock.withLock {
            guard userValues.removeValue(forKey: name) != nil else { return false }
            allValues[name] = builtIns[name]
            return true
        }
    }
}
