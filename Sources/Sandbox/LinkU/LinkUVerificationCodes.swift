import Core
import Foundation
import Hummingbird
import SQLiteNIO

/// Six-digit codes "sent" by email or SMS. The sandbox sends nothing: it
/// logs each code (`SandboxState.log`) and shows it on the
/// sandbox-only `GET /__sandbox/verification-codes`. A code lives 10
/// minutes, works once, dies after 5 wrong tries, and a newer code for the
/// same address and purpose replaces it. One code per minute per address.
enum LinkUVerificationCodes {
    static let lifetime = 600.0
    static let resendInterval = 60.0
    static let maxAttempts = 5

    enum Channel: String { case email, phone }

    static func register(on router: CatalogRouter, state: SandboxState) {
        router.post("/api/secure-auth/send-verification-code") { request, _ in
            var fields = try await BodyFields.read(request)
            let email = fields.email(required: true)
            try fields.check()
            return try await send(state, .email, to: email!, purpose: "auth")
        }
        router.post("/api/secure-auth/send-phone-verification-code") { request, _ in
            var fields = try await BodyFields.read(request)
            let phone = fields.phone(required: true)
            try fields.check()
            return try await send(state, .phone, to: phone!, purpose: "auth")
        }
        router.post("/api/users/profile/send-email-update-code") { request, _ in
            let userID = try Caller.number()
            var fields = try await BodyFields.read(request)
            let email = fields.email("new_email", required: true)
            try fields.check()
            try await LinkUUsers.ensureFree(state, column: "email", value: email!, field: "new_email", for: userID)
            return try await send(state, .email, to: email!, purpose: "email_update", userID: userID)
        }
        router.post("/api/users/profile/send-phone-update-code") { request, _ in
            let userID = try Caller.number()
            var fields = try await BodyFields.read(request)
            let phone = fields.phone("new_phone", required: true)
            try fields.check()
            try await LinkUUsers.ensureFree(state, column: "phone", value: phone!, field: "new_phone", for: userID)
            return try await send(state, .phone, to: phone!, purpose: "phone_update", userID: userID)
        }
        router.outsideCatalog(.get, "/__sandbox/verification-codes") { request, _ in try await listSent(request, state) }
    }

    /// Issues a code, replacing any earlier one for the same address and purpose.
    static func send(_ state: SandboxState, _ channel: Channel, to target: String, purpose: String, userID: Int? = nil) async throws -> Response {
        let now = state.now
        let recent = try state.store.query("""
            SELECT sent_at FROM verification_codes WHERE channel = ? AND target = ? AND purpose = ? AND status = 'active'
            ORDER BY id DESC LIMIT 1
            """, [.text(channel.rawValue), .text(target), .text(purpose)]).first
        if let sentAt = recent?.column("sent_at")?.double, now - sentAt < resendInterval {
            let wait = Int((resendInterval - (now - sentAt)).rounded(.up))
            throw APIFailure.rateLimited(code: "TOO_MANY_REQUESTS", "a code was sent less than a minute ago; try again in \(wait) s",
                                         retryAfter: wait)
        }
        try state.store.query("""
            UPDATE verification_codes SET status = 'superseded'
            WHERE channel = ? AND target = ? AND purpose = ? AND status = 'active'
            """, [.text(channel.rawValue), .text(target), .text(purpose)])
        let code = String(format: "%06d", Int.random(in: 0..<1_000_000))
        try state.store.query("""
            INSERT INTO verification_codes (channel, target, purpose, user_id, code, sent_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [.text(channel.rawValue), .text(target), .text(purpose), userID.map { .integer($0) } ?? .null,
                  .text(code), .float(now), .float(now + lifetime)])
        state.log("sandbox \(channel.rawValue) to \(target): \(purpose) verification code \(code) (valid \(Int(lifetime / 60)) minutes)")
        return JSONResponse.make(.ok, .object([
            ("message", .string("verification code sent to \(target)")),
            ("expires_in", .int(Int(lifetime))),
            ("resend_after", .int(Int(resendInterval))),
        ]))
    }

    /// Checks `code` against the newest code sent to `target` for `purpose`
    /// without spending it, so a caller can still refuse for another reason
    /// (no such account) and leave the code usable. Answers the code's row
    /// id; a wrong code counts as one of the 5 tries. `rejection` words the
    /// failure for the caller (401 for a login, 422 for a form field).
    static func check(_ state: SandboxState, _ channel: Channel, target: String, purpose: String, userID: Int? = nil,
                      code: String, rejection: (String) -> APIFailure) async throws -> Int {
        var sql = "SELECT id, code, expires_at, attempts, status FROM verification_codes WHERE channel = ? AND target = ? AND purpose = ?"
        var binds: [SQLiteData] = [.text(channel.rawValue), .text(target), .text(purpose)]
        if let userID {
            sql += " AND user_id = ?"
            binds.append(.integer(userID))
        }
        guard let row = try state.store.query(sql + " ORDER BY id DESC LIMIT 1", binds).first,
              row.text("status") == "active" else {
            throw rejection("no unused code was sent to \(target); request a new one")
        }
        guard row.double("expires_at") > state.now else { throw rejection("the code expired; request a new one") }
        guard row.text("code") == code else {
            let attempts = row.int("attempts") + 1
            let burned = attempts >= maxAttempts
            try state.store.query("UPDATE verification_codes SET attempts = ?, status = ? WHERE id = ?",
                                        [.integer(attempts), .text(burned ? "burned" : "active"), .integer(row.int("id"))])
            throw rejection(burned ? "incorrect code, and that was the last try; request a new one" : "incorrect code")
        }
        return row.int("id")
    }

    /// Spends a checked code. False when a concurrent request spent it first.
    static func spend(_ state: SandboxState, _ id: Int) async throws -> Bool {
        let spent = try state.store.query(
            "UPDATE verification_codes SET status = 'used' WHERE id = ? AND status = 'active' RETURNING id", [.integer(id)])
        return !spent.isEmpty
    }

    /// `check` then `spend`, for callers with nothing to refuse in between.
    static func redeem(_ state: SandboxState, _ channel: Channel, target: String, purpose: String, userID: Int? = nil,
                       code: String, rejection: (String) -> APIFailure) async throws {
        let id = try await check(state, channel, target: target, purpose: purpose, userID: userID, code: code, rejection: rejection)
        guard try await spend(state, id) else { throw rejection("the code was already used; request a new one") }
    }

    /// The codes sent to one address, newest first (sandbox only).
    static func listSent(_ request: Request, _ state: SandboxState) async throws -> Response {
        var query = ListQuery(request)
        if let email = query.text("email") {
            query.filter("channel = 'email' AND target = ?", .text(email))
        } else if let phone = query.text("phone") {
            query.filter("channel = 'phone' AND target = ?", .text(phone.filter { $0 != " " && $0 != "-" }))
        } else {
            query.reject("email", "give email=… or phone=…")
        }
        let now = state.now
        return try await query.respond(state, key: "codes", select: "*", from: "verification_codes", order: "id DESC") { row in
            let status = row.text("status") == "active" && row.double("expires_at") <= now ? "expired" : row.text("status")
            return .object([
                ("code", .string(row.text("code"))),
                ("channel", .string(row.text("channel"))),
                ("target", .string(row.text("target"))),
                ("purpose", .string(row.text("purpose"))),
                ("status", .string(status)),
                ("sent_at", .string(iso8601(row.double("sent_at")))),
                ("expires_at", .string(iso8601(row.double("expires_at")))),
            ])
        }
    }
}
