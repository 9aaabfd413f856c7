import Core

/// One REPL command as a value: its names, its usage and help, what each of
/// its words is (for TAB), and how its words become a `Command`. The parser,
/// `help`, "did you mean" and TAB all read the `CommandTable` of these, so a
/// new command is one entry there plus its handling in the `Interpreter`.
struct CommandSpec: Sendable {
    let name: String
    /// Other names the parser takes (`quit`, `?`); TAB offers those made of letters.
    var aliases: [String] = []
    /// `login [EMAIL] [PASSWORD]`: shown by `help` and in every usage error.
    let usage: String
    /// Added to a usage error: `usage: show [PATH], as in: show .tasks[0].id`.
    var example: String?
    let summary: String
    let details: String
    /// What the word under the cursor is, given the words before it (after
    /// the command's name) and the word typed so far.
    var slot: @Sendable (_ before: [String], _ word: String) -> SlotKind = { _, _ in .none }
    /// The command's words (variables already filled in) as a `Command`.
    let parse: @Sendable (CommandArguments) throws(CommandError) -> Command

    /// `usage: …`, with the example when there is one.
    var usageMessage: String { "usage: \(usage)" + (example.map { ", as in: \($0)" } ?? "") }

    /// The names the parser takes for it.
    var names: [String] { [name] + aliases }
}

/// What a word of a command is, which decides what TAB offers for it.
enum SlotKind: Sendable, Equatable {
    /// Nothing to offer: free text, a new name, a number.
    case none
    /// A command's name (`help`'s topic).
    case command
    /// An endpoint path of the catalog, for `method` (empty: any method).
    case path(method: String)
    /// Request items and flags after a request's path (the first word before).
    case requestItems(method: String)
    /// A file or folder name.
    case file
    /// `header`'s words: a header's name or `Name:value`, `unset`, `clear`.
    case header
    /// A variable's name; `assigning` offers `NAME=`.
    case variable(assigning: Bool)
    /// A JSON path into the last response (`.tasks[0].id`).
    case jsonPath
    /// A demo account's email.
    case demoEmail
    /// A guided tour's name.
    case tour
    /// One of the profile file's environments.
    case environment
    /// `describe`'s first word: a model, a method, or an endpoint path.
    case endpointOrModel
    /// One of these words (a subcommand), or a file too when `orFile`.
    case word([String], orFile: Bool = false)
    /// Flags, each offered once, with a hint.
    case flags([Flag])
    /// A request's options and their values (`defaults`).
    case requestOptions

    struct Flag: Sendable, Equatable {
        let name: String
        let hint: String
    }

    /// Slots by position: the first word is `kinds[0]`, and so on; `rest` after them.
    static func positional(_ kinds: SlotKind..., rest: SlotKind = .none) -> @Sendable ([String], String) -> SlotKind {
        { before, _ in before.count < kinds.count ? kinds[before.count] : rest }
    }
}

/// The words after a command's name, with where each started, handed to
/// its `parse`; usage errors point at the word that is wrong.
struct CommandArguments: Sendable {
    /// The command's name as typed.
    let command: LineTokenizer.Word
    let words: [LineTokenizer.Word]
    let spec: CommandSpec
    /// The session's `defaults --form` (`CommandParser.formsByDefault`).
    var formsByDefault = false
    /// How files named on the line are read at parse time (`CommandParser.readFile`).
    var readFile: @Sendable (String) throws -> [UInt8] = RequestBuilder.readFileFromDisk
    /// Where a file a flag names is opened (`CommandParser.locateFile`).
    var locateFile: @Sendable (String) throws -> String = RequestBuilder.expandingHome

    var count: Int { words.count }
    var isEmpty: Bool { words.isEmpty }
    var texts: [String] { words.map(\.text) }
    var first: LineTokenizer.Word? { words.first }
    subscript(index: Int) -> LineTokenizer.Word { words[index] }

    /// The usage error, pointing at `word` (or nowhere).
    func usage(at word: LineTokenizer.Word?) -> CommandError {
        CommandError(spec.usageMessage, column: word?.start)
    }

    /// The usage error at the first word past `limit`, if there is one.
    func atMost(_ limit: Int) throws(CommandError) {
        if words.count > limit { throw usage(at: words[limit]) }
    }

    /// `whoami takes no arguments`, at the first one, under the name typed (`quit now` was told of `exit`).
    func none() throws(CommandError) {
        if let extra = words.first { throw CommandError("\(command.text.lowercased()) takes no arguments", column: extra.start) }
    }
}
