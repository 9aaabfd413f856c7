import Core
import Hummingbird
import HummingbirdWebSocket

/// Sandbox-only endpoints under `/__sandbox/`, for tests and for showing how a
/// client copes. No real backend has them. The fault switches never apply to them.
enum AdminRoutes {
    static func register(on router: Router<BasicRequestContext>, state: SandboxState) {
        router.get("/__sandbox/stats") { _, _ in
            let counters = state.counters.all.sorted { $0.key < $1.key }
            return JSONResponse.make(.ok, .object(counters.map { ($0.key, JSONValue.int($0.value)) }))
        }
        router.post("/__sandbox/expire-access-tokens") { _, _ in
            try await state.expireAccessTokens()
            return JSONResponse.make(.ok, .object([("message", .string("every access token issued so far now answers 401 TOKEN_EXPIRED"))]))
        }
        router.get("/__sandbox/faults") { _, _ in
            JSONResponse.make(.ok, FaultsJSON.describe(state.faults))
        }
        router.put("/__sandbox/faults") { request, _ in
            try FaultsJSON.apply(try await jsonObject(request), to: state.faults)
            let now = FaultsJSON.describe(state.faults)
            state.log("fault switches now \(JSONPrinter.compact(now))")
            return JSONResponse.make(.ok, now)
        }
        router.delete("/__sandbox/faults") { _, _ in
            state.faults.reset()
            return JSONResponse.make(.ok, FaultsJSON.describe(state.faults))
        }
    }

    /// `/__sandbox/echo`: a WebSocket that sends every frame back, for
    /// checking a client and for round-trip benchmarks. The ws_drop_after
    /// fault applies to it like to every other socket.
    static let largestEchoedMessage = 16 * 1024 * 1024

    /// An upgrade to a path no socket is at: a 404 in the backend's error
    /// envelope, as a plain GET of it gets (Hummingbird answered an empty 400).
    /// Registered after every socket, as the router's last resort.
    static func registerWebSocketFallback(on router: Router<BasicWebSocketRequestContext>, state: SandboxState) {
        // The router does not fall back to `/**` under a path it knows (`/ws/chat/1/x`, `/__sandbox/echox`):
        // each known first segment has its own last resort.
        for path in ["/**", "/ws", "/ws/**", "/__sandbox", "/__sandbox/**"] {
            router.ws(RouterPath(path)) { request, context in
                let failure = APIFailure.notFound("no WebSocket at \(request.uri.path)")
                state.connections.connection(for: context.logger)?.refuseUpgrade(failure, style: state.errorStyle)
                state.log("WS \(request.uri.path) refused: 404 NOT_FOUND")
                return .dontUpgrade
            } onUpgrade: { _, _, _ in }
        }
    }

    static func registerWebSocket(on router: Router<BasicWebSocketRequestContext>, state: SandboxState) {
        router.ws("/__sandbox/echo") { _, context in
            state.acceptUpgrade(logger: context.logger)
        } onUpgrade: { inbound, outbound, context in
            let socket = await state.openSocket(userID: nil, outbound: outbound, logger: context.logger)
            defer { Task { await state.sockets.close(socket) } }
            for try await message in inbound.messages(maxSize: largestEchoedMessage) {
                guard socket.received() else { break }
                switch message {
                case let .text(text):
                    await socket.sendRaw(.text(text))
                case let .binary(buffer):
                    await socket.sendRaw(.binary(buffer))
                }
                if socket.isDropped { break }
            }
        }
    }
}

/// The fault switches as JSON: what `GET /__sandbox/faults` shows and
/// `PUT /__sandbox/faults` takes (any subset of the keys).
enum FaultsJSON {
    static let keys = ["token_ttl", "latency_ms", "error_rate", "cut_body_rate", "ws_drop_after", "seed"]

    static func describe(_ faults: Faults) -> JSONValue {
        let settings = faults.current
        return .object([
            ("token_ttl", jsonNumber(faults.accessTokenLifetime)),
            ("latency_ms", .int(settings.latencyMilliseconds)),
            ("error_rate", jsonNumber(settings.errorRate)),
            ("cut_body_rate", jsonNumber(settings.cutBodyRate)),
            ("ws_drop_after", .int(settings.webSocketDropAfterFrames)),
            ("seed", settings.seed.map { .number(String($0)) } ?? .null),
        ])
    }

    /// Checks every given key first; changes nothing unless all are valid (422
    /// naming each bad key). A `seed` key, even unchanged, restarts the draws.
    static func apply(_ body: JSONValue, to faults: Faults) throws {
        guard case let .object(members) = body else { throw APIFailure.badRequest("expected a JSON object") }
        var settings = faults.current
        var ttl = faults.accessTokenLifetime
        var problems: [(key: String, value: JSONValue)] = []
        var reseed = false
        func number(_ value: JSONValue) -> Double? {
            if case let .number(text) = value { return Double(text) }
            return nil
        }
        for (key, value) in members {
            switch key {
            case "token_ttl":
                if let seconds = number(value), seconds > 0, seconds.isFinite { ttl = seconds }
                else { problems.append((key, .string("must be a positive number of seconds"))) }
            case "latency_ms":
                if let ms = value.intValue { settings.latencyMilliseconds = ms }
                else { problems.append((key, .string("must be an integer number of milliseconds"))) }
            case "error_rate":
                if let share = number(value) { settings.errorRate = share }
                else { problems.append((key, .string("must be a number from 0 to 1"))) }
            case "cut_body_rate":
                if let share = number(value) { settings.cutBodyRate = share }
                else { problems.append((key, .string("must be a number from 0 to 1"))) }
            case "ws_drop_after":
                if let frames = value.intValue { settings.webSocketDropAfterFrames = frames }
                else { problems.append((key, .string("must be an integer number of frames (0: never)"))) }
            case "seed":
                reseed = true
                if value == .null { settings.seed = nil }
                else if case let .number(text) = value, let seed = UInt64(text) { settings.seed = seed }
                else { problems.append((key, .string("must be an unsigned 64-bit integer or null"))) }
            default:
                problems.append((key, .string("unknown fault switch; known: \(keys.joined(separator: ", "))")))
            }
        }
        for problem in settings.problems() where !problems.contains(where: { $0.key == problem.key }) {
            problems.append((problem.key, .string(problem.message)))
        }
        guard problems.isEmpty else { throw APIFailure.validation(problems) }
        faults.update(reseed: reseed) { current, currentTTL in
            current = settings
            currentTTL = ttl
        }
    }
}
