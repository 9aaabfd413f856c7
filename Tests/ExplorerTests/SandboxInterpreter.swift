import Core
import Foundation
import Sandbox
@testable import Explorer

/// Runs `body` with an interpreter on a fresh in-process LinkU sandbox, and
/// stops both afterwards, also when `body` throws.
func withSandboxInterpreter<T>(_ body: (Interpreter, SandboxServer) async throws -> T) async throws -> T {
    let server = try await SandboxServer.start()
    let transport = AsyncHTTPTransport()
    let interpreter = Interpreter(session: AuthSession(profile: .linku, builder: RequestBuilder(baseURL: server.baseURL),
                                                       transport: transport, store: MemoryTokenStore()))
    do {
        let result = try await body(interpreter, server)
        await transport.shutdown()
        await server.stop()
        return result
    } catch {
        await transport.shutdown()
        await server.stop()
        throw error
    }
}
