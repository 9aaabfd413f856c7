import Core
import Foundation
import NIOCore
import Testing
@testable import Sandbox

/// The 401 rules of seed 000 against a real sandbox over real sockets.
@Suite struct AuthSessionTests {
    func session(_ server: SandboxServer, _ transport: any HTTPTransport, store: any TokenStore = MemoryTokenStore()) -> AuthSession {
        AuthSession(profile: .linku, builder: RequestBuilder(baseURL: server.baseURL), transport: transport, store: store)
    }

    func get(_ session: AuthSession, _ path: String) async throws -> Exchange {
        try await session.send(session.builder.build(method: "GET", path: path, items: []))
    }

    @Test func loginThenAnAuthenticatedGet() async throws {
        try await withSandbox { server, http in
            let auth = session(server, http)
            let login = try await auth.login(email: "alice@example.com", password: "alice123")
            #expect(login.response.status == 200)
            #expect(await auth.userName == "alice")
            let me = try await get(auth, "/api/users/profile/me")
            #expect(me.response.status == 200)
            #expect(me.request.header("Authorization")?.hasPrefix("Bearer ey") == true)
            #expect(!me.refreshed)
        }
    }

    @Test func aFailedLoginKeepsNoTokens() async throws {
        try await withSandbox { server, http in
            let auth = session(server, http)
            let login = try await auth.login(email: "alice@example.com", password: "wrong")
            #expect(login.response.status == 401)
            #expect(await auth.isLoggedIn == false)
        }
    }

    @Test func a401IsRefreshedAndRetriedOnce() async throws {
        try await withSandbox { server, http in
            let auth = session(server, http)
            _ = try await auth.login(email: "alice@example.com", password: "alice123")
            let before = await auth.tokens?.accessToken
            try await server.expireAccessTokens()
            let me = try await get(auth, "/api/users/profile/me")
            #expect(me.response.status == 200)
            #expect(me.refreshed)
            #expect(await auth.tokens?.accessToken != before)
            #expect(server.count("refresh") == 1)
        }
    }

