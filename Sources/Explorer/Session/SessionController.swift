import Core
import Foundation
import Sandbox

/// One session's lines, one `step` at a time: parse (with the caret for
/// an error), secrets, `--offline`, asking for login details, running the
/// command on the interpreter, showing its outcome and recording it. It owns
/// the recording, `replay` and tours too, and talks only to its `Terminal`:
/// the REPL, `-c`, pipes, `explorer run` and the tests are loops over `step`.
final class SessionController {
    /// The session's interpreter; another after `env NAME`.
    private(set) var interpreter: Interpreter
    private(set) var renderer: Renderer {
        didSet { frameRenderer.set(renderer) }
    }
    /// The renderer frames shown above the prompt are printed with: the
    /// session's as it is now, read on the socket's thread (a copy taken when
    /// the listener was set missed secrets supplied and headers made secret later).
    private let frameRenderer: Shared<Renderer>
    let terminal: any Terminal
    let offline: Bool
    /// What a recording's header names as its backend (another after `env NAME`).
    var target: TranscriptHeader.Target
    private(set) var recorder: TranscriptRecorder?
    /// A recording stopped for a failed write (a full disk): a script's
    /// exit status says so (it was 0, and a CI job went green on a
    /// transcript cut short).
    private(set) var recordingFailed = false
    /// Variables a `replay FILE` or tour run bound (its captures, its `set`
    /// steps) and nothing typed since: a recording started later leaves them
    /// out of its header, since they hold that run's ids and invented secrets,
    /// not anything a replay of the recording could start from.
    var replayBound: Set<String> = []
    /// The profile file in use, for a recording's header: the file, whether
    /// it was named by path (then the header names it relative to the
    /// transcript) or by name, and the environment when not the default.
    var profileFile: (path: String, name: String, byPath: Bool, environment: String?, secrets: [String: String], spec: String?)?
    /// Moves the session to another environment of its profile file (`env`); nil without one.
    var environments: EnvironmentSwitcher?
    /// `--stop-on-error`: the first line of a script (a file, `-c` lines, a pipe) that fails ends it.
    var stopsOnError = false
    /// Where `{{secret:NAME}}` in a typed line looks first (`EXPLORER_SECRET_NAME`).
    var environment: [String: String] = Surroundings.current.environment

    init(interpreter: Interpreter, renderer: Renderer, terminal: any Terminal, offline: Bool, target: TranscriptHeader.Target) {
        self.interpreter = interpreter
        self.renderer = renderer
        frameRenderer = Shared(renderer)
        self.terminal = terminal
        self.offline = offline
        self.target = target
        writeStreamedRows()
        if !terminal.isInteractive { listenToSockets() }
    }

    /// A script's streamed answers (`-c 'get /events'`) are written row by
    /// row as they come, as the REPL shows them above the prompt: a stream
    /// that never ends, or breaks, has shown what came (it showed nothing
    /// until the end).
    private func writeStreamedRows() {
        let out = terminal.streamedOutput()
        runBlocking { [interpreter, frameRenderer] in
            if let out { await interpreter.setStreamedRows { out(frameRenderer.value.streamedRow($0)) } }
            await interpreter.setStreamedRequest({ frameRenderer.value.sent($0, $1) }, out: out)
        }
    }

    /// What a line did: its exit status, and whether it ended the session
    /// (`exit`, or an output that can no longer be written: the reader of a
    /// pipe went away, the disk is full, and the lines after it would run unseen).
    struct Step: Equatable {
        var status: ExitStatus
        var exit = Console.outputFailed
    }

    /// Runs one line. `location` (`file:3`) prefixes its errors in a script;
    /// `promptWidth` puts a parse error's caret under the typed line.
    func step(_ line: String, location: String? = nil, promptWidth: Int? = 0) -> Step {
        switch prepare(line, location: location, promptWidth: promptWidth) {
        case let .done(status): return Step(status: status)
        case let .execute(command, forcedOffline):
            // A Ctrl-C from before this line (pressed as the last one's short answer printed) is not this line's.
            _ = interrupts?()
            // Whether Ctrl-C stopped the line: the terminal echoed `^C` where the cursor was.
            let pressed = interrupts.map { take in { [self] in let n = take(); if n > 0 { interruptedLine = true }; return n } }
            let outcome = runBlocking(on: interpreter, interrupts: pressed) { [command] interpreter in
                await interpreter.execute(command)
            }
            return finish(line, command, outcome, forcedOffline: forcedOffline, location: location)
        }
    }

    /// Ctrl-C was pressed while the line ran (what it shows goes under the `^C`).
    private var interruptedLine = false

    /// Ctrl-C presses, where a person can press it.
    var interrupts: (() -> Int)? {
        terminal.isInteractive ? { [terminal] in terminal.takeInterrupts() } : nil
    }

    /// Where `column` of `filledLine`, the line with its `{{secret:NAME}}` filled in, is in the line as typed:
    /// one inside a filled secret is its placeholder's start. A line filled word by word was joined again with
    /// its words quoted only where they need it (`X-A:"{{secret:k}}"` lost its quotes), so the column is found
    /// in its word, and that word's character in the typed line.
    static func typedColumn(_ column: Int, in typed: String, filledLine: String, filled fills: [(name: String, value: String)]) -> Int {
        guard !fills.isEmpty, let typedWords = try? LineTokenizer.split(typed), let filledWords = try? LineTokenizer.split(filledLine),
              typedWords.count == filledWords.count,
              let index = filledWords.lastIndex(where: { $0.start <= column }) else {
            return typedColumn(column, in: typed, filled: fills)
        }
        let (word, typedWord) = (filledWords[index], typedWords[index])
        let end = word.column(at: word.text.count)
        guard column < end else { return typedWord.column(at: typedWord.text.count) + (column - end) }
        let offset = (0..<word.text.count).first { word.column(at: $0) >= column } ?? word.text.count
        return typedWord.column(at: typedColumn(offset, in: typedWord.text, filled: fills))
    }

