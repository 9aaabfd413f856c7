import Core
import Foundation
import NIOCore
import Sandbox

/// Works out what `explorer mock` serves from a transcript: the requests its
/// steps make. A step holds a command line (`login alice@example.com …`,
/// `post /api/tasks title=…`, `next`), not a request; only the interpreter
/// knows the request it makes, with the profile's login flow, session headers
/// and captured ids. So the transcript is replayed through the same `Replayer.Steps`
/// against a transport that answers each step from its own recording
/// (`RecordedAnswers`), and the requests it is sent are written down.
/// Values the recording left as patterns are made up deterministically
/// (`Materializer`), the same way the mock makes them up when it serves, so
/// a request that uses a captured id is the request a client will send.
enum MockDerivation {
    /// Where the derivation's requests "go": never contacted. A transcript recorded against a base URL
    /// with a path (`…/v1`) goes to this with that path, so its requests are the ones its REPL sent.
    static let placeholderBase = URL(string: "http://mock.invalid")!
    /// What a secret of a command line becomes (a password): any value matches it.
    static let anySecret = "mock-any-secret"

    /// The script of one transcript, or why it cannot be served (`path:line: reason`).
    static func script(_ path: String) async -> Result<MockScript, TranscriptRun.Failure> {
        let transcript: Transcript
        switch TranscriptSource.parsed(path) {
        case let .failure(failure): return .failure(failure)
        case let .success(parsed): transcript = parsed
        }
        // As `replay` refuses it: served, it answered every request with a 404.
        if transcript.steps.isEmpty, transcript.torn == nil {
            return .failure(.broken("\(path): no steps: a transcript is served from its '> ' command lines, and this one has none"))
        }
        var replayer = Replayer()
        // The mock checks no credential: a profile's secret need not be set to serve its transcripts.
        replayer.anySecret = anySecret
        let chosen: ChosenProfile?
        switch replayer.profile(of: transcript.header, in: path) {
        case let .failure(failure): return .failure(failure)
        case let .success(found): chosen = found
        }
        let header = transcript.header
        let profile = chosen?.profile ?? Profile.named(header.profile == "none" ? Profile.generic.name : header.profile)!
        var answers: RecordedAnswers?
        let live: LiveSession
        let basePath = Self.basePath(of: header, chosen: chosen)
        let base = URL(string: placeholderBase.absoluteString + basePath) ?? placeholderBase
        do {
            live = try await LiveSession.open(profile: profile, target: .url(base),
                                              readFile: Replayer.readFile(relativeTo: PathText.folder(of: path), confined: false),
                                              sending: { transport in
                                                  let made = RecordedAnswers(profile: profile, base: base, eventLoop: transport.eventLoop)
                                                  answers = made
                                                  return made
                                              })
        } catch {
            return .failure(.runtime("\(path): cannot work out its requests: \(error)"))
        }
        await chosen?.apply(to: live.interpreter)
        do throws(ChosenProfile.Problem) {
            var catalog = try chosen?.catalog()
            if catalog == nil { catalog = try Replayer.headerCatalog(transcript.header, of: path, confined: false) }
            if let catalog { await live.interpreter.use(catalog) }
        } catch {
            await live.close()
            return .failure(.broken("\(path): \(error.description)"))
        }
        // What the steps save goes to a scratch folder, removed after: the mock writes none of the user's files.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-mock-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        await live.interpreter.setOutputFolder(scratch.path, takesEveryName: true)
        let result: Result<MockScript, TranscriptRun.Failure>
        if let answers {
            result = await steps(of: transcript, path: path, profile: profile, base: base, on: live, answers: answers)
        } else {
            result = .failure(.runtime("\(path): cannot work out its requests"))
        }
        await live.close()
        return result.map { script in
            var script = script
            script.basePath = basePath
            return script
        }
    }

