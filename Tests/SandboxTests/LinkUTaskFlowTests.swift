import Core
import Foundation
import Testing
@testable import Sandbox

/// The task state machine: open → in_progress → completed → confirmed,
/// cancelled from open or in_progress, who may do what, and the 409s.
@Suite struct LinkUTaskFlowTests {
    func post(_ http: LiveTransport, _ server: SandboxServer, token: String) async throws -> Int {
        let created = try await http.call(server, "POST", "/api/tasks", [field("title", "Hang a mirror"), raw("price", "15")], token: token)
        return try #require(created.json?["id"]?.intValue)
    }

    @Test func aTaskRunsFromOpenToConfirmed() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let bob = try await http.bob(server)
            let id = try await post(http, server, token: alice)

            let applied = try await http.call(server, "POST", "/api/tasks/\(id)/apply", [field("message", "I have a drill")], token: bob)
            #expect(applied.status == 201)
            #expect(applied.json?["status"] == .string("pending"))
            #expect(applied.json?["applicant"]?["username"] == .string("bob"))
            let applicationID = try #require(applied.json?["id"]?.intValue)
            expectError(try await http.call(server, "POST", "/api/tasks/\(id)/accept", token: bob), 409, "ALREADY_APPLIED")
            expectError(try await http.call(server, "POST", "/api/tasks/\(id)/apply", token: alice), 403, "FORBIDDEN")
            let told = try await http.call(server, "GET", "/api/users/notifications", token: alice)
            #expect(told.json?["notifications"]?[0]?["type"] == .string("task_application"))
            #expect(told.json?["notifications"]?[0]?["related_id"]?.intValue == id)

            expectError(try await http.call(server, "POST", "/api/tasks/\(id)/applications/\(applicationID)/accept", token: bob), 403, "FORBIDDEN")
            expectError(try await http.call(server, "POST", "/api/tasks/\(id)/complete", token: bob), 403, "FORBIDDEN")
            let started = try await http.call(server, "POST", "/api/tasks/\(id)/applications/\(applicationID)/accept", token: alice)
            #expect(started.json?["status"] == .string("in_progress"))
            #expect(started.json?["taker_id"]?.intValue == 2)
            let accepted = try await http.call(server, "GET", "/api/users/notifications/unread", token: bob)
            #expect(accepted.json?["notifications"]?[0]?["type"] == .string("application_accepted"))
            let twice = try await http.call(server, "POST", "/api/tasks/\(id)/applications/\(applicationID)/accept", token: alice)
            expectError(twice, 409, "APPLICATION_NOT_PENDING")

            let posterCompletes = try await http.call(server, "POST", "/api/tasks/\(id)/complete", token: alice)
            expectError(posterCompletes, 403, "FORBIDDEN")
            #expect(posterCompletes.json?["message"]?.stringValue?.contains("confirm_completion") == true)
            expectError(try await http.call(server, "POST", "/api/tasks/\(id)/confirm_completion", token: alice), 409, "INVALID_TASK_STATE")
            let completed = try await http.call(server, "POST", "/api/users/tasks/\(id)/complete", token: bob)
            #expect(completed.json?["status"] == .string("completed"))
            expectError(try await http.call(server, "POST", "/api/tasks/\(id)/confirm_completion", token: bob), 403, "FORBIDDEN")
            let confirmed = try await http.call(server, "POST", "/api/tasks/\(id)/confirm_completion", token: alice)
            #expect(confirmed.json?["status"] == .string("confirmed"))