    /// Where `column` of `typed` with its `{{secret:NAME}}` filled in place is in `typed`.
    static func typedColumn(_ column: Int, in typed: String, filled fills: [(name: String, value: String)]) -> Int {
        var typedAt = 0, filledAt = 0
        var rest = Substring(typed)
        while let open = rest.range(of: "{{secret:"), let close = rest[open.upperBound...].range(of: "}}") {
            let before = rest.distance(from: rest.startIndex, to: open.lowerBound)
            if column < filledAt + before { break }
            typedAt += before
            filledAt += before
            let placeholder = rest.distance(from: open.lowerBound, to: close.upperBound)
            let name = String(rest[open.upperBound..<close.lowerBound])
            let value = fills.first { $0.name == name }?.value.count ?? placeholder
            if column < filledAt + value { return typedAt }
            typedAt += placeholder
            filledAt += value
            rest = rest[close.upperBound...]
        }
        return typedAt + (column - filledAt)
    }

    /// A line made ready for the interpreter, or run already.
    private enum Prepared {
        case done(ExitStatus)
        case execute(Command, forcedOffline: Bool)
    }

    /// Everything about a line before the interpreter runs it: parse errors,
    /// `record` and transcript commands (run here, on the calling thread),
    /// comments, `--offline`, and asking for login details in the REPL.
    /// `promptWidth`: the columns before the line on its row; nil where the line is not on one row (read on at
    /// `... `), and a caret goes under the line shown again.
    private func prepare(_ line: String, parsed: Result<Command, CommandError>? = nil, location: String?, promptWidth: Int?) -> Prepared {
        // Frames that came since the last step belong to it, not to this line; those from now on
        // to this line (a `ws recv` gets those that came after it was typed, though shown as they came).
        let frameLine = interpreter.frameTap.startLine()
        whileRecording { try $0.flushFrames(before: frameLine) }
        var filled = line
        var fills: [(name: String, value: String)] = []
        var parser = interpreter.parser
        if parsed == nil, line.includes(ascii: "{{secret:") {
            do {
                guard let resolved = try fillingSecrets(in: line) else { return .done(.ok) }
                filled = resolved.line
                fills = resolved.secrets.map { ($0.name, $0.value) }
                parser.literals = resolved.secrets.map(\.value)
                // Hidden where this answer, or a later one, echoes them; `$NAME` in --curl.
                if supplied.add(resolved.secrets) { shareSuppliedSecrets() }
                whileRecording { recorder in resolved.secrets.forEach { recorder.learn($0.value, name: $0.name) } }
            } catch {
                let prefix = location.map { "\($0): " } ?? ""
                terminal.err(prefix + renderer.palette.red("error: ") + error.message + "\n")
                return .done(error.malformed ? .usage : .runtime)
            }
        }
        var command: Command
        do {
            command = try (parsed ?? Result { () throws(CommandError) in try parser.parse(filled) }).get()
        } catch {
            // Under the character of the line as typed, in display columns (a CJK character or an emoji before it
            // takes two); with secrets filled in, a column of the filled line was past it by their lengths.
            if terminal.isInteractive, let column = error.column.map({ Self.typedColumn($0, in: line, filledLine: filled, filled: fills) }) {
                let width = String(line.prefix(column)).columns
                // A line read on at `... ` is shown whole: the caret was under the last part, at the whole line's column.
                if let promptWidth = promptWidth {
                    terminal.err(String(repeating: " ", count: promptWidth + width) + renderer.palette.red("^") + "\n")
                } else {
                    terminal.err(line + "\n" + String(repeating: " ", count: width) + renderer.palette.red("^") + "\n")
                }
            }
            let prefix = location.map { "\($0): " } ?? ""
            // A message that quotes the word (bad JSON after `:=`) must not show the secret filled into it.
            terminal.err(prefix + renderer.palette.red("error: ") + renderer.hidingSupplied(in: error.message) + "\n")
            if !isStrayWord(line) {
                whileRecording { try $0.record(line: line, command: nil, outcome: .failure(error.message, .usage), forcedOffline: false) }
            }
            return .done(.usage)
        }
        if case let .record(action) = command {
            let outcome = record(action)
            show(outcome, location: location)
            return .done(outcome.exitStatus)
        }
        if case let .transcript(action) = command {
            let outcome = run(action)
            show(outcome, location: location)
            return .done(outcome.exitStatus)
        }
        if case let .environment(name) = command {
            let outcome = environment(name)
            show(outcome, location: location)
            return .done(outcome.exitStatus)
        }
        if case let .history(count) = command {
            let outcome = history(last: count ?? 25)
            show(outcome, location: location)
            return .done(outcome.exitStatus)
        }
        if case .empty = command, line.trimmingBlanks().hasPrefix("#") {
            whileRecording { try $0.comment(line) }
        }
        var forcedOffline = false
        if case .http(let method, let path, let items, var options) = command, offline, !options.offline {
            options.offline = true
            command = .http(method: method, path: path, items: items, options: options)
            forcedOffline = true
        }
        // Asked only of a backend that has a login: otherwise `login` says how it authenticates.
        if case let .login(email, password) = command, password == nil, terminal.isInteractive, interpreter.session.profile.auth != nil {
            // Said before the password is asked for.
            if let email, let refused = Interpreter.notADemoEmail(email, in: interpreter.session.profile) {
                show(refused, location: location)
                return .done(.usage)
            }
            guard let filled = askLogin(email: email) else {
                // Ctrl-C or Ctrl-D at its prompt went back to the prompt without a word.
                terminal.err(renderer.palette.dim("login abandoned (nothing sent)") + "\n")
                return .done(.ok)
            }
            command = filled
        }
        // A secret typed as such (`set apikey=…` then `X-Foo:{{apikey}}`, `password=…`, `ws connect …?token=…`) is the
        // session's from then on, as a supplied one is: hidden wherever an answer or a frame echoes it, "$APIKEY" in --curl.
        // Learned before the line runs: a socket's echo of `ws send` may show while it does.
        if supplied.add(SuppliedSecrets.typed(in: command)) { shareSuppliedSecrets() }
        return .execute(command, forcedOffline: forcedOffline)
    }

