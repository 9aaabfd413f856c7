import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// `HTTPTransport` over async-http-client, with a connect timeout, a
/// per-request deadline and a cap on how much of a body is read.
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
public final class AsyncHTTPTransport: HTTPTransport {
    public struct Options: Sendable {
        public var connectTimeout: TimeAmount = .seconds(10)
        public var requestTimeout: TimeAmount = .seconds(30)
        /// What is kept in memory of a streamed answer (Server-Sent Events,
        /// JSON lines), which may not end; any other body past
        /// `ReceivedResponse.keptBytes` goes to disk, whatever its size.
        public var maximumBodyBytes = 64 * 1024 * 1024
        /// Larger request heads (request line and headers) are refused before
        /// anything is sent. async-http-client 1.37 kills the process when a
        /// head followed by a body crosses NIO's 64 KiB write-buffer high-water
        /// mark: the flush of the head turns the channel unwritable and writable
        /// again, which sends the whole body and its end before the client marks
        /// the head sent, and its idle-read timer then starts twice (a
        /// `preconditionFailure`). Below the mark the channel never flips during
        /// that flush. The 1 KiB under it is slack for anything the client adds.
        /// Servers commonly refuse heads over 8 to 80 KiB anyway (431).
        public var maximumHeadBytes = 63 * 1024
        /// `HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY`; nil: every request goes straight.
        public var proxies: ProxyRules?
        /// Plain `http://` requests with a small body or none go through
        /// `PlainHTTP1`; false: every request goes through async-http-client
        /// (tests hold the two to the same bytes).
        public var plainHTTP1 = true
        public init() {}
    }

    /// async-http-client's clients, made when a request first needs one:
    /// one straight, one per proxy the rules name (it takes one proxy per
    /// client). A script of plain requests never makes any (`PlainHTTP1`),
    /// and making one was a measurable part of a one-GET process.
    private let clients = NIOLockedValueBox<[ProxyRules.Proxy?: HTTPClient]>([:])
    private let configuration: HTTPClient.Configuration
    private let plain: PlainHTTP1?
    public let eventLoop: any EventLoop
    private let options: Options

    public init(options: Options = Options()) {
        var configuration = HTTPClient.Configuration()
        // No idle-read timeout: the per-request deadline bounds a request. With
        // one, async-http-client 1.37 stops the process (a precondition in its
        // IdleReadStateMachine) when a server answers before the request head is
        // fully written, as servers do to a head they find too large.
        configuration.timeout = .init(connect: options.connectTimeout)
        // Like HTTPie: show redirects rather than follow them.
        configuration.redirectConfiguration = .disallow
        // gzip and deflate bodies are decoded here, as they arrive (`BodyGatherer`),
        // not by the client: its decompressor turned an early answer during an
        // upload (a 413 before the body is read) into a failed request.
        configuration.decompression = .disabled
        // By default the pool retries a refused connection with backoff until the
        // connect timeout (10 s of silence at the prompt); fail at once, like curl.
        configuration.connectionPool.retryConnectionEstablishment = false
        // No tracing spans: nothing here reads them, and making them (for the
        // no-op tracer bootstrapped by default) was about 5% of a request.
        configuration.tracing.tracer = nil
        self.configuration = configuration
        eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        self.options = options
        plain = options.plainHTTP1
            ? PlainHTTP1(loop: eventLoop, connectTimeout: options.connectTimeout, streamLimit: options.maximumBodyBytes) : nil
    }

