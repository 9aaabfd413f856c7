/// The shape of a JSON value as a catalog knows it: enough to list a body's
/// fields for completion, describe them with `describe`, and check an answer
/// for drift. A description, not a decoder: the explorer shows every body
/// whatever its shape, and reports where it differs.
public indirect enum FieldType: Sendable, Equatable, CustomStringConvertible {
    case string, integer, number, boolean
    /// Any JSON value: the catalog does not say more.
    case any
    /// A string from a closed set, named like the seed's enum (`TaskStatus`).
    case enumeration(String, [String])
    /// An object described by another model of the same profile.
    case model(String)
    case array(FieldType)

    public var description: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .number: "number"
        case .boolean: "boolean"
        case .any: "any"
        case let .enumeration(name, values): "\(name) (\(values.joined(separator: "|")))"
        case let .model(name): name
        case let .array(element): "[\(element)]"
        }
    }

    /// Whether an HTTPie item for this field is `name=value` (a JSON string)
    /// rather than `name:=json`.
    public var isString: Bool {
        switch self {
        case .string, .enumeration: true
        default: false
        }
    }
}

/// One member of a model.
public struct Field: Sendable, Equatable {
    public var name: String
    public var type: FieldType
    /// Whether the member must be present (in a request: the server rejects
    /// the body without it; in an answer: a missing member is drift).
    public var required: Bool
    /// Whether `null` is an allowed value.
    public var nullable: Bool

    public init(_ name: String, _ type: FieldType, required: Bool = true, nullable: Bool = false) {
        self.name = name
        self.type = type
        self.required = required
        self.nullable = nullable
    }

    /// A member that may be absent or null (Swift's `T?` in the seeds).
    public static func optional(_ name: String, _ type: FieldType) -> Field {
        Field(name, type, required: false, nullable: true)
    }
}

/// A named object shape: a request body or an answer.
public struct Model: Sendable, Equatable {
    public var name: String
    public var fields: [Field]

    public init(_ name: String, _ fields: [Field]) {
        self.name = name
        self.fields = fields
    }
}
