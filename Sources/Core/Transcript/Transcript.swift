/// A parsed transcript file (docs/transcripts.md).
public struct Transcript: Sendable, Equatable {
    /// The format version this explorer reads and writes.
    public static let version = 1
    /// The first line of every transcript.
    public static let versionLine = "# explorer transcript v\(version)"

    public var header: TranscriptHeader
    public var steps: [TranscriptStep]
    /// Comments after the last step.
    public var trailingComments: [String]
    /// A last step the file ends in the middle of; it is not replayed.
    public var torn: TornStep?

    public init(header: TranscriptHeader, steps: [TranscriptStep] = [], trailingComments: [String] = [], torn: TornStep? = nil) {
        self.header = header
        self.steps = steps
        self.trailingComments = trailingComments
        self.torn = torn
    }
}

/// The step a file was cut in (a recording killed mid-write, a truncated copy).
public struct TornStep: Sendable, Equatable {
    /// 1-based line of its command.
    public var line: Int
    public var reason: String
    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }
}
