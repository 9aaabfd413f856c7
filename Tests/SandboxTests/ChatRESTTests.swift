import Core
import Foundation
import Testing
@testable import Sandbox

/// The messaging REST endpoints of seed 000's appendix 1 (消息).
@Suite struct ChatRESTTests {
    /// A third user (the seed may or may not have one), for a second conversation.
    func makeCarol(_ server: SandboxServer) async throws -> Int {
        let store = server.state.store
        try store.query("""
            INSERT INTO users (email, username, password_hash, created_at)
            SELECT 'carol.chat@example.com', 'carol', 'x', '2025-01-07T11:00:00Z'
            WHERE NOT EXISTS (SELECT 1 FROM users WHERE email = 'carol.chat@example.com')
            """)
        return try #require(try await store.query("SELECT id FROM users WHERE email = 'carol.chat@example.com'").first?.int("id"))
    }

    func send(_ http: LiveTransport, _ server: SandboxServer, to receiver: Int, _ content: String, type: String? = nil,
              token: String) async throws -> ReceivedResponse {
        var items: [RequestItem] = [.jsonField(name: "receiver_id", value: .int(receiver)), .stringField(name: "content", value: content)]
        if let type { items.append(.stringField(name: "type", value: type)) }
        return try await http.call(server, "POST", "/api/users/messages/send", items, token: token)
    }

    @Test func conversationsShowTheOtherUserTheLastMessageAndUnreadCount() async throws {
        try await withSandbox { server, http in
            let (alice, bob) = try await http.loginBoth(server)
            let seeded = try await http.call(server, "GET", "/api/users/conversations", token: alice)
            #expect(seeded.status == 200)
            let first = try #require(seeded.json?["conversations"]?[0])
            #expect(first["other_user"]?["username"] == .string("bob"))
            #expect(first["last_message"]?["content"] == .string("Sure, on my way after lunch."))
            #expect(first["unread_count"]?.intValue == 1)
            #expect(seeded.json?["total"]?.intValue == 1)
            #expect(seeded.json?["unread_total"]?.intValue == 1)

            // A message to carol starts a second conversation, listed first.
            let carol = try await makeCarol(server)
            #expect(try await send(http, server, to: carol, "hello carol", token: alice).status == 201)
            let two = try await http.call(server, "GET", "/api/users/conversations", token: alice)
            #expect(two.json?["total"]?.intValue == 2)
            #expect(two.json?["conversations"]?[0]?["other_user"]?["id"]?.intValue == carol)
            #expect(two.json?["conversations"]?[0]?["unread_count"]?.intValue == 0)
            let paged = try await http.call(server, "GET", "/api/users/conversations",
                                            [.query(name: "page", value: "2"), .query(name: "page_size", value: "1")], token: alice)
            #expect(paged.json?["conversations"]?[0]?["other_user"]?["username"] == .string("bob"))
            // bob's view of the same conversation: nothing unread for him.
            let bobs = try await http.call(server, "GET", "/api/users/conversations", token: bob)
            #expect(bobs.json?["conversations"]?[0]?["other_user"]?["username"] == .string("alice"))
            #expect(bobs.json?["conversations"]?[0]?["unread_count"]?.intValue == 0)
            #expect(try await http.call(server, "GET", "/api/users/conversations").status == 401)
        }
    }

    @Test func messagesArePagedNewestFirstOrOldestFirst() async throws {
        try await withSandbox { server, http in
            let (alice, bob) = try await http.loginBoth(server)
            let newest = try await http.call(server, "GET", "/api/users/messages",
                                             [.query(name: "conversation_id", value: "1"), .query(name: "page_size", value: "2")], token: alice)
            #expect(newest.status == 200)
            #expect(newest.json?["total"]?.intValue == 3)
            #expect(newest.json?["order"] == .string("desc"))
            #expect(newest.json?["messages"]?[0]?["id"]?.intValue == 3)
            #expect(newest.json?["messages"]?[1]?["id"]?.intValue == 2)
            let oldest = try await http.call(server, "GET", "/api/users/messages",
                                             [.query(name: "user_id", value: "1"), .query(name: "order", value: "asc"),
                                              .query(name: "page", value: "2"), .query(name: "page_size", value: "2")], token: bob)
            #expect(oldest.json?["conversation_id"]?.intValue == 1)
            #expect(oldest.json?["messages"]?[0]?["id"]?.intValue == 3)
            let later = try await http.call(server, "GET", "/api/users/messages",
                                            [.query(name: "conversation_id", value: "1"), .query(name: "after_id", value: "2")], token: alice)
            #expect(later.json?["total"]?.intValue == 1)
            // No conversation with carol yet: empty, not an error.
            let carol = try await makeCarol(server)
            let none = try await http.call(server, "GET", "/api/users/messages", [.query(name: "user_id", value: "\(carol)")], token: alice)
            #expect(none.status == 200)
            #expect(none.json?["conversation_id"] == .null)
            #expect(none.json?["messages"] == .array([]))
        }
    }

