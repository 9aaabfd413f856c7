import Core
import Foundation
import Sandbox
import Testing
@testable import Explorer

/// Where credentials go and what `--offline` sends, through the interpreter
/// against real sandboxes (issue 11, items 1, 2, 4, 14 and 15).
@Suite struct CredentialTests {
    func run(_ interpreter: Interpreter, _ line: String) async throws -> Outcome {
        await interpreter.execute(try interpreter.parser.parse(line))
    }

    /// Logged in to one sandbox, a full URL to another server (another
    /// port: another origin) goes without the token, and the answer says so.
    @Test func aFullURLToAnotherServerGetsNoToken() async throws {
        let other = try await SandboxServer.start()
        defer { Task { await other.stop() } }
        try await withSandboxInterpreter { interpreter, _ in
            _ = try await run(interpreter, "login alice@example.com alice123")
            let elsewhere = other.baseURL.absoluteString + "/api/tasks"
            guard case let .exchange(exchange, note, _) = try await run(interpreter, "get \(elsewhere)") else { Issue.record("not sent"); return }
            #expect(exchange.request.header("Authorization") == nil)
            #expect(exchange.response.status == 401, "the other server saw no token")
            #expect(note?.contains("token not sent: \(Origin(other.baseURL)!) is not the backend's origin") == true, "\(note ?? "no note")")
            guard case let .offline(shown, offlineNote, _) = try await run(interpreter, "get \(elsewhere) --offline") else { Issue.record("sent"); return }
            #expect(shown.header("Authorization") == nil)
            #expect(offlineNote?.hasPrefix("token not sent") == true)
            // The backend's own origin, typed in full, still gets it.
            guard case let .exchange(own, ownNote, _) = try await run(interpreter, "get {{base_url}}/api/tasks") else { Issue.record("not sent"); return }
            #expect(own.request.header("Authorization")?.hasPrefix("Bearer ") == true)
            #expect(own.response.status == 200)
            #expect(ownNote?.contains("token not sent") != true)
        }
    }

