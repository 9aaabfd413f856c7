import Core
import Crypto
import Foundation

/// How the mock picks the step that answers a request (docs/mock.md).
public enum MockMode: String, Sendable, CaseIterable {
    /// Any recorded step of the same method and path; the best fit answers.
    case match
    /// Each transcript in order, per client session: flows with state answer as recorded.
    case scenario
}

/// The mock's state: which step answers a request, and what each client
/// session has been handed so far (captured ids, tokens, refreshes owed,
/// open sockets). One lock; every decision is a few comparisons.
final class MockBook: @unchecked Sendable {
    let scripts: [MockScript]
    let mode: MockMode
    private let signer = TokenSigner(key: SymmetricKey(size: .bits256))
    private let lock = NSLock()
    private var sessions: [String: Session] = [:]

    /// One step of one script: `scripts[script].steps[step]`.
    struct StepKey: Hashable, Sendable {
        var script: Int
        var step: Int
    }

    struct Session {
        /// Per script, the index in `requestIndexes[script]` of the next request step (scenario).
        var cursors: [Int]
        /// Scripts this session still follows (scenario): those whose steps it has taken in order.
        var following: Set<Int>
        var bindings: [String: JSONValue] = [:]
        /// Steps recorded as `(access token refreshed; request retried)` already answered 401 once.
        var expired: Set<StepKey> = []
        var sockets: [ObjectIdentifier: MockSocket] = [:]
        /// Requests answered from a recording, for `/__mock/state`.
        var answered = 0
        /// `POST /__mock/reset?scenario=NAME`: the one transcript this session follows.
        var pinned: Int?
        /// The step answered last: among equal fits, the one after it in the same transcript wins (match).
        var last: StepKey?
        /// The `ws send` step a client frame was answered by last: the same frame sent again (a sync,
        /// a poll) is answered by the next step that fits after it, as requests are.
        var lastFrame: StepKey?
        /// Steps answered so far, each with the paths it was asked on: a step
        /// recorded after a change to its path (a GET after the DELETE) waits
        /// for that change on the same path (the DELETE of note 12 made every
        /// note 404: its template is every note's).
        var answeredSteps: [StepKey: Set<String>] = [:]

        mutating func answered(_ step: StepKey, on path: String) { answeredSteps[step, default: []].insert(path) }

        /// Whether the change recorded before `step` (if any) was answered on `path`.
        func settled(_ step: StepKey, on path: String, changedBefore: [StepKey: StepKey]) -> Bool {
            changedBefore[step].map { answeredSteps[$0]?.contains(path) ?? false } ?? true
        }
        /// The step that answered last, whichever way: `/__mock/state`'s `last` (`last` above leaves
        /// out a request scenario mode answered off its flow).
        var lastAnswered: StepKey?
        /// Frames a recording has after a connection lost (`← (closed 1006)`): what the server sent
        /// as the client connected again, for the session's next socket (`delivering`).
        var afterLoss: [MockSocket.Outgoing]?

        /// A step's bindings for its answer: the path's values (a second
        /// note read through the first's step) for this answer; the session
        /// keeps what it held (an id asked for once, `/notes/31337`, became
        /// every later answer's `note_id`).
        mutating func bind(_ fit: Fit, recorded: [String: JSONValue]) -> (bindings: [String: JSONValue], answerOnly: Set<String>) {
            // Of the type the session holds the name in, else the recording did: an id handed out as "1"
            // came back as the number 1, and an app decoding a String failed.
            let live = fit.bound.reduce(into: [String: JSONValue]()) { typed, pair in
                typed[pair.key] = (bindings[pair.key] ?? recorded[pair.key]).map { Self.typed(pair.value, like: $0) } ?? pair.value
            }
            let answerOnly = Set(live.compactMap { name, value in bindings[name].map { $0 == value ? nil : name } ?? nil })
            bindings.merge(live) { held, _ in held }
            return (bindings.merging(live) { _, live in live }, answerOnly)
        }

