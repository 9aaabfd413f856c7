/// Where an answer differs from its model: one line per problem, with the
/// JSON path, so a client author sees what their `Codable` type would trip
/// on while the body is still shown whole. Walking the JSON against the field
/// descriptions names every problem at once, where a `DecodingError` stops at
/// the first and says less.
public struct Drift: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var problem: String

    public var description: String { "\(path.isEmpty ? "." : path): \(problem)" }

    /// The drift of `value` from the model named `model`; models it names are
    /// looked up in `models`. Extra members are not drift: clients ignore them.
    public static func check(_ value: JSONValue, against model: String, in models: [Model]) -> [Drift] {
        check(value, type: .model(model), in: models)
    }

    /// The drift of `value` from a type, such as a list of models.
    public static func check(_ value: JSONValue, type: FieldType, in models: [Model]) -> [Drift] {
        check(value, type: type, index: index(models))
    }

    /// The same against models already indexed by name (`index(_:)`): an
    /// imported spec has hundreds, and every answer shown is checked.
    public static func check(_ value: JSONValue, type: FieldType, index models: [String: Model]) -> [Drift] {
        var found: [Drift] = []
        check(value, type, nullable: false, path: "", models: models, into: &found)
        return found
    }

    /// Models by name; the first of a name wins.
    public static func index(_ models: [Model]) -> [String: Model] {
        Dictionary(models.map { ($0.name, $0) }) { first, _ in first }
    }

    private static func check(_ value: JSONValue, _ type: FieldType, nullable: Bool, path: String, models: [String: Model],
                              into found: inout [Drift]) {
        if case .null = value {
            if !nullable, type != .any { found.append(Drift(path: path, problem: "null, expected \(type)")) }
            return
        }
        switch (type, value) {
        case (.any, _), (.string, .string), (.boolean, .bool): return
        case let (.number, .number(text)) where Double(text) != nil: return
        case let (.integer, .number(text)):
            if Int(text) == nil { found.append(Drift(path: path, problem: "expected integer, found \(text)")) }
        case let (.enumeration(name, values), .string(text)):
            if !values.contains(text) { found.append(Drift(path: path, problem: "unknown \(name) value \"\(text)\"")) }
        case let (.array(element), .array(items)):
            for (index, item) in items.enumerated() {
                check(item, element, nullable: false, path: "\(path)[\(index)]", models: models, into: &found)
            }
        case let (.model(name), .object):
            guard let model = models[name] else { return }
            for field in model.fields {
                let member = path + "." + field.name
                guard let fieldValue = value[field.name] else {
                    if field.required { found.append(Drift(path: member, problem: "missing (\(field.type))")) }
                    continue
                }
                check(fieldValue, field.type, nullable: field.nullable, path: member, models: models, into: &found)
            }
        default:
            found.append(Drift(path: path, problem: "expected \(type), found \(kind(of: value))"))
        }
    }

    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension Profile {
    /// The catalog entry a request went to: the method's, a literal segment
    /// preferred to a parameter (`/users/me` is not `/users/{username}`).
    public func endpoint(method: String, path: String) -> Endpoint? {
        let bare = Endpoint.bare(path)
        let concrete = Endpoint.segments(of: bare)
        // Through the array's buffer: a loop over the elements, or by index
        // through the property, copied each endpoint looked at, all its fields
        // retained and released, three times for each request.
        let candidates = lookup.candidates(method: method, segments: concrete.count, in: endpoints)
        let best: Int? = endpoints.withUnsafeBufferPointer { endpoints in
            var best: Int?
            let slash = Endpoint.endsInSlash(bare)
            func rank(_ e: Endpoint) -> (Int, Int) { e.rank(forPathEndingInSlash: slash) }
            for i in candidates where endpoints[i].path == bare || endpoints[i].matches(segments: concrete) {
                if best.map({ rank(endpoints[i]) < rank(endpoints[$0]) }) ?? true { best = i }
            }
            return best
        }
        return best.map { endpoints[$0] }
    }

    /// Drift of a success answer from its endpoint's response model; empty
    /// when the catalog names no model for it.
    /// `models` is this profile's `Drift.index(models)`, when the caller keeps one.
    public func drift(method: String, path: String, body: JSONValue, models index: [String: Model]? = nil) -> [Drift] {
        guard let endpoint = endpoint(method: method, path: path) else { return [] }
        return drift(of: endpoint, body: body, models: index)
    }

    /// The same for an endpoint already looked up.
    public func drift(of endpoint: Endpoint, body: JSONValue, models index: [String: Model]? = nil) -> [Drift] {
        guard let response = endpoint.response else { return [] }
        let type: FieldType = endpoint.responseIsList ? .array(.model(response)) : .model(response)
        return Drift.check(body, type: type, index: index ?? Drift.index(models))
    }
}
