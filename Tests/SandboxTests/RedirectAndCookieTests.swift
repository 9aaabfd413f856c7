import Core
import Foundation
import NIOCore
import Testing

/// Answers by URL from a table, and records what was sent.
final class RoutedTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var sent: [PreparedRequest] = []
    private let route: @Sendable (PreparedRequest) -> ReceivedResponse
    var requests: [PreparedRequest] { lock.withLock { sent } }
    var eventLoop: any EventLoop { Self.sharedLoop }

    init(_ route: @escaping @Sendable (PreparedRequest) -> ReceivedResponse) { self.route = route }

    nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse {
        lock.withLock { sent.append(request) }
        return route(request)
    }

    static func answer(_ status: Int, _ headers: [String: String] = [:], _ body: String = "") -> ReceivedResponse {
        ReceivedResponse(status: status, reason: "", headers: headers.sorted { $0.key < $1.key }.map { HTTPHeader(name: $0.key, value: $0.value) },
                         body: Array(body.utf8))
    }
}

@Suite struct RedirectTests {
    let base = URL(string: "http://127.0.0.1:9")!

    func session(_ transport: RoutedTransport, loggedIn: Bool = true) throws -> AuthSession {
        let store = MemoryTokenStore()
        if loggedIn { try store.save(key: "linku http://127.0.0.1:9", tokens: Tokens(accessToken: "T0KEN", refreshToken: "r", userJSON: nil)) }
        return AuthSession(profile: .linku, builder: RequestBuilder(baseURL: base), transport: transport, store: store)
    }

    static func redirects(_ request: PreparedRequest) -> ReceivedResponse {
        switch request.url.path {
        case "/a": return RoutedTransport.answer(302, ["Location": "/b"])
        case "/see-other": return RoutedTransport.answer(303, ["Location": "/b"])
        case "/temporary": return RoutedTransport.answer(307, ["Location": "/b"])
        case "/away": return RoutedTransport.answer(302, ["Location": "http://127.0.0.1:10/landing"])
        case "/away-307": return RoutedTransport.answer(307, ["Location": "http://127.0.0.1:10/stolen"])
        case "/loop": return RoutedTransport.answer(302, ["Location": "/loop"])
        case "/file": return RoutedTransport.answer(302, ["Location": "file:///etc/passwd"])
        case "/nowhere": return RoutedTransport.answer(301)
        default: return RoutedTransport.answer(200, [:], "{}")
        }
    }

    @Test func withoutFollowA302IsTheAnswer() async throws {
        let transport = RoutedTransport(Self.redirects)
        let auth = try session(transport)
        let exchange = try await auth.send(auth.builder.build(method: "GET", path: "/a", items: []))
        #expect(exchange.response.status == 302)
        #expect(transport.requests.count == 1)
    }

    @Test func followGoesToTheLocationAndKeepsTheHops() async throws {
        let transport = RoutedTransport(Self.redirects)
        let auth = try session(transport)
        let exchange = try await auth.send(auth.builder.build(method: "GET", path: "/a", items: []), follow: RedirectPolicy())
        #expect(exchange.response.status == 200)
        #expect(exchange.request.url.absoluteString == "http://127.0.0.1:9/b")
        #expect(exchange.hops.map(\.response.status) == [302])
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer T0KEN", "Bearer T0KEN"])
    }

    @Test func aPostBecomesAGetAfter303ButNotAfter307() async throws {
        let transport = RoutedTransport(Self.redirects)
        let auth = try session(transport)
        let post = { (path: String) throws -> PreparedRequest in try auth.builder.build(method: "POST", path: path, items: [.stringField(name: "a", value: "1")]) }
        _ = try await auth.send(post("/see-other"), follow: RedirectPolicy())
        _ = try await auth.send(post("/temporary"), follow: RedirectPolicy())
        let sent = transport.requests.map { "\($0.method) \($0.url.path) \($0.body.map { String(decoding: $0, as: UTF8.self) } ?? "-")" }
        #expect(sent == [#"POST /see-other {"a":"1"}"#, "GET /b -", #"POST /temporary {"a":"1"}"#, #"POST /b {"a":"1"}"#])
        #expect(transport.requests[1].header("Content-Type") == nil)
    }

