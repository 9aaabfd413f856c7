import Core
import Foundation
import NIOCore
import Testing
@testable import Explorer

/// Spec security decides the token (none, `Authorization: Bearer`, or an
/// API key header), and 2xx JSON answers become the endpoints' response
/// models, which `describe` shows and the drift check uses. The same
/// document is given as 3.0 YAML and as 3.1 JSON.
@Suite struct SpecSecurityAndModelTests {
    static let yaml30 = """
    openapi: 3.0.3
    info: {title: Shop, version: "1"}
    security: [{bearer: []}]
    components:
      securitySchemes:
        bearer: {type: http, scheme: bearer}
        key: {type: apiKey, in: header, name: X-API-Key}
      schemas:
        Item:
          type: object
          required: [id, name, state]
          properties:
            id: {type: integer}
            name: {type: string}
            state: {$ref: "#/components/schemas/State"}
            owner: {$ref: "#/components/schemas/Owner"}
            note: {type: string, nullable: true}
        State: {type: string, enum: [new, sold]}
        Owner:
          type: object
          required: [login]
          properties:
            login: {type: string}
            favourite: {$ref: "#/components/schemas/Item"}
    paths:
      /items:
        get:
          summary: List items
          security: []
          responses:
            "200": {description: ok, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Item"}}}}}
        post:
          requestBody: {content: {application/json: {schema: {$ref: "#/components/schemas/Item"}}}}
          responses:
            "201": {description: created, content: {application/json: {schema: {$ref: "#/components/schemas/Item"}}}}
      /items/{id}:
        get:
          responses:
            "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Item"}}}}
      /admin/stats:
        get:
          operationId: stats
          security: [{key: []}]
          responses:
            "200": {description: ok, content: {application/json: {schema: {type: object, required: [count], properties: {count: {type: integer}}}}}}
    """

