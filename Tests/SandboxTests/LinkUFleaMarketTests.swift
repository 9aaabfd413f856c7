import Core
import Foundation
import Testing
@testable import Sandbox

/// Flea-market listing, filters, owner-only edits, purchases, refresh and favourites.
@Suite struct LinkUFleaMarketTests {
    @Test func theMarketListsAvailableItemsWithFilters() async throws {
        try await withSandbox { server, http in
            let bob = try await http.bob(server)
            let market = try await http.call(server, "GET", "/api/flea-market/items", token: bob)
            #expect(market.json?["items"]?.ids == [3, 2, 1])
            #expect(market.json?["total"]?.intValue == 3)
            #expect(market.json?["items"]?[0]?["seller"]?["username"] == .string("alice"))
            #expect(market.json?["items"]?[0]?["is_favorited"] == .bool(true))
            let sold = try await http.call(server, "GET", "/api/flea-market/items", [query("status", "sold")], token: bob)
            #expect(sold.json?["items"]?.ids == [4])
            let cheap = try await http.call(server, "GET", "/api/flea-market/items", [query("min_price", "15"), query("max_price", "20")], token: bob)
            #expect(cheap.json?["items"]?.ids == [2, 1])
            let search = try await http.call(server, "GET", "/api/flea-market/items",
                                             [query("keyword", "tyres"), query("city", "manchester"), query("category", "sports")], token: bob)
            #expect(search.json?["items"]?.ids == [3])
            let removed = try await http.call(server, "GET", "/api/flea-market/items", [query("status", "removed")], token: bob)
            #expect(removed.json?["details"]?["status"] == .string("must be one of available, sold"))
            let paged = try await http.call(server, "GET", "/api/flea-market/items", [query("page", "2"), query("page_size", "2")], token: bob)
            #expect(paged.json?["items"]?.ids == [1])
            expectError(try await http.call(server, "GET", "/api/flea-market/items"), 401, "UNAUTHORIZED")
            let categories = try await http.call(server, "GET", "/api/flea-market/categories", token: bob)
            #expect(categories.json?["total"]?.intValue == 6)
            #expect(categories.json?["categories"]?[0]?["id"] == .string("electronics"))
        }
    }

    @Test func onlyTheSellerEditsAndARemovedItemIsHiddenFromOthers() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let bob = try await http.bob(server)
            let invalid = try await http.call(server, "POST", "/api/flea-market/items", [raw("price", "-1"), field("category", "cars")], token: alice)
            #expect(invalid.json?["details"]?["title"] == .string("required"))
            #expect(invalid.json?["details"]?["price"] == .string("must not be negative"))
            #expect(invalid.json?["details"]?["category"] != nil)
            let noPrice = try await http.call(server, "POST", "/api/flea-market/items", [field("title", "Kettle")], token: alice)
            #expect(noPrice.json?["details"]?["price"] == .string("required"))
            let created = try await http.call(server, "POST", "/api/flea-market/items", [field("title", "Kettle"), raw("price", "0")], token: alice)
            #expect(created.status == 201)
            #expect(created.json?["status"] == .string("available"))
            #expect(created.json?["category"] == .string("other"))
            let id = try #require(created.json?["id"]?.intValue)

