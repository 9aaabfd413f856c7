import Core
import Foundation

/// Every frame the interpreter's socket sends or receives, handed to each
/// subscriber in the order they went: a recording writes them under the
/// step they came in, a replay matches them with the frames a step expects.
/// It is apart from the `ws recv` inbox, so neither takes frames from the
/// other. Heartbeats (`{"type":"ping"}`, `{"type":"pong"}`) are left out.
///
/// Each frame is stamped with the line it came in (`startLine`), under the
/// same lock as the queues: a recording's "frames before this line" and a
/// `ws recv`'s "frames since its line began" split the frames at one place.
final class FrameTap: @unchecked Sendable {
    private let lock = NSLock()
    private var queues: [Int: [(line: Int, frame: ObservedFrame)]] = [:]
    private var line = 0
    /// Received frames (heartbeats left out) posted while someone listened: a
    /// frame's number in the order transcripts list them.
    private var receivedPosted = 0
    /// A subscriber waiting in `take`, woken by each frame posted.
    private var waiters: [Int: AsyncStream<Void>.Continuation] = [:]
    private var nextID = 0
    /// Frames a subscriber has not taken yet are dropped, oldest first, past this.
    static let queueLimit = 10_000
    /// Whether the socket is gone for good (closed, no reconnect coming): a
    /// wait for frames ends at once. A replay whose server closed the socket
    /// waited each later step's whole timeout for frames that could not come.
    private var socketGone = false

    /// A socket opens (`ws connect`): frames may come.
    func socketStarted() { lock.withLock { socketGone = false } }

    /// The socket is gone for good: those waiting for frames stop.
    func socketEnded() {
        let waiting = lock.withLock {
            socketGone = true
            return Array(waiters.values)
        }
        waiting.forEach { $0.yield() }
    }

    /// Whether the socket is gone for good.
    var isSocketGone: Bool { lock.withLock { socketGone } }

    /// A line (a step) begins: frames from now on came in it. Returns its number.
    @discardableResult
    func startLine() -> Int { lock.withLock { line += 1; return line } }

    /// The line frames come in now.
    var currentLine: Int { lock.withLock { line } }

    /// How many received frames have been posted while someone listened (the last one's number).
    var receivedSoFar: Int { lock.withLock { receivedPosted } }

    /// Posts a frame; returns the line it came in.
    @discardableResult
    func post(_ direction: FrameDirection, _ frame: SocketFrame) -> Int {
        // No one listening, no parsing: a 10 MB frame costs nothing here then.
        if let unheard = lock.withLock({ queues.isEmpty ? line : nil }) { return unheard }
        switch frame {
        case let .text(text): return post(ObservedFrame(direction, text: text))
        case let .binary(bytes): return post(ObservedFrame(direction, .binary(bytes.count)))
        }
    }

    @discardableResult
    func post(_ frame: ObservedFrame) -> Int {
        let (came, waiting) = lock.withLock {
            guard !frame.isHeartbeat else { return (line, [AsyncStream<Void>.Continuation]()) }
            if frame.direction == .received { receivedPosted += 1 }
            for id in queues.keys {
                queues[id]!.append((line, frame))
                if queues[id]!.count > Self.queueLimit { queues[id]!.removeFirst() }
            }
            return (line, Array(waiters.values))
        }
        waiting.forEach { $0.yield() }
        return came
    }

    /// Registers the continuation that wakes subscriber `id`'s `take` (nil: none waits).
    fileprivate func setWaiter(_ id: Int, _ waiter: AsyncStream<Void>.Continuation?) {
        lock.withLock { waiters[id] = waiter }
    }

    func subscribe() -> FrameSubscription {
        lock.withLock {
            nextID += 1
            queues[nextID] = []
            return FrameSubscription(tap: self, id: nextID)
        }
    }

    fileprivate func unsubscribe(_ id: Int) {
        lock.withLock {
            queues.removeValue(forKey: id)
            waiters.removeValue(forKey: id)
        }
    }

    /// Takes the first `sent` sent and `received` received frames queued for
    /// `id` (all of them when nil) that came before line `before` (any line
    /// when nil), in the order they went; the rest stay. `complete` says
    /// whether that many were there.
    fileprivate func take(_ id: Int, sent: Int?, received: Int?, before: Int? = nil) -> (frames: [ObservedFrame], complete: Bool) {
        lock.withLock {
            let queue = queues[id] ?? []
            var wanted: [FrameDirection: Int] = [:]
            if let sent { wanted[.sent] = sent }
            if let received { wanted[.received] = received }
            var taken: [ObservedFrame] = []
            var left: [(line: Int, frame: ObservedFrame)] = []
            for entry in queue {
                let frame = entry.frame
                if let before, entry.line >= before { left.append(entry); continue }
                if let n = wanted[frame.direction], n <= 0 { left.append(entry); continue }
                taken.append(frame)
                wanted[frame.direction] = wanted[frame.direction].map { $0 - 1 }
            }
            if queues[id] != nil { queues[id] = left }
            return (taken, wanted.values.allSatisfy { $0 <= 0 })
        }
    }

    fileprivate func count(_ id: Int, _ direction: FrameDirection) -> Int {
        lock.withLock { queues[id]?.filter { $0.frame.direction == direction }.count ?? 0 }
    }
}

/// One subscriber's frames; unsubscribes when it goes away.
final class FrameSubscription: @unchecked Sendable {
    private let tap: FrameTap
    private let id: Int

    fileprivate init(tap: FrameTap, id: Int) {
        self.tap = tap
        self.id = id
    }

    deinit { tap.unsubscribe(id) }

    /// Whether the socket is gone for good (no frame can come).
    var socketGone: Bool { tap.isSocketGone }

    /// Every frame queued so far, or those that came before line `before`.
    func takeAll(before: Int? = nil) -> [ObservedFrame] { tap.take(id, sent: nil, received: nil, before: before).frames }

    /// Waits up to `timeout` seconds until `sent` sent and `received`
    /// received frames have come, then takes them (fewer when the time ran
    /// out, or the socket is gone); frames beyond those stay for later steps.
    nonisolated(nonsending) func take(sent: Int, received: Int, timeout: Double) async -> [ObservedFrame] {
        func enough() -> Bool { (tap.count(id, .sent) >= sent && tap.count(id, .received) >= received) || tap.isSocketGone }
        if !enough() {
            // Woken by each frame posted, without polling; a timer (or Ctrl-C) ends the wait.
            let (signal, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            tap.setWaiter(id, wake)
            let timer = Task {
                try? await Task.sleep(for: .milliseconds(Int(timeout * 1000)))
                wake.finish()
            }
            // A frame may have come between the check and the waiter's registration.
            if !enough() {
                for await _ in signal where enough() || Task.isCancelled { break }
            }
            timer.cancel()
            tap.setWaiter(id, nil)
        }
        return tap.take(id, sent: sent, received: received).frames
    }
}