        /// A path's value as a string or a number, as `held` is one.
        private static func typed(_ value: JSONValue, like held: JSONValue) -> JSONValue {
            switch (held, value) {
            case (.string, .number): .string(value.plainText)
            // Any JSON number, as written: a price 19.990, 1e400 or an id past 64 bits stayed a string.
            case (.number, let .string(text)): JSONValue.number(written: text) ?? value
            default: value
            }
        }
    }

    /// The indexes in `steps` of each script's request steps.
    private let requestIndexes: [[Int]]
    /// Request steps by method and exact path, for those whose path has no `{{name}}`…
    private let byPath: [String: [StepKey]]
    /// …and by method and number of segments, for those whose path has one.
    private let templated: [String: [StepKey]]
    /// Per request step, the nearest step before it in its transcript that
    /// changed the same path (a POST, PUT, PATCH or DELETE to it).
    private let changedBefore: [StepKey: StepKey]

    /// Seconds the tokens the mock signs live.
    let tokenLifetime: Double

    init(scripts: [MockScript], mode: MockMode, tokenLifetime: Double = 900) {
        self.scripts = scripts
        self.mode = mode
        self.tokenLifetime = tokenLifetime
        requestIndexes = scripts.map { script in
            script.steps.indices.filter { if case .request = script.steps[$0].trigger { true } else { false } }
        }
        var byPath: [String: [StepKey]] = [:]
        var templated: [String: [StepKey]] = [:]
        for (n, script) in scripts.enumerated() {
            for (m, step) in script.steps.enumerated() {
                guard case let .request(request) = step.trigger else { continue }
                let literal = request.segments.allSatisfy { if case .literal = $0 { true } else { false } }
                if literal {
                    byPath[Self.pathKey(request.method, request.segments.count, request.pathText), default: []].append(StepKey(script: n, step: m))
                } else {
                    templated[Self.shapeKey(request.method, request.segments.count), default: []].append(StepKey(script: n, step: m))
                }
            }
        }
        self.byPath = byPath
        self.templated = templated
        var changedBefore: [StepKey: StepKey] = [:]
        for (n, script) in scripts.enumerated() {
            var changes: [String: StepKey] = [:]
            for (m, step) in script.steps.enumerated() {
                guard case let .request(request) = step.trigger else { continue }
                if let change = changes[request.pathText] { changedBefore[StepKey(script: n, step: m)] = change }
                if ["POST", "PUT", "PATCH", "DELETE"].contains(request.method) { changes[request.pathText] = StepKey(script: n, step: m) }
            }
        }
        self.changedBefore = changedBefore
    }

    private static func shapeKey(_ method: String, _ count: Int) -> String { "\(method) \(count)" }
    private static func pathKey(_ method: String, _ count: Int, _ path: String) -> String { "\(method) \(path)" }

    /// The request steps that can fit: the same method, and the same path or
    /// a template of as many segments, in file order. A thousand recorded
    /// steps cost a lookup, not a thousand comparisons.
    private func candidates(for request: LiveRequest) -> [StepKey] {
        let segments = request.segments
        let path = "/" + segments.joined(separator: "/")
        var keys: [StepKey] = []
        for method in request.method == "HEAD" ? ["HEAD", "GET"] : [request.method] {
            keys += byPath[Self.pathKey(method, segments.count, path)] ?? []
            keys += templated[Self.shapeKey(method, segments.count)] ?? []
        }
        return keys.sorted { ($0.script, $0.step) < ($1.script, $1.step) }
    }

    private func fresh(pinned: Int? = nil) -> Session {
        Session(cursors: Array(repeating: 0, count: scripts.count), following: pinned.map { [$0] } ?? Set(scripts.indices), pinned: pinned)
    }

    /// What answers an HTTP request.
    enum Decision {
        /// `answerOnly`: names whose value is this answer's, not the session's (`MockBook.Session.bind`).
        case answer(StepKey, Materializer, answerOnly: Set<String>)
        /// The first try of a step recorded after a refresh: 401, so the client refreshes.
        case expired(StepKey)
        /// A refresh the recording did not write: fresh tokens, in the profile's shape.
        case refresh(Profile)
        case unmatched(message: String, profile: Profile)
    }

