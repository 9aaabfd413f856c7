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

    /// `text` as the JSON number it is as written (`19.990`, `1e400`, an id
    /// past 64 bits), else nil: a value that came as text (a query's, a
    /// captured variable's) given back as the number it was.
    public static func number(written text: String) -> JSONValue? {
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")),
              case let .number(number)? = try? JSONParser.parse(text), number == text else { return nil }
        return .number(number)
    }

    /// Equal as JSON: numbers by their exact value (`8` is `8.0` and `0.8e1`,
    /// `-0` is `0`; `1e400` is not `2e400`, nor `1.0000000000000000000001`
    /// `1`, as they were as doubles), strings and keys by their code points
    /// (`café` composed is not `café` decomposed: other bytes, as jq says).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)):
            if a == b { return true }
            guard let x = ExactNumber(a), let y = ExactNumber(b) else { return false }
            return x == y
        case let (.string(a), .string(b)): return a.sameCodePoints(b)
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key.sameCodePoints($1.key) && $0.value == $1.value }
        default: return false
        }
    }

    /// A number value from an integer.
    public static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// The member named `key` of an object: the last one, if repeated, as
    /// JavaScript, jq and Python read `{"a": 1, "a": 3}`.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.last { $0.key.sameCodePoints(key) }?.value
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

extension String {
    /// The same code points: `==` takes a composed `é` for a decomposed one.
    public func sameCodePoints(_ other: String) -> Bool {
        utf8.elementsEqual(other.utf8)
    }
}

/// A JSON number's exact value: its sign, its significant digits, and the
/// power of ten they are scaled by (`12.50` is 125 × 10⁻¹, `-0` is zero).
struct ExactNumber: Equatable {
    let negative: Bool
    let digits: [UInt8]
    let exponent: Int

    /// A whole number: `12345678901234567890`, `1E2`, `1.0`, `-0`.
    var isInteger: Bool { exponent >= 0 }

    init?(_ text: String) {
        var bytes = text.utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let whole = bytes.prefix(while: isDigit)
        bytes = bytes.dropFirst(whole.count)
        var fraction: Substring.UTF8View.SubSequence = bytes[bytes.startIndex..<bytes.startIndex]
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix(while: isDigit)
            bytes = bytes.dropFirst(fraction.count)
        }
        guard !whole.isEmpty else { return nil }
        var exponent = 0
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var sign = 1
            if bytes.first == UInt8(ascii: "-") { sign = -1; bytes = bytes.dropFirst() } else if bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            let power = bytes.prefix(while: isDigit)
            guard !power.isEmpty else { return nil }
            bytes = bytes.dropFirst(power.count)
            // Exponents of more than 17 digits are taken as equal: no server writes one.
            for digit in power { exponent = min(exponent * 10 + Int(digit - UInt8(ascii: "0")), 100_000_000_000_000_000) }
            exponent *= sign
        }
        guard bytes.isEmpty else { return nil }
        var digits = Array(whole) + Array(fraction)
        exponent -= fraction.count
        let leading = digits.prefix { $0 == UInt8(ascii: "0") }.count
        digits.removeFirst(leading)
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        self.negative = negative && !digits.isEmpty
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : exponent
    }
}

extension JSONValue {
    /// The value with each list, at any depth, cut to its first `count` elements.
    public func prefixingLists(_ count: Int) -> JSONValue {
        switch self {
        case let .array(items): .array(items.prefix(count).map { $0.prefixingLists(count) })
        case let .object(members): .object(members.map { ($0.key, $0.value.prefixingLists(count)) })
        default: self
        }
    }
}
