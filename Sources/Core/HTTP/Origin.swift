import Foundation

/// A URL's origin (RFC 6454): scheme, host and port. Credentials belong to
/// one origin, the backend's, and go nowhere else: not to another host typed
/// as a full URL, not to the same host on another port, not to `http` when
/// they were given over `https`. `ws`/`wss` count as `http`/`https`, since a
/// backend's socket shares its REST origin.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int

    /// Nil for a URL with no host or a scheme that has no default port.
    public init?(_ url: URL) {
        guard let rawScheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        let scheme: String
        switch rawScheme {
        case "http", "ws": scheme = "http"
        case "https", "wss": scheme = "https"
        default: return nil
        }
        self.scheme = scheme
        self.host = host
        port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    /// `https://api.example.com` or `http://127.0.0.1:8080`: the port only when it is not the default.
    public var description: String {
        let defaultPort = scheme == "https" ? 443 : 80
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return port == defaultPort ? "\(scheme)://\(shownHost)" : "\(scheme)://\(shownHost):\(port)"
    }

    /// The origin of `url` as it was named: `ws://h:1` for a socket's (a
    /// socket's origin counts as HTTP's, and was shown as `http://h:1`).
    public static func named(in url: URL) -> String? {
        guard let origin = Origin(url) else { return nil }
        return url.scheme?.lowercased().hasPrefix("ws") == true ? PatternText.socketURL(origin.description) : origin.description
    }
}

/// The one rule for attaching a session's credentials (the access token
/// today; session headers and cookies later) to a request: only when the
/// request goes to the origin the credentials belong to.
public struct CredentialScope: Sendable, Equatable {
    public let origin: Origin?
    /// Where the environment puts its sockets, when not at the base URL's
    /// origin (a profile's `websocket-url`): the backend's too.
    public let socketOrigin: Origin?

    public init(baseURL: URL, socketURL: URL? = nil) {
        origin = Origin(baseURL)
        socketOrigin = socketURL.flatMap(Origin.init)
    }

    /// Whether a request to `url` may carry the session's credentials.
    public func admits(_ url: URL) -> Bool {
        guard let origin, let target = Origin(url) else { return false }
        return origin == target || socketOrigin == target
    }

    /// The line that says why credentials were left off a request to `url`.
    /// `socket`: the target named as a socket's (`wss://host:port`).
    public func withheldNote(for url: URL, what: String = "token", socket: Bool = false) -> String {
        var target = Origin(url).map(\.description) ?? url.absoluteString
        if socket { target = PatternText.socketURL(target) }
        let own = origin.map(\.description) ?? "the backend"
        return "\(what) not sent: \(target) is not the backend's origin (\(own))"
    }
}
