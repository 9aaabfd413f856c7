/// One difference between what a step expected and what came back: data
/// for a reporter to render, never printed here.
public struct Mismatch: Sendable, Equatable, CustomStringConvertible {
    /// Where in the step's output the difference is.
    public enum Place: Sendable, Equatable, CustomStringConvertible {
        case refresh
        case status
        case header(String)
        /// A JSON body, at a path such as `.tasks[0].id` (`.` is the whole body).
        case body(JSONPath)
        /// A text body's line, 1-based.
        case line(Int)
        /// An `error:` line, 1-based among them.
        case error(Int)
        /// A `note:` line, 1-based among them.
        case note(Int)
        /// A WebSocket frame: its direction, its 1-based position among the
        /// step's frames of that direction, and a path inside a JSON frame.
        case frame(FrameDirection, Int, JSONPath)

        public var description: String {
            switch self {
            case .refresh: return "refresh"
            case .status: return "status"
            case let .header(name): return "header \(name)"
            case let .body(path): return "body \(path)"
            case let .line(n): return "body line \(n)"
            case let .error(n): return "error line \(n)"
            case let .note(n): return "note line \(n)"
            case let .frame(direction, n, path):
                return "\(direction.arrow) frame \(n)" + (path.components.isEmpty ? "" : " \(path)")
            }
        }
    }

    public var place: Place
    /// The expectation as written (patterns included).
    public var expected: String
    /// The live value, secrets hidden.
    public var actual: String

    public init(_ place: Place, expected: String, actual: String) {
        self.place = place
        self.expected = expected
        // A composed `é` against a decomposed one looks the same on screen: said.
        self.actual = actual == expected && !actual.sameCodePoints(expected) ? actual + " (the same text in other code points: "
            + "composed and decomposed accents are other bytes)" : Self.sayingEndSpaces(actual, expected: expected)
    }

    public var description: String { "\(place): expected \(expected), got \(actual)" }

    /// `actual`, with how many spaces end it and the expectation when they
    /// are all that differs: on screen the two read the same.
    /// A recording's `{{/  /}}` (its end spaces written as a pattern) counts as the spaces it matches.
    private static func sayingEndSpaces(_ actual: String, expected: String) -> String {
        func ending(_ text: String) -> Int { text.reversed().prefix { $0 == " " || $0 == "\t" }.count }
        var wanted = ending(expected)
        var before = expected.dropLast(wanted)
        if expected.hasSuffix("/}}"), let open = expected.range(of: "{{/", options: .backwards), open.upperBound <= expected.index(expected.endIndex, offsetBy: -3) {
            let spaces = expected[open.upperBound..<expected.index(expected.endIndex, offsetBy: -3)].replacingOccurrences(of: "\\t", with: "\t")
            if !spaces.isEmpty, spaces.allSatisfy({ $0 == " " || $0 == "\t" }) {
                (wanted, before) = (spaces.count, expected[..<open.lowerBound])
            }
        }
        let got = ending(actual)
        guard got != wanted, actual.dropLast(got) == before else { return actual }
        func spaces(_ n: Int) -> String { n == 1 ? "1 space" : "\(n) spaces" }
        return actual + " (\(spaces(got)) at its end, where \(wanted == 0 ? "none" : spaces(wanted)) \(wanted == 1 ? "was" : "were") expected)"
    }
}