    /// The client that sends through `proxy` (nil: straight), made the first time it is asked for.
    private func client(through proxy: ProxyRules.Proxy?) -> HTTPClient {
        clients.withLockedValue { clients in
            if let made = clients[proxy] { return made }
            var configuration = configuration
            if let proxy {
                let authorization = proxy.user.map { HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "") }
                configuration.proxy = .server(host: proxy.host, port: proxy.port, authorization: authorization)
            }
            let made = HTTPClient(eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton), configuration: configuration)
            clients[proxy] = made
            return made
        }
    }

    /// Closes connections (the shared event loop goes on). Call once, not
    /// from an actor that runs on `executor`.
    public func shutdown() async {
        await plain?.shutdown()
        for client in clients.withLockedValue({ $0.values }) { try? await client.shutdown() }
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
        var collector: BytesCollector?
        do {
            let proxy = options.proxies?.proxy(for: request.url)
            let collected: CollectedAnswer
            if let plain, PlainHTTP1.takes(request) {
                collected = try await plain.send(request, through: proxy, host: host, deadline: deadline)
            } else {
                var headers = HTTPHeaders()
                for header in request.headers { headers.add(name: header.name, value: header.value) }
                var outgoing = try HTTPClient.Request(url: request.url, method: HTTPMethod(rawValue: request.method),
                                                      headers: headers, body: request.body.map { .bytes($0) })
                if let tls = request.tls, request.url.scheme?.lowercased() == "https" {
                    outgoing.tlsConfiguration = try Self.configuration(tls, host: host)
                }
                let through = client(through: proxy)
                if let sink = request.stream {
                    collected = try await streamed(outgoing, through: through, sink: sink, host: host, deadline: deadline,
                                                   reserves: request.method != "HEAD")
                } else {
                    let made = BytesCollector(host: host, reserves: request.method != "HEAD")
                    collector = made
                    let task = through.execute(request: outgoing, delegate: made, eventLoop: .delegate(on: eventLoop),
                                               deadline: .now() + deadline)
                    collected = try await Self.response(of: task, isolation: #isolation)
                }
            }
            let head = collected.head
            // `HTTP/1.1 000`: three digits, but no status (curl, HTTPie and xh refuse it too).
            guard head.status.code >= 100 else {
                throw TransportError(kind: .badAnswer, host: host, detail: "its status code \(head.status.code) is not one HTTP has (they run from 100)")
            }
            var answer = ReceivedResponse(status: Int(head.status.code), reason: head.status.reasonPhrase,
                                          headers: head.headers.map { HTTPHeader(name: $0.name, value: $0.value) }, body: collected.body)
            answer.spool = collected.spool
            answer.streamCut = collected.streamCut
            answer.version = "HTTP/\(head.version.major).\(head.version.minor)"
            return answer
        } catch {
            if let early = collector?.earlyAnswer(lostTo: error) { throw Self.lostEarlyAnswer(early, host: host) }
            let failure = Self.classify(error, host: host, limit: options.maximumBodyBytes, deadline: deadline)
            // Through a proxy, a connection that cannot be made is the proxy's, not the backend's.
            if let proxy = options.proxies?.proxy(for: request.url), [.connectionRefused, .dns].contains(failure.kind) {
                throw TransportError(kind: .other, host: host, detail: "the proxy \(proxy) (HTTP_PROXY/HTTPS_PROXY) "
                                     + (failure.kind == .dns ? "cannot be resolved" : "refused the connection"))
            }
            throw failure
        }
    }

    /// NIO's TLS configuration for `--verify`, `--cert` and `--cert-key`; a
    /// file that cannot be used is one line, nothing sent.
    static func configuration(_ tls: TLSOptions, host: String) throws(TransportError) -> TLSConfiguration {
        do { return try tls.configuration() } catch { throw TransportError(kind: .notSent, host: host, detail: error.description) }
    }

    /// A request whose answer may stream: the deadline holds until the head
    /// says the body streams, then only the server or Ctrl-C ends it.
    private nonisolated(nonsending) func streamed(_ outgoing: HTTPClient.Request, through: HTTPClient, sink: StreamSink, host: String,
                                                  deadline: TimeAmount, reserves: Bool) async throws -> CollectedAnswer {
        let collector = StreamingCollector(sink: sink, limit: options.maximumBodyBytes, host: host, reserves: reserves)
        let task = through.execute(request: outgoing, delegate: collector, eventLoop: .delegate(on: eventLoop), deadline: nil)
        let timedOut = NIOLockedValueBox(false)
        let idle = NIOLockedValueBox(false)
        let timer = eventLoop.scheduleTask(in: deadline) {
            guard !collector.isStreaming else { return }
            timedOut.withLockedValue { $0 = true }
            task.cancel()
        }
        // A download may take as long as it needs while bytes come; silence as long as the deadline ends it.
        let watch = eventLoop.scheduleRepeatedTask(initialDelay: deadline, delay: min(deadline, .seconds(1))) { _ in
            guard collector.downloadIdle(since: .now() - deadline) else { return }
            idle.withLockedValue { $0 = true }
            task.cancel()
        }
        defer {
            timer.cancel()
            watch.cancel()
        }
        do {
            return try await Self.response(of: task, isolation: #isolation)
        } catch {
            if timedOut.withLockedValue({ $0 }) { throw HTTPClientError.deadlineExceeded }
            if idle.withLockedValue({ $0 }) { throw TransportError(kind: .timeout, host: host, detail: "it sent nothing for \(Self.seconds(deadline))") }
            throw error
        }
    }

    /// Waits for the answer on the caller's actor. The isolated parameter, used
    /// inside both closures, is what keeps them on it: a closure literal does
    /// not inherit `nonisolated(nonsending)`, and without this the answer was
    /// resumed on the global executor and hopped back (perf: `swift_task_enqueueGlobal`).
    private static func response<Answer: Sendable>(of task: HTTPClient.Task<Answer>,
                                                   isolation: isolated (any Actor)?) async throws -> Answer {
        try await withTaskCancellationHandler(operation: {
            try await withCheckedThrowingContinuation(isolation: isolation) { continuation in
                task.futureResult.whenComplete { continuation.resume(with: $0) }
            }
        }, onCancel: {
            task.cancel()
        }, isolation: isolation)
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

/// An answer's head and body as a collector hands it over: the body whole,
/// or its start and its spool (`BodyGatherer`).
struct CollectedAnswer: Sendable {
    var head: HTTPResponseHead
    var body: [UInt8]
    var spool: SpooledBody?
    /// A stream longer than what is kept of it: `body` is its start.
    var streamCut = false
}

/// An answer's body gathered as it arrives (`BodyGatherer`): decoded, kept
/// in memory up to `ReceivedResponse.keptBytes` with room for its
/// Content-Length made at once, past that on disk. async-http-client's
/// accumulator grew a buffer by doubling and the answer then copied it: 3 to
/// 4 times the body at the peak, for a large answer.
final class BytesCollector: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = CollectedAnswer

    private let host: String
    /// A HEAD answer's Content-Length is the size of a body that does not come.
    private let reserves: Bool
    private var head: HTTPResponseHead?
    private var gatherer: BodyGatherer?

    init(host: String, reserves: Bool) {
        self.host = host
        self.reserves = reserves
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        gatherer = BodyGatherer(head: head, reserves: reserves)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        do throws(BodyGatherer.Problem) {
            try gatherer?.append(part)
        } catch {
            return task.eventLoop.makeFailedFuture(error.transportError(host: host))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    /// The head of an answer that came while the body was still going
    /// out (a 413 at once, say) and was then lost, or nil. async-http-client
    /// 1.37 closes such a connection before it hands the answer's end over;
    /// when the request's end is still waiting to be written then, the close
    /// fails that write (`ioOnClosedChannel`) and the request with it. The
    /// head had come: the status is worth saying, not "connection closed".
    func earlyAnswer(lostTo error: any Error) -> HTTPResponseHead? {
        guard let head, head.status.code >= 300, let error = error as? ChannelError, error == .ioOnClosedChannel else { return nil }
        return head
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        guard let head, var gatherer else { throw HTTPClientError.remoteConnectionClosed }
        do throws(BodyGatherer.Problem) {
            let (start, spool) = try gatherer.finish()
            return CollectedAnswer(head: head, body: start, spool: spool)
        } catch {
            throw error.transportError(host: host)
        }
    }
}
