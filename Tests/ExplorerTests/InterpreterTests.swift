import Core
import Foundation
import Sandbox
import Testing
@testable import Explorer

/// The interpreter end to end against an in-process sandbox.
@Suite struct InterpreterTests {
    func withInterpreter(_ body: (Interpreter, SandboxServer) async throws -> Void) async throws {
        do { try await withSandboxInterpreter(body) } catch { Issue.record(error) }
    }

    func run(_ interpreter: Interpreter, _ line: String) async throws -> Outcome {
        await interpreter.execute(try interpreter.parser.parse(line))
    }

    @Test func loginChangesThePromptAndShowPicksValues() async throws {
        try await withInterpreter { interpreter, _ in
            #expect(await interpreter.promptLabel() == "linku")
            let login = try await run(interpreter, "login alice@example.com alice123")
            guard case let .exchange(_, note, _) = login else { Issue.record("\(login)"); return }
            #expect(note == "logged in as alice")
            #expect(await interpreter.promptLabel() == "linku alice")
            _ = try await run(interpreter, "get /api/tasks page_size==2")
            guard case let .value(id, _) = try await run(interpreter, "show .tasks[1].id") else { Issue.record("no value"); return }
            #expect(id == .int(2))
            guard case let .failure(message, status) = try await run(interpreter, "show .tasks[7]") else { Issue.record("found"); return }
            #expect(message == ".tasks has 2 elements, no index 7")
            #expect(status == .usage)
        }
    }

    /// A request that got no answer left the one before it in place: `show`
    /// printed it and `save` wrote its body under the name meant for this one.
    @Test func aRequestThatGotNoAnswerLeavesNoneToShowSaveOrCapture() async throws {
        try await withInterpreter { interpreter, _ in
            _ = try await run(interpreter, "get /api/tasks/categories")
            let refused = try SilentListener()
            let url = "http://127.0.0.1:\(refused.port)"
            _ = consume refused
            guard case .failure = try await run(interpreter, "get \(url)/gone --timeout 2") else { Issue.record("answered"); return }
            for (line, verb) in [("show", "show"), ("save stale.json", "save"), ("capture x = .[0]", "capture")] {
                guard case let .failure(message, status) = try await run(interpreter, line) else { Issue.record("\(line) used an answer"); continue }
                #expect(message == "the last request got no answer: nothing to \(verb)")
                #expect(status == .usage)
            }
            #expect(!FileManager.default.fileExists(atPath: "stale.json"))
            _ = try await run(interpreter, "get /api/tasks/categories")
            guard case .value = try await run(interpreter, "show") else { Issue.record("the next answer is not shown"); return }
        }
    }

    /// A login answered 200 in a shape the profile does not name (the
    /// token moved): the line failed with no answer, and a replay said
    /// "got no HTTP response", hiding the shape that had changed.
    @Test func aLoginAnswerWithoutTheTokenIsShownAndFails() async throws {
        var profile = Profile.linku
        profile.auth?.accessTokenPath = try JSONPath.parse(".session.bearer")
        try await withLiveSession(profile: profile) { live in
            let outcome = await live.interpreter.execute(.login(email: "alice@example.com", password: "alice123"))
            guard case let .exchange(exchange, note, _) = outcome else { Issue.record("\(outcome)"); return }
            #expect(exchange.response.status == 200 && exchange.response.json?["user"] != nil)
            #expect(note == "the login answer has no access token at .session.bearer: not logged in")
            #expect(outcome.exitStatus == .runtime)
            #expect(await !live.interpreter.session.isLoggedIn)
            let observation = outcome.observation(renderer: Renderer(palette: .plain, envelope: profile.errorEnvelope))
            #expect(observation.status == 200 && observation.errors == [note!])
        }
    }

