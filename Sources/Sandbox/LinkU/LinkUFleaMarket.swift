import Core
import Hummingbird
import SQLiteNIO

/// Flea-market items (seed 000's FleaMarketItem: status available, sold or
/// removed). Sold comes only from a purchase; the seller may remove an item
/// and put it back. A removed item is visible to its seller only.
enum LinkUFleaMarket {
    static let statuses = Profile.linku.values(of: "FleaMarketItemStatus")

    static func register(on router: CatalogRouter, state: SandboxState) {
        router.get("/api/flea-market/categories") { request, _ in
            _ = try Caller.number()
            var query = ListQuery(request)
            return try await query.respond(state, key: "categories", select: "id, name", from: "flea_market_categories", order: "sort_order") { row in
                .object([("id", .string(row.text("id"))), ("name", .string(row.text("name")))])
            }
        }
        router.get("/api/flea-market/items") { request, _ in try await list(request, state) }
        router.post("/api/flea-market/items") { request, _ in try await create(request, state) }
        router.get("/api/flea-market/items/{id}") { request, context in
            let viewer = try Caller.number()
            return JSONResponse.make(.ok, json(try await item(try pathID(context, what: "item"), viewer: viewer, state)))
        }
        router.put("/api/flea-market/items/{id}") { request, context in try await update(request, try pathID(context, what: "item"), state) }
        router.get("/api/users/flea-market/items") { request, _ in try await mine(request, state) }
    }

    /// An item with its seller and favourites; `?1` is the viewer.
    static let columns = """
        i.id, i.seller_id, i.title, i.description, i.category, i.city, i.price, i.images, i.status,
        i.created_at, i.updated_at, i.refreshed_at, \(LinkUUsers.summaryColumns("u", "seller_")),
        (SELECT COUNT(*) FROM flea_market_favorites f WHERE f.item_id = i.id) AS favorite_count,
        EXISTS (SELECT 1 FROM flea_market_favorites f WHERE f.item_id = i.id AND f.user_id = ?1) AS is_favorited
        """
    static let sellerJoin = "JOIN users u ON u.id = i.seller_id"
    static let tables = "flea_market_items i " + sellerJoin
    /// Refreshing bumps an item to the top.
    static let order = "i.refreshed_at DESC, i.id DESC"

    static func json(_ row: StoreRow) -> JSONValue {
        .object([
            ("id", .int(row.int("id"))),
            ("title", .string(row.text("title"))),
            ("description", .string(row.text("description"))),
            ("category", .string(row.text("category"))),
            ("city", .string(row.text("city"))),
            ("price", jsonNumber(row.double("price"))),
            ("images", decodeStrings(row.text("images"))),
            ("status", .string(row.text("status"))),
            ("seller_id", .int(row.int("seller_id"))),
            ("seller", LinkUUsers.summary(row, "seller_")),
            ("favorite_count", .int(row.int("favorite_count"))),
            ("is_favorited", .flag(row.int("is_favorited"))),
            ("created_at", .string(row.text("created_at"))),
            ("updated_at", .string(row.text("updated_at"))),
            ("refreshed_at", .string(row.text("refreshed_at"))),
        ])
    }

    static func item(_ id: Int, viewer: Int, _ state: SandboxState) async throws -> StoreRow {
        guard let row = try state.store.query("SELECT \(columns) FROM \(tables) WHERE i.id = ?2", [.integer(viewer), .integer(id)]).first,
              row.text("status") != "removed" || row.int("seller_id") == viewer else {
            throw APIFailure.notFound("item \(id) not found", code: "ITEM_NOT_FOUND")
        }
        return row
    }

    /// Filters shared by the market and the seller's own list.
    static func filters(_ query: inout ListQuery) {
        query.equals("category", column: "i.category")
        query.equals("city", column: "i.city")
        query.priceRange(column: "i.price")
        query.keyword(in: ["i.title", "i.description"])
    }

