import Core
import Foundation
import Testing
@testable import Sandbox

/// Nova's comments, users, follows and notifications (seed 003) over real sockets.
@Suite struct NovaSocialTests {
    @Test func commentsPageOldestFirstAndOnlyTheirAuthorsDeleteThem() async throws {
        try await withSandbox(nova) { server, http in
            let (alice, _) = try await http.novaLogin(server)
            let (bob, _) = try await http.novaLogin(server, "bob@example.com", "bob12345")
            let post = try #require(try await http.novaPost(server, token: alice)["id"]?.stringValue)
            var made: [String] = []
            for i in 1...5 {
                let created = try await http.call(server, "POST", "/posts/\(post)/comments", [.stringField(name: "text", value: "comment \(i)")], token: i.isMultiple(of: 2) ? alice : bob)
                #expect(created.status == 201)
                #expect(created.json?["comment"]?["post_id"] == .string(post))
                made.append(try #require(created.json?["comment"]?["id"]?.stringValue))
            }
            let walk = try await http.novaWalk(server, "/posts/\(post)/comments", key: "comments", limit: 2, token: alice)
            #expect(walk.ids == made)
            #expect(try await http.call(server, "GET", "/posts/\(post)", token: bob).json?["post"]?["comment_count"]?.intValue == 5)
            let empty = try await http.call(server, "POST", "/posts/\(post)/comments", [.stringField(name: "text", value: "  ")], token: bob)
            #expect(empty.json?["details"]?["text"] == .string("required"))
            // bob wrote comment 1; alice owns the post; on bob's own post alice may delete only hers.
            #expect(try await http.call(server, "DELETE", "/comments/\(made[0])", token: alice).status == 204)
            #expect(try await http.call(server, "DELETE", "/comments/\(made[2])", token: bob).status == 204)
            let bobsPost = try await http.call(server, "POST", "/posts/\(NovaIDs.bobsRamen)/comments", [.stringField(name: "text", value: "mine")], token: bob)
            let denied = try await http.call(server, "DELETE", "/comments/\(try #require(bobsPost.json?["comment"]?["id"]?.stringValue))", token: alice)
            #expect(denied.status == 403)
            #expect(try await http.call(server, "DELETE", "/comments/\(made[0])", token: alice).status == 404)
        }
    }

    @Test func aProfileHasStatsAndFollowingIsIdempotent() async throws {
        try await withSandbox(nova) { server, http in
            let (alice, _) = try await http.novaLogin(server)
            let (bob, _) = try await http.novaLogin(server, "bob@example.com", "bob12345")
            let profile = try await http.call(server, "GET", "/users/bob", token: alice)
            #expect(profile.json?["stats"] == .object([("post_count", .int(3)), ("follower_count", .int(1)), ("following_count", .int(0)), ("is_following", .bool(true))]))
            #expect(profile.json?["user"]?["email"] == .string("b***@example.com"))
            #expect(try await http.call(server, "GET", "/users/nobody", token: alice).status == 404)
            for _ in 0..<2 {
                let follow = try await http.call(server, "POST", "/users/\(NovaIDs.alice)/follow", token: bob)
                #expect(follow.json == .object([("following", .bool(true)), ("follower_count", .int(1))]))
            }
            let me = try await http.call(server, "POST", "/users/\(NovaIDs.bob)/follow", token: bob)
            #expect(me.status == 422)
            #expect(me.json?["code"] == .string("CANNOT_FOLLOW_SELF"))
            let unfollow = try await http.call(server, "DELETE", "/users/\(NovaIDs.bob)/follow", token: alice)
            #expect(unfollow.json == .object([("following", .bool(false)), ("follower_count", .int(0))]))
            #expect(try await http.call(server, "GET", "/users/bob", token: alice).json?["stats"]?["is_following"] == .bool(false))
            #expect(try await http.call(server, "POST", "/users/bob/follow", token: alice).status == 404)
        }
    }

    @Test func followerListsPageToTheEnd() async throws {
        try await withSandbox(nova) { server, http in
            let (bob, _) = try await http.novaLogin(server, "bob@example.com", "bob12345")
            var ids: [String] = []
            for i in 0..<4 {
                let made = try await http.call(server, "POST", "/auth/register", [.stringField(name: "email", value: "fan\(i)@example.com"), .stringField(name: "username", value: "fan\(i)"), .stringField(name: "password", value: "fanpass\(i)x")])
                let token = try #require(made.json?["tokens"]?["access_token"]?.stringValue)
                ids.append(try #require(made.json?["user"]?["id"]?.stringValue))
                #expect(try await http.call(server, "POST", "/users/\(NovaIDs.bob)/follow", token: token).status == 200)
            }
            let followers = try await http.novaWalk(server, "/users/\(NovaIDs.bob)/followers", key: "users", limit: 2, token: bob)
            #expect(followers.ids == ids.reversed() + [NovaIDs.alice])
            #expect(followers.pages == 3)
            let following = try await http.novaWalk(server, "/users/\(NovaIDs.alice)/following", key: "users", limit: 2, token: bob)
            #expect(following.ids == [NovaIDs.bob])
        }
    }

    @Test func searchAndProfileEditingValidate() async throws {
        try await withSandbox(nova) { server, http in
            let (alice, _) = try await http.novaLogin(server)
            let search = try await http.call(server, "GET", "/users/search", [.query(name: "q", value: "BO")], token: alice)
            #expect(search.json?["users"]?[0]?["username"] == .string("bob"))
            #expect(try await http.call(server, "GET", "/users/search", token: alice).json?["details"]?["q"] == .string("required"))
            let edit = try await http.call(server, "PUT", "/users/me", [.stringField(name: "bio", value: "Climber"), .stringField(name: "avatar_url", value: "https://example.com/a.png")], token: alice)
            #expect(edit.status == 200)
            #expect(edit.json?["user"]?["bio"] == .string("Climber"))
            #expect(edit.json?["user"]?["display_name"] == .string("Alice"))
            let bad = try await http.call(server, "PUT", "/users/me", [.stringField(name: "avatar_url", value: "ftp://x"), .stringField(name: "username", value: "zed"),
                                                                        .stringField(name: "bio", value: String(repeating: "b", count: 151))], token: alice)
            #expect(bad.status == 422)
            #expect(bad.json?["details"]?["avatar_url"] == .string("must be an http or https URL"))
            #expect(bad.json?["details"]?["username"] != nil)
            #expect(bad.json?["details"]?["bio"] == .string("at most 150 characters, got 151"))
            let cleared = try await http.call(server, "PUT", "/users/me", [.jsonField(name: "bio", value: .null)], token: alice)
            #expect(cleared.json?["user"]?["bio"] == .null)
        }
    }

    @Test func seededNotificationsAreNewestFirst() async throws {
        try await withSandbox(nova) { server, http in
            for (email, password) in [("alice@example.com", "alice123"), ("bob@example.com", "bob12345")] {
                let (token, _) = try await http.novaLogin(server, email, password)
                let list = try await http.call(server, "GET", "/notifications", token: token)
                guard case let .array(items)? = list.json?["notifications"] else { Issue.record("no list"); return }
                let times = items.compactMap { $0["created_at"]?.stringValue }
                #expect(times.count == items.count && !times.isEmpty)
                #expect(times == times.sorted(by: >))
            }
        }
    }

    @Test func notificationsComeFromEventsAndCanBeRead() async throws {
        try await withSandbox(nova) { server, http in
            let (alice, _) = try await http.novaLogin(server)
            let (bob, _) = try await http.novaLogin(server, "bob@example.com", "bob12345")
            let before = try await http.call(server, "GET", "/notifications", token: alice)
            #expect(before.json?["unread_count"]?.intValue == 2)
            _ = try await http.call(server, "POST", "/posts/\(NovaIDs.alicesFirst)/comments", [.stringField(name: "text", value: "nice, @alice")], token: bob)
            _ = try await http.call(server, "POST", "/users/\(NovaIDs.alice)/follow", token: bob)
            let after = try await http.call(server, "GET", "/notifications", token: alice)
            #expect(after.json?["unread_count"]?.intValue == 4)
            let newest = try #require(after.json?["notifications"]?[0])
            #expect(newest["type"] == .string("follow"))
            #expect(newest["actor"]?["username"] == .string("bob"))
            #expect(newest["post"] == .null)
            let comment = try #require(after.json?["notifications"]?[1])
            #expect(comment["type"] == .string("comment"))
            #expect(comment["post"]?["id"] == .string(NovaIDs.alicesFirst))
            let id = try #require(newest["id"]?.stringValue)
            #expect(try await http.call(server, "PUT", "/notifications/\(id)/read", token: bob).status == 404)
            #expect(try await http.call(server, "PUT", "/notifications/\(id)/read", token: alice).status == 204)
            #expect(try await http.call(server, "GET", "/notifications", token: alice).json?["unread_count"]?.intValue == 3)
            #expect(try await http.call(server, "PUT", "/notifications/read-all", token: alice).status == 204)
            #expect(try await http.call(server, "GET", "/notifications", token: alice).json?["unread_count"]?.intValue == 0)
            let walk = try await http.novaWalk(server, "/notifications", key: "notifications", limit: 2, token: alice)
            #expect(walk.ids.count == 5)
            #expect(Set(walk.ids).count == 5)
        }
    }
}
