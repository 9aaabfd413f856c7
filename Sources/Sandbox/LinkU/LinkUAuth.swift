import Core
import Foundation
import Hummingbird
import HummingbirdBcrypt
import NIOCore

/// `/api/secure-auth/*` and registration. Every way in (password, emailed
/// code, SMS code, registering) answers the same session object, so a client
/// parses one shape.
enum LinkUAuth {
    static func register(on router: CatalogRouter, state: SandboxState) {
        router.post("/api/secure-auth/login") { request, _ in try await login(request, state) }
        router.post("/api/secure-auth/login-with-code") { request, _ in try await loginWithCode(request, state, .email) }
        router.post("/api/secure-auth/login-with-phone-code") { request, _ in try await loginWithCode(request, state, .phone) }
        router.post("/api/secure-auth/refresh") { request, _ in try await refresh(request, state) }
        router.post("/api/secure-auth/logout") { request, _ in try await logout(request, state) }
        // Public although 001's set omits it: the captcha is shown on the login form, before any token exists.
        router.get("/api/secure-auth/captcha-site-key") { _, _ in
            JSONResponse.make(.ok, .object([
                ("site_key", .string("sandbox-captcha-disabled")),
                ("enabled", .bool(false)),
            ]))
        }
        router.post("/api/users/register") { request, _ in try await registerUser(request, state) }
    }

    /// `{access_token, refresh_token, token_type, expires_in, user}`.
    static func session(_ userID: Int, _ state: SandboxState, status: HTTPResponse.Status = .ok) async throws -> Response {
        let tokens = try await state.issueTokens(userID: String(userID))
        return JSONResponse.make(status, .object([
            ("access_token", .string(tokens.access)),
            ("refresh_token", .string(tokens.refresh)),
            ("token_type", .string("bearer")),
            ("expires_in", jsonNumber(state.configuration.accessTokenLifetime)),
            ("user", try await LinkUUsers.profile(userID, state)),
        ]))
    }

    static func login(_ request: Request, _ state: SandboxState) async throws -> Response {
        var fields = try await BodyFields.read(request)
        let email = fields.text("email", required: true, max: 254)
        let password = fields.secret("password", max: 1024)
        try fields.check()
        let userID = try await state.checkPassword(email: email!, password: password!)
        return try await session(Int(userID) ?? 0, state)
    }

    /// `{email, verification_code}` or `{phone, verification_code}`. A right
    /// code for an address with no account is a 404 and stays usable, so the
    /// same code can then register.
    static func loginWithCode(_ request: Request, _ state: SandboxState, _ channel: LinkUVerificationCodes.Channel) async throws -> Response {
        var fields = try await BodyFields.read(request)
        let target = channel == .email ? fields.email(required: true) : fields.phone(required: true)
        let code = fields.text("verification_code", required: true, max: 10)
        try fields.check()
        let rejection = { (reason: String) in APIFailure.unauthorized(reason, code: "INVALID_VERIFICATION_CODE") }
        let codeID = try await LinkUVerificationCodes.check(state, channel, target: target!, purpose: "auth", code: code!, rejection: rejection)
        let column = channel == .email ? "email" : "phone"
        guard let userID = try state.store.query("SELECT id FROM users WHERE \(column) = ?", [.text(target!)]).first?.int("id") else {
            throw APIFailure.notFound("no account with \(column) \(target!); register with POST /api/users/register", code: "USER_NOT_FOUND")
        }
        guard try await LinkUVerificationCodes.spend(state, codeID) else { throw rejection("the code was already used; request a new one") }
        state.counters.increment("login")
        return try await session(userID, state)
    }

    static func refresh(_ request: Request, _ state: SandboxState) async throws -> Response {
        var fields = try await BodyFields.read(request)
        let token = fields.secret("refresh_token", max: 4096)
        try fields.check()
        let rotated = try await state.rotate(refreshToken: token!)
        return JSONResponse.make(.ok, .object([
            ("access_token", .string(rotated.access)),
            ("refresh_token", .string(rotated.refresh)),
            ("token_type", .string("bearer")),
            ("expires_in", jsonNumber(state.configuration.accessTokenLifetime)),
        ]))
    }

    /// Revokes the given refresh token, or all of the user's when none is given.
    static func logout(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.user()
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: 1 << 20) } catch is NIOTooManyBytesError { throw BodyFields.tooLarge }
        // Lenient on purpose: a body that is not JSON still logs out (every session).
        let token = (try? JSONParser.parse(Array(buffer.readableBytesView)))?["refresh_token"]?.stringValue
        if let token, let claims = try? state.signer.verify(token, kind: "refresh", now: state.now), claims.subject == userID {
            try state.store.query("UPDATE refresh_tokens SET revoked = 1 WHERE jti = ?", [.text(claims.id)])
        } else {
            try state.store.query("UPDATE refresh_tokens SET revoked = 1 WHERE user_id = ?", [.text(userID)])
        }
        return JSONResponse.make(.ok, .object([("message", .string("logged out"))]))
    }

    /// Seed 000: "at least 8 characters, with letters and digits".
    static func passwordProblem(_ password: String) -> String? {
        guard password.count >= 8, password.count <= 128,
              password.contains(where: \.isLetter), password.contains(where: \.isNumber) else {
            return "8 to 128 characters, with at least one letter and one digit"
        }
        return nil
    }

    /// `{email, password, verification_code, username?}` → 201 and a session
    /// (seed 000: "registered users are logged in").
    static func registerUser(_ request: Request, _ state: SandboxState) async throws -> Response {
        var fields = try await BodyFields.read(request)
        let email = fields.email(required: true)
        let password = fields.secret("password", max: 1024)
        if let password, let problem = passwordProblem(password) { fields.reject("password", problem) }
        let username = fields.text("username", min: 2, max: 30)
        let code = fields.text("verification_code", required: true, max: 10)
        try fields.check()
        try await LinkUUsers.ensureFree(state, column: "email", value: email!, field: "email", for: nil)
        let rejection = { (reason: String) in APIFailure.invalid("verification_code", reason) }
        try await LinkUVerificationCodes.redeem(state, .email, target: email!, purpose: "auth", code: code!, rejection: rejection)
        let hash = await bcrypt(password!)
        let name = username ?? String(email!.prefix { $0 != "@" }.prefix(30))
        let inserted = try state.store.query("""
            INSERT INTO users (email, username, password_hash, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT DO NOTHING RETURNING id
            """, [.text(email!), .text(name), .text(hash), .text(state.timestamp)])
        guard let userID = inserted.first?.int("id") else {
            throw APIFailure.conflict("an account with this email already exists", code: "EMAIL_TAKEN")
        }
        return try await session(userID, state, status: .created)
    }

    /// bcrypt is deliberately slow: keep it off the event loop.
    static func bcrypt(_ password: String) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Bcrypt.hash(password, cost: 10)) }
        }
    }
}
