import Core

/// A parsed REPL line: the only shape the interpreter accepts.
enum Command: Sendable, Equatable {
    case http(method: String, path: String, items: [RequestItem], offline: Bool)
    case login(email: String?, password: String?)
    case logout
    case whoami
    case set(name: String, value: String)
    case unset(name: String)
    case vars
    case show(path: JSONPath?)
    case help(topic: String?)
    case exit
    case empty
}

/// A line that is not a command, said in one line, with the column it points at.
struct CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    let message: String
    let column: Int?
    init(_ message: String, column: Int? = nil) {
        self.message = message
        self.column = column
    }
    var description: String { message }
}
