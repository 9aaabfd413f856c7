import Core

/// What `explorer mock` serves from one transcript (docs/mock.md): its steps
/// that a client sets off, each with the request (or socket, or frame) that
/// sets it off and the answer it recorded. The explorer works the requests
/// out by running the transcript through its own interpreter; this library
/// only serves them.
public struct MockScript: Sendable {
    /// The transcript's path, as given, for messages.
    public var file: String
    /// Its profile: the error envelope of the mock's own errors, the refresh path.
    public var profile: Profile
    public var steps: [MockStep]
    /// A last step the file ends in the middle of: not served.
    public var torn: TornStep?
    /// Steps left out, each with its line and why (`9: the last response is not JSON`).
    public var leftOut: [(line: Int, reason: String)]
    /// The path of the base URL it was recorded against (`/v1` of `https://api.example.com/v1`), no
    /// trailing slash: its requests were sent under it, and its `{{base_url}}` is the mock's address with it.
    public var basePath: String {
        didSet { for n in steps.indices { steps[n].basePath = basePath } }
    }

    public init(file: String, profile: Profile, steps: [MockStep], torn: TornStep? = nil, leftOut: [(line: Int, reason: String)] = [],
                basePath: String = "") {
        self.file = file
        self.profile = profile
        self.steps = steps
        self.torn = torn
        self.leftOut = leftOut
        self.basePath = basePath
        for n in self.steps.indices { self.steps[n].basePath = basePath }
    }

    /// The steps an HTTP request sets off, in order.
    var requestSteps: [MockStep] { steps.filter { if case .request = $0.trigger { true } else { false } } }
}

/// One recorded step the mock answers.
public struct MockStep: Sendable {
    public enum Trigger: Sendable {
        /// An HTTP request, answered with the recorded status, headers and body.
        case request(MockRequest)
        /// `ws connect`: a socket opened on this path (query left out).
        case socket(path: String)
        /// `ws send`: a frame the client sends; the step's received frames answer it.
        case frame(ExpectedFrame.Content)
    }

    /// 1-based line of the step's command in its transcript.
    public var line: Int
    public var command: String
    public var trigger: Trigger
    /// What was recorded: the answer, and frames the socket received.
    public var expectation: Expectation
    /// The session's variables when the step ran (a `capture` or `set` before
    /// it), for the `{{name}}` of its answer.
    public var bindings: [String: JSONValue]
    /// Received frames of the `ws recv` steps right after it: sent once it is answered.
    public var pushes: [ExpectedFrame]
    /// Its script's `basePath`.
    var basePath = ""

    public init(line: Int, command: String, trigger: Trigger, expectation: Expectation,
                bindings: [String: JSONValue] = [:], pushes: [ExpectedFrame] = []) {
        self.line = line
        self.command = command
        self.trigger = trigger
        self.expectation = expectation
        self.bindings = bindings
        self.pushes = pushes
    }

    /// Frames the socket receives when the step is answered.
    var receivedFrames: [ExpectedFrame] { expectation.frames.filter { $0.direction == .received } + pushes }
}

/// A request as a step made it, worked out when the mock starts.
public struct MockRequest: Sendable, Equatable {
    public enum Segment: Sendable, Equatable {
        case literal(String)
        /// A `{{name}}` of the command line (or a secret): any value, bound to `name`.
        case variable(String?)
    }

    public enum Body: Sendable, Equatable {
        case none
        /// Members to compare; a string equal to `MockRequest.any` matches any value.
        case json(JSONValue)
        /// A body that is not JSON (a form, a file, multipart): not compared.
        case other
    }

    /// Stands for a value the recording hid (a password, a token).
    public static let any = "\u{0}any\u{0}"
    /// Stands for the server's own base URL in a recorded value (an image URL
    /// the mock handed out): the mock's, whatever its port.
    public static let base = "\u{0}base\u{0}"

    public var method: String
    public var segments: [Segment]
    /// Recorded query items; a nil value matches any value.
    public var query: [Query]
    public var body: Body
    /// The validator a conditional request was recorded with (`If-None-Match`'s, else
    /// `If-Modified-Since`'s): a recorded 304 answers that one alone.
    public var validator: String?

    public struct Query: Sendable, Equatable {
        public var name: String
        public var value: String?
        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    public init(method: String, segments: [Segment], query: [Query] = [], body: Body = .none) {
        self.method = method
        self.segments = segments
        self.query = query
        self.body = body
    }

    /// `/api/tasks/{{task_id}}`, as messages write the recorded path.
    public var pathText: String {
        "/" + segments.map { segment in
            switch segment {
            case let .literal(text): return text
            case let .variable(name): return "{{\(name ?? "*")}}"
            }
        }.joined(separator: "/")
    }

    /// The path split as the mock compares it: no empty segments.
    public static func split(_ path: String) -> [String] { path.split(separator: "/", omittingEmptySubsequences: true).map(String.init) }

