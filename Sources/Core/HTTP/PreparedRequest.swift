import Foundation

/// A request ready to send: what `--offline` prints and what the client sends.
public struct PreparedRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    /// Headers in the order they are sent. Names keep the user's spelling.
    public var headers: [HTTPHeader]
    public var body: [UInt8]?

    public init(method: String, url: URL, headers: [HTTPHeader] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.hasName(name) }?.value
    }

    /// Sets a header, replacing any with the same name.
    public mutating func setHeader(_ name: String, _ value: String) {
        removeHeader(name)
        headers.append(HTTPHeader(name: name, value: value))
    }

    public mutating func removeHeader(_ name: String) {
        headers.removeAll { $0.hasName(name) }
    }

    /// Path and query as they appear on the request line.
    public var target: String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var path = components?.percentEncodedPath ?? "/"
        if path.isEmpty { path = "/" }
        if let query = components?.percentEncodedQuery, !query.isEmpty { path += "?" + query }
        return path
    }

    /// Bytes of the request head as async-http-client writes it: the request
    /// line, the headers (its own `Content-Length` in place of any framing
    /// header given, none for a GET-like request without a body), `Host` when
    /// missing, and the blank line. What the transport's limit on heads is
    /// checked against (`AsyncHTTPTransport.Options.maximumHeadBytes`).
    public var headByteCount: Int {
        var count = method.utf8.count + 1 + target.utf8.count + " HTTP/1.1\r\n".utf8.count + 2
        for header in headers where !header.hasName("Content-Length") && !header.hasName("Transfer-Encoding") {
            count += header.name.utf8.count + 2 + header.value.utf8.count + 2
        }
        if header("Host") == nil { count += "Host: \r\n".utf8.count + hostHeader.utf8.count }
        let length = body?.count ?? 0
        if length > 0 || !["GET", "HEAD", "DELETE", "CONNECT", "TRACE"].contains(method) {
            count += "Content-Length: \r\n".utf8.count + String(length).utf8.count
        }
        return count
    }

    /// `host[:port]` for the Host header.
    public var hostHeader: String {
        let host = url.host ?? ""
        if let port = url.port { return "\(host):\(port)" }
        return host
    }
}

/// One header line.
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension HTTPHeader {
    /// Whether the header is called `other`. Names are ASCII tokens (RFC 9110
    /// §5.1), compared byte by byte ignoring ASCII case: this runs for every
    /// header lookup of every request and answer, and Foundation's
    /// case-insensitive comparison showed in profiles.
    public func hasName(_ other: String) -> Bool {
        let a = name.utf8
        let b = other.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in
            let folded = x | 0x20
            return x == y || (folded == y | 0x20 && folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z"))
        }
    }
}
