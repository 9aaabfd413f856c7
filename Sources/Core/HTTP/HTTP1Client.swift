import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOTLS

/// HTTP/1.1 for every request (`LiveTransport`), `http://` or
/// `https://`, whatever its body, straight or through an HTTP proxy's
/// CONNECT tunnel (`ProxyTunnel`). One channel per connection, with NIO's
/// own request encoder and an answer decoder of our own that reads answers
/// as curl does (`ResponseDecoder`), behind NIOSSL's handler for https, and a handler that
/// gathers the answer (`BodyGatherer`) or hands a streamed one to its
/// `StreamSink`, and idle connections kept per host for the next request.
///
/// The head is `PreparedRequest.wireHeaders`, what `-v` shows: `Host`
/// first when not given, framing headers given by the user dropped, then
/// `Content-Length`. Over TLS no ALPN is offered, so it speaks HTTP/1.1, as
/// HTTPie does.
///
/// Its state is touched only on `loop`, the transport's event loop.
final class HTTP1Client: @unchecked Sendable {
    private let loop: any EventLoop
    private let connectTimeout: TimeAmount
    /// What is kept in memory of a streamed answer (`Options.maximumBodyBytes`).
    private let streamLimit: Int
    /// Connections waiting for a request, by where they go and how they
    /// were secured; the last one in is the first out.
    private var idle: [Destination: [Connection]] = [:]
    private var shutDown = false
    /// TLS contexts by the options they were made for: making one reads
    /// the trust store and the certificate files. On any thread.
    private let contexts = NIOLockedValueBox<[TLSOptions: NIOSSLContext]>([:])

    /// What a kept-alive connection can be used again for: the same host
    /// and port, and over TLS the same checks of the server and the same
    /// client certificate. A connection opened with `--verify no` never
    /// carries a request that asked for the usual checks.
    private struct Destination: Hashable {
        var host: String
        var port: Int
        var tls: TLSOptions?
        var proxy: ProxyRules.Proxy?
        /// Through the proxy's CONNECT tunnel (https, a socket's handshake); else sent to it whole.
        var tunnels: Bool
    }

    init(loop: any EventLoop, connectTimeout: TimeAmount, streamLimit: Int) {
        self.loop = loop
        self.connectTimeout = connectTimeout
        self.streamLimit = streamLimit
    }

    /// Sends `request` and gathers its answer. Cancelling the task closes the connection.
    ///
    /// A kept-alive connection the server closes just as a request goes out
    /// on it (its idle timeout ran out then) ends without a byte of answer;
    /// an idempotent request (RFC 9110 §9.2.2), or one with an
    /// `Idempotency-Key` header, then goes once more on a new connection, as
    /// Go's client does. Others fail in a line that says so: the server may
    /// have acted on them (RFC 9112 §9.3.1).
    nonisolated(nonsending) func send(_ request: PreparedRequest, through proxy: ProxyRules.Proxy?, host: String,
                                      deadline: TimeAmount) async throws -> CollectedAnswer {
        let secure = request.url.scheme?.lowercased() == "https" ? try context(for: request.tls ?? TLSOptions(), host: host) : nil
        let route = Route(secure: secure, proxy: proxy, tunnels: proxy != nil && (secure != nil || request.tunnelsThroughProxy))
        do {
            // An upgrade (a WebSocket handshake asked again to hear its refusal) goes on a new
            // connection, as browsers open one: Hummingbird answers one on a used connection 307.
            return try await attempt(request, route: route, host: host, deadline: deadline, reuse: !request.freshConnection && !request.headers.contains { $0.hasName("Upgrade") })
        } catch is StaleConnection {
            guard Self.mayGoAgain(request) else { throw ExchangeFailure.closedOnReuse(method: request.method) }
            return try await attempt(request, route: route, host: host, deadline: deadline, reuse: false)
        } catch ExchangeFailure.closedBeforeAnswer where !Self.mayGoAgain(request) {
            throw ExchangeFailure.closedBeforeAnswering(method: request.method)
        }
    }

    /// How a request's connection is made: over TLS or not, through a proxy or not.
    private struct Route {
        let secure: Secure?
        let proxy: ProxyRules.Proxy?
        /// Through a CONNECT tunnel: https (the proxy sees only the host), or asked for. Plain http goes
        /// to the proxy whole, as curl and HTTPie send it: a proxy that opens tunnels only to port 443
        /// (Squid's default) refused every http:// request to a staging host on 8080.
        let tunnels: Bool
    }

