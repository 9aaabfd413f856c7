import ArgumentParser
import Core
import Foundation
import NIOCore
import NIOPosix
import Sandbox

@main
struct ExplorerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explorer",
        abstract: "Explore a REST backend from a REPL: log in, send requests, see pretty JSON.",
        usage: """
        explorer [--base-url <url>] [--profile <name|file>] [--env <name>] [--offline] [--color <mode>] [--record <file>] [-c <line>]
          explorer [<options>] <method> <path|url> [<item>…]
          explorer run <file> [--base-url <url>] …
          explorer replay <file>… [--base-url <url>] [--env <name>] [--update]
          explorer test [<path>…] [--junit <file>] [--jobs <n>] [--update]
          explorer sandbox [--profile <name>] [--port <port>] [--db <path>] [--token-ttl <seconds>]
          explorer mock [<file|dir>…] [--port <port>] [--mode match|scenario]
          explorer profiles
          explorer profile init <name> [--from-spec <file>] [--base-url <url>]
          explorer profile show <name|file>
        """,
        discussion: """
        With no arguments, explorer starts the built-in LinkU sandbox on 127.0.0.1 and opens the \
        REPL against it. Give --base-url to talk to a real backend instead, or --profile to one \
        described in a profile file (docs/profiles.md). A request after the options \
        (`explorer --base-url URL get /x q==1`, as HTTPie's `http GET URL`; a URL alone is a GET, \
        a POST with data, as HTTPie's) runs as -c runs it. The options below are the REPL's; \
        `explorer run` takes them too, before or after its name, and `replay` and `test` take \
        --base-url, --env, --color, --verify, --cert and --cert-key there. `help` inside the REPL \
        lists its commands.
        """,
        version: "0.1.0",
        subcommands: [Start.self, Run.self, SandboxCommand.self, MockCommand.self, ReplayCommand.self, TestCommand.self, ProfilesCommand.self, ProfileCommand.self, SpecBenchCommand.self]
    )

    // The REPL's options belong to `explorer` itself, not to a default
    // subcommand: the shells' completion scripts offer them at the top level
    // (`explorer --pro<TAB>`), and a subcommand reads those given before its
    // name (`explorer --base-url URL run FILE`).
    @OptionGroup var connection: ConnectionOptions

    @Option(name: .customShort("c"), help: ArgumentHelp("Run one line and exit; given again, the lines run in order, as a script's do.",
                                                       valueName: "line"))
    var commands: [String] = []

    func run() throws {
        try Start.start(connection.settings, commands: commands)
    }

    /// Refuses, by name, the REPL's options given to a subcommand that has
    /// no use for them, rather than ignoring them.
    func refuse(_ subcommand: String, except understood: Set<String> = []) throws {
        let refused = connection.givenNames.filter { !understood.contains($0) } + (commands.isEmpty ? [] : ["-c"])
        if let first = refused.first {
            let takers = Self.transcriptOptions.contains(first) ? "the REPL, explorer run, replay and test" : "the REPL and explorer run"
            throw ValidationError("\(first) is an option of \(takers), not of explorer \(subcommand)")
        }
    }

    /// The REPL's options that `replay` and `test` take too (`TranscriptRunOptions`).
    static let transcriptOptions: Set<String> = ["--base-url", "--env", "--color", "--verify", "--cert", "--cert-key"]

    /// Tasks run on NIO's event loops (`EventLoopExecutor`). The REPL's and
    /// `-c`'s command lines skip the argument parser (`QuickArguments`).
    /// Either way the process ends here, with the status a command throws;
    /// only errors go through the parser's report.
    static func main() {
        Console.prepareStandardStreams()
        EventLoopExecutor.takeOverGlobalExecutor()
        do {
            var arguments = Array(CommandLine.arguments.dropFirst())
            if let line = QuickArguments.requestLine(arguments, piped: isatty(STDOUT_FILENO) == 0, takeInput: { StandardInputBody.take() }) {
                arguments = line
            }
            if let quick = QuickArguments(arguments) {
                try Start.start(quick.connection, commands: quick.commands)
            } else {
                var command = try parseAsRoot(arguments)
                try command.run()
            }
        } catch let status as ExitCode {
            exit(status.rawValue)
        } catch {
            exit(withError: error)
        }
    }

    /// Ends the process with `status`: what is printed is flushed, as the
    /// argument parser's own exit does.
    private static func exit(_ status: Int32) -> Never {
        Foundation.exit(Console.exitStatus(status))
    }
}

