import Core
import Hummingbird

/// 003 "Follow API". Following twice is one follow; following yourself is a
/// 422. Follower and following lists are newest follow first, by cursor.
enum NovaFollows {
    static func register(on router: CatalogRouter, state: SandboxState) {
        router.post("/users/{id}/follow") { request, context in try await follow(request, context.parameters.get("id"), on: true, state) }
        router.delete("/users/{id}/follow") { request, context in try await follow(request, context.parameters.get("id"), on: false, state) }
        router.get("/users/{id}/followers") { request, context in
            try await list(request, context.parameters.get("id"), of: "followers", state)
        }
        router.get("/users/{id}/following") { request, context in
            try await list(request, context.parameters.get("id"), of: "following", state)
        }
    }

    /// `{following, follower_count}` (the followee's count after the change).
    static func follow(_ request: Request, _ raw: String?, on: Bool, _ state: SandboxState) async throws -> Response {
        let viewer = try Caller.user()
        let target = try await NovaUsers.existing(raw, state)
        guard target != viewer else {
            throw APIFailure(status: .unprocessableContent, code: "CANNOT_FOLLOW_SELF", message: "you cannot follow or unfollow yourself")
        }
        if on {
            let inserted = try state.store.query(
                "INSERT OR IGNORE INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?) RETURNING seq",
                [.text(viewer), .text(target), .float(state.now)])
            if !inserted.isEmpty {
                try await NovaNotifier.notify(target, .init(kind: .follow, actor: viewer, at: state.now), state.store)
            }
        } else {
            try state.store.query("DELETE FROM follows WHERE follower_id = ? AND followee_id = ?", [.text(viewer), .text(target)])
            try state.store.query("DELETE FROM notifications WHERE type = 'follow' AND user_id = ? AND actor_id = ?",
                                        [.text(target), .text(viewer)])
        }
        let count = try state.store.query("SELECT COUNT(*) AS n FROM follows WHERE followee_id = ?", [.text(target)]).first?.int("n") ?? 0
        return JSONResponse.make(.ok, .object([("following", .bool(on)), ("follower_count", .int(count))]))
    }

    /// `{users, next_cursor}`: who follows the user, or whom the user follows.
    static func list(_ request: Request, _ raw: String?, of kind: String, _ state: SandboxState) async throws -> Response {
        let viewer = try Caller.user()
        let target = try await NovaUsers.existing(raw, state)
        let page = try NovaCursorPage(request, list: "\(kind):\(target)")
        let (match, show) = kind == "followers" ? ("followee_id", "follower_id") : ("follower_id", "followee_id")
        let rows = try state.store.query("""
            SELECT f.seq, \(NovaJSON.authorColumns) FROM follows f JOIN users u ON u.id = f.\(show)
            WHERE f.\(match) = ? AND f.seq < ? ORDER BY f.seq DESC LIMIT ?
            """, [.text(target), .integer(page.before), .integer(page.fetch)])
        let (shown, next) = page.page(rows)
        return JSONResponse.make(.ok, .object([
            ("users", .array(shown.map { NovaJSON.user($0, prefix: "u_", viewer: viewer) })),
            ("next_cursor", next),
        ]))
    }
}