            let cancel = try await http.call(server, "POST", "/api/tasks/\(id)/cancel", token: alice)
            expectError(cancel, 409, "INVALID_TASK_STATE")
            #expect(cancel.json?["details"]?["status"] == .string("confirmed"))
            #expect(cancel.json?["details"]?["allowed_from"] == .array([.string("open"), .string("in_progress")]))
            expectError(try await http.call(server, "POST", "/api/tasks/\(id)/delete", token: alice), 409, "INVALID_TASK_STATE")
            expectError(try await http.call(server, "POST", "/api/tasks/\(id)/complete", token: bob), 409, "INVALID_TASK_STATE")
        }
    }

    @Test func onlyThePosterEditsAnOpenTask() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let bob = try await http.bob(server)
            let foreign = try await http.call(server, "PUT", "/api/tasks/1", [field("title", "Mine now")], token: bob)
            expectError(foreign, 403, "FORBIDDEN")
            #expect(foreign.json?["message"] == .string("only the poster can edit task 1"))
            let edited = try await http.call(server, "PUT", "/api/tasks/1", [raw("price", "9.5"), raw("images", #"["http://x.example/a.png"]"#)], token: alice)
            #expect(edited.status == 200)
            #expect(edited.json?["price"] == .number("9.5"))
            #expect(edited.json?["title"] == .string("Pick up a parcel"))
            #expect(edited.json?["images"] == .array([.string("http://x.example/a.png")]))
            let status = try await http.call(server, "PUT", "/api/tasks/1", [field("status", "completed")], token: alice)
            #expect(status.json?["details"]?["status"] != nil)
            let invalid = try await http.call(server, "PUT", "/api/tasks/1", [field("title", " "), raw("price", "-3"), raw("images", "[1]")], token: alice)
            #expect(invalid.json?["details"]?["title"] == .string("required"))
            #expect(invalid.json?["details"]?["price"] == .string("must not be negative"))
            #expect(invalid.json?["details"]?["images"] != nil)
            expectError(try await http.call(server, "PUT", "/api/tasks/3", [field("title", "x")], token: bob), 409, "INVALID_TASK_STATE")
            expectError(try await http.call(server, "PUT", "/api/tasks/404", [field("title", "x")], token: bob), 404, "TASK_NOT_FOUND")
            expectError(try await http.call(server, "PUT", "/api/tasks/abc", [field("title", "x")], token: bob), 400, "BAD_REQUEST")
        }
    }

    @Test func cancellingTellsApplicantsAndDeletingRemovesTheTask() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let bob = try await http.bob(server)
            expectError(try await http.call(server, "POST", "/api/tasks/1/cancel", token: bob), 403, "FORBIDDEN")
            let cancelled = try await http.call(server, "POST", "/api/tasks/1/cancel", [field("reason", "Got it myself")], token: alice)
            #expect(cancelled.json?["status"] == .string("cancelled"))
            let told = try await http.call(server, "GET", "/api/users/notifications/unread", token: bob)
            #expect(told.json?["notifications"]?[0]?["type"] == .string("task_cancelled"))
            #expect(told.json?["notifications"]?[0]?["content"]?.stringValue?.hasSuffix("Got it myself") == true)
            // The task's state is reported before the body's problems.
            let longMessage = field("message", String(repeating: "m", count: 501))
            expectError(try await http.call(server, "POST", "/api/tasks/1/apply", [longMessage], token: bob), 409, "INVALID_TASK_STATE")
            expectError(try await http.call(server, "POST", "/api/tasks/1/delete", token: bob), 403, "FORBIDDEN")
            let deleted = try await http.call(server, "POST", "/api/tasks/1/delete", token: alice)
            #expect(deleted.json?["id"]?.intValue == 1)
            expectError(try await http.call(server, "GET", "/api/tasks/1", token: alice), 404, "TASK_NOT_FOUND")
            // An in-progress task is cancelled, not deleted; its taker hears of it.
            expectError(try await http.call(server, "POST", "/api/tasks/3/delete", token: bob), 409, "INVALID_TASK_STATE")
            #expect(try await http.call(server, "POST", "/api/tasks/3/cancel", token: bob).json?["status"] == .string("cancelled"))
            let taker = try await http.call(server, "GET", "/api/users/notifications", token: alice)
            #expect(taker.json?["notifications"]?[0]?["type"] == .string("task_cancelled"))
        }
    }

    @Test func rejectingAnApplicationTellsTheApplicant() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let bob = try await http.bob(server)
            expectError(try await http.call(server, "POST", "/api/tasks/1/applications/99/reject", token: alice), 404, "APPLICATION_NOT_FOUND")
            let rejected = try await http.call(server, "POST", "/api/tasks/1/applications/1/reject", token: alice)
            #expect(rejected.json?["status"] == .string("rejected"))
            let told = try await http.call(server, "GET", "/api/users/notifications/unread", token: bob)
            #expect(told.json?["notifications"]?[0]?["type"] == .string("application_rejected"))
            #expect(try await http.call(server, "GET", "/api/tasks/1", token: alice).json?["status"] == .string("open"))
        }
    }

    @Test func participantsAreShownToThePosterAndToEachApplicantOnly() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let bob = try await http.bob(server)
            let forPoster = try await http.call(server, "GET", "/api/tasks/1/participants", token: alice)
            #expect(forPoster.json?["total"]?.intValue == 1)
            #expect(forPoster.json?["participants"]?[0]?["applicant"]?["id"]?.intValue == 2)
            #expect(forPoster.json?["page"]?.intValue == 1)
            let forApplicant = try await http.call(server, "GET", "/api/tasks/1/participants", token: bob)
            #expect(forApplicant.json?["participants"]?[0]?["status"] == .string("pending"))
            expectError(try await http.call(server, "GET", "/api/tasks/4/participants", token: alice), 403, "FORBIDDEN")
            expectError(try await http.call(server, "GET", "/api/tasks/77/participants", token: alice), 404, "TASK_NOT_FOUND")
        }
    }

    @Test func theTaskListFiltersByPriceRangeAndStatus() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let range = try await http.call(server, "GET", "/api/tasks", [query("min_price", "10"), query("max_price", "30")], token: alice)
            #expect(range.json?["tasks"]?.ids == [2, 3, 4])
            let london = try await http.call(server, "GET", "/api/tasks", [query("city", "London"), query("max_price", "20")], token: alice)
            #expect(london.json?["tasks"]?.ids == [3])
            let reversed = try await http.call(server, "GET", "/api/tasks", [query("min_price", "30"), query("max_price", "10")], token: alice)
            #expect(reversed.json?["details"]?["max_price"] == .string("must not be less than min_price"))
            let notNumber = try await http.call(server, "GET", "/api/tasks", [query("min_price", "cheap"), query("status", "done")], token: alice)
            #expect(notNumber.json?["details"]?["min_price"] != nil)
            #expect(notNumber.json?["details"]?["status"] != nil)
            let tutoring = try await http.call(server, "GET", "/api/tasks", [query("category", "tutoring")], token: alice)
            #expect(tutoring.json?["total"]?.intValue == 1)
        }
    }
}
