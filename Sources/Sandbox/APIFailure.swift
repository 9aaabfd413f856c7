import Core
import Hummingbird

/// An error answer; `ErrorStyle` words it in the backend's envelope.
struct APIFailure: Error {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    var details: [(key: String, value: JSONValue)] = []
    /// Seconds for a `Retry-After` header (429, 503), and `details.retry_after`
    /// for clients that read only the body.
    var retryAfter: Int?

    func body(_ style: ErrorStyle) -> JSONValue {
        var members: [(key: String, value: JSONValue)]
        switch style {
        case .linku:
            members = [("error", .bool(true)), ("message", .string(message)), ("error_code", .string(code)), ("status_code", .int(status.code))]
        case .codeMessage:
            members = [("code", .string(code)), ("message", .string(message))]
        case let .envelope(envelope):
            return envelope.body(status: Int(status.code), code: code, message: message)
        }
        if !details.isEmpty { members.append(("details", .object(details))) }
        return .object(members)
    }

    static func unauthorized(_ message: String, code: String = "UNAUTHORIZED") -> APIFailure {
        APIFailure(status: .unauthorized, code: code, message: message)
    }

    static func notFound(_ message: String, code: String = "NOT_FOUND") -> APIFailure {
        APIFailure(status: .notFound, code: code, message: message)
    }

    static func validation(_ details: [(key: String, value: JSONValue)]) -> APIFailure {
        APIFailure(status: .unprocessableContent, code: "VALIDATION_ERROR", message: "some fields are invalid", details: details)
    }

    static let bodyTooLarge = APIFailure(status: .contentTooLarge, code: "PAYLOAD_TOO_LARGE", message: "JSON bodies are limited to 1 MiB")

    /// 429: the caller should wait `seconds` before trying again.
    static func rateLimited(code: String, _ message: String, retryAfter seconds: Int) -> APIFailure {
        APIFailure(status: .tooManyRequests, code: code, message: message, details: [("retry_after", .int(seconds))], retryAfter: seconds)
    }

    /// The answer as the backend sends it: the envelope, and `Retry-After` when set.
    func response(_ style: ErrorStyle) -> Response {
        var response = JSONResponse.make(status, body(style))
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }

    static func badRequest(_ message: String) -> APIFailure {
        APIFailure(status: .badRequest, code: "BAD_REQUEST", message: message)
    }

    /// 500: the sandbox's own mistake, never the caller's.
    static func `internal`(_ message: String) -> APIFailure {
        APIFailure(status: .internalServerError, code: "INTERNAL_ERROR", message: message)
    }
}

/// How a backend words errors (the sandbox side of Core's `ErrorEnvelope`).
enum ErrorStyle: Sendable {
    /// LinkU (seed 001): `{"error": true, "message", "error_code", "status_code", "details"}`.
    case linku
    /// Nova (seed 003), Level Up, posture: `{"code", "message", "details"}`.
    case codeMessage
    /// A profile's own (the mock answers in its transcripts' profile's envelope).
    case envelope(ErrorEnvelope)
}

/// Turns every error into the envelope: our own, Hummingbird's (unknown
/// route, wrong method) and anything unexpected (500, no internals leaked).
struct EnvelopeMiddleware<Context: RequestContext>: RouterMiddleware {
    let style: ErrorStyle
    let log: (@Sendable (String) -> Void)?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response: Response
        do {
            response = try await next(request, context)
        } catch let failure as APIFailure {
            response = failure.response(style)
        } catch let error as HTTPError {
            let code = error.status == .notFound ? "NOT_FOUND" : error.status == .methodNotAllowed ? "METHOD_NOT_ALLOWED" : "HTTP_ERROR"
            let message = error.status == .notFound ? "no route for \(request.method) \(request.uri.path)" : (error.body ?? error.status.reasonPhrase)
            response = JSONResponse.make(error.status, APIFailure(status: error.status, code: code, message: message).body(style))
        } catch {
            log?("internal error on \(request.method) \(request.uri.path): \(error)")
            response = JSONResponse.make(.internalServerError,
                                         APIFailure(status: .internalServerError, code: "INTERNAL_ERROR", message: "internal server error").body(style))
        }
        log?("\(request.method) \(request.uri.path) -> \(response.status.code)")
        return response
    }
}

enum JSONResponse {
    static func make(_ status: HTTPResponse.Status, _ value: JSONValue) -> Response {
        let buffer = ByteBuffer(bytes: JSONPrinter.compactUTF8(value))
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: buffer))
    }
}
