import NIOCore
import NIOSSL
import WSClient

/// One line for a first connection that failed: refused, handshake
/// rejected (with the status and the backend's error envelope), TLS.
enum ConnectFailure {
    /// `url` is the attempt's full URL (the token is hidden in what is said).
    static func describe(_ error: (any Error)?, url: String?, session: AuthSession) async -> String {
        guard let error else { return "the connection ended before it opened" }
        let target = url.map(WebSocketAddress.redacted) ?? "the server"
        if let failure = error as? WebSocketAddress.Failure { return failure.description }
        if let auth = error as? AuthError { return auth.message }
        if let client = error as? WebSocketClientError, client == .webSocketUpgradeFailed {
            return "handshake rejected by \(target): " + (await rejection(url: url, session: session) ?? "no 101 Switching Protocols")
        }
        if error is NIOSSLError || String(reflecting: error).contains("SSL") {
            return "TLS failure with \(target): \(error)"
        }
        let text = String(reflecting: error)
        if text.contains("ECONNREFUSED") || text.contains("refused") || text.contains("errno: 111") {
            return "connection refused: \(target)"
        }
        if let client = error as? WebSocketClientError { return "\(client) (\(target))" }
        return "could not connect to \(target): \(error)"
    }

    /// WSClient reports a refused upgrade without its status, so the same
    /// URL is fetched with a plain GET, which a server answers the same way
    /// (the sandbox documents that its 401/403/404 match the upgrade's).
    private static func rejection(url: String?, session: AuthSession) async -> String? {
        guard let url, let request = try? session.builder.build(method: "GET", path: WebSocketAddress.httpScheme(url), items: []),
              let exchange = try? await session.send(request, isPublic: true, retry: false) else { return nil }
        let response = exchange.response
        guard response.status >= 400 else { return "HTTP \(response.status) \(response.reason)" }
        return session.profile.errorEnvelope.describe(status: response.status, body: response.json)
            ?? "HTTP \(response.status) \(response.reason)"
    }
}
