import Core
import Foundation

/// Appends a session to a transcript, one step at a time: each step is
/// written with a single `write(2)` when it completes, so killing the
/// process (even with SIGKILL) loses at most the step in flight. The file
/// never holds a live secret: command lines go through `Redactor`, bodies
/// through `Expectation(recording:)`, and whatever is written last through
/// a `SecretScrubber` that knows every secret this recording has seen.
final class TranscriptRecorder {
    let path: String
    private var descriptor: Int32
    private let renderer: Renderer
    private let baseURL: String
    private var scrubber = SecretScrubber()
    /// The profile's secret body fields, hidden whatever their values look like.
    private let secretFields: SecretFields
    /// The socket's frames, written under the step they came in.
    private let frames: FrameSubscription?
    /// Ids in received frames turned into captures so far.
    private var frameCaptures = FrameCaptures()
    /// The session's variables now (what `{{NAME}}` in a typed line stands for).
    private let variables: @Sendable () -> [String: String]
    /// How the session reads an item's file (`password=@pw.txt`): a secret held in one is hidden where an answer echoes it.
    private let readFile: @Sendable (String) throws -> [UInt8]
    /// The account the header logs in as (`login:`), replayed with `{{secret:password}}`.
    private let headerLogin: String?
    /// Names a replay of this file will have when it reaches the next line:
    /// built-ins, the header's variables, and those `set` or `capture` set.
    private var replayNames: Set<String>
    /// The profile environment's own socket URL (`websocket-url:`), when it is not the base URL's:
    /// written as `{{ws_base_url}}` in what a step expects, which a replay fills with its environment's
    /// (written as it was, a recording failed `replay --env OTHER` on the `connected to` line).
    private let socketBase: String?
    /// Steps written so far.
    private(set) var steps = 0
    /// Whether a step has opened a socket (`ws connect`): one open before the recording is not its.
    private var connectsASocket = false
    /// Variables `capture` set: later answers holding their values write `{{name}}`.
    private var captured = CaptureReferences()

    /// Why a recording could not start or go on, in one line.
    struct Failure: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// Creates `path` (or takes it when it exists and is empty) and writes the header.
    init(path: String, header: TranscriptHeader, renderer: Renderer, baseURL: String, socketBase: URL? = nil, secrets: SecretScrubber,
         secretFields: SecretFields = .none, frames: FrameSubscription? = nil,
         variables: @escaping @Sendable () -> [String: String] = { [:] },
         readFile: @escaping @Sendable (String) throws -> [UInt8] = RequestBuilder.readFileFromDisk) throws(Failure) {
        // 0600, like the history and saved answers: a recording holds a session's answers.
        let existed = FileManager.default.fileExists(atPath: path)
        var standing = stat()
        // A named pipe held the session until something read it; a link, a device: no transcript to replay.
        if lstat(path, &standing) == 0, standing.st_mode & S_IFMT != S_IFREG {
            throw Failure(description: "cannot record to \(path): \(Self.kind(of: standing.st_mode)), not a file; record into a new file")
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            let folder = PathText.folder(of: path)
            // "No such file or directory" of a file about to be made means its folder.
            if errno == ENOENT, !folder.isEmpty {
                throw Failure(description: "cannot record to \(path): there is no folder \(folder) (make it first: mkdir -p \(folder))")
            }
            throw Failure(description: "cannot record to \(path): \(reason)")
        }
        // Held while recording, and taken before the file is found empty: two sessions started at once on one
        // new file both found it empty, and wrote two headers and their steps into it.
        // A file system without locks (some network ones) records unlocked, as before.
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0, errno == EWOULDBLOCK {
            close(descriptor)
            throw Failure(description: "\(path) is being recorded by another explorer; record into a new file")
        }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_size > 0 {
            close(descriptor)
            throw Failure(description: "\(path) already exists and is not empty; record into a new file")
        }
        self.path = path
        self.socketBase = socketBase.map(Self.trimmingSlashes).flatMap { $0 == PatternText.socketURL(baseURL) ? nil : $0 }
        self.descriptor = descriptor
        self.renderer = renderer
        self.baseURL = baseURL
        scrubber = secrets
        // The header's login is replayed with `{{secret:password}}`: a password typed later (`-a bob:…`) took
        // that name too, and its replay sent alice's password as bob's.
        if header.login != nil { scrubber.reserve("password") }
        headerLogin = header.login
        self.secretFields = secretFields
        self.frames = frames
        self.variables = variables
        self.readFile = readFile
        replayNames = Set(["base_url", "profile"] + header.variables.map(\.name))
        do throws(Failure) {
            try append(TranscriptWriter.start(header), failing: "nothing was recorded")
        } catch {
            // A full disk before the header: no empty file left behind (it said it kept "the steps before").
            if !existed { unlink(path) }
            throw error
        }
    }

