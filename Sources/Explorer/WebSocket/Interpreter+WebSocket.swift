import Core
import Foundation

/// What the interpreter keeps about its one WebSocket.
struct SocketState {
    var socket: WebSocketSession?
    var pump: Task<Void, Never>?
    /// Received frames not yet taken: kept for `ws recv`, the oldest go first past `inboxLimit`.
    /// When `live` (the REPL) a frame is shown once, either as it arrives or by a waiting `ws recv`.
    var inbox: [SocketNotice] = []
    static let inboxLimit = 1000
    /// Frames dropped unread past `inboxLimit` (said once each time the inbox fills, and by `ws status`):
    /// a script that read none while 44,000 came lost all but the last thousand without a word.
    var droppedUnread = 0
    var overflowSaid = false
    /// The filter a waiting `ws recv --until` looks for, and whether a kept frame matches it: each frame is
    /// looked at once as it comes (the whole inbox was searched at every frame: 100% of a core, and frames
    /// read off the socket at a crawl).
    var until: FrameFilter?
    var untilMatched = false
    /// How the first connection went: nil while connecting, then nil (open) or a failure line.
    var firstResult: Result<Void, ConnectFailed>?
    /// Hears every notice as it happens (the REPL prints them above the line); nil in scripts.
    var listener: (@Sendable (SocketNotice) -> Void)?
    /// In a script, hears what happens to the socket as it happens (lost, reconnecting, closed by the
    /// server: its standard error); its frames wait for `ws recv`.
    var stateListener: (@Sendable (SocketNotice) -> Void)?
    /// Whether a frame no `ws recv` waits for counts as shown as it arrives
    /// (the REPL), rather than kept for the next `ws recv` (a script). A
    /// replay takes it from its transcript (`frames: live`), so a REPL's
    /// `ws recv` that waited for a frame not shown yet replays the same.
    var live = false
    var options = WebSocketOptions()
    /// A replay of a REPL recording: a heartbeat (the pong to a typed ping) was
    /// shown there and never written, so it is kept for no `ws recv`.
    var keepsNoHeartbeats = false
    /// Set by a replay for a `ws recv` that took a heartbeat at the REPL (an
    /// app's `{"type":"ping"}` a waiting recv counted): heartbeats are kept for it.
    var takesHeartbeats = false
    /// `ws close` is under way: its own answer says so, the notice would repeat it.
    var closing = false
    /// How many frames a waiting `ws recv` wants (0: none waits); while it
    /// waits, frames go to it rather than to the listener.
    var wanted = 0
    /// Wakes the command waiting on the socket (`ws connect`, `ws recv`) after each event.
    var waiter: AsyncStream<Void>.Continuation?
    /// The socket's events have ended: nothing more will arrive.
    var ended = false
    /// How the server last closed the socket (`1008: token expired`), for
    /// `ws recv` to say: a script has no listener to print the notice.
    var closedBy: String?
    /// How many `.sent` events have been handled: a `ws send` waits for its
    /// own, so that a recording writes the frame under its step.
    var sentSeen = 0
    /// Frames shown as they came (live) in the frame tap's current line: a
    /// `ws recv` typed just before they came gets them (`framesShownInThisLine`).
    var shownInLine: (line: Int, frames: [SocketNotice]) = (0, [])
}

struct ConnectFailed: Error {
    let line: String
}

extension Interpreter {
    /// Whether a WebSocket is open.
    var hasSocket: Bool { sockets.socket != nil }

    /// Where notices go while the REPL waits for input.
    func setSocketListener(_ listener: (@Sendable (SocketNotice) -> Void)?) {
        sockets.listener = listener
    }

    /// Where a script's socket says what happens to it (`SocketState.stateListener`).
    func setSocketStateListener(_ listener: (@Sendable (SocketNotice) -> Void)?) {
        sockets.stateListener = listener
    }

    /// Whether frames nobody waits for are shown as they come rather than kept (`SocketState.live`).
    func setFramesLive(_ live: Bool) {
        sockets.live = live
        sockets.keepsNoHeartbeats = false
    }

    /// How a replay of a REPL recording takes frames: kept for its `ws recv`s
    /// (each skips what earlier steps list: `skipFramesShownBefore`), heartbeats not.
    func takeFramesAsRecordedLive() {
        sockets.live = false
        sockets.keepsNoHeartbeats = true
    }

    var framesLive: Bool { sockets.live }

