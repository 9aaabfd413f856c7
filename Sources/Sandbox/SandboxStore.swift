import Core
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import SQLiteNIO
import VaporCSQLite

/// The sandbox's data in SQLite: in memory, or a file that survives restarts.
///
/// Queries run synchronously on the caller's thread, under a lock, with each
/// statement prepared once and kept. sqlite-nio's `SQLiteConnection` instead
/// prepares every query anew on NIO's thread pool: a hand-off there and one
/// back per query, which made SQLite, not HTTP, what bounded the sandbox's
/// rate (BENCHMARKS.md, "The sandbox under load"). Its SQLite build
/// (`VaporCSQLite`) and `SQLiteData` are still what is used here. The
/// data is small and in memory (or a local file), so a query takes
/// microseconds; blocking an event loop for that is cheaper than two thread
/// switches.
final class SandboxStore: @unchecked Sendable {
    // NSLock, a plain pthread mutex: Synchronization's Mutex is a
    // priority-inheritance futex on Linux, which sleeps in the kernel on
    // every contended lock, and two event loops contend here all the time.
    private let lock = NSLock()
    private var handle: SQLiteHandle  // only under `lock`

    private init(path: String) throws { handle = try SQLiteHandle(path: path) }

    /// Opens (and on first use creates) the database for `backend`. A file
    /// made for another profile is refused rather than mixed.
    static func open(path: String?, backend: any SandboxBackend) async throws -> SandboxStore {
        let store = try SandboxStore(path: path ?? ":memory:")
        do {
            try await store.migrate(backend)
        } catch {
            store.close()
            throw error
        }
        return store
    }

    func close() { lock.withLock { handle.close() } }

    /// Runs one SQL statement with `?` placeholders bound to `binds`; the rows
    /// it returns (none for most writes, unless `RETURNING`).
    @discardableResult
    func query(_ sql: String, _ binds: [SQLiteData] = []) throws -> [StoreRow] {
        try lock.withLock { try handle.run(sql, binds) }
    }

    /// Runs `body`'s statements with no other request's statements between
    /// them (a list's page and its total, say). Use `query` inside, not the store's.
    func atomically<T>(_ body: (_ query: (_ sql: String, _ binds: [SQLiteData]) throws -> [StoreRow]) throws -> T) throws -> T {
        try lock.withLock { try body { sql, binds in try handle.run(sql, binds) } }
    }

    struct WrongProfile: Error, CustomStringConvertible {
        let description: String
    }

    /// Version 1 of the schema: what every backend shares (meta, refresh
    /// tokens), then the backend's own tables and seed data.
    private func migrate(_ backend: any SandboxBackend) async throws {
        try query("PRAGMA foreign_keys = ON")
        try query("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        if let version = try meta("schema_version") {
            let profile = try meta("profile") ?? "linku"
            guard profile == backend.profile.name else {
                throw WrongProfile(description: "this database belongs to the \(profile) sandbox, not \(backend.profile.name)")
            }
            guard version == "1" else { throw WrongProfile(description: "unknown database schema version \(version)") }
            return
        }
        try query("BEGIN")
        do {
            try query("""
                CREATE TABLE refresh_tokens (
                    jti TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    revoked INTEGER NOT NULL DEFAULT 0)
                """)
            // A signing key per database, so tokens of a file database survive a restart.
            let key = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            try query("INSERT INTO meta (key, value) VALUES ('signing_key', ?), ('token_generation', '0'), ('profile', ?)",
                      [.text(key), .text(backend.profile.name)])
            try await backend.migrate(self)
            try query("INSERT INTO meta (key, value) VALUES ('schema_version', '1')")
            try query("COMMIT")
        } catch {
            _ = try? query("ROLLBACK")
            throw error
        }
    }

    func meta(_ key: String) throws -> String? {
        try query("SELECT value FROM meta WHERE key = ?", [.text(key)]).first?.column("value")?.string
    }

