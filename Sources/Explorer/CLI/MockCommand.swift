import ArgumentParser
import Core
import Foundation
import Sandbox

/// `explorer mock [FILE|DIR …]`: a server that answers as the transcripts
/// recorded (docs/mock.md).
struct MockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mock",
        abstract: "Serve recorded transcripts as a mock backend (HTTP and WebSocket).",
        discussion: """
        Every request is answered from a recorded step: in match mode (the default) by the best fit of the same \
        method and path; in scenario mode by the next step of each transcript, in order, per client session \
        (the X-Mock-Session header; one shared session without it). GET /__mock/state shows where each session \
        is; POST /__mock/reset starts over. A request nothing recorded gets a 404 that names the closest step.
        """
    )

    @Argument(help: ArgumentHelp("Transcripts, or folders searched for *.transcript.", valueName: "file|dir"),
              completion: .file(extensions: ["transcript"]))
    var paths: [String] = ["sessions"]

    @Option(help: "Address to listen on: loopback by default; 0.0.0.0 lets other machines (a phone) reach it.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port = 8090

    @Option(help: ArgumentHelp("How a request finds its step: match or scenario.", valueName: "mode"),
            completion: .list(MockMode.allCases.map(\.rawValue)))
    var mode = "match"

    @OptionGroup(title: "Fault switches, as the sandbox's (all off by default; see docs/sandbox-faults.md)")
    var faults: SandboxFaultOptions

    @ParentCommand var root: ExplorerCommand

    func validate() throws {
        guard MockMode(rawValue: mode) != nil else { throw refusedOption("--mode must be match or scenario, not '\(mode)'") }
        guard (0...65535).contains(port) else { throw refusedOption("--port must be from 0 to 65535") }
    }

    func run() throws {
        try root.refuse("mock")
        let console = Console()
        let (files, empty, skipped) = TranscriptSource.files(in: paths)
        for path in skipped { console.err(TranscriptSource.skippedLine(path) + "\n") }
        let loaded = runBlocking { await Self.load(files) }
        guard !loaded.scripts.isEmpty else {
            // One line when nothing was found; the files' own lines, then one, when none could be served.
            for problem in loaded.problems { console.err("skipped \(problem)\n") }
            console.err("error: " + (files.isEmpty ? "no *.transcript in \(empty.joined(separator: ", "))" : "no transcript could be served") + "\n")
            throw ExitCode(ExitStatus.parse.rawValue)
        }
        for folder in empty { console.err("warning: no *.transcript in \(folder)\n") }
        for problem in loaded.problems { console.err("skipped \(problem)\n") }
        for note in loaded.notes { console.err("warning: \(note)\n") }
        // The sandbox's flags and EXPLORER_SANDBOX_* variables, read the same way.
        var configuration = SandboxConfiguration()
        // The lifetime a recorded login gave its token, unless --token-ttl or EXPLORER_SANDBOX_TOKEN_TTL says one: served
        // 900 where the recording said 3600, a replay against the mock failed, and an app refreshed on another clock.
        if let recorded = loaded.scripts.lazy.flatMap(\.steps).compactMap({ step -> Int? in
            guard case let .json(body)? = step.expectation.body else { return nil }
            return Materializer.recordedTokenLifetime(in: body)
        }).first {
            configuration.accessTokenLifetime = Double(recorded)
        }
        configuration.apply(environment: Surroundings.current.environment)
        faults.apply(to: &configuration)
        // A variable that does not read is refused, as the sandbox refuses it: `EXPLORER_SANDBOX_FAULT_SEED=seven`
        // was dropped without a word, and the faults were not repeatable.
        if let problem = configuration.environmentProblems.first ?? configuration.faults.problems().first.map({ "fault switch \($0.key) \($0.message)" }) {
            console.err("error: \(problem)\n")
            throw ExitCode(ExitStatus.parse.rawValue)
        }
        let server: MockServer
        do {
            server = try runBlockingThrowing { [host, port, mode, configuration] in
                try await MockServer.start(loaded.scripts, mode: MockMode(rawValue: mode)!, host: host, port: port,
                                           faults: configuration.faults, tokenLifetime: configuration.accessTokenLifetime) { line in
                    Console().err(line + "\n")
                }
            }
        } catch {
            console.err("error: \(error)\n")
            throw ExitCode(ExitStatus.runtime.rawValue)
        }
        try stopOnSignal { await server.stop() }
        if let warning = openHostWarning(host, what: "the mock") { console.err(warning) }
        console.out("Mock listening on \(server.baseURL.absoluteString) (\(mode) mode)\n")
        for script in loaded.scripts {
            let requests = script.steps.filter { if case .request = $0.trigger { true } else { false } }.count
            let sockets = script.steps.count - requests
            console.out("  \(script.file): \(requests) request step\(requests == 1 ? "" : "s")"
                        + (sockets > 0 ? ", \(sockets) WebSocket step\(sockets == 1 ? "" : "s")" : "") + "\n")
        }
        console.out("Ctrl-C stops.\n")
        try runBlockingThrowing { try await server.wait() }
    }

    /// The scripts of the transcripts that can be served, and why the others cannot.
    /// `notes`: what is served of a transcript, but not all of it (a torn last
    /// step, a step that fails against its own recording).
    static func load(_ files: [String]) async -> (scripts: [MockScript], problems: [String], notes: [String]) {
        var scripts: [MockScript] = []
        var problems: [String] = []
        var notes: [String] = []
        for file in files {
            switch await MockDerivation.script(file) {
            case let .success(script):
                var why = script.leftOut.map { "\(file):\($0.line): \($0.reason)" }
                if let torn = script.torn { why.insert("\(file):\(torn.line): the last step is torn (\(torn.reason))", at: 0) }
                // Nothing of it to serve (its one step torn, or refused): skipped, as docs/mock.md says, not listed as served.
                guard !script.steps.isEmpty else {
                    problems.append("\(file): none of its steps can be served" + (why.isEmpty ? "" : " (\(why.joined(separator: "; ")))"))
                    continue
                }
                scripts.append(script)
                notes += why.map { $0 + "; it is not served" }
            case let .failure(.broken(text)), let .failure(.runtime(text)): problems.append(text)
            }
        }
        return (scripts, problems, notes)
    }
}