    func decide(_ request: LiveRequest, session key: String, baseURL: String) -> Decision {
        lock.withLock {
            var session = sessions[key] ?? fresh()
            defer { sessions[key] = session }
            let candidates: [(StepKey, Fit)]
            switch mode {
            case .match:
                candidates = fits(request, among: self.candidates(for: request))
            case .scenario:
                var found = fits(request, among: next(in: session))
                if !found.contains(where: { $0.1.fits }) {
                    // Not the next step of any flow followed: maybe a new flow (a new login).
                    let restarted = fits(request, among: next(in: fresh(pinned: session.pinned)))
                    if restarted.contains(where: { $0.1.fits }) {
                        var restarting = fresh(pinned: session.pinned)
                        restarting.bindings = session.bindings
                        restarting.sockets = session.sockets
                        restarting.answered = session.answered
                        session = restarting
                        found = restarted
                    }
                }
                candidates = found
            }
            if mode == .scenario, !candidates.contains(where: { $0.1.fits }) {
                // A request the flow did not record in this place (a socket's
                // catch-up call, a poll): answered by its best fit anywhere; the flow stays where it is.
                // A step recorded after a change to its path waits for that change, and once it was answered here
                // tells the path's state better than one recorded before it (a deleted note came back).
                let anywhere = fits(request, among: self.candidates(for: request)).filter { $0.1.fits }
                let settled = { (key: StepKey) in
                    self.changedBefore[key] == nil ? 1 : session.settled(key, on: request.place, changedBefore: self.changedBefore) ? 2 : 0
                }
                if let best = anywhere.max(by: { (settled($0.0), $0.1.score) < (settled($1.0), $1.1.score) }) {
                    let step = scripts[best.0.script].steps[best.0.step]
                    session.answered += 1
                    session.answered(best.0, on: request.place)
                    session.lastAnswered = best.0
                    let (bindings, answerOnly) = session.bind(best.1, recorded: step.bindings)
                    return .answer(best.0, materializer(for: step, bindings: bindings, baseURL: baseURL), answerOnly: answerOnly)
                }
            }
            let fitting = candidates.filter { $0.1.fits }
            let last = session.last
            /// Equal fits go to the step after the last one answered, in its transcript: a flow read in order.
            /// In match mode a step recorded with a wrong secret (`login … {{secret:wrong_password}}`) comes
            /// last: a secret matches any value, so the same login got 200, then 401, then 200.
            /// Before either, a step whose path was changed before it (a GET after a DELETE) fits only once
            /// that change was answered: a note just made read back as the recorded 404 after its delete.
            /// First of all, a request that carries a credential goes to a step not answered 401 (an app's
            /// logged-in task list got "missing Authorization header"). Not the other way round: a login
            /// carries none, and its recorded wrong-password 401 would win.
            func rank(_ candidate: (StepKey, Fit)) -> (Int, Int, Int, Int, Int, Int) {
                let step = scripts[candidate.0.script].steps[candidate.0.step]
                let notRefusedWhenSignedIn = mode == .match && request.signedIn && step.expectation.status == 401 ? 0 : 1
                let plain = mode == .match && step.command.contains("{{secret:wrong_") ? 0 : 1
                let settled = session.settled(candidate.0, on: request.place, changedBefore: changedBefore) ? 1 : 0
                guard let last, candidate.0.script == last.script else { return (notRefusedWhenSignedIn, candidate.1.score, plain, settled, 0, 0) }
                let after = candidate.0.step > last.step
                return (notRefusedWhenSignedIn, candidate.1.score, plain, settled, after ? 2 : 1,
                        after ? -(candidate.0.step - last.step) : candidate.0.step - last.step)
            }
            guard let best = fitting.max(by: { rank($0) < rank($1) }) else {
                if let profile = refreshing(request) { return .refresh(profile) }
                // Scenario mode names the closest step anywhere, and the one the flow expected.
                let expected = mode == .scenario ? next(in: session).first : nil
                return unmatched(request, mode == .scenario || candidates.isEmpty ? allFits(request) : candidates, expected: expected)
            }
            let step = scripts[best.0.script].steps[best.0.step]
            // Only a client that sent a credential has one to expire: one that never logged in was told
            // "access token expired" (headers are not compared otherwise: it is answered as recorded).
            if step.expectation.refreshed, request.signedIn, !session.expired.contains(best.0) {
                session.expired.insert(best.0)
                return .expired(best.0)
            }
            session.last = best.0
            session.lastAnswered = best.0
            session.answered(best.0, on: request.place)
            if mode == .scenario {
                let chosen = Set(fitting.map(\.0.script))
                session.following = session.following.intersection(chosen)
                for key in fitting { session.cursors[key.0.script] += 1 }
            }
            session.answered += 1
            let (bindings, answerOnly) = session.bind(best.1, recorded: step.bindings)
            return .answer(best.0, self.materializer(for: step, bindings: bindings, baseURL: baseURL), answerOnly: answerOnly)
        }
    }

