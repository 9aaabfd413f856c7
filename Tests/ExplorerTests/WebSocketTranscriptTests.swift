import Core
import Foundation
import Sandbox
import Testing
@testable import Explorer

/// WebSocket steps end to end: a chat recorded against one sandbox (frames
/// written with their direction, ids as captures, no port and no token on
/// disk) replays green against a fresh one; a frame that never comes fails
/// with a clear difference.
@Suite struct WebSocketTranscriptTests {
    /// Records `lines` the way the session controller does: each starts a line of the
    /// frame tap, and the frames that came before it are written under the last step.
    /// `live`: as the REPL records, frames shown as they come (`frames: live`);
    /// the line `!ack` waits until the socket has received a frame.
    static func record(_ lines: [String], live: Bool = false) async throws -> (path: String, text: String, tokens: [String]) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ws-\(UUID().uuidString).transcript").path
        let tokens = try await withSandboxInterpreter { interpreter, server in
            if live {
                await interpreter.setSocketListener { _ in }
                await interpreter.setFramesLive(true)
            }
            let arrivals = interpreter.frameTap.subscribe()
            let recorder = try TranscriptRecorder(path: path, header: .make(profile: "linku", target: .sandbox, framesLive: live),
                                                  renderer: Renderer(palette: .plain, envelope: Profile.linku.errorEnvelope),
                                                  baseURL: server.baseURL.absoluteString, secrets: SecretScrubber(),
                                                  secretFields: SecretFields(Profile.linku.secretFields), frames: interpreter.frameTap.subscribe(),
                                                  variables: { [interpreter] in interpreter.allVariables })
            var tokens: [String] = []
            for template in lines {
                try recorder.flushFrames(before: interpreter.frameTap.startLine())
                // `{{TOKEN}}` and `{{WS}}` stand for this run's access token and socket base URL.
                let token = await interpreter.session.tokens?.accessToken ?? ""
                let line = template.replacingOccurrences(of: "{{TOKEN}}", with: token)
                    .replacingOccurrences(of: "{{WS}}", with: PatternText.socketURL(server.baseURL.absoluteString))
                if line == "!pause" {
                    try await Task.sleep(for: .milliseconds(500))
                    continue
                }
                if line == "!ack" {
                    if !arrivals.takeAll().contains(where: { $0.direction == .received }) {
                        _ = await arrivals.take(sent: 0, received: 1, timeout: 5)
                    }
                    continue
                }
                // `!set NAME=VALUE` sets a variable without recording it, as a tour's replay does with its captures.
                if line.hasPrefix("!set "), let eq = line.firstIndex(of: "=") {
                    _ = await interpreter.execute(.set(name: String(line[line.index(line.startIndex, offsetBy: 5)..<eq]), value: String(line[line.index(after: eq)...])))
                    continue
                }
                let command = try interpreter.parser.parse(line)
                try recorder.record(line: line, command: command, outcome: await interpreter.execute(command), forcedOffline: false)
                if let token = await interpreter.session.tokens?.accessToken { tokens.append(token) }
            }
            _ = await interpreter.execute(.ws(.close))
            try recorder.flushFrames()
            return tokens
        }
        return (path, try String(contentsOfFile: path, encoding: .utf8), tokens)
    }

    static let chat = [
        "login alice@example.com alice123",
        "ws connect",
        #"ws send {"type":"message","client_message_id":"t-1","receiver_id":2,"content":"hi bob"}"#,
        // Takes the ack from the inbox: by then the ack has come.
        "ws recv",
        "login bob@example.com bob12345",
        "get /api/users/messages user_id==1 page_size==1",
        // Bob reads it: alice's socket, still open, gets the receipt.
        "put /api/users/messages/4/read",
        "ws recv",
        "ws close",
        // A URL typed whole, after a flag: this run's port and bob's token must not reach the file.
        "ws connect --retries 2 {{WS}}/ws/chat/2?token={{TOKEN}}",
        "ws close",
    ]

    @Test func aRecordedChatHasItsFramesAndReplaysGreenOnAFreshSandbox() async throws {
        let (path, text, tokens) = try await Self.record(Self.chat)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(!tokens.isEmpty)
        for token in tokens { #expect(!text.contains(token)) }
        #expect(!text.contains("127.0.0.1") && !text.contains("eyJ") && !text.contains("alice123") && !text.contains("bob12345"))
        // The sent frame, the ack with the server's id as a capture, the receipt naming it.
        #expect(text.contains("→ {\n  \"type\": \"message\",\n  \"client_message_id\": \"t-1\","))
        #expect(text.contains("← {\n  \"type\": \"ack\","))
        #expect(text.contains("\"id\": {{message_id:=integer}},"))
        #expect(text.contains("← {\n  \"type\": \"read\",\n  \"message_id\": {{message_id}},"))
        #expect(text.contains("\"read_at\": \"{{timestamp}}\""))
        #expect(text.contains("| connected to {{ws_base_url}}/ws/chat/1?token=<access_token>\n"))
        #expect(text.contains("> ws connect --retries 2 /ws/chat/2?token={{secret:access_token}}\n"))
        // Each `ws recv`'s body writes the ids as its `←` lines do (it wrote `"id": 4`, which `explorer mock` numbers otherwise):
        // of its kind, or the capture's when the ack came, and was written, under the `ws send` (a loaded machine).
        let bodies = text.components(separatedBy: "> ws recv\n").dropFirst().map { $0.components(separatedBy: "\n← ")[0].components(separatedBy: "\n\n")[0] }
        #expect(bodies.count == 2 && (bodies[0].contains("\"id\": {{integer}},") || bodies[0].contains("\"id\": {{message_id}},"))
                && bodies[1].contains("\"message_id\": {{message_id}},") && !bodies.joined().contains("\"id\": 4"), "\(bodies)")

        let run = await Replayer(environment: [:]).run(path)
        let report = ReplayReport(palette: .plain).detailed(run)
        #expect(run.status == .ok, "\(report.out)\(report.err)\n\(text)")
        #expect(run.steps.count == Self.chat.count)
    }

    /// In the REPL a frame shows as it comes, so a later `ws recv` waits for
    /// another and the recording says none came; the header's `frames: live`
    /// makes the replay take frames the same way. Without it (a script's way)
    /// the `ws recv` would get the ack, which the recording says it did not.
    @Test func aREPLsRecvAfterAFrameShownAsItCameReplaysAsRecorded() async throws {
        let lines = Array(Self.chat.prefix(3)) + ["!ack", "ws recv --timeout 0.3"]
        let (path, text, _) = try await Self.record(lines, live: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(text.contains("base-url: sandbox\nframes: live\n"))
        #expect(text.hasSuffix("> ws recv --timeout 0.3\nerror: no frame within 0.3 s\n\n"), "\(text)")
        let run = await Replayer(environment: [:]).run(path)
        #expect(run.status == .ok, "\(ReplayReport(palette: .plain).detailed(run).out)\n\(text)")

        try text.replacingOccurrences(of: "frames: live\n", with: "").write(toFile: path, atomically: true, encoding: .utf8)
        let kept = await Replayer(environment: [:]).run(path)
        #expect(kept.failedSteps.map(\.command) == ["ws recv --timeout 0.3"])
    }

    /// Secrets typed in a socket's URL and in `auth basic` were hidden on
    /// their own line only: the connected line, an echo, a path holding
    /// them wrote them in clear.
    @Test func secretsTypedInASocketURLOrAuthBasicAreHiddenWhereverTheyShow() async throws {
        let (path, text, _) = try await Self.record([
            "ws connect {{WS}}/__sandbox/echo?api_key=K3y-Secret-77&room=1",
            "ws close",
            "auth basic bob:pw-98765",
            "get /api/tasks/pw-98765",
            "get /api/tasks note==K3y-Secret-77",
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(!text.contains("K3y-Secret-77") && !text.contains("pw-98765"), "\(text)")
        #expect(text.contains("| connected to {{ws_base_url}}/__sandbox/echo?api_key=<api_key>&room=1\n"), "\(text)")
        #expect(text.contains("> get /api/tasks/{{secret:password}}\n"), "\(text)")
    }

    /// A secret-named session header (`header X-CSRFToken:…`) was hidden on
    /// its own line only: a path or an echo holding it was written in clear;
    /// and a second value under the same name got the same placeholder, so a
    /// replay sent one value for both.
    @Test func aSecretSessionHeaderIsHiddenWhereverItShowsAndASecondValueIsNumbered() async throws {
        let (path, text, _) = try await Self.record([
            "header X-CSRFToken:Csrf-Val-1234",
            "get /api/tasks/Csrf-Val-1234",
            "get /api/banners X-CSRFToken:Other-Val-5678",
            "get /api/tasks note==Other-Val-5678",
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(!text.contains("Csrf-Val-1234") && !text.contains("Other-Val-5678"), "\(text)")
        #expect(text.contains("> header X-CSRFToken:{{secret:x_csrftoken}}\n"), "\(text)")
        #expect(text.contains("> get /api/tasks/{{secret:x_csrftoken}}\n"), "\(text)")
        #expect(text.contains("> get /api/banners X-CSRFToken:{{secret:x_csrftoken_2}}\n"), "\(text)")
        #expect(text.contains("> get /api/tasks note=={{secret:x_csrftoken_2}}\n"), "\(text)")
    }

    /// A socket nothing answers stops the run as an unreachable HTTP server
    /// does (exit 3, the rest did not run), at once: it was a difference,
    /// and every later step waited 5 s for frames.
    @Test func aSocketThatCannotBeReachedStopsTheRunAtOnce() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ws-down-\(UUID().uuidString).transcript").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = "# explorer transcript v1\nprofile: generic\nbase-url: \(nowhere.absoluteString)\n\n> ws connect /x --retries 0\n| connected to {{ws_base_url}}/x\n← {\"hello\": 1}\n\n> ws recv\n{\"n\": 1}\n\n> ws close\n| closed\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(environment: [:]).run(path)
        #expect(run.status == .runtime && run.steps.count == 1)
        #expect(run.failure == .runtime("\(path):5: connection refused: ws://127.0.0.1:9/x"))
        // Said as the error it was, with the cause alone: its frame, never waited for, follows from it.
        #expect(run.steps.first?.gotNoAnswer == true)
        #expect(run.steps.first?.mismatches.map(\.actual) == ["connection refused: ws://127.0.0.1:9/x"], "\(run.steps)")
    }

    /// The pong to a typed ping is shown above the prompt and never
    /// written (heartbeat frames are not); a replay that ran `ws recv` the
    /// moment `ws send` returned handed the pong to it. A person types
    /// between the two: the replay of a REPL recording pauses as one would.
    @Test func aPongShownInTheREPLIsNotHandedToTheRecvAfterIt() async throws {
        let lines = [Self.chat[0], Self.chat[1], #"ws send {"type":"ping"}"#, "!pause", "ws recv --timeout 0.3"]
        let (path, text, _) = try await Self.record(lines, live: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(text.hasSuffix("> ws recv --timeout 0.3\nerror: no frame within 0.3 s\n\n"), "\(text)")
        let run = await Replayer(environment: [:]).run(path)
        #expect(run.status == .ok, "\(ReplayReport(palette: .plain).detailed(run).out)\n\(text)")
    }

    @Test func aFrameThatNeverComesIsADifferenceSaidPlainly() async throws {
        let (path, text, _) = try await Self.record(Array(Self.chat.prefix(4)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The last step (ws recv) now also expects a frame the server never sends.
        try (text + "(frames within 2 s)\n← {\"type\": \"typing\", \"user_id\": 2}\n").write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(environment: [:]).run(path)
        #expect(run.status == .mismatch)
        #expect(run.failedSteps.map(\.command) == ["ws recv"])
        // The ack came under `ws send` or under `ws recv`: the new frame is the last `←` of the step either way.
        let lastStep = text.components(separatedBy: "\n> ").last ?? ""
        let n = lastStep.components(separatedBy: "\n← ").count
        #expect(run.failedSteps.first?.mismatches == [Mismatch(.frame(.received, n, JSONPath(components: [])),
                                                               expected: #"{ "type": "typing", "user_id": 2 }"#, actual: "no frame within 2 s")])
        let out = ReplayReport(palette: .plain).detailed(run).out
        #expect(out.contains("          ← frame \(n)\n            expected { \"type\": \"typing\", \"user_id\": 2 }\n            got      no frame within 2 s\n"))
    }

    /// Frames a step expects after the socket closed for good (the server
    /// closed it, no reconnect coming) cannot come: the replay says so at
    /// once, where it waited each later step's whole timeout (5 s, 10 s)
    /// and said "no frame within 5 s" of a frame that was never sent.
    @Test func framesExpectedAfterTheSocketClosedAreSaidNotToComeAtOnce() async throws {
        let (path, text, _) = try await Self.record(["ws connect {{WS}}/__sandbox/echo --retries 0 --heartbeat 0", #"ws send {"n": 1}"#, "ws recv", "ws close"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The close moved before the send: the send and its echo come after the socket is gone.
        let steps = text.components(separatedBy: "\n> ")
        #expect(steps.count == 5, "\(text)")
        try ([steps[0], steps[1], steps[4], steps[2], steps[3]].joined(separator: "\n> ") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(environment: [:]).run(path)
        #expect(run.status == .mismatch)
        let sent = try #require(run.failedSteps.first { $0.command.hasPrefix("ws send") })
        #expect(sent.mismatches.contains(Mismatch(.frame(.sent, 1, JSONPath(components: [])), expected: #"{ "n": 1 }"#,
                                                  actual: "no frame: the socket was closed before it came")), "\(sent.mismatches)")
    }

    /// A receipt expected before the ack, that never comes: a difference in
    /// its place, not "out of order" (any order would not pass it either).
    @Test func aFrameThatNeverCameBeforeOneThatDidIsADifferenceNotAnOrder() async throws {
        let (path, text, _) = try await Self.record(Array(Self.chat.prefix(4)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The step with the ack now expects a receipt before it: the ack comes first, and no receipt at all.
        let receipt = "(frames within 2 s)\n← {\"type\": \"read\", ...}\n"
        let swapped = text.replacingOccurrences(of: "← {\n  \"type\": \"ack\",", with: receipt + "← {\n  \"type\": \"ack\",")
        #expect(swapped != text)
        try (swapped + "").write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(environment: [:]).run(path)
        #expect(run.status == .mismatch)
        let mismatches = run.failedSteps.first?.mismatches ?? []
        #expect(mismatches.first?.place == .frame(.received, 1, JSONPath(components: [.key("type")])), "\(mismatches)")
        #expect(!mismatches.contains { $0.actual.contains("out of order") }, "\(mismatches)")
    }

    /// A typed `{{NAME}}` the replay would not have (bound by a tour's replay,
    /// not by a recorded line) is written as the frame capture holding the
    /// same value, or as the value; names the replay will have stay.
    @Test func referencesAReplayWouldNotHaveAreWrittenSoItCanResolveThem() async throws {
        let lines = [
            "login alice@example.com alice123",
            "ws connect",
            #"ws send {"type":"message","client_message_id":"t-1","receiver_id":2,"content":"hi bob"}"#,
            "ws recv",
            "!set mine=4",
            "!set seven=7",
            "set city=Leeds",
            "login bob@example.com bob12345",
            "put /api/users/messages/{{mine}}/read",
            "get /api/tasks/{{seven}}",
            "get /api/tasks city=={{city}} page_size==1",
        ]
        let (path, text, _) = try await Self.record(lines)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(text.contains("\n> put /api/users/messages/{{message_id}}/read\n"))
        #expect(text.contains("\n> get /api/tasks/7\n"))
        #expect(text.contains("\n> get /api/tasks city=={{city}} page_size==1\n"))
        let run = await Replayer(environment: [:]).run(path)
        let report = ReplayReport(palette: .plain).detailed(run)
        #expect(run.status == .ok, "\(report.out)\(report.err)")
    }

    /// A profile's secret field hides a typed item's value too, however
    /// short and whatever its name looks like to the name rule.
    /// A text frame hides what its command line hides: `password=…` and
    /// JWT-shaped words, on the line, in the frame sent and in its echo.
    @Test func aTextFramesSecretsAreHiddenOnItsLineAndInItsFrames() async throws {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.SIGSECRETXYZ"
        let recorded = try await Self.record(["ws connect /__sandbox/echo", "ws send --text password=PLAINSECRET7",
                                              "ws send --text my token is \(jwt)"])
        defer { try? FileManager.default.removeItem(atPath: recorded.path) }
        for line in ["> ws send --text password={{secret:password}}", "→ (text) password={{secret:password}}",
                     "> ws send --text my token is {{secret:jwt}}", "→ (text) my token is {{secret:jwt}}"] {
            #expect(recorded.text.contains(line + "\n"), "\(recorded.text)")
        }
        #expect(!recorded.text.contains("PLAINSECRET7") && !recorded.text.contains("SIGSECRET"))
    }

    /// A text frame typed in quotes (sent with them) kept neither: its line
    /// was rebuilt without the quotes (the replay sent another frame), and
    /// its password was never learned, so the next password took its name.
    @Test func aQuotedTextFramesSecretIsItsOwnAndItsQuotesAreKept() async throws {
        let recorded = try await Self.record(["ws connect /__sandbox/echo", #"ws send --text "password=QUOTEDPW1""#,
                                              "ws send --text password=PLAINPW22", #"ws send {"password": "JSONPW333"}"#])
        defer { try? FileManager.default.removeItem(atPath: recorded.path) }
        for line in [#"> ws send --text "password={{secret:password}}""#, "> ws send --text password={{secret:password_2}}",
                     #"> ws send {"password": "{{secret:password_3}}"}"#] {
            #expect(recorded.text.contains(line + "\n"), "\(recorded.text)")
        }
        #expect(!recorded.text.contains("PW1") && !recorded.text.contains("PW22") && !recorded.text.contains("PW333"))
        let run = await Replayer(environment: ["EXPLORER_SECRET_PASSWORD": "QUOTEDPW1", "EXPLORER_SECRET_PASSWORD_2": "PLAINPW22",
                                               "EXPLORER_SECRET_PASSWORD_3": "JSONPW333"]).run(recorded.path)
        #expect(run.status == .ok, "\(ReplayReport(palette: .plain).detailed(run).out)")
    }

    /// A JWT inside a word (a browser app's `Sec-WebSocket-Protocol: chat,
    /// eyJ…`, a header of another name, a query) was written in clear on the
    /// line and in the answer's request line; each is `{{secret:jwt…}}` now,
    /// one name per value, and the transcript still replays.
    @Test func aJWTInsideAHeaderOrQueryIsHiddenOnTheLineAndWhereItShows() async throws {
        let first = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.FIRSTSECRETXYZ"
        let second = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIyIn0.SECONDSECRETXY"
        let recorded = try await Self.record(["ws connect /__sandbox/echo X-Proto:'chat, \(first)'", "ws close",
                                              "get /api/banners --offline X-Other:\(first) q==\(second)"])
        defer { try? FileManager.default.removeItem(atPath: recorded.path) }
        for line in ["> ws connect /__sandbox/echo 'X-Proto:chat, {{secret:jwt}}'",
                     "> get /api/banners --offline X-Other:{{secret:jwt}} q=={{secret:jwt_2}}",
                     // Hidden on the request line as in a header (--offline showed it).
                     "| GET /api/banners?q=<hidden: 51 characters> HTTP/1.1", "| X-Other: <hidden: 51 characters>"] {
            #expect(recorded.text.contains(line + "\n"), "\(recorded.text)")
        }
        #expect(!recorded.text.contains("SECRETXY"), "\(recorded.text)")
        let run = await Replayer(environment: ["EXPLORER_SECRET_JWT": first, "EXPLORER_SECRET_JWT_2": second]).run(recorded.path)
        #expect(run.status == .ok, "\(ReplayReport(palette: .plain).detailed(run).out)")
    }

    /// One value under two secret names in a sent frame (`token` and
    /// `data.api_key`) was written as both placeholders, and its replay asked
    /// for a second secret it did not need: it is one name, the first.
    @Test func oneSecretValueInAFrameIsOnePlaceholder() async throws {
        let recorded = try await Self.record(["ws connect /__sandbox/echo --heartbeat 0",
                                              #"ws send {"type":"echo","token":"V4lue-Secret-1","data":{"api_key":"V4lue-Secret-1"}}"#])
        defer { try? FileManager.default.removeItem(atPath: recorded.path) }
        #expect(recorded.text.contains(#"> ws send {"type":"echo","token":"{{secret:token}}","data":{"api_key":"{{secret:token}}"}}"#), "\(recorded.text)")
        let run = await Replayer(environment: ["EXPLORER_SECRET_TOKEN": "V4lue-Secret-1"]).run(recorded.path)
        #expect(run.status == .ok, "\(ReplayReport(palette: .plain).detailed(run).out)\(ReplayReport(palette: .plain).detailed(run).err)")
    }

    /// A `ws send` returned before its frame was written, so a script's
    /// recording wrote the frame under the next step, or the one after (two
    /// runs in three): each sent frame is under its own step.
    @Test func eachSentFrameIsWrittenUnderItsOwnStep() async throws {
        for _ in 0..<3 {
            let recorded = try await Self.record(["ws connect /__sandbox/echo --heartbeat 0", #"ws send {"n":1}"#, #"ws send {"n":2}"#, #"ws send {"n":3}"#])
            defer { try? FileManager.default.removeItem(atPath: recorded.path) }
            let steps = recorded.text.components(separatedBy: "\n> ")
            for n in 1...3 {
                let step = steps.first { $0.hasPrefix("ws send {\"n\":\(n)}\n") }
                #expect(step?.contains("→ {\n  \"n\": \(n)\n}\n") == true, "\(recorded.text)")
            }
        }
    }

    @Test func typedItemsNamedAsAProfileSecretFieldAreHidden() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fields-\(UUID().uuidString).transcript").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withSandboxInterpreter { interpreter, server in
            let recorder = try TranscriptRecorder(path: path, header: .make(profile: "linku", target: .sandbox),
                                                  renderer: Renderer(palette: .plain, envelope: Profile.linku.errorEnvelope),
                                                  baseURL: server.baseURL.absoluteString, secrets: SecretScrubber(),
                                                  secretFields: SecretFields(["sid", "auth.pin"]))
            // Logged in: a value typed in a line the server answered 401 would be `wrong_NAME`.
            for line in ["login alice@example.com alice123", "get /api/tasks sid==k9 page_size==1", "post /api/tasks title=x pin:=1234 note={{city}}"] {
                let command = try CommandParser(variables: ["city": "Leeds"]).parse(line)
                try recorder.record(line: line, command: command, outcome: await interpreter.execute(command), forcedOffline: false)
            }
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\n> get /api/tasks sid=={{secret:sid}} page_size==1\n"))
        #expect(text.contains("\n> post /api/tasks title=x pin:={{secret:pin}} note={{city}}\n"))
        #expect(!text.contains("k9") && !text.contains("1234"))
    }
}
