/// A value bound by a `{{name:=KIND}}` capture.
public struct Capture: Sendable, Equatable {
    public var value: JSONValue
    /// Bound from part of a string or line: later uses compare the text, so
    /// an id captured from `/api/tasks/{{id:=integer}}` equals the number 6.
    public var fromText: Bool
    /// The whole text a part was bound from (a replay asks whether it held a
    /// secret: a piece of an echoed token is one too).
    public var source: String?

    public init(value: JSONValue, fromText: Bool, source: String? = nil) {
        self.value = value
        self.fromText = fromText
        self.source = source
    }

    /// What `{{name}}` stands for in a command line.
    public var text: String { value.plainText }

    /// Whether a later whole value equals this capture.
    public func isEqual(to other: JSONValue) -> Bool {
        guard fromText else { return value == other }
        switch other {
        case .string, .number, .bool: return other.plainText == text
        default: return false
        }
    }
}
