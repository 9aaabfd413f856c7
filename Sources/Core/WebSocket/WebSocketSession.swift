import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOWebSocket
import WSClient
import WSCompression

/// A WebSocket that survives real networks (seed 000, "WebSocket service"):
/// it reconnects after an unexpected close on the `ReconnectPolicy`
/// schedule with a freshly resolved URL (so a fresh token), pings to notice
/// a dead peer, reports each incoming message id once, queues outgoing
/// messages until the socket is open, and after a reconnect asks the
/// `Reconciler` what it missed (from the highest message id seen, or the
/// latest one before the first connection). Everything it does comes out of `events`.
///
/// The session, its connection and the `AuthSession` it takes tokens from
/// share one event loop (`AuthSession.eventLoop`), and so one thread: a
/// frame read there is handled and handed on there, and a frame sent from
/// the interpreter or the token's refresh does not cross to another thread.
public actor WebSocketSession {
    public enum State: String, Sendable {
        case idle, connecting, open, waiting, closed
    }

    public nonisolated let events: AsyncStream<WebSocketEvent>
    private let emitter: AsyncStream<WebSocketEvent>.Continuation
    private let address: WebSocketAddress
    private let session: AuthSession
    private let options: WebSocketOptions
    private let reconciler: Reconciler?
    private nonisolated let eventLoop: any EventLoop
    public nonisolated var unownedExecutor: UnownedSerialExecutor { eventLoop.executor.asUnownedSerialExecutor() }

    public private(set) var state = State.idle
    /// The URL of the current or last attempt, token hidden.
    public private(set) var displayURL: String?
    /// Who the session was logged in as when the socket first opened: a reconnect goes as no one else.
    public private(set) var openedAs: String?
    /// Who the session was logged in as when this attempt began.
    private var attemptUser: String?
    public private(set) var sentCount = 0
    public private(set) var receivedCount = 0
    public private(set) var duplicateCount = 0
    public private(set) var reconnectCount = 0

    private var queue: [SocketFrame] = []
    private var dedup: MessageDeduplicator
    /// The highest message id seen (socket or reconcile): where reconciling starts.
    private var latestID: Int?
    private var wake: AsyncStream<Void>.Continuation?
    private var writer: WebSocketOutboundWriter?
    private var openedThisAttempt = false
    /// When this attempt opened, and whether a frame came in since: a
    /// connection that did neither for long is no proof the server is back.
    private var openedAt: ContinuousClock.Instant?
    private var receivedThisAttempt = false
    /// A frame was written on this connection, and then one came: it carried
    /// traffic both ways, however soon it dropped.
    private var wroteThisAttempt = false
    private var answeredThisAttempt = false
    private var hasOpened = false
    private var userClosed = false
    private var runner: Task<Void, Never>?
    /// Numbers connection attempts; an attempt given up (timed out) no longer matches.
    private var attemptNumber = 0
    /// Senders waiting for room in a full queue while the socket is open.
    private var roomWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextRoomWaiter = 0
    /// When the writer last finished writing a frame.
    private var lastWrite: ContinuousClock.Instant?
    /// Why this attempt's connection was closed by this side: the server
    /// broke the protocol (a message too big, bytes that are no frame, a text
    /// frame that is not UTF-8).
    private var brokenThisAttempt: ProtocolBreach?

    public init(address: WebSocketAddress, session: AuthSession, options: WebSocketOptions = WebSocketOptions(),
                reconciler: Reconciler? = nil) {
        (events, emitter) = AsyncStream.makeStream(of: WebSocketEvent.self)
        self.address = address
        self.session = session
        self.options = options
        self.reconciler = reconciler
        eventLoop = session.eventLoop
        dedup = MessageDeduplicator(capacity: options.deduplicationWindow)
    }

    /// Messages waiting for the socket.
    public var queuedCount: Int { queue.count }

    /// Starts connecting; progress comes out of `events`.
    public func start() {
        guard runner == nil else { return }
        runner = Task { await self.run() }
    }

    /// Closes the socket with a normal close (or stops waiting to reconnect),
    /// and waits until the session is over.
    public func close() async {
        userClosed = true
        guard let runner else { return }
        if let writer {
            // The peer should answer the close frame (RFC 6455 5.5.1). WSClient
            // waits for that answer for as long as the connection's handler
            // runs, which is for ever with a peer gone silent: drop the
            // connection after `closeTimeout` instead. The watchdog starts
            // before the close frame is written: behind frames a peer does not
            // read, that write never ends either.
            let limit = options.closeTimeout
            let watchdog = Task {
                try? await Task.sleep(for: limit)
                if !Task.isCancelled { runner.cancel() }
            }
            // Ctrl-C (the line's task cancelled) drops it at once: it waited out the 5 s all the same.
            await withTaskCancellationHandler {
                try? await writer.close(.normalClosure, reason: nil)
                await runner.value
            } onCancel: {
                runner.cancel()
            }
            watchdog.cancel()
        } else {
            runner.cancel()
            await runner.value
        }
    }

    /// Sends a frame now, or queues it until the socket is open.
    ///
    /// The queue holds at most `queueLimit` frames. While the socket is not
    /// open, one more is refused at once (`queueFull`). While it is open the
    /// queue is the writer's backlog, and a sender faster than the writer (a
    /// script of `ws send` lines) waits for room instead; a peer that takes
    /// no frame for `sendTimeout` gets `stalled`. Nothing is dropped silently.
    @discardableResult
    public func send(_ frame: SocketFrame) async throws(WebSocketSendError) -> WebSocketSendError.Disposition {
        try await waitForRoom()
        queue.append(frame)
        if writable {
            wake?.yield()
            return .sending(ordinal: sentCount + queue.count)
        }
        return .queued(waiting: queue.count)
    }

    /// Open, with a connection to write to (between a drop and the next
    /// state, `state` may still say open).
    private var writable: Bool { state == .open && writer != nil }

    private func waitForRoom() async throws(WebSocketSendError) {
        let started = ContinuousClock.now
        while true {
            if state == .idle || state == .closed { throw .notConnected }
            guard queue.count >= options.queueLimit else { return }
            guard writable else { throw .queueFull(limit: options.queueLimit) }
            // Stalled: no frame written for sendTimeout (frames still going
            // out, taken by other senders, are progress).
            let end = max(started, lastWrite ?? started) + options.sendTimeout
            guard ContinuousClock.now < end else { throw .stalled(waiting: queue.count, for: options.sendTimeout) }
            guard !Task.isCancelled else { throw .cancelled }
            await waitForWrite(until: end)
        }
    }

    /// Returns after the next frame is written, the connection ends, `end`
    /// passes or the task is cancelled, whichever is first.
    private func waitForWrite(until end: ContinuousClock.Instant) async {
        let id = nextRoomWaiter
        nextRoomWaiter += 1
        let timer = Task { [weak self] in
            try? await Task.sleep(until: end)
            await self?.wakeRoomWaiter(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { roomWaiters[id] = $0 }
        } onCancel: {
            Task { await self.wakeRoomWaiter(id) }
        }
        timer.cancel()
    }

    private func wakeRoomWaiter(_ id: Int) {
        roomWaiters.removeValue(forKey: id)?.resume()
    }

    /// Every waiting sender looks again (a frame was written, or the connection ended).
    private func wakeRoomWaiters() {
        let waiting = roomWaiters.values
        roomWaiters = [:]
        waiting.forEach { $0.resume() }
    }

    // MARK: The connection loop

    private func run() async {
        // Asked before connecting, so a message missed before any arrived is found too.
        if let reconciler, let latest = try? await reconciler.latestID() { saw(latest) }
        var attempt = 0
        var refreshToken = false
        var refreshedFirst = false
        // The CA file `--verify` named, for a TLS failure to name.
        let authorities: String? = if case let .authorities(file)? = options.tls?.verify { file } else { nil }
        while !userClosed {
            // A reconnect would open the socket with whoever is logged in now (the profile's path names the user,
            // the token is theirs): alice's chat socket came back as bob's, unsaid.
            if hasOpened, await carriesLogin(), case let now = await session.userName, now != openedAs {
                let who = now.map { "in as \($0)" } ?? "out"
                emitter.yield(.ended("not reconnecting: the socket was opened as \(openedAs ?? "no one"), and the session is logged \(who) now "
                                     + "(ws connect opens one \(now.map { "as \($0)" } ?? "without a login"))"))
                break
            }
            state = .connecting
            emitter.yield(.connecting(attempt: attempt))
            var failure: (any Error)?
            var closeFrame: WebSocketCloseFrame?
            var url: String?
            attemptUser = await session.userName
            do {
                let resolved = try await address.resolve(session: session, refresh: refreshToken)
                url = resolved
                displayURL = WebSocketAddress.redacted(resolved)
                closeFrame = try await connectOnce(resolved)
            } catch {
                failure = error
            }
            let opened = openedThisAttempt
            // Healthy: it stayed open a while, or carried frames and was not
            // dropped at once (a server that greets and closes each time
            // would otherwise reset the count and be tried for ever).
            let lasted = openedAt.map { ContinuousClock.now - $0 } ?? .zero
            // Or it answered what was sent on it: a chat on a flaky network, every connection carrying
            // messages, was given up on after `--retries` drops in all.
            let healthy = lasted >= healthyAfter || receivedThisAttempt && lasted >= Self.briefConnection || answeredThisAttempt
            receivedThisAttempt = false
            wroteThisAttempt = false
            answeredThisAttempt = false
            openedAt = nil
            // A refused handshake on a reconnect is most often a token the server
            // no longer takes: the next try refreshes it first.
            refreshToken = !opened && (failure as? WebSocketClientError) == .webSocketUpgradeFailed
            openedThisAttempt = false
            writer = nil
            wake?.finish()
            wake = nil
            wakeRoomWaiters()
            if opened {
                hasOpened = true
                // Tries count consecutive failures; an open that carried
                // nothing and soon dropped is one of them.
                if healthy { attempt = 0 }
                let broken = brokenThisAttempt != nil
                let code = closeFrame.map { Int(UInt16(webSocketErrorCode: $0.closeCode)) }
                if let breach = brokenThisAttempt {
                    emitter.yield(.broken(code: breach.code, reason: breach.reason))
                } else {
                    emitter.yield(.closed(code: code, reason: closeFrame?.reason))
                }
                brokenThisAttempt = nil
                // A normal close from the server (or ours) is the end, not a drop.
                if userClosed || closeFrame?.closeCode == .normalClosure { break }
                // So is a close that says trying again cannot help: the same frames would break it again.
                if broken {
                    emitter.yield(.ended("not reconnecting: the server's frames broke the protocol"))
                    break
                }
                if let code, Self.finalCloseCodes.contains(code) {
                    emitter.yield(.ended("not reconnecting: the server closed the socket with \(code), which another try would not change"))
                    break
                }
                // 4000-4999 are the application's own (RFC 6455 §7.4.2): `4001 session expired`, graphql-ws's
                // 4401/4429. What they ask for is the application's to say; retrying one replayed the same close 5 times.
                if let code, (4000...4999).contains(code) {
                    emitter.yield(.ended("not reconnecting: the server closed the socket with its application's own code \(code) (ws connect tries again)"))
                    break
                }
            } else if userClosed {
                break
            } else if !hasOpened {
                // The first handshake refused with the login's token in the profile's socket path: most often a token
                // that expired while the app slept (an opaque one, whose expiry cannot be read). Refreshed once and
                // tried again, as a request is; it failed with the 401 until a request happened to refresh it.
                if !refreshedFirst, (failure as? WebSocketClientError) == .webSocketUpgradeFailed, case .profileTemplate = address,
                   session.profile.webSocketTemplate?.contains("{accessToken}") == true, await session.tokens?.refreshToken != nil {
                    refreshedFirst = true
                    refreshToken = true
                    continue
                }
                let handshake = if let url { await handshakeHeaderList(for: url) } else { [HTTPHeader]() }
                emitter.yield(.failed(await ConnectFailure.describe(failure, url: url, handshake: handshake, session: session, authorities: authorities,
                                                                    proxy: url.flatMap(proxy(for:)))))
                break
            }
            // The login the socket's path needs has ended (a refresh refused): no later try can open it, and the
            // tries went on for half a minute, printing the prompt of a session that had ended.
            if !opened, failure as? AuthError == .sessionExpired || (failure as? WebSocketAddress.Failure)?.description.hasPrefix("not logged in") == true {
                emitter.yield(.ended("not reconnecting: " + (failure.map { "\($0)" } ?? "the login ended")))
                break
            }
            // A reconnect try that did not open, when another follows: said, with what the next does about it
            // (it failed in silence, and only "retrying" showed that the expired token had been refused).
            let failedTry = !opened && hasOpened ? attempt : nil
            attempt += 1
            guard let delay = options.reconnect.delay(beforeAttempt: attempt) else {
                emitter.yield(.gaveUp)
                break
            }
            if let failedTry {
                let reason = await ConnectFailure.describe(failure, url: url, handshake: [], session: session, authorities: authorities,
                                                           proxy: url.flatMap(proxy(for:)))
                emitter.yield(.failed("try \(failedTry) failed: \(reason)" + (refreshToken ? "; the next refreshes the token first" : "")))
            }
            state = .waiting
            emitter.yield(.retrying(in: delay, attempt: attempt))
            try? await Task.sleep(for: delay)
        }
        state = .closed
        wakeRoomWaiters()
        emitter.finish()
    }

    /// The handshake's headers: those typed on `ws connect`, then the
    /// session's that they do not set, when the socket is on the backend's
    /// origin. Not an `Origin`: WSClient sends its own (`ws://HOST`) and
    /// would send a second one, which servers refuse ("multiple values").
    func handshakeHeaderList(for url: String) async -> [HTTPHeader] {
        var given = options.headers
        if let target = URL(string: WebSocketAddress.httpScheme(url)) {
            for header in await session.sessionHeaders(for: target) where !given.contains(where: { $0.hasName(header.name) }) {
                given.append(header)
            }
        }
        return given.filter { !$0.hasName("Origin") }
    }

    private func handshakeHeaders(for url: String) async -> HTTPFields {
        var fields = HTTPFields()
        for header in await handshakeHeaderList(for: url) {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        return fields
    }

    /// The proxy the environment names for a socket at `url`.
    private func proxy(for url: String) -> ProxyRules.Proxy? {
        URL(string: WebSocketAddress.httpScheme(url)).flatMap { options.proxies?.proxy(for: $0) }
    }

    /// The proxy for a socket at `url`, with its credentials on the CONNECT request.
    private func proxySettings(for url: String) -> WebSocketProxySettings? {
        guard let proxy = proxy(for: url) else { return nil }
        var connectHeaders = HTTPFields()
        if let authorization = proxy.authorization { connectHeaders[.proxyAuthorization] = authorization }
        return WebSocketProxySettings(host: proxy.host, port: proxy.port, type: .http(connectHeaders: connectHeaders), timeout: options.openTimeout)
    }

    private func connectOnce(_ url: String) async throws -> WebSocketCloseFrame? {
        let headers = await handshakeHeaders(for: url)
        // A file that cannot be used fails the attempt in its own words (`TLSOptions.FileProblem`).
        var shown = options.tls
        if let scope = options.certificateScope, !(URL(string: WebSocketAddress.httpScheme(url)).map(scope.admits) ?? false) {
            shown = shown?.withoutCertificate
        }
        let tls = try shown?.configuration()
        let proxy = proxySettings(for: url)
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: options.maximumMessageBytes,
            additionalHeaders: headers,
            // A compressed frame may inflate to four times what a message may be:
            // past that the library closes with 1009 but keeps the reason to itself;
            // up to it, the size check below closes with its reason.
            extensions: options.deflate ? [.perMessageDeflate(maxDecompressedFrameSize: options.maximumMessageBytes.multipliedReportingOverflow(by: 4).overflow
                                                              ? Int.max : options.maximumMessageBytes * 4)] : [],
            closeTimeout: options.closeTimeout,
            autoPing: options.heartbeat.map { .enabled(timePeriod: $0) } ?? .disabled,
            // RFC 6455 §8.1: a text frame that is not UTF-8 fails the connection (1007).
            validateUTF8: true)
        let (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.wake = wake
        let maximum = options.maximumMessageBytes
        attemptNumber += 1
        let id = attemptNumber
        // WSClient waits for the TLS handshake and the upgrade answer without a
        // time limit or a way to cancel, so a server that accepts and says
        // nothing would hang `ws connect`. The attempt runs in its own task and
        // is given up after `openTimeout`; should it open later, it is closed.
        let (ends, end) = AsyncStream.makeStream(of: AttemptEnd.self)
        let connection = Task {
            do {
                let handler: WebSocketDataHandler<WebSocketClient.Context> = { inbound, outbound, _ in
                    guard await self.didOpen(outbound, attempt: id) else {
                        try? await outbound.close(.goingAway, reason: nil)
                        return
                    }
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await _ in wakeups {
                                var next = await self.nextOutgoing()
                                while let frame = next {
                                    switch frame {
                                    case let .text(text): try await outbound.write(.text(text))
                                    case let .binary(bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                                    }
                                    next = await self.didWrite()
                                }
                            }
                        }
                        do {
                            for try await message in inbound.messages(maxSize: maximum) {
                                // The library counts a deflated message's compressed bytes
                                // against the limit: a 17 MB message of one letter came through.
                                let size: Int
                                switch message {
                                case let .text(text): size = text.utf8.count
                                case let .binary(buffer): size = buffer.readableBytes
                                }
                                if size > maximum {
                                    await self.didBreak(.tooBig(maximum), attempt: id)
                                    try? await outbound.close(.messageTooLarge, reason: nil)
                                    break
                                }
                                switch message {
                                case let .text(text): await self.didReceive(.text(text))
                                case let .binary(buffer): await self.didReceive(.binary(Array(buffer: buffer)))
                                }
                            }
                        } catch {
                            // A breach of the protocol is thrown on, so the library closes
                            // with its code (1002, 1007, 1009); any other end (a drop)
                            // is for the loop above to judge.
                            if let breach = ProtocolBreach(error, maximumMessageBytes: maximum) {
                                await self.didBreak(breach, attempt: id)
                                group.cancelAll()
                                throw error
                            }
                        }
                        group.cancelAll()
                    }
                }
                // Through the proxy the environment names, as requests go (a CONNECT tunnel).
                let client = if let proxy {
                    WebSocketClient(url: url, configuration: configuration, tlsConfiguration: tls, proxySettings: proxy,
                                    eventLoopGroup: self.eventLoop, logger: Self.logger, handler: handler)
                } else {
                    WebSocketClient(url: url, configuration: configuration, tlsConfiguration: tls, eventLoopGroup: self.eventLoop,
                                    logger: Self.logger, handler: handler)
                }
                let closeFrame = try await client.run()
                end.yield(.finished(.success(closeFrame)))
            } catch {
                end.yield(.finished(.failure(error)))
            }
        }
        let limit = options.openTimeout
        let timer = Task {
            try await Task.sleep(for: limit)
            end.yield(.timedOut)
        }
        defer { timer.cancel() }
        for await outcome in ends {
            switch outcome {
            case let .finished(result): return try result.get()
            case .timedOut:
                if openedThisAttempt { continue }
                attemptNumber += 1
                connection.cancel()
                throw OpenTimeout(limit: limit)
            }
        }
        // Cancelled (ws close, Ctrl-C) before the attempt ended.
        attemptNumber += 1
        connection.cancel()
        throw CancellationError()
    }

    private enum AttemptEnd: Sendable {
        case finished(Result<WebSocketCloseFrame?, any Error>)
        case timedOut
    }

    /// WSClient logs through swift-log; Core prints nothing.
    private static let logger = Logger(label: "explorer.websocket") { _ in SwiftLogNoOpLogHandler() }

    // MARK: Called from the connection

    /// Whether the socket goes as the session's user: the profile's socket path, or a URL at the backend's
    /// origin (the token and session headers go there alone); a socket elsewhere is no one's.
    private func carriesLogin() async -> Bool {
        if case .profileTemplate = address { return true }
        guard let shown = displayURL, let url = URL(string: WebSocketAddress.httpScheme(shown)) else { return false }
        return session.scope.admits(url)
    }

    private func didBreak(_ breach: ProtocolBreach, attempt id: Int) {
        guard id == attemptNumber else { return }
        brokenThisAttempt = breach
    }

    /// False for an attempt already given up (it opened too late).
    private func didOpen(_ outbound: WebSocketOutboundWriter, attempt id: Int) -> Bool {
        guard id == attemptNumber else { return false }
        defer { afterOpen() }
        openedThisAttempt = true
        if !hasOpened { openedAs = attemptUser }
        openedAt = .now
        writer = outbound
        state = .open
        emitter.yield(.open)
        if !queue.isEmpty { wake?.yield() }
        return true
    }

    private func afterOpen() {
        guard hasOpened else { return }
        reconnectCount += 1
        guard let reconciler, let after = latestID else { return }
        Task {
            do { self.reconciled(try await reconciler.missed(after)) } catch {
                self.emitter.yield(.reconcileFailed("\(error)"))
            }
        }
    }

    private func nextOutgoing() -> SocketFrame? {
        state == .open ? queue.first : nil
    }

    /// The frame written leaves the queue; returns the next one to write.
    private func didWrite() -> SocketFrame? {
        guard !queue.isEmpty else { return nil }
        let frame = queue.removeFirst()
        sentCount += 1
        lastWrite = .now
        wroteThisAttempt = true
        emitter.yield(.sent(frame))
        wakeRoomWaiters()
        return nextOutgoing()
    }

    private func didReceive(_ frame: SocketFrame) {
        receivedCount += 1
        receivedThisAttempt = true
        if wroteThisAttempt { answeredThisAttempt = true }
        // A chat message is small; parsing a huge frame only to look for its id would stall the socket.
        if let path = options.messageIDPath, frame.byteCount <= WebSocketOptions.largestFrameCheckedForID,
           let json = frame.json, case let .success(id) = path.evaluate(json) {
            guard dedup.isNew(id.plainText) else {
                duplicateCount += 1
                return
            }
            if let n = id.intValue { saw(n) }
        }
        emitter.yield(.received(frame))
    }

    /// A connection shorter than this that carried frames still counts as a failed try.
    static let briefConnection: Duration = .seconds(5)

    /// Close codes after which a reconnect would meet the same answer:
    /// protocol error, unsupported data, bad payload, policy violation,
    /// too big, a missing extension (RFC 6455 §7.4.1).
    static let finalCloseCodes: Set<Int> = [1002, 1003, 1007, 1008, 1009, 1010]

    private var healthyAfter: Duration {
        options.healthyAfter ?? max(.seconds(60), (options.heartbeat ?? .zero) * 3)
    }

    private func saw(_ id: Int) {
        latestID = max(latestID ?? id, id)
    }

    /// Missed messages from REST, minus those the socket delivered meanwhile.
    private func reconciled(_ messages: [JSONValue]) {
        let fresh = messages.filter { message in
            guard let id = message["id"] else { return true }
            if let n = id.intValue { saw(n) }
            return dedup.isNew(id.plainText)
        }
        emitter.yield(.reconciled(missed: fresh))
    }
}

/// A connection attempt that did not open within `WebSocketOptions.openTimeout`.
struct OpenTimeout: Error {
    let limit: Duration
}

/// Why a frame was not accepted for sending. Nothing is dropped silently.
public enum WebSocketSendError: Error, Equatable, Sendable, CustomStringConvertible {
    case notConnected
    case queueFull(limit: Int)
    /// Open, but no waiting frame was written for `for`: the peer takes nothing.
    case stalled(waiting: Int, for: Duration)
    /// The sender was cancelled (Ctrl-C) while waiting for room.
    case cancelled

    /// What happened to an accepted frame.
    public enum Disposition: Equatable, Sendable {
        /// Being written: the `ordinal`-th frame the session writes (from 1,
        /// as `sentCount` counts), which its `.sent` event will say is written.
        case sending(ordinal: Int)
        case queued(waiting: Int)
    }

    public var description: String {
        switch self {
        case .notConnected: return "no WebSocket (ws connect first)"
        case let .queueFull(limit): return "the outgoing queue is full (\(limit) messages wait for the socket); not sent"
        case let .stalled(waiting, duration):
            return "the server has taken no frame for \(ConnectFailure.seconds(duration)) (\(waiting) waiting to be written); not sent (send again later, or ws close)"
        case .cancelled: return "interrupted; not sent"
        }
    }
}