    /// A refused login said only the server's refusal: that the login before
    /// it stands, and that a 404 is the profile's login-path, are said under
    /// it, on screen only (a replay may start with another login kept).
    @Test func aRefusedLoginSaysWhatItLeaves() async throws {
        var profile = Profile.linku
        try await withLiveSession(profile: profile) { live in
            _ = await live.interpreter.execute(.login(email: "alice@example.com", password: "alice123"))
            let refused = await live.interpreter.execute(.login(email: "alice@example.com", password: "wrong"))
            guard case let .exchange(exchange, note, _) = refused else { Issue.record("\(refused)"); return }
            #expect(exchange.response.status == 401 && note == "still logged in as alice")
            #expect(await live.interpreter.promptLabel() == "linku alice")
            let (out, _) = Renderer(palette: .plain, envelope: profile.errorEnvelope).render(refused)
            #expect(out.hasSuffix("}\nstill logged in as alice\n"), "under the answer: \(out)")
            #expect(refused.observation(renderer: Renderer(palette: .plain, envelope: profile.errorEnvelope)).notes.isEmpty)
        }
        profile.auth?.loginPath = "/api/secure-auth/sign-in"
        try await withLiveSession(profile: profile) { live in
            let missing = await live.interpreter.execute(.login(email: "alice@example.com", password: "alice123"))
            guard case let .exchange(exchange, note, _) = missing else { Issue.record("\(missing)"); return }
            #expect(exchange.response.status == 404 && note == "no login at POST /api/secure-auth/sign-in (the profile's login-path: /api/secure-auth/sign-in)")
        }
    }

