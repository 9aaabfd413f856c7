import Core
import Hummingbird
import SQLiteNIO

/// LinkU messaging over REST (seed 000, appendix 1, 消息): conversations,
/// one conversation's messages, send, mark read. Sends and reads reach open
/// chat sockets too, so REST and the socket never disagree.
enum LinkUMessagesRoutes {
    static func register(on router: CatalogRouter, state: SandboxState) {
        router.get("/api/users/conversations") { request, _ in try await conversations(request, state) }
        router.get("/api/users/messages") { request, _ in try await messages(request, state) }
        router.post("/api/users/messages/send") { request, _ in try await send(request, state) }
        router.put("/api/users/messages/{id}/read") { request, context in
            let userID = try Caller.number()
            guard let id = context.parameters.get("id", as: Int.self) else {
                throw APIFailure.badRequest("message id must be an integer")
            }
            let read = try await LinkUMessages.markRead(id, by: userID, state)
            if read.changed { await LinkUMessages.sendReceipt(read.message, state) }
            return JSONResponse.make(.ok, read.message)
        }
    }

    /// `page` (from 1) and `page_size` (1…100, default 20), as for tasks.
    struct Paging {
        var page = 1
        var pageSize = 20
        var offset: Int { (page - 1) * pageSize }

        init(_ request: Request, problems: inout [(key: String, value: JSONValue)]) {
            let query = request.uri.queryParameters
            func integer(_ name: String, _ range: ClosedRange<Int>) -> Int? {
                guard let text = query.get(name) else { return nil }
                guard let n = Int(text), range.contains(n) else {
                    problems.append((name, .string("must be an integer from \(range.lowerBound) to \(range.upperBound)")))
                    return nil
                }
                return n
            }
            page = integer("page", 1...100_000) ?? 1
            pageSize = integer("page_size", 1...100) ?? 20
        }
    }

    /// `GET /api/users/conversations`: the caller's conversations, the one
    /// with the latest message first, each with the other user, the last
    /// message and how many messages the caller has not read.
    static func conversations(_ request: Request, _ state: SandboxState) async throws -> Response {
        let me = try Caller.number()
        var problems: [(key: String, value: JSONValue)] = []
        let paging = Paging(request, problems: &problems)
        guard problems.isEmpty else { throw APIFailure.validation(problems) }
        let mine = "(c.user_a = ? OR c.user_b = ?) AND EXISTS (SELECT 1 FROM messages WHERE conversation_id = c.id)"
        let total = try state.store.query("SELECT COUNT(*) AS n FROM conversations c WHERE \(mine)",
                                                [.integer(me), .integer(me)]).first?.int("n") ?? 0
        let unreadTotal = try state.store.query("SELECT COUNT(*) AS n FROM messages WHERE receiver_id = ? AND is_read = 0",
                                                      [.integer(me)]).first?.int("n") ?? 0
        let rows = try state.store.query("""
            SELECT \(LinkUMessages.columns.split(separator: ",").map { "m." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")),
                   u.id AS other_id, u.username AS other_username, u.avatar AS other_avatar,
                   (SELECT COUNT(*) FROM messages x WHERE x.conversation_id = c.id AND x.receiver_id = ? AND x.is_read = 0) AS unread_count
            FROM conversations c
            JOIN messages m ON m.id = (SELECT MAX(id) FROM messages WHERE conversation_id = c.id)
            JOIN users u ON u.id = CASE WHEN c.user_a = ? THEN c.user_b ELSE c.user_a END
            WHERE c.user_a = ? OR c.user_b = ?
            ORDER BY m.id DESC LIMIT ? OFFSET ?
            """, [.integer(me), .integer(me), .integer(me), .integer(me), .integer(paging.pageSize), .integer(paging.offset)])
        let conversations: [JSONValue] = rows.map { row in
            .object([
                ("id", .int(row.int("conversation_id"))),
                ("other_user", .object([
                    ("id", .int(row.int("other_id"))),
                    ("username", .string(row.text("other_username"))),
                    ("avatar", row.optionalText("other_avatar").map(JSONValue.string) ?? .null),
                ])),
                ("last_message", LinkUMessages.json(row)),
                ("unread_count", .int(row.int("unread_count"))),
                ("updated_at", .string(row.text("created_at"))),
            ])
        }
        return JSONResponse.make(.ok, .object([
            ("conversations", .array(conversations)),
            ("total", .int(total)),
            ("unread_total", .int(unreadTotal)),
            ("page", .int(paging.page)),
            ("page_size", .int(paging.pageSize)),
        ]))
    }

