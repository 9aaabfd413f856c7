import Core
import Foundation
import Hummingbird

/// 003 "User API": a profile with stats, a user's posts, search, and editing
/// your own profile. GET /users/me (in `NovaAuth`) is the sandbox's who-am-I.
enum NovaUsers {
    static let columns = "id, username, email, display_name, bio, avatar_url, is_verified, created_at"

    static func register(on router: CatalogRouter, state: SandboxState) {
        router.put("/users/me") { request, _ in try await update(request, state) }
        router.get("/users/search") { request, _ in try await search(request, state) }
        // One capture name per position: the router does not backtrack between
        // differently named captures, so `{id}` here is a username.
        router.get("/users/{id}") { request, context in
            let viewer = try Caller.user()
            let name = context.parameters.get("id") ?? ""
            guard let row = try state.store.query("SELECT id FROM users WHERE username = ?", [.text(name)]).first else {
                throw APIFailure.notFound("no user named \(name)", code: "USER_NOT_FOUND")
            }
            let id = row.text("id")
            return JSONResponse.make(.ok, .object([
                ("user", try await user(id, viewer: viewer, state)),
                ("stats", try await stats(id, viewer: viewer, state)),
            ]))
        }
        router.get("/users/{id}/posts") { request, context in
            let viewer = try Caller.user()
            let id = try await existing(context.parameters.get("id"), state)
            let page = try NovaCursorPage(request, list: "user-posts:\(id)")
            let rows = try state.store.query("\(NovaJSON.postSelect) WHERE p.user_id = ? AND p.seq < ? ORDER BY p.seq DESC LIMIT ?",
                                                   [.text(viewer), .text(id), .integer(page.before), .integer(page.fetch)])
            let (shown, next) = page.page(rows)
            let base = NovaJSON.base(request)
            return JSONResponse.make(.ok, .object([
                ("posts", .array(shown.map { NovaJSON.post($0, base: base, viewer: viewer) })),
                ("next_cursor", next),
            ]))
        }
    }

    static func user(_ id: String, viewer: String, _ state: SandboxState) async throws -> JSONValue {
        guard let row = try state.store.query("SELECT \(columns) FROM users WHERE id = ?", [.text(id)]).first else {
            throw APIFailure.notFound("user not found", code: "USER_NOT_FOUND")
        }
        return NovaJSON.user(row, viewer: viewer)
    }

    /// The stored id of a user named by id in a path; 404 when there is none.
    static func existing(_ raw: String?, _ state: SandboxState) async throws -> String {
        guard let id = NovaID.normalize(raw),
              try state.store.query("SELECT 1 FROM users WHERE id = ?", [.text(id)]).first != nil else {
            throw APIFailure.notFound("no user with id \(raw ?? ""); this path takes the user's id (GET /users/{username} shows it)",
                                      code: "USER_NOT_FOUND")
        }
        return id
    }

    /// 003's `UserStats`.
    static func stats(_ id: String, viewer: String, _ state: SandboxState) async throws -> JSONValue {
        let row = try state.store.query("""
            SELECT (SELECT COUNT(*) FROM posts WHERE user_id = ?1) AS post_count,
                   (SELECT COUNT(*) FROM follows WHERE followee_id = ?1) AS follower_count,
                   (SELECT COUNT(*) FROM follows WHERE follower_id = ?1) AS following_count,
                   EXISTS (SELECT 1 FROM follows WHERE follower_id = ?2 AND followee_id = ?1) AS is_following
            """, [.text(id), .text(viewer)]).first
        return .object([
            ("post_count", .int(row?.int("post_count") ?? 0)),
            ("follower_count", .int(row?.int("follower_count") ?? 0)),
            ("following_count", .int(row?.int("following_count") ?? 0)),
            ("is_following", .bool((row?.int("is_following") ?? 0) != 0)),
        ])
    }

    /// `PUT /users/me {bio?, avatar_url?, display_name?}` → `{user}`. Members
    /// left out stay as they are; null or "" clears one. Any other member
    /// (username, email…) is refused rather than silently ignored.
    static func update(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.user()
        let body = try await jsonObject(request)
        var fields = BodyFields(body)
        let editable = ["display_name": NovaRules.displayNameMax, "bio": NovaRules.bioMax, "avatar_url": 2048]
        if case let .object(members) = body {
            for member in members where editable[member.key] == nil {
                fields.reject(member.key, "cannot be changed here; editable: bio, avatar_url, display_name")
            }
        }
        var changes: [(column: String, value: String?)] = []
        for name in ["display_name", "bio", "avatar_url"] where body[name] != nil {
            let value = fields.text(name, max: editable[name])
            if body[name] != .null && value == nil { continue }
            if name == "avatar_url", let value, !value.isEmpty, !isWebURL(value) {
                fields.reject(name, "must be an http or https URL")
            }
            changes.append((name, value?.isEmpty == false ? value : nil))
        }
        try fields.check()
        for change in changes {
            try state.store.query("UPDATE users SET \(change.column) = ? WHERE id = ?",
                                        [change.value.map { .text($0) } ?? .null, .text(userID)])
        }
        return JSONResponse.make(.ok, .object([("user", try await user(userID, viewer: userID, state))]))
    }

    static func isWebURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// `GET /users/search?q=&limit=20` → `{users}`: usernames and display
    /// names containing q, case-insensitively; an exact username first, then
    /// usernames starting with q, then the rest by username. 003 pages it by limit only.
    static func search(_ request: Request, _ state: SandboxState) async throws -> Response {
        let viewer = try Caller.user()
        let query = request.uri.queryParameters
        var problems: [(key: String, value: JSONValue)] = []
        let q = (query.get("q") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if q.isEmpty { problems.append(("q", .string("required"))) } else if q.count > 100 { problems.append(("q", .string("at most 100 characters"))) }
        let limit = NovaQuery.limit(query.get("limit"), default: 20, max: 50, problems: &problems)
        guard problems.isEmpty else { throw APIFailure.validation(problems) }
        let escaped = q.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        let rows = try state.store.query("""
            SELECT \(columns) FROM users
            WHERE username LIKE ?1 ESCAPE '\\' OR display_name LIKE ?1 ESCAPE '\\'
            ORDER BY username = ?2 DESC, username LIKE ?3 ESCAPE '\\' DESC, username
            LIMIT ?4
            """, [.text("%\(escaped)%"), .text(q), .text("\(escaped)%"), .integer(limit)])
        return JSONResponse.make(.ok, .object([("users", .array(rows.map { NovaJSON.user($0, viewer: viewer) }))]))
    }
}
