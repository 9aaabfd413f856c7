import Core
import Foundation
import Testing
@testable import Sandbox

/// The fault switches: off by default, set at start or through the admin
/// endpoint, deterministic with a seed.
@Suite struct FaultsTests {
    func setFaults(_ http: LiveTransport, _ server: SandboxServer, _ json: String) async throws -> ReceivedResponse {
        try await http.send(PreparedRequest(method: "PUT", url: server.baseURL.appendingPathComponent("__sandbox/faults"),
                                            headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Array(json.utf8)))
    }

    @Test func allOffByDefault() async throws {
        try await withSandbox { server, http in
            let faults = try await http.call(server, "GET", "/__sandbox/faults")
            #expect(faults.status == 200)
            #expect(faults.json == (try JSONParser.parse(
                #"{"token_ttl":900,"latency_ms":0,"error_rate":0,"cut_body_rate":0,"ws_drop_after":0,"seed":null}"#)))
        }
    }

    @Test func theAdminEndpointChecksEveryKeyAndChangesNothingOnError() async throws {
        try await withSandbox { server, http in
            let bad = try await setFaults(http, server, #"{"latency_ms":50,"error_rate":1.5,"nonsense":true}"#)
            #expect(bad.status == 422)
            #expect(bad.json?["details"]?["error_rate"] != nil)
            #expect(bad.json?["details"]?["nonsense"] != nil)
            #expect(try await http.call(server, "GET", "/__sandbox/faults").json?["latency_ms"]?.intValue == 0)
            let good = try await setFaults(http, server, #"{"latency_ms":50,"ws_drop_after":3}"#)
            #expect(good.status == 200)
            #expect(good.json?["latency_ms"]?.intValue == 50)
            #expect(good.json?["ws_drop_after"]?.intValue == 3)
            let reset = try await http.call(server, "DELETE", "/__sandbox/faults")
            #expect(reset.json?["latency_ms"]?.intValue == 0)
        }
    }

    @Test func latencyIsAddedToEveryRequestButAdminOnes() async throws {
        try await withSandbox({ $0.faults.latencyMilliseconds = 250 }) { server, http in
            let (access, _) = try await http.login(server)
            let start = ContinuousClock.now
            #expect(try await http.call(server, "GET", "/api/tasks", token: access).status == 200)
            #expect(ContinuousClock.now - start >= .milliseconds(250))
            // Changed at run time: the new value applies to the next request.
            _ = try await setFaults(http, server, #"{"latency_ms":400}"#)
            let again = ContinuousClock.now
            _ = try await http.call(server, "GET", "/api/tasks", token: access)
            #expect(ContinuousClock.now - again >= .milliseconds(400))
        }
    }

    @Test func aShareOfRequestsFailsAndASeedReplaysTheSameFailures() async throws {
        try await withSandbox { server, http in
            let (access, _) = try await http.login(server)
            func run() async throws -> [Int] {
                var statuses: [Int] = []
                for _ in 0..<40 {
                    let response = try await http.call(server, "GET", "/api/tasks/1", token: access)
                    statuses.append(response.status)
                    if response.status >= 500 {
                        #expect(response.json?["error"] == .bool(true))
                        #expect(response.json?["error_code"] == .string(response.status == 503 ? "SERVICE_UNAVAILABLE" : "INTERNAL_ERROR"))
                        #expect(response.json?["status_code"]?.intValue == response.status)
                    }
                }
                return statuses
            }
            #expect(try await setFaults(http, server, #"{"error_rate":0.5,"seed":42}"#).status == 200)
            let first = try await run()
            #expect(try await setFaults(http, server, #"{"seed":42}"#).status == 200)
            let second = try await run()
            #expect(first == second)
            #expect(Set(first).isSubset(of: [200, 500, 503]))
            #expect(first.contains(200) && first.contains(500) && first.contains(503))
            let failed = first.filter { $0 >= 500 }.count
            #expect((8...32).contains(failed), "\(failed) of 40 failed at a share of 0.5")
            // Admin routes are exempt, so the switch can always be turned off.
            #expect(try await setFaults(http, server, #"{"error_rate":1}"#).status == 200)
            #expect(try await http.call(server, "GET", "/api/tasks/1", token: access).status >= 500)
            #expect(try await http.call(server, "GET", "/__sandbox/faults").status == 200)
            #expect(try await setFaults(http, server, #"{"error_rate":0}"#).status == 200)
            #expect(try await http.call(server, "GET", "/api/tasks/1", token: access).status == 200)
        }
    }

    @Test func theSwiftAPIChangesTheSwitchesToo() async throws {
        try await withSandbox { server, http in
            try server.setFaults { $0.errorRate = 1 }
            #expect(server.faults.errorRate == 1)
            #expect([500, 503].contains(try await http.call(server, "GET", "/api/tasks").status))
            #expect(throws: SandboxConfiguration.InvalidConfiguration.self) { try server.setFaults { $0.cutBodyRate = 2 } }
            #expect(server.faults.cutBodyRate == 0)
        }
    }

    @Test func errorsCanBeSwitchedOnAtStart() async throws {
        try await withSandbox({ $0.faults.errorRate = 1 }) { server, http in
            let response = try await http.call(server, "GET", "/api/tasks")
            #expect([500, 503].contains(response.status))
        }
    }

    @Test func aSeededGeneratorIsDeterministic() {
        let a = Faults(FaultSettings(), accessTokenLifetime: 900, generator: SplitMix64(seed: 7))
        let b = Faults(FaultSettings(), accessTokenLifetime: 900, generator: SplitMix64(seed: 7))
        for faults in [a, b] { faults.update(reseed: false) { settings, _ in settings.errorRate = 0.3; settings.cutBodyRate = 0.3 } }
        let drawsA = (0..<200).map { _ in a.nextHTTPFault() }
        let drawsB = (0..<200).map { _ in b.nextHTTPFault() }
        #expect(drawsA == drawsB)
        #expect(drawsA.contains(nil) && drawsA.contains(.cutBody) && drawsA.contains(.error(status: 500)) && drawsA.contains(.error(status: 503)))
    }

    @Test func aResponseCutMidBodyIsAnErrorForTheClient() async throws {
        try await withSandbox { server, http in
            let (access, _) = try await http.login(server)
            #expect(try await setFaults(http, server, #"{"cut_body_rate":1}"#).status == 200)
            await #expect(throws: (any Error).self) {
                try await http.call(server, "GET", "/api/tasks", token: access)
            }
            // On the wire: the whole head, Content-Length for the whole body, half of it, then the close.
            let raw = try await rawHTTP(port: server.port, "GET /api/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(access)\r\n\r\n")
            #expect(raw.hasPrefix("HTTP/1.1 200"))
            let parts = raw.components(separatedBy: "\r\n\r\n")
            let length = parts[0].split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
            let announced = try #require(length)
            let body = parts.dropFirst().joined(separator: "\r\n\r\n").utf8.count
            #expect(body > 0 && body < announced)
            #expect(try await setFaults(http, server, #"{"cut_body_rate":0}"#).status == 200)
            #expect(try await http.call(server, "GET", "/api/tasks", token: access).status == 200)
        }
    }

    @Test func webSocketsAreDroppedAfterNFrames() async throws {
        try await withSandbox { server, http in
            let (alice, _) = try await http.login(server)
            #expect(try await setFaults(http, server, #"{"ws_drop_after":3}"#).status == 200)
            let socket = try await TestSocket.connect(server, "/ws/chat/1?token=\(alice)", handshake: false)
            socket.send(#"{"type":"ping"}"#)                                   // frame 1 in
            #expect(try await socket.next()["type"] == .string("pong"))        // frame 2 out
            socket.send(#"{"type":"ping"}"#)                                   // frame 3 in: the limit
            try await socket.waitUntilFinished()
            #expect(await socket.mailbox.pending == 0)                          // no second pong
            await socket.close()
            #expect(await socket.mailbox.closeFrame == nil)                     // cut, not closed: no close frame
            // The echo socket is dropped the same way.
            let echo = try await TestSocket.connect(server, "/__sandbox/echo", handshake: false)
            for n in 1...2 { echo.send(#"{"n":\#(n)}"#) }
            #expect(try await echo.next()["n"]?.intValue == 1)
            try await echo.waitUntilFinished()
            await echo.close()
        }
    }

    /// A socket gets the ws_drop_after setting in force when its upgrade was
    /// accepted: once a client has seen it open, changing the switch no longer
    /// touches it. (Read later, in the socket's handler, a change made right
    /// after the client saw "open" could still reach it.)
    @Test func theDropSwitchIsFixedWhenTheUpgradeIsAccepted() async throws {
        try await withSandbox { server, _ in
            for round in 1...30 {
                try server.setFaults { $0.webSocketDropAfterFrames = 1 }
                let echo = try await TestSocket.connect(server, "/__sandbox/echo", handshake: false)
                try server.setFaults { $0.webSocketDropAfterFrames = 0 }
                echo.send(#"{"round":\#(round)}"#)
                try await echo.waitUntilFinished()
                #expect(await echo.mailbox.pending == 0, "round \(round) was echoed: the socket took the later setting")
                await echo.close()
            }
        }
    }

    @Test func aMessageWhoseAckWasLostIsStoredOnceWhenResent() async throws {
        try await withSandbox { server, http in
            let (alice, bob) = try await http.loginBoth(server)
            let bobSocket = try await TestSocket.connect(server, "/ws/chat/2?token=\(bob)")
            // alice's socket drops on her first frame: the message is stored, the ack never comes.
            #expect(try await setFaults(http, server, #"{"ws_drop_after":1}"#).status == 200)
            let first = try await TestSocket.connect(server, "/ws/chat/1?token=\(alice)", handshake: false)
            let frame = #"{"type":"message","client_message_id":"lost-ack","receiver_id":2,"content":"did you get this?"}"#
            first.send(frame)
            try await first.waitUntilFinished()
            await first.close()
            #expect(try await setFaults(http, server, #"{"ws_drop_after":0}"#).status == 200)
            let delivered = try await bobSocket.next()
            let id = try #require(delivered["message"]?["id"]?.intValue)
            // She reconnects and sends it again, as the contract's client does.
            let second = try await TestSocket.connect(server, "/ws/chat/1?token=\(alice)")
            second.send(frame)
            let ack = try await second.next()
            #expect(ack["type"] == .string("ack"))
            #expect(ack["message"]?["id"]?.intValue == id)
            await second.close()
            await bobSocket.close()
        }
    }

    @Test func theTokenLifetimeChangesAtRunTime() async throws {
        let clock = ManualClock()
        try await withSandbox({ $0.clock = clock.now }) { server, http in
            let (longLived, _) = try await http.login(server)
            let changed = try await setFaults(http, server, #"{"token_ttl":60}"#)
            #expect(changed.json?["token_ttl"]?.intValue == 60)
            let login = try await http.call(server, "POST", "/api/secure-auth/login",
                                            [.stringField(name: "email", value: "alice@example.com"), .stringField(name: "password", value: "alice123")])
            #expect(login.json?["expires_in"]?.intValue == 60)
            let shortLived = try #require(login.json?["access_token"]?.stringValue)
            clock.advance(61)
            let expired = try await http.call(server, "GET", "/api/users/profile/me", token: shortLived)
            #expect(expired.status == 401)
            #expect(expired.json?["error_code"] == .string("TOKEN_EXPIRED"))
            // Tokens issued before the change keep their own expiry.
            #expect(try await http.call(server, "GET", "/api/users/profile/me", token: longLived).status == 200)
        }
    }

    @Test func theEnvironmentSetsTheSwitchesAndBadValuesAreReported() throws {
        var configuration = SandboxConfiguration()
        configuration.apply(environment: [
            "EXPLORER_SANDBOX_TOKEN_TTL": "30", "EXPLORER_SANDBOX_LATENCY_MS": "120", "EXPLORER_SANDBOX_ERROR_RATE": "0.25",
            "EXPLORER_SANDBOX_CUT_BODY_RATE": "0.1", "EXPLORER_SANDBOX_WS_DROP_AFTER": "5", "EXPLORER_SANDBOX_FAULT_SEED": "9",
        ])
        try configuration.validate()
        #expect(configuration.accessTokenLifetime == 30)
        #expect(configuration.faults.latencyMilliseconds == 120)
        #expect(configuration.faults.errorRate == 0.25)
        #expect(configuration.faults.cutBodyRate == 0.1)
        #expect(configuration.faults.webSocketDropAfterFrames == 5)
        #expect(configuration.faults.seed == 9)
        var bad = SandboxConfiguration()
        bad.apply(environment: ["EXPLORER_SANDBOX_ERROR_RATE": "lots"])
        #expect(throws: SandboxConfiguration.InvalidConfiguration.self) { try bad.validate() }
    }
}
