import Core
import Foundation
import Yams

/// A Swagger 2.0 document (OpenAPI's former name and version, which many
/// backends still ship) rewritten in process as the OpenAPI 3.0 document it
/// stands for, which the 3.0 importer then reads like any other:
/// - `host`, `basePath` and `schemes` become `servers`;
/// - a `body` parameter becomes the request body, under each type the
///   operation `consumes`; `formData` parameters become a form body;
/// - other parameters keep their place, their type moving into `schema`;
/// - a response's `schema` goes under each type the operation `produces`;
/// - `definitions`, `parameters`, `responses` and `securityDefinitions`
///   become components, and every `$ref` follows them.
/// What has no 3.0 counterpart is noted once, as the importer notes its own.
enum Swagger2 {
    typealias Members = [(key: String, value: JSONValue)]

    /// The converted document as JSON, and the notes of what was not carried over.
    static func convert(_ data: Data, isJSON: Bool) throws(SpecError) -> (document: JSONValue, notes: Set<String>) {
        guard case let .object(root) = try tree(data, isJSON: isJSON) else {
            throw SpecError(file: "", path: "", reason: "a Swagger document is an object at the top")
        }
        var converter = Converter(root: root)
        let converted = converter.document()
        converter.notes.insert("a Swagger 2.0 document, read as the OpenAPI 3.0 one it converts to")
        return (converted, converter.notes)
    }

    /// A JSON tree as the YAML node the 3.0 importer decodes: members in
    /// order (Foundation's JSON decoder keeps none), scalars tagged as typed.
    static func node(_ value: JSONValue) -> Node {
        switch value {
        case .null: Node("null", Tag(.null))
        case let .bool(flag): Node(flag ? "true" : "false", Tag(.bool))
        case let .number(text): Node(text, Tag(text.contains(where: { ".eE".contains($0) }) ? .float : .int))
        case let .string(text): Node(text, Tag(.str), .doubleQuoted)
        case let .array(items): Node(items.map(node), Tag(.seq))
        // Keys untagged: the decoder looks a key up as `Node(name)`, tag and style included.
        case let .object(members): Node(members.map { (Node($0.key), node($0.value)) }, Tag(.map))
        }
    }

    /// The document as a JSON tree, members in document order.
    static func tree(_ data: Data, isJSON: Bool) throws(SpecError) -> JSONValue {
        let tree: JSONValue
        if isJSON {
            do { tree = try JSONParser.parse(Array(data)) } catch { throw SpecError(file: "", path: "", reason: "not valid JSON: \(error)") }
        } else {
            let node: Node?
            do { node = try Yams.compose(yaml: String(decoding: data, as: UTF8.self)) } catch {
                throw SpecError(file: "", path: "", reason: "not valid YAML: \(error)")
            }
            guard let node else { throw SpecError(file: "", path: "", reason: "the document is empty") }
            tree = json(node)
        }
        return tree
    }

    /// A YAML node as JSON: plain scalars typed, quoted ones strings, keys in document order.
    static func json(_ node: Node) -> JSONValue {
        switch node {
        case let .scalar(scalar):
            // Quoted scalars are strings; plain ones typed as YAMLDecoder types them.
            guard scalar.style == .plain else { return .string(scalar.string) }
            if node.null != nil { return .null }
            if let bool = node.bool { return .bool(bool) }
            if let int = node.int { return .number(String(int)) }
            if let float = node.float, float.isFinite, scalar.string.contains(where: \.isNumber) { return .number(String(float)) }
            return .string(scalar.string)
        case let .mapping(mapping):
            return .object(mapping.map { (key: $0.key.string ?? "", value: json($0.value)) })
        case let .sequence(sequence):
            return .array(sequence.map(json))
        default:
            return .null
        }
    }

    private struct Converter {
        let root: Members
        var notes = Set<String>()

        init(root: Members) { self.root = root }

        static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch"]

