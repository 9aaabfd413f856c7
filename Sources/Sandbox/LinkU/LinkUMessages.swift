import Core
import Foundation
import SQLiteNIO

/// LinkU messages and conversations (seed 000, part 5 "Message"/"Conversation"
/// models): the tables, the JSON, and the operations REST and the WebSocket
/// share, so a message is the same row and the same JSON whichever way it came.
enum LinkUMessages {
    static let types = Profile.linku.values(of: "MessageType")
    static let maxContent = 5000
    static let maxClientMessageID = 100

    static let tables = [
        // One row per pair of users, the smaller id first.
        """
        CREATE TABLE conversations (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_a INTEGER NOT NULL REFERENCES users(id),
            user_b INTEGER NOT NULL REFERENCES users(id),
            created_at TEXT NOT NULL,
            UNIQUE (user_a, user_b),
            CHECK (user_a < user_b))
        """,
        // client_message_id: the sender's idempotency key; a re-send with the
        // same key (over REST or the socket) finds the stored message.
        """
        CREATE TABLE messages (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            conversation_id INTEGER NOT NULL REFERENCES conversations(id),
            sender_id INTEGER NOT NULL REFERENCES users(id),
            receiver_id INTEGER NOT NULL REFERENCES users(id),
            content TEXT NOT NULL,
            type TEXT NOT NULL CHECK (type IN ('text', 'image', 'file')),
            client_message_id TEXT,
            is_read INTEGER NOT NULL DEFAULT 0,
            read_at TEXT,
            created_at TEXT NOT NULL,
            UNIQUE (sender_id, client_message_id))
        """,
        "CREATE INDEX messages_by_conversation ON messages (conversation_id, id)",
        "CREATE INDEX messages_unread ON messages (receiver_id, is_read)",
    ]

    /// alice (1) and bob (2) have talked about the parcel task bob applied
    /// for; bob's last message is unread, so alice's conversation list shows a badge.
    static func seed(_ store: SandboxStore) async throws {
        try store.query("INSERT INTO conversations (user_a, user_b, created_at) VALUES (1, 2, '2025-02-06T09:05:00Z')")
        let messages: [(Int, Int, String, Bool, String)] = [
            (2, 1, "Hi alice, is the parcel task still open?", true, "2025-02-06T09:05:00Z"),
            (1, 2, "Yes! Can you pick it up before 5 pm?", true, "2025-02-06T09:07:00Z"),
            (2, 1, "Sure, on my way after lunch.", false, "2025-02-06T09:10:00Z"),
        ]
        for (sender, receiver, content, read, created) in messages {
            try store.query("""
                INSERT INTO messages (conversation_id, sender_id, receiver_id, content, type, is_read, read_at, created_at)
                VALUES (1, ?, ?, ?, 'text', ?, ?, ?)
                """, [.integer(sender), .integer(receiver), .text(content), .integer(read ? 1 : 0),
                      read ? .text(created) : .null, .text(created)])
        }
    }

    // MARK: JSON

    static let columns = "id, conversation_id, sender_id, receiver_id, content, type, client_message_id, is_read, read_at, created_at"

    /// The message model: `{id, conversation_id, sender_id, receiver_id,
    /// content, type, client_message_id, is_read, read_at, created_at}`.
    static func json(_ row: StoreRow) -> JSONValue {
        .object([
            ("id", .int(row.int("id"))),
            ("conversation_id", .int(row.int("conversation_id"))),
            ("sender_id", .int(row.int("sender_id"))),
            ("receiver_id", .int(row.int("receiver_id"))),
            ("content", .string(row.text("content"))),
            ("type", .string(row.text("type"))),
            ("client_message_id", row.optionalText("client_message_id").map(JSONValue.string) ?? .null),
            ("is_read", .bool(row.int("is_read") != 0)),
            ("read_at", row.optionalText("read_at").map(JSONValue.string) ?? .null),
            ("created_at", .string(row.text("created_at"))),
        ])
    }

    /// The sandbox clock as ISO 8601, second precision (tests move the clock).
    static func timestamp(_ state: SandboxState) -> String {
        iso8601(state.now)
    }

    // MARK: Sending

    /// A message to send, checked.
    struct Outgoing {
        var receiverID: Int
        var content: String
        var type: String
        var clientMessageID: String?
    }