    /// Shows and records what the interpreter answered.
    private func finish(_ line: String, _ command: Command, _ outcome: Outcome, forcedOffline: Bool, location: String?) -> Step {
        // A captured secret (`capture csrf = cookie:csrftoken`) is the session's, as a typed one is: the interpreter
        // took it, and the screen hides it from now on (it showed in `-v`, an echo, a `set x={{csrf}}`).
        if let secret = SuppliedSecrets.captured(by: command, outcome: outcome, variables: interpreter.allVariables),
           supplied.add([secret]) {
            renderer.alsoHidden = supplied.shown
            forgetInHistory()
        }
        if case .header = command {
            // A header `auth` set is hidden from now on, whatever it is called.
            renderer.secretHeaders = runBlocking(on: interpreter) { $0.profile.secretHeaders }
        }
        // A setting's confirmation (`header apikey:…`, `auth bearer …`, `defaults --timeout 5`, `cookies clear`) is no output a script
        // pipes on: on standard error in one, as notes are (`-c 'header apikey:…' -c 'get /x -b' | jq` broke on it).
        var confirms = false
        switch command {
        case .header(.set), .header(.credential), .header(.clear), .cookies(clear: true): confirms = !terminal.isInteractive
        // `defaults` alone lists them (what was asked for); with flags, or `clear`, it sets them.
        case let .defaults(options): confirms = !terminal.isInteractive && options != RequestOptions()
        default: break
        }
        let shownWhole = show(outcome, location: location, onStandardError: confirms)
        // A refresh on the way brought tokens the recording has not seen: an answer echoing the new one was written in clear.
        // Read from the answer, not the session: a script's lines run here on the interpreter's loop, and
        // waiting on it from there crashed `explorer run FILE --record` at the first refresh.
        if let recorder, case let .exchange(exchange, _, _) = outcome, exchange.refreshed, let tokens = exchange.tokensAfter {
            recorder.learn(tokens.accessToken, name: "access_token")
            if let refresh = tokens.refreshToken { recorder.learn(refresh, name: "refresh_token") }
        }
        whileRecording { try $0.record(line: line, command: command, outcome: outcome, forcedOffline: forcedOffline) }
        if recorder != nil, outcome.isStoppedByUser {
            terminal.err("note: not recorded: Ctrl-C stopped it (a replay could not stop it there); a comment in the transcript says so\n")
        }
        switch command {
        case let .set(name, _), let .capture(name, _), let .unset(name): replayBound.remove(name)
        default: break
        }
        if case .exit = outcome { return Step(status: .ok, exit: true) }
        return Step(status: shownWhole ? outcome.exitStatus : .runtime)
    }

    /// Whether all that was asked for went out (`-b` into a pipe of a body
    /// too large to read whole did not).
    @discardableResult
    private func show(_ outcome: Outcome, location: String?, onStandardError: Bool = false) -> Bool {
        var (out, err) = renderer.render(outcome)
        if onStandardError { (out, err) = ("", out + err) }
        switch renderer.pipedBody(outcome) {
        case let .bytes(bytes)?:
            terminal.out(bytes: bytes)
            out = ""
            // `-b | …` of a body in brotli wrote its compressed bytes with no word (README: notes go to standard error).
            if case let .exchange(exchange, _, _) = outcome, let encoding = exchange.response.undecodedEncoding {
                terminal.err("note: the body is " + Interpreter.undecodedNote(encoding, undecodable: exchange.response.undecodable) + "\n")
            }
        case let .refused(reason)?:
            terminal.err((location.map { "\($0): " } ?? "") + renderer.palette.red("error: ") + reason + "\n")
            return false
        case nil:
            break
        }
        // The terminal echoed `^C` where the cursor was: what the line says goes under it, not after it
        // (a stream's "stopped: …", the frames a `ws recv` got).
        if terminal.isInteractive, interruptedLine || outcome.isCancellation { terminal.err("\n") }
        // A Ctrl-C the line's wait took (`show` of 12 MB, pressed while it was being made) stops the text too.
        let pressed = interruptedLine
        interruptedLine = false
        write(out, interrupted: pressed)
        // A script's failures name their line: a failed command's and an
        // answer's "error: 404 …" alike.
        if let location, !err.isEmpty, outcome.exitStatus != .ok { terminal.err("\(location): ") }
        terminal.err(err)
        return true
    }

    /// Text for standard output. At a terminal a long text (`show` of a
    /// large answer) goes out a block of lines at a time, and Ctrl-C stops
    /// it there: printing 20 MB to a terminal takes minutes.
    private func write(_ text: String, interrupted: Bool = false) {
        let block = 64 * 1024
        guard terminal.isInteractive, text.utf8.count > block else { return terminal.out(text) }
        // A Ctrl-C pressed while the text was made (pretty-printing 7 MiB takes a while) counts: it was
        // thrown away here, and all 12 MB printed after it.
        var start = text.startIndex
        while start < text.endIndex {
            var end = text.utf8.index(start, offsetBy: block, limitedBy: text.endIndex) ?? text.endIndex
            if end < text.endIndex { end = text[end...].firstIndex(of: "\n").map { text.index(after: $0) } ?? text.endIndex }
            terminal.out(String(text[start..<end]))
            start = end
            if start < text.endIndex, terminal.takeInterrupts() > 0 || interrupted {
                terminal.out(renderer.palette.dim("\n(stopped: Ctrl-C)") + "\n")
                return
            }
        }
    }

    // MARK: Recording