    /// A request's TLS: the options it asked for and the context made of them.
    private struct Secure {
        let options: TLSOptions
        let context: NIOSSLContext
    }

    private func context(for options: TLSOptions, host: String) throws(TransportError) -> Secure {
        if let made = contexts.withLockedValue({ $0[options] }) { return Secure(options: options, context: made) }
        let made: NIOSSLContext
        do { made = try options.context() } catch { throw TransportError(kind: .notSent, host: host, detail: error.description) }
        contexts.withLockedValue { $0[options] = made }
        return Secure(options: options, context: made)
    }

    private static let idempotent: Set<String> = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]

    /// Whether a request may go twice: its method says so, or its
    /// `Idempotency-Key` header does (draft-ietf-httpapi-idempotency-key-header:
    /// the server acts on one key once). An empty key is none.
    private static func mayGoAgain(_ request: PreparedRequest) -> Bool {
        idempotent.contains(request.method) || request.headers.contains { header in
            (header.hasName("Idempotency-Key") || header.hasName("X-Idempotency-Key")) && !header.value.trimmingBlanks().isEmpty
        }
    }

    private nonisolated(nonsending) func attempt(_ request: PreparedRequest, route: Route, host: String, deadline: TimeAmount,
                                                 reuse: Bool) async throws -> CollectedAnswer {
        let exchange = PendingAnswer(host: host, reserves: request.method != "HEAD", closeAfter: Self.asksToClose(request),
                                     sink: request.stream, sentHeaders: request.headers, streamLimit: streamLimit,
                                     promise: loop.makePromise())
        // A timeout given for the line (or the session) ends a stream that goes silent that long too:
        // `--timeout 2` on a stream that sent its head and then nothing waited for ever.
        exchange.silenceEndsStream = request.timeout != nil
        let start: @Sendable () -> Void = { [self] in begin(exchange, request: request, route: route, deadline: deadline, reuse: reuse) }
        if loop.inEventLoop { start() } else { loop.execute(start) }
        return try await Self.answer(to: exchange, on: loop, isolation: #isolation)
    }

    /// Waits for the answer on the caller's actor. The isolated parameter,
    /// used inside both closures, is what keeps them on it: a closure
    /// literal does not inherit `nonisolated(nonsending)`, and with a plain
    /// `future.get()` the task resumed on the global executor, off the
    /// event loops (a Dispatch thread in the REPL), and hopped back.
    private static func answer(to exchange: PendingAnswer, on loop: any EventLoop,
                               isolation: isolated (any Actor)?) async throws -> CollectedAnswer {
        try await withTaskCancellationHandler(operation: {
            try await withCheckedThrowingContinuation(isolation: isolation) { continuation in
                exchange.promise.futureResult.whenComplete { continuation.resume(with: $0) }
            }
        }, onCancel: {
            loop.execute { exchange.fail(CancellationError()) }
        }, isolation: isolation)
    }

    /// Closes the idle connections; later requests are refused. On any thread.
    func shutdown() async {
        let closing = loop.flatSubmit { [self] () -> EventLoopFuture<Void> in
            shutDown = true
            let channels = idle.values.flatMap { $0.map(\.channel) }
            idle = [:]
            return .andAllComplete(channels.map { $0.close() }, on: loop)
        }
        try? await closing.get()
    }

    // MARK: On the loop

    /// The scheduled look at an exchange's deadline or a stream's silence, replaced at each look (on the loop only).
    private final class SilenceWatch: @unchecked Sendable {
        var task: Scheduled<Void>?
    }

    private func begin(_ exchange: PendingAnswer, request: PreparedRequest, route: Route, deadline: TimeAmount, reuse: Bool) {
        guard !shutDown else { return exchange.fail(ExchangeFailure.shutDown) }
        // Once the head says the body streams, only the server, Ctrl-C or
        // a silence as long as a --timeout given ends it; a download may take
        // as long as it needs while bytes come, and silence as long as the
        // deadline ends it.
        // The deadline covers the proxy's tunnel and the TLS handshake too, as
        // curl's --max-time does: a handshake that takes 12 s works with
        // --timeout 60. Running out before either is done says which.
        // While bytes move, in either direction, the deadline moves with them: HTTPie's --timeout is the
        // longest the server may go quiet. A 40 MB upload to a server reading 1 MB/s failed at 30 s, blaming
        // the server, and so did a list of JSON lines still coming. (What the kernel has taken of an upload
        // and the server reads later is seen by the peer's acknowledgements, `PendingAnswer.acknowledged`.)
        let timer = SilenceWatch()
        @Sendable func expire(at time: NIODeadline) {
            timer.task = loop.scheduleTask(deadline: time) {
                guard !exchange.isStreaming else { return }
                if let moved = exchange.lastProgress, moved + deadline > .now() { return expire(at: moved + deadline) }
                @Sendable func silent() {
                    guard exchange.lastProgress != nil else { return exchange.fail(exchange.stuck?(deadline) ?? ExchangeFailure.deadline) }
                    // An upload the socket holds whole is still the server's to read: said by what it acknowledged
                    // ("sent nothing more of its answer" blamed a server still reading).
                    let unread = exchange.acknowledged != nil && !exchange.answerStarted && exchange.acknowledgedBytes < UInt64(exchange.bodyLength)
                    let what = !exchange.isSent || unread ? "it took nothing more of the request's body" : "it sent nothing more of its answer"
                    exchange.fail(TransportError(kind: .timeout, host: exchange.host, detail: "\(what) for \(LiveTransport.seconds(deadline)) (--timeout changes it)"))
                }
                guard !exchange.answerStarted, let acknowledged = exchange.acknowledged else { return silent() }
                // An upload the socket's buffers took long ago, which the server reads slowly: the socket
                // asks for more only once half of them is free (a server reading 30 KB/s was said to
                // take nothing for --timeout 3), and once they hold the last of it the request counts as
                // sent while the server still reads. The peer's acknowledgements say it is read.
                acknowledged().whenComplete { result in
                    guard !exchange.isSettled else { return }
                    guard case let .success(bytes) = result, bytes > exchange.acknowledgedBytes else { return silent() }
                    exchange.acknowledgedBytes = bytes
                    exchange.lastProgress = .now()
                    expire(at: .now() + deadline)
                }
            }
        }
        expire(at: .now() + deadline)
        // Silence is watched once the head says the body streams or downloads: scheduled for every
        // request a script sends with a sink (any answer may stream), it cost 5% of a request.
        exchange.watchSilence = { [loop] in
            // Looked at when the silence would run out (the last part's time plus the deadline), not at a
            // fixed beat: checked every 0.9 s, a 0.9 s limit let gaps of 1 s through nine times in ten.
            let watch = SilenceWatch()
            @Sendable func look(at time: NIODeadline) {
                watch.task = loop.scheduleTask(deadline: time) {
                    let due = exchange.lastPart + deadline
                    guard exchange.isDownloading || (exchange.isStreaming && exchange.silenceEndsStream), due <= .now() else {
                        return look(at: max(due, .now() + .milliseconds(10)))
                    }
                    exchange.fail(TransportError(kind: .timeout, host: exchange.host, detail: "it sent nothing for \(LiveTransport.seconds(deadline))"))
                }
            }
            look(at: .now() + deadline)
            exchange.promise.futureResult.whenComplete { _ in watch.task?.cancel() }
        }
        exchange.promise.futureResult.whenComplete { _ in
            timer.task?.cancel()
            exchange.watchSilence = nil  // it holds the exchange: an answer that never had a head kept both
            exchange.acknowledged = nil  // it holds the channel
        }
        let host = request.url.host ?? ""
        let secure = route.secure
        let port = request.url.port ?? (secure == nil ? 80 : 443)
        let key = Destination(host: host, port: port, tls: secure?.options, proxy: route.proxy, tunnels: route.tunnels)
        while reuse, let connection = idle[key]?.popLast() {
            guard connection.channel.isActive else { continue }
            // Past the idle time the server announced, it may be closing it now.
            if let until = connection.until, until <= .now() {
                connection.channel.close(promise: nil)
                continue
            }
            exchange.reused = true
            return write(request, on: connection, exchange: exchange, key: key)
        }
        let handler = AnswerHandler()
        // A refused certificate is said by its dates: out of date is told apart from not trusted.
        if case let .authorities(file)? = secure?.options.verify { handler.authorities = file }
        // An address is connected to as it is; a name is looked up first (NIO
        // does that on a Dispatch thread). An address is never sent as the
        // TLS server name (SNI); the certificate is checked against it all the same.
        let isAddress = (try? SocketAddress(ipAddress: host, port: port)) != nil
        let (peer, peerPort) = route.proxy.map { ($0.host, $0.port) } ?? (host, port)
        let tunnel = route.tunnels ? route.proxy.map { ProxyTunnel(to: host, port: port, through: $0, for: exchange.host) } : nil
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(connectTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    var encoding = HTTPRequestEncoder.Configuration()
                    encoding.automaticallySetFramingHeaders = false
                    let pipeline = channel.pipeline.syncOperations
                    if let tunnel { try pipeline.addHandler(tunnel) }
                    if let secure {
                        try pipeline.addHandler(NIOSSLClientHandler(context: secure.context, serverHostname: isAddress ? nil : host))
                    }
                    try pipeline.addHandler(HTTPRequestEncoder(configuration: encoding))
                    try pipeline.addHandler(ResponseDecoder())
                    try pipeline.addHandler(handler)
                }
            }
        let connecting = (try? SocketAddress(ipAddress: peer, port: peerPort)).map { bootstrap.connect(to: $0) }
            ?? bootstrap.connect(host: peer, port: peerPort)
        connecting.whenComplete { [self] result in
            switch result {
            case let .success(channel):
                let connection = Connection(channel: channel, handler: handler)
                // A connection that closes while it waits is forgotten.
                channel.closeFuture.whenComplete { [self] _ in idle[key]?.removeAll { $0.channel === channel } }
                write(request, on: connection, exchange: exchange, key: key)
                // Cleared when the exchange settles (it holds the exchange).
                guard !exchange.isSettled else { return }
                exchange.stuck = { deadline in
                    let within = LiveTransport.seconds(deadline)
                    if let tunnel, !tunnel.isOpen {
                        return TransportError(kind: .timeout, host: exchange.host,
                                              detail: "the proxy \(tunnel.proxy) did not open a tunnel within \(within) (--timeout changes it)")
                    }
                    if secure != nil, !handler.isSecured {
                        return TransportError(kind: .timeout, host: exchange.host,
                                              detail: "the TLS handshake did not finish within \(within) (is it an https server? --timeout changes it)")
                    }
                    return nil
                }
            case let .failure(error):
                exchange.fail(error)
            }
        }
    }

    private func write(_ request: PreparedRequest, on connection: Connection, exchange: PendingAnswer, key: Destination) {
        // Failed or timed out while connecting: the connection is not needed.
        guard !exchange.isSettled else { return park(connection, key: key) }
        connection.handler.start(exchange, channel: connection.channel) { [self] reusable, idleFor in
            guard reusable else { return connection.channel.close(promise: nil) }
            var connection = connection
            connection.until = idleFor.map { .now() + $0 }
            park(connection, key: key)
        }
        let channel = connection.channel
        // The request is sent when its last part is: the body is never
        // chunked (it has a Content-Length), so the end writes nothing, and
        // with no promise NIO's encoder writes no empty buffer for it either.
        let sent = loop.makePromise(of: Void.self)
        sent.futureResult.whenSuccess { exchange.isSent = true }
        let body = request.body.flatMap { $0.isEmpty ? nil : $0 }
        exchange.bodyLength = body?.count ?? 0
        channel.write(HTTPClientRequestPart.head(Self.head(of: request, through: key.tunnels ? nil : key.proxy)), promise: body == nil ? sent : nil)
        if let body {
            // NIO sends the body as the socket takes it, and the answer is read meanwhile (a 413 before the
            // upload ends). A large one goes in parts, each marking progress as the socket takes it (at 400 KB/s a
            // part of 1 MiB took longer than a --timeout of 2 s).
            let part = 64 << 10
            if body.count > part, !exchange.isSettled { exchange.acknowledged = { Self.bytesAcknowledged(on: channel) } }
            var start = 0
            while body.count - start > part {
                let written = loop.makePromise(of: Void.self)
                written.futureResult.whenSuccess { exchange.lastProgress = .now() }
                channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body[start..<(start + part)]))), promise: written)
                start += part
            }
            channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body[start...]))), promise: sent)
        }
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
    }

    /// The bytes the peer has acknowledged on `channel`'s connection: Linux's `tcpi_bytes_acked` (since 4.1),
    /// past the end of glibc's `tcp_info` (at byte 120), so read as 16 words; zero where it is not known.
    static func bytesAcknowledged(on channel: any Channel) -> EventLoopFuture<UInt64> {
        #if os(Linux)
        typealias Words = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                           UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
        guard let socket = channel as? any SocketOptionProvider else { return channel.eventLoop.makeSucceededFuture(0) }
        let info: EventLoopFuture<Words> = socket.unsafeGetSocketOption(level: SocketOptionLevel(IPPROTO_TCP), name: SocketOptionName(TCP_INFO))
        return info.map { $0.15 }
        #else
        return channel.eventLoop.makeSucceededFuture(0)
        #endif
    }

    private func park(_ connection: Connection, key: Destination) {
        guard !shutDown, connection.channel.isActive else { return connection.channel.close(promise: nil) }
        idle[key, default: []].append(connection)
    }

    /// The head as `-v` shows it (`PreparedRequest.wireHeaders`). To a
    /// `proxy` (plain http, no tunnel), its target is the whole URL (RFC 9112
    /// §3.2.2), with the proxy URL's credentials, which `-v` does not show.
    static func head(of request: PreparedRequest, through proxy: ProxyRules.Proxy? = nil) -> HTTPRequestHead {
        var headers = HTTPHeaders()
        for header in request.wireHeaders { headers.add(name: header.name, value: header.value) }
        var target = request.target
        if let proxy {
            // `http://[::1]:8080`: an address in brackets (URLComponents made nothing of it, and the proxy got a bare path).
            let host = request.url.host ?? ""
            let port = request.url.port.map { ":\($0)" } ?? ""
            target = "\(request.url.scheme ?? "http")://\(host.contains(":") ? "[\(host)]" : host)\(port)" + target
            if let authorization = proxy.authorization { headers.add(name: "Proxy-Authorization", value: authorization) }
        }
        return HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method), uri: target, headers: headers)
    }

    private static func asksToClose(_ request: PreparedRequest) -> Bool {
        request.headers.contains { $0.hasName("Connection") && $0.value.lowercased().contains("close") }
    }

    private struct Connection {
        let channel: any Channel
        let handler: AnswerHandler
        /// Until when the server keeps it open while idle, when it said (`Keep-Alive: timeout=`).
        var until: NIODeadline?
    }
}

