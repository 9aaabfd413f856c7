import ArgumentParser
import Foundation
import Core
import Sandbox

struct SandboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Run a backend's sandbox alone in the foreground, for an app or another tool."
    )

    @Option(help: ArgumentHelp("Backend to serve: \(Profile.builtIn.keys.sorted().joined(separator: ", ")).", valueName: "name"))
    var profile = "linku"

    @Option(help: "Loopback address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: ArgumentHelp("Keep data in this SQLite file (default: in memory).", valueName: "path"), completion: .file())
    var db: String?

    @Option(help: ArgumentHelp("Access-token lifetime in seconds (or EXPLORER_SANDBOX_TOKEN_TTL).", valueName: "seconds"))
    var tokenTTL: Double?

    func run() throws {
        var configuration = SandboxConfiguration()
        configuration.apply(environment: ProcessInfo.processInfo.environment)
        configuration.profile = profile
        configuration.host = host
        configuration.port = port
        configuration.databasePath = db
        if let tokenTTL { configuration.accessTokenLifetime = tokenTTL }
        configuration.log = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
        do { try configuration.validate() } catch { throw ValidationError("\(error)") }

        let server = try runBlockingThrowing { [configuration] in try await SandboxServer.start(configuration) }
        let console = Console(isInteractive: false)
        let accounts = server.profile.demoAccounts.map { "\($0.email) / \($0.password)" }.joined(separator: ", ")
        console.out("\(server.profile.displayName) sandbox listening on \(server.baseURL.absoluteString)\(db.map { " (data in \($0))" } ?? " (data in memory)")\n")
        console.out("Demo accounts: \(accounts). Ctrl-C stops.\n")

        // Stop gracefully on Ctrl-C or SIGTERM: finish requests, close the database.
        let queue = DispatchQueue(label: "sandbox.signals")
        var sources: [any DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { Task { await server.stop() } }
            source.resume()
            sources.append(source)
        }
        try runBlockingThrowing { try await server.wait() }
        _ = sources
    }
}
