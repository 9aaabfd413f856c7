import Core
import SQLiteNIO

/// LinkU's tables and seed data.
enum LinkUSchema {
    static func create(_ store: SandboxStore) async throws {
        try await store.query("""
            CREATE TABLE users (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                email TEXT NOT NULL UNIQUE,
                username TEXT NOT NULL,
                password_hash TEXT NOT NULL,
                avatar TEXT,
                created_at TEXT NOT NULL)
            """)
        try await store.query("""
            CREATE TABLE tasks (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                title TEXT NOT NULL,
                description TEXT NOT NULL DEFAULT '',
                category TEXT NOT NULL DEFAULT 'other',
                city TEXT NOT NULL DEFAULT '',
                price REAL NOT NULL DEFAULT 0,
                status TEXT NOT NULL DEFAULT 'open',
                poster_id INTEGER NOT NULL REFERENCES users(id),
                created_at TEXT NOT NULL)
            """)
        try await seed(store)
    }

    /// The demo accounts and a few tasks.
    static func seed(_ store: SandboxStore) async throws {
        for (account, created) in [(DemoAccounts.alice, "2025-01-05T09:00:00Z"), (DemoAccounts.bob, "2025-01-06T10:30:00Z")] {
            try await store.query("INSERT INTO users (email, username, password_hash, created_at) VALUES (?, ?, ?, ?)",
                                  [.text(account.email), .text(account.name), .text(account.passwordHash), .text(created)])
        }
        let tasks: [(String, String, String, String, Double, String, Int, String)] = [
            ("Pick up a parcel", "Collect a parcel from the post office on Oxford Road before 5 pm.", "errand", "Manchester", 8, "open", 1, "2025-02-01T08:15:00Z"),
            ("Assemble a bookshelf", "IKEA Billy, tools provided.", "home", "Manchester", 25, "open", 1, "2025-02-02T12:00:00Z"),
            ("Walk a dog", "Friendly labrador, 45 minutes in the park.", "pets", "London", 12.5, "in_progress", 2, "2025-02-03T07:45:00Z"),
            ("Proofread an essay", "2,000 words, economics, by Friday.", "tutoring", "London", 30, "open", 2, "2025-02-04T18:20:00Z"),
            ("Move a sofa", "Two people needed, second floor, no lift.", "moving", "Birmingham", 40, "completed", 1, "2025-02-05T15:10:00Z"),
        ]
        for t in tasks {
            try await store.query("""
                INSERT INTO tasks (title, description, category, city, price, status, poster_id, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(t.0), .text(t.1), .text(t.2), .text(t.3), .float(t.4), .text(t.5), .integer(t.6), .text(t.7)])
        }
    }
}
