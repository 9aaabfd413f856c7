/// What one step produced, as a transcript records and compares it: the
/// same parts a person sees in the REPL, without colours or timings.
public struct Observation: Sendable, Equatable {
    public enum Body: Sendable, Equatable {
        case json(JSONValue)
        /// Lines of text (a body that is not JSON, help, `vars`, `--offline`).
        case text([String])
        /// A one-line summary of a body that is not text: its type and size.
        case binary(String)
    }

    /// A 401 was answered by refreshing the access token and retrying.
    public var refreshed: Bool
    /// The HTTP status, when the step sent a request.
    public var status: Int?
    public var reason: String
    /// The status line's protocol, as the server wrote it.
    public var version = "HTTP/1.1"
    public var headers: [HTTPHeader]
    public var body: Body?
    /// One-line errors (`404 TASK_NOT_FOUND: task 99 not found`).
    public var errors: [String]
    /// One-line notes (`logged in as alice`).
    public var notes: [String]
    /// WebSocket frames taken for this step (heartbeats left out), in the order they went.
    public var frames: [ObservedFrame]
    /// How long a replay waited for `frames`, in seconds: fewer came than
    /// the step expects means none more came in that time.
    public var frameWait: Double?
    /// Why no more frames could come, when the wait ended for it (`the socket was closed`).
    public var framesEnded: String?

    public init(refreshed: Bool = false, status: Int? = nil, reason: String = "", headers: [HTTPHeader] = [],
                body: Body? = nil, errors: [String] = [], notes: [String] = [], frames: [ObservedFrame] = [], frameWait: Double? = nil) {
        self.frames = frames
        self.frameWait = frameWait
        self.refreshed = refreshed
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
        self.errors = errors
        self.notes = notes
    }
}
