import Core
import Foundation
import Hummingbird
import HummingbirdWebSocket
import SQLiteNIO

/// LinkU (seed 000 appendix 1, seed 001): secure-auth login/refresh/logout,
/// the user's profile, and tasks.
struct LinkUBackend: SandboxBackend {
    var profile: Profile { .linku }
    var errorStyle: ErrorStyle { .linku }

    func migrate(_ store: SandboxStore) async throws {
        try await LinkUSchema.create(store)
        try await LinkUChat.create(store)
    }

    func register(on router: Router<BasicRequestContext>, state: SandboxState) {
        LinkURoutes.register(on: router, state: state)
        LinkUChat.register(on: router, state: state)
    }

    func registerWebSocket(on router: Router<BasicWebSocketRequestContext>, state: SandboxState) {
        LinkUChat.registerWebSocket(on: router, state: state)
    }
}

/// The authenticated LinkU user's integer id.
extension SandboxState {
    func linkuUser(_ request: Request) async throws -> Int {
        guard let id = Int(try await authenticate(request)) else {
            throw APIFailure.unauthorized("invalid access token", code: "INVALID_TOKEN")
        }
        return id
    }
}

enum LinkURoutes {
    static func register(on router: Router<BasicRequestContext>, state: SandboxState) {
        router.post("/api/secure-auth/login") { request, _ in try await login(request, state) }
        router.post("/api/secure-auth/refresh") { request, _ in try await refresh(request, state) }
        router.post("/api/secure-auth/logout") { request, _ in try await logout(request, state) }
        router.get("/api/users/profile/me") { request, _ in
            let userID = try await state.linkuUser(request)
            return JSONResponse.make(.ok, try await user(userID, state))
        }
        router.get("/api/tasks") { request, _ in try await listTasks(request, state) }
        router.post("/api/tasks") { request, _ in try await createTask(request, state) }
        router.get("/api/tasks/{id}") { request, context in
            _ = try await state.linkuUser(request)
            guard let id = context.parameters.get("id", as: Int.self) else {
                throw APIFailure.badRequest("task id must be an integer")
            }
            return JSONResponse.make(.ok, try await task(id, state))
        }
    }

    // MARK: Auth

    static func login(_ request: Request, _ state: SandboxState) async throws -> Response {
        let body = try await jsonObject(request)
        var problems: [(key: String, value: JSONValue)] = []
        let email = body["email"]?.stringValue ?? ""
        let password = body["password"]?.stringValue ?? ""
        if email.isEmpty { problems.append(("email", .string("required"))) }
        if password.isEmpty { problems.append(("password", .string("required"))) }
        guard problems.isEmpty else { throw APIFailure.validation(problems) }
        let userID = try await state.checkPassword(email: email, password: password)
        let tokens = try await state.issueTokens(userID: userID)
        return JSONResponse.make(.ok, .object([
            ("access_token", .string(tokens.access)),
            ("refresh_token", .string(tokens.refresh)),
            ("token_type", .string("bearer")),
            ("expires_in", jsonNumber(state.configuration.accessTokenLifetime)),
            ("user", try await user(Int(userID) ?? 0, state)),
        ]))
    }

    static func refresh(_ request: Request, _ state: SandboxState) async throws -> Response {
        let body = try await jsonObject(request)
        guard let token = body["refresh_token"]?.stringValue, !token.isEmpty else {
            throw APIFailure.validation([("refresh_token", .string("required"))])
        }
        let rotated = try await state.rotate(refreshToken: token)
        return JSONResponse.make(.ok, .object([
            ("access_token", .string(rotated.access)),
            ("refresh_token", .string(rotated.refresh)),
            ("token_type", .string("bearer")),
            ("expires_in", jsonNumber(state.configuration.accessTokenLifetime)),
        ]))
    }

    static func logout(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try await state.authenticate(request)
        // Revoke the given refresh token, or all of the user's when none is given.
        let buffer = try await request.body.collect(upTo: 1 << 20)
        let token = (try? JSONParser.parse(Array(buffer.readableBytesView)))?["refresh_token"]?.stringValue
        if let token, let claims = try? state.signer.verify(token, kind: "refresh", now: state.now), claims.subject == userID {
            try await state.store.query("UPDATE refresh_tokens SET revoked = 1 WHERE jti = ?", [.text(claims.id)])
        } else {
            try await state.store.query("UPDATE refresh_tokens SET revoked = 1 WHERE user_id = ?", [.text(userID)])
        }
        return JSONResponse.make(.ok, .object([("message", .string("logged out"))]))
    }

    // MARK: Users

    static func user(_ id: Int, _ state: SandboxState) async throws -> JSONValue {
        guard let row = try await state.store.query(
            "SELECT id, email, username, avatar, created_at FROM users WHERE id = ?", [.integer(id)]).first else {
            throw APIFailure.notFound("user \(id) not found", code: "USER_NOT_FOUND")
        }
        return .object([
            ("id", .int(row.int("id"))),
            ("email", .string(row.text("email"))),
            ("username", .string(row.text("username"))),
            ("avatar", row.optionalText("avatar").map(JSONValue.string) ?? .null),
            ("created_at", .string(row.text("created_at"))),
        ])
    }

