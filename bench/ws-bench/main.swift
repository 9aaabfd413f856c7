// Benchmark, not a test (bench/ws runs it): WebSocket round trips through
// Core's `WebSocketSession`, the client the REPL's `ws` commands use, without
// the REPL around it.
//
//   ws-bench URL [ROUNDS] [REPEATS]
//   ws-bench --wsclient URL [ROUNDS] [REPEATS]
//
// Connects once, warms up with 100 round trips, then REPEATS times:
//   sequential  ROUNDS x (send a 100-byte text frame, await its echo)
//   pipelined   ROUNDS sends, then await ROUNDS echoes
// Prints one line per run, `sequential ROUNDS MS` or `pipelined ROUNDS MS`.
// Each echo is checked against what was sent. No heartbeat, no reconnects,
// de-duplication as in the REPL (each frame is parsed for a message id).
//
// With --wsclient the same rounds go through swift-websocket's WSClient
// alone, the library under WebSocketSession, writing and reading in its
// connection handler: what the library costs, so that the rest of Core's
// figure is what WebSocketSession adds (its actor, events and queue).
import Core
import Foundation
import Logging
import NIOCore
import NIOPosix
import WSClient

// As `explorer` does (ExplorerCommand.main): tasks run on NIO's event loops.
NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ws-bench: \(message)\n".utf8))
    exit(1)
}

var arguments = CommandLine.arguments
let bare = arguments.count > 1 && arguments[1] == "--wsclient"
if bare { arguments.remove(at: 1) }
guard arguments.count >= 2 else { fail("usage: ws-bench [--wsclient] URL [ROUNDS] [REPEATS]") }
let url = arguments[1]
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000
let repeats = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5

/// `{"i":N,"pad":"xxx…"}`, exactly 100 bytes (as bench/ws's scripts send).
@Sendable func frame(_ i: Int) -> String {
    let head = #"{"i":\#(i),"pad":""#
    return head + String(repeating: "x", count: 100 - head.utf8.count - 2) + #""}"#
}

typealias Events = AsyncStream<WebSocketEvent>.Iterator

func nextEcho(_ events: inout Events) async -> String {
    while let event = await events.next() {
        switch event {
        case let .received(.text(text)): return text
        case .closed, .gaveUp, .failed: fail("the socket ended: \(event)")
        default: continue
        }
    }
    fail("the socket ended")
}

func send(_ socket: WebSocketSession, _ text: String) async {
    do { try await socket.send(.text(text)) } catch { fail("\(error)") }
}

func sequential(_ socket: WebSocketSession, _ events: inout Events, _ n: Int) async -> Duration {
    let start = ContinuousClock.now
    for i in 0..<n {
        let text = frame(i)
        await send(socket, text)
        guard await nextEcho(&events) == text else { fail("echo \(i) differs") }
    }
    return ContinuousClock.now - start
}

func pipelined(_ socket: WebSocketSession, _ events: inout Events, _ n: Int) async -> Duration {
    let start = ContinuousClock.now
    for i in 0..<n { await send(socket, frame(i)) }
    for i in 0..<n {
        guard await nextEcho(&events) == frame(i) else { fail("echo \(i) differs") }
    }
    return ContinuousClock.now - start
}

@Sendable func milliseconds(_ d: Duration) -> String {
    String(format: "%.1f", Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
}

func run() async {
    let transport = LiveTransport()
    let session = AuthSession(profile: .linku, builder: RequestBuilder(baseURL: URL(string: "http://127.0.0.1/")!),
                              transport: transport, store: MemoryTokenStore())
    var options = WebSocketOptions()
    options.heartbeat = nil
    options.reconnect = .never
    options.queueLimit = rounds + 1
    let socket = WebSocketSession(address: .url(url), session: session, options: options)
    var events = socket.events.makeAsyncIterator()
    await socket.start()
    opening: while let event = await events.next() {
        switch event {
        case .open: break opening
        case let .failed(line): fail(line)
        default: continue
        }
    }
    _ = await sequential(socket, &events, 100)
    for _ in 0..<repeats {
        print("sequential \(rounds) \(milliseconds(await sequential(socket, &events, rounds)))")
        print("pipelined \(rounds) \(milliseconds(await pipelined(socket, &events, rounds)))")
    }
    await socket.close()
    await transport.shutdown()
}

/// The same rounds through WSClient alone.
func runBare() async {
    var configuration = WebSocketClientConfiguration()
    configuration.autoPing = .disabled
    let logger = Logger(label: "ws-bench") { _ in SwiftLogNoOpLogHandler() }
    do {
        try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            func echo() async throws -> String {
                guard case let .text(text)? = try await messages.next() else { fail("the socket ended or sent binary") }
                return text
            }
            func sequential(_ n: Int) async throws -> Duration {
                let start = ContinuousClock.now
                for i in 0..<n {
                    let text = frame(i)
                    try await outbound.write(.text(text))
                    guard try await echo() == text else { fail("echo \(i) differs") }
                }
                return ContinuousClock.now - start
            }
            func pipelined(_ n: Int) async throws -> Duration {
                let start = ContinuousClock.now
                for i in 0..<n { try await outbound.write(.text(frame(i))) }
                for i in 0..<n {
                    guard try await echo() == frame(i) else { fail("echo \(i) differs") }
                }
                return ContinuousClock.now - start
            }
            _ = try await sequential(100)
            for _ in 0..<repeats {
                print("sequential \(rounds) \(milliseconds(try await sequential(rounds)))")
                print("pipelined \(rounds) \(milliseconds(try await pipelined(rounds)))")
            }
            try await outbound.close(.normalClosure, reason: nil)
        }
    } catch {
        fail("\(error)")
    }
}

if bare { await runBare() } else { await run() }
