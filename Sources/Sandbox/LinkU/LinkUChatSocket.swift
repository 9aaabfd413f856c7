import Core
import Hummingbird
import HummingbirdWebSocket

/// One user's chat socket: client frames in, server frames out (all text
/// frames of one JSON object each; docs/sandbox-chat.md).
enum LinkUChatSocket {
    static let maxFrame = 1 << 20

    /// The user a chat channel belongs to, if the access token in the query
    /// (`?token=`, or an `Authorization: Bearer` header for clients that can
    /// send one) is theirs: 401 without a valid token, 403 for another
    /// user's channel, 404 for a channel that names no user.
    static func authorize(_ request: Request, channel: String?, _ state: SandboxState) async throws -> Int {
        var token = request.uri.queryParameters.get("token")
        if token?.isEmpty ?? true, let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") {
            token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        guard let token, !token.isEmpty else {
            throw APIFailure.unauthorized("missing token; connect to /ws/chat/{userId}?token=<access_token>")
        }
        guard let subject = Int(try await state.authenticate(token: token)) else {
            throw APIFailure.unauthorized("invalid access token", code: "INVALID_TOKEN")
        }
        guard let channel, let owner = Int(channel), owner > 0 else {
            throw APIFailure.notFound("no chat channel \(channel ?? "")", code: "NOT_FOUND")
        }
        guard owner == subject else {
            throw APIFailure(status: .forbidden, code: "FORBIDDEN", message: "this token is user \(subject)'s; it cannot open user \(owner)'s channel")
        }
        return subject
    }

    static func run(_ inbound: WebSocketInboundStream, socket: OpenSocket, userID: Int, _ state: SandboxState) async throws {
        for try await message in inbound.messages(maxSize: maxFrame) {
            guard socket.received() else { break }
            switch message {
            case let .text(text):
                await handle(text, socket: socket, userID: userID, state)
            case .binary:
                await socket.send(error("UNSUPPORTED_FRAME", "send text frames holding one JSON object"))
            }
            socket.dropIfExhausted()
            if socket.isDropped { break }
        }
    }

    static func handle(_ text: String, socket: OpenSocket, userID: Int, _ state: SandboxState) async {
        let frame: JSONValue
        do { frame = try JSONParser.parse(text) } catch {
            await socket.send(Self.error("INVALID_JSON", "frame is not valid JSON: \(error)"))
            return
        }
        guard case .object = frame else {
            await socket.send(error("INVALID_FRAME", "a frame is a JSON object with a \"type\", not \(frame.kindName)"))
            return
        }
        switch frame["type"]?.stringValue {
        case "message":
            await message(frame, socket: socket, userID: userID, state)
        case "read":
            await read(frame, socket: socket, userID: userID, state)
        case "ping":
            await socket.send(.object([("type", .string("pong"))]))
        case nil:
            await socket.send(error("INVALID_FRAME", "a frame needs a \"type\": message, read or ping"))
        case let other?:
            await socket.send(error("UNKNOWN_TYPE", "unknown frame type \"\(other)\"; known: message, read, ping"))
        }
    }

    /// `{"type":"message","client_message_id","receiver_id","content","message_type"}`:
    /// stored (once per client_message_id), acknowledged to this socket,
    /// delivered to the receiver's sockets and the sender's other ones.
    static func message(_ frame: JSONValue, socket: OpenSocket, userID: Int, _ state: SandboxState) async {
        let key = frame["client_message_id"]
        do {
            let outgoing = try LinkUMessages.outgoing(frame, typeKey: "message_type", requireClientID: true)
            let sent = try await LinkUMessages.send(outgoing, from: userID, state)
            await socket.send(.object([
                ("type", .string("ack")),
                ("client_message_id", .string(outgoing.clientMessageID ?? "")),
                ("message", sent.message),
            ]))
            if sent.created { await LinkUMessages.deliver(sent.message, state, except: socket) }
        } catch {
            await socket.send(Self.error(error, echo: [("client_message_id", key ?? .null)]))
        }
    }

    /// `{"type":"read","message_id"}`: marks it read (receiver only) and tells
    /// the sender's sockets. Nothing comes back on success.
    static func read(_ frame: JSONValue, socket: OpenSocket, userID: Int, _ state: SandboxState) async {
        guard let id = frame["message_id"]?.intValue else {
            await socket.send(error("VALIDATION_ERROR", "some fields are invalid",
                                    details: [("message_id", .string("required: the id of a message sent to you"))]))
            return
        }
        do {
            let read = try await LinkUMessages.markRead(id, by: userID, state)
            if read.changed { await LinkUMessages.sendReceipt(read.message, state) }
        } catch {
            await socket.send(Self.error(error, echo: [("message_id", .int(id))]))
        }
    }

    /// `{"type":"error","code","message"}`, plus what the failed frame named
    /// and field-level `details` for validation errors. The socket stays open.
    static func error(_ code: String, _ message: String, echo: [(key: String, value: JSONValue)] = [],
                      details: [(key: String, value: JSONValue)] = []) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("type", .string("error")), ("code", .string(code)), ("message", .string(message))]
        members += echo
        if !details.isEmpty { members.append(("details", .object(details))) }
        return .object(members)
    }

    static func error(_ error: any Error, echo: [(key: String, value: JSONValue)]) -> JSONValue {
        guard let failure = error as? APIFailure else { return Self.error("INTERNAL_ERROR", "internal server error", echo: echo) }
        return Self.error(failure.code, failure.message, echo: echo, details: failure.details)
    }
}