    /// Before a replayed REPL `ws recv`: the frames the transcript lists
    /// under earlier steps were shown at the REPL (or taken by an earlier
    /// recv), so they are not this one's; nor is a heartbeat (the pong to a
    /// ping just sent, which recordings leave out). `listed`: how many
    /// received frames the frame tap had posted by the end of those steps.
    /// (A pause before each recv stood in for the typing: a recording typed
    /// faster or slower than the pause failed its replay.)
    /// `takingHeartbeats`: the recv's recorded frames hold one, which a
    /// waiting recv took there (`Expectation.takesHeartbeats`).
    func skipFramesShownBefore(_ listed: Int, takingHeartbeats: Bool = false) {
        sockets.takesHeartbeats = takingHeartbeats
        sockets.inbox.removeAll { $0.ordinal <= listed || !takingHeartbeats && ObservedFrame(.received, text: $0.text).isHeartbeat }
    }

    /// One frame out: sent, or queued while the socket is not open.
    private func send(_ frame: SocketFrame) async -> Outcome {
        guard let socket = sockets.socket else { return .failure(WebSocketSendError.notConnected.description, .usage) }
        if keepsSuppliedAtOrigin, let shown = await socket.displayURL, let url = URL(string: shown) {
            let refused = switch frame {
            case let .text(text): refusal(sending: [text], to: url)
            case let .binary(bytes): refusal(sending: [], bytes: bytes, to: url)
            }
            if let refused { return refused }
        }
        do {
            switch try await socket.send(frame) {
            case let .sending(ordinal):
                // Written in microseconds; a peer that takes nothing does not hold the line up.
                _ = await wait(timeout: .seconds(2), until: { $0.sentSeen >= ordinal })
                return .nothing
            case let .queued(waiting): return .message("queued until the socket is open (\(waiting) waiting)")
            }
        } catch .notConnected {
            // The socket is there, closed: by whom and why, as `ws recv` says it ("ws connect first" read as if none had been).
            return .failure("not sent: \(sockets.closedBy ?? "the socket is closed"); ws connect opens another", .runtime)
        } catch {
            return .failure(error.description, .runtime)
        }
    }

    func webSocket(_ action: WebSocketAction) async -> Outcome {
        switch action {
        case .connect where offline:
            return .failure("not connected: explorer runs --offline, which sends nothing", .usage)
        case let .connect(target, settings):
            // The handshake's headers too, names and values (`X-A:{{k}}`, `Cookie:sid={{k}}`, `{{k}}:1`).
            if let target, let url = URL(string: target),
               let refused = refusal(sending: [target] + settings.headers.flatMap { [$0.name, $0.value] }, to: url) {
                return refused
            }
            var options = settings.options
            options.proxies = proxies
            // wss:// checks the server as requests do: this line's flags, else the session's `defaults`.
            let tls = settings.tls.over(requestDefaults)
            if let key = tls.certificateKey, tls.certificate == nil {
                return .failure("--cert-key \(key) is the key of a client certificate: give --cert FILE too (not connected)", .usage)
            }
            options.tls = tls.tls
            // The session's client certificate goes only to the backend's origin; one typed on the line, where the line goes.
            if settings.tls.certificate == nil, requestDefaults.certificate != nil { options.certificateScope = session.scope }
            return await connect(target, options)
        case let .send(value):
            return await send(.text(JSONPrinter.compact(value)))
        case let .sendText(text):
            return await send(.text(text))
        case let .sendFile(path, binary):
            guard sockets.socket != nil else { return .failure(WebSocketSendError.notConnected.description, .usage) }
            let bytes: [UInt8]
            do { bytes = try readFile(path) } catch {
                return .failure("\(error) (nothing sent)", .usage)
            }
            if binary { return await send(.binary(bytes)) }
            do {
                return await send(.text(JSONPrinter.compact(try JSONParser.parse(bytes))))
            } catch {
                return .failure("\(path) is not JSON: \(error) (nothing sent; ws send --binary @\(path) sends its bytes as they are)", .usage)
            }
        case let .recv(count, timeout, filter, pretty):
            // `--pretty`: the frames shown as they come at the REPL are indented too.
            let wasPretty = prettyFrames
            if pretty { prettyFrames = true }
            let outcome = if let filter { await receive(until: filter, timeout: timeout) } else { await receive(count, timeout: timeout) }
            prettyFrames = wasPretty
            guard pretty, case let .frames(notices, shortfall) = outcome else { return outcome }
            return .frames(notices.map { var shown = $0; shown.pretty = true; return shown }, shortfall: shortfall)
        case let .pretty(on):
            if let on { prettyFrames = on }
            return .message("JSON frames are shown \(prettyFrames ? "indented (ws pretty off: one line each)" : "on one line each (ws pretty on: indented)")")
        case .status: return .socketStatus(await status())
        case .close:
            guard let socket = sockets.socket else { return .message("no WebSocket") }
            // One that failed to connect, or that the server closed, is only forgotten.
            let wasOpen = await socket.state != .closed
            let why = sockets.closedBy
            await closeSocket()
            // Why it was closed already, as `ws send` and `ws recv` say it ("forgot the closed one" said nothing).
            return .message(wasOpen ? "closed" : "no WebSocket open: " + (why ?? "it was closed"))
        }
    }