            let foreign = try await http.call(server, "PUT", "/api/flea-market/items/\(id)", [raw("price", "1")], token: bob)
            expectError(foreign, 403, "FORBIDDEN")
            let sellAsStatus = try await http.call(server, "PUT", "/api/flea-market/items/\(id)", [field("status", "sold")], token: alice)
            #expect(sellAsStatus.json?["details"]?["status"] == .string("must be one of available, removed"))
            let delisted = try await http.call(server, "PUT", "/api/flea-market/items/\(id)", [field("status", "removed")], token: alice)
            #expect(delisted.json?["status"] == .string("removed"))
            expectError(try await http.call(server, "GET", "/api/flea-market/items/\(id)", token: bob), 404, "ITEM_NOT_FOUND")
            #expect(try await http.call(server, "GET", "/api/flea-market/items/\(id)", token: alice).status == 200)
            let mine = try await http.call(server, "GET", "/api/users/flea-market/items", token: alice)
            #expect(mine.json?["items"]?.ids.contains(id) == true)
            #expect(mine.json?["total"]?.intValue == 4)
            let removedOnly = try await http.call(server, "GET", "/api/users/flea-market/items", [query("status", "removed")], token: alice)
            #expect(Set(removedOnly.json?["items"]?.ids ?? []) == [5, id])
        }
    }

    @Test func buyingMarksTheItemSoldAndTellsTheSeller() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let bob = try await http.bob(server)
            expectError(try await http.call(server, "POST", "/api/flea-market/items/2/direct-purchase", token: bob), 403, "FORBIDDEN")
            let bought = try await http.call(server, "POST", "/api/flea-market/items/1/direct-purchase", token: bob)
            #expect(bought.status == 201)
            #expect(bought.json?["price"] == .number("15"))
            #expect(bought.json?["item"]?["status"] == .string("sold"))
            let again = try await http.call(server, "POST", "/api/flea-market/items/1/direct-purchase", token: bob)
            expectError(again, 409, "ITEM_NOT_AVAILABLE")
            #expect(again.json?["details"]?["status"] == .string("sold"))
            expectError(try await http.call(server, "POST", "/api/flea-market/items/5/direct-purchase", token: bob), 404, "ITEM_NOT_FOUND")

            let told = try await http.call(server, "GET", "/api/users/notifications/unread", token: alice)
            #expect(told.json?["notifications"]?[0]?["type"] == .string("item_sold"))
            #expect(told.json?["notifications"]?[0]?["content"] == .string("bob bought \"Desk lamp\" for 15."))
            let purchases = try await http.call(server, "GET", "/api/flea-market/my-purchases", token: bob)
            #expect(purchases.json?["purchases"]?[0]?["item_id"]?.intValue == 1)
            #expect(try await http.call(server, "GET", "/api/flea-market/my-purchases", token: alice).json?["purchases"]?[0]?["item"]?["id"]?.intValue == 4)
            let edit = try await http.call(server, "PUT", "/api/flea-market/items/1", [field("title", "Lamp")], token: alice)
            expectError(edit, 409, "INVALID_ITEM_STATE")
        }
    }

    @Test func refreshingBumpsAnItemToTheTop() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let bob = try await http.bob(server)
            expectError(try await http.call(server, "POST", "/api/flea-market/items/1/refresh", token: bob), 403, "FORBIDDEN")
            #expect(try await http.call(server, "POST", "/api/flea-market/items/1/refresh", token: alice).status == 200)
            let market = try await http.call(server, "GET", "/api/flea-market/items", token: bob)
            #expect(market.json?["items"]?.ids == [1, 3, 2])
            expectError(try await http.call(server, "POST", "/api/flea-market/items/4/refresh", token: bob), 409, "INVALID_ITEM_STATE")
        }
    }

    @Test func favouritesAreToggledAndListed() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            #expect(try await http.call(server, "GET", "/api/flea-market/favorites/items", token: alice).json?["items"]?.ids == [2])
            let added = try await http.call(server, "POST", "/api/flea-market/items/4/favorite", token: alice)
            #expect(added.json?["favorited"] == .bool(true))
            #expect(try await http.call(server, "GET", "/api/flea-market/favorites/items", token: alice).json?["items"]?.ids == [4, 2])
            let removed = try await http.call(server, "POST", "/api/flea-market/items/2/favorite", token: alice)
            #expect(removed.json?["favorited"] == .bool(false))
            #expect(removed.json?["favorite_count"]?.intValue == 0)
            let favourites = try await http.call(server, "GET", "/api/flea-market/favorites/items", token: alice)
            #expect(favourites.json?["items"]?.ids == [4])
            #expect(favourites.json?["total"]?.intValue == 1)
        }
    }
}