        mutating func document() -> JSONValue {
            var out: Members = [("openapi", .string("3.0.3"))]
            out.append(("info", member(root, "info") ?? .object([("title", .string("")), ("version", .string(""))])))
            if let servers = servers() { out.append(("servers", servers)) }
            if case let .object(paths)? = member(root, "paths") {
                out.append(("paths", .object(paths.map { (key: $0.key, value: pathItem($0.value)) })))
            } else {
                out.append(("paths", .object([])))
            }
            out.append(("components", components()))
            for key in ["security", "tags", "externalDocs"] {
                if let value = member(root, key) { out.append((key, value)) }
            }
            return .object(out)
        }

        /// `schemes` × `host` + `basePath`; none when the document names no host.
        mutating func servers() -> JSONValue? {
            let base = string(member(root, "basePath")) ?? ""
            // No host: the server is wherever the document is served from (--base-url says), at its basePath.
            guard let host = string(member(root, "host")) else {
                return base.isEmpty || base == "/" ? nil : .array([.object([("url", .string(base))])])
            }
            var schemes = strings(member(root, "schemes")).filter { ["http", "https"].contains($0) }
            if schemes.isEmpty { schemes = ["https"] }
            return .array(schemes.map { .object([("url", .string("\($0)://\(host)\(base == "/" ? "" : base)"))]) })
        }

        mutating func components() -> JSONValue {
            var out: Members = []
            if case let .object(definitions)? = member(root, "definitions") {
                out.append(("schemas", .object(definitions.map { (key: $0.key, value: schema($0.value)) })))
            }
            if case let .object(parameters)? = member(root, "parameters") {
                // Body and form parameters become request bodies where they are used, not components.
                let kept = parameters.filter { !["body", "formData"].contains(string(member(object($0.value), "in")) ?? "") }
                if !kept.isEmpty { out.append(("parameters", .object(kept.map { (key: $0.key, value: parameter(object($0.value))) }))) }
            }
            if case let .object(responses)? = member(root, "responses") {
                let produces = strings(member(root, "produces"))
                out.append(("responses", .object(responses.map { (key: $0.key, value: response($0.value, produces: produces)) })))
            }
            if case let .object(schemes)? = member(root, "securityDefinitions") {
                out.append(("securitySchemes", .object(schemes.map { (key: $0.key, value: securityScheme(object($0.value))) })))
            }
            return .object(out)
        }

        mutating func pathItem(_ value: JSONValue) -> JSONValue {
            let item = object(value)
            if member(item, "$ref") != nil { notes.insert("path items kept in other files are left out") }
            let shared = array(member(item, "parameters"))
            var out: Members = []
            for (key, value) in item {
                if Self.methods.contains(key) {
                    out.append((key, operation(object(value), shared: shared)))
                } else if key.hasPrefix("x-") {
                    out.append((key, value))
                }
            }
            // The path's own parameters (not bodies) stay on the path.
            let plain = shared.map(resolved).filter { !["body", "formData"].contains(string(member($0, "in")) ?? "") }
            var converted: [JSONValue] = []
            for p in plain { converted.append(parameter(p)) }
            if !converted.isEmpty { out.append(("parameters", .array(converted))) }
            return .object(out)
        }

