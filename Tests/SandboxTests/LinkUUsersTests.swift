import Core
import Foundation
import Testing
@testable import Sandbox

/// Profiles, contact changes by code, notifications and "my tasks".
@Suite struct LinkUUsersTests {
    @Test func profileUpdatesAreValidatedFieldByField() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let bad = try await http.call(server, "PUT", "/api/users/profile/me",
                                          [field("username", "a"), field("bio", String(repeating: "b", count: 501)), field("avatar", "not a url")], token: alice)
            expectError(bad, 422, "VALIDATION_ERROR")
            #expect(bad.json?["details"]?["username"] == .string("at least 2 characters, got 1"))
            #expect(bad.json?["details"]?["bio"] == .string("at most 500 characters, got 501"))
            #expect(bad.json?["details"]?["avatar"] == .string("must be an http or https URL"))
            let huge = try await http.call(server, "PUT", "/api/users/profile/me", [field("bio", String(repeating: "b", count: 1 << 20))], token: alice)
            expectError(huge, 413, "PAYLOAD_TOO_LARGE")
            let nothing = try await http.call(server, "PUT", "/api/users/profile/me", [field("id", "7")], token: alice)
            #expect(nothing.json?["details"]?["body"] != nil)

            let good = try await http.call(server, "PUT", "/api/users/profile/me", [field("username", "Alice B."), field("city", "Leeds")], token: alice)
            #expect(good.status == 200)
            #expect(good.json?["username"] == .string("Alice B."))
            let me = try await http.call(server, "GET", "/api/users/profile/me", token: alice)
            #expect(me.json?["city"] == .string("Leeds"))
            #expect(me.json?["bio"] == .string("Student in Manchester; happy to run errands."))
        }
    }

    @Test func aPublicProfileHasNoEmailOrPhone() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let bob = try await http.call(server, "GET", "/api/users/profile/2", token: alice)
            #expect(bob.status == 200)
            #expect(bob.json?["username"] == .string("bob"))
            #expect(bob.json?["email"] == nil)
            #expect(bob.json?["phone"] == nil)
            #expect(bob.json?["posted_tasks"]?.intValue == 2)
            #expect(bob.json?["completed_tasks"]?.intValue == 1)
            expectError(try await http.call(server, "GET", "/api/users/profile/99", token: alice), 404, "USER_NOT_FOUND")
            expectError(try await http.call(server, "GET", "/api/users/profile/2"), 401, "UNAUTHORIZED")
            #expect(try await http.call(server, "GET", "/api/users/profile/me", token: alice).json?["phone"] == .string("+447700900001"))
        }
    }

    @Test func anEmailChangeNeedsACodeSentToTheNewAddress() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let taken = try await http.call(server, "POST", "/api/users/profile/send-email-update-code", [field("new_email", "bob@example.com")], token: alice)
            expectError(taken, 409, "EMAIL_TAKEN")
            let sent = try await http.call(server, "POST", "/api/users/profile/send-email-update-code", [field("new_email", "alice@new.example")], token: alice)
            #expect(sent.status == 200)
            let noCode = try await http.call(server, "PUT", "/api/users/profile/me", [field("email", "alice@new.example")], token: alice)
            #expect(noCode.json?["details"]?["email_verification_code"] == .string("required"))
            let listed = try await http.call(server, "GET", "/__sandbox/verification-codes", [query("email", "alice@new.example")])
            #expect(listed.json?["codes"]?[0]?["purpose"] == .string("email_update"))
            let code = try #require(listed.json?["codes"]?[0]?["code"]?.stringValue)
            let changed = try await http.call(server, "PUT", "/api/users/profile/me",
                                              [field("email", "alice@new.example"), field("email_verification_code", code)], token: alice)
            #expect(changed.status == 200)
            #expect(changed.json?["email"] == .string("alice@new.example"))
            #expect(try await http.login(server, "alice@new.example", "alice123").access.isEmpty == false)
        }
    }

    @Test func aPhoneChangeCodeIsBoundToTheUserWhoAskedForIt() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let bob = try await http.bob(server)
            _ = try await http.call(server, "POST", "/api/users/profile/send-phone-update-code", [field("new_phone", "+447700900099")], token: alice)
            let listed = try await http.call(server, "GET", "/__sandbox/verification-codes", [query("phone", "+447700900099")])
            let code = try #require(listed.json?["codes"]?[0]?["code"]?.stringValue)
            let stolen = try await http.call(server, "PUT", "/api/users/profile/me",
                                             [field("phone", "+447700900099"), field("phone_verification_code", code)], token: bob)
            expectError(stolen, 422, "VALIDATION_ERROR")
            let own = try await http.call(server, "PUT", "/api/users/profile/me",
                                          [field("phone", "+447700900099"), field("phone_verification_code", code)], token: alice)
            #expect(own.json?["phone"] == .string("+447700900099"))
        }
    }

    @Test func notificationsArePagedAndMarkedRead() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let all = try await http.call(server, "GET", "/api/users/notifications", [query("page_size", "2")], token: alice)
            #expect(all.json?["total"]?.intValue == 3)
            #expect(all.json?["page_size"]?.intValue == 2)
            #expect(all.json?["notifications"]?.ids == [3, 2])
            let unread = try await http.call(server, "GET", "/api/users/notifications/unread", token: alice)
            #expect(unread.json?["total"]?.intValue == 2)

            let read = try await http.call(server, "POST", "/api/users/notifications/2/read", token: alice)
            #expect(read.json?["is_read"] == .bool(true))
            #expect(try await http.call(server, "GET", "/api/users/notifications/unread", token: alice).json?["total"]?.intValue == 1)
            let bob = try await http.bob(server)
            expectError(try await http.call(server, "POST", "/api/users/notifications/3/read", token: bob), 404, "NOTIFICATION_NOT_FOUND")
            let everything = try await http.call(server, "POST", "/api/users/notifications/read-all", token: alice)
            #expect(everything.json?["marked_read"]?.intValue == 1)
            #expect(try await http.call(server, "GET", "/api/users/notifications/unread", token: alice).json?["total"]?.intValue == 0)
        }
    }

    @Test func myTasksFilterByRoleOnBothPaths() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            for path in ["/api/users/tasks", "/api/users/my-tasks"] {
                let posted = try await http.call(server, "GET", path, [query("role", "posted")], token: alice)
                #expect(posted.json?["tasks"]?.ids == [5, 2, 1])
                #expect(posted.json?["tasks"]?[0]?["my_role"] == .string("poster"))
                let taken = try await http.call(server, "GET", path, [query("role", "taken")], token: alice)
                #expect(taken.json?["tasks"]?.ids == [3])
                #expect(taken.json?["tasks"]?[0]?["application_status"] == .string("accepted"))
            }
            let bob = try await http.bob(server)
            let applied = try await http.call(server, "GET", "/api/users/my-tasks", [query("role", "applied"), query("status", "open")], token: bob)
            #expect(applied.json?["tasks"]?.ids == [1])
            #expect(applied.json?["tasks"]?[0]?["application_status"] == .string("pending"))
            #expect(try await http.call(server, "GET", "/api/users/my-tasks", token: bob).json?["total"]?.intValue == 4)
            let bad = try await http.call(server, "GET", "/api/users/my-tasks", [query("role", "boss")], token: bob)
            #expect(bad.json?["details"]?["role"] == .string("must be one of posted, taken, applied"))
        }
    }
}