    /// Starts recording into `path` (`--record` and `record FILE`). The
    /// header keeps the variables set so far (not those a replay or tour
    /// bound: `replayBound`) and, when logged in, the email, so that a
    /// replay starts where the recording did.
    func startRecording(_ path: String) throws(TranscriptRecorder.Failure) {
        let (all, email, specSource, secretVariables, tokens) = runBlocking { [interpreter] in
            (await interpreter.userVariables, await interpreter.session.tokens?.loginEmail, await interpreter.specSource,
             await interpreter.secretVariables, await interpreter.session.tokens)
        }
        // A document the profile file does not name (`--spec`, `spec load`): the header names it, so a
        // replay checks lines against it as this session does (it sent lines this one had refused).
        let folder = PathText.folder(of: path)
        let spec = specSource.flatMap { $0 == profileFile?.spec ? nil : FilePaths.relative($0, from: folder) }
        let variables = all.filter { !replayBound.contains($0.key) }
        var secrets = SecretScrubber()
        for (name, value) in profileFile?.secrets ?? [:] { secrets.learn(value, name: name) }
        // A recording begun partway through a session knows its secrets so far: those typed or supplied, and the
        // session's tokens (a `var:` holding a captured cookie, and an echo of the refresh token, were written in clear).
        for secret in supplied.named { secrets.learn(secret.value, name: ExpectedValue.secretName(secret.name), typed: true) }
        if let tokens {
            secrets.learn(tokens.accessToken, name: "access_token", typed: true)
            if let refresh = tokens.refreshToken { secrets.learn(refresh, name: "refresh_token", typed: true) }
        }
        let known = supplied.shown + [tokens?.accessToken, tokens?.refreshToken].compactMap { $0 }
        var profile = interpreter.session.profile.name
        if let file = profileFile {
            // By name when a replay beside the transcript finds that name as this file; else the path: a
            // recording into a folder outside the project wrote `profile: team`, which no replay there found.
            let folder = FilePaths.absolute(PathText.folder(of: path))
            let lookup = ProfileLookup(environment: environment, workingDirectory: folder)
            let found = file.byPath ? nil : lookup.file(named: file.name, near: folder).map(FilePaths.absolute)
            profile = found == FilePaths.absolute(file.path) ? file.name : FilePaths.relative(file.path, from: folder)
        }
        let header = TranscriptHeader.make(
            profile: profile, environment: profileFile?.environment, target: target,
            variables: variables.sorted { $0.key < $1.key }.map { name, value in
                // Hidden as `vars` hides it: by its name, because it looks like a credential (a JWT, `Bearer …`),
                // because it was captured as one (`capture sid = cookie:sid`), or because it holds a secret of the session's.
                let secret = secretVariables.contains(name) || known.contains { $0.count >= SecretScrubber.typedMinimumLength && value.contains($0) }
                guard secret || Interpreter.shown(variable: name, value) != value else { return .init(name: name, value: value) }
                secrets.learn(value, name: ExpectedValue.secretName(name))
                return .init(name: name, value: TranscriptPattern.secretPlaceholder(forItem: name))
            },
            // The REPL shows frames as they come (`repl` listens; `--record` starts before it).
            login: email, framesLive: terminal.isInteractive, spec: spec)
        recorder = try TranscriptRecorder(path: path, header: header, renderer: renderer,
                                          baseURL: interpreter.session.builder.baseURL.absoluteString,
                                          socketBase: interpreter.session.profile.webSocketBaseURL, secrets: secrets,
                                          secretFields: SecretFields(interpreter.session.profile.secretFields),
                                          frames: interpreter.frameTap.subscribe(),
                                          variables: { [interpreter] in interpreter.allVariables },
                                          readFile: interpreter.session.builder.readFile)
    }

    private func record(_ action: RecordAction) -> Outcome {
        switch action {
        case let .start(path):
            if let recorder { return .failure("already recording to \(recorder.path) (record stop ends it)", .usage) }
            do { try startRecording(path) } catch { return .failure(error.description, .runtime) }
            // `record my` was taken, and `explorer test` never found the file.
            let ext = "." + TranscriptSource.fileExtension
            var said = "recording to \(path)" + (path.hasSuffix(ext) ? "" : " (explorer test and tour look for *\(ext) files: this one is not found by them)")
            // A login is in the header; a socket is not: its `ws send` steps failed every replay, "ws connect first".
            if runBlocking({ [interpreter] in await interpreter.hasOpenSocket }) {
                said += "\nthe open WebSocket is not in the recording, and a replay has none: ws close, then ws connect, records it"
            }
            return .message(said)
        case .stop:
            guard let recorder else { return .message("not recording") }
            if recorder.isDeleted {
                self.recorder = nil
                return .failure(recorder.deletedNote, .runtime)
            }
            let moved = recorder.movedTo
            finishRecording(sayingIfEmpty: false)
            let place = moved.map { "\($0) (moved there from \(recorder.path) while recording)" } ?? recorder.path
            return .message("recorded \(Self.steps(recorder.steps)) to \(place)" + (recorder.steps == 0 ? Self.nothingRecorded : ""))
        case .status:
            guard let recorder else { return .message("not recording") }
            if recorder.isDeleted { return .failure(recorder.deletedNote, .runtime) }
            return .message("recording to \(recorder.path): \(Self.steps(recorder.steps)) so far")
        }
    }

    private static func steps(_ n: Int) -> String { n == 1 ? "1 step" : "\(n) steps" }

    /// Writes the frames that came after the last step, and ends the
    /// recording (`record stop`, `exit`, end of input).
    func finishRecording(sayingIfEmpty: Bool = true) {
        if let recorder, recorder.isDeleted {
            self.recorder = nil
            recordingFailed = true
            terminal.err(renderer.palette.red("error: ") + recorder.deletedNote + "\n")
            return
        }
        whileRecording { try $0.flushFrames() }
        // A recording with no steps (a script of comments, `record` then `exit`) passed as a file
        // that explorer test then calls broken.
        if sayingIfEmpty, let recorder, recorder.steps == 0 { terminal.err("warning: recorded no steps to \(recorder.path)" + Self.nothingRecorded + "\n") }
        recorder = nil
    }

