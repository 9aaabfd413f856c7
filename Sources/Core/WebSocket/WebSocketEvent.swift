/// Everything a `WebSocketSession` reports, in order, on its `events` stream.
/// Core prints nothing: the REPL renders these, tests assert on them.
public enum WebSocketEvent: Sendable, Equatable {
    /// A connection attempt began; `attempt` is 0 for the first, then 1, 2… for retries.
    case connecting(attempt: Int)
    case open
    /// The socket ended. `code` and `reason` come from the server's close
    /// frame; both are nil when the connection just went away (a drop).
    case closed(code: Int?, reason: String?)
    /// The server broke the protocol, so this side closed the socket with
    /// the RFC 6455 `code` (1002, 1007, 1009); `reason` says why in one line.
    case broken(code: Int, reason: String)
    /// A reconnect is scheduled after this delay (the backoff schedule).
    case retrying(in: Duration, attempt: Int)
    /// The retries are used up; the session is over.
    case gaveUp
    /// The session is over without retrying: one line saying why (the
    /// server closed with a code another try would meet again).
    case ended(String)
    /// The first connection could not be made (refused, handshake rejected,
    /// TLS): one line saying why. The session is over.
    case failed(String)
    case received(SocketFrame)
    case sent(SocketFrame)
    /// After a reconnect, what the reconcile endpoint found that the socket
    /// had not delivered (possibly none).
    case reconciled(missed: [JSONValue])
    /// Reconciling failed; the socket itself is fine.
    case reconcileFailed(String)
}