    /// The path of the base URL a transcript was recorded against (`/v1`), no trailing slash: its
    /// header's `base-url:`, or its profile file's environment's. An app pointed at the mock with
    /// that path (`http://127.0.0.1:8090/v1`) was answered "no recorded step".
    static func basePath(of header: TranscriptHeader, chosen: ChosenProfile?) -> String {
        let recorded: URL? = switch header.target {
        case let .url(text): URL(string: text)
        case .sandbox: chosen?.environment.baseURL
        }
        var path = recorded.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.percentEncodedPath } ?? ""
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// Each answer a later `capture NAME = header:H` reads, with H where its
    /// recording wrote none (only `Content-Type`, `Location` and a `Content-Range` are written):
    /// a made-up value, in quotes for an entity tag, so the mock serves one
    /// and the client's `If-Match:{{etag}}` has something to send. It warned
    /// "no ETag header" and left the capture and every step using it unserved.
    static func servingCapturedHeaders(_ steps: [TranscriptStep]) -> [TranscriptStep] {
        var steps = steps
        for (index, sources) in Replayer.Steps.capturesReading(steps) where steps[index].expectation.status != nil {
            for case let .header(name) in sources where !steps[index].expectation.headers.contains(where: { $0.name.lowercased() == name.lowercased() }) {
                let quoted = name.lowercased() == "etag"
                steps[index].expectation.headers.append((name, PatternText(quoted ? [.literal("\""), .pattern(TranscriptPattern(.string)), .literal("\"")]
                                                                                  : [.pattern(TranscriptPattern(.string))])))
            }
        }
        return steps
    }