        mutating func operation(_ op: Members, shared: [JSONValue]) -> JSONValue {
            var out: Members = []
            for key in ["tags", "summary", "description", "externalDocs", "operationId", "deprecated", "security"] {
                if let value = member(op, key) { out.append((key, value)) }
            }
            let consumes = strings(member(op, "consumes") ?? member(root, "consumes"))
            let produces = strings(member(op, "produces") ?? member(root, "produces"))
            var parameters: [JSONValue] = []
            var body: JSONValue?
            var form: Members = []
            var formRequired: [JSONValue] = []
            var hasFile = false
            // An operation's parameter replaces the path's of the same name and place.
            let own = array(member(op, "parameters"))
            let ownKeys = Set(own.map(resolved).map { "\(string(member($0, "in")) ?? "") \(string(member($0, "name")) ?? "")" })
            let inherited = shared.filter { !ownKeys.contains("\(string(member(resolved($0), "in")) ?? "") \(string(member(resolved($0), "name")) ?? "")") }
            for entry in own + inherited {
                let p = resolved(entry)
                switch string(member(p, "in")) {
                case "body":
                    let types = consumes.isEmpty ? ["application/json"] : consumes
                    let content = JSONValue.object(types.map { (key: $0, value: .object([("schema", schema(member(p, "schema") ?? .object([])))])) })
                    var request: Members = [("content", content)]
                    if let description = member(p, "description") { request.insert(("description", description), at: 0) }
                    if member(p, "required") == .bool(true) { request.append(("required", .bool(true))) }
                    body = .object(request)
                case "formData":
                    guard let name = string(member(p, "name")) else { continue }
                    if string(member(p, "type")) == "file" { hasFile = true }
                    form.append((name, schema(.object(p.filter { Self.schemaKeys.contains($0.key) }))))
                    if member(p, "required") == .bool(true) { formRequired.append(.string(name)) }
                default:
                    // A `$ref` to a shared parameter stays a reference to its component.
                    if case let .object(ref) = entry, let target = string(member(ref, "$ref")), target.hasPrefix("#/parameters/") {
                        parameters.append(.object([("$ref", .string("#/components/parameters/" + target.dropFirst("#/parameters/".count)))]))
                    } else {
                        parameters.append(parameter(p))
                    }
                }
            }
            if !parameters.isEmpty { out.append(("parameters", .array(parameters))) }
            if body == nil, !form.isEmpty {
                let type = hasFile || consumes.contains("multipart/form-data") ? "multipart/form-data" : "application/x-www-form-urlencoded"
                var formSchema: Members = [("type", .string("object")), ("properties", .object(form))]
                if !formRequired.isEmpty { formSchema.append(("required", .array(formRequired))) }
                body = .object([("content", .object([(type, .object([("schema", .object(formSchema))]))]))])
            }
            if let body { out.append(("requestBody", body)) }
            var responses: Members = []
            if case let .object(given)? = member(op, "responses") {
                responses = given.filter { !$0.key.hasPrefix("x-") }.map { (key: $0.key, value: response($0.value, produces: produces)) }
            }
            out.append(("responses", .object(responses.isEmpty ? [("default", .object([("description", .string(""))]))] : responses)))
            return .object(out)
        }

        /// The keys of a 2.0 non-body parameter that describe its value (3.0 puts them in `schema`).
        static let schemaKeys: Set<String> = ["type", "format", "items", "enum", "default", "maximum", "minimum", "exclusiveMaximum",
                                              "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems",
                                              "uniqueItems", "multipleOf", "description"]

        mutating func parameter(_ p: Members) -> JSONValue {
            var out: Members = []
            for key in ["name", "in", "description", "required", "allowEmptyValue"] {
                if let value = member(p, key) { out.append((key, value)) }
            }
            if string(member(p, "in")) == "path", member(p, "required") == nil { out.append(("required", .bool(true))) }
            var valueSchema = p.filter { Self.schemaKeys.contains($0.key) && $0.key != "description" }
            if valueSchema.isEmpty { valueSchema = [("type", .string("string"))] }
            out.append(("schema", schema(.object(valueSchema))))
            switch string(member(p, "collectionFormat")) {
            case "multi"?: out += [("style", .string("form")), ("explode", .bool(true))]
            case "csv"?, nil: if string(member(p, "type")) == "array", string(member(p, "in")) == "query" { out += [("style", .string("form")), ("explode", .bool(false))] }
            default: notes.insert("collectionFormat other than csv and multi is not carried over")
            }
            return .object(out)
        }

