/// Sends prepared requests. The real one is `AsyncHTTPTransport`; tests can
/// count or fake calls through this protocol.
public protocol HTTPTransport: Sendable {
    func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse
}

/// A request that got no HTTP answer, described in one line that names the
/// host and the cause.
public struct TransportError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case connectionRefused, timeout, tls, dns, cancelled, tooLarge, other
    }
    public let kind: Kind
    public let host: String
    public let detail: String

    public init(kind: Kind, host: String, detail: String) {
        self.kind = kind
        self.host = host
        self.detail = detail
    }

    public var description: String {
        switch kind {
        case .connectionRefused: return "cannot connect to \(host): connection refused (is the server running?)"
        case .timeout: return "\(host) did not answer in time: \(detail)"
        case .tls: return "TLS failure with \(host): \(detail)"
        case .dns: return "cannot resolve host \(host): \(detail)"
        case .cancelled: return "request to \(host) cancelled"
        case .tooLarge: return "response from \(host) is too large: \(detail)"
        case .other: return "request to \(host) failed: \(detail)"
        }
    }
}
