import Core
import Foundation
import Hummingbird

/// The posture-sensor backend (seed 002), under /api/v1: login, refresh and
/// me (the sandbox's choice: 002 shows only the bearer token), and the posture
/// log upload with its read-back (`PostureLogs`, docs/sandbox-posture.md).
struct PostureBackend: SandboxBackend {
    var profile: Profile { .posture }
    var errorStyle: ErrorStyle { .codeMessage }

    func migrate(_ store: SandboxStore) async throws {
        try store.query("""
            CREATE TABLE users (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                email TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                password_hash TEXT NOT NULL)
            """)
        for account in [DemoAccounts.alice, DemoAccounts.bob] {
            try store.query("INSERT INTO users (email, name, password_hash) VALUES (?, ?, ?)",
                                  [.text(account.email), .text(account.name), .text(account.passwordHash)])
        }
        try store.query(PostureLogs.schema)
        try await PostureSeed.insert(store)
    }

    func register(on router: CatalogRouter, state: SandboxState) {
        router.post("/api/v1/auth/login") { request, _ in
            let body = try await jsonObject(request)
            let userID = try await state.checkPassword(email: body["email"]?.stringValue ?? "", password: body["password"]?.stringValue ?? "")
            let tokens = try await state.issueTokens(userID: userID)
            return JSONResponse.make(.ok, .object([
                ("access_token", .string(tokens.access)),
                ("refresh_token", .string(tokens.refresh)),
                ("expires_in", jsonNumber(state.configuration.accessTokenLifetime)),
                ("user", try await Self.user(userID, state)),
            ]))
        }
        router.post("/api/v1/auth/refresh") { request, _ in
            let body = try await jsonObject(request)
            guard let token = body["refresh_token"]?.stringValue, !token.isEmpty else {
                throw APIFailure.validation([("refresh_token", .string("required"))])
            }
            let rotated = try await state.rotate(refreshToken: token)
            return JSONResponse.make(.ok, .object([
                ("access_token", .string(rotated.access)),
                ("refresh_token", .string(rotated.refresh)),
                ("expires_in", jsonNumber(state.configuration.accessTokenLifetime)),
            ]))
        }
        router.get("/api/v1/users/me") { request, _ in
            JSONResponse.make(.ok, try await Self.user(try Caller.user(), state))
        }
        PostureLogs.register(on: router, state: state)
    }

    static func user(_ id: String, _ state: SandboxState) async throws -> JSONValue {
        guard let row = try state.store.query("SELECT id, email, name FROM users WHERE id = ?", [.text(id)]).first else {
            throw APIFailure.notFound("user not found", code: "USER_NOT_FOUND")
        }
        return .object([("id", .int(row.int("id"))), ("email", .string(row.text("email"))), ("name", .string(row.text("name")))])
    }
}
