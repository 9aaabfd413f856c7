import Core
import Foundation
import Sandbox
import Testing

/// The Core WebSocket client against the sandbox: chat, drops and
/// reconnects, de-duplication, reconcile, and the echo route.
@Suite struct WebSocketClientTests {
    @Test func theDefaultBackoffIsTheSeedsSchedule() {
        #expect(ReconnectPolicy.standard.schedule == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16)])
        #expect(ReconnectPolicy.standard.delay(beforeAttempt: 6) == nil)
    }

    /// Doubling had no ceiling: `--retries 30` waited six days before its 20th try. A first wait longer than
    /// the ceiling (`--backoff 60`) is kept.
    @Test func theBackoffStopsDoublingAtItsCeiling() {
        #expect(ReconnectPolicy(attempts: 30).schedule.suffix(25).allSatisfy { $0 == ReconnectPolicy.longestDelay })
        #expect(ReconnectPolicy(attempts: 30).delay(beforeAttempt: 5) == .seconds(16))
        #expect(ReconnectPolicy(initialDelay: .seconds(60), attempts: 3).schedule == [.seconds(60), .seconds(60), .seconds(60)])
    }

    @Test func theDeduplicatorForgetsOnlyBeyondItsWindow() {
        var dedup = MessageDeduplicator(capacity: 2)
        let answers = ["1", "2", "1", "3", "1"].map { dedup.isNew($0) }
        // "1" is a duplicate while in the window, and new again once "3" pushed it out.
        #expect(answers == [true, true, false, true, true])
    }

    @Test func aliceSendsBobReceivesAndTheAckArrives() async throws {
        try await withSandbox { server, http in
            let alice = try await loggedIn(server, http, "alice@example.com", "alice123")
            let bob = try await loggedIn(server, http, "bob@example.com", "bob12345")
            let (bobSocket, bobLog) = try await openSocket(.profileTemplate, bob)
            let (aliceSocket, aliceLog) = try await openSocket(.profileTemplate, alice)
            try await aliceSocket.send(messageFrame("a-1", to: 2, "hi bob"))
            let (_, ack) = try await aliceLog.wait { $0.receivedJSON?["type"] == .string("ack") }
            #expect(ack.receivedJSON?["client_message_id"] == .string("a-1"))
            let (_, delivered) = try await bobLog.wait { $0.receivedJSON?["type"] == .string("message") }
            #expect(delivered.receivedJSON?["message"]?["content"] == .string("hi bob"))
            #expect(await aliceSocket.sentCount == 1)
            await aliceSocket.close()
            await bobSocket.close()
            #expect(await aliceLog.events.contains(.closed(code: 1000, reason: nil)))
        }
    }

    @Test func aDroppedSocketReconnectsOnScheduleAndFlushesItsQueue() async throws {
        try await withSandbox { server, http in
            let alice = try await loggedIn(server, http, "alice@example.com", "alice123")
            try server.setFaults { $0.webSocketDropAfterFrames = 2 }
            let options = fastOptions(initialDelay: .milliseconds(300))
            let (socket, log) = try await openSocket(.profileTemplate, alice, options)
            // Frame 1 is this message, frame 2 its ack: then the server drops the socket.
            try await socket.send(messageFrame("d-1", to: 2, "first"))
            let (closedAt, _) = try await log.wait { $0 == .closed(code: nil, reason: nil) }
            try server.setFaults { $0.webSocketDropAfterFrames = 0 }
            let dropped = ContinuousClock.now
            // While the socket is down, messages wait in the queue, in order.
            #expect(try await socket.send(messageFrame("d-2", to: 2, "second")) == .queued(waiting: 1))
            #expect(try await socket.send(messageFrame("d-3", to: 2, "third")) == .queued(waiting: 2))
            try await log.wait(from: closedAt) { $0 == .retrying(in: .milliseconds(300), attempt: 1) }
            let (openAt, _) = try await log.wait(from: closedAt) { $0.isOpen }
            let waited = ContinuousClock.now - dropped
            #expect(waited < .seconds(3), "reconnected after \(waited)")
            try await log.wait(from: openAt) { $0.receivedJSON?["client_message_id"] == .string("d-3") }
            let acks = await log.receivedJSON.filter { $0["type"] == .string("ack") }.compactMap { $0["client_message_id"]?.stringValue }
            #expect(acks.suffix(2) == ["d-2", "d-3"])
            #expect(await socket.reconnectCount == 1)
            #expect(await socket.queuedCount == 0)
            await socket.close()
        }
    }

