import Core
import Foundation
import OpenAPIKit30
import Yams

/// OpenAPI 3.0 documents (OpenAPIKit's `OpenAPIKit30` module) into a
/// `SpecDocument`: the same steps as SpecImport31, on 3.0's types.
enum SpecImport30 {
    /// `parts` from SpecSplit: the first holds the components; the others only paths.
    static func load(_ parts: [Data], isJSON: Bool) throws -> ImportedSpec {
        let documents = try SpecLoader.concurrently(parts) { try SpecLoader.decode(OpenAPI.Document.self, $0, isJSON: isJSON) }
        var out = document(documents[0])
        for extra in documents.dropFirst() {
            var notes = out.notes
            out.operations += operations(of: extra, components: documents[0].components, notes: &notes)
            out.notes = notes
        }
        return SpecCatalog.build(out)
    }

    /// A document already in memory as a YAML node (a converted Swagger 2.0
    /// one): decoded from the node, its order kept.
    static func load(_ node: Node) throws -> ImportedSpec {
        SpecCatalog.build(document(try YAMLDecoder().decode(OpenAPI.Document.self, from: node, userInfo: SpecLoader.withoutExtensions)))
    }

    /// For `bench-spec --phases`: the import's steps timed one by one (ms),
    /// next to what the first importer did (vendor extensions decoded, the
    /// document dereferenced in full), which is not used any more.
    static func phases(_ data: Data, isJSON: Bool) -> [String: String] {
        var out: [String: String] = [:]
        var document: OpenAPI.Document?
        SpecPhases.time("decode (vendor extensions on, as before)", into: &out) {
            _ = try SpecLoader.decode(OpenAPI.Document.self, data, isJSON: isJSON, vendorExtensions: true)
        }
        SpecPhases.time("decode", into: &out) { document = try SpecLoader.decode(OpenAPI.Document.self, data, isJSON: isJSON) }
        let parts = isJSON ? SpecSplit.parts(data) : [data]
        SpecPhases.time("decode, cut in \(parts.count) and decoded at once (SpecSplit)", into: &out) {
            _ = try SpecLoader.concurrently(isJSON ? SpecSplit.parts(data) : [data]) {
                try SpecLoader.decode(OpenAPI.Document.self, $0, isJSON: isJSON)
            }
        }
        guard let document else { return out }
        SpecPhases.time("dereference and resolve (as before)", into: &out) { _ = try document.locallyDereferenced().resolved() }
        SpecPhases.time("catalog", into: &out) { _ = SpecCatalog.build(self.document(document)) }
        return out
    }

    static func document(_ doc: OpenAPI.Document) -> SpecDocument {
        let components = doc.components
        var out = SpecDocument()
        // A server's variables take their defaults (`http://host/{basePath}`, basePath `v1`): it was skipped, and
        // the document said to name no server.
        let filled = doc.servers.map { server in
            (url: server.urlTemplate.replacing(Dictionary(server.variables.map { ($0.key, $0.value.default) }, uniquingKeysWith: { a, _ in a })).url,
             description: server.description)
        }
        let servers = filled.compactMap { server in server.url.flatMap { $0.host == nil ? nil : ($0, server.description) } }
        out.servers = servers.map(\.0)
        out.serverDescriptions = servers.map(\.1)
        out.title = doc.info.title
        out.serverPath = SpecDocument.relativePath(filled.compactMap(\.url))
        out.security = doc.security.map(requirement)
        var notes = Set<String>()
        out.schemas = components.schemas.map { (name: $0.key.rawValue, schema: schema($0.value, notes: &notes)) }
        for (key, value) in components.securitySchemes {
            out.schemes[key.rawValue] = scheme(value.type, notes: &notes)
        }
        out.operations = operations(of: doc, components: components, notes: &notes)
        out.notes = notes
        return out
    }

    /// Every operation of `doc`'s paths, references looked up in `components`.
    static func operations(of doc: OpenAPI.Document, components: OpenAPI.Components, notes: inout Set<String>) -> [SpecOperation] {
        var found: [SpecOperation] = []
        for (path, entry) in doc.paths {
            guard let item = try? components.lookup(entry) else {
                // Which one: the start-up warning said only that some were.
                notes.insert("references that cannot be resolved in the document are left out: the path \(path.rawValue)")
                continue
            }
            for endpoint in item.endpoints {
                found.append(operation(endpoint, path: path.rawValue, shared: item.parameters, components: components, notes: &notes))
            }
        }
        return found
    }

