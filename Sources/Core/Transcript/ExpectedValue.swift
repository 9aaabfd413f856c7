/// An expected JSON body: JSON in which a value may be a pattern, a string
/// may hold patterns, and `...` opens an object to extra keys or turns an
/// array into "contains these, in any order".
public indirect enum ExpectedValue: Sendable, Equatable {
    /// `null`, a boolean, a number or a string without patterns: equal, as JSON.
    case literal(JSONValue)
    /// A string holding patterns: the live value is a string that matches.
    case text(PatternText)
    /// A bare `{{…}}` in place of a value: any JSON type the pattern accepts.
    case pattern(TranscriptPattern)
    /// Members in any order; `open` (a `...` member) allows keys not listed.
    case object([Member], open: Bool)
    /// Elements in order; `contains` (a `...` element) asks only that each
    /// listed element matches a different live element, in any order.
    case array([ExpectedValue], contains: Bool)

    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: ExpectedValue
        public init(_ key: String, _ value: ExpectedValue) {
            self.key = key
            self.value = value
        }
    }

    /// A plain JSON value, expected exactly (objects closed, arrays ordered).
    public static func exactly(_ value: JSONValue) -> ExpectedValue {
        switch value {
        case let .object(members): return .object(members.map { Member($0.key, .exactly($0.value)) }, open: false)
        case let .array(items): return .array(items.map(exactly), contains: false)
        default: return .literal(value)
        }
    }

    /// Indented text as it appears in a transcript, two spaces per level.
    public func pretty(level: Int = 0) -> String {
        let inner = String(repeating: "  ", count: level + 1)
        let outer = String(repeating: "  ", count: level)
        switch self {
        // A literal `{{` in a string is escaped, or it would read back as a pattern.
        case let .literal(.string(s)): return JSONPrinter.quote(PatternText.literal(s).inJSONString)
        case let .literal(value): return JSONPrinter.compact(value)
        case let .text(text): return JSONPrinter.quote(text.inJSONString)
        case let .pattern(pattern): return pattern.description
        case let .object(members, open):
            var lines = members.map { inner + JSONPrinter.quote($0.key) + ": " + $0.value.pretty(level: level + 1) }
            if open { lines.append(inner + "...") }
            return lines.isEmpty ? "{}" : "{\n" + lines.joined(separator: ",\n") + "\n" + outer + "}"
        case let .array(items, contains):
            var lines = items.map { inner + $0.pretty(level: level + 1) }
            if contains { lines.append(inner + "...") }
            return lines.isEmpty ? "[]" : "[\n" + lines.joined(separator: ",\n") + "\n" + outer + "]"
        }
    }
}

extension ExpectedValue {
    /// The value with the literal that `path` leads to (through members and
    /// elements as written) made a pattern of its kind, as a recording
    /// writes a captured value; unchanged where the path leads to no
    /// literal. A replay does this to an answer whose value the next step
    /// captures: the capture is what holds it, so a server's fresh random id
    /// there is no difference.
    public func loosening(at path: ArraySlice<JSONPath.Component>) -> ExpectedValue {
        guard let first = path.first else {
            if case let .literal(value) = self, value != .null { return .kind(of: value) }
            return self
        }
        let rest = path.dropFirst()
        switch (self, first) {
        case let (.object(members, open), .key(key)):
            guard let index = members.firstIndex(where: { $0.key == key }) else { return self }
            var changed = members
            changed[index].value = members[index].value.loosening(at: rest)
            return .object(changed, open: open)
        case let (.array(items, false), .index(n)):
            let index = n < 0 ? items.count + n : n
            guard items.indices.contains(index) else { return self }
            var changed = items
            changed[index] = items[index].loosening(at: rest)
            return .array(changed, contains: false)
        default:
            return self
        }
    }
}
