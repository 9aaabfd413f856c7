import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// `HTTPTransport` over SwiftNIO: every request goes through `HTTP1Client`
/// (HTTP/1.1 on NIO's own codec, over TLS for https, through an HTTP
/// proxy's tunnel when the environment names one), with a connect timeout,
/// a per-request deadline and a cap on how much of a body is kept.
///
/// The transport sends on one of NIO's shared event loops, and its `executor`
/// is that loop: the actors that send through it (`AuthSession`, the
/// explorer's interpreter) run their code on the same thread that does the
/// socket I/O. Swift resumes an awaited answer through the global executor,
/// which `explorer` has made NIO's shared loops (`ExplorerCommand.main`); a
/// loop of that group enqueues such work on itself, so the answer comes back
/// without waking another thread. With a loop of its own, every request
/// went to a shared loop and back (two thread switches); with Swift's default
/// executor it crossed threads about a dozen times (BENCHMARKS.md, "Replay
/// throughput").
///
/// It was built on async-http-client until 2026-11: that client stopped the
/// process on answers a server should not send (a status under 100, an
/// answer before the head was written), and its pool and state machines cost
/// as much CPU a request as the rest of the explorer (BENCHMARKS.md, "Per
/// request: a plain HTTP/1.1 path").
public final class LiveTransport: HTTPTransport {
    public struct Options: Sendable {
        public var connectTimeout: TimeAmount = .seconds(10)
        public var requestTimeout: TimeAmount = .seconds(30)
        /// What is kept in memory of a streamed answer (Server-Sent Events,
        /// JSON lines), which may not end; any other body past
        /// `ReceivedResponse.keptBytes` goes to disk, whatever its size.
        public var maximumBodyBytes = 64 * 1024 * 1024
        /// Larger request heads (request line and headers) are refused before
        /// anything is sent: servers commonly refuse heads over 8 to 80 KiB
        /// (431), and a head this large is a mistake (a file pasted as a header).
        public var maximumHeadBytes = 63 * 1024
        /// `HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY`; nil: every request goes straight.
        public var proxies: ProxyRules?
        public init() {}
    }

    private let client: HTTP1Client
    public let eventLoop: any EventLoop
    private let options: Options

    public init(options: Options = Options()) {
        eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        self.options = options
        client = HTTP1Client(loop: eventLoop, connectTimeout: options.connectTimeout, streamLimit: options.maximumBodyBytes)
    }

    /// Closes connections (the shared event loop goes on). Call once, not
    /// from an actor that runs on `executor`.
    public func shutdown() async {
        await client.shutdown()
    }

    /// Runs on the caller's executor (`nonisolated(nonsending)`): called from
    /// an actor on `executor`, nothing here leaves the event loop's thread.
    /// The whole body is collected on the loop and handed over once.
    public nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse {
        let host = request.hostHeader
        let deadline = request.timeout.map(Self.timeAmount) ?? options.requestTimeout
        if let reason = Self.refusal(of: request, maximumHeadBytes: options.maximumHeadBytes) {
            throw TransportError(kind: .notSent, host: host, detail: reason)
        }
        do {
            let proxy = options.proxies?.proxy(for: request.url)
            let collected = try await client.send(request, through: proxy, host: host, deadline: deadline)
            let head = collected.head
            // Sent to a proxy whole (plain http), a 407 is the proxy's, not the backend's: said as a tunnel's is.
            if head.status.code == 407, let proxy, request.url.scheme == "http", !request.tunnelsThroughProxy {
                throw TransportError(kind: .other, host: host, detail: "the proxy \(proxy) (\(proxy.variable)): \(proxy.credentialsRefusal)")
            }
            // `HTTP/1.1 000`: three digits, but no status (curl, HTTPie and xh refuse it too).
            guard head.status.code >= 100 else {
                throw TransportError(kind: .badAnswer, host: host, detail: "its status code \(head.status.code) is not one HTTP has (they run from 100)")
            }
            var answer = ReceivedResponse(status: Int(head.status.code), reason: head.status.reasonPhrase,
                                          headers: head.headers.map { HTTPHeader(name: $0.name, value: $0.value) }, body: collected.body)
            answer.spool = collected.spool
            answer.streamCut = collected.streamCut
            answer.undecodable = collected.undecodable
            answer.cutEncoding = collected.cutEncoding
            answer.version = "HTTP/\(head.version.major).\(head.version.minor)"
            return answer
        } catch {
            var authorities: String?
            if case let .authorities(file)? = request.tls?.verify { authorities = file }
            var failure = Self.classify(error, host: host, limit: options.maximumBodyBytes, deadline: deadline, authorities: authorities)
            // A TLS server resets a plain request (Python's ssl, many others): the reverse of the TLS
            // handshake's "try http://" hint was missing.
            if request.url.scheme == "http", failure.detail == Self.resetDetail {
                failure = TransportError(kind: failure.kind, host: host, detail: Self.resetDetail + " (is it an https server? try https://)")
            }
            // Through a proxy, a connection that cannot be made is the proxy's, not the backend's.
            if let proxy = options.proxies?.proxy(for: request.url), [.connectionRefused, .dns].contains(failure.kind) {
                throw TransportError(kind: .other, host: host, detail: "the proxy \(proxy) (\(proxy.variable)) "
                                     + (failure.kind == .dns ? "cannot be resolved" : "refused the connection"))
            }
            throw failure
        }
    }

    /// An answer whose head came while the body was still going out, and
    /// whose rest the closing connection took with it.
    static func lostEarlyAnswer(_ head: HTTPResponseHead, host: String) -> TransportError {
        TransportError(kind: .other, host: host, detail: "the server answered \(head.status.code) \(head.status.reasonPhrase) before the upload ended, "
                       + "and the connection closed before the rest of its answer was read")
    }

    static func seconds(_ amount: TimeAmount) -> String {
        let ms = amount.nanoseconds / 1_000_000
        return ms % 1000 == 0 ? "\(ms / 1000) s" : "\(Double(ms) / 1000) s"
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

/// An answer's head and body as `HTTP1Client` hands it over: the body whole,
/// or its start and its spool (`BodyGatherer`).
struct CollectedAnswer: Sendable {
    var head: HTTPResponseHead
    var body: [UInt8]
    var spool: SpooledBody?
    /// A stream longer than what is kept of it: `body` is its start.
    var streamCut = false
    /// The body did not decode as its Content-Encoding says: `body` is as it came.
    var undecodable = false
    /// Its compressed stream ended before its end: `body` is what came of it.
    var cutEncoding: String?
}