    private static let nothingRecorded = ": a transcript with no steps tests nothing (explorer test calls it broken)"


    /// Runs `body` on the recorder; a write that fails ends the recording, said once.
    func whileRecording(_ body: (TranscriptRecorder) throws -> Void) {
        guard let recorder else { return }
        do { try body(recorder) } catch {
            self.recorder = nil
            recordingFailed = true
            terminal.err(renderer.palette.red("error: ") + "recording stopped: \(error)\n")
        }
    }

    private func askLogin(email: String?) -> Command? {
        var email = email
        if email == nil {
            switch terminal.readLine(prompt: "email: ", editing: nil) {
            case let .line(typed) where !typed.isEmpty: email = typed.trimmingBlanks()
            case .endOfInput:
                // The cursor is still on the question's line after Ctrl-D (`email: ^Dlogin abandoned`).
                terminal.err("\n")
                return nil
            default: return nil
            }
        }
        guard let password = terminal.readSecret(prompt: "password: ") else { return nil }
        return .login(email: email, password: password)
    }

    /// `env`: the environments, the one in use marked; `env NAME`: the
    /// session moves there (not while recording: a transcript has one), said
    /// on standard error.
    private func environment(_ name: String?) -> Outcome {
        guard let environments else {
            return .failure("env moves between a profile's environments, and this session has one server: start with --profile NAME|FILE, without --base-url (docs/profiles.md)", .usage)
        }
        guard let name else {
            let all = environments.list()
            let width = all.map(\.name.columns).max() ?? 0
            return .message(all.map { ($0.current ? "* " : "  ") + $0.name.padded(to: width + 2) + $0.url }
                .joined(separator: "\n"))
        }
        if let recorder { return .failure("recording to \(recorder.path): a transcript runs against one environment (record stop first)", .usage) }
        // The move closes this environment's socket with its session: said, not left for `ws status` to find.
        let hadSocket = runBlocking(on: interpreter) { $0.hasSocket }
        switch environments.move(name) {
        case let .failure(problem) where problem.isMissingSecret && terminal.isInteractive:
            // The prompt was left (Ctrl-C, Ctrl-D, an empty answer): said as that, not as a variable to set.
            let here = environments.list().first(where: \.current)?.name
            return .failure("not moved: no secret given for \(name)" + (here.map { "; still on \($0)" } ?? "") + " (\(problem.description))", .usage)
        case let .failure(problem): return .failure(problem.description, .usage)
        case let .success(next):
            let socketsHeard = listensToSockets
            interpreter = next.interpreter
            writeStreamedRows()
            if socketsHeard { listenToSockets() }
            if !supplied.isEmpty { shareSuppliedSecrets() }
            // Whether a login kept for that environment was taken is known: said, not hedged.
            let kept: (loggedIn: Bool, user: String?) = runBlocking(on: interpreter.session) { ($0.isLoggedIn, $0.userName) }
            let login = interpreter.session.profile.auth == nil ? ""
                : !kept.loggedIn ? "; not logged in there"
                : kept.user.map { "; logged in there as \($0) (kept from before)" } ?? "; logged in there (a login kept from before)"
            // Headers set with `header` go along; a credential among them stays with the server it was for, said.
            let left = next.leftHeaders.isEmpty ? ""
                : "; the session's \(next.leftHeaders.joined(separator: ", ")) stayed behind (credentials go to one server: set them here again)"
            // Said on standard error, as notes are: on standard output it broke `-c 'env staging' -c 'get /x -b' | jq`.
            terminal.err("now on \(name) (\(next.url))\(login)" + left + (hadSocket ? "; the WebSocket was closed (ws connect opens one here)" : "")
                         + (next.note.map { "; " + $0 } ?? "") + "\n")
            return .nothing
        }
    }

    /// Keeps a typed line in the history, its secrets hidden (the profile's
    /// own secret fields too), or leaves it out when it cannot be read.
    func remember(_ line: String) {
        if isStrayWord(line) { return }
        let fields = SecretFields(interpreter.session.profile.secretFields)
        // A secret is kept as `{{secret:NAME}}`: recalled, the line asks for it again (a stored `***` was sent as the value).
        let placeholder = TranscriptPattern.secretPlaceholder(forItem:)
        guard var safe = Redactor.redact(line: line, secretFields: fields, hide: placeholder) else { return }
        // A value the session holds as a secret, typed again where no syntax says so (`?token=X`, then
        // `ws send {"t":"X"}`), was kept in clear, while the screen and the transcript hid it.
        for secret in supplied.named where secret.value.count >= SecretScrubber.typedMinimumLength {
            safe = safe.replacingOccurrences(of: secret.value, with: placeholder(secret.name))
        }
        terminal.remember(safe)
    }

    /// A lone word that is no command, nor a path or URL to get: most often a password typed at the prompt when
    /// none was asked for ("unknown command 'alice123'"). Neither history nor a recording keeps it (both kept it in
    /// clear); a replay of it would check nothing but its error.
    func isStrayWord(_ line: String) -> Bool {
        let word = line.trimmingBlanks()
        return !word.isEmpty && !word.contains(where: { $0 == " " || $0 == "\t" }) && interpreter.table.spec(named: word) == nil
            && !CommandParser.isTarget(word) && !word.hasPrefix("#")
    }

    /// `history [N]`: the last N lines, numbered as in the whole history.
    private func history(last count: Int) -> Outcome {
        let lines = terminal.pastLines()
        guard !lines.isEmpty else {
            return terminal.isInteractive ? .message("no history yet")
                : .failure("history is kept by the REPL at a terminal; a script has none", .usage)
        }
        let first = max(lines.count - count, 0)
        let width = String(lines.count).count
        return .message(lines[first...].enumerated().map { offset, line in
            let number = String(first + offset + 1)
            return String(repeating: " ", count: width - number.count) + number + "  " + line
        }.joined(separator: "\n"))
    }

