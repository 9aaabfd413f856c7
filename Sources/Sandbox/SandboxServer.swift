import Core
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle

/// A running sandbox: an in-process HTTP and WebSocket server implementing
/// one backend's documented contracts over SQLite. `SandboxServer.start` is the one function that both
/// `explorer` and the tests call.
public final class SandboxServer: Sendable {
    /// The bound port (the real one when 0 was asked for).
    public var port: Int { server.port }
    public let host: String
    public let profile: Profile
    /// Internal so tests (`@testable`) can reach the store and switches.
    let state: SandboxState
    private let server: BackgroundServer

    /// `http://127.0.0.1:PORT`
    public var baseURL: URL { URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(port)")! }

    private init(host: String, profile: Profile, state: SandboxState, server: BackgroundServer) {
        self.host = host
        self.profile = profile
        self.state = state
        self.server = server
    }

    /// Starts the server and returns once it accepts connections.
    public static func start(_ configuration: SandboxConfiguration = SandboxConfiguration()) async throws -> SandboxServer {
        try configuration.validate()
        guard let backend = SandboxBackends.named(configuration.profile) else {
            throw SandboxConfiguration.InvalidConfiguration(description: "no sandbox for profile '\(configuration.profile)'")
        }
        let store = try await SandboxStore.open(path: configuration.databasePath, backend: backend)
        guard let keyHex = try store.meta("signing_key") else { throw SandboxConfiguration.InvalidConfiguration(description: "database has no signing key") }
        let keyBytes = stride(from: 0, to: keyHex.count, by: 2).compactMap { i -> UInt8? in
            let start = keyHex.index(keyHex.startIndex, offsetBy: i)
            return UInt8(keyHex[start..<keyHex.index(start, offsetBy: 2)], radix: 16)
        }
        let generation = Int(try store.meta("token_generation") ?? "0") ?? 0
        let state = SandboxState(store: store, signer: TokenSigner(key: .init(data: keyBytes)), configuration: configuration,
                                 errorStyle: backend.errorStyle, tokenGeneration: generation)

        let router = Router(context: BasicRequestContext.self)
        // Faults outside the envelope: injected errors are worded by the fault
        // middleware itself, and a cut body can be any answer's, errors included.
        router.add(middleware: FaultMiddleware(state: state))
        router.add(middleware: EnvelopeMiddleware(style: backend.errorStyle, log: configuration.log))
        let routes = CatalogRouter(router, profile: backend.profile, state: state)
        backend.register(on: routes, state: state)
        try routes.finish()
        AdminRoutes.register(on: router, state: state)

        let webSocketRouter = Router(context: BasicWebSocketRequestContext.self)
        AdminRoutes.registerWebSocket(on: webSocketRouter, state: state)
        backend.registerWebSocket(on: webSocketRouter, state: state)
        AdminRoutes.registerWebSocketFallback(on: webSocketRouter, state: state)

        var logger = Logger(label: "explorer.sandbox")
        logger.logLevel = .critical
        let server = try await BackgroundServer.start(host: configuration.host, port: configuration.port, what: "the sandbox", logger: logger,
                                                      afterRun: { store.close() }) { onRunning in
            Application(
                router: HeadAsGet(router: router),
                // Hummingbird's HTTP/1 + WebSocket channel with a handler in front
                // of each connection (see ConnectionRegistry for why).
                server: SandboxChildChannel.builder(webSocketRouter: webSocketRouter, connections: state.connections, errorStyle: backend.errorStyle),
                configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "explorer-sandbox"),
                onServerRunning: onRunning,
                logger: logger
            )
        }
        return SandboxServer(host: configuration.host, profile: backend.profile, state: state, server: server)
    }

    /// Stops accepting connections, finishes in-flight requests, closes the database.
    public func stop() async { await server.stop() }

    /// Waits until the server stops (for `explorer sandbox`).
    public func wait() async throws { try await server.wait() }

    /// How many times an endpoint family was called ("refresh", "login").
    public func count(_ name: String) -> Int { state.counters.value(name) }

    /// The fault switches in force (docs/sandbox-faults.md).
    public var faults: FaultSettings { state.faults.current }

    /// Changes fault switches while the sandbox runs, as `PUT /__sandbox/faults`
    /// does; `reseed` restarts the random draws from the (new) seed. Values
    /// out of range are refused and nothing changes.
    public func setFaults(reseed: Bool = false, _ change: (inout FaultSettings) -> Void) throws {
        var settings = state.faults.current
        change(&settings)
        if let problem = settings.problems().first {
            throw SandboxConfiguration.InvalidConfiguration(description: "fault switch \(problem.key) \(problem.message)")
        }
        state.faults.update(reseed: reseed) { current, _ in current = settings }
    }

    /// Fault switch: every access token issued so far stops working (401
    /// TOKEN_EXPIRED), as if they had all expired at once. Refresh tokens stay valid.
    public func expireAccessTokens() async throws {
        try await state.expireAccessTokens()
    }
}