extension ColorMode: ExpressibleByArgument {}

/// An option's value that cannot be used (a file that cannot be read, a
/// number out of range, two options naming the server): its one line and
/// the usage status, 64, without the usage text under it, which said
/// nothing more (a missing --cert-key file printed nine lines).
func refusedOption(_ message: String) -> ExitCode {
    Console().err("error: \(message)\n")
    return ExitCode.validationFailure
}

/// Options shared by every command that talks to a backend.
struct ConnectionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Base URL of a backend, such as https://api.example.com. Without it the built-in sandbox starts.", valueName: "url"),
            transform: URLCheck.expandingBaseShorthand)
    var baseURL: String?

    @Option(name: .long, help: ArgumentHelp("Backend profile: built in (\(Profile.names.joined(separator: ", "))), a profile file's name (explorer profiles lists them) or its path. Default: linku for the sandbox, generic for --base-url or --spec.", valueName: "name|file"),
            // Asked of the binary at TAB time: the built-ins (generic is what
            // --base-url gets anyway) and the profile files `explorer profiles`
            // finds. The generated bash script offers the top level's values
            // for a subcommand's option of the same name, so after `sandbox`,
            // which serves only the built-ins, the files are left out.
            completion: .custom { words, _, _ in ConnectionOptions.profileNames(after: words) })
    var profile: String?

    /// What TAB offers for `--profile`, given the words typed so far.
    static func profileNames(after words: [String], lookup: ProfileLookup = ProfileLookup(environment: Surroundings.current.environment)) -> [String] {
        let builtIn = Profile.builtInNames.sorted()
        guard !words.contains("sandbox") else { return builtIn }
        let files = lookup.files().map(\.name).filter { !builtIn.contains($0) }
        return builtIn + files
    }

    @Option(name: .long, help: ArgumentHelp("The profile file's environment whose base URL to use (default: its default-environment).", valueName: "name"))
    var env: String?

    @Flag(name: .long, help: "Print each request instead of sending it.")
    var offline = false

    @Flag(name: .long, help: "In a script, -c lines or piped lines: stop at the first line that fails, as sh -e does (the rest are not run).")
    var stopOnError = false

    @Option(name: .long, help: ArgumentHelp("Colour output; auto, the default, colours a terminal without NO_COLOR.", valueName: "mode"))
    var color: ColorMode?

    @Option(name: .long, help: ArgumentHelp("Record the session, from the first line, as a transcript in this new file.", valueName: "file"),
            completion: .file())
    var record: String?

    @Option(name: .long, help: ArgumentHelp("An OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML) for the catalog; its first server is the base URL when --base-url is not given.", valueName: "file"),
            completion: .file())
    var spec: String?

    @OptionGroup var tls: TLSFlags

    /// What these options say, as a value the rest of the program reads.
    var settings: ConnectionSettings {
        ConnectionSettings(baseURL: baseURL, profile: profile, env: env, offline: offline, stopOnError: stopOnError, color: color,
                           record: record, spec: spec, tls: tls.settings)
    }

    /// These options, taking the ones given before the subcommand's name
    /// (`explorer --base-url URL run FILE`) where none is given after it.
    func given(over parent: ConnectionOptions) -> ConnectionSettings {
        ConnectionSettings(baseURL: baseURL ?? parent.baseURL, profile: profile ?? parent.profile, env: env ?? parent.env,
                           offline: offline || parent.offline, stopOnError: stopOnError || parent.stopOnError,
                           color: color ?? parent.color, record: record ?? parent.record,
                           spec: spec ?? parent.spec, tls: tls.settings.given(over: parent.tls.settings))
    }

    /// The options given, by name. The argument parser reads `explorer`'s own
    /// options anywhere on the line, also after a subcommand's name, so a
    /// subcommand's option of the same name (`sandbox --profile`) arrives
    /// here: each subcommand takes the ones it understands and refuses the
    /// others by name (`refuse(_:except:)`).
    var givenNames: [String] {
        [baseURL.map { _ in "--base-url" }, profile.map { _ in "--profile" }, env.map { _ in "--env" }, offline ? "--offline" : nil,
         stopOnError ? "--stop-on-error" : nil,
         color.map { _ in "--color" }, record.map { _ in "--record" }, spec.map { _ in "--spec" }].compactMap { $0 } + tls.settings.givenNames
    }

    func validate() throws {
        if let reason = settings.problem { throw refusedOption(reason) }
    }
}

