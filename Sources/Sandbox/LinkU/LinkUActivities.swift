import Core
import Hummingbird
import SQLiteNIO

/// Activities (events people sign up for). The list is public (001). An
/// activity's status is derived from the sandbox clock: upcoming before it
/// starts, ongoing while it runs, ended after. Sign-up closes when it starts.
enum LinkUActivities {
    static let statuses = ["upcoming", "ongoing", "ended"]

    static func register(on router: CatalogRouter, state: SandboxState) {
        router.get("/api/activities") { request, _ in
            _ = try await state.optionalLinkuUser(request)
            var query = ListQuery(request)
            query.equals("city", column: "city")
            query.keyword(in: ["title", "description"])
            let now = SQLiteData.text(state.timestamp)
            switch query.choice("status", among: statuses) {
            case "upcoming": query.filter("starts_at > ?", now)
            case "ongoing": query.filter("starts_at <= ? AND ends_at > ?", now, now)
            case "ended": query.filter("ends_at <= ?", now)
            default: break
            }
            return try await query.respond(state, key: "activities", select: columns, from: "activities", order: "starts_at, id") {
                json($0, state)
            }
        }
        router.get("/api/activities/{id}") { request, context in
            _ = try Caller.number()
            return JSONResponse.make(.ok, json(try await activity(try pathID(context, what: "activity"), state), state))
        }
        router.post("/api/activities/{id}/apply") { request, context in try await apply(request, try pathID(context, what: "activity"), state) }
        router.post("/api/activities/{id}/favorite") { request, context in
            let userID = try Caller.number()
            let id = try pathID(context, what: "activity")
            _ = try await activity(id, state)
            let favorited = try await state.toggle(table: "activity_favorites", key: [("activity_id", .integer(id)), ("user_id", .integer(userID))])
            return JSONResponse.make(.ok, .object([("activity_id", .int(id)), ("favorited", .bool(favorited))]))
        }
        router.get("/api/activities/{id}/favorite/status") { request, context in
            let userID = try Caller.number()
            let id = try pathID(context, what: "activity")
            _ = try await activity(id, state)
            let favorited = try !state.store.query("SELECT 1 FROM activity_favorites WHERE activity_id = ? AND user_id = ?",
                                                         [.integer(id), .integer(userID)]).isEmpty
            return JSONResponse.make(.ok, .object([("activity_id", .int(id)), ("favorited", .bool(favorited))]))
        }
    }

    static let columns = """
        *, (SELECT COUNT(*) FROM activity_participants p WHERE p.activity_id = activities.id) AS participant_count
        """

    static func status(_ row: StoreRow, _ state: SandboxState) -> String {
        let now = state.now
        if let starts = seconds(fromISO8601: row.text("starts_at")), now < starts { return "upcoming" }
        if let ends = seconds(fromISO8601: row.text("ends_at")), now < ends { return "ongoing" }
        return "ended"
    }

    static func json(_ row: StoreRow, _ state: SandboxState) -> JSONValue {
        .object([
            ("id", .int(row.int("id"))),
            ("title", .string(row.text("title"))),
            ("description", .string(row.text("description"))),
            ("city", .string(row.text("city"))),
            ("location", .string(row.text("location"))),
            ("starts_at", .string(row.text("starts_at"))),
            ("ends_at", .string(row.text("ends_at"))),
            ("status", .string(status(row, state))),
            ("capacity", .int(row.int("capacity"))),
            ("participant_count", .int(row.int("participant_count"))),
            ("created_at", .string(row.text("created_at"))),
        ])
    }

    static func activity(_ id: Int, _ state: SandboxState) async throws -> StoreRow {
        guard let row = try state.store.query("SELECT \(columns) FROM activities WHERE id = ?", [.integer(id)]).first else {
            throw APIFailure.notFound("activity \(id) not found", code: "ACTIVITY_NOT_FOUND")
        }
        return row
    }

    /// Signs the caller up: 409 once it has started, when it is full, or when already signed up.
    static func apply(_ request: Request, _ id: Int, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        let row = try await activity(id, state)
        let status = status(row, state)
        guard status == "upcoming" else {
            throw APIFailure.conflict("activity \(id) is \(status); sign-up closes when it starts", code: "ACTIVITY_CLOSED",
                                      details: [("status", .string(status))])
        }
        // The capacity check and the insert are one statement, so the last seat is taken once.
        let inserted = try state.store.query("""
            INSERT INTO activity_participants (activity_id, user_id, created_at)
            SELECT ?1, ?2, ?3 WHERE (SELECT COUNT(*) FROM activity_participants WHERE activity_id = ?1) < ?4
            ON CONFLICT DO NOTHING RETURNING created_at
            """, [.integer(id), .integer(userID), .text(state.timestamp), .integer(row.int("capacity"))])
        guard let signedUp = inserted.first else {
            let already = try !state.store.query("SELECT 1 FROM activity_participants WHERE activity_id = ? AND user_id = ?",
                                                       [.integer(id), .integer(userID)]).isEmpty
            if already { throw APIFailure.conflict("you already signed up for activity \(id)", code: "ALREADY_APPLIED") }
            throw APIFailure.conflict("activity \(id) is full (\(row.int("capacity")) places)", code: "ACTIVITY_FULL")
        }
        let updated = try await activity(id, state)
        return JSONResponse.make(.created, .object([
            ("activity_id", .int(id)),
            ("user_id", .int(userID)),
            ("created_at", .string(signedUp.text("created_at"))),
            ("participant_count", .int(updated.int("participant_count"))),
        ]))
    }
}