    /// `GET /api/users/messages?conversation_id=…` or `?user_id=…` (the other
    /// user): newest first by default (page 1 is the latest messages, as a
    /// chat screen opens), `order=asc` for oldest first; `after_id` keeps
    /// only later messages (catching up after a reconnect).
    static func messages(_ request: Request, _ state: SandboxState) async throws -> Response {
        let me = try Caller.number()
        let query = request.uri.queryParameters
        var problems: [(key: String, value: JSONValue)] = []
        let paging = Paging(request, problems: &problems)
        func id(_ name: String) -> Int? {
            guard let text = query.get(name) else { return nil }
            guard let n = Int(text), n >= 0 else { problems.append((name, .string("must be a non-negative integer"))); return nil }
            return n
        }
        let conversationID = id("conversation_id")
        let otherID = id("user_id")
        let afterID = id("after_id")
        let order = query.get("order") ?? "desc"
        if order != "asc" && order != "desc" { problems.append(("order", .string("must be asc or desc"))) }
        if query.get("conversation_id") == nil && query.get("user_id") == nil {
            problems.append(("conversation_id", .string("give conversation_id, or user_id for the conversation with that user")))
        } else if query.get("conversation_id") != nil && query.get("user_id") != nil {
            problems.append(("user_id", .string("give conversation_id or user_id, not both")))
        }
        guard problems.isEmpty else { throw APIFailure.validation(problems) }

        var conversation: Int?
        if let conversationID {
            guard let row = try state.store.query("SELECT user_a, user_b FROM conversations WHERE id = ?",
                                                        [.integer(conversationID)]).first else {
                throw APIFailure.notFound("conversation \(conversationID) not found", code: "CONVERSATION_NOT_FOUND")
            }
            guard row.int("user_a") == me || row.int("user_b") == me else {
                throw APIFailure(status: .forbidden, code: "FORBIDDEN", message: "conversation \(conversationID) is not yours")
            }
            conversation = conversationID
        } else if let otherID {
            guard try state.store.query("SELECT id FROM users WHERE id = ?", [.integer(otherID)]).first != nil else {
                throw APIFailure.notFound("user \(otherID) not found", code: "USER_NOT_FOUND")
            }
            // No conversation yet is an empty one, not an error: the chat screen opens before the first message.
            conversation = try state.store.query("SELECT id FROM conversations WHERE user_a = ? AND user_b = ?",
                                                       [.integer(min(me, otherID)), .integer(max(me, otherID))]).first?.int("id")
        }
        var messages: [JSONValue] = []
        var total = 0
        if let conversation {
            let filter = "WHERE conversation_id = ? AND id > ?"
            let binds: [SQLiteData] = [.integer(conversation), .integer(afterID ?? 0)]
            total = try state.store.query("SELECT COUNT(*) AS n FROM messages \(filter)", binds).first?.int("n") ?? 0
            messages = try state.store.query(
                "SELECT \(LinkUMessages.columns) FROM messages \(filter) ORDER BY id \(order == "asc" ? "ASC" : "DESC") LIMIT ? OFFSET ?",
                binds + [.integer(paging.pageSize), .integer(paging.offset)]).map(LinkUMessages.json)
        }
        return JSONResponse.make(.ok, .object([
            ("messages", .array(messages)),
            ("conversation_id", conversation.map(JSONValue.int) ?? .null),
            ("order", .string(order)),
            ("total", .int(total)),
            ("page", .int(paging.page)),
            ("page_size", .int(paging.pageSize)),
        ]))
    }

    /// `POST /api/users/messages/send` `{receiver_id, content, type, client_message_id?}`:
    /// 201 with the message; 200 with the stored one when `client_message_id`
    /// was already used by this sender (over REST or the socket).
    static func send(_ request: Request, _ state: SandboxState) async throws -> Response {
        let me = try Caller.number()
        let outgoing = try LinkUMessages.outgoing(try await jsonObject(request), typeKey: "type", requireClientID: false)
        let sent = try await LinkUMessages.send(outgoing, from: me, state)
        if sent.created { await LinkUMessages.deliver(sent.message, state) }
        return JSONResponse.make(sent.created ? .created : .ok, sent.message)
    }
}
