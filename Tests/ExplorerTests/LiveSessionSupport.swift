import Core
import Foundation
import Sandbox
import Testing
@testable import Explorer

/// Opens a `LiveSession` as the REPL does (a fresh in-process sandbox of
/// `profile` unless `target` says otherwise), runs `body`, and closes the
/// session afterwards, also when `body` throws.
func withLiveSession<T>(profile: Profile = .linku, target: LiveSession.Target = .sandbox(), offline: Bool = false,
                        table: CommandTable = .standard, _ body: (LiveSession) async throws -> T) async throws -> T {
    let live = try await LiveSession.open(profile: profile, target: target, offline: offline, table: table)
    do {
        let result = try await body(live)
        await live.close()
        return result
    } catch {
        await live.close()
        throw error
    }
}

/// An interpreter on a fresh in-process LinkU sandbox.
func withSandboxInterpreter<T>(_ body: (Interpreter, SandboxServer) async throws -> T) async throws -> T {
    try await withLiveSession { live in try await body(live.interpreter, try #require(live.sandbox)) }
}

/// A URL nothing answers at, for sessions that never send.
let nowhere = URL(string: "http://127.0.0.1:9")!

extension Outcome {
    /// The plain text a list or state outcome shows (help, vars, a message…);
    /// nil for exchanges, values, frames and failures.
    var shownText: String? { OutcomeText.plain(self) }
}
