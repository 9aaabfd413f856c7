import Core
import Hummingbird

/// Sandbox-only endpoints under `/__sandbox/`, for tests and for showing how a
/// client copes. No real LinkU backend has them.
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
}
