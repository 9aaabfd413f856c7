import Core

/// A parsed REPL line: the only shape the interpreter accepts.
enum Command: Sendable, Equatable {
    case http(method: String, path: String, items: [RequestItem], options: RequestOptions)
    case login(email: String?, password: String?)
    case logout
    case whoami
    case set(name: String, value: String)
    case unset(name: String)
    case vars
    /// `cookies`: the session's cookies, values hidden; `cookies clear` forgets them.
    case cookies(clear: Bool)
    case show(path: JSONPath?)
    /// `header`: list the session headers; `header Name:value …` sets,
    /// `header Name:` removes one, `header clear` removes all.
    case header(HeaderAction)
    /// `defaults [FLAG…] | defaults clear`: request options for every later line.
    case defaults(RequestOptions?)
    /// `save FILE [--force]`: the last response's body, byte for byte.
    case save(path: String, force: Bool)
    /// `capture NAME = PATH | header:NAME | cookie:NAME`: a value of the last
    /// response, or a cookie the session holds, becomes `{{NAME}}`.
    case capture(name: String, from: CaptureSource)
    case record(RecordAction)
    /// `ws connect|send|recv|status|close`: the interpreter's WebSocket.
    case ws(WebSocketAction)
    /// `env [NAME]`: list a profile file's environments, or move the session
    /// to another (run by the `SessionController`, like `record`).
    case environment(String?)
    /// `history [N]`: the last N lines of the history (secrets hidden when kept).
    case history(Int?)
    /// `next`: the page after the last list answer; `print` (`-b`, `-v`,
    /// `-h`, `-p WHAT`) shows this page so, the list's other options kept.
    case next(print: PrintParts?)
    /// `replay FILE`, `tour [NAME]`: run by the `SessionController`, like `record`.
    case transcript(TranscriptAction)
    /// `endpoints [FILTER]`: the catalog, or the endpoints matching FILTER.
    case endpoints(filter: String?)
    /// `describe ENDPOINT|MODEL`: parameters and fields with their types.
    case describe(String)
    /// `spec load FILE`: an OpenAPI document becomes the catalog.
    case specLoad(path: String)
    case help(topic: String?)
    case exit
    case empty

    /// Whether the command asks the server for an answer over HTTP.
    var sends: Bool {
        switch self {
        case .http, .login, .logout, .whoami, .next: true
        default: false
        }
    }

    /// Whether a line, as written (its `{{variables}}` and secrets not
    /// filled in, which a parse would need), is one that sends something to
    /// the server: a request, a pasted curl, a login or logout, a page, a frame.
    static func sends(line: String) -> Bool {
        guard let words = try? LineTokenizer.split(line).map(\.text), let first = words.first else { return false }
        if first.hasPrefix("/") || first.lowercased().hasPrefix("http:") || first.lowercased().hasPrefix("https:") { return true }
        if CommandTable.methods.contains(first.uppercased()) || ["curl", "login", "logout", "whoami", "next"].contains(first) { return true }
        return first == "ws" && words.count > 1 && ["connect", "send", "close"].contains(words[1])
    }
}

/// What `header` does with the session headers.
/// Where `capture` takes its value.
enum CaptureSource: Sendable, Equatable {
    /// `.id`: a value in the last response's JSON.
    case body(JSONPath)
    /// `header:Location`: a header of the last response.
    case header(String)
    /// `cookie:csrftoken`: a cookie the session holds for the backend (a
    /// CSRF token sent back in a header, as Django and Rails ask).
    case cookie(String)

    /// The path into the body, for a body capture.
    var path: JSONPath? {
        if case let .body(path) = self { return path }
        return nil
    }
}

enum HeaderAction: Sendable, Equatable {
    case list
    case set([(name: String, value: String)])
    case clear
    /// `auth …`: the session's one credential header, replacing the one
    /// set before (whatever its name); nil for `auth none`. Its value is
    /// hidden wherever it shows, whatever the header is called.
    case credential((name: String, value: String)?)

    static func == (a: HeaderAction, b: HeaderAction) -> Bool {
        switch (a, b) {
        case (.list, .list), (.clear, .clear): return true
        case let (.set(x), .set(y)): return x.map(\.name) == y.map(\.name) && x.map(\.value) == y.map(\.value)
        case let (.credential(x), .credential(y)): return x?.name == y?.name && x?.value == y?.value
        default: return false
        }
    }
}

/// `record FILE`, `record stop`, `record status`: run by the `SessionController`,
/// which owns the recording, not by the interpreter.
enum RecordAction: Sendable, Equatable {
    case start(path: String)
    case stop
    case status
}

/// A line that is not a command, said in one line, with the column it points at.
struct CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    let message: String
    let column: Int?
    /// A `{{name}}` no variable fills: in a replay, most often a capture
    /// of an earlier step that found nothing (the server changed), not a
    /// mistake in the line.
    var unknownVariable = false
    /// A `{{…}}` written wrong (unclosed, empty, a pattern): the line's
    /// mistake whatever the variables hold.
    var placeholderSyntax = false
    init(_ message: String, column: Int? = nil) {
        self.message = message
        self.column = column
    }

    /// Equal by what is said and where.
    static func == (a: CommandError, b: CommandError) -> Bool { a.message == b.message && a.column == b.column }
    var description: String { message }

    /// A word as an error line quotes it: one line (control characters as
    /// escapes), and its first 80 characters (a 1 MB word was quoted whole).
    static func quotable(_ word: String) -> String {
        let limit = 80
        var shown = ""
        for character in word.prefix(limit) {
            switch character {
            case "\n": shown += "\\n"
            case "\r", "\r\n": shown += character == "\r" ? "\\r" : "\\r\\n"
            case "\t": shown += "\\t"
            default:
                let scalar = character.unicodeScalars.first!.value
                shown += scalar < 0x20 || scalar == 0x7F ? "\\u{\(String(scalar, radix: 16))}" : String(character)
            }
        }
        return word.count > limit ? shown + "…" : shown
    }
}