    /// After an answer: the captures it bound, for later answers of the session.
    func keep(_ bindings: [String: JSONValue], session key: String) {
        lock.withLock { sessions[key, default: fresh()].bindings.merge(bindings) { _, new in new } }
    }

    private func next(in session: Session) -> [StepKey] {
        session.following.sorted().compactMap { script in
            let cursor = session.cursors[script]
            guard cursor < requestIndexes[script].count else { return nil }
            return StepKey(script: script, step: requestIndexes[script][cursor])
        }
    }

    private func fits(_ request: LiveRequest, among keys: [StepKey]) -> [(StepKey, Fit)] {
        // The recorded requests of the same method and path, for the query rule below.
        var siblings: [MockRequest]?
        return keys.compactMap { key in
            let step = scripts[key.script].steps[key.step]
            guard case let .request(recorded) = step.trigger else { return nil }
            var fit = recorded.fit(request)
            // A 304 answers a conditional request alone: one without If-None-Match got an empty body, which an
            // app decoding the item failed on (RFC 9110 15.4.5).
            // (One recorded unconditional, from a server that answers 304 to any request, is served as recorded.)
            if fit.fits, step.expectation.status == 304, recorded.validator != nil, !request.conditional {
                fit.difference = "a 304 answers a conditional request (If-None-Match, If-Modified-Since), and this one is not"
            }
            // With the validator it was recorded with: a client whose copy is another (`"v1"` against `"v2"`) was
            // told its copy is current.
            if fit.fits, step.expectation.status == 304, let recorded = recorded.validator, let validator = request.validator,
               recorded.trimmingBlanks() != validator.trimmingBlanks() {
                fit.difference = "a 304 was recorded for the validator \(recorded), and this request asks with another"
            }
            // A query item the step did not record fits it (a cache-buster), unless another step of the same
            // method and path recorded that item: then its value says which answer. An unrecorded cursor was
            // answered with the first page, and a client paging to the end looped for ever.
            if fit.fits, case let extra = request.query.filter({ item in !recorded.query.contains { $0.name == item.name } }), !extra.isEmpty {
                siblings = siblings ?? candidates(for: request).compactMap { key in
                    if case let .request(other) = scripts[key.script].steps[key.step].trigger { other } else { nil }
                }
                if let item = extra.first(where: { item in
                    siblings!.contains { $0.method == recorded.method && $0.segments == recorded.segments && $0.query.contains { $0.name == item.name } }
                }) {
                    fit.difference = "query \(item.name) not recorded with this value"
                }
            }
            // A `{{name}}` segment recorded with a number (`/api/tasks/{{tid}}`, tid an id) takes a number:
            // `/api/tasks/搬` was answered 200 with `"id": "搬"`, and every later answer of the session
            // gave the id as a string, which an app decoding an Int could not read.
            if fit.fits, let (name, value) = fit.bound.first(where: { name, value in
                if case .number = step.bindings[name], case .string = value { true } else { false }
            }) {
                fit.difference = "path segment \(value.plainText) is not a number; {{\(name)}} was one"
            }
            return (key, fit)
        }
    }

