import Core
import Foundation
import Testing
@testable import Explorer

/// A profile file's own catalog (`enums`, `models`, `endpoints`), socket and
/// demo accounts, and the four built-in profiles, which are written in it
/// and read by the same reader (docs/profiles.md, "A catalog in the file").
@Suite struct ProfileCatalogTests {
    static let yaml = """
    explorer-profile: 1
    name: shop
    environments:
      local: {base-url: "http://127.0.0.1:8080"}
    enums:
      OrderState: [open, paid, shipped]
    models:
      Order:
        id: integer
        state: OrderState
        note?: string | null
        lines: Line[]
        tags?: string[]
        kind: Kind (retail|wholesale)
      Line:
        sku: string
        count: integer
      OrderCreate:
        lines: Line[]
        note?: string
    endpoints:
      GET /orders:
        summary: "List orders (page, state)"
        query: [page, state]
        response: Order[]
      POST /orders:
        summary: Place an order
        body: OrderCreate
        response: Order
      GET /orders/{id}:
        response: Order
      GET /health:
        public: true
      get /version:
    websocket:
      path: /ws/events
    demo-accounts:
      - {email: demo@shop.test, password: demo1234}
    """

    func read(_ text: String) throws(ProfileError) -> ProfileFile { try ProfileFile.parse(text, file: "shop.yaml") }

    func problem(_ text: String) -> String {
        do { _ = try read(text); return "read without a problem" } catch { return error.description }
    }

