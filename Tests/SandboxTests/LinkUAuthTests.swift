import Core
import Foundation
import Testing
@testable import Sandbox

/// Registration with an emailed code, code logins, and the code rules
/// (10-minute life, single use, one per minute, 5 tries).
@Suite struct LinkUAuthTests {
    func latestCode(_ http: LiveTransport, _ server: SandboxServer, _ address: (String, String)) async throws -> String {
        let listed = try await http.call(server, "GET", "/__sandbox/verification-codes", [query(address.0, address.1)])
        return try #require(listed.json?["codes"]?[0]?["code"]?.stringValue)
    }

    @Test func registeringNeedsTheEmailedCodeAndLogsTheNewUserIn() async throws {
        let log = LogLines()
        try await withSandbox({ $0.log = log.sink }) { server, http in
            let sent = try await http.call(server, "POST", "/api/secure-auth/send-verification-code", [field("email", "Dana@Example.com")])
            #expect(sent.status == 200)
            #expect(sent.json?["expires_in"]?.intValue == 600)
            let code = try await latestCode(http, server, ("email", "dana@example.com"))
            #expect(code.count == 6 && code.allSatisfy(\.isNumber))
            #expect(log.all.contains { $0.contains("dana@example.com") && $0.contains(code) })

            let wrong = code == "000000" ? "111111" : "000000"
            let form = [field("email", "dana@example.com"), field("password", "secret123"), field("username", "dana")]
            let rejected = try await http.call(server, "POST", "/api/users/register", form + [field("verification_code", wrong)])
            expectError(rejected, 422, "VALIDATION_ERROR")
            #expect(rejected.json?["details"]?["verification_code"] == .string("incorrect code"))

            let registered = try await http.call(server, "POST", "/api/users/register", form + [field("verification_code", code)])
            #expect(registered.status == 201)
            #expect(registered.json?["user"]?["email"] == .string("dana@example.com"))
            #expect(registered.json?["user"]?["id"]?.intValue == 4)
            let token = try #require(registered.json?["access_token"]?.stringValue)
            #expect(try await http.call(server, "GET", "/api/users/profile/me", token: token).json?["username"] == .string("dana"))
            #expect(try await http.login(server, "dana@example.com", "secret123").access.isEmpty == false)

            // The code worked once.
            let again = try await http.call(server, "POST", "/api/secure-auth/login-with-code",
                                             [field("email", "dana@example.com"), field("verification_code", code)])
            expectError(again, 401, "INVALID_VERIFICATION_CODE")
            let listed = try await http.call(server, "GET", "/__sandbox/verification-codes", [query("email", "dana@example.com")])
            #expect(listed.json?["codes"]?[0]?["status"] == .string("used"))
        }
    }

    @Test func registrationValidatesEachField() async throws {
        try await withSandbox { server, http in
            let weak = try await http.call(server, "POST", "/api/users/register",
                                           [field("email", "not-an-email"), field("password", "short1"), field("username", "x")])
            expectError(weak, 422, "VALIDATION_ERROR")
            let details = try #require(weak.json?["details"])
            #expect(details["email"] == .string("must be an email address"))
            #expect(details["password"] == .string("8 to 128 characters, with at least one letter and one digit"))
            #expect(details["username"] == .string("at least 2 characters, got 1"))
            #expect(details["verification_code"] == .string("required"))

            let lettersOnly = try await http.call(server, "POST", "/api/users/register",
                                                  [field("email", "erin@example.com"), field("password", "onlyletters"), field("verification_code", "123456")])
            #expect(lettersOnly.json?["details"]?["password"] != nil)

            let taken = try await http.call(server, "POST", "/api/users/register",
                                            [field("email", "ALICE@example.com"), field("password", "secret123"), field("verification_code", "123456")])
            expectError(taken, 409, "EMAIL_TAKEN")

            let garbage = try await http.send(PreparedRequest(method: "POST", url: server.baseURL.appendingPathComponent("api/users/register"),
                                                              body: Array("{\"email\":".utf8)))
            expectError(garbage, 400, "BAD_REQUEST")
        }
    }

    @Test func codesExpireAfterTenMinutes() async throws {
        let clock = FrozenClock("2026-01-01T12:00:00Z")
        try await withSandbox({ $0.clock = clock.now }) { server, http in
            _ = try await http.call(server, "POST", "/api/secure-auth/send-verification-code", [field("email", "alice@example.com")])
            let code = try await latestCode(http, server, ("email", "alice@example.com"))
            clock.advance(601)
            let late = try await http.call(server, "POST", "/api/secure-auth/login-with-code",
                                           [field("email", "alice@example.com"), field("verification_code", code)])
            expectError(late, 401, "INVALID_VERIFICATION_CODE")
            #expect(late.json?["message"] == .string("the code expired; request a new one"))
            let listed = try await http.call(server, "GET", "/__sandbox/verification-codes", [query("email", "alice@example.com")])
            #expect(listed.json?["codes"]?[0]?["status"] == .string("expired"))
        }
    }

