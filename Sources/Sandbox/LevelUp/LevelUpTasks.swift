import Core
import Hummingbird
import SQLiteNIO

/// `/api/tasks` (seed 004's "获取任务列表"): the logged-in user's tasks, and
/// creating and updating (completing) them. Only the owner sees or changes a task.
enum LevelUpTasks {
    static func register(on router: CatalogRouter, state: SandboxState) {
        router.get("/api/tasks") { request, _ in try await list(request, state) }
        router.post("/api/tasks") { request, _ in try await create(request, state) }
        router.patch("/api/tasks/{id}") { request, context in try await update(request, context.parameters.get("id"), state) }
    }

    /// A bare JSON array, oldest first: 004's client decodes `[Task]`, so a
    /// wrapper object would break it. Filters: `completed=true|false`, `category=`.
    static func list(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.user()
        let query = request.uri.queryParameters
        var conditions = ["user_id = ?"]
        var binds: [SQLiteData] = [.text(userID)]
        var problems: [(key: String, value: JSONValue)] = []
        if let completed = query.get("completed"), !completed.isEmpty {
            if completed == "true" || completed == "false" {
                conditions.append("completed = ?")
                binds.append(.integer(completed == "true" ? 1 : 0))
            } else {
                problems.append(("completed", .string("must be true or false")))
            }
        }
        if let category = query.get("category"), !category.isEmpty {
            if LevelUpTaskModel.categories.contains(category) {
                conditions.append("category = ?")
                binds.append(.text(category))
            } else {
                problems.append(("category", .string("must be one of \(LevelUpTaskModel.categories.joined(separator: ", "))")))
            }
        }
        guard problems.isEmpty else { throw APIFailure.validation(problems) }
        let rows = try state.store.query(
            "SELECT \(LevelUpTaskModel.columns) FROM tasks WHERE \(conditions.joined(separator: " AND ")) ORDER BY id", binds)
        return JSONResponse.make(.ok, .array(rows.map(LevelUpTaskModel.json)))
    }

    /// 201 with the task. `category` defaults to `todo`, `difficulty` to
    /// `medium`, `expReward` to the difficulty's reward.
    static func create(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.user()
        let input = try LevelUpTaskInput(try await jsonObject(request), creating: true)
        let difficulty = input.difficulty ?? "medium"
        let description = input.description ?? nil
        let rows = try state.store.query("""
            INSERT INTO tasks (user_id, title, description, category, difficulty, exp_reward, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING \(LevelUpTaskModel.columns)
            """, [.text(userID), .text(input.title ?? ""), description.map { .text($0) } ?? .null, .text(input.category ?? "todo"),
                  .text(difficulty), .integer(input.expReward ?? LevelUpTaskModel.defaultReward[difficulty] ?? 25), .float(state.now)])
        guard let row = rows.first else { throw APIFailure(status: .internalServerError, code: "INTERNAL_ERROR", message: "insert failed") }
        return JSONResponse.make(.created, LevelUpTaskModel.json(row))
    }

    /// Changes the members given. `completed: true` stamps `completedAt` (the
    /// first time only, so a repeated PATCH keeps the original moment);
    /// `completed: false` clears it.
    static func update(_ request: Request, _ rawID: String?, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.user()
        guard let id = rawID.flatMap(Int.init),
              let owner = try state.store.query("SELECT user_id FROM tasks WHERE id = ?", [.integer(id)]).first?.text("user_id") else {
            throw APIFailure.notFound("task \(rawID ?? "") not found", code: "TASK_NOT_FOUND")
        }
        guard owner == userID else { throw APIFailure(status: .forbidden, code: "FORBIDDEN", message: "not your task") }
        let input = try LevelUpTaskInput(try await jsonObject(request), creating: false)
        var sets: [String] = []
        var binds: [SQLiteData] = []
        func set(_ column: String, _ value: SQLiteData?) {
            guard let value else { return }
            sets.append("\(column) = ?")
            binds.append(value)
        }
        set("title", input.title.map { .text($0) })
        set("description", input.description.map { $0.map { .text($0) } ?? .null })
        set("category", input.category.map { .text($0) })
        set("difficulty", input.difficulty.map { .text($0) })
        set("exp_reward", input.expReward.map { .integer($0) })
        if let completed = input.completed {
            set("completed", .integer(completed ? 1 : 0))
            sets.append(completed ? "completed_at = COALESCE(completed_at, ?)" : "completed_at = NULL")
            if completed { binds.append(.float(state.now)) }
        }
        let rows = try state.store.query("UPDATE tasks SET \(sets.joined(separator: ", ")) WHERE id = ? RETURNING \(LevelUpTaskModel.columns)",
                                               binds + [.integer(id)])
        guard let row = rows.first else { throw APIFailure.notFound("task \(id) not found", code: "TASK_NOT_FOUND") }
        return JSONResponse.make(.ok, LevelUpTaskModel.json(row))
    }
}
