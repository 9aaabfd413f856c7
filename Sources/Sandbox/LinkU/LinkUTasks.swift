import Core
import Hummingbird
import SQLiteNIO

/// Tasks: list, post, read, edit, and the caller's own tasks. Status changes
/// go through `LinkUTaskFlow`, never through PUT.
enum LinkUTasks {
    /// Seed 000's TaskStatus plus `confirmed`: the poster's acknowledgement
    /// of a completed task (001's confirm_completion).
    static let statuses = Profile.linku.values(of: "TaskStatus")
    static let columns = "id, title, description, category, city, price, status, poster_id, taker_id, images, created_at, updated_at"

    static func register(on router: CatalogRouter, state: SandboxState) {
        router.get("/api/tasks") { request, _ in try await list(request, state) }
        router.post("/api/tasks") { request, _ in try await create(request, state) }
        router.get("/api/tasks/{id}") { request, context in
            _ = try Caller.number()
            return JSONResponse.make(.ok, json(try await row(try pathID(context, what: "task"), state)))
        }
        router.put("/api/tasks/{id}") { request, context in try await update(request, try pathID(context, what: "task"), state) }
        // 000 and 001 name the same list differently.
        for path in ["/api/users/tasks", "/api/users/my-tasks"] {
            router.get(path) { request, _ in try await mine(request, state) }
        }
    }

    static func json(_ row: StoreRow) -> JSONValue {
        .object([
            ("id", .int(row.int("id"))),
            ("title", .string(row.text("title"))),
            ("description", .string(row.text("description"))),
            ("category", .string(row.text("category"))),
            ("city", .string(row.text("city"))),
            ("price", jsonNumber(row.double("price"))),
            ("status", .string(row.text("status"))),
            ("poster_id", .int(row.int("poster_id"))),
            ("taker_id", row.optionalInt("taker_id")),
            ("images", decodeStrings(row.text("images"))),
            ("created_at", .string(row.text("created_at"))),
            ("updated_at", .string(row.text("updated_at"))),
        ])
    }

    static func row(_ id: Int, _ state: SandboxState) async throws -> StoreRow {
        guard let row = try state.store.query("SELECT \(columns) FROM tasks WHERE id = ?", [.integer(id)]).first else {
            throw APIFailure.notFound("task \(id) not found", code: "TASK_NOT_FOUND")
        }
        return row
    }

    /// The filters every task list takes: category, city, status, keyword, min_price, max_price.
    static func filters(_ query: inout ListQuery) {
        query.equals("category", column: "category")
        query.equals("city", column: "city")
        if let status = query.choice("status", among: statuses) { query.filter("status = ?", .text(status)) }
        query.keyword(in: ["title", "description"])
        query.priceRange(column: "price")
    }

    /// Oldest first, so pages stay put while new tasks are posted.
    static func list(_ request: Request, _ state: SandboxState) async throws -> Response {
        _ = try Caller.number()
        var query = ListQuery(request)
        filters(&query)
        return try await query.respond(state, key: "tasks", select: columns, from: "tasks", order: "id", map: json)
    }

    /// `role`: posted (you are the poster), taken (you are the taker),
    /// applied (you applied); all three when absent. Each task carries
    /// `my_role` and, when you applied, `application_status`. Newest activity first.
    static func mine(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        var query = ListQuery(request)
        let me = SQLiteData.integer(userID)
        let applied = "EXISTS (SELECT 1 FROM task_applications a WHERE a.task_id = tasks.id AND a.applicant_id = ?)"
        switch query.choice("role", among: ["posted", "taken", "applied"]) {
        case "posted": query.filter("poster_id = ?", me)
        case "taken": query.filter("taker_id = ?", me)
        case "applied": query.filter(applied, me)
        default: query.filter("(poster_id = ? OR taker_id = ? OR \(applied))", me, me, me)
        }
        filters(&query)
        let select = """
            \(columns), CASE WHEN poster_id = ? THEN 'poster' WHEN taker_id = ? THEN 'taker' ELSE 'applicant' END AS my_role,
            (SELECT a.status FROM task_applications a WHERE a.task_id = tasks.id AND a.applicant_id = ?) AS application_status
            """
        return try await query.respond(state, key: "tasks", select: select, from: "tasks", order: "updated_at DESC, id DESC",
                                       selectBinds: [me, me, me]) { row in
            guard case let .object(members) = json(row) else { return .null }
            return .object(members + [
                ("my_role", .string(row.text("my_role"))),
                ("application_status", row.optionalString("application_status")),
            ])
        }
    }

    /// The editable fields, as column changes. `creating` makes title required.
    static func changes(_ fields: inout BodyFields, creating: Bool) -> [(column: String, value: SQLiteData)] {
        var changes: [(column: String, value: SQLiteData)] = []
        if let title = fields.text("title", required: creating || fields.has("title"), max: 100) { changes.append(("title", .text(title))) }
        if let description = fields.text("description", max: 2000) { changes.append(("description", .text(description))) }
        if let category = fields.text("category", max: 50) { changes.append(("category", .text(category.isEmpty ? "other" : category))) }
        if let city = fields.text("city", max: 50) { changes.append(("city", .text(city))) }
        if let price = fields.price() { changes.append(("price", .float(price))) }
        if let images = fields.imageURLs() { changes.append(("images", .text(encodeStrings(images)))) }
        return changes
    }

    static func create(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        var fields = try await BodyFields.read(request)
        let changes = changes(&fields, creating: true)
        try fields.check()
        let now = SQLiteData.text(state.timestamp)
        let all = changes + [("status", .text("open")), ("poster_id", .integer(userID)), ("created_at", now), ("updated_at", now)]
        let rows = try state.store.query("""
            INSERT INTO tasks (\(all.map(\.column).joined(separator: ", "))) VALUES (\(all.map { _ in "?" }.joined(separator: ", ")))
            RETURNING \(columns)
            """, all.map(\.value))
        return JSONResponse.make(.created, json(rows[0]))
    }

    /// PUT: the poster edits an open task. Fields left out keep their value.
    static func update(_ request: Request, _ id: Int, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        var fields = try await BodyFields.read(request)
        let task = try await row(id, state)
        guard task.int("poster_id") == userID else { throw APIFailure.forbidden("only the poster can edit task \(id)") }
        try LinkUTaskFlow.require(task, in: ["open"], to: "edit")
        let changes = changes(&fields, creating: false)
        if let status = fields.body["status"]?.stringValue, status != task.text("status") {
            fields.reject("status", "read-only here: use POST /api/tasks/\(id)/cancel, /complete or /confirm_completion")
        }
        if changes.isEmpty && fields.problems.isEmpty {
            fields.reject("body", "nothing to update: send title, description, category, city, price or images")
        }
        try fields.check()
        let all = changes + [("updated_at", .text(state.timestamp))]
        let updated = try await LinkUTaskFlow.transition(id, from: ["open"], to: "edit", state,
                                                         set: all.map { "\($0.column) = ?" }.joined(separator: ", "), all.map(\.value))
        return JSONResponse.make(.ok, json(updated))
    }
}
