import ArgumentParser
import Core
import Foundation

/// `explorer test [DIR|FILE…]`: the regression suite. One line per
/// transcript as it finishes, then `N passed, N failed` (and any that could not run or be read).
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Replay every transcript under the given folders (default sessions/) as a test suite.",
        discussion: """
        Folders are searched for *.\(TranscriptSource.fileExtension) files. Each transcript that says \
        `base-url: sandbox` gets a fresh in-process sandbox; --jobs N runs N at once, and results are \
        still printed in path order. Exit status: 0 all passed, 2 a transcript \
        could not be read or parsed, 3 a runtime failure, 4 a difference, 64 a wrong command line \
        (an unknown option, --jobs 0).
        """
    )

    @ParentCommand var root: ExplorerCommand
    @OptionGroup var given: TranscriptRunOptions

    @Option(name: .long, help: ArgumentHelp("Also write the results as JUnit XML to this file.", valueName: "file"), completion: .file())
    var junit: String?

    // Unconditional: `--jobs -1` was read as an option, "Missing value for '--jobs <n>'".
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Replay this many transcripts at once, each against its own sandbox.", valueName: "n"))
    var jobs = 1

    func validate() throws {
        guard jobs >= 1 else { throw refusedOption("--jobs must be at least 1") }
    }

    @Argument(help: ArgumentHelp("Transcript files and folders (default: sessions).", valueName: "path"), completion: .file())
    var paths: [String] = []

    func run() throws {
        let options = try given.given(over: root, command: "test")
        let console = Console()
        // Checked before the suite runs: a report that cannot be written was said only after it all ran.
        if let junit, let problem = Self.problem(writing: junit) {
            console.err("error: cannot write --junit \(junit): \(problem)\n")
            throw ExitCode.validationFailure
        }
        // Outside a project, the default folder is not there: "BROKEN  sessions: no such file" said nothing of what to do.
        if paths.isEmpty, !FileManager.default.fileExists(atPath: "sessions") {
            console.err("error: no sessions/ folder here: name the transcripts or folders to run (explorer test DIR)\n")
            throw ExitCode(ExitStatus.parse.rawValue)
        }
        let (files, empty, skipped) = TranscriptSource.files(in: paths.isEmpty ? ["sessions"] : paths)
        // The report written over a transcript it reports on (`--junit sessions/a.transcript`) broke the suite.
        // Through links too, symbolic or hard: a report named by one wrote over the transcript.
        if let junit, case let report = Self.identity(junit), files.contains(where: { Self.identity($0) == report }) {
            console.err("error: cannot write --junit \(junit): it is one of the transcripts under test\n")
            throw ExitCode.validationFailure
        }
        for path in skipped { console.err(TranscriptSource.skippedLine(path) + "\n") }
        for folder in empty { console.err("warning: no *.\(TranscriptSource.fileExtension) files under \(folder)\n") }
        guard !files.isEmpty else {
            console.err("error: no transcripts to run\n")
            throw ExitCode(ExitStatus.parse.rawValue)
        }
        // A run stopped by Ctrl-C, a CI timeout or a kill left the last run's report in place, which CI then
        // published as this one's: until the run ends, the file says it did not finish.
        if let junit {
            do { try Data(JUnitReport.unfinished.utf8).write(to: URL(fileURLWithPath: junit)) } catch {
                console.err("error: cannot write \(junit): \(Self.problem(writing: junit) ?? "the file could not be written")\n")
                throw ExitCode(ExitStatus.runtime.rawValue)
            }
        }
        var suite = options.replayer
        suite.skipsWhatEnvDoesNotApplyTo = true
        let replayer = suite
        let report = options.report
        let runs = runBlocking { [files, jobs] in
            await ParallelReplay.run(files, jobs: jobs, replayer: replayer) { run in
                let (out, err) = report.progress(run)
                console.out(out)
                console.err(err)
            }
        }
        console.out(ReplayReport.summary(runs) + "\n")
        if let junit {
            do { try Data(JUnitReport.xml(runs).utf8).write(to: URL(fileURLWithPath: junit)) } catch {
                console.err("error: cannot write \(junit): \(Self.problem(writing: junit) ?? "the file could not be written")\n")
                throw ExitCode(ExitStatus.runtime.rawValue)
            }
        }
        // Every transcript skipped (`--env staging` and a suite recorded with --base-url) tested nothing: a
        // CI job went green. As pytest's "no tests ran", and as an empty folder here, it is no success.
        if runs.allSatisfy({ $0.skipped != nil }) {
            console.err("error: nothing ran: every transcript was skipped (each SKIP line says why)\n")
            throw ExitCode(ExitStatus.parse.rawValue)
        }
        throw ExitCode(combinedStatus(runs).rawValue)
    }

    /// The file a path names: its device and inode when it exists (a hard
    /// link is the same file under another name), else its absolute path.
    private static func identity(_ path: String) -> String {
        var info = stat()
        if stat(path, &info) == 0 { return "\(info.st_dev):\(info.st_ino)" }
        let absolute = path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        return FilePaths.normalized(absolute)
    }

    /// Why a report cannot be written at `path`, in words, or nil; its
    /// folder is made if missing, as test runners' report options do
    /// (`pytest --junitxml reports/x.xml`).
    static func problem(writing path: String) -> String? {
        if path.isEmpty { return "name a file (--junit report.xml)" }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            return "it is a folder: name a file in it (--junit \((path as NSString).appendingPathComponent("report.xml")))"
        }
        let named = PathText.folder(of: path), folder = named.isEmpty ? "." : named
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
            return "\(folder) is a file, not a folder"
        }
        if !FileManager.default.fileExists(atPath: folder) {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                return "cannot make its folder \(folder)"
            }
        }
        if FileManager.default.fileExists(atPath: path) ? access(path, W_OK) != 0 : access(folder, W_OK) != 0 {
            return "permission denied"
        }
        return nil
    }
}