    private static func steps(of transcript: Transcript, path: String, profile: Profile, base: URL, on live: LiveSession,
                              answers: RecordedAnswers) async -> Result<MockScript, TranscriptRun.Failure> {
        var resolver = SecretResolver(environment: [:], demoAccounts: [])
        resolver.ask = { _ in anySecret }
        var steps = Replayer.Steps(path: path, interpreter: live.interpreter, transport: nil, profile: profile,
                                   baseURL: base.absoluteString, resolver: resolver, update: false)
        var served: [MockStep] = []
        var leftOut: [(line: Int, reason: String)] = []
        // `login: EMAIL` in the header: the recording began logged in, so a
        // replay logs in first. Its answer was never recorded; the mock makes
        // one up where the profile's login answer keeps the tokens.
        let headerLine = transcript.header.lines.firstIndex { $0.hasPrefix("login:") }.map { $0 + 2 } ?? 1
        if let email = transcript.header.login, let login = headerLogin(email, profile: profile, line: headerLine) {
            answers.begin(login, bindings: [:])
            guard await steps.prepare(transcript.header, steps: transcript.steps) else {
                return .failure(.runtime(steps.shownFailure.map(describe) ?? "\(path): the header's login cannot be worked out"))
            }
            // A login the transcript recorded answers as it was recorded: the made-up one (no id, the
            // email for a name) was served first, and an app decoding its user failed at its first launch.
            let recordsALogin = transcript.steps.contains { $0.command.hasPrefix("login ") && (200..<300).contains($0.expectation.status ?? 0) }
            if let request = answers.finish(), !recordsALogin {
                served.append(MockStep(line: login.line, command: login.command, trigger: .request(mockRequest(request, command: login.command)),
                                       expectation: login.expectation))
            }
        } else if !(await steps.prepare(transcript.header, steps: transcript.steps)) {
            return .failure(.runtime(steps.shownFailure.map(describe) ?? "\(path): its header cannot be worked out"))
        }
        for step in servingCapturedHeaders(transcript.steps) {
            let bindings = Self.bindings(live.interpreter.allVariables, strings: await live.interpreter.capturedStrings)
            // Read with its secrets filled in (`ws connect /ws?token={{secret:token}}` did not parse as it is: it was
            // replayed as a request, which tried to reach the placeholder host, and the transcript was skipped).
            let line = (try? resolver.resolveNamed(step.command).line) ?? step.command
            if case let .ws(action)? = try? live.interpreter.parser.parse(line) {
                switch action {
                case .recv, .pretty, .status, .close:
                    // Its frames follow the step before it (a script's echoes are often written under `ws close`).
                    if !served.isEmpty { served[served.count - 1].pushes += step.expectation.frames.filter { $0.direction == .received } }
                case .connect, .send, .sendText, .sendFile:
                    var step = step
                    if let firstSent = step.expectation.frames.firstIndex(where: { $0.direction == .sent }), firstSent > 0, !served.isEmpty {
                        // Frames that came before this step sent anything answer the step before it: in a
                        // script, the echo of one `ws send` often comes while the next line runs.
                        served[served.count - 1].pushes += step.expectation.frames[..<firstSent].filter { $0.direction == .received }
                        step.expectation.frames.removeFirst(firstSent)
                    }
                    guard let socket = socketStep(step, action, bindings: bindings, base: base) else { break }
                    served.append(socket)
                    await bindFrameCaptures(of: step, afterBody: false, bindings: bindings, base: base, on: live.interpreter)
                }
                continue
            }
            var quiet = step
            quiet.expectation.frames = []
            answers.begin(step, bindings: bindings)
            guard let outcome = await steps.run(quiet) else {
                return .failure(.runtime(steps.shownFailure.map(describe) ?? "\(path):\(step.line): cannot work out its request"))
            }
            // Against its own recordings a step fails only where the file disagrees with itself (a capture
            // of a body a hand edit took away, a file to upload that is not there): it, and the steps that
            // needed what it would have set, were left out without a word.
            if case let .failure(message, _) = outcome, step.expectation.errors.isEmpty {
                _ = answers.finish()
                leftOut.append((step.line, String(message.split(separator: "\n").first ?? "") + ", where its recording has no error"))
                continue
            }
            guard let request = answers.finish() else {
                // A step recorded with an answer that makes no request here (a `next` whose list's recording
                // has no Link header: it said "no next page"): left out unsaid, and its page was never served.
                if step.expectation.status != nil, case let .message(text) = outcome {
                    leftOut.append((step.line, "it makes no request here (\(text.split(separator: "\n").first ?? "")), where its recording has an answer"))
                }
                continue
            }
            // Its frames were left out of the replay (nothing sends them here).
            await bindFrameCaptures(of: step, afterBody: true, bindings: bindings, base: base, on: live.interpreter)
            served.append(MockStep(line: step.line, command: step.command,
                                   trigger: .request(mockRequest(request, command: step.command, secrets: steps.supplied, bindings: bindings)),
                                   expectation: step.expectation, bindings: bindings))
        }
        return .success(MockScript(file: path, profile: profile, steps: served, torn: transcript.torn, leftOut: leftOut))
    }

    /// Ids a step's received frames hand out (`{{message_id:=integer}}`) feed
    /// later command lines, as in a replay. Made up in the order the mock
    /// makes them when it answers the step (an HTTP step's body, then its
    /// frames; a socket step's frames alone), so the values agree.
    private static func bindFrameCaptures(of step: TranscriptStep, afterBody: Bool, bindings: [String: JSONValue], base: URL,
                                          on interpreter: Interpreter) async {
        let frames = step.expectation.frames.filter { $0.direction == .received }
        guard !frames.isEmpty else { return }
        var values = Materializer(seed: step.line, bindings: bindings, baseURL: base.absoluteString)
        switch step.expectation.body {
        case let .json(expected)? where afterBody: _ = values.value(expected)
        case let .text(lines)? where afterBody: for line in lines { _ = values.text(line) }
        default: break
        }
        for frame in frames {
            switch frame.content {
            case let .json(expected): _ = values.value(expected)
            case let .text(pattern): _ = values.text(pattern)
            case .binary, .closed: break
            }
        }
        let known = interpreter.allVariables
        for (name, value) in values.bindings where bindings[name] == nil && known[name] == nil {
            _ = await interpreter.execute(.set(name: name, value: value.plainText))
        }
    }

