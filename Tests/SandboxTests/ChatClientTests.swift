import Core
import Foundation
import Logging
import Testing
import WSClient
@testable import Sandbox
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Frames received by a test socket, read in order with a timeout.
actor Mailbox {
    private var frames: [JSONValue] = []
    private(set) var isOpen = false
    private(set) var isFinished = false
    private(set) var failure: (any Error)?
    /// The server's close frame, when the socket ended with a close handshake.
    private(set) var closeFrame: WebSocketCloseFrame?

    func opened() { isOpen = true }
    func append(_ frame: JSONValue) { frames.append(frame) }
    func finish() { isFinished = true }
    func closed(_ frame: WebSocketCloseFrame?) { closeFrame = frame }
    func fail(_ error: any Error) { failure = error; isFinished = true }
    func take() -> JSONValue? { frames.isEmpty ? nil : frames.removeFirst() }
    var pending: Int { frames.count }
}

struct SocketTimeout: Error, CustomStringConvertible {
    let description: String
}

/// A WebSocket client for tests (swift-websocket's WSClient): frames go into
/// a mailbox, `send` queues a text frame.
final class TestSocket: Sendable {
    let mailbox = Mailbox()
    private let outgoing: AsyncStream<String>.Continuation
    private let task: Task<Void, Never>

    private init(url: String) {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        outgoing = continuation
        let mailbox = self.mailbox
        task = Task {
            do {
                let closeFrame = try await WebSocketClient.connect(url: url, logger: Logger(label: "test.ws")) { inbound, outbound, _ in
                    await mailbox.opened()
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await text in stream { try? await outbound.write(.text(text)) }
                            try? await outbound.close(.normalClosure, reason: nil)
                        }
                        do {
                            for try await message in inbound.messages(maxSize: 1 << 20) {
                                if case let .text(text) = message { await mailbox.append(try JSONParser.parse(text)) }
                            }
                        } catch {}
                        await mailbox.finish()
                        group.cancelAll()
                    }
                }
                await mailbox.closed(closeFrame)
                await mailbox.finish()
            } catch {
                await mailbox.fail(error)
            }
        }
    }

    /// Connects and, with `handshake`, waits for a pong to a ping, so the
    /// server has registered the socket before the test goes on.
    static func connect(_ server: SandboxServer, _ path: String, handshake: Bool = true) async throws -> TestSocket {
        let socket = TestSocket(url: "ws://127.0.0.1:\(server.port)\(path)")
        let deadline = ContinuousClock.now + patience
        while await !socket.mailbox.isOpen {
            if let failure = await socket.mailbox.failure { throw failure }
            guard ContinuousClock.now < deadline else { throw SocketTimeout(description: "no connection to \(path)") }
            try await Task.sleep(for: .milliseconds(5))
        }
        if handshake {
            socket.send(#"{"type":"ping"}"#)
            let pong = try await socket.next()
            #expect(pong["type"] == .string("pong"))
        }
        return socket
    }

    func send(_ text: String) { outgoing.yield(text) }

    /// The next frame; throws after `timeout` or when the socket has ended.
    func next(timeout: Duration = patience) async throws -> JSONValue {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let frame = await mailbox.take() { return frame }
            if await mailbox.isFinished { throw SocketTimeout(description: "the socket ended") }
            guard ContinuousClock.now < deadline else { throw SocketTimeout(description: "no frame within \(timeout)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits until the socket has ended (closed by either side, or dropped).
    func waitUntilFinished(timeout: Duration = patience) async throws {
        let deadline = ContinuousClock.now + timeout
        while await !mailbox.isFinished {
            guard ContinuousClock.now < deadline else { throw SocketTimeout(description: "the socket is still open") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    func close() async {
        outgoing.finish()
        _ = await task.value
    }
}

/// One HTTP/1.1 exchange over a plain socket, read until the server closes
/// (or 30 s pass: a bound, not a measure; at the start of the whole suite,
/// with some 30 sandboxes starting on two cores, 5 s was not always enough), or with `headOnly` until the answer's head ends: for what
/// HTTP clients hide, such as a WebSocket upgrade's status and headers or a
/// body shorter than its Content-Length. The blocking calls run on a Dispatch
/// thread: on a 2-core machine the two cooperative threads are needed by the
/// server's own async work.
func rawHTTP(port: Int, _ request: String, headOnly: Bool = false) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try blockingRawHTTP(port: port, request, headOnly: headOnly) })
        }
    }
}

private func blockingRawHTTP(port: Int, _ request: String, headOnly: Bool) throws -> String {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw SocketTimeout(description: "socket() failed") }
    defer { close(fd) }
    // What should come at once is waited for up to 30 s, as elsewhere in the
    // suite: 5 s failed twice on a machine busy with other builds.
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw SocketTimeout(description: "connect() failed") }
    let bytes = Array(request.utf8)
    guard send(fd, bytes, bytes.count, 0) == bytes.count else { throw SocketTimeout(description: "send() failed") }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !(headOnly && String(decoding: received, as: UTF8.self).contains("\r\n\r\n")) {
        let n = recv(fd, &buffer, buffer.count, 0)
        if n <= 0 { break }
        received += buffer[0..<n]
    }
    return String(decoding: received, as: UTF8.self)
}

/// A WebSocket upgrade request for `path`, as a browser or URLSession sends
/// it, offering `extensions` when given.
func upgradeRequest(_ path: String, extensions: String? = nil) -> String {
    "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
        + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        + (extensions.map { "Sec-WebSocket-Extensions: \($0)\r\n" } ?? "") + "\r\n"
}