    @Test func oneCodePerMinuteAndTheNewestReplacesTheOld() async throws {
        let clock = FrozenClock("2026-01-01T12:00:00Z")
        try await withSandbox({ $0.clock = clock.now }) { server, http in
            let email = [field("email", "alice@example.com")]
            #expect(try await http.call(server, "POST", "/api/secure-auth/send-verification-code", email).status == 200)
            let first = try await latestCode(http, server, ("email", "alice@example.com"))
            clock.advance(30)
            let early = try await http.call(server, "POST", "/api/secure-auth/send-verification-code", email)
            expectError(early, 429, "TOO_MANY_REQUESTS")
            #expect(early.json?["details"]?["retry_after"]?.intValue == 30)
            // The header too, as Nova's 429 and the 503 fault send it.
            #expect(early.header("Retry-After") == "30")
            clock.advance(31)
            #expect(try await http.call(server, "POST", "/api/secure-auth/send-verification-code", email).status == 200)
            let listed = try await http.call(server, "GET", "/__sandbox/verification-codes", [query("email", "alice@example.com")])
            #expect(listed.json?["codes"]?[1]?["status"] == .string("superseded"))
            #expect(listed.json?["total"]?.intValue == 2)
            let second = try await latestCode(http, server, ("email", "alice@example.com"))
            if first != second {
                let stale = try await http.call(server, "POST", "/api/secure-auth/login-with-code", email + [field("verification_code", first)])
                expectError(stale, 401, "INVALID_VERIFICATION_CODE")
            }
            let fresh = try await http.call(server, "POST", "/api/secure-auth/login-with-code", email + [field("verification_code", second)])
            #expect(fresh.status == 200)
            #expect(fresh.json?["user"]?["id"]?.intValue == 1)
        }
    }

    @Test func fiveWrongTriesBurnTheCode() async throws {
        try await withSandbox { server, http in
            let phone = [field("phone", "+447700900002")]
            #expect(try await http.call(server, "POST", "/api/secure-auth/send-phone-verification-code", phone).status == 200)
            let code = try await latestCode(http, server, ("phone", "+447700900002"))
            let wrong = code == "999999" ? "999998" : "999999"
            for _ in 1...5 {
                let miss = try await http.call(server, "POST", "/api/secure-auth/login-with-phone-code", phone + [field("verification_code", wrong)])
                expectError(miss, 401, "INVALID_VERIFICATION_CODE")
            }
            let burned = try await http.call(server, "POST", "/api/secure-auth/login-with-phone-code", phone + [field("verification_code", code)])
            expectError(burned, 401, "INVALID_VERIFICATION_CODE")
        }
    }

    @Test func phoneCodeLogsInItsOwner() async throws {
        try await withSandbox { server, http in
            let phone = [field("phone", "+44 7700 900002")]
            #expect(try await http.call(server, "POST", "/api/secure-auth/send-phone-verification-code", phone).status == 200)
            let code = try await latestCode(http, server, ("phone", "+447700900002"))
            let login = try await http.call(server, "POST", "/api/secure-auth/login-with-phone-code", phone + [field("verification_code", code)])
            #expect(login.status == 200)
            #expect(login.json?["user"]?["username"] == .string("bob"))
            #expect(login.json?["refresh_token"]?.stringValue != nil)
            let badPhone = try await http.call(server, "POST", "/api/secure-auth/send-phone-verification-code", [field("phone", "12")])
            expectError(badPhone, 422, "VALIDATION_ERROR")
        }
    }

    @Test func aCodeForAnAddressWithoutAccountIsA404AndStillRegisters() async throws {
        try await withSandbox { server, http in
            let email = field("email", "frank@example.com")
            _ = try await http.call(server, "POST", "/api/secure-auth/send-verification-code", [email])
            let code = try await latestCode(http, server, ("email", "frank@example.com"))
            let login = try await http.call(server, "POST", "/api/secure-auth/login-with-code", [email, field("verification_code", code)])
            expectError(login, 404, "USER_NOT_FOUND")
            let registered = try await http.call(server, "POST", "/api/users/register",
                                                 [email, field("password", "frank2025"), field("verification_code", code)])
            #expect(registered.status == 201)
            #expect(registered.json?["user"]?["username"] == .string("frank"))
        }
    }

    @Test func theCaptchaKeyAndTheCodeListNeedNoToken() async throws {
        try await withSandbox { server, http in
            let captcha = try await http.call(server, "GET", "/api/secure-auth/captcha-site-key")
            #expect(captcha.status == 200)
            #expect(captcha.json?["enabled"] == .bool(false))
            let missing = try await http.call(server, "GET", "/__sandbox/verification-codes")
            expectError(missing, 422, "VALIDATION_ERROR")
        }
    }
}
