import Foundation

/// Where a socket connects: a URL given by the user (`ws://…`, or a path
/// relative to the base URL), or the profile's template filled from the
/// login. Resolved again before every attempt, so a reconnect uses the
/// current token.
public enum WebSocketAddress: Sendable, Equatable {
    case url(String)
    case profileTemplate

    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The ws:// or wss:// URL for the next attempt. With the template, an
    /// access token that has expired (or will within 5 s) is refreshed first,
    /// and so is any token when `refresh` says the last handshake was refused
    /// (a server can revoke a token before its expiry).
    public func resolve(session: AuthSession, refresh: Bool = false) async throws -> String {
        let resolved = Self.encoded(try await unchecked(session: session, refresh: refresh))
        if let reason = Self.problem(resolved) { throw Failure(reason) }
        return resolved
    }

    /// `url` with each byte after its host that a URL cannot hold as it is
    /// (a space, a letter outside ASCII, `"`, `[`) percent-encoded, as an
    /// HTTP line's target is; an escape typed (`%20`) stays as it is. The
    /// client sent nothing for `?q=a b`, and its error said the server
    /// answered with something that is not HTTP.
    public static func encoded(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let bytes = Array(url.utf8)
        let afterScheme = url.utf8.distance(from: url.utf8.startIndex, to: scheme.upperBound)
        let pathStart = bytes[afterScheme...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
        let hex = Array("0123456789ABCDEF".utf8)
        var out = Array(bytes[..<pathStart])
        var changed = false
        for byte in bytes[pathStart...] {
            switch byte {
            case 0x21...0x7E where !notInURLs.contains(byte): out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
                changed = true
            }
        }
        return changed ? String(decoding: out, as: UTF8.self) : url
    }

    private static let notInURLs = Set(#""<>\^`{|}[]"#.utf8)

    /// Why the socket's client cannot connect to `url`, checked before it
    /// tries: it took `ws://[::1` for a host named `[`, and `ws://u:pw@h`
    /// for a host named `u` (and said the password in its error).
    static func problem(_ url: String) -> String? {
        var shown = url
        if let secret = Redactor.userinfoSecret(in: url) { shown.replaceSubrange(secret.range, with: "…") }
        if let reason = URLCheck.problem(url, schemes: ["ws", "wss"]) { return reason }
        guard let parsed = URL(string: url) else { return "'\(shown)' is not a ws:// or wss:// URL" }
        if parsed.user != nil || parsed.password != nil {
            return "'\(redacted(shown))' has a user:password@ in it, which the WebSocket client does not send; use `auth basic USER:PASSWORD` or an Authorization: header"
        }
        if parsed.host?.contains(":") == true || url.contains("://[") {
            return "'\(redacted(shown))' names an IPv6 address, which the WebSocket client cannot connect to; use a host name (localhost) or an IPv4 address"
        }
        return nil
    }

    private func unchecked(session: AuthSession, refresh: Bool) async throws -> String {
        let base = session.profile.webSocketBaseURL ?? session.builder.baseURL
        switch self {
        case let .url(text):
            if text.hasPrefix("ws://") || text.hasPrefix("wss://") { return text }
            if text.hasPrefix("http://") || text.hasPrefix("https://") { return Self.socketScheme(text) }
            guard text.hasPrefix("/") else { throw Failure("'\(text)' is not a ws:// or wss:// URL or a /path") }
            return Self.join(base: base, path: text)
        case .profileTemplate:
            guard let template = session.profile.webSocketTemplate else {
                // An environment's `websocket-url` with no `websocket:` path is the socket itself
                // (it said the profile had none, and asked for the URL it names).
                if let socket = session.profile.webSocketBaseURL { return Self.socketScheme(socket.absoluteString) }
                throw Failure("the \(session.profile.name) profile has no WebSocket; give a URL: ws connect ws://HOST/PATH")
            }
            // A socket that takes the session's own credentials (a header, a
            // cookie) rather than the login's needs no login.
            guard template.contains("{userId}") || template.contains("{accessToken}") else { return Self.join(base: base, path: template) }
            guard var tokens = await session.tokens else { throw Failure("not logged in (the socket needs a token: login EMAIL)") }
            let expired = JWTClaims.expiry(of: tokens.accessToken).map { $0 < Date().addingTimeInterval(5) } ?? false
            if refresh || expired {
                guard try await session.refresh(after: tokens.accessToken), let fresh = await session.tokens else {
                    throw AuthError.sessionExpired
                }
                tokens = fresh
            }
            // The user id only where the template names it: `/ws?token={accessToken}` with no id in the login's answer
            // was refused for a `{userId}` it does not have.
            var path = template
            if template.contains("{userId}") {
                guard let userID = tokens.user?["id"]?.plainText else { throw Failure("the login answer has no user id for {userId}") }
                path = path.replacingOccurrences(of: "{userId}", with: Self.escape(userID))
            }
            path = path.replacingOccurrences(of: "{accessToken}", with: Self.escape(tokens.accessToken))
            return Self.join(base: base, path: path)
        }
    }

    /// http → ws, https → wss.
    static func socketScheme(_ url: String) -> String {
        if url.hasPrefix("https://") { return "wss://" + url.dropFirst("https://".count) }
        if url.hasPrefix("http://") { return "ws://" + url.dropFirst("http://".count) }
        return url
    }

    /// ws → http, wss → https: where a refused handshake's status can be read.
    public static func httpScheme(_ url: String) -> String {
        if url.hasPrefix("wss://") { return "https://" + url.dropFirst("wss://".count) }
        if url.hasPrefix("ws://") { return "http://" + url.dropFirst("ws://".count) }
        return url
    }

    /// The base URL (which may carry a prefix such as `/v1`) plus an absolute path.
    static func join(base: URL, path: String) -> String {
        var root = socketScheme(base.absoluteString)
        while root.hasSuffix("/") { root.removeLast() }
        return root + path
    }

    private static func escape(_ value: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?/#")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    /// The URL with its secret query values hidden, for status lines and
    /// events: `token=<access_token>` (what a profile's socket carries there),
    /// any other as its name (`api_key=<api_key>`).
    public static func redacted(_ url: String) -> String {
        Redactor.redactQuery(in: url) { $0.lowercased() == "token" ? "<access_token>" : "<\($0)>" } ?? url
    }
}

/// Reads a JWT's claims without checking its signature: only to know
/// whether to refresh before connecting (the server decides validity).
enum JWTClaims {
    static func expiry(of token: String) -> Date? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64),
              let claims = try? JSONParser.parse(Array(data)),
              let exp = claims["exp"]?.intValue else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(exp))
    }
}
