import Core
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// A running `explorer mock`: an HTTP and WebSocket server on the sandbox's
/// stack that answers from recorded transcripts (docs/mock.md). Prints
/// nothing: what it has to say goes to `log`, one line at a time.
public final class MockServer: Sendable {
    public var port: Int { server.port }
    public let host: String
    let book: MockBook
    private let server: BackgroundServer

    /// `http://127.0.0.1:PORT`
    public var baseURL: URL { URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(port)")! }

    /// A request body larger than this is refused (413) before it is compared.
    public static let maxBody = 8 << 20
    /// The header that keeps clients' scenarios apart; without it, all share one.
    public static let sessionHeader = "X-Mock-Session"

    private init(host: String, book: MockBook, server: BackgroundServer) {
        self.host = host
        self.book = book
        self.server = server
    }

    /// Starts serving `scripts` and returns once it accepts connections.
    /// `faults`: the sandbox's fault switches (docs/sandbox-faults.md), here
    /// for the mock's answers and sockets; `tokenLifetime`: seconds the tokens it signs live.
    public static func start(_ scripts: [MockScript], mode: MockMode = .match, host: String = "127.0.0.1", port: Int = 0,
                             faults settings: FaultSettings = FaultSettings(), tokenLifetime: Double = 900,
                             log: @escaping @Sendable (String) -> Void = { _ in }) async throws -> MockServer {
        if let problem = settings.problems().first {
            throw SandboxConfiguration.InvalidConfiguration(description: "fault switch \(problem.key) \(problem.message)")
        }
        let faults = Faults(settings, accessTokenLifetime: tokenLifetime)
        let book = MockBook(scripts: scripts, mode: mode, tokenLifetime: tokenLifetime)
        let responder = MockResponder(book: book, faults: faults, log: log)
        var logger = Logger(label: "explorer.mock")
        logger.logLevel = .critical
        let server = try await BackgroundServer.start(host: host, port: port, what: "the mock", logger: logger) { onRunning in
            Application(
                responder: responder,
                server: SandboxChildChannel.builder(connections: ConnectionRegistry(),
                                                    errorStyle: .envelope((scripts.first?.profile ?? .generic).errorEnvelope)) { head, channel, _ in
                    MockSockets.upgrade(head, channel: channel, book: book, dropAfter: faults.current.webSocketDropAfterFrames, log: log)
                },
                configuration: .init(address: .hostname(host, port: port), serverName: "explorer-mock"),
                onServerRunning: onRunning,
                logger: logger
            )
        }
        return MockServer(host: host, book: book, server: server)
    }

    public func stop() async { await server.stop() }

    public func wait() async throws { try await server.wait() }

    /// What `GET /__mock/state` answers.
    public var state: JSONValue { book.state() }
}

/// Answers HTTP requests: `/__mock/…` itself, the rest from the book.
struct MockResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let book: MockBook
    let faults: Faults
    let log: @Sendable (String) -> Void

