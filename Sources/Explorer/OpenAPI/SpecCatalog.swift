import Core
import Foundation

/// What the catalog needs of an OpenAPI document, the same for 3.0 and 3.1.
/// OpenAPIKit has a module per version with look-alike but distinct types;
/// each importer (SpecImport30, SpecImport31) only copies its document into
/// these, and `SpecCatalog` builds endpoints and models from them once.
struct SpecDocument {
    var operations: [SpecOperation] = []
    /// `components/schemas`, in document order.
    var schemas: [(name: String, schema: SpecSchema)] = []
    var schemes: [String: SpecScheme] = [:]
    /// The document's `security`: alternatives, each the scheme names it needs together.
    var security: [[String]] = []
    var servers: [URL] = []
    var serverDescriptions: [String?] = []
    /// `info.title` (`Pet Store API`): what `profile init` calls the backend.
    var title: String?
    /// The path of the first server given as a path alone (`servers: [{url:
    /// /api/v1}]`, Swagger 2's `basePath` without a `host`): the API is
    /// there on whatever host serves it (`--base-url`). It was dropped, and
    /// every endpoint went to the host's root, a 404.
    var serverPath: String?
    var notes: Set<String> = []

    static func relativePath(_ servers: [URL]) -> String? {
        guard var path = servers.first(where: { $0.host == nil })?.path else { return nil }
        while path.hasSuffix("/") { path.removeLast() }
        return path.isEmpty ? nil : (path.hasPrefix("/") ? path : "/" + path)
    }
}

struct SpecOperation {
    var method: String
    var path: String
    var summary: String?
    var operationId: String?
    var query: [String] = []
    /// Query parameters whose schema is a string `enum`, with its values.
    var queryValues: [String: [String]] = [:]
    var body: Body?
    /// The body's JSON media type when it is not `application/json`
    /// (`application/merge-patch+json`, `application/vnd.api+json`).
    var bodyMediaType: String?
    /// The schema of the first 2xx answer with JSON content.
    var answer: SpecSchema?
    /// The operation's own `security`; nil when it inherits the document's.
    var security: [[String]]?

    enum Body {
        case json(SpecSchema)
        /// Its first media type, when the document names one.
        case notJSON(String?)
    }
}

/// A security scheme as far as the explorer can send it.
enum SpecScheme: Sendable, Equatable {
    /// `Authorization: Bearer` (http bearer, OAuth 2, OpenID Connect).
    case bearer
    case apiKeyHeader(String)
    /// HTTP Basic: a user name and a password (a profile's `auth: basic`).
    case basic
    /// An API key as a query parameter (a profile's `auth: query`).
    case apiKeyQuery(String)
    /// What the explorer cannot send; the note says what it is.
    case unsupported(String)
}

/// A JSON Schema reduced to what completion, `describe` and the drift check use.
struct SpecSchema: Sendable {
    var kind: SpecSchemaKind
    var nullable = false
    var title: String?
}

/// What a `SpecSchema` is. Both say `Sendable` outright: inferring it for
/// the pair made the compiler report a circular reference in some builds.
indirect enum SpecSchemaKind: Sendable {
    /// `#/components/schemas/NAME`.
    case reference(String)
    case string([String])
    case integer, number, boolean
    /// The items' schema, when the document gives one (at most one).
    case array([SpecSchema])
    case object([(name: String, schema: SpecSchema)], required: Set<String>)
    case allOf([SpecSchema])
    /// oneOf, anyOf, not.
    case combination
    case any
}

/// Public or not, and where the token goes: the outcome of a `security` list.
struct SpecAccess: Sendable, Equatable {
    var isPublic: Bool
    var token: TokenPlacement
}

/// Builds the catalog's endpoints and models from a `SpecDocument`.
/// Component schemas become models named as in the document, and a `$ref`
/// stays a reference to that model (`.model(name)`), so recursive schemas
/// need no unrolling and each schema is converted once.
struct SpecCatalog {
    private let schemas: [String: SpecSchema]
    private let schemes: [String: SpecScheme]
    private var models: [Model] = []
    /// Where each model is in `models`.
    private var modelIndex: [String: Int] = [:]
    private var notes: Set<String>
    /// Component names whose schema is an object (or an allOf of objects): a `$ref` to one is `.model(name)`.
    private var objectComponents = Set<String>()
    /// Components being resolved inline right now (a non-object reference chain), against cycles.
    private var resolving = Set<String>()

    /// A description's first line, for the summary column when there is no summary.
    static func firstLine(_ text: String?) -> String? {
        guard let line = text?.split(whereSeparator: \.isNewline).first else { return nil }
        return line.trimmingBlanks()
    }

