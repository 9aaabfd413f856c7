import Core

/// What a command produced: a value the renderer shows and the exit status
/// is computed from. The interpreter never prints.
enum Outcome: Sendable {
    /// A request and its answer; `note` is shown after it ("logged in as
    /// alice"); `view` says which parts are printed (`--print`).
    case exchange(Exchange, note: String?, view: PrintParts = .responseBody)
    /// `--offline`: the request that would have been sent, and a note
    /// (the token kept back from another origin).
    case offline(PreparedRequest, note: String?)
    /// A JSON value picked by `show`.
    case value(JSONValue)
    /// Plain text (help, vars, messages).
    case text(String)
    /// A one-line failure and the exit status it maps to.
    case failure(String, ExitStatus)
    /// WebSocket frames taken by `ws recv`; `shortfall` says why fewer came
    /// than were asked for (`ws recv 12` that got 8), and makes it a failure.
    case frames([SocketNotice], shortfall: String?)
    case exit
    case nothing

    /// Whether this outcome makes a script fail.
    var exitStatus: ExitStatus {
        switch self {
        case let .failure(_, status): return status
        case let .exchange(exchange, _, _): return exchange.response.status >= 400 || exchange.sessionExpired ? .runtime : .ok
        case .frames(_, shortfall: _?): return .runtime
        default: return .ok
        }
    }
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
