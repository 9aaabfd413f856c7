import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// A Hummingbird application running in a task of its own until stopped,
/// with the port it bound: the sandbox's and the mock's, started the same way.
struct BackgroundServer: Sendable {
    /// The bound port (the real one when 0 was asked for).
    let port: Int
    private let group: ServiceGroup
    private let runner: Task<Void, any Error>

    /// Builds the application with `make`, given the callback to pass as its
    /// `onServerRunning`, runs it, and returns once it accepts connections.
    /// `afterRun` runs when the server has stopped (the sandbox closes its
    /// database). A port in use, an address not of this machine, a port that
    /// needs privileges: one line in words, naming `what` could not bind.
    static func start<S: Service>(host: String, port: Int, what: String, logger: Logger,
                                  afterRun: @escaping @Sendable () -> Void = {},
                                  make: (_ onRunning: @escaping @Sendable (any Channel) async -> Void) -> S) async throws -> BackgroundServer {
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = make { channel in
            portContinuation.yield(channel.localAddress?.port ?? 0)
            portContinuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let runner = Task {
            defer { portContinuation.finish() }
            try await group.run()
            afterRun()
        }
        var bound = 0
        for await value in portStream { bound = value }
        guard bound > 0 else {
            // The server stopped before it was running: say why, in words.
            do { _ = try await runner.value } catch let error as IOError where error.errnoCode == EADDRINUSE {
                throw SandboxConfiguration.InvalidConfiguration(description: "port \(port) is in use on \(host)")
            } catch let error as IOError where error.errnoCode == EACCES {
                throw SandboxConfiguration.InvalidConfiguration(description: "port \(port) needs privileges to listen on")
            } catch let error as IOError where error.errnoCode == EADDRNOTAVAIL {
                throw SandboxConfiguration.InvalidConfiguration(description: "\(host) is not an address of this machine")
            }
            throw SandboxConfiguration.InvalidConfiguration(description: "\(what) could not bind \(host):\(port)")
        }
        return BackgroundServer(port: bound, group: group, runner: runner)
    }

    /// Stops accepting connections and finishes the requests in flight.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await runner.value
    }

    /// Waits until the server stops.
    func wait() async throws { try await runner.value }
}