    /// A note on what requests will lack (a security scheme, a cookie parameter): said at start, as a document's faults are.
    static func changesWhatIsSent(_ note: String) -> Bool {
        note == SpecScheme.unsupportedNote || note.hasPrefix("cookie parameters")
    }

    /// How a note about `$ref`s to nowhere (or in a loop) starts: a fault of the document, said at every start, not only by `spec load`.
    static let missingSchemasNote = "the document refers to schemas it does not have, described as any"
    static let loopingSchemasNote = "the document has schemas that refer to themselves in a loop, described as any"
    /// So is one about what left an endpoint or a schema out (a `$ref` no file has, one to another file):
    /// with `--spec` it was said by `spec load` alone, and a path went missing without a word.
    static func isDocumentFault(_ note: String) -> Bool {
        note.hasPrefix(missingSchemasNote) || note.hasPrefix(loopingSchemasNote) || note.hasPrefix("references that cannot be resolved")
            || note.contains("in other files")
    }

    static func build(_ document: SpecDocument) -> ImportedSpec {
        var catalog = SpecCatalog(document)
        let endpoints = document.operations.map { catalog.endpoint($0, documentSecurity: document.security) }
        var spec = ImportedSpec(endpoints: endpoints, models: catalog.models, servers: document.servers,
                                notes: catalog.notes.sorted(), defaultAccess: catalog.access(document.security),
                                credential: catalog.credential(document))
        spec.serverDescriptions = document.serverDescriptions
        spec.title = document.title
        spec.serverPath = document.serverPath
        return spec
    }

    private init(_ document: SpecDocument) {
        var byName: [String: SpecSchema] = [:]
        for (name, schema) in document.schemas { byName[name] = schema }
        schemas = byName
        schemes = document.schemes
        notes = document.notes
        // A `$ref` to a schema the document does not have was left out without a word (an answer with no model).
        var missing = Set<String>()
        func look(_ schema: SpecSchema) {
            switch schema.kind {
            case let .reference(name) where byName[name] == nil: missing.insert(name)
            case let .array(items): items.forEach(look)
            case let .object(members, _): members.forEach { look($0.schema) }
            case let .allOf(parts): parts.forEach(look)
            default: break
            }
        }
        document.schemas.forEach { look($0.schema) }
        for operation in document.operations {
            if case let .json(body)? = operation.body { look(body) }
            operation.answer.map(look)
        }
        if !missing.isEmpty {
            notes.insert(Self.missingSchemasNote + ": "
                         + missing.sorted().map { "#/components/schemas/\($0)" }.joined(separator: ", "))
        }
        // `A: {$ref: B}`, `B: {$ref: A}`, or an allOf that holds itself: no model can be made of them.
        func loops(_ name: String, through schema: SpecSchema, seen: Set<String>) -> Bool {
            switch schema.kind {
            case let .reference(next): return next == name || (!seen.contains(next) && byName[next].map { loops(name, through: $0, seen: seen.union([next])) } == true)
            case let .allOf(parts): return parts.contains { loops(name, through: $0, seen: seen) }
            default: return false
            }
        }
        let looping = document.schemas.filter { loops($0.name, through: $0.schema, seen: [$0.name]) }.map(\.name)
        if !looping.isEmpty {
            notes.insert(Self.loopingSchemasNote + ": " + looping.sorted().map { "#/components/schemas/\($0)" }.joined(separator: ", "))
        }
        var objects = Set<String>()
        for (name, schema) in document.schemas where Self.isObject(schema, in: byName, seen: []) { objects.insert(name) }
        objectComponents = objects
        for (name, schema) in document.schemas where objects.contains(name) {
            add(Model(name, fields(of: schema, owner: name)))
        }
    }

    private static func isObject(_ schema: SpecSchema, in schemas: [String: SpecSchema], seen: Set<String>) -> Bool {
        switch schema.kind {
        case .object: return true
        case let .allOf(parts): return !parts.isEmpty && parts.allSatisfy { isObject($0, in: schemas, seen: seen) }
        case let .reference(name):
            guard !seen.contains(name), let target = schemas[name] else { return false }
            return isObject(target, in: schemas, seen: seen.union([name]))
        default: return false
        }
    }

