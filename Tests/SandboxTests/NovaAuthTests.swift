import Core
import Foundation
import Testing
@testable import Sandbox

/// Nova's auth (seed 003 "认证 API") over real sockets.
@Suite struct NovaAuthTests {
    func register(_ http: LiveTransport, _ server: SandboxServer, email: String = "carol@example.com",
                  username: String = "carol", password: String = "carolpass1") async throws -> ReceivedResponse {
        try await http.call(server, "POST", "/auth/register", [
            .stringField(name: "email", value: email), .stringField(name: "username", value: username), .stringField(name: "password", value: password),
        ])
    }

    @Test func registerAnswers201WithTheUserAndNestedTokens() async throws {
        try await withSandbox(nova) { server, http in
            let response = try await register(http, server)
            #expect(response.status == 201)
            let body = try #require(response.json)
            guard case let .object(user)? = body["user"], case let .object(tokens)? = body["tokens"] else { Issue.record("shape"); return }
            #expect(user.map(\.key) == ["id", "username", "email", "display_name", "bio", "avatar_url", "is_verified", "created_at"])
            #expect(tokens.map(\.key) == ["access_token", "refresh_token", "expires_in", "token_type"])
            #expect(body["user"]?["is_verified"] == .bool(false))
            #expect(UUID(uuidString: body["user"]?["id"]?.stringValue ?? "") != nil)
            #expect(body["tokens"]?["token_type"] == .string("Bearer"))
            let me = try await http.call(server, "GET", "/users/me", token: body["tokens"]?["access_token"]?.stringValue)
            #expect(me.json?["username"] == .string("carol"))
            #expect(me.json?["email"] == .string("carol@example.com"))
        }
    }

    @Test func duplicateEmailAndUsernameAre409() async throws {
        try await withSandbox(nova) { server, http in
            let email = try await register(http, server, email: "ALICE@example.com", username: "someone")
            #expect(email.status == 409)
            #expect(email.json?["code"] == .string("EMAIL_EXISTS"))
            let name = try await register(http, server, email: "new@example.com", username: "Bob")
            #expect(name.status == 409)
            #expect(name.json?["code"] == .string("USERNAME_EXISTS"))
        }
    }

    @Test func weakPasswordsAndBadFieldsAre422WithDetails() async throws {
        try await withSandbox(nova) { server, http in
            for password in ["short1", "lettersonly", "12345678"] {
                let response = try await register(http, server, password: password)
                #expect(response.status == 422)
                #expect(response.json?["code"] == .string("VALIDATION_ERROR"))
                #expect(response.json?["details"]?["password"] == .string("at least 8 characters, with letters and digits"))
            }
            let bad = try await register(http, server, email: "not-an-email", username: "Search", password: "goodpass1")
            #expect(bad.json?["details"]?["email"] == .string("must be an email address"))
            #expect(bad.json?["details"]?["username"] == .string("'Search' is reserved"))
            let missing = try await http.call(server, "POST", "/auth/register", [.stringField(name: "email", value: "x@example.com")])
            #expect(missing.json?["details"]?["username"] == .string("required"))
            #expect(missing.json?["details"]?["password"] == .string("required"))
        }
    }

    @Test func theEmailedCodeVerifiesOnceAndIsLogged() async throws {
        let lines = NovaLogLines()
        try await withSandbox({ nova(&$0); $0.log = lines.append }) { server, http in
            let created = try await register(http, server)
            let access = try #require(created.json?["tokens"]?["access_token"]?.stringValue)
            let codes = try await http.call(server, "GET", "/__sandbox/verification-codes", [.query(name: "email", value: "carol@example.com")])
            let code = try #require(codes.json?["codes"]?[0]?["code"]?.stringValue)
            #expect(code.count == 6)
            #expect(lines.all.contains { $0.contains("verification code \(code) for carol@example.com") })
            let wrong = try await http.call(server, "POST", "/auth/verify-email", [.stringField(name: "code", value: code == "000000" ? "111111" : "000000")], token: access)
            #expect(wrong.status == 422)
            #expect(wrong.json?["code"] == .string("INVALID_CODE"))
            let ok = try await http.call(server, "POST", "/auth/verify-email", [.stringField(name: "code", value: code)], token: access)
            #expect(ok.status == 200)
            #expect(ok.json == .object([("verified", .bool(true))]))
            #expect(try await http.call(server, "GET", "/users/me", token: access).json?["is_verified"] == .bool(true))
            let again = try await http.call(server, "POST", "/auth/verify-email", [.stringField(name: "code", value: code)], token: access)
            #expect(again.status == 422)
            #expect(again.json?["message"] == .string("this code was already used"))
            let anonymous = try await http.call(server, "POST", "/auth/verify-email", [.stringField(name: "code", value: code)])
            #expect(anonymous.status == 401)
        }
    }

    @Test func codesExpireAfterTenMinutes() async throws {
        let clock = ManualClock()
        try await withSandbox({ nova(&$0); $0.clock = clock.now; $0.accessTokenLifetime = 3600 }) { server, http in
            let created = try await register(http, server)
            let access = try #require(created.json?["tokens"]?["access_token"]?.stringValue)
            let codes = try await http.call(server, "GET", "/__sandbox/verification-codes", [.query(name: "email", value: "carol@example.com")])
            let code = try #require(codes.json?["codes"]?[0]?["code"]?.stringValue)
            clock.advance(601)
            let late = try await http.call(server, "POST", "/auth/verify-email", [.stringField(name: "code", value: code)], token: access)
            #expect(late.status == 422)
            #expect(late.json?["code"] == .string("CODE_EXPIRED"))
            let listed = try await http.call(server, "GET", "/__sandbox/verification-codes", [.query(name: "email", value: "carol@example.com")])
            #expect(listed.json?["codes"]?[0]?["expired"] == .bool(true))
        }
    }

