import Foundation
import Testing
@testable import Explorer

/// `explorer test --jobs N`: transcripts run at once, each against its own
/// sandbox, and results come out in input order whatever order they finish in.
@Suite struct ParallelReplayTests {
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String] = []
        func add(_ path: String) { lock.withLock { paths.append(path) } }
        var all: [String] { lock.withLock { paths } }
    }

    @Test func resultsArriveInInputOrderAndEachTranscriptHasItsOwnSandbox() async {
        // The long Nova tour first, short ones after: they finish before it, yet are reported after it.
        let sessions = SessionsReplayTests.sessions
        let files = ["nova/newcomer", "linku/apply-and-accept", "does/not-exist", "linku/create-task", "posture/upload-logs"]
            .map { "\(sessions)/\($0).transcript" }
        let collected = Collected()
        let runs = await ParallelReplay.run(files, jobs: 4, replayer: Replayer(environment: [:])) { collected.add($0.path) }
        #expect(collected.all == files)
        #expect(runs.map(\.path) == files)
        // Both LinkU transcripts create task 6: each passes only with a fresh sandbox of its own.
        #expect(runs.filter(\.passed).count == 4)
        #expect(runs[2].status == .parse)
    }

    @Test func oneJobRunsLikeBefore() async {
        let files = [SessionsReplayTests.sessions + "/linku/login.transcript"]
        let runs = await ParallelReplay.run(files, jobs: 1, replayer: Replayer(environment: [:])) { _ in }
        #expect(runs.count == 1 && runs[0].passed)
    }

    /// `--jobs N --update` together: each transcript that differs is
    /// rewritten in place by its own job, the others are left byte for byte,
    /// and the rewritten files then replay green.
    @Test func updateWithSeveralJobsRewritesEachFileThatDiffers() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jobs-update-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("t"), withIntermediateDirectories: true)
        // `@../fixtures/…` in the posture tour is read relative to the transcript's folder (a copy: a link to
        // files outside the folder above the transcript's is not read).
        try FileManager.default.copyItem(atPath: "\(SessionsReplayTests.sessions)/fixtures", toPath: folder.appendingPathComponent("fixtures").path)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sessions = SessionsReplayTests.sessions
        let names = ["linku/create-task", "linku/login", "posture/upload-logs", "linku/browse-tasks"]
        var files: [String] = []
        var originals: [String] = []
        for name in names {
            let original = try String(contentsOfFile: "\(sessions)/\(name).transcript", encoding: .utf8)
            let path = folder.appendingPathComponent("t/" + name.replacingOccurrences(of: "/", with: "-") + ".transcript").path
            originals.append(original)
            files.append(path)
        }
        // Two of the four say something the sandbox does not.
        let edited = [originals[0].replacingOccurrences(of: "\"Fix my bike\",\n", with: "\"Fix my car\",\n"),
                      originals[1],
                      originals[2].replacingOccurrences(of: "\"accepted\": 2", with: "\"accepted\": 20"),
                      originals[3]]
        #expect(edited[0] != originals[0] && edited[2] != originals[2])
        for (path, text) in zip(files, edited) { try text.write(toFile: path, atomically: true, encoding: .utf8) }

        let runs = await ParallelReplay.run(files, jobs: 3, replayer: Replayer(update: true, environment: [:])) { _ in }
        #expect(runs.map(\.path) == files)
        #expect(runs.map(\.rewritten) == [true, false, true, false])
        #expect(runs.allSatisfy { $0.status == .ok }, "\(runs.map { ReplayReport(palette: .plain).detailed($0).out })")
        #expect(!runs[0].steps.filter(\.updated).isEmpty && runs[2].steps.filter(\.updated).count == 1)
        // The untouched files are as they were; the rewritten ones say what the sandbox says again.
        #expect(try String(contentsOfFile: files[1], encoding: .utf8) == edited[1])
        #expect(try String(contentsOfFile: files[3], encoding: .utf8) == edited[3])
        #expect(try String(contentsOfFile: files[0], encoding: .utf8).contains("\"Fix my bike\""))
        #expect(try String(contentsOfFile: files[2], encoding: .utf8).contains("\"accepted\": 2,"))
        let again = await ParallelReplay.run(files, jobs: 3, replayer: Replayer(environment: [:])) { _ in }
        #expect(again.allSatisfy { $0.passed })
    }
}