    @Test func fiftyConcurrent401sShareOneRefresh() async throws {
        try await withSandbox { server, http in
            let auth = session(server, http)
            _ = try await auth.login(email: "alice@example.com", password: "alice123")
            try await server.expireAccessTokens()
            let statuses = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for i in 0..<50 {
                    group.addTask {
                        let exchange = try await self.get(auth, i.isMultiple(of: 2) ? "/api/users/profile/me" : "/api/tasks/\(i % 5 + 1)")
                        return (exchange.response.status, exchange.refreshed)
                    }
                }
                var all: [(Int, Bool)] = []
                for try await result in group { all.append(result) }
                return all
            }
            #expect(statuses.count == 50)
            #expect(statuses.allSatisfy { $0.0 == 200 })
            // Counted on the server: exactly one refresh call for fifty 401s.
            #expect(server.count("refresh") == 1)
        }
    }

    /// A REPL and a script on one login (one token store), after the
    /// script met an expired token and refreshed.
    func replAndScriptAfterTheScriptRefreshed(_ server: SandboxServer, _ http: any HTTPTransport) async throws
        -> (repl: AuthSession, script: AuthSession, store: MemoryTokenStore) {
        let store = MemoryTokenStore()
        let repl = session(server, http, store: store)
        _ = try await repl.login(email: "alice@example.com", password: "alice123")
        let script = session(server, http, store: store)
        try await server.expireAccessTokens()
        #expect(try await get(script, "/api/users/profile/me").refreshed)
        return (repl, script, store)
    }

    /// Two processes on one login (a REPL and a script): the one whose
    /// token expired takes the tokens the other refreshed and saved, rather
    /// than refreshing with a refresh token the rotation made void, which the
    /// server refused, and which then deleted the other's new tokens too.
    /// The retry said "(access token refreshed; request retried)", and a
    /// recording wrote it, though this process refreshed nothing.
    @Test func aLoginRefreshedByAnotherProcessIsTakenNotRefreshedAgain() async throws {
        try await withSandbox { server, http in
            let (repl, script, store) = try await replAndScriptAfterTheScriptRefreshed(server, http)
            let me = try await get(repl, "/api/users/profile/me")
            // Retried with the script's tokens: no refresh of its own, so none said (nor recorded).
            #expect(me.response.status == 200 && !me.refreshed)
            #expect(server.count("refresh") == 1)
            let (mine, theirs) = (await repl.tokens, await script.tokens)
            #expect(mine == theirs && store.load(key: "linku \(server.baseURL.absoluteString)") == mine)
        }
    }

    /// A token store that cannot be written (a file where its folder goes)
    /// failed the login's line with a raw Foundation error, though the
    /// session had logged in. The login holds; why it is not saved is said
    /// once, on the login's exchange.
    @Test func aStoreThatCannotBeWrittenDoesNotUndoTheLogin() async throws {
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("store-blocker-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: blocker) }
        try Data().write(to: blocker)
        try await withSandbox { server, http in
            let auth = session(server, http, store: FileTokenStore(url: blocker.appendingPathComponent("tokens.json")))
            let login = try await auth.login(email: "alice@example.com", password: "alice123")
            #expect(await auth.isLoggedIn)
            #expect(login.storeWarning == "the login is kept for this session only: cannot write \(blocker.path)/tokens.json: \(blocker.path) is a file, not a folder")
            let again = try await auth.login(email: "alice@example.com", password: "alice123")
            #expect(again.storeWarning == nil, "said once")
            #expect(try await get(auth, "/api/users/profile/me").response.status == 200)
        }
    }

    /// A tokens file that does not read as one (cut short, edited by hand)
    /// was taken as empty, then written over with this login: every other
    /// backend's login in it was lost, without a word.
    @Test func aTokensFileThatDoesNotReadIsLeftAsItIsAndSaid() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("tokens.json")
        let cut = Data(#"{"version": 2, "backends": {"nova https://api.example.com": {"users": {"bob": {"accessToken": "#.utf8)
        try cut.write(to: url)
        try await withSandbox { server, http in
            let auth = session(server, http, store: FileTokenStore(url: url))
            let login = try await auth.login(email: "alice@example.com", password: "alice123")
            #expect(await auth.isLoggedIn)
            #expect(login.storeWarning == "the login is kept for this session only: \(url.path) is not a tokens file explorer reads (left as it is; move it away to save logins again)")
            #expect(try Data(contentsOf: url) == cut)
        }
    }

    /// `logout` whose tokens could not be removed from the file said "logged
    /// out": the next run was logged in again.
    @Test func aLogoutWhoseSavedLoginStaysSaysSo() async throws {
        struct Denied: Error, CustomStringConvertible { var description: String { "cannot write tokens.json: permission denied" } }
        final class KeepsEverything: TokenStore, @unchecked Sendable {
            let memory = MemoryTokenStore()
            func load(key: String) -> Tokens? { memory.load(key: key) }
            func load(key: String, owner: String) -> Tokens? { memory.load(key: key, owner: owner) }
            func lockForRefresh(key: String) -> RefreshLock? { .local }
            func save(key: String, owner: String, tokens: Tokens?) throws {
                guard let tokens else { throw Denied() }
                try memory.save(key: key, owner: owner, tokens: tokens)
            }
        }
        try await withSandbox { server, http in
            let store = KeepsEverything()
            let auth = session(server, http, store: store)
            _ = try await auth.login(email: "alice@example.com", password: "alice123")
            let exchange = try await auth.logout()
            #expect(await !auth.isLoggedIn)
            #expect(exchange?.storeWarning == "logged out of this session only; the saved login stays: cannot write tokens.json: permission denied")
            #expect(store.load(key: "linku \(server.baseURL.absoluteString)") != nil)
        }
    }

    /// Two explorers whose tokens ran out together (four scripts started at
    /// once) each sent the same single-use refresh token: one refresh was
    /// accepted and the others refused, which a server that detects reuse
    /// answers by revoking the login. The store's refresh lock makes it one
    /// refresh; the other takes what it saved.
    @Test func twoProcessesWhoseTokensRanOutTogetherSendOneRefresh() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("refresh-lock-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("tokens.json")
        try await withSandbox { server, http in
            let first = session(server, http, store: FileTokenStore(url: url))
            _ = try await first.login(email: "alice@example.com", password: "alice123")
            let second = session(server, http, store: FileTokenStore(url: url))
            try await server.expireAccessTokens()
            async let a = get(first, "/api/users/profile/me")
            async let b = get(second, "/api/users/profile/me")
            let (one, two) = try await (a, b)
            #expect(one.response.status == 200 && two.response.status == 200)
            #expect(server.count("refresh") == 1)
        }
    }

    /// The tokens another process saved had expired too by the time they
    /// were taken (it refreshed a while ago): the retry got a 401 again and
    /// the line said "(access token refreshed; request retried)" over a
    /// TOKEN_EXPIRED though no refresh was sent. Now that process's newer
    /// refresh token is used for a refresh of this session's own.
    @Test func aTakenLoginThatExpiredTooIsRefreshed() async throws {
        try await withSandbox { server, http in
            let (repl, _, store) = try await replAndScriptAfterTheScriptRefreshed(server, http)
            try await server.expireAccessTokens()
            let me = try await get(repl, "/api/users/profile/me")
            #expect(me.response.status == 200 && me.refreshed && !me.sessionExpired)
            #expect(server.count("refresh") == 2)
            #expect(await repl.tokens == store.load(key: "linku \(server.baseURL.absoluteString)"))
        }
    }

    /// A server that rotates refresh tokens, under a profile that does not
    /// say where the refresh answer has the new one: it was not taken, so
    /// the second refresh sent the used token and lost the login. It is read
    /// where the login's was; a refused refresh says the server's reason.
    @Test func aRotatedRefreshTokenIsTakenWithoutTheProfileSayingWhere() async throws {
        try await withSandbox { server, http in
            var profile = Profile.linku
            profile.auth?.refreshedRefreshTokenPath = nil
            let auth = AuthSession(profile: profile, builder: RequestBuilder(baseURL: server.baseURL), transport: http, store: MemoryTokenStore())
            _ = try await auth.login(email: "alice@example.com", password: "alice123")
            for _ in 0..<2 {
                try await server.expireAccessTokens()
                let me = try await get(auth, "/api/users/profile/me")
                #expect(me.response.status == 200 && me.refreshed)
            }
            let refresh = try #require(await auth.tokens?.refreshToken)
            _ = try await http.call(server, "POST", "/api/secure-auth/refresh", [.stringField(name: "refresh_token", value: refresh)])
            try await server.expireAccessTokens()
            let expired = try await get(auth, "/api/users/profile/me")
            #expect(expired.sessionExpired && expired.refreshRefusal?.hasPrefix("the refresh was refused: 401 ") == true, "\(expired.refreshRefusal ?? "no reason")")
        }
    }

    @Test func aRejectedRefreshClearsTheTokens() async throws {
        try await withSandbox { server, http in
            let store = MemoryTokenStore()
            let auth = session(server, http, store: store)
            _ = try await auth.login(email: "alice@example.com", password: "alice123")
            // Someone else uses the refresh token first (rotation makes ours invalid).
            let refresh = try #require(await auth.tokens?.refreshToken)
            _ = try await http.call(server, "POST", "/api/secure-auth/refresh", [.stringField(name: "refresh_token", value: refresh)])
            try await server.expireAccessTokens()
            let me = try await get(auth, "/api/users/profile/me")
            #expect(me.response.status == 401)
            #expect(me.sessionExpired)
            #expect(await auth.isLoggedIn == false)
            #expect(store.load(key: "linku \(server.baseURL.absoluteString)") == nil)
            #expect(AuthError.sessionExpired.message == "session expired, please log in")
        }
    }

    @Test func tokensPersistInTheStoreAcrossSessions() async throws {
        try await withSandbox { server, http in
            let store = MemoryTokenStore()
            _ = try await session(server, http, store: store).login(email: "bob@example.com", password: "bob12345")
            let second = session(server, http, store: store)
            #expect(await second.userName == "bob")
            #expect(try await get(second, "/api/users/profile/me").response.status == 200)
        }
    }

    @Test func logoutForgetsTokensAndRevokesTheRefreshToken() async throws {
        try await withSandbox { server, http in
            let auth = session(server, http)
            _ = try await auth.login(email: "alice@example.com", password: "alice123")
            let refresh = try #require(await auth.tokens?.refreshToken)
            let out = try await auth.logout()
            #expect(out?.response.status == 200)
            #expect(await auth.isLoggedIn == false)
            let reuse = try await http.call(server, "POST", "/api/secure-auth/refresh", [.stringField(name: "refresh_token", value: refresh)])
            #expect(reuse.status == 401)
        }
    }
}

