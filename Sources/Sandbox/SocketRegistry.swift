import Core
import Foundation
import HummingbirdWebSocket
import Logging

/// One open WebSocket as the sandbox sees it. Every frame in or out is
/// counted here, so the drop-after-N-frames fault applies to all sockets
/// alike, whoever writes to them (their own handler, or another user's
/// message being delivered).
final class OpenSocket: @unchecked Sendable {
    let id: Int
    /// The authenticated user, for sockets that have one.
    let userID: String?
    private let outbound: WebSocketOutboundWriter
    private let connection: Connection?
    /// The ws_drop_after switch when the upgrade was accepted (0: never
    /// dropped): changing the switch applies to sockets opened afterwards, so
    /// a client can be shown the drop without upsetting the sockets already
    /// open.
    private let dropAfter: Int
    private let lock = NSLock()
    private var frames = 0
    private var dropped = false

    init(id: Int, userID: String?, outbound: WebSocketOutboundWriter, connection: Connection?, dropAfter: Int) {
        self.id = id
        self.userID = userID
        self.outbound = outbound
        self.connection = connection
        self.dropAfter = dropAfter
    }

    private var exhausted: Bool { dropAfter > 0 && frames >= dropAfter }

    /// Counts a frame the client sent. Returns false once the socket has been
    /// dropped. When this frame reaches the limit, it is still handled, but
    /// the socket drops before anything else is sent: the client then sees a
    /// message stored whose acknowledgement never came.
    func received() -> Bool {
        lock.withLock {
            guard !dropped else { return false }
            frames += 1
            return true
        }
    }

    /// Drops the socket if the frame count has reached the limit (after
    /// handling a received frame that sent nothing back).
    func dropIfExhausted() {
        if lock.withLock({ !dropped && exhausted }) { drop() }
    }

    /// Sends one text frame of compact JSON. Errors (the socket is closing)
    /// are ignored: the message is stored and REST can fetch it.
    func send(_ value: JSONValue) async {
        await sendRaw(.text(JSONPrinter.compact(value)))
    }

    /// Sends one frame as it is (the echo socket).
    func sendRaw(_ frame: WebSocketOutboundWriter.OutboundFrame) async {
        let permitted = lock.withLock { () -> Bool in
            guard !dropped, !exhausted else { return false }
            frames += 1
            return true
        }
        guard permitted else { drop(); return }
        try? await outbound.write(frame)
        dropIfExhausted()
    }

    var isDropped: Bool { lock.withLock { dropped } }

    /// Closes the TCP connection without a close frame, as a network failure
    /// would. Without a known connection (never in the sandbox's own server)
    /// it falls back to a close frame "going away".
    func drop() {
        let first = lock.withLock { () -> Bool in
            defer { dropped = true }
            return !dropped
        }
        guard first else { return }
        if let connection {
            connection.drop()
        } else {
            let outbound = self.outbound
            Task { try? await outbound.close(.goingAway, reason: "dropped by the ws_drop_after fault switch") }
        }
    }
}

/// The open WebSockets per user (an actor: sockets open and close from many
/// connections at once).
actor SocketRegistry {
    private var nextID = 0
    private var byUser: [String: [Int: OpenSocket]] = [:]

    func open(userID: String?, outbound: WebSocketOutboundWriter, connection: Connection?, dropAfter: Int) -> OpenSocket {
        nextID += 1
        let socket = OpenSocket(id: nextID, userID: userID, outbound: outbound, connection: connection, dropAfter: dropAfter)
        if let userID { byUser[userID, default: [:]][socket.id] = socket }
        return socket
    }

    func close(_ socket: OpenSocket) {
        guard let userID = socket.userID else { return }
        byUser[userID]?[socket.id] = nil
        if byUser[userID]?.isEmpty == true { byUser[userID] = nil }
    }

    func sockets(of userID: String) -> [OpenSocket] {
        (byUser[userID] ?? [:]).sorted { $0.key < $1.key }.map(\.value)
    }

    func count(of userID: String) -> Int { byUser[userID]?.count ?? 0 }
}

extension SandboxState {
    /// What a WebSocket route answers when it takes the upgrade. The
    /// ws_drop_after switch is read here, before the 101 goes out: the
    /// socket's handler starts later, and a client that has seen the socket
    /// open may already have changed the switch by then.
    func acceptUpgrade(logger: Logger) -> RouterShouldUpgrade {
        connections.connection(for: logger)?.acceptUpgrade(dropAfter: faults.current.webSocketDropAfterFrames)
        return .upgrade([:])
    }

    /// Opens a socket record for a WebSocket handler; `close` it when the handler ends.
    func openSocket(userID: String?, outbound: WebSocketOutboundWriter, logger: Logger) async -> OpenSocket {
        let connection = connections.connection(for: logger)
        let dropAfter = connection?.dropAfterWhenAccepted ?? faults.current.webSocketDropAfterFrames
        return await sockets.open(userID: userID, outbound: outbound, connection: connection, dropAfter: dropAfter)
    }

    /// Sends a frame to every open socket of a user, except one (the socket
    /// the frame answers, which got its own reply).
    func send(_ value: JSONValue, toUser userID: String, except: OpenSocket? = nil) async {
        for socket in await sockets.sockets(of: userID) where socket !== except {
            await socket.send(value)
        }
    }
}
