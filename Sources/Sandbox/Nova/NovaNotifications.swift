import Core
import Hummingbird

/// 003 "Notification API": the caller's notifications, newest first, by
/// cursor, with the unread count; marking one or all read. Another user's
/// notification answers 404, as if it did not exist.
enum NovaNotifications {
    static func register(on router: CatalogRouter, state: SandboxState) {
        router.get("/notifications") { request, _ in try await list(request, state) }
        router.put("/notifications/read-all") { request, _ in
            let viewer = try Caller.user()
            try state.store.query("UPDATE notifications SET is_read = 1 WHERE user_id = ?", [.text(viewer)])
            return Response(status: .noContent)
        }
        router.put("/notifications/{id}/read") { request, context in
            let viewer = try Caller.user()
            let id = NovaID.normalize(context.parameters.get("id")) ?? ""
            let updated = try state.store.query("UPDATE notifications SET is_read = 1 WHERE id = ? AND user_id = ? RETURNING id",
                                                      [.text(id), .text(viewer)])
            guard !updated.isEmpty else { throw APIFailure.notFound("notification not found", code: "NOTIFICATION_NOT_FOUND") }
            return Response(status: .noContent)
        }
    }

    static func list(_ request: Request, _ state: SandboxState) async throws -> Response {
        let viewer = try Caller.user()
        let page = try NovaCursorPage(request, list: "notifications")
        let rows = try state.store.query("""
            SELECT n.seq, n.id, n.type, n.actor_id, n.post_id, n.is_read, n.created_at, \(NovaJSON.authorColumns)
            FROM notifications n JOIN users u ON u.id = n.actor_id
            WHERE n.user_id = ? AND n.seq < ? ORDER BY n.seq DESC LIMIT ?
            """, [.text(viewer), .integer(page.before), .integer(page.fetch)])
        let (shown, next) = page.page(rows)
        // The posts the page mentions, fetched in one query.
        let postIDs = Set(shown.compactMap { $0.optionalText("post_id") })
        var posts: [String: JSONValue] = [:]
        if !postIDs.isEmpty {
            let marks = Array(repeating: "?", count: postIDs.count).joined(separator: ", ")
            let base = NovaJSON.base(request)
            for row in try state.store.query("\(NovaJSON.postSelect) WHERE p.id IN (\(marks))", [.text(viewer)] + postIDs.map { .text($0) }) {
                posts[row.text("id")] = NovaJSON.post(row, base: base, viewer: viewer)
            }
        }
        let unread = try state.store.query("SELECT COUNT(*) AS n FROM notifications WHERE user_id = ? AND is_read = 0",
                                                 [.text(viewer)]).first?.int("n") ?? 0
        return JSONResponse.make(.ok, .object([
            ("notifications", .array(shown.map { row in
                let post = row.optionalText("post_id")
                return .object([
                    ("id", .string(row.text("id"))),
                    ("type", .string(row.text("type"))),
                    ("actor_id", .string(row.text("actor_id"))),
                    ("post_id", NovaJSON.text(post)),
                    ("is_read", .bool(row.int("is_read") != 0)),
                    ("created_at", .string(NovaTime.iso(row.double("created_at")))),
                    ("actor", NovaJSON.user(row, prefix: "u_", viewer: viewer)),
                    ("post", post.flatMap { posts[$0] } ?? .null),
                ])
            })),
            ("next_cursor", next),
            ("unread_count", .int(unread)),
        ]))
    }
}
