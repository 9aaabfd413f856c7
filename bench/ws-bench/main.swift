// Benchmark, not a test (bench/ws runs it): WebSocket round trips through
// Core's `WebSocketSession`, the client the REPL's `ws` commands use, without
// the REPL around it.
//
//   ws-bench URL [ROUNDS] [REPEATS]
//
// Connects once, warms up with 100 round trips, then REPEATS times:
//   sequential  ROUNDS x (send a 100-byte text frame, await its echo)
//   pipelined   ROUNDS sends, then await ROUNDS echoes
// Prints one line per run, `sequential ROUNDS MS` or `pipelined ROUNDS MS`.
// Each echo is checked against what was sent. No heartbeat, no reconnects,
// de-duplication as in the REPL (each frame is parsed for a message id).
import Core
import Foundation
import NIOCore
import NIOPosix

// As `explorer` does (ExplorerCommand.main): tasks run on NIO's event loops.
NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ws-bench: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: ws-bench URL [ROUNDS] [REPEATS]") }
let url = arguments[1]
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000
let repeats = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5

/// `{"i":N,"pad":"xxx…"}`, exactly 100 bytes (as bench/ws's scripts send).
func frame(_ i: Int) -> String {
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

func milliseconds(_ d: Duration) -> String {
    String(format: "%.1f", Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
}

func run() async {
    let transport = AsyncHTTPTransport()
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

await run()