    /// Tries count consecutive failures. A connection that answered a frame
    /// sent on it is no failure, however soon it dropped: a chat on a flaky
    /// network, every connection carrying traffic, was given up on after
    /// `--retries` drops in all, "gave up after 3 tries" of 3 that had opened.
    @Test func aConnectionThatAnsweredWhatWasSentResetsTheTries() async throws {
        try await withSandbox { server, http in
            let alice = try await loggedIn(server, http, "alice@example.com", "alice123")
            try server.setFaults { $0.webSocketDropAfterFrames = 2 }  // a frame sent, its echo: then dropped
            let (socket, log) = try await openSocket(.url("/__sandbox/echo"), alice, fastOptions(initialDelay: .milliseconds(50), attempts: 1))
            var from = 0
            for round in 1...3 {
                try await socket.send(.text(#"{"round":\#(round)}"#))
                let (echoed, _) = try await log.wait(from: from) { $0.receivedJSON?["round"]?.intValue == round }
                let (lost, _) = try await log.wait(from: echoed) { $0 == .closed(code: nil, reason: nil) }
                // The try that follows is the first again, every time.
                let (retried, _) = try await log.wait(from: lost) { $0 == .retrying(in: .milliseconds(50), attempt: 1) }
                (from, _) = try await log.wait(from: retried) { $0.isOpen }
            }
            #expect(await !log.events.contains(.gaveUp))
            try server.setFaults { $0.webSocketDropAfterFrames = 0 }
            await socket.close()
        }
    }

    @Test func aMessageDeliveredTwiceIsReportedOnce() async throws {
        try await withSandbox { server, http in
            let alice = try await loggedIn(server, http, "alice@example.com", "alice123")
            let (socket, log) = try await openSocket(.url("/__sandbox/echo"), alice)
            let same = SocketFrame.text(#"{"type":"message","message":{"id":77,"content":"once"}}"#)
            try await socket.send(same)
            try await socket.send(same)
            try await socket.send(.text(#"{"type":"message","message":{"id":78,"content":"next"}}"#))
            try await log.wait { $0.receivedJSON?["message"]?["id"]?.intValue == 78 }
            let ids = await log.receivedJSON.compactMap { $0["message"]?["id"]?.intValue }
            #expect(ids == [77, 78])
            #expect(await socket.duplicateCount == 1)
            await socket.close()
        }
    }

    @Test func reconcileFindsAMessageSentWhileDisconnected() async throws {
        try await withSandbox { server, http in
            let alice = try await loggedIn(server, http, "alice@example.com", "alice123")
            let bob = try await loggedIn(server, http, "bob@example.com", "bob12345")
            try server.setFaults { $0.webSocketDropAfterFrames = 1 }
            let options = fastOptions(initialDelay: .seconds(1))
            let (socket, log) = try await openSocket(.profileTemplate, bob, options, reconciler: .forProfile(bob))
            try await socket.send(.text(#"{"type":"ping"}"#))
            try await log.wait { if case .retrying = $0 { return true } else { return false } }
            try server.setFaults { $0.webSocketDropAfterFrames = 0 }
            let sent = try await alice.send(alice.builder.build(method: "POST", path: "/api/users/messages/send", items: [
                .jsonField(name: "receiver_id", value: .int(2)), .stringField(name: "content", value: "while you were away"),
            ]))
            #expect(sent.response.status == 201)
            let (_, event) = try await log.wait { if case .reconciled = $0 { return true } else { return false } }
            guard case let .reconciled(missed) = event else { return }
            #expect(missed.map { $0["content"] } == [.string("while you were away")])
            await socket.close()
        }
    }

    @Test func aReconnectRefusedForAnExpiredTokenRefreshesIt() async throws {
        try await withSandbox { server, http in
            let alice = try await loggedIn(server, http, "alice@example.com", "alice123")
            let before = try #require(await alice.tokens?.accessToken)
            try server.setFaults { $0.webSocketDropAfterFrames = 1 }
            let (socket, log) = try await openSocket(.profileTemplate, alice, fastOptions(initialDelay: .milliseconds(50)))
            try server.setFaults { $0.webSocketDropAfterFrames = 0 }
            // The server stops taking the token, then the socket drops.
            try await server.expireAccessTokens()
            try await socket.send(.text(#"{"type":"ping"}"#))
            let (closedAt, _) = try await log.wait { $0 == .closed(code: nil, reason: nil) }
            try await log.wait(from: closedAt, timeout: .seconds(15)) { $0.isOpen }
            #expect(await alice.tokens?.accessToken != before)
            // The refused try is said, with what the next one does (it failed in silence).
            let said = await log.events.compactMap { if case let .failed(line) = $0 { line } else { nil } }
            #expect(said.contains { $0.hasPrefix("try 1 failed: ") && $0.contains("401") && $0.hasSuffix("; the next refreshes the token first") }, "\(said)")
            await socket.close()
        }
    }

    @Test func theEchoRouteSendsTextAndBinaryBack() async throws {
        try await withSandbox { server, http in
            let anyone = AuthSession(profile: .linku, builder: RequestBuilder(baseURL: server.baseURL), transport: http, store: MemoryTokenStore())
            let (socket, log) = try await openSocket(.url("ws://127.0.0.1:\(server.port)/__sandbox/echo"), anyone)
            try await socket.send(.text("plain text"))
            try await socket.send(.binary([0, 1, 2, 255]))
            try await log.wait { $0 == .received(.text("plain text")) }
            try await log.wait { $0 == .received(.binary([0, 1, 2, 255])) }
            await socket.close()
        }
    }

    @Test func aFullQueueRefusesWithAnErrorInsteadOfDropping() async throws {
        try await withSandbox { server, http in
            let anyone = AuthSession(profile: .linku, builder: RequestBuilder(baseURL: server.baseURL), transport: http, store: MemoryTokenStore())
            try server.setFaults { $0.webSocketDropAfterFrames = 1 }
            var options = fastOptions(initialDelay: .seconds(30))
            options.queueLimit = 2
            let (socket, log) = try await openSocket(.url("/__sandbox/echo"), anyone, options)
            try await socket.send(.text("drops the socket"))
            try await log.wait { if case .retrying = $0 { return true } else { return false } }
            try await socket.send(.text("one"))
            try await socket.send(.text("two"))
            await #expect(throws: WebSocketSendError.queueFull(limit: 2)) { try await socket.send(.text("three")) }
            await socket.close()
            #expect(await socket.state == .closed)
        }
    }

    @Test func whileOpenAFullQueueWaitsForTheWriterInsteadOfRefusing() async throws {
        try await withSandbox { server, http in
            let anyone = AuthSession(profile: .linku, builder: RequestBuilder(baseURL: server.baseURL), transport: http, store: MemoryTokenStore())
            var options = fastOptions()
            options.queueLimit = 2
            let (socket, log) = try await openSocket(.url("/__sandbox/echo"), anyone, options)
            // A burst far beyond the queue, as a script of `ws send` lines makes.
            for i in 0..<300 { try await socket.send(.text("burst \(i)")) }
            try await log.wait { $0 == .received(.text("burst 299")) }
            let echoes = await log.events.compactMap { event -> String? in
                if case let .received(.text(text)) = event { return text } else { return nil }
            }
            #expect(echoes == (0..<300).map { "burst \($0)" })
            #expect(await socket.sentCount == 300)
            await socket.close()
        }
    }

    @Test func firstConnectionFailuresAreOneLineEach() async throws {
        try await withSandbox { server, http in
            let alice = try await loggedIn(server, http, "alice@example.com", "alice123")
            let token = try #require(await alice.tokens?.accessToken)
            let forbidden = try await failure(.url("/ws/chat/2?token=\(token)"), alice)
            #expect(forbidden.contains("handshake rejected") && forbidden.contains("403 FORBIDDEN"), "\(forbidden)")
            #expect(!forbidden.contains(token))
            let unauthorized = try await failure(.url("/ws/chat/1?token=nope"), alice)
            #expect(unauthorized.contains("401 INVALID_TOKEN"), "\(unauthorized)")
            let anonymous = AuthSession(profile: .linku, builder: RequestBuilder(baseURL: server.baseURL), transport: http, store: MemoryTokenStore())
            #expect(try await failure(.profileTemplate, anonymous).contains("not logged in"))
        }
        let closedPort = try await withSandbox { server, _ in server.port }
        let transport = LiveTransport()
        let nobody = AuthSession(profile: .linku, builder: RequestBuilder(baseURL: URL(string: "http://127.0.0.1:\(closedPort)")!),
                                 transport: transport, store: MemoryTokenStore())
        let refused = try await failure(.url("/__sandbox/echo"), nobody)
        await transport.shutdown()
        #expect(refused.hasPrefix("connection refused"), "\(refused)")
    }

    private func failure(_ address: WebSocketAddress, _ session: AuthSession) async throws -> String {
        let socket = WebSocketSession(address: address, session: session, options: fastOptions())
        let log = EventLog(socket)
        await socket.start()
        let (_, event) = try await log.wait { if case .failed = $0 { return true } else { return false } }
        guard case let .failed(line) = event else { return "" }
        return line
    }
}
