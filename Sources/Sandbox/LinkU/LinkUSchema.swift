import Core
import SQLiteNIO

/// LinkU's tables. Counts (likes, replies, participants) are derived by
/// queries rather than stored, so they can never drift from the rows.
enum LinkUSchema {
    static func create(_ store: SandboxStore) async throws {
        for statement in tables { try store.query(statement) }
        try await LinkUSeed.insert(store)
    }

    static let tables = [
        """
        CREATE TABLE users (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            email TEXT NOT NULL UNIQUE COLLATE NOCASE,
            username TEXT NOT NULL,
            password_hash TEXT NOT NULL,
            phone TEXT UNIQUE,
            avatar TEXT,
            bio TEXT NOT NULL DEFAULT '',
            city TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL)
        """,
        // Codes sent by email or SMS. purpose: auth (register, login with a
        // code), email_update, phone_update. status: active, used, superseded
        // (a newer code was sent), burned (too many wrong tries). Times are
        // seconds since 1970.
        """
        CREATE TABLE verification_codes (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            channel TEXT NOT NULL,
            target TEXT NOT NULL COLLATE NOCASE,
            purpose TEXT NOT NULL,
            user_id INTEGER REFERENCES users(id),
            code TEXT NOT NULL,
            sent_at REAL NOT NULL,
            expires_at REAL NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL DEFAULT 'active')
        """,
        """
        CREATE TABLE tasks (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            title TEXT NOT NULL,
            description TEXT NOT NULL DEFAULT '',
            category TEXT NOT NULL DEFAULT 'other',
            city TEXT NOT NULL DEFAULT '',
            price REAL NOT NULL DEFAULT 0,
            status TEXT NOT NULL DEFAULT 'open',
            poster_id INTEGER NOT NULL REFERENCES users(id),
            taker_id INTEGER REFERENCES users(id),
            images TEXT NOT NULL DEFAULT '[]',
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL)
        """,
        // status: pending, accepted, rejected.
        """
        CREATE TABLE task_applications (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
            applicant_id INTEGER NOT NULL REFERENCES users(id),
            message TEXT NOT NULL DEFAULT '',
            status TEXT NOT NULL DEFAULT 'pending',
            created_at TEXT NOT NULL,
            UNIQUE (task_id, applicant_id))
        """,
        """
        CREATE TABLE notifications (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id INTEGER NOT NULL REFERENCES users(id),
            type TEXT NOT NULL,
            title TEXT NOT NULL,
            content TEXT NOT NULL,
            related_type TEXT,
            related_id INTEGER,
            is_read INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL)
        """,
        """
        CREATE TABLE uploads (
            name TEXT PRIMARY KEY,
            owner_id INTEGER REFERENCES users(id),
            content_type TEXT NOT NULL,
            size INTEGER NOT NULL,
            data BLOB NOT NULL,
            created_at TEXT NOT NULL)
        """,
        """
        CREATE TABLE forum_categories (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL,
            description TEXT NOT NULL DEFAULT '',
            sort_order INTEGER NOT NULL DEFAULT 0,
            is_visible INTEGER NOT NULL DEFAULT 1)
        """,
        """
        CREATE TABLE forum_posts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            category_id INTEGER NOT NULL REFERENCES forum_categories(id),
            author_id INTEGER NOT NULL REFERENCES users(id),
            title TEXT NOT NULL,
            content TEXT NOT NULL,
            images TEXT NOT NULL DEFAULT '[]',
            view_count INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL)
        """,
        """
        CREATE TABLE forum_replies (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            post_id INTEGER NOT NULL REFERENCES forum_posts(id),
            author_id INTEGER NOT NULL REFERENCES users(id),
            parent_reply_id INTEGER REFERENCES forum_replies(id),
            content TEXT NOT NULL,
            created_at TEXT NOT NULL)
        """,
        // target_type: post or reply.
        """
        CREATE TABLE forum_likes (
            user_id INTEGER NOT NULL REFERENCES users(id),
            target_type TEXT NOT NULL,
            target_id INTEGER NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (user_id, target_type, target_id))
        """,
        """
        CREATE TABLE forum_favorites (
            user_id INTEGER NOT NULL REFERENCES users(id),
            post_id INTEGER NOT NULL REFERENCES forum_posts(id),
            created_at TEXT NOT NULL,
            PRIMARY KEY (user_id, post_id))
        """,
        """
        CREATE TABLE flea_market_categories (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            sort_order INTEGER NOT NULL)
        """,
        // status: available, sold, removed (seed 000). refreshed_at orders the list.
        """
        CREATE TABLE flea_market_items (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            seller_id INTEGER NOT NULL REFERENCES users(id),
            title TEXT NOT NULL,
            description TEXT NOT NULL DEFAULT '',
            category TEXT NOT NULL REFERENCES flea_market_categories(id),
            city TEXT NOT NULL DEFAULT '',
            price REAL NOT NULL,
            images TEXT NOT NULL DEFAULT '[]',
            status TEXT NOT NULL DEFAULT 'available',
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            refreshed_at TEXT NOT NULL)
        """,
        """
        CREATE TABLE flea_market_purchases (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            item_id INTEGER NOT NULL UNIQUE REFERENCES flea_market_items(id),
            buyer_id INTEGER NOT NULL REFERENCES users(id),
            seller_id INTEGER NOT NULL REFERENCES users(id),
            price REAL NOT NULL,
            created_at TEXT NOT NULL)
        """,
        """
        CREATE TABLE flea_market_favorites (
            user_id INTEGER NOT NULL REFERENCES users(id),
            item_id INTEGER NOT NULL REFERENCES flea_market_items(id),
            created_at TEXT NOT NULL,
            PRIMARY KEY (user_id, item_id))
        """,
        """
        CREATE TABLE task_experts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id INTEGER NOT NULL UNIQUE REFERENCES users(id),
            bio TEXT NOT NULL,
            specialties TEXT NOT NULL DEFAULT '[]',
            city TEXT NOT NULL DEFAULT '',
            rating REAL NOT NULL DEFAULT 0,
            completed_tasks INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL)
        """,
        """
        CREATE TABLE expert_services (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            expert_id INTEGER NOT NULL REFERENCES task_experts(id),
            title TEXT NOT NULL,
            description TEXT NOT NULL DEFAULT '',
            price REAL NOT NULL,
            created_at TEXT NOT NULL)
        """,
        // status: pending (the expert's side of the flow is not in the seeds).
        """
        CREATE TABLE service_applications (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            service_id INTEGER NOT NULL REFERENCES expert_services(id),
            applicant_id INTEGER NOT NULL REFERENCES users(id),
            message TEXT NOT NULL DEFAULT '',
            status TEXT NOT NULL DEFAULT 'pending',
            created_at TEXT NOT NULL)
        """,
        // Requests to become an expert; status: pending (reviewed by staff, off-API).
        """
        CREATE TABLE expert_applications (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id INTEGER NOT NULL REFERENCES users(id),
            bio TEXT NOT NULL,
            specialties TEXT NOT NULL DEFAULT '[]',
            city TEXT NOT NULL DEFAULT '',
            status TEXT NOT NULL DEFAULT 'pending',
            created_at TEXT NOT NULL)
        """,
        """
        CREATE TABLE activities (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            title TEXT NOT NULL,
            description TEXT NOT NULL DEFAULT '',
            city TEXT NOT NULL DEFAULT '',
            location TEXT NOT NULL DEFAULT '',
            starts_at TEXT NOT NULL,
            ends_at TEXT NOT NULL,
            capacity INTEGER NOT NULL,
            created_at TEXT NOT NULL)
        """,
        """
        CREATE TABLE activity_participants (
            activity_id INTEGER NOT NULL REFERENCES activities(id),
            user_id INTEGER NOT NULL REFERENCES users(id),
            created_at TEXT NOT NULL,
            PRIMARY KEY (activity_id, user_id))
        """,
        """
        CREATE TABLE activity_favorites (
            activity_id INTEGER NOT NULL REFERENCES activities(id),
            user_id INTEGER NOT NULL REFERENCES users(id),
            created_at TEXT NOT NULL,
            PRIMARY KEY (activity_id, user_id))
        """,
        """
        CREATE TABLE banners (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            title TEXT NOT NULL,
            image TEXT NOT NULL,
            link_url TEXT NOT NULL DEFAULT '',
            sort_order INTEGER NOT NULL)
        """,
    ]
}