    func respond(to request: Request, context: Context) async throws -> Response {
        let session = request.headers[HTTPField.Name(MockServer.sessionHeader)!] ?? ""
        let base = "http://" + (request.head.authority ?? "127.0.0.1")
        let path = request.uri.path
        if path == "/__mock/state", request.method == .get || request.method == .head { return Self.json(.ok, book.state()) }
        // The mock's own paths by another method: said, not matched against the recordings.
        if let method = ["/__mock/state": "GET", "/__mock/reset": "POST"][path], request.method.rawValue != method {
            var response = Self.json(.methodNotAllowed, (book.scripts.first?.profile ?? .generic).errorEnvelope.body(
                status: 405, code: "METHOD_NOT_ALLOWED", message: "\(path) takes \(method), not \(request.method.rawValue)"))
            response.headers[.allow] = method
            return response
        }
        if path == "/__mock/reset", request.method == .post {
            let scenario = request.uri.queryParameters.get("scenario")
            guard book.reset(session: session, scenario: scenario) else {
                let names = book.scripts.map { MockBook.names($0.file).last ?? $0.file }.joined(separator: ", ")
                return Self.json(.notFound, (book.scripts.first?.profile ?? .generic).errorEnvelope.body(
                    status: 404, code: "NO_SUCH_SCENARIO", message: "no transcript named \(scenario ?? ""): the mock serves \(names)"))
            }
            // Every session over: the faults' draws too, from their seed (a UI test reset between cases got faults that
            // depended on which cases ran before it).
            if scenario == nil { faults.reset() }
            return Self.json(.ok, .object([("reset", .bool(true))] + (scenario.map { [("scenario", JSONValue.string($0))] } ?? [])))
        }
        // The fault switches, as the sandbox's: never on /__mock/, so they can be read while on.
        let latency = faults.current.latencyMilliseconds
        if latency > 0 { try await Task.sleep(for: .milliseconds(latency)) }
        switch faults.nextHTTPFault() {
        case let .error(status)?:
            log("\(request.method) \(LiveRequest.shown(path: path)) → \(status) (error_rate fault)")
            let profile = book.scripts.first?.profile ?? .generic
            var response = Self.json(.init(code: status), profile.errorEnvelope.body(
                status: status, code: status == 503 ? "SERVICE_UNAVAILABLE" : "INTERNAL_ERROR", message: "mock fault switch error_rate"))
            if status == 503 { response.headers[.retryAfter] = "1" }
            return response
        case .cutBody?:
            log("\(request.method) \(LiveRequest.shown(path: path)): body cut (cut_body_rate fault)")
            return FaultMiddleware<Context>.cut(try await answer(request, path: path, session: session, base: base))
        case nil:
            return try await answer(request, path: path, session: session, base: base)
        }
    }

    /// The recorded answer to a request, or why there is none.
    private func answer(_ request: Request, path: String, session: String, base: String) async throws -> Response {
        // Read to the end even past the limit: a client that sends the whole
        // body before reading (and asked to close after) would wait forever
        // for a server that stopped reading.
        var body: [UInt8] = []
        var tooLarge = false
        for try await chunk in request.body {
            guard !tooLarge else { continue }
            if body.count + chunk.readableBytes > MockServer.maxBody {
                tooLarge = true
                body = []
            } else {
                body += chunk.readableBytesView
            }
        }
        if tooLarge {
            let profile = book.scripts.first?.profile ?? .generic
            log("\(request.method) \(LiveRequest.shown(path: path)) → 413: the body is over \(MockServer.maxBody >> 20) MiB")
            return Self.json(.contentTooLarge, profile.errorEnvelope.body(status: 413, code: "PAYLOAD_TOO_LARGE",
                                                                          message: "request body over \(MockServer.maxBody >> 20) MiB"))
        }
        // A path whose percent-encoding does not decode (`/notes/%ZZ`) names nothing: it was answered 200, `"id": "%ZZ"`.
        // Nor does such a query (`?q=%ZZ`: it was "query q differs", a 404 naming a step).
        let query = request.uri.query ?? ""
        for (part, text) in [("path", path), ("query", query)] where text.utf8.contains(UInt8(ascii: "%")) && text.removingPercentEncoding == nil {
            let profile = book.scripts.first?.profile ?? .generic
            log("\(request.method) \(LiveRequest.shown(path: path)) → 400: the \(part)'s percent-encoding is not valid")
            return Self.json(.badRequest, profile.errorEnvelope.body(status: 400, code: "BAD_REQUEST",
                                                                    message: "the \(part)'s percent-encoding is not valid: \(LiveRequest.shown(path: path))"))
        }
        var live = LiveRequest(method: request.method.rawValue, path: path,
                               query: LiveRequest.queryItems(request.uri.query), body: body, base: base)
        live.signedIn = request.headers[.authorization] != nil || request.headers[.cookie] != nil
        live.validator = request.headers[.ifNoneMatch] ?? request.headers[.ifModifiedSince]
        let response: Response
        switch book.decide(live, session: session, baseURL: base) {
        case let .answer(key, materializer, answerOnly):
            response = answer(book.scripts[key.script].steps[key.step], materializer, session: session, answerOnly: answerOnly)
        case let .expired(key):
            let profile = book.scripts[key.script].profile
            response = Self.json(.unauthorized, profile.errorEnvelope.body(
                status: 401, code: "TOKEN_EXPIRED", message: "access token expired (the recording refreshed it here)"))
        case let .refresh(profile):
            response = Self.json(.ok, book.refreshAnswer(profile, baseURL: base))
        case let .unmatched(message, profile):
            log("\(request.method) \(LiveRequest.shown(path: path)) → 404 \(message)")
            response = Self.json(.notFound, profile.errorEnvelope.body(status: 404, code: "NOT_RECORDED", message: message))
        }
        guard request.method == .head else { return response }
        var headers = response.headers
        if headers[.contentLength] == nil, let length = response.body.contentLength { headers[.contentLength] = String(length) }
        return Response(status: response.status, headers: headers, body: ResponseBody())
    }

