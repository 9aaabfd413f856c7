import Core
import Foundation
@testable import Sandbox
import Testing
@testable import Explorer

/// `explorer mock`: what it works out from a transcript, and how it answers.
@Suite struct MockTests {
    static let sessions = SessionsReplayTests.sessions
    static let backends = ["linku", "nova", "levelup", "posture"]

    /// Serves `paths` while `body` runs.
    static func withMock<T>(_ paths: [String], mode: MockMode, _ body: (MockServer, [MockScript]) async throws -> T) async throws -> T {
        let loaded = await MockCommand.load(TranscriptSource.files(in: paths).files)
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        let server = try await MockServer.start(loaded.scripts, mode: mode)
        do {
            let result = try await body(server, loaded.scripts)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Replays `file` against the mock `server`, and expects it to pass (the report when it does not).
    static func expectGreenReplay(of file: String, against server: MockServer, sourceLocation: SourceLocation = #_sourceLocation) async {
        let run = await Replayer(baseURL: server.baseURL, environment: [:]).run(file)
        #expect(run.status == .ok, "\(ReplayReport(palette: .plain).detailed(run).out)", sourceLocation: sourceLocation)
    }

    /// Runs `body` with the path of a transcript holding `text`, in a folder of its own removed after.
    static func withTranscript(_ name: String, _ text: String, _ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mock-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("\(name).transcript").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        try await body(file)
    }

    static func send(_ method: String, _ url: URL, body: String? = nil, headers: [HTTPHeader] = []) async throws -> ReceivedResponse {
        let transport = LiveTransport()
        var request = PreparedRequest(method: method, url: url, headers: headers, body: body.map { Array($0.utf8) })
        if body != nil { request.setHeader("Content-Type", "application/json") }
        do {
            let response = try await transport.send(request)
            await transport.shutdown()
            return response
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    /// The acceptance test of issue 16: every transcript of a backend replays
    /// green against the mock of its folder, in scenario mode, each pinned in turn.
    /// A captured number the mock serves again is the number as written:
    /// a price 19.990, 1e400 and an id past 64 bits were served as strings
    /// (only what fitted an Int was a number).
    @Test func aCapturedNumberIsServedAsTheNumberItWas() {
        let bindings = MockDerivation.bindings(["money": "19.990", "huge": "1e400", "big": "12345678901234567890", "n": "5",
                                                "zip": "007", "word": "abc", "quoted": "42"], strings: ["quoted"])
        #expect(bindings["money"] == .number("19.990") && bindings["huge"] == .number("1e400"))
        #expect(bindings["big"] == .number("12345678901234567890") && bindings["n"] == .number("5"))
        // Not JSON numbers as written, or captured from a string: strings.
        #expect(bindings["zip"] == .string("007") && bindings["word"] == .string("abc") && bindings["quoted"] == .string("42"))
    }

    @Test(arguments: backends)
    func everySessionReplaysGreenAgainstTheMock(backend: String) async throws {
        let folder = (Self.sessions as NSString).appendingPathComponent(backend)
        try await Self.withMock([folder], mode: .scenario) { server, scripts in
            #expect(!scripts.isEmpty)
            for script in scripts {
                let name = (script.file as NSString).lastPathComponent
                let reset = try await Self.send("POST", server.baseURL.appendingPathComponent("__mock/reset").appending(queryItems: [.init(name: "scenario", value: name)]))
                #expect(reset.status == 200)
                let run = await Replayer(baseURL: server.baseURL, environment: [:]).run(script.file)
                let report = ReplayReport(palette: .plain).detailed(run)
                #expect(run.status == .ok, "\(name) against the mock:\n\(report.out)\(report.err)")
            }
        }
    }

    @Test func aRequestUsesTheIdTheMockHandedOut() async throws {
        let file = (Self.sessions as NSString).appendingPathComponent("linku/chat.transcript")
        try await Self.withMock([file], mode: .match) { server, scripts in
            // The PUT was worked out with the id the ack's {{message_id:=integer}} made up.
            let put = try #require(scripts[0].steps.first { $0.command.hasPrefix("put /api/users/messages/") })
            guard case let .request(request) = put.trigger else { Issue.record("not a request step"); return }
            #expect(request.segments == [.literal("api"), .literal("users"), .literal("messages"), .variable("message_id"), .literal("read")])
            let answer = try await Self.send("PUT", server.baseURL.appendingPathComponent("api/users/messages/77/read"))
            #expect(answer.status == 200)
            // The path's {{message_id}} was bound from what the client sent.
            #expect(try JSONParser.parse(answer.body)["id"] == .int(77))
        }
    }

    /// Working out its answers, the mock ran a recording's `-o FILE --force` and `save FILE` where they were
    /// recorded: the file was emptied, others were left where the mock started, and a step whose file was
    /// there already was not served.
    @Test func theMockWritesNoFileTheRecordingNamed() async throws {
        let victim = FileManager.default.temporaryDirectory.appendingPathComponent("mock-victim-\(UUID().uuidString).txt").path
        try "precious\n".write(toFile: victim, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: victim) }
        let here = FileManager.default.currentDirectoryPath
        let saved = "mock-saved-\(UUID().uuidString).txt"
        try "mine\n".write(toFile: (here as NSString).appendingPathComponent(saved), atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: (here as NSString).appendingPathComponent(saved)) }
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9

        > get /a.txt -o \(victim) --force
        HTTP/1.1 200 OK
        Content-Type: text/plain
        | hello
        note: saved 6 B to \(victim)

        > get /b.txt
        HTTP/1.1 200 OK
        Content-Type: text/plain
        | world

        > save \(saved) --force
        | saved 6 B to \(saved)

        """
        try await Self.withTranscript("outputs", text) { file in
            try await Self.withMock([file], mode: .match) { server, scripts in
                #expect(scripts.first?.steps.count == 2, "both requests served")
                let answer = try await Self.send("GET", server.baseURL.appendingPathComponent("a.txt"))
                #expect(answer.status == 200 && answer.body == Array("hello\n".utf8))
            }
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(try String(contentsOfFile: (here as NSString).appendingPathComponent(saved), encoding: .utf8) == "mine\n")
    }

    @Test func anUnrecordedRequestIsAnsweredInTheEnvelopeNamingTheClosestStep() async throws {
        let file = (Self.sessions as NSString).appendingPathComponent("linku/create-task.transcript")
        try await Self.withMock([file], mode: .match) { server, _ in
            let body = #"{"title": "Fix my bike", "description": "x", "price": "25", "city": "Leeds", "category": "repair"}"#
            let answer = try await Self.send("POST", server.baseURL.appendingPathComponent("api/tasks"), body: body)
            #expect(answer.status == 404)
            let json = try JSONParser.parse(answer.body)
            #expect(json["error_code"] == .string("NOT_RECORDED"))
            #expect(json["message"]?.stringValue == "no recorded step for POST /api/tasks: closest is line 27 of create-task.transcript, body .description differs (recorded \"The rear wheel is buckled.\")")
            // Another method on a recorded path: that step is the closest, not the first of all (the login).
            let deleted = try JSONParser.parse(try await Self.send("DELETE", server.baseURL.appendingPathComponent("api/tasks/7")).body)
            #expect(deleted["message"]?.stringValue == "no recorded step for DELETE /api/tasks/7: closest is line 49 of create-task.transcript, method DELETE, recorded GET")
            let typed = #"{"title": "Fix my bike", "description": "The rear wheel is buckled.", "price": "25", "city": "Leeds", "category": "repair"}"#
            let wrongType = try JSONParser.parse(try await Self.send("POST", server.baseURL.appendingPathComponent("api/tasks"), body: typed).body)
            #expect(wrongType["message"]?.stringValue?.hasSuffix("body .price expected a number, got a string") == true)
        }
    }

    /// A step recorded without a body answered one that sends fields: a request with `title` was answered the
    /// recorded `{"title": ["This field is required."]}` of a POST sent empty.
    @Test func aStepRecordedWithoutABodyDoesNotAnswerOneWithFields() async throws {
        let text = "# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n\n"
            + "> post /items title=Milk\nHTTP/1.1 201 Created\nContent-Type: application/json\n{\n  \"id\": 1\n}\n\n"
            + "> post /items\nHTTP/1.1 400 Bad Request\nContent-Type: application/json\n{\n  \"title\": [\"This field is required.\"]\n}\n"
        try await Self.withTranscript("empty", text) { file in
            try await Self.withMock([file], mode: .match) { server, _ in
                let other = try await Self.send("POST", server.baseURL.appendingPathComponent("items"), body: #"{"title": "Other"}"#)
                #expect(other.status == 404, "\(String(decoding: other.body, as: UTF8.self))")
                // A form's fields too (the body is no JSON: its Content-Type is not read).
                let form = try await Self.send("POST", server.baseURL.appendingPathComponent("items"), body: "title=Other")
                #expect(form.status == 404, "\(String(decoding: form.body, as: UTF8.self))")
                let empty = try await Self.send("POST", server.baseURL.appendingPathComponent("items"), body: "")
                #expect(empty.status == 400)
                let same = try await Self.send("POST", server.baseURL.appendingPathComponent("items"), body: #"{"title": "Milk"}"#)
                #expect(same.status == 201)
            }
        }
    }

    /// A nested member's path read `body .variables .id`: written as `show` and replays write one.
    @Test func anUnrecordedNestedMemberIsNamedByItsPath() async throws {
        let text = "# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n\n> post /graphql query=q variables[id]=1 items[0][n]=a\n"
            + "HTTP/1.1 200 OK\nContent-Type: application/json\n{\n  \"data\": {}\n}\n"
        try await Self.withTranscript("nested", text) { file in
            try await Self.withMock([file], mode: .match) { server, _ in
                for (body, said) in [(#"{"query": "q", "variables": {"id": "2"}, "items": [{"n": "a"}]}"#, #"body .variables.id differs (recorded "1")"#),
                                     (#"{"query": "q", "variables": {"id": "1"}, "items": [{"n": "b"}]}"#, #"body .items[0].n differs (recorded "a")"#)] {
                    let answer = try JSONParser.parse(try await Self.send("POST", server.baseURL.appendingPathComponent("graphql"), body: body).body)
                    #expect(answer["message"]?.stringValue?.hasSuffix(said) == true, "\(answer)")
                }
            }
        }
    }

    /// An app's logged-in task list got the 401 a tour recorded with no
    /// token ("missing Authorization header") when the same list was also
    /// recorded logged in: a request that carries a credential is answered
    /// by a step that was not refused, where there is one.
    @Test func aSignedInRequestIsNotAnsweredByAStepRecordedWithoutAToken() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9

        > get /notes
        HTTP/1.1 401 Unauthorized
        Content-Type: application/json
        {"error": "missing Authorization header"}
        error: 401: missing Authorization header

        > get /notes Authorization:'Bearer {{secret:token}}'
        HTTP/1.1 200 OK
        Content-Type: application/json
        [{"id": 1}]

        """
        try await Self.withTranscript("signed", text) { file in
            try await Self.withMock([file], mode: .match) { server, _ in
                let notes = server.baseURL.appendingPathComponent("notes")
                let signedIn = try await Self.send("GET", notes, headers: [HTTPHeader(name: "Authorization", value: "Bearer x")])
                #expect(signedIn.status == 200)
            }
        }
    }

    /// What an app sends that a recording holds in another form: a name
    /// given twice (`tag==a tag==b`, never fitted, its values compared with
    /// the first), `+` for a space (Python's urlencode, URLSearchParams);
    /// and a recorded password is not told to a client that sends another.
    @Test func repeatedQueryNamesPlusAsSpaceAndNoRecordedSecretInTheMessage() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9

        > get /search tag==a tag==b
        HTTP/1.1 200 OK
        Content-Type: application/json
        {"which": "ab"}

        > get /greet q=='hello world'
        HTTP/1.1 200 OK
        Content-Type: application/json
        {"hi": true}

        > post /login email=a@b.c password=hunter2pass
        HTTP/1.1 200 OK
        Content-Type: application/json
        {"ok": true}

        """
        try await Self.withTranscript("query", text) { file in
            try await Self.withMock([file], mode: .match) { server, _ in
                let base = server.baseURL.absoluteString
                let both = try await Self.send("GET", URL(string: base + "/search?tag=a&tag=b")!)
                #expect(both.status == 200)
                #expect(try JSONParser.parse(both.body)["which"] == .string("ab"))
                for query in ["tag=a", "tag=b&tag=a", "tag=a&tag=b&tag=c"] {
                    #expect(try await Self.send("GET", URL(string: base + "/search?" + query)!).status == 404, "\(query)")
                }
                #expect(try await Self.send("GET", URL(string: base + "/greet?q=hello+world")!).status == 200)
                #expect(try await Self.send("GET", URL(string: base + "/greet?q=hello%2Bworld")!).status == 404, "an encoded + is a +")
                let wrong = try await Self.send("POST", URL(string: base + "/login")!, body: #"{"email": "a@b.c", "password": "guess"}"#)
                #expect(wrong.status == 404 && !String(decoding: wrong.body, as: UTF8.self).contains("hunter2pass"), "\(String(decoding: wrong.body, as: UTF8.self))")
            }
        }
    }

    /// `--host 0.0.0.0` (a phone on the network) was taken without a word by
    /// servers whose help said "loopback": it is said, as it hands out tokens.
    @Test func aHostBeyondThisMachineIsSaid() {
        for host in ["127.0.0.1", "localhost", "::1", "127.0.0.2"] { #expect(openHostWarning(host, what: "the mock") == nil, "\(host)") }
        #expect(openHostWarning("0.0.0.0", what: "the mock")
            == "warning: listening on 0.0.0.0: other machines that reach this one can use the mock, which hands out tokens\n")
    }

    /// A transcript recorded against a base URL with a path (`…/v1`) is
    /// served under that path, as its REPL sent it: the mock answered
    /// `/notes/7` and refused `/v1/notes/7`, so an app configured with the
    /// `/v1` base, or a replay of the transcript, got "no recorded step".
    /// Its `{{base_url}}` is the mock's address with the path.
    @Test func aTranscriptRecordedUnderABasePathIsServedUnderIt() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9/v1/

        > get /notes/7
        HTTP/1.1 200 OK
        Content-Type: application/json
        {"id": 7, "self": "{{base_url}}/notes/7"}

        > capture note_id = .id
        7

        > get /notes/{{note_id}}/tags
        HTTP/1.1 200 OK
        Content-Type: application/json
        ["a"]

        """
        try await Self.withTranscript("prefixed", text) { file in
            try await Self.withMock([file], mode: .match) { server, scripts in
                #expect(scripts.first?.basePath == "/v1")
                let note = try await Self.send("GET", server.baseURL.appendingPathComponent("v1/notes/7"))
                #expect(note.status == 200)
                #expect(try JSONParser.parse(note.body)["self"] == .string(server.baseURL.absoluteString + "/v1/notes/7"))
                let tags = try await Self.send("GET", server.baseURL.appendingPathComponent("v1/notes/31/tags"))
                #expect(tags.status == 200, "a captured id's segment is any id under the path too")
                let root = try await Self.send("GET", server.baseURL.appendingPathComponent("notes/7"))
                #expect(root.status == 404)
                // Said where it is served: an app pointed at the mock's root got "no recorded step" and no more.
                #expect(String(decoding: root.body, as: UTF8.self).contains("prefixed.transcript was recorded under /v1 and is served there (/v1/notes/7)"),
                        "\(String(decoding: root.body, as: UTF8.self))")
                let run = await Replayer(baseURL: server.baseURL.appendingPathComponent("v1"), environment: [:]).run(file)
                #expect(run.status == .ok, "\(ReplayReport(palette: .plain).detailed(run))")
            }
        }
    }