    static func operation(_ endpoint: OpenAPI.PathItem.Endpoint, path: String, shared: OpenAPI.Parameter.Array,
                          components: OpenAPI.Components, notes: inout Set<String>) -> SpecOperation {
        let op = endpoint.operation
        var out = SpecOperation(method: endpoint.method.rawValue.uppercased(), path: path, summary: op.summary ?? SpecCatalog.firstLine(op.description),
                                operationId: op.operationId, security: op.security.map { $0.map(requirement) })
        var parameters: [OpenAPI.Parameter] = []
        for entry in op.parameters + shared {
            guard let parameter = try? components.lookup(entry) else {
                notes.insert("references that cannot be resolved in the document are left out: a parameter of \(out.method) \(path)")
                continue
            }
            if !parameters.contains(where: { $0.name == parameter.name && $0.location == parameter.location }) { parameters.append(parameter) }
        }
        out.query = parameters.filter { $0.location == .query }.map(\.name)
        for parameter in parameters where parameter.location == .query {
            let schema = parameter.schemaOrContent.schemaValue ?? parameter.schemaOrContent.schemaReference.flatMap { try? components.lookup($0) }
            let values = queryValues(schema, components: components)
            if !values.isEmpty { out.queryValues[parameter.name] = values }
        }
        if parameters.contains(where: { $0.location == .cookie }) { notes.insert("cookie parameters are not sent by the explorer") }
        if let entry = op.requestBody, let request = try? components.lookup(entry) {
            let content = request.content.first { $0.key.rawValue == "application/json" } ?? request.content.first { $0.key.rawValue.contains("json") }
            out.body = content?.value.schema.map { .json(schema($0, notes: &notes)) } ?? .notJSON(request.content.first.map(\.key.rawValue))
            out.bodyMediaType = content.map(\.key.rawValue).flatMap { $0 == "application/json" ? nil : $0 }
        }
        let success = op.responses.first { $0.key.rawValue == "200" } ?? op.responses.first { $0.key.rawValue.hasPrefix("2") }
        if let entry = success?.value, let response = try? components.lookup(entry),
           let answer = response.content.first(where: { $0.key.rawValue.contains("json") })?.value.schema {
            out.answer = schema(answer, notes: &notes)
        }
        return out
    }

    static func requirement(_ requirement: OpenAPI.SecurityRequirement) -> [String] {
        requirement.keys.compactMap(\.name).sorted()
    }

    static func scheme(_ type: OpenAPI.SecurityScheme.SecurityType, notes: inout Set<String>) -> SpecScheme {
        switch type {
        case let .apiKey(name, location) where location == .header: return .apiKeyHeader(name)
        case let .apiKey(name, location) where location == .query: return .apiKeyQuery(name)
        case let .http(scheme, _) where scheme.lowercased() == "bearer": return .bearer
        case let .http(scheme, _) where scheme.lowercased() == "basic": return .basic
        case .oauth2, .openIdConnect: return .bearer
        default:
            notes.insert(SpecScheme.unsupportedNote)
            return .unsupported("\(type)")
        }
    }

    static func schema(_ either: Either<JSONReference<JSONSchema>, JSONSchema>, notes: inout Set<String>) -> SpecSchema {
        switch either {
        case let .a(ref): SpecSchema(kind: reference(ref, notes: &notes))
        case let .b(s): schema(s, notes: &notes)
        }
    }

    static func reference(_ ref: JSONReference<JSONSchema>, notes: inout Set<String>) -> SpecSchemaKind {
        if case let .internal(.component(name)) = ref { return .reference(name) }
        notes.insert("schemas in other files are described as any")
        return .any
    }

    /// A query parameter's values for TAB: its enum, one behind a `$ref`
    /// (an Enum class), or the branches' of an `anyOf`/`oneOf` (FastAPI's
    /// `Optional[Literal[…]]` is `anyOf: [{enum: …}, {type: null}]`: TAB offered nothing).
    static func queryValues(_ schema: JSONSchema?, components: OpenAPI.Components, depth: Int = 0) -> [String] {
        guard let schema, depth < 8 else { return [] }
        if let values = schema.allowedValues { return values.compactMap { $0.value as? String } }
        switch schema.value {
        case let .reference(ref, _): return queryValues(components[ref], components: components, depth: depth + 1)
        case let .one(parts, _), let .any(parts, _):
            var values: [String] = []
            for value in parts.flatMap({ queryValues($0, components: components, depth: depth + 1) }) where !values.contains(value) { values.append(value) }
            return values
        default: return []
        }
    }

    static func schema(_ s: JSONSchema, notes: inout Set<String>) -> SpecSchema {
        let kind: SpecSchemaKind
        switch s.value {
        case let .reference(ref, _): kind = reference(ref, notes: &notes)
        case .string: kind = .string(s.allowedValues?.compactMap { $0.value as? String } ?? [])
        case .integer: kind = .integer
        case .number: kind = .number
        case .boolean: kind = .boolean
        case .fragment: kind = .any
        case let .array(_, array): kind = .array(array.items.map { [schema($0, notes: &notes)] } ?? [])
        case let .object(_, object):
            kind = .object(object.properties.map { (name: $0.key, schema: schema($0.value, notes: &notes)) },
                           required: Set(object.requiredProperties))
        case let .all(parts, _): kind = .allOf(parts.map { schema($0, notes: &notes) })
        case .one, .any, .not: kind = .combination
        }
        return SpecSchema(kind: kind, nullable: s.nullable, title: s.title)
    }
}