    private func allFits(_ request: LiveRequest) -> [(StepKey, Fit)] {
        fits(request, among: scripts.indices.flatMap { script in requestIndexes[script].map { StepKey(script: script, step: $0) } })
    }

    /// A POST to a profile's refresh path that no step recorded.
    private func refreshing(_ request: LiveRequest) -> Profile? {
        guard request.method == "POST" else { return nil }
        return scripts.first { script in
            guard let path = script.profile.auth?.refreshPath else { return false }
            return MockRequest.isRefresh(path: request.path, query: request.query, refreshPath: path, basePath: script.basePath)
        }?.profile
    }

    /// `no recorded step for POST /api/tasks: closest is line 27 of create-task.transcript, body .price expected a number`
    private func unmatched(_ request: LiveRequest, _ candidates: [(StepKey, Fit)], expected: StepKey? = nil) -> Decision {
        let asked = "\(request.method) \(request.shownPath)"
        guard let closest = candidates.max(by: { $0.1.score < $1.1.score }) ?? allFits(request).max(by: { $0.1.score < $1.1.score }) else {
            return .unmatched(message: "no recorded step for \(asked): the transcripts record no requests", profile: scripts.first?.profile ?? .generic)
        }
        let script = scripts[closest.0.script]
        let step = script.steps[closest.0.step]
        let file = (script.file as NSString).lastPathComponent
        var message = "no recorded step for \(asked): closest is line \(step.line) of \(file)"
        if let difference = closest.1.difference { message += ", \(difference)" }
        // A client pointed at the mock's root for a transcript served under its base URL's path (`/v1`).
        if !script.basePath.isEmpty, request.path != script.basePath, !request.path.hasPrefix(script.basePath + "/") {
            message += "; \(file) was recorded under \(script.basePath) and is served there (\(script.basePath)\(request.shownPath))"
        }
        if let expected, expected != closest.0 {
            let next = scripts[expected.script].steps[expected.step]
            message += "; the flow expects line \(next.line) of \((scripts[expected.script].file as NSString).lastPathComponent) next: \(next.command)"
        }
        return .unmatched(message: message, profile: script.profile)
    }

    func materializer(for step: MockStep, bindings: [String: JSONValue], baseURL: String) -> Materializer {
        let signer = self.signer
        // A value worked out before the mock had an address holds the base as a marker.
        let recorded = step.bindings.mapValues { value in
            guard case let .string(text) = value, text.contains(MockRequest.base) else { return value }
            return JSONValue.string(text.replacingOccurrences(of: MockRequest.base, with: baseURL))
        }
        var made = Materializer(seed: step.line, bindings: recorded.merging(bindings) { _, session in session }, baseURL: baseURL + step.basePath,
                                secret: { [tokenLifetime] name in Self.secret(name, signer: signer, lifetime: tokenLifetime) })
        made.lifetime = Int(tokenLifetime)
        return made
    }

    /// A token-like secret is a freshly signed JWT; any other is a plain stand-in.
    /// `lifetime` is an access token's (`--token-ttl`): a refresh token lasts
    /// the sandbox's 30 days (the login's lasted `--token-ttl` too, so a
    /// client that reads its expiry logged in again instead of refreshing).
    static func secret(_ name: String, signer: TokenSigner, lifetime: Double = 900) -> String {
        let lower = name.lowercased()
        guard lower.contains("token") || lower == "jwt" else { return "mock-\(name)" }
        let refresh = lower.contains("refresh")
        let expires = Date().timeIntervalSince1970 + (refresh ? SandboxConfiguration().refreshTokenLifetime : lifetime)
        return signer.sign(.init(subject: "mock", kind: refresh ? "refresh" : "access", expires: expires, generation: 0,
                                 id: UUID().uuidString.lowercased()))
    }

