import Core
import Foundation
import SQLiteNIO

/// The sandbox's data in SQLite: in memory, or a file that survives restarts.
final class SandboxStore: Sendable {
    let connection: SQLiteConnection

    private init(connection: SQLiteConnection) { self.connection = connection }

    /// Opens (and on first use creates) the database for `backend`. A file
    /// made for another profile is refused rather than mixed.
    static func open(path: String?, backend: any SandboxBackend) async throws -> SandboxStore {
        let connection = try await SQLiteConnection.open(storage: path.map { .file(path: $0) } ?? .memory)
        let store = SandboxStore(connection: connection)
        do {
            try await store.migrate(backend)
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    func close() async { try? await connection.close() }

    @discardableResult
    func query(_ sql: String, _ binds: [SQLiteData] = []) async throws -> [SQLiteRow] {
        try await connection.query(sql, binds)
    }

    struct WrongProfile: Error, CustomStringConvertible {
        let description: String
    }

    /// Version 1 of the schema: what every backend shares (meta, refresh
    /// tokens), then the backend's own tables and seed data.
    private func migrate(_ backend: any SandboxBackend) async throws {
        try await query("PRAGMA foreign_keys = ON")
        try await query("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        if let version = try await meta("schema_version") {
            let profile = try await meta("profile") ?? "linku"
            guard profile == backend.profile.name else {
                throw WrongProfile(description: "this database belongs to the \(profile) sandbox, not \(backend.profile.name)")
            }
            guard version == "1" else { throw WrongProfile(description: "unknown database schema version \(version)") }
            return
        }
        try await query("BEGIN")
        do {
            try await query("""
                CREATE TABLE refresh_tokens (
                    jti TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    revoked INTEGER NOT NULL DEFAULT 0)
                """)
            // A signing key per database, so tokens of a file database survive a restart.
            let key = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            try await query("INSERT INTO meta (key, value) VALUES ('signing_key', ?), ('token_generation', '0'), ('profile', ?)",
                            [.text(key), .text(backend.profile.name)])
            try await backend.migrate(self)
            try await query("INSERT INTO meta (key, value) VALUES ('schema_version', '1')")
            try await query("COMMIT")
        } catch {
            try? await query("ROLLBACK")
            throw error
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


