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
        // Fields nest as in an HTTP body (they made a "b[c]" member).
        #expect(try parser.parse("ws send a=1 b[c]:=2 tags[]=x")
            == .ws(.send(.object([("a", .string("1")), ("b", .object([("c", .int(2))])), ("tags", .array([.string("x")]))]))))
        #expect(throws: CommandError.self) { try parser.parse("ws send a=1 a[b]=2") }
        // Any JSON value is a frame: `ws send 42` was "not a request item".
        #expect(try parser.parse("ws send 42") == .ws(.send(.int(42))))
        #expect(try parser.parse("ws send -1.5e3") == .ws(.send(.number("-1.5e3"))))
        #expect(try parser.parse("ws send null") == .ws(.send(.null)))
        #expect(try parser.parse("ws send true ") == .ws(.send(.bool(true))))
        #expect(try parser.parse("ws recv 3 --timeout 0.5") == .ws(.recv(count: 3, timeout: 0.5)))
        #expect(try parser.parse("ws connect /__sandbox/echo") == .ws(.connect(target: "/__sandbox/echo")))
        #expect(try parser.parse("WS status") == .ws(.status))
    }

    /// Issue 14: `ws send` sends what the user means: plain text, a JSON
    /// file, a file's bytes as a binary frame.
    @Test func sendTakesTextAFileOrBytes() throws {
        #expect(try parser.parse(#"ws send --text PING  "as typed""#) == .ws(.sendText(#"PING  "as typed""#)))
        #expect(try parser.parse("ws send @message.json") == .ws(.sendFile(path: "message.json", binary: false)))
        #expect(try parser.parse("ws send --binary @photo.png") == .ws(.sendFile(path: "photo.png", binary: true)))
        #expect(throws: CommandError("ws send --text needs the text to send, as in: ws send --text PING", column: 14)) { try parser.parse("ws send --text") }
        #expect(throws: CommandError("ws send --binary takes one @file, whose bytes go as one binary frame", column: 17)) {
            try parser.parse("ws send --binary photo.png")
        }
        #expect(throws: CommandError("unknown flag --json; ws send takes --text TEXT or --binary @file", column: 8)) { try parser.parse("ws send --json x") }
    }

    /// Issue 14: `ws connect URL Header:value`.
    @Test func connectTakesHandshakeHeaders() throws {
        var settings = ConnectSettings()
        settings.headers = [HTTPHeader(name: "Authorization", value: "token T"), HTTPHeader(name: "X-Trace", value: "1")]
        #expect(try parser.parse("ws connect ws://h.example/ws Authorization:'token T' X-Trace:1") == .ws(.connect(target: "ws://h.example/ws", settings: settings)))
        var only = ConnectSettings()
        only.headers = [HTTPHeader(name: "X-Trace", value: "1")]
        #expect(try parser.parse("ws connect X-Trace:1") == .ws(.connect(target: nil, settings: only)), "the profile's socket, with a header")
        #expect(throws: CommandError.self) { try parser.parse("ws connect /ws ß:1") }
        #expect(throws: CommandError("ws connect takes a URL or /path, headers as Name:value, and --retries, --backoff, --heartbeat, --verify, --cert, --cert-key", column: 15)) {
            try parser.parse("ws connect /ws a=1:2")
        }
    }

    @Test func aPastedJSONThatGoesOnIsReadOn() throws {
        #expect(SessionController.jsonGoesOn(#"ws send {"type": "ping","#))
        #expect(SessionController.jsonGoesOn("ws send ["))
        #expect(!SessionController.jsonGoesOn(#"ws send {"type": "ping"}"#))
        #expect(!SessionController.jsonGoesOn(#"ws send {"a": 1, }"#), "an error before the end is an error, not more to come")
        // A mistake while a brace is still open: the lines after it are the rest of the JSON, one error in all.
        #expect(SessionController.jsonGoesOn(#"ws send {"a": 1,, "s": "}{\"]""#))
        // A command after a broken frame runs (it was taken into the frame); a string's next line stays the string's.
        #expect(SessionController.scriptJoined([#"ws send {"a": 1 "b": ["#, "ws status"]) == [#"ws send {"a": 1 "b": ["#, "ws status"])
        // Its line break stays one, written `\n`: joined with a space, the frame went out changed.
        #expect(SessionController.scriptJoined([#"ws send {"text": "hello"#, #"show me"}"#]) == [#"ws send {"text": "hello\nshow me"}"#, ""])
        #expect(try parser.parse(#"ws send {"text": "hello\nshow me"}"#) == .ws(.send(.object([("text", .string("hello\nshow me"))]))))
        // An empty line in the string is a paragraph break of it: it ended the frame, and its next line opened a quote.
        #expect(SessionController.scriptJoined([#"ws send {"c": "para1"#, "", #"para2"}"#, "ws status"])
                == [#"ws send {"c": "para1\n\npara2"}"#, "", "", "ws status"])
        #expect(SessionController.scriptJoined(["ws send {", #""a": 1"#, "}"]) == [#"ws send { "a": 1 }"#, "", ""])
        // A bracket closed by a brace is a mistake, not JSON going on: the next command was taken into it.
        #expect(!SessionController.jsonGoesOn(#"ws send {"a": [1, 2,}"#))
        #expect(!SessionController.jsonGoesOn(#"ws send [{"a": 1]"#))
        #expect(SessionController.scriptJoined(["ws send {", #""a": 1,,"#, #""b": 2"#, "}", "ws recv"])
            == [#"ws send { "a": 1,, "b": 2 }"#, "", "", "", "ws recv"])
        #expect(!SessionController.jsonGoesOn(#"post /x a={"#))
        // A variable is not the end of the JSON: `"b": {{v}},` goes on (it ended the frame there).
        #expect(SessionController.jsonGoesOn(#"ws send { "a": "x", "b": {{v}},"#))
        #expect(SessionController.jsonGoesOn(#"ws send { "a": "{{name}} and", "b": [{{v}}"#))
        #expect(!SessionController.jsonGoesOn(#"ws send { "b": {{v}} }"#))
        // A script file's lines: joined into the first, the others left empty so each keeps its number.
        #expect(SessionController.scriptJoined(["get /x", "ws send {", #""a": [1,"#, "2]}", "ws send [", "", "ws recv"])
            == ["get /x", #"ws send { "a": [1, 2]}"#, "", "", "ws send [", "", "ws recv"])
    }

    @Test func textFilesAndBytesGoOutAsTyped() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ws-send-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"type": "ping",\#n "n": 2}"#.utf8).write(to: folder.appendingPathComponent("ping.json"))
        try Data([0, 1, 2, 255]).write(to: folder.appendingPathComponent("raw.bin"))
        try Data("not json".utf8).write(to: folder.appendingPathComponent("bad.json"))
        try await withSandboxInterpreter { interpreter, _ in
            func run(_ line: String) async throws -> Outcome { await interpreter.execute(try interpreter.parser.parse(line)) }
            guard (try await run("ws connect /__sandbox/echo --heartbeat 0")).shownText != nil else { throw SocketFailure("no connection") }
            _ = try await run("ws send --text hello there")
            _ = try await run("ws send @\(folder.path)/ping.json")
            _ = try await run("ws send --binary @\(folder.path)/raw.bin")
            guard case let .frames(frames, nil) = try await run("ws recv 3 --timeout 30") else { throw SocketFailure("no frames") }
            #expect(frames.map(\.text) == ["hello there", #"{"type":"ping","n":2}"#, "binary frame, 4 B"])
            let bad = try await run("ws send @\(folder.path)/bad.json")
            guard case let .failure(message, status) = bad else { throw SocketFailure("sent: \(bad)") }
            #expect(message.hasPrefix("\(folder.path)/bad.json is not JSON: ") && status == .usage)
            _ = try await run("ws close")
        }
    }

    /// A space or a letter outside ASCII in a socket's URL (`?q=a b`,
    /// `?q=é`) is percent-encoded as an HTTP line's is: nothing went out,
    /// and the error said the server answered with something not HTTP.
    @Test func aSocketURLIsPercentEncodedAsAnHTTPLinesIs() async throws {
        #expect(WebSocketAddress.encoded("ws://h:1/x y?q=a b&r=é#f") == "ws://h:1/x%20y?q=a%20b&r=%C3%A9#f")
        #expect(WebSocketAddress.encoded("ws://h:1/x?q=a%20b&s=[1]") == "ws://h:1/x?q=a%20b&s=%5B1%5D", "an escape typed stays one")
        try await withSandboxInterpreter { interpreter, _ in
            func run(_ line: String) async throws -> Outcome { await interpreter.execute(try interpreter.parser.parse(line)) }
            let connected = try await run(#"ws connect "/__sandbox/echo?q=a b&r=é" --heartbeat 0"#)
            #expect(connected.shownText?.hasPrefix("connected to ws://127.0.0.1:") == true, "\(connected)")
            #expect(connected.shownText?.contains("/__sandbox/echo?q=a%20b&r=%C3%A9") == true, "\(connected)")
            _ = try await run("ws close")
        }
    }

    @Test func invalidJSONPointsAtTheProblemAndSendsNothing() {
        #expect(throws: CommandError("invalid JSON: expected a string key, found '}' (nothing sent)", column: 17)) {
            try parser.parse(#"ws send {"a": 1, }"#)
        }
        #expect(throws: CommandError("ws send takes JSON, or fields: name=value, name:=json", column: 8)) {
            try parser.parse("ws send page==2")
        }
        // A word alone was told to use Header:value, name==query or name@file.
        #expect(throws: CommandError("'hello' is not JSON or a field: ws send takes JSON, name=value, name:=json, or --text TEXT for a text frame",
                                     column: 8)) {
            try parser.parse("ws send hello")
        }
    }

    /// `ws send '{"a":1}'`, quoted as a shell or HTTPie's --raw wants JSON, was "not JSON or a field".
    @Test func jsonInQuotesIsTheJSONTheyHold() throws {
        #expect(try parser.parse(#"ws send '{"a": 1}'"#) == .ws(.send(.object([("a", .number("1"))]))))
        #expect(try parser.parse(#"ws send "[1, 2]""#) == .ws(.send(.array([.number("1"), .number("2")]))))
        #expect(throws: CommandError("invalid JSON: expected a string key, found '}' (nothing sent)", column: 18)) {
            try parser.parse(#"ws send '{"a": 1, }'"#)
        }
    }

    @Test func subcommandsCompleteOnTab() {
        let state = CompletionState(profile: .linku, variables: [], lastBody: nil)
        #expect(Completer.complete("ws ", state: state).candidates.map(\.text) == WebSocketAction.subcommands)
        #expect(Completer.complete("ws c", state: state).candidates.map(\.text) == ["connect", "close"])
        #expect(Completer.complete("w", state: state).candidates.map(\.text).contains("ws"))
    }

    @Test func connectTakesRetriesBackoffAndHeartbeat() throws {
        #expect(try parser.parse("ws connect /__sandbox/echo --retries 2 --heartbeat 0.5")
            == .ws(.connect(target: "/__sandbox/echo", settings: ConnectSettings(retries: 2, heartbeat: 0.5))))
        #expect(try parser.parse("ws connect --heartbeat 0 --backoff 0.25")
            == .ws(.connect(target: nil, settings: ConnectSettings(backoff: 0.25, heartbeat: 0))))
        let options = ConnectSettings(retries: 0, backoff: 0.25, heartbeat: 0).options
        #expect(options.reconnect == ReconnectPolicy(initialDelay: .milliseconds(250), attempts: 0))
        #expect(options.heartbeat == nil)
        #expect(ConnectSettings(heartbeat: 2).options.heartbeat == .seconds(2))
        #expect(ConnectSettings().options.reconnect == .standard)
        #expect(ConnectSettings().options.heartbeat == .seconds(30))
        #expect(throws: CommandError("--retries needs a whole number from 0 (never reconnect) to 30", column: 11)) {
            try parser.parse("ws connect --retries x")
        }
        #expect(throws: CommandError("--heartbeat needs a value, as in: ws connect --heartbeat 10", column: 11)) {
            try parser.parse("ws connect --heartbeat")
        }
        #expect(throws: CommandError("--heartbeat needs seconds from 0.1 to 3600, or 0 for no pings", column: 14)) {
            try parser.parse("ws connect /x --heartbeat 0.01")
        }
        #expect(throws: CommandError("unknown flag --ping; ws connect takes --retries, --backoff, --heartbeat, --verify, --cert, --cert-key", column: 11)) {
            try parser.parse("ws connect --ping 3")
        }
        #expect(throws: CommandError("usage: ws connect [URL|PATH] [Name:value…] [--retries N] [--backoff S] [--heartbeat S] [--verify yes|no|CA_FILE] [--cert FILE] [--cert-key FILE]", column: 14)) {
            try parser.parse("ws connect /a /b")
        }
    }

    @Test func connectFlagsCompleteOnTab() {
        let state = CompletionState(profile: .linku, variables: [], lastBody: nil)
        func candidates(_ line: String) -> [String] { Completer.complete(line, state: state).candidates.map(\.text) }
        #expect(candidates("ws connect ") == ConnectSettings.flags)
        #expect(candidates("ws connect /__sandbox/echo --h") == ["--heartbeat"])
        #expect(candidates("ws connect --retries 2 --") == ["--backoff", "--heartbeat", "--verify", "--cert", "--cert-key"])
        // Where a flag's value goes, and after other subcommands, nothing.
        #expect(candidates("ws connect --retries ").isEmpty)
        #expect(candidates("ws send --").isEmpty)
    }

    @Test func aHugeFrameIsPreviewedOnOneBoundedLine() {
        let renderer = Renderer(palette: .plain)
        let huge = #"{"data":""# + String(repeating: "x", count: 10 * 1024 * 1024) + #""}"#
        let line = renderer.notice(SocketNotice(time: Date(timeIntervalSince1970: 0), kind: .received, text: huge))
        #expect(line.count < Renderer.framePreviewLimit + 200)
        #expect(line.hasSuffix("10.0 MiB in all; `show` prints it\n"))
        #expect(line.filter { $0 == "\n" }.count == 1)
        // An empty frame is said to be one (it showed as a bare arrow).
        #expect(renderer.notice(SocketNotice(time: Date(timeIntervalSince1970: 0), kind: .received, text: "")).hasSuffix("← (empty text frame)\n"))
        // One sent: `show` prints the last frame received, so it is not offered.
        let sent = renderer.notice(SocketNotice(time: Date(timeIntervalSince1970: 0), kind: .sent, text: huge))
        #expect(sent.hasSuffix("10.0 MiB in all\n"), "\(sent.suffix(80))")
    }

    @Test func noticesAreStampedWithTheLocalTimeOfDay() {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        // Midnight, a second before it, a fraction of a second (cut, not rounded), and now. Now's fraction is set:
        // Foundation's formatter rounds to milliseconds first, so a now of .9996 s read as the next second.
        let now = Date().timeIntervalSince1970.rounded(.down) + 0.25
        let times = [0, 86_399, 45_296.999, 1_795_000_000.5, now].map(Date.init(timeIntervalSince1970:))
        for time in times {
            #expect(Renderer.clockTime(time) == formatter.string(from: time), "\(time)")
        }
        let line = Renderer(palette: .plain).notice(SocketNotice(time: times[2], kind: .state, text: "open"))
        #expect(line == "\(formatter.string(from: times[2])) · open\n")
    }

    @Test func tokensInFramesAreHidden() {
        let renderer = Renderer(palette: .plain)
        let line = renderer.notice(SocketNotice(time: Date(), kind: .sent, text: #"{"access_token":"secret-value"}"#))
        #expect(!line.contains("secret-value"))
        // A named event's row (`done: {…}`) is no JSON as a whole: its members are hidden all the same.
        let event = renderer.notice(SocketNotice(time: Date(), kind: .streamed, text: #"done: {"password":"hunter2hunter2","n":1}"#))
        #expect(event.contains(#"done: {"password":"<hidden: 14 characters>","n":1}"#), "\(event)")
    }

    @Test func chatThroughTheInterpreterAndShowTheLastFrame() async throws {
        try await withSandboxInterpreter { interpreter, _ in
            func run(_ line: String) async throws -> Outcome { await interpreter.execute(try interpreter.parser.parse(line)) }
            guard case let .failure(anonymous, _) = try await run("ws connect") else { throw SocketFailure("connected without a login") }
            #expect(anonymous.contains("not logged in"))
            _ = try await run("login alice@example.com alice123")
            guard let connected = (try await run("ws connect")).shownText else { throw SocketFailure("no connection") }
            #expect(connected.hasSuffix("/ws/chat/1?token=<access_token>"))
            _ = try await run("ws send type=message client_message_id=t-1 receiver_id:=2 content=hi")
            guard case let .frames(frames, _) = try await run("ws recv --timeout 5") else { throw SocketFailure("no ack") }
            #expect(frames.map(\.kind) == [.received])
            guard case let .value(id, _) = try await run("show .message.client_message_id") else { throw SocketFailure("show") }
            #expect(id == .string("t-1"))
            guard case let .failure(none, _) = try await run("ws recv --timeout 0.1") else { throw SocketFailure("a frame") }
            #expect(none.hasPrefix("no frame within"))
            guard (try await run("ws close")).shownText == "closed" else { throw SocketFailure("not closed") }
            guard case let .failure(rejected, _) = try await run("ws connect /ws/chat/2") else { throw SocketFailure("opened") }
            #expect(rejected.contains("401"))
            guard case let .failure(refused, _) = try await run("ws connect ws://127.0.0.1:1/") else { throw SocketFailure("opened") }
            #expect(refused == "connection refused: ws://127.0.0.1:1/")
            // What a socket that never opened gets is said so, not "the socket is closed".
            guard case let .failure(none, _) = try await run("ws recv --timeout 5") else { throw SocketFailure("a frame") }
            #expect(none == "no frame: the socket never opened (its ws connect failed)")
            // Nothing was open: ws close does not say it closed something.
            #expect(try await run("ws close").shownText == "no WebSocket open: the socket never opened (its ws connect failed)")
            #expect(try await run("ws close").shownText == "no WebSocket")
        }
    }

    /// A socket opened as alice goes on as alice after `login bob…` (to
    /// watch bob's side of a chat): said, as it went unsaid. Logging in
    /// again as alice says nothing.
    @Test func loggingInAsAnotherUserSaysTheSocketIsTheFirstsStill() async throws {
        try await withSandboxInterpreter { interpreter, _ in
            func run(_ line: String) async throws -> Outcome { await interpreter.execute(try interpreter.parser.parse(line)) }
            _ = try await run("login alice@example.com alice123")
            _ = try await run("ws connect")
            guard case let .exchange(_, same?, _) = try await run("login alice@example.com alice123") else { throw SocketFailure("no login") }
            #expect(same == "logged in as alice")
            guard case let .exchange(_, other?, _) = try await run("login bob@example.com bob12345") else { throw SocketFailure("no login") }
            #expect(other == "logged in as bob\nthe WebSocket is still open as alice (ws close, then ws connect, opens it as bob)")
            // Said by who opened it: alice's socket was "still open as bob" when alice logged in again.
            guard case let .exchange(_, back?, _) = try await run("login alice@example.com alice123") else { throw SocketFailure("no login") }
            #expect(back == "logged in as alice")
            // A login typed as a request says it too.
            guard case let .exchange(_, typed?, _) = try await run("post /api/secure-auth/login email=bob@example.com password=bob12345")
            else { throw SocketFailure("no login") }
            #expect(typed.hasSuffix("logged in as bob\nthe WebSocket is still open as alice (ws close, then ws connect, opens it as bob)"), "\(typed)")
            #expect(try await run("ws close").shownText == "closed")
        }
    }

    /// Alice's chat socket, dropped while bob was logged in, came back as bob's (the profile's path names the
    /// user, the token was his), unsaid: it does not reconnect as anyone else.
    @Test func aSocketDoesNotReconnectAsAnotherUser() async throws {
        try await withSandboxInterpreter { interpreter, _ in
            let heard = Heard()
            await interpreter.setSocketStateListener { heard.append($0) }
            func run(_ line: String) async throws -> Outcome { await interpreter.execute(try interpreter.parser.parse(line)) }
            _ = try await run("login alice@example.com alice123")
            _ = try await run("put /__sandbox/faults ws_drop_after:=1")
            _ = try await run("ws connect --heartbeat 0")
            _ = try await run("login bob@example.com bob12345")
            _ = try await run(#"ws send {"type":"ping"}"#)
            let said = "not reconnecting: the socket was opened as alice, and the session is logged in as bob now (ws connect opens one as bob)"
            try await eventually("the socket ends") { heard.problems.contains(said) }
            #expect(!heard.states.contains { $0.hasPrefix("reconnecting") }, "\(heard.states)")
        }
    }

    /// A socket at another origin goes with no login (neither token nor session headers go there): a login
    /// since is nothing to it, and it reconnects as before.
    @Test func aSocketElsewhereReconnectsWhoeverLogsIn() async throws {
        let other = try await SandboxServer.start()
        defer { Task { await other.stop() } }
        try await withSandboxInterpreter { interpreter, _ in
            let heard = Heard()
            await interpreter.setSocketStateListener { heard.append($0) }
            func run(_ line: String) async throws -> Outcome { await interpreter.execute(try interpreter.parser.parse(line)) }
            _ = try await run("login alice@example.com alice123")
            _ = try await run("put \(other.baseURL.absoluteString)/__sandbox/faults ws_drop_after:=1")
            let socket = other.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "ws://") + "/__sandbox/echo"
            _ = try await run("ws connect \(socket) --heartbeat 0 --backoff 0.05")
            _ = try await run("login bob@example.com bob12345")
            _ = try await run(#"ws send {"n":1}"#)
            try await eventually("the socket reconnects") { heard.states.contains("open again") }
            #expect(!heard.problems.contains { $0.hasPrefix("not reconnecting") }, "\(heard.problems)")
            _ = try await run("ws close")
        }
    }
}

/// Notices the REPL would have printed as they arrived.
final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var notices: [SocketNotice] = []
    func append(_ notice: SocketNotice) { lock.withLock { notices.append(notice) } }
    var received: [String] { lock.withLock { notices.filter { $0.kind == .received }.map(\.text) } }
    var problems: [String] { lock.withLock { notices.filter { $0.kind == .problem }.map(\.text) } }
    var states: [String] { lock.withLock { notices.filter { $0.kind == .state }.map(\.text) } }
}

/// Waits until `check` holds, 30 s at most (then fails the test with
/// `what`): long, because the suite runs its tests in parallel and a loaded
/// machine has taken over 10 s for what comes at once when idle.
func eventually(_ what: String, _ check: () async -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while await !check() {
        guard ContinuousClock.now < deadline else { throw SocketFailure("not within 30 s: \(what)") }
        try await Task.sleep(for: .milliseconds(5))
    }
}

extension WebSocketCommandTests {
    /// In the REPL a frame is shown once, as it arrives: while `ws recv`
    /// waits too (it showed nothing until the last had come), and recv's
    /// answer does not print it again.
    @Test func aFrameIsShownOnceAsItArrivesOrByAWaitingRecv() async throws {
        let live = try await LiveSession.open(profile: .linku, target: .sandbox())
        let interpreter = live.interpreter
        let heard = Heard()
        // As the REPL listens: frames print as they come, and that is their showing.
        await interpreter.setSocketListener { heard.append($0) }
        await interpreter.setFramesLive(true)
        // Each line starts a line of the frame tap, as the REPL's session controller does.
        func run(_ line: String) async throws -> Outcome {
            interpreter.frameTap.startLine()
            return await interpreter.execute(try interpreter.parser.parse(line))
        }
        do {
            guard (try await run("ws connect /__sandbox/echo --retries 2 --heartbeat 0")).shownText != nil else { throw SocketFailure("no connection") }
            guard let status = (try await run("ws status")).shownText else { throw SocketFailure("no status") }
            #expect(status.contains("policy: no heartbeat; up to 2 reconnects, the first after 1 s"), "\(status)")
            _ = try await run(#"ws send {"n":1}"#)
            try await eventually("the echo printed") { heard.received == [#"{"n":1}"#] }
            // Already shown: recv does not show it again; it waits for a new frame.
            guard case let .failure(none, _) = try await run("ws recv --timeout 0.2") else { throw SocketFailure("a frame again") }
            #expect(none == "no frame within 0.2 s")
            // A waiting recv gets the next frame, printed as it came and not again by its answer.
            let waiting = Task { await interpreter.execute(.ws(.recv(count: 1, timeout: 10))) }
            try await eventually("recv waiting") { await interpreter.sockets.wanted == 1 }
            _ = try await run(#"ws send {"n":2}"#)
            let answer = await waiting.value
            guard case let .frames(frames, _) = answer else { throw SocketFailure("recv got nothing") }
            #expect(frames.map(\.text) == [#"{"n":2}"#] && frames.allSatisfy(\.shownAsItCame))
            #expect(heard.received == [#"{"n":1}"#, #"{"n":2}"#])
            #expect(!Renderer(palette: .plain).render(answer).out.contains(#"{"n":2}"#))
            _ = try await run("ws close")
            guard case let .failure(closed, _) = try await run("ws recv --timeout 5") else { throw SocketFailure("a frame after close") }
            #expect(closed == WebSocketSendError.notConnected.description)
        } catch {
            Issue.record(error)
        }
        await live.close()
    }

    /// A frame that came after `ws recv` was typed but before it waited (a
    /// loaded machine, a quick server) was shown and not handed to it: the
    /// recv waited for the next, and a recording, which writes that frame
    /// under the recv's step, had a body without it, which failed its replay.
    @Test func aFrameShownAfterRecvsLineBeganIsItsFirst() async throws {
        let live = try await LiveSession.open(profile: .linku, target: .sandbox())
        let interpreter = live.interpreter
        let heard = Heard()
        await interpreter.setSocketListener { heard.append($0) }
        await interpreter.setFramesLive(true)
        do {
            interpreter.frameTap.startLine()
            _ = await interpreter.execute(try interpreter.parser.parse("ws connect /__sandbox/echo --heartbeat 0"))
            interpreter.frameTap.startLine()
            _ = await interpreter.execute(try interpreter.parser.parse(#"ws send {"n":1}"#))
            try await eventually("the echo printed") { heard.received == [#"{"n":1}"#] }
            // `ws recv` typed, its line begun: a frame comes (the echo of one sent here) before it runs.
            interpreter.frameTap.startLine()
            _ = await interpreter.execute(try interpreter.parser.parse(#"ws send {"n":2}"#))
            try await eventually("the second echo printed") { heard.received == [#"{"n":1}"#, #"{"n":2}"#] }
            let answer = await interpreter.execute(try interpreter.parser.parse("ws recv --timeout 0.5"))
            guard case let .frames(frames, shortfall) = answer else { throw SocketFailure("recv got nothing: \(answer)") }
            #expect(frames.map(\.text) == [#"{"n":2}"#] && shortfall == nil && frames.allSatisfy(\.shownAsItCame))
            #expect(!Renderer(palette: .plain).render(answer).out.contains(#"{"n":2}"#))
            // Taken: the next line's recv waits for a new one.
            interpreter.frameTap.startLine()
            guard case .failure = await interpreter.execute(try interpreter.parser.parse("ws recv --timeout 0.2")) else { throw SocketFailure("a frame again") }
            _ = await interpreter.execute(.ws(.close))
        } catch {
            Issue.record(error)
        }
        await live.close()
    }

    /// A replay of a REPL recording keeps frames for its `ws recv`s, and
    /// each recv skips those the transcript lists under earlier steps (shown
    /// at the REPL, or taken): the same frames whatever the timing. A pause
    /// before each recv stood in for the typing, and a recording typed
    /// faster than it (tokens streamed after `ws recv 3`) failed every replay.
    @Test func aReplayedRecvSkipsTheFramesEarlierStepsList() async throws {
        try await withSandboxInterpreter { interpreter, _ in
            let tap = interpreter.frameTap.subscribe()
            _ = await interpreter.execute(try interpreter.parser.parse("ws connect /__sandbox/echo --heartbeat 0"))
            let before = interpreter.frameTap.receivedSoFar
            for n in 1...4 { _ = await interpreter.execute(try interpreter.parser.parse(#"ws send {"n":\#(n)}"#)) }
            _ = await interpreter.execute(try interpreter.parser.parse(#"ws send {"type":"pong"}"#))
            _ = await tap.take(sent: 5, received: 4, timeout: 30)
            try await eventually("the echoes kept") { await interpreter.sockets.inbox.count == 5 }
            // The transcript lists the first echo under an earlier step: the recv's are the next, the pong left out.
            await interpreter.skipFramesShownBefore(before + 1)
            guard case let .frames(frames, _) = await interpreter.execute(try interpreter.parser.parse("ws recv 2 --timeout 5")) else { throw SocketFailure("recv got nothing") }
            #expect(frames.map(\.text) == [#"{"n":2}"#, #"{"n":3}"#])
            await interpreter.skipFramesShownBefore(before + 3)
            guard case let .frames(last, _) = await interpreter.execute(try interpreter.parser.parse("ws recv --timeout 5")) else { throw SocketFailure("recv got nothing") }
            #expect(last.map(\.text) == [#"{"n":4}"#])
            #expect(await interpreter.sockets.inbox.isEmpty, "the pong is no recv's")
            _ = await interpreter.execute(.ws(.close))
        }
    }

    /// A tour of a script's transcript in the REPL: frames print as they
    /// come and still wait for `ws recv`, as the transcript expects.
    @Test func framesKeptForRecvArePrintedTooWhenSomeoneListens() async throws {
        try await withSandboxInterpreter { interpreter, _ in
            let heard = Heard()
            await interpreter.setSocketListener { heard.append($0) }
            func run(_ line: String) async throws -> Outcome { await interpreter.execute(try interpreter.parser.parse(line)) }
            _ = try await run("ws connect /__sandbox/echo --heartbeat 0")
            _ = try await run(#"ws send {"n":1}"#)
            try await eventually("the echo printed") { heard.received == [#"{"n":1}"#] }
            guard case let .frames(frames, _) = try await run("ws recv --timeout 10") else { throw SocketFailure("not kept") }
            #expect(frames.map(\.text) == [#"{"n":1}"#])
            _ = try await run("ws close")
        }
    }

    /// In a script (no listener) frames wait for `ws recv`, in order.
    @Test func inAScriptFramesWaitForRecv() async throws {
        try await withSandboxInterpreter { interpreter, _ in
            func run(_ line: String) async throws -> Outcome { await interpreter.execute(try interpreter.parser.parse(line)) }
            _ = try await run("ws connect /__sandbox/echo")
            for n in 1...3 { _ = try await run(#"ws send {"n":\#(n)}"#) }
            guard case let .frames(frames, _) = try await run("ws recv 3 --timeout 10") else { throw SocketFailure("no frames") }
            #expect(frames.map(\.text) == [#"{"n":1}"#, #"{"n":2}"#, #"{"n":3}"#])
            _ = try await run("ws close")
        }
    }
}

struct SocketFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
