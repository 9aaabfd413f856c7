import Core
import Hummingbird

/// 003 "Feed API". The home feed is the caller's posts and those of the
/// people they follow, newest first, by cursor. Explore is everyone else's
/// posts, most liked first (newest first among equals), by page.
enum NovaFeed {
    static func register(on router: CatalogRouter, state: SandboxState) {
        router.get("/feed") { request, _ in
            let viewer = try Caller.user()
            let page = try NovaCursorPage(request, list: "feed")
            let rows = try state.store.query("""
                \(NovaJSON.postSelect)
                WHERE (p.user_id = ? OR p.user_id IN (SELECT followee_id FROM follows WHERE follower_id = ?)) AND p.seq < ?
                ORDER BY p.seq DESC LIMIT ?
                """, [.text(viewer), .text(viewer), .text(viewer), .integer(page.before), .integer(page.fetch)])
            let (shown, next) = page.page(rows)
            let base = NovaJSON.base(request)
            return JSONResponse.make(.ok, .object([
                ("posts", .array(shown.map { NovaJSON.post($0, base: base, viewer: viewer) })),
                ("next_cursor", next),
            ]))
        }
        router.get("/feed/explore") { request, _ in
            let viewer = try Caller.user()
            let query = request.uri.queryParameters
            var problems: [(key: String, value: JSONValue)] = []
            var page = 1
            if let text = query.get("page"), !text.isEmpty {
                if let n = Int(text), (1...100_000).contains(n) { page = n } else { problems.append(("page", .string("must be an integer from 1 to 100000"))) }
            }
            let limit = NovaQuery.limit(query.get("limit"), default: 30, max: NovaCursorPage.maxLimit, problems: &problems)
            guard problems.isEmpty else { throw APIFailure.validation(problems) }
            let rows = try state.store.query("""
                \(NovaJSON.postSelect) WHERE p.user_id <> ? ORDER BY like_count DESC, p.seq DESC LIMIT ? OFFSET ?
                """, [.text(viewer), .text(viewer), .integer(limit + 1), .integer((page - 1) * limit)])
            let base = NovaJSON.base(request)
            return JSONResponse.make(.ok, .object([
                ("posts", .array(rows.prefix(limit).map { NovaJSON.post($0, base: base, viewer: viewer) })),
                ("has_more", .bool(rows.count > limit)),
            ]))
        }
    }
}
