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
    /// `--until FILTER`: every frame up to the first that matches, `count` unused.
    /// `pretty`: JSON frames indented (`--pretty`).
    case recv(count: Int, timeout: Double, until: FrameFilter? = nil, pretty: Bool = false)
    /// `ws pretty [on|off]`: JSON frames indented as they arrive too; nil shows the setting.
    case pretty(Bool?)
    case status
    case close

    static let subcommands = ["connect", "send", "recv", "status", "close", "pretty"]
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
    /// `--verify`, `--cert`, `--cert-key` for a wss:// socket (only those
    /// members are set); the session's `defaults` fill in the rest.
    var tls = RequestOptions()

    /// The largest message taken (no flag: tests shrink it, so a message over
    /// it need not be megabytes).
    var maximumMessageBytes: Int?

    static let flags = ["--retries", "--backoff", "--heartbeat", "--verify", "--cert", "--cert-key"]
    /// The flags with what TAB says about each.
    static let flagHints: [SlotKind.Flag] = [
        .init(name: "--retries", hint: "N reconnect tries (0: never)"),
        .init(name: "--backoff", hint: "S seconds before the first try, doubling"),
        .init(name: "--heartbeat", hint: "S seconds between pings (0: none)"),
        .init(name: "--verify", hint: "yes|no|CA_FILE check a wss:// server's certificate"),
        .init(name: "--cert", hint: "FILE client certificate (PEM)"),
        .init(name: "--cert-key", hint: "FILE the client certificate's key (PEM)"),
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
        /// A line or event of a streamed HTTP answer.
        case streamed
        /// Text the renderer made already, printed as it is: the request a
        /// streamed answer went out with (`-v`), above its rows.
        case shown
    }

    var time: Date
    var kind: Kind
    var text: String
    /// A JSON frame shown indented over several lines (`ws recv --pretty`, `ws pretty on`).
    var pretty = false
    /// Printed as it came, while a `ws recv` at the REPL waited for it: the
    /// answer of that `ws recv` does not print it again.
    var shownAsItCame = false
    /// A received frame's number in the frame tap's order (`FrameTap.receivedSoFar`), while someone listens.
    var ordinal = 0
}

/// `ws recv --until '.msg_type == "execute_result"'`: the frame to wait for.
/// A JSON path alone matches a frame where it leads to a value (not null);
/// with `==` or `!=`, one whose value there is (or is not) the JSON given. A
/// bare word on the right is a string (`.type == message`).
struct FrameFilter: Sendable, Equatable {
    enum Test: Sendable, Equatable {
        case present
        case equals(JSONValue)
        case differs(JSONValue)
    }

    /// One `PATH`, `PATH == VALUE` or `PATH != VALUE`.
    struct Condition: Sendable {
        let path: JSONPath
        let test: Test
    }

    /// As typed, for messages.
    let text: String
    /// All must hold (`.type == "next" and .id == "1"`: with several subscriptions on one socket, the type alone
    /// took another's frame).
    let conditions: [Condition]

    static func == (a: FrameFilter, b: FrameFilter) -> Bool { a.text == b.text }

    /// Why a filter does not parse, and where in it.
    struct Problem: Error {
        let offset: Int
        let reason: String
    }

    init(_ text: String) throws(Problem) {
        self.text = text
        var conditions: [Condition] = []
        var offset = 0
        for part in Self.conjuncts(text) {
            do { conditions.append(try Self.condition(part)) } catch { throw Problem(offset: offset + error.offset, reason: error.reason) }
            offset += part.count + " and ".count
        }
        self.conditions = conditions
    }

    /// `text` cut at each ` and ` outside a quoted string.
    private static func conjuncts(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        var rest = Substring(text)
        while let character = rest.first {
            if !quoted, rest.hasPrefix(" and ") {
                parts.append(current)
                current = ""
                rest = rest.dropFirst(" and ".count)
                continue
            }
            if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { quoted.toggle() }
            current.append(character)
            rest = rest.dropFirst()
        }
        parts.append(current)
        return parts
    }

    private static func condition(_ text: String) throws(Problem) -> Condition {
        let comparison = [text.range(of: "=="), text.range(of: "!=")].compactMap { $0 }.min { $0.lowerBound < $1.lowerBound }
        let pathText = comparison.map { String(text[..<$0.lowerBound]) } ?? text
        let trimmed = pathText.trimmingBlanks()
        guard !trimmed.isEmpty else { throw Problem(offset: 0, reason: "the filter needs a JSON path first, as in .type == \"message\"") }
        let path: JSONPath
        do { path = try JSONPath.parse(trimmed) } catch {
            // `.count > 7`: an operator the filter does not have, not a stray blank in a path.
            let rest = trimmed.dropFirst(error.offset).trimmingBlanks()
            if comparison == nil, let op = ["<=", ">=", "<", ">", "=~", "="].first(where: { rest.hasPrefix($0) }) {
                throw Problem(offset: text.distance(from: text.startIndex, to: text.range(of: op)!.lowerBound),
                              reason: "'\(op)' is no comparison a filter makes: it takes == or != (.type == \"message\"), or a path alone")
            }
            throw Problem(offset: error.offset, reason: "\(error.reason) in the path")
        }
        guard let comparison else { return Condition(path: path, test: .present) }
        let valueText = text[comparison.upperBound...].trimmingBlanks()
        guard !valueText.isEmpty else {
            throw Problem(offset: text.distance(from: text.startIndex, to: comparison.upperBound), reason: "nothing to compare with after \(text[comparison])")
        }
        let value: JSONValue
        if let json = try? JSONParser.parse(Array(valueText.utf8)) {
            value = json
        } else if !valueText.contains(where: { $0 == " " || $0 == "\"" || $0 == "{" || $0 == "[" }) {
            value = .string(valueText)
        } else {
            throw Problem(offset: text.distance(from: text.startIndex, to: comparison.upperBound),
                          reason: "\(valueText) is not a JSON value (conditions are joined with and: .type == \"next\" and .id == \"1\")")
        }
        return Condition(path: path, test: text[comparison] == "==" ? .equals(value) : .differs(value))
    }

    /// Whether a received frame's text (JSON, or not: then never) matches every condition.
    func matches(_ frame: String) -> Bool {
        guard let json = try? JSONParser.parse(Array(frame.utf8)) else { return false }
        return conditions.allSatisfy { $0.matches(json) }
    }
}

extension FrameFilter.Condition {
    func matches(_ json: JSONValue) -> Bool {
        guard case let .success(found) = path.evaluate(json) else {
            if case .differs = test { return true }
            return false
        }
        switch test {
        case .present: return found != .null
        case let .equals(value): return found == value
        case let .differs(value): return found != value
        }
    }
}