    /// The step a header's `login: EMAIL` stands for: a login answered with
    /// made-up tokens where the profile's login answer keeps them.
    private static func headerLogin(_ email: String, profile: Profile, line: Int) -> TranscriptStep? {
        guard let auth = profile.auth else { return nil }
        let marker = "\u{0}secret:"
        var body = JSONValue.object([]).setting(auth.accessTokenPath, to: .string(marker + "access_token"))
            .setting(auth.refreshTokenPath, to: .string(marker + "refresh_token"))
        body = body.setting(auth.userPath, to: .object([("email", .string(email)), (auth.userNameField, .string(email))]))
        /// The value with each marked string a `{{secret:NAME}}` pattern.
        func expecting(_ value: JSONValue) -> ExpectedValue {
            switch value {
            // In quotes, as a recording writes a string's secret.
            case let .string(text) where text.hasPrefix(marker):
                return .text(PatternText([.pattern(TranscriptPattern(.secret(String(text.dropFirst(marker.count)))))]))
            case let .object(members): return .object(members.map { .init($0.key, expecting($0.value)) }, open: false)
            default: return .exactly(value)
            }
        }
        let expected = expecting(body)
        return TranscriptStep(command: "login \(email)", line: line,
                              expectation: Expectation(status: 200, reason: "OK",
                                                       headers: [("Content-Type", .literal("application/json; charset=utf-8"))],
                                                       body: .json(expected)))
    }

    private static func describe(_ failure: TranscriptRun.Failure) -> String {
        switch failure {
        case let .broken(text), let .runtime(text): return text
        }
    }