/// What the REPL's options say (`ConnectionOptions` as the argument parser
/// reads them, `QuickArguments` for the common command lines).
struct ConnectionSettings: Equatable {
    var baseURL: String?
    var profile: String?
    var env: String?
    var offline = false
    /// `--stop-on-error`: a script's first failed line ends it.
    var stopOnError = false
    var color: ColorMode?
    var record: String?
    var spec: String?
    var tls = TLSSettings()

    /// Why the options cannot be read as given, in one line: the argument
    /// parser's `validate()`.
    var problem: String? {
        baseURL.flatMap { URLCheck.baseProblem($0) } ?? tls.problem
    }

    /// What the TLS flags make of every request line, as `defaults` would; nil without any.
    var requestDefaults: RequestOptions? { tls.requestDefaults }

    /// `--env` beside `--base-url`, here and for `replay` and `test`.
    static func bothNameTheServer(_ env: String) -> ExitCode {
        refusedOption("--env \(env) and --base-url both name the server: give one of them")
    }

    /// A name the profile does not have: one line, as a profile file's
    /// other problems are, not the whole usage.
    private static func unknown(_ what: String) -> ExitCode {
        Console().err("error: \(what)\n")
        return ExitCode(ExitStatus.parse.rawValue)
    }

    /// What only the options together can say (checked once those given
    /// before a subcommand's name are merged in: `--env` alone means
    /// something to `replay`).
    func check() throws {
        if let env {
            guard let profile else { throw ValidationError("--env \(env) picks an environment of a profile: give --profile NAME|FILE too") }
            if let known = Profile.builtIn(named: profile) {
                // `env` lists the in-process sandbox first, so it is one too.
                let names = [ExplorerSession.sandboxEnvironment] + known.environments.map(\.name)
                guard names.contains(env) else {
                    throw Self.unknown("the \(profile) profile has no environment '\(env)'; it has \(names.joined(separator: ", "))")
                }
            } else if Profile.named(profile) != nil {
                throw ValidationError("the \(profile) profile has no environments: give --base-url URL")
            } else if let path = ProfileLookup(environment: Surroundings.current.environment).file(named: profile),
                      let document = try? ProfileFile.read(path), document.environment(named: env) == nil {
                // A file that cannot be read is said later, with its line.
                throw Self.unknown("\(path): no environment '\(env)'; there are \(document.environments.map(\.name).joined(separator: ", "))")
            }
            if baseURL != nil { throw Self.bothNameTheServer(env) }
        }
        if let profile, Profile.named(profile) == nil {
            let lookup = ProfileLookup(environment: Surroundings.current.environment)
            if lookup.file(named: profile) == nil, let other = lookup.notAProfile(named: profile) {
                // There is such a file; it is something else (a spec kept beside the profiles, notes).
                Console().err("error: unknown profile '\(profile)': \(other) is not a profile file (its first field is not explorer-profile: 1)\n")
                throw ExitCode(ExitStatus.parse.rawValue)
            }
            guard lookup.file(named: profile) != nil else {
                // One line, with the built-in name it is likely a typo of (`link`, `Nova`), not the usage text under it.
                let near = nearest(to: profile.lowercased(), in: Profile.names) { distance, _ in distance <= 2 }.map { "did you mean \($0)? " } ?? ""
                throw Self.unknown("unknown profile '\(profile)'; \(near)built in: \(Profile.names.joined(separator: ", ")); "
                                   + "no file \(profile).yaml in .explorer/profiles/ or $XDG_CONFIG_HOME/explorer/profiles/ (explorer profiles lists them)")
            }
        }
        if let profile, let known = Profile.named(profile) {
            if Profile.builtIn(named: known.name) == nil, baseURL == nil, spec == nil {
                throw ValidationError("the \(profile) profile needs --base-url URL (or --spec FILE): the sandbox serves \(Profile.builtInNames.sorted().joined(separator: ", "))")
            }
        }
    }
}