    /// Whether a request to `path` with `query` is a POST to a profile's
    /// refresh path (under `basePath`): the same segments, and each query
    /// item the refresh path names (GoTrue's `/auth/v1/token?grant_type=refresh_token`,
    /// which compared whole with the request's path was never one).
    public static func isRefresh(path: String, query: [(name: String, value: String)], refreshPath: String, basePath: String) -> Bool {
        let parts = refreshPath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard split(basePath + parts[0]) == split(path) else { return false }
        guard parts.count == 2 else { return true }
        return parts[1].split(separator: "&").allSatisfy { pair in
            let item = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return query.contains { $0.name == item[0] && (item.count == 1 || $0.value == item[1]) }
        }
    }
}

/// A request as it reached the mock.
/// Its path and body are split and parsed once, here: a request is compared
/// with every recorded step of its shape.
struct LiveRequest: Sendable {
    let method: String
    let path: String
    let segments: [String]
    let query: [(name: String, value: String)]
    let body: [UInt8]
    /// The body as JSON, when it parses.
    let json: JSONValue?
    /// `http://host:port` as the client reached the mock.
    let base: String
    /// It carries a credential (an Authorization header or a cookie).
    var signedIn = false
    /// It asks only for a change (`If-None-Match`, `If-Modified-Since`): a 304 answers nothing else.
    var conditional: Bool { validator != nil }
    /// Its `If-None-Match`, else its `If-Modified-Since`.
    var validator: String?

    /// The path as its segments make it (`/items/7/` is `/items/7`, as it
    /// matches): where a change is noted, so a trailing slash finds a
    /// deleted item deleted (it was served again).
    var place: String { "/" + segments.joined(separator: "/") }

    /// The path as a message may show it: a segment shaped like a credential
    /// (a JWT; 16 characters or more of letters and digits mixed, not a UUID
    /// or hex) hidden. Reset, verify and magic-link tokens travel in paths,
    /// and the 404's message and the log wrote them in clear.
    var shownPath: String { Self.shown(path: path) }

    static func shown(path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            let text = String(segment)
            let letters = text.contains { $0.isLetter }, digits = text.contains { $0.isNumber }
            let credential = Redactor.looksLikeJWT(text)
                || (text.count >= 16 && letters && digits && !TranscriptPattern.isUUID(text) && !text.allSatisfy(\.isHexDigit))
            return credential ? Redactor.hidden(text) : text
        }.joined(separator: "/")
    }

    /// A query's items as a client means them: `+` is a space, as a form,
    /// Python's urlencode and URLSearchParams write one (`q=hello+world`
    /// fitted no step recorded with `q==hello world`); names are left
    /// percent-encoded for `init` to decode.
    static func queryItems(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let spaced = { (text: Substring) in text.replacingOccurrences(of: "+", with: " ") }
            let value = parts.count > 1 ? spaced(parts[1]) : ""
            return (spaced(parts[0]), value.removingPercentEncoding ?? value)
        }
    }

    /// `path` as it came (percent-encoded); each segment is compared as the
    /// client meant it, as recorded ones are (`/echo/%E4%BB%BB%E5%8A%A1` is
    /// `/echo/任务`), and so is each query name (values come decoded).
    init(method: String, path: String, query: [(name: String, value: String)], body: [UInt8], base: String) {
        self.method = method
        self.path = path.removingPercentEncoding ?? path
        segments = MockRequest.split(path).map { $0.removingPercentEncoding ?? $0 }
        self.query = query.map { ($0.name.removingPercentEncoding ?? $0.name, $0.value) }
        self.body = body
        json = body.isEmpty ? nil : try? JSONParser.parse(body)
        self.base = base
    }
}

/// How well a live request fits a recorded one.
struct Fit: Sendable {
    /// Parts that are equal; the best fit of several answers.
    var score: Int
    /// The first part that differs, in words (`body .price expected a number`); nil when it fits.
    var difference: String?
    /// Values of the recorded path's `{{name}}` segments.
    var bound: [String: JSONValue] = [:]

    var fits: Bool { difference == nil }
}

