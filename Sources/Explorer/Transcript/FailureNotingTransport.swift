import Core
import Foundation
import NIOCore

/// Passes requests on and remembers the last transport failure, so a replay
/// can tell "the server did not answer" (exit status 3) from "the answer
/// differs" (exit status 4) without parsing messages.
final class FailureNotingTransport: HTTPTransport, @unchecked Sendable {
    private let base: any HTTPTransport
    private let lock = NSLock()
    private var failure: TransportError?

    init(_ base: any HTTPTransport) { self.base = base }

    var eventLoop: any EventLoop { base.eventLoop }

    nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse {
        do { return try await base.send(request) } catch {
            lock.withLock { failure = error }
            throw error
        }
    }

    /// The failure since the last call, if any.
    func takeFailure() -> TransportError? {
        lock.withLock {
            defer { failure = nil }
            return failure
        }
    }
}