    @Test func wrongCodesAreLimitedSoCodesCannotBeGuessed() async throws {
        let clock = NovaStoppedClock()
        try await withSandbox({ nova(&$0); $0.clock = clock.now; $0.accessTokenLifetime = 3600 }) { server, http in
            let created = try await register(http, server)
            let access = try #require(created.json?["tokens"]?["access_token"]?.stringValue)
            let codes = try await http.call(server, "GET", "/__sandbox/verification-codes", [.query(name: "email", value: "carol@example.com")])
            let code = try #require(codes.json?["codes"]?[0]?["code"]?.stringValue)
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<5 {
                #expect(try await http.call(server, "POST", "/auth/verify-email", [.stringField(name: "code", value: wrong)], token: access).status == 422)
                clock.advance(10)
            }
            let limited = try await http.call(server, "POST", "/auth/verify-email", [.stringField(name: "code", value: code)], token: access)
            #expect(limited.status == 429)
            #expect(limited.header("Retry-After") == "550")
            clock.advance(550)
            // No longer limited; by now the code itself has expired.
            let late = try await http.call(server, "POST", "/auth/verify-email", [.stringField(name: "code", value: code)], token: access)
            #expect(late.json?["code"] == .string("CODE_EXPIRED"))
        }
    }

    @Test func sixthFailedLoginInAMinuteIs429WithRetryAfter() async throws {
        let clock = NovaStoppedClock()
        try await withSandbox({ nova(&$0); $0.clock = clock.now }) { server, http in
            func attempt(_ password: String) async throws -> ReceivedResponse {
                try await http.call(server, "POST", "/auth/login", [.stringField(name: "email", value: "alice@example.com"), .stringField(name: "password", value: password)])
            }
            for _ in 0..<5 {
                let failed = try await attempt("wrong")
                #expect(failed.status == 401)
                #expect(failed.json?["code"] == .string("INVALID_CREDENTIALS"))
                clock.advance(5)
            }
            // Locked even with the right password; the other account is not.
            let limited = try await attempt("alice123")
            #expect(limited.status == 429)
            #expect(limited.json?["code"] == .string("RATE_LIMITED"))
            #expect(limited.header("Retry-After") == "35")
            _ = try await http.novaLogin(server, "bob@example.com", "bob12345")
            clock.advance(35)
            #expect(try await attempt("alice123").status == 200)
        }
    }

    @Test func loginNeedsBothFields() async throws {
        try await withSandbox(nova) { server, http in
            let response = try await http.call(server, "POST", "/auth/login", [.stringField(name: "email", value: "alice@example.com")])
            #expect(response.status == 422)
            #expect(response.json?["details"]?["password"] == .string("required"))
        }
    }

    @Test func refreshGivesAnAccessTokenAndKeepsTheRefreshTokenUsable() async throws {
        try await withSandbox(nova) { server, http in
            let (_, refresh) = try await http.novaLogin(server)
            for _ in 0..<2 {
                let response = try await http.call(server, "POST", "/auth/refresh", [.stringField(name: "refresh_token", value: refresh)])
                #expect(response.status == 200)
                guard case let .object(members)? = response.json else { Issue.record("not an object"); return }
                #expect(members.map(\.key) == ["access_token", "expires_in"])
                #expect(try await http.call(server, "GET", "/users/me", token: response.json?["access_token"]?.stringValue).status == 200)
            }
            let bogus = try await http.call(server, "POST", "/auth/refresh", [.stringField(name: "refresh_token", value: "nope")])
            #expect(bogus.status == 401)
            #expect(bogus.json?["code"] == .string("INVALID_REFRESH_TOKEN"))
        }
    }

    @Test func theExplorersSessionRefreshesMoreThanOnce() async throws {
        try await withSandbox(nova) { server, http in
            let auth = AuthSession(profile: .nova, builder: RequestBuilder(baseURL: server.baseURL), transport: http, store: MemoryTokenStore())
            #expect(try await auth.login(email: "alice@example.com", password: "alice123").response.status == 200)
            #expect(await auth.userName == "alice")
            // 003's refresh answer has no refresh token: the same one must serve every time.
            for _ in 0..<2 {
                try await server.expireAccessTokens()
                let me = try await auth.send(auth.builder.build(method: "GET", path: "/users/me", items: []))
                #expect(me.response.status == 200)
                #expect(me.refreshed)
            }
        }
    }

    @Test func logoutIs204AndEndsTheRefreshToken() async throws {
        try await withSandbox(nova) { server, http in
            let (access, refresh) = try await http.novaLogin(server)
            let out = try await http.call(server, "POST", "/auth/logout", token: access)
            #expect(out.status == 204)
            #expect(out.body.isEmpty)
            #expect(try await http.call(server, "POST", "/auth/refresh", [.stringField(name: "refresh_token", value: refresh)]).status == 401)
        }
    }

    @Test func accessTokensExpire() async throws {
        let clock = ManualClock()
        try await withSandbox({ nova(&$0); $0.clock = clock.now; $0.accessTokenLifetime = 60 }) { server, http in
            let (access, _) = try await http.novaLogin(server)
            #expect(try await http.call(server, "GET", "/feed", token: access).status == 200)
            clock.advance(61)
            let expired = try await http.call(server, "GET", "/feed", token: access)
            #expect(expired.status == 401)
            #expect(expired.json?["code"] == .string("TOKEN_EXPIRED"))
        }
    }
}

/// Collects the sandbox's log lines.
final class NovaLogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var append: @Sendable (String) -> Void { { [self] line in lock.withLock { lines.append(line) } } }
    var all: [String] { lock.withLock { lines } }
}
