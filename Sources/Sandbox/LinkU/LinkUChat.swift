import Core
import Hummingbird
import HummingbirdWebSocket

/// LinkU messaging: conversations and messages over REST, and chat over the
/// `/ws/chat/{userId}?token=…` WebSocket (seed 000, "WebSocket service").
enum LinkUChat {
    /// Creates the messaging tables and seed data (after users exist).
    static func create(_ store: SandboxStore) async throws {}

    static func register(on router: Router<BasicRequestContext>, state: SandboxState) {}

    static func registerWebSocket(on router: Router<BasicWebSocketRequestContext>, state: SandboxState) {}
}