    /// The market: available items unless `status=sold` is asked for.
    /// Removed items are never listed here (their sellers see them in
    /// `/api/users/flea-market/items`).
    static func list(_ request: Request, _ state: SandboxState) async throws -> Response {
        let viewer = try Caller.number()
        var query = ListQuery(request)
        let status = query.choice("status", among: ["available", "sold"]) ?? "available"
        query.filter("i.status = ?", .text(status))
        filters(&query)
        return try await query.respond(state, key: "items", select: columns, from: tables, order: order,
                                       selectBinds: [.integer(viewer)], map: json)
    }

    /// The caller's items in every status.
    static func mine(_ request: Request, _ state: SandboxState) async throws -> Response {
        let viewer = try Caller.number()
        var query = ListQuery(request)
        query.filter("i.seller_id = ?", .integer(viewer))
        if let status = query.choice("status", among: statuses) { query.filter("i.status = ?", .text(status)) }
        filters(&query)
        return try await query.respond(state, key: "items", select: columns, from: tables, order: order,
                                       selectBinds: [.integer(viewer)], map: json)
    }

    /// The editable fields as column changes; `creating` makes title and price required.
    static func changes(_ fields: inout BodyFields, creating: Bool, _ state: SandboxState) async throws -> [(column: String, value: SQLiteData)] {
        var changes: [(column: String, value: SQLiteData)] = []
        if let title = fields.text("title", required: creating || fields.has("title"), max: 100) { changes.append(("title", .text(title))) }
        if let description = fields.text("description", max: 2000) { changes.append(("description", .text(description))) }
        if let price = fields.price(required: creating) { changes.append(("price", .float(price))) }
        if let city = fields.text("city", max: 50) { changes.append(("city", .text(city))) }
        if let images = fields.imageURLs() { changes.append(("images", .text(encodeStrings(images)))) }
        let categories = try state.store.query("SELECT id FROM flea_market_categories ORDER BY sort_order").map { $0.text("id") }
        if let category = fields.choice("category", among: categories) {
            changes.append(("category", .text(category)))
        } else if creating && !fields.has("category") {
            changes.append(("category", .text("other")))
        }
        return changes
    }

    static func create(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        var fields = try await BodyFields.read(request)
        let changes = try await changes(&fields, creating: true, state)
        try fields.check()
        let now = SQLiteData.text(state.timestamp)
        let all = changes + [("seller_id", .integer(userID)), ("status", .text("available")),
                             ("created_at", now), ("updated_at", now), ("refreshed_at", now)]
        let id = try state.store.query("""
            INSERT INTO flea_market_items (\(all.map(\.column).joined(separator: ", "))) VALUES (\(all.map { _ in "?" }.joined(separator: ", ")))
            RETURNING id
            """, all.map(\.value))[0].int("id")
        return JSONResponse.make(.created, json(try await item(id, viewer: userID, state)))
    }

    /// PUT: the seller edits an item that is not sold; `status` may move
    /// between available and removed.
    static func update(_ request: Request, _ id: Int, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        var fields = try await BodyFields.read(request)
        let current = try await item(id, viewer: userID, state)
        guard current.int("seller_id") == userID else { throw APIFailure.forbidden("only the seller can edit item \(id)") }
        var changes = try await changes(&fields, creating: false, state)
        if let status = fields.choice("status", among: ["available", "removed"]) { changes.append(("status", .text(status))) }
        if changes.isEmpty && fields.problems.isEmpty {
            fields.reject("body", "nothing to update: send title, description, price, category, city, images or status")
        }
        let all = changes + [("updated_at", .text(state.timestamp))]
        // Re-checked in the UPDATE itself, against a purchase racing this edit.
        guard current.text("status") != "sold" else { throw notEditable(id) }
        try fields.check()
        let updated = try state.store.query("""
            UPDATE flea_market_items SET \(all.map { "\($0.column) = ?" }.joined(separator: ", ")) WHERE id = ? AND status != 'sold' RETURNING id
            """, all.map(\.value) + [.integer(id)])
        guard !updated.isEmpty else { throw notEditable(id) }
        return JSONResponse.make(.ok, json(try await item(id, viewer: userID, state)))
    }

    static func notEditable(_ id: Int) -> APIFailure {
        .conflict("item \(id) is sold and can no longer be edited", code: "INVALID_ITEM_STATE", details: [("status", .string("sold"))])
    }
}