        mutating func response(_ value: JSONValue, produces: [String]) -> JSONValue {
            let r = object(value)
            if let target = string(member(r, "$ref")), target.hasPrefix("#/responses/") {
                return .object([("$ref", .string("#/components/responses/" + target.dropFirst("#/responses/".count)))])
            }
            var out: Members = [("description", member(r, "description") ?? .string(""))]
            if let schemaValue = member(r, "schema") {
                let types = produces.isEmpty ? ["application/json"] : produces
                out.append(("content", .object(types.map { (key: $0, value: .object([("schema", schema(schemaValue))])) })))
            }
            if case let .object(headers)? = member(r, "headers") {
                out.append(("headers", .object(headers.map { header in
                    let h = object(header.value)
                    var converted: Members = []
                    if let description = member(h, "description") { converted.append(("description", description)) }
                    converted.append(("schema", schema(.object(h.filter { Self.schemaKeys.contains($0.key) && $0.key != "description" }))))
                    return (key: header.key, value: .object(converted))
                })))
            }
            return .object(out)
        }

        /// A schema with its references following the components, `file`
        /// as binary, and 2.0's vendor forms of 3.0 keywords.
        mutating func schema(_ value: JSONValue) -> JSONValue {
            guard case let .object(s) = value else { return value }
            var out: Members = []
            for (key, value) in s {
                switch key {
                case "$ref":
                    if let target = string(value), target.hasPrefix("#/definitions/") {
                        out.append((key, .string("#/components/schemas/" + target.dropFirst("#/definitions/".count))))
                    } else {
                        out.append((key, value))
                    }
                case "type" where string(value) == "file":
                    out += [("type", .string("string")), ("format", .string("binary"))]
                case "x-nullable":
                    out.append(("nullable", value))
                case "discriminator":
                    if let name = string(value) { out.append((key, .object([("propertyName", .string(name))]))) }
                case "properties", "patternProperties":
                    if case let .object(properties) = value {
                        out.append((key, .object(properties.map { (key: $0.key, value: schema($0.value)) })))
                    }
                case "items", "not":
                    out.append((key, schema(value)))
                case "additionalProperties":
                    out.append((key, value.isObject ? schema(value) : value))
                case "allOf", "anyOf", "oneOf":
                    out.append((key, .array(array(value).map { schema($0) })))
                default:
                    out.append((key, value))
                }
            }
            return .object(out)
        }

        mutating func securityScheme(_ s: Members) -> JSONValue {
            switch string(member(s, "type")) {
            case "basic"?:
                return .object([("type", .string("http")), ("scheme", .string("basic"))])
            case "apiKey"?:
                return .object([("type", .string("apiKey")), ("name", member(s, "name") ?? .string("")), ("in", member(s, "in") ?? .string("header"))])
            case "oauth2"?:
                let scopes = member(s, "scopes") ?? .object([])
                var flow: Members = [("scopes", scopes)]
                if let url = member(s, "authorizationUrl") { flow.insert(("authorizationUrl", url), at: 0) }
                if let url = member(s, "tokenUrl") { flow.insert(("tokenUrl", url), at: 0) }
                let name = switch string(member(s, "flow")) {
                case "implicit"?: "implicit"
                case "password"?: "password"
                case "application"?: "clientCredentials"
                default: "authorizationCode"
                }
                return .object([("type", .string("oauth2")), ("flows", .object([(name, .object(flow))]))])
            default:
                notes.insert("security schemes other than basic, apiKey and oauth2 are left out")
                return .object([("type", .string("http")), ("scheme", .string("unknown"))])
            }
        }

        /// A parameter, its `$ref` to the document's `parameters` looked up.
        func resolved(_ value: JSONValue) -> Members {
            let p = object(value)
            guard let target = string(member(p, "$ref")), target.hasPrefix("#/parameters/"),
                  case let .object(shared)? = member(root, "parameters") else { return p }
            return object(member(shared, String(target.dropFirst("#/parameters/".count))) ?? .object([]))
        }

        func member(_ members: Members, _ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        func object(_ value: JSONValue?) -> Members { if case let .object(members)? = value { members } else { [] } }
        func array(_ value: JSONValue?) -> [JSONValue] { if case let .array(items)? = value { items } else { [] } }
        func string(_ value: JSONValue?) -> String? { if case let .string(text)? = value { text } else { nil } }
        func strings(_ value: JSONValue?) -> [String] { array(value).compactMap { string($0) } }
    }
}

private extension JSONValue {
    var isObject: Bool { if case .object = self { true } else { false } }
}
