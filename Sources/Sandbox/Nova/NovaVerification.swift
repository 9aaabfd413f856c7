import Core
import Foundation
import Hummingbird

/// 003 `POST /auth/verify-email {code}`. Registering "emails" a 6-digit code:
/// the sandbox sends no mail, it logs the code (when a log is configured) and
/// shows it at the sandbox-only `GET /__sandbox/verification-codes?email=…`.
/// A code lasts 10 minutes by `state.now` and works once; 5 wrong codes in
/// 10 minutes make the next attempts 429 (`NovaFailureLimit.verification`).
enum NovaVerification {
    static let lifetime = 600.0

    static func register(on router: CatalogRouter, state: SandboxState) {
        router.post("/auth/verify-email") { request, _ in try await verify(request, state) }
        router.get("/__sandbox/verification-codes") { request, _ in try await codes(request, state) }
    }

    static func send(to userID: String, email: String, _ state: SandboxState) async throws {
        let code = String(format: "%06d", Int.random(in: 0...999_999))
        try state.store.query("INSERT INTO email_codes (user_id, code, created_at, expires_at) VALUES (?, ?, ?, ?)",
                                    [.text(userID), .text(code), .float(state.now), .float(state.now + lifetime)])
        state.configuration.log?("nova: verification code \(code) for \(email) (no email is sent; also at GET /__sandbox/verification-codes?email=\(email))")
    }

    static func verify(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.user()
        let limit = NovaFailureLimit.verification(userID)
        if let wait = try await limit.retryAfter(state) { throw NovaFailureLimit.tooMany(wait, "wrong codes") }
        var fields = BodyFields(try await jsonObject(request))
        let code = fields.required("code")
        if !code.isEmpty, code.count != 6 || !code.allSatisfy({ $0.isASCII && $0.isNumber }) {
            fields.reject("code", "must be the 6-digit code from the email, as a string")
        }
        try fields.check()
        let row = try state.store.query("""
            SELECT rowid, expires_at, used FROM email_codes WHERE user_id = ? AND code = ? ORDER BY rowid DESC LIMIT 1
            """, [.text(userID), .text(code)]).first
        guard let row else {
            try await limit.recordFailure(state)
            throw APIFailure(status: .unprocessableContent, code: "INVALID_CODE", message: "wrong verification code")
        }
        guard row.int("used") == 0 else {
            throw APIFailure(status: .unprocessableContent, code: "INVALID_CODE", message: "this code was already used")
        }
        guard row.double("expires_at") > state.now else {
            throw APIFailure(status: .unprocessableContent, code: "CODE_EXPIRED", message: "this code expired; codes last 10 minutes")
        }
        try state.store.query("UPDATE email_codes SET used = 1 WHERE rowid = ?", [.integer(row.int("rowid"))])
        try state.store.query("UPDATE users SET is_verified = 1 WHERE id = ?", [.text(userID)])
        return JSONResponse.make(.ok, .object([("verified", .bool(true))]))
    }

    /// Sandbox only: the codes "emailed" to an address, newest first.
    static func codes(_ request: Request, _ state: SandboxState) async throws -> Response {
        guard let email = request.uri.queryParameters.get("email"), !email.isEmpty else {
            throw APIFailure.validation([("email", .string("required"))])
        }
        guard let user = try state.store.query("SELECT id, email FROM users WHERE email = ?", [.text(email)]).first else {
            throw APIFailure.notFound("no user with email \(email)", code: "USER_NOT_FOUND")
        }
        let rows = try state.store.query("SELECT code, created_at, expires_at, used FROM email_codes WHERE user_id = ? ORDER BY rowid DESC",
                                               [.text(user.text("id"))])
        return JSONResponse.make(.ok, .object([
            ("email", .string(user.text("email"))),
            ("codes", .array(rows.map { row in
                .object([
                    ("code", .string(row.text("code"))),
                    ("created_at", .string(NovaTime.iso(row.double("created_at")))),
                    ("expires_at", .string(NovaTime.iso(row.double("expires_at")))),
                    ("used", .bool(row.int("used") != 0)),
                    ("expired", .bool(row.double("expires_at") <= state.now)),
                ])
            })),
        ]))
    }
}
