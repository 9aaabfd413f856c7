import Core
import Hummingbird

/// 003 "Comment API". Comments read oldest first, as a conversation does;
/// the author of a comment or of its post may delete it.
enum NovaComments {
    static func register(on router: CatalogRouter, state: SandboxState) {
        router.get("/posts/{id}/comments") { request, context in
            let viewer = try Caller.user()
            let post = try await NovaPosts.post(context.parameters.get("id"), viewer: viewer, state).text("id")
            let page = try NovaCursorPage(request, list: "comments:\(post)")
            let rows = try state.store.query("\(NovaJSON.commentSelect) WHERE c.post_id = ? AND c.seq > ? ORDER BY c.seq LIMIT ?",
                                                   [.text(post), .integer(page.since), .integer(page.fetch)])
            let (shown, next) = page.page(rows)
            return JSONResponse.make(.ok, .object([
                ("comments", .array(shown.map { NovaJSON.comment($0, viewer: viewer) })),
                ("next_cursor", next),
            ]))
        }
        router.post("/posts/{id}/comments") { request, context in
            let viewer = try Caller.user()
            let post = try await NovaPosts.post(context.parameters.get("id"), viewer: viewer, state)
            var fields = BodyFields(try await jsonObject(request))
            let text = fields.required("text", max: NovaRules.commentMax)
            try fields.check()
            let id = NovaID.new()
            try state.store.query("INSERT INTO comments (id, post_id, user_id, text, created_at) VALUES (?, ?, ?, ?, ?)",
                                        [.text(id), .text(post.text("id")), .text(viewer), .text(text), .float(state.now)])
            let author = post.text("user_id")
            let event = NovaNotifier.Event(kind: .comment, actor: viewer, post: post.text("id"), comment: id, at: state.now)
            try await NovaNotifier.notify(author, event, state.store)
            try await NovaNotifier.mentions(in: text, event, skip: [author], state.store)
            guard let row = try state.store.query("\(NovaJSON.commentSelect) WHERE c.id = ?", [.text(id)]).first else {
                throw APIFailure.notFound("comment not found", code: "COMMENT_NOT_FOUND")
            }
            return JSONResponse.make(.created, .object([("comment", NovaJSON.comment(row, viewer: viewer))]))
        }
        router.delete("/comments/{id}") { request, context in
            let viewer = try Caller.user()
            guard let id = NovaID.normalize(context.parameters.get("id")),
                  let row = try state.store.query("""
                      SELECT c.user_id, p.user_id AS post_author FROM comments c JOIN posts p ON p.id = c.post_id WHERE c.id = ?
                      """, [.text(id)]).first else {
                throw APIFailure.notFound("comment not found", code: "COMMENT_NOT_FOUND")
            }
            guard viewer == row.text("user_id") || viewer == row.text("post_author") else {
                throw APIFailure(status: .forbidden, code: "FORBIDDEN", message: "only the comment's author or the post's author can delete it")
            }
            try state.store.query("DELETE FROM comments WHERE id = ?", [.text(id)])
            return Response(status: .noContent)
        }
    }
}
