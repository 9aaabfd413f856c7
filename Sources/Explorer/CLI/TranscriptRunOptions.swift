import ArgumentParser
import Core
import Foundation

/// Options shared by `explorer replay` and `explorer test`.
struct TranscriptRunOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Run against this server instead of each transcript's own base URL or sandbox.", valueName: "url"),
            transform: URLCheck.expandingBaseShorthand)
    var baseURL: String?

    @Option(name: .long, help: ArgumentHelp("Run against this environment of each transcript's profile file instead of the one it names.", valueName: "name"))
    var env: String?

    @Flag(name: .long, help: "Re-bless: give steps that differ new expectations (keeping patterns and comments that still fit) and rewrite the files.")
    var update = false

    @Option(name: .long, help: ArgumentHelp("Colour output; auto, the default, colours a terminal without NO_COLOR.", valueName: "mode"))
    var color: ColorMode?

    @OptionGroup var tls: TLSFlags

    @Option(name: .long, help: ArgumentHelp("Give up on a step's answer after this many seconds (30 by default), as a line's --timeout does; a line's own wins.",
                                            valueName: "seconds"))
    var timeout: Double?

    func validate() throws {
        if let baseURL {
            if let reason = URLCheck.baseProblem(baseURL) { throw refusedOption(reason) }
        }
        // The range a line's --timeout takes: a step slower than 30 s said "--timeout changes it", which replay refused.
        if let timeout, !(0.001...3600).contains(timeout) { throw refusedOption("--timeout takes seconds from 0.001 to 3600") }
    }

    /// These options, taking `--base-url`, `--env`, `--color` and the TLS
    /// flags given before the subcommand's name (`explorer --env staging
    /// replay FILE`); the REPL's other options are refused there, by name,
    /// rather than ignored.
    func given(over root: ExplorerCommand, command: String) throws -> TranscriptRunOptions {
        try root.refuse(command, except: ExplorerCommand.transcriptOptions)
        var merged = self
        let tlsGiven = tls.settings.given(over: root.connection.tls.settings)
        (merged.tls.verify, merged.tls.cert, merged.tls.certKey) = (tlsGiven.verify, tlsGiven.cert, tlsGiven.certKey)
        merged.baseURL = baseURL ?? root.connection.baseURL
        merged.env = env ?? root.connection.env
        merged.color = color ?? root.connection.color
        // As for the REPL: both name the server (the URL won silently).
        if let env = merged.env, merged.baseURL != nil {
            throw ConnectionSettings.bothNameTheServer(env)
        }
        return merged
    }

    var replayer: Replayer {
        var replayer = Replayer(baseURL: baseURL.flatMap { URL(string: URLCheck.lowercasingScheme($0)) }, update: update)
        replayer.profileEnvironment = env
        replayer.requestDefaults = tls.settings.requestDefaults
        if let timeout {
            var defaults = replayer.requestDefaults ?? RequestOptions()
            defaults.timeout = timeout
            replayer.requestDefaults = defaults
        }
        // Someone at a terminal is asked for a secret the environment lacks,
        // as the REPL asks; a script still needs EXPLORER_SECRET_NAME.
        if Surroundings.current.inputIsTerminal {
            let asked = AskedSecrets()
            replayer.askSecret = { path, name in asked.value(name, path: path) }
        }
        return replayer
    }

    var report: ReplayReport {
        ReplayReport(palette: Palette.forStandardOutput(color))
    }
}

/// The exit status for several transcripts: the first failure class wins,
/// in the order a person has to fix them (a file that does not parse, then
/// a run that could not finish, then a difference).
func combinedStatus(_ runs: [TranscriptRun]) -> ExitStatus {
    for status in [ExitStatus.parse, .runtime, .mismatch] where runs.contains(where: { $0.status == status }) {
        return status
    }
    return .ok
}

/// What someone at the terminal was asked for during one `replay` or `test`
/// (or a `replay FILE` at the prompt): each name once, whichever transcript
/// needs it first, one question at a time (`--jobs` runs transcripts at once).
final class AskedSecrets: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [String: String] = [:]
    /// Ctrl-C at the question: `explorer replay` ends (status 130); at the
    /// prompt the question goes unanswered, and the replay stops there.
    private let exitsOnInterrupt: Bool

    init(exitsOnInterrupt: Bool = true) { self.exitsOnInterrupt = exitsOnInterrupt }

    func value(_ name: String, path: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        if let known = answers[name] { return known }
        let prompt = "{{secret:\(name)}} for \((path as NSString).lastPathComponent) (\(SecretResolver.environmentName(name)) is not set): "
        // Enter alone is no answer: an empty password went out, and every step after the login failed (exit 4),
        // where a missing secret stops the run (exit 3), as an empty EXPLORER_SECRET_* does.
        let answer = LineEditor.askSecret(prompt: prompt)
        // Ctrl-C stops the run, as it would have before the prompt (it did nothing; then each transcript asked again).
        if answer == .interrupted, exitsOnInterrupt { Foundation.exit(130) }
        guard case let .typed(typed) = answer, !typed.isEmpty else { return nil }
        answers[name] = typed
        return typed
    }
}
