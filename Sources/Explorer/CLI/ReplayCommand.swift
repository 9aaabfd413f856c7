import ArgumentParser

/// `explorer replay FILE…`: run transcripts and show every step's verdict.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay transcripts step by step and show a diff for each step that differs.",
        discussion: """
        Exit status: 0 every step matched, 2 a transcript could not be read or parsed, \
        3 a runtime failure (no answer from the server, no sandbox, a missing secret), 4 a difference, \
        64 a wrong command line (an unknown option, no file named).
        """
    )

    @ParentCommand var root: ExplorerCommand
    @OptionGroup var given: TranscriptRunOptions

    @Argument(help: ArgumentHelp("Transcript files.", valueName: "file"), completion: .file(extensions: [TranscriptSource.fileExtension]))
    var files: [String]

    func run() throws {
        let options = try given.given(over: root, command: "replay")
        let console = Console()
        var replayer = options.replayer
        let report = options.report
        // Each step is printed as it finishes: a long transcript shows where it is,
        // and a CI job stopped by its timeout keeps what ran.
        replayer.onStep = { step, width in
            console.out(report.step(step, lineWidth: width))
            console.flush()
        }
        var runs: [TranscriptRun] = []
        for file in files where !Console.outputFailed {
            console.out(report.heading(file))
            let run = runBlocking { [replayer] in await replayer.run(file) }
            let (out, err) = report.ending(run)
            console.out(out)
            // A run the output stopped says so once, at the end ("cannot write the output: …"), not also as the run's error.
            if !Console.outputFailed { console.err(err) }
            runs.append(run)
        }
        throw ExitCode(combinedStatus(runs).rawValue)
    }
}
