/// One step of a transcript: a command line and what it should produce.
public struct TranscriptStep: Sendable, Equatable {
    /// Comment lines (and blank lines between them) written before the command.
    public var comments: [String]
    /// The line after `> `, with `{{secret:…}}` and `{{variables}}` unresolved.
    public var command: String
    /// 1-based line of the command in the file.
    public var line: Int
    public var expectation: Expectation
    /// Comments that stood between the lines of the response; rewriting the
    /// file puts them right below the command, where they still belong to it.
    public var innerComments: [String]

    public init(comments: [String] = [], command: String, line: Int = 0, expectation: Expectation, innerComments: [String] = []) {
        self.comments = comments
        self.command = command
        self.line = line
        self.expectation = expectation
        self.innerComments = innerComments
    }
}