    /// Issue 14: "the Authorization header and session credentials are
    /// dropped when a redirect leaves the origin".
    @Test func aRedirectToAnotherOriginCarriesNoCredentials() async throws {
        let transport = RoutedTransport(Self.redirects)
        let auth = try session(transport)
        let typed = try auth.builder.build(method: "GET", path: "/away", items: [.header(name: "Cookie", value: "mine=1")])
        let exchange = try await auth.send(typed, follow: RedirectPolicy())
        #expect(exchange.request.url.absoluteString == "http://127.0.0.1:10/landing")
        #expect(exchange.tokenWithheld)
        let landing = try #require(transport.requests.last)
        #expect(landing.header("Authorization") == nil && landing.header("Cookie") == nil)
        let mine = try auth.builder.build(method: "GET", path: "/away", items: [.header(name: "Authorization", value: "Basic dXNlcjpwYXNz")])
        _ = try await auth.send(mine, follow: RedirectPolicy())
        #expect(transport.requests.last?.header("Authorization") == nil)
        #expect(transport.requests.dropLast().last?.header("Authorization") == "Basic dXNlcjpwYXNz")
        // Names no rule calls secret that may carry a session all the same stay behind; others go on.
        let named = try auth.builder.build(method: "GET", path: "/away", items: ["X-Session", "Session-Id", "X-Access-Tok", "X-Jwt", "X-Credential", "X-Trace"].map {
            .header(name: $0, value: "v-\($0)")
        })
        _ = try await auth.send(named, follow: RedirectPolicy())
        #expect(transport.requests.last.map { $0.headers.filter { $0.name.hasPrefix("X-") || $0.name.hasPrefix("Session") }.map(\.name) } == ["X-Trace"])
    }

    @Test func tooManyRedirectsIsOneLine() async throws {
        let transport = RoutedTransport(Self.redirects)
        let auth = try session(transport)
        do {
            _ = try await auth.send(auth.builder.build(method: "GET", path: "/loop", items: []), follow: RedirectPolicy(maximum: 3))
            Issue.record("no error")
        } catch let error as RedirectPolicy.TooMany {
            #expect(error.description == "stopped after 3 redirects (--max-redirects 3); the next would go to http://127.0.0.1:9/loop")
        }
        #expect(transport.requests.count == 4)
        // Where it would go is said with its credentials hidden, as its Location line shows it.
        let said = RedirectPolicy.TooMany(limit: 3, location: "http://admin:hunter2SECRET@h:9/loop?access_token=T0KEN123").description
        #expect(said.hasSuffix("go to http://admin:\(Redactor.hidden("hunter2SECRET"))@h:9/loop?access_token=\(Redactor.hidden("T0KEN123"))"), "\(said)")
    }

    /// A Location that cannot be followed is said with its credentials
    /// hidden, as its Location line shows it: an OAuth redirect to an app's
    /// scheme (`app://cb?access_token=…`) and a `user:password@` were said in clear.
    @Test(arguments: ["com.example.app://cb?access_token=at_64e74f2a3a9e", "com.example.app://cb#access_token=at_64e74f2a3a9e",
                      "ftp://admin:hunter2SECRET@files.example.com/x", "http://admin:hunter2SECRET@127.0.0.1:-5/x",
                      "http://us er:hunter2SECRET@[::zz/x"])
    func anUnfollowableLocationIsSaidWithItsCredentialsHidden(location: String) throws {
        let request = try RequestBuilder(baseURL: base).build(method: "GET", path: "/oauth", items: [])
        do {
            _ = try RedirectPolicy.next(after: RoutedTransport.answer(302, ["Location": location]), to: request)
            Issue.record("\(location) was followed")
        } catch {
            #expect(!"\(error)".contains("at_64e74f2a3a9e") && !"\(error)".contains("hunter2SECRET"), "\(error)")
            #expect("\(error)".contains(Redactor.hidden(location.contains("hunter2") ? "hunter2SECRET" : "at_64e74f2a3a9e")), "\(error)")
        }
    }