    // MARK: Tasks

    static let taskStatuses = ["open", "in_progress", "completed", "cancelled"]
    static let taskColumns = "id, title, description, category, city, price, status, poster_id, created_at"

    static func taskJSON(_ row: SQLiteRow) -> JSONValue {
        .object([
            ("id", .int(row.int("id"))),
            ("title", .string(row.text("title"))),
            ("description", .string(row.text("description"))),
            ("category", .string(row.text("category"))),
            ("city", .string(row.text("city"))),
            ("price", jsonNumber(row.double("price"))),
            ("status", .string(row.text("status"))),
            ("poster_id", .int(row.int("poster_id"))),
            ("created_at", .string(row.text("created_at"))),
        ])
    }

    static func task(_ id: Int, _ state: SandboxState) async throws -> JSONValue {
        guard let row = try await state.store.query("SELECT \(taskColumns) FROM tasks WHERE id = ?", [.integer(id)]).first else {
            throw APIFailure.notFound("task \(id) not found", code: "TASK_NOT_FOUND")
        }
        return taskJSON(row)
    }

    static func listTasks(_ request: Request, _ state: SandboxState) async throws -> Response {
        _ = try await state.linkuUser(request)
        let query = request.uri.queryParameters
        var problems: [(key: String, value: JSONValue)] = []
        func integer(_ name: String, default value: Int, range: ClosedRange<Int>) -> Int {
            guard let text = query.get(name) else { return value }
            guard let n = Int(text), range.contains(n) else {
                problems.append((name, .string("must be an integer from \(range.lowerBound) to \(range.upperBound)")))
                return value
            }
            return n
        }
        let page = integer("page", default: 1, range: 1...100_000)
        let pageSize = integer("page_size", default: 20, range: 1...100)
        var conditions: [String] = []
        var binds: [SQLiteData] = []
        for name in ["category", "city", "status"] {
            if let value = query.get(name), !value.isEmpty {
                if name == "status", !taskStatuses.contains(value) {
                    problems.append(("status", .string("must be one of \(taskStatuses.joined(separator: ", "))")))
                }
                conditions.append("\(name) = ? COLLATE NOCASE")
                binds.append(.text(value))
            }
        }
        if let keyword = query.get("keyword"), !keyword.isEmpty {
            conditions.append("(title LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\')")
            let pattern = "%" + keyword.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
            binds.append(contentsOf: [.text(pattern), .text(pattern)])
        }
        guard problems.isEmpty else { throw APIFailure.validation(problems) }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let total = try await state.store.query("SELECT COUNT(*) AS n FROM tasks \(filter)", binds).first?.int("n") ?? 0
        let rows = try await state.store.query("SELECT \(taskColumns) FROM tasks \(filter) ORDER BY id LIMIT ? OFFSET ?",
                                               binds + [.integer(pageSize), .integer((page - 1) * pageSize)])
        return JSONResponse.make(.ok, .object([
            ("tasks", .array(rows.map(taskJSON))),
            ("total", .int(total)),
            ("page", .int(page)),
            ("page_size", .int(pageSize)),
        ]))
    }

    static func createTask(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try await state.linkuUser(request)
        let body = try await jsonObject(request)
        var problems: [(key: String, value: JSONValue)] = []
        func text(_ name: String, required: Bool = false, max: Int) -> String {
            guard let value = body[name] else {
                if required { problems.append((name, .string("required"))) }
                return ""
            }
            guard let s = value.stringValue else { problems.append((name, .string("must be a string"))); return "" }
            let trimmed = s.trimmingCharacters(in: .whitespacesAndNewlines)
            if required && trimmed.isEmpty { problems.append((name, .string("required"))) }
            if s.count > max { problems.append((name, .string("at most \(max) characters"))) }
            return trimmed
        }
        let title = text("title", required: true, max: 100)
        let description = text("description", max: 2000)
        let category = text("category", max: 50)
        let city = text("city", max: 50)
        var price = 0.0
        if let value = body["price"] {
            if case let .number(n) = value, let p = Double(n) {
                if p < 0 { problems.append(("price", .string("must not be negative"))) }
                price = p
            } else if let s = value.stringValue, let p = Double(s) {
                // HTTPie's `price=25` sends a string; accept numeric strings like many backends do.
                if p < 0 { problems.append(("price", .string("must not be negative"))) }
                price = p
            } else {
                problems.append(("price", .string("must be a number")))
            }
        }
        guard problems.isEmpty else { throw APIFailure.validation(problems) }
        let rows = try await state.store.query("""
            INSERT INTO tasks (title, description, category, city, price, status, poster_id, created_at)
            VALUES (?, ?, ?, ?, ?, 'open', ?, ?) RETURNING \(taskColumns)
            """, [.text(title), .text(description), .text(category.isEmpty ? "other" : category), .text(city),
                  .float(price), .integer(userID), .text(isoNow())])
        guard let row = rows.first else { throw APIFailure(status: .internalServerError, code: "INTERNAL_ERROR", message: "insert failed") }
        return JSONResponse.make(.created, taskJSON(row))
    }
}