    /// A path segment or a query name outside ASCII (`/echo/任务`,
    /// `城市==深圳`) matched no recorded step: the request's came
    /// percent-encoded and the recording's decoded; and the encoded path was
    /// hidden in the 404 as if a token. A request line with raw UTF-8 in it
    /// got no answer at all: the client waited for ever.
    @Test func aRequestInChineseIsMatchedAsRecordedAndABrokenOneIsAnswered() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9

        > get /echo/任务 城市==深圳
        HTTP/1.1 200 OK
        Content-Type: application/json
        {"名字": "张三"}

        """
        try await Self.withTranscript("chinese", text) { file in
            try await Self.withMock([file], mode: .match) { server, _ in
                let url = URL(string: server.baseURL.absoluteString + "/echo/%E4%BB%BB%E5%8A%A1?%E5%9F%8E%E5%B8%82=%E6%B7%B1%E5%9C%B3")!
                let answer = try await Self.send("GET", url)
                #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
                let other = try await Self.send("GET", URL(string: server.baseURL.absoluteString + "/echo/%E4%BB%BB%E5%8A%A1x")!)
                #expect(String(decoding: other.body, as: UTF8.self).contains("GET /echo/任务x"), "shown as meant, not hidden")
                // Raw UTF-8 in the request line: a 400 in the profile's envelope, not silence.
                let raw = try Self.rawExchange(port: server.port, "GET /echo?城市=sz HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(raw.hasPrefix("HTTP/1.1 400 "), "\(raw)")
            }
        }
    }

    /// Sends `request` as bytes and reads the answer until the server closes (5 s at most).
    static func rawExchange(port: Int, _ request: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard connected == 0 else { throw CocoaError(.fileReadUnknown) }
        _ = Array(request.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            answer += buffer[..<n]
        }
        return String(decoding: answer, as: UTF8.self)
    }

    /// A profile file without `refreshed-refresh-token`: the mock's refresh
    /// answer had no refresh token, where the session reads a rotated one
    /// where the login's was; an app that replaces its own held none after
    /// the first refresh, and was logged out at the second.
    @Test func aMadeUpRefreshAnswerHasARotatedRefreshTokenWhereTheLoginsWas() throws {
        let text = "explorer-profile: 1\nname: shop\nenvironments: {local: {base-url: \"http://127.0.0.1:1\"}}\n"
            + "auth: {kind: login, login-path: /auth/login, access-token: .data.access, refresh-token: .data.renew, refresh-path: /auth/refresh, "
            + "refreshed-access-token: .access, whoami-path: /me}\n"
        let auth = try #require(try ProfileFile.parse(text, file: "shop.yaml").profile.auth)
        #expect(auth.refreshAnswer(accessToken: "A", refreshToken: "R") == .object([("access", .string("A")), ("data", .object([("renew", .string("R"))]))]))
    }

    @Test func aStepRecordedAfterARefreshAnswers401FirstThenAcceptsTheRefresh() async throws {
        let file = (Self.sessions as NSString).appendingPathComponent("linku/expired-token.transcript")
        try await Self.withMock([file], mode: .match) { server, _ in
            let url = server.baseURL.appendingPathComponent("api/tasks/4")
            // A client that never logged in has no token to expire: it was told "access token expired".
            #expect(try await Self.send("GET", url).status == 200)
            _ = try await Self.send("POST", server.baseURL.appendingPathComponent("__mock/reset"))
            let signedIn = [HTTPHeader(name: "Authorization", value: "Bearer old")]
            let first = try await Self.send("GET", url, headers: signedIn)
            #expect(first.status == 401)
            #expect(try JSONParser.parse(first.body)["error_code"] == .string("TOKEN_EXPIRED"))
            let refresh = try await Self.send("POST", server.baseURL.appendingPathComponent("api/secure-auth/refresh"), body: #"{"refresh_token": "x"}"#)
            #expect(refresh.status == 200)
            // Shaped as the login answered beside its tokens (the sandbox's refresh does): `token_type`, `expires_in`.
            let refreshed = try JSONParser.parse(refresh.body)
            if case let .object(members) = refreshed { #expect(members.map(\.key) == ["access_token", "refresh_token", "token_type", "expires_in"], "\(refreshed)") }
            #expect(refreshed["expires_in"] == .int(900) && refreshed["token_type"]?.stringValue?.lowercased() == "bearer", "\(refreshed)")
            let token = try #require(refreshed["access_token"]?.stringValue)
            #expect(token.split(separator: ".").count == 3, "a JWT-shaped token")
            #expect(try await Self.send("GET", url, headers: [HTTPHeader(name: "Authorization", value: "Bearer \(token)")]).status == 200)
        }
    }

    /// A refresh path with a query (GoTrue's `/auth/v1/token?grant_type=refresh_token`)
    /// was never taken for one: the client's refresh got another step's
    /// answer or a 404, and the retried request failed.
    @Test func aRefreshPathWithAQueryIsTheRefresh() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mock-gotrue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try ("explorer-profile: 1\nname: supa\nenvironments:\n  dev: {base-url: \"http://127.0.0.1:1\"}\n"
             + "auth: {kind: login, login-path: \"/auth/v1/token?grant_type=password\", refresh-path: \"/auth/v1/token?grant_type=refresh_token\", "
             + "user-name: email, whoami-path: /auth/v1/user}\n").write(to: folder.appendingPathComponent("supa.yaml"), atomically: true, encoding: .utf8)
        let file = folder.appendingPathComponent("t.transcript").path
        try """
        # explorer transcript v1
        profile: supa.yaml
        base-url: http://127.0.0.1:1

