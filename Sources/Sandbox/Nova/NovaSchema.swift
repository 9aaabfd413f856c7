/// Nova's tables. Public ids are UUID strings; lists page by `seq`, an
/// insertion counter that never shows in answers. Deleting a post takes its
/// likes, comments and notifications with it (ON DELETE CASCADE).
enum NovaSchema {
    static let statements = [
        """
        CREATE TABLE users (
            id TEXT PRIMARY KEY,
            username TEXT NOT NULL UNIQUE COLLATE NOCASE,
            email TEXT NOT NULL UNIQUE COLLATE NOCASE,
            password_hash TEXT NOT NULL,
            display_name TEXT,
            bio TEXT,
            avatar_url TEXT,
            is_verified INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL)
        """,
        """
        CREATE TABLE uploads (
            file_key TEXT PRIMARY KEY,
            user_id TEXT NOT NULL REFERENCES users(id),
            content_type TEXT,
            bytes BLOB,
            expires_at REAL NOT NULL,
            created_at REAL NOT NULL)
        """,
        """
        CREATE TABLE posts (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            user_id TEXT NOT NULL REFERENCES users(id),
            file_key TEXT NOT NULL UNIQUE REFERENCES uploads(file_key),
            caption TEXT,
            created_at REAL NOT NULL)
        """,
        """
        CREATE TABLE likes (
            post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
            user_id TEXT NOT NULL REFERENCES users(id),
            created_at REAL NOT NULL,
            PRIMARY KEY (post_id, user_id))
        """,
        """
        CREATE TABLE comments (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
            user_id TEXT NOT NULL REFERENCES users(id),
            text TEXT NOT NULL,
            created_at REAL NOT NULL)
        """,
        """
        CREATE TABLE follows (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            follower_id TEXT NOT NULL REFERENCES users(id),
            followee_id TEXT NOT NULL REFERENCES users(id),
            created_at REAL NOT NULL,
            UNIQUE (follower_id, followee_id))
        """,
        """
        CREATE TABLE notifications (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            user_id TEXT NOT NULL REFERENCES users(id),
            type TEXT NOT NULL,
            actor_id TEXT NOT NULL REFERENCES users(id),
            post_id TEXT REFERENCES posts(id) ON DELETE CASCADE,
            comment_id TEXT REFERENCES comments(id) ON DELETE CASCADE,
            is_read INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL)
        """,
        """
        CREATE TABLE email_codes (
            user_id TEXT NOT NULL REFERENCES users(id),
            code TEXT NOT NULL,
            created_at REAL NOT NULL,
            expires_at REAL NOT NULL,
            used INTEGER NOT NULL DEFAULT 0)
        """,
        "CREATE TABLE failures (key TEXT NOT NULL, at REAL NOT NULL)",
    ]

    static func create(_ store: SandboxStore) async throws {
        for statement in statements { try store.query(statement) }
    }
}
