import Core
import Foundation
import Hummingbird
import SQLiteNIO

/// One list request: its query parameters turned into SQL conditions, with
/// every bad parameter collected so a single 422 names them all. Every LinkU
/// list answers `{<key>: [...], total, page, page_size}` through `respond`.
struct ListQuery {
    private let parameters: [String: String]
    private(set) var problems: [(key: String, value: JSONValue)] = []
    private(set) var conditions: [String] = []
    private(set) var binds: [SQLiteData] = []

    static let defaultPageSize = 20
    static let maxPageSize = 100

    init(_ request: Request) {
        // The first value wins when a parameter is repeated.
        parameters = Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) }, uniquingKeysWith: { first, _ in first })
    }

    /// A parameter's value, trimmed; nil when absent or empty.
    func text(_ name: String) -> String? {
        guard let value = parameters[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    mutating func reject(_ name: String, _ problem: String) {
        problems.append((name, .string(problem)))
    }

    mutating func integer(_ name: String, default value: Int, range: ClosedRange<Int>) -> Int {
        guard let text = text(name) else { return value }
        guard let n = Int(text), range.contains(n) else {
            reject(name, "must be an integer from \(range.lowerBound) to \(range.upperBound)")
            return value
        }
        return n
    }

    /// An integer id filter such as `category_id`.
    mutating func id(_ name: String) -> Int? {
        guard let text = text(name) else { return nil }
        guard let n = Int(text), n > 0 else { reject(name, "must be a positive integer"); return nil }
        return n
    }

    /// A price bound: a number of at least 0.
    mutating func price(_ name: String) -> Double? {
        guard let text = text(name) else { return nil }
        guard let n = Double(text), n.isFinite, n >= 0 else { reject(name, "must be a number of at least 0"); return nil }
        return n
    }

    /// One of a fixed set of values (an enum such as a status).
    mutating func choice(_ name: String, among values: [String]) -> String? {
        guard let text = text(name) else { return nil }
        guard values.contains(text) else { reject(name, "must be one of \(values.joined(separator: ", "))"); return nil }
        return text
    }

    /// Adds `sql` (with `?` placeholders) to the WHERE clause.
    mutating func filter(_ sql: String, _ values: SQLiteData...) {
        conditions.append(sql)
        binds.append(contentsOf: values)
    }

    /// `column = value`, case-insensitively, when the parameter is given.
    mutating func equals(_ name: String, column: String) {
        if let value = text(name) { filter("\(column) = ? COLLATE NOCASE", .text(value)) }
    }

    /// `min_price` and `max_price` on `column`; a reversed range is a 422.
    mutating func priceRange(column: String) {
        let low = price("min_price")
        let high = price("max_price")
        if let low, let high, low > high { reject("max_price", "must not be less than min_price") }
        if let low { filter("\(column) >= ?", .float(low)) }
        if let high { filter("\(column) <= ?", .float(high)) }
    }

    /// `keyword` anywhere in any of `columns`.
    mutating func keyword(in columns: [String]) {
        guard let keyword = text("keyword") else { return }
        conditions.append("(" + columns.map { "\($0) LIKE ? ESCAPE '\\'" }.joined(separator: " OR ") + ")")
        binds.append(contentsOf: Array(repeating: .text(likePattern(keyword)), count: columns.count))
    }

    /// Runs the count and the page: `select` names the columns, `from` the
    /// tables (and joins), `order` the ORDER BY clause. Throws the collected 422 first.
    mutating func respond(_ state: SandboxState, key: String, select: String, from: String, order: String,
                          selectBinds: [SQLiteData] = [],
                          map: (StoreRow) -> JSONValue) async throws -> Response {
        let page = integer("page", default: 1, range: 1...100_000)
        let pageSize = integer("page_size", default: Self.defaultPageSize, range: 1...Self.maxPageSize)
        guard problems.isEmpty else { throw APIFailure.validation(problems) }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        // The page, then the total. Both statements stay prepared in the store;
        // a window count (`COUNT(*) OVER ()`) in one query cost more, as SQLite
        // builds a temporary table for it on every call. Run together, they
        // see the same data.
        let (rows, total) = try state.store.atomically { query in
            (try query("SELECT \(select) FROM \(from)\(filter) ORDER BY \(order) LIMIT ? OFFSET ?",
                       selectBinds + binds + [.integer(pageSize), .integer((page - 1) * pageSize)]),
             try query("SELECT COUNT(*) AS n FROM \(from)\(filter)", binds).first?.int("n") ?? 0)
        }
        return JSONResponse.make(.ok, .object([
            (key, .array(rows.map(map))),
            ("total", .int(total)),
            ("page", .int(page)),
            ("page_size", .int(pageSize)),
        ]))
    }
}
