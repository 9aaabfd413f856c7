import Core
import Hummingbird
import SQLiteNIO

/// Profiles: the caller's own (with email and phone) and anyone's public
/// one (without). Email and phone changes need a code sent to the new address.
enum LinkUUsers {
    static func register(on router: CatalogRouter, state: SandboxState) {
        router.get("/api/users/profile/me") { request, _ in
            JSONResponse.make(.ok, try await profile(try Caller.number(), state))
        }
        router.put("/api/users/profile/me") { request, _ in try await update(request, state) }
        router.get("/api/users/profile/{userId}") { request, context in
            _ = try Caller.number()
            return JSONResponse.make(.ok, try await publicProfile(try pathID(context, "userId", what: "user"), state))
        }
    }

    /// The private profile: what only the user sees about themselves.
    static func profile(_ id: Int, _ state: SandboxState) async throws -> JSONValue {
        guard let row = try state.store.query(
            "SELECT id, email, username, phone, avatar, bio, city, created_at FROM users WHERE id = ?", [.integer(id)]).first else {
            throw APIFailure.notFound("user \(id) not found", code: "USER_NOT_FOUND")
        }
        return .object([
            ("id", .int(row.int("id"))),
            ("email", .string(row.text("email"))),
            ("username", .string(row.text("username"))),
            ("phone", row.optionalString("phone")),
            ("avatar", row.optionalString("avatar")),
            ("bio", .string(row.text("bio"))),
            ("city", .string(row.text("city"))),
            ("created_at", .string(row.text("created_at"))),
        ])
    }

    /// What anyone logged in may see: no email, no phone.
    static func publicProfile(_ id: Int, _ state: SandboxState) async throws -> JSONValue {
        guard let row = try state.store.query("""
            SELECT id, username, avatar, bio, city, created_at,
                (SELECT COUNT(*) FROM tasks WHERE poster_id = users.id) AS posted_tasks,
                (SELECT COUNT(*) FROM tasks WHERE taker_id = users.id AND status IN ('completed', 'confirmed')) AS completed_tasks
            FROM users WHERE id = ?
            """, [.integer(id)]).first else {
            throw APIFailure.notFound("user \(id) not found", code: "USER_NOT_FOUND")
        }
        return .object([
            ("id", .int(row.int("id"))),
            ("username", .string(row.text("username"))),
            ("avatar", row.optionalString("avatar")),
            ("bio", .string(row.text("bio"))),
            ("city", .string(row.text("city"))),
            ("posted_tasks", .int(row.int("posted_tasks"))),
            ("completed_tasks", .int(row.int("completed_tasks"))),
            ("created_at", .string(row.text("created_at"))),
        ])
    }

    /// `{id, username, avatar}` of a joined user whose columns carry `prefix`
    /// (`author_username`…), embedded in posts, items and participants.
    static func summary(_ row: StoreRow, _ prefix: String) -> JSONValue {
        .object([
            ("id", .int(row.int(prefix + "id"))),
            ("username", .string(row.text(prefix + "username"))),
            ("avatar", row.optionalString(prefix + "avatar")),
        ])
    }

    /// SQL columns for `summary`: `users` joined as `alias`.
    static func summaryColumns(_ alias: String, _ prefix: String) -> String {
        "\(alias).id AS \(prefix)id, \(alias).username AS \(prefix)username, \(alias).avatar AS \(prefix)avatar"
    }

    /// A user's name for a notification's text.
    static func username(_ id: Int, _ state: SandboxState) async throws -> String {
        try state.store.query("SELECT username FROM users WHERE id = ?", [.integer(id)]).first?.text("username") ?? "someone"
    }

    /// 409 when another account already uses this email or phone.
    static func ensureFree(_ state: SandboxState, column: String, value: String, field: String, for userID: Int?) async throws {
        let owner = try state.store.query("SELECT id FROM users WHERE \(column) = ?", [.text(value)]).first?.int("id")
        guard let owner, owner != userID else { return }
        throw APIFailure.conflict("another account already uses this \(column)", code: column == "email" ? "EMAIL_TAKEN" : "PHONE_TAKEN",
                                  details: [(field, .string("already used by another account"))])
    }

    /// PUT: any of username, bio, city, avatar; email with
    /// `email_verification_code`, phone with `phone_verification_code`
    /// (codes from send-email-update-code / send-phone-update-code). Other
    /// fields are ignored, so a client may send back the profile it read.
    static func update(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        var fields = try await BodyFields.read(request)
        var changes: [(column: String, value: SQLiteData)] = []
        if let username = fields.text("username", required: fields.has("username"), min: 2, max: 30) { changes.append(("username", .text(username))) }
        if let bio = fields.text("bio", max: 500) { changes.append(("bio", .text(bio))) }
        if let city = fields.text("city", max: 50) { changes.append(("city", .text(city))) }
        if let avatar = fields.text("avatar", max: 500) {
            if BodyFields.isHTTPURL(avatar) { changes.append(("avatar", .text(avatar))) } else { fields.reject("avatar", "must be an http or https URL") }
        }
        let current = try await profile(userID, state)
        var codes: [(channel: LinkUVerificationCodes.Channel, target: String, code: String)] = []
        for (channel, name) in [(LinkUVerificationCodes.Channel.email, "email"), (.phone, "phone")] {
            let value = channel == .email ? fields.email(name) : fields.phone(name)
            guard let value, value != current[name]?.stringValue else { continue }
            guard let code = fields.text("\(name)_verification_code", required: true, max: 10) else { continue }
            codes.append((channel, value, code))
            changes.append((name, .text(value)))
        }
        if changes.isEmpty && fields.problems.isEmpty {
            fields.reject("body", "nothing to update: send username, bio, city, avatar, email or phone")
        }
        try fields.check()
        for change in codes {
            try await ensureFree(state, column: change.channel.rawValue, value: change.target, field: change.channel.rawValue, for: userID)
            try await LinkUVerificationCodes.redeem(state, change.channel, target: change.target, purpose: "\(change.channel.rawValue)_update",
                                                    userID: userID, code: change.code,
                                                    rejection: { APIFailure.invalid("\(change.channel.rawValue)_verification_code", $0) })
        }
        try state.store.query("UPDATE users SET " + changes.map { "\($0.column) = ?" }.joined(separator: ", ") + " WHERE id = ?",
                                    changes.map(\.value) + [.integer(userID)])
        return JSONResponse.make(.ok, try await profile(userID, state))
    }
}
