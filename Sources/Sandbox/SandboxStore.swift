import Core
import Foundation
import SQLiteNIO

/// The sandbox's data in SQLite: in memory, or a file that survives restarts.
final class SandboxStore: Sendable {
    let connection: SQLiteConnection

    private init(connection: SQLiteConnection) { self.connection = connection }

    static func open(path: String?) async throws -> SandboxStore {
        let connection = try await SQLiteConnection.open(storage: path.map { .file(path: $0) } ?? .memory)
        let store = SandboxStore(connection: connection)
        try await store.migrate()
        return store
    }

    func close() async { try? await connection.close() }

    @discardableResult
    func query(_ sql: String, _ binds: [SQLiteData] = []) async throws -> [SQLiteRow] {
        try await connection.query(sql, binds)
    }

    /// Version 1 of the schema, plus the seed data when the database is new.
    private func migrate() async throws {
        try await query("PRAGMA foreign_keys = ON")
        try await query("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        let version = try await query("SELECT value FROM meta WHERE key = 'schema_version'").first?.column("value")?.string
        guard version == nil else { return }
        try await query("""
            CREATE TABLE users (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                email TEXT NOT NULL UNIQUE,
                username TEXT NOT NULL,
                password_hash TEXT NOT NULL,
                avatar TEXT,
                created_at TEXT NOT NULL)
            """)
        try await query("""
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
        try await query("""
            CREATE TABLE refresh_tokens (
                jti TEXT PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id),
                revoked INTEGER NOT NULL DEFAULT 0)
            """)
        // A signing key per database, so tokens of a file database survive a restart.
        let key = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        try await query("INSERT INTO meta (key, value) VALUES ('signing_key', ?), ('token_generation', '0')", [.text(key)])
        try await seed()
        try await query("INSERT INTO meta (key, value) VALUES ('schema_version', '1')")
    }

    /// The demo accounts and a few tasks. Password hashes are bcrypt (cost 10),
    /// computed once and written here so start-up does not pay for hashing.
    private func seed() async throws {
        let users: [(String, String, String, String)] = [
            ("alice@example.com", "alice", "$2b$10$GxBmn/HkOMWeL04j9.LOk.XX4QDN60Gv0UNr7ER/oPPC4pB3RzpNC", "2025-01-05T09:00:00Z"),
            ("bob@example.com", "bob", "$2b$10$CFWtZDvBOS4AXgIlIeCieebwzw8OUxm.h7vv8WmwsWwI5z/GjSlsC", "2025-01-06T10:30:00Z"),
        ]
        for (email, name, hash, created) in users {
            try await query("INSERT INTO users (email, username, password_hash, created_at) VALUES (?, ?, ?, ?)",
                            [.text(email), .text(name), .text(hash), .text(created)])
        }
        let tasks: [(String, String, String, String, Double, String, Int, String)] = [
            ("Pick up a parcel", "Collect a parcel from the post office on Oxford Road before 5 pm.", "errand", "Manchester", 8, "open", 1, "2025-02-01T08:15:00Z"),
            ("Assemble a bookshelf", "IKEA Billy, tools provided.", "home", "Manchester", 25, "open", 1, "2025-02-02T12:00:00Z"),
            ("Walk a dog", "Friendly labrador, 45 minutes in the park.", "pets", "London", 12.5, "in_progress", 2, "2025-02-03T07:45:00Z"),
            ("Proofread an essay", "2,000 words, economics, by Friday.", "tutoring", "London", 30, "open", 2, "2025-02-04T18:20:00Z"),
            ("Move a sofa", "Two people needed, second floor, no lift.", "moving", "Birmingham", 40, "completed", 1, "2025-02-05T15:10:00Z"),
        ]
        for t in tasks {
            try await query("""
                INSERT INTO tasks (title, description, category, city, price, status, poster_id, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(t.0), .text(t.1), .text(t.2), .text(t.3), .float(t.4), .text(t.5), .integer(t.6), .text(t.7)])
        }
    }

    func meta(_ key: String) async throws -> String? {
        try await query("SELECT value FROM meta WHERE key = ?", [.text(key)]).first?.column("value")?.string
    }

    func setMeta(_ key: String, _ value: String) async throws {
        try await query("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                        [.text(key), .text(value)])
    }
}

extension SQLiteRow {
    func int(_ name: String) -> Int { column(name)?.integer ?? 0 }
    func text(_ name: String) -> String { column(name)?.string ?? "" }
    func optionalText(_ name: String) -> String? {
        guard let value = column(name), value != .null else { return nil }
        return value.string
    }
    func double(_ name: String) -> Double { column(name)?.double ?? 0 }
}

/// JSON numbers as a careful backend writes them: `25` for whole values, `12.5` otherwise.
func jsonNumber(_ value: Double) -> JSONValue {
    if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int(value))) }
    return .number(String(value))
}

/// Current time as ISO 8601 in UTC, second precision.
func isoNow() -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: Date())
}
