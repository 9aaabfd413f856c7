import Core
import Foundation
import Testing
@testable import Explorer

/// The regression suite: every transcript under `sessions/` replays green
/// against its own fresh in-process sandbox, and none holds a secret.
@Suite struct SessionsReplayTests {
    static let sessions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sessions").path
    static let files = TranscriptSource.files(in: [sessions]).files

    @Test func thereAreSessionsToReplay() {
        #expect(!Self.files.isEmpty, "no *.transcript files under \(Self.sessions)")
    }

    @Test(arguments: files)
    func replaysGreen(path: String) async {
        // No EXPLORER_SECRET_* from the environment: the sessions use demo accounts only.
        let run = await Replayer(environment: [:]).run(path)
        let report = ReplayReport(palette: .plain).detailed(run)
        #expect(run.status == .ok, "\(report.out)\(report.err)")
        #expect(run.torn == nil)
    }

    @Test(arguments: files)
    func holdsNoSecret(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let passwords = Profile.builtIn.values.flatMap(\.demoAccounts).map(\.password)
        for password in passwords { #expect(!text.contains(password), "\(path) holds a demo password") }
        #expect(!text.contains("eyJ"), "\(path) holds something shaped like a JWT")
    }
}