struct Start: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Open the REPL (the default), or run one line with -c."
    )

    @ParentCommand var root: ExplorerCommand
    @OptionGroup var connection: ConnectionOptions

    @Option(name: .customShort("c"), help: ArgumentHelp("Run one line and exit; given again, the lines run in order, as a script's do.",
                                                       valueName: "line"))
    var commands: [String] = []

    func run() throws {
        try Self.start(connection.given(over: root.connection), commands: commands.isEmpty ? root.commands : commands)
    }

    /// The REPL, or the lines of `-c` (in order, like a script's: each
    /// runs, `exit` stops, the worst status is the exit status), or the
    /// lines of a pipe.
    static func start(_ connection: ConnectionSettings, commands: [String]) throws {
        try connection.check()
        let session = try ExplorerSession.open(connection, interactive: commands.isEmpty)
        let controller = session.controller
        if commands.isEmpty, controller.terminal.isInteractive {
            controller.terminal.out(session.welcome)
            let status = controller.repl()
            session.close()
            // A recording that failed (its transcript deleted, a full disk) fails the session, as it fails a script.
            throw ExitCode(max(status, controller.recordingFailed ? .runtime : .ok).rawValue)
        }
        guard !commands.isEmpty else {
            let input = StandardInputLines()
            let status = controller.script(input, name: "stdin")
            session.finish(max(status, input.problem))
        }
        var status = ExitStatus.ok
        for (index, command) in commands.enumerated() {
            // Of several, a failed one is named (`-c 2: error: …`), as a script's line is.
            let location = commands.count > 1 ? "-c \(index + 1)" : nil
            let result = controller.step(command, location: location)
            status = max(status, result.status)
            if result.exit || controller.stopsAfter(result.status, at: location ?? "-c", left: commands.count - index - 1) { break }
        }
        session.finish(status)
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the commands of a file, one per line (# starts a comment)."
    )

    @ParentCommand var root: ExplorerCommand
    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("File of commands; - reads them from standard input.", valueName: "file"), completion: .file())
    var file: String

    func run() throws {
        // One line and exit status 2, as `replay` says of a file it cannot
        // read; a ValidationError printed the whole usage and exited 64.
        let text: String
        switch Self.read(file) {
        case let .success(read): text = read
        case let .failure(problem):
            Console().err("error: cannot read \(file): \(problem)\n")
            throw ExitCode(ExitStatus.parse.rawValue)
        }
        if !root.commands.isEmpty { throw ValidationError("-c runs one line in the REPL; explorer run runs a file's lines") }
        let connection = connection.given(over: root.connection)
        try connection.check()
        let session = try ExplorerSession.open(connection, interactive: false)
        let lines = SessionController.scriptJoined(Self.lines(of: text))
        session.finish(session.controller.script(file: lines, name: file == "-" ? "stdin" : file))
    }
}

extension Run {
    struct Unreadable: Error, CustomStringConvertible { let description: String }

    /// A file's lines, ended by LF or CRLF (a file from Windows was one
    /// line: "\r\n" is one Character, not a "\n"), without a UTF-8 byte order mark.
    static func lines(of text: String) -> [String] {
        let body = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : text[...]
        return body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
    }

    /// The file's text, or why it cannot be run, in a few words. `-` is
    /// standard input, as for curl's `-d @-` and most tools that take a file.
    static func read(_ path: String) -> Result<String, Unreadable> {
        if path == "-" { return text(of: FileHandle.standardInput) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .failure(Unreadable(description: "no such file")) }
        guard !isDirectory.boolValue else { return .failure(Unreadable(description: "it is a directory")) }
        // Read to its end, not by its size: a pipe (`explorer run <(…)`, /dev/stdin) has none.
        guard let handle = FileHandle(forReadingAtPath: path) else { return .failure(Unreadable(description: "permission denied")) }
        defer { try? handle.close() }
        return text(of: handle)
    }

