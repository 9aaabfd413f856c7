import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Where a streamed answer's body goes as it arrives: Server-Sent Events
/// (`text/event-stream`) and JSON lines (`application/x-ndjson`,
/// `application/jsonl`), which may run for minutes or never end. A
/// request carries one when someone watches (the REPL); the transport then
/// hands it each part of such a body, and lifts the request's deadline once
/// the answer's head says it streams (Ctrl-C ends it, or the server).
public final class StreamSink: Sendable, Equatable {
    /// The answer's Content-Type and a part of its body.
    public let deliver: @Sendable (_ contentType: String, _ bytes: [UInt8]) -> Void

    public init(_ deliver: @escaping @Sendable (_ contentType: String, _ bytes: [UInt8]) -> Void) {
        self.deliver = deliver
    }

    public static func == (a: StreamSink, b: StreamSink) -> Bool { a === b }

    /// Whether a Content-Type is one of the streamed kinds.
    public static func streams(_ contentType: String?) -> Bool {
        guard let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return ["text/event-stream", "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines",
                "application/stream+json", "application/json-seq"].contains(type)
    }
}

/// async-http-client's accumulator, plus the stream: a streamed body is
/// handed to the sink part by part as well as kept (up to `limit`, the
/// rest dropped: a stream may not end), and the head's verdict is reported
/// so the caller can lift the deadline.
final class StreamingCollector: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = HTTPClient.Response

    private let sink: StreamSink
    private let limit: Int
    private let host: String
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    private let state = NIOLockedValueBox((streaming: false, headSeen: false))

    init(sink: StreamSink, limit: Int, host: String) {
        self.sink = sink
        self.limit = limit
        self.host = host
    }

    /// Whether the head came and says the body streams.
    var isStreaming: Bool { state.withLockedValue { $0.streaming } }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        let encoding = head.headers.first(name: "Content-Encoding")?.lowercased()
        let streams = StreamSink.streams(head.headers.first(name: "Content-Type")) && (encoding == nil || encoding == "identity")
        state.withLockedValue { $0 = (streams, true) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        let streaming = isStreaming
        if streaming { sink.deliver(head?.headers.first(name: "Content-Type") ?? "", Array(part.readableBytesView)) }
        if body.readableBytes + part.readableBytes > limit {
            // A stream keeps its first `limit` bytes; any other body that large is refused, as the accumulator does.
            if !streaming { return task.eventLoop.makeFailedFuture(ResponseAccumulator.ResponseTooBigError(maxBodySize: limit)) }
        } else {
            var part = part
            body.writeBuffer(&part)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        guard let head else { throw HTTPClientError.remoteConnectionClosed }
        return Response(host: host, status: head.status, version: head.version, headers: head.headers, body: body)
    }
}
