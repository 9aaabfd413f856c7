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
        // A first sentence over two lines is whole (it ended at "verifies the email,").
        #expect(tours.find("nova/newcomer")?.summary == "Nova, an Instagram-like backend: a newcomer registers, verifies the email, posts a photo, and meets the others.")
        #expect(Tours.summary(["", "# One line.", "# The next paragraph."]) == "One line.")
        #expect(Tours.summary(["# a", "# b", "# c", "# d"]) == "a b c")
        #expect(tours.find("create-task")?.name == "linku/create-task")
        #expect(tours.find("no-such-tour") == nil)
    }

    /// A recording names the profile file it used relative to itself.
    @Test func aPathIsSeenFromAFolder() {
        #expect(FilePaths.relative("/p/profiles/shop.yaml", from: "/p/sessions") == "../profiles/shop.yaml")
        #expect(FilePaths.relative("/p/sessions/shop.yaml", from: "/p/sessions") == "shop.yaml")
        #expect(FilePaths.relative("/p/shop.yaml", from: "/p/a/b") == "../../shop.yaml")
        #expect(FilePaths.relative("shop.yaml", from: "") == "shop.yaml")
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

/// Tours are found from any working directory: an installed binary looks
/// beside itself, a built one in the checkout it came from (issue 11, #23).
@Suite struct TourFolderTests {
    @Test func anInstalledBinaryFindsTheToursBesideIt() {
        let tours = Tours(environment: [:], executable: "/opt/explorer/bin/explorer",
                          isFolder: { $0 == "/opt/explorer/share/explorer/sessions" })
        #expect(tours.folder == "/opt/explorer/share/explorer/sessions")
        let beside = Tours(environment: [:], executable: "/opt/tools/explorer", isFolder: { $0 == "/opt/tools/sessions" })
        #expect(beside.folder == "/opt/tools/sessions")
    }

    @Test func withoutSessionsInTheWorkingDirectoryTheCheckoutsAreFound() {
        // As from /tmp: no `sessions` here, no folder beside the binary.
        let tours = Tours(environment: [:], executable: "/nowhere/bin/explorer", isFolder: { $0 != "sessions" && Tours.isFolder($0) })
        #expect(tours.folder.hasSuffix("/sessions") && tours.folder.hasPrefix("/"))
        #expect(tours.all.contains { $0.name == "linku/create-task" })
    }

    /// The running binary, symlinks resolved: here, the test runner.
    @Test func theExecutableIsTheRunningBinary() throws {
        let path = try #require(Tours.executablePath)
        let running = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        #expect(path.hasPrefix("/") && FileManager.default.isExecutableFile(atPath: path))
        #expect(URL(fileURLWithPath: path).lastPathComponent == running.lastPathComponent)
    }

    @Test func theEnvironmentStillWins() {
        #expect(Tours(environment: ["EXPLORER_SESSIONS": "/x"], executable: nil, isFolder: { _ in true }).folder == "/x")
    }
}