    /// The most of a file `run` reads: a script is lines typed by a person.
    /// `explorer run /dev/zero` grew by 350 MB a second, for ever.
    static let maximumBytes = 16 << 20

    private static func text(of handle: FileHandle) -> Result<String, Unreadable> {
        switch FilePaths.contents(of: handle, atMost: maximumBytes) {
        case .unreadable: return .failure(Unreadable(description: "it cannot be read"))
        case .tooLarge: return .failure(Unreadable(description: "it is larger than \(maximumBytes >> 20) MiB, which no script of lines is"))
        case let .bytes(bytes):
            if let problem = StandardInputLines.encodingProblem(bytes) { return .failure(Unreadable(description: problem)) }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                // Said with its line, as piped lines are.
                return .failure(Unreadable(description: "line \(Self.firstLineNotUTF8(in: bytes)) is not UTF-8 text"))
            }
            // A file from an old Mac editor ran as one line: its `# comment` first hid the rest, and it exited 0. A
            // carriage return alone inside a file of LF lines ran two lines as one (`set b=2\rvars`).
            if let line = Self.loneCarriageReturn(in: bytes) {
                guard bytes.contains(UInt8(ascii: "\n")) else {
                    return .failure(Unreadable(description: "its lines end in a carriage return alone; save it with LF (or CRLF) line ends"))
                }
                return .failure(Unreadable(description: "line \(line) holds a carriage return that ends no line; save it with LF (or CRLF) line ends"))
            }
            // Files joined (`cat a.txt b.txt`) put a byte-order mark at a later line's start: "unknown command '\u{FEFF}get'".
            return .success(text.replacingOccurrences(of: "\n\u{FEFF}", with: "\n"))
        }
    }
}

extension Run {
    /// The number of the first line that is not UTF-8.
    static func firstLineNotUTF8(in bytes: [UInt8]) -> Int {
        var number = 1
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if String(validating: line, as: UTF8.self) == nil { return number }
            number += 1
        }
        return number
    }

    /// The number of the first line a carriage return not before a line feed ends, or nil.
    static func loneCarriageReturn(in bytes: [UInt8]) -> Int? {
        var line = 1
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\n") { line += 1 }
            if byte == UInt8(ascii: "\r"), index + 1 == bytes.count || bytes[index + 1] != UInt8(ascii: "\n") { return line }
        }
        return nil
    }
}

/// The lines piped into the REPL, read as `run -` reads a file: a UTF-8 byte-order mark dropped (the first
/// line was "unknown command '\u{FEFF}get'"), UTF-16 or lines ended by a carriage return alone refused, a
/// line that is not UTF-8 said and not run (its bytes were sent as U+FFFD). Each problem is said on
/// standard error with the line's number, and makes `problem` the run's exit status.
final class StandardInputLines: Sequence, IteratorProtocol {
    private(set) var problem: ExitStatus = .ok
    private var number = 0
    private var ended = false

