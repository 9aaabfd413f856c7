import Core
import Hummingbird
import SQLiteNIO

/// A task's life (docs/sandbox-linku.md draws it):
///
///     open ──(poster accepts an application)──▶ in_progress ──(taker: complete)──▶ completed ──(poster: confirm_completion)──▶ confirmed
///     open, in_progress ──(poster: cancel)──▶ cancelled
///     open, cancelled ──(poster: delete)──▶ gone
///
/// Anyone but the poster may apply while the task is open. Every change is
/// one conditional UPDATE, so two racing requests cannot both move a task;
/// an illegal move is a 409 INVALID_TASK_STATE naming the current status.
enum LinkUTaskFlow {
    static func register(on router: CatalogRouter, state: SandboxState) {
        // 000 says accept, 001 says apply: both ask to take the task.
        for path in ["/api/tasks/{id}/accept", "/api/tasks/{id}/apply"] {
            router.post(path) { request, context in try await apply(request, try pathID(context, what: "task"), state) }
        }
        router.post("/api/tasks/{id}/applications/{applicationId}/accept") { request, context in
            try await decide(request, context, accept: true, state)
        }
        router.post("/api/tasks/{id}/applications/{applicationId}/reject") { request, context in
            try await decide(request, context, accept: false, state)
        }
        for path in ["/api/tasks/{id}/complete", "/api/users/tasks/{id}/complete"] {
            router.post(path) { request, context in try await complete(request, try pathID(context, what: "task"), state) }
        }
        router.post("/api/tasks/{id}/confirm_completion") { request, context in
            try await confirm(request, try pathID(context, what: "task"), state)
        }
        router.post("/api/tasks/{id}/cancel") { request, context in try await cancel(request, try pathID(context, what: "task"), state) }
        router.post("/api/tasks/{id}/delete") { request, context in try await delete(request, try pathID(context, what: "task"), state) }
        router.get("/api/tasks/{id}/participants") { request, context in
            try await participants(request, try pathID(context, what: "task"), state)
        }
    }

    /// 409 unless the task's status is one of `allowed`.
    static func require(_ task: StoreRow, in allowed: [String], to action: String) throws {
        let status = task.text("status")
        guard !allowed.contains(status) else { return }
        throw APIFailure.conflict("cannot \(action) task \(task.int("id")) while it is \(status); allowed when \(allowed.joined(separator: " or "))",
                                  code: "INVALID_TASK_STATE",
                                  details: [("status", .string(status)), ("allowed_from", .array(allowed.map(JSONValue.string)))])
    }

    /// `UPDATE tasks SET <set>` only if the status is still one of `from`;
    /// when nothing changed, the current row says why (404 or 409).
    static func transition(_ id: Int, from: [String], to action: String, _ state: SandboxState,
                           set: String, _ binds: [SQLiteData]) async throws -> StoreRow {
        let statuses = from.map { _ in "?" }.joined(separator: ", ")
        let rows = try state.store.query("UPDATE tasks SET \(set) WHERE id = ? AND status IN (\(statuses)) RETURNING \(LinkUTasks.columns)",
                                               binds + [.integer(id)] + from.map(SQLiteData.text))
        if let row = rows.first { return row }
        try require(try await LinkUTasks.row(id, state), in: from, to: action)
        throw APIFailure.conflict("task \(id) changed while this request ran; read it again", code: "INVALID_TASK_STATE")
    }

    static func poster(_ task: StoreRow, is userID: Int, to action: String) throws {
        guard task.int("poster_id") == userID else {
            throw APIFailure.forbidden("only the poster of task \(task.int("id")) can \(action) it")
        }
    }

    static func apply(_ request: Request, _ id: Int, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        var fields = try await BodyFields.readOptional(request)
        let message = fields.text("message", max: 500) ?? ""
        let task = try await LinkUTasks.row(id, state)
        guard task.int("poster_id") != userID else { throw APIFailure.forbidden("you cannot apply for your own task") }
        try require(task, in: ["open"], to: "apply for")
        try fields.check()
        guard let applicationID = try state.store.query("""
            INSERT INTO task_applications (task_id, applicant_id, message, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (task_id, applicant_id) DO NOTHING RETURNING id
            """, [.integer(id), .integer(userID), .text(message), .text(state.timestamp)]).first?.int("id") else {
            throw APIFailure.conflict("you already applied for task \(id)", code: "ALREADY_APPLIED")
        }
        let name = try await LinkUUsers.username(userID, state)
        try await LinkUNotifications.notify(state, task.int("poster_id"), type: "task_application", title: "New application",
                                            content: "\(name) applied for \"\(task.text("title"))\".", about: ("task", id))
        return JSONResponse.make(.created, try await application(applicationID, state))
    }