    func setMeta(_ key: String, _ value: String) throws {
        try query("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                  [.text(key), .text(value)])
    }
}

/// A failed SQLite call, worded by SQLite.
struct StoreError: Error, CustomStringConvertible {
    let description: String
}

/// One row of a result: values by column name.
struct StoreRow: Sendable {
    fileprivate let names: ColumnNames
    fileprivate let values: [SQLiteData]

    /// The value of column `name` (its name or `AS` alias), nil when the row has none.
    func column(_ name: String) -> SQLiteData? {
        names.index[name].map { values[$0] }
    }
}

/// A statement's column names, shared by all the rows it returns.
private final class ColumnNames: Sendable {
    let index: [String: Int]

    init(_ names: [String]) {
        // The first of two equal names wins, as in sqlite-nio.
        index = Dictionary(names.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }
}

/// The SQLite handle and its prepared statements. Used only under
/// `SandboxStore`'s lock.
private struct SQLiteHandle: ~Copyable {
    private var handle: OpaquePointer?
    private var statements: [String: Prepared] = [:]

    /// Enough for every distinct statement the backends send; filters are
    /// bound values, but their combinations make distinct SQL, so the cache
    /// is emptied when it fills rather than growing for ever.
    private static let cacheLimit = 256

    private struct Prepared {
        let statement: OpaquePointer
        let names: ColumnNames
    }

    private static let initialized: Bool = {
        sqlite_nio_sqlite3_initialize()
        return true
    }()

    init(path: String) throws {
        _ = Self.initialized
        try Self.restrictToOwner(path)
        var handle: OpaquePointer?
        // The lock around this struct serializes every call, so SQLite's own
        // per-connection mutex would only be taken uncontended: NOMUTEX.
        let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let status = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? String(cString: sqlite_nio_sqlite3_errstr(status))
            sqlite_nio_sqlite3_close(handle)
            throw StoreError(description: "cannot open the SQLite database at \(path): \(reason)")
        }
        // Another process holding a file database's lock: wait up to 5 s, then fail the request.
        sqlite_nio_sqlite3_busy_timeout(handle, 5_000)
        self.handle = handle
    }

    /// A database file holds the token-signing key: whoever reads it can mint
    /// any user's token. It is created 0600 before SQLite opens it (SQLite
    /// would make it 0644 under the usual umask), and one made before this
    /// rule is tightened. SQLite gives its journal, -wal and -shm files the
    /// database file's mode; any left from before are tightened too.
    static func restrictToOwner(_ path: String) throws {
        guard path != ":memory:", !path.isEmpty, !path.hasPrefix("file:") else { return }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if fd >= 0 {
            #if canImport(Glibc)
            _ = Glibc.close(fd)
            #else
            _ = Darwin.close(fd)
            #endif
        } else if errno != EEXIST {
            throw StoreError(description: "cannot create the SQLite database at \(path): \(String(cString: strerror(errno)))")
        }
        for file in [path, path + "-journal", path + "-wal", path + "-shm"] {
            var info = stat()
            guard stat(file, &info) == 0, info.st_mode & 0o077 != 0, info.st_uid == geteuid() else { continue }
            chmod(file, info.st_mode & 0o700)
        }
    }

    deinit { Self.close(handle, statements) }

    mutating func close() {
        Self.close(handle, statements)
        statements = [:]
        handle = nil
    }

    private static func close(_ handle: OpaquePointer?, _ statements: [String: Prepared]) {
        guard let handle else { return }
        for prepared in statements.values { sqlite_nio_sqlite3_finalize(prepared.statement) }
        sqlite_nio_sqlite3_close_v2(handle)
    }