    /// Whether socket notices print above the prompt (the REPL's terminal can).
    private(set) var listensToSockets = false

    /// Every value this session filled in for a `{{secret:NAME}}`: the
    /// renderer hides them on screen, the interpreter in `show` and
    /// `capture` and as shell variables in `--curl`.
    private var supplied = SuppliedSecrets()

    private func shareSuppliedSecrets() {
        renderer.alsoHidden = supplied.shown
        runBlocking { [interpreter, supplied] in await interpreter.supplying(supplied) }
        forgetInHistory()
    }

    /// The secrets already written out of the history.
    private var forgottenInHistory: Set<String> = []

    /// Each secret the session learned since: out of the history, where a
    /// line typed before it was known kept it (`set cs=…`, then
    /// `client_secret={{cs}}`: `history` hid it, the file kept it).
    private func forgetInHistory() {
        for secret in supplied.named where secret.value.count >= SecretScrubber.typedMinimumLength && !forgottenInHistory.contains(secret.value) {
            forgottenInHistory.insert(secret.value)
            terminal.forget(secret.value, as: TranscriptPattern.secretPlaceholder(forItem: secret.name))
            // The recording's steps before hold it as typed too (`> set cs=…`).
            whileRecording { try $0.forget(secret.value, name: ExpectedValue.secretName(secret.name)) }
        }
    }

    private func listenToSockets() {
        guard terminal.isInteractive else {
            // A script (`-c`, `run`, a pipe): what happens to the socket (lost, reconnecting, open again, closed
            // by the server) goes to standard error as it happens; its frames wait for `ws recv`. A `ws recv 2`
            // got frames of two connections, and nothing said the first had dropped.
            guard let post = terminal.asyncErrors() else { return }
            listensToSockets = true
            runBlocking { [interpreter, frameRenderer] in await interpreter.setSocketStateListener { post(frameRenderer.value.notice($0)) } }
            return
        }
        guard let post = terminal.asyncOutput() else { return }
        listensToSockets = true
        runBlocking { [interpreter, frameRenderer] in
            await interpreter.setSocketListener { post(frameRenderer.value.notice($0)) }
            await interpreter.setFramesLive(true)
        }
    }

    /// The interactive loop: prompt, read, run, until Ctrl-D or `exit`.
    /// WebSocket frames and state changes print above the prompt as they come.
    func repl() -> ExitStatus {
        listenToSockets()
        while true {
            let label = runBlocking(on: interpreter) { await $0.promptLabel() }
            let prompt = label + "> "
            switch terminal.readLine(prompt: prompt, editing: nil) {
            case .endOfInput:
                terminal.out("\n")
                return .ok
            case .interrupted:
                continue
            case let .line(typed):
                // JSON pasted over several lines (`ws send {` then its members): read on.
                guard let line = whole(typed) else { continue }
                remember(line)
                // The prompt's width in columns (a user named 张三 takes two each), none where standard output, which
                // the prompt goes to, is not the terminal the caret is on (`explorer | cat`).
                let promptWidth = line != typed ? nil : terminal.showsPrompt ? prompt.columns : 0
                if step(line, promptWidth: promptWidth).exit { return .ok }
            }
        }
    }

    /// The line with the rest of its JSON, when a `ws send {…` goes on past
    /// the line's end: lines are read at `... ` until the JSON ends, and
    /// joined with spaces (history and transcripts keep one line). An empty
    /// line or Ctrl-C drops it: nil.
    /// A line ending in a backslash (`curl URL \`, as browsers' "copy as
    /// cURL" and API docs write one) goes on the same way; an empty line
    /// ends it.
    /// A quote left open goes on too, as in a shell (a body pasted over
    /// several lines, `--data-raw '{` then its members); in the REPL only: a
    /// script's stray quote would take the commands after it into its text.
    private func whole(_ first: String) -> String? {
        var line = first
        while Self.goesOn(line) || Self.quoteGoesOn(line) {
            let backslash = Self.backslashGoesOn(line)
            let quote = !backslash && !Self.jsonGoesOn(line)
            let read = terminal.readLine(prompt: "... ", editing: nil)
            // An empty line inside a JSON string is a paragraph break of it, not the end of the frame (the frame
            // was dropped, and its next line opened a quote that took the commands after it).
            guard case let .line(more) = read, !more.trimmingBlanks().isEmpty || Self.stringGoesOn(line) else {
                // An empty line ends a continued command; Ctrl-C or Ctrl-D drops it, unsent.
                if backslash, case .line = read { return Self.joined(line, "") }
                // After `^D` the cursor is still on the line.
                let start = read == .endOfInput ? "\n" : ""
                if backslash { terminal.err(start + "dropped: the line went on with \\ and was not finished (nothing sent)\n"); return nil }
                if quote { terminal.err(start + "dropped: a quote was left open (nothing sent)\n"); return nil }
                terminal.err(start + "ws send dropped: its JSON did not end (nothing sent)\n")
                return nil
            }
            // A command typed at `... ` (`ws status` after `ws send {"a": 1 "b": [`) is not the rest of the JSON:
            // it was taken into the frame, never ran, and the frame failed at the blank line after it.
            if !backslash, !quote, Self.startsACommand(more), !Self.jsonEndsInString(line) {
                terminal.err("ws send dropped: its JSON did not end before the next command (nothing sent)\n")
                line = more
                continue
            }
            line = Self.joined(line, more)
        }
        return line
    }

    /// Whether a line begins with a command's name and a blank or its end (`ws status`, `get /x`).
    static func startsACommand(_ line: String) -> Bool {
        let word = line.trimmingBlanks().prefix { !$0.isWhitespace }
        return !word.isEmpty && word.first!.isLetter && CommandTable.standard.spec(named: String(word)) != nil
    }

    /// Whether a `ws send {…` line's JSON goes on inside a string: its next line, empty or not, is the string's.
    static func stringGoesOn(_ line: String) -> Bool { jsonEndsInString(line) && jsonGoesOn(line) }