/// Why the server's certificate was refused, by its dates: "expired on
/// 2021-01-01 00:00 UTC" where every refusal said "not signed by a CA
/// explorer trusts, expired or not yet valid", and the user could not tell
/// whether to fix the CA file or the server. `authorities`: the CA file
/// `--verify` named, if one.
enum RefusedCertificate {
    static func problem(_ certificate: NIOSSLCertificate, authorities: String?) -> String {
        let dates = (notBefore: certificate.notValidBefore, notAfter: certificate.notValidAfter)
        let now = time_t(Date().timeIntervalSince1970)
        func day(_ time: time_t) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
            return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time)))
        }
        if dates.notAfter < now { return "the server's certificate expired on \(day(dates.notAfter)) (--verify no checks nothing)" }
        if dates.notBefore > now {
            return "the server's certificate is not valid until \(day(dates.notBefore)) (is this machine's clock right? --verify no checks nothing)"
        }
        // In date: the chain is what was refused.
        if let authorities { return "the server's certificate is not signed by a CA in \(authorities) (--verify no checks nothing)" }
        return "the server's certificate is not signed by a CA explorer trusts (--verify CA_FILE trusts a private CA; --verify no checks nothing)"
    }
}

/// One request's wait for its answer. Settled once: by the answer, an
/// error, the deadline or a cancel, whichever comes first; the connection
/// is closed on any but the answer. Touched only on the loop.
private final class PendingAnswer: @unchecked Sendable {
    let host: String
    let reserves: Bool
    let closeAfter: Bool
    /// Where a streamed answer goes as it comes (the REPL, `--download`).
    let sink: StreamSink?
    /// The headers the request went with, for a stream's `head`.
    let sentHeaders: [HTTPHeader]
    let streamLimit: Int
    let promise: EventLoopPromise<CollectedAnswer>
    private(set) var isSettled = false
    /// The head said the body streams (or goes to a download).
    var isStreaming = false
    var isDownloading = false
    /// A stream that sends nothing for the deadline is ended (a timeout was given for it).
    var silenceEndsStream = false
    /// When the last part of the body came.
    var lastPart = NIODeadline.now()
    /// When a part of the request's body was last taken by the socket, or a part of the answer came; nil
    /// before either (the deadline then says why nothing started).
    var lastProgress: NIODeadline?
    /// The bytes the server has acknowledged of the connection, asked when an upload over 64 KiB seems to stall
    /// (`HTTP1Client.bytesAcknowledged`); what it said last time.
    var acknowledged: (() -> EventLoopFuture<UInt64>)?
    var acknowledgedBytes: UInt64 = 0
    /// The answer's head has come.
    var answerStarted = false
    /// Starts the watch on a streamed or downloaded body's silence (set when the request goes).
    var watchSilence: (() -> Void)?
    /// The request went out on a connection an earlier request used.
    var reused = false
    /// The whole request has been written. An answer that comes before
    /// (a 413 during an upload) ends the connection: the rest of the body
    /// would be read as the next request.
    var isSent = false
    /// The request's body length; and whether the answer's head came before the whole request was written.
    var bodyLength = 0
    var answeredEarly = false
    /// Whether the connection may carry another request after this answer
    /// (`status`), as far as the request goes: not after an answer that came
    /// before the whole body was written, nor after an error answer to a
    /// large body, which a server may not have read (the kernel took the
    /// upload, the server answered 413 without reading it and kept the
    /// connection: the next request waited behind it for its whole timeout).
    func leavesConnectionClean(status: Int) -> Bool {
        isSent && !answeredEarly && !(status >= 400 && bodyLength >= 64 * 1024)
    }
    /// Closes the connection the request went on, once it has one.
    var onFailure: (() -> Void)?
    /// Once connected: why the deadline ran out before the answer could
    /// start (the tunnel or the handshake unfinished), or nil.
    var stuck: ((TimeAmount) -> TransportError?)?