    /// The session's variables as values; the base URL is left out, since it is the mock's own when it serves.
    /// `strings`: those captured from JSON strings, strings whatever they read as (`"1"`).
    static func bindings(_ variables: [String: String], strings: Set<String> = []) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        let base = MockDerivation.base
        for (name, text) in variables where name != "base_url" && name != PatternText.socketBaseVariable && name != "profile" {
            // A number as written (a price 19.990, 1e400, an id past 64 bits were served as strings).
            let number = strings.contains(name) ? nil : JSONValue.number(written: text)
            values[name] = number ?? .string(text.replacingOccurrences(of: base, with: MockRequest.base))
        }
        return values
    }

    /// `ws connect` (the socket's path, from its `connected to` line) and
    /// `ws send` (the frame it sent).
    private static func socketStep(_ step: TranscriptStep, _ action: WebSocketAction, bindings: [String: JSONValue], base: URL) -> MockStep? {
        if case .connect = action {
            guard case let .text(lines)? = step.expectation.body else { return nil }
            var values = Materializer(seed: step.line, bindings: bindings, baseURL: base.absoluteString)
            for line in lines {
                let text = values.text(line)
                guard let range = text.range(of: "connected to ") else { continue }
                let url = String(text[range.upperBound...]).split(separator: " ").first.map(String.init) ?? ""
                guard let path = URLComponents(string: url)?.path, !path.isEmpty else { continue }
                return MockStep(line: step.line, command: step.command, trigger: .socket(path: path), expectation: step.expectation, bindings: bindings)
            }
            return nil
        }
        guard let sent = step.expectation.frames.first(where: { $0.direction == .sent }) else { return nil }
        return MockStep(line: step.line, command: step.command, trigger: .frame(sent.content), expectation: step.expectation, bindings: bindings)
    }

    /// The recorded request as the mock compares it: the command line's
    /// `{{name}}` path segments are variables; a hidden secret matches anything.
    /// `secrets`: values the replay filled in for `{{secret:…}}` (a made-up wrong password).
    /// `bindings`: the variables as the step began; in a path typed as one
    /// (`get {{loc}}`, a captured Location), a segment that is one's value
    /// stands for it, so the step is on the path the others write
    /// `/items/{{id}}`: as the literal path of the id it was made with, it
    /// fit better than the GET recorded after that item's DELETE, and the
    /// mock served the deleted item.
    static func mockRequest(_ request: PreparedRequest, command: String, secrets: Set<String> = [],
                            bindings: [String: JSONValue] = [:]) -> MockRequest {
        let concrete = MockRequest.split(request.url.path)
        let words = ((try? LineTokenizer.split(command)) ?? []).map(\.text)
        let typed = words.dropFirst().first { $0.hasPrefix("/") || $0.hasPrefix("{{") }
        let written = typed.map { MockRequest.split(String($0.split(separator: "?", maxSplits: 1).first ?? "")) } ?? []
        // A typed path is the end of the one sent (`/notes/{{id}}` of `/v1/notes/5`, under a base URL's path);
        // a typed URL (`{{upload_url}}`) is all of it.
        let offset = concrete.count - written.count
        let aligned = offset == 0 || offset > 0 && typed?.hasPrefix("/") == true
        let wholeVariable = typed.map { $0.hasPrefix("{{") && $0.hasSuffix("}}") && !$0.dropFirst(2).includes(ascii: "{{") } ?? false
        let named: [String: String] = wholeVariable ? Dictionary(bindings.compactMap { name, value in
            guard case let .string(text) = value, !text.isEmpty, !text.contains("/") else {
                if case let .number(text) = value { return (text, name) }
                return nil
            }
            return (text, name)
        }, uniquingKeysWith: min) : [:]
        let segments: [MockRequest.Segment] = concrete.enumerated().map { n, part in
            guard aligned, n >= offset, written[n - offset].includes(ascii: "{{"), written[n - offset] != "{{base_url}}" else {
                if let name = named[part] { return .variable(name) }
                return part.contains(anySecret) ? .variable(nil) : .literal(part)
            }
            let inner = written[n - offset]
            if inner.hasPrefix("{{"), inner.hasSuffix("}}"), !inner.dropFirst(2).includes(ascii: "{{") {
                let name = String(inner.dropFirst(2).dropLast(2)).trimmingBlanks()
                return .variable(name.hasPrefix("secret:") ? nil : name)
            }
            return .variable(nil)
        }
        let query = (URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { item in
            MockRequest.Query(name: item.name, value: item.value.map { $0.contains(anySecret) ? nil : $0 } ?? "")
        }
        var body = MockRequest.Body.none
        if let bytes = request.body, !bytes.isEmpty {
            if let json = try? JSONParser.parse(bytes), (request.header("Content-Type") ?? "").contains("json") {
                body = .json(hidingSecrets(json, secrets))
            } else {
                body = .other
            }
        }
        var recorded = MockRequest(method: request.method, segments: segments, query: query, body: body)
        recorded.validator = request.header("If-None-Match") ?? request.header("If-Modified-Since")
        return recorded
    }

    /// The placeholder base as text (no trailing slash), as values hold it.
    private static let base = placeholderBase.absoluteString

    private static func hidingSecrets(_ value: JSONValue, _ secrets: Set<String>) -> JSONValue {
        switch value {
        case let .string(text) where text.contains(anySecret) || secrets.contains(text): return .string(MockRequest.any)
        case let .string(text) where text.contains(base): return .string(text.replacingOccurrences(of: base, with: MockRequest.base))
        case let .object(members): return .object(members.map { ($0.key, hidingSecrets($0.value, secrets)) })
        case let .array(items): return .array(items.map { hidingSecrets($0, secrets) })
        default: return value
        }
    }
}