    /// Reads `{receiver_id, content, <typeKey>, client_message_id}`: REST names
    /// the type `type`, the socket `message_type` (its `type` names the frame).
    static func outgoing(_ body: JSONValue, typeKey: String, requireClientID: Bool) throws -> Outgoing {
        var problems: [(key: String, value: JSONValue)] = []
        var receiverID = 0
        switch body["receiver_id"] {
        case nil, .null?: problems.append(("receiver_id", .string("required")))
        case let value?:
            // HTTPie's `receiver_id=2` sends a string: accept digits like the task price does.
            if let id = value.intValue ?? value.stringValue.flatMap({ Int($0) }), id > 0 { receiverID = id }
            else { problems.append(("receiver_id", .string("must be a user id (a positive integer)"))) }
        }
        var type = "text"
        if let value = body[typeKey], value != .null {
            if let text = value.stringValue, types.contains(text) { type = text }
            else { problems.append((typeKey, .string("must be one of \(types.joined(separator: ", "))"))) }
        }
        var content = ""
        switch body["content"] {
        case nil, .null?: problems.append(("content", .string("required")))
        case let value?:
            if let text = value.stringValue {
                content = text
                if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    problems.append(("content", .string("must not be empty")))
                } else if text.count > maxContent {
                    problems.append(("content", .string("at most \(maxContent) characters")))
                } else if type != "text", !isLink(text) {
                    // The contract uploads the image first, then sends its URL.
                    problems.append(("content", .string("an \(type) message holds the file's URL (http(s)://… or /…), not its data")))
                }
            } else {
                problems.append(("content", .string("must be a string")))
            }
        }
        var clientMessageID: String?
        switch body["client_message_id"] {
        case nil, .null?:
            if requireClientID { problems.append(("client_message_id", .string("required: the ack names it, and a re-send with it is stored once"))) }
        case let value?:
            if let text = value.stringValue, !text.isEmpty, text.count <= maxClientMessageID { clientMessageID = text }
            else { problems.append(("client_message_id", .string("must be a non-empty string of at most \(maxClientMessageID) characters"))) }
        }
        guard problems.isEmpty else { throw APIFailure.validation(problems) }
        return Outgoing(receiverID: receiverID, content: content, type: type, clientMessageID: clientMessageID)
    }

    static func isLink(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || (text.hasPrefix("/") && !text.hasPrefix("//"))
    }

    /// Stores a message, or finds the one stored earlier under the same
    /// `client_message_id` (`created` is false then; the rest of the re-send
    /// is not compared: the key names the message).
    static func send(_ outgoing: Outgoing, from senderID: Int, _ state: SandboxState) async throws -> (message: JSONValue, created: Bool) {
        let store = state.store
        if let key = outgoing.clientMessageID, let row = try store.query(
            "SELECT \(columns) FROM messages WHERE sender_id = ? AND client_message_id = ?", [.integer(senderID), .text(key)]).first {
            return (json(row), false)
        }
        guard outgoing.receiverID != senderID else {
            throw APIFailure.validation([("receiver_id", .string("you cannot send a message to yourself"))])
        }
        guard try store.query("SELECT id FROM users WHERE id = ?", [.integer(outgoing.receiverID)]).first != nil else {
            throw APIFailure.notFound("user \(outgoing.receiverID) not found", code: "USER_NOT_FOUND")
        }
        let now = timestamp(state)
        let (a, b) = (min(senderID, outgoing.receiverID), max(senderID, outgoing.receiverID))
        try store.query("INSERT INTO conversations (user_a, user_b, created_at) VALUES (?, ?, ?) ON CONFLICT (user_a, user_b) DO NOTHING",
                              [.integer(a), .integer(b), .text(now)])
        guard let conversation = try store.query(
            "SELECT id FROM conversations WHERE user_a = ? AND user_b = ?", [.integer(a), .integer(b)]).first?.int("id") else {
            throw APIFailure(status: .internalServerError, code: "INTERNAL_ERROR", message: "conversation not stored")
        }
        let inserted = try store.query("""
            INSERT INTO messages (conversation_id, sender_id, receiver_id, content, type, client_message_id, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (sender_id, client_message_id) DO NOTHING RETURNING \(columns)
            """, [.integer(conversation), .integer(senderID), .integer(outgoing.receiverID), .text(outgoing.content),
                  .text(outgoing.type), outgoing.clientMessageID.map(SQLiteData.text) ?? .null, .text(now)])
        if let row = inserted.first { return (json(row), true) }
        // Lost a race with the same key from another connection: that one is the message.
        guard let key = outgoing.clientMessageID, let row = try store.query(
            "SELECT \(columns) FROM messages WHERE sender_id = ? AND client_message_id = ?", [.integer(senderID), .text(key)]).first else {
            throw APIFailure(status: .internalServerError, code: "INTERNAL_ERROR", message: "message not stored")
        }
        return (json(row), false)
    }

    /// Delivers a new message to the receiver's open sockets, and to the
    /// sender's other sockets (their other devices), as `{"type":"message"}`.
    static func deliver(_ message: JSONValue, _ state: SandboxState, except origin: OpenSocket? = nil) async {
        let frame = JSONValue.object([("type", .string("message")), ("message", message)])
        if let receiver = message["receiver_id"]?.intValue { await state.send(frame, toUser: String(receiver)) }
        if let sender = message["sender_id"]?.intValue { await state.send(frame, toUser: String(sender), except: origin) }
    }

    // MARK: Reading

    /// Marks a message read by its receiver (403 for anyone else). Marking it
    /// again changes nothing and tells nobody.
    static func markRead(_ id: Int, by userID: Int, _ state: SandboxState) async throws -> (message: JSONValue, changed: Bool) {
        guard let row = try state.store.query("SELECT \(columns) FROM messages WHERE id = ?", [.integer(id)]).first else {
            throw APIFailure.notFound("message \(id) not found", code: "MESSAGE_NOT_FOUND")
        }
        guard row.int("receiver_id") == userID else {
            throw APIFailure(status: .forbidden, code: "FORBIDDEN", message: "only the receiver of message \(id) can mark it read")
        }
        guard row.int("is_read") == 0 else { return (json(row), false) }
        let updated = try state.store.query(
            "UPDATE messages SET is_read = 1, read_at = ? WHERE id = ? AND is_read = 0 RETURNING \(columns)",
            [.text(timestamp(state)), .integer(id)])
        guard let row = updated.first else {
            // Read meanwhile through another connection.
            let again = try state.store.query("SELECT \(columns) FROM messages WHERE id = ?", [.integer(id)])
            return (again.first.map(json) ?? json(row), false)
        }
        return (json(row), true)
    }

    /// Tells the sender's open sockets that their message was read.
    static func sendReceipt(_ message: JSONValue, _ state: SandboxState) async {
        guard let sender = message["sender_id"]?.intValue else { return }
        await state.send(.object([
            ("type", .string("read")),
            ("message_id", message["id"] ?? .null),
            ("conversation_id", message["conversation_id"] ?? .null),
            ("reader_id", message["receiver_id"] ?? .null),
            ("read_at", message["read_at"] ?? .null),
        ]), toUser: String(sender))
    }
}
