/// WebSocket frames in a transcript (docs/transcripts.md, "WebSocket steps"):
/// `→` a frame the session sent, `←` one it received, each written as
/// pretty JSON with the same patterns as a body, or as text or a summary.

/// Which way a frame went.
public enum FrameDirection: Sendable, Equatable {
    case sent, received

    /// `→` or `←`, as the REPL shows frames and a transcript writes them.
    public var arrow: String { self == .sent ? "→" : "←" }
}

/// A frame as a step expects it.
public struct ExpectedFrame: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        /// A text frame holding JSON.
        case json(ExpectedValue)
        /// A text frame that is not JSON: `← (text) hello`.
        case text(PatternText)
        /// `← (binary frame, 12 bytes)`, compared as written.
        case binary(String)
        /// `← (closed 4003: quota exceeded)`: the server closed the socket
        /// with this code and reason (a replay waits for it as for a frame).
        case closed(code: Int, reason: String)
    }

    public var direction: FrameDirection
    public var content: Content

    public init(_ direction: FrameDirection, _ content: Content) {
        self.direction = direction
        self.content = content
    }
}

/// A frame as it went over the socket.
public struct ObservedFrame: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        case json(JSONValue)
        case text(String)
        /// A binary frame: only its size is kept.
        case binary(Int)
        /// The server's close frame: its code and reason.
        case closed(code: Int, reason: String)
    }

    public var direction: FrameDirection
    public var content: Content

    public init(_ direction: FrameDirection, _ content: Content) {
        self.direction = direction
        self.content = content
    }

    /// A text frame, as JSON when it parses.
    public init(_ direction: FrameDirection, text: String) {
        if let json = try? JSONParser.parse(text) { self.init(direction, .json(json)) } else { self.init(direction, .text(text)) }
    }

    /// An application-level heartbeat, `{"type": "ping"}` or `{"type": "pong"}`, or the legacy GraphQL
    /// protocol's (`graphql-ws`, Apollo's and Hasura's) `{"type": "ka"}`: its timing is the client's and the
    /// server's business, so transcripts neither write nor expect it (protocol pings never reach this far).
    /// A subscription's `ka` frames, written among its `data`, failed its replay on their timing alone.
    public var isHeartbeat: Bool {
        guard case let .json(.object(members)) = content, let type = members.first(where: { $0.key == "type" })?.value else { return false }
        return type == .string("ping") || type == .string("pong") || type == .string("ka")
    }

    static func binarySummary(_ count: Int) -> String { "binary frame, \(count) byte\(count == 1 ? "" : "s")" }

    /// `closed 4003: quota exceeded`, as a transcript writes a close (a line break in the reason as `\n`).
    static func closeSummary(code: Int, reason: String) -> String {
        "closed \(code)" + (reason.isEmpty ? "" : ": " + reason.replacingOccurrences(of: "\n", with: "\\n"))
    }

    /// A close as `closeSummary` wrote it, read back.
    static func close(summary: some StringProtocol) -> (code: Int, reason: String)? {
        guard summary.hasPrefix("closed ") else { return nil }
        let rest = summary.dropFirst("closed ".count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard let code = Int(digits), !digits.isEmpty else { return nil }
        let after = rest.dropFirst(digits.count)
        if after.isEmpty { return (code, "") }
        guard after.hasPrefix(": ") else { return nil }
        return (code, String(after.dropFirst(2)).replacingOccurrences(of: "\\n", with: "\n"))
    }
}

/// What a recording knows across frames: the ids it has turned into
/// captures, so that the same id seen again is written as `{{name}}`.
///
/// The rule: in a received frame, the `id` of an object that is the value of
/// a member `K` (`"message": {"id": 4, …}`) is written `{{K_id:=integer}}`
/// the first time that value is seen (`K_id_2`, `K_id_3` for later ones),
/// and a member `K_id` or `K.id` holding a value captured under that name
/// is written `{{K_id}}`. So a read receipt's `message_id` must equal the id
/// the ack handed out, and later command lines may use `{{message_id}}`.
public struct FrameCaptures: Sendable {
    /// Capture name → the value it holds, in the order bound.
    private(set) var bound: [(name: String, value: JSONValue)] = []

    public init() {}

    /// Knowing the captures a replay has bound so far (`--update`), so that
    /// frames written anew neither rebind their names nor miss a reference.
    public init(seeding captures: [String: Capture]) {
        bound = captures.sorted { $0.key < $1.key }.map { ($0.key, $0.value.value) }
    }

    /// The value capture `name` holds, as a command line would use it.
    public func text(of name: String) -> String? { bound.first { $0.name == name }?.value.plainText }

    /// The first capture holding `text` (as a command line would write it).
    public func name(holding text: String) -> String? { bound.first { $0.value.plainText == text }?.name }

