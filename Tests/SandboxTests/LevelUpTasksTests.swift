import Core
import Foundation
import Testing
@testable import Sandbox

/// Level Up Solo's tasks (seed 004 asks for them; the shape is the sandbox's).
@Suite struct LevelUpTasksTests {
    func login(_ http: LiveTransport, _ server: SandboxServer, _ email: String = "demo@levelupsolo.net", _ password: String = "demo1234") async throws -> String {
        let response = try await http.call(server, "POST", "/api/auth/simple-login", [.stringField(name: "email", value: email), .stringField(name: "password", value: password)])
        try #require(response.status == 200)
        return try #require(response.json?["accessToken"]?.stringValue)
    }

    func levelup(_ configuration: inout SandboxConfiguration) { configuration.profile = "levelup" }

    @Test func theLoginShapesAreUnchanged() async throws {
        try await withSandbox(levelup) { server, http in
            let response = try await http.call(server, "POST", "/api/auth/simple-login", [.stringField(name: "email", value: "demo@levelupsolo.net"), .stringField(name: "password", value: "demo1234")])
            guard case let .object(members)? = response.json else { Issue.record("not an object"); return }
            #expect(members.map(\.key) == ["message", "accessToken", "refreshToken", "user"])
            #expect(response.json?["user"] == .object([("id", .string("user_demo")), ("email", .string("demo@levelupsolo.net")), ("firstName", .string("Demo")), ("lastName", .string("User"))]))
        }
    }

    @Test func theListIsABareArrayOfTheCallersTasks() async throws {
        try await withSandbox(levelup) { server, http in
            let demo = try await login(http, server)
            let response = try await http.call(server, "GET", "/api/tasks", token: demo)
            #expect(response.status == 200)
            guard case let .array(tasks)? = response.json else { Issue.record("not an array"); return }
            #expect(tasks.count == 4)
            guard case let .object(members)? = tasks.first else { Issue.record("not an object"); return }
            #expect(members.map(\.key) == ["id", "title", "description", "category", "difficulty", "expReward", "completed", "completedAt", "createdAt"])
            #expect(tasks[0]["completedAt"] == .string("2025-03-01T07:40:00Z"))
            let open = try await http.call(server, "GET", "/api/tasks", [.query(name: "completed", value: "false")], token: demo)
            #expect(open.json.flatMap { if case let .array(a) = $0 { a.count } else { nil } } == 2)
            let bob = try await login(http, server, "bob@example.com", "bob12345")
            let bobs = try await http.call(server, "GET", "/api/tasks", token: bob)
            #expect(bobs.json?[0]?["title"] == .string("Fix the garden fence"))
            #expect(try await http.call(server, "GET", "/api/tasks", [.query(name: "category", value: "epic")], token: bob).status == 422)
            #expect(try await http.call(server, "GET", "/api/tasks").status == 401)
        }
    }

    @Test func createValidatesAndFillsDefaults() async throws {
        try await withSandbox(levelup) { server, http in
            let demo = try await login(http, server)
            let created = try await http.call(server, "POST", "/api/tasks", [.stringField(name: "title", value: "  Stretch  "), .stringField(name: "difficulty", value: "hard")], token: demo)
            #expect(created.status == 201)
            #expect(created.json?["title"] == .string("Stretch"))
            #expect(created.json?["category"] == .string("todo"))
            #expect(created.json?["expReward"]?.intValue == 50)
            #expect(created.json?["completed"] == .bool(false))
            #expect(created.json?["completedAt"] == .null)
            let bad = try await http.call(server, "POST", "/api/tasks", [.stringField(name: "category", value: "epic"), .jsonField(name: "expReward", value: .number("0")),
                                                                         .jsonField(name: "exp_reward", value: .number("5"))], token: demo)
            #expect(bad.status == 422)
            #expect(bad.json?["code"] == .string("VALIDATION_ERROR"))
            #expect(bad.json?["details"]?["title"] == .string("required"))
            #expect(bad.json?["details"]?["category"] == .string("must be one of habit, daily, todo"))
            #expect(bad.json?["details"]?["expReward"] == .string("must be a whole number from 1 to 1000"))
            #expect(bad.json?["details"]?["exp_reward"] != nil)
            let list = try await http.call(server, "GET", "/api/tasks", token: demo)
            #expect(list.json?[4]?["title"] == .string("Stretch"))
        }
    }

    @Test func onlyTheOwnerCompletesATask() async throws {
        let clock = ManualClock()
        try await withSandbox({ levelup(&$0); $0.clock = clock.now }) { server, http in
            let demo = try await login(http, server)
            let alice = try await login(http, server, "alice@example.com", "alice123")
            // Task 2 ("Read 20 pages") is demo's and open.
            let denied = try await http.call(server, "PATCH", "/api/tasks/2", [.jsonField(name: "completed", value: .bool(true))], token: alice)
            #expect(denied.status == 403)
            #expect(denied.json?["code"] == .string("FORBIDDEN"))
            let done = try await http.call(server, "PATCH", "/api/tasks/2", [.jsonField(name: "completed", value: .bool(true))], token: demo)
            #expect(done.status == 200)
            #expect(done.json?["completed"] == .bool(true))
            let stamp = try #require(done.json?["completedAt"]?.stringValue)
            clock.advance(120)
            let again = try await http.call(server, "PATCH", "/api/tasks/2", [.jsonField(name: "completed", value: .bool(true))], token: demo)
            #expect(again.json?["completedAt"] == .string(stamp))
            let undone = try await http.call(server, "PATCH", "/api/tasks/2", [.jsonField(name: "completed", value: .bool(false))], token: demo)
            #expect(undone.json?["completedAt"] == .null)
            let empty = try await http.call(server, "PATCH", "/api/tasks/2", [.header(name: "Content-Type", value: "application/json")], token: demo)
            #expect(empty.status == 400)
            let wrongType = try await http.call(server, "PATCH", "/api/tasks/2", [.stringField(name: "completed", value: "yes")], token: demo)
            #expect(wrongType.json?["details"]?["completed"] == .string("must be true or false"))
            #expect(try await http.call(server, "PATCH", "/api/tasks/999", [.jsonField(name: "completed", value: .bool(true))], token: demo).status == 404)
        }
    }
}
