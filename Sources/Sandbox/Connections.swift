import Core
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import HummingbirdWSCompression
import Logging
import NIOCore

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
        let body = JSONPrinter.compact(failure.body(style))
        let head = "HTTP/1.1 \(failure.status.code) \(failure.status.reasonPhrase)\r\n"
            + "Content-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n"
        lock.withLock { refusal = ByteBuffer(string: head + body) }
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
}

/// First handler of every connection's pipeline (next to the socket, so it
/// only ever sees bytes, before and after a WebSocket upgrade alike).
final class ConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let connection: Connection
    private let registry: ConnectionRegistry
    private static let failedUpgradePrefix = Array("HTTP/1.1 400 ".utf8)

    init(_ connection: Connection, _ registry: ConnectionRegistry) {
        self.connection = connection
        self.registry = registry
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
        context.fireChannelInactive()
    }
}

/// Hummingbird's HTTP/1 + WebSocket-upgrade child channel with the sandbox's
/// `ConnectionHandler` in front and the connection id in the logger.
struct SandboxChildChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    let inner: HTTP1WebSocketUpgradeChannel
    let connections: ConnectionRegistry

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
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }

    static func builder<WebSocketRouter: HTTPResponderBuilder>(
        webSocketRouter: WebSocketRouter, connections: ConnectionRegistry
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
                                       connections: connections)
        }
    }
}
