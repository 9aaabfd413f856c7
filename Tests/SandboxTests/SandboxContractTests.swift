import Core
import Foundation
import Testing
@testable import Sandbox

/// Starts a sandbox on 127.0.0.1 with an ephemeral port for one test.
func withSandbox<T>(_ configure: (inout SandboxConfiguration) -> Void = { _ in },
                    _ body: (SandboxServer, LiveTransport) async throws -> T) async throws -> T {
    var configuration = SandboxConfiguration()
    configure(&configuration)
    let server = try await SandboxServer.start(configuration)
    let transport = LiveTransport()
    do {
        let result = try await body(server, transport)
        await transport.shutdown()
        await server.stop()
        return result
    } catch {
        await transport.shutdown()
        await server.stop()
        throw error
    }
}

extension LiveTransport {
    func call(_ server: SandboxServer, _ method: String, _ path: String, _ items: [RequestItem] = [], token: String? = nil) async throws -> ReceivedResponse {
        var request = try RequestBuilder(baseURL: server.baseURL).build(method: method, path: path, items: items)
        if let token { request.setHeader("Authorization", "Bearer \(token)") }
        return try await send(request)
    }

    func login(_ server: SandboxServer, _ email: String = "alice@example.com", _ password: String = "alice123") async throws -> (access: String, refresh: String) {
        let response = try await call(server, "POST", "/api/secure-auth/login", [.stringField(name: "email", value: email), .stringField(name: "password", value: password)])
        let body = try #require(response.json)
        return (try #require(body["access_token"]?.stringValue), try #require(body["refresh_token"]?.stringValue))
    }
}

/// A clock tests move by hand, so expiry needs no sleeping. Time moves only
/// when a test says so: a slow machine can't push a token past its expiry
/// between two steps (it did, with real time added).
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date().timeIntervalSince1970.rounded(.down)
    func advance(_ seconds: Double) { lock.withLock { current += seconds } }
    var now: @Sendable () -> Double {
        { [self] in lock.withLock { current } }
    }
}