    init(host: String, reserves: Bool, closeAfter: Bool, sink: StreamSink?, sentHeaders: [HTTPHeader], streamLimit: Int,
         promise: EventLoopPromise<CollectedAnswer>) {
        self.host = host
        self.reserves = reserves
        self.closeAfter = closeAfter
        self.sink = sink
        self.sentHeaders = sentHeaders
        self.streamLimit = streamLimit
        self.promise = promise
    }

    func fail(_ error: any Error) {
        guard !isSettled else { return }
        isSettled = true
        onFailure?()
        onFailure = nil
        stuck = nil
        promise.fail(error)
    }

    func succeed(_ answer: CollectedAnswer) {
        guard !isSettled else { return }
        isSettled = true
        onFailure = nil
        stuck = nil
        promise.succeed(answer)
    }
}

/// What went wrong in an exchange that no library names (`LiveTransport.classify` words it).
enum ExchangeFailure: Error {
    /// The transport was shut down (the session is closing).
    case shutDown
    /// The request's deadline ran out before the whole answer came.
    case deadline
    /// The connection closed before the head of an answer came.
    case closedBeforeAnswer
    /// So, to a request that is not sent twice unasked (a POST): the server may have acted on it.
    case closedBeforeAnswering(method: String)
    /// A kept-alive connection closed before a byte of the answer to a
    /// request that is not sent twice unasked (a POST).
    case closedOnReuse(method: String)
}

