import Core
import Foundation
import OpenAPIKit

/// OpenAPI 3.1 documents (OpenAPIKit's `OpenAPIKit` module) into a
/// `SpecDocument`; SpecCatalog does the rest. References are looked up one
/// level where the catalog needs the object (parameters, bodies, answers);
/// schema references stay names, so nothing is dereferenced in full.
enum SpecImport31 {
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
            guard let found = try? components.lookup(value) else { continue }
            out.schemes[key.rawValue] = scheme(found.type, notes: &notes)
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
        // An operation's parameter replaces the path item's of the same name and place.
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
            let json = content.flatMap { try? components.lookup($0.value) }
            out.body = json?.schema.map { .json(schema($0, notes: &notes)) } ?? .notJSON(request.content.first.map(\.key.rawValue))
            out.bodyMediaType = content.map(\.key.rawValue).flatMap { $0 == "application/json" ? nil : $0 }
        }
        let success = op.responses.first { $0.key.rawValue == "200" } ?? op.responses.first { $0.key.rawValue.hasPrefix("2") }
        if let entry = success?.value, let response = try? components.lookup(entry),
           let content = response.content.first(where: { $0.key.rawValue.contains("json") }),
           let json = try? components.lookup(content.value), let answer = json.schema {
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
        let nullable = s.nullable
        let kind: SpecSchemaKind
        switch s.value {
        case let .reference(ref, _):
            if case let .internal(.component(name)) = ref { kind = .reference(name) } else {
                notes.insert("schemas in other files are described as any")
                kind = .any
            }
        case .string: kind = .string(s.allowedValues?.compactMap { $0.value as? String } ?? [])
        case .integer: kind = .integer
        case .number: kind = .number
        case .boolean: kind = .boolean
        case .null, .fragment: kind = .any
        case let .array(_, array): kind = .array(array.items.map { [schema($0, notes: &notes)] } ?? [])
        case let .object(_, object):
            kind = .object(object.properties.map { (name: $0.key, schema: schema($0.value, notes: &notes)) },
                           required: Set(object.requiredProperties))
        case let .all(parts, _): kind = .allOf(parts.map { schema($0, notes: &notes) })
        case let .one(parts, _), let .any(parts, _):
            // `anyOf: [X, {type: null}]` is how 3.1 says "X or null".
            let real = parts.filter { !isNull($0) }
            if real.count == 1, real.count < parts.count {
                var inner = schema(real[0], notes: &notes)
                inner.nullable = true
                return inner
            }
            kind = .combination
        case .not: kind = .combination
        }
        return SpecSchema(kind: kind, nullable: nullable, title: s.title)
    }

    static func isNull(_ schema: JSONSchema) -> Bool {
        if case .null = schema.value { return true }
        return false
    }

    /// Where a decoding error points, as a JSON path.
    static func codingPath(of error: Error) -> String {
        SpecLoader.jsonPath(OpenAPI.Error(from: error).codingPath)
    }

    static func reason(of error: Error) -> String {
        plainly(OpenAPI.Error(from: error).localizedDescription)
    }

    /// OpenAPIKit's text on one line, in words: its cause (after "could not
    /// be decoded because:"), its Markdown (`**GET**`) gone, a missing key as
    /// "`description` is missing".
    /// A Swift type OpenAPIKit names (`Array<Any>`, `Mapping`) as a document's author says it.
    private static func kindInWords(_ type: String) -> String {
        switch type {
        case "Mapping": "an object (a mapping)"
        case "String": "a string"
        case "Int", "Double", "Float", "Decimal": "a number"
        case "Bool": "true or false"
        case _ where type.hasPrefix("Array"): "a list (an array)"
        case _ where type.hasPrefix("Dictionary") || type.hasPrefix("OrderedDictionary"): "an object (a mapping)"
        default: type.lowercased()
        }
    }

    static func plainly(_ text: String) -> String {
        var said = text
        if let because = said.range(of: "could not be decoded because:", options: .backwards) { said = String(said[because.upperBound...]) }
        said = said.replacingOccurrences(of: "**", with: "")
        if let missing = said.firstMatch(of: /Expected to find `([^`]+)` key(?: in [^ ]+)? but it is missing\.?/) {
            said.replaceSubrange(missing.range, with: "`\(missing.1)` is missing.")
        }
        said = said.replacingOccurrences(of: "Expected value to be parsable as Mapping but it was not", with: "expected an object (a mapping) here")
        if let kind = said.firstMatch(of: /Expected `([^`]+)` value (?:in|for) .*? to be parsable as ([\w<>, ]+?) but it was not\.?/) {
            said.replaceSubrange(kind.range, with: "`\(kind.1)` should be \(kindInWords(String(kind.2))), and is not.")
        }
        said = said.split(whereSeparator: \.isNewline).map { $0.trimmingBlanks() }.filter { !$0.isEmpty }.joined(separator: " ")
        while said.hasSuffix("..") { said.removeLast() }
        return said.trimmingBlanks()
    }
}
