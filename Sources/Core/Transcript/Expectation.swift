/// What a transcript expects of one step: the lines after its command.
public struct Expectation: Sendable, Equatable {
    public enum Body: Sendable, Equatable {
        case json(ExpectedValue)
        /// The `| ` lines, one pattern text per line.
        case text([PatternText])
        /// `(binary body: TYPE, SIZE)`, compared as written.
        case binary(String)
    }

    /// `(access token refreshed; request retried)` before the status line.
    public var refreshed: Bool
    /// The status code; nil when the step sends no request (`show`, `set`, an error).
    public var status: Int?
    /// The reason phrase, for the reader: it is not compared (HTTP/2 has none).
    public var reason: String
    /// The status line's protocol (`HTTP/1.0` of an old server), for the reader too.
    public var version = "HTTP/1.1"
    /// Only the headers written are compared; names ignore case.
    public var headers: [(name: String, value: PatternText)]
    /// Nil means no body: a live body is then a mismatch.
    public var body: Body?
    public var errors: [PatternText]
    public var notes: [PatternText]
    /// WebSocket frames (`→` sent, `←` received), in the order written.
    public var frames: [ExpectedFrame]
    /// `(frames in any order)`: this step's frames may come in any order.
    public var framesInAnyOrder: Bool
    /// `(frames within 10 s)`: how long a replay waits for this step's
    /// frames; nil means `defaultFrameTimeout`.
    public var frameTimeout: Double?

    /// Headers (lower-cased) the next steps capture (`capture loc =
    /// header:Location`): a replay asks only that they are there, since the
    /// capture is what holds their value (a created thing's place, another on
    /// each run), and `--update` keeps them as written. Not in the file.
    public var capturedHeaders: Set<String> = []

    /// Seconds a replay waits for a step's frames unless the step says otherwise.
    public static let defaultFrameTimeout = 5.0

    public init(refreshed: Bool = false, status: Int? = nil, reason: String = "", headers: [(name: String, value: PatternText)] = [],
                body: Body? = nil, errors: [PatternText] = [], notes: [PatternText] = [], frames: [ExpectedFrame] = [],
                framesInAnyOrder: Bool = false, frameTimeout: Double? = nil) {
        self.frames = frames
        self.framesInAnyOrder = framesInAnyOrder
        self.frameTimeout = frameTimeout
        self.refreshed = refreshed
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
        self.errors = errors
        self.notes = notes
    }

    public static func == (a: Expectation, b: Expectation) -> Bool {
        a.refreshed == b.refreshed && a.status == b.status && a.reason == b.reason && a.version == b.version
            && a.headers.count == b.headers.count
            && zip(a.headers, b.headers).allSatisfy { $0.name == $1.name && $0.value == $1.value }
            && a.body == b.body && a.errors == b.errors && a.notes == b.notes
            && a.frames == b.frames && a.framesInAnyOrder == b.framesInAnyOrder && a.frameTimeout == b.frameTimeout
    }

    /// A `ws recv` whose frames, written as its body, hold a heartbeat
    /// (`{"type":"ping"}`) it took at the REPL: a replay hands it heartbeats.
    public var takesHeartbeats: Bool {
        guard case let .json(.array(elements, _))? = body else { return false }
        return elements.contains { element in
            guard case let .object(members, _) = element, let type = members.first(where: { $0.key == "type" })?.value else { return false }
            return type == .literal(.string("ping")) || type == .literal(.string("pong"))
        }
    }

    /// How many frames of each direction the step expects.
    public func frameCount(_ direction: FrameDirection) -> Int { frames.filter { $0.direction == direction }.count }
}
