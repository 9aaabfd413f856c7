import Core
import Foundation
import Hummingbird
import HummingbirdBcrypt

/// 003 "认证 API": register, login, refresh, logout. Email verification is in
/// `NovaVerification`, the failed-login limit in `NovaFailureLimit`.
enum NovaAuth {
    static func register(on router: CatalogRouter, state: SandboxState) {
        router.post("/auth/register") { request, _ in try await signUp(request, state) }
        router.post("/auth/login") { request, _ in try await login(request, state) }
        router.post("/auth/refresh") { request, _ in try await refresh(request, state) }
        router.post("/auth/logout") { request, _ in
            let userID = try Caller.user()
            // The client drops its tokens; every refresh token of the user stops working.
            try state.store.query("UPDATE refresh_tokens SET revoked = 1 WHERE user_id = ?", [.text(userID)])
            return Response(status: .noContent)
        }
        router.get("/users/me") { request, _ in
            let userID = try Caller.user()
            return JSONResponse.make(.ok, try await NovaUsers.user(userID, viewer: userID, state))
        }
    }

    /// `{user, tokens: {access_token, refresh_token, expires_in, token_type}}`.
    static func session(_ userID: String, _ state: SandboxState) async throws -> JSONValue {
        let tokens = try await state.issueTokens(userID: userID)
        return .object([
            ("user", try await NovaUsers.user(userID, viewer: userID, state)),
            ("tokens", .object([
                ("access_token", .string(tokens.access)),
                ("refresh_token", .string(tokens.refresh)),
                ("expires_in", jsonNumber(state.configuration.accessTokenLifetime)),
                ("token_type", .string("Bearer")),
            ])),
        ])
    }

    static func signUp(_ request: Request, _ state: SandboxState) async throws -> Response {
        var fields = BodyFields(try await jsonObject(request))
        let email = fields.required("email")
        let username = fields.required("username")
        let password = fields.required("password", trim: false)
        for (name, problem) in [("email", NovaRules.email(email)), ("username", NovaRules.username(username)),
                                ("password", NovaRules.password(password))] {
            if let problem { fields.reject(name, problem) }
        }
        try fields.check()
        if try state.store.query("SELECT 1 FROM users WHERE email = ?", [.text(email)]).first != nil {
            throw APIFailure(status: .conflict, code: "EMAIL_EXISTS", message: "an account with this email already exists")
        }
        if try state.store.query("SELECT 1 FROM users WHERE username = ?", [.text(username)]).first != nil {
            throw APIFailure(status: .conflict, code: "USERNAME_EXISTS", message: "this username is taken")
        }
        let hash = await hashPassword(password)
        let userID = NovaID.new()
        try state.store.query("""
            INSERT INTO users (id, username, email, password_hash, is_verified, created_at) VALUES (?, ?, ?, ?, 0, ?)
            """, [.text(userID), .text(username), .text(email), .text(hash), .text(NovaTime.iso(state.now))])
        try await NovaVerification.send(to: userID, email: email, state)
        return JSONResponse.make(.created, try await session(userID, state))
    }

    static func login(_ request: Request, _ state: SandboxState) async throws -> Response {
        var fields = BodyFields(try await jsonObject(request))
        let email = fields.required("email")
        let password = fields.required("password", trim: false)
        try fields.check()
        let limit = NovaFailureLimit.login(email)
        if let wait = try await limit.retryAfter(state) { throw NovaFailureLimit.tooMany(wait, "failed logins") }
        let userID: String
        do {
            userID = try await state.checkPassword(email: email, password: password)
        } catch let failure as APIFailure where failure.code == "INVALID_CREDENTIALS" {
            try await limit.recordFailure(state)
            throw failure
        }
        try await limit.clear(state)
        return JSONResponse.make(.ok, try await session(userID, state))
    }

    /// 003: `{refresh_token}` → `{access_token, expires_in}`. No new refresh
    /// token is handed out, so the one the client holds must keep working until
    /// it expires or the user logs out: unlike LinkU, it is not rotated.
    static func refresh(_ request: Request, _ state: SandboxState) async throws -> Response {
        var fields = BodyFields(try await jsonObject(request))
        let token = fields.required("refresh_token")
        try fields.check()
        state.counters.increment("refresh")
        let invalid = APIFailure.unauthorized("refresh token invalid, expired or revoked; log in again", code: "INVALID_REFRESH_TOKEN")
        guard let claims = try? state.signer.verify(token, kind: "refresh", now: state.now) else { throw invalid }
        guard try state.store.query("SELECT 1 FROM refresh_tokens WHERE jti = ? AND revoked = 0", [.text(claims.id)]).first != nil,
              try state.store.query("SELECT 1 FROM users WHERE id = ?", [.text(claims.subject)]).first != nil else { throw invalid }
        let lifetime = state.configuration.accessTokenLifetime
        let access = state.signer.sign(.init(subject: claims.subject, kind: "access", expires: state.now + lifetime,
                                             generation: try await state.generation(), id: UUID().uuidString))
        return JSONResponse.make(.ok, .object([("access_token", .string(access)), ("expires_in", jsonNumber(lifetime))]))
    }

    static func hashPassword(_ password: String) async -> String {
        // bcrypt is deliberately slow: keep it off the event loop.
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Bcrypt.hash(password, cost: 10)) }
        }
    }
}