    /// The recorded answer, its patterns made values; its received frames go to the session's sockets.
    private func answer(_ step: MockStep, _ materializer: Materializer, session: String, answerOnly: Set<String>) -> Response {
        var values = materializer
        let expectation = step.expectation
        // The body first: a capture it binds (`"id": {{order_id:=integer}}`) is what a header names
        // (`Location: /orders/{{order_id}}`, which came out `/orders/`). `RecordedAnswers` goes in the same order.
        let json = expectation.body.flatMap { if case let .json(expected) = $0 { values.value(expected) } else { nil } }
        var headers = HTTPFields()
        for header in expectation.headers {
            guard let name = HTTPField.Name(header.name) else { continue }
            headers.append(HTTPField(name: name, value: values.text(header.value)))
        }
        var bytes: [UInt8] = []
        switch expectation.body {
        case .json?:
            bytes = JSONPrinter.compactUTF8(json ?? .null)
            if headers[.contentType] == nil { headers[.contentType] = "application/json; charset=utf-8" }
        case let .text(lines)?:
            // Each line as it came, its line end too: a recording keeps lines, and an event stream's
            // last event is only whole with its blank line (EventSource dropped `[DONE]`).
            bytes = Array(lines.map { values.text($0) + "\n" }.joined().utf8)
            if headers[.contentType] == nil { headers[.contentType] = "text/plain; charset=utf-8" }
        case let .binary(summary)?:
            let (type, count) = Self.binary(summary)
            bytes = [UInt8](repeating: 0, count: count)
            if headers[.contentType] == nil, let type { headers[.contentType] = type }
        case nil:
            break
        }
        switch expectation.body {
        case .json?, .text?:
            // An answer recorded in another charset (a Latin-1 page, read as
            // text when it was recorded) is served in it again, as its header says.
            if let type = headers[.contentType], let charset = ReceivedResponse.charset(of: type),
               let encoded = Charset.encode(String(decoding: bytes, as: UTF8.self), charset: charset) {
                bytes = encoded
            }
        default: break
        }
        let frames = step.receivedFrames.map { MockSockets.outgoing($0.content, &values) }
        book.keep(values.bindings.filter { !answerOnly.contains($0.key) }, session: session)
        let delivered = book.delivering(frames, session: session)
        for socket in book.sockets(session: session) {
            for frame in delivered { socket.send(frame) }
        }
        return Response(status: .init(code: expectation.status ?? 200), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// `image/png, 5120 bytes` → the type and the size.
    static func binary(_ summary: String) -> (type: String?, count: Int) {
        let parts = summary.components(separatedBy: ", ")
        let count = parts.last.flatMap { Int($0.split(separator: " ").first ?? "") } ?? 0
        let type = parts.count > 1 ? parts[0] : nil
        return (type, min(count, MockServer.maxBody))
    }

    static func json(_ status: HTTPResponse.Status, _ value: JSONValue) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(bytes: JSONPrinter.compactUTF8(value))))
    }
}