/// The transport of a derivation: answers each request with what the
/// current step recorded, and keeps the requests it is sent. A step recorded
/// after a refresh is answered 401 first, then its refresh, then the
/// recording, so the interpreter goes the way it went.
final class RecordedAnswers: HTTPTransport, @unchecked Sendable {
    let eventLoop: any EventLoop
    private let profile: Profile
    /// Where the derivation's requests go (`MockDerivation.placeholderBase`, with the recording's base path).
    private let base: URL
    private let lock = NSLock()
    private var step: TranscriptStep?
    private var bindings: [String: JSONValue] = [:]
    private var owesExpiry = false
    /// The 401 of a step recorded after a refresh was sent: the refresh that follows is the session's own.
    private var owesRefresh = false
    private var requests: [PreparedRequest] = []

    init(profile: Profile, base: URL = MockDerivation.placeholderBase, eventLoop: any EventLoop) {
        self.profile = profile
        self.base = base
        self.eventLoop = eventLoop
    }

    func begin(_ step: TranscriptStep, bindings: [String: JSONValue]) {
        lock.withLock {
            self.step = step
            self.bindings = bindings
            owesExpiry = step.expectation.refreshed
            owesRefresh = false
            requests = []
        }
    }

    /// The request the step's recorded answer answered, if it made one.
    func finish() -> PreparedRequest? {
        lock.withLock {
            defer { step = nil }
            return requests.last
        }
    }

    nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse {
        lock.withLock { answer(request) }
    }

    private func answer(_ request: PreparedRequest) -> ReceivedResponse {
        let json = [HTTPHeader(name: "Content-Type", value: "application/json")]
        // The session's own refresh, after the 401 below; a step that posts to the refresh path itself (a test of
        // a bogus refresh token, answered 401) is answered as recorded (it got fresh tokens).
        if owesRefresh, let auth = profile.auth, let refreshPath = auth.refreshPath, request.method == "POST",
           MockRequest.isRefresh(path: request.url.path, query: (URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? [])
                .map { ($0.name, $0.value ?? "") }, refreshPath: refreshPath, basePath: base.path) {
            owesRefresh = false
            let body = auth.refreshAnswer(accessToken: MockDerivation.anySecret + "-access_token", refreshToken: MockDerivation.anySecret + "-refresh_token")
            return ReceivedResponse(status: 200, reason: "OK", headers: json, body: JSONPrinter.compactUTF8(body))
        }
        guard let step else {
            return ReceivedResponse(status: 404, reason: "Not Found", headers: json, body: JSONPrinter.compactUTF8(
                profile.errorEnvelope.body(status: 404, code: "NOT_RECORDED", message: "no step is running")))
        }
        if owesExpiry {
            owesExpiry = false
            owesRefresh = true
            return ReceivedResponse(status: 401, reason: "Unauthorized", headers: json, body: JSONPrinter.compactUTF8(
                profile.errorEnvelope.body(status: 401, code: "TOKEN_EXPIRED", message: "access token expired")))
        }
        requests.append(request)
        let expectation = step.expectation
        var values = Materializer(seed: step.line, bindings: bindings, baseURL: base.absoluteString,
                                  secret: { "\(MockDerivation.anySecret)-\($0)" })
        // The body first, as the mock serves it: a capture it binds is what a header names (`Location: /orders/{{order_id}}`).
        let made = expectation.body.flatMap { if case let .json(expected) = $0 { values.value(expected) } else { nil } }
        var headers = expectation.headers.map { HTTPHeader(name: $0.name, value: values.text($0.value)) }
        var body: [UInt8] = []
        switch expectation.body {
        case .json?:
            body = JSONPrinter.compactUTF8(made ?? .null)
            if !headers.contains(where: { $0.hasName("Content-Type") }) { headers += json }
        case let .text(lines)?:
            body = Array(lines.map { values.text($0) }.joined(separator: "\n").utf8)
        case .binary?, nil:
            break
        }
        return ReceivedResponse(status: expectation.status ?? 200, reason: expectation.reason, headers: headers, body: body)
    }
}
