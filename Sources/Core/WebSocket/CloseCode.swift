/// What an RFC 6455 close code means (section 7.4.1), for a close frame
/// that comes with a code and no reason of its own.
public enum CloseCode {
    public static func meaning(_ code: Int) -> String? {
        switch code {
        case 1000: "normal closure"
        case 1001: "going away"
        case 1002: "protocol error: a frame broke RFC 6455"
        case 1003: "unsupported data"
        case 1007: "invalid payload data: text that is not UTF-8"
        case 1008: "policy violation"
        case 1009: "message too big"
        case 1010: "an extension the server did not agree to"
        case 1011: "internal server error"
        case 1012: "service restart"
        case 1013: "try again later"
        case 1014: "bad gateway"
        default: nil
        }
    }

    /// RFC 6455's code for a connection that ended with no close frame (never
    /// sent in one): how a transcript writes a lost connection, `← (closed 1006)`.
    public static let lost = 1006

    /// `4003: token expired`, `1011, internal server error`, `4999`.
    public static func describe(_ code: Int, reason: String?) -> String {
        if let reason, !reason.isEmpty { return "\(code): \(reason)" }
        return meaning(code).map { "\(code), \($0)" } ?? "\(code)"
    }

    /// Whether this side's WebSocket library may have sent the close first,
    /// failing the connection over a frame it could not accept (it keeps
    /// the reason to itself; the server's answer echoes the code).
    public static func mayBeOurs(_ code: Int) -> Bool {
        code == 1002 || code == 1007
    }
}
