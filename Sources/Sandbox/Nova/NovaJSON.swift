import Core
import Hummingbird
import SQLiteNIO

/// Nova's models as 003's `CodingKeys` spell them: snake_case, UUID string
/// ids, ISO 8601 dates. Rows come from the SELECTs defined here.
enum NovaJSON {
    /// User columns, prefixed `u_`, for joining a user (an author, an actor,
    /// a follower) onto another row.
    static let authorColumns = """
        u.id AS u_id, u.username AS u_username, u.email AS u_email, u.display_name AS u_display_name,
        u.bio AS u_bio, u.avatar_url AS u_avatar_url, u.is_verified AS u_is_verified, u.created_at AS u_created_at
        """

    static func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// A `User`. Another user's email is masked (`b***@example.com`): 003's
    /// model needs the member, and a careful backend does not hand out addresses.
    static func user(_ row: StoreRow, prefix: String = "", viewer: String?) -> JSONValue {
        let id = row.text(prefix + "id")
        let email = row.text(prefix + "email")
        return .object([
            ("id", .string(id)),
            ("username", .string(row.text(prefix + "username"))),
            ("email", .string(id == viewer ? email : masked(email))),
            ("display_name", text(row.optionalText(prefix + "display_name"))),
            ("bio", text(row.optionalText(prefix + "bio"))),
            ("avatar_url", text(row.optionalText(prefix + "avatar_url"))),
            ("is_verified", .bool(row.int(prefix + "is_verified") != 0)),
            ("created_at", .string(row.text(prefix + "created_at"))),
        ])
    }

    static func masked(_ email: String) -> String {
        guard let at = email.firstIndex(of: "@"), let first = email.first else { return "***" }
        return "\(first)***\(email[at...])"
    }

    /// SELECT for posts with their counts, the viewer's like and the author.
    /// Its one parameter is the viewer's id; append WHERE/ORDER and their binds.
    static let postSelect = """
        SELECT p.seq, p.id, p.user_id, p.file_key, p.caption, p.created_at,
            (SELECT COUNT(*) FROM likes l WHERE l.post_id = p.id) AS like_count,
            (SELECT COUNT(*) FROM comments c WHERE c.post_id = p.id) AS comment_count,
            EXISTS (SELECT 1 FROM likes l WHERE l.post_id = p.id AND l.user_id = ?) AS is_liked,
            \(authorColumns)
        FROM posts p JOIN users u ON u.id = p.user_id
        """

    /// A `Post`. `base` is the sandbox's own URL as the client reached it
    /// (`http://127.0.0.1:PORT`), so `image_url` loads from the sandbox.
    static func post(_ row: StoreRow, base: String, viewer: String) -> JSONValue {
        .object([
            ("id", .string(row.text("id"))),
            ("user_id", .string(row.text("user_id"))),
            ("image_url", .string("\(base)/uploads/\(row.text("file_key"))")),
            // The sandbox makes no thumbnails; 003 declares the member optional.
            ("thumbnail_url", .null),
            ("caption", text(row.optionalText("caption"))),
            ("like_count", .int(row.int("like_count"))),
            ("comment_count", .int(row.int("comment_count"))),
            ("is_liked", .bool(row.int("is_liked") != 0)),
            ("created_at", .string(NovaTime.iso(row.double("created_at")))),
            ("user", user(row, prefix: "u_", viewer: viewer)),
        ])
    }

    static let commentSelect = """
        SELECT c.seq, c.id, c.post_id, c.user_id, c.text, c.created_at, \(authorColumns)
        FROM comments c JOIN users u ON u.id = c.user_id
        """

    static func comment(_ row: StoreRow, viewer: String) -> JSONValue {
        .object([
            ("id", .string(row.text("id"))),
            ("post_id", .string(row.text("post_id"))),
            ("user_id", .string(row.text("user_id"))),
            ("text", .string(row.text("text"))),
            ("created_at", .string(NovaTime.iso(row.double("created_at")))),
            ("user", user(row, prefix: "u_", viewer: viewer)),
        ])
    }

    /// How the client reached the sandbox, for absolute URLs in answers.
    static func base(_ request: Request) -> String {
        // HTTP/1's Host header arrives as the request's authority.
        "http://" + (request.head.authority ?? "127.0.0.1")
    }
}