    /// The name a value is captured under for member `base` (`message_id`), if any.
    func name(for value: JSONValue, base: String) -> String? {
        bound.first { $0.value == value && ($0.name == base || $0.name.hasPrefix(base + "_")) }?.name
    }

    mutating func bind(_ value: JSONValue, base: String) -> String {
        let taken = Set(bound.map(\.name))
        var name = base
        var n = 2
        while taken.contains(name) || TranscriptPattern.kindWords[name] != nil {
            name = "\(base)_\(n)"
            n += 1
        }
        bound.append((name, value))
        return name
    }
}

extension ExpectedFrame {
    /// A frame as a recording writes it: JSON as a body would be written
    /// (secrets, timestamps, UUIDs, the base URL), plus the id captures of
    /// `FrameCaptures` for received frames.
    public static func recording(_ frame: ObservedFrame, baseURL: String?, secretFields: SecretFields = .none,
                                 captures: inout FrameCaptures) -> ExpectedFrame {
        switch frame.content {
        case let .json(value):
            var written = ExpectedValue.recording(value, key: nil, baseURL: baseURL, secretFields: secretFields)
            if frame.direction == .received { written = withCaptures(written, live: value, parent: nil, captures: &captures) }
            return ExpectedFrame(frame.direction, .json(written))
        case let .text(text):
            return ExpectedFrame(frame.direction, .text(.recording(text.replacingOccurrences(of: "\n", with: "\\n"), baseURL: baseURL)))
        case let .binary(count):
            return ExpectedFrame(frame.direction, .binary(ObservedFrame.binarySummary(count)))
        case let .closed(code, reason):
            return ExpectedFrame(frame.direction, .closed(code: code, reason: reason))
        }
    }

    /// The frames a `ws recv` took, written as its body, as its `←` lines
    /// write them: an id they capture is of its kind here (`{{integer}}`),
    /// one an earlier step captured its reference. Written literally, a
    /// server that numbers otherwise (`explorer mock` of the transcript)
    /// failed the body where the `←` lines passed. Nothing is bound: the body
    /// is matched before the step's frames, which bind.
    public static func recordingTaken(_ written: ExpectedValue, live: JSONValue, captures: FrameCaptures) -> ExpectedValue {
        var trial = captures
        let known = Set(captures.bound.map(\.name))
        let marked = withCaptures(written, live: live, parent: nil, captures: &trial)
        let fresh = Dictionary(trial.bound.filter { !known.contains($0.name) }.map { ($0.name, $0.value.intValue != nil) }) { first, _ in first }
        func unbound(_ value: ExpectedValue) -> ExpectedValue {
            switch value {
            case let .pattern(pattern):
                if let name = pattern.capture, let integer = fresh[name] { return .pattern(.init(integer ? .integer : .string)) }
                if case let .reference(name) = pattern.kind, let integer = fresh[name] { return .pattern(.init(integer ? .integer : .string)) }
                return value
            case let .object(members, open): return .object(members.map { .init($0.key, unbound($0.value)) }, open: open)
            case let .array(items, contains): return .array(items.map(unbound), contains: contains)
            default: return value
            }
        }
        return unbound(marked)
    }

    /// `written` with ids turned into captures and references; `live` is the value it was written from.
    static func withCaptures(_ written: ExpectedValue, live: JSONValue, parent: String?,
                                     captures: inout FrameCaptures) -> ExpectedValue {
        switch (written, live) {
        case let (.object(members, open), .object(liveMembers)):
            var out: [ExpectedValue.Member] = []
            for member in members {
                guard let value = liveMembers.first(where: { $0.key == member.key })?.value else { out.append(member); continue }
                var isID = value.intValue != nil
                if case .string = value { isID = true }
                if case .literal = member.value, isID, member.key == "id", let parent {
                    let base = ExpectedValue.secretName(parent) + "_id"
                    if let name = captures.name(for: value, base: base) {
                        out.append(.init(member.key, .pattern(.init(.reference(name)))))
                    } else {
                        let name = captures.bind(value, base: base)
                        let kind: TranscriptPattern.Kind = value.intValue != nil ? .integer : .string
                        out.append(.init(member.key, .pattern(.init(kind, capture: name))))
                    }
                } else if case .literal = member.value, isID, member.key.hasSuffix("_id"), let name = captures.name(for: value, base: member.key) {
                    out.append(.init(member.key, .pattern(.init(.reference(name)))))
                } else {
                    out.append(.init(member.key, withCaptures(member.value, live: value, parent: member.key, captures: &captures)))
                }
            }
            return .object(out, open: open)
        case let (.array(items, contains), .array(liveItems)):
            return .array(zip(items, liveItems).map { withCaptures($0, live: $1, parent: parent, captures: &captures) }, contains: contains)
        default:
            return written
        }
    }
}