    /// Whether a `ws send` line's JSON ends inside a string it opened (its next line is that string's).
    static func jsonEndsInString(_ line: String) -> Bool {
        guard let open = line.firstIndex(where: { $0 == "{" || $0 == "[" }) else { return false }
        return scan(line[open...].utf8).inString
    }

    /// Whether the line ends inside a quote (`'`, `"` or `$'`) it opened.
    /// Asked of the parser, which reads a line as it will run: a comment's
    /// apostrophe opens nothing, nor does one in `ws send --text it's fine`,
    /// whose text is taken as typed (split into words, both took the lines after them).
    static func quoteGoesOn(_ line: String) -> Bool {
        do {
            _ = try CommandParser().parse(line)
            return false
        } catch {
            return error.message.hasPrefix("unterminated")
        }
    }

    /// Whether the next line is part of this one: JSON that goes on, or a backslash at the end.
    static func goesOn(_ line: String) -> Bool { backslashGoesOn(line) || jsonGoesOn(line) }

    /// A shell's line continuation: a backslash last (not an escaped one, `\\`).
    static func backslashGoesOn(_ line: String) -> Bool {
        let text = withoutTrailingBlanks(line)
        return text.hasSuffix("\\") && !text.hasSuffix("\\\\")
    }

    private static func withoutTrailingBlanks(_ text: String) -> String {
        String(text[..<(text.lastIndex { $0 != " " && $0 != "\t" }.map(text.index(after:)) ?? text.startIndex)])
    }

    /// `line` with `more` after it, a space between (`\n` inside a JSON string): a continuation's backslash left out.
    static func joined(_ line: String, _ more: String) -> String {
        // A line break typed inside a JSON string is one, written `\n` (the line stays one line in history and
        // recordings): joined with a space, the frame went out changed (`"multi line"`).
        if stringGoesOn(line) { return line + "\\n" + more }
        guard backslashGoesOn(line) else { return line + " " + more }
        let kept = withoutTrailingBlanks(String(withoutTrailingBlanks(line).dropLast()))
        let next = more.trimmingBlanks()
        return next.isEmpty ? kept : kept + " " + next
    }

    /// Whether a `ws send {…` or `ws send […` line's JSON stops at the line's
    /// end unfinished: the parse ran out of text, or a mistake came before
    /// the end while a brace or bracket is still open. The lines after such a
    /// mistake are the rest of the same JSON: read on, the whole is one error
    /// (it was one, then each of those lines an unknown command).
    static func jsonGoesOn(_ line: String) -> Bool {
        guard let open = line.firstIndex(where: { $0 == "{" || $0 == "[" }),
              line[..<open].split(whereSeparator: \.isWhitespace).map({ $0.lowercased() }) == ["ws", "send"] else { return false }
        // A `{{NAME}}` is not JSON until it is filled in: a number stands in for it here.
        var rest = line[open...]
        var json = ""
        while let start = rest.firstRange(of: "{{"), let end = rest[start.upperBound...].firstRange(of: "}}") {
            json += rest[..<start.lowerBound] + "0"
            rest = rest[end.upperBound...]
        }
        let text = Array((json + rest).utf8)
        do { _ = try JSONParser.parse(text); return false } catch { return error.offset >= text.count || scan(text).opened > 0 }
    }

