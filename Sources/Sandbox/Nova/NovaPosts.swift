import Core
import Hummingbird
import SQLiteNIO

/// 003 "Post API": create from an uploaded file, read, delete (author only),
/// like and unlike. Counts are computed from the likes and comments
/// themselves, so they cannot drift; liking twice is one like.
enum NovaPosts {
    static func register(on router: CatalogRouter, state: SandboxState) {
        router.post("/posts") { request, _ in try await create(request, state) }
        router.get("/posts/{id}") { request, context in
            let viewer = try Caller.user()
            let row = try await post(context.parameters.get("id"), viewer: viewer, state)
            return JSONResponse.make(.ok, .object([("post", NovaJSON.post(row, base: NovaJSON.base(request), viewer: viewer))]))
        }
        router.delete("/posts/{id}") { request, context in
            let viewer = try Caller.user()
            let row = try await post(context.parameters.get("id"), viewer: viewer, state)
            guard row.text("user_id") == viewer else {
                throw APIFailure(status: .forbidden, code: "FORBIDDEN", message: "only the post's author can delete it")
            }
            try state.store.query("DELETE FROM posts WHERE id = ?", [.text(row.text("id"))])
            try state.store.query("DELETE FROM uploads WHERE file_key = ?", [.text(row.text("file_key"))])
            return Response(status: .noContent)
        }
        router.post("/posts/{id}/like") { request, context in try await like(request, context.parameters.get("id"), liked: true, state) }
        router.delete("/posts/{id}/like") { request, context in try await like(request, context.parameters.get("id"), liked: false, state) }
    }

    /// A post as seen by `viewer`, or 404 POST_NOT_FOUND.
    static func post(_ raw: String?, viewer: String, _ state: SandboxState) async throws -> StoreRow {
        guard let id = NovaID.normalize(raw),
              let row = try state.store.query("\(NovaJSON.postSelect) WHERE p.id = ?", [.text(viewer), .text(id)]).first else {
            throw APIFailure.notFound("post not found", code: "POST_NOT_FOUND")
        }
        return row
    }

    /// `{file_key, caption?}` → 201 `{post}`. The key must be one of the
    /// caller's upload URLs, already holding an image and not used by a post.
    static func create(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.user()
        var fields = BodyFields(try await jsonObject(request))
        let rawKey = fields.required("file_key")
        let caption = fields.text("caption", trim: false)
        try fields.check()
        if let caption, caption.count > NovaRules.captionMax {
            throw APIFailure(status: .unprocessableContent, code: "CAPTION_TOO_LONG",
                             message: "the caption is longer than \(NovaRules.captionMax) characters",
                             details: [("caption", .string("at most \(NovaRules.captionMax) characters, got \(caption.count)"))])
        }
        let key = NovaID.normalize(rawKey) ?? ""
        let upload = try state.store.query("SELECT user_id, content_type FROM uploads WHERE file_key = ?", [.text(key)]).first
        guard let upload, upload.text("user_id") == userID else {
            throw APIFailure.validation([("file_key", .string("unknown file_key; get one from POST /posts/upload-url"))])
        }
        guard upload.optionalText("content_type") != nil else {
            throw APIFailure.validation([("file_key", .string("nothing was uploaded yet; PUT the image to upload_url first"))])
        }
        guard try state.store.query("SELECT 1 FROM posts WHERE file_key = ?", [.text(key)]).first == nil else {
            throw APIFailure.validation([("file_key", .string("already used by another post"))])
        }
        let id = NovaID.new()
        let trimmed = caption?.trimmingCharacters(in: .whitespacesAndNewlines)
        let stored = trimmed?.isEmpty == false ? trimmed : nil
        try state.store.query("INSERT INTO posts (id, user_id, file_key, caption, created_at) VALUES (?, ?, ?, ?, ?)",
                                    [.text(id), .text(userID), .text(key), stored.map { .text($0) } ?? .null, .float(state.now)])
        if let stored {
            try await NovaNotifier.mentions(in: stored, .init(kind: .mention, actor: userID, post: id, at: state.now), skip: [], state.store)
        }
        let row = try await post(id, viewer: userID, state)
        return JSONResponse.make(.created, .object([("post", NovaJSON.post(row, base: NovaJSON.base(request), viewer: userID))]))
    }

    /// `{liked, like_count}`. Liking notifies the author once; unliking
    /// withdraws that notification.
    static func like(_ request: Request, _ raw: String?, liked: Bool, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.user()
        let row = try await post(raw, viewer: userID, state)
        let id = row.text("id")
        if liked {
            let inserted = try state.store.query(
                "INSERT OR IGNORE INTO likes (post_id, user_id, created_at) VALUES (?, ?, ?) RETURNING post_id",
                [.text(id), .text(userID), .float(state.now)])
            if !inserted.isEmpty {
                try await NovaNotifier.notify(row.text("user_id"), .init(kind: .like, actor: userID, post: id, at: state.now), state.store)
            }
        } else {
            try state.store.query("DELETE FROM likes WHERE post_id = ? AND user_id = ?", [.text(id), .text(userID)])
            try state.store.query("DELETE FROM notifications WHERE type = 'like' AND post_id = ? AND actor_id = ?", [.text(id), .text(userID)])
        }
        let count = try state.store.query("SELECT COUNT(*) AS n FROM likes WHERE post_id = ?", [.text(id)]).first?.int("n") ?? 0
        return JSONResponse.make(.ok, .object([("liked", .bool(liked)), ("like_count", .int(count))]))
    }
}
