import Foundation

/// A request ready to send: what `--offline` prints and what the client sends.
public struct PreparedRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    /// Headers in the order they are sent. Names keep the user's spelling.
    public var headers: [HTTPHeader]
    public var body: [UInt8]?
    /// The longest the server may go quiet, nothing answered or taken (`--timeout`); nil: the transport's default.
    public var timeout: Duration?
    /// How an https request checks the server and shows itself (`--verify`,
    /// `--cert`, `--cert-key`); nil: the system's trust store, no client certificate.
    public var tls: TLSOptions?
    /// Takes a streamed answer's body as it comes (see `StreamSink`); nil: the body comes whole.
    public var stream: StreamSink?
    /// Headers typed with a secret in them (`X-Note:{{secret:tok}}`): like
    /// the credential-named ones, they go to no other origin a redirect leads to.
    public var secretHeaderNames: Set<String> = []
    /// The body holds a secret (a `{{secret:NAME}}`, a secret variable, a
    /// token) under any name: a 307 or 308 would send it to another origin.
    public var bodyHoldsSecret = false
    /// Through a proxy, a plain-http request is sent to it whole
    /// (`GET http://host:port/path`), as curl and HTTPie send one; with this,
    /// through a CONNECT tunnel, as a socket goes (a handshake asked again to
    /// hear the proxy's refusal of one).
    public var tunnelsThroughProxy = false
    /// Sent on a connection of its own, not one kept alive: a token refresh after a 401 that the server closed
    /// its connection after (without saying so) went out on the dead one, every time.
    public var freshConnection = false

    public init(method: String, url: URL, headers: [HTTPHeader] = [], body: [UInt8]? = nil, timeout: Duration? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
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
    /// Read from the URL as it is: making URL components of it, a parse of
    /// the whole URL, was asked three times for each request sent.
    public var target: String {
        var path = url.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        // An empty query is sent as typed (`/p?`), as curl sends it.
        if let query = url.query(percentEncoded: true) { path += "?" + query }
        return path
    }

    /// The headers as they go on the wire, and as `-v` shows them: `Host`
    /// first when none is given (as curl and HTTPie write it), the headers
    /// given less any framing header (the client frames the body itself),
    /// then `Content-Length` when the request has one (`contentLength`).
    public var wireHeaders: [HTTPHeader] {
        var wire = header("Host") == nil ? [HTTPHeader(name: "Host", value: hostHeader)] : []
        wire += headers.filter { !$0.isFraming }
        if let length = contentLength { wire.append(HTTPHeader(name: "Content-Length", value: String(length))) }
        return wire
    }

    /// Bytes of the request head as the client writes it: the request line,
    /// `wireHeaders`, and the blank line. What the transport's limit on heads
    /// is checked against (`LiveTransport.Options.maximumHeadBytes`).
    public var headByteCount: Int {
        wireHeaders.reduce(method.utf8.count + 1 + target.utf8.count + " HTTP/1.1\r\n".utf8.count + 2) {
            $0 + $1.name.utf8.count + 2 + $1.value.utf8.count + 2
        }
    }

    /// The Content-Length the client writes, in place of any framing header
    /// given: the body's size, 0 for a method that takes a body and has
    /// none, nil for one that takes none (GET, HEAD, DELETE, CONNECT, TRACE)
    /// and has none.
    public var contentLength: Int? {
        let length = body?.count ?? 0
        return length > 0 || !["GET", "HEAD", "DELETE", "CONNECT", "TRACE"].contains(method) ? length : nil
    }

    /// `host[:port]` for the Host header: no port when it is the scheme's
    /// own (`http://h:80` is `h`), as curl writes it; a server's virtual
    /// hosts and a signature over the host see that. An IPv6 address is in
    /// brackets (`[::1]:8080`).
    public var hostHeader: String {
        let name = url.host ?? ""
        let host = name.utf8.contains(UInt8(ascii: ":")) ? "[\(name)]" : name
        guard let port = url.port else { return host }
        switch (url.scheme?.lowercased(), port) {
        case ("http", 80), ("https", 443), ("ws", 80), ("wss", 443): return host
        default: return "\(host):\(port)"
        }
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
    /// `Content-Length` or `Transfer-Encoding`: the client frames a body
    /// itself, and one given on a line is not sent (`PreparedRequest.contentLength`).
    public var isFraming: Bool { hasName("Content-Length") || hasName("Transfer-Encoding") }

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

extension HTTPHeader {
    /// Where a header name stops being an RFC 9110 token (letters, digits and
    /// ``!#$%&'*+-.^_`|~``), as a character offset; nil when it is one. An
    /// empty name fails at 0. Checked before anything is sent: NIO stops the
    /// process on a name that is not ASCII.
    public static func invalidNameOffset(_ name: String) -> Int? {
        guard !name.isEmpty else { return 0 }
        for (offset, character) in name.enumerated() {
            guard let ascii = character.asciiValue, isTokenByte(ascii) else { return offset }
        }
        return nil
    }

    /// Where a header value holds a control character (CR, LF, NUL and the
    /// rest of C0, or DEL; a tab is allowed), as a character offset; nil when
    /// it holds none. CR or LF would let a value start a header of its own.
    public static func invalidValueOffset(_ value: String) -> Int? {
        for (offset, character) in value.enumerated() {
            for scalar in character.unicodeScalars where (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F {
                return offset
            }
        }
        return nil
    }

    /// The control character at `offset` of `value`, named for an error line
    /// ("nothing" past its end: an empty name's offset is 0).
    public static func describeCharacter(at offset: Int, of value: String) -> String {
        guard let index = value.index(value.startIndex, offsetBy: offset, limitedBy: value.endIndex), index < value.endIndex else {
            return "nothing"
        }
        let character = value[index]
        switch character {
        case "\r\n": return "a CR LF"
        case "\r": return "a carriage return (CR)"
        case "\n": return "a line feed (LF)"
        case "\0": return "a NUL byte"
        default:
            let scalar = character.unicodeScalars.first!.value
            return scalar < 0x20 || scalar == 0x7F ? "control character U+\(String(scalar, radix: 16, uppercase: true).leftPadded(4))" : "'\(character)'"
        }
    }

    /// RFC 9110 §5.6.2 `tchar`: what a header name and a method are made of.
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return "!#$%&'*+-.^_`|~".utf8.contains(b)
        }
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}

/// HTTPie's TLS flags: which authorities the server's certificate must chain
/// to (`--verify yes|no|CA_FILE`), and a client certificate (`--cert`,
/// `--cert-key`, PEM files).
public struct TLSOptions: Sendable, Hashable {
    public enum Verify: Sendable, Hashable {
        /// The system's trust store.
        case system
        /// No check at all (`--verify no`): a self-signed development server.
        case none
        /// The certificates in this PEM file (a private CA).
        case authorities(String)
    }

    public var verify: Verify
    public var certificate: String?
    /// The certificate's private key; nil when `certificate` holds it too.
    public var key: String?

    public init(verify: Verify = .system, certificate: String? = nil, key: String? = nil) {
        self.verify = verify
        self.certificate = certificate
        self.key = key
    }

    /// The same check of the server, with no client certificate shown: a
    /// certificate is a credential of the origin it was given for.
    public var withoutCertificate: TLSOptions { TLSOptions(verify: verify) }
}