/// Status code and JSON body of a raw HTTP answer.
func parseRaw(_ text: String) -> (status: Int, body: JSONValue?) {
    let status = Int(text.split(separator: " ", maxSplits: 2).dropFirst().first ?? "") ?? 0
    guard let split = text.range(of: "\r\n\r\n") else { return (status, nil) }
    return (status, try? JSONParser.parse(String(text[split.upperBound...])))
}

extension LiveTransport {
    func loginBoth(_ server: SandboxServer) async throws -> (alice: String, bob: String) {
        (try await login(server).access, try await login(server, "bob@example.com", "bob12345").access)
    }
}

/// The chat socket's own protocol: pings, errors that keep it open, and the
/// upgrades it refuses.
@Suite struct ChatClientTests {
    @Test func refusedUpgradesAnswer401Or403InTheEnvelope() async throws {
        try await withSandbox { server, http in
            let (alice, _) = try await http.login(server)
            let missing = parseRaw(try await rawHTTP(port: server.port, upgradeRequest("/ws/chat/1")))
            #expect(missing.status == 401)
            #expect(missing.body?["error_code"] == .string("UNAUTHORIZED"))
            let bad = parseRaw(try await rawHTTP(port: server.port, upgradeRequest("/ws/chat/1?token=not-a-token")))
            #expect(bad.status == 401)
            #expect(bad.body?["error_code"] == .string("INVALID_TOKEN"))
            let other = parseRaw(try await rawHTTP(port: server.port, upgradeRequest("/ws/chat/2?token=\(alice)")))
            #expect(other.status == 403)
            #expect(other.body?["error_code"] == .string("FORBIDDEN"))
            try await server.expireAccessTokens()
            let expired = parseRaw(try await rawHTTP(port: server.port, upgradeRequest("/ws/chat/1?token=\(alice)")))
            #expect(expired.status == 401)
            #expect(expired.body?["error_code"] == .string("TOKEN_EXPIRED"))
            // A path that names no user, or no socket at all: 404 in the envelope, as documented (an empty 400 before).
            for path in ["/ws/chat/", "/ws/chat", "/nope", "/ws", "/ws/chatx", "/ws/chat/1/x", "/__sandbox/echo/x", "/__sandbox/echox"] {
                let nobody = parseRaw(try await rawHTTP(port: server.port, upgradeRequest(path)))
                #expect(nobody.status == 404, "\(path)")
                #expect(nobody.body?["error_code"] == .string("NOT_FOUND"), "\(path)")
            }
        }
    }

    @Test func aRefusedUpgradeFailsTheWebSocketClient() async throws {
        try await withSandbox { server, http in
            let (alice, _) = try await http.login(server)
            for path in ["/ws/chat/1", "/ws/chat/1?token=nope", "/ws/chat/2?token=\(alice)"] {
                await #expect(throws: WebSocketClientError.webSocketUpgradeFailed, "\(path)") {
                    try await TestSocket.connect(server, path)
                }
            }
            // The right token opens the channel.
            let socket = try await TestSocket.connect(server, "/ws/chat/1?token=\(alice)")
            await socket.close()
            // A normal close is a handshake: the server's close frame comes back.
            #expect(await socket.mailbox.closeFrame?.closeCode == .normalClosure)
        }
    }

    @Test func fetchingTheChannelWithoutAnUpgradeSays426() async throws {
        try await withSandbox { server, http in
            let (alice, _) = try await http.login(server)
            #expect(try await http.call(server, "GET", "/ws/chat/1").status == 401)
            let plain = try await http.call(server, "GET", "/ws/chat/1", [.query(name: "token", value: alice)])
            #expect(plain.status == 426)
            #expect(plain.json?["error_code"] == .string("UPGRADE_REQUIRED"))
        }
    }

    @Test func badFramesGetAnErrorAndTheSocketStaysOpen() async throws {
        try await withSandbox { server, http in
            let (alice, _) = try await http.login(server)
            let socket = try await TestSocket.connect(server, "/ws/chat/1?token=\(alice)")
            socket.send("{not json")
            #expect(try await socket.next()["code"] == .string("INVALID_JSON"))
            socket.send("[1, 2]")
            #expect(try await socket.next()["code"] == .string("INVALID_FRAME"))
            socket.send(#"{"type":"shout"}"#)
            let unknown = try await socket.next()
            #expect(unknown["type"] == .string("error"))
            #expect(unknown["code"] == .string("UNKNOWN_TYPE"))
            #expect(unknown["message"]?.stringValue?.isEmpty == false)
            socket.send(#"{"type":"message","client_message_id":"c1","receiver_id":2}"#)
            let invalid = try await socket.next()
            #expect(invalid["code"] == .string("VALIDATION_ERROR"))
            #expect(invalid["client_message_id"] == .string("c1"))
            #expect(invalid["details"]?["content"] != nil)
            socket.send(#"{"type":"message","client_message_id":"c2","receiver_id":999,"content":"hi"}"#)
            #expect(try await socket.next()["code"] == .string("USER_NOT_FOUND"))
            // Message 2 of the seed is alice's own: only bob may mark it read.
            socket.send(#"{"type":"read","message_id":2}"#)
            let forbidden = try await socket.next()
            #expect(forbidden["code"] == .string("FORBIDDEN"))
            #expect(forbidden["message_id"]?.intValue == 2)
            socket.send(#"{"type":"ping"}"#)
            #expect(try await socket.next() == .object([("type", .string("pong"))]))
            await socket.close()
        }
    }
}
