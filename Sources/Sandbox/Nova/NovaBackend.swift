import Core
import Foundation
import Hummingbird

/// Nova (seed 003). So far: users and auth (login, refresh, logout, me).
struct NovaBackend: SandboxBackend {
    var profile: Profile { .nova }
    var errorStyle: ErrorStyle { .codeMessage }

    func migrate(_ store: SandboxStore) async throws {
        try await store.query("""
            CREATE TABLE users (
                id TEXT PRIMARY KEY,
                username TEXT NOT NULL UNIQUE,
                email TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                display_name TEXT,
                bio TEXT,
                avatar_url TEXT,
                is_verified INTEGER NOT NULL DEFAULT 0,
                created_at TEXT NOT NULL)
            """)
        let seeds: [(DemoAccounts.Account, String, String, String)] = [
            (DemoAccounts.alice, "8d3e7a52-4a1c-4c43-9a51-0c2f8b7d1a01", "Alice", "2025-01-05T09:00:00Z"),
            (DemoAccounts.bob, "5b1f0c9e-2d47-4f6a-8e3b-7a9c4d2e6b02", "Bob", "2025-01-06T10:30:00Z"),
        ]
        for (account, id, display, created) in seeds {
            try await store.query("""
                INSERT INTO users (id, username, email, password_hash, display_name, is_verified, created_at)
                VALUES (?, ?, ?, ?, ?, 1, ?)
                """, [.text(id), .text(account.name), .text(account.email), .text(account.passwordHash), .text(display), .text(created)])
        }
    }

    func register(on router: Router<BasicRequestContext>, state: SandboxState) {
        router.post("/auth/login") { request, _ in
            let body = try await jsonObject(request)
            let userID = try await state.checkPassword(email: body["email"]?.stringValue ?? "", password: body["password"]?.stringValue ?? "")
            let tokens = try await state.issueTokens(userID: userID)
            return JSONResponse.make(.ok, .object([
                ("user", try await Self.user(userID, state)),
                ("tokens", .object([
                    ("access_token", .string(tokens.access)),
                    ("refresh_token", .string(tokens.refresh)),
                    ("expires_in", jsonNumber(state.configuration.accessTokenLifetime)),
                    ("token_type", .string("Bearer")),
                ])),
            ]))
        }
        router.post("/auth/refresh") { request, _ in
            let body = try await jsonObject(request)
            guard let token = body["refresh_token"]?.stringValue, !token.isEmpty else {
                throw APIFailure.validation([("refresh_token", .string("required"))])
            }
            let rotated = try await state.rotate(refreshToken: token)
            // 003: the answer is { access_token, expires_in }.
            return JSONResponse.make(.ok, .object([
                ("access_token", .string(rotated.access)),
                ("expires_in", jsonNumber(state.configuration.accessTokenLifetime)),
            ]))
        }
        router.post("/auth/logout") { request, _ in
            let userID = try await state.authenticate(request)
            try await state.store.query("UPDATE refresh_tokens SET revoked = 1 WHERE user_id = ?", [.text(userID)])
            return Response(status: .noContent)
        }
        router.get("/users/me") { request, _ in
            JSONResponse.make(.ok, try await Self.user(try await state.authenticate(request), state))
        }
    }

    static func user(_ id: String, _ state: SandboxState) async throws -> JSONValue {
        guard let row = try await state.store.query("SELECT * FROM users WHERE id = ?", [.text(id)]).first else {
            throw APIFailure.notFound("user not found", code: "USER_NOT_FOUND")
        }
        return .object([
            ("id", .string(row.text("id"))),
            ("username", .string(row.text("username"))),
            ("email", .string(row.text("email"))),
            ("display_name", row.optionalText("display_name").map(JSONValue.string) ?? .null),
            ("bio", row.optionalText("bio").map(JSONValue.string) ?? .null),
            ("avatar_url", row.optionalText("avatar_url").map(JSONValue.string) ?? .null),
            ("is_verified", .bool(row.int("is_verified") != 0)),
            ("created_at", .string(row.text("created_at"))),
        ])
    }
}
