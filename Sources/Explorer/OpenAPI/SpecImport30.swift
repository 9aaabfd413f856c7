import Core
import Foundation
import OpenAPIKit30

/// OpenAPI 3.0 documents (OpenAPIKit's `OpenAPIKit30` module; the same steps as 3.1) into catalog entries.
enum SpecImport30 {
    static func load(_ data: Data, decode: (OpenAPI.Document.Type) throws -> OpenAPI.Document) throws -> ImportedSpec {
        let document = try decode(OpenAPI.Document.self)
        let resolved = try document.locallyDereferenced().resolved()
        var notes = Set<String>()
        let endpoints = resolved.endpoints.map { endpoint($0, notes: &notes) }
        return ImportedSpec(endpoints: endpoints, servers: document.servers.compactMap(\.urlTemplate.url).filter { $0.host != nil }, notes: notes.sorted())
    }

    static func endpoint(_ e: ResolvedEndpoint, notes: inout Set<String>) -> Endpoint {
        let query = e.parameters.filter { $0.location == .query }.map(\.name)
        if e.parameters.contains(where: { $0.location == .cookie }) { notes.insert("cookie parameters are not sent by the explorer") }
        var body: Model?
        if let request = e.requestBody {
            if let json = request.content.first(where: { $0.key.rawValue.contains("json") })?.value, let schema = json.schema {
                body = model(schema, name: e.operationId.map { $0 + "Body" } ?? "\(e.method.rawValue.uppercased()) \(e.path.rawValue) body", notes: &notes)
            } else {
                notes.insert("request bodies that are not JSON get no field completion")
            }
        }
        let summary = e.endpointSummary ?? e.routeSummary ?? e.operationId ?? ""
        let isPublic = e.security.isEmpty || e.security.contains { $0.schemes.isEmpty }
        return Endpoint(e.method.rawValue.uppercased(), e.path.rawValue, summary, isPublic: isPublic, query: query, body: body)
    }

    static func model(_ schema: DereferencedJSONSchema, name: String, notes: inout Set<String>) -> Model? {
        guard case let .object(_, object) = schema else {
            notes.insert("request bodies that are not objects get no field completion")
            return nil
        }
        let fields = object.properties.map { key, value in
            Field(key, type(value, notes: &notes), required: object.requiredProperties.contains(key), nullable: value.nullable)
        }
        return Model(schema.title ?? name, fields)
    }

    static func type(_ schema: DereferencedJSONSchema, notes: inout Set<String>) -> FieldType {
        switch schema {
        case .string:
            let values = schema.allowedValues?.compactMap { $0.value as? String } ?? []
            return values.isEmpty ? .string : .enumeration(schema.title ?? "enum", values)
        case .integer: return .integer
        case .number: return .number
        case .boolean: return .boolean
        case let .array(_, array): return .array(array.items.map { type($0, notes: &notes) } ?? .any)
        case .all, .one, .any, .not:
            notes.insert("allOf, oneOf, anyOf and not are described as any")
            return .any
        default: return .any
        }
    }
}