    static let json31 = #"""
    {"openapi": "3.1.0", "info": {"title": "Shop", "version": "1"},
     "security": [{"bearer": []}],
     "components": {
       "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}, "key": {"type": "apiKey", "in": "header", "name": "X-API-Key"}},
       "schemas": {
         "Item": {"type": "object", "required": ["id", "name", "state"], "properties": {
           "id": {"type": "integer"}, "name": {"type": "string"}, "state": {"$ref": "#/components/schemas/State"},
           "owner": {"$ref": "#/components/schemas/Owner"}, "note": {"anyOf": [{"type": "string"}, {"type": "null"}]}}},
         "State": {"type": "string", "enum": ["new", "sold"]},
         "Owner": {"type": "object", "required": ["login"], "properties": {
           "login": {"type": "string"}, "favourite": {"$ref": "#/components/schemas/Item"}}}}},
     "paths": {
       "/items": {
         "get": {"summary": "List items", "security": [],
                 "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}}}}}},
         "post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
                  "responses": {"201": {"description": "created", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}}}}},
       "/items/{id}": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}}}}},
       "/admin/stats": {"get": {"operationId": "stats", "security": [{"key": []}],
         "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "required": ["count"], "properties": {"count": {"type": "integer"}}}}}}}}}}}
    """#

    static let samples = [("3.0 YAML", yaml30, "yaml"), ("3.1 JSON", json31, "json")]

    static func write(_ text: String, _ ext: String) throws -> String {
        let url = Scratch.file("spec", extension: ext)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test(arguments: samples) func securityDecidesPublicAndWhereTheTokenGoes(_ sample: (String, String, String)) throws {
        let spec = try SpecLoader.load(try Self.write(sample.1, sample.2))
        func endpoint(_ method: String, _ path: String) throws -> Endpoint {
            try #require(spec.endpoints.first { $0.method == method && $0.path == path }, "\(sample.0): \(method) \(path)")
        }
        #expect(try endpoint("GET", "/items").isPublic, "security: [] is public")
        let create = try endpoint("POST", "/items")
        #expect(!create.isPublic && create.token == .bearer, "the document's bearer scheme")
        let stats = try endpoint("GET", "/admin/stats")
        #expect(!stats.isPublic && stats.token == .header("X-API-Key"), "an API key in a header")
        #expect(spec.defaultAccess == SpecAccess(isPublic: false, token: .bearer))
    }

    @Test func aDocumentWithoutSecurityIsPublic() throws {
        let open = Self.json31.replacingOccurrences(of: #""security": [{"bearer": []}],"#, with: "")
        let spec = try SpecLoader.load(try Self.write(open, "json"))
        #expect(spec.endpoints.first { $0.method == "POST" }?.isPublic == true)
        #expect(spec.defaultAccess.isPublic)
        // An operation's own requirement still counts.
        #expect(spec.endpoints.first { $0.path == "/admin/stats" }?.isPublic == false)
    }

    @Test(arguments: samples) func answersBecomeResponseModelsAndRecursionIsFine(_ sample: (String, String, String)) throws {
        let spec = try SpecLoader.load(try Self.write(sample.1, sample.2))
        let list = try #require(spec.endpoints.first { $0.method == "GET" && $0.path == "/items" })
        #expect(list.response == "Item" && list.responseIsList)
        let one = try #require(spec.endpoints.first { $0.path == "/items/{id}" })
        #expect(one.response == "Item" && !one.responseIsList)
        #expect(spec.endpoints.first { $0.method == "POST" }?.body?.name == "Item", "a $ref keeps its component's name")
        #expect(spec.endpoints.first { $0.path == "/admin/stats" }?.response == "statsResponse")
        let item = try #require(spec.models.first { $0.name == "Item" })
        #expect(item.fields.map(\.name).sorted() == ["id", "name", "note", "owner", "state"])
        let fields = Dictionary(uniqueKeysWithValues: item.fields.map { ($0.name, $0) })
        #expect(fields["state"]?.type == .enumeration("State", ["new", "sold"]))
        #expect(fields["owner"]?.type == .model("Owner"))
        #expect(fields["note"]?.nullable == true && fields["note"]?.type == .string)
        // Owner.favourite refers back to Item: a reference, not an endless copy.
        #expect(spec.models.first { $0.name == "Owner" }?.fields.first { $0.name == "favourite" }?.type == .model("Item"))
    }

    /// An interpreter on a loaded spec with a logged-in session (tokens in
    /// the store) whose transport answers `answers[path]` and records requests.
    func interpreter(_ sample: (String, String, String), answers: [String: String]) async throws -> (Interpreter, ScriptedTransport) {
        let transport = ScriptedTransport(answers: answers)
        let store = MemoryTokenStore()
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9/v1")!)
        try store.save(key: "linku http://127.0.0.1:9/v1", tokens: Tokens(accessToken: "secret-access", refreshToken: nil, userJSON: nil))
        let interpreter = Interpreter(session: AuthSession(profile: .linku, builder: builder, transport: transport, store: store))
        let loaded = await interpreter.loadSpec(try Self.write(sample.1, sample.2))
        guard (loaded).shownText != nil else { throw SpecError(file: "", path: "", reason: "not loaded: \(loaded)") }
        return (interpreter, transport)
    }

    @Test(arguments: samples) func theInterpreterSendsWhatTheSpecSays(_ sample: (String, String, String)) async throws {
        let (interpreter, transport) = try await interpreter(sample, answers: [:])
        for line in ["get /items", "post /items name=x", "get /admin/stats", "get /not/in/the/spec", "get /items/3 Authorization:mine"] {
            _ = await interpreter.execute(try CommandParser().parse(line))
        }
        let sent = transport.requests.map { [$0.header("Authorization"), $0.header("X-API-Key")] }
        #expect(sent == [
            [nil, nil],                       // security: []
            ["Bearer secret-access", nil],    // the document's bearer scheme
            [nil, "secret-access"],           // the API key header, and no Authorization
            ["Bearer secret-access", nil],    // no operation: the document's security
            ["mine", nil],                    // the user's own header is sent as is
        ])
        // --offline shows the same decision, with the token hidden.
        let offline = await interpreter.execute(try CommandParser().parse("get /admin/stats --offline"))
        guard case let .offline(request, _, _) = offline else { Issue.record("not offline: \(offline)"); return }
        #expect(request.header("X-API-Key") == "<access_token>" && request.header("Authorization") == nil)
    }

    /// A body the document takes as `application/merge-patch+json` went as
    /// `application/json`, and the server answered 415: it goes as the
    /// document says, unless the line types a Content-Type of its own.
    @Test func aJSONBodyGoesAsTheMediaTypeTheDocumentNames() async throws {
        let document = #"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/items/{id}": {"patch": {"#
            + #""parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}], "requestBody": {"content": "#
            + #"{"application/merge-patch+json": {"schema": {"type": "object", "properties": {"price": {"type": "number"}}}}}}, "#
            + #""responses": {"200": {"description": "ok"}}}}}}"#
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!)
        let interpreter = Interpreter(session: AuthSession(profile: .generic, builder: builder, transport: ScriptedTransport(answers: [:]),
                                                           store: MemoryTokenStore()), offline: true)
        _ = await interpreter.loadSpec(try Self.write(document, "json"))
        guard case let .offline(patch, _, _) = await interpreter.execute(try CommandParser().parse("patch /items/3 price:=5")),
              case let .offline(typed, _, _) = await interpreter.execute(try CommandParser().parse("patch /items/3 price:=5 Content-Type:application/json")),
              case let .offline(post, _, _) = await interpreter.execute(try CommandParser().parse("post /other a=1")) else { Issue.record("sent"); return }
        #expect(patch.header("Content-Type") == "application/merge-patch+json")
        #expect(typed.header("Content-Type") == "application/json" && post.header("Content-Type") == "application/json")
    }

    /// Two Warning fields are one list (RFC 9110 §5.3): `capture` kept the
    /// first alone. Set-Cookie is no list: its first is taken.
    @Test func aCaptureOfAHeaderGivenTwiceTakesBoth() async throws {
        let headers = [HTTPHeader(name: "Warning", value: "199 - \"deprecated\""), HTTPHeader(name: "warning", value: "299 - \"sunset soon\""),
                       HTTPHeader(name: "Set-Cookie", value: "a=1"), HTTPHeader(name: "Set-Cookie", value: "b=2")]
        let transport = ScriptedTransport(answers: [:], headers: ["/w": headers])
        let interpreter = Interpreter(session: AuthSession(profile: .generic, builder: RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!),
                                                           transport: transport, store: MemoryTokenStore()))
        _ = await interpreter.execute(try CommandParser().parse("get /w"))
        guard case let .value(warning, _) = await interpreter.execute(try CommandParser().parse("capture w = header:Warning")) else { Issue.record("no value"); return }
        #expect(warning == .string("199 - \"deprecated\", 299 - \"sunset soon\""))
        _ = await interpreter.execute(try CommandParser().parse("capture c = header:Set-Cookie"))
        #expect(interpreter.allVariables["c"] == "a=1")
    }

    /// The interpreter keeps its models indexed between answers; loading a
    /// spec must replace that index, or the spec's answers go unchecked.
    @Test func aSpecLoadedAfterAnswersBringsItsOwnModelsToTheDriftCheck() async throws {
        let transport = ScriptedTransport(answers: [
            "/v1/api/tasks": #"{"tasks": "not a list"}"#,
            "/v1/items/7": #"{"id": "7", "name": "a", "state": "new", "owner": {"login": "x"}}"#,
        ])
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9/v1")!)
        let interpreter = Interpreter(session: AuthSession(profile: .linku, builder: builder, transport: transport, store: MemoryTokenStore()))
        let before = await interpreter.execute(try CommandParser().parse("get /api/tasks"))
        guard case let .exchange(_, builtIn, _) = before else { Issue.record("no exchange: \(before)"); return }
        #expect(builtIn?.contains("drift: ") == true, "LinkU's own models checked the first answer")
        let loaded = await interpreter.loadSpec(try Self.write(Self.json31, "json"))
        guard (loaded).shownText != nil else { Issue.record("not loaded: \(loaded)"); return }
        let after = await interpreter.execute(try CommandParser().parse("get /items/7"))
        guard case let .exchange(_, note, _) = after else { Issue.record("no exchange: \(after)"); return }
        #expect(note == "drift: .id: expected integer, found string")
    }

    @Test(arguments: samples) func driftIsCheckedAgainstTheSpecsAnswers(_ sample: (String, String, String)) async throws {
        let (interpreter, _) = try await interpreter(sample, answers: [
            "/v1/items/7": #"{"id": "7", "state": "lost", "owner": {"favourite": {"id": 1, "name": "a", "state": "new"}}}"#,
            "/v1/items": #"[{"id": 1, "name": "a", "state": "new"}, {"id": 2, "state": "sold", "note": null}]"#,
        ])
        let one = await interpreter.execute(try CommandParser().parse("get /items/7"))
        guard case let .exchange(_, note, _) = one else { Issue.record("no exchange: \(one)"); return }
        #expect(note?.split(separator: "\n").sorted() == [
            "drift: .id: expected integer, found string",
            "drift: .name: missing (string)",
            "drift: .owner.login: missing (string)",
            "drift: .state: unknown State value \"lost\"",
        ])
        let list = await interpreter.execute(try CommandParser().parse("get /items"))
        guard case let .exchange(_, listNote, _) = list else { Issue.record("no exchange: \(list)"); return }
        #expect(listNote == "drift: [1].name: missing (string)")
        let described = await interpreter.execute(try CommandParser().parse("describe GET /items"))
        guard let text = (described).shownText else { Issue.record("not described: \(described)"); return }
        #expect(text.contains("answer: [Item]"))
        #expect(text.contains("state") && text.contains("State (new|sold)"), "the answer's fields are listed")
        let model = await interpreter.execute(try CommandParser().parse("describe Owner"))
        guard let owner = (model).shownText else { Issue.record("no model: \(model)"); return }
        #expect(owner.contains("favourite") && owner.contains("Item"))
    }
}

/// Answers 200 with `answers[path]` (or `{}`), and records what was sent.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private let answers: [String: String]
    /// Headers an answer has besides its Content-Type, by path.
    private let headers: [String: [HTTPHeader]]
    private var sent: [PreparedRequest] = []
    var requests: [PreparedRequest] { lock.withLock { sent } }

    init(answers: [String: String], headers: [String: [HTTPHeader]] = [:]) {
        self.answers = answers
        self.headers = headers
    }

    var eventLoop: any EventLoop { Self.sharedLoop }

    nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse {
        lock.withLock { sent.append(request) }
        let body = answers[request.url.path] ?? "{}"
        return ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "application/json")] + (headers[request.url.path] ?? []),
                                body: Array(body.utf8))
    }
}

/// A large JSON document is decoded in two parts at once; the catalog is the same.
@Suite struct SpecSplitTests {
    @Test func twoPartsGiveTheSameCatalogAsOne() throws {
        let data = Data(SpecSecurityAndModelTests.json31.utf8)
        let parts = SpecSplit.parts(data, above: 0)
        #expect(parts.count == 2)
        let whole = try SpecImport31.load([data], isJSON: true)
        let split = try SpecImport31.load(parts, isJSON: true)
        // Foundation's JSONDecoder does not keep member order, so neither order is the document's.
        // Nor is a model's member order the same from one decode to the next.
        func byName(_ spec: ImportedSpec) -> [String: Endpoint] {
            Dictionary(uniqueKeysWithValues: spec.endpoints.map { endpoint in
                var sorted = endpoint
                sorted.body?.fields.sort { $0.name < $1.name }
                return ("\(endpoint.method) \(endpoint.path)", sorted)
            })
        }
        #expect(byName(split) == byName(whole))
        #expect(byName(split).keys.sorted() == ["GET /admin/stats", "GET /items", "GET /items/{id}", "POST /items"])
        #expect(split.models.map(\.name).sorted() == whole.models.map(\.name).sorted())
        #expect(split.defaultAccess == whole.defaultAccess)
        #expect(split.endpoints.first { $0.path == "/admin/stats" }?.token == .header("X-API-Key"), "the second part knows the schemes")
    }

    @Test func stringsWithBracketsAndEscapesDoNotConfuseTheCut() throws {
        let text = #"{"openapi": "3.0.3", "info": {"title": "a \"}{\" b", "version": "1"}, "paths": {"#
            + #""/a": {"get": {"summary": "]} \\", "responses": {"200": {"description": "{"}}}}, "#
            + #""/b": {"get": {"responses": {"200": {"description": "ok"}}}}, "#
            + #""/c": {"get": {"responses": {"200": {"description": "ok"}}}}}}"#
        let data = Data(text.utf8)
        let parts = SpecSplit.parts(data, above: 0)
        #expect(parts.count == 2)
        for part in parts { #expect((try? JSONSerialization.jsonObject(with: part)) != nil, "\(String(decoding: part, as: UTF8.self))") }
        let spec = try SpecImport30.load(parts, isJSON: true)
        #expect(spec.endpoints.map(\.path).sorted() == ["/a", "/b", "/c"])
        #expect(spec.endpoints.first { $0.path == "/a" }?.summary == #"]} \"#)
    }

    @Test func whatTheScanDoesNotFollowStaysWhole() {
        for text in [#"{"openapi": "3.1.0", "paths": {"/a": {}}}"#, #"{"openapi": "3.1.0", "paths": {"/a": {"#, "[1, 2]", "openapi: 3.1.0"] {
            let data = Data(text.utf8)
            #expect(SpecSplit.parts(data, above: 0) == [data], "\(text)")
        }
        let small = Data(SpecSecurityAndModelTests.json31.utf8)
        #expect(SpecSplit.parts(small) == [small], "below the threshold")
    }
}
