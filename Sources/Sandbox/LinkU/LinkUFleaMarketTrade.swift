import Core
import Hummingbird
import SQLiteNIO

/// Buying, bumping and favouriting flea-market items, and the lists they feed.
enum LinkUFleaMarketTrade {
    static func register(on router: CatalogRouter, state: SandboxState) {
        router.post("/api/flea-market/items/{id}/direct-purchase") { request, context in
            try await purchase(request, try pathID(context, what: "item"), state)
        }
        router.post("/api/flea-market/items/{id}/refresh") { request, context in
            try await refresh(request, try pathID(context, what: "item"), state)
        }
        // Not in the seeds' tables, which list favourites but no way to add one; see docs/sandbox-linku.md.
        router.post("/api/flea-market/items/{id}/favorite") { request, context in
            let userID = try Caller.number()
            let id = try pathID(context, what: "item")
            _ = try await LinkUFleaMarket.item(id, viewer: userID, state)
            let favorited = try await state.toggle(table: "flea_market_favorites", key: [("user_id", .integer(userID)), ("item_id", .integer(id))])
            let count = try state.store.query("SELECT COUNT(*) AS n FROM flea_market_favorites WHERE item_id = ?", [.integer(id)])[0].int("n")
            return JSONResponse.make(.ok, .object([("item_id", .int(id)), ("favorited", .bool(favorited)), ("favorite_count", .int(count))]))
        }
        router.get("/api/flea-market/my-purchases") { request, _ in try await purchases(request, state) }
        router.get("/api/flea-market/favorites/items") { request, _ in
            let userID = try Caller.number()
            var query = ListQuery(request)
            query.filter("fav.user_id = ?", .integer(userID))
            query.filter("(i.status != 'removed' OR i.seller_id = ?)", .integer(userID))
            return try await query.respond(state, key: "items", select: LinkUFleaMarket.columns,
                                           from: "flea_market_favorites fav JOIN flea_market_items i ON i.id = fav.item_id \(LinkUFleaMarket.sellerJoin)",
                                           order: "fav.created_at DESC, i.id DESC", selectBinds: [.integer(userID)], map: LinkUFleaMarket.json)
        }
    }

    /// Buys an available item at its listed price: it becomes sold, the
    /// purchase is recorded, the seller is notified. The status check and
    /// the sale are one UPDATE, so two buyers cannot both win.
    static func purchase(_ request: Request, _ id: Int, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        let item = try await LinkUFleaMarket.item(id, viewer: userID, state)
        guard item.int("seller_id") != userID else { throw APIFailure.forbidden("you cannot buy your own item") }
        let now = state.timestamp
        guard try !state.store.query("UPDATE flea_market_items SET status = 'sold', updated_at = ? WHERE id = ? AND status = 'available' RETURNING id",
                                           [.text(now), .integer(id)]).isEmpty else {
            let status = try await LinkUFleaMarket.item(id, viewer: userID, state).text("status")
            throw APIFailure.conflict("item \(id) is \(status); only available items can be bought", code: "ITEM_NOT_AVAILABLE",
                                      details: [("status", .string(status))])
        }
        let purchaseID = try state.store.query("""
            INSERT INTO flea_market_purchases (item_id, buyer_id, seller_id, price, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id
            """, [.integer(id), .integer(userID), .integer(item.int("seller_id")), .float(item.double("price")), .text(now)])[0].int("id")
        let buyer = try await LinkUUsers.username(userID, state)
        try await LinkUNotifications.notify(state, item.int("seller_id"), type: "item_sold", title: "Item sold",
                                            content: "\(buyer) bought \"\(item.text("title"))\" for \(jsonNumber(item.double("price")).plainText).",
                                            about: ("flea_market_item", id))
        let rows = try state.store.query("SELECT \(purchaseColumns) FROM \(purchaseTables) WHERE p.id = ?2", [.integer(userID), .integer(purchaseID)])
        return JSONResponse.make(.created, purchaseJSON(rows[0]))
    }

    /// The seller bumps an available item to the top of the list.
    static func refresh(_ request: Request, _ id: Int, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        let item = try await LinkUFleaMarket.item(id, viewer: userID, state)
        guard item.int("seller_id") == userID else { throw APIFailure.forbidden("only the seller can refresh item \(id)") }
        guard try !state.store.query("UPDATE flea_market_items SET refreshed_at = ? WHERE id = ? AND status = 'available' RETURNING id",
                                           [.text(state.timestamp), .integer(id)]).isEmpty else {
            throw APIFailure.conflict("item \(id) is \(item.text("status")); only available items can be refreshed", code: "INVALID_ITEM_STATE",
                                      details: [("status", .string(item.text("status")))])
        }
        return JSONResponse.make(.ok, LinkUFleaMarket.json(try await LinkUFleaMarket.item(id, viewer: userID, state)))
    }

    static let purchaseColumns = "p.id AS purchase_id, p.price AS paid, p.created_at AS purchased_at, " + LinkUFleaMarket.columns
    static let purchaseTables = "flea_market_purchases p JOIN flea_market_items i ON i.id = p.item_id \(LinkUFleaMarket.sellerJoin)"

    static func purchaseJSON(_ row: StoreRow) -> JSONValue {
        .object([
            ("id", .int(row.int("purchase_id"))),
            ("item_id", .int(row.int("id"))),
            ("price", jsonNumber(row.double("paid"))),
            ("created_at", .string(row.text("purchased_at"))),
            ("item", LinkUFleaMarket.json(row)),
        ])
    }

    /// What the caller bought, newest first.
    static func purchases(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        var query = ListQuery(request)
        query.filter("p.buyer_id = ?", .integer(userID))
        return try await query.respond(state, key: "purchases", select: purchaseColumns, from: purchaseTables,
                                       order: "p.created_at DESC, p.id DESC", selectBinds: [.integer(userID)], map: purchaseJSON)
    }
}
