/// How a `WebSocketSession` behaves. Defaults follow seed 000; tests shrink
/// the delays so a reconnect does not take real seconds.
public struct WebSocketOptions: Sendable {
    public var reconnect: ReconnectPolicy = .standard
    /// Headers typed on `ws connect`, sent with every handshake (the
    /// session's own headers join them on the backend's origin).
    public var headers: [HTTPHeader] = []
    /// The proxy the environment names (`HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY`), as for requests.
    public var proxies: ProxyRules?
    /// `--verify`, `--cert`, `--cert-key` for a `wss://` socket, as for
    /// requests; nil: the system's CAs, no client certificate.
    public var tls: TLSOptions?
    /// Where `tls`'s client certificate may be shown: a certificate of the
    /// session's goes only to the backend's origin. Nil: wherever the socket goes.
    public var certificateScope: CredentialScope?
    /// Protocol ping period. A ping still unanswered when the next one is due
    /// counts as a drop: the connection is closed and reconnected per
    /// `reconnect`, so a silent peer is noticed within two periods. Nil: no heartbeat.
    public var heartbeat: Duration? = .seconds(30)
    /// How long a connection must stay up, if no frame arrives on it, before
    /// its drop counts as a new run of failures (the tries start from 1
    /// again). A peer that accepts and then goes silent is given up on after
    /// `reconnect`'s tries, not retried for ever. Nil: three heartbeat
    /// periods, and at least a minute.
    public var healthyAfter: Duration?
    /// Longest wait for an attempt to open (TCP, TLS and the upgrade's answer).
    public var openTimeout: Duration = .seconds(10)
    /// Longest wait, after `close()` sends its close frame, for the peer's
    /// answer; a peer that never answers is then dropped.
    public var closeTimeout: Duration = .seconds(5)
    /// How many message ids are remembered for de-duplication.
    public var deduplicationWindow = 1000
    /// Frames larger than this are not parsed for a message id (so never
    /// treated as duplicates): a chat message is far smaller.
    public static let largestFrameCheckedForID = 1 << 20
    /// Where a frame's message id is (LinkU: `{"type":"message","message":{"id":4}}`).
    /// Frames without one are never treated as duplicates.
    public var messageIDPath: JSONPath? = .known(".message.id")
    /// Messages waiting for an open socket; one more is refused with an error.
    /// While the socket is open, one more waits for room instead (see `sendTimeout`).
    public var queueLimit = 100
    /// How long a send may wait for room in a full queue while the socket is
    /// open; a peer that takes no frame for this long gets an error.
    public var sendTimeout: Duration = .seconds(10)
    /// Largest incoming message; a bigger one ends the connection.
    public var maximumMessageBytes = 16 * 1024 * 1024
    /// Offer permessage-deflate (RFC 7692). A server that accepts it may send
    /// compressed frames, and this client compresses frames of 256 bytes or
    /// more; a server that does not answer it gets plain frames, as before.
    public var deflate = true

    public init() {}
}
