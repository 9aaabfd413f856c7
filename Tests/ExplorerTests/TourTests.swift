import Foundation
import Testing
@testable import Explorer

/// Tours are found under `sessions/` by name, and a transcript's file paths
/// are rebased onto its folder when it runs inside a REPL session.
@Suite struct TourTests {
    let tours = Tours(environment: ["EXPLORER_SESSIONS": SessionsReplayTests.sessions])

    @Test func everySessionIsATourNamedByItsPath() {
        let names = tours.all.map(\.name)
        #expect(names.contains("linku/create-task"))
        #expect(names.contains("nova/newcomer"))
        #expect(tours.tours(for: "posture").map(\.name) == ["posture/upload-logs"])
        #expect(tours.find("linku/create-task")?.summary == "Alice posts a task and reads it back through a captured id.")
        #expect(tours.find("create-task")?.name == "linku/create-task")
        #expect(tours.find("no-such-tour") == nil)
    }

    @Test func relativeFilePathsOfRequestLinesAreRebased() {
        #expect(FilePaths.rebase("post /api/upload/image file@../fixtures/lamp.png", onto: "sessions/linku")
            == "post /api/upload/image file@sessions/fixtures/lamp.png")
        #expect(FilePaths.rebase("put {{u}} @../fixtures/bike.png Content-Type:image/png", onto: "sessions/nova")
            == "put {{u}} @sessions/fixtures/bike.png Content-Type:image/png")
        #expect(FilePaths.rebase("post /x @/abs/body.json", onto: "sessions/linku") == "post /x @/abs/body.json")
        #expect(FilePaths.rebase("login alice@example.com {{secret:password}}", onto: "sessions/linku")
            == "login alice@example.com {{secret:password}}")
        #expect(FilePaths.rebase("post /x avatar@a.png;type=image/png", onto: "s")
            == "post /x avatar@s/a.png;type=image/png")
    }
}
