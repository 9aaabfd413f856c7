import Core
import Foundation
import Testing
@testable import Sandbox

/// Two users chatting over real sockets, and REST agreeing with the socket.
@Suite struct ChatTests {
    @Test func aliceAndBobChat() async throws {
        try await withSandbox { server, http in
            let (alice, bob) = try await http.loginBoth(server)
            let bobSocket = try await TestSocket.connect(server, "/ws/chat/2?token=\(bob)")
            let aliceSocket = try await TestSocket.connect(server, "/ws/chat/1?token=\(alice)")

            aliceSocket.send(#"{"type":"message","client_message_id":"a-1","receiver_id":2,"content":"hi bob","message_type":"text"}"#)
            let ack = try await aliceSocket.next()
            #expect(ack["type"] == .string("ack"))
            #expect(ack["client_message_id"] == .string("a-1"))
            let message = try #require(ack["message"])
            let id = try #require(message["id"]?.intValue)
            #expect(message["sender_id"]?.intValue == 1)
            #expect(message["receiver_id"]?.intValue == 2)
            #expect(message["content"] == .string("hi bob"))
            #expect(message["type"] == .string("text"))
            #expect(message["is_read"] == .bool(false))
            #expect(message["created_at"]?.stringValue?.hasSuffix("Z") == true)

            let delivered = try await bobSocket.next()
            #expect(delivered["type"] == .string("message"))
            #expect(delivered["message"] == message)

            // REST shows the same message, newest first.
            let listed = try await http.call(server, "GET", "/api/users/messages", [.query(name: "user_id", value: "2")], token: alice)
            #expect(listed.status == 200)
            #expect(listed.json?["messages"]?[0] == message)

            bobSocket.send(#"{"type":"read","message_id":\#(id)}"#)
            let receipt = try await aliceSocket.next()
            #expect(receipt["type"] == .string("read"))
            #expect(receipt["message_id"]?.intValue == id)
            #expect(receipt["reader_id"]?.intValue == 2)
            let after = try await http.call(server, "GET", "/api/users/messages", [.query(name: "user_id", value: "1")], token: bob)
            #expect(after.json?["messages"]?[0]?["is_read"] == .bool(true))

            // bob answers; alice's socket gets it.
            bobSocket.send(#"{"type":"message","client_message_id":"b-1","receiver_id":1,"content":"hi alice"}"#)
            #expect(try await bobSocket.next()["type"] == .string("ack"))
            let reply = try await aliceSocket.next()
            #expect(reply["message"]?["content"] == .string("hi alice"))
            await aliceSocket.close()
            await bobSocket.close()
        }
    }

    @Test func aMessageSentOverRESTReachesOpenSockets() async throws {
        try await withSandbox { server, http in
            let (alice, bob) = try await http.loginBoth(server)
            let bobSocket = try await TestSocket.connect(server, "/ws/chat/2?token=\(bob)")
            let alicePhone = try await TestSocket.connect(server, "/ws/chat/1?token=\(alice)")
            let sent = try await http.call(server, "POST", "/api/users/messages/send",
                                           [.jsonField(name: "receiver_id", value: .int(2)), .stringField(name: "content", value: "over REST")],
                                           token: alice)
            #expect(sent.status == 201)
            let delivered = try await bobSocket.next()
            #expect(delivered["type"] == .string("message"))
            #expect(delivered["message"] == sent.json)
            // The sender's own open sockets (other devices) get it too.
            #expect(try await alicePhone.next()["message"] == sent.json)

            // A read over REST sends the receipt to the sender's socket.
            let id = try #require(sent.json?["id"]?.intValue)
            let read = try await http.call(server, "PUT", "/api/users/messages/\(id)/read", token: bob)
            #expect(read.status == 200)
            let receipt = try await alicePhone.next()
            #expect(receipt["type"] == .string("read"))
            #expect(receipt["message_id"]?.intValue == id)
            await bobSocket.close()
            await alicePhone.close()
        }
    }

    @Test func aResentClientMessageIDIsStoredOnce() async throws {
        try await withSandbox { server, http in
            let (alice, bob) = try await http.loginBoth(server)
            let bobSocket = try await TestSocket.connect(server, "/ws/chat/2?token=\(bob)")
            let aliceSocket = try await TestSocket.connect(server, "/ws/chat/1?token=\(alice)")
            let frame = #"{"type":"message","client_message_id":"dup-1","receiver_id":2,"content":"only once"}"#
            aliceSocket.send(frame)
            let first = try await aliceSocket.next()
            aliceSocket.send(frame)
            let second = try await aliceSocket.next()
            #expect(first["type"] == .string("ack"))
            #expect(second["type"] == .string("ack"))
            let id = try #require(first["message"]?["id"]?.intValue)
            #expect(second["message"]?["id"]?.intValue == id)

            // The same key over REST (the contract's app also saves over REST) finds it too.
            let rest = try await http.call(server, "POST", "/api/users/messages/send",
                                           [.jsonField(name: "receiver_id", value: .int(2)), .stringField(name: "content", value: "only once"),
                                            .stringField(name: "client_message_id", value: "dup-1")], token: alice)
            #expect(rest.status == 200)
            #expect(rest.json?["id"]?.intValue == id)

            // bob got it once: his next frame is the one after it.
            #expect(try await bobSocket.next()["message"]?["id"]?.intValue == id)
            _ = try await http.call(server, "POST", "/api/users/messages/send",
                                    [.jsonField(name: "receiver_id", value: .int(2)), .stringField(name: "content", value: "next")], token: alice)
            #expect(try await bobSocket.next()["message"]?["content"] == .string("next"))

            let listed = try await http.call(server, "GET", "/api/users/messages", [.query(name: "user_id", value: "2")], token: alice)
            let contents = listed.json?["messages"].flatMap { value -> [String]? in
                guard case let .array(items) = value else { return nil }
                return items.compactMap { $0["content"]?.stringValue }
            } ?? []
            #expect(contents.filter { $0 == "only once" }.count == 1)
            await aliceSocket.close()
            await bobSocket.close()
        }
    }

    @Test func everySocketOfTheReceiverGetsTheMessage() async throws {
        try await withSandbox { server, http in
            let (alice, bob) = try await http.loginBoth(server)
            let phone = try await TestSocket.connect(server, "/ws/chat/2?token=\(bob)")
            let laptop = try await TestSocket.connect(server, "/ws/chat/2?token=\(bob)")
            let aliceSocket = try await TestSocket.connect(server, "/ws/chat/1?token=\(alice)")
            aliceSocket.send(#"{"type":"message","client_message_id":"m","receiver_id":2,"content":"both"}"#)
            #expect(try await aliceSocket.next()["type"] == .string("ack"))
            #expect(try await phone.next()["message"]?["content"] == .string("both"))
            #expect(try await laptop.next()["message"]?["content"] == .string("both"))
            for socket in [phone, laptop, aliceSocket] { await socket.close() }
        }
    }
}