    /// Closes the WebSocket, if one is open, and waits until its last events
    /// are handled. A session calls this before shutting its HTTP transport
    /// and sandbox down, so no event of the socket arrives after what it
    /// needs is gone (with a transport that owned its event loop, such events
    /// were dropped and NIO said so on stderr).
    func closeSocket() async {
        guard let socket = sockets.socket else { return }
        sockets.closing = true
        await socket.close()
        await sockets.pump?.value
        sockets.socket = nil
    }

    /// Closes the socket at logout, so that no later reconnect carries on
    /// with whoever logs in next; says so, or nil when no socket was open.
    /// (A login as someone else keeps the socket: a chat transcript listens
    /// as bob while alice writes.)
    func closeSocketOfEndingLogin() async -> String? {
        guard let socket = sockets.socket, await socket.state != .closed else { return nil }
        await closeSocket()
        return Self.socketClosedAtLogout
    }

    static let socketClosedAtLogout = "WebSocket closed: it was opened with that login"

    private func connect(_ target: String?, _ options: WebSocketOptions) async -> Outcome {
        if let socket = sockets.socket, await socket.state != .closed {
            return .failure("already connected to \(await socket.displayURL ?? "a socket") (ws close first)", .usage)
        }
        let address: WebSocketAddress = target.map { .url($0) } ?? .profileTemplate
        let reconciler = target == nil ? Reconciler.forProfile(session) : nil
        var options = options
        // Frames are told apart by message id only where catching up after a
        // reconnect may deliver one twice (the profile's `reconcile:`):
        // elsewhere an edit, or a real second delivery, of a message was dropped unseen.
        if reconciler == nil { options.messageIDPath = nil }
        let socket = WebSocketSession(address: address, session: session, options: options, reconciler: reconciler)
        sockets = SocketState(socket: socket, listener: sockets.listener, stateListener: sockets.stateListener, live: sockets.live, options: options,
                              keepsNoHeartbeats: sockets.keepsNoHeartbeats)
        frameTap.socketStarted()
        sockets.pump = Task {
            for await event in socket.events where sockets.socket === socket { self.handle(event) }
            if sockets.socket === socket { ended() }
        }
        await socket.start()
        guard await wait(timeout: nil, until: { $0.firstResult != nil }) else {
            await socket.close()
            return .failure(Task.isCancelled ? Interpreter.cancelled : "the connection ended before it opened", .runtime)
        }
        if case let .failure(failed) = sockets.firstResult {
            // A later `ws recv` or `ws send` said "the socket is closed" of one that never opened.
            sockets.closedBy = "the socket never opened (its ws connect failed)"
            // The session's certificate stayed behind (another origin): the cause of a TLS failure, said there.
            if options.certificateScope != nil, failed.line.hasPrefix("TLS failure"), let shown = await socket.displayURL,
               let url = URL(string: WebSocketAddress.httpScheme(shown)), url.scheme == "https", !session.scope.admits(url) {
                let note = session.scope.withheldNote(for: url, what: "client certificate", socket: true)
                return .failure(failed.line.replacingOccurrences(of: " (--cert FILE)", with: "") + "; " + note, .runtime)
            }
            return .failure(failed.line, .runtime)
        }
        let shown = await socket.displayURL ?? "the socket"
        // Session headers and certificate go only to the backend's origin: said when a socket elsewhere goes without them.
        var lines = ["connected to \(shown)"]
        if let url = URL(string: WebSocketAddress.httpScheme(shown)), !session.scope.admits(url) {
            if !(await session.sessionHeaders.isEmpty) { lines.append(session.scope.withheldNote(for: url, what: "session headers", socket: true)) }
            if options.certificateScope != nil, url.scheme == "https" {
                lines.append(session.scope.withheldNote(for: url, what: "client certificate", socket: true))
            }
        }
        return .message(lines.joined(separator: "\n"))
    }

