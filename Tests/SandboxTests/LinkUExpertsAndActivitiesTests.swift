import Core
import Foundation
import Testing
@testable import Sandbox

/// Task experts and their services, activities and their sign-up rules.
@Suite struct LinkUExpertsAndActivitiesTests {
    @Test func expertsAreListedWithTheirServices() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let experts = try await http.call(server, "GET", "/api/task-experts", token: alice)
            #expect(experts.json?["experts"]?.ids == [2, 1])
            #expect(experts.json?["experts"]?[0]?["user"]?["username"] == .string("carol"))
            let movers = try await http.call(server, "GET", "/api/task-experts", [query("keyword", "moving")], token: alice)
            #expect(movers.json?["experts"]?.ids == [1])
            let bob = try await http.call(server, "GET", "/api/task-experts/1", token: alice)
            #expect(bob.json?["specialties"] == .array([.string("moving"), .string("furniture assembly")]))
            #expect(bob.json?["service_count"]?.intValue == 2)
            let services = try await http.call(server, "GET", "/api/task-experts/1/services", token: alice)
            #expect(services.json?["services"]?.ids == [1, 2])
            #expect(services.json?["services"]?[0]?["price"] == .number("30"))
            expectError(try await http.call(server, "GET", "/api/task-experts/9", token: alice), 404, "EXPERT_NOT_FOUND")
            expectError(try await http.call(server, "GET", "/api/task-experts/9/services", token: alice), 404, "EXPERT_NOT_FOUND")
            expectError(try await http.call(server, "GET", "/api/task-experts"), 401, "UNAUTHORIZED")
        }
    }

    @Test func applyingForAServiceNotifiesTheExpert() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let bob = try await http.bob(server)
            expectError(try await http.call(server, "POST", "/api/task-experts/services/1/apply", token: bob), 403, "FORBIDDEN")
            let applied = try await http.call(server, "POST", "/api/task-experts/services/1/apply", [field("message", "Saturday?")], token: alice)
            #expect(applied.status == 201)
            #expect(applied.json?["status"] == .string("pending"))
            expectError(try await http.call(server, "POST", "/api/task-experts/services/1/apply", token: alice), 409, "ALREADY_APPLIED")
            expectError(try await http.call(server, "POST", "/api/task-experts/services/3/apply", token: alice), 409, "ALREADY_APPLIED")
            expectError(try await http.call(server, "POST", "/api/task-experts/services/99/apply", token: alice), 404, "SERVICE_NOT_FOUND")
            let told = try await http.call(server, "GET", "/api/users/notifications/unread", token: bob)
            #expect(told.json?["notifications"]?[0]?["type"] == .string("service_application"))
        }
    }

    @Test func becomingAnExpertIsOnePendingApplication() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let bob = try await http.bob(server)
            let form = [field("bio", "Errands and parcel pick-ups around Manchester."), raw("specialties", #"["errands"]"#)]
            expectError(try await http.call(server, "POST", "/api/task-experts/apply", form, token: bob), 409, "ALREADY_EXPERT")
            let thin = try await http.call(server, "POST", "/api/task-experts/apply", [field("bio", "me"), raw("specialties", "[]")], token: alice)
            #expect(thin.json?["details"]?["bio"] == .string("at least 10 characters, got 2"))
            #expect(thin.json?["details"]?["specialties"] == .string("at least one entry"))
            let applied = try await http.call(server, "POST", "/api/task-experts/apply", form, token: alice)
            #expect(applied.status == 201)
            #expect(applied.json?["status"] == .string("pending"))
            expectError(try await http.call(server, "POST", "/api/task-experts/apply", form, token: alice), 409, "ALREADY_APPLIED")
        }
    }

    @Test func activitiesArePublicAndSignUpHasRules() async throws {
        try await withSandbox { server, http in
            let list = try await http.call(server, "GET", "/api/activities")
            #expect(list.status == 200)
            #expect(list.json?["activities"]?.ids == [3, 1, 2])
            #expect(list.json?["activities"]?[0]?["status"] == .string("ended"))
            let upcoming = try await http.call(server, "GET", "/api/activities", [query("status", "upcoming")])
            #expect(upcoming.json?["total"]?.intValue == 2)
            expectError(try await http.call(server, "GET", "/api/activities/1"), 401, "UNAUTHORIZED")

            let alice = try await http.alice(server)
            #expect(try await http.call(server, "GET", "/api/activities/2", token: alice).json?["participant_count"]?.intValue == 2)
            let joined = try await http.call(server, "POST", "/api/activities/1/apply", token: alice)
            #expect(joined.status == 201)
            #expect(joined.json?["participant_count"]?.intValue == 2)
            expectError(try await http.call(server, "POST", "/api/activities/1/apply", token: alice), 409, "ALREADY_APPLIED")
            expectError(try await http.call(server, "POST", "/api/activities/2/apply", token: alice), 409, "ACTIVITY_FULL")
            let ended = try await http.call(server, "POST", "/api/activities/3/apply", token: alice)
            expectError(ended, 409, "ACTIVITY_CLOSED")
            #expect(ended.json?["details"]?["status"] == .string("ended"))
            expectError(try await http.call(server, "POST", "/api/activities/8/apply", token: alice), 404, "ACTIVITY_NOT_FOUND")
        }
    }

    @Test func anActivityStatusFollowsTheClock() async throws {
        let clock = FrozenClock("2031-04-12T10:00:00Z")
        try await withSandbox({ $0.clock = clock.now }) { server, http in
            let alice = try await http.alice(server)
            #expect(try await http.call(server, "GET", "/api/activities/1", token: alice).json?["status"] == .string("ongoing"))
            expectError(try await http.call(server, "POST", "/api/activities/1/apply", token: alice), 409, "ACTIVITY_CLOSED")
        }
    }

    @Test func favouritingAnActivityToggles() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            #expect(try await http.call(server, "GET", "/api/activities/1/favorite/status", token: alice).json?["favorited"] == .bool(true))
            #expect(try await http.call(server, "POST", "/api/activities/1/favorite", token: alice).json?["favorited"] == .bool(false))
            #expect(try await http.call(server, "GET", "/api/activities/1/favorite/status", token: alice).json?["favorited"] == .bool(false))
            #expect(try await http.call(server, "POST", "/api/activities/2/favorite", token: alice).json?["favorited"] == .bool(true))
            expectError(try await http.call(server, "GET", "/api/activities/9/favorite/status", token: alice), 404, "ACTIVITY_NOT_FOUND")
        }
    }
}
