import ArgumentParser
import Foundation

/// Options shared by `explorer replay` and `explorer test`.
struct TranscriptRunOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Run against this server instead of each transcript's own base URL or sandbox.", valueName: "url"))
    var baseURL: String?

    @Option(name: .long, help: ArgumentHelp("Run against this environment of each transcript's profile file instead of the one it names.", valueName: "name"))
    var env: String?

    @Flag(name: .long, help: "Re-bless: give steps that differ new expectations (keeping patterns and comments that still fit) and rewrite the files.")
    var update = false

    @Option(name: .long, help: "Colour output: auto (a terminal without NO_COLOR), always or never.")
    var color: ColorMode = .auto

    func validate() throws {
        if let baseURL {
            guard let url = URL(string: baseURL), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                throw ValidationError("'\(baseURL)' is not an http:// or https:// URL")
            }
        }
    }

    var replayer: Replayer {
        var replayer = Replayer(baseURL: baseURL.flatMap(URL.init(string:)), update: update)
        replayer.profileEnvironment = env
        return replayer
    }

    var report: ReplayReport {
        ReplayReport(palette: Palette.choose(color, isTerminal: isatty(1) == 1, environment: ProcessInfo.processInfo.environment))
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
