/// `replay FILE` and `tour [NAME]` in the REPL. Like `record`, the `SessionController`
/// runs them: they drive many lines through the session's interpreter and,
/// for a tour, the line editor.
enum TranscriptAction: Sendable, Equatable {
    case replay(path: String)
    case tour(name: String?)
}