    /// A path whose variable spans segments, as grpc-gateway and Google's AIP-127 write a resource's name
    /// (`/v1/{name=tenants/*/projects/*}`), with a segment for each part: `/v1/tenants/{tenant}/projects/{project}`,
    /// each `*` named for the collection before it. Kept whole, no concrete path matched it (no checks, no
    /// drift), TAB offered `/v1/{name=tenants` and a line sent the braces as typed.
    static func expandingResourceNames(_ path: String) -> String {
        guard path.contains("=") else { return path }
        var out = ""
        var rest = Substring(path)
        var used = Set<String>()
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += rest[..<open]
            let inner = rest[rest.index(after: open)..<close]
            if let equals = inner.firstIndex(of: "=") {
                let variable = String(inner[..<equals])
                var previous: Substring?
                out += inner[inner.index(after: equals)...].split(separator: "/").map { part -> String in
                    defer { previous = part }
                    guard part == "*" || part == "**" else { return String(part) }
                    var name = previous.map(singular) ?? variable
                    if name.isEmpty || used.contains(name) { name = variable + (used.contains(variable) ? "_\(used.count)" : "") }
                    used.insert(name)
                    return "{\(name)}"
                }.joined(separator: "/")
            } else {
                out += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// `tenants` → `tenant`, `policies` → `policy`, `shelves` → `shelf`, `addresses` → `address`, `people` →
    /// `person`: a collection's member, as English makes most.
    static func singular(_ word: Substring) -> String {
        let irregular = ["people": "person", "children": "child", "men": "man", "women": "woman", "indices": "index", "data": "datum"]
        if let one = irregular[word.lowercased()] { return one }
        if word.hasSuffix("ies"), word.count > 3 { return word.dropLast(3) + "y" }
        if word.hasSuffix("ves"), word.count > 3 { return word.dropLast(3) + "f" }
        if ["sses", "shes", "ches", "xes", "zes"].contains(where: { word.hasSuffix($0) }) { return String(word.dropLast(2)) }
        if word.hasSuffix("s"), !word.hasSuffix("ss"), !word.hasSuffix("us"), word.count > 1 { return String(word.dropLast()) }
        return String(word)
    }

    private mutating func add(_ model: Model) {
        guard modelIndex[model.name] == nil else { return }
        modelIndex[model.name] = models.count
        models.append(model)
    }

    // MARK: Endpoints

    private mutating func endpoint(_ op: SpecOperation, documentSecurity: [[String]]) -> Endpoint {
        var op = op
        op.path = Self.expandingResourceNames(op.path)
        let label = "\(op.method) \(op.path)"
        var body: Model?
        var bodyShape: String?
        switch op.body {
        case nil: break
        case let .notJSON(mediaType):
            notes.insert("request bodies that are not JSON get no field completion")
            bodyShape = switch mediaType {
            case "application/x-www-form-urlencoded"?: "a form (send it with --form name=value items)"
            case "multipart/form-data"?: "multipart/form-data (send it with name=value and name@FILE items)"
            case let type: "\(type ?? "not JSON") (send it with --raw TEXT or @FILE)"
            }
        case let .json(schema):
            if let name = modelName(of: schema) {
                body = modelIndex[name].map { models[$0] }
            } else if isInlineObject(schema) {
                let name = schema.title ?? op.operationId.map { $0 + "Body" } ?? "\(label) body"
                body = Model(name, fields(of: schema, owner: name))
            } else {
                notes.insert("request bodies that are not objects get no field completion")
                // `describe` said nothing of such a body (a string, a list, a schema that loops).
                bodyShape = "\(fieldType(of: schema, owner: "\(label) body")) (JSON, not an object: send it with --raw '…' or @file.json)"
            }
        }
        var response: String?
        var isList = false
        if let answer = op.answer {
            let owner = answer.title ?? op.operationId.map { $0 + "Response" } ?? "\(label) answer"
            (response, isList) = responseModel(answer, owner: owner)
        }
        let access = access(op.security ?? documentSecurity)
        // One line: a summary may run on over several.
        let summary = Self.firstLine(op.summary) ?? op.operationId ?? ""
        var endpoint = Endpoint(op.method, op.path, summary, isPublic: access.isPublic, query: op.query, body: body,
                                response: response, responseIsList: isList, token: access.token)
        endpoint.queryValues = op.queryValues
        endpoint.bodyMediaType = op.bodyMediaType
        endpoint.bodyShape = bodyShape
        return endpoint
    }

    /// The answer's model: a component's, or one made for an inline object;
    /// a list when the answer is an array of them.
    private mutating func responseModel(_ schema: SpecSchema, owner: String) -> (String?, Bool) {
        if let name = modelName(of: schema) { return (name, false) }
        if isInlineObject(schema) {
            add(Model(owner, fields(of: schema, owner: owner)))
            return (owner, false)
        }
        if case let .array(itemsSchema) = schema.kind, let items = itemsSchema.first {
            let (name, nested) = responseModel(items, owner: owner + " item")
            if let name, !nested { return (name, true) }
        }
        return (nil, false)
    }

    /// Security alternatives → public or how the token goes. The first
    /// alternative whose schemes the explorer can send decides; none needed
    /// (`security: []`) or `{}` alone is public.
    func access(_ requirements: [[String]]) -> SpecAccess {
        var optional = requirements.isEmpty
        for alternative in requirements {
            if alternative.isEmpty { optional = true; continue }
            for name in alternative {
                switch schemes[name] {
                case .bearer: return SpecAccess(isPublic: false, token: .bearer)
                case let .apiKeyHeader(header):
                    // An API key named Authorization (Kubernetes' BearerToken) means "Bearer <token>" in practice.
                    return SpecAccess(isPublic: false, token: header.lowercased() == "authorization" ? .bearer : .header(header))
                case .basic, .apiKeyQuery:
                    // Sent by the session's credential (a profile's basic or query auth); a login's token would be a bearer one.
                    return SpecAccess(isPublic: false, token: .bearer)
                case .unsupported, nil: continue
                }
            }
        }
        // Only schemes the explorer cannot send (noted when read): the bearer token is its best try.
        return SpecAccess(isPublic: optional, token: .bearer)
    }

    /// The scheme a credential for these requirements is sent by: the first
    /// the explorer can send; nil when none is needed or none can be sent.
    func credential(_ requirements: [[String]]) -> SpecScheme? {
        for name in requirements.joined() {
            switch schemes[name] {
            case .unsupported, nil: continue
            case let scheme?: return scheme
            }
        }
        return nil
    }

    /// The document's own `security`'s scheme; without one, the scheme most
    /// of its operations name (FastAPI writes `security` on each operation,
    /// none on the document), the first named on a tie.
    func credential(_ document: SpecDocument) -> SpecScheme? {
        if let scheme = credential(document.security) { return scheme }
        var counted: [(scheme: SpecScheme, count: Int)] = []
        for operation in document.operations {
            guard let scheme = credential(operation.security ?? []) else { continue }
            if let index = counted.firstIndex(where: { $0.scheme == scheme }) { counted[index].count += 1 } else { counted.append((scheme, 1)) }
        }
        // `max` keeps the last of equals: the first named wins a tie through the reversal.
        return counted.reversed().max { $0.count < $1.count }?.scheme
    }

    // MARK: Schemas

    /// The component model a schema names, directly or by a chain of references.
    private func modelName(of schema: SpecSchema) -> String? {
        guard case let .reference(name) = schema.kind, objectComponents.contains(name) else { return nil }
        return name
    }

    private func isInlineObject(_ schema: SpecSchema) -> Bool {
        switch schema.kind {
        case .object: true
        case .allOf: Self.isObject(schema, in: schemas, seen: [])
        default: false
        }
    }

    /// The members of an object schema; an allOf's parts' members together.
    private mutating func fields(of schema: SpecSchema, owner: String) -> [Field] {
        switch schema.kind {
        case let .object(properties, required):
            return properties.map { name, property in
                Field(name, fieldType(of: property, owner: "\(owner).\(name)"), required: required.contains(name), nullable: property.nullable)
            }
        case let .allOf(parts):
            var all: [Field] = []
            for part in parts {
                for field in fields(of: part, owner: owner) where !all.contains(where: { $0.name == field.name }) { all.append(field) }
            }
            return all
        case let .reference(name):
            guard !resolving.contains(name), let target = schemas[name] else { return [] }
            resolving.insert(name)
            defer { resolving.remove(name) }
            return fields(of: target, owner: owner)
        default:
            return []
        }
    }

    /// A member's type. Inline objects with members become models named for
    /// where they are (`Pet.owner`), so the drift check looks inside them.
    private mutating func fieldType(of schema: SpecSchema, owner: String) -> FieldType {
        switch schema.kind {
        case let .reference(name):
            if objectComponents.contains(name) { return .model(name) }
            guard !resolving.contains(name), let target = schemas[name] else { return .any }
            resolving.insert(name)
            defer { resolving.remove(name) }
            var named = target
            named.title = target.title ?? name
            return fieldType(of: named, owner: owner)
        case let .string(values): return values.isEmpty ? .string : .enumeration(schema.title ?? "enum", values)
        case .integer: return .integer
        case .number: return .number
        case .boolean: return .boolean
        case let .array(items): return .array(items.first.map { fieldType(of: $0, owner: owner + "[]") } ?? .any)
        case let .object(properties, _):
            guard !properties.isEmpty else { return .any }
            add(Model(owner, fields(of: schema, owner: owner)))
            return .model(owner)
        case .allOf:
            guard isInlineObject(schema) else {
                notes.insert("oneOf, anyOf (but X or null), not, and an allOf of what is not an object are described as any")
                return .any
            }
            add(Model(owner, fields(of: schema, owner: owner)))
            return .model(owner)
        case .combination:
            notes.insert("oneOf, anyOf (but X or null), not, and an allOf of what is not an object are described as any")
            return .any
        case .any: return .any
        }
    }
}

extension SpecScheme {
    static let unsupportedNote = "security schemes other than bearer, OAuth 2, OpenID Connect, HTTP Basic and API keys in a header or the query are not sent: those operations get Authorization: Bearer"
}