/// A socket the mock has open: frames to send reach it from any task.
final class MockSocket: Sendable {
    enum Outgoing: Sendable {
        case text(String)
        case binary(Int)
        case close(String)
        /// The recorded server's own close (`← (closed 4003: quota exceeded)`).
        case closeAsRecorded(code: Int, reason: String)
    }

    let stream: AsyncStream<Outgoing>
    private let continuation: AsyncStream<Outgoing>.Continuation
    private let dropAfter: Int
    private let drop: @Sendable () -> Void
    private let frames = Mutex(0)

    init(dropAfter: Int = 0, drop: @escaping @Sendable () -> Void = {}) {
        (stream, continuation) = AsyncStream.makeStream(of: Outgoing.self)
        self.dropAfter = dropAfter
        self.drop = drop
    }

    /// One more data frame went over the socket: the `ws_drop_after` fault drops it at the count.
    func counted() {
        let count = frames.withLock { value in
            value += 1
            return value
        }
        if dropAfter > 0, count == dropAfter { drop() }
    }

    func send(_ frame: Outgoing) { continuation.yield(frame) }
    func finish() { continuation.finish() }
}

/// The mock's WebSocket side: a socket opens on a recorded path; a client
/// frame that matches a recorded `ws send` is answered with that step's frames.
enum MockSockets {
    static let maxFrame = 1 << 20

