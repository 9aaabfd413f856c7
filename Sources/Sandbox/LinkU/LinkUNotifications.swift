import Core
import Hummingbird
import SQLiteNIO

/// A user's notifications. They are written by real events elsewhere
/// (`notify`): an application for your task, your application accepted or
/// rejected, your task completed or confirmed or cancelled, your item sold,
/// a reply to your post, an application for your expert service.
enum LinkUNotifications {
    static func register(on router: CatalogRouter, state: SandboxState) {
        router.get("/api/users/notifications") { request, _ in try await list(request, state, unreadOnly: false) }
        router.get("/api/users/notifications/unread") { request, _ in try await list(request, state, unreadOnly: true) }
        router.post("/api/users/notifications/{id}/read") { request, context in
            let userID = try Caller.number()
            let id = try pathID(context, what: "notification")
            // Someone else's notification is as unknown to you as a missing one.
            guard let row = try state.store.query(
                "UPDATE notifications SET is_read = 1 WHERE id = ? AND user_id = ? RETURNING *", [.integer(id), .integer(userID)]).first else {
                throw APIFailure.notFound("notification \(id) not found", code: "NOTIFICATION_NOT_FOUND")
            }
            return JSONResponse.make(.ok, json(row))
        }
        router.post("/api/users/notifications/read-all") { request, _ in
            let userID = try Caller.number()
            let marked = try state.store.query(
                "UPDATE notifications SET is_read = 1 WHERE user_id = ? AND is_read = 0 RETURNING id", [.integer(userID)])
            return JSONResponse.make(.ok, .object([
                ("message", .string("every notification is read")),
                ("marked_read", .int(marked.count)),
            ]))
        }
    }

    /// Newest first; `/unread` keeps only unread ones (its `total` is the badge count).
    static func list(_ request: Request, _ state: SandboxState, unreadOnly: Bool) async throws -> Response {
        let userID = try Caller.number()
        var query = ListQuery(request)
        query.filter("user_id = ?", .integer(userID))
        if unreadOnly { query.filter("is_read = 0") }
        return try await query.respond(state, key: "notifications", select: "*", from: "notifications",
                                       order: "created_at DESC, id DESC", map: json)
    }

    static func json(_ row: StoreRow) -> JSONValue {
        .object([
            ("id", .int(row.int("id"))),
            ("type", .string(row.text("type"))),
            ("title", .string(row.text("title"))),
            ("content", .string(row.text("content"))),
            ("related_type", row.optionalString("related_type")),
            ("related_id", row.optionalInt("related_id")),
            ("is_read", .flag(row.int("is_read"))),
            ("created_at", .string(row.text("created_at"))),
        ])
    }

    /// Records an event for `userID`.
    static func notify(_ state: SandboxState, _ userID: Int, type: String, title: String, content: String,
                       about related: (type: String, id: Int)) async throws {
        try state.store.query("""
            INSERT INTO notifications (user_id, type, title, content, related_type, related_id, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [.integer(userID), .text(type), .text(title), .text(content), .text(related.type), .integer(related.id), .text(state.timestamp)])
    }
}
