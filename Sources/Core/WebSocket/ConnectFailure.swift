import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import WSClient

/// One line for a first connection that failed: refused, handshake
/// rejected (with the status and the backend's error envelope), TLS.
enum ConnectFailure {
    /// `url` is the attempt's full URL (the token is hidden in what is said);
    /// `handshake`, the headers its upgrade request carried.
    static func describe(_ error: (any Error)?, url: String?, handshake: [HTTPHeader] = [], session: AuthSession,
                         authorities: String? = nil, proxy: ProxyRules.Proxy? = nil) async -> String {
        guard let error else { return "the connection ended before it opened" }
        let target = url.map(WebSocketAddress.redacted) ?? "the server"
        if let failure = error as? WebSocketAddress.Failure { return failure.description }
        if let auth = error as? AuthError { return auth.message }
        if let client = error as? WebSocketClientError, client == .webSocketUpgradeFailed {
            return "handshake rejected by \(target): " + (await rejection(url: url, handshake: handshake, session: session) ?? "no 101 Switching Protocols")
        }
        if let client = error as? WebSocketClientError, client == .proxyHandshakeFailed || client == .proxyHandshakeInvalidResponse {
            return "could not connect to \(target): " + (await proxyRefusal(url: url, session: session) ?? "the proxy would not open a tunnel")
        }
        if let timeout = error as? OpenTimeout {
            return "no answer from \(target) within \(seconds(timeout.limit)) (TCP connected; no TLS or WebSocket handshake)"
        }
        if let reason = tlsReason(error, authorities: authorities) { return "TLS failure with \(target): \(reason)" }
        let text = String(reflecting: error)
        if text.contains("ECONNREFUSED") || text.contains("refused") || text.contains("errno: 111") {
            // Through a proxy, the connection refused is the proxy's (it blamed a backend that is up), as a request says.
            if let proxy { return "could not connect to \(target): the proxy \(proxy) (\(proxy.variable)) refused the connection" }
            return "connection refused: \(target)"
        }
        if let client = error as? WebSocketClientError { return "\(client) (\(target))" }
        // NIO's upgrader refuses a 101 whose Sec-WebSocket-Accept (or Upgrade) is wrong by an enum name.
        if text.contains("upgraderDeniedUpgrade") || text.contains("invalidUpgradeResponse") {
            return "handshake refused: \(target) answered 101 with a Sec-WebSocket-Accept or Upgrade header that does not follow RFC 6455"
        }
        // Headers past the library's limit break no rule of HTTP (a request's say so as explorer's limit).
        if let parser = error as? HTTPParserError, parser == .headerOverflow {
            return "handshake refused: \(target) answered with headers past what the WebSocket library reads"
        }
        if error is HTTPParserError {
            return "handshake refused: \(target) answered with something that is not HTTP"
        }
        // NIO's own words (`read(descriptor:pointer:size:): Connection reset by peer) (errno: 104)`,
        // `SocketAddressError.UnknownHost: …`) in the plain ones a request gets.
        let plain = LiveTransport.classify(error, host: url.flatMap { URL(string: $0)?.host } ?? "the server", limit: 0)
        switch plain.kind {
        case .dns: return plain.description
        case .other where plain.detail == String(describing: error): return "could not connect to \(target): \(error)"
        // Over TLS, a reset as the socket opens is how a server that wants a client certificate refuses one without (TLS 1.3).
        case _ where plain.detail == LiveTransport.resetDetail && url?.hasPrefix("wss://") == true:
            return "could not connect to \(target): \(plain.detail) (does it want a client certificate? --cert FILE)"
        default: return "could not connect to \(target): \(plain.detail)"
        }
    }

    /// `0.3 s`, `10 s`.
    static func seconds(_ d: Duration) -> String {
        let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        return s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
    }

    /// Why a TLS handshake failed, in words, or nil when `error` is not
    /// about TLS: what swift-websocket's client alone runs into, then the
    /// words requests get for the rest (`LiveTransport.tlsReason`: not TLS,
    /// wrong name, a client certificate asked for or refused, not verified).
    /// A raw BoringSSL line (a client certificate asked for) was shown here.
    static func tlsReason(_ error: any Error, authorities: String? = nil) -> String? {
        let text = String(reflecting: error)
        guard error is NIOSSLError || text.contains("SSL") else { return nil }
        if text.contains("cannotUseIPAddressInSNI") {
            return "this client sends the host as the TLS server name, which cannot be an IP address; use a host name (wss://localhost:…)"
        }
        if text.contains("uncleanShutdown") {
            // What a server that asks for a client certificate does to one without (TLS 1.3), as often as not.
            return "the server closed the connection during the TLS handshake (does it want a client certificate? --cert FILE)"
        }
        // The CA file given is named, as a request's failure names it (it said to give one).
        return LiveTransport.tlsReason(text, plain: "ws", authorities: authorities)
    }

    /// WSClient reports a proxy's refusal without its answer ("Proxy
    /// handshake failed"), so the same URL is asked for through the same
    /// proxy with a plain GET, whose tunnel (`ProxyTunnel`) says what the
    /// proxy answered: credentials asked for (407) or refused, a 502, not HTTP.
    private static func proxyRefusal(url: String?, session: AuthSession) async -> String? {
        guard let url, var request = try? session.builder.build(method: "GET", path: WebSocketAddress.httpScheme(url), items: []) else { return nil }
        request.tunnelsThroughProxy = true
        do {
            _ = try await session.send(request, isPublic: true, retry: false)
            return nil
        } catch let error as TransportError {
            return error.detail
        } catch {
            return nil
        }
    }

    /// WSClient reports a refused upgrade without its status, so the
    /// upgrade is asked for again with the same headers over the HTTP
    /// client, which keeps the answer: its status and what its body says.
    /// (A plain GET was sent before: a server that wants a subprotocol or
    /// a header-borne token answered it 426 or 401, whatever its reason.)
    static func rejection(url: String?, handshake: [HTTPHeader], session: AuthSession) async -> String? {
        guard let url, var request = try? session.builder.build(method: "GET", path: WebSocketAddress.httpScheme(url), items: []) else { return nil }
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        // As WSClient writes them: its Origin, then the headers given.
        var fields = [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"), ("Sec-WebSocket-Key", key)]
        if let origin = origin(of: url) { fields.append(("Origin", origin)) }
        for (name, value) in fields { request.setHeader(name, value) }
        for header in handshake { request.headers.append(header) }
        guard let exchange = try? await session.send(request, isPublic: true, retry: false) else { return nil }
        let response = exchange.response
        guard response.status >= 400 else { return "HTTP \(response.statusAndReason)" }
        if let described = session.profile.errorEnvelope.describe(status: response.status, body: response.leadingJSON) { return described }
        // A text answer's first line says why (`missing subprotocol`), when it is short.
        let first = String(decoding: response.body.prefix(300), as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)?.trimmingBlanks()
        guard response.mediaType?.hasPrefix("text/plain") == true, let first, !first.isEmpty, first.count <= 200 else { return "HTTP \(response.statusAndReason)" }
        return "HTTP \(response.statusAndReason): \(Redactor.hidingJWTs(in: first))"
    }

    /// The Origin WSClient sends: the URL's scheme and host, without the port.
    static func origin(of url: String) -> String? {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme, let host = parts.host else { return nil }
        return "\(scheme)://\(host)"
    }
}