    /// `dropAfter`: the socket is dropped (closed without a close frame) after this many frames; 0 never.
    static func upgrade(_ head: HTTPRequest, channel: any Channel, book: MockBook, dropAfter: Int, log: @escaping @Sendable (String) -> Void)
        -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        let path = String((head.path ?? "/").split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "/")
        // The first subprotocol the client asks for is the one taken (`graphql-transport-ws`): a 101 naming
        // none is refused by Node's ws and tungstenite, so such an app could not use the mock.
        var answer = HTTPFields()
        if let name = HTTPField.Name("Sec-WebSocket-Protocol"), let offered = head.headerFields[name],
           let first = offered.split(separator: ",").first?.trimmingBlanks(), !first.isEmpty {
            answer[name] = first
        }
        guard let opened = book.socketStep(path: path) else {
            // Refusing the upgrade would get the client a bare 400 from the
            // server stack; opened and closed at once, it gets a reason.
            let recorded = book.socketPaths.joined(separator: ", ")
            let reason = "no socket recorded on \(LiveRequest.shown(path: path))" + (recorded.isEmpty ? "" : "; recorded: \(recorded)")
            log("ws \(LiveRequest.shown(path: path)): \(reason); closing")
            return .upgrade(answer) { _, outbound, _ in
                try await outbound.close(.policyViolation, reason: Self.fitting(reason))
            }
        }
        let session = head.headerFields[HTTPField.Name(MockServer.sessionHeader)!] ?? ""
        let base = "http://" + (head.authority ?? "127.0.0.1")
        return .upgrade(answer) { inbound, outbound, _ in
            let socket = MockSocket(dropAfter: dropAfter) { [channel] in
                log("ws \(path): dropped after \(dropAfter) frames (ws_drop_after fault)")
                channel.close(promise: nil)
            }
            book.open(socket, session: session)
            // What the server sent as the socket opened (a greeting), if the recording has it: after a
            // recorded loss, what came as the client connected again (the first greeting came back instead).
            let step = book.scripts[opened.script].steps[opened.step]
            if let again = book.greetingAfterLoss(session: session) {
                for frame in book.delivering(again, session: session) { socket.send(frame) }
            } else if !step.receivedFrames.isEmpty {
                var values = book.materializer(for: step, bindings: book.bindings(session: session), baseURL: base)
                let frames = step.receivedFrames.map { outgoing($0.content, &values) }
                book.keep(values.bindings, session: session)
                for frame in book.delivering(frames, session: session) { socket.send(frame) }
            }
            defer { book.close(socket, session: session) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await frame in socket.stream {
                        switch frame {
                        case let .text(text):
                            try await outbound.write(.text(text))
                            socket.counted()
                        case let .binary(count):
                            try await outbound.write(.binary(ByteBuffer(repeating: 0, count: count)))
                            socket.counted()
                        case let .close(reason):
                            try await outbound.close(.policyViolation, reason: fitting(reason))
                            return
                        case let .closeAsRecorded(code, _) where code == CloseCode.lost:
                            // A connection lost, as recorded: dropped with no close frame (1006 is never sent in one).
                            try await channel.close()
                            return
                        case let .closeAsRecorded(code, reason):
                            try await outbound.close(.init(codeNumber: code), reason: fitting(reason))
                            return
                        }
                    }
                }
                do {
                    for try await message in inbound.messages(maxSize: maxFrame) {
                        socket.counted()
                        switch message {
                        case let .text(text): received(text, socket: socket, path: path, session: session, base: base, book: book, log: log)
                        case .binary:
                            log("ws \(path): a binary frame matches no recorded frame; closing")
                            socket.send(.close("no recorded frame matches a binary frame"))
                        }
                    }
                } catch {
                    log("ws \(path): \(error)")
                }
                socket.finish()
                try await group.waitForAll()
            }
        }
    }

    /// A close reason cut to what a close frame holds (123 bytes), never inside a character.
    static func fitting(_ reason: String) -> String {
        guard reason.utf8.count > 123 else { return reason }
        var cut = ""
        for character in reason {
            guard cut.utf8.count + character.utf8.count <= 120 else { break }
            cut.append(character)
        }
        return cut + "…"
    }

    private static func received(_ text: String, socket: MockSocket, path: String, session: String, base: String,
                                 book: MockBook, log: @Sendable (String) -> Void) {
        let frame = try? JSONParser.parse(text)
        guard let (step, materializer) = book.frameStep(frame, text: text, session: session, baseURL: base) else {
            // An application heartbeat is the client's business: answered, never a reason to close.
            if let type = frame?["type"]?.stringValue, type == "ping" {
                socket.send(.text(#"{"type":"pong"}"#))
                return
            }
            // A client's unsubscribe or goodbye (graphql-ws's `complete`, `stop`, `connection_terminate`) asks for
            // nothing back: it closed the socket of every app that stopped a subscription; nor does its own
            // heartbeat (`pong`, graphql-ws's `ka`), which transcripts never hold.
            if let type = frame?["type"]?.stringValue, ["complete", "stop", "connection_terminate", "unsubscribe", "pong", "ka"].contains(type) {
                log("ws \(path): a client's \(type) frame, no answer recorded; going on")
                return
            }
            // What the frame holds is not written out (it may carry a token): only its kind, and
            // its type when a recording has that type (else the type itself may be what leaks).
            let kind: String
            switch frame?["type"]?.stringValue {
            case let type? where book.recordsFrameType(type): kind = "a frame of type \(type)"
            case .some: kind = "a JSON frame of a type no recording has"
            case nil: kind = frame == nil ? "a text frame" : "a JSON frame"
            }
            log("ws \(path): no recorded frame matches \(kind); closing")
            socket.send(.close("no recorded frame matches \(kind)"))
            return
        }
        var values = materializer
        let frames = step.receivedFrames.map { outgoing($0.content, &values) }
        book.keep(values.bindings, session: session)
        for frame in book.delivering(frames, session: session) { socket.send(frame) }
    }

    static func outgoing(_ content: ExpectedFrame.Content, _ values: inout Materializer) -> MockSocket.Outgoing {
        switch content {
        case let .json(expected): return .text(JSONPrinter.compact(values.value(expected)))
        case let .text(pattern): return .text(values.text(pattern))
        case let .binary(summary): return .binary(MockResponder.binary(summary).count)
        case let .closed(code, reason): return .closeAsRecorded(code: code, reason: reason)
        }
    }
}
