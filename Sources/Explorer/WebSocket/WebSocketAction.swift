import Core
import Foundation

/// `ws connect|send|recv|status|close`, parsed.
enum WebSocketAction: Sendable, Equatable {
    /// A ws:// URL or a /path; nil: the profile's socket (LinkU's chat).
    case connect(target: String?, settings: ConnectSettings = ConnectSettings())
    /// A JSON frame, already validated (invalid JSON never gets this far).
    case send(JSONValue)
    /// `ws send --text TEXT`: a text frame as typed, for protocols that are not JSON.
    case sendText(String)
    /// `ws send @file` (a JSON file, checked before sending) or `ws send
    /// --binary @file` (a binary frame of the file's bytes).
    case sendFile(path: String, binary: Bool)
    case recv(count: Int, timeout: Double)
    case status
    case close

    static let subcommands = ["connect", "send", "recv", "status", "close"]
}

/// `ws connect` flags; nil keeps the default (seed 000: 5 tries after
/// 1, 2, 4, 8, 16 s; a ping every 30 s).
struct ConnectSettings: Sendable, Equatable {
    /// `--retries N`: reconnect tries after a drop (0: never reconnect).
    var retries: Int?
    /// `--backoff S`: seconds before the first try, doubling for each next one.
    var backoff: Double?
    /// `--heartbeat S`: seconds between pings (0: no heartbeat).
    var heartbeat: Double?
    /// `Name:value` items: headers sent with the handshake.
    var headers: [HTTPHeader] = []

    /// The largest message taken (no flag: tests shrink it, so a message over
    /// it need not be megabytes).
    var maximumMessageBytes: Int?

    static let flags = ["--retries", "--backoff", "--heartbeat"]
    /// The flags with what TAB says about each.
    static let flagHints: [SlotKind.Flag] = [
        .init(name: "--retries", hint: "N reconnect tries (0: never)"),
        .init(name: "--backoff", hint: "S seconds before the first try, doubling"),
        .init(name: "--heartbeat", hint: "S seconds between pings (0: none)"),
    ]
    static let maximumRetries = 30

    init(retries: Int? = nil, backoff: Double? = nil, heartbeat: Double? = nil, maximumMessageBytes: Int? = nil) {
        self.retries = retries
        self.backoff = backoff
        self.heartbeat = heartbeat
        self.maximumMessageBytes = maximumMessageBytes
    }

    /// The session's options with these flags applied.
    var options: WebSocketOptions {
        var options = WebSocketOptions()
        if let retries { options.reconnect.attempts = retries }
        if let backoff { options.reconnect.initialDelay = .milliseconds(Int((backoff * 1000).rounded())) }
        if let heartbeat { options.heartbeat = heartbeat == 0 ? nil : .milliseconds(Int((heartbeat * 1000).rounded())) }
        if let maximumMessageBytes { options.maximumMessageBytes = maximumMessageBytes }
        options.headers = headers
        return options
    }
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
