import NIOCore

/// The transport of a session started with `--offline`: it refuses every
/// request, so nothing is sent whatever a command does (a login, a refresh,
/// a reconciling GET). Commands show the request they would send before it
/// gets here; this is the guarantee under them.
public struct OfflineTransport: HTTPTransport {
    public let eventLoop: any EventLoop

    public init(eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    public nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse {
        throw TransportError(kind: .offline, host: request.hostHeader, detail: "explorer runs --offline")
    }
}
