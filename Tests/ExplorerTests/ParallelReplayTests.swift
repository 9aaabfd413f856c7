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
}
