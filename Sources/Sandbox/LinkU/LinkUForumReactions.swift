import Core
import Hummingbird
import SQLiteNIO

/// Likes and favourites are toggles (`SandboxState.toggle`), like the app's heart button: each call
/// flips the state and the answer says where it landed (`liked`,
/// `favorited`) with the new count, so a client never has to guess.
enum LinkUForumReactions {
    static func register(on router: CatalogRouter, state: SandboxState) {
        // `{target_type: "post" | "reply", target_id}`.
        router.post("/api/forum/likes") { request, _ in
            let userID = try Caller.number()
            var fields = try await BodyFields.read(request)
            let type = fields.choice("target_type", among: Profile.linku.values(of: "LikeTarget"), required: true)
            let id = fields.id("target_id", required: true)
            try fields.check()
            let table = type == "post" ? "forum_posts" : "forum_replies"
            guard try !state.store.query("SELECT 1 FROM \(table) WHERE id = ?", [.integer(id!)]).isEmpty else {
                throw APIFailure.notFound("\(type!) \(id!) not found", code: type == "post" ? "POST_NOT_FOUND" : "REPLY_NOT_FOUND")
            }
            let liked = try await state.toggle(table: "forum_likes", key: [("user_id", .integer(userID)), ("target_type", .text(type!)), ("target_id", .integer(id!))])
            let count = try state.store.query("SELECT COUNT(*) AS n FROM forum_likes WHERE target_type = ? AND target_id = ?",
                                                    [.text(type!), .integer(id!)])[0].int("n")
            return JSONResponse.make(.ok, .object([
                ("target_type", .string(type!)), ("target_id", .int(id!)), ("liked", .bool(liked)), ("like_count", .int(count)),
            ]))
        }
        // `{post_id}`.
        router.post("/api/forum/favorites") { request, _ in
            let userID = try Caller.number()
            var fields = try await BodyFields.read(request)
            let id = fields.id("post_id", required: true)
            try fields.check()
            guard try !state.store.query("SELECT 1 FROM forum_posts WHERE id = ?", [.integer(id!)]).isEmpty else {
                throw APIFailure.notFound("post \(id!) not found", code: "POST_NOT_FOUND")
            }
            let favorited = try await state.toggle(table: "forum_favorites", key: [("user_id", .integer(userID)), ("post_id", .integer(id!))])
            let count = try state.store.query("SELECT COUNT(*) AS n FROM forum_favorites WHERE post_id = ?", [.integer(id!)])[0].int("n")
            return JSONResponse.make(.ok, .object([
                ("post_id", .int(id!)), ("favorited", .bool(favorited)), ("favorite_count", .int(count)),
            ]))
        }
    }
}