    /// The poster accepts one pending application (the task starts, every
    /// other pending application is rejected) or rejects one.
    static func decide(_ request: Request, _ context: BasicRequestContext, accept: Bool, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        let id = try pathID(context, what: "task")
        let applicationID = try pathID(context, "applicationId", what: "application")
        let task = try await LinkUTasks.row(id, state)
        try poster(task, is: userID, to: accept ? "accept applications for" : "reject applications for")
        guard let chosen = try state.store.query("SELECT applicant_id, status FROM task_applications WHERE id = ? AND task_id = ?",
                                                       [.integer(applicationID), .integer(id)]).first else {
            throw APIFailure.notFound("task \(id) has no application \(applicationID)", code: "APPLICATION_NOT_FOUND")
        }
        guard chosen.text("status") == "pending" else {
            throw APIFailure.conflict("application \(applicationID) is already \(chosen.text("status"))", code: "APPLICATION_NOT_PENDING")
        }
        let title = task.text("title")
        if !accept {
            try state.store.query("UPDATE task_applications SET status = 'rejected' WHERE id = ?", [.integer(applicationID)])
            try await LinkUNotifications.notify(state, chosen.int("applicant_id"), type: "application_rejected", title: "Application declined",
                                                content: "Your application for \"\(title)\" was declined.", about: ("task", id))
            return JSONResponse.make(.ok, try await application(applicationID, state))
        }
        let started = try await transition(id, from: ["open"], to: "accept an application for", state,
                                           set: "status = 'in_progress', taker_id = ?, updated_at = ?",
                                           [.integer(chosen.int("applicant_id")), .text(state.timestamp)])
        try state.store.query("UPDATE task_applications SET status = 'accepted' WHERE id = ?", [.integer(applicationID)])
        let others = try state.store.query(
            "UPDATE task_applications SET status = 'rejected' WHERE task_id = ? AND status = 'pending' RETURNING applicant_id", [.integer(id)])
        try await LinkUNotifications.notify(state, chosen.int("applicant_id"), type: "application_accepted", title: "Application accepted",
                                            content: "Your application for \"\(title)\" was accepted: the task is yours.", about: ("task", id))
        for other in others {
            try await LinkUNotifications.notify(state, other.int("applicant_id"), type: "application_rejected", title: "Application declined",
                                                content: "\"\(title)\" went to another applicant.", about: ("task", id))
        }
        return JSONResponse.make(.ok, LinkUTasks.json(started))
    }

    /// The taker says the work is done; the poster then confirms.
    static func complete(_ request: Request, _ id: Int, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        let task = try await LinkUTasks.row(id, state)
        guard task.column("taker_id")?.integer.map({ Int($0) }) == userID else {
            let hint = task.int("poster_id") == userID ? "; as the poster, confirm with POST /api/tasks/\(id)/confirm_completion" : ""
            throw APIFailure.forbidden("only the taker of task \(id) can mark it completed\(hint)")
        }
        let done = try await transition(id, from: ["in_progress"], to: "complete", state,
                                        set: "status = 'completed', updated_at = ?", [.text(state.timestamp)])
        try await LinkUNotifications.notify(state, task.int("poster_id"), type: "task_completed", title: "Task completed",
                                            content: "\"\(task.text("title"))\" was marked completed; please confirm.", about: ("task", id))
        return JSONResponse.make(.ok, LinkUTasks.json(done))
    }

    static func confirm(_ request: Request, _ id: Int, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        let task = try await LinkUTasks.row(id, state)
        try poster(task, is: userID, to: "confirm completion of")
        let confirmed = try await transition(id, from: ["completed"], to: "confirm completion of", state,
                                             set: "status = 'confirmed', updated_at = ?", [.text(state.timestamp)])
        try await LinkUNotifications.notify(state, task.int("taker_id"), type: "task_confirmed", title: "Completion confirmed",
                                            content: "The poster confirmed \"\(task.text("title"))\" is done.", about: ("task", id))
        return JSONResponse.make(.ok, LinkUTasks.json(confirmed))
    }

