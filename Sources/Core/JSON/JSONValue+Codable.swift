import Foundation

/// Any JSON through `Codable`, for model fields whose shape the contract
/// leaves open (an error envelope's `details`: field messages, a list of
/// allowed states, a number of seconds).
///
/// Two things Codable cannot keep: an object's member order (Foundation's
/// decoder does not report it, so members come out sorted by key), and its
/// keys as sent when the decoder converts them (`ModelDecoding`'s
/// snake_case strategy turns `retry_after` into `retryAfter`). Parse the
/// body with `JSONParser` when either matters.
extension JSONValue: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            self = .object(try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
                ($0.stringValue, try object.decode(JSONValue.self, forKey: $0))
            })
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? single.decode(Int64.self) {
            self = .number(String(int))
        } else if let double = try? single.decode(Double.self) {
            self = .number(String(double))
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case let .bool(value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case let .number(text):
            var single = encoder.singleValueContainer()
            if let int = Int64(text) { try single.encode(int) } else { try single.encode(Double(text) ?? 0) }
        case let .string(value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case let .array(items):
            var array = encoder.unkeyedContainer()
            for item in items { try array.encode(item) }
        case let .object(members):
            var object = encoder.container(keyedBy: Key.self)
            for member in members { try object.encode(member.value, forKey: Key(stringValue: member.key)) }
        }
    }
}
