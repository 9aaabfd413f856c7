/// A JSON value that keeps object keys in the order the server sent them and
/// numbers exactly as written (so `1.50` prints back as `1.50`).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number's literal text, already validated by the parser.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in their original order. Duplicate keys are kept as sent.
    case object([(key: String, value: JSONValue)])

    /// An integer literal of more digits than a double holds exactly (JSON
    /// writes no leading zeros, so equal ones are written alike).
    private static func isLongInteger(_ text: String) -> Bool {
        let digits = text.utf8.drop { $0 == UInt8(ascii: "-") }
        return digits.count > 15 && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)):
            if a == b { return true }
            // Two integers past a double's 53 bits (64-bit ids) are told apart
            // by their digits: as doubles, 12345678901234567891 was 12345678901234567890.
            if Self.isLongInteger(a), Self.isLongInteger(b) { return false }
            return Double(a) != nil && Double(a) == Double(b)
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// A number value from an integer.
    public static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// The member named `key` of an object (the first one, if repeated).
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The element at `index` of an array.
    public subscript(index: Int) -> JSONValue? {
        guard case let .array(items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    public var stringValue: String? {
        if case let .string(s) = self { return s }
        return nil
    }

    public var intValue: Int? {
        if case let .number(n) = self { return Int(n) ?? Double(n).flatMap { $0 == $0.rounded() ? Int(exactly: $0) : nil } }
        return nil
    }

    public var boolValue: Bool? {
        if case let .bool(b) = self { return b }
        return nil
    }

    /// The value as a plain string for use in a command line: strings without
    /// quotes, everything else as compact JSON.
    public var plainText: String {
        if case let .string(s) = self { return s }
        return JSONPrinter.compact(self)
    }

    /// The kind of value, for messages ("expected an object, got an array").
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