    /// Optional `{reason}`; the taker and pending applicants are told.
    static func cancel(_ request: Request, _ id: Int, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        var fields = try await BodyFields.readOptional(request)
        let reason = fields.text("reason", max: 500)
        let task = try await LinkUTasks.row(id, state)
        try poster(task, is: userID, to: "cancel")
        try require(task, in: ["open", "in_progress"], to: "cancel")
        try fields.check()
        let cancelled = try await transition(id, from: ["open", "in_progress"], to: "cancel", state,
                                             set: "status = 'cancelled', updated_at = ?", [.text(state.timestamp)])
        let content = "\"\(task.text("title"))\" was cancelled by its poster" + (reason.map { ": \($0)" } ?? ".")
        for user in try await involved(id, taker: task, state) {
            try await LinkUNotifications.notify(state, user, type: "task_cancelled", title: "Task cancelled", content: content, about: ("task", id))
        }
        return JSONResponse.make(.ok, LinkUTasks.json(cancelled))
    }

    /// Only open or cancelled tasks: once someone took one, its history stays.
    static func delete(_ request: Request, _ id: Int, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        let task = try await LinkUTasks.row(id, state)
        try poster(task, is: userID, to: "delete")
        let told = try await involved(id, taker: task, state)
        let deleted = try state.store.query("DELETE FROM tasks WHERE id = ? AND status IN ('open', 'cancelled') RETURNING id", [.integer(id)])
        guard !deleted.isEmpty else {
            try require(try await LinkUTasks.row(id, state), in: ["open", "cancelled"], to: "delete")
            throw APIFailure.conflict("task \(id) changed while this request ran; read it again", code: "INVALID_TASK_STATE")
        }
        if task.text("status") == "open" {
            for user in told {
                try await LinkUNotifications.notify(state, user, type: "task_deleted", title: "Task withdrawn",
                                                    content: "\"\(task.text("title"))\" was withdrawn by its poster.", about: ("task", id))
            }
        }
        return JSONResponse.make(.ok, .object([("message", .string("task \(id) deleted")), ("id", .int(id))]))
    }

    /// The taker, if any, and everyone whose application is still pending.
    static func involved(_ id: Int, taker task: StoreRow, _ state: SandboxState) async throws -> [Int] {
        let pending = try state.store.query("SELECT applicant_id FROM task_applications WHERE task_id = ? AND status = 'pending'", [.integer(id)])
        let taker = task.column("taker_id")?.integer.map { Int($0) }
        return (taker.map { [$0] } ?? []) + pending.map { $0.int("applicant_id") }
    }

    /// The poster sees every application; an applicant sees their own; anyone else is refused.
    static func participants(_ request: Request, _ id: Int, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        let task = try await LinkUTasks.row(id, state)
        var query = ListQuery(request)
        query.filter("a.task_id = ?", .integer(id))
        if task.int("poster_id") != userID {
            let applied = try state.store.query("SELECT 1 FROM task_applications WHERE task_id = ? AND applicant_id = ?",
                                                      [.integer(id), .integer(userID)])
            guard !applied.isEmpty else {
                throw APIFailure.forbidden("only the poster and applicants of task \(id) can see its participants")
            }
            query.filter("a.applicant_id = ?", .integer(userID))
        }
        return try await query.respond(state, key: "participants", select: applicationColumns,
                                       from: "task_applications a JOIN users u ON u.id = a.applicant_id",
                                       order: "a.created_at, a.id", map: applicationJSON)
    }

    static let applicationColumns = "a.id, a.task_id, a.message, a.status, a.created_at, " + LinkUUsers.summaryColumns("u", "applicant_")

    static func applicationJSON(_ row: StoreRow) -> JSONValue {
        .object([
            ("id", .int(row.int("id"))),
            ("task_id", .int(row.int("task_id"))),
            ("applicant", LinkUUsers.summary(row, "applicant_")),
            ("message", .string(row.text("message"))),
            ("status", .string(row.text("status"))),
            ("created_at", .string(row.text("created_at"))),
        ])
    }

    static func application(_ id: Int, _ state: SandboxState) async throws -> JSONValue {
        let rows = try state.store.query(
            "SELECT \(applicationColumns) FROM task_applications a JOIN users u ON u.id = a.applicant_id WHERE a.id = ?", [.integer(id)])
        return rows.first.map(applicationJSON) ?? .null
    }
}
