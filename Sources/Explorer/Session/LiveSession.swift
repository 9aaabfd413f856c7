import Core
import Foundation
import Sandbox

/// A backend and the stack that talks to it: a fresh in-process sandbox of
/// the profile, or a server at a URL; the HTTP transport; the auth session;
/// and the interpreter. The REPL (`ExplorerSession`), `explorer replay`,
/// a tour's own sandbox and the tests all open one here, so they cannot be
/// put together differently.
final class LiveSession: Sendable {
    enum Target: Sendable {
        /// A fresh in-process sandbox (its `profile` is set from the session's).
        case sandbox(SandboxConfiguration = SandboxConfiguration())
        case url(URL)
    }

    let interpreter: Interpreter
    /// The sandbox started for this session; nil for a URL.
    let sandbox: SandboxServer?
    let transport: LiveTransport
    /// What requests go through: the transport, or what `open` was told to wrap it in.
    let sending: any HTTPTransport

    var profile: Profile { interpreter.session.profile }
    var baseURL: URL { interpreter.session.builder.baseURL }

    private init(interpreter: Interpreter, sandbox: SandboxServer?, transport: LiveTransport, sending: any HTTPTransport) {
        self.interpreter = interpreter
        self.sandbox = sandbox
        self.transport = transport
        self.sending = sending
    }

    /// Starts the sandbox when the target is one, and puts the stack on it.
    /// - `offline`: nothing is ever sent (`OfflineTransport`), not even a login.
    /// - `store`: where tokens are kept (in memory unless told).
    /// - `readFile`: how `@file` items are read (a transcript's are relative to it).
    /// - `sending`: what requests go through, given the transport (a replay notes failures).
    static func open(profile: Profile, target: Target, offline: Bool = false, store: any TokenStore = MemoryTokenStore(),
                     readFile: @escaping @Sendable (String) throws -> [UInt8] = RequestBuilder.readFileFromDisk,
                     sending: (LiveTransport) -> any HTTPTransport = { $0 },
                     table: CommandTable = .standard,
                     environment: [String: String] = Surroundings.current.environment) async throws -> LiveSession {
        var sandbox: SandboxServer?
        let url: URL
        switch target {
        case let .url(given):
            url = given
        case var .sandbox(configuration):
            configuration.profile = profile.name
            let server = try await SandboxServer.start(configuration)
            sandbox = server
            url = server.baseURL
        }
        // A proxy the environment names serves a backend of the user's, never the in-process sandbox.
        var transportOptions = LiveTransport.Options()
        if case .url = target { transportOptions.proxies = try ProxyRules(environment: environment) }
        let transport = LiveTransport(options: transportOptions)
        let through: any HTTPTransport = offline ? OfflineTransport(eventLoop: transport.eventLoop) : sending(transport)
        let session = AuthSession(profile: profile, builder: RequestBuilder(baseURL: url, readFile: readFile),
                                  transport: through, store: store)
        let interpreter = Interpreter(session: session, offline: offline, table: table)
        await interpreter.setProxies(transportOptions.proxies)
        return LiveSession(interpreter: interpreter, sandbox: sandbox, transport: transport, sending: through)
    }

    /// Closes the socket quietly, then the transport and the sandbox.
    /// `leavingConnections`: not the transport, when the process ends at
    /// once and closes its connections itself (`ExplorerSession.finish`).
    func close(leavingConnections: Bool = false) async {
        await interpreter.setSocketListener(nil)
        await interpreter.closeSocket()
        if !leavingConnections { await transport.shutdown() }
        await sandbox?.stop()
    }
}