    mutating func run(_ sql: String, _ binds: [SQLiteData]) throws(StoreError) -> [StoreRow] {
        guard let handle else { throw StoreError(description: "the sandbox's database is closed") }
        let prepared = try prepare(sql, handle)
        let statement = prepared.statement
        // No sqlite3_clear_bindings: every parameter is bound anew on each
        // run, and clearing marks a statement with a bound LIMIT as stale, so
        // SQLite would prepare it again every time.
        defer { sqlite_nio_sqlite3_reset(statement) }
        try bind(binds, to: statement, handle)
        let width = Int(sqlite_nio_sqlite3_column_count(statement))
        var rows: [StoreRow] = []
        while true {
            let status = sqlite_nio_sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw error(handle) }
            var values: [SQLiteData] = []
            values.reserveCapacity(width)
            for column in 0..<Int32(width) { values.append(Self.value(statement, column)) }
            rows.append(StoreRow(names: prepared.names, values: values))
        }
    }

    private mutating func prepare(_ sql: String, _ handle: OpaquePointer) throws(StoreError) -> Prepared {
        if let prepared = statements[sql] { return prepared }
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let status = sql.withCString { text in
            let status = sqlite_nio_sqlite3_prepare_v3(handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
            // Text after the first statement would be silently ignored: refuse it.
            if status == SQLITE_OK, let rest = tail, !String(cString: rest).allSatisfy(\.isWhitespace) {
                return SQLITE_MISUSE
            }
            return status
        }
        guard status == SQLITE_OK, let statement else {
            let failure = status == SQLITE_MISUSE && statement != nil
                ? StoreError(description: "one statement per query: \(sql)")
                : error(handle)
            sqlite_nio_sqlite3_finalize(statement)
            throw failure
        }
        let names = (0..<sqlite_nio_sqlite3_column_count(statement)).map { column in
            sqlite_nio_sqlite3_column_name(statement, column).map { String(cString: $0) } ?? ""
        }
        if statements.count >= Self.cacheLimit {
            for prepared in statements.values { sqlite_nio_sqlite3_finalize(prepared.statement) }
            statements = [:]
        }
        let prepared = Prepared(statement: statement, names: ColumnNames(names))
        statements[sql] = prepared
        return prepared
    }

    private func bind(_ binds: [SQLiteData], to statement: OpaquePointer, _ handle: OpaquePointer) throws(StoreError) {
        let expected = Int(sqlite_nio_sqlite3_bind_parameter_count(statement))
        guard binds.count == expected else {
            throw StoreError(description: "the statement takes \(expected) values, \(binds.count) given")
        }
        for (offset, value) in binds.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let n): status = sqlite_nio_sqlite3_bind_int64(statement, index, Int64(n))
            case .float(let x): status = sqlite_nio_sqlite3_bind_double(statement, index, x)
            case .null: status = sqlite_nio_sqlite3_bind_null(statement, index)
            case .text(let text):
                status = text.withCString { bytes in
                    sqlite_nio_sqlite3_bind_text64(statement, index, bytes, UInt64(text.utf8.count), Self.transient, UInt8(SQLITE_UTF8))
                }
            case .blob(let buffer):
                status = buffer.withUnsafeReadableBytes { bytes in
                    sqlite_nio_sqlite3_bind_blob64(statement, index, bytes.baseAddress, UInt64(bytes.count), Self.transient)
                }
            }
            guard status == SQLITE_OK else { throw error(handle) }
        }
    }

    /// SQLITE_TRANSIENT: SQLite copies the bound bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func value(_ statement: OpaquePointer, _ column: Int32) -> SQLiteData {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT:
            return .float(sqlite_nio_sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            guard let bytes = sqlite_nio_sqlite3_column_text(statement, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            if let bytes = sqlite_nio_sqlite3_column_blob(statement, column) {
                buffer.writeBytes(UnsafeRawBufferPointer(start: bytes, count: count))
            }
            return .blob(buffer)
        default:
            return .null
        }
    }

    private func error(_ handle: OpaquePointer) -> StoreError {
        StoreError(description: String(cString: sqlite_nio_sqlite3_errmsg(handle)))
    }
}

extension StoreRow {
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