    func next() -> String? {
        guard !ended, var bytes = readLine() else { return nil }
        number += 1
        // Of every line: files joined (`cat a.txt b.txt | explorer`) put one at a later line's start.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if number == 1, let encoding = Self.encodingProblem(bytes) { return stop(encoding) }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        if bytes.contains(UInt8(ascii: "\r")) {
            // Lines ended by a carriage return alone read as one line, the whole input; one inside a line ended by LF is that line's.
            guard number > 1 || endedByNewline else { return stop("its lines end in a carriage return alone; save it with LF (or CRLF) line ends") }
            return refuse("a carriage return inside it (save the text with LF or CRLF line ends)")
        }
        guard let line = String(validating: bytes, as: UTF8.self) else { return refuse("not UTF-8 text") }
        return line
    }

    /// Says why this line is not run, and goes on with the next (an empty line stands for it: the numbers stay).
    private func refuse(_ why: String) -> String {
        Console().err("stdin:\(number): error: \(why); the line is not run\n")
        problem = Swift.max(problem, .usage)
        return ""
    }

    private func stop(_ why: String) -> String? {
        Console().err("error: cannot read stdin: \(why)\n")
        problem = Swift.max(problem, .parse)
        ended = true
        return nil
    }

    private var buffered: [UInt8] = []
    private var atEnd = false
    /// Whether the last line read ended with a line feed (not the input's end).
    private var endedByNewline = false

    /// One line of standard input without its LF; nil at its end.
    private func readLine() -> [UInt8]? {
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                defer { buffered.removeSubrange(...newline) }
                endedByNewline = true
                return Array(buffered[..<newline])
            }
            if atEnd {
                guard !buffered.isEmpty else { return nil }
                defer { buffered = [] }
                endedByNewline = false
                return buffered
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { Foundation.read(0, $0.baseAddress, $0.count) }
            if count > 0 { buffered += chunk[..<count] } else if count == 0 || errno != EINTR { atEnd = true }
        }
    }

    /// Text saved as UTF-16 (PowerShell's `>`), with its byte-order mark or without (a NUL beside each of its
    /// first letters), said as such: a NUL after each letter read as a line of garbage. (A NUL further on is a
    /// value's, `set a=x\0y`, shown escaped.)
    static func encodingProblem(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return "UTF-16 text; save it as UTF-8" }
        if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 { return "UTF-16 text; save it as UTF-8" }
        return nil
    }
}

/// `--verify`, `--cert` and `--cert-key` on explorer's command line, for
/// the REPL, `run`, `replay` and `test`: what each request line's flags of
/// the same names say (`RequestOptions`), for every request of the run, as
/// HTTPie's do. A staging server with a private CA replays with
/// `--verify ca.pem`.
struct TLSFlags: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Check https servers' certificates against the system's CAs (yes, the default), a CA file (PEM), or not at all (no); for every request, as a line's --verify is for one.",
                                            valueName: "yes|no|file"), completion: .file())
    var verify: String?

    @Option(name: .long, help: ArgumentHelp("A client certificate (PEM) for https servers, with its key unless --cert-key names another file.", valueName: "file"),
            completion: .file())
    var cert: String?

    @Option(name: .customLong("cert-key"), help: ArgumentHelp("The client certificate's private key (PEM).", valueName: "file"), completion: .file())
    var certKey: String?

    var settings: TLSSettings { TLSSettings(verify: verify, cert: cert, certKey: certKey) }

    func validate() throws {
        if let problem = settings.problem { throw refusedOption(problem) }
    }
}

/// What `TLSFlags` say, as a value the rest of the program reads.
struct TLSSettings: Equatable {
    var verify: String?
    var cert: String?
    var certKey: String?

    var givenNames: [String] {
        [verify.map { _ in "--verify" }, cert.map { _ in "--cert" }, certKey.map { _ in "--cert-key" }].compactMap { $0 }
    }

    /// These flags, taking each one given before the subcommand's name where none is given after it.
    func given(over parent: TLSSettings) -> TLSSettings {
        TLSSettings(verify: verify ?? parent.verify, cert: cert ?? parent.cert, certKey: certKey ?? parent.certKey)
    }

    private func read() -> Result<RequestOptions?, RequestOptions.TLSFlagProblem> {
        guard !givenNames.isEmpty else { return .success(nil) }
        var options = RequestOptions()
        do throws(RequestOptions.TLSFlagProblem) {
            if let verify { try options.setTLS("--verify", verify) }
            if let cert { try options.setTLS("--cert", cert) }
            if let certKey { try options.setTLS("--cert-key", certKey) }
        } catch {
            return .failure(error)
        }
        if certKey != nil, cert == nil {
            return .failure(.init(message: "--cert-key names the key of a client certificate: give --cert FILE too"))
        }
        if let problem = options.tlsProblem { return .failure(.init(message: problem)) }
        return .success(options)
    }

    /// Why a value cannot be taken (a CA file that cannot be read), or nil.
    var problem: String? {
        if case let .failure(problem) = read() { return problem.message }
        return nil
    }

    /// The flags as `defaults` would take them; nil when none is given.
    var requestDefaults: RequestOptions? { try? read().get() }
}
