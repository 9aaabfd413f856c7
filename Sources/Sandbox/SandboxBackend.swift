import Core
import Hummingbird
import HummingbirdWebSocket

/// One backend the sandbox can serve (one per process): its tables and seed
/// data, its HTTP routes, its WebSocket routes, and how it words errors.
protocol SandboxBackend: Sendable {
    var profile: Profile { get }
    var errorStyle: ErrorStyle { get }
    /// Creates this backend's tables and seed data in a new database. Each
    /// backend owns a `users` table with an `id` column (tokens name it).
    func migrate(_ store: SandboxStore) async throws
    func register(on router: CatalogRouter, state: SandboxState)
    func registerWebSocket(on router: Router<BasicWebSocketRequestContext>, state: SandboxState)
}

extension SandboxBackend {
    func registerWebSocket(on router: Router<BasicWebSocketRequestContext>, state: SandboxState) {}
}

enum SandboxBackends {
    static func named(_ name: String) -> (any SandboxBackend)? {
        switch name {
        case "linku": return LinkUBackend()
        case "nova": return NovaBackend()
        case "levelup": return LevelUpBackend()
        case "posture": return PostureBackend()
        default: return nil
        }
    }

    static let names = ["linku", "nova", "levelup", "posture"]
}