    /// Waits, without polling, until `done` holds, the socket's events end,
    /// `timeout` passes or the task is cancelled (Ctrl-C); says whether `done` holds.
    private func wait(timeout: Duration?, until done: (SocketState) -> Bool) async -> Bool {
        if done(sockets) { return true }
        if sockets.ended { return false }
        let (signal, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        sockets.waiter = wake
        let timer = timeout.map { limit in Task { try? await Task.sleep(for: limit); wake.finish() } }
        for await _ in signal where done(sockets) || sockets.ended { break }
        timer?.cancel()
        sockets.waiter = nil
        return done(sockets)
    }

    private func ended() {
        sockets.ended = true
        sockets.waiter?.finish()
        frameTap.socketEnded()
    }

    private func handle(_ event: WebSocketEvent) {
        let now = Date()
        var notices: [SocketNotice] = []
        switch event {
        case let .connecting(attempt):
            if attempt > 0 { notices.append(.init(time: now, kind: .state, text: "reconnecting (try \(attempt) of \(sockets.options.reconnect.attempts))")) }
        case .open:
            if sockets.firstResult == nil { sockets.firstResult = .success(()) } else {
                notices.append(.init(time: now, kind: .state, text: "open again"))
            }
        case let .closed(code, reason):
            if sockets.closing { break }
            // A server's close is part of what it does: recorded under its step, and a replay waits for it
            // (a `ws status` or `ws send` after it failed every replay, the socket still open there).
            if let code, !(CloseCode.mayBeOurs(code) && (reason ?? "").isEmpty) {
                frameTap.post(ObservedFrame(.received, .closed(code: Int(code), reason: reason ?? "")))
            } else if code == nil {
                // A connection lost is recorded as RFC 6455's 1006: a replay went on with the socket open
                // where it had dropped (`ws status` said open), and waits for the same loss now.
                frameTap.post(ObservedFrame(.received, .closed(code: CloseCode.lost, reason: "")))
            }
            let said = code.map { CloseCode.describe($0, reason: reason) }
            let text = said.map { "closed (\($0))" } ?? "connection lost"
            // A 1002 or 1007 with no reason may be the library's own close over
            // a frame it refused, echoed back: not said to be the server's.
            let who = code.map { CloseCode.mayBeOurs($0) && (reason ?? "").isEmpty } == true ? "the socket was closed" : "the server closed the socket"
            sockets.closedBy = said.map { "\(who) (\($0))" } ?? "the connection was lost"
            notices.append(.init(time: now, kind: .state, text: text))
        case let .broken(code, reason):
            // Recorded as a close with its code and the explorer's reason: a replay waits for the same breach
            // (a `ws status` after it said closed live and open in every replay); the mock closes so.
            frameTap.post(ObservedFrame(.received, .closed(code: code, reason: reason)))
            let text = "closed the socket (\(code)): \(reason)"
            sockets.closedBy = "the explorer " + text
            notices.append(.init(time: now, kind: .problem, text: text))
        case let .retrying(delay, attempt):
            notices.append(.init(time: now, kind: .state, text: "retrying in \(Self.seconds(delay)) (try \(attempt) of \(sockets.options.reconnect.attempts))"))
        case .gaveUp:
            let tries = sockets.options.reconnect.attempts
            notices.append(.init(time: now, kind: .problem, text: tries == 0 ? "not reconnecting (--retries 0)" : "gave up reconnecting after \(tries) \(tries == 1 ? "try" : "tries")"))
        case let .ended(line):
            notices.append(.init(time: now, kind: .problem, text: line))
        case let .failed(line):
            if sockets.firstResult == nil { sockets.firstResult = .failure(ConnectFailed(line: line)) } else {
                notices.append(.init(time: now, kind: .problem, text: line))
            }
        case let .received(frame):
            let line = frameTap.post(.received, frame)
            remember(frame)
            var notice = SocketNotice(time: now, kind: .received, text: Self.text(frame), pretty: prettyFrames)
            notice.ordinal = frameTap.receivedSoFar
            notices += deliver(notice, line: line)
        case let .sent(frame):
            sockets.sentSeen += 1
            frameTap.post(.sent, frame)
            notices.append(.init(time: now, kind: .sent, text: Self.text(frame), pretty: prettyFrames))
        case let .reconciled(missed):
            notices.append(.init(time: now, kind: .state, text: "reconciled: \(missed.count) missed message\(missed.count == 1 ? "" : "s")"))
            for message in missed {
                let line = frameTap.post(ObservedFrame(.received, .json(message)))
                var notice = SocketNotice(time: now, kind: .received, text: JSONPrinter.compact(message), pretty: prettyFrames)
                notice.ordinal = frameTap.receivedSoFar
                notices += deliver(notice, line: line)
            }
        case let .reconcileFailed(line):
            notices.append(.init(time: now, kind: .problem, text: "reconcile failed: \(line)"))
        }
        if let listener = sockets.listener {
            notices.forEach(listener)
        } else if let states = sockets.stateListener {
            notices.filter { $0.kind == .state || $0.kind == .problem }.forEach(states)
        }
        sockets.waiter?.yield()
    }

    /// A received frame goes to a waiting `ws recv`; else, live (the REPL),
    /// it is returned to be printed as it arrives, and that is its showing;
    /// else (a script) it waits in the inbox for the next `ws recv`, and is
    /// returned too, for a listener (a tour of a script's transcript) to print.
    /// `line` is the frame tap's line it came in.
    private func deliver(_ notice: SocketNotice, line: Int) -> [SocketNotice] {
        if sockets.keepsNoHeartbeats, !sockets.takesHeartbeats, ObservedFrame(.received, text: notice.text).isHeartbeat { return [notice] }
        let awaited = sockets.inbox.count < sockets.wanted
        guard awaited || !sockets.live else {
            if sockets.shownInLine.line != line { sockets.shownInLine = (line, []) }
            if sockets.shownInLine.frames.count < SocketState.inboxLimit { sockets.shownInLine.frames.append(notice) }
            return [notice]
        }
        // A `ws recv` waiting at the REPL shows each frame as it comes (nothing showed until the
        // last had come, or Ctrl-C), and its answer then does not show it again.
        let showNow = awaited && sockets.live && sockets.listener != nil
        var kept = notice
        kept.shownAsItCame = showNow
        sockets.inbox.append(kept)
        if let filter = sockets.until, !sockets.untilMatched, filter.matches(notice.text) { sockets.untilMatched = true }
        var said: [SocketNotice] = []
        if sockets.inbox.count > SocketState.inboxLimit {
            sockets.inbox.removeFirst()
            // A waiting `ws recv --until` reads them: it keeps the last `inboxLimit` before its match (not "unread").
            guard sockets.until == nil else { return (awaited && !showNow ? [] : [notice]) }
            sockets.droppedUnread += 1
            // At the REPL the frames a recv waits through were shown as they came: none is lost.
            if !sockets.overflowSaid, !sockets.live {
                sockets.overflowSaid = true
                said.append(.init(time: notice.time, kind: .problem,
                                  text: "\(SocketState.inboxLimit) frames wait unread: the oldest are dropped as more come, until a ws recv reads them"))
            }
        }
        return (awaited && !showNow ? [] : [notice]) + said
    }

    /// A received frame becomes what `show` and `capture` look at.
    private func remember(_ frame: SocketFrame) {
        switch frame {
        case let .text(text): lastResponse = ReceivedResponse(status: 101, reason: "WebSocket frame", body: Array(text.utf8))
        case let .binary(bytes): lastResponse = ReceivedResponse(status: 101, reason: "WebSocket frame", body: bytes)
        }
        lastFrame = .some(frame.json)
    }

    /// The next `count` frames not shown yet, waiting up to `timeout` seconds
    /// for them (an awaited signal, not a poll: a lockstep send-and-recv pays
    /// no timer tick).
    private func receive(_ count: Int, timeout: Double) async -> Outcome {
        guard sockets.socket != nil || !sockets.inbox.isEmpty else { return .failure(WebSocketSendError.notConnected.description, .usage) }
        let limit = Duration.milliseconds(Int((timeout * 1000).rounded()))
        sockets.inbox.insert(contentsOf: framesShownInThisLine().prefix(count), at: 0)
        sockets.wanted = count
        _ = await wait(timeout: limit) { $0.inbox.count >= count }
        sockets.wanted = 0
        let taken = Array(sockets.inbox.prefix(count))
        sockets.inbox.removeFirst(taken.count)
        sockets.overflowSaid = false
        dropShownLeftovers()
        let why = sockets.ended ? (sockets.closedBy ?? "the socket is closed") : "none came within \(Self.seconds(limit))"
        guard taken.isEmpty else {
            if taken.count == count { return .frames(taken, shortfall: nil) }
            if Task.isCancelled { return .frames(taken, shortfall: "stopped: got \(taken.count) of \(count) frames") }
            let missing = count - taken.count
            return .frames(taken, shortfall: "got \(taken.count) of \(count) frames; the other \(missing) did not come: \(why)")
        }
        if Task.isCancelled { return .failure(Interpreter.waitCancelled, .runtime) }
        if sockets.ended { return .failure("no frame: \(why)", .runtime) }
        return .failure("no frame within \(Self.seconds(limit))", .runtime)
    }

    /// `ws recv --until FILTER`: the frames up to and including the first that
    /// matches; those after it stay for the next `ws recv`.
    private func receive(until filter: FrameFilter, timeout: Double) async -> Outcome {
        guard sockets.socket != nil || !sockets.inbox.isEmpty else { return .failure(WebSocketSendError.notConnected.description, .usage) }
        let limit = Duration.milliseconds(Int((timeout * 1000).rounded()))
        // Those after the first match were shown, and that was their showing: not kept for the next `ws recv`.
        let early = framesShownInThisLine()
        sockets.inbox.insert(contentsOf: early.prefix(through: early.firstIndex { filter.matches($0.text) } ?? early.endIndex - 1), at: 0)
        // Every frame is kept for it, the last `inboxLimit` of them, until one matches (at the REPL, past the
        // limit, frames were shown and not kept: the match among them was never seen).
        sockets.wanted = .max
        sockets.until = filter
        sockets.untilMatched = sockets.inbox.contains { filter.matches($0.text) }
        _ = await wait(timeout: limit) { $0.untilMatched }
        sockets.wanted = 0
        sockets.until = nil
        let match = sockets.inbox.firstIndex { filter.matches($0.text) }
        let taken = Array(sockets.inbox.prefix(match.map { $0 + 1 } ?? sockets.inbox.count))
        sockets.inbox.removeFirst(taken.count)
        sockets.overflowSaid = false
        dropShownLeftovers()
        if match != nil || Task.isCancelled { return taken.isEmpty ? .failure(Interpreter.waitCancelled, .runtime) : .frames(taken, shortfall: nil) }
        let why = sockets.ended ? (sockets.closedBy ?? "the socket is closed") : "none came within \(Self.seconds(limit))"
        let said = "no frame matched \(filter.text): \(why)"
        return taken.isEmpty ? .failure(said, .runtime) : .frames(taken, shortfall: "\(taken.count) frame\(taken.count == 1 ? "" : "s") came, but " + said)
    }

    /// At the REPL, the frames shown as they came since this `ws recv`'s line
    /// began (typed, then a frame came before it waited): its first frames,
    /// as a recording writes them under its step; not shown again. (A replay
    /// of the recording keeps frames, and its recv gets them as the ones after
    /// those earlier steps list: `skipFramesShownBefore`.)
    private func framesShownInThisLine() -> [SocketNotice] {
        guard sockets.live else { return [] }
        let current = frameTap.currentLine
        let shown = sockets.shownInLine.line == current ? sockets.shownInLine.frames : []
        sockets.shownInLine = (current, [])
        return shown.map { var notice = $0; notice.shownAsItCame = true; return notice }
    }

    /// Live, frames no `ws recv` waits for are shown as they come, not kept:
    /// those that came after an `--until` match while it waited (shown as
    /// they came) are not the next recv's.
    private func dropShownLeftovers() {
        if sockets.live { sockets.inbox.removeAll() }
    }

    private func status() async -> SocketStatus? {
        guard let socket = sockets.socket else { return nil }
        let options = sockets.options
        return SocketStatus(state: await socket.state.rawValue, url: await socket.displayURL,
                            sent: await socket.sentCount, received: await socket.receivedCount,
                            duplicatesDropped: await socket.duplicateCount, queued: await socket.queuedCount,
                            reconnects: await socket.reconnectCount, notYetShown: sockets.inbox.count, droppedUnread: sockets.droppedUnread,
                            heartbeat: options.heartbeat, reconnectAttempts: options.reconnect.attempts,
                            firstReconnectDelay: options.reconnect.initialDelay)
    }

    private static func text(_ frame: SocketFrame) -> String {
        switch frame {
        case let .text(text): return text
        case let .binary(bytes): return "binary frame, \(Renderer.size(bytes.count))"
        }
    }

    private static func seconds(_ duration: Duration) -> String { OutcomeText.seconds(duration) }
}
