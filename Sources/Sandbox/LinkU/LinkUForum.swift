import Core
import Hummingbird
import SQLiteNIO

/// The forum: visible categories and the post list are public (001); reading
/// a post, its replies, and writing need a token. Views are counted only by
/// `POST …/view`, so reading a post twice in a client does not inflate it.
enum LinkUForum {
    static func register(on router: CatalogRouter, state: SandboxState) {
        router.get("/api/forum/forums/visible") { request, _ in
            _ = try await state.optionalLinkuUser(request)
            var query = ListQuery(request)
            query.filter("is_visible = 1")
            let select = "id, name, description, (SELECT COUNT(*) FROM forum_posts p WHERE p.category_id = forum_categories.id) AS post_count"
            return try await query.respond(state, key: "forums", select: select, from: "forum_categories", order: "sort_order, id") { row in
                .object([
                    ("id", .int(row.int("id"))),
                    ("name", .string(row.text("name"))),
                    ("description", .string(row.text("description"))),
                    ("post_count", .int(row.int("post_count"))),
                ])
            }
        }
        router.get("/api/forum/posts") { request, _ in try await list(request, state) }
        router.post("/api/forum/posts") { request, _ in try await create(request, state) }
        router.get("/api/forum/posts/{id}") { request, context in
            let viewer = try Caller.number()
            return JSONResponse.make(.ok, try await post(try pathID(context, what: "post"), viewer: viewer, state))
        }
        router.post("/api/forum/posts/{id}/view") { request, context in
            _ = try Caller.number()
            let id = try pathID(context, what: "post")
            guard let row = try state.store.query(
                "UPDATE forum_posts SET view_count = view_count + 1 WHERE id = ? RETURNING view_count", [.integer(id)]).first else {
                throw APIFailure.notFound("post \(id) not found", code: "POST_NOT_FOUND")
            }
            return JSONResponse.make(.ok, .object([("post_id", .int(id)), ("view_count", .int(row.int("view_count")))]))
        }
        router.get("/api/forum/posts/{id}/replies") { request, context in
            try await replies(request, try pathID(context, what: "post"), state)
        }
        router.post("/api/forum/posts/{id}/replies") { request, context in
            try await reply(request, try pathID(context, what: "post"), state)
        }
    }

    /// Columns of a post with its author and counts; the single `?` is the
    /// viewer (0 when anonymous) for `is_liked` and `is_favorited`.
    static let postColumns = """
        p.id, p.category_id, p.title, p.content, p.images, p.view_count, p.created_at, \(LinkUUsers.summaryColumns("u", "author_")),
        (SELECT COUNT(*) FROM forum_replies r WHERE r.post_id = p.id) AS reply_count,
        (SELECT COUNT(*) FROM forum_likes l WHERE l.target_type = 'post' AND l.target_id = p.id) AS like_count,
        (SELECT COUNT(*) FROM forum_favorites f WHERE f.post_id = p.id) AS favorite_count,
        EXISTS (SELECT 1 FROM forum_likes l WHERE l.target_type = 'post' AND l.target_id = p.id AND l.user_id = ?1) AS is_liked,
        EXISTS (SELECT 1 FROM forum_favorites f WHERE f.post_id = p.id AND f.user_id = ?1) AS is_favorited
        """
    static let postTables = "forum_posts p JOIN users u ON u.id = p.author_id JOIN forum_categories c ON c.id = p.category_id"

    static func postJSON(_ row: StoreRow) -> JSONValue {
        .object([
            ("id", .int(row.int("id"))),
            ("category_id", .int(row.int("category_id"))),
            ("title", .string(row.text("title"))),
            ("content", .string(row.text("content"))),
            ("images", decodeStrings(row.text("images"))),
            ("author", LinkUUsers.summary(row, "author_")),
            ("view_count", .int(row.int("view_count"))),
            ("reply_count", .int(row.int("reply_count"))),
            ("like_count", .int(row.int("like_count"))),
            ("favorite_count", .int(row.int("favorite_count"))),
            ("is_liked", .flag(row.int("is_liked"))),
            ("is_favorited", .flag(row.int("is_favorited"))),
            ("created_at", .string(row.text("created_at"))),
        ])
    }

    /// A post in a visible category (a hidden category's posts are not found).
    static func post(_ id: Int, viewer: Int, _ state: SandboxState) async throws -> JSONValue {
        guard let row = try state.store.query("SELECT \(postColumns) FROM \(postTables) WHERE p.id = ?2 AND c.is_visible = 1",
                                                    [.integer(viewer), .integer(id)]).first else {
            throw APIFailure.notFound("post \(id) not found", code: "POST_NOT_FOUND")
        }
        return postJSON(row)
    }

