import Core
import Foundation
import Sandbox
import Testing
@testable import Explorer

/// A session driven in-process through its `SessionController`, as the REPL,
/// `explorer run` and a pipe drive one, with a `FakeTerminal` for the user:
/// a REPL line, a parse error and its caret, Ctrl-C during a request, a
/// recorded step, a replayed one and a tour's; `{{secret:NAME}}` typed in a
/// line (issue 11, #22) and a recording started mid-session (#21).
@Suite struct SessionControllerTests {
    /// Runs `body` with a controller on a fresh LinkU sandbox, on a thread of
    /// its own: the controller blocks its caller while the interpreter works.
    static func withController<T: Sendable>(_ terminal: FakeTerminal = FakeTerminal(interactive: false),
                                            profile: Profile = .linku, target: LiveSession.Target = .sandbox(),
                                            environment: [String: String] = [:],
                                            _ body: @escaping @Sendable (SessionController) throws -> T) async throws -> T {
        let live = try await LiveSession.open(profile: profile, target: target)
        let interpreter = live.interpreter
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>, Never>) in
            Thread {
                let controller = SessionController(interpreter: interpreter, renderer: Renderer(palette: .plain, envelope: Profile.linku.errorEnvelope),
                                                   terminal: terminal, offline: false, target: .sandbox)
                controller.environment = environment
                let result = Result { try body(controller) }
                controller.finishRecording()
                continuation.resume(returning: result)
            }.start()
        }
        await live.close()
        return try result.get()
    }

    @Test func aREPLLineRunsShowsItsAnswerAndIsRememberedWithoutItsPassword() async throws {
        let terminal = FakeTerminal(answers: [.type("login alice@example.com alice123"), .ctrlC, .type("get /api/tasks page_size==1"), .ctrlD])
        let status = try await Self.withController(terminal) { $0.repl() }
        #expect(status == .ok)
        #expect(terminal.prompts == ["linku> ", "linku alice> ", "linku alice> ", "linku alice> "])
        #expect(terminal.output.contains("logged in as alice"), "\(terminal.output)")
        #expect(terminal.output.contains("HTTP/1.1 200 OK") && terminal.output.contains(#""page_size": 1"#), "\(terminal.output)")
        #expect(terminal.history == ["login alice@example.com", "get /api/tasks page_size==1"])
    }

    /// `{{secret:}}` was told to set EXPLORER_SECRET_.
    @Test func aSecretPlaceholderWithNoNameSaysSo() async throws {
        let terminal = FakeTerminal(interactive: false)
        let status = try await Self.withController(terminal, profile: .generic, target: .url(nowhere)) { $0.step("get /x?a={{secret:}}").status }
        // A malformed line (exit 1, as README says), not a request that failed (it exited 3).
        #expect(status == .usage)
        #expect(terminal.errors == "error: '{{secret:}}' names no secret: write {{secret:NAME}}\n", "\(terminal.errors)")
    }

    /// A recording begun with a socket open: the login went into its header,
    /// the socket nowhere, and its `ws send` steps failed every replay.
    @Test func recordingWithASocketOpenSaysTheSocketIsNotInIt() async throws {
        let path = Scratch.file("open-socket", extension: "transcript").path
        let terminal = FakeTerminal(answers: [.type("ws connect /__sandbox/echo --heartbeat 0"), .type("record \(path)"), .type("record stop"),
                                              .type("ws close"), .type("record \(path)2"), .ctrlD])
        _ = try await Self.withController(terminal) { $0.repl() }
        defer { try? FileManager.default.removeItem(atPath: path + "2") }
        let said = "the open WebSocket is not in the recording, and a replay has none: ws close, then ws connect, records it"
        #expect(terminal.output.components(separatedBy: said).count == 2, "\(terminal.output)")
    }

    @Test func aParseErrorGetsItsCaretUnderTheTypedLineAndTheREPLGoesOn() async throws {
        let terminal = FakeTerminal(answers: [.type("get /api/tasks ß:v"), .type("whoami now"), .type("post /api/tasks title=修自行车 --folow"),
                                              .type("exit"), .type("never read")])
        let status = try await Self.withController(terminal) { $0.repl() }
        #expect(status == .ok)
        // "linku> " is 7 wide; the header name starts at column 15 of the line.
        let lines = terminal.errors.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(terminal.errors)")
        #expect(lines[0] == String(repeating: " ", count: 7 + 15) + "^")
        #expect(lines[1].hasPrefix("error: ") && lines[1].contains("ß"))
        #expect(lines[2] == String(repeating: " ", count: 7 + 7) + "^")
        #expect(lines[3] == "error: whoami takes no arguments")
        // Under the unknown option, counting each Chinese character as the two columns it takes (it was 4 columns left).
        #expect(lines[4] == String(repeating: " ", count: 7 + "post /api/tasks title=".count + 8 + " ".count) + "^", "\(terminal.errors)")
        #expect(terminal.prompts.count == 4, "exit ends the loop")
    }

    /// A line read on at `... ` had its caret under the last part, at the
    /// whole line's column; one holding `{{secret:NAME}}` at the column of
    /// the filled line (past the fault by the secret's length less the placeholder's).
    @Test func aCaretIsUnderTheLineAsTypedAndAsJoined() async throws {
        let terminal = FakeTerminal(answers: [.type("ws send {"), .type("\"a\": 1,"), .type("bad}"), .type("get /api/tasks X-A:{{secret:password}} bad"),
                                              .type(#"get /api/tasks  X-A:"{{secret:password}}"   bad"#), .type("exit")], secrets: ["alice123", "alice123"])
        let status = try await Self.withController(terminal) { $0.repl() }
        #expect(status == .ok)
        let lines = terminal.errors.split(separator: "\n").map(String.init)
        try #require(lines.count == 7, "\(terminal.errors)")
        #expect(lines[0] == #"ws send { "a": 1, bad}"#, "the joined line, shown again: \(terminal.errors)")
        #expect(lines[1] == String(repeating: " ", count: #"ws send { "a": 1, "#.count) + "^", "\(terminal.errors)")
        #expect(lines[3] == String(repeating: " ", count: 7 + "get /api/tasks X-A:{{secret:password}} ".count) + "^", "\(terminal.errors)")
        // Filled word by word and joined again, the line lost its quotes and its double spaces.
        #expect(lines[5] == String(repeating: " ", count: 7 + #"get /api/tasks  X-A:"{{secret:password}}"   "#.count) + "^", "\(terminal.errors)")
    }

    @Test func aScriptLineNamesItsPlaceAndHasNoCaret() async throws {
        let terminal = FakeTerminal(interactive: false)
        let status = try await Self.withController(terminal) { $0.script(["vars", "lgoin x"], name: "my.script") }
        #expect(status == .usage)
        #expect(terminal.errors == "my.script:2: error: unknown command 'lgoin'; did you mean 'login'? (type help for the list)\n")
    }

    @Test func ctrlCDuringARequestCancelsItAndTheSessionGoesOn() async throws {
        // A server that never answers: without Ctrl-C the request would wait for the 30 s deadline.
        let silent = try SilentListener()
        let terminal = FakeTerminal()
        let (cancelled, waited, after) = try await Self.withController(terminal, profile: .generic, target: .url(silent.url)) { controller in
            terminal.pressCtrlC(after: .milliseconds(300))
            let started = ContinuousClock.now
            let cancelled = controller.step("get /anything")
            let waited = ContinuousClock.now - started
            return (cancelled, waited, controller.step("set a=1"))
        }
        #expect(waited < .seconds(20), "the request was not left to time out (30 s)")
        #expect(cancelled.status == .runtime && !cancelled.exit)
        #expect(terminal.errors.contains(Interpreter.cancelled), "\(terminal.errors)")
        #expect(after.status == .ok)
    }

    /// Printing a long text to a terminal takes minutes: Ctrl-C stops it
    /// after the block being written, and the session goes on.
    @Test func ctrlCStopsALongOutput() async throws {
        let terminal = FakeTerminal(interactive: true)
        let body = String(repeating: "0123456789abcdef\n", count: 20_000)
        let step = try await Self.withController(terminal) { controller in
            terminal.pressCtrlC(afterWrites: 2)
            return controller.step("post /x --raw '\(body)' --offline")
        }
        #expect(step.status == .ok)
        #expect(terminal.output.hasSuffix("\n(stopped: Ctrl-C)\n"))
        #expect(terminal.output.utf8.count < 200 * 1024, "two blocks of 64 KiB, not all 340 KB")
    }

    @Test func aMissingPasswordIsAskedForWithoutEchoAtThePrompt() async throws {
        let terminal = FakeTerminal(answers: [.type("alice@example.com")], secrets: ["alice123"])
        let step = try await Self.withController(terminal) { $0.step("login") }
        #expect(step.status == .ok)
        #expect(terminal.prompts == ["email: ", "password: "])
        #expect(terminal.output.contains("logged in as alice"))
        #expect(!terminal.output.contains("alice123") && terminal.history.isEmpty)
    }

    @Test func aRecordedStepIsWrittenAsItCompletes() async throws {
        let path = Self.temporary("recorded-step")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let terminal = FakeTerminal()
        let written = try await Self.withController(terminal) { controller in
            _ = controller.step("record \(path)")
            _ = controller.step("login alice@example.com alice123")
            // Written before the session ends: nothing recorded waits for `record stop`.
            let written = try String(contentsOfFile: path, encoding: .utf8)
            _ = controller.step("record stop")
            return written
        }
        #expect(terminal.output.contains("recording to \(path)") && terminal.output.contains("recorded 1 step to \(path)"))
        #expect(written.contains("\n> login alice@example.com {{secret:password}}\nHTTP/1.1 200 OK\n"), "\(written)")
        #expect(!written.contains("alice123"))
    }

    @Test func aReplayedStepIsComparedInTheSession() async throws {
        let path = Self.temporary("replayed")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        # explorer transcript v1
        profile: linku
        base-url: sandbox

        > set greeting=hello

        > get /api/tasks page_size==1
        HTTP/1.1 401 Unauthorized
        {{*}}
        error: 401 UNAUTHORIZED: {{*}}

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let terminal = FakeTerminal()
        let (step, greeting) = try await Self.withController(terminal) { controller in
            (controller.step("replay \(path)"), controller.interpreter.allVariables["greeting"])
        }
        #expect(step.status == .ok, "\(terminal.output)\(terminal.errors)")
        #expect(greeting == "hello", "the replay's variables stay in the session")
        #expect(terminal.output.contains("2 steps: 2 passed"), "\(terminal.output)")
    }

    @Test func aTourStepPutsItsCommandOnTheLineAndSaysWhetherItWentAsExpected() async throws {
        let terminal = FakeTerminal(answers: [.accept, .type(""), .ctrlC])
        let step = try await Self.withController(terminal) { $0.step("tour linku/login") }
        #expect(step.status == .ok)
        #expect(terminal.prompts.first?.hasPrefix("tour 1/") == true, "\(terminal.prompts)")
        #expect(terminal.output.contains("Tour linku/login"))
        #expect(terminal.output.contains("✓ as the tour expected"), "\(terminal.output)")
        #expect(terminal.output.contains("(skipped)"))
        #expect(terminal.output.contains("tour ended at step 3"), "\(terminal.output)")
        #expect(terminal.history.first == "login alice@example.com", "history keeps no password, not even a placeholder")
    }

    /// Issue 14: `history [N]` lists past lines, numbered, secrets hidden as history keeps them.
    @Test func historyListsTheLastLinesWithSecretsHidden() async throws {
        let terminal = FakeTerminal(interactive: true, answers: [.type("set city=Leeds"), .type("set token hunter2"),
                                                                 .type("auth bearer hunter3"), .type("history 3"), .type("history x"), .ctrlD])
        _ = try await Self.withController(terminal) { $0.repl() }
        #expect(terminal.output.contains("2  set token {{secret:token}}\n3  auth bearer {{secret:token}}\n4  history 3\n"), "\(terminal.output)")
        #expect(!terminal.output.contains("1  set city=Leeds"), "only the last 3")
        #expect(!terminal.output.contains("hunter"))
        #expect(terminal.errors.contains("history takes a number of lines, such as history 10"))
        let script = FakeTerminal(interactive: false)
        let step = try await Self.withController(script) { $0.step("history") }
        #expect(step.status == .usage)
        #expect(script.errors == "error: history is kept by the REPL at a terminal; a script has none\n")
    }

    /// A value the session holds as a secret, typed again where no syntax
    /// says so, was kept in clear in the history while the screen and the
    /// transcript hid it (`?token=X` then `ws send {"t":"X"}`).
    @Test func historyHidesAValueTheSessionHoldsAsASecretWhereverItIsTypedAgain() async throws {
        let terminal = FakeTerminal(interactive: true, answers: [.type("set token=sk-live-SECRET123456"), .type("get /api/banners q==sk-live-SECRET123456"),
                                                                 .type(#"ws send {"t":"sk-live-SECRET123456"}"#), .ctrlD])
        _ = try await Self.withController(terminal) { $0.repl() }
        #expect(terminal.history == ["set token={{secret:token}}", "get /api/banners q=={{secret:token}}", #"ws send {"t":"{{secret:token}}"}"#],
                "\(terminal.history)")
    }

    /// A field the profile marks secret is hidden in the history as the
    /// usual names are (a transcript hides it too).
    @Test func historyHidesTheProfilesSecretFields() async throws {
        var profile = Profile.linku
        profile.secretFields.append("session_key")
        let terminal = FakeTerminal(interactive: true, answers: [.type("post /api/tasks title=x session_key=sk_abcdefghijk --offline"),
                                                                 .type("history 1"), .ctrlD])
        _ = try await Self.withController(terminal, profile: profile) { $0.repl() }
        #expect(terminal.history.contains("post /api/tasks title=x session_key={{secret:session_key}} --offline"), "\(terminal.history)")
        #expect(!terminal.history.joined().contains("sk_abc"))
    }

    @Test func envNeedsAProfileFile() async throws {
        let terminal = FakeTerminal(interactive: false)
        let step = try await Self.withController(terminal) { $0.step("env staging") }
        #expect(step.status == .usage)
        #expect(terminal.errors == "error: env moves between a profile's environments, and this session has one server: start with --profile NAME|FILE, without --base-url (docs/profiles.md)\n")
    }

    @Test func aTourNeedsSomeoneAtTheKeyboard() async throws {
        let terminal = FakeTerminal(interactive: false)
        let step = try await Self.withController(terminal) { $0.step("tour linku/login") }
        #expect(step.status == .usage)
        #expect(terminal.errors.contains("needs the REPL"))
    }

    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).transcript").path
    }

    /// What a script records: `before` runs unrecorded, then `record FILE`,
    /// then `lines`; the file's text and the terminal the script wrote to.
    static func recording(_ lines: [String], after before: [String] = []) async throws -> (text: String, terminal: FakeTerminal) {
        let path = temporary("recording")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let terminal = FakeTerminal(interactive: false)
        _ = try await withController(terminal) { controller in controller.script(before + ["record \(path)"] + lines, name: "t") }
        return (try String(contentsOfFile: path, encoding: .utf8), terminal)
    }

    /// As tours show it: the demo password fills the placeholder, and a
    /// recording writes the line as typed. Before, the parser took
    /// `{{secret:password}}` for a variable and said to `set secret:password=…`,
    /// which it then refused.
    @Test func aSecretPlaceholderTypedInAScriptIsFilledInAsOnReplay() async throws {
        let path = Self.temporary("typed-secret")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, loggedIn, missing) = try await Self.withController { controller in
            try controller.startRecording(path)
            let status = controller.script(["login alice@example.com {{secret:password}}"], name: "t")
            let loggedIn = runBlocking { [interpreter = controller.interpreter] in await interpreter.session.tokens != nil }
            let missing = controller.script(["get /api/tasks X-Api-Key:{{secret:api_key}}"], name: "t")
            controller.finishRecording()
            return (status, loggedIn, missing)
        }
        #expect(status == .ok && loggedIn)
        // Nobody to ask in a script: the line fails, naming what to set.
        #expect(missing == .runtime)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\n> login alice@example.com {{secret:password}}\nHTTP/1.1 200 OK\n"), "\(text)")
        #expect(!text.contains("alice123") && !text.contains("X-Api-Key"))
        #expect(await Replayer(environment: [:]).run(path).status == .ok)
    }

    /// Two logins with two passwords were both written `{{secret:password}}`,
    /// so a replay against a real server gave bob alice's. The second gets
    /// a name of its own; on a sandbox the demo accounts still supply both.
    @Test func aSecondLoginsPasswordIsRecordedUnderANameOfItsOwn() async throws {
        let path = Self.temporary("two-logins")
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try await Self.withController { controller in
            try controller.startRecording(path)
            _ = controller.script(["login alice@example.com alice123", "login bob@example.com bob12345", "login alice@example.com alice123"], name: "t")
            controller.finishRecording()
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let logins = text.split(separator: "\n").filter { $0.hasPrefix("> login") }
        #expect(logins == ["> login alice@example.com {{secret:password}}", "> login bob@example.com {{secret:password_2}}",
                           "> login alice@example.com {{secret:password}}"], "\(text)")
        #expect(await Replayer(environment: [:]).run(path).status == .ok)
        var resolver = SecretResolver(environment: ["EXPLORER_SECRET_PASSWORD_2": "from-env"], demoAccounts: [])
        resolver.demoPasswordsFirst = false
        #expect(try resolver.value("password_2", email: "bob@example.com") == "from-env")
        #expect(try SecretResolver(environment: [:], demoAccounts: [("bob@example.com", "bob12345")]).value("password_2", email: "bob@example.com") == "bob12345")
    }

    /// The environment supplies a placeholder no rule fills.
    /// The answer echoes it (the task's title): shown hidden, as a carried credential is.
    /// Sent again in later lines (a captured copy, under a name that is not
    /// secret) it stays hidden: in their answers, in the request `-v` and
    /// `--offline` show (a query's `from%20the%20environment` too), and as
    /// `"$TITLE"` in `--curl`; `vars` hides the captured copy.
    @Test func aSecretPlaceholderComesFromTheEnvironment() async throws {
        let terminal = FakeTerminal(interactive: false)
        let status = try await Self.withController(terminal, environment: ["EXPLORER_SECRET_TITLE": "from the environment"]) { controller in
            controller.script(["login alice@example.com {{secret:password}}", "post /api/tasks title={{secret:title}} price:=5 city=Leeds",
                               "capture title = .title", "post /api/tasks title={{title}} price:=5 city=Leeds -v",
                               "get /api/tasks q=={{title}} X-Note:{{title}} --offline", "post /api/tasks title={{title}} q=={{title}} --curl", "vars"], name: "t")
        }
        #expect(status == .ok)
        let out = terminal.output
        #expect(!out.contains("from the environment") && !out.contains("from%20the%20environment") && !out.contains("from+the+environment"), "\(out)")
        #expect(out.components(separatedBy: "\"title\": \"<hidden: 20 characters>\"").count == 4, "\(out)")
        #expect(out.contains("X-Note: <hidden: 20 characters>"), "\(out)")
        #expect(out.contains("\ntitle = <hidden: 20 characters>\n"), "vars: a captured copy is the secret too: \(out)")
        #expect(out.contains(#"--data-raw '{"title":"'"$TITLE"'"}'"#) && out.contains(#"?q='"$TITLE""#), "\(out)")
    }

    /// A body typed whole with two passwords (`--raw`, a form's or JSON's)
    /// gave `--curl` one `$PASSWORD` for both: the command sent the first
    /// twice. One value met twice is one variable.
    @Test func curlNamesEachPasswordOfARawBodyApart() async throws {
        let terminal = FakeTerminal(interactive: false)
        let status = try await Self.withController(terminal) { controller in
            controller.script([#"post /api/tasks --raw '{"password":"a1x","old":{"password":"c3x"},"again":{"password":"a1x"}}' --curl"#,
                               "post /api/tasks --form --raw 'password=a1x&x=1&password=b2x' --curl"], name: "t")
        }
        #expect(status == .ok)
        let out = terminal.output
        #expect(!out.contains("a1x") && !out.contains("b2x") && !out.contains("c3x"), "\(out)")
        #expect(out.contains(#"--data-raw '{"password":"'"$PASSWORD"'","old":{"password":"'"$PASSWORD_2"'"},"again":{"password":"'"$PASSWORD"'"}}'"#), "\(out)")
        #expect(out.contains(#"--data-raw 'password='"$PASSWORD"'&x=1&password='"$PASSWORD_2""# + "\n"), "\(out)")
    }

    /// A service's key inside a longer value (`--raw 'ghp_…'`, a note
    /// `see sk_live_… here`) was written in clear in the recording (and
    /// history), and `--curl` printed such keys in a body or a query, and a
    /// variable holding one, which `vars` hides.
    @Test func aServiceKeyInsideAValueIsHiddenInRecordingsAndCurl() async throws {
        let github = "ghp_abcdefghijklmnopqrstuvwxyz0123456789", stripe = "sk_live_51Habcdefghijklmnopqrstuv"
        let (text, terminal) = try await Self.recording(["post /api/tasks --raw '\(github)' --curl", "post /api/tasks title='see \(stripe) here'",
                                                          "set k=\(github)", "post /api/tasks a={{k}} --curl", "get /api/tasks q==AKIAIOSFODNN7EXAMPLE --curl"],
                                                         after: ["login alice@example.com alice123"])
        #expect(!text.contains("ghp_") && !text.contains("sk_live_") && !text.contains("AKIA"), "\(text)")
        #expect(text.contains("title='see {{secret:service_key_2}} here'"), "\(text)")
        let out = terminal.output
        #expect(!out.contains("ghp_") && !out.contains("AKIA"), "\(out)")
        #expect(out.contains(#"--data-raw "$SERVICE_KEY""#) && out.contains(#"--data-raw '{"a":"'"$K"'"}'"#) && out.contains(#"?q='"$SERVICE_KEY""#), "\(out)")
    }

    /// A value typed in clear and known as a secret only later (`set cs=…`,
    /// then `client_secret={{cs}}`) stayed in clear in the recording's steps
    /// before, where the history file was rewritten. The file is rewritten
    /// too, and the recording goes on in it.
    @Test func aValueLearnedSecretLaterIsWrittenOutOfTheRecording() async throws {
        let (text, _) = try await Self.recording(["set cs=Kk9cs-Value-abc", "get /api/tasks note==Kk9cs-Value-abc",
                                                  "post /api/tasks --form client_secret={{cs}}", "get /api/tasks/1"])
        #expect(!text.contains("Kk9cs"), "\(text)")
        #expect(text.contains("> set cs={{secret:client_secret}}\n") && text.contains("> get /api/tasks note=={{secret:client_secret}}\n"), "\(text)")
        #expect(text.contains("> get /api/tasks/1\n"), "the recording goes on: \(text)")
        // The header is no step: `profile: linku` became `profile: {{secret:client_secret}}`, which did not replay.
        let (named, _) = try await Self.recording(["set cs=linku", "post /api/tasks --form client_secret={{cs}}"])
        #expect(named.hasPrefix("# explorer transcript v1\nprofile: linku\n") && named.contains("> set cs={{secret:client_secret}}\n"), "\(named)")
    }

    /// An OAuth 2 authorization code sent to a token endpoint was shown in
    /// its echo, written in clear in the recording and printed by `--curl`.
    @Test func anOAuthCodeIsHiddenInItsEchoItsRecordingAndCurl() async throws {
        let code = "SplxlOBeZQQYbYS6WxSbIA"
        let (text, terminal) = try await Self.recording(["post /api/tasks --form grant_type=authorization_code code=\(code) client_id=app -v",
                                                          "post /api/tasks grant_type=authorization_code code=\(code) --curl"],
                                                         after: ["login alice@example.com alice123"])
        #expect(!text.contains(code) && text.contains("code={{secret:code}}"), "\(text)")
        #expect(!terminal.output.contains(code) && terminal.output.contains(#"'"$CODE"'"#), "\(terminal.output)")
    }

    /// Logged in, `-a user:pw --curl` printed curl's `-u` and the session's
    /// `Authorization: Bearer` both: curl sent the Bearer header (a `-H`
    /// wins over `-u`), the access token, where the line sent Basic alone.
    @Test func curlOfATypedBasicCredentialCarriesNoSessionToken() async throws {
        let terminal = FakeTerminal(interactive: false)
        let status = try await Self.withController(terminal) { controller in
            controller.script(["login alice@example.com alice123", "post /api/tasks -a svc:s3cret --form a=b --curl", "get /api/tasks --curl"], name: "t")
        }
        #expect(status == .ok)
        let lines = terminal.output.split(separator: "\n").filter { $0.hasPrefix("curl ") }
        #expect(lines.count == 2 && lines[0].contains(#"-u 'svc:'"$PASSWORD""#) && !lines[0].contains("Authorization"), "\(lines)")
        #expect(lines[1].contains(#"-H 'Authorization: Bearer '"$ACCESS_TOKEN""#), "\(lines)")
    }

    /// A shorter secret inside the session's token (a PIN's digits, a typed
    /// `X-Api-Key:Bearer`) stood for that part of it in `--curl`, and the
    /// rest of the token was printed in clear: a credential header is its
    /// variable whole or after its scheme.
    @Test func curlNeverPrintsPartOfATokenAShorterSecretIsIn() async throws {
        let terminal = FakeTerminal(interactive: false)
        let status = try await Self.withController(terminal) { controller in
            controller.script(["auth bearer abcd1111efgh", "post /api/tasks pin=1111 --curl",
                               "get /api/tasks Authorization:'Bearer wxyz1111uvst' pin==1111 --curl", "get /api/tasks X-Api-Key:Bearer --curl"], name: "t")
        }
        #expect(status == .ok)
        let out = terminal.output
        #expect(!out.contains("abcd") && !out.contains("efgh") && !out.contains("wxyz") && !out.contains("uvst"), "\(out)")
        // (The screen hides the typed key `Bearer` wherever it shows, the scheme's word too.)
        #expect(out.components(separatedBy: #"-H 'Authorization: Bearer '"$TOKEN""#).count == 3 && out.hasSuffix(#" '"$TOKEN""# + "\n"), "\(out)")
    }

    /// A setting's confirmation went to standard output in a script:
    /// `-c 'header apikey:…' -c 'get /x -b' | jq` failed on its lines. In a
    /// script it goes to standard error; `header` alone lists on standard output.
    @Test func aSettingsConfirmationInAScriptIsNoOutput() async throws {
        let terminal = FakeTerminal(interactive: false)
        let status = try await Self.withController(terminal) { controller in
            controller.script(["login alice@example.com alice123", "header X-Client:ios", "defaults --timeout 5", "cookies clear", "get /api/tasks/1 -b", "header"],
                              name: "t")
        }
        #expect(status == .ok)
        #expect(terminal.output.contains("logged in as alice\n{\n  \"id\": 1,") && terminal.output.components(separatedBy: "X-Client: ios").count == 2,
                "\(terminal.output)")
        #expect(terminal.errors.components(separatedBy: "X-Client: ios").count == 2 && terminal.errors.contains("--timeout 5")
                && terminal.errors.contains("forgot 0 cookies"), "\(terminal.errors)")
    }

    /// `--curl` left out where the body goes (`-o`, `--download`, which
    /// follows redirects too), and printed `-X PUT -L` without a word that
    /// curl PUTs again after a 303, where the line follows with a GET.
    @Test func curlSavesWhereTheLineSavesAndSaysWhereItFollowsOtherwise() async throws {
        let terminal = FakeTerminal(interactive: false)
        let status = try await Self.withController(terminal) { controller in
            controller.script(["get /api/tasks -o tasks.json --curl", "get /api/tasks --download --curl",
                               "put /api/tasks/1 title=x --follow --curl", "post /api/tasks title=x --follow --curl"], name: "t")
        }
        #expect(status == .ok)
        let lines = terminal.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("curl -o 'tasks.json' '") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("curl -L --max-redirs 30 -O -J '") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("curl -X PUT -L ") }, "\(lines)")
        #expect(lines.filter { $0 == "# with -X and -L curl sends PUT again after a 303 (explorer follows with GET), "
                                  + "and without its body after a 301 or 302 (explorer sends it again)" }.count == 1, "\(lines)")
    }

    /// `set apikey=…` is hidden by `vars`, but a line that sent it on
    /// (`title={{apikey}}`) had it echoed in clear, and `--curl` printed it.
    @Test func aSecretNamedVariableIsHiddenWhereverItGoes() async throws {
        let terminal = FakeTerminal(interactive: false)
        _ = try await Self.withController(terminal) { controller in
            controller.script(["login alice@example.com alice123", "set apikey=litVAR12345",
                               "post /api/tasks title={{apikey}} price:=5 city=Leeds", "get /api/tasks q=={{apikey}} --curl"], name: "t")
        }
        #expect(!terminal.output.contains("litVAR12345"), "\(terminal.output)")
        #expect(terminal.output.contains(#""title": "<hidden: 11 characters>""#) && terminal.output.contains(#"q='"$APIKEY""#), "\(terminal.output)")
    }

    /// A secret typed as one (an `X-Api-Key:` item, `?token=` on a socket)
    /// was hidden in its own line's echo but not in a later one that sent it
    /// under another name, nor in frames.
    @Test func aSecretTypedAsOneIsHiddenWhereverItIsEchoedLater() async throws {
        let terminal = FakeTerminal(interactive: false)
        _ = try await Self.withController(terminal) { controller in
            controller.script(["login alice@example.com alice123", "get /api/tasks page_size==1 X-Api-Key:litKEY12345",
                               "post /api/tasks title=litKEY12345 price:=5 city=Leeds", "get /api/tasks q==litKEY12345 --curl",
                               "ws connect /__sandbox/echo?token=litTOK12345", #"ws send {"n":"litTOK12345"}"#, "ws recv"], name: "t")
        }
        #expect(!terminal.output.contains("litKEY12345") && !terminal.output.contains("litTOK12345"), "\(terminal.output)")
        #expect(terminal.output.contains(#"q='"$X_API_KEY""#), "\(terminal.output)")
    }

    /// `login EMAIL` in a script was told "login needs an email and a
    /// password: login EMAIL PASSWORD", as if the password had to be written
    /// in the file: a script gives it from the environment.
    @Test func aScriptsLoginWithoutAPasswordSaysHowToGiveOne() async throws {
        let terminal = FakeTerminal(interactive: false)
        _ = try await Self.withController(terminal) { $0.script(["login alice@example.com"], name: "t") }
        #expect(terminal.errors.contains("login needs a password, and there is no terminal to ask at: "
                                         + "login EMAIL {{secret:password}}, with the password in EXPLORER_SECRET_PASSWORD"), "\(terminal.errors)")
        let given = FakeTerminal(interactive: false)
        _ = try await Self.withController(given, environment: ["EXPLORER_SECRET_PASSWORD": "alice123"]) {
            $0.script(["login alice@example.com {{secret:password}}"], name: "t")
        }
        #expect(given.output.contains("logged in as alice"), "\(given.output) \(given.errors)")
    }

    /// Ctrl-C or Ctrl-D at `login`'s password prompt went back to the
    /// prompt without a word: that the login was abandoned is said.
    @Test func anAbandonedPasswordPromptSaysSo() async throws {
        let terminal = FakeTerminal(interactive: true, answers: [.type("login alice@example.com"), .ctrlD])
        _ = try await Self.withController(terminal) { $0.repl() }
        #expect(terminal.prompts.contains("password: "))
        #expect(terminal.errors.contains("login abandoned (nothing sent)\n"), "\(terminal.errors)")
    }

    /// A 401 to a session that never logged in showed the server's refusal
    /// alone; what to do is said on screen, and not recorded (a suite
    /// recorded before would differ by it).
    @Test func aRefusalBeforeAnyLoginSaysToLogIn() async throws {
        let (recorded, terminal) = try await Self.recording(["get /api/users/profile/me", "login alice@example.com alice123", "get /api/users/profile/me"])
        #expect(terminal.output.components(separatedBy: Interpreter.notLoggedIn).count == 2, "said once, before the login: \(terminal.output)")
        #expect(!recorded.contains("not logged in"))
    }

    /// Two secrets of one name in one line (`api_key==A Api-Key:B`) were
    /// both written `{{secret:api_key_2}}`, and a replay sent B twice.
    @Test func twoSecretsOfOneNameInALineAreWrittenApart() async throws {
        let (recorded, _) = try await Self.recording(["get /api/tasks/categories api_key==AAAA1111 Api-Key:BBBB2222",
                                                      "ws connect /__sandbox/echo?api_key=CCCC3333 Api-Key:DDDD4444", "ws close"],
                                                     after: ["login alice@example.com alice123"])
        #expect(recorded.contains("> get /api/tasks/categories api_key=={{secret:api_key}} Api-Key:{{secret:api_key_2}}\n"), "\(recorded)")
        #expect(recorded.contains("> ws connect /__sandbox/echo?api_key={{secret:api_key_4}} Api-Key:{{secret:api_key_3}}\n"), "\(recorded)")
    }

    /// A frame whose `.message.id` came before was dropped on any socket:
    /// an edit of a message never showed, and `ws recv 2` said the second
    /// "did not come". Only a socket that catches up after a reconnect
    /// (the profile's `reconcile:`) tells frames apart by id.
    @Test func framesWithAnIdSeenBeforeAreAllShownOnASocketThatDoesNotReconcile() async throws {
        let terminal = FakeTerminal(interactive: false)
        _ = try await Self.withController(terminal) { controller in
            controller.script(["ws connect /__sandbox/echo",
                               #"ws send {"type":"message.created","message":{"id":7,"text":"hello"}}"#,
                               #"ws send {"type":"message.edited","message":{"id":7,"text":"hello (edited)"}}"#,
                               "ws recv 2 --timeout 5", "ws status"], name: "t")
        }
        #expect(terminal.output.contains("hello (edited)") && !terminal.errors.contains("got 1 of 2"), "\(terminal.output)\(terminal.errors)")
        #expect(terminal.output.contains("duplicates dropped: 0"), "\(terminal.output)")
    }

    /// A credential header on a `ws connect` line was written in clear (the
    /// line's URL was rewritten, its headers left as typed), where a
    /// request line's is `{{secret:x_api_key}}`.
    @Test func aSocketsCredentialHeaderIsHiddenInItsRecording() async throws {
        let (recorded, _) = try await Self.recording(["ws connect /__sandbox/echo X-Api-Key:litKEY12345", "ws close"])
        #expect(recorded.contains("> ws connect /__sandbox/echo X-Api-Key:{{secret:x_api_key}}\n"), "\(recorded)")
        #expect(!recorded.contains("litKEY12345"))
    }

    /// A recording begun partway through a session wrote a variable holding
    /// a secret of the session's in clear in its header (`var: note=… key`),
    /// and an answer's echo of the session's refresh token: it knows the
    /// session's secrets so far.
    @Test func aRecordingBegunMidSessionKnowsTheSessionsSecretsSoFar() async throws {
        let (text, _) = try await Self.recording(["post /api/tasks title=sk-live-SECRET123456 price:=5 city=Leeds"],
                                                 after: ["login alice@example.com alice123", "set token=sk-live-SECRET123456",
                                                         "set note=\"the key is sk-live-SECRET123456\"", "set city=Leeds"])
        #expect(text.contains("var: note={{secret:note}}\n") && text.contains("var: token={{secret:token}}\n") && text.contains("var: city=Leeds\n"), "\(text)")
        #expect(!text.contains("sk-live-SECRET123456") && !text.contains("eyJ"), "\(text)")
    }

    /// A quote left open reads on at `... `; an apostrophe the parser takes
    /// as typed (a comment, a text frame) does not.
    @Test func onlyAQuoteTheParserLeavesOpenReadsOn() {
        #expect(SessionController.quoteGoesOn("post /x --raw '{"))
        #expect(SessionController.quoteGoesOn(#"post /x title="abc"#))
        #expect(!SessionController.quoteGoesOn("ws send --text it's fine"))
        #expect(!SessionController.quoteGoesOn("# Alice's tasks"))
        #expect(!SessionController.quoteGoesOn("get /api/tasks q=='x y'"))
    }

    /// `auth bearer X` then `login`: the header auth set went over the
    /// login's token, and every request got a 401 under "logged in as".
    @Test func aLoginDropsTheAuthorizationAuthSet() async throws {
        let terminal = FakeTerminal(interactive: false)
        let status = try await Self.withController(terminal) { controller in
            controller.script(["auth bearer stale-token-123", "login alice@example.com alice123", "whoami", "get /api/tasks page_size==1"], name: "t")
        }
        #expect(status == .ok, "\(terminal.errors)")
        #expect(terminal.output.contains("logged in as alice; the session's Authorization header is dropped"), "\(terminal.output)")
    }

    /// A password typed in a frame (`--text password=…`, a JSON frame's
    /// secret member) was hidden in the transcript but shown in the echo of
    /// a later frame that carried it in other words.
    @Test func aSecretTypedInAFrameIsHiddenInLaterFrames() async throws {
        let terminal = FakeTerminal(interactive: false)
        _ = try await Self.withController(terminal) { controller in
            controller.script(["ws connect /__sandbox/echo --heartbeat 0", "ws send --text password=litPW12345", #"ws send {"user":{"api_key":"litAK12345"}}"#,
                               "ws send --text again litPW12345 and litAK12345", "ws recv 3"], name: "t")
        }
        #expect(!terminal.output.contains("litPW12345") && !terminal.output.contains("litAK12345"), "\(terminal.output)")
        #expect(terminal.output.contains("again <hidden: 10 characters> and <hidden: 10 characters>"), "\(terminal.output)")
        // A short one is no session secret, but its own `password=X` is hidden wherever the frame shows.
        let short = FakeTerminal(interactive: false)
        _ = try await Self.withController(short) { controller in
            controller.script(["ws connect /__sandbox/echo --heartbeat 0", "ws send --text password=abcde", "ws recv 1"], name: "t")
        }
        #expect(!short.output.contains("abcde") && short.output.contains("password=<hidden: 5 characters>"), "\(short.output)")
    }

    /// A secret holding `{{` was read as a variable: `ab{{zz}}cd` went out as
    /// `abNOcd`, and `ab{{cd` failed with "unclosed '{{' in 'note=ab{{cd'",
    /// the secret on the screen. A parse error quoting a word never shows one.
    @Test func aSecretHoldingBracesIsSentAsItIs() async throws {
        let terminal = FakeTerminal(interactive: false)
        _ = try await Self.withController(terminal, profile: .generic, target: .url(URL(string: "http://127.0.0.1:9")!), environment: ["EXPLORER_SECRET_PW": "ab{{zz}}cd"]) { controller in
            controller.script(["set zz=NO", "post /x note={{secret:pw}} --offline -p B"], name: "t")
        }
        #expect(terminal.output.contains(#"{"note":"<hidden: 10 characters>"}"#) && !terminal.output.contains("NO"), "\(terminal.output)")
        let broken = FakeTerminal(interactive: false)
        let status = try await Self.withController(broken, profile: .generic, target: .url(URL(string: "http://127.0.0.1:9")!), environment: ["EXPLORER_SECRET_PW": #"ab"cdef"#]) { controller in
            controller.script([#"post /x 'n:=["{{secret:pw}}' --offline"#], name: "t")
        }
        #expect(status == .usage)
        #expect(broken.errors.contains("invalid JSON after ':='") && !broken.errors.contains("cdef"), "\(broken.errors)")
    }

    /// A recording started after `set password=…` and after a replay that
    /// bound its own variables: the header keeps what the user set, not what
    /// the replay bound; `EXPLORER_SECRET_PASSWORD` supplies the variable and
    /// leaves the demo login alone; the recording replays green.
    @Test func aRecordingStartedMidSessionReplays() async throws {
        let earlier = Self.temporary("earlier")
        let path = Self.temporary("mid-session")
        defer { [earlier, path].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        try """
        # explorer transcript v1
        profile: linku
        base-url: sandbox

        > set new_password={{secret:new_password}}

        > post /api/tasks title=x price:=1 city=Leeds
        HTTP/1.1 401 Unauthorized
        {{*}}

        """.write(toFile: earlier, atomically: true, encoding: .utf8)
        try await Self.withController { controller in
            _ = controller.script(["set city=Leeds", "set password=hunter2", "set session='Bearer abc.def-ghi'", "replay \(earlier)"], name: "t")
            try controller.startRecording(path)
            _ = controller.script(["login alice@example.com alice123", "get /api/tasks city=={{city}} page_size==1",
                               "set password=hunter22"], name: "t")
            controller.finishRecording()
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\nvar: city=Leeds\n") && text.contains("\nvar: password={{secret:password}}\n"), "\(text)")
        #expect(text.contains("\nvar: session={{secret:session}}\n"), "a value that looks like a credential, as vars hides it")
        #expect(!text.contains("new_password") && !text.contains("hunter2") && !text.contains("abc.def"), "\(text)")
        let run = await Replayer(environment: ["EXPLORER_SECRET_PASSWORD": "hunter2", "EXPLORER_SECRET_SESSION": "Bearer x"]).run(path)
        let report = ReplayReport(palette: .plain).detailed(run)
        #expect(run.status == .ok, "\(report.out)\(report.err)")
    }

    /// A run a failure stopped says how many steps did not run (it used to
    /// say "4 passed, 0 failed" of a transcript with more), and fails.
    @Test func aRunThatStopsEarlySaysHowManyStepsDidNotRun() async throws {
        let path = Self.temporary("stops")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        # explorer transcript v1
        profile: linku
        base-url: sandbox

        > set a=1

        > spec load no-such-spec.json

        > set b=2

        > set c=3

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(environment: [:]).run(path)
        #expect(run.status == .runtime)
        #expect(run.notRun == 2)
        let report = ReplayReport(palette: .plain)
        #expect(report.detailed(run).out.hasSuffix("4 steps: 1 passed, 1 failed, 2 did not run\n"))
        #expect(report.progress(run).out.contains("2 steps of 4 did not run"))
    }
}
