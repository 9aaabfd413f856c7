import Core
import Foundation
import Testing
@testable import Explorer

/// OpenAPI import: 3.0 YAML and 3.1 JSON fill the catalog and completion;
/// what is not carried over is noted once; a broken spec names where and why.
@Suite struct SpecImportTests {
    func write(_ text: String, _ ext: String) throws -> String {
        let url = Scratch.file("spec", extension: ext)
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

    /// grpc-gateway's Swagger names a resource with one variable over several segments
    /// (`/v1/{name=tenants/*/projects/*}`): kept whole, no concrete path matched it, so nothing was
    /// checked and TAB offered `/v1/{name=tenants`.
    @Test func aResourceNameTemplateIsMadeOfSegments() throws {
        let body = #"{"in": "body", "name": "body", "required": true, "schema": {"type": "object", "properties": {"displayName": {"type": "string"}}}}"#
        let text = #"{"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {"# +
            #""/v1/{parent=tenants/*}/projects": {"post": {"parameters": [{"in": "path", "name": "parent", "required": true, "type": "string"}, \#(body)], "responses": {"200": {"description": "x"}}}},"# +
            #""/v1/{name=tenants/*/projects/*}": {"get": {"parameters": [{"in": "path", "name": "name", "required": true, "type": "string"}], "responses": {"200": {"description": "x"}}}},"# +
            #""/v1/{name=tenants/*/policies/*/rules/**}": {"get": {"responses": {"200": {"description": "x"}}}}"# + "}}"
        let loaded = try SpecLoader.load(try write(text, "json"))
        #expect(loaded.endpoints.map(\.path) == ["/v1/tenants/{tenant}/projects", "/v1/tenants/{tenant}/projects/{project}",
                                                 "/v1/tenants/{tenant}/policies/{policy}/rules/{rule}"])
        #expect(loaded.endpoints[1].matches(path: "/v1/tenants/acme/projects/p1"))
        #expect(loaded.endpoints[0].body?.fields.map(\.name) == ["displayName"])
        #expect(SpecCatalog.expandingResourceNames("/v1/{name=*}/x/{id}") == "/v1/{name}/x/{id}")
        #expect(SpecCatalog.expandingResourceNames("/v1/{a=users/*}/{b=users/*}") == "/v1/users/{user}/users/{b}")
        #expect(SpecCatalog.expandingResourceNames("/v1/{book.name=shelves/*/books/*}") == "/v1/shelves/{shelf}/books/{book}")
        #expect(["people", "addresses", "boxes", "branches", "policies", "keys", "status"].map { SpecCatalog.singular($0[...]) }
                == ["person", "address", "box", "branch", "policy", "key", "status"])
    }

    /// A server given as a path alone (`/api/v1`, or Swagger 2's basePath
    /// with no host) was dropped: every endpoint went to the root of the
    /// host `--base-url` named, a 404. It goes after that host's URL.
    @Test func aServerThatIsAPathGoesAfterTheBaseURL() throws {
        let relative = try SpecLoader.load(try write(#"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "servers": [{"url": "/api/v1/"}], "paths": {}}"#, "json"))
        #expect(relative.serverPath == "/api/v1" && relative.servers.isEmpty)
        #expect(relative.placing(URL(string: "http://127.0.0.1:8000/")!).absoluteString == "http://127.0.0.1:8000/api/v1")
        #expect(relative.placing(URL(string: "http://127.0.0.1:8000/v2")!).absoluteString == "http://127.0.0.1:8000/v2", "a path given is kept")
        let swagger = try SpecLoader.load(try write(#"{"swagger": "2.0", "info": {"title": "t", "version": "1"}, "basePath": "/api", "paths": {}}"#, "json"))
        #expect(swagger.serverPath == "/api")
        let absolute = try SpecLoader.load(try write(#"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "servers": [{"url": "https://h.example/v1"}], "paths": {}}"#, "json"))
        #expect(absolute.serverPath == nil && absolute.placing(URL(string: "http://127.0.0.1:8000")!).absoluteString == "http://127.0.0.1:8000")
    }

    /// A server whose URL has variables (`http://h/{basePath}`) was skipped,
    /// and the document said to name no server: each takes its default, in
    /// OpenAPI 3.0 and 3.1 alike.
    @Test func aServersVariablesTakeTheirDefaults() throws {
        for version in ["3.0.3", "3.1.0"] {
            let text = #"{"openapi": "\#(version)", "info": {"title": "t", "version": "1"}, "paths": {}, "servers": [{"url": "http://127.0.0.1:8000/{basePath}", "variables": {"basePath": {"default": "v1"}}}]}"#
            #expect(try SpecLoader.load(try write(text, "json")).servers.map(\.absoluteString) == ["http://127.0.0.1:8000/v1"], "\(version)")
        }
    }

    /// A `$ref` to a schema the document does not have, and schemas that only
    /// refer to each other (`A: {$ref: B}`, `B: {$ref: A}`), were left out
    /// without a word: an answer with no model, models missing from describe.
    @Test func referencesToNowhereOrInALoopAreNoted() throws {
        let text = ##"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/x": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Missing"}}}}}}}}, "components": {"schemas": {"Node": {"type": "object", "properties": {"parent": {"$ref": "#/components/schemas/Node"}}}, "A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/A"}, "Self": {"$ref": "#/components/schemas/Self"}}}}"##
        let notes = try SpecLoader.load(try write(text, "json")).notes
        #expect(notes.contains("the document refers to schemas it does not have, described as any: #/components/schemas/Missing"), "\(notes)")
        #expect(notes.contains("the document has schemas that refer to themselves in a loop, described as any: #/components/schemas/A, #/components/schemas/B, #/components/schemas/Self"), "\(notes)")
        #expect(!notes.contains { $0.contains("Node") }, "a model that holds itself in a field is a model")
    }

    /// `describe` said nothing of a body that is not an object of fields: a
    /// schema that loops, a string, a list, text, a form.
    @Test func aBodyThatIsNotAnObjectIsSaidInWords() throws {
        for version in ["3.0.3", "3.1.0"] {
            func post(_ path: String, _ type: String, _ schema: String) -> String {
                #""\#(path)": {"post": {"requestBody": {"content": {"\#(type)": {"schema": \#(schema)}}}, "responses": {"200": {"description": "ok"}}}}"#
            }
            let paths = [post("/loop", "application/json", ##"{"$ref": "#/components/schemas/A"}"##),
                         post("/word", "application/json", #"{"type": "string"}"#),
                         post("/list", "application/json", #"{"type": "array", "items": {"type": "integer"}}"#),
                         post("/csv", "text/csv", #"{"type": "string"}"#),
                         post("/form", "application/x-www-form-urlencoded", #"{"type": "object"}"#)].joined(separator: ", ")
            let text = ##"{"openapi": "\##(version)", "info": {"title": "t", "version": "1"}, "paths": {\##(paths)}, "components": {"schemas": {"A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/A"}}}}"##
            let spec = try SpecLoader.load(try write(text, "json"))
            func body(_ path: String) -> String? {
                spec.endpoints.first { $0.path == path }.flatMap { CatalogText.describe($0, in: .generic).split(separator: "\n").first { $0.hasPrefix("body: ") } }.map(String.init)
            }
            #expect(body("/loop") == "body: any (JSON, not an object: send it with --raw '…' or @file.json)", "\(version)")
            #expect(body("/word") == "body: string (JSON, not an object: send it with --raw '…' or @file.json)", "\(version)")
            #expect(body("/list") == "body: [integer] (JSON, not an object: send it with --raw '…' or @file.json)", "\(version)")
            #expect(body("/csv") == "body: text/csv (send it with --raw TEXT or @FILE)", "\(version)")
            #expect(body("/form") == "body: a form (send it with --form name=value items)", "\(version)")
        }
    }

    /// The warning names what it left out (it said only that something was).
    @Test func aPathItemReferringToNothingIsNamed() throws {
        let text = ##"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/ok": {"get": {"responses": {"200": {"description": "ok"}}}}, "/gone": {"$ref": "#/components/pathItems/Missing"}}}"##
        let spec = try SpecLoader.load(try write(text, "json"))
        #expect(spec.notes.contains("references that cannot be resolved in the document are left out: the path /gone"), "\(spec.notes)")
        #expect(spec.endpoints.map(\.path) == ["/ok"])
    }

    /// What left a path or a schema out was said by `spec load` alone: with
    /// `--spec` (or a profile's `spec:`) the path went missing without a word.
    @Test func whatLeftAPathOutIsSaidAtStartUp() {
        for note in ["references that cannot be resolved in the document are left out", "schemas in other files are described as any",
                     "path items kept in other files are left out",
                     "the document refers to schemas it does not have, described as any: #/components/schemas/Missing"] {
            #expect(SpecCatalog.isDocumentFault(note), "\(note)")
        }
        // A limit of the explorer's, not the document's: `spec load` says it.
        #expect(!SpecCatalog.isDocumentFault("cookie parameters are not sent by the explorer"))
    }

    /// A file that is no text (an image, a zip) got "Yams.YamlError error 7";
    /// a URL, a folder or a missing file, "cannot read the file".
    @Test func aSpecThatIsNoTextOrNoFileIsSaidInTheUsersTerms() throws {
        let binary = Scratch.file("spec", extension: "json")
        try Data([0x7B, 0x00, 0xFF, 0x10]).write(to: binary)
        func reason(_ path: String) -> String? {
            do { _ = try SpecLoader.load(path); return nil } catch { return error.description }
        }
        #expect(reason(binary.path) == "\(binary.path): not JSON or YAML: not UTF-8 text (byte 1 is NUL)")
        let latin = Scratch.file("spec", extension: "yaml")
        try Data("openapi: 3.0.3\ninfo: caf\u{E9}".utf8.dropLast(2) + [0xE9]).write(to: latin)
        #expect(reason(latin.path)?.hasSuffix("not JSON or YAML: not UTF-8 text (byte 24 is not UTF-8)") == true, "\(reason(latin.path) ?? "")")
        #expect(reason("http://127.0.0.1:9/openapi.json")?.contains("a URL: explorer reads a spec from a file") == true)
        #expect(reason(FileManager.default.temporaryDirectory.path)?.hasSuffix(": a folder, not a file") == true)
        #expect(reason("/nonexistent/openapi.json") == "/nonexistent/openapi.json: no such file")
    }

    /// A model's fields came out in another order on every run (describe,
    /// TAB): they are the document's, for component schemas and inline bodies.
    @Test func aJSONModelKeepsTheDocumentsFieldOrder() throws {
        let names = (0..<12).map { "f\(($0 * 5) % 12)" }
        let properties = names.map { #""\#($0)": {"type": "string"}"# }.joined(separator: ", ")
        let text = #"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"post": {"requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {"# + properties.replacingOccurrences(of: "\"f", with: "\"g") + #"}}}}}, "responses": {"200": {"description": "x"}}}}}, "components": {"schemas": {"Thing": {"type": "object", "properties": {"# + properties + "}}}}}"
        let path = try write(text, "json")
        for _ in 0..<3 {
            let loaded = try SpecLoader.load(path)
            #expect(loaded.models.first { $0.name == "Thing" }?.fields.map(\.name) == names)
            #expect(loaded.endpoints.first?.body?.fields.map(\.name) == names.map { "g" + $0.dropFirst() })
        }
        // Merged by allOf, its fields held by no one object: each in its first place in the document.
        let merged = try write(#"{"openapi": "3.0.3", "info": {"title": "o", "version": "1"}, "paths": {}, "components": {"schemas": {"#
            + #""Base": {"type": "object", "properties": {"zname": {"type": "string"}, "age": {"type": "integer"}, "mid": {"type": "string"}}}, "#
            + ##""Z": {"allOf": [{"$ref": "#/components/schemas/Base"}, {"type": "object", "properties": {"yy": {"type": "string"}, "bb": {"type": "string"}}}]}}}}"##, "json")
        for _ in 0..<3 {
            #expect(try SpecLoader.load(merged).models.first { $0.name == "Z" }?.fields.map(\.name) == ["zname", "age", "mid", "yy", "bb"])
        }
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
        #expect(spec.notes == ["cookie parameters are not sent by the explorer", "oneOf, anyOf (but X or null), not, and an allOf of what is not an object are described as any"])
    }

    /// FastAPI's `Optional[Literal[…]]` query parameter is an `anyOf` with
    /// null, and an Enum class a `$ref`: TAB offered no values for either.
    @Test func queryValuesBehindAnyOfAndReferences() throws {
        let document = #"""
        {"openapi": "3.1.0", "info": {"title": "Items API", "version": "1"},
         "paths": {"/items": {"get": {"parameters": [
           {"name": "category", "in": "query", "schema": {"anyOf": [{"enum": ["food", "tools"], "type": "string"}, {"type": "null"}]}},
           {"name": "sort", "in": "query", "schema": {"$ref": "#/components/schemas/Sort"}},
           {"name": "state", "in": "query", "schema": {"anyOf": [{"$ref": "#/components/schemas/Sort"}, {"type": "null"}]}}],
           "responses": {"200": {"description": "ok"}}}}},
         "components": {"schemas": {"Sort": {"type": "string", "enum": ["new", "old"]}}}}
        """#
        let spec = try SpecLoader.load(try write(document, "json"))
        #expect(spec.endpoints.first?.queryValues == ["category": ["food", "tools"], "sort": ["new", "old"], "state": ["new", "old"]])
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

    /// Valid YAML missing a member was called "not valid YAML", with no
    /// place; OpenAPIKit's own text came on four lines, in Markdown.
    @Test func aMissingMemberIsNamedWhereItIsMissing() throws {
        let yaml = try write("openapi: 3.0.0\ninfo: {title: x, version: \"1\"}\npaths:\n  /a:\n    get:\n      responses:\n        \"200\":\n          content: {}\n", "yaml")
        #expect(throws: SpecError(file: yaml, path: #".paths["/a"].get.responses.200"#, reason: "`description` is missing.")) { try SpecLoader.load(yaml) }
        let noVersion = try write(#"{"openapi": "3.1.0", "info": {"title": "x"}, "paths": {}}"#, "json")
        #expect(throws: SpecError(file: noVersion, path: ".info", reason: "`version` is missing.")) { try SpecLoader.load(noVersion) }
        let empty = try write("\n", "json")
        #expect(throws: SpecError(file: empty, path: "", reason: "the file is empty")) { try SpecLoader.load(empty) }
        let comments = try write("# nothing yet\n", "yaml")
        #expect(throws: SpecError(file: comments, path: "", reason: "the file holds no document (only comments)")) { try SpecLoader.load(comments) }
        let nullPaths = try write("openapi: 3.0.0\ninfo: {title: x, version: \"1\"}\npaths:\n", "yaml")
        #expect(throws: SpecError(file: nullPaths, path: ".paths", reason: "`paths` should be an object (a mapping), and is not.")) { try SpecLoader.load(nullPaths) }
        // A Swift type name was said as OpenAPIKit wrote it: "to be parsable as Array<Any> but it was not".
        let wrongList = try write(#"{"openapi": "3.1.0", "info": {"title": "x", "version": "1"}, "paths": {"/p": {"get": {"parameters": "page", "responses": {"200": {"description": "ok"}}}}}}"#, "json")
        #expect(throws: SpecError(file: wrongList, path: #".paths["/p"].get.parameters"#, reason: "`parameters` should be a list (an array), and is not.")) {
            try SpecLoader.load(wrongList)
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

    /// Issue 11 #30: a Swagger document was refused with "Expected to find
    /// `openapi` key but it is missing.": one that is not 2.0 is named, with what is read.
    @Test func aSwaggerDocumentOtherThan2IsNamedAsSuch() throws {
        let reason = "this is a Swagger 1.2 document; explorer reads Swagger 2.0 and OpenAPI 3.0 and 3.1"
        let json = try write(#"{"swagger": "1.2", "info": {"title": "x", "version": "1"}, "paths": {}}"#, "json")
        #expect(throws: SpecError(file: json, path: "", reason: reason)) { try SpecLoader.load(json) }
        let yaml = try write("swagger: '1.2'\ninfo: {title: x, version: '1'}\npaths: {}\n", "yaml")
        #expect(throws: SpecError(file: yaml, path: "", reason: reason)) { try SpecLoader.load(yaml) }
        let neither = try write(#"{"info": {"title": "x"}}"#, "json")
        #expect(throws: SpecError(file: neither, path: "", reason: "no top-level 'openapi' version: not an OpenAPI document (explorer reads OpenAPI 3.0 and 3.1, and Swagger 2.0)")) {
            try SpecLoader.load(neither)
        }
    }

    static let swagger2 = """
    swagger: "2.0"
    info: {title: Shop, version: "1"}
    host: shop.example.com
    basePath: /v2
    schemes: [https, http]
    consumes: [application/json]
    produces: [application/json]
    securityDefinitions:
      key: {type: apiKey, name: X-Api-Key, in: header}
      login: {type: basic}
    security: [{key: []}]
    parameters:
      orderId: {name: orderId, in: path, required: true, type: integer}
      pageSize: {name: page_size, in: query, type: integer, maximum: 100}
    definitions:
      NewOrder:
        type: object
        required: [item, quantity]
        properties:
          item: {type: string}
          quantity: {type: integer}
          gift: {type: boolean}
          note: {type: string, x-nullable: true}
          size: {type: string, enum: [S, M, L]}
      Order:
        allOf:
          - $ref: "#/definitions/NewOrder"
          - type: object
            properties: {id: {type: integer}}
    paths:
      /orders:
        get:
          summary: |
            List orders
            (newest first)
          security: []
          parameters:
            - $ref: "#/parameters/pageSize"
            - {name: status, in: query, type: string, enum: [open, shipped]}
            - {name: tags, in: query, type: array, items: {type: string}, collectionFormat: multi}
          responses:
            "200": {description: ok, schema: {type: array, items: {$ref: "#/definitions/Order"}}}
        post:
          summary: Place an order
          parameters:
            - {name: body, in: body, required: true, schema: {$ref: "#/definitions/NewOrder"}}
          responses:
            "201": {description: created, schema: {$ref: "#/definitions/Order"}}
      /orders/{orderId}:
        parameters:
          - $ref: "#/parameters/orderId"
        get:
          summary: One order
          responses:
            "200": {description: ok, schema: {$ref: "#/definitions/Order"}}
      /orders/{orderId}/receipt:
        post:
          summary: Upload a receipt
          consumes: [multipart/form-data]
          parameters:
            - $ref: "#/parameters/orderId"
            - {name: file, in: formData, type: file, required: true}
            - {name: comment, in: formData, type: string}
          responses:
            "204": {description: stored}
    """

    /// Issue 13: a Swagger 2.0 document (Jupyter's REST API ships one) was
    /// refused; it is converted to the OpenAPI 3.0 document it stands for.
    @Test func aSwagger2DocumentFillsTheCatalog() throws {
        let spec = try SpecLoader.load(try write(Self.swagger2, "yaml"))
        #expect(spec.servers.map(\.absoluteString) == ["https://shop.example.com/v2", "http://shop.example.com/v2"])
        #expect(spec.endpoints.map { "\($0.method) \($0.path)" } == ["GET /orders", "POST /orders", "GET /orders/{orderId}", "POST /orders/{orderId}/receipt"])
        let list = spec.endpoints[0]
        #expect(list.isPublic && list.summary == "List orders")
        #expect(list.query == ["page_size", "status", "tags"] && list.queryValues == ["status": ["open", "shipped"]])
        #expect(list.response == "Order" && list.responseIsList)
        let place = spec.endpoints[1]
        #expect(!place.isPublic && place.token == .header("X-Api-Key"))
        #expect(place.body?.name == "NewOrder")
        #expect(place.body?.fields.map(\.name) == ["item", "quantity", "gift", "note", "size"])
        #expect(place.body?.fields.map(\.required) == [true, true, false, false, false])
        #expect(place.body?.fields[1].type == .integer && place.body?.fields[2].type == .boolean)
        #expect(place.body?.fields[4].type == .enumeration("enum", ["S", "M", "L"]))
        #expect(place.body?.fields[3].nullable == true, "x-nullable is 3.0's nullable")
        #expect(spec.endpoints[2].pathParameters == ["orderId"], "a path item's shared parameter")
        #expect(spec.endpoints[3].body == nil, "a form body is not JSON: no field completion")
        #expect(spec.notes.contains("a Swagger 2.0 document, read as the OpenAPI 3.0 one it converts to"))
    }

    @Test func aSwagger2JSONDocumentKeepsItsOrderAndTypes() throws {
        let text = #"{"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {"/z": {"post": {"parameters": [{"in": "body", "name": "b", "schema": {"type": "object", "properties": {"n": {"type": "number"}, "on": {"type": "boolean"}}}}], "responses": {"200": {"description": "x"}}}}, "/a": {"get": {"responses": {"200": {"description": "x"}}}}}}"#
        let spec = try SpecLoader.load(try write(text, "json"))
        #expect(spec.endpoints.map { "\($0.method) \($0.path)" } == ["POST /z", "GET /a"])
        #expect(spec.servers.isEmpty, "no host: the server is what --base-url says")
        #expect(spec.endpoints[0].body?.fields.map(\.type) == [.number, .boolean])
    }

    @Test func aYAMLScalarIsTypedAsYAMLDecoderTypesIt() throws {
        let tree = try Swagger2.tree(Data("a: true\nb: '2.0'\nc: 2\nd: 1.5\ne: ~\nf: text\ng: \"true\"\n".utf8), isJSON: false)
        #expect(JSONPrinter.compact(tree) == #"{"a":true,"b":"2.0","c":2,"d":1.5,"e":null,"f":"text","g":"true"}"#)
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
        #expect(message == "/nonexistent.yaml: no such file")
        // A document with no operations: `endpoints` said to load one, as if none had been.
        let bare = try write("openapi: 3.0.0\ninfo: {title: x, version: \"1\"}\npaths: {}\n", "yaml")
        let listed = try await withLiveSession(target: .url(nowhere)) { live in
            _ = await live.interpreter.execute(.specLoad(path: bare))
            return await live.interpreter.execute(.endpoints(filter: nil))
        }
        guard case let .failure(said, _) = listed else { Issue.record("listed: \(listed)"); return }
        #expect(said == "the catalog is empty: \(bare) lists no operations under paths; add some, then spec load \(bare) again")
    }
}