        > login dev@example.com {{secret:password}}
        HTTP/1.1 200 OK
        Content-Type: application/json
        {"access_token": "{{secret:access_token}}", "refresh_token": "{{secret:refresh_token}}", "token_type": "bearer", "expires_in": 20, "user": {"id": 1}}
        note: logged in as dev@example.com

        > get /rest/v1/todos
        (access token refreshed; request retried)
        HTTP/1.1 200 OK
        Content-Type: application/json
        [{"id": 2}]

        """.write(toFile: file, atomically: true, encoding: .utf8)
        try await Self.withMock([file], mode: .scenario) { server, _ in
            let login = try await Self.send("POST", URL(string: server.baseURL.absoluteString + "/auth/v1/token?grant_type=password")!,
                                            body: #"{"email": "dev@example.com", "password": "x"}"#)
            #expect(login.status == 200, "\(String(decoding: login.body, as: UTF8.self))")
            let signedIn = [HTTPHeader(name: "Authorization", value: "Bearer old")]
            let url = server.baseURL.appendingPathComponent("rest/v1/todos")
            let first = try await Self.send("GET", url, headers: signedIn)
            #expect(first.status == 401, "\(first.status) \(String(decoding: first.body, as: UTF8.self))")
            let refresh = try await Self.send("POST", URL(string: server.baseURL.absoluteString + "/auth/v1/token?grant_type=refresh_token")!,
                                              body: #"{"refresh_token": "x"}"#)
            #expect(refresh.status == 200, "\(String(decoding: refresh.body, as: UTF8.self))")
            let token = try #require(try JSONParser.parse(refresh.body)["access_token"]?.stringValue, "\(String(decoding: refresh.body, as: UTF8.self))")
            let retried = try await Self.send("GET", url, headers: [HTTPHeader(name: "Authorization", value: "Bearer \(token)")])
            let rows = try JSONParser.parse(retried.body)
            #expect(retried.status == 200 && rows == .array([.object([("id", .int(2))])]))
        }
    }

    /// A step that posts a bogus refresh token itself, answered 401 where it
    /// was recorded, was served 200 and fresh tokens: the refresh path was
    /// always the session's own refresh, and a transcript failed against
    /// its own mock.
    @Test func aRefusedRefreshThatWasRecordedIsServedAsRecorded() async throws {
        let path = try await RecordReplayTests.record(["login alice@example.com alice123",
                                                       "post /api/secure-auth/refresh refresh_token=bogus-refresh-value-123"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await Self.withMock([path], mode: .match) { server, scripts in
            #expect(scripts.first?.steps.count == 2, "both steps are request steps")
            let refused = try await Self.send("POST", server.baseURL.appendingPathComponent("api/secure-auth/refresh"),
                                              body: #"{"refresh_token": "anything-else"}"#)
            #expect(refused.status == 401)
        }
    }

    @Test func aLoginAnswersWithFreshlySignedTokens() async throws {
        let file = (Self.sessions as NSString).appendingPathComponent("linku/login.transcript")
        try await Self.withMock([file], mode: .match) { server, _ in
            let body = #"{"email": "alice@example.com", "password": "anything"}"#
            let one = try JSONParser.parse(try await Self.send("POST", server.baseURL.appendingPathComponent("api/secure-auth/login"), body: body).body)
            let two = try JSONParser.parse(try await Self.send("POST", server.baseURL.appendingPathComponent("api/secure-auth/login"), body: body).body)
            let token = try #require(one["access_token"]?.stringValue)
            #expect(token.split(separator: ".").count == 3)
            #expect(token != two["access_token"]?.stringValue, "each login hands out a new token")
            #expect(one["user"]?["email"] == .string("alice@example.com"))
            // Its expiry in whole seconds (an iOS decoder of an Int refused `1795947640.216`).
            let payload = try #require(TokenSigner.decodeBase64URL(String(token.split(separator: ".")[1])))
            let exp = try #require(try JSONParser.parse(payload)["exp"])
            #expect(exp.intValue != nil, "\(exp)")
        }
    }

    /// A 304 recorded from a server that answers it to any GET (no
    /// If-None-Match sent) was refused to the very request recorded.
    @Test func aNotModifiedRecordedUnconditionalIsServedAsRecorded() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:1

        > get /304
        HTTP/1.1 304 Not Modified

        > get /etag If-None-Match:'"x"'
        HTTP/1.1 304 Not Modified

        """
        try await Self.withTranscript("notmodified", text) { file in
            try await Self.withMock([file], mode: .match) { server, _ in
                let plain = try await Self.send("GET", server.baseURL.appendingPathComponent("304"))
                #expect(plain.status == 304)
                // One recorded conditional still answers a conditional request alone.
                let unconditional = try await Self.send("GET", server.baseURL.appendingPathComponent("etag"))
                #expect(unconditional.status == 404)
                await Self.expectGreenReplay(of: file, against: server)
            }
        }
    }

    /// `--token-ttl` is the access token's lifetime: the login's refresh
    /// token expired with it, so a client that reads its expiry logged in
    /// again instead of refreshing (the refresh endpoint's lasted 15 minutes).
    @Test func aShortTokenLifetimeLeavesTheRefreshTokenItsOwn() throws {
        let signer = TokenSigner(key: .init(data: [UInt8](repeating: 7, count: 32)))
        let now = Date().timeIntervalSince1970
        let access = try signer.verify(MockBook.secret("access_token", signer: signer, lifetime: 60), kind: "access", now: now).expires
        let refresh = try signer.verify(MockBook.secret("refresh_token", signer: signer, lifetime: 60), kind: "refresh", now: now).expires
        #expect(abs(access - (now + 60)) < 5)
        #expect(refresh > now + 24 * 3600, "a refresh token outlives --token-ttl")
    }

    @Test func theInterpreterTalksToTheMockAsToTheBackend() async throws {
        let file = (Self.sessions as NSString).appendingPathComponent("linku/create-task.transcript")
        try await Self.withMock([file], mode: .match) { server, _ in
            try await withLiveSession(target: .url(server.baseURL)) { live in
                let interpreter = live.interpreter
                _ = await interpreter.execute(.login(email: "alice@example.com", password: "whatever"))
                #expect(await interpreter.session.tokens != nil)
                let created = await interpreter.execute(try interpreter.parser.parse(
                    #"post /api/tasks title="Fix my bike" description="The rear wheel is buckled." price:=25 city=Leeds category=repair"#))
                guard case let .exchange(exchange, _, _) = created else { Issue.record("no exchange: \(created)"); return }
                #expect(exchange.response.status == 201)
                let id = try #require(try JSONParser.parse(exchange.response.body)["id"]?.intValue)
                let read = await interpreter.execute(try interpreter.parser.parse("get /api/tasks/\(id)"))
                guard case let .exchange(back, _, _) = read else { Issue.record("no exchange: \(read)"); return }
                #expect(try JSONParser.parse(back.response.body)["title"] == .string("Fix my bike"))
            }
        }
    }

    @Test func stateAndResetSayWhereEachScenarioIs() async throws {
        let folder = (Self.sessions as NSString).appendingPathComponent("linku")
        try await Self.withMock([folder], mode: .scenario) { server, _ in
            let unknown = try await Self.send("POST", server.baseURL.appendingPathComponent("__mock/reset").appending(queryItems: [.init(name: "scenario", value: "nope")]))
            #expect(unknown.status == 404)
            #expect(try JSONParser.parse(unknown.body)["message"]?.stringValue?.contains("create-task") == true)
            _ = try await Self.send("POST", server.baseURL.appendingPathComponent("__mock/reset").appending(queryItems: [.init(name: "scenario", value: "login")]))
            _ = try await Self.send("POST", server.baseURL.appendingPathComponent("api/secure-auth/login"), body: #"{"email": "alice@example.com", "password": "x"}"#)
            let state = try JSONParser.parse(try await Self.send("GET", server.baseURL.appendingPathComponent("__mock/state")).body)
            #expect(state["mode"] == .string("scenario"))
            let flows = state["sessions"]?[0]?["transcripts"]
            guard case let .array(items)? = flows else { Issue.record("no transcripts in \(state)"); return }
            let login = try #require(items.first { $0["transcript"]?.stringValue?.hasSuffix("login.transcript") == true })
            #expect(login["done"] == .int(1))
            #expect(login["next"]?.stringValue == "line 29: whoami")
            // A request off the flow, answered by its best fit anywhere, is the one `last` names (it named the login).
            #expect(try await Self.send("GET", server.baseURL.appendingPathComponent("api/tasks/7")).status == 200)
            let after = try JSONParser.parse(try await Self.send("GET", server.baseURL.appendingPathComponent("__mock/state")).body)
            let last = try #require(after["sessions"]?[0]?["last"]?.stringValue)
            #expect(last.hasSuffix(": get /api/tasks/{{task_id}}"), "\(last)")
        }
    }
}

extension MockTests {
    /// A recording begun while logged in (`login:` in its header) never
    /// recorded the login's answer: the mock makes one up, and the replay logs in first through it.
    @Test func aTranscriptBegunLoggedInIsServedWithAMadeUpLogin() async throws {
        let source = try String(contentsOfFile: (Self.sessions as NSString).appendingPathComponent("linku/create-task.transcript"), encoding: .utf8)
        let steps = try #require(source.range(of: "> post /api/tasks"))
        let text = "# explorer transcript v1\nprofile: linku\nbase-url: sandbox\nlogin: alice@example.com\n\n" + source[steps.lowerBound...]
        try await Self.withTranscript("begun", text) { file in
            try await Self.withMock([file], mode: .scenario) { server, scripts in
                #expect(scripts[0].steps.first?.command == "login alice@example.com")
                await Self.expectGreenReplay(of: file, against: server)
            }
        }
    }
}

extension MockTests {
    /// A socket that greets as it opens, and an id a greeting hands out used
    /// by a later request: the mock sends the greeting, and works out the
    /// request with the id it will hand out (a generic backend, not a sandbox).
    @Test func aGreetingFrameIsSentAndItsIdFeedsALaterRequest() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9

        > ws connect /socket
        | connected to {{ws_base_url}}/socket
        ← {
          "type": "hello",
          "room": {
            "id": {{room_id:=integer}}
          }
        }

        > get /rooms/{{room_id}}
        HTTP/1.1 200 OK
        Content-Type: application/json
        {
          "id": {{room_id}},
          "name": "lobby"
        }

        """
        try await Self.withTranscript("greeting", text) { file in
            try await Self.withMock([file], mode: .scenario) { server, scripts in
                let get = try #require(scripts[0].steps.first { $0.command.hasPrefix("get ") })
                guard case let .request(request) = get.trigger else { Issue.record("not a request step"); return }
                #expect(request.segments == [.literal("rooms"), .variable("room_id")])
                await Self.expectGreenReplay(of: file, against: server)
            }
        }
    }

    /// A script's recording often writes the echo of one `ws send` under the
    /// next, before that step's own frame: the mock answered the first frame
    /// with nothing, and the second with both echoes.
    @Test func anEchoRecordedUnderTheNextSendAnswersItsOwnSend() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9

        > ws connect /socket
        | connected to {{ws_base_url}}/socket

        > ws send {"n":1}
        → {
          "n": 1
        }

        > ws send {"n":2}
        ← {
          "echo": 1
        }
        → {
          "n": 2
        }
        ← {
          "echo": 2
        }

        > ws close
        | closed
        ← {
          "late": 3
        }

        """
        try await Self.withTranscript("echoes", text) { file in
            try await Self.withMock([file], mode: .scenario) { _, scripts in
                let sends = scripts[0].steps.filter { $0.command.hasPrefix("ws send") }
                // Frames written under `ws close` (where a script's echoes often land) follow the send before it.
                #expect(sends.map { TranscriptWriter.frames(($0.expectation.frames + $0.pushes).filter { $0.direction == .received }).joined() }
                        == [#"← {  "echo": 1}"#, #"← {  "echo": 2}← {  "late": 3}"#])
            }
        }
    }

    /// The same frame sent twice (a sync, a poll) was answered by the first
    /// recorded step each time: the second step's answer was never served.
    @Test func aFrameSentAgainIsAnsweredByTheNextStepItFits() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9

        > ws connect /socket
        | connected to {{ws_base_url}}/socket

        > ws send {"type":"sync"}
        → {
          "type": "sync"
        }
        ← {
          "who": "carol"
        }

        > ws send {"type":"sync"}
        → {
          "type": "sync"
        }
        ← {
          "who": "dave"
        }

        """
        try await Self.withTranscript("syncs", text) { file in
            let loaded = await MockCommand.load([file])
            let book = MockBook(scripts: loaded.scripts, mode: .match)
            let sync = try JSONParser.parse(#"{"type":"sync"}"#)
            let lines = (0..<3).compactMap { _ in book.frameStep(sync, text: #"{"type":"sync"}"#, session: "", baseURL: "http://x")?.0.line }
            #expect(lines == [8, 16, 8])
        }
    }

    /// `capture etag = header:ETag` read a header the recording does not
    /// write (only Content-Type and Location are): the mock warned "no ETag
    /// header" and served neither the capture nor the `If-Match:{{etag}}`
    /// step after it. It makes one up.
    @Test func aHeaderALaterCaptureReadsIsServed() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:1

        > get /articles/10
        HTTP/1.1 200 OK
        Content-Type: application/json
        {"id": "10"}

        > capture etag = header:ETag
        {{string}}

        > patch /articles/10 If-Match:{{etag}} title=y
        HTTP/1.1 200 OK
        Content-Type: application/json
        {"id": "10", "title": "y"}

        """
        try await Self.withTranscript("etag", text) { file in
            let loaded = await MockCommand.load([file])
            #expect(loaded.problems.isEmpty, "\(loaded.problems)")
            #expect(loaded.scripts.first?.requestSteps.count == 2)
            try await Self.withMock([file], mode: .match) { server, _ in
                let read = try await Self.send("GET", server.baseURL.appendingPathComponent("articles/10"))
                let etag = try #require(read.header("ETag"))
                #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count > 2, "\(etag)")
                await Self.expectGreenReplay(of: file, against: server)
            }
        }
    }

    /// A key sent twice is its last value, as a server's decoder reads it:
    /// `{"title":"alpha","title":"beta"}` got alpha's answer.
    @Test func aKeySentTwiceIsMatchedByItsLastValue() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:1

        > post /notes title=alpha
        HTTP/1.1 201 Created
        Content-Type: application/json
        {"id": 1, "title": "alpha"}

        > post /notes title=beta
        HTTP/1.1 201 Created
        Content-Type: application/json
        {"id": 2, "title": "beta"}

        """
        try await Self.withTranscript("twice", text) { file in
            try await Self.withMock([file], mode: .match) { server, _ in
                let made = try await Self.send("POST", server.baseURL.appendingPathComponent("notes"), body: #"{"title": "alpha", "title": "beta"}"#)
                #expect(try JSONParser.parse(made.body)["id"] == .int(2), "\(String(decoding: made.body, as: UTF8.self))")
            }
        }
    }

    /// A transcript whose one step is torn was listed as served ("0 request
    /// steps"), where docs/mock.md says it is skipped.
    @Test func aTranscriptWithNothingToServeIsSkipped() async throws {
        let text = "# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:1\n\n> get /a\nHTTP/1.1 200 OK\nContent-Type: application/json\n{\"a\": "
        try await Self.withTranscript("torn", text) { file in
            let loaded = await MockCommand.load([file])
            #expect(loaded.scripts.isEmpty && loaded.notes.isEmpty, "\(loaded)")
            #expect(loaded.problems.count == 1 && loaded.problems[0].hasPrefix("\(file): none of its steps can be served (\(file):5: the last step is torn"),
                    "\(loaded.problems)")
        }
    }

    /// A Location naming a capture its body binds came out without it
    /// (`/orders/`): headers were made before the body, and the mock failed
    /// a replay of the very file it served.
    @Test func aHeaderNamingACaptureOfItsBodyHasIt() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:1

        > post /orders item=widget
        HTTP/1.1 201 Created
        Content-Type: application/json
        Location: {{base_url}}/orders/{{order_id}}
        {"id": {{order_id:=integer}}, "item": "widget"}

        """
        try await Self.withTranscript("location", text) { file in
            try await Self.withMock([file], mode: .match) { server, _ in
                let made = try await Self.send("POST", server.baseURL.appendingPathComponent("orders"), body: #"{"item": "widget"}"#)
                let id = try #require(try JSONParser.parse(made.body)["id"]?.intValue)
                #expect(made.header("Location") == server.baseURL.absoluteString + "/orders/\(id)", "\(made.header("Location") ?? "none")")
                await Self.expectGreenReplay(of: file, against: server)
            }
        }
    }

    /// An app that made two notes and read the first back got the 404
    /// recorded after its delete (the step after the one answered last won a
    /// tie); one that asked for an id never handed out made it every later
    /// answer's id.
    @Test func aReadFollowsTheChangesAnsweredAndAStrayIdStaysInItsAnswer() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9

        > post /notes title=a
        HTTP/1.1 201 Created
        Content-Type: application/json
        {
          "id": 101,
          "title": "a"
        }

        > capture note_id = .id
        {{integer}}

        > get /notes/{{note_id}}
        HTTP/1.1 200 OK
        Content-Type: application/json
        {
          "id": {{note_id}},
          "title": "a"
        }

        > post /notes title=b
        HTTP/1.1 201 Created
        Content-Type: application/json
        {
          "id": 102,
          "title": "b"
        }

        > capture note2 = .id
        {{integer}}

        > get /notes
        HTTP/1.1 200 OK
        Content-Type: application/json
        [
          {
            "id": {{note_id}}
          },
          {
            "id": {{note2}}
          }
        ]

        > delete /notes/{{note_id}}
        HTTP/1.1 204 No Content

        > get /notes/{{note_id}}
        HTTP/1.1 404 Not Found
        Content-Type: application/json
        {
          "message": "gone"
        }

        """
        try await Self.withTranscript("notes", text) { file in
            try await Self.withMock([file], mode: .match) { server, _ in
                func call(_ method: String, _ path: String, _ body: String? = nil) async throws -> (Int, JSONValue?) {
                    let answer = try await Self.send(method, server.baseURL.appendingPathComponent(path), body: body)
                    return (answer.status, try? JSONParser.parse(answer.body))
                }
                let first = try await call("POST", "notes", #"{"title": "a"}"#)
                let second = try await call("POST", "notes", #"{"title": "b"}"#)
                let (a, b) = (try #require(first.1?["id"]), try #require(second.1?["id"]))
                let read = try await call("GET", "notes/\(a.plainText)")
                #expect(read.0 == 200 && read.1?["id"] == a, "\(read)")
                let stray = try await call("GET", "notes/31337")
                #expect(stray.0 == 200 && stray.1?["id"] == .int(31337), "\(stray)")
                let list = try await call("GET", "notes")
                #expect(list.1 == .array([.object([("id", a)]), .object([("id", b)])]), "\(list)")
                // An id recorded as a number takes only a number (`notes/a b` made the id a string).
                #expect(try await call("GET", "notes/a b").0 == 404)
                #expect(try await call("DELETE", "notes/\(a.plainText)").0 == 204)
                #expect(try await call("GET", "notes/\(a.plainText)").0 == 404)
                // The delete was of that note alone: the other reads as before (every note was 404 after it).
                let other = try await call("GET", "notes/\(b.plainText)")
                #expect(other.0 == 200 && other.1?["id"] == b, "\(other)")
            }
        }
        // Scenario mode, off its flow once the flow is done: the deleted note stays deleted (it came back).
        try await Self.withTranscript("notes", text) { file in
            try await Self.withMock([file], mode: .scenario) { server, _ async throws in
                func call(_ method: String, _ path: String, _ body: String? = nil) async throws -> Int {
                    try await Self.send(method, server.baseURL.appendingPathComponent(path), body: body).status
                }
                let flow: [(String, String, String?, Int)] = [
                    ("POST", "notes", #"{"title": "a"}"#, 201), ("GET", "notes/101", nil, 200), ("POST", "notes", #"{"title": "b"}"#, 201),
                    ("GET", "notes", nil, 200), ("DELETE", "notes/101", nil, 204), ("GET", "notes/101", nil, 404), ("GET", "notes/101", nil, 404)]
                for (n, (method, path, body, status)) in flow.enumerated() {
                    #expect(try await call(method, path, body) == status, "\(n): \(method) \(path)")
                }
            }
        }
    }

    /// A read typed with a captured Location (`get {{loc}}`) was on the
    /// literal path of the id it was made with, which fit better than the
    /// read recorded after the DELETE: the mock served the deleted item.
    @Test func aReadByACapturedLocationFollowsTheDeleteOfItsItem() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9

        > post /items name=lamp
        HTTP/1.1 201 Created
        Location: /items/{{id:=uuid}}
        {"name": "lamp", "id": "{{id}}"}

        > capture loc = header:Location
        "/items/{{id}}"

        > get {{loc}}
        HTTP/1.1 200 OK
        {"name": "lamp", "id": "{{id}}"}

        > delete /items/{{id}}
        HTTP/1.1 204 No Content

        > get /items/{{id}}
        HTTP/1.1 404 Not Found
        {"message": "item {{id}} not found"}

        """
        try await Self.withTranscript("items", text) { file in
            try await Self.withMock([file], mode: .match) { server, _ in
                let made = try await Self.send("POST", server.baseURL.appendingPathComponent("items"), body: #"{"name": "lamp"}"#)
                let location = try #require(made.headers.first { $0.hasName("Location") }?.value)
                let item = server.baseURL.appendingPathComponent(String(location.dropFirst()))
                #expect(try await Self.send("GET", item).status == 200)
                #expect(try await Self.send("DELETE", item).status == 204)
                let gone = try await Self.send("GET", item)
                #expect(gone.status == 404, "\(String(decoding: gone.body, as: UTF8.self))")
            }
        }
    }

    /// An id handed out as a string (`"id": "1"`) came back from a read as
    /// the number 1: an app decoding a String id failed on every read.
    @Test func anIdRecordedAsAStringIsAnsweredAsOne() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9

        > post /items title=first
        HTTP/1.1 201 Created
        Content-Type: application/json
        {
          "id": "1"
        }

        > capture a = .id
        {{string}}

        > get /items/{{a}}
        HTTP/1.1 200 OK
        Content-Type: application/json
        {
          "id": {{a}}
        }

        """
        try await Self.withTranscript("string-ids", text) { file in
            try await Self.withMock([file], mode: .match) { server, _ in
                _ = try await Self.send("POST", server.baseURL.appendingPathComponent("items"), body: #"{"title": "first"}"#)
                // The id as the client meant it, not as the path escaped it (`a%20b`).
                for id in ["1", "007", "42", "a b"] {
                    let url = try #require(URL(string: server.baseURL.absoluteString + "/items/" + id.replacingOccurrences(of: " ", with: "%20")))
                    let read = try JSONParser.parse(try await Self.send("GET", url).body)
                    #expect(read["id"] == .string(id), "\(id): \(read)")
                }
            }
        }
    }

    /// A number id's segment takes a number: `/items/搬` was answered 200
    /// with `"id": "搬"`, and the session's later answers gave the id as a
    /// string, which an app decoding an Int failed on.
    @Test func anIdRecordedAsANumberTakesOnlyANumber() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9

        > post /items title=first
        HTTP/1.1 201 Created
        Content-Type: application/json
        {
          "id": 1
        }

        > capture a = .id
        {{integer}}

        > get /items/{{a}}
        HTTP/1.1 200 OK
        Content-Type: application/json
        {
          "id": {{a}}
        }

        """
        try await Self.withTranscript("number-ids", text) { file in
            try await Self.withMock([file], mode: .match) { server, _ in
                let session = [HTTPHeader(name: "X-Mock-Session", value: "app")]
                let word = try await Self.send("GET", URL(string: server.baseURL.absoluteString + "/items/%E6%90%AC")!, headers: session)
                #expect(word.status == 404 && String(decoding: word.body, as: UTF8.self).contains("is not a number"), "\(word.status)")
                let read = try JSONParser.parse(try await Self.send("GET", server.baseURL.appendingPathComponent("items/6"), headers: session).body)
                #expect(read["id"] == .int(6), "\(read)")
            }
        }
    }

    /// A recording with a connection lost and made again (`← (closed 1006)`,
    /// then the server's greeting on the new connection) got the first
    /// `ws connect` step's greeting again on the client's reconnect: the
    /// frames after the loss are the next socket's, in its place.
    @Test func framesAfterARecordedLossGreetTheNextSocket() {
        let book = MockBook(scripts: [], mode: .match)
        let frames: [MockSocket.Outgoing] = [.text(#"{"echo":1}"#), .closeAsRecorded(code: CloseCode.lost, reason: ""), .text(#"{"hello":1}"#)]
        let now = book.delivering(frames, session: "s")
        #expect(now.count == 2)
        guard case .closeAsRecorded(CloseCode.lost, _)? = now.last else { Issue.record("\(now)"); return }
        guard case let .text(text)? = book.greetingAfterLoss(session: "s")?.first else { Issue.record("no greeting kept"); return }
        #expect(text == #"{"hello":1}"#)
        #expect(book.greetingAfterLoss(session: "s") == nil, "taken once")
        #expect(book.delivering([.text("x")], session: "other").count == 1)
        // A reset forgets it, as it forgets the rest of the session.
        _ = book.delivering(frames, session: "s")
        #expect(book.reset(session: "s", scenario: nil))
        #expect(book.greetingAfterLoss(session: "s") == nil)
    }

    /// A recorded event stream was served without its last line end, so
    /// its last event had no blank line after it, and EventSource (as the
    /// WHATWG rules say) dropped it: an app never got its `[DONE]`.
    @Test func aTextAnswerIsServedWithEachLinesEnd() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9

        > get /events
        HTTP/1.1 200 OK
        Content-Type: text/event-stream
        | data: a
        |
        | data: [DONE]
        |

        """
        try await Self.withTranscript("events", text) { file in
            try await Self.withMock([file], mode: .scenario) { server, _ in
                let events = try await Self.send("GET", server.baseURL.appendingPathComponent("events"))
                #expect(String(decoding: events.body, as: UTF8.self) == "data: a\n\ndata: [DONE]\n\n")
                _ = try await Self.send("POST", server.baseURL.appendingPathComponent("__mock/reset"))
                await Self.expectGreenReplay(of: file, against: server)
            }
        }
    }

    /// A query item a step did not record fits it (a cache-buster), but
    /// not one another step of the same path recorded: a cursor past the
    /// recorded pages was answered with the first, and a client paging to
    /// the end looped for ever.
    @Test func aCursorNoStepRecordedIsNotAnsweredWithTheFirstPage() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9

        > get /items limit==2
        HTTP/1.1 200 OK
        Content-Type: application/json
        {"items": [{"id": 1}, {"id": 2}], "next_cursor": 2}

        > get /items limit==2 cursor==2
        HTTP/1.1 200 OK
        Content-Type: application/json
        {"items": [{"id": 3}, {"id": 4}], "next_cursor": 4}

        """
        try await Self.withTranscript("pages", text) { file in
            try await Self.withMock([file], mode: .match) { server, _ in
                func get(_ query: String) async throws -> ReceivedResponse {
                    try await Self.send("GET", URL(string: server.baseURL.absoluteString + "/items?" + query)!)
                }
                func firstID(_ query: String) async throws -> JSONValue? {
                    try JSONParser.parse(String(decoding: try await get(query).body, as: UTF8.self))["items"]?[0]?["id"]
                }
                #expect(try await firstID("limit=2") == .int(1))
                #expect(try await firstID("limit=2&cursor=2") == .int(3))
                #expect(try await firstID("limit=2&_=1700000000") == .int(1), "a cache-buster fits")
                let past = try await get("limit=2&cursor=4")
                #expect(past.status == 404, "\(String(decoding: past.body, as: UTF8.self))")
            }
        }
    }

    /// A hand edit took a POST's body away: the capture of its id failed,
    /// the GET that used the id sent nothing, and the mock left it out
    /// without a word ("1 request step", a 404 for the GET): each step left
    /// out is said, and the rest served.
    @Test func aStepThatFailsAgainstItsOwnRecordingIsSaid() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9

        > post /items title=A
        HTTP/1.1 201 Created
        Content-Type: application/json

        > capture item_id = .id
        {{integer}}

        > get /items/{{item_id}}
        HTTP/1.1 200 OK
        Content-Type: application/json
        {"id": {{item_id}}, "title": "A"}

        """
        try await Self.withTranscript("edited", text) { file in
            let loaded = await MockCommand.load([file])
            #expect(loaded.problems.isEmpty && loaded.scripts.first?.steps.count == 1)
            #expect(loaded.notes.count == 2 && loaded.notes[0].hasSuffix("edited.transcript:9: the last response has no body, where its recording has "
                                                                          + "no error; it is not served")
                    && loaded.notes[1].contains("edited.transcript:12: unknown variable {{item_id}}"), "\(loaded.notes)")
        }
    }

    /// A header with no steps was served (a 404 for everything) where
    /// `replay` refuses it; `GET /__mock/reset` was matched against the
    /// recordings ("closest is line 5"), not said to take POST.
    @Test func aTranscriptWithoutStepsIsRefusedAndTheMocksOwnPathsNameTheirMethod() async throws {
        try await Self.withTranscript("empty", "# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n") { file in
            let loaded = await MockCommand.load([file])
            #expect(loaded.scripts.isEmpty && loaded.problems.first?.hasSuffix("empty.transcript: no steps: a transcript is served from its "
                                                                              + "'> ' command lines, and this one has none") == true, "\(loaded.problems)")
        }
        let file = (Self.sessions as NSString).appendingPathComponent("linku/login.transcript")
        try await Self.withMock([file], mode: .scenario) { server, _ in
            let reset = try await Self.send("GET", server.baseURL.appendingPathComponent("__mock/reset"))
            #expect(reset.status == 405 && reset.header("Allow") == "POST", "\(String(decoding: reset.body, as: UTF8.self))")
            #expect(try await Self.send("HEAD", server.baseURL.appendingPathComponent("__mock/state")).status == 200)
            let state = try await Self.send("POST", server.baseURL.appendingPathComponent("__mock/state"))
            #expect(state.status == 405 && String(decoding: state.body, as: UTF8.self).contains("/__mock/state takes GET, not POST"))
        }
    }

    /// A Latin-1 answer is recorded as text; the mock served it as UTF-8
    /// under its Latin-1 header, so a client read `JosÃ©`. It is served in
    /// the charset its header names, and its replay passes.
    @Test func anAnswerRecordedInAnotherCharsetIsServedInIt() async throws {
        let text = """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9

        > get /people/1
        HTTP/1.1 200 OK
        Content-Type: application/json; charset=iso-8859-1
        {
          "name": "José"
        }

        > get /page
        HTTP/1.1 200 OK
        Content-Type: text/plain; charset=koi8-r
        | Привет

        """
        try await Self.withTranscript("latin", text) { file in
            try await Self.withMock([file], mode: .scenario) { server, _ in
                let person = try await Self.send("GET", server.baseURL.appendingPathComponent("people/1"))
                #expect(person.body == Array(#"{"name":"Jos"#.utf8) + [0xE9] + Array(#""}"#.utf8))
                let page = try await Self.send("GET", server.baseURL.appendingPathComponent("page"))
                #expect(page.body == [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4, 0x0A])
                _ = try await Self.send("POST", server.baseURL.appendingPathComponent("__mock/reset"))
                await Self.expectGreenReplay(of: file, against: server)
            }
        }
    }
}

extension MockTests {
    /// A list paged by its Link header: the recording wrote no Link, so the
    /// mock worked out no request for its `next` steps, left them out
    /// unsaid, and answered `?page=3` with page 1. The Link is recorded, and
    /// a step that makes no request where its recording has an answer is said.
    @Test func aListsNextPagesByItsLinkAreServed() async throws {
        func transcript(link: Bool) -> String {
            func page(_ n: Int) -> String {
                "HTTP/1.1 200 OK\nContent-Type: application/json\n" + (link && n < 3 ? "Link: <{{base_url}}/items?page=\(n + 1)>; rel=\"next\"\n" : "") + "[\(n)]\n"
            }
            return "# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:1\n\n> get /items\n\(page(1))\n> next\n\(page(2))\n> next\n\(page(3))"
        }
        try await Self.withTranscript("linked", transcript(link: true)) { file in
            try await Self.withMock([file], mode: .match) { server, scripts in
                #expect(scripts.first?.requestSteps.count == 3)
                let third = try await Self.send("GET", URL(string: "\(server.baseURL)/items?page=3")!)
                #expect(String(decoding: third.body, as: UTF8.self) == "[3]")
                let first = try await Self.send("GET", URL(string: "\(server.baseURL)/items")!)
                #expect(first.header("Link") == "<\(server.baseURL)/items?page=2>; rel=\"next\"")
                await Self.expectGreenReplay(of: file, against: server)
            }
        }
        try await Self.withTranscript("unlinked", transcript(link: false)) { file in
            let loaded = await MockCommand.load([file])
            #expect(loaded.notes == ["\(file):10: it makes no request here (no next page: the answer names none (no Link header, next, next_cursor or page)), "
                                     + "where its recording has an answer; it is not served",
                                     "\(file):15: it makes no request here (no next page: the answer names none (no Link header, next, next_cursor or page)), "
                                     + "where its recording has an answer; it is not served"], "\(loaded.notes)")
        }
    }
}
