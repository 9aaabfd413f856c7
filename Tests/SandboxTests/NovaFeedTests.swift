import Core
import Foundation
import Testing
@testable import Sandbox

/// Nova's feed and explore (seed 003 "Feed API"): cursor and page paging.
@Suite struct NovaFeedTests {
    @Test func theFeedWalksToItsEndWithoutDuplicatesOrGaps() async throws {
        try await withSandbox(nova) { server, http in
            let (alice, _) = try await http.novaLogin(server)
            let (bob, _) = try await http.novaLogin(server, "bob@example.com", "bob12345")
            // alice follows bob: her feed is all five seeded posts, newest first.
            let walk = try await http.novaWalk(server, "/feed", key: "posts", limit: 2, token: alice)
            #expect(walk.ids == (1...5).reversed().map { "b0a1c2d3-000\($0)-4000-8000-00000000000\($0)" })
            #expect(walk.pages == 3)
            // bob follows nobody: only his own three.
            #expect(try await http.novaWalk(server, "/feed", key: "posts", limit: 10, token: bob).ids.count == 3)
        }
    }

    @Test func postsAddedBetweenPagesCauseNoDuplicates() async throws {
        try await withSandbox(nova) { server, http in
            let (alice, _) = try await http.novaLogin(server)
            let first = try await http.call(server, "GET", "/feed", [.query(name: "limit", value: "2")], token: alice)
            let cursor = try #require(first.json?["next_cursor"]?.stringValue)
            _ = try await http.novaPost(server, token: alice, caption: "new while scrolling")
            let second = try await http.call(server, "GET", "/feed", [.query(name: "limit", value: "2"), .query(name: "cursor", value: cursor)], token: alice)
            #expect(second.json?["posts"]?[0]?["id"] == .string("b0a1c2d3-0003-4000-8000-000000000003"))
            let top = try await http.call(server, "GET", "/feed", [.query(name: "limit", value: "1")], token: alice)
            #expect(top.json?["posts"]?[0]?["caption"] == .string("new while scrolling"))
        }
    }

    @Test func badCursorsAndLimitsAre422() async throws {
        try await withSandbox(nova) { server, http in
            let (alice, _) = try await http.novaLogin(server)
            let garbage = try await http.call(server, "GET", "/feed", [.query(name: "cursor", value: "xyz")], token: alice)
            #expect(garbage.status == 422)
            #expect(garbage.json?["details"]?["cursor"] != nil)
            // A cursor of another list is refused, not misread.
            let notes = try await http.call(server, "GET", "/notifications", [.query(name: "limit", value: "1")], token: alice)
            let foreign = try #require(notes.json?["next_cursor"]?.stringValue)
            #expect(try await http.call(server, "GET", "/feed", [.query(name: "cursor", value: foreign)], token: alice).status == 422)
            for limit in ["0", "101", "ten"] {
                let bad = try await http.call(server, "GET", "/feed", [.query(name: "limit", value: limit)], token: alice)
                #expect(bad.json?["details"]?["limit"] == .string("must be an integer from 1 to 100"))
            }
            #expect(try await http.call(server, "GET", "/feed").status == 401)
        }
    }

    @Test func exploreIsPagedWithHasMore() async throws {
        try await withSandbox(nova) { server, http in
            let (bob, _) = try await http.novaLogin(server, "bob@example.com", "bob12345")
            let (alice, _) = try await http.novaLogin(server)
            for caption in ["one", "two", "three"] { _ = try await http.novaPost(server, token: alice, caption: caption) }
            // bob's explore: alice's five posts; her liked first post leads.
            var ids: [String] = []
            for page in 1...3 {
                let response = try await http.call(server, "GET", "/feed/explore", [.query(name: "page", value: String(page)), .query(name: "limit", value: "2")], token: bob)
                #expect(response.status == 200)
                ids += response.json?["posts"].flatMap { if case let .array(a) = $0 { a } else { nil } }?.compactMap { $0["id"]?.stringValue } ?? []
                #expect(response.json?["has_more"] == .bool(page < 3))
            }
            #expect(ids.count == 5)
            #expect(Set(ids).count == 5)
            #expect(ids.first == NovaIDs.alicesFirst)
            let beyond = try await http.call(server, "GET", "/feed/explore", [.query(name: "page", value: "4"), .query(name: "limit", value: "2")], token: bob)
            #expect(beyond.json?["posts"] == .array([]))
            #expect(beyond.json?["has_more"] == .bool(false))
            let bad = try await http.call(server, "GET", "/feed/explore", [.query(name: "page", value: "0")], token: bob)
            #expect(bad.status == 422)
        }
    }
}
