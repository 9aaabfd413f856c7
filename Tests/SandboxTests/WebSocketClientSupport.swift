import Core
import Foundation
import Sandbox
import Testing

/// How long a test waits for what should come at once. The whole suite runs
/// its tests in parallel, and on a loaded two-core machine one wait has
/// taken over 10 s; a hang still fails, it just takes this long.
let patience: Duration = .seconds(30)

/// Collects a `WebSocketSession`'s events so a test can wait for one.
actor EventLog {
    private(set) var events: [WebSocketEvent] = []

    init(_ socket: WebSocketSession) {
        let stream = socket.events
        Task { await self.read(stream) }
    }

    private func read(_ stream: AsyncStream<WebSocketEvent>) async {
        for await event in stream { events.append(event) }
    }

    /// Waits until an event after index `from` matches, and returns it with its index.
    @discardableResult
    func wait(from: Int = 0, timeout: Duration = patience, _ match: @Sendable (WebSocketEvent) -> Bool) async throws -> (Int, WebSocketEvent) {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let i = events.indices.first(where: { $0 >= from && match(events[$0]) }) { return (i, events[i]) }
            guard ContinuousClock.now < deadline else {
                throw SocketTimeout(description: "no matching event within \(timeout); got \(events)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Received frames as JSON, in order.
    var receivedJSON: [JSONValue] {
        events.compactMap { if case let .received(frame) = $0 { return frame.json } else { return nil } }
    }
}

extension WebSocketEvent {
    var isOpen: Bool { self == .open }
    var receivedJSON: JSONValue? { if case let .received(frame) = self { return frame.json } else { return nil } }
}

/// A logged-in LinkU session for the sandbox.
func loggedIn(_ server: SandboxServer, _ http: LiveTransport, _ email: String, _ password: String) async throws -> AuthSession {
    let session = AuthSession(profile: .linku, builder: RequestBuilder(baseURL: server.baseURL), transport: http, store: MemoryTokenStore())
    let login = try await session.login(email: email, password: password)
    #expect(login.response.status == 200)
    return session
}

/// Options for tests: a short backoff so a reconnect takes milliseconds.
func fastOptions(initialDelay: Duration = .milliseconds(20), attempts: Int = 5) -> WebSocketOptions {
    var options = WebSocketOptions()
    options.reconnect = ReconnectPolicy(initialDelay: initialDelay, attempts: attempts)
    options.heartbeat = .seconds(5)
    return options
}

/// Starts a socket and waits until it is open.
func openSocket(_ address: WebSocketAddress, _ session: AuthSession, _ options: WebSocketOptions = fastOptions(),
                reconciler: Reconciler? = nil) async throws -> (WebSocketSession, EventLog) {
    let socket = WebSocketSession(address: address, session: session, options: options, reconciler: reconciler)
    let log = EventLog(socket)
    await socket.start()
    try await log.wait { $0.isOpen }
    return (socket, log)
}

func messageFrame(_ clientID: String, to receiver: Int, _ content: String) -> SocketFrame {
    .text(#"{"type":"message","client_message_id":"\#(clientID)","receiver_id":\#(receiver),"content":"\#(content)"}"#)
}
