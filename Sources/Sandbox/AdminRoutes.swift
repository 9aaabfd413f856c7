import Core
import Hummingbird
import HummingbirdWebSocket

/// Sandbox-only endpoints under `/__sandbox/`, for tests and for showing how a
/// client copes. No real backend has them.
enum AdminRoutes {
    static func register(on router: Router<BasicRequestContext>, state: SandboxState) {
        router.get("/__sandbox/stats") { _, _ in
            let counters = state.counters.all.sorted { $0.key < $1.key }
            return JSONResponse.make(.ok, .object(counters.map { ($0.key, JSONValue.int($0.value)) }))
        }
        router.post("/__sandbox/expire-access-tokens") { _, _ in
            try await state.expireAccessTokens()
            return JSONResponse.make(.ok, .object([("message", .string("every access token issued so far now answers 401 TOKEN_EXPIRED"))]))
        }
    }

    /// `/__sandbox/echo`: a WebSocket that sends every frame back, for
    /// checking a client and for round-trip benchmarks.
    static func registerWebSocket(on router: Router<BasicWebSocketRequestContext>) {
        router.ws("/__sandbox/echo") { _, _ in
            .upgrade([:])
        } onUpgrade: { inbound, outbound, _ in
            for try await message in inbound.messages(maxSize: 16 * 1024 * 1024) {
                switch message {
                case let .text(text): try await outbound.write(.text(text))
                case let .binary(buffer): try await outbound.write(.binary(buffer))
                }
            }
        }
    }
}
