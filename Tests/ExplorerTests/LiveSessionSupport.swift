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

/// A TCP port on 127.0.0.1 that takes connections (the kernel's backlog
/// does) and never answers: a request to it waits until it is cancelled or
/// times out. Closed when released.
final class SilentListener: @unchecked Sendable {
    let port: Int
    private let fd: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard fd >= 0, bound else { throw CocoaError(.fileWriteUnknown) }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    deinit { close(fd) }
}
