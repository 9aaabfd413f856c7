import Core
import Foundation
import Sandbox
import Testing
@testable import Explorer

/// Drift: an answer that strays from its model is reported one line per
/// problem, and the sandboxes' answers follow the catalogs' models.
@Suite struct DriftTests {
    @Test func eachKindOfProblemIsOneLine() throws {
        let body = try JSONParser.parse(#"""
        {"tasks": [{"id": 1, "title": "x", "description": null, "category": "other", "city": null, "price": "25",
                    "status": "done", "poster_id": 1.5, "images": [], "created_at": "t"}],
         "total": 1, "page": 1, "page_size": null}
        """#)
        let lines = Profile.linku.drift(method: "GET", path: "/api/tasks", body: body).map(\.description)
        #expect(lines == [
            ".tasks[0].price: expected number, found string",
            ".tasks[0].status: unknown TaskStatus value \"done\"",
            ".tasks[0].poster_id: expected integer, found 1.5",
            ".tasks[0].updated_at: missing (string)",
            ".page_size: null, expected integer",
        ])
    }

    @Test func extraMembersAndUnmodelledEndpointsAreNotDrift() throws {
        let user = try JSONParser.parse(#"{"id": "u", "username": "a", "email": "e", "is_verified": true, "created_at": "t", "new": 1}"#)
        #expect(Profile.nova.drift(method: "GET", path: "/users/me", body: user).isEmpty)
        #expect(Profile.nova.drift(method: "GET", path: "/users/me", body: .array([])).map(\.description) == [".: expected User, found array"])
        #expect(Profile.linku.drift(method: "GET", path: "/api/task-experts", body: .null).isEmpty)
        // A literal segment wins over a parameter.
        #expect(Profile.nova.endpoint(method: "GET", path: "/users/me")?.path == "/users/me")
    }

    /// Lookups go by method and segment count (`EndpointLookup`), made on the
    /// first lookup: a catalog changed after one is searched as it is now,
    /// and a copy made before the change keeps its own catalog.
    @Test func aCatalogChangedAfterALookupIsSearchedAsItIsNow() {
        var profile = Profile(name: "t", displayName: "T", auth: nil, errorEnvelope: .generic, endpoints: [
            Endpoint("GET", "/items/{id}", "one item", response: "Item"),
            Endpoint("GET", "/health", "health", isPublic: true),
        ], demoAccounts: [])
        #expect(profile.endpoint(method: "GET", path: "/items/7?x=1")?.summary == "one item")
        #expect(profile.endpoint(method: "POST", path: "/items/7") == nil)
        #expect(profile.isPublic(method: "HEAD", path: "/health/") && !profile.isPublic(method: "GET", path: "/items/7"))
        let before = profile
        profile.endpoints.append(Endpoint("GET", "/items/latest", "the latest item"))
        profile.endpoints.append(Endpoint("POST", "/items/{id}", "change an item", isPublic: true))
        profile.endpoints[1].path = "/status"
        #expect(profile.endpoint(method: "GET", path: "/items/latest")?.summary == "the latest item")
        #expect(profile.endpoint(method: "GET", path: "/items/8")?.summary == "one item")
        #expect(profile.isPublic(method: "POST", path: "/items/7") && profile.isPublic(method: "GET", path: "/status"))
        #expect(!profile.isPublic(method: "GET", path: "/health"))
        #expect(before.endpoint(method: "GET", path: "/items/latest")?.summary == "one item")
        #expect(before.isPublic(method: "GET", path: "/health") && !before.isPublic(method: "POST", path: "/items/7"))
    }

    @Test func theInterpreterShowsDriftUnderTheAnswer() async throws {
        var profile = Profile.linku
        // A catalog that expects a member the sandbox does not send.
        profile.endpoints = profile.endpoints.map { e in
            var e = e
            if e.path == "/api/banners" { e.response = "Task" }
            return e
        }
        let outcome = try await withLiveSession(profile: profile) { live in
            await live.interpreter.execute(try live.interpreter.parser.parse("get /api/banners"))
        }
        guard case let .exchange(exchange, note, _) = outcome else { Issue.record("\(outcome)"); return }
        #expect(exchange.response.status == 200)
        #expect(note?.split(separator: "\n").first == "drift: .id: missing (integer)")
    }

    /// Query parameters without which these answer 422.
    static let requiredQuery: [String: [(String, String)]] = ["/users/search": [("q", "a")], "/api/users/messages": [("conversation_id", "1")]]

    /// Ids are learnt from answers only where there is TAB to offer them
    /// (the REPL asks, `learnIDs()`): a script and a replay do not walk each answer.
    @Test func idsAreLearntOnlyWhenAsked() async throws {
        for learns in [false, true] {
            let live = try await LiveSession.open(profile: .linku, target: .sandbox())
            if learns { await live.interpreter.learnIDs() }
            _ = await live.interpreter.execute(.http(method: "GET", path: "/api/banners", items: [], options: RequestOptions()))
            let ids = await live.interpreter.completionState().seenIDs.ids(for: "banners")
            #expect(ids.isEmpty != learns, "\(ids)")
            await live.close()
        }
    }

    /// Every GET of every catalog that names a model, with its path parameters
    /// taken from ids the earlier answers held, answers without drift.
    @Test(arguments: ["linku", "nova", "levelup", "posture"])
    func sandboxAnswersFollowTheModels(_ name: String) async throws {
        let profile = try #require(Profile.builtIn[name])
        let live = try await LiveSession.open(profile: profile, target: .sandbox())
        let interpreter = live.interpreter
        await interpreter.learnIDs()
        var checked = 0
        _ = await interpreter.execute(.login(email: "alice@example.com", password: "alice123"))
        // Parameterless first, so their answers supply the ids.
        let gets = profile.endpoints.filter { $0.method == "GET" && $0.response != nil }.sorted { $0.pathParameters.count < $1.pathParameters.count }
        for endpoint in gets {
            let state = await interpreter.completionState()
            let segments = endpoint.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            var concrete: [String] = []
            for (index, segment) in segments.enumerated() {
                guard segment.hasPrefix("{") else { concrete.append(segment); continue }
                guard let id = Completer.parameterValues(segments, at: index, state: state).first(where: { !$0.hasPrefix("{{") }) else { break }
                concrete.append(id)
            }
            guard concrete.count == segments.count else { continue }
            let items = (Self.requiredQuery[endpoint.path] ?? []).map { RequestItem.query(name: $0.0, value: $0.1) }
            let outcome = await interpreter.execute(.http(method: "GET", path: concrete.joined(separator: "/"), items: items, options: RequestOptions()))
            guard case let .exchange(exchange, note, _) = outcome else { Issue.record("GET \(endpoint.path): \(outcome)"); continue }
            #expect(exchange.response.status == 200, "GET \(concrete.joined(separator: "/"))")
            #expect(note?.contains("drift") != true, "GET \(endpoint.path): \(note ?? "")")
            checked += 1
        }
        await live.close()
        #expect(checked >= 1)
    }
}
