import Core
import Foundation
import Hummingbird

/// Level Up Solo (seed 004): simple-login, user, refresh, and the user's
/// tasks (`LevelUpTasks`; their shape is the sandbox's, see docs/sandbox-levelup.md).
struct LevelUpBackend: SandboxBackend {
    var profile: Profile { .levelup }
    var errorStyle: ErrorStyle { .codeMessage }

    func migrate(_ store: SandboxStore) async throws {
        try store.query("""
            CREATE TABLE users (
                id TEXT PRIMARY KEY,
                email TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                first_name TEXT,
                last_name TEXT,
                has_completed_onboarding INTEGER NOT NULL DEFAULT 0)
            """)
        try store.query(LevelUpTaskModel.schema)
        try await LevelUpSeed.insert(store)
    }

    func register(on router: CatalogRouter, state: SandboxState) {
        router.post("/api/auth/simple-login") { request, _ in
            let body = try await jsonObject(request)
            let userID = try await state.checkPassword(email: body["email"]?.stringValue ?? "", password: body["password"]?.stringValue ?? "")
            let tokens = try await state.issueTokens(userID: userID)
            let user = try await Self.user(userID, state, withOnboarding: false)
            return JSONResponse.make(.ok, .object([
                ("message", .string("登录成功")),
                ("accessToken", .string(tokens.access)),
                ("refreshToken", .string(tokens.refresh)),
                ("user", user),
            ]))
        }
        router.get("/api/auth/user") { request, _ in
            JSONResponse.make(.ok, try await Self.user(try Caller.user(), state, withOnboarding: true))
        }
        router.post("/api/auth/refresh") { request, _ in
            let body = try await jsonObject(request)
            guard let token = body["refreshToken"]?.stringValue, !token.isEmpty else {
                throw APIFailure.validation([("refreshToken", .string("required"))])
            }
            let rotated = try await state.rotate(refreshToken: token)
            return JSONResponse.make(.ok, .object([("accessToken", .string(rotated.access)), ("refreshToken", .string(rotated.refresh))]))
        }
        LevelUpTasks.register(on: router, state: state)
    }

    static func user(_ id: String, _ state: SandboxState, withOnboarding: Bool) async throws -> JSONValue {
        guard let row = try state.store.query("SELECT * FROM users WHERE id = ?", [.text(id)]).first else {
            throw APIFailure.notFound("user not found", code: "USER_NOT_FOUND")
        }
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(row.text("id"))),
            ("email", .string(row.text("email"))),
            ("firstName", row.optionalText("first_name").map(JSONValue.string) ?? .null),
            ("lastName", row.optionalText("last_name").map(JSONValue.string) ?? .null),
        ]
        if withOnboarding { members.append(("hasCompletedOnboarding", .bool(row.int("has_completed_onboarding") != 0))) }
        return .object(members)
    }
}
