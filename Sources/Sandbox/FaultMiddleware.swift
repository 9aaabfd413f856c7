import Core
import Hummingbird
import NIOCore

/// Applies the HTTP fault switches (added latency, a share of 500/503
/// answers, a share of bodies cut mid-way) to every route but `/__sandbox/*`,
/// so the switches can always be turned off again. It runs outside
/// `EnvelopeMiddleware`, so a cut applies to error answers too.
struct FaultMiddleware<Context: RequestContext>: RouterMiddleware {
    let state: SandboxState

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !request.uri.path.hasPrefix("/__sandbox/") else { return try await next(request, context) }
        let faults = state.faults
        let latency = faults.current.latencyMilliseconds
        if latency > 0 { try await Task.sleep(for: .milliseconds(latency)) }
        switch faults.nextHTTPFault() {
        case nil:
            return try await next(request, context)
        case let .error(status)?:
            state.log("\(request.method) \(request.uri.path) -> \(status) (error_rate fault)")
            return Self.injectedError(status: status, style: state.errorStyle)
        case .cutBody?:
            state.log("\(request.method) \(request.uri.path): body cut (cut_body_rate fault)")
            return Self.cut(try await next(request, context))
        }
    }

    static func injectedError(status: Int, style: ErrorStyle) -> Response {
        let failure = status == 503
            ? APIFailure(status: .serviceUnavailable, code: "SERVICE_UNAVAILABLE", message: "service unavailable (sandbox fault switch error_rate)", retryAfter: 1)
            : APIFailure(status: .internalServerError, code: "INTERNAL_ERROR", message: "internal server error (sandbox fault switch error_rate)")
        return failure.response(style)
    }

    struct CutMidBody: Error {}

    /// The same head (Content-Length announcing the whole body), then half of
    /// the body, then the connection closes: throwing from the body writer
    /// makes Hummingbird close it.
    static func cut(_ response: Response) -> Response {
        var response = response
        let original = response.body
        response.body = ResponseBody(contentLength: original.contentLength) { writer in
            let collector = Collector()
            try await original.write(CollectingWriter(collector: collector))
            var whole = collector.buffer
            let half = whole.readSlice(length: whole.readableBytes / 2) ?? ByteBuffer()
            if half.readableBytes > 0 { try await writer.write(half) }
            throw CutMidBody()
        }
        return response
    }

    final class Collector: @unchecked Sendable {
        var buffer = ByteBuffer()
    }

    struct CollectingWriter: ResponseBodyWriter {
        let collector: Collector
        mutating func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            collector.buffer.writeBuffer(&buffer)
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
