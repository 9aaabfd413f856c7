import Core

/// What a command produced: a value the renderer shows, a recording keeps
/// and the exit status is computed from. The interpreter never prints and
/// never formats: each case is data, and `OutcomeText` (plain lines) and
/// `Renderer` (the terminal) turn it into text.
enum Outcome: Sendable {
    /// A request and its answer; `note` is shown after it ("logged in as
    /// alice"); `view` says which parts are printed (`--print`).
    case exchange(Exchange, note: String?, view: PrintParts = .plain)
    /// `--offline`: the request that would have been sent, and a note
    /// (the token kept back from another origin); `parts`, which of its
    /// head and body `-p` asks for (HTTPie's `--offline -p B` prints the body alone).
    case offline(PreparedRequest, note: String?, parts: PrintParts = [.requestHeaders, .requestBody])
    /// `--curl`: the request as a curl command would send it, and a note.
    /// `follow`: the most redirects the line follows, nil when it follows none.
    /// `bodyFile`: the file a line sent as its whole body (`@body.txt`), which curl reads itself.
    /// `removed`: the default headers the line removed (`User-Agent:`), which curl sends its own of unless told not to.
    case curl(PreparedRequest, follow: Int?, form: [CurlCommand.FormPart]? = nil, bodyFile: String? = nil, saving: CurlCommand.Saving? = nil,
              removed: [String] = [], note: String?)
    /// A JSON value picked by `show` or `capture`.
    /// `secret`: the value of a secret-named member (`show .access_token`),
    /// hidden where it is shown; a transcript's scrubber hides it there.
    case value(JSONValue, secret: Bool = false)
    /// `show` of an answer that is not JSON: its text, or what its bytes are.
    /// `hiding`: the credentials its request carried, hidden where the text echoes them.
    case body(ReceivedResponse, hiding: [String] = [])
    /// A confirmation or a state in a few plain words ("recording to FILE",
    /// "not logged in", "loaded 3 endpoints from FILE").
    case message(String)
    /// `vars`: every variable, secrets already hidden.
    case variables([Variable])
    /// `cookies`: the session's cookies (values hidden when shown).
    case cookies([Cookie])
    /// `header`: the session's headers and its query parameter (`?api_key=<hidden>`) when a profile gives
    /// one, values already hidden, and the origin they go to.
    case sessionHeaders([HTTPHeader], query: String?, origin: String)
    /// `defaults`: the options every request line gets.
    case defaults(RequestOptions)
    /// `endpoints`: the catalog entries that matched.
    case endpoints([Endpoint])
    /// `describe [METHOD] PATH`: the endpoints it names, with the profile their models come from.
    case endpointDetails([Endpoint], in: Profile)
    /// `describe MODEL`.
    case model(Model)
    /// `help`: every command; `help COMMAND`: one.
    case help([CommandSpec])
    case commandHelp(CommandSpec)
    /// `ws status`.
    case socketStatus(SocketStatus?)
    /// A one-line failure and the exit status it maps to.
    case failure(String, ExitStatus)
    /// A request that got no answer, with `-v` or `-p H`/`B`: the request
    /// as it went out (HTTPie prints it before sending), then the failure;
    /// with `--follow`, after the redirects answered on the way (`hops`).
    /// No request when the last hop was answered, a redirect `--follow`
    /// stopped at (`--max-redirects`, a `Location` that is no http(s) URL): the failure says why.
    case unanswered(PreparedRequest?, hops: [Exchange] = [], view: PrintParts, failure: String, ExitStatus)
    /// WebSocket frames taken by `ws recv`; `shortfall` says why fewer came
    /// than were asked for (`ws recv 12` that got 8), and makes it a failure.
    case frames([SocketNotice], shortfall: String?)
    case exit
    case nothing

    /// A variable as `vars` shows it.
    struct Variable: Sendable, Equatable {
        let name: String
        /// The value, or `<hidden: N characters>` for a secret.
        let shown: String
        /// Whether `shown` hides a secret: a transcript writes `<hidden>`,
        /// whose length a replay's own secret need not share.
        var hidden = false
    }

    /// A line Ctrl-C stopped before it had anything to show.
    var isCancellation: Bool {
        if case let .failure(text, _) = self { return text == Interpreter.cancelled || text == Interpreter.waitCancelled }
        return false
    }

    /// A line Ctrl-C stopped, before anything showed or in the middle of a
    /// stream: a recording leaves it out (a replay could not expect it; a
    /// stopped stream was written as a body "stopped: 1 line streamed
    /// above", which its replay waited 30 s for and failed).
    var isStoppedByUser: Bool {
        if isCancellation { return true }
        if case let .message(text) = self, text.hasPrefix(Interpreter.streamStopped) { return true }
        return false
    }

    /// Whether this outcome makes a script fail.
    var exitStatus: ExitStatus {
        switch self {
        case let .failure(_, status), let .unanswered(_, _, _, _, status): return status
        // A body that does not decode as its Content-Encoding says is a failed transfer, as curl (61) and HTTPie take it.
        case let .exchange(exchange, _, _):
            return exchange.response.status >= 400 || exchange.sessionExpired || exchange.refusal != nil || exchange.response.undecodable ? .runtime : .ok
        case .frames(_, shortfall: _?): return .runtime
        default: return .ok
        }
    }
}

/// `ws status`, as numbers and states.
struct SocketStatus: Sendable, Equatable {
    var state: String
    var url: String?
    var sent = 0, received = 0, duplicatesDropped = 0, queued = 0, reconnects = 0, notYetShown = 0, droppedUnread = 0
    /// Seconds between pings; nil: no heartbeat.
    var heartbeat: Duration?
    var reconnectAttempts = 0
    var firstReconnectDelay: Duration = .zero
}

/// Exit statuses for scripted use (README, "Scripts and other ways in").
enum ExitStatus: Int32, Sendable, Comparable {
    case ok = 0
    case usage = 1
    case parse = 2
    case runtime = 3
    case mismatch = 4

    static func < (a: ExitStatus, b: ExitStatus) -> Bool { a.rawValue < b.rawValue }
}
