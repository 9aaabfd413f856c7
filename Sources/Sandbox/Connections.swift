import Core
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import HummingbirdWSCompression
import Logging
import NIOCore
import NIOHTTP1

/// Every open TCP connection of the sandbox, for two things Hummingbird's
/// API does not offer:
///
/// - hummingbird-websocket answers every refused WebSocket upgrade
///   `400 Bad Request` with an empty body (`writeFailedUpgrade`), but the chat
///   contract needs 401 (no or bad token) and 403 (someone else's channel);
/// - a WebSocket handler has no way to drop its TCP connection without a
///   close handshake, which is what the drop-after-N-frames fault must do.
///
/// Each connection gets an id, carried to the route handlers in the logger's
/// metadata (`ConnectionRegistry.metadataKey`), since the request context
/// does not keep the channel.
final class ConnectionRegistry: @unchecked Sendable {
    static let metadataKey = "sandbox.connection"
    private let lock = NSLock()
    private var nextID = 0
    private var open: [Int: Connection] = [:]

    func add(_ channel: any Channel) -> Connection {
        lock.withLock {
            nextID += 1
            let connection = Connection(id: nextID, channel: channel)
            open[nextID] = connection
            return connection
        }
    }

    func remove(_ id: Int) { lock.withLock { _ = open.removeValue(forKey: id) } }

    /// The connection a request or WebSocket arrived on, named by its logger.
    func connection(for logger: Logger) -> Connection? {
        guard case let .string(text)? = logger[metadataKey: Self.metadataKey], let id = Int(text) else { return nil }
        return lock.withLock { open[id] }
    }

    var count: Int { lock.withLock { open.count } }
}

/// One TCP connection: its channel; when its WebSocket upgrade was refused,
/// the answer to send instead of Hummingbird's empty 400; when it was
/// accepted, the ws_drop_after switch as it stood then.
final class Connection: @unchecked Sendable {
    let id: Int
    let channel: any Channel
    private let lock = NSLock()
    private var refusal: ByteBuffer?
    private var acceptedDropAfter: Int?

    init(id: Int, channel: any Channel) {
        self.id = id
        self.channel = channel
    }

    /// Remembers why the upgrade on this connection is refused; the
    /// connection's first handler sends it in place of the 400.
    func refuseUpgrade(_ failure: APIFailure, style: ErrorStyle) {
        lock.withLock { refusal = Self.rawAnswer(failure, style: style) }
    }

    /// `failure` as the bytes of a whole HTTP/1.1 answer that closes the
    /// connection, for answers written below Hummingbird's HTTP handlers.
    static func rawAnswer(_ failure: APIFailure, style: ErrorStyle) -> ByteBuffer {
        let body = JSONPrinter.compact(failure.body(style))
        let head = "HTTP/1.1 \(failure.status.code) \(failure.status.reasonPhrase)\r\n"
            + "Content-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n"
        return ByteBuffer(string: head + body)
    }

    func takeRefusal() -> ByteBuffer? {
        lock.withLock {
            defer { refusal = nil }
            return refusal
        }
    }

    /// Notes the ws_drop_after switch at the moment the upgrade is accepted,
    /// before the 101 goes out (see `SandboxState.acceptUpgrade`).
    func acceptUpgrade(dropAfter: Int) { lock.withLock { acceptedDropAfter = dropAfter } }

    var dropAfterWhenAccepted: Int? { lock.withLock { acceptedDropAfter } }

    /// Closes the TCP connection at once: no close frame, no final response.
    func drop() { channel.close(promise: nil) }

    /// The connection's first handler, for `refuse`; touched on the channel's event loop only.
    private var handler: (ConnectionHandler, ChannelHandlerContext)?

    func attach(_ handler: ConnectionHandler, _ context: ChannelHandlerContext) { self.handler = (handler, context) }

    func detach() { handler = nil }

    /// Sends `answer` as is, then drains and closes (`ConnectionHandler.refuse`). On the event loop.
    func refuse(_ answer: ByteBuffer) {
        guard let (handler, context) = self.handler else {
            channel.close(promise: nil)
            return
        }
        handler.refuse(answer, context: context)
    }
}