@Suite struct SandboxContractTests {
    @Test func bindsLoopbackWithAnEphemeralPort() async throws {
        try await withSandbox { server, _ in
            #expect(server.port > 0)
            #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        }
    }

    @Test func refusesNonLoopbackAddresses() async {
        var configuration = SandboxConfiguration()
        configuration.host = "0.0.0.0"
        await #expect(throws: SandboxConfiguration.InvalidConfiguration.self) { try await SandboxServer.start(configuration) }
    }

    @Test func loginReturnsTokensAndTheUser() async throws {
        try await withSandbox { server, http in
            let response = try await http.call(server, "POST", "/api/secure-auth/login", [.stringField(name: "email", value: "bob@example.com"), .stringField(name: "password", value: "bob12345")])
            #expect(response.status == 200)
            let body = try #require(response.json)
            guard case let .object(members) = body else { Issue.record("not an object"); return }
            #expect(members.map(\.key) == ["access_token", "refresh_token", "token_type", "expires_in", "user"])
            #expect(body["user"]?["username"] == .string("bob"))
            #expect(Redactor.looksLikeJWT(body["access_token"]?.stringValue ?? ""))
        }
    }

    @Test func wrongPasswordIsA401Envelope() async throws {
        try await withSandbox { server, http in
            let response = try await http.call(server, "POST", "/api/secure-auth/login", [.stringField(name: "email", value: "alice@example.com"), .stringField(name: "password", value: "nope")])
            #expect(response.status == 401)
            #expect(Profile.linku.errorEnvelope.describe(status: 401, body: response.json) == "401 INVALID_CREDENTIALS: incorrect email or password")
        }
    }

    @Test func protectedRoutesNeedAValidToken() async throws {
        try await withSandbox { server, http in
            let missing = try await http.call(server, "GET", "/api/users/profile/me")
            #expect(missing.status == 401)
            #expect(missing.json?["error_code"] == .string("UNAUTHORIZED"))
            let (access, _) = try await http.login(server)
            var forged = Array(access)
            forged[forged.count - 2] = forged[forged.count - 2] == "A" ? "B" : "A"
            let bad = try await http.call(server, "GET", "/api/users/profile/me", token: String(forged))
            #expect(bad.status == 401)
            #expect(bad.json?["error_code"] == .string("INVALID_TOKEN"))
            let ok = try await http.call(server, "GET", "/api/users/profile/me", token: access)
            #expect(ok.status == 200)
            #expect(ok.json?["email"] == .string("alice@example.com"))
        }
    }

    @Test func tasksArePagedAndFiltered() async throws {
        try await withSandbox { server, http in
            let (access, _) = try await http.login(server)
            let page = try await http.call(server, "GET", "/api/tasks", [.query(name: "page", value: "2"), .query(name: "page_size", value: "2")], token: access)
            let body = try #require(page.json)
            #expect(body["total"]?.intValue == 5)
            #expect(body["page"]?.intValue == 2)
            #expect(body["page_size"]?.intValue == 2)
            #expect(body["tasks"]?[0]?["id"]?.intValue == 3)
            let london = try await http.call(server, "GET", "/api/tasks", [.query(name: "city", value: "london"), .query(name: "status", value: "open")], token: access)
            #expect(london.json?["total"]?.intValue == 1)
            #expect(london.json?["tasks"]?[0]?["title"] == .string("Proofread an essay"))
            let search = try await http.call(server, "GET", "/api/tasks", [.query(name: "keyword", value: "IKEA")], token: access)
            #expect(search.json?["total"]?.intValue == 1)
            let bad = try await http.call(server, "GET", "/api/tasks", [.query(name: "page_size", value: "1000")], token: access)
            #expect(bad.status == 422)
            #expect(bad.json?["details"]?["page_size"] != nil)
        }
    }

    @Test func createsAndReadsATask() async throws {
        try await withSandbox { server, http in
            let (access, _) = try await http.login(server)
            let created = try await http.call(server, "POST", "/api/tasks", [.stringField(name: "title", value: "Water plants"), .jsonField(name: "price", value: .number("12.5")), .stringField(name: "city", value: "Leeds")], token: access)
            #expect(created.status == 201)
            let id = try #require(created.json?["id"]?.intValue)
            #expect(created.json?["status"] == .string("open"))
            #expect(created.json?["poster_id"]?.intValue == 1)
            let read = try await http.call(server, "GET", "/api/tasks/\(id)", token: access)
            #expect(read.json?["price"] == .number("12.5"))
            let missing = try await http.call(server, "GET", "/api/tasks/999", token: access)
            #expect(missing.status == 404)
            #expect(missing.json?["error_code"] == .string("TASK_NOT_FOUND"))
        }
    }

    @Test func validationErrorsNameTheFields() async throws {
        try await withSandbox { server, http in
            let (access, _) = try await http.login(server)
            let response = try await http.call(server, "POST", "/api/tasks", [.jsonField(name: "price", value: .number("-1"))], token: access)
            #expect(response.status == 422)
            #expect(response.json?["details"]?["title"] == .string("required"))
            #expect(response.json?["details"]?["price"] == .string("must not be negative"))
            let garbage = try await http.send(PreparedRequest(method: "POST", url: server.baseURL.appendingPathComponent("api/tasks"),
                                                              headers: [HTTPHeader(name: "Authorization", value: "Bearer \(access)")], body: Array("{not json".utf8)))
            #expect(garbage.status == 400)
            #expect(garbage.json?["error_code"] == .string("BAD_REQUEST"))
        }
    }

    @Test func unknownRoutesAnswerInTheEnvelope() async throws {
        try await withSandbox { server, http in
            let response = try await http.call(server, "GET", "/api/nothing-here")
            #expect(response.status == 404)
            #expect(response.json?["error"] == .bool(true))
            #expect(response.json?["message"] == .string("no route for GET /api/nothing-here"))
        }
    }

    @Test func refreshRotatesTheRefreshToken() async throws {
        try await withSandbox { server, http in
            let (_, refresh) = try await http.login(server)
            let first = try await http.call(server, "POST", "/api/secure-auth/refresh", [.stringField(name: "refresh_token", value: refresh)])
            #expect(first.status == 200)
            #expect(first.json?["access_token"]?.stringValue != nil)
            let again = try await http.call(server, "POST", "/api/secure-auth/refresh", [.stringField(name: "refresh_token", value: refresh)])
            #expect(again.status == 401)
            #expect(again.json?["error_code"] == .string("INVALID_REFRESH_TOKEN"))
            #expect(server.count("refresh") == 2)
        }
    }

    @Test func logoutRevokesTheRefreshToken() async throws {
        try await withSandbox { server, http in
            let (access, refresh) = try await http.login(server)
            let out = try await http.call(server, "POST", "/api/secure-auth/logout", [.stringField(name: "refresh_token", value: refresh)], token: access)
            #expect(out.status == 200)
            let after = try await http.call(server, "POST", "/api/secure-auth/refresh", [.stringField(name: "refresh_token", value: refresh)])
            #expect(after.status == 401)
        }
    }

    @Test func accessTokensExpireAfterTheirLifetime() async throws {
        let clock = ManualClock()
        try await withSandbox({ $0.accessTokenLifetime = 60; $0.clock = clock.now }) { server, http in
            let (access, _) = try await http.login(server)
            clock.advance(59)
            #expect(try await http.call(server, "GET", "/api/users/profile/me", token: access).status == 200)
            clock.advance(2)
            let expired = try await http.call(server, "GET", "/api/users/profile/me", token: access)
            #expect(expired.status == 401)
            #expect(expired.json?["error_code"] == .string("TOKEN_EXPIRED"))
        }
    }

    @Test func theExpireSwitchInvalidatesIssuedAccessTokens() async throws {
        try await withSandbox { server, http in
            let (access, _) = try await http.login(server)
            let flip = try await http.call(server, "POST", "/__sandbox/expire-access-tokens")
            #expect(flip.status == 200)
            #expect(try await http.call(server, "GET", "/api/users/profile/me", token: access).status == 401)
            let (fresh, _) = try await http.login(server)
            #expect(try await http.call(server, "GET", "/api/users/profile/me", token: fresh).status == 200)
        }
    }

    /// Issue 11 #5: the database holds the token-signing key; it was created
    /// 0644 (anyone on the machine could mint tokens). New files are 0600, an
    /// older one is tightened, and SQLite's side files follow the database's mode.
    /// Issue 11 #28: a busy port said "bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)".
    @Test func aBusyPortIsSaidInWords() async throws {
        try await withSandbox { server, _ in
            var configuration = SandboxConfiguration()
            configuration.port = server.port
            await #expect(throws: SandboxConfiguration.InvalidConfiguration(description: "port \(server.port) is in use on 127.0.0.1")) {
                try await SandboxServer.start(configuration)
            }
        }
    }

