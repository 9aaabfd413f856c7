import NIOCore
import NIOPosix

/// Sends prepared requests. The real one is `LiveTransport`; tests can
/// count or fake calls through this protocol.
public protocol HTTPTransport: Sendable {
    /// Runs on the caller's executor, so an actor on `executor` stays on it.
    /// Declare conformances `nonisolated(nonsending)` too: a plain `async`
    /// witness compiles, but hops to the global executor on every request.
    nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse
    /// Where the actors that send through this transport run their code
    /// (`AuthSession`, the interpreter, a `WebSocketSession`) and where a
    /// WebSocket opened for them does its I/O: the transport's own event loop
    /// for the real one, so a request's or a frame's I/O and the code around
    /// it share a thread. A wrapping transport forwards its base's.
    var eventLoop: any EventLoop { get }
}

extension HTTPTransport {
    /// `eventLoop` as the executor of the actors that use this transport.
    public var executor: any SerialExecutor { eventLoop.executor }

    /// For transports that do no I/O of their own (test doubles): one event
    /// loop of NIO's shared group.
    public static var sharedLoop: any EventLoop { sharedEventLoop }
}

private let sharedEventLoop = MultiThreadedEventLoopGroup.singleton.next()

/// A request that got no HTTP answer, described in one line that names the
/// host and the cause.
public struct TransportError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case connectionRefused, timeout, tls, dns, cancelled, tooLarge, offline, other
        /// A kept-alive connection closed as a request that may not go twice went out on it.
        case closedOnReuse
        /// Refused before anything was sent (`detail` says why); the connection is untouched.
        case notSent
        /// The server answered with bytes that are not an HTTP/1.1 answer (`detail` says what is wrong).
        case badAnswer
        /// A valid answer whose body does not decode as its head says (`detail` says how it should have).
        case badBody
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
        case .offline: return "nothing sent to \(host): \(detail)"
        case .other, .closedOnReuse: return "request to \(host) failed: \(detail)"
        case .notSent: return "request to \(host) not sent: \(detail)"
        case .badAnswer: return "\(host) sent an answer that is not valid HTTP: \(detail)"
        case .badBody: return "\(host) sent a body that does not decode: \(detail)"
        }
    }
}
