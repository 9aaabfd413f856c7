import ArgumentParser
import Foundation
import Core
import Sandbox

struct SandboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Run a backend's sandbox alone in the foreground, for an app or another tool."
    )

    @Option(help: ArgumentHelp("Backend to serve: \(Profile.builtInNames.sorted().joined(separator: ", ")).", valueName: "name"),
            completion: .list(Profile.builtInNames.sorted()))
    var profile = "linku"

    @Option(help: "Address to listen on: loopback by default; 0.0.0.0 lets other machines (a phone) reach it.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: ArgumentHelp("Keep data in this SQLite file (default: in memory).", valueName: "path"), completion: .file())
    var db: String?

    @OptionGroup(title: "Fault switches (all off by default; see docs/sandbox-faults.md)")
    var faults: SandboxFaultOptions

    @ParentCommand var root: ExplorerCommand

    func run() throws {
        // `--profile` after `sandbox` is read as explorer's own (see ConnectionOptions.givenNames).
        try root.refuse("sandbox", except: ["--profile"])
        var configuration = SandboxConfiguration()
        configuration.apply(environment: Surroundings.current.environment)
        configuration.profile = root.connection.profile ?? profile
        configuration.host = host
        configuration.port = port
        configuration.databasePath = db
        faults.apply(to: &configuration)
        configuration.log = { line in Console().err(line + "\n") }
        do { try configuration.validate() } catch { throw ValidationError("\(error)") }

        let console = Console()
        let server: SandboxServer
        do {
            server = try runBlockingThrowing { [configuration] in try await SandboxServer.start(configuration) }
        } catch let error as SandboxConfiguration.InvalidConfiguration {
            // A busy port or a database of another profile: one line, not the usage.
            console.err("error: \(error)\n")
            throw ExitCode(ExitStatus.runtime.rawValue)
        }
        // Stop gracefully on Ctrl-C or SIGTERM: finish requests, close the database.
        try stopOnSignal { await server.stop() }
        if let warning = openHostWarning(host, what: "the sandbox") { console.err(warning) }
        let accounts = server.profile.demoAccounts.map { "\($0.email) / \($0.password)" }.joined(separator: ", ")
        console.out("\(server.profile.displayName) sandbox listening on \(server.baseURL.absoluteString)\(db.map { " (data in \($0))" } ?? " (data in memory)")\n")
        console.out("Demo accounts: \(accounts). Ctrl-C stops.\n")
        try runBlockingThrowing { try await server.wait() }
    }
}

/// A server listening beyond this machine (`--host 0.0.0.0`, for a phone on
/// the same network) is said so: it hands out tokens to whoever reaches it.
func openHostWarning(_ host: String, what: String) -> String? {
    CookieJar.isLoopback(host.lowercased()) ? nil
        : "warning: listening on \(host): other machines that reach this one can use \(what), which hands out tokens\n"
}

/// Runs `stop` on Ctrl-C or SIGTERM (`explorer sandbox`, `explorer mock`).
/// Not with dispatch signal sources: on Linux they take a signal only on a
/// thread that blocks it, and the event loops' threads did not, so about half
/// the SIGTERMs sent at once were ignored and the server ran on. A handler on
/// whatever thread the signal lands writes a byte to a pipe; a thread waiting
/// on it runs `stop`. Set up before saying the server listens, since a script
/// may signal as soon as it reads that.
///
/// A graceful stop waits for the requests in flight, and a client that
/// opened a connection and sent nothing (or half a body) held it for ever:
/// Ctrl-C and SIGTERM, even twice, left the server running. It gets
/// `grace` seconds; a second signal ends the process at once.
func stopOnSignal(grace: Double = 3, _ stop: @escaping @Sendable () async -> Void) throws {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw ExitCode(ExitStatus.runtime.rawValue) }
    stopSignalDescriptor = ends[1]
    signal(SIGINT, stopSignalHandler)
    signal(SIGTERM, stopSignalHandler)
    Thread { [reading = ends[0]] in
        var byte: UInt8 = 0
        while read(reading, &byte, 1) < 0, errno == EINTR {}
        Task { await stop() }
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
            FileHandle.standardError.write(Data("stopped: a client still held a connection open after \(Int(grace)) s\n".utf8))
            exit(0)
        }
        while read(reading, &byte, 1) < 0, errno == EINTR {}
        exit(128 + Int32(byte))
    }.start()
}

/// The write end of the pipe a stop signal is passed through (set once, before the handlers).
nonisolated(unsafe) private var stopSignalDescriptor: Int32 = -1

/// SIGINT and SIGTERM: one byte down the pipe, all a signal handler may safely do.
private let stopSignalHandler: @convention(c) (Int32) -> Void = { signal in
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(stopSignalDescriptor, &byte, 1)
}

/// The sandbox's fault switches as flags; each also has an environment
/// variable and a key of `PUT /__sandbox/faults` (docs/sandbox-faults.md).
struct SandboxFaultOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Access-token lifetime in seconds (or EXPLORER_SANDBOX_TOKEN_TTL).", valueName: "seconds"))
    var tokenTTL: Double?

    @Option(help: ArgumentHelp("Milliseconds added to every HTTP response (or EXPLORER_SANDBOX_LATENCY_MS).", valueName: "ms"))
    var latency: Int?

    @Option(help: ArgumentHelp("Share (0-1) of requests answered 500 or 503 (or EXPLORER_SANDBOX_ERROR_RATE).", valueName: "share"))
    var errorRate: Double?

    @Option(help: ArgumentHelp("Share (0-1) of responses cut mid-body (or EXPLORER_SANDBOX_CUT_BODY_RATE).", valueName: "share"))
    var cutBodyRate: Double?

    @Option(name: .customLong("ws-drop-after"),
            help: ArgumentHelp("Drop each WebSocket after this many frames; 0 never (or EXPLORER_SANDBOX_WS_DROP_AFTER).", valueName: "frames"))
    var wsDropAfter: Int?

    @Option(help: ArgumentHelp("Seed the random draws, for repeatable runs (or EXPLORER_SANDBOX_FAULT_SEED).", valueName: "n"))
    var faultSeed: UInt64?

    func validate() throws {
        if let tokenTTL, !(tokenTTL > 0) { throw refusedOption("--token-ttl must be a positive number of seconds") }
        if let latency, !(0...60_000).contains(latency) { throw refusedOption("--latency must be from 0 to 60000 ms") }
        if let errorRate, !(0...1).contains(errorRate) { throw refusedOption("--error-rate must be a share from 0 to 1") }
        if let cutBodyRate, !(0...1).contains(cutBodyRate) { throw refusedOption("--cut-body-rate must be a share from 0 to 1") }
        if let wsDropAfter, wsDropAfter < 0 { throw refusedOption("--ws-drop-after must be 0 or more frames") }
    }

    /// Flags win over the environment.
    func apply(to configuration: inout SandboxConfiguration) {
        if let tokenTTL { configuration.accessTokenLifetime = tokenTTL }
        if let latency { configuration.faults.latencyMilliseconds = latency }
        if let errorRate { configuration.faults.errorRate = errorRate }
        if let cutBodyRate { configuration.faults.cutBodyRate = cutBodyRate }
        if let wsDropAfter { configuration.faults.webSocketDropAfterFrames = wsDropAfter }
        if let faultSeed { configuration.faults.seed = faultSeed }
    }
}