    /// `--offline` sends nothing, ever: `login` shows the request it would
    /// send with the password hidden, and the server never hears of it.
    @Test func offlineLoginSendsNothingAndHidesThePassword() async throws {
        let live = try await LiveSession.open(profile: .linku, target: .sandbox(), offline: true)
        let (interpreter, session, server) = (live.interpreter, await live.interpreter.session, try #require(live.sandbox))
        _ = try await run(interpreter, "header apikey:anon-key-77")
        let login = try await run(interpreter, "login me@example.com s3cret")
        guard case let .offline(request, _, _) = login else { Issue.record("\(login)"); return }
        #expect(request.url.path == "/api/secure-auth/login")
        // Shown hidden, with the Content-Length of the body it would send (it was the hidden body's).
        let shown = Renderer(palette: .plain).render(login).out
        #expect(shown.contains("me@example.com") && !shown.contains("s3cret") && shown.contains(#""password":"<hidden: 6 characters>""#), "\(shown)")
        // With the session's headers, as the login goes (Supabase's `apikey` was left out of what was shown).
        #expect(shown.contains("apikey: <hidden: 11 characters>\n") && !shown.contains("anon-key-77"), "\(shown)")
        #expect(shown.contains("Content-Length: \(request.body?.count ?? 0)\n") && request.body?.count == #"{"email":"me@example.com","password":"s3cret"}"#.utf8.count)
        let get = try await run(interpreter, "get /api/tasks")
        guard case .offline = get else { Issue.record("a plain line was sent: \(get)"); return }
        guard case let .failure(socket, _) = try await run(interpreter, "ws connect") else { Issue.record("a socket opened"); return }
        #expect(socket.contains("--offline"))
        // Under the commands, the transport refuses whatever gets through.
        await #expect(throws: TransportError.self) { try await session.login(email: "me@example.com", password: "s3cret") }
        #expect(server.count("login") == 0)
        await live.close()
    }

    /// `vars` hides what history and transcripts hide: secret-named
    /// variables and values shaped like credentials.
    @Test func varsHidesSecrets() async throws {
        try await withSandboxInterpreter { interpreter, _ in
            for line in ["set token hunter2", #"set authorization="token T0KEN""#, #"set header="Bearer abc.def""#, "set city=Leeds"] {
                _ = try await run(interpreter, line)
            }
            guard let vars = (try await run(interpreter, "vars")).shownText else { Issue.record("no text"); return }
            #expect(!vars.contains("hunter2") && !vars.contains("T0KEN") && !vars.contains("abc.def"), "\(vars)")
            #expect(vars.contains("token = <hidden: 7 characters>"))
            #expect(vars.contains("city = Leeds"))
        }
    }

    /// After logout the socket is closed: a reconnect would have carried on
    /// with whoever logged in next.
    @Test func logoutClosesTheSocket() async throws {
        try await withSandboxInterpreter { interpreter, _ in
            _ = try await run(interpreter, "login alice@example.com alice123")
            guard (try await run(interpreter, "ws connect")).shownText != nil else { Issue.record("no socket"); return }
            let out = try await run(interpreter, "logout")
            guard case let .exchange(_, note, _) = out else { Issue.record("\(out)"); return }
            #expect(note?.contains("WebSocket closed") == true)
            guard let status = (try await run(interpreter, "ws status")).shownText else { Issue.record("no status"); return }
            #expect(!status.contains("open"), "\(status)")
        }
    }

    /// An answer that carries the profile's tokens and user logs the session
    /// in, whatever endpoint gave it (a register, a code login, a login typed as a POST).
    @Test func anAnswerWithTokensLogsTheSessionIn() async throws {
        try await withSandboxInterpreter { interpreter, _ in
            let out = try await run(interpreter, "post /api/secure-auth/login email=bob@example.com password=bob12345")
            guard case let .exchange(_, note, _) = out else { Issue.record("\(out)"); return }
            #expect(note == "logged in as bob")
            #expect(await interpreter.promptLabel() == "linku bob")
            guard case let .exchange(me, _, _) = try await run(interpreter, "whoami") else { Issue.record("whoami"); return }
            #expect(me.response.status == 200)
        }
    }

    /// A body the catalog knows is wrong is not sent; --force sends it.
    @Test func aWronglyTypedBodyIsNotSentUnlessForced() async throws {
        try await withSandboxInterpreter { interpreter, _ in
            _ = try await run(interpreter, "login alice@example.com alice123")
            guard case let .failure(message, status) = try await run(interpreter, "post /api/tasks title=x price=25") else { Issue.record("sent"); return }
            #expect(message == #"price is a number in POST /api/tasks, but price=25 sends the string "25": use price:=25 (not sent; --force sends it anyway)"#)
            #expect(status == .usage)
            guard case let .exchange(forced, _, _) = try await run(interpreter, "post /api/tasks title=x price=25 --force") else { Issue.record("not sent"); return }
            #expect(forced.request.body.map { String(decoding: $0, as: UTF8.self) } == #"{"title":"x","price":"25"}"#)
        }
    }

    /// A form's fields are text: `--form price=25` was refused as a string for a number, and `--form price:=25`
    /// as no form field, so only --force sent what a form backend reads as 25.
    @Test func aFormsTextFieldsAreNotRefusedForTheirJSONType() async throws {
        try await withSandboxInterpreter { interpreter, _ in
            _ = try await run(interpreter, "login alice@example.com alice123")
            for line in ["post /api/tasks title=x price=25 --form --offline", "post /api/tasks title=x price=25 --multipart --offline"] {
                let out = try await run(interpreter, line)
                if case let .failure(message, _) = out { Issue.record("\(line): \(message)") }
            }
            guard case .failure = try await run(interpreter, "post /api/tasks title=x price=25 --offline") else { Issue.record("JSON sent"); return }
        }
    }
}