    @Test func messagesOfSomeoneElsesConversationAreForbidden() async throws {
        try await withSandbox { server, http in
            let (alice, bob) = try await http.loginBoth(server)
            let toCarol = try await send(http, server, to: try await makeCarol(server), "psst", token: alice)
            let conversation = try #require(toCarol.json?["conversation_id"]?.intValue)
            let peek = try await http.call(server, "GET", "/api/users/messages", [.query(name: "conversation_id", value: "\(conversation)")], token: bob)
            #expect(peek.status == 403)
            #expect(peek.json?["error_code"] == .string("FORBIDDEN"))
            let missing = try await http.call(server, "GET", "/api/users/messages", [.query(name: "conversation_id", value: "99")], token: bob)
            #expect(missing.json?["error_code"] == .string("CONVERSATION_NOT_FOUND"))
            let neither = try await http.call(server, "GET", "/api/users/messages", token: bob)
            #expect(neither.status == 422)
            let badOrder = try await http.call(server, "GET", "/api/users/messages",
                                               [.query(name: "user_id", value: "1"), .query(name: "order", value: "sideways")], token: bob)
            #expect(badOrder.json?["details"]?["order"] != nil)
        }
    }

    @Test func sendingChecksItsFields() async throws {
        try await withSandbox { server, http in
            let (alice, _) = try await http.loginBoth(server)
            let image = try await send(http, server, to: 2, "https://cdn.example.com/a.png", type: "image", token: alice)
            #expect(image.status == 201)
            #expect(image.json?["type"] == .string("image"))
            let data = try await send(http, server, to: 2, "iVBORw0KGgo", type: "image", token: alice)
            #expect(data.status == 422)
            #expect(data.json?["details"]?["content"] != nil)
            let kind = try await send(http, server, to: 2, "x", type: "video", token: alice)
            #expect(kind.json?["details"]?["type"] != nil)
            let myself = try await send(http, server, to: 1, "note to self", token: alice)
            #expect(myself.status == 422)
            let nobody = try await send(http, server, to: 42, "hello?", token: alice)
            #expect(nobody.status == 404)
            #expect(nobody.json?["error_code"] == .string("USER_NOT_FOUND"))
            let empty = try await send(http, server, to: 2, "   ", token: alice)
            #expect(empty.json?["details"]?["content"] != nil)
            // HTTPie's receiver_id=2 is a string; it is accepted.
            let stringID = try await http.call(server, "POST", "/api/users/messages/send",
                                               [.stringField(name: "receiver_id", value: "2"), .stringField(name: "content", value: "hi")], token: alice)
            #expect(stringID.status == 201)
        }
    }

    @Test func onlyTheReceiverMarksAMessageRead() async throws {
        try await withSandbox { server, http in
            let (alice, bob) = try await http.loginBoth(server)
            // Message 3 of the seed: bob to alice, unread.
            let bySender = try await http.call(server, "PUT", "/api/users/messages/3/read", token: bob)
            #expect(bySender.status == 403)
            #expect(bySender.json?["error_code"] == .string("FORBIDDEN"))
            let read = try await http.call(server, "PUT", "/api/users/messages/3/read", token: alice)
            #expect(read.status == 200)
            #expect(read.json?["is_read"] == .bool(true))
            let readAt = try #require(read.json?["read_at"]?.stringValue)
            let again = try await http.call(server, "PUT", "/api/users/messages/3/read", token: alice)
            #expect(again.json?["read_at"] == .string(readAt))
            #expect(try await http.call(server, "PUT", "/api/users/messages/99/read", token: alice).status == 404)
            let list = try await http.call(server, "GET", "/api/users/conversations", token: alice)
            #expect(list.json?["conversations"]?[0]?["unread_count"]?.intValue == 0)
        }
    }
}
