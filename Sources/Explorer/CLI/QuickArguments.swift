import Core
/// The command lines of the REPL and `-c` (`explorer`, `explorer --base-url
/// URL -c 'get /x'`), read without the argument parser. Building its tree of
/// nine subcommands and their options cost about a sixth of a whole `-c`
/// request, mostly in the runtime's type lookups (BENCHMARKS.md, "Start-up:
/// the parser skipped").
///
/// It takes only what it can read exactly as the parser would: the REPL's
/// own options, each at most once (`-c` any number of times), as
/// `--name value` or `--name=value`, with values that cannot be mistaken
/// for an option or a missing one and that pass the parser's own checks
/// (`ConnectionSettings.problem`). Anything else (a subcommand, `--help`, a
/// typo, a repeated option, an empty value, a bad URL) is left to the
/// argument parser, which reads it or says what is wrong.
/// `QuickArgumentsTests` holds the two to the same result.
struct QuickArguments {
    var connection: ConnectionSettings
    var commands: [String]

    /// The option that takes a text value, by its name.
    private static func field(_ name: String) -> WritableKeyPath<ConnectionSettings, String?>? {
        switch name {
        case "--base-url": \.baseURL
        case "--profile": \.profile
        case "--env": \.env
        case "--record": \.record
        case "--spec": \.spec
        case "--verify": \.tls.verify
        case "--cert": \.tls.cert
        case "--cert-key": \.tls.certKey
        default: nil
        }
    }

    /// The request methods that begin a line given after the options.
    static let methods: Set<String> = ["get", "post", "put", "patch", "delete", "head", "options"]

    /// `explorer [OPTIONS] get /x q==1` (or `/x q==1`), as HTTPie's `http [GET] URL ITEM…` and
    /// xh's: from the method on, the words are one line, run as `-c` runs it
    /// (`-v` after the method is the line's, as HTTPie's options there are).
    /// The arguments with that line as a `-c`; nil when no method follows the options.
    /// `piped`: standard output is not a terminal, where the line prints the body alone (`-b`) unless it says
    /// what to print, as HTTPie does: `explorer get URL | jq` read the status line first and failed.
    /// `takeInput`: reads standard input for the body, its bytes when it held any (`StandardInputBody.take`);
    /// asked only of a POST, PUT, PATCH or DELETE that sends no data of its own, without HTTPie's `--ignore-stdin`.
    /// Text up to 1 MiB becomes the line's `--raw TEXT` (a recording keeps it, `--form` types it); other
    /// bytes are `@-`, standard input itself.
    static func requestLine(_ arguments: [String], piped: Bool = false, takeInput: () -> [UInt8]? = { nil }) -> [String]? {
        var arguments = arguments
        // HTTPie's `--ignore-stdin`, in nearly every script written for it: said, standard input is left alone.
        let ignoresInput = arguments.contains("--ignore-stdin")
        arguments.removeAll { $0 == "--ignore-stdin" }
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            if word == "--" { return nil }
            if word.hasPrefix("-") {
                // An option's value is not a method (`--env get` names an environment).
                if !word.contains("="), word == "-c" || word == "--color" || field(word) != nil { index += 1 }
                index += 1
                continue
            }
            // Or a URL alone (`explorer :3000/x a=1`, HTTPie's `http URL a=1`): GET, or POST with data, as a bare line is.
            // `explorer URL PURGE /x`: a method beyond the seven, in capitals, before a target.
            let extensionMethod = CommandParser.isExtensionMethod(word) && arguments[(index + 1)...].contains(where: CommandParser.isTarget)
            guard methods.contains(word.lowercased()) || extensionMethod || CommandParser.isTarget(word) else { return nil }
            var line = Array(arguments[index...])
            // Not `--raw`'s text (`--raw -hello` was read as -h).
            let flags = arguments.indices.filter { $0 == arguments.startIndex || arguments[$0 - 1] != "--raw" }.map { arguments[$0] }
            if piped, !flags.contains(where: Self.saysWhatToPrint) { line.append("-b") }
            if !ignoresInput, ["post", "put", "patch", "delete"].contains(word.lowercased()), !line.dropFirst(2).contains(where: Self.sendsData),
               let input = takeInput() {
                if let text = Self.rawText(input) {
                    line += ["--raw", text]
                } else {
                    let form = line.contains { $0 == "--form" || $0 == "-f" }
                    line.append("@-;type=" + (form ? RequestBuilder.formType : "application/json"))
                }
            }
            return Array(arguments[..<index]) + ["-c", LineTokenizer.join(line)]
        }
        return nil
    }

    /// Standard input as one line's `--raw` text: JSON compact (a file's line breaks and `echo`'s last
    /// one are no part of its value, and a line of a transcript cannot hold them), other text of one line
    /// as it came; up to 1 MiB. Nil for the rest, which goes as `@-`.
    static func rawText(_ input: [UInt8]) -> String? {
        guard input.count <= 1 << 20, let text = String(validating: input, as: UTF8.self) else { return nil }
        if let json = try? JSONParser.parse(input) { return JSONPrinter.compact(json) }
        return text.contains(where: \.isNewline) ? nil : text
    }

    /// A word that gives the line a body: a field, a file, `@file`, `--raw`.
    private static func sendsData(_ word: String) -> Bool {
        word == "--raw" || word.hasPrefix("--raw=") || (try? RequestItem.parse(word))?.isData == true
    }

    /// A flag that says what a line prints, or prints no answer: `-v`, `-p hb`, `-o FILE`, `--offline`, `--curl`.
    private static func saysWhatToPrint(_ word: String) -> Bool {
        let name = word.hasPrefix("--") ? String(word.prefix { $0 != "=" }) : String(word.prefix(2))
        return ["--print", "-p", "--verbose", "-v", "--headers", "-h", "--body", "-b", "--offline", "--curl",
                "--output", "-o", "--download", "-d"].contains(name)
    }

    /// `arguments` without the program's name; nil when the argument parser should read them.
    init?(_ arguments: [String]) {
        var connection = ConnectionSettings()
        var commands: [String] = []
        var seen: Set<String> = []
        var rest = arguments[...]
        while let word = rest.popFirst() {
            guard word.hasPrefix("-") else { return nil }
            var name = word
            var value: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                value = String(word[word.index(after: equals)...])
            }
            if name == "--offline" || name == "--stop-on-error" {
                guard value == nil, seen.insert(name).inserted else { return nil }
                if name == "--offline" { connection.offline = true } else { connection.stopOnError = true }
                continue
            }
            guard name == "-c" || name == "--color" || Self.field(name) != nil else { return nil }
            if value == nil {
                guard let next = rest.popFirst() else { return nil }
                value = next
            }
            // A value the parser might take for an option, or an empty one
            // (`--spec=` is a missing value to it): let it decide.
            guard let value, !value.isEmpty, !value.hasPrefix("-") else { return nil }
            if name == "-c" {
                commands.append(value)
                continue
            }
            guard seen.insert(name).inserted else { return nil }
            if name == "--color" {
                guard let mode = ColorMode(rawValue: value) else { return nil }
                connection.color = mode
            } else if let field = Self.field(name) {
                connection[keyPath: field] = name == "--base-url" ? URLCheck.expandingBaseShorthand(value) : value
            }
        }
        guard connection.problem == nil else { return nil }
        self.connection = connection
        self.commands = commands
    }
}
