/// How a `WebSocketSession` behaves. Defaults follow seed 000; tests shrink
/// the delays so a reconnect does not take real seconds.
public struct WebSocketOptions: Sendable {
    public var reconnect: ReconnectPolicy = .standard
    /// Protocol ping period; a ping not answered within one period counts as
    /// a drop (the connection is closed and reconnected). Nil: no heartbeat.
    public var heartbeat: Duration? = .seconds(30)
    /// How many message ids are remembered for de-duplication.
    public var deduplicationWindow = 1000
    /// Where a frame's message id is (LinkU: `{"type":"message","message":{"id":4}}`).
    /// Frames without one are never treated as duplicates.
    public var messageIDPath: JSONPath? = .known(".message.id")
    /// Messages waiting for an open socket; one more is refused with an error.
    public var queueLimit = 100
    /// Largest incoming message; a bigger one ends the connection.
    public var maximumMessageBytes = 16 * 1024 * 1024

    public init() {}
}