    /// A redirect that cannot be followed is one line and an error: it was
    /// a quiet stop with status 0 though --follow was asked for.
    @Test(arguments: [("/file", "not following the 302 redirect: its Location file:///etc/passwd is not an http or https URL")])
    func aRedirectThatCannotBeFollowedIsSaid(path: String, said: String) async throws {
        let transport = RoutedTransport(Self.redirects)
        let auth = try session(transport)
        await #expect(throws: RedirectPolicy.Unfollowable.self) {
            _ = try await auth.send(auth.builder.build(method: "GET", path: path, items: []), follow: RedirectPolicy())
        }
        do { _ = try await auth.send(auth.builder.build(method: "GET", path: path, items: []), follow: RedirectPolicy()) } catch {
            #expect("\(error)" == said)
        }
        let unfollowed = try await auth.send(auth.builder.build(method: "GET", path: path, items: []))
        #expect(unfollowed.response.status >= 301, "without --follow the 3xx is the answer")
    }

    /// A 3xx without a Location under --follow failed the line, its body and
    /// headers never seen; curl -L and HTTPie show it as the answer.
    @Test func aRedirectWithoutALocationIsTheAnswer() async throws {
        let transport = RoutedTransport(Self.redirects)
        let auth = try session(transport)
        let answer = try await auth.send(auth.builder.build(method: "GET", path: "/nowhere", items: []), follow: RedirectPolicy())
        #expect(answer.response.status == 301 && answer.hops.isEmpty && transport.requests.count == 1)
    }

    /// `--raw 'password=…'` goes as application/json: its password was not
    /// seen, and a 307 to another origin sent it there.
    @Test func aRawFormBodysPasswordIsNotSentOnToAnotherOrigin() async throws {
        let transport = RoutedTransport(Self.redirects)
        let auth = try session(transport)
        let raw = try auth.builder.build(method: "POST", path: "/away-307", items: [], raw: "user=bob&password=S3cr3tRaw_14a")
        do {
            _ = try await auth.send(raw, follow: RedirectPolicy())
            Issue.record("followed")
        } catch {
            #expect("\(error)".contains("with its password"), "\(error)")
        }
        #expect(transport.requests.map(\.url.port) == [9])
    }
}

@Suite struct SessionCookieTests {
    /// A cookie set by one answer goes with the next request to that host, not to another one.
    @Test func cookiesFollowTheirOwnDomainRules() async throws {
        let transport = RoutedTransport { request in
            request.url.path == "/login" ? RoutedTransport.answer(200, ["Set-Cookie": "sid=abc; Path=/; HttpOnly"], "{}") : RoutedTransport.answer(200, [:], "{}")
        }
        let auth = AuthSession(profile: .linku, builder: RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!), transport: transport, store: MemoryTokenStore())
        _ = try await auth.send(auth.builder.build(method: "POST", path: "/login", items: []))
        let me = try await auth.send(auth.builder.build(method: "GET", path: "/me", items: []))
        #expect(me.request.header("Cookie") == "sid=abc")
        _ = try await auth.send(auth.builder.build(method: "GET", path: "http://127.0.0.2:9/x", items: []))
        #expect(transport.requests.last?.header("Cookie") == nil)
        let typed = try await auth.send(auth.builder.build(method: "GET", path: "/me", items: [.header(name: "Cookie", value: "other=1")]))
        #expect(typed.request.header("Cookie") == "other=1", "a Cookie typed on the line wins")
        await auth.clearCookies()
        #expect(try await auth.send(auth.builder.build(method: "GET", path: "/me", items: [])).request.header("Cookie") == nil)
    }
}

@Suite struct SessionHeaderTests {
    /// Session headers follow the token's rule: the backend's origin only;
    /// a header the line sets wins; a session Authorization keeps the login's token off.
    @Test func sessionHeadersGoOnlyToTheBackendAndTheLineWins() async throws {
        let transport = RoutedTransport { _ in RoutedTransport.answer(200, [:], "{}") }
        let store = MemoryTokenStore()
        try store.save(key: "linku http://127.0.0.1:9", tokens: Tokens(accessToken: "T0KEN", refreshToken: "r", userJSON: nil))
        let auth = AuthSession(profile: .linku, builder: RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!), transport: transport, store: store)
        await auth.setSessionHeader("X-Api-Key", "k")
        await auth.setSessionHeader("Authorization", "Basic dTpw")
        _ = try await auth.send(auth.builder.build(method: "GET", path: "/api/tasks", items: []))
        _ = try await auth.send(auth.builder.build(method: "GET", path: "http://127.0.0.1:10/x", items: []))
        _ = try await auth.send(auth.builder.build(method: "GET", path: "/api/tasks", items: [.header(name: "X-Api-Key", value: "mine")]))
        await auth.setSessionHeader("Authorization", "")
        _ = try await auth.send(auth.builder.build(method: "GET", path: "/api/tasks", items: []))
        let sent = transport.requests.map { [$0.header("X-Api-Key") ?? "-", $0.header("Authorization") ?? "-"] }
        #expect(sent == [["k", "Basic dTpw"], ["-", "-"], ["mine", "Basic dTpw"], ["k", "Bearer T0KEN"]])
    }
}