    /// Issue 11 #28: HEAD on a GET route was a 404. It is the GET's status and
    /// headers without the body, and the connection goes on.
    @Test func headAnswersLikeGetWithoutTheBody() async throws {
        try await withSandbox { server, http in
            let get = try await http.call(server, "GET", "/api/banners")
            let head = try await http.call(server, "HEAD", "/api/banners")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(get.body.count))
            #expect(head.header("Content-Type") == get.header("Content-Type"))
            #expect(try await http.call(server, "HEAD", "/api/no-such-thing").status == 404)
            #expect(try await http.call(server, "GET", "/api/banners").body == get.body)
        }
    }

    @Test func aDatabaseFileIsReadableByItsOwnerOnly() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        func mode(_ file: String) throws -> Int? { try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int }
        try await withSandbox({ $0.databasePath = path }) { (server, http) async throws in
            #expect(try mode(path) == 0o600)
            // A write makes SQLite create its journal next to the database.
            _ = try await http.login(server)
            if FileManager.default.fileExists(atPath: path + "-journal") { #expect(try mode(path + "-journal") == 0o600) }
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        try await withSandbox({ $0.databasePath = path }) { (_, _) async throws in
            #expect(try mode(path) == 0o600)
        }
    }

    @Test func aDatabaseFileSurvivesARestart() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (access, id): (String, Int) = try await withSandbox({ $0.databasePath = path }) { server, http in
            let (access, _) = try await http.login(server)
            let created = try await http.call(server, "POST", "/api/tasks", [.stringField(name: "title", value: "Persist me")], token: access)
            return (access, try #require(created.json?["id"]?.intValue))
        }
        try await withSandbox({ $0.databasePath = path }) { server, http in
            // The same signing key is read back, so the old token still works.
            let read = try await http.call(server, "GET", "/api/tasks/\(id)", token: access)
            #expect(read.status == 200)
            #expect(read.json?["title"] == .string("Persist me"))
            let list = try await http.call(server, "GET", "/api/tasks", token: access)
            #expect(list.json?["total"]?.intValue == 6)
        }
    }
}