/// Records requests and answers 200, to see exactly what the session sends.
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var requests: [PreparedRequest] = []
    var eventLoop: any EventLoop { Self.sharedLoop }
    nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse {
        lock.withLock { requests.append(request) }
        return ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Array("{}".utf8))
    }
}

@Suite struct PublicEndpointTests {
    @Test func publicEndpointsGetNoAuthorization() async throws {
        let transport = RecordingTransport()
        let store = MemoryTokenStore()
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!)
        try store.save(key: "linku http://127.0.0.1:9", tokens: Tokens(accessToken: "secret-access", refreshToken: "r", userJSON: nil))
        let auth = AuthSession(profile: .linku, builder: builder, transport: transport, store: store)
        _ = try await auth.send(builder.build(method: "GET", path: "/api/banners", items: []))
        _ = try await auth.send(builder.build(method: "GET", path: "/api/forum/posts", items: [.query(name: "page", value: "1")]))
        _ = try await auth.send(builder.build(method: "GET", path: "/api/tasks", items: []))
        _ = try await auth.send(builder.build(method: "GET", path: "/api/tasks", items: [.header(name: "Authorization", value: "Bearer mine")]))
        let sent = transport.requests.map { $0.header("Authorization") }
        #expect(sent == [nil, nil, "Bearer secret-access", "Bearer mine"])
    }

    /// Issue 11 #11: the public check ignored the method, so `POST
    /// /api/forum/posts` went without the token because `GET` is public.
    /// Every catalog path, asked with every method: the token goes unless an
    /// endpoint with that very method and path is public.
    @Test func everyMethodOnEveryCatalogPathCarriesTheTokenUnlessThatEndpointIsPublic() async throws {
        for profile in Profile.builtIn.values {
            let transport = RecordingTransport()
            let store = MemoryTokenStore()
            let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!)
            try store.save(key: "\(profile.name) http://127.0.0.1:9", tokens: Tokens(accessToken: "T0KEN", refreshToken: "r", userJSON: nil))
            let auth = AuthSession(profile: profile, builder: builder, transport: transport, store: store)
            let paths = Set(profile.endpoints.map(\.path))
            for template in paths.sorted() {
                let concrete = template.replacing(/\{[^}]*\}/, with: "7")
                for method in ["GET", "POST", "PUT", "PATCH", "DELETE"] {
                    let exchange = try await auth.send(builder.build(method: method, path: concrete, items: []))
                    let listedPublic = profile.endpoints.contains { $0.method == method && $0.path == template && $0.isPublic }
                    let sent = exchange.request.header("Authorization")
                    #expect((sent == nil) == listedPublic, "\(profile.name) \(method) \(template): sent \(sent ?? "no token")")
                }
            }
        }
    }

    /// A login kept for a profile is not another's of the same `name:` that
    /// puts its sockets elsewhere: a cloned project's file, named for the
    /// user's, sent the user's stored token to the socket host it named.
    @Test func aStoredLoginIsNotLentToAProfileWithItsSocketsElsewhere() async throws {
        let store = MemoryTokenStore()
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!)
        try store.save(key: "linku http://127.0.0.1:9", tokens: Tokens(accessToken: "T0KEN", refreshToken: "r", userJSON: nil))
        #expect(await AuthSession(profile: .linku, builder: builder, transport: RecordingTransport(), store: store).tokens?.accessToken == "T0KEN")
        var elsewhere = Profile.linku
        elsewhere.webSocketBaseURL = URL(string: "ws://127.0.0.1:10")
        #expect(await AuthSession(profile: elsewhere, builder: builder, transport: RecordingTransport(), store: store).tokens == nil)
        #expect(AuthSession.storeKey(profile: elsewhere, baseURL: builder.baseURL) == "linku http://127.0.0.1:9 ws://127.0.0.1:10")
        // One at the base URL's own origin is the same backend's.
        elsewhere.webSocketBaseURL = URL(string: "ws://127.0.0.1:9/socket")
        #expect(await AuthSession(profile: elsewhere, builder: builder, transport: RecordingTransport(), store: store).tokens?.accessToken == "T0KEN")
    }

    /// Issue 11 #1: logged in, a full URL to another server got the token.
    /// It goes only to the base URL's origin: scheme, host and port.
    @Test func theTokenGoesOnlyToTheBackendsOrigin() async throws {
        let transport = RecordingTransport()
        let store = MemoryTokenStore()
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9/v1")!)
        try store.save(key: "linku http://127.0.0.1:9/v1", tokens: Tokens(accessToken: "T0KEN", refreshToken: "r", userJSON: nil))
        let auth = AuthSession(profile: .linku, builder: builder, transport: transport, store: store)
        var withheld: [Bool] = []
        for url in ["/api/tasks", "http://127.0.0.1:9/api/tasks", "HTTP://127.0.0.1:9/other",
                    "http://127.0.0.1:10/api/tasks", "https://127.0.0.1:9/api/tasks", "http://localhost:9/api/tasks",
                    "http://127.0.0.1.evil.example/api/tasks", "http://evil.example/?u=http://127.0.0.1:9"] {
            let exchange = try await auth.send(builder.build(method: "GET", path: url, items: []))
            withheld.append(exchange.tokenWithheld)
        }
        let sent = transport.requests.map { $0.header("Authorization") }
        #expect(sent == ["Bearer T0KEN", "Bearer T0KEN", "Bearer T0KEN", nil, nil, nil, nil, nil])
        #expect(withheld == [false, false, false, true, true, true, true, true])
        // `--offline` asks the same question without sending.
        #expect(await auth.tokenDecision(for: try builder.build(method: "GET", path: "/api/tasks", items: [])) == .attached)
        #expect(await auth.tokenDecision(for: try builder.build(method: "GET", path: "http://127.0.0.1:10/", items: [])) == .withheld)
        #expect(await auth.tokenDecision(for: try builder.build(method: "GET", path: "/api/banners", items: [])) == .none)
    }

    /// A 401 from another origin is not the backend saying the token expired:
    /// no refresh, no retry.
    @Test func aForeign401StartsNoRefresh() async throws {
        final class Unauthorized: HTTPTransport, @unchecked Sendable {
            let lock = NSLock()
            var paths: [String] = []
            var eventLoop: any EventLoop { Self.sharedLoop }
            nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse {
                lock.withLock { paths.append(request.url.absoluteString) }
                return ReceivedResponse(status: 401, reason: "Unauthorized", headers: [], body: [])
            }
        }
        let transport = Unauthorized()
        let store = MemoryTokenStore()
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!)
        try store.save(key: "linku http://127.0.0.1:9", tokens: Tokens(accessToken: "T0KEN", refreshToken: "r", userJSON: nil))
        let auth = AuthSession(profile: .linku, builder: builder, transport: transport, store: store)
        let exchange = try await auth.send(builder.build(method: "GET", path: "http://127.0.0.1:10/x", items: []))
        #expect(exchange.tokenWithheld && !exchange.refreshed && !exchange.sessionExpired)
        #expect(transport.paths == ["http://127.0.0.1:10/x"])
        #expect(await auth.isLoggedIn)
    }

    /// A refresh the server fails (a 503, an answer that is not JSON, a
    /// connection dropped) is said as such, and the login is kept for the
    /// next try; one it refuses (401) ends the login. All of them ended it,
    /// said "session expired", and deleted the stored tokens.
    @Test func aRefreshThatFailsKeepsTheLoginAndOneRefusedEndsIt() async throws {
        final class Refreshes: HTTPTransport, @unchecked Sendable {
            let lock = NSLock()
            var refresh: Result<ReceivedResponse, TransportError> = .success(ReceivedResponse(status: 503, reason: "Service Unavailable", headers: [], body: []))
            var refreshTimeouts: [Duration?] = []
            var eventLoop: any EventLoop { Self.sharedLoop }
            nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse {
                guard request.url.path.hasSuffix("/refresh") else { return ReceivedResponse(status: 401, reason: "Unauthorized", headers: [], body: []) }
                return try lock.withLock { refreshTimeouts.append(request.timeout); return refresh }.get()
            }
        }
        let transport = Refreshes()
        let store = MemoryTokenStore()
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!)
        try store.save(key: "linku http://127.0.0.1:9", tokens: Tokens(accessToken: "T0KEN", refreshToken: "r", userJSON: nil))
        let auth = AuthSession(profile: .linku, builder: builder, transport: transport, store: store)
        let still = "; still logged in (the next request tries again)"
        let failures: [(Result<ReceivedResponse, TransportError>, String)] = [
            (.success(ReceivedResponse(status: 503, reason: "Service Unavailable", headers: [], body: [])),
             "/api/secure-auth/refresh answered 503 Service Unavailable"),
            (.success(ReceivedResponse(status: 200, reason: "OK", headers: [], body: Array("<html>".utf8))), "the answer of /api/secure-auth/refresh is not JSON"),
            (.success(ReceivedResponse(status: 200, reason: "OK", headers: [], body: Array(#"{"token":"x"}"#.utf8))),
             "the answer of /api/secure-auth/refresh has no access token at .access_token (the profile's refreshed-access-token)"),
            (.failure(TransportError(kind: .closedOnReuse, host: "127.0.0.1:9", detail: "…")),
             "the server closed the connection as /api/secure-auth/refresh went out"),
            (.failure(TransportError(kind: .connectionRefused, host: "127.0.0.1:9", detail: "")),
             "cannot connect to 127.0.0.1:9: connection refused (is the server running?)"),
        ]
        for (answer, why) in failures {
            transport.lock.withLock { transport.refresh = answer }
            // The 401 it was to cure is the answer, with why no refresh cured it (it was an error alone, the 401 unseen).
            let unrefreshed = try await auth.send(builder.build(method: "GET", path: "/api/users/profile/me", items: []))
            #expect(unrefreshed.response.status == 401 && !unrefreshed.sessionExpired && !unrefreshed.refreshed)
            #expect(unrefreshed.refusal == "token refresh failed: " + why + still)
            #expect(await auth.tokens?.accessToken == "T0KEN")
            #expect(store.load(key: "linku http://127.0.0.1:9")?.accessToken == "T0KEN")
        }
        // A line's longer --timeout is its refresh's too (it waited the default 30 s); a shorter one is not: cut short,
        // the refresh the server still made rotated the refresh token away, and the next request ended the login.
        var timed = try builder.build(method: "GET", path: "/api/users/profile/me", items: [])
        timed.timeout = .seconds(60)
        _ = try? await auth.send(timed)
        #expect(transport.lock.withLock { transport.refreshTimeouts.last } == .seconds(60))
        timed.timeout = .seconds(2)
        _ = try? await auth.send(timed)
        #expect(transport.lock.withLock { transport.refreshTimeouts.last } == .seconds(30))
        transport.lock.withLock { transport.refresh = .success(ReceivedResponse(status: 401, reason: "Unauthorized", headers: [], body: [])) }
        let refused = try await auth.send(builder.build(method: "GET", path: "/api/users/profile/me", items: []))
        let loggedIn = await auth.isLoggedIn
        #expect(refused.sessionExpired && !loggedIn)
        #expect(store.load(key: "linku http://127.0.0.1:9") == nil)
    }

    /// Ctrl-C while a refresh ran waited for the refresh to end, said "request
    /// cancelled", and sent the request again all the same (a POST went
    /// through). The wait ends at once, the request does not go again, and
    /// the refresh goes on: its rotated token is kept.
    @Test func cancellingDuringARefreshSendsNothingMoreAndKeepsTheRefreshedTokens() async throws {
        final class SlowRefresh: HTTPTransport, @unchecked Sendable {
            let lock = NSLock()
            var sent: [String] = []
            /// The refresh answers once the test opens this.
            let (gate, open) = AsyncStream.makeStream(of: Void.self)
            var eventLoop: any EventLoop { Self.sharedLoop }
            nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse {
                lock.withLock { sent.append(request.method + " " + request.url.path) }
                if request.url.path.hasSuffix("/refresh") {
                    for await _ in gate { break }
                    return ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                                            body: Array(#"{"access_token":"NEW-ACCESS","refresh_token":"NEW-REFRESH"}"#.utf8))
                }
                return ReceivedResponse(status: 401, reason: "Unauthorized", headers: [], body: [])
            }
        }
        let transport = SlowRefresh()
        let store = MemoryTokenStore()
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!)
        try store.save(key: "linku http://127.0.0.1:9", tokens: Tokens(accessToken: "OLD-ACCESS", refreshToken: "OLD-REFRESH", userJSON: nil))
        let auth = AuthSession(profile: .linku, builder: builder, transport: transport, store: store)
        let request = try builder.build(method: "POST", path: "/api/tasks", items: [.stringField(name: "title", value: "x")])
        let send = Task { try await auth.send(request) }
        for _ in 0..<500 where transport.lock.withLock({ transport.sent.count }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        send.cancel()
        // The wait ends while the refresh is still held at the gate.
        await #expect(throws: CancellationError.self) { try await send.value }
        #expect(await auth.tokens?.accessToken == "OLD-ACCESS")
        transport.open.yield()
        for _ in 0..<500 where await auth.tokens?.accessToken != "NEW-ACCESS" { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await auth.tokens?.refreshToken == "NEW-REFRESH", "the refresh went on and its rotated token is kept")
        #expect(transport.lock.withLock { transport.sent } == ["POST /api/tasks", "POST /api/secure-auth/refresh"], "the POST did not go again")
    }

    /// A `refreshed-refresh-token` path that finds nothing in the refresh's
    /// answer kept the used token silently; the next refresh sent it and a
    /// server that rotates them ended the login. The first refresh says so.
    @Test func aRefreshedRefreshTokenPathThatFindsNothingIsSaid() async throws {
        final class Rotates: HTTPTransport, @unchecked Sendable {
            var eventLoop: any EventLoop { Self.sharedLoop }
            nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse {
                if request.url.path.hasSuffix("/refresh") {
                    return ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                                            body: Array(#"{"data": {"access_token": "NEW-ACCESS", "refreshToken": "NEW-REFRESH"}}"#.utf8))
                }
                let authorized = request.header("Authorization") == "Bearer NEW-ACCESS"
                return ReceivedResponse(status: authorized ? 200 : 401, reason: authorized ? "OK" : "Unauthorized", headers: [], body: [])
            }
        }
        var profile = Profile.linku
        profile.auth?.refreshedAccessTokenPath = try JSONPath.parse(".data.access_token")
        profile.auth?.refreshedRefreshTokenPath = try JSONPath.parse(".refreshToken")
        let store = MemoryTokenStore()
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!)
        try store.save(key: "linku http://127.0.0.1:9", tokens: Tokens(accessToken: "OLD-ACCESS", refreshToken: "OLD-REFRESH", userJSON: nil))
        let auth = AuthSession(profile: profile, builder: builder, transport: Rotates(), store: store)
        let exchange = try await auth.send(builder.build(method: "GET", path: "/api/users/profile/me", items: []))
        #expect(exchange.refreshed && exchange.response.status == 200)
        #expect(exchange.refreshWarning == "the answer of /api/secure-auth/refresh has no refresh token at .refreshToken (the profile's "
                + "refreshed-refresh-token): the old one is kept, which a server that rotates them refuses at the next refresh")
        // Found where the profile says: nothing to say.
        profile.auth?.refreshedRefreshTokenPath = try JSONPath.parse(".data.refreshToken")
        try store.save(key: "linku http://127.0.0.1:9", tokens: Tokens(accessToken: "OLD-ACCESS", refreshToken: "OLD-REFRESH", userJSON: nil))
        let right = AuthSession(profile: profile, builder: builder, transport: Rotates(), store: store)
        let fine = try await right.send(builder.build(method: "GET", path: "/api/users/profile/me", items: []))
        let kept = await right.tokens?.refreshToken
        #expect(fine.refreshed && fine.refreshWarning == nil && kept == "NEW-REFRESH")
    }

    /// A login answer without a refresh token where the profile says (a wrong
    /// `refresh-token:` path) is said at the login, and the 401 that ends the
    /// login says why no refresh was made, not only "session expired".
    @Test func aLoginWithoutARefreshTokenWhereTheProfileSaysIsSaid() async throws {
        final class NoRefresh: HTTPTransport, @unchecked Sendable {
            var eventLoop: any EventLoop { Self.sharedLoop }
            nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse {
                let json = [HTTPHeader(name: "Content-Type", value: "application/json")]
                if request.url.path.hasSuffix("/login") {
                    return ReceivedResponse(status: 200, reason: "OK", headers: json,
                                            body: Array(#"{"access_token": "ACCESS", "tokens": {"refresh": "REFRESH"}, "empty": "", "user": {"name": "a"}}"#.utf8))
                }
                return ReceivedResponse(status: 401, reason: "Unauthorized", headers: json, body: Array(#"{"detail": "expired"}"#.utf8))
            }
        }
        var profile = Profile.linku
        profile.auth?.refreshTokenPath = try JSONPath.parse(".refresh_token")
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!)
        let auth = AuthSession(profile: profile, builder: builder, transport: NoRefresh(), store: MemoryTokenStore())
        let login = try await auth.login(email: "a@b.c", password: "pw")
        #expect(await auth.isLoggedIn)
        #expect(login.refreshWarning == "the login answer has no refresh token at .refresh_token (the profile's refresh-token): "
                + "a 401 will end this login instead of refreshing it")
        let me = try await auth.send(builder.build(method: "GET", path: "/api/users/profile/me", items: []))
        #expect(me.sessionExpired)
        #expect(me.refreshRefusal == "no refresh token to send: the login answer had none at .refresh_token (the profile's refresh-token)")
        // An empty one is none: warned of, and never sent back (`refresh_token=` was, and refused).
        profile.auth?.refreshTokenPath = try JSONPath.parse(".empty")
        let empty = AuthSession(profile: profile, builder: builder, transport: NoRefresh(), store: MemoryTokenStore())
        let emptyLogin = try await empty.login(email: "a@b.c", password: "pw")
        #expect(emptyLogin.refreshWarning?.hasPrefix("the login answer has no refresh token at .empty") == true)
        // Where the profile says it is: nothing to say.
        profile.auth?.refreshTokenPath = try JSONPath.parse(".tokens.refresh")
        let right = AuthSession(profile: profile, builder: builder, transport: NoRefresh(), store: MemoryTokenStore())
        let fine = try await right.login(email: "a@b.c", password: "pw")
        let kept = await right.tokens?.refreshToken
        #expect(fine.refreshWarning == nil && kept == "REFRESH")
    }

    /// A refresh answer without its access token still carried a rotated
    /// refresh token: it is kept, since the one sent is spent.
    @Test func aRefreshAnswerWithoutAnAccessTokenKeepsTheRotatedRefreshToken() async throws {
        final class HalfAnswer: HTTPTransport, @unchecked Sendable {
            var eventLoop: any EventLoop { Self.sharedLoop }
            nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse {
                if request.url.path.hasSuffix("/refresh") {
                    return ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                                            body: Array(#"{"token": "NEW-ACCESS", "refresh_token": "NEW-REFRESH"}"#.utf8))
                }
                return ReceivedResponse(status: 401, reason: "Unauthorized", headers: [], body: [])
            }
        }
        let store = MemoryTokenStore()
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!)
        try store.save(key: "linku http://127.0.0.1:9", tokens: Tokens(accessToken: "OLD-ACCESS", refreshToken: "OLD-REFRESH", userJSON: nil))
        let auth = AuthSession(profile: .linku, builder: builder, transport: HalfAnswer(), store: store)
        let half = try await auth.send(builder.build(method: "GET", path: "/api/users/profile/me", items: []))
        #expect(half.response.status == 401 && half.refusal?.hasPrefix("token refresh failed: ") == true)
        let kept = await auth.tokens
        #expect(kept?.refreshToken == "NEW-REFRESH" && kept?.accessToken == "OLD-ACCESS")
    }

    /// An OAuth 2 password grant (FastAPI's OAuth2PasswordRequestForm,
    /// Keycloak, Django OAuth Toolkit): the login and refresh are forms with
    /// a grant_type; a profile could not describe it (JSON bodies only).
    @Test func anOAuth2PasswordGrantLogsInAndRefreshesWithForms() async throws {
        final class TokenEndpoint: HTTPTransport, @unchecked Sendable {
            var eventLoop: any EventLoop { Self.sharedLoop }
            var bodies: [String] = []
            nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse {
                let json = [HTTPHeader(name: "Content-Type", value: "application/json")]
                if request.url.path == "/token" {
                    bodies.append((request.header("Content-Type") ?? "") + " " + String(decoding: request.body ?? [], as: UTF8.self))
                    let n = bodies.count
                    return ReceivedResponse(status: 200, reason: "OK", headers: json,
                                            body: Array(#"{"access_token": "ACCESS\#(n)", "token_type": "bearer", "refresh_token": "REFRESH\#(n)"}"#.utf8))
                }
                let fresh = request.header("Authorization") == "Bearer ACCESS2"
                return ReceivedResponse(status: fresh ? 200 : 401, reason: fresh ? "OK" : "Unauthorized", headers: json, body: Array("{}".utf8))
            }
        }
        let file = try ProfileFile.parse("""
            explorer-profile: 1
            name: oauth
            environments: {local: {base-url: "http://127.0.0.1:9"}}
            auth:
              kind: login
              login-path: /token
              login-body: form
              email-field: username
              login-fields: {grant_type: password, scope: read write}
              refresh-path: /token
              refresh-fields: {grant_type: refresh_token}
              whoami-path: /me
            """, file: "oauth.yaml")
        let transport = TokenEndpoint()
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!)
        let store = MemoryTokenStore()
        let auth = AuthSession(profile: file.profile, builder: builder, transport: transport, store: store)
        let login = try await auth.login(email: "ann", password: "p&w")
        #expect(login.response.status == 200 && login.refreshWarning == nil)
        // No user in the answer: the prompt names whom `login` was given, in the next run too (it named nobody).
        let named = await auth.userName
        let kept = await AuthSession(profile: file.profile, builder: builder, transport: transport, store: store).userName
        #expect(named == "ann" && kept == "ann")
        let me = try await auth.send(builder.build(method: "GET", path: "/me", items: []))
        #expect(me.refreshed && me.response.status == 200)
        let form = "application/x-www-form-urlencoded; charset=utf-8 "
        #expect(transport.bodies == [form + "grant_type=password&scope=read+write&username=ann&password=p%26w",
                                     form + "grant_type=refresh_token&refresh_token=REFRESH1"])
        // Without a refresh-path, a 401 ends the login and says why no refresh was made.
        var once = file.profile
        once.auth?.refreshPath = nil
        let plain = AuthSession(profile: once, builder: builder, transport: TokenEndpoint(), store: MemoryTokenStore())
        let first = try await plain.login(email: "ann", password: "pw")
        #expect(first.refreshWarning == nil, "no refresh is looked for")
        let expired = try await plain.send(builder.build(method: "GET", path: "/me", items: []))
        #expect(expired.sessionExpired && expired.refreshRefusal == "the profile has no refresh-path")
    }

    /// A profile whose user is the whole token answer (`user: .`) took any
    /// token answer for a login: a client_credentials grant tried by hand on
    /// the token endpoint replaced the logged-in user, on disk too. A login
    /// sends the login's user field.
    @Test func aTokenAnswerToAGrantWithoutAUserIsNoLogin() async throws {
        let file = try ProfileFile.parse("""
            explorer-profile: 1
            name: oidc
            environments: {local: {base-url: "http://127.0.0.1:9"}}
            auth: {kind: login, login-path: /token, login-body: form, email-field: username, user: ., user-name: sub, whoami-path: /me}
            """, file: "oidc.yaml")
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!)
        let auth = AuthSession(profile: file.profile, builder: builder, transport: RecordingTransport(), store: MemoryTokenStore())
        func exchange(_ form: String, answer: String) throws -> Exchange {
            var request = try builder.build(method: "POST", path: "/token", items: [])
            request.body = Array(form.utf8)
            return Exchange(request: request, response: ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                                                                         body: Array(answer.utf8)))
        }
        #expect(try await auth.adoptTokens(from: exchange("grant_type=password&username=ann&password=x", answer: #"{"access_token": "A1", "sub": "ann"}"#)))
        #expect(try await !auth.adoptTokens(from: exchange("grant_type=client_credentials&client_id=svc", answer: #"{"access_token": "C1", "expires_in": 300}"#)))
        let (kept, name) = (await auth.tokens?.accessToken, await auth.userName)
        #expect(kept == "A1" && name == "ann")
        #expect(try await auth.adoptTokens(from: exchange("grant_type=password&username=bob&password=y", answer: #"{"access_token": "B1", "sub": "bob"}"#)))
        #expect(await auth.userName == "bob")
    }

    /// A socket path naming the token alone (`/ws?token={accessToken}`) was
    /// refused "the login answer has no user id for {userId}", a `{userId}`
    /// it does not name, when the login's user had no id.
    @Test func aSocketTemplateWithoutTheUsersIdNeedsNone() async throws {
        var profile = Profile.linku
        profile.webSocketTemplate = "/ws?token={accessToken}"
        let store = MemoryTokenStore()
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!)
        try store.save(key: AuthSession.storeKey(profile: profile, baseURL: builder.baseURL),
                       tokens: Tokens(accessToken: "T0KEN", refreshToken: "r", userJSON: #"{"name": "ann"}"#))
        let auth = AuthSession(profile: profile, builder: builder, transport: RecordingTransport(), store: store)
        #expect(try await WebSocketAddress.profileTemplate.resolve(session: auth) == "ws://127.0.0.1:9/ws?token=T0KEN")
        profile.webSocketTemplate = "/ws/{userId}?token={accessToken}"
        let needing = AuthSession(profile: profile, builder: builder, transport: RecordingTransport(), store: store)
        await #expect(throws: (any Error).self) { try await WebSocketAddress.profileTemplate.resolve(session: needing) }
    }

    /// A login answered with a page (a proxy's, a wrong login-path's) says so,
    /// not that the token is missing at the profile's path.
    @Test func aLoginAnsweredWithoutJSONSaysSo() async throws {
        final class Page: HTTPTransport, @unchecked Sendable {
            var eventLoop: any EventLoop { Self.sharedLoop }
            nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse {
                ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "text/html")], body: Array("<html></html>".utf8))
            }
        }
        let auth = AuthSession(profile: .linku, builder: RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!), transport: Page(), store: MemoryTokenStore())
        // The answer is kept, to be shown: what came in its place is the clue.
        let exchange = try await auth.login(email: "a@b.c", password: "pw")
        #expect(exchange.refusal == "the login answer is not JSON (text/html, 13 bytes)")
        #expect(exchange.response.body == Array("<html></html>".utf8))
        #expect(await !auth.isLoggedIn)
    }

    @Test func publicPathsAreRelativeToABasePathPrefix() throws {
        let builder = RequestBuilder(baseURL: URL(string: "https://api.example.com/v1/")!)
        let auth = AuthSession(profile: .linku, builder: builder, transport: RecordingTransport(), store: MemoryTokenStore())
        #expect(auth.isPublic(try builder.build(method: "GET", path: "/api/banners", items: [])))
        #expect(!auth.isPublic(try builder.build(method: "GET", path: "/api/tasks", items: [])))
    }
}