    /// Newest first; `category_id` and `keyword` filter.
    static func list(_ request: Request, _ state: SandboxState) async throws -> Response {
        let viewer = try await state.optionalLinkuUser(request)
        var query = ListQuery(request)
        query.filter("c.is_visible = 1")
        if let category = query.id("category_id") { query.filter("p.category_id = ?", .integer(category)) }
        query.keyword(in: ["p.title", "p.content"])
        // Numbered `?1` in the columns binds the viewer; the WHERE binds follow it.
        return try await query.respond(state, key: "posts", select: postColumns, from: postTables,
                                       order: "p.created_at DESC, p.id DESC", selectBinds: [.integer(viewer ?? 0)], map: postJSON)
    }

    static func create(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        var fields = try await BodyFields.read(request)
        let category = fields.id("category_id", required: true)
        let title = fields.text("title", required: true, max: 200)
        let content = fields.text("content", required: true, max: 10_000)
        let images = fields.imageURLs() ?? []
        if let category, try state.store.query("SELECT 1 FROM forum_categories WHERE id = ? AND is_visible = 1", [.integer(category)]).isEmpty {
            fields.reject("category_id", "no visible forum with id \(category); see GET /api/forum/forums/visible")
        }
        try fields.check()
        let id = try state.store.query("""
            INSERT INTO forum_posts (category_id, author_id, title, content, images, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id
            """, [.integer(category!), .integer(userID), .text(title!), .text(content!), .text(encodeStrings(images)), .text(state.timestamp)])[0].int("id")
        return JSONResponse.make(.created, try await post(id, viewer: userID, state))
    }

    static let replyColumns = """
        r.id, r.post_id, r.parent_reply_id, r.content, r.created_at, \(LinkUUsers.summaryColumns("u", "author_")),
        (SELECT COUNT(*) FROM forum_likes l WHERE l.target_type = 'reply' AND l.target_id = r.id) AS like_count,
        EXISTS (SELECT 1 FROM forum_likes l WHERE l.target_type = 'reply' AND l.target_id = r.id AND l.user_id = ?1) AS is_liked
        """

    static func replyJSON(_ row: StoreRow) -> JSONValue {
        .object([
            ("id", .int(row.int("id"))),
            ("post_id", .int(row.int("post_id"))),
            ("parent_reply_id", row.optionalInt("parent_reply_id")),
            ("content", .string(row.text("content"))),
            ("author", LinkUUsers.summary(row, "author_")),
            ("like_count", .int(row.int("like_count"))),
            ("is_liked", .flag(row.int("is_liked"))),
            ("created_at", .string(row.text("created_at"))),
        ])
    }

    /// Oldest first, as a conversation reads.
    static func replies(_ request: Request, _ id: Int, _ state: SandboxState) async throws -> Response {
        let viewer = try Caller.number()
        _ = try await post(id, viewer: viewer, state)
        var query = ListQuery(request)
        query.filter("r.post_id = ?", .integer(id))
        return try await query.respond(state, key: "replies", select: replyColumns, from: "forum_replies r JOIN users u ON u.id = r.author_id",
                                       order: "r.created_at, r.id", selectBinds: [.integer(viewer)], map: replyJSON)
    }

    /// `{content, parent_reply_id?}`; the post's author is notified (unless replying to themselves).
    static func reply(_ request: Request, _ id: Int, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        var fields = try await BodyFields.read(request)
        let content = fields.text("content", required: true, max: 5000)
        let parent = fields.id("parent_reply_id")
        let target = try await post(id, viewer: userID, state)
        if let parent, try state.store.query("SELECT 1 FROM forum_replies WHERE id = ? AND post_id = ?", [.integer(parent), .integer(id)]).isEmpty {
            fields.reject("parent_reply_id", "post \(id) has no reply \(parent)")
        }
        try fields.check()
        let replyID = try state.store.query("""
            INSERT INTO forum_replies (post_id, author_id, parent_reply_id, content, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id
            """, [.integer(id), .integer(userID), parent.map { .integer($0) } ?? .null, .text(content!), .text(state.timestamp)])[0].int("id")
        if let author = target["author"]?["id"]?.intValue, author != userID {
            let name = try await LinkUUsers.username(userID, state)
            try await LinkUNotifications.notify(state, author, type: "forum_reply", title: "New reply",
                                                content: "\(name) replied to \"\(target["title"]?.stringValue ?? "")\".", about: ("forum_post", id))
        }
        let row = try state.store.query("SELECT \(replyColumns) FROM forum_replies r JOIN users u ON u.id = r.author_id WHERE r.id = ?2",
                                              [.integer(userID), .integer(replyID)])
        return JSONResponse.make(.created, replyJSON(row[0]))
    }
}