    deinit { close(descriptor) }

    /// A secret filled in for `{{secret:NAME}}` in a typed line: hidden
    /// under that name wherever it shows up (the line itself is written as typed).
    func learn(_ value: String, name: String) { scrubber.learn(value, name: name, typed: true) }

    /// A value the session learned is a secret after steps were written
    /// with it in clear (`set cs=…`, then `client_secret={{cs}}`): written
    /// out of those steps as `{{secret:NAME}}`.
    /// The file is rewritten beside itself and renamed over, so a failure
    /// leaves it as it was; the recording goes on in the new one.
    func forget(_ value: String, name: String) throws(Failure) {
        // The steps before alone: the line in flight learns it by its own rules, and names it apart from the
        // others of its name (`api_key==A Api-Key:B` is `api_key`, `api_key_2`).
        var alone = SecretScrubber()
        alone.learn(value, name: name, typed: true)
        // A file deleted while recording stays deleted (it came back, steps and all).
        guard !isDeleted else { return }
        let current = movedTo ?? path
        guard let bytes = FileManager.default.contents(atPath: "/proc/self/fd/\(descriptor)").map(Array.init)
                ?? FileManager.default.contents(atPath: current).map(Array.init),
              let text = String(validating: bytes, as: UTF8.self) else { return }
        // The steps alone: the header's `profile: generic` and `base-url:` became `{{secret:…}}` for a secret
        // `generic`, and the file did not replay.
        let steps = text.range(of: "\n> ").map { $0.lowerBound } ?? text.endIndex
        let scrubbed = String(text[..<steps]) + alone.scrub(String(text[steps...]))
        guard scrubbed != text else { return }
        // A file with other hard links is written where it is, as `-o --force` writes one (renamed over, the other
        // name kept the secret).
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_nlink > 1 {
            let inPlace = open(current, O_WRONLY | O_CLOEXEC)
            defer { if inPlace >= 0 { close(inPlace) } }
            guard inPlace >= 0, Self.writeAll(inPlace, Array(scrubbed.utf8)[...]), ftruncate(inPlace, off_t(scrubbed.utf8.count)) == 0 else {
                throw Failure(description: "cannot write out a secret from \(current): \(String(cString: strerror(errno)))")
            }
            return
        }
        let folder = PathText.folder(of: current)
        var template = Array(((folder.isEmpty ? "" : folder + "/") + "." + PathText.name(of: current) + ".XXXXXX").utf8CString)
        let beside = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard beside >= 0 else { throw Failure(description: "cannot write out a secret from \(current): \(String(cString: strerror(errno)))") }
        let besidePath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let failed = !Self.writeAll(beside, Array(scrubbed.utf8)[...]) || fsync(beside) != 0
        close(beside)
        let reopened = failed ? -1 : rename(besidePath, current) == 0 ? open(current, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC) : -1
        guard reopened >= 0 else {
            let reason = String(cString: strerror(errno))
            unlink(besidePath)
            throw Failure(description: "cannot write out a secret from \(current): \(reason); its steps before hold it")
        }
        _ = flock(reopened, LOCK_EX | LOCK_NB)
        close(descriptor)
        descriptor = reopened
    }

