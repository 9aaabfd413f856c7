import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// What NIO, NIOSSL and `HTTP1Client` report, said in the user's terms: one
/// line that names what happened (`TransportError`), never a library's type
/// names (`HTTPParserError.invalidConstant`, `failedToLoadPrivateKey`).
extension LiveTransport {
    /// Why a request must not go out, or nil. Checked before the client sees
    /// it: NIO stops the process on a non-ASCII header name (a precondition),
    /// a control character in a value would split the head, and a head over
    /// the limit is refused (`Options.maximumHeadBytes`).
    static func refusal(of request: PreparedRequest, maximumHeadBytes: Int) -> String? {
        if let reason = URLCheck.problem(port: request.url) { return reason }
        // A space or a CR LF in the method would split the request line (and the request).
        if request.method.isEmpty || !request.method.utf8.allSatisfy(HTTPHeader.isTokenByte) {
            return "the method \(quoted(request.method)) has characters HTTP does not allow (letters, digits and !#$%&'*+-.^_`|~ only)"
        }
        for header in request.headers {
            if header.name.isEmpty || !header.name.utf8.allSatisfy(HTTPHeader.isTokenByte) {
                return "header name \(quoted(header.name)) has characters HTTP does not allow "
                    + "(letters, digits and !#$%&'*+-.^_`|~ only)"
            }
            if let bad = header.value.utf8.first(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
                return "the value of header \(header.name) contains a control character (\(byteName(bad))), which HTTP does not allow"
            }
        }
        if request.method == "CONNECT" {
            return "CONNECT opens a tunnel through a proxy; it is not a request explorer sends"
        }
        if request.method == "TRACE", !(request.body ?? []).isEmpty {
            return "a TRACE request cannot have a body"
        }
        let headBytes = request.headByteCount
        if headBytes > maximumHeadBytes {
            // Most often the session's cookies, grown past what servers take (a backend that sets many):
            // the message named no cause, and the app's own logout failed the same way.
            let cookies = request.header("Cookie").map(\.utf8.count) ?? 0
            let why = cookies * 2 > headBytes ? " (the Cookie header alone is \(kibibytes(cookies)): cookies clear drops the session's cookies)" : ""
            return "its request line and headers take \(kibibytes(headBytes)), more than the \(kibibytes(maximumHeadBytes)) explorer sends" + why
        }
        return nil
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.unicodeScalars.map { $0.value >= 0x20 && $0.value != 0x7F ? String($0) : $0.escaped(asASCII: true) }.joined() + "'"
    }

    private static func byteName(_ byte: UInt8) -> String {
        switch byte {
        case 0x0A: return "LF"
        case 0x0D: return "CR"
        case 0x00: return "NUL"
        default: return String(format: "byte 0x%02X", byte)
        }
    }

    static let resetDetail = "the server reset the connection"
    /// A connection closed with no byte of answer (a server that wanted a client certificate, under TLS 1.3, among others).
    public static let closedBeforeAnswerDetail = "the server closed the connection before answering"