extension MockRequest {
    /// Compares in the order a reader would: method, path, query, body.
    func fit(_ live: LiveRequest) -> Fit {
        var fit = Fit(score: 0)
        let method = live.method == "HEAD" ? "GET" : live.method
        let parts = live.segments
        // A step that does not fit is still ranked by how much of its path does, for the 404's "closest":
        // `PUT /items/7` was said to be closest to a login (by another method, all were equal), not to
        // `PATCH /items/{{item_id}}`; `/auth/reset/…` to `/items`, not to `/auth/login`.
        let samePrefix = zip(parts, segments).prefix { part, segment in
            if case let .literal(text) = segment { text == part } else { true }
        }.count
        guard method == self.method || live.method == self.method else {
            fit.difference = "method \(live.method), recorded \(self.method)"
            fit.score = samePrefix
            return fit
        }
        fit.score += 1
        guard parts.count == segments.count else {
            fit.difference = "path \(live.shownPath), recorded \(pathText)"
            fit.score += samePrefix
            return fit
        }
        for (part, segment) in zip(parts, segments) {
            switch segment {
            case let .literal(text) where text != part:
                fit.difference = "path \(live.shownPath), recorded \(pathText)"
                return fit
            case let .variable(name?):
                // As the client meant it (`a%20b` is `a b`, decoded with the request); a number only as it would be
                // written (`007` is text). The session's own binding decides in the end (`MockBook.Session.bind`).
                let value = part
                fit.bound[name] = Int(value).flatMap { String($0) == value ? JSONValue.int($0) : nil } ?? .string(value)
            case .variable(nil):
                break
            case .literal:
                // A literal segment says more than a variable one: `/api/tasks/4` over `/api/tasks/{{task_id}}`.
                fit.score += 1
            }
            fit.score += 1
        }
        // A name given more than once (`tag==a tag==b`) holds its values in order: each was compared
        // with the first live one, and the recording's own request never fitted.
        var names: [String] = []
        for item in query where !names.contains(item.name) { names.append(item.name) }
        for name in names {
            let recorded = query.filter { $0.name == name }.map(\.value)
            let values = live.query.filter { $0.name == name }.map(\.value)
            guard !values.isEmpty else {
                fit.difference = "query \(name) missing"
                return fit
            }
            guard values.count == recorded.count else {
                fit.difference = "query \(name) given \(values.count) time\(values.count == 1 ? "" : "s"), recorded \(recorded.count)"
                return fit
            }
            for (value, found) in zip(recorded, values) {
                if let value, value != Self.any, value != found {
                    // Live values are not written out: a query may carry a key; nor a recorded secret's.
                    fit.difference = "query \(name) differs (recorded \(Redactor.isSecretParameter(name) ? Redactor.hidden(value) : value))"
                    return fit
                }
                fit.score += 1
            }
        }
        // A step recorded without a body is no answer to one that sends fields: a request with `title` was
        // answered a recorded `{"title": ["This field is required."]}`.
        if case .none = body, let fields = live.json, let named = Self.members(of: fields) {
            fit.difference = "the body sends \(named), the recorded request sent none"
            return fit
        }
        // A form's fields too (`title=Hello&body=World` was answered the empty POST's field errors).
        if case .none = body, live.json == nil, !live.body.isEmpty {
            fit.difference = "the body sends \(live.body.count) bytes, the recorded request sent none"
            return fit
        }
        guard case let .json(recorded) = body else { return fit }
        guard let actual = live.json else {
            fit.difference = live.body.isEmpty ? "no body, recorded a JSON body" : "body is not JSON, recorded a JSON body"
            return fit
        }
        if let difference = Self.difference(recorded, actual, at: "body", base: live.base, score: &fit.score) { fit.difference = difference }
        return fit
    }

    /// A JSON body's members, as a difference names them (`title, price`); nil for one without any.
    private static func members(of value: JSONValue) -> String? {
        switch value {
        case let .object(members) where !members.isEmpty:
            let names = members.prefix(3).map(\.key).joined(separator: ", ")
            return names + (members.count > 3 ? ", …" : "")
        case let .array(items) where !items.isEmpty: return "a list of \(items.count)"
        default: return nil
        }
    }

    /// The first place `actual` differs from what was sent when recording.
    /// Members the recording sent must be there; others are let through.
    private static func difference(_ recorded: JSONValue, _ actual: JSONValue, at path: String, base: String, score: inout Int) -> String? {
        switch (recorded, actual) {
        case (.string(any), _) where any == Self.any:
            score += 1
            return nil
        case let (.string(text), _) where text.contains(Self.base):
            return difference(.string(text.replacingOccurrences(of: Self.base, with: base)), actual, at: path, base: base, score: &score)
        case let (.object(members), .object(live)):
            for member in members {
                // `body .variables.id`, as `show` writes a path (it read `body .variables .id`).
                let place = path + (path == "body" ? " ." : ".") + member.key
                // A key sent twice is its last value, as a server's JSON decoder (and `show`) reads it: the first matched
                // `{"title":"alpha","title":"beta"}` with alpha's step.
                guard let value = live.last(where: { $0.key == member.key })?.value else { return "\(place) missing" }
                if let difference = difference(member.value, value, at: place, base: base, score: &score) { return difference }
            }
            return nil
        case let (.array(items), .array(live)):
            guard items.count == live.count else { return "\(path) has \(live.count) elements, recorded \(items.count)" }
            for (n, (item, value)) in zip(items, live).enumerated() {
                if let difference = difference(item, value, at: path + (path == "body" ? " " : "") + "[\(n)]", base: base, score: &score) { return difference }
            }
            return nil
        default:
            guard recorded.kindName == actual.kindName else { return "\(path) expected \(recorded.kindName), got \(actual.kindName)" }
            // Live values are not written out: the member may be a password; nor a recorded secret's
            // (a hand-written `password=hunter2pass` was told to any client that tried another).
            guard recorded == actual else {
                let key = path.components(separatedBy: " .").last ?? ""
                let secret = Redactor.isSecretName(key) || Redactor.looksLikeJWT(recorded.stringValue ?? "")
                return "\(path) differs (recorded \(secret ? Redactor.hidden(JSONPrinter.compact(recorded)) : JSONPrinter.compact(recorded)))"
            }
            score += 1
            return nil
        }
    }
}
