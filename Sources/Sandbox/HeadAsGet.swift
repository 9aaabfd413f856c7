import Hummingbird

/// The router, answering `HEAD` like `GET` without the body (RFC 9110
/// §9.3.2): the same status and headers, `Content-Length` included.
/// Hummingbird's router has no `HEAD` of its own, so every GET route
/// answered `HEAD` with a 404. A middleware cannot do this: the route is
/// resolved, by method, before the router's middleware runs.
struct HeadAsGet<Router: HTTPResponderBuilder>: HTTPResponderBuilder {
    let router: Router

    func buildResponder() -> Responder { Responder(inner: router.buildResponder()) }

    struct Responder: HTTPResponder {
        let inner: Router.Responder

        func respond(to request: Request, context: Router.Responder.Context) async throws -> Response {
            guard request.method == .head else { return try await inner.respond(to: request, context: context) }
            var head = request.head
            head.method = .get
            let response = try await inner.respond(to: Request(head: head, body: request.body), context: context)
            var headers = response.headers
            if headers[.contentLength] == nil, let length = response.body.contentLength { headers[.contentLength] = String(length) }
            return Response(status: response.status, headers: headers, body: ResponseBody())
        }
    }
}