    /// Fresh tokens where the profile's refresh answer keeps them, beside
    /// what a recorded login answered next to its access token (`token_type`,
    /// `expires_in`, as `--token-ttl` sets it): an app's refresh model that
    /// decodes those as the login's failed on the tokens alone.
    func refreshAnswer(_ profile: Profile, baseURL: String) -> JSONValue {
        guard let auth = profile.auth else { return .object([]) }
        var answer = auth.refreshAnswer(accessToken: Self.secret("access_token", signer: signer, lifetime: tokenLifetime),
                                        refreshToken: Self.secret("refresh_token", signer: signer))
        let parent = { (path: JSONPath) in JSONPath(components: Array(path.components.dropLast())) }
        let place = parent(auth.refreshedAccessTokenPath)
        guard let login = loginAnswer(auth, baseURL: baseURL), case let .success(.object(beside)) = parent(auth.accessTokenPath).evaluate(login),
              case let .success(refreshed) = place.evaluate(answer), case .object = refreshed else { return answer }
        for (key, value) in beside where !Redactor.isSecretName(key) && refreshed[key] == nil {
            let kept: JSONValue
            switch value {
            case .number where ["expires_in", "expiresin", "expires"].contains(key.lowercased()): kept = .int(Int(tokenLifetime))
            case let .string(text) where !Redactor.looksLikeJWT(text): kept = value
            case .number, .bool: kept = value
            default: continue
            }
            answer = answer.setting(JSONPath(components: place.components + [.key(key)]), to: kept)
        }
        return answer
    }

    /// What the first recorded login of `auth`'s profile answered, its
    /// placeholders filled in.
    private func loginAnswer(_ auth: AuthFlavour, baseURL: String) -> JSONValue? {
        for script in scripts where script.profile.auth?.loginPath == auth.loginPath {
            for step in script.requestSteps {
                guard case let .request(request) = step.trigger, request.method == "POST", request.pathText == auth.loginPath,
                      (step.expectation.status ?? 200) < 300, case let .json(expected)? = step.expectation.body else { continue }
                var values = materializer(for: step, bindings: [:], baseURL: baseURL)
                return values.value(expected)
            }
        }
        return nil
    }

    // MARK: sockets

    /// The step a socket opened on `path` plays, if one was recorded.
    func socketStep(path: String) -> StepKey? {
        let asked = MockRequest.split(path)
        for (n, script) in scripts.enumerated() {
            for (m, step) in script.steps.enumerated() {
                if case let .socket(recorded) = step.trigger, MockRequest.split(recorded) == asked { return StepKey(script: n, step: m) }
            }
        }
        return nil
    }

    /// The paths sockets were recorded on, for a message about another.
    var socketPaths: [String] {
        var paths: [String] = []
        for script in scripts {
            for step in script.steps {
                if case let .socket(path) = step.trigger, !paths.contains(path) { paths.append(path) }
            }
        }
        return paths
    }

    func open(_ socket: MockSocket, session key: String) {
        lock.withLock { sessions[key, default: fresh()].sockets[ObjectIdentifier(socket)] = socket }
    }

    /// `frames` for a socket: those up to a recorded loss (the loss too), the
    /// rest kept for the session's next socket, in place of the `ws connect`
    /// step's greeting (`Session.afterLoss`).
    func delivering(_ frames: [MockSocket.Outgoing], session key: String) -> [MockSocket.Outgoing] {
        guard let loss = frames.firstIndex(where: { if case let .closeAsRecorded(code, _) = $0 { code == CloseCode.lost } else { false } }) else {
            return frames
        }
        let rest = Array(frames[(loss + 1)...])
        lock.withLock { sessions[key, default: fresh()].afterLoss = rest.isEmpty ? nil : rest }
        return Array(frames[...loss])
    }