    /// A GraphQL answer's errors under a 200 are said under it, on screen
    /// only: the status said all went well.
    @Test func graphQLErrorsUnderA200AreSaid() throws {
        func answer(_ body: String) -> ReceivedResponse {
            ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Array(body.utf8))
        }
        #expect(Interpreter.graphQLErrors(in: answer(#"{"data": null, "errors": [{"message": "Cannot query field \"x\""}, {"message": "b"}]}"#))
            == #"the answer holds GraphQL errors: Cannot query field "x" (and 1 more)"#)
        #expect(Interpreter.isScreenOnlyNote(#"the answer holds GraphQL errors: Cannot query field "x""#))
        // A list of errors that is no GraphQL answer (no data), or none: nothing said.
        #expect(Interpreter.graphQLErrors(in: answer(#"{"errors": [{"message": "a"}]}"#)) == nil)
        #expect(Interpreter.graphQLErrors(in: answer(#"{"data": {"a": 1}, "errors": []}"#)) == nil)
        // A request that failed whole (a syntax error) has no data; its errors have GraphQL's shape: said too.
        #expect(Interpreter.graphQLErrors(in: answer(#"{"errors": [{"message": "Syntax Error: Expected Name", "locations": [{"line": 1, "column": 3}], "extensions": {"code": "GRAPHQL_PARSE_FAILED"}}]}"#))
            == "the answer holds GraphQL errors: Syntax Error: Expected Name")
    }

    /// A 404 to a path the catalog does not have says what it has nearby, on
    /// screen only (a transcript from before would differ by the note).
    @Test func aNotFoundOffTheCatalogSaysWhatTheCatalogHas() async throws {
        try await withInterpreter { interpreter, _ in
            _ = try await run(interpreter, "login alice@example.com alice123")
            var notes: [String?] = []
            for line in ["get /api/taks", "patch /api/tasks/1 title=x", "get /nothing/like/it", "get /api/tasks/9999"] {
                let outcome = try await run(interpreter, line)
                guard case let .exchange(exchange, note, _) = outcome, exchange.response.status == 404 else { Issue.record("\(line): \(outcome)"); continue }
                notes.append(note)
                #expect(outcome.observation(renderer: Renderer(palette: .plain, envelope: Profile.linku.errorEnvelope)).notes.isEmpty)
            }
            #expect(notes == ["the catalog has no GET /api/taks; did you mean /api/tasks?", "the catalog has GET, PUT /api/tasks/{id}, not PATCH", nil, nil])
        }
    }

    /// `vars` showed a path or URL holding a credential in clear: a set
    /// `/a?token=X`, a captured Location carrying a query profile's `?key=`.
    @Test func varsHidesTheCredentialsInAPathOrURL() {
        #expect(Interpreter.shown(variable: "u", "/echo?token=SetTok12345&x=1") == "/echo?token=<hidden: 11 characters>&x=1")
        #expect(Interpreter.shown(variable: "w", "http://bob:UiPw12345@h.example/x") == "http://bob:<hidden: 9 characters>@h.example/x")
        #expect(Interpreter.shown(variable: "loc", "/echo?x=1&key=QueryKey8899") == "/echo?x=1&key=<hidden: 12 characters>")
        // A fragment's token, JSON in a string, a pair in a text: `vars` showed them, where `show` hid them.
        #expect(Interpreter.shown(variable: "f", "https://x/cb#access_token=SEKRIT18frag") == "https://x/cb#access_token=<hidden: 12 characters>")
        #expect(Interpreter.shown(variable: "e", #"{"access_token": "SEKRIT16embedded"}"#) == #"{"access_token": "<hidden: 16 characters>"}"#)
        #expect(Interpreter.shown(variable: "o", "client-secret=QZX27dash") == "client-secret=<hidden: 9 characters>")
        #expect(Interpreter.shown(variable: "next", "/items?page=2") == "/items?page=2")
        // Where it stands only: a one-digit key hid the path's digits too.
        #expect(Interpreter.shown(variable: "loc", "/items/1?key=1#k=1") == "/items/1?key=<hidden: 1 character>#k=1")
    }

    /// Issue 11 #28: `set base_url=…` was kept, shown by vars, and changed nothing.
    @Test func builtInVariablesCannotBeSet() async throws {
        try await withInterpreter { interpreter, server in
            guard case let .failure(message, status) = try await run(interpreter, "set base_url=http://127.0.0.1:1") else { Issue.record("set"); return }
            #expect(message.contains("--base-url"))
            #expect(status == .usage)
            // Nor captured: `capture profile = .total` showed `profile = 2`.
            _ = try await run(interpreter, "get /api/tasks/categories")
            guard case let .failure(captured, _) = try await run(interpreter, "capture profile = .[0]") else { Issue.record("captured"); return }
            #expect(captured.contains("'profile' is fixed for the session"))
            guard let vars = (try await run(interpreter, "vars")).shownText else { Issue.record("no text"); return }
            #expect(vars.contains("base_url = \(server.baseURL.absoluteString)") && vars.contains("profile = linku"))
        }
    }

    @Test func variablesFeedLaterLines() async throws {
        try await withInterpreter { interpreter, _ in
            _ = try await run(interpreter, "login bob@example.com bob12345")
            _ = try await run(interpreter, "set id=4")
            guard case let .exchange(exchange, _, _) = try await run(interpreter, "/api/tasks/{{id}}") else { Issue.record("no exchange"); return }
            #expect(exchange.response.json?["title"] == .string("Proofread an essay"))
            guard let vars = (try await run(interpreter, "vars")).shownText else { Issue.record("no text"); return }
            #expect(vars.contains("id = 4"))
            #expect(vars.contains("profile = linku"))
        }
    }

    @Test func whoamiAndLogout() async throws {
        try await withInterpreter { interpreter, _ in
            guard case let .failure(notYet, _) = try await run(interpreter, "whoami") else { Issue.record("worked"); return }
            #expect(notYet == "not logged in (try: login EMAIL)")
            _ = try await run(interpreter, "login alice@example.com alice123")
            guard case let .exchange(me, _, _) = try await run(interpreter, "whoami") else { Issue.record("no exchange"); return }
            #expect(me.response.json?["username"] == .string("alice"))
            guard case let .exchange(_, note, _) = try await run(interpreter, "logout") else { Issue.record("no exchange"); return }
            #expect(note == "logged out")
            #expect(await interpreter.promptLabel() == "linku")
        }
    }

    @Test func expiredTokensAreRefreshedUnnoticed() async throws {
        try await withInterpreter { interpreter, server in
            _ = try await run(interpreter, "login alice@example.com alice123")
            try await server.expireAccessTokens()
            let outcome = try await run(interpreter, "get /api/tasks/1")
            guard case let .exchange(exchange, _, _) = outcome else { Issue.record("no exchange"); return }
            #expect(exchange.response.status == 200)
            #expect(exchange.refreshed)
            #expect(outcome.exitStatus == .ok)
        }
    }

    @Test func unreachableServersAreOneLine() async throws {
        // A port nothing listens on, held bound for the test: one closed before it was used could be another
        // test's by then (the suite runs in parallel), which answered.
        let (fd, port) = try RecordReplayTests.boundNotListening()
        defer { close(fd) }
        let url = URL(string: "http://127.0.0.1:\(port)")!
        let outcome = try await withLiveSession(target: .url(url)) { live in
            await live.interpreter.execute(.http(method: "GET", path: "/api/tasks", items: [], options: RequestOptions()))
        }
        guard case let .failure(message, status) = outcome else { Issue.record("\(outcome)"); return }
        #expect(message == "cannot connect to 127.0.0.1:\(url.port!): connection refused (is the server running?)")
        #expect(status == .runtime)
    }

    @Test func offlineSendsNothingAndHidesTheToken() async throws {
        try await withInterpreter { interpreter, server in
            _ = try await run(interpreter, "login alice@example.com alice123")
            let before = server.count("login")
            guard case let .offline(request, _, _) = try await run(interpreter, "post /api/tasks title=x --offline") else { Issue.record("sent"); return }
            #expect(request.header("Authorization") == "Bearer <access_token>")
            guard case let .exchange(list, _, _) = try await run(interpreter, "get /api/tasks") else { Issue.record("no exchange"); return }
            #expect(list.response.json?["total"]?.intValue == 5)
            #expect(server.count("login") == before)
        }
    }

    /// Credentials typed on the line are hidden in --offline's request as
    /// -v hides them (they were printed as typed); the rest as typed.
    @Test func offlineHidesTheLinesOwnCredentials() async throws {
        try await withInterpreter { interpreter, _ in
            let line = #"get /api/banners Authorization:'Bearer abc-123-def' X-Api-Key:k-1234567 Cookie:sid=zzz9 X-Trace:t-1 --offline"#
            guard case let .offline(request, _, _) = try await run(interpreter, line) else { Issue.record("sent"); return }
            #expect(request.header("Authorization") == "Bearer <hidden: 11 characters>")
            #expect(request.header("X-Api-Key") == "<hidden: 9 characters>")
            #expect(request.header("Cookie") == "sid=<hidden: 4 characters>")
            #expect(request.header("X-Trace") == "t-1")
        }
    }

    @Test func helpListsEveryCommand() async throws {
        try await withInterpreter { interpreter, _ in
            guard let text = (try await run(interpreter, "help")).shownText else { Issue.record("no text"); return }
            for info in CommandTable.standard.specs { #expect(text.contains(info.usage)) }
            guard let get = (try await run(interpreter, "help get")).shownText else { Issue.record("no text"); return }
            #expect(get.contains("name:=json"))
            // An 80-column terminal wrapped a third of the lines mid-word.
            for spec in CommandTable.standard.specs {
                guard let shown = (try await run(interpreter, "help \(spec.name)")).shownText else { Issue.record("no help for \(spec.name)"); continue }
                for line in (shown + "\n" + text).split(separator: "\n") { #expect(String(line).columns <= 80, "\(spec.name): \(line)") }
            }
            guard case let .failure(unknown, _) = try await run(interpreter, "help lgoin") else { Issue.record("no failure"); return }
            #expect(unknown == "no help for 'lgoin'; did you mean 'login'? (type help for the list)")
            guard case let .failure(nothing, _) = try await run(interpreter, "help zzzzzz") else { Issue.record("no failure"); return }
            #expect(nothing == "no help for 'zzzzzz' (type help for the list)")
        }
    }
}

/// A replay's secret sent elsewhere in an encoding: what the refusal reads
/// decoded (base64 of bytes that are not UTF-8 was dropped whole, hex not read).
@Test func encodedWordsAreReadDecoded() {
    #expect(SuppliedSecrets.base64Decoded("q=/3N1cGVyc2VjcmV0MTIz").contains { $0.contains("supersecret123") })
    #expect(SuppliedSecrets.hexDecoded("/hex?q=7375706572736563726574313233").contains("supersecret123"))
    #expect(SuppliedSecrets.hexDecoded("id=deadbeef").isEmpty, "a short one is an id")
}

/// A secret echoed back in another case (a header name as Flask writes it, `Zq7Wlmp0…`), captured and sent
/// elsewhere, went: the refusal compared it case by case.
@Test func aSuppliedSecretIsHeldInAnyCase() {
    var supplied = SuppliedSecrets()
    _ = supplied.add([(name: "tok", value: "Zq7wLmP0xRt9Vb")])
    #expect(supplied.held(in: [#"{"Zq7Wlmp0Xrt9Vb":"1"}"#])?.name == "tok")
    #expect(supplied.held(in: [], bytes: Array("x ZQ7WLMP0XRT9VB y".utf8))?.name == "tok")
    #expect(supplied.held(in: ["/x?q=" + Data("a:zq7wlmp0xrt9vb".utf8).base64EncodedString()])?.name == "tok")
    #expect(supplied.held(in: ["Zq7wLmP0xRt9V"]) == nil, "part of it is not it")
}