    /// `90 KiB`, `63 KiB`, `70.1 KiB`: one decimal, only when it is not zero.
    static func kibibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 512) / 1024
        return tenths % 10 == 0 ? "\(tenths / 10) KiB" : "\(tenths / 10).\(tenths % 10) KiB"
    }

    /// Every error NIO, NIOSSL and `HTTP1Client` are known to report, in plain
    /// words. Anything else keeps its own text, behind "failed:".
    /// `authorities`: the CA file the request trusts instead of the system's (`--verify FILE`).
    static func classify(_ error: any Error, host: String, limit: Int, deadline: TimeAmount = .seconds(30), authorities: String? = nil) -> TransportError {
        func make(_ kind: TransportError.Kind, _ detail: String = "") -> TransportError {
            TransportError(kind: kind, host: host, detail: detail)
        }
        switch error {
        case let said as TransportError:
            return said
        case is CancellationError:
            return make(.cancelled)
        case is NIOTooManyBytesError:
            return make(.tooLarge, "body larger than \(limit / 1024 / 1024) MiB; stopped reading (--download writes a body of any size to a file)")
        case let e as ExchangeFailure:
            switch e {
            case .deadline: return make(.timeout, "no complete answer within \(seconds(deadline)) (--timeout changes it)")
            case .closedBeforeAnswer: return make(.other, closedBeforeAnswerDetail)
            case let .closedBeforeAnswering(method):
                return make(.other, closedBeforeAnswerDetail + "; the \(method) may have been acted on all the same "
                    + "(look before sending it again, or give it an Idempotency-Key header)")
            case let .closedOnReuse(method):
                return make(.closedOnReuse, "the server closed its kept-alive connection as the request went out on it; a \(method) is "
                    + "not sent twice unasked (the server may have acted on it): send it again, or give it an Idempotency-Key header")
            case .shutDown: return make(.other, "the HTTP client is already shut down")
            }
        case let e as ResponseDecoder.Malformed:
            return classify(e, make)
        case let e as IOError:
            return classify(errno: e.errnoCode, make)
        case let e as ChannelError:
            return classify(e, make)
        case let e as NIOConnectionError:
            // Name resolution failed only when no address was found at all.
            if e.connectionErrors.isEmpty, let dns = e.dnsAError ?? e.dnsAAAAError {
                return classify(dns, host: host, limit: limit, deadline: deadline, authorities: authorities)
            }
            if let first = e.connectionErrors.first?.error { return classify(first, host: host, limit: limit, deadline: deadline, authorities: authorities) }
            return make(.other, "cannot connect")
        case let e as SocketAddressError.UnknownHost:
            return make(.dns, e.errorDescription.prefix(1).lowercased() + e.errorDescription.dropFirst())
        default:
            break
        }
        // Errors of other libraries (BoringSSL's, inside NIOSSL's), by their text.
        let text = String(describing: error)
        if text.contains("connectionRefused") || text.contains("Connection refused") || text.contains("ECONNREFUSED") {
            return make(.connectionRefused)
        }
        if text.contains("NXDOMAIN") || text.contains("unknownHost") || text.contains("getaddrinfo") {
            return make(.dns, "the name is not known")
        }
        if text.localizedCaseInsensitiveContains("ssl") || text.localizedCaseInsensitiveContains("tls") || text.contains("handshake") {
            return make(.tls, tlsReason(text, authorities: authorities))
        }
        return make(.other, text)
    }

    /// The answer's bytes broke HTTP/1's grammar, even read as curl reads it (`ResponseDecoder`).
    private static func classify(_ e: ResponseDecoder.Malformed, _ make: (TransportError.Kind, String) -> TransportError) -> TransportError {
        switch e {
        case .notAStatusLine: make(.badAnswer, "it does not begin with a status line such as 'HTTP/1.1 200 OK'")
        case .statusCode: make(.badAnswer, "its status code is not three digits")
        // Past what explorer reads, not against HTTP: "not valid HTTP" blamed a server curl reads.
        case .headTooLarge: make(.tooLarge, "its headers run past the \(ResponseDecoder.maximumHeadBytes / 1024) KiB explorer reads")
        case .headerLine: make(.badAnswer, "a header line is malformed")
        case .contentLength: make(.badAnswer, "its Content-Length is not a number")
        case .contentLengths: make(.badAnswer, "it has two Content-Lengths that differ")
        case .chunkSize: make(.badAnswer, "a chunk size of its chunked body is not a hexadecimal number (of 15 digits at most)")
        case .chunkOverrun: make(.badAnswer, "a chunk of its chunked body runs past its size (no line end after its data)")
        case .trailersTooLarge: make(.tooLarge, "the trailer fields after its chunked body run past the \(ResponseDecoder.maximumHeadBytes / 1024) KiB explorer reads")
        case .unasked: make(.badAnswer, "it answered a request it was not sent")
        case let .cutShort(status?, received, expected):
            // The status had come: a 201 to a POST says it was acted on.
            make(.other, "the server closed the connection in the middle of its answer (\(status), "
                + (expected.map { "\(received) of its \($0) bytes" } ?? "\(received) bytes of its chunked body") + " came)")
        case .cutShort: make(.other, "the server closed the connection in the middle of its answer")
        case let .resetInHead(statusLine):
            make(.other, "the server reset the connection in the middle of its answer's headers (after '\(statusLine)')")
        case let .resetShort(status, received, expected):
            make(.other, "the server reset the connection in the middle of its answer (\(status), "
                + (expected.map { "\(received) of its \($0) bytes" } ?? "\(received) bytes of its body") + " came)")
        }
    }

    private static func classify(errno: Int32, _ make: (TransportError.Kind, String) -> TransportError) -> TransportError {
        switch errno {
        case ECONNREFUSED: return make(.connectionRefused, "")
        case ECONNRESET: return make(.other, resetDetail)
        case EPIPE: return make(.other, "the server closed the connection while the request was being sent")
        case ETIMEDOUT: return make(.timeout, "the connection timed out")
        case EHOSTUNREACH, ENETUNREACH: return make(.other, "no route to the host (is the network up?)")
        case EADDRNOTAVAIL: return make(.other, "that address cannot be reached from this machine")
        default: return make(.other, String(cString: strerror(errno)).lowercased())
        }
    }

    private static func classify(_ e: ChannelError, _ make: (TransportError.Kind, String) -> TransportError) -> TransportError {
        switch e {
        case .connectTimeout: return make(.timeout, "connect timed out")
        case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed, .inputClosed:
            return make(.other, "the connection closed before the answer was complete")
        case .writeHostUnreachable: return make(.other, "no route to the host (is the network up?)")
        default: return make(.other, "the connection failed")
        }
    }

    /// The useful part of a TLS library's message (BoringSSL's reason
    /// codes, NIOSSL's own errors), in the order a person would check; for
    /// requests and sockets alike (`ConnectFailure.tlsReason`). `plain` is
    /// the scheme without TLS to suggest.
    static func tlsReason(_ text: String, plain: String = "http", authorities: String? = nil) -> String {
        if text.contains("WRONG_VERSION_NUMBER") || text.contains("HTTP_REQUEST") || text.contains("UNKNOWN_PROTOCOL") {
            return "the server does not speak TLS on this port (try \(plain)://)"
        }
        if text.contains("failedToValidateHostname") || text.contains("unableToValidateCertificate") {
            return "the server's certificate does not name this host"
        }
        if text.contains("CERTIFICATE_REQUIRED") {
            return "the server asks for a client certificate (--cert FILE)"
        }
        if text.contains("ALERT_BAD_CERTIFICATE") || text.contains("ALERT_UNKNOWN_CA") || text.contains("ALERT_CERTIFICATE_UNKNOWN")
            || text.contains("ALERT_UNSUPPORTED_CERTIFICATE") || text.contains("ALERT_CERTIFICATE_EXPIRED") || text.contains("ALERT_ACCESS_DENIED") {
            return "the server refused the client certificate (--cert)"
        }
        if text.contains("CERTIFICATE_VERIFY_FAILED") || text.localizedCaseInsensitiveContains("certificate") {
            // With a CA file given, the file is the one that did not sign it (or the certificate is out of date):
            // sending the user to --verify CA_FILE again misled.
            if let authorities {
                return "the server's certificate could not be verified against \(authorities): not signed by a CA in it, "
                    + "or expired or not yet valid (--verify no checks nothing)"
            }
            return "the server's certificate could not be verified: not signed by a CA explorer trusts, expired or not yet valid "
                + "(--verify CA_FILE trusts a private CA; --verify no checks nothing)"
        }
        if text.contains("ALERT_HANDSHAKE_FAILURE") {
            return "the server ended the handshake: it may want a client certificate (--cert FILE), "
                + "or share no TLS version or cipher with explorer"
        }
        if text.contains("ALERT_PROTOCOL_VERSION") || text.contains("UNSUPPORTED_PROTOCOL") {
            return "the server and explorer share no TLS version (explorer speaks TLS 1.2 and 1.3)"
        }
        return "the TLS handshake failed"
    }
}
