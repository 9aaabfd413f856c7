import Core
import Foundation
import Sandbox
import Testing
@testable import Explorer

/// `ws` lines: parsing (invalid JSON is refused with its column), TAB, and
/// the interpreter against the sandbox's chat and echo sockets.
@Suite struct WebSocketCommandTests {
    let parser = CommandParser()

    @Test func sendTakesJSONTextOrFields() throws {
        #expect(try parser.parse(#"ws send {"type": "ping", "n": [1, 2]}"#)
            == .ws(.send(.object([("type", .string("ping")), ("n", .array([.int(1), .int(2)]))]))))
        #expect(try parser.parse("ws send type=message receiver_id:=2")
            == .ws(.send(.object([("type", .string("message")), ("receiver_id", .int(2))]))))
        #expect(try parser.parse("ws recv 3 --timeout 0.5") == .ws(.recv(count: 3, timeout: 0.5)))
        #expect(try parser.parse("ws connect /__sandbox/echo") == .ws(.connect(target: "/__sandbox/echo")))
        #expect(try parser.parse("WS status") == .ws(.status))
    }

    @Test func invalidJSONPointsAtTheProblemAndSendsNothing() {
        #expect(throws: CommandError("invalid JSON: expected a string key, found '}' (nothing sent)", column: 17)) {
            try parser.parse(#"ws send {"a": 1, }"#)
        }
        #expect(throws: CommandError("ws send takes JSON, or fields: name=value, name:=json", column: 8)) {
            try parser.parse("ws send page==2")
        }
    }

    @Test func subcommandsCompleteOnTab() {
        let state = CompletionState(profile: .linku, variables: [], lastBody: nil)
        #expect(Completer.complete("ws ", state: state).candidates.map(\.text) == WebSocketAction.subcommands)
        #expect(Completer.complete("ws c", state: state).candidates.map(\.text) == ["connect", "close"])
        #expect(Completer.complete("w", state: state).candidates.map(\.text).contains("ws"))
    }

    @Test func aHugeFrameIsPreviewedOnOneBoundedLine() {
        let renderer = Renderer(palette: .plain)
        let huge = #"{"data":""# + String(repeating: "x", count: 10 * 1024 * 1024) + #""}"#
        let line = renderer.notice(SocketNotice(time: Date(timeIntervalSince1970: 0), kind: .received, text: huge))
        #expect(line.count < Renderer.framePreviewLimit + 200)
        #expect(line.hasSuffix("10.0 MiB in all; `show` prints it\n"))
        #expect(line.filter { $0 == "\n" }.count == 1)
    }

    @Test func tokensInFramesAreHidden() {
        let renderer = Renderer(palette: .plain)
        let line = renderer.notice(SocketNotice(time: Date(), kind: .sent, text: #"{"access_token":"secret-value"}"#))
        #expect(!line.contains("secret-value"))
    }

    @Test func chatThroughTheInterpreterAndShowTheLastFrame() async throws {
        let server = try await SandboxServer.start()
        let transport = AsyncHTTPTransport()
        let session = AuthSession(profile: .linku, builder: RequestBuilder(baseURL: server.baseURL), transport: transport, store: MemoryTokenStore())
        let interpreter = Interpreter(session: session)
        func run(_ line: String) async throws -> Outcome { await interpreter.execute(try await interpreter.parser.parse(line)) }
        do {
            guard case let .failure(anonymous, _) = try await run("ws connect") else { throw SocketFailure("connected without a login") }
            #expect(anonymous.contains("not logged in"))
            _ = try await run("login alice@example.com alice123")
            guard case let .text(connected) = try await run("ws connect") else { throw SocketFailure("no connection") }
            #expect(connected.hasSuffix("/ws/chat/1?token=<access_token>"))
            _ = try await run("ws send type=message client_message_id=t-1 receiver_id:=2 content=hi")
            guard case let .frames(frames) = try await run("ws recv --timeout 5") else { throw SocketFailure("no ack") }
            #expect(frames.map(\.kind) == [.received])
            guard case let .value(id) = try await run("show .message.client_message_id") else { throw SocketFailure("show") }
            #expect(id == .string("t-1"))
            guard case let .failure(none, _) = try await run("ws recv --timeout 0.1") else { throw SocketFailure("a frame") }
            #expect(none.hasPrefix("no frame within"))
            guard case .text("closed") = try await run("ws close") else { throw SocketFailure("not closed") }
            guard case let .failure(rejected, _) = try await run("ws connect /ws/chat/2") else { throw SocketFailure("opened") }
            #expect(rejected.contains("401"))
            guard case let .failure(refused, _) = try await run("ws connect ws://127.0.0.1:1/") else { throw SocketFailure("opened") }
            #expect(refused == "connection refused: ws://127.0.0.1:1/")
        } catch {
            Issue.record(error)
        }
        await transport.shutdown()
        await server.stop()
    }
}

struct SocketFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
