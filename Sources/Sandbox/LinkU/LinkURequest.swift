import Core
import Foundation
import Hummingbird
import SQLiteNIO

/// Small pieces every LinkU route uses: who is calling, which id the path
/// names, what time the sandbox clock says, how a stored value becomes JSON.
extension SandboxState {
    /// For public endpoints: nil without an Authorization header. A header
    /// that is present must still be valid (401 otherwise), so a client with a
    /// stale token learns to refresh instead of silently getting the anonymous view.
    func optionalLinkuUser(_ request: Request) async throws -> Int? {
        guard request.headers[.authorization] != nil else { return nil }
        guard let id = Int(try await authenticate(request)) else {
            throw APIFailure.unauthorized("invalid access token", code: "INVALID_TOKEN")
        }
        return id
    }

    /// Deletes the row named by `key`, or inserts it (with `created_at`)
    /// when there was none. True when the row now exists.
    func toggle(table: String, key: [(column: String, value: SQLiteData)]) async throws -> Bool {
        let match = key.map { "\($0.column) = ?" }.joined(separator: " AND ")
        let removed = try store.query("DELETE FROM \(table) WHERE \(match) RETURNING 1", key.map(\.value))
        guard removed.isEmpty else { return false }
        let columns = key.map(\.column) + ["created_at"]
        try store.query("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
                              key.map(\.value) + [.text(timestamp)])
        return true
    }

    /// The sandbox clock as ISO 8601 (tests move the clock, so never `Date()`).
    var timestamp: String { iso8601(now) }
}

/// The integer id a path parameter names; 400 when it is not one.
func pathID(_ context: BasicRequestContext, _ name: String = "id", what: String) throws -> Int {
    guard let id = context.parameters.get(name, as: Int.self) else {
        throw APIFailure.badRequest("\(what) id must be an integer")
    }
    return id
}

/// A `LIKE … ESCAPE '\'` pattern matching `keyword` anywhere, with `%` and `_` taken literally.
func likePattern(_ keyword: String) -> String {
    "%" + keyword.replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
}

/// Image lists are stored as a JSON array in a TEXT column.
func encodeStrings(_ values: [String]) -> String {
    JSONPrinter.compact(.array(values.map(JSONValue.string)))
}

func decodeStrings(_ text: String) -> JSONValue {
    (try? JSONParser.parse(Array(text.utf8))) ?? .array([])
}

/// `http://host:port` as the client addressed us, for URLs we hand out
/// (uploaded images): the sandbox's port changes from run to run.
func baseURL(of request: Request) -> String {
    "http://" + (request.head.authority ?? "127.0.0.1")
}

extension APIFailure {
    static func forbidden(_ message: String, code: String = "FORBIDDEN") -> APIFailure {
        APIFailure(status: .forbidden, code: code, message: message)
    }

    static func conflict(_ message: String, code: String, details: [(key: String, value: JSONValue)] = []) -> APIFailure {
        APIFailure(status: .conflict, code: code, message: message, details: details)
    }

    /// One field's problem as a 422.
    static func invalid(_ field: String, _ problem: String) -> APIFailure {
        .validation([(field, .string(problem))])
    }
}

extension JSONValue {
    /// A stored 0/1 flag as a JSON boolean.
    static func flag(_ value: Int) -> JSONValue { .bool(value != 0) }
}

extension StoreRow {
    /// A TEXT column that may be NULL, as a JSON string or null.
    func optionalString(_ name: String) -> JSONValue {
        optionalText(name).map(JSONValue.string) ?? .null
    }

    /// An INTEGER column that may be NULL, as a JSON number or null.
    func optionalInt(_ name: String) -> JSONValue {
        guard let value = column(name), !value.isNull, let n = value.integer else { return .null }
        return .int(Int(n))
    }
}