/// First handler of every connection's pipeline (next to the socket, so it
/// only ever sees bytes, before and after a WebSocket upgrade alike).
///
/// It also drains: once the server has said all it will say on an HTTP
/// connection (it shuts its side, as Hummingbird does after answering a
/// `Connection: close` request, or after `refuse`), what the client still
/// sends is read and dropped until it closes. Without this, a client that
/// writes its whole body before reading (Python's `requests`) blocked
/// forever on an early 413: nobody read the rest of its body, and the
/// connection stayed open.
final class ConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let connection: Connection
    private let registry: ConnectionRegistry
    private static let failedUpgradePrefix = Array("HTTP/1.1 400 ".utf8)
    /// Set once the server's side is shut: input is read and dropped.
    private var draining = false
    private var drained = 0
    /// A drain ends (the connection closes) after this many bytes or this long,
    /// whichever comes first: a client may not keep the connection forever.
    static let drainLimit = 64 << 20
    static let drainTime: TimeAmount = .seconds(10)

    init(_ connection: Connection, _ registry: ConnectionRegistry) {
        self.connection = connection
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        connection.attach(self, context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        connection.detach()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard draining else {
            context.fireChannelRead(data)
            return
        }
        drained += unwrapInboundIn(data).readableBytes
        if drained > Self.drainLimit { context.close(promise: nil) }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Nobody above asks for more while draining: ask here.
        if draining { context.read() } else { context.fireChannelReadComplete() }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if draining, case ChannelEvent.inputClosed? = event as? ChannelEvent {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        // A WebSocket's closing handshake still reads the peer's close frame: not drained.
        if mode == .output, connection.dropAfterWhenAccepted == nil { startDraining(context) }
        context.close(mode: mode, promise: promise)
    }

    /// Writes a whole answer below the HTTP handlers, shuts the server's
    /// side and drains: for requests no HTTP handler will ever see (a head
    /// the parser refused).
    func refuse(_ answer: ByteBuffer, context: ChannelHandlerContext) {
        startDraining(context)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(answer)), promise: nil)
        context.close(mode: .output, promise: nil)
    }

    private func startDraining(_ context: ChannelHandlerContext) {
        guard !draining else { return }
        draining = true
        context.read()
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.drainTime) { context.close(promise: nil) }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case let .byteBuffer(buffer) = unwrapOutboundIn(data),
           buffer.readableBytesView.starts(with: Self.failedUpgradePrefix),
           let refusal = connection.takeRefusal() {
            context.write(wrapOutboundOut(.byteBuffer(refusal)), promise: promise)
            return
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        registry.remove(connection.id)
        connection.detach()
        context.fireChannelInactive()
    }
}

/// Right after the HTTP request decoder: a head the decoder refuses (over
/// 80 KiB, or not HTTP) is answered here, 431 or 400 in the backend's
/// envelope, and the connection drains and closes. Hummingbird answered a
/// refused head with an empty 400 on a kept-alive connection, and on a fresh
/// one (where the WebSocket upgrade handler is still in the pipeline) with
/// nothing at all: the client waited forever.
final class RequestHeadGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let connection: Connection
    private let style: ErrorStyle

    init(_ connection: Connection, style: ErrorStyle) {
        self.connection = connection
        self.style = style
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        let failure = switch parserError {
        case .headerOverflow:
            APIFailure(status: .requestHeaderFieldsTooLarge, code: "REQUEST_HEADERS_TOO_LARGE",
                       message: "the request line and headers are limited to \(SandboxChildChannel.maximumHeadBytes / 1024) KiB")
        default:
            APIFailure.badRequest("the request is not valid HTTP/1.1")
        }
        connection.refuse(Connection.rawAnswer(failure, style: style))
    }
}

/// Hummingbird's HTTP/1 + WebSocket-upgrade child channel with the sandbox's
/// `ConnectionHandler` in front and the connection id in the logger.
struct SandboxChildChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    let inner: HTTP1WebSocketUpgradeChannel
    let connections: ConnectionRegistry
    let errorStyle: ErrorStyle
    /// Hummingbird's decoder limit on a request head (`RequestHeadGuard` answers 431 past it).
    static let maximumHeadBytes = 80 * 1024

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let connection = connections.add(channel)
        var logger = logger
        logger[metadataKey: ConnectionRegistry.metadataKey] = "\(connection.id)"
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionHandler(connection, connections), position: .first)
        } catch {
            connections.remove(connection.id)
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { [errorStyle] value in
            // The decoder is in place once the inner setup has run.
            let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(RequestHeadGuard(connection, style: errorStyle), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }

    /// The mock's: its sockets upgraded by `shouldUpgrade`, a refused head answered as the sandbox's are
    /// (the mock said nothing to a request line with raw UTF-8 in it, and the client waited for ever).
    static func builder(
        connections: ConnectionRegistry, errorStyle: ErrorStyle,
        shouldUpgrade: @escaping @Sendable (HTTPRequest, any Channel, Logger) throws -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>>
    ) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            SandboxChildChannel(inner: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: .init(), shouldUpgrade: shouldUpgrade),
                                connections: connections, errorStyle: errorStyle)
        }
    }

    static func builder<WebSocketRouter: HTTPResponderBuilder>(
        webSocketRouter: WebSocketRouter, connections: ConnectionRegistry, errorStyle: ErrorStyle
    ) -> HTTPServerBuilder where WebSocketRouter.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = webSocketRouter.buildResponder()
        return HTTPServerBuilder { responder in
            // Frames up to the echo's 16 MiB (Hummingbird's default is 16 KiB),
            // so a client can be shown a 10 MB frame; permessage-deflate for
            // a client that offers it, as a production chat server would.
            let configuration = WebSocketServerConfiguration(
                maxFrameSize: AdminRoutes.largestEchoedMessage,
                extensions: [.perMessageDeflate(maxDecompressedFrameSize: AdminRoutes.largestEchoedMessage)])
            return SandboxChildChannel(inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder,
                                                                           configuration: configuration),
                                       connections: connections, errorStyle: errorStyle)
        }
    }
}