    @Test func endpointsModelsAndEnumsReadInFileOrder() throws {
        let profile = try read(Self.yaml).profile
        #expect(profile.endpoints.map { "\($0.method) \($0.path)" } == ["GET /orders", "POST /orders", "GET /orders/{id}", "GET /health", "GET /version"])
        let list = profile.endpoints[0]
        #expect(list.summary == "List orders (page, state)" && list.query == ["page", "state"])
        #expect(list.response == "Order" && list.responseIsList)
        #expect(profile.endpoints[1].body?.name == "OrderCreate" && profile.endpoints[1].response == "Order" && !profile.endpoints[1].responseIsList)
        #expect(profile.isPublic(method: "GET", path: "/health") && !profile.isPublic(method: "GET", path: "/orders"))
        let order = try #require(profile.model(named: "order"))
        #expect(order.fields == [
            Field("id", .integer), Field("state", .enumeration("OrderState", ["open", "paid", "shipped"])),
            Field("note", .string, required: false, nullable: true), Field("lines", .array(.model("Line"))),
            Field("tags", .array(.string), required: false), Field("kind", .enumeration("Kind", ["retail", "wholesale"])),
        ])
        #expect(profile.models.map(\.name) == ["Order", "Line", "OrderCreate"])
        #expect(profile.webSocketTemplate == "/ws/events")
        #expect(profile.demoAccounts.map(\.email) == ["demo@shop.test"])
        // The models check answers: a wrong type in a list item is drift.
        let answer = try JSONParser.parse(#"[{"id": 1, "state": "lost", "lines": [], "kind": "retail"}]"#)
        #expect(Drift.check(answer, type: .array(.model("Order")), in: profile.models).map(\.path) == ["[0].state"])
    }

    /// An upload of many (`body: OrderCreate[]`, posture's logs): `describe`
    /// says the body is a list and how to send one, TAB offers no fields,
    /// and fields on the line, which would make an object, are refused.
    @Test func aBodyMayBeAListOfAModel() throws {
        let profile = try read(Self.yaml.replacingOccurrences(of: "body: OrderCreate", with: "body: OrderCreate[]")).profile
        let post = try #require(profile.endpoints.first { $0.method == "POST" })
        #expect(post.bodyIsList && post.body?.name == "OrderCreate")
        #expect(CatalogText.describe(post, in: profile).contains("body: [OrderCreate] (send the list with [0][name]=… items, --raw '[…]' or @file.json)"))
        #expect(post.bodyProblems(in: [.stringField(name: "note", value: "x")])
            == ["POST /orders takes a JSON list of OrderCreate, but note… makes an object: send the list with [0][name]=… items, --raw '[{…}]' or @file.json"])
        #expect(post.bodyProblems(in: [.header(name: "X-Trace", value: "1")]).isEmpty)
        // HTTPie's top-level array items make a list: sent, each element's fields checked as the model says.
        #expect(post.bodyProblems(in: [.stringField(name: "[0][note]", value: "x"), .jsonField(name: "[0][lines]", value: .array([])),
                                       .jsonField(name: "[]", value: .int(1))]).isEmpty)
        #expect(post.bodyProblems(in: [.jsonField(name: "[0][note]", value: .int(5))])
            == ["[0][note] is a string in POST /orders, but [0][note]:=5 sends a number: use [0][note]=5"])
        #expect(post.bodyProblems(in: [.stringField(name: "[1][lines]", value: "none")])
            == ["[1][lines] is an array ([Line]) in POST /orders, but [1][lines]=none sends the string \"none\", and \"none\" is not one"])
        #expect(problem(Self.yaml.replacingOccurrences(of: "body: OrderCreate", with: "body: OrderCreat[]"))
            == "shop.yaml:28: at $.endpoints.POST /orders.body: no model named 'OrderCreat' in models; did you mean OrderCreate?")
    }

    @Test func catalogMistakesAreOneLineWithWhereAndWhatWasExpected() {
        #expect(problem(Self.yaml.replacingOccurrences(of: "state: OrderState", with: "state: OrderStat"))
            == "shop.yaml:10: at $.models.Order.state: unknown type 'OrderStat'; did you mean OrderState?; a type is string, integer, "
            + "number, boolean, any, a model or enum of this file, Name (a|b) for an enum in place, T[] for a list, T | null")
        #expect(problem(Self.yaml.replacingOccurrences(of: "body: OrderCreate", with: "body: OrderCreat"))
            == "shop.yaml:28: at $.endpoints.POST /orders.body: no model named 'OrderCreat' in models; did you mean OrderCreate?")
        #expect(problem(Self.yaml.replacingOccurrences(of: "GET /health:", with: "FETCH /health:"))
            == "shop.yaml:32: at $.endpoints.FETCH /health: an endpoint is named by its method and path, as in: GET /users/{id}")
        #expect(problem(Self.yaml.replacingOccurrences(of: "    public: true", with: "    public: yes please"))
            == "shop.yaml:33: at $.endpoints.GET /health.public: expected true or false, not a string")
        #expect(problem(Self.yaml.replacingOccurrences(of: "response: Order[]", with: "response: string"))
            == "shop.yaml:25: at $.endpoints.GET /orders.response: an answer is a model of this file or a list of one, as in: Task or Task[]")
        #expect(problem(Self.yaml.replacingOccurrences(of: "summary: Place an order", with: "sumary: Place an order"))
            == "shop.yaml:27: at $.endpoints.POST /orders.sumary: unknown field 'sumary'; did you mean summary?")
        #expect(problem(Self.yaml.replacingOccurrences(of: "path: /ws", with: "path: ws"))
            == "shop.yaml:36: at $.websocket.path: a path on the base URL starts with /, as in: /ws?token={accessToken}")
        #expect(problem(Self.yaml.replacingOccurrences(of: "  - {email: demo@shop.test, password: demo1234}", with: "  - demo@shop.test"))
            == "shop.yaml:38: at $.demo-accounts[0]: expected a mapping of names to values, not a string")
        #expect(problem(Self.yaml.replacingOccurrences(of: "  GET /health:", with: "  GET /orders:")).contains("a key appears twice"))
        #expect(problem(Self.yaml.replacingOccurrences(of: "  get /version:", with: "  get /orders:"))
            == "shop.yaml:34: at $.endpoints.get /orders: GET /orders is listed twice")
    }

    /// Plain scalars are typed by YAML 1.2's core schema: `no` and `on` are
    /// strings (YAML 1.1 made them booleans), `1e3` a number, `~` null.
    @Test func plainScalarsFollowYAML12() throws {
        let base = "explorer-profile: 1\nname: x\nenvironments: {a: {base-url: \"http://127.0.0.1:1\"}}\n"
        #expect(try read(base + "secret-fields: [no, on, yes, ~x, 1.2.3]").secretFields == ["no", "on", "yes", "~x", "1.2.3"])
        for number in ["1e3", "-2", "+.5", "7.", "1E-2"] {
            #expect(problem(base + "secret-fields: [\(number)]") == "shop.yaml:4: at $.secret-fields[0]: expected a string", "\(number)")
        }
        #expect(problem(base + "display-name: ~") == "shop.yaml:4: at $.display-name: expected a string, not null")
        #expect(problem(base + "display-name: TRUE") == "shop.yaml:4: at $.display-name: expected a string, not a boolean")
    }

    /// The built-in profiles are profile files compiled in: each reads
    /// through `ProfileFile.parse` with what it had as Swift values.
    @Test(arguments: [("linku", 73, 12, 39), ("nova", 31, 6, 29), ("levelup", 6, 2, 9), ("posture", 5, 2, 10)])
    func theBuiltInProfilesAreProfileFiles(name: String, endpoints: Int, open: Int, models: Int) throws {
        let profile = try #require(Profile.builtIn[name])
        #expect(profile.name == name)
        #expect(profile.endpoints.count == endpoints)
        #expect(profile.endpoints.filter(\.isPublic).count == open)
        #expect(profile.models.count == models)
        if case .login = try ProfileFile.parse(Self.yaml, file: "x").auth { Issue.record("the test file has no login") }
        #expect(profile.auth != nil && !profile.environments.isEmpty && !profile.demoAccounts.isEmpty)
        // Every answer an endpoint names is a model of the profile.
        for endpoint in profile.endpoints {
            if let response = endpoint.response { #expect(profile.model(named: response) != nil, "\(endpoint.path): \(response)") }
        }
    }

    @Test func linkuKeepsItsSocketReconcileAndEnvelope() throws {
        let linku = Profile.linku
        #expect(linku.webSocketTemplate == "/ws/chat/{userId}?token={accessToken}")
        let reconcile = try #require(linku.webSocketReconcile)
        #expect(reconcile.messagesQuery.map { "\($0.name)=\($0.value)" } == ["conversation_id={conversation}", "after_id={after}", "order=asc", "page_size=100"])
        let body = try JSONParser.parse(#"{"error": true, "message": "gone", "error_code": "", "status_code": 410}"#)
        #expect(linku.errorEnvelope.describe(status: 400, body: body) == "410: gone", "the body's status_code, an empty code left out")
        #expect(linku.errorEnvelope.describe(status: 404, body: try JSONParser.parse(#"{"message": "no", "error_code": "X"}"#)) == "404 X: no",
                "a body without \"error\": true is not LinkU's envelope: said as the common shapes say it")
        #expect(linku.errorEnvelope.body(status: 404, code: "NOT_FOUND", message: "no").plainText
                == #"{"error":true,"error_code":"NOT_FOUND","status_code":404,"message":"no"}"#)
        #expect(linku.environment(named: "production")?.absoluteString == "https://api.link2ur.com")
    }

    /// A file with `spec:` and endpoints of its own: the document's catalog,
    /// and the file's where the document has nothing for that method and path.
    @Test func aFilesOwnEndpointsAreKeptBesideItsDocuments() throws {
        let folder = try Scratch.folder("catalog")
        let document = #"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/orders": {"get": {"summary": "From the document", "responses": {"200": {"description": "ok"}}}}}}"#
        try document.write(to: folder.appendingPathComponent("openapi.json"), atomically: true, encoding: .utf8)
        let file = try ProfileFile.parse(Self.yaml + "\nspec: openapi.json\n", file: folder.appendingPathComponent("shop.yaml").path)
        let spec = try SpecLoader.load(try #require(file.spec)).adding(file.profile)
        #expect(spec.endpoints.map { "\($0.method) \($0.path) \($0.summary)" }.prefix(3)
                == ["GET /orders From the document", "POST /orders Place an order", "GET /orders/{id} "])
        #expect(spec.endpoints.count == 5 && spec.models.contains { $0.name == "OrderCreate" })
    }

    /// An environment's `websocket-url`: sockets go there, REST to the base URL.
    @Test func anEnvironmentsSocketsCanLiveElsewhere() async throws {
        let text = Self.yaml.replacingOccurrences(of: "  local: {base-url: \"http://127.0.0.1:8080\"}",
                                                  with: "  local: {base-url: \"http://127.0.0.1:8080/api\", websocket-url: \"ws://127.0.0.1:9090/rt\"}")
        let file = try ProfileFile.parse(text, file: "shop.yaml")
        let environment = try #require(file.environment(named: nil))
        #expect(environment.webSocketURL?.absoluteString == "ws://127.0.0.1:9090/rt")
        let chosen = ChosenProfile(document: file, environment: environment, credential: nil)
        let session = AuthSession(profile: chosen.profile, builder: RequestBuilder(baseURL: environment.baseURL),
                                  transport: ScriptedTransport(answers: [:]), store: MemoryTokenStore())
        #expect(try await WebSocketAddress.url("/events").resolve(session: session) == "ws://127.0.0.1:9090/rt/events")
        #expect(try await WebSocketAddress.profileTemplate.resolve(session: session) == "ws://127.0.0.1:9090/rt/ws/events")
        // `ws connect` alone with no `websocket:` path: the URL itself (it said the profile had no WebSocket).
        let pathless = try ProfileFile.parse(text.replacingOccurrences(of: "websocket:\n  path: /ws/events\n", with: ""), file: "shop.yaml")
        let bare = ChosenProfile(document: pathless, environment: try #require(pathless.environment(named: nil)), credential: nil)
        #expect(bare.profile.webSocketTemplate == nil)
        let bareSession = AuthSession(profile: bare.profile, builder: RequestBuilder(baseURL: environment.baseURL),
                                      transport: ScriptedTransport(answers: [:]), store: MemoryTokenStore())
        #expect(try await WebSocketAddress.profileTemplate.resolve(session: bareSession) == "ws://127.0.0.1:9090/rt")
        #expect(problem(Self.yaml.replacingOccurrences(of: "  local: {base-url: \"http://127.0.0.1:8080\"}",
                                                       with: "  local: {base-url: \"http://127.0.0.1:8080\", websocket-url: \"http://x\"}"))
                == "shop.yaml:4: at $.environments.local.websocket-url: 'http://x' is not a ws:// or wss:// URL")
    }

    /// `refresh-token-header`: the refresh token goes in a header, not a body.
    @Test func aRefreshCanSendItsTokenInAHeader() async throws {
        let text = """
        explorer-profile: 1
        name: flask
        environments: {local: {base-url: "http://127.0.0.1:1"}}
        auth:
          kind: login
          login-path: /auth/login
          refresh-path: /auth/refresh
          refresh-token-header: Authorization
          whoami-path: /me
        """
        let profile = try ProfileFile.parse(text, file: "flask.yaml").profile
        let transport = ScriptedTransport(answers: ["/auth/login": #"{"access_token": "a1", "refresh_token": "r1", "user": {"username": "al"}}"#,
                                                    "/auth/refresh": #"{"access_token": "a2"}"#])
        let session = AuthSession(profile: profile, builder: RequestBuilder(baseURL: URL(string: "http://127.0.0.1:1")!),
                                  transport: transport, store: MemoryTokenStore())
        _ = try await session.login(email: "al@example.com", password: "pw")
        #expect(try await session.refresh())
        let refresh = try #require(transport.requests.last)
        #expect(refresh.url.path == "/auth/refresh")
        #expect(refresh.headers.filter { $0.hasName("Authorization") }.map(\.value) == ["Bearer r1"])
        #expect(refresh.body == nil)
        #expect(await session.tokens?.accessToken == "a2")
    }

    /// Hostile files: nine aliases of nine aliases, and nesting past libyaml's limit.
    @Test func anchorsAndDeepNestingAreRefusedAtOnce() {
        let base = "explorer-profile: 1\nname: x\nenvironments: {a: {base-url: \"http://127.0.0.1:1\"}}\n"
        var laughs = base + "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for (name, previous) in zip("bcdefghi", "abcdefgh") {
            laughs += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]\n"
        }
        #expect(problem(laughs) == "shop.yaml:4: at $.a: YAML anchors and aliases are not supported in a profile")
        let deep = base + "secret-fields: " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        #expect(problem(deep).hasSuffix("not valid YAML: nested more than 1000 levels deep"))
    }

    /// What a user's file can get wrong beyond a typo (each found by trying):
    /// every one refused in one line, with where.
    @Test func mistakesThatUsedToBeAccepted() {
        func with(_ old: String, _ new: String) -> String { problem(Self.yaml.replacingOccurrences(of: old, with: new)) }
        #expect(with("  GET /health:", "  GET /orders/{name}:")
                == "shop.yaml:32: at $.endpoints.GET /orders/{name}: GET /orders/{name} is listed twice (as /orders/{id})")
        #expect(with("  GET /health:", "  GET /health/{id:") == "shop.yaml:32: at $.endpoints.GET /health/{id: '{id' in the path: a parameter is a whole segment, as in: /users/{id}")
        #expect(with("  GET /health:", "  GET /health?x=1:") == "shop.yaml:32: at $.endpoints.GET /health?x=1: an endpoint's path has no query: its parameters go in query:, as in: query: [page]")
        #expect(with("    note?: string | null\n", "    note?: string | null\n    note: integer\n") == "shop.yaml:12: at $.models.Order.note: field 'note' is listed twice")
        #expect(with("    tags?: string[]", "    tags??: string[]").hasSuffix("a field is a name, with ? after it when it may be absent, as in: note?"))
        #expect(with("Kind (retail|wholesale)", "Kind (retail|)").contains("unknown type 'Kind (retail|)'"))
        #expect(with("note?: string | null", "note?: string | null | null").contains("unknown type 'string | null | null'"))
        #expect(with("  OrderState: [open, paid, shipped]", "  OrderState: []") == "shop.yaml:6: at $.enums.OrderState: an enum lists its values once each, none empty, as in: [open, closed]")
        #expect(with("  OrderState: [open, paid, shipped]", "  OrderState: [open, paid, shipped]\n  Line: [a, b]") == "shop.yaml:16: at $.models.Line: 'Line' names both an enum and a model")
        #expect(with("  Line:\n", "  string:\n    x: integer\n  Line:\n").hasSuffix("'string' cannot name a model: letters, digits, _, - and ., and not a plain type's name"))
        #expect(with("path: /ws/events", "path: /ws/{nope}") == "shop.yaml:36: at $.websocket.path: '{nope}' is not filled in: a socket path knows {userId} and {accessToken}, from the login")
        #expect(with("path: /ws/events", "path: /ws/{userId}")
                == "shop.yaml:36: at $.websocket.path: {userId} and {accessToken} come from a login, and this profile's auth is not kind: login")
        #expect(with("http://127.0.0.1:8080", "http://al:pw@127.0.0.1:8080")
                == "shop.yaml:4: at $.environments.local.base-url: a URL in a profile carries no user or password: give them in auth, as in: kind: basic")
        #expect(problem(Self.yaml + "\nauth: {kind: bearer, token: \"{{secret:my key}}\"}\n")
                == "shop.yaml:39: at $.auth.token: '{{secret:my key}}': a secret's name is letters, digits and _, as in: {{secret:api_key}}")
        #expect(problem(#"{"explorer-profile": 1, "name": "x", "name": "y", "environments": {"a": {"base-url": "http://127.0.0.1:1"}}}"#)
                == "shop.yaml: at $.name: 'name' appears twice")
        // At the second, the line to delete (it was the first's), with where the first is; a top-level key too.
        #expect(with("  get /version:", "  GET /orders:") == "shop.yaml:34: not valid YAML: a key appears twice in one mapping (GET /orders; first at line 22)")
        // CRLF line ends too ("\r\n" is one Character: the file read as one line, and the first's line was said).
        #expect(problem(Self.yaml.replacingOccurrences(of: "  get /version:", with: "  GET /orders:").replacingOccurrences(of: "\n", with: "\r\n"))
                == "shop.yaml:34: not valid YAML: a key appears twice in one mapping (GET /orders; first at line 22)")
        let lines = Self.yaml.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(problem(Self.yaml + "\nenvironments:\n  prod: {base-url: \"http://x\"}\n")
                == "shop.yaml:\(lines + 1): not valid YAML: a key appears twice in one mapping (environments; first at line 3)")
    }

    /// docs/profiles.md's catalog example reads as it is written (its flow
    /// mapping with `Line[]` once did not: `[` starts a YAML list there).
    @Test func theDocumentedCatalogExampleReads() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/profiles.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try #require(text.range(of: "## A catalog in the file"))
        let open = try #require(text.range(of: "```yaml\n", range: section.upperBound..<text.endIndex))
        let close = try #require(text.range(of: "```", range: open.upperBound..<text.endIndex))
        let example = String(text[open.upperBound..<close.lowerBound])
        let file = "explorer-profile: 1\nname: shop\nenvironments: {local: {base-url: \"http://127.0.0.1:1\"}}\n"
            + "auth: {kind: login, login-path: /login, refresh-path: /refresh, whoami-path: /me}\n" + example
        let profile = try ProfileFile.parse(file, file: "docs/profiles.md").profile
        #expect(profile.endpoints.count == 4 && profile.model(named: "OrderCreate")?.fields.count == 2)
    }

    /// A profile without a login flow: `describe` does not send the user to `login`.
    @Test func describeSaysWhatANonPublicEndpointNeeds() throws {
        let keyed = try ProfileFile.parse(Self.yaml + "\nauth: {kind: header, header: X-Api-Key, value: \"{{secret:key}}\"}\n", file: "shop.yaml").profile
        #expect(CatalogText.describe(keyed.endpoints[0], in: keyed).hasPrefix("GET /orders  (needs the profile's credentials)"))
        #expect(CatalogText.describe(Profile.linku.endpoints[9], in: .linku).contains("(needs a login)"))
    }
}
