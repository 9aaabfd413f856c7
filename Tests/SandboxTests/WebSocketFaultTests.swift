import Core
import Foundation
import Sandbox
import Testing

/// The Core client against peers that misbehave: one that never answers a
/// ping, a 10 MB frame, TLS spoken to a plain server; and reconcile keyed on
/// the profile's data. Every wait is bounded (EventLog.wait: `patience`, 30 s, by default).
@Suite struct WebSocketFaultTests {
    @Test func theSilentServersAcceptKeyIsRFC6455s() {
        // RFC 6455 section 1.3's example key and answer.
        let digest = SHA1.hash(Array("dGhlIHNhbXBsZSBub25jZQ==258EAFA5-E914-47DA-95CA-C5AB0DC85B11".utf8))
        #expect(Data(digest).base64EncodedString() == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func aPeerThatNeverAnswersAPingCountsAsADropAndIsReconnected() async throws {
        let server = try SilentWebSocketServer()
        defer { server.stop() }
        let (session, transport) = linkUSession(on: server)
        var options = fastOptions(initialDelay: .milliseconds(50), attempts: 1)
        options.heartbeat = .milliseconds(200)
        let socket = WebSocketSession(address: .url("ws://127.0.0.1:\(server.port)/"), session: session, options: options)
        let log = EventLog(socket)
        await socket.start()
        do {
            let (opened, _) = try await log.wait { $0.isOpen }
            // No pong to the first ping by the second: the client drops the socket itself…
            let (lost, _) = try await log.wait(from: opened) { $0 == .closed(code: nil, reason: nil) }
            // …and reconnects per the policy: one try, after 50 ms.
            let (retry, _) = try await log.wait(from: lost) { $0 == .retrying(in: .milliseconds(50), attempt: 1) }
            let (reopened, _) = try await log.wait(from: retry) { $0.isOpen }
            #expect(server.handshakes == 2)
            #expect(await socket.reconnectCount == 1)
            // The second connection is just as silent. It opened, but carried
            // no frame and dropped within healthyAfter: still the same run of
            // failures, so with one try allowed the client gives up rather
            // than reconnecting to a dead peer for ever.
            let (lostAgain, _) = try await log.wait(from: reopened) { $0 == .closed(code: nil, reason: nil) }
            try await log.wait(from: lostAgain) { $0 == .gaveUp }
            #expect(server.handshakes == 2)
        } catch {
            Issue.record(error)
        }
        await socket.close()
        await transport.shutdown()
    }

    /// A LinkU session whose base URL is `server`, on a transport of its own (shut it down after).
    private func linkUSession(on server: SilentWebSocketServer) -> (AuthSession, LiveTransport) {
        let transport = LiveTransport()
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        return (AuthSession(profile: .linku, builder: builder, transport: transport, store: MemoryTokenStore()), transport)
    }

    /// Sends 1 MiB frames to a peer that reads nothing until a send fails;
    /// the socket's buffers take a few before the queue fills.
    private func sendUntilRefused(_ socket: WebSocketSession) async -> WebSocketSendError? {
        let megabyte = SocketFrame.binary([UInt8](repeating: 7, count: 1 << 20))
        for _ in 0..<256 {
            do { try await socket.send(megabyte) } catch { return error }
        }
        return nil
    }

    /// Runs `body` with a socket open on a peer that reads nothing: a queue of
    /// 2, no heartbeat, `sendTimeout` as given. Closes it after `body`.
    private func withSocketOnAPeerThatReadsNothing(sendTimeout: Duration,
                                                   _ body: (WebSocketSession) async throws -> Void) async throws {
        let server = try SilentWebSocketServer()
        defer { server.stop() }
        let (session, transport) = linkUSession(on: server)
        var options = fastOptions()
        options.heartbeat = nil
        options.queueLimit = 2
        options.sendTimeout = sendTimeout
        options.closeTimeout = .milliseconds(200)
        do {
            let (socket, _) = try await openSocket(.url("ws://127.0.0.1:\(server.port)/"), session, options)
            try await body(socket)
            await socket.close()
        } catch {
            Issue.record(error)
        }
        await transport.shutdown()
    }

    @Test func aPeerThatTakesNoFrameStallsTheSenderWithAnError() async throws {
        try await withSocketOnAPeerThatReadsNothing(sendTimeout: .milliseconds(300)) { socket in
            let refusal = await sendUntilRefused(socket)
            #expect(refusal == .stalled(waiting: 2, for: .milliseconds(300)))
            #expect(refusal?.description == "the server has taken no frame for 0.3 s (2 waiting to be written); not sent (send again later, or ws close)")
        }
    }

    @Test func aSenderWaitingForRoomCanBeCancelled() async throws {
        try await withSocketOnAPeerThatReadsNothing(sendTimeout: .seconds(30)) { socket in
            let sender = Task { await sendUntilRefused(socket) }
            // Long enough to fill the socket's buffers and the queue; far shorter than sendTimeout.
            while await socket.queuedCount < 2 { try await Task.sleep(for: .milliseconds(20)) }
            try await Task.sleep(for: .milliseconds(100))
            sender.cancel()
            #expect(await sender.value == .cancelled)
        }
    }