    /// Braces and brackets opened and not closed, outside strings; none
    /// when one closes what it did not open (`{"a": [1, 2,}` is a mistake
    /// the parser's caret shows, not JSON going on to the next line). And
    /// whether the text ends inside a string.
    private static func scan(_ json: some Sequence<UInt8>) -> (opened: Int, inString: Bool) {
        var open: [UInt8] = []
        var inString = false
        var escaped = false
        for byte in json {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): open.append(byte)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard open.popLast() == (byte == UInt8(ascii: "}") ? UInt8(ascii: "{") : UInt8(ascii: "[")) else { return (0, false) }
            default: break
            }
        }
        return (open.count, inString)
    }

    /// Runs lines from a pipe, each as it comes; `#` lines are comments.
    /// Keeps going after a failure and returns the worst status.
    /// A `ws send {…` whose JSON goes on is joined with the lines after it,
    /// as the REPL reads it (`scriptJoined`).
    func script(_ lines: some Sequence<String>, name: String) -> ExitStatus {
        var worst = ExitStatus.ok
        var remaining = lines.makeIterator()
        var number = 0
        while var line = remaining.next() {
            number += 1
            let first = number
            while Self.goesOn(line), let more = remaining.next() {
                number += 1
                if more.trimmingBlanks().isEmpty, !Self.stringGoesOn(line) { break }
                line = Self.joined(line, more)
            }
            if Self.backslashGoesOn(line) { line = Self.joined(line, "") }
            guard let line = scriptLine(line) else { continue }
            let result = step(line, location: "\(name):\(first)")
            worst = max(worst, result.status)
            if result.exit || stopsAfter(result.status, at: "\(name):\(first)") { break }
        }
        return worst
    }

    /// A script file's lines with each `ws send {…` whose JSON goes on past
    /// its line joined with the lines that finish it, with spaces, as the
    /// REPL reads a pasted one; a blank line ends the JSON, finished or not.
    /// The lines taken are left empty, so every line keeps its number.
    static func scriptJoined(_ lines: [String]) -> [String] {
        var lines = lines
        var index = 0
        while index < lines.count {
            var next = index + 1
            while goesOn(lines[index]), next < lines.count, !lines[next].trimmingBlanks().isEmpty || stringGoesOn(lines[index]) {
                // A command is not the rest of a broken frame's JSON: it runs, and the frame fails as it is.
                if jsonGoesOn(lines[index]), !backslashGoesOn(lines[index]), startsACommand(lines[next]), !jsonEndsInString(lines[index]) { break }
                lines[index] = joined(lines[index], lines[next])
                lines[next] = ""
                next += 1
            }
            if backslashGoesOn(lines[index]) { lines[index] = joined(lines[index], "") }
            index = next
        }
        return lines
    }

    /// Runs the lines of a file, as `script` does for a pipe, but without
    /// a trip from this thread to the interpreter's event loop and back for
    /// every line (two thread switches a line, most of what a `ws send` line
    /// cost): the lines run in batches on the interpreter's loop while this
    /// thread waits. A line that must run here (`record`, a transcript
    /// command: they wait on the loop themselves) ends a batch and runs
    /// through `step`.
    func script(file lines: [String], name: String) -> ExitStatus {
        var worst = ExitStatus.ok
        var next = 0
        let handoff = Handoff(self)
        while next < lines.count {
            let (status, stop) = runBlocking(on: interpreter) { [from = next] interpreter in
                await handoff.controller.batch(lines, from: from, name: name, interpreter)
            }
            worst = max(worst, status)
            switch stop {
            case .end, .exit: return worst
            case let .here(index):
                let result = step(lines[index], location: "\(name):\(index + 1)")
                worst = max(worst, result.status)
                if result.exit || stopsAfter(result.status, at: "\(name):\(index + 1)", left: Self.linesToRun(lines, after: index)) { return worst }
                next = index + 1
            }
        }
        return worst
    }

    /// Where a batch of script lines stopped.
    private enum BatchStop: Sendable {
        case end, exit
        /// At this line, which must run on the main thread.
        case here(Int)
    }

    /// Runs script lines from `from` on the interpreter (its event loop)
    /// until the end, `exit`, or a line for `step`.
    private func batch(_ lines: [String], from: Int, name: String, _ interpreter: isolated Interpreter) async -> (ExitStatus, BatchStop) {
        var worst = ExitStatus.ok
        for index in lines.indices.dropFirst(from) {
            guard let line = scriptLine(lines[index]) else { continue }
            // Its secrets are filled in by `step`, which may ask for them.
            if line.includes(ascii: "{{secret:") { return (worst, .here(index)) }
            let parsed = Result { () throws(CommandError) in try interpreter.parser.parse(line) }
            // A line that types a new secret shares it with the interpreter, waiting on its loop: not from this loop.
            if case let .success(command) = parsed, Self.runsOnMainThread(command) || supplied.wouldAdd(SuppliedSecrets.typed(in: command)) {
                return (worst, .here(index))
            }
            let location = "\(name):\(index + 1)"
            switch prepare(line, parsed: parsed, location: location, promptWidth: 0) {
            case let .done(status):
                worst = max(worst, status)
                if Console.outputFailed || stopsAfter(status, at: location, left: Self.linesToRun(lines, after: index)) { return (worst, .exit) }
            case let .execute(command, forcedOffline):
                let result = finish(line, command, await interpreter.execute(command), forcedOffline: forcedOffline, location: location)
                worst = max(worst, result.status)
                if result.exit || stopsAfter(result.status, at: location, left: Self.linesToRun(lines, after: index)) { return (worst, .exit) }
            }
        }
        return (worst, .end)
    }

    /// Commands `prepare` or `finish` run themselves, waiting on the
    /// interpreter's loop: run on that loop, they would wait for ever (a
    /// `header` or `auth` line hung `explorer run`: `finish` reads the
    /// headers to hide from then on; so did a line typing a secret,
    /// `password=…`, which `prepare` shares, and `batch` sends here too).
    private static func runsOnMainThread(_ command: Command) -> Bool {
        switch command {
        case .record, .transcript, .environment, .history, .header: return true
        default: return false
        }
    }

    /// Whether `--stop-on-error` ends the script at a line that ended with
    /// `status`: said once, with how many lines are left unrun when known
    /// (a pipe's are not). `left` is counted only then: counted for every
    /// line, it made a long script's run quadratic (20,000 GETs took three
    /// times as long as they should).
    func stopsAfter(_ status: ExitStatus, at location: String, left count: @autoclosure () -> Int? = nil) -> Bool {
        guard stopsOnError, status != .ok else { return false }
        let left = count()
        // The last line: nothing was kept from running, nothing to say.
        if left == 0 { return true }
        let rest = left.map { ": \($0) line\($0 == 1 ? "" : "s") not run" } ?? ": the lines after it not run"
        terminal.err("stopped at \(location) (--stop-on-error)\(rest)\n")
        return true
    }

    /// The commands after `index` in a script file (blank lines and comments are none).
    private static func linesToRun(_ lines: [String], after index: Int) -> Int {
        lines[(index + 1)...].count { line in line.first(where: { !$0.isWhitespace }).map { $0 != "#" } ?? false }
    }

    /// A script line to run, or nil for a blank line or a comment (which a
    /// recording keeps).
    private func scriptLine(_ line: String) -> String? {
        guard let first = line.first(where: { !$0.isWhitespace }) else { return nil }
        guard first == "#" else { return line }
        let trimmed = line.trimmingBlanks()
        whileRecording { try $0.comment(trimmed) }
        return nil
    }
}

/// The controller, handed to the interpreter's loop for a batch of script
/// lines. It belongs to the main thread, which waits in `runBlocking` until
/// the batch ends: one thread uses it at a time.
private struct Handoff: @unchecked Sendable {
    let controller: SessionController
    init(_ controller: SessionController) { self.controller = controller }
}

/// What `env` needs of the session's owner: the profile file's environments,
/// and a new interpreter on another one (the old one closed).
struct EnvironmentSwitcher {
    var list: () -> [(name: String, url: String, current: Bool)]
    var move: (String) -> Result<Moved, ChosenProfile.Problem>

    /// Where `env NAME` went: the new interpreter and URL, the session headers
    /// left behind (credentials: not carried to another server), and what to
    /// say of the credential it took.
    struct Moved {
        var interpreter: Interpreter
        var url: String
        var leftHeaders: [String]
        var note: String? = nil
    }
}
