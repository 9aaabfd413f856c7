import Core
import Foundation
import Testing
@testable import Explorer

/// OpenAPI import: 3.0 YAML and 3.1 JSON fill the catalog and completion;
/// what is not carried over is noted once; a broken spec names where and why.
@Suite struct SpecImportTests {
    func write(_ text: String, _ ext: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spec-\(UUID().uuidString).\(ext)")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Issue 11 #30: a JSON document's catalog came out in a different order
    /// on every run (Foundation's decoder keeps no member order); it is the
    /// document's order, paths and each path's methods as written.
    @Test func aJSONCatalogKeepsTheDocumentsOrder() throws {
        let names = (0..<40).map { "/r\(($0 * 17) % 40)" }
        let paths = names.map { #""\#($0)": {"post": {"responses": {"201": {"description": "x"}}}, "get": {"responses": {"200": {"description": "x"}}}}"# }
        let text = #"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"# + paths.joined(separator: ", ") + "}}"
        let loaded = try SpecLoader.load(try write(text, "json"))
        #expect(loaded.endpoints.map { "\($0.method) \($0.path)" } == names.flatMap { ["POST \($0)", "GET \($0)"] })
        #expect(SpecSplit.operationOrder(Data(#"{"paths": {"\/a": {"get": {}}}}"#.utf8)) == ["GET /a": 0], "an escaped slash is a slash")
    }

    static let yaml30 = """
    openapi: 3.0.3
    info: {title: Pets, version: "1"}
    servers: [{url: "https://pets.example.com/v1"}]
    security: [{bearer: []}]
    components:
      securitySchemes:
        bearer: {type: http, scheme: bearer}
      schemas:
        NewPet:
          type: object
          required: [name]
          properties:
            name: {type: string}
            age: {type: integer}
            kind: {type: string, enum: [cat, dog]}
            owner: {oneOf: [{type: string}, {type: integer}]}
    paths:
      /pets:
        get:
          summary: List pets
          security: []
          parameters:
            - {name: limit, in: query, schema: {type: integer}}
            - {name: kind, in: query, schema: {type: string, enum: [cat, dog]}}
            - {name: session, in: cookie, schema: {type: string}}
          responses: {"200": {description: ok}}
        post:
          summary: Add a pet
          requestBody:
            content:
              application/json:
                schema: {$ref: "#/components/schemas/NewPet"}
          responses: {"201": {description: created}}
      /pets/{petId}:
        get:
          summary: One pet
          parameters: [{name: petId, in: path, required: true, schema: {type: integer}}]
          responses: {"200": {description: ok}}
    """

    static let json31 = #"""
    {"openapi": "3.1.0", "info": {"title": "Notes", "version": "1"},
     "paths": {"/notes": {"get": {"parameters": [{"name": "order", "in": "query", "schema": {"type": "string", "enum": ["new", "old"]}}],
        "responses": {"200": {"description": "ok"}}}, "post": {"operationId": "createNote",
        "requestBody": {"content": {"application/json": {"schema": {"type": "object", "required": ["text"],
            "properties": {"text": {"type": "string"}, "pinned": {"type": "boolean"}, "tags": {"type": "array", "items": {"type": "string"}}}}}}},
        "responses": {"201": {"description": "created"}}}}}}
    """#

    @Test func openAPI30YAMLFillsTheCatalog() throws {
        let spec = try SpecLoader.load(try write(Self.yaml30, "yaml"))
        #expect(spec.servers.map(\.absoluteString) == ["https://pets.example.com/v1"])
        let list = try #require(spec.endpoints.first { $0.method == "GET" && $0.path == "/pets" })
        #expect(list.isPublic && list.query == ["limit", "kind"] && list.summary == "List pets")
        #expect(list.queryValues == ["kind": ["cat", "dog"]], "TAB offers an enum query parameter's values")
        let add = try #require(spec.endpoints.first { $0.method == "POST" })
        #expect(!add.isPublic)
        // A $ref's body keeps its component's name.
        #expect(add.body?.name == "NewPet")
        #expect(add.body?.fields.map(\.name) == ["name", "age", "kind", "owner"])
        #expect(add.body?.fields.first?.required == true)
        #expect(add.body?.fields[2].type == .enumeration("enum", ["cat", "dog"]))
        // Each unsupported construct is said once.
        #expect(spec.notes == ["allOf, oneOf, anyOf and not are described as any", "cookie parameters are not sent by the explorer"])
    }

    @Test func openAPI31JSONFillsTheCatalogAndCompletion() throws {
        let spec = try SpecLoader.load(try write(Self.json31, "json"))
        #expect(spec.endpoints.first?.queryValues == ["order": ["new", "old"]])
        let note = try #require(spec.endpoints.first { $0.method == "POST" })
        #expect(note.body?.name == "createNoteBody")
        var profile = Profile.linku
        profile.endpoints = spec.endpoints
        let state = CompletionState(profile: profile, variables: [], lastBody: nil)
        #expect(Completer.complete("post /no", state: state).candidates.map(\.text) == ["/notes"])
        // Foundation's JSONDecoder does not keep member order (YAML does).
        #expect(Set(Completer.complete("post /notes ", state: state).candidates.map(\.text)) == ["text=", "pinned:=", "tags:="])
    }

    @Test func aBrokenSpecSaysFilePathAndReason() throws {
        let file = try write(#"{"openapi": "3.1.0", "info": {"title": "x", "version": "1"}, "paths": {"/a": {"get": {"responses": 7}}}}"#, "json")
        #expect(throws: SpecError.self) { try SpecLoader.load(file) }
        do { _ = try SpecLoader.load(file) } catch {
            #expect(error.file == file)
            #expect(error.path.hasPrefix(".paths[\"/a\"].get"))
            #expect(!error.reason.isEmpty)
        }
        let old = try write(#"{"swagger": "2.0", "openapi": "2.0"}"#, "json")
        do { _ = try SpecLoader.load(old) } catch {
            #expect(error.description == "\(old): at openapi: version 2.0 is not 3.0 or 3.1")
        }
    }

    /// Issue 11, messages: a file that is not YAML or JSON at all said
    /// "Problem encountered when parsing `[unknown object]`: The given data
    /// was not valid YAML.."; it now says where the parser stopped.
    @Test func aSpecThatIsNotYAMLOrJSONSaysWhereItBreaks() throws {
        let yaml = try write("openapi: 3.0.0\ninfo:\n  title: x\n  version: '1'\npaths:\n  /a: {get: {responses: {'200': {description: ok}}\n", "yaml")
        #expect(throws: SpecError(file: yaml, path: "", reason: "not valid YAML: line 7, column 1: did not find expected ',' or '}'")) {
            try SpecLoader.load(yaml)
        }
        let tab = try write("openapi: 3.0.0\ninfo:\n\ttitle: x\n", "yaml")
        #expect(throws: SpecError(file: tab, path: "", reason: "not valid YAML: line 3, column 1: found character that cannot start any token")) {
            try SpecLoader.load(tab)
        }
        let json = try write(#"{"openapi": "3.0.0", "info": {"title": "x", "version": "1"}, "paths": {"#, "json")
        #expect(throws: SpecError(file: json, path: "", reason: "not valid JSON: expected a string key, found end of input at line 1, column 72")) {
            try SpecLoader.load(json)
        }
    }

    /// Issue 11 #30: a Swagger 2.0 document was refused with "Expected to find
    /// `openapi` key but it is missing.": it is named, with what is read instead.
    @Test func aSwaggerDocumentIsNamedAsSuch() throws {
        let reason = "this is a Swagger 2.0 document; explorer reads OpenAPI 3.0 and 3.1 (convert it first, for example with 'npx swagger2openapi FILE')"
        let json = try write(#"{"swagger": "2.0", "info": {"title": "x", "version": "1"}, "paths": {}}"#, "json")
        #expect(throws: SpecError(file: json, path: "", reason: reason)) { try SpecLoader.load(json) }
        let yaml = try write("swagger: '2.0'\ninfo: {title: x, version: '1'}\npaths: {}\n", "yaml")
        #expect(throws: SpecError(file: yaml, path: "", reason: reason)) { try SpecLoader.load(yaml) }
        let neither = try write(#"{"info": {"title": "x"}}"#, "json")
        #expect(throws: SpecError(file: neither, path: "", reason: "no top-level 'openapi' version: not an OpenAPI document (explorer reads OpenAPI 3.0 and 3.1)")) {
            try SpecLoader.load(neither)
        }
    }

    @Test func aYAMLVersionIsReadOffItsLine() {
        #expect(SpecLoader.topLevelYAMLVersion(Data("info: {title: x}\nopenapi: '3.1.0'  # current\npaths: {}\n".utf8)) == "3.1.0")
        #expect(SpecLoader.topLevelYAMLVersion(Data("openapi: 3.0.3\r\n".utf8)) == "3.0.3")
        #expect(SpecLoader.topLevelYAMLVersion(Data("info:\n  openapi: 3.0.0\n".utf8)) == nil, "nested keys are not the document's")
    }

    @Test func specLoadReplacesTheInterpretersCatalog() async throws {
        let file = try write(Self.yaml30, "yaml")
        let (loaded, count, missing) = try await withLiveSession(target: .url(nowhere)) { live in
            let interpreter = live.interpreter
            return (await interpreter.execute(try CommandParser().parse("spec load \(file)")), await interpreter.profile.endpoints.count,
                    await interpreter.execute(.specLoad(path: "/nonexistent.yaml")))
        }
        guard let text = (loaded).shownText else { Issue.record("not loaded: \(loaded)"); return }
        #expect(text.hasPrefix("loaded 3 endpoints from \(file)"))
        #expect(count == 3)
        guard case let .failure(message, _) = missing else { Issue.record("loaded"); return }
        #expect(message == "/nonexistent.yaml: cannot read the file")
    }
}
