import ArgumentParser
import Core
import Foundation

/// `explorer bench-spec --spec FILE --lines FILE`: issue 6's spec figures,
/// measured inside the process for bench/spec (hidden: a measuring tool,
/// not a feature). It times `SpecLoader.load` a few times, then TAB as the
/// REPL does it (the interpreter's completion state, then the completer) on
/// every line of the lines file, after one untimed pass, and prints one
/// JSON object. Nothing is sent: give a --base-url nobody listens on.
struct SpecBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-spec",
        abstract: "Time spec loading and TAB completion (for bench/spec).",
        shouldDisplay: false
    )

    @OptionGroup var connection: ConnectionOptions

    @Option(help: ArgumentHelp("Partial lines to complete, one a line.", valueName: "file"))
    var lines: String

    @Option(help: "How many times to time the load.")
    var loads = 5

    @Flag(help: "Also time the import's steps one by one, and the steps it no longer takes.")
    var phases = false

    func run() throws {
        guard let spec = connection.spec else { throw ValidationError("bench-spec needs --spec FILE") }
        guard let text = FileManager.default.contents(atPath: lines).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw ValidationError("cannot read \(lines)")
        }
        let partial = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        let clock = ContinuousClock()
        var loadTimes: [Double] = []
        var operations = 0
        for _ in 0..<max(1, loads) {
            var loaded: ImportedSpec?
            let elapsed = try clock.measure {
                do { loaded = try SpecLoader.load(spec) } catch let error as SpecError { throw ValidationError(error.description) }
            }
            operations = loaded?.endpoints.count ?? 0
            loadTimes.append(Self.milliseconds(elapsed))
        }
        let session = try ExplorerSession.open(connection.settings, interactive: false)
        defer { session.close() }
        for line in partial { _ = session.complete(line) }
        var tab: [Double] = []
        var candidates = 0
        for line in partial {
            var completion: Completion?
            let elapsed = clock.measure { completion = session.complete(line) }
            candidates += completion?.candidates.count ?? 0
            tab.append(Self.milliseconds(elapsed))
        }
        loadTimes.sort()
        tab.sort()
        var result: [String: Any] = [
            "operations": operations,
            "load_ms": loadTimes, "load_ms_median": loadTimes[loadTimes.count / 2],
            "tab_lines": tab.count, "tab_candidates": candidates,
            "tab_ms_p50": Self.percentile(tab, 50), "tab_ms_p99": Self.percentile(tab, 99), "tab_ms_max": tab.last ?? 0,
        ]
        if phases {
            let (data, isJSON) = try Self.read(spec)
            var steps: [String: String] = [:]
            var version = ""
            SpecPhases.time("read the version", into: &steps) { version = try SpecLoader.version(data, isJSON: isJSON) }
            steps.merge(version.hasPrefix("3.1") ? SpecImport31.phases(data, isJSON: isJSON) : SpecImport30.phases(data, isJSON: isJSON)) { a, _ in a }
            result["phases_ms"] = steps
        }
        let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: json, as: UTF8.self))
    }

    static func read(_ file: String) throws -> (Data, isJSON: Bool) {
        do { return try SpecLoader.read(file) } catch { throw ValidationError(error.description) }
    }

    static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    /// Nearest rank.
    static func percentile(_ sorted: [Double], _ p: Int) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((Double(p) / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

/// Times one step of the import for `bench-spec --phases`: its milliseconds, or why it failed.
enum SpecPhases {
    static func time(_ name: String, into out: inout [String: String], _ body: () throws -> Void) {
        let start = ContinuousClock.now
        do {
            try body()
            out[name] = String(format: "%.1f", SpecBenchCommand.milliseconds(ContinuousClock.now - start))
        } catch {
            out[name] = "failed: \(String(describing: error).prefix(160))"
        }
    }
}
