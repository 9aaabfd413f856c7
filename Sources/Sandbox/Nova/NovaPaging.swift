import Core
import Foundation
import Hummingbird
import SQLiteNIO

/// Cursor pagination (003: `?cursor=…&limit=20` → `next_cursor`, null at the
/// end). A cursor is opaque: base64url of "<list>:<seq>", the storage position
/// of the last item sent. Paging by position rather than by offset means that
/// posts added or deleted between two pages cause neither duplicates nor gaps,
/// and a cursor from another list is refused instead of being misread.
struct NovaCursorPage {
    let list: String
    let limit: Int
    /// The position of the last item already sent; nil on the first page.
    let after: Int?

    static let maxLimit = 100

    init(_ request: Request, list: String, defaultLimit: Int = 20) throws {
        self.list = list
        let query = request.uri.queryParameters
        var problems: [(key: String, value: JSONValue)] = []
        limit = NovaQuery.limit(query.get("limit"), default: defaultLimit, max: Self.maxLimit, problems: &problems)
        var after: Int?
        if let cursor = query.get("cursor"), !cursor.isEmpty {
            after = Self.decode(cursor, list: list)
            if after == nil { problems.append(("cursor", .string("not a cursor of this list; pass next_cursor from the previous page"))) }
        }
        self.after = after
        guard problems.isEmpty else { throw APIFailure.validation(problems) }
    }

    /// Upper bound for lists sent newest first (`seq < bound`).
    var before: Int { after ?? Int(Int64.max) }
    /// Lower bound for lists sent oldest first (`seq > bound`).
    var since: Int { after ?? 0 }
    /// Rows to fetch: one more than the page, to learn whether another follows.
    var fetch: Int { limit + 1 }

    /// The rows of this page and the cursor of the next one (null at the end).
    /// `rows` were fetched with `LIMIT fetch` and carry a `seq` column.
    func page(_ rows: [StoreRow]) -> (rows: ArraySlice<StoreRow>, next: JSONValue) {
        let shown = rows.prefix(limit)
        guard rows.count > limit, let last = shown.last else { return (shown, .null) }
        return (shown, .string(Self.encode(list: list, seq: last.int("seq"))))
    }

    static func encode(list: String, seq: Int) -> String {
        TokenSigner.base64URL(Array("\(list):\(seq)".utf8))
    }

    static func decode(_ cursor: String, list: String) -> Int? {
        guard let bytes = TokenSigner.decodeBase64URL(cursor), let text = String(bytes: bytes, encoding: .utf8),
              text.hasPrefix(list + ":"), let seq = Int(text.dropFirst(list.count + 1)), seq >= 0 else { return nil }
        return seq
    }
}

/// Query parameters shared by Nova's lists.
enum NovaQuery {
    static func limit(_ text: String?, default value: Int, max: Int, problems: inout [(key: String, value: JSONValue)]) -> Int {
        guard let text, !text.isEmpty else { return value }
        guard let n = Int(text), (1...max).contains(n) else {
            problems.append(("limit", .string("must be an integer from 1 to \(max)")))
            return value
        }
        return n
    }
}