    /// What a new socket of the session is sent first after a recorded loss, if anything (taken).
    func greetingAfterLoss(session key: String) -> [MockSocket.Outgoing]? {
        lock.withLock {
            defer { sessions[key]?.afterLoss = nil }
            return sessions[key]?.afterLoss
        }
    }

    func close(_ socket: MockSocket, session key: String) {
        lock.withLock { _ = sessions[key]?.sockets.removeValue(forKey: ObjectIdentifier(socket)) }
    }

    /// What the session has bound so far.
    func bindings(session key: String) -> [String: JSONValue] {
        lock.withLock { sessions[key]?.bindings ?? [:] }
    }

    func sockets(session key: String) -> [MockSocket] {
        lock.withLock { sessions[key].map { Array($0.sockets.values) } ?? [] }
    }

    /// Whether a recorded client frame has this `type`: only such a type is
    /// named in a log or a close reason (a live frame's own may be a secret).
    func recordsFrameType(_ type: String) -> Bool {
        scripts.contains { script in
            script.steps.contains { step in
                guard case let .frame(.json(.object(members, _))) = step.trigger else { return false }
                return members.contains { $0.key == "type" && $0.value == .literal(.string(type)) }
            }
        }
    }

    /// The recorded `ws send` step a client frame matches, and the materializer its answer uses.
    func frameStep(_ frame: JSONValue?, text: String, session key: String, baseURL: String) -> (MockStep, Materializer)? {
        lock.withLock {
            let bindings = sessions[key]?.bindings ?? [:]
            var matcher = TranscriptMatcher(variables: bindings.mapValues(\.plainText))
            var fitting: [StepKey] = []
            /// Those the frame fits as recorded, member for member: chosen before one that lets its extra members through.
            var exact: Set<StepKey> = []
            /// The id the client gave its frame where the step's recorded one stood, by step.
            var ids: [StepKey: (recorded: JSONValue, live: JSONValue)] = [:]
            for (n, script) in scripts.enumerated() {
                for (m, step) in script.steps.enumerated() {
                    guard case let .frame(content) = step.trigger else { continue }
                    let fits: Bool
                    switch content {
                    case let .json(expected):
                        // As a request's body is: members the recording sent must be there, others are let through
                        // (Apollo sends `operationName` and `extensions` beside the query); and the frame's `id`, the
                        // client's own (graphql-ws, JSON-RPC), is any, answered with the client's.
                        let (trigger, recordedID) = Self.frameTrigger(expected)
                        fits = frame.map { matcher.match(trigger, $0).isEmpty } ?? false
                        if fits, let recordedID, let live = frame?["id"] { ids[StepKey(script: n, step: m)] = (recordedID, live) }
                        if fits, let frame, matcher.match(expected, frame).isEmpty { exact.insert(StepKey(script: n, step: m)) }
                    case let .text(pattern): fits = matcher.match(.text(pattern), .string(text)).isEmpty
                    case .binary, .closed: fits = false
                    }
                    if fits { fitting.append(StepKey(script: n, step: m)) }
                }
            }
            // The first that fits after the last one answered, in its transcript; else the first (a
            // second `sync` got the first one's answer, always).
            let last = sessions[key]?.lastFrame
            // `{"type":"sync","since":5}` fits a recorded `{"type":"sync"}` too: a step recorded with it goes first.
            let ranked = fitting.filter(exact.contains) + fitting.filter { !exact.contains($0) }
            guard let chosen = last.flatMap({ last in ranked.first { $0.script == last.script && $0.step > last.step } }) ?? ranked.first
            else { return nil }
            sessions[key, default: fresh()].lastFrame = chosen
            var step = scripts[chosen.script].steps[chosen.step]
            if let (recorded, live) = ids[chosen], recorded != live {
                step.expectation.frames = step.expectation.frames.map { Self.answering($0, id: recorded, with: live) }
                step.pushes = step.pushes.map { Self.answering($0, id: recorded, with: live) }
            }
            return (step, materializer(for: step, bindings: bindings, baseURL: baseURL))
        }
    }

