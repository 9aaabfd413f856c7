import Core
import Foundation
import Testing
@testable import Sandbox

/// Forum categories and posts (public), posts, replies, toggled likes and
/// favourites, and the view counter.
@Suite struct LinkUForumTests {
    @Test func categoriesAndThePostListArePublic() async throws {
        try await withSandbox { server, http in
            let forums = try await http.call(server, "GET", "/api/forum/forums/visible")
            #expect(forums.status == 200)
            #expect(forums.json?["forums"]?.ids == [1, 2, 3])
            #expect(forums.json?["forums"]?[2]?["post_count"]?.intValue == 2)
            let posts = try await http.call(server, "GET", "/api/forum/posts", [query("page_size", "3")])
            #expect(posts.json?["total"]?.intValue == 4)
            #expect(posts.json?["posts"]?.ids == [4, 3, 2])
            #expect(posts.json?["posts"]?[2]?["like_count"]?.intValue == 2)
            #expect(posts.json?["posts"]?[2]?["reply_count"]?.intValue == 2)
            #expect(posts.json?["posts"]?[2]?["is_liked"] == .bool(false))
            let study = try await http.call(server, "GET", "/api/forum/posts", [query("category_id", "3"), query("keyword", "london")])
            #expect(study.json?["posts"]?.ids == [2])
            // A token, when sent, is checked and personalises the answer.
            let alice = try await http.alice(server)
            let mine = try await http.call(server, "GET", "/api/forum/posts", [query("category_id", "3")], token: alice)
            #expect(mine.json?["posts"]?[1]?["is_liked"] == .bool(true))
            #expect(mine.json?["posts"]?[1]?["is_favorited"] == .bool(true))
            expectError(try await http.call(server, "GET", "/api/forum/posts", token: "not-a-token"), 401, "INVALID_TOKEN")
            expectError(try await http.call(server, "GET", "/api/forum/posts/2"), 401, "UNAUTHORIZED")
            expectError(try await http.call(server, "POST", "/api/forum/posts", [field("title", "x")]), 401, "UNAUTHORIZED")
        }
    }

    @Test func writingAPostChecksItsForum() async throws {
        try await withSandbox { server, http in
            let bob = try await http.bob(server)
            let hidden = try await http.call(server, "POST", "/api/forum/posts", [raw("category_id", "4"), field("content", "psst")], token: bob)
            expectError(hidden, 422, "VALIDATION_ERROR")
            #expect(hidden.json?["details"]?["category_id"] != nil)
            #expect(hidden.json?["details"]?["title"] == .string("required"))
            let created = try await http.call(server, "POST", "/api/forum/posts",
                                              [raw("category_id", "2"), field("title", "Room in Hulme"), field("content", "From April.")], token: bob)
            #expect(created.status == 201)
            #expect(created.json?["author"]?["username"] == .string("bob"))
            #expect(created.json?["view_count"]?.intValue == 0)
            let id = try #require(created.json?["id"]?.intValue)
            #expect(try await http.call(server, "GET", "/api/forum/posts/\(id)", token: bob).json?["title"] == .string("Room in Hulme"))
            expectError(try await http.call(server, "GET", "/api/forum/posts/999", token: bob), 404, "POST_NOT_FOUND")
        }
    }

    @Test func repliesAreListedInOrderAndNotifyTheAuthor() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let bob = try await http.bob(server)
            let thread = try await http.call(server, "GET", "/api/forum/posts/2/replies", token: alice)
            #expect(thread.json?["replies"]?.ids == [1, 2])
            #expect(thread.json?["replies"]?[1]?["parent_reply_id"]?.intValue == 1)
            let wrongParent = try await http.call(server, "POST", "/api/forum/posts/1/replies", [field("content", "hi"), raw("parent_reply_id", "1")], token: bob)
            #expect(wrongParent.json?["details"]?["parent_reply_id"] == .string("post 1 has no reply 1"))
            let reply = try await http.call(server, "POST", "/api/forum/posts/1/replies", [field("content", "Still free?"), raw("parent_reply_id", "3")], token: bob)
            #expect(reply.status == 201)
            #expect(reply.json?["parent_reply_id"]?.intValue == 3)
            let told = try await http.call(server, "GET", "/api/users/notifications/unread", token: alice)
            #expect(told.json?["notifications"]?[0]?["type"] == .string("forum_reply"))
            #expect(told.json?["notifications"]?[0]?["related_id"]?.intValue == 1)
            #expect(try await http.call(server, "GET", "/api/forum/posts/1", token: alice).json?["reply_count"]?.intValue == 2)
            expectError(try await http.call(server, "POST", "/api/forum/posts/9/replies", [field("content", "x")], token: bob), 404, "POST_NOT_FOUND")
        }
    }

    @Test func likesAndFavouritesToggle() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            let like = [field("target_type", "post"), raw("target_id", "3")]
            let on = try await http.call(server, "POST", "/api/forum/likes", like, token: alice)
            #expect(on.json?["liked"] == .bool(true))
            #expect(on.json?["like_count"]?.intValue == 1)
            let off = try await http.call(server, "POST", "/api/forum/likes", like, token: alice)
            #expect(off.json?["liked"] == .bool(false))
            #expect(off.json?["like_count"]?.intValue == 0)
            let reply = try await http.call(server, "POST", "/api/forum/likes", [field("target_type", "reply"), raw("target_id", "1")], token: alice)
            #expect(reply.json?["like_count"]?.intValue == 2)
            let badType = try await http.call(server, "POST", "/api/forum/likes", [field("target_type", "user"), raw("target_id", "1")], token: alice)
            #expect(badType.json?["details"]?["target_type"] != nil)
            expectError(try await http.call(server, "POST", "/api/forum/likes", [field("target_type", "reply"), raw("target_id", "99")], token: alice),
                        404, "REPLY_NOT_FOUND")

            let unfavourite = try await http.call(server, "POST", "/api/forum/favorites", [raw("post_id", "2")], token: alice)
            #expect(unfavourite.json?["favorited"] == .bool(false))
            let favourite = try await http.call(server, "POST", "/api/forum/favorites", [raw("post_id", "2")], token: alice)
            #expect(favourite.json?["favorited"] == .bool(true))
            #expect(favourite.json?["favorite_count"]?.intValue == 1)
        }
    }

    @Test func viewsAreCountedByTheViewEndpointOnly() async throws {
        try await withSandbox { server, http in
            let bob = try await http.bob(server)
            #expect(try await http.call(server, "POST", "/api/forum/posts/2/view", token: bob).json?["view_count"]?.intValue == 31)
            #expect(try await http.call(server, "GET", "/api/forum/posts/2", token: bob).json?["view_count"]?.intValue == 31)
            #expect(try await http.call(server, "POST", "/api/forum/posts/2/view", token: bob).json?["view_count"]?.intValue == 32)
            expectError(try await http.call(server, "POST", "/api/forum/posts/99/view", token: bob), 404, "POST_NOT_FOUND")
        }
    }
}