/// A kept-alive connection that closed before a byte of the answer came.
private struct StaleConnection: Error {
    let error: any Error
}

/// The last handler of a connection: gathers the answer to the request in
/// flight, and says when it is done whether the connection can carry another.
private final class AnswerHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart

    private var exchange: PendingAnswer?
    private var head: HTTPResponseHead?
    private var gatherer: BodyGatherer?
    /// A streamed body's start, unless it is not kept at all (a download's goes to its file only).
    private var streamed: StreamStart?
    /// A streamed body in gzip or deflate (an event stream a proxy compressed), undone as it comes.
    private var streamDecoder: StreamDecoder?
    /// Called with whether the connection can carry another request, and
    /// for how long at most while idle, when the server said.
    private var done: ((Bool, TimeAmount?) -> Void)?
    /// Over TLS: the handshake has finished.
    private(set) var isSecured = false
    /// The CA file `--verify` named, for a refused certificate's words (`RefusedCertificate`).
    var authorities: String?

    func start(_ exchange: PendingAnswer, channel: any Channel, done: @escaping (Bool, TimeAmount?) -> Void) {
        self.exchange = exchange
        self.done = done
        head = nil
        gatherer = nil
        streamed = nil
        streamDecoder = nil
        exchange.onFailure = { channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let exchange, !exchange.isSettled else { return }
        switch Self.unwrapInboundIn(data) {
        case let .head(head):
            self.head = head
            exchange.lastProgress = .now()
            exchange.answerStarted = true
            exchange.answeredEarly = !exchange.isSent
            guard let sink = exchange.sink else { return gatherer = BodyGatherer(head: head, reserves: exchange.reserves) }
            let (streams, download) = sink.plan(for: head)
            exchange.isStreaming = streams
            exchange.isDownloading = download
            exchange.lastPart = .now()
            if streams || download { exchange.watchSilence?() }
            exchange.watchSilence = nil
            if streams, !download {
                streamed = StreamStart(limit: exchange.streamLimit)
                streamDecoder = head.headers.first(name: "Content-Encoding").flatMap(StreamDecoder.init(encoding:))
            }
            if !streams { gatherer = BodyGatherer(head: head, reserves: exchange.reserves) }
            sink.announce(head, streams: streams, download: download, sent: exchange.sentHeaders)
        case let .body(part):
            if exchange.isStreaming, let sink = exchange.sink {
                exchange.lastPart = .now()
                var bytes = Array(part.readableBytesView)
                if var decoder = streamDecoder {
                    var input = part
                    bytes = []
                    decoder.decode(&input) { bytes += $0 }
                    streamDecoder = decoder
                    if decoder.failed {
                        return finish(failing: BodyGatherer.Problem.undecodable(encoding: decoder.encoding).transportError(host: exchange.host))
                    }
                }
                guard !bytes.isEmpty else { return }
                sink.deliver(head?.headers.first(name: "Content-Type") ?? "", bytes)
                streamed?.append(bytes)
                if !sink.goesOn() { finish(failing: CancellationError()) }
                return
            }
            exchange.lastProgress = .now()
            do throws(BodyGatherer.Problem) {
                try gatherer?.append(part)
            } catch {
                finish(failing: error.transportError(host: exchange.host))
            }
        case .end:
            guard let head else { return finish(failing: ExchangeFailure.closedBeforeAnswer) }
            let answer: CollectedAnswer
            if var gatherer {
                do throws(BodyGatherer.Problem) {
                    let (start, spool) = try gatherer.finish()
                    answer = CollectedAnswer(head: head, body: start, spool: spool, undecodable: gatherer.undecodable, cutEncoding: gatherer.cutEncoding)
                } catch {
                    return finish(failing: error.transportError(host: exchange.host))
                }
            } else {
                answer = CollectedAnswer(head: head, body: streamed?.bytes ?? [], streamCut: streamed?.cut ?? false)
            }
            // After a 101 the connection speaks another protocol, whatever the request asked.
            let idleFor = Self.idleTime(head.headers)
            let reusable = head.isKeepAlive && !exchange.closeAfter && exchange.leavesConnectionClean(status: Int(head.status.code)) && head.status.code != 101
                && idleFor.map { $0 > .zero } ?? true
            let then = done
            clear()
            // Parked before the answer is handed on: the next request, sent as soon as this one's caller
            // resumes, finds the connection idle (it opened a second one at times, a second tunnel through a proxy).
            then?(reusable, idleFor)
            exchange.succeed(answer)
        }
    }

    /// How long an idle connection is used again for, when the server said
    /// how long it keeps one (`Keep-Alive: timeout=5`, as Node and Apache
    /// say): a second less, so that a request does not go out as the
    /// server closes it (undici's margin). Nil when it did not say.
    static func idleTime(_ headers: HTTPHeaders) -> TimeAmount? {
        // NIO splits the value at its commas: `timeout=5`, `max=100`.
        for parameter in headers[canonicalForm: "Keep-Alive"] {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingBlanks().lowercased() }
            if pair.count == 2, pair[0] == "timeout", let seconds = Int(pair[1]), seconds >= 0 {
                return .seconds(Int64(min(seconds, 24 * 3600)) - 1)
            }
        }
        return nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event { isSecured = true }
        if event is ResponseDecoder.HeadUnderway, let exchange, !exchange.isSettled { exchange.lastProgress = .now() }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let tls = error as? NIOSSLError, tls == .uncleanShutdown {
            // A TLS connection closed without its closing notice, as many
            // servers close. `channelInactive` and the parser say what it
            // means: a stale connection, an answer cut short, or the end of
            // one that ends at the close (curl and HTTPie take that as
            // whole too).
            return
        }
        // A refusal of the server's certificate: said by the certificate it sent, which the handshake keeps.
        if error is NIOSSLError, String(describing: error).contains("CERTIFICATE_VERIFY_FAILED"), let exchange,
           let certificate = (try? context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self))?.peerCertificate {
            finish(failing: TransportError(kind: .tls, host: exchange.host, detail: RefusedCertificate.problem(certificate, authorities: authorities)))
        } else {
            finish(failing: error is IOError || error is ChannelError ? lost(error) : error)
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        // Before the head: closed without an answer; after it: in the middle of one.
        finish(failing: head == nil ? lost(ExchangeFailure.closedBeforeAnswer) : lost(ChannelError.eof))
        context.fireChannelInactive()
    }

    /// The connection closed or failed: before any answer on a reused one,
    /// the request may go again (`HTTP1Client.send`); after the head of an
    /// answer that came while the body was still going out, the status is
    /// worth saying (the server usually closes at once, and the reset can
    /// take the rest of its answer with it).
    private func lost(_ error: any Error) -> any Error {
        if let head, let exchange, !exchange.isSent {
            return LiveTransport.lostEarlyAnswer(head, host: exchange.host)
        }
        guard head == nil, exchange?.reused == true else { return error }
        return StaleConnection(error: error)
    }

    private func finish(failing error: any Error) {
        let exchange = exchange
        clear()
        exchange?.fail(error)
    }

    private func clear() {
        exchange = nil
        head = nil
        gatherer = nil
        streamed = nil
        streamDecoder = nil
        done = nil
    }
}

