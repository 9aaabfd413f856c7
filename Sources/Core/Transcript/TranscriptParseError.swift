/// Why a transcript cannot be read, at a 1-based line and column.
public struct TranscriptParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `LINE:COLUMN: message`; callers put the file name in front.
    public var description: String { "\(line):\(column): \(message)" }
}