    @Test func closingOnAPeerThatNeverAnswersTheCloseFrameEndsAfterTheCloseTimeout() async throws {
        let server = try SilentWebSocketServer()
        defer { server.stop() }
        let (session, transport) = linkUSession(on: server)
        var options = fastOptions()
        options.closeTimeout = .milliseconds(200)
        do {
            let (socket, log) = try await openSocket(.url("ws://127.0.0.1:\(server.port)/"), session, options)
            // close() used to wait for the peer's answer for ever: run it aside
            // and give it far longer than the timeout, so a hang fails instead of hanging.
            let closing = Task { await socket.close() }
            try await log.wait { $0 == .closed(code: nil, reason: nil) }
            await closing.value
            #expect(await socket.state == .closed)
        } catch {
            Issue.record(error)
        }
        await transport.shutdown()
    }

    @Test func aTenMegabyteFrameComesBackWholeAndTheSocketGoesOn() async throws {
        try await withSandbox { server, http in
            let anyone = AuthSession(profile: .linku, builder: RequestBuilder(baseURL: server.baseURL), transport: http, store: MemoryTokenStore())
            let (socket, log) = try await openSocket(.url("/__sandbox/echo"), anyone)
            let big = #"{"type":"message","message":{"id":1,"content":""# + String(repeating: "x", count: 10 * 1024 * 1024) + #""}}"#
            try await socket.send(.text(big))
            try await socket.send(.text("after"))
            let (bigAt, received) = try await log.wait(timeout: .seconds(30)) {
                if case let .received(frame) = $0 { return frame.byteCount > 1000 } else { return false }
            }
            #expect(received == .received(.text(big)))
            try await log.wait(from: bigAt) { $0 == .received(.text("after")) }
            #expect(await socket.state == .open)
            await socket.close()
        }
    }

    @Test func tlsAndHandshakeFailuresAreOneLineEach() async throws {
        let plain = try SilentWebSocketServer(.plainHTTP)
        let mute = try SilentWebSocketServer(.mute)
        defer {
            plain.stop()
            mute.stop()
        }
        let transport = LiveTransport()
        let session = AuthSession(profile: .linku, builder: RequestBuilder(baseURL: URL(string: "http://127.0.0.1:\(plain.port)")!),
                                  transport: transport, store: MemoryTokenStore())
        // The TLS failures come at once on their own; under the whole suite's
        // load, setting up TLS (the system's trust roots) has taken longer
        // than the 0.3 s the mute server's cases wait.
        func failure(_ url: String, openTimeout: Duration = .seconds(10)) async throws -> String {
            var options = fastOptions()
            options.openTimeout = openTimeout
            let socket = WebSocketSession(address: .url(url), session: session, options: options)
            let log = EventLog(socket)
            await socket.start()
            let (_, event) = try await log.wait { if case .failed = $0 { return true } else { return false } }
            guard case let .failed(line) = event else { return "" }
            #expect(!line.contains("\n"), "\(line)")
            return line
        }
        do {
            // TLS spoken to a server that answers in plain HTTP.
            #expect(try await failure("wss://localhost:\(plain.port)/")
                == "TLS failure with wss://localhost:\(plain.port)/: the server does not speak TLS on this port (try ws://)")
            // WSClient sends the host as SNI, which NIOSSL refuses for an IP address: say so.
            #expect(try await failure("wss://127.0.0.1:\(plain.port)/").hasPrefix(
                "TLS failure with wss://127.0.0.1:\(plain.port)/: this client sends the host as the TLS server name"))
            // A server that accepts and never answers: bounded by openTimeout, for ws:// and wss:// alike.
            #expect(try await failure("ws://127.0.0.1:\(mute.port)/", openTimeout: .milliseconds(300))
                == "no answer from ws://127.0.0.1:\(mute.port)/ within 0.3 s (TCP connected; no TLS or WebSocket handshake)")
            #expect(try await failure("wss://localhost:\(mute.port)/", openTimeout: .milliseconds(300))
                .hasPrefix("no answer from wss://localhost:\(mute.port)/ within 0.3 s"))
        } catch {
            Issue.record(error)
        }
        await transport.shutdown()
    }

    @Test func reconcileFollowsTheProfilesEndpointsNotItsName() async throws {
        try await withSandbox { server, http in
            var renamed = Profile.linku
            renamed.name = "another-chat"
            var without = Profile.linku
            without.webSocketReconcile = nil
            let plain = AuthSession(profile: without, builder: RequestBuilder(baseURL: server.baseURL), transport: http, store: MemoryTokenStore())
            #expect(Reconciler.forProfile(plain) == nil)
            let alice = AuthSession(profile: renamed, builder: RequestBuilder(baseURL: server.baseURL), transport: http, store: MemoryTokenStore())
            #expect(try await alice.login(email: "alice@example.com", password: "alice123").response.status == 200)
            let reconciler = try #require(Reconciler.forProfile(alice))
            // The seed's conversation ends with message 3; after 1, messages 2 and 3 were missed.
            #expect(try await reconciler.latestID() == 3)
            #expect(try await reconciler.missed(1).compactMap { $0["id"]?.intValue } == [2, 3])
            #expect(try await reconciler.missed(3).isEmpty)
        }
    }
}