/// The first handler of a connection to an HTTP proxy: asks it for a tunnel
/// (`CONNECT host:port`, with the proxy URL's credentials as basic auth),
/// holds back what the handlers after it write (a TLS hello, a request)
/// until the proxy says yes, then steps out of the way. A proxy that says
/// anything but 2xx fails the request in one line that names it.
private final class ProxyTunnel: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = NIOAny
    typealias OutboundOut = ByteBuffer

    let proxy: ProxyRules.Proxy
    private let target: String
    /// The request's `host:port`, for the line that says what went wrong.
    private let host: String
    private(set) var isOpen = false
    private var answer: ByteBuffer?
    /// What the handlers after this one wrote before the tunnel opened, as they wrote it.
    private var held: [(NIOAny, EventLoopPromise<Void>?)] = []

    /// The most of a proxy's answer head read before giving up on it.
    private static let largestHead = 16 * 1024

    init(to targetHost: String, port: Int, through proxy: ProxyRules.Proxy, for host: String) {
        self.proxy = proxy
        target = "\(targetHost.contains(":") ? "[\(targetHost)]" : targetHost):\(port)"
        self.host = host
    }

    func channelActive(context: ChannelHandlerContext) {
        var head = "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n"
        if let authorization = proxy.authorization {
            head += "Proxy-Authorization: \(authorization)\r\n"
        }
        context.writeAndFlush(Self.wrapOutboundOut(ByteBuffer(string: head + "\r\n")), promise: nil)
        context.fireChannelActive()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard isOpen else { return held.append((data, promise)) }
        context.write(data, promise: promise)
    }

    func flush(context: ChannelHandlerContext) {
        if isOpen { context.flush() }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isOpen else { return context.fireChannelRead(data) }
        var part = Self.unwrapInboundIn(data)
        answer.setOrWriteBuffer(&part)
        guard var answer else { return }
        let bytes = answer.readableBytesView
        guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else {
            if bytes.count > Self.largestHead { refuse(context, "its answer to CONNECT does not end") }
            return
        }
        // The status line, up to its CR or LF (as bytes: "\r\n" is one Character).
        let lineEnd = bytes[..<end.lowerBound].firstIndex { $0 == 13 || $0 == 10 } ?? end.lowerBound
        let words = String(decoding: bytes[..<lineEnd], as: UTF8.self).split(separator: " ", maxSplits: 2)
        guard words.count >= 2, words[0].hasPrefix("HTTP/1."), let status = Int(words[1]) else {
            return refuse(context, "its answer to CONNECT is not HTTP")
        }
        guard (200..<300).contains(status) else {
            let said = words.count > 2 ? "\(status) \(words[2])" : "\(status)"
            if status == 407 { return refuse(context, proxy.credentialsRefusal) }
            return refuse(context, "it would not open a tunnel to \(target): \(said)")
        }
        isOpen = true
        answer.moveReaderIndex(forwardBy: end.upperBound - bytes.startIndex)
        self.answer = nil
        for (data, promise) in held { context.write(data, promise: promise) }
        held = []
        context.flush()
        if answer.readableBytes > 0 { context.fireChannelRead(Self.wrapInboundOut(answer)) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !isOpen {
            context.fireErrorCaught(failure("it closed the connection before opening a tunnel"))
        }
        failHeld(ChannelError.ioOnClosedChannel)
        context.fireChannelInactive()
    }

    private func refuse(_ context: ChannelHandlerContext, _ reason: String) {
        failHeld(ChannelError.ioOnClosedChannel)
        context.fireErrorCaught(failure(reason))
        context.close(promise: nil)
    }

    private func failure(_ reason: String) -> TransportError {
        TransportError(kind: .other, host: host, detail: "the proxy \(proxy) (\(proxy.variable)): \(reason)")
    }

    private func failHeld(_ error: any Error) {
        let failing = held
        held = []
        for (_, promise) in failing { promise?.fail(error) }
    }
}
