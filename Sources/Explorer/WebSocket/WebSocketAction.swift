import Core
import Foundation

/// `ws connect|send|recv|status|close`, parsed.
enum WebSocketAction: Sendable, Equatable {
    /// A ws:// URL or a /path; nil: the profile's socket (LinkU's chat).
    case connect(target: String?)
    /// A JSON frame, already validated (invalid JSON never gets this far).
    case send(JSONValue)
    case recv(count: Int, timeout: Double)
    case status
    case close

    static let subcommands = ["connect", "send", "recv", "status", "close"]
}

/// One line about the socket: a frame in or out, or a change of state.
struct SocketNotice: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case received, sent, state, problem
    }

    var time: Date
    var kind: Kind
    var text: String
}
