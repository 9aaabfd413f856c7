import Core
import Hummingbird
import SQLiteNIO

/// Task experts: users who offer priced services. Anyone may apply for a
/// service (not their own) or apply to become an expert; both create a
/// pending application, since the seeds describe no reviewing endpoints.
enum LinkUTaskExperts {
    static func register(on router: CatalogRouter, state: SandboxState) {
        router.get("/api/task-experts") { request, _ in
            _ = try Caller.number()
            var query = ListQuery(request)
            query.equals("city", column: "e.city")
            query.keyword(in: ["e.bio", "e.specialties", "u.username"])
            return try await query.respond(state, key: "experts", select: columns, from: tables, order: "e.rating DESC, e.id", map: json)
        }
        router.get("/api/task-experts/{id}") { request, context in
            _ = try Caller.number()
            return JSONResponse.make(.ok, json(try await expert(try pathID(context, what: "expert"), state)))
        }
        router.get("/api/task-experts/{id}/services") { request, context in
            _ = try Caller.number()
            let id = try pathID(context, what: "expert")
            _ = try await expert(id, state)
            var query = ListQuery(request)
            query.filter("expert_id = ?", .integer(id))
            return try await query.respond(state, key: "services", select: "*", from: "expert_services", order: "id", map: serviceJSON)
        }
        router.post("/api/task-experts/services/{serviceId}/apply") { request, context in
            try await applyForService(request, try pathID(context, "serviceId", what: "service"), state)
        }
        router.post("/api/task-experts/apply") { request, _ in try await applyToBecomeExpert(request, state) }
    }

    static let columns = """
        e.id, e.bio, e.specialties, e.city, e.rating, e.completed_tasks, e.created_at, \(LinkUUsers.summaryColumns("u", "user_")),
        (SELECT COUNT(*) FROM expert_services s WHERE s.expert_id = e.id) AS service_count
        """
    static let tables = "task_experts e JOIN users u ON u.id = e.user_id"

    static func json(_ row: StoreRow) -> JSONValue {
        .object([
            ("id", .int(row.int("id"))),
            ("user", LinkUUsers.summary(row, "user_")),
            ("bio", .string(row.text("bio"))),
            ("specialties", decodeStrings(row.text("specialties"))),
            ("city", .string(row.text("city"))),
            ("rating", jsonNumber(row.double("rating"))),
            ("completed_tasks", .int(row.int("completed_tasks"))),
            ("service_count", .int(row.int("service_count"))),
            ("created_at", .string(row.text("created_at"))),
        ])
    }

    static func expert(_ id: Int, _ state: SandboxState) async throws -> StoreRow {
        guard let row = try state.store.query("SELECT \(columns) FROM \(tables) WHERE e.id = ?", [.integer(id)]).first else {
            throw APIFailure.notFound("task expert \(id) not found", code: "EXPERT_NOT_FOUND")
        }
        return row
    }

    static func serviceJSON(_ row: StoreRow) -> JSONValue {
        .object([
            ("id", .int(row.int("id"))),
            ("expert_id", .int(row.int("expert_id"))),
            ("title", .string(row.text("title"))),
            ("description", .string(row.text("description"))),
            ("price", jsonNumber(row.double("price"))),
            ("created_at", .string(row.text("created_at"))),
        ])
    }

    /// `{message?}` → 201 pending application; the expert is notified.
    static func applyForService(_ request: Request, _ id: Int, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        var fields = try await BodyFields.readOptional(request)
        let message = fields.text("message", max: 500) ?? ""
        guard let service = try state.store.query("""
            SELECT s.title, e.user_id FROM expert_services s JOIN task_experts e ON e.id = s.expert_id WHERE s.id = ?
            """, [.integer(id)]).first else {
            throw APIFailure.notFound("service \(id) not found", code: "SERVICE_NOT_FOUND")
        }
        guard service.int("user_id") != userID else { throw APIFailure.forbidden("you cannot apply for your own service") }
        let pending = try state.store.query("SELECT 1 FROM service_applications WHERE service_id = ? AND applicant_id = ? AND status = 'pending'",
                                                  [.integer(id), .integer(userID)])
        guard pending.isEmpty else { throw APIFailure.conflict("you already have a pending application for service \(id)", code: "ALREADY_APPLIED") }
        try fields.check()
        let row = try state.store.query("""
            INSERT INTO service_applications (service_id, applicant_id, message, created_at) VALUES (?, ?, ?, ?) RETURNING *
            """, [.integer(id), .integer(userID), .text(message), .text(state.timestamp)])[0]
        let name = try await LinkUUsers.username(userID, state)
        try await LinkUNotifications.notify(state, service.int("user_id"), type: "service_application", title: "New service request",
                                            content: "\(name) applied for \"\(service.text("title"))\".", about: ("expert_service", id))
        return JSONResponse.make(.created, .object([
            ("id", .int(row.int("id"))),
            ("service_id", .int(id)),
            ("applicant_id", .int(userID)),
            ("message", .string(row.text("message"))),
            ("status", .string(row.text("status"))),
            ("created_at", .string(row.text("created_at"))),
        ]))
    }

    /// `{bio, specialties: [..], city?}` → 201 pending application. An
    /// expert, or someone with a pending application, gets 409.
    static func applyToBecomeExpert(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        var fields = try await BodyFields.read(request)
        let bio = fields.text("bio", required: true, min: 10, max: 1000)
        let specialties = fields.labels("specialties", required: true, maxCount: 10, maxLength: 30)
        let city = fields.text("city", max: 50) ?? ""
        guard try state.store.query("SELECT 1 FROM task_experts WHERE user_id = ?", [.integer(userID)]).isEmpty else {
            throw APIFailure.conflict("you are already a task expert", code: "ALREADY_EXPERT")
        }
        guard try state.store.query("SELECT 1 FROM expert_applications WHERE user_id = ? AND status = 'pending'", [.integer(userID)]).isEmpty else {
            throw APIFailure.conflict("your application to become an expert is still pending", code: "ALREADY_APPLIED")
        }
        try fields.check()
        let row = try state.store.query("""
            INSERT INTO expert_applications (user_id, bio, specialties, city, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *
            """, [.integer(userID), .text(bio!), .text(encodeStrings(specialties!)), .text(city), .text(state.timestamp)])[0]
        return JSONResponse.make(.created, .object([
            ("id", .int(row.int("id"))),
            ("user_id", .int(userID)),
            ("bio", .string(row.text("bio"))),
            ("specialties", decodeStrings(row.text("specialties"))),
            ("city", .string(row.text("city"))),
            ("status", .string(row.text("status"))),
            ("created_at", .string(row.text("created_at"))),
        ]))
    }
}
