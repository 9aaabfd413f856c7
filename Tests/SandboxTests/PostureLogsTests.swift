import Core
import Foundation
import Testing
@testable import Sandbox

/// The posture backend's log upload and read-back (seed 002 "网络请求规范").
@Suite struct PostureLogsTests {
    func login(_ http: LiveTransport, _ server: SandboxServer, _ email: String = "alice@example.com", _ password: String = "alice123") async throws -> String {
        let response = try await http.call(server, "POST", "/api/v1/auth/login", [.stringField(name: "email", value: email), .stringField(name: "password", value: password)])
        return try #require(response.json?["access_token"]?.stringValue)
    }

    func upload(_ http: LiveTransport, _ server: SandboxServer, _ logs: JSONValue, token: String?) async throws -> ReceivedResponse {
        try await http.raw(server, "POST", "/api/v1/postures/logs", body: Array(JSONPrinter.compact(logs).utf8), contentType: "application/json", token: token)
    }

    func log(_ time: String, _ type: String = "normal", _ duration: String = "30", device: String = "PC-NEW", id: String? = nil) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("timestamp", .string(time)), ("postureType", .string(type)), ("duration", .number(duration)), ("deviceId", .string(device))]
        if let id { members.append(("id", .string(id))) }
        return .object(members)
    }

    func posture(_ configuration: inout SandboxConfiguration) { configuration.profile = "posture" }

    @Test func anUploadIsStoredAndReadBack() async throws {
        try await withSandbox(posture) { server, http in
            let token = try await login(http, server)
            let id = UUID().uuidString   // upper case, as Swift's JSONEncoder writes it
            let sent = try await upload(http, server, .array([log("2025-03-12T08:00:00Z", "hunched", "12.5", id: id), log("2025-03-12T08:01:00.250+01:00", "lean_left")]), token: token)
            #expect(sent.status == 200)
            #expect(sent.json == .object([("accepted", .int(2)), ("duplicates", .int(0))]))
            let again = try await upload(http, server, .array([log("2025-03-12T08:00:00Z", "hunched", "12.5", id: id)]), token: token)
            #expect(again.json == .object([("accepted", .int(0)), ("duplicates", .int(1))]))
            let read = try await http.call(server, "GET", "/api/v1/postures/logs", [.query(name: "deviceId", value: "PC-NEW")], token: token)
            #expect(read.json?["total"]?.intValue == 2)
            #expect(read.json?["logs"]?[0]?["timestamp"] == .string("2025-03-12T07:01:00.250Z"))
            let first = try #require(read.json?["logs"]?[1])
            #expect(first == .object([("id", .string(id.lowercased())), ("timestamp", .string("2025-03-12T08:00:00Z")), ("postureType", .string("hunched")),
                                      ("duration", .number("12.5")), ("deviceId", .string("PC-NEW"))]))
        }
    }

    @Test func everyElementIsValidatedAndNothingIsStoredOnError() async throws {
        try await withSandbox(posture) { server, http in
            let token = try await login(http, server)
            let bad: JSONValue = .array([
                log("2025-03-12T08:00:00Z"),
                log("2025-03-12T08:00:00Z", "slouching"),
                .object([("timestamp", .number("763000000")), ("postureType", .string("normal")), ("duration", .number("-1"))]),
                .string("oops"),
            ])
            let response = try await upload(http, server, bad, token: token)
            #expect(response.status == 422)
            let details = try #require(response.json?["details"])
            #expect(details["1.postureType"] == .string("must be one of normal, hunched, lean_left, lean_right"))
            #expect(details["2.timestamp"]?.stringValue?.contains(".iso8601") == true)
            #expect(details["2.duration"] == .string("must be a number of seconds from 0 to 86400"))
            #expect(details["2.deviceId"] == .string("required"))
            #expect(details["3"] == .string("must be an object, got a string"))
            #expect(details["0.timestamp"] == nil)
            let read = try await http.call(server, "GET", "/api/v1/postures/logs", [.query(name: "deviceId", value: "PC-NEW")], token: token)
            #expect(read.json?["total"]?.intValue == 0)
            let notArray = try await upload(http, server, log("2025-03-12T08:00:00Z"), token: token)
            #expect(notArray.status == 400)
        }
    }

    @Test func atMost1000LogsPerRequest() async throws {
        try await withSandbox(posture) { server, http in
            let token = try await login(http, server)
            let many = JSONValue.array(Array(repeating: log("2025-03-12T08:00:00Z"), count: 1001))
            let response = try await upload(http, server, many, token: token)
            #expect(response.status == 413)
            #expect(response.json?["code"] == .string("TOO_MANY_LOGS"))
            let limit = try await upload(http, server, .array(Array(repeating: log("2025-03-12T08:00:00Z"), count: 1000)), token: token)
            #expect(limit.json?["accepted"]?.intValue == 1000)
        }
    }

    @Test func eachUserReadsOnlyTheirOwnLogsPageByPage() async throws {
        try await withSandbox(posture) { server, http in
            let alice = try await login(http, server)
            let bob = try await login(http, server, "bob@example.com", "bob12345")
            let bobs = try await http.call(server, "GET", "/api/v1/postures/logs", token: bob)
            #expect(bobs.json?["total"]?.intValue == 2)
            var seen: [String] = []
            for page in 1...4 {
                let response = try await http.call(server, "GET", "/api/v1/postures/logs", [.query(name: "page", value: String(page)), .query(name: "page_size", value: "2")], token: alice)
                #expect(response.json?["total"]?.intValue == 6)
                guard case let .array(logs)? = response.json?["logs"] else { Issue.record("no logs"); return }
                #expect(logs.count == (page < 4 ? 2 : 0))
                seen += logs.compactMap { $0["id"]?.stringValue }
            }
            #expect(seen == (1...6).map { "7a1e0000-000\($0)-4000-8000-00000000000\($0)" })
            let window = try await http.call(server, "GET", "/api/v1/postures/logs", [.query(name: "from", value: "2025-03-10T08:20:00Z"), .query(name: "to", value: "2025-03-10T08:39:00Z")], token: alice)
            #expect(window.json?["total"]?.intValue == 3)
            let backwards = try await http.call(server, "GET", "/api/v1/postures/logs", [.query(name: "from", value: "2025-03-11T00:00:00Z"), .query(name: "to", value: "2025-03-10T00:00:00Z"), .query(name: "page_size", value: "0")], token: alice)
            #expect(backwards.status == 422)
            #expect(backwards.json?["details"]?["to"] == .string("must not be before from"))
            #expect(backwards.json?["details"]?["page_size"] != nil)
        }
    }

    @Test func uploadsNeedAValidToken() async throws {
        let clock = ManualClock()
        try await withSandbox({ posture(&$0); $0.clock = clock.now; $0.accessTokenLifetime = 60 }) { server, http in
            let none = try await upload(http, server, .array([]), token: nil)
            #expect(none.status == 401)
            #expect(none.json?["code"] == .string("UNAUTHORIZED"))
            let token = try await login(http, server)
            #expect(try await upload(http, server, .array([]), token: token).json?["accepted"]?.intValue == 0)
            clock.advance(61)
            let expired = try await upload(http, server, .array([]), token: token)
            #expect(expired.status == 401)
            #expect(expired.json?["code"] == .string("TOKEN_EXPIRED"))
        }
    }
}