    /// Writes all of `bytes` to `descriptor`; false (errno set) when it cannot.
    private static func writeAll(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            rest = rest.dropFirst(written)
        }
        return true
    }

    /// A `#` line typed in the REPL or a script: kept as a comment before the next step.
    func comment(_ line: String) throws(Failure) {
        try flushFrames()
        try append(scrubber.scrub(TranscriptWriter.comment(line)))
    }

    /// Writes the frames that came since the last step was written (before
    /// line `before` of the frame tap, when given). They are appended below
    /// it, so they belong to it: the session controller calls this as each
    /// line starts, so that a step's own frames are the ones during it.
    func flushFrames(before line: Int? = nil) throws(Failure) {
        guard let frames, steps > 0 else { return }
        let came = frames.takeAll(before: line)
        guard !came.isEmpty else { return }
        try append(scrubber.scrub(TranscriptWriter.lateFrames(recorded(came))))
    }

    /// Frames as a recording writes them, their secrets learned first.
    private func recorded(_ frames: [ObservedFrame]) -> [ExpectedFrame] {
        for frame in frames {
            if case let .json(value) = frame.content { scrubber.learn(secretsIn: value, fields: secretFields) }
        }
        return frames.map { ExpectedFrame.recording($0, baseURL: baseURL, secretFields: secretFields, captures: &frameCaptures) }
    }

    /// Writes one step. `command` is nil when the line did not parse (the
    /// step then expects the same error). Nothing is written for `exit`,
    /// blank lines, `record` itself and a request or a stream stopped with
    /// Ctrl-C (a replay could not expect anything of it: a comment says so), nor for a line that cannot
    /// be split into words and mentions something secret (`Redactor` drops it).
    func record(line: String, command: Command?, outcome: Outcome, forcedOffline: Bool) throws(Failure) {
        switch command {
        case .exit?, .empty?, .record?: return
        default: break
        }
        if outcome.isStoppedByUser {
            // Said where it would have been: a stream sampled with Ctrl-C left no trace in the file.
            let shown = commandLine(line, command: command, outcome: outcome) ?? "a line"
            return try append(scrubber.scrub(TranscriptWriter.comment("(\(shown) was stopped with Ctrl-C: not recorded, since a replay could not stop it there)")))
        }
        guard var written = commandLine(line, command: command, outcome: outcome) else {
            return try append(TranscriptWriter.comment("(a line that could not be read, and may hold a secret, was left out)"))
        }
        if forcedOffline, case .http? = command, !written.hasSuffix(" --offline") { written += " --offline" }
        written = references(in: written)
        if case .http? = command {
            written = Self.templating(baseURL: baseURL, in: written)
            // A transcript reads its files beside it (docs/transcripts.md, "Files"): `@rec/photo.png` typed in the
            // folder above `rec/` is written `@photo.png` (as typed, its replay looked for rec/rec/photo.png).
            let folder = PathText.folder(of: path)
            // A path made of a variable (`@{{photo}}`) is the variable's business: left as typed.
            written = FilePaths.rebase(written) { $0.contains("{{") ? $0 : FilePaths.relative($0, from: folder) }
        }
        if case .ws(.connect)? = command { connectsASocket = true }
        switch command {
        case let .set(name, _)?, let .capture(name, _)?: replayNames.insert(name)
        case let .unset(name)?: replayNames.remove(name)
        default: break
        }
        // A captured secret (a cookie's value): wherever a later answer echoes it, written as its placeholder.
        if let secret = SuppliedSecrets.captured(by: command, outcome: outcome, variables: variables()) {
            scrubber.learn(secret.value, name: ExpectedValue.secretName(secret.name), typed: true)
        }
        // The cookies it carried or was given (a jar's `sid`, never typed): hidden where an answer echoes them,
        // as the screen hides them (`Cookie: sid=…` of an echo was written in clear).
        if case let .exchange(exchange, _, _) = outcome {
            for (name, value) in Self.cookies(of: exchange) where scrubber.name(of: value) == nil {
                scrubber.learn(value, name: ExpectedValue.secretName(name))
            }
        }
        var observation = outcome.observation(renderer: renderer)
        // Only a successful answer hands out secrets; an error's `details.password` is a message.
        if case let .json(body)? = observation.body, (observation.status ?? 200) < 400 { scrubber.learn(secretsIn: body, fields: secretFields) }
        // A large answer's lists by their first elements (`...` after them): whole, a 50 MB answer made a transcript
        // that replay and the mock refuse, in 25 s and 1.4 GB. Said in a comment above the step.
        var sampled: String?
        if case let .exchange(exchange, _, _) = outcome, exchange.response.bodySize > Self.sampledBodySize, case let .json(body)? = observation.body {
            // One element more than is written: a list that had more is written with `...` (`ExpectedValue.sampled`).
            observation.body = .json(body.prefixingLists(Self.sampledElements + 1))
            sampled = TranscriptWriter.comment("The answer was \(Renderer.size(exchange.response.bodySize)): its lists are written by their first "
                                               + "\(Self.sampledElements) elements and ..., its strings past 64 KiB as {{string}}.")
        }
        var isCapture = false
        if case .capture? = command { isCapture = true }
        var expectation = Expectation(recording: observation, baseURL: baseURL, volatileBody: isCapture, secretFields: secretFields)
        if !isCapture { expectation = captured.referencing(in: expectation, values: variables(), observed: observation, line: written) }
        captured.note(command)
        if case .ws(.recv)? = command, case let .json(body)? = expectation.body, case let .json(live)? = observation.body {
            expectation.body = .json(ExpectedFrame.recordingTaken(body, live: live, captures: frameCaptures))
        }
        if sampled != nil, case let .json(body)? = expectation.body { expectation.body = .json(body.sampled(elements: Self.sampledElements)) }
        expectation.frames = recorded(frames?.takeAll() ?? [])
        // A socket opened before the recording began (`record` warns it is not in it) is closed at logout:
        // not a replay's, which has none (a fresh recording failed its own replay on that note).
        if !connectsASocket { expectation.notes.removeAll { $0.literalText == Interpreter.socketClosedAtLogout } }
        if case let .http(_, _, _, options)? = command, options.download, options.output == nil, case let .exchange(exchange, _, _) = outcome {
            let intended = Download.name(headers: exchange.response.headers, url: exchange.request.url)
            expectation.notes = expectation.notes.map { Self.renamedDownload($0, intended: intended) ?? $0 }
        }
        var step = scrubber.scrub(TranscriptWriter.step(TranscriptStep(command: written, expectation: expectation)))
        if let socketBase {
            step = step.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.hasPrefix("> ") ? String(line) : line.replacingOccurrences(of: socketBase, with: "{{\(PatternText.socketBaseVariable)}}")
            }.joined(separator: "\n")
        }
        if let sampled { try append(sampled) }
        try append(step)
        steps += 1
    }

    /// The size past which an answer's body is written as a sample (`ExpectedValue.sampled`).
    static let sampledBodySize = 4 << 20
    static let sampledElements = 20

    /// A URL without its trailing slashes (`ws://h:1/` is `ws://h:1`).
    static func trimmingSlashes(_ url: URL) -> String {
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// A `--download` saved under `NAME-1.EXT` because `NAME.EXT` was taken
    /// where it was recorded: `saved 3 B to NAME{{/(-[0-9]+)?/}}.EXT`, since a
    /// replay saves into a folder of its own, where the name is free.
    static func renamedDownload(_ note: PatternText, intended: String) -> PatternText? {
        guard let text = note.literalText, text.hasPrefix("saved "), let to = text.range(of: " to ", options: .backwards) else { return nil }
        let name = String(text[to.upperBound...])
        let stem = (intended as NSString).deletingPathExtension
        let ext = (intended as NSString).pathExtension
        let suffix = ext.isEmpty ? "" : "." + ext
        guard name != intended, name.hasPrefix(stem + "-"), name.hasSuffix(suffix),
              case let number = name.dropFirst(stem.count + 1).dropLast(suffix.count), !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return PatternText([.literal(text[..<to.upperBound] + stem), .pattern(TranscriptPattern(.regex("(-[0-9]+)?")))]
                           + (suffix.isEmpty ? [] : [.literal(suffix)]))
    }

    /// The line as a transcript writes it: secrets as `{{secret:NAME}}`.
    /// A login is rebuilt from the command, since its password may have been
    /// asked for rather than typed; a refused login's password is written as
    /// `wrong_password`, which a replay fills with a value no account has,
    /// and one set earlier in a secret-named variable under that variable's name.
    private func commandLine(_ line: String, command: Command?, outcome: Outcome) -> String? {
        let typed = try? LineTokenizer.split(line).map(\.text)
        if case let .login(email?, password?)? = command {
            var refused = false
            if case let .exchange(exchange, _, _) = outcome, exchange.response.status >= 400 { refused = true }
            // A password kept in a secret-named variable (`set new_password=…`) keeps that name.
            // The header's account logging in again takes the header's password, the one it logged in with
            // (a second name made CI set two variables to one password).
            let again = headerLogin.map { $0.lowercased() == email.lowercased() } ?? false
            let name = refused ? "wrong_password"
                : scrubber.name(of: password) ?? (again ? "password" : scrubber.freeName("password", for: password))
            scrubber.learn(password, name: name, typed: true)
            // The email as typed: `{{email}}` stays a reference.
            let typedEmail = typed.flatMap { $0.count > 1 && $0[1].includes(ascii: "{{") ? $0[1] : nil } ?? email
            return LineTokenizer.join(["login", typedEmail]) + " " + TranscriptPattern(.secret(name)).description
        }
        var refused = false, passwordRefused = false
        // 401, not 403: a key that is good but not allowed there is the key a replay must send.
        if case let .exchange(exchange, _, _) = outcome, exchange.response.status == 401 { refused = true }
        // A login posted as a request and refused with a 400 (Django REST's `non_field_errors`): its password is a wrong
        // one, as `login`'s refused one is; written as the first's, the mock answered the right password with the refusal.
        if case let .exchange(exchange, _, _) = outcome, exchange.response.status == 400 { passwordRefused = true }
        var names = learnSecrets(in: command, typed: typed ?? [], refused: refused, passwordRefused: passwordRefused)
        let hide = { (item: String) in
            // A second value under one name (`auth basic bob:…` after another, `X-CSRFToken:…` after a `header` of
            // another) is `password_2`, `x_csrftoken_2`, as a second login's password is: a replay is given each.
            // Two in one line (`api_key==A Api-Key:B`) take theirs in the line's order; both were `api_key_2`.
            let base = ExpectedValue.secretName(item)
            guard var learned = names[base], let first = learned.first else { return TranscriptPattern(.secret(base)).description }
            if learned.count > 1 {
                learned.removeFirst()
                names[base] = learned
            }
            return TranscriptPattern(.secret(first)).description
        }
        if let socket = Redactor.redact(socketJSONLine: line, hide: hide, secretFields: secretFields) {
            return socket
        }
        if let frame = Redactor.redact(textFrameLine: line, hide: hide) { return frame }
        guard let typed else { return Redactor.redact(line: line, secretFields: secretFields) }
        // A line refused before it ran (a whole line in quotes, JSON typed where an item goes) by history's rules,
        // which read such lines; the words' rules below are a parsed command's.
        if command == nil { return Redactor.redact(line: line, secretFields: secretFields, hide: { TranscriptPattern(.secret(ExpectedValue.secretName($0))).description }) }
        // The URL's port and token are this session's: keep the path, and the
        // --flags (each takes a value) wherever they were typed. The URL is
        // the typed word, not the command's (whose `{{NAME}}` are filled in):
        // a replay resolves the references against its own values.
        var words = typed, target: Int?
        if case .ws(.connect(_?, _))? = command {
            var index = 2
            while index < typed.count, typed[index].hasPrefix("--") { index += 2 }
            if index < typed.count {
                words[index] = socketTarget(typed[index])
                target = index
            }
        }
        // The headers after a socket's URL are hidden as a request's are (`X-Api-Key:…` was written in clear).
        let redacted = Redactor.redact(words: words, hide: hide, secretFields: secretFields).enumerated().map { index, word in
            if index == target { return words[index] }
            // A typed `{{secret:NAME}}` holds no value: it stays, under the name it was given.
            if index > 0, index < typed.count, typed[index].wholeMatch(of: Self.typedSecret) != nil { return typed[index] }
            return word
        }
        // Keep the line as typed (its quoting) unless something was hidden.
        return redacted == typed ? line : LineTokenizer.join(redacted)
    }

    /// A full URL to the session's own server as `{{base_url}}/…` (a pasted
    /// `curl http://127.0.0.1:8000/items`): kept as typed, a replay with
    /// another `--base-url` still went to the recording's server.
    static func templating(baseURL: String, in line: String) -> String {
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        guard !base.isEmpty, line.contains(base) else { return line }
        var out = "", rest = Substring(line)
        while let range = rest.range(of: base) {
            let next = rest[range.upperBound...].first
            out += rest[..<range.lowerBound]
            // The URL must end there or go on with its path or query: `:80801` is another port.
            out += next == nil || "/?#'\" ".contains(next!) ? "{{base_url}}" : String(rest[range])
            rest = rest[range.upperBound...]
        }
        return out + rest
    }

    /// `{{NAME}}` in a typed line as a replay of this file can resolve it.
    /// A name the replay will not have (a variable a tour's replay bound, say)
    /// becomes the frame capture holding the same value, else the value
    /// itself; so does a name that is also a frame capture of another value.
    /// Secret-named variables are left alone: their values must not be written.
    private func references(in line: String) -> String {
        guard line.includes(ascii: "{{") else { return line }
        let session = variables()
        return line.replacing(Self.reference) { match -> String in
            let name = String(match.output.1)
            let whole = String(match.output.0)
            guard !isSecret(name), let value = session[name] else { return whole }
            if let held = frameCaptures.text(of: name) {
                if held == value { return whole }
            } else if replayNames.contains(name) {
                return whole
            }
            if let capture = frameCaptures.name(holding: value) { return "{{\(capture)}}" }
            let plain = !value.isEmpty && !value.contains { $0.isWhitespace || "\"'\\{}".contains($0) }
            return plain ? value : whole
        }
    }

    /// A word that is an item whose value is a secret placeholder (`password={{secret:new_password}}`), or the placeholder alone.
    nonisolated(unsafe) private static let typedSecret = #/[^{}"']*"?\{\{secret:[\p{L}\p{N}_]+\}\}"?/#

    nonisolated(unsafe) private static let reference = #/\{\{([\p{L}_][\p{L}\p{N}_]*)\}\}/#

    /// `ws connect URL` as written: on this session's own server (or its
    /// environment's socket host) as the path alone (this run's host and port
    /// are not the replay's, which joins the path to its own), and secret query values (`token=…`) as the
    /// secret they are (`{{secret:access_token}}`, which a replay fills from
    /// its own login).
    private func socketTarget(_ target: String) -> String {
        var url = target
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        // Where the environment's sockets are (`websocket-url`), the path is joined to that: a URL there is
        // written as its path (kept whole, `replay --env` sent it to the recording's host), and one on
        // the base URL's host is kept whole (as a path, a replay would join it to the socket host).
        for prefix in socketBase.map({ [$0] }) ?? [base, PatternText.socketURL(base)] where url.hasPrefix(prefix + "/") {
            url = String(url.dropFirst(prefix.count))
            break
        }
        guard let question = url.firstIndex(of: "?") else { return url }
        let query = url[url.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let eq = pair.firstIndex(of: "=") else { return String(pair) }
            let name = String(pair[..<eq])
            let value = String(pair[pair.index(after: eq)...])
            // A typed reference (`{{secret:access_token}}`, `{{token}}`) is kept: it holds no value.
            guard !value.isEmpty, !value.hasPrefix("{{"), Redactor.isSecretParameter(name) || isSecret(name) || Redactor.looksLikeJWT(value) || scrubber.name(of: value) != nil else { return String(pair) }
            let secret = scrubber.name(of: value) ?? scrubber.name(of: value.removingPercentEncoding ?? value) ?? ExpectedValue.secretName(name)
            return name + "=" + TranscriptPattern(.secret(secret)).description
        }
        return String(url[...question]) + query.joined(separator: "&")
    }

    /// Values typed for secret-named items, headers and variables, so the
    /// scrubber finds them if the server echoes them somewhere. Each is
    /// learned under its item's name, or that name numbered when another
    /// value holds it (`x_csrftoken_2`); returns those renamed, by the
    /// item's name (a Basic credential's password under `password`). In a
    /// request the server `refused` (a 401), a value not seen before is
    /// `wrong_NAME`, which a replay fills with one no server accepts: filled
    /// with the live refresh token, a test of a bogus one passed, and failed.
    /// So is a password in a request refused with a 400 (`passwordRefused`).
    private func learnSecrets(in command: Command?, typed: [String], refused: Bool = false, passwordRefused: Bool = false) -> [String: [String]] {
        var names: [String: [String]] = [:]
        var learnedHere: Set<String> = []
        @discardableResult func learn(_ value: String, as item: String, numbered: Bool = true) -> String {
            learnedHere.insert(value)
            let base = ExpectedValue.secretName(item)
            // Not an Authorization header: its placeholder stands for `Bearer …` whole, which an invented value is not.
            let wrong = (refused || passwordRefused && base.contains("password")) && scrubber.name(of: value) == nil && base != "authorization"
            let name = scrubber.name(of: value) ?? (wrong ? "wrong_" + base : numbered ? scrubber.freeName(base, for: value) : base)
            scrubber.learn(value, name: name, typed: true)
            names[base, default: []].append(name)
            return name
        }
        /// `Authorization: Basic …`, whose password is written `-u USER:{{secret:password}}` by curl, `/basic-auth/USER/PASSWORD` by echoes.
        func learnBasic(_ value: String) {
            guard let credentials = BasicCredentials(authorization: value) else { return }
            // An empty password makes the user a token (`-a sk_test_KEY:`), written so on the line.
            if credentials.password.isEmpty { learn(credentials.user, as: "token") } else { learn(credentials.password, as: "password") }
        }
        /// A JSON value's secret members, each under its member's name, numbered as items are: the line's
        /// placeholders are named so (one value under two names, `token` and `api_key`, was written as
        /// both, and its replay asked for a second secret it did not need).
        func learnMembers(_ value: JSONValue, key: String?) {
            switch value {
            case let .object(members): members.forEach { learnMembers($0.value, key: $0.key) }
            case let .array(values): values.forEach { learnMembers($0, key: key) }
            case .string, .number: if let key, isSecret(key) { learn(value.plainText, as: key) }
            default: break
            }
        }
        /// A header the session sends from now on (`auth`, `header`): bearer's token under `token`, another under its own name.
        func learnHeader(_ header: (name: String, value: String)) {
            if header.name.lowercased() == "authorization", header.value.lowercased().hasPrefix("bearer ") {
                learn(String(header.value.dropFirst(7)), as: "token")
            } else {
                if header.name.lowercased() == "authorization" { learnBasic(header.value) }
                learn(header.value, as: header.name)
            }
        }
        switch command {
        case let .ws(.connect(target?, settings))?:
            // `ws connect …?token=…&api_key=…`: the line writes them as placeholders; the connected line and echoes, by value.
            // Its headers too, first: the line hides them in its order (`hide`), and its URL by the values
            // learned (`socketTarget`). `Api-Key:K2` after `?api_key=K1` was written as K1's, and replayed with it.
            for header in settings.headers where isSecretHeader(header.name) { learnHeader((header.name, header.value)) }
            for (name, value) in Redactor.secretsInTarget(target) { learn(value, as: name) }
        case let .http(_, target, items, options)?:
            // `get /a?token=…`, `get http://u:PASSWORD@h/…`: so too (an echo's `"path"` kept them in clear).
            for (name, value) in Redactor.secretsInTarget(target) { learn(value, as: name) }
            // The Basic header the URL's `user:PASSWORD@` became, as `-a`'s is: an echo of it was written in clear.
            if target.contains("@"), let components = URLComponents(string: target), let user = components.user, case let password = components.password ?? "",
               !items.contains(where: { if case let .header(name, _) = $0 { name.lowercased() == "authorization" } else { false } }) {
                learn(BasicCredentials(user: user, password: password).authorization, as: "authorization", numbered: false)
            }
            // A body typed whole (`--raw`, curl's `-d password=…`): the line hides its secrets; an echo
            // of the body kept them in clear (`"body": "password=pw777777"`).
            func learnBody(_ raw: String) {
                if let json = try? JSONParser.parse(raw) {
                    learnMembers(json, key: nil)
                } else {
                    for (name, value) in Redactor.secretAssignments(inText: raw, isSecret: isSecret) {
                        learn(value.removingPercentEncoding ?? value, as: name)
                    }
                    // A setting's or a cookie's line (`password: x`, `Set-Cookie: sid=x; Path=/`), as the line hides them.
                    for (name, value) in Redactor.secretsInLines(of: raw) where scrubber.name(of: value) == nil { learn(value, as: name) }
                }
            }
            if let raw = options.raw { learnBody(raw) }
            /// A file's text as the request sent it.
            func fileText(_ path: String) -> String? {
                guard let bytes = try? readFile(path) else { return nil }
                return String(validating: bytes, as: UTF8.self)
            }
            /// A secret file's text, and the same without the newline that ends most files, under one name
            /// (`{{/\x{A}/}}` after it is how a recording writes that newline).
            func learnFile(_ path: String, as item: String) {
                guard let text = fileText(path) else { return }
                let name = learn(text, as: item)
                scrubber.learn(text.trimmingCharacters(in: .newlines), name: name, typed: true)
            }
            let itemNames = Redactor.itemNames(besideACode: typed)
            for item in items {
                switch item {
                // A well-known service's key under any name (`X-Custom:sk_live_…`, `note=ghp_…`) too, as the line hides it.
                case let .header(name, value):
                    // By the header rule (`X-Session`, `X-Jwt`): the line hid them, an echo kept them in clear.
                    if isSecretHeader(name) || Redactor.isServiceToken(value) { learn(value, as: name) }
                    if name.lowercased() == "authorization" { learnBasic(value) }
                case let .query(name, value):
                    // By its last key, as the line names it (`auth[access_token]==X` is `{{secret:access_token}}`).
                    if isSecret(name) || Redactor.isSecretParameter(name) || Redactor.isServiceToken(value)
                        || Redactor.isOAuthCode(name: name, value: value, besides: itemNames) { learn(value, as: Redactor.leaf(of: name)) }
                case let .stringField(name, value):
                    // By the key it sets, as the line's placeholder is named: `user[password]=X` after a login
                    // was `{{secret:password}}`, the login's, and its replay sent the login's password.
                    if isSecret(name) || Redactor.isServiceToken(value) || Redactor.isOAuthCode(name: name, value: value, besides: itemNames) {
                        learn(value, as: Redactor.leaf(of: name))
                    } else {
                        // A GraphQL document's `password: "…"`: numbered as items are (a second login's other password
                        // was written under the first's name, and its replay sent the first).
                        for member in PatternText.bareMembers(in: value) { learn(String(value[member.value]), as: member.key) }
                    }
                case let .jsonField(name, value):
                    // `true`, `false` and `null` are no secret to search for: every equal value in the step was hidden.
                    switch value {
                    case .bool, .null: break
                    case let .string(text) where Redactor.isServiceToken(text): learn(text, as: Redactor.leaf(of: name))
                    // `variables:='{"password": "…"}'`: its members, numbered as items are (two logins' passwords were one placeholder).
                    case .object, .array:
                        if isSecret(name) { learn(value.plainText, as: Redactor.leaf(of: name)) } else { learnMembers(value, key: nil) }
                    default: if isSecret(name) { learn(value.plainText, as: Redactor.leaf(of: name)) }
                    }
                // The same from a file (`password=@pw.txt`, `Authorization:@token.txt`, `@body.json`): the line holds
                // no secret, but the echo of what the file held was recorded in clear, where the screen hid it.
                case let .stringFieldFromFile(name, path):
                    if isSecret(name) { learnFile(path, as: Redactor.leaf(of: name)) }
                case let .queryFromFile(name, path):
                    if isSecret(name) { learnFile(path, as: name) }
                case let .headerFromFile(name, path):
                    // Sent without its newline, as the builder reads it.
                    if isSecretHeader(name), let value = fileText(path) { learnHeader((name, value.trimmingCharacters(in: .newlines))) }
                case let .jsonFieldFromFile(name, path):
                    guard let text = fileText(path), let json = try? JSONParser.parse(text) else { break }
                    switch json {
                    case .string, .number: if isSecret(name) { learn(json.plainText, as: Redactor.leaf(of: name)) }
                    default: learnMembers(json, key: nil)
                    }
                case let .file("", path, _):
                    if let text = fileText(path) { learnBody(text) }
                default: break
                }
            }
        case let .header(.credential(header?))?:
            learnHeader(header)
        case let .header(.set(headers))?:
            // `header X-CSRFToken:…`: written as a placeholder, so hidden wherever an answer echoes it too.
            for header in headers where isSecretHeader(header.name) { learnHeader(header) }
        case let .set(name, value)? where isSecret(name):
            // A variable set again keeps its name: `{{secret:password}}` is what the replay's variable holds.
            learn(value, as: name, numbered: false)
        case let .set(_, value)?:
            // `set u=/a?token=X`, `set w=http://bob:PW@h/`: the line hides them; `vars` and echoes, by value.
            for (name, secret) in Redactor.secretsInTarget(value) { learn(secret, as: name) }
        case let .ws(.send(value))?:
            learnMembers(value, key: nil)
            scrubber.learn(secretsIn: value, fields: secretFields)
        case let .ws(.sendText(text))?:
            // `password=X` in a text frame, as the command line hides it; a setting's line (`password: X`) too.
            for (name, value) in Redactor.secretAssignments(inTextFrame: text, isSecret: isSecret) { learn(value, as: name) }
            for (name, value) in Redactor.secretsInLines(of: text) { learn(value, as: name) }
        default: break
        }
        // A JWT no name above covered, which the line hides wherever it stands (`Sec-WebSocket-Protocol:'chat, eyJ…'`):
        // hidden where the answer shows it too (an `--offline` request line, an echo), each under a name of its own,
        // or the one it had (the line's `{{secret:jwt}}` are named in its order).
        for word in typed.dropFirst() where Redactor.mayHoldJWT(word) {
            for jwt in Redactor.jwts(in: word) where !learnedHere.contains(jwt) { learn(jwt, as: "jwt") }
        }
        // A service's key inside a longer value (`--raw 'ghp_…'`, `note='see sk_live_… here'`), as the line hides it.
        for word in typed.dropFirst() {
            for key in Redactor.serviceTokens(in: word) where !learnedHere.contains(key) { learn(key, as: "service_key") }
        }
        return names
    }

    /// Each cookie an exchange's requests carried (`Cookie: a=1; b=2`) and
    /// its answers set (`Set-Cookie: sid=…; Path=/`), by name, the hops' too.
    static func cookies(of exchange: Exchange) -> [(name: String, value: String)] {
        var found: [(name: String, value: String)] = []
        for step in exchange.hops + [exchange] {
            for header in step.request.headers where header.hasName("Cookie") { found += Cookie.pairs(inHeader: header.value) }
            for header in step.response.headers where header.hasName("Set-Cookie") { found += Cookie.pair(setBy: header.value).map { [$0] } ?? [] }
        }
        return found.filter { !$0.name.isEmpty && !$0.value.isEmpty }
    }

    private func isSecret(_ name: String) -> Bool { Redactor.isSecretName(name) || secretFields.containsName(name) }
    private func isSecretHeader(_ name: String) -> Bool { Redactor.isSecretHeaderName(name) || secretFields.containsName(name) }

    /// Writes `text` whole, or not at all: a write that fails (a full disk)
    /// takes back what it wrote of it, so the file ends with the last whole
    /// step, which replays (it ended mid-answer, torn).
    /// What stands at a path that is not a file, in a word or two.
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a named pipe"
        case S_IFSOCK: "a socket"
        default: "a device"
        }
    }

    var deletedNote: String { "\(path) was deleted while recording: nothing was kept" }

    /// Where the transcript is now when it was moved (renamed) while
    /// recording: its steps went with it, and `record stop` named a path
    /// that no longer held them.
    var movedTo: String? {
        var open = stat(), named = stat()
        guard fstat(descriptor, &open) == 0, open.st_nlink > 0 else { return nil }
        if stat(path, &named) == 0, named.st_ino == open.st_ino, named.st_dev == open.st_dev { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether the file was deleted while recording: what is written goes nowhere.
    var isDeleted: Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && info.st_nlink == 0
    }

    private func append(_ text: String, failing outcome: String = "it keeps the steps before") throws(Failure) {
        // Written on, the steps went to a file no one could open, and `record stop` said "recorded 3 steps".
        if isDeleted { throw Failure(description: deletedNote) }
        var bytes = Array(text.utf8)[...]
        let start = lseek(descriptor, 0, SEEK_END)
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                if start >= 0 { _ = ftruncate(descriptor, start) }
                throw Failure(description: "cannot write to \(path): \(reason); \(outcome)")
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