    /// A recorded frame as the mock matches a client's: every object open to members not recorded, and a
    /// top-level literal `id` matching any (returned, for the answer to carry the client's in its place).
    static func frameTrigger(_ expected: ExpectedValue) -> (ExpectedValue, recordedID: JSONValue?) {
        func opened(_ value: ExpectedValue) -> ExpectedValue {
            switch value {
            case let .object(members, _): .object(members.map { .init($0.key, opened($0.value)) }, open: true)
            case let .array(items, contains): .array(items.map(opened), contains: contains)
            default: value
            }
        }
        guard case .object(var members, _) = opened(expected) else { return (opened(expected), nil) }
        guard let at = members.firstIndex(where: { $0.key == "id" }), case let .literal(id) = members[at].value, id != .null else {
            return (.object(members, open: true), nil)
        }
        members[at].value = .pattern(TranscriptPattern(.any))
        return (.object(members, open: true), id)
    }

    /// A received frame with the recorded `id` the client's frame had in its place: `next` and `complete`
    /// answer the client's subscription.
    static func answering(_ frame: ExpectedFrame, id recorded: JSONValue, with live: JSONValue) -> ExpectedFrame {
        guard case let .json(.object(members, open)) = frame.content else { return frame }
        var answered = frame
        answered.content = .json(.object(members.map { $0.key == "id" && $0.value == .literal(recorded) ? .init("id", .literal(live)) : $0 }, open: open))
        return answered
    }

    // MARK: control

    /// Every session starts over; or, given a scenario, the caller's session
    /// starts over following that transcript alone. False for a name no
    /// transcript has.
    func reset(session key: String, scenario: String?) -> Bool {
        lock.withLock {
            guard let scenario else {
                sessions = sessions.mapValues { old in var session = fresh(); session.sockets = old.sockets; return session }
                return true
            }
            guard let found = scripts.firstIndex(where: { Self.names($0.file).contains(scenario) }) else { return false }
            var session = fresh(pinned: found)
            session.sockets = sessions[key]?.sockets ?? [:]
            sessions[key] = session
            return true
        }
    }

    /// What a scenario can be called: the path as given, the file name with and without `.transcript`.
    static func names(_ file: String) -> [String] {
        let name = (file as NSString).lastPathComponent
        return [file, name, (name as NSString).deletingPathExtension]
    }

    /// `/__mock/state`: where each session is in each transcript.
    func state() -> JSONValue {
        lock.withLock {
            let shown = sessions.keys.sorted().map { key -> JSONValue in
                let session = sessions[key]!
                var members: [(key: String, value: JSONValue)] = [
                    ("session", .string(key.isEmpty ? "default" : key)), ("answered", .int(session.answered)), ("sockets", .int(session.sockets.count)),
                ]
                if let last = session.lastAnswered {
                    let step = scripts[last.script].steps[last.step]
                    members.append(("last", .string("\(scripts[last.script].file):\(step.line): \(step.command)")))
                }
                // Where each flow is: scenario mode only, since match mode follows none.
                guard mode == .scenario else { return .object(members) }
                let flows: [JSONValue] = scripts.indices.map { n in
                    let indexes = requestIndexes[n]
                    let cursor = session.cursors[n]
                    var flow: [(key: String, value: JSONValue)] = [
                        ("transcript", .string(scripts[n].file)),
                        ("steps", .int(indexes.count)),
                        ("done", .int(cursor)),
                        ("following", .bool(session.following.contains(n))),
                    ]
                    if cursor < indexes.count {
                        let step = scripts[n].steps[indexes[cursor]]
                        flow.append(("next", .string("line \(step.line): \(step.command)")))
                    }
                    return .object(flow)
                }
                members.append(("transcripts", .array(flows)))
                return .object(members)
            }
            return .object([("mode", .string(mode.rawValue)), ("sessions", .array(shown))])
        }
    }
}
