import Core
import Foundation

/// What the interpreter keeps about its one WebSocket.
struct SocketState {
    var socket: WebSocketSession?
    var pump: Task<Void, Never>?
    /// Received frames not yet taken by `ws recv`; the oldest go first past `inboxLimit`.
    var inbox: [SocketNotice] = []
    static let inboxLimit = 1000
    /// How the first connection went: nil while connecting, then nil (open) or a failure line.
    var firstResult: Result<Void, ConnectFailed>?
    /// Hears every notice as it happens (the REPL prints them above the line); nil in scripts.
    var listener: (@Sendable (SocketNotice) -> Void)?
    var attempts = WebSocketOptions().reconnect.attempts
    /// `ws close` is under way: its own answer says so, the notice would repeat it.
    var closing = false
}

struct ConnectFailed: Error {
    let line: String
}

extension Interpreter {
    /// Where notices go while the REPL waits for input.
    func setSocketListener(_ listener: (@Sendable (SocketNotice) -> Void)?) {
        sockets.listener = listener
    }

    func webSocket(_ action: WebSocketAction) async -> Outcome {
        switch action {
        case let .connect(target): return await connect(target)
        case let .send(value):
            guard let socket = sockets.socket else { return .failure(WebSocketSendError.notConnected.description, .usage) }
            do {
                switch try await socket.send(.text(JSONPrinter.compact(value))) {
                case .sending: return .nothing
                case let .queued(waiting): return .text("queued until the socket is open (\(waiting) waiting)")
                }
            } catch {
                return .failure(error.description, .runtime)
            }
        case let .recv(count, timeout): return await receive(count, timeout: timeout)
        case .status: return .text(await status())
        case .close:
            guard let socket = sockets.socket else { return .text("no WebSocket") }
            sockets.closing = true
            await socket.close()
            await sockets.pump?.value
            sockets.socket = nil
            return .text("closed")
        }
    }

    private func connect(_ target: String?) async -> Outcome {
        if let socket = sockets.socket, await socket.state != .closed {
            return .failure("already connected to \(await socket.displayURL ?? "a socket") (ws close first)", .usage)
        }
        let address: WebSocketAddress = target.map { .url($0) } ?? .profileTemplate
        let options = WebSocketOptions()
        let socket = WebSocketSession(address: address, session: session, options: options,
                                      reconciler: target == nil ? Reconciler.forProfile(session) : nil)
        sockets = SocketState(socket: socket, listener: sockets.listener, attempts: options.reconnect.attempts)
        sockets.pump = Task {
            for await event in socket.events { self.handle(event) }
        }
        await socket.start()
        while sockets.firstResult == nil {
            do { try await Task.sleep(for: .milliseconds(5)) } catch {
                await socket.close()
                return .failure(Interpreter.cancelled, .runtime)
            }
        }
        if case let .failure(failed) = sockets.firstResult { return .failure(failed.line, .runtime) }
        return .text("connected to \(await socket.displayURL ?? "the socket")")
    }

    private func handle(_ event: WebSocketEvent) {
        let now = Date()
        var notices: [SocketNotice] = []
        switch event {
        case let .connecting(attempt):
            if attempt > 0 { notices.append(.init(time: now, kind: .state, text: "reconnecting (try \(attempt) of \(sockets.attempts))")) }
        case .open:
            if sockets.firstResult == nil { sockets.firstResult = .success(()) } else {
                notices.append(.init(time: now, kind: .state, text: "open again"))
            }
        case let .closed(code, reason):
            if sockets.closing { break }
            let text = code.map { "closed (\($0)" + (reason.map { ": \($0)" } ?? "") + ")" } ?? "connection lost"
            notices.append(.init(time: now, kind: .state, text: text))
        case let .retrying(delay, attempt):
            notices.append(.init(time: now, kind: .state, text: "retrying in \(Self.seconds(delay)) (try \(attempt) of \(sockets.attempts))"))
        case .gaveUp:
            notices.append(.init(time: now, kind: .problem, text: "gave up reconnecting after \(sockets.attempts) tries"))
        case let .failed(line):
            if sockets.firstResult == nil { sockets.firstResult = .failure(ConnectFailed(line: line)) } else {
                notices.append(.init(time: now, kind: .problem, text: line))
            }
        case let .received(frame):
            frameTap.post(.received, frame)
            let notice = SocketNotice(time: now, kind: .received, text: Self.text(frame))
            remember(frame)
            sockets.inbox.append(notice)
            if sockets.inbox.count > SocketState.inboxLimit { sockets.inbox.removeFirst() }
            notices.append(notice)
        case let .sent(frame):
            frameTap.post(.sent, frame)
            notices.append(.init(time: now, kind: .sent, text: Self.text(frame)))
        case let .reconciled(missed):
            notices.append(.init(time: now, kind: .state, text: "reconciled: \(missed.count) missed message\(missed.count == 1 ? "" : "s")"))
            for message in missed {
                frameTap.post(ObservedFrame(.received, .json(message)))
                let notice = SocketNotice(time: now, kind: .received, text: JSONPrinter.compact(message))
                sockets.inbox.append(notice)
                notices.append(notice)
            }
        case let .reconcileFailed(line):
            notices.append(.init(time: now, kind: .problem, text: "reconcile failed: \(line)"))
        }
        if let listener = sockets.listener { notices.forEach(listener) }
    }

    /// A received frame becomes what `show` and `capture` look at.
    private func remember(_ frame: SocketFrame) {
        switch frame {
        case let .text(text): lastResponse = ReceivedResponse(status: 101, reason: "WebSocket frame", body: Array(text.utf8))
        case let .binary(bytes): lastResponse = ReceivedResponse(status: 101, reason: "WebSocket frame", body: bytes)
        }
        lastBody = frame.json
    }

    private func receive(_ count: Int, timeout: Double) async -> Outcome {
        guard sockets.socket != nil || !sockets.inbox.isEmpty else { return .failure(WebSocketSendError.notConnected.description, .usage) }
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while sockets.inbox.count < count, ContinuousClock.now < deadline {
            // A short poll: a lockstep send-and-recv pays this once per frame.
            guard (try? await Task.sleep(for: .milliseconds(1))) != nil else { break }
        }
        let taken = Array(sockets.inbox.prefix(count))
        sockets.inbox.removeFirst(taken.count)
        guard !taken.isEmpty else { return .failure("no frame within \(Self.seconds(.milliseconds(Int(timeout * 1000))))", .runtime) }
        return .frames(taken)
    }

    private func status() async -> String {
        guard let socket = sockets.socket else { return "no WebSocket (ws connect [URL|PATH])" }
        var lines = ["state: \(await socket.state.rawValue)"]
        if let url = await socket.displayURL { lines.append("url: \(url)") }
        lines.append("sent: \(await socket.sentCount), received: \(await socket.receivedCount)"
            + ", duplicates dropped: \(await socket.duplicateCount), queued: \(await socket.queuedCount)"
            + ", reconnects: \(await socket.reconnectCount), unread: \(sockets.inbox.count)")
        return lines.joined(separator: "\n")
    }

    private static func text(_ frame: SocketFrame) -> String {
        switch frame {
        case let .text(text): return text
        case let .binary(bytes): return "binary frame, \(Renderer.size(bytes.count))"
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let s = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return s == s.rounded() ? "\(Int(s)) s" : String(format: "%.1f s", s)
    }
}
