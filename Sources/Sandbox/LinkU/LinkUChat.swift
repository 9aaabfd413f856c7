import Core
import Hummingbird
import HummingbirdWebSocket

/// LinkU messaging: conversations and messages over REST, and chat over the
/// `/ws/chat/{userId}?token=…` WebSocket (seed 000, "WebSocket service",
/// "实时消息"). Frames and models: docs/sandbox-chat.md.
enum LinkUChat {
    /// Creates the messaging tables and seed data (after users exist).
    static func create(_ store: SandboxStore) async throws {
        for statement in LinkUMessages.tables { try store.query(statement) }
        try await LinkUMessages.seed(store)
    }

    static func register(on router: CatalogRouter, state: SandboxState) {
        LinkUMessagesRoutes.register(on: router, state: state)
        // The channel fetched without an upgrade (`get /ws/chat/1` in the
        // explorer): the same 401/403 as the upgrade, else 426.
        router.outsideCatalog(.get, "/ws/chat/{userId}") { request, context -> Response in
            let userID = try await LinkUChatSocket.authorize(request, channel: context.parameters.get("userId"), state)
            throw APIFailure(status: .upgradeRequired, code: "UPGRADE_REQUIRED",
                             message: "ws/chat/\(userID) is a WebSocket: connect with ws://…/ws/chat/\(userID)?token=<access_token>")
        }
    }

    static func registerWebSocket(on router: Router<BasicWebSocketRequestContext>, state: SandboxState) {
        // The channel without its user (`/ws/chat/`): the router's last resort does not reach under a path it knows.
        router.ws("/ws/chat") { request, context in
            let failure = APIFailure.notFound("no WebSocket at \(request.uri.path): a chat socket is /ws/chat/{userId}?token=<access_token>")
            state.connections.connection(for: context.logger)?.refuseUpgrade(failure, style: state.errorStyle)
            state.log("WS \(request.uri.path) refused: 404 NOT_FOUND")
            return .dontUpgrade
        } onUpgrade: { _, _, _ in }
        router.ws("/ws/chat/{userId}") { request, context in
            do {
                _ = try await LinkUChatSocket.authorize(request, channel: context.parameters.get("userId"), state)
                return state.acceptUpgrade(logger: context.logger)
            } catch {
                // Hummingbird would answer an empty 400; the connection's
                // handler sends this answer instead (see ConnectionRegistry).
                let failure = error as? APIFailure
                    ?? APIFailure(status: .internalServerError, code: "INTERNAL_ERROR", message: "internal server error")
                state.connections.connection(for: context.logger)?.refuseUpgrade(failure, style: state.errorStyle)
                state.log("WS \(request.uri.path) refused: \(failure.status.code) \(failure.code)")
                return .dontUpgrade
            }
        } onUpgrade: { inbound, outbound, context in
            guard let userID = context.requestContext.parameters.get("userId", as: Int.self) else { return }
            let socket = await state.openSocket(userID: String(userID), outbound: outbound, logger: context.logger)
            state.log("WS \(context.request.uri.path) open for user \(userID)")
            do {
                try await LinkUChatSocket.run(inbound, socket: socket, userID: userID, state)
            } catch {
                // The connection failed or was dropped: nothing to answer.
            }
            await state.sockets.close(socket)
            state.log("WS \(context.request.uri.path) closed for user \(userID)")
        }
    }
}
