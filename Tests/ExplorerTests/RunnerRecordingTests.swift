import Core
import Foundation
import Sandbox
import Testing
@testable import Explorer

/// A session driven through the `Runner`, as `explorer run` drives one:
/// `{{secret:NAME}}` typed in a line (issue 11, #22) and a recording started
/// mid-session (#21).
@Suite struct RunnerRecordingTests {
    /// Runs `body` with a Runner on a fresh LinkU sandbox, on a thread of its
    /// own: the Runner blocks its caller while the interpreter works.
    static func withRunner<T: Sendable>(environment: [String: String] = [:],
                                        _ body: @escaping @Sendable (Runner) throws -> T) async throws -> T {
        try await withSandboxInterpreter { interpreter, _ in
            try await withCheckedThrowingContinuation { continuation in
                Thread {
                    let runner = Runner(interpreter: interpreter, renderer: Renderer(palette: .plain, envelope: .linku),
                                        console: Console(isInteractive: false), offline: false, target: .sandbox)
                    runner.environment = environment
                    continuation.resume(with: Result { try body(runner) })
                }.start()
            }
        }
    }

    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).transcript").path
    }

    /// As tours show it: the demo password fills the placeholder, and a
    /// recording writes the line as typed. Before, the parser took
    /// `{{secret:password}}` for a variable and said to `set secret:password=…`,
    /// which it then refused.
    @Test func aSecretPlaceholderTypedInAScriptIsFilledInAsOnReplay() async throws {
        let path = Self.temporary("typed-secret")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, loggedIn, missing) = try await Self.withRunner { runner in
            try runner.startRecording(path)
            let status = runner.script(["login alice@example.com {{secret:password}}"], name: "t")
            let loggedIn = runBlocking { [interpreter = runner.interpreter] in await interpreter.session.tokens != nil }
            let missing = runner.script(["get /api/tasks X-Api-Key:{{secret:api_key}}"], name: "t")
            runner.finishRecording()
            return (status, loggedIn, missing)
        }
        #expect(status == .ok && loggedIn)
        // Nobody to ask in a script: the line fails, naming what to set.
        #expect(missing == .runtime)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\n> login alice@example.com {{secret:password}}\nHTTP/1.1 200 OK\n"), "\(text)")
        #expect(!text.contains("alice123") && !text.contains("X-Api-Key"))
        #expect(await Replayer(environment: [:]).run(path).status == .ok)
    }

    /// The environment supplies a placeholder no rule fills.
    @Test func aSecretPlaceholderComesFromTheEnvironment() async throws {
        let status = try await Self.withRunner(environment: ["EXPLORER_SECRET_TITLE": "from the environment"]) { runner in
            runner.script(["login alice@example.com {{secret:password}}", "post /api/tasks title={{secret:title}} price:=5 city=Leeds",
                           "capture title = .title"], name: "t")
        }
        #expect(status == .ok)
    }

    /// A recording started after `set password=…` and after a replay that
    /// bound its own variables: the header keeps what the user set, not what
    /// the replay bound; `EXPLORER_SECRET_PASSWORD` supplies the variable and
    /// leaves the demo login alone; the recording replays green.
    @Test func aRecordingStartedMidSessionReplays() async throws {
        let earlier = Self.temporary("earlier")
        let path = Self.temporary("mid-session")
        defer { [earlier, path].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        try """
        # explorer transcript v1
        profile: linku
        base-url: sandbox

        > set new_password={{secret:new_password}}

        > post /api/tasks title=x price:=1 city=Leeds
        HTTP/1.1 401 Unauthorized
        {{*}}

        """.write(toFile: earlier, atomically: true, encoding: .utf8)
        try await Self.withRunner { runner in
            _ = runner.script(["set city=Leeds", "set password=hunter2", "replay \(earlier)"], name: "t")
            try runner.startRecording(path)
            _ = runner.script(["login alice@example.com alice123", "get /api/tasks city=={{city}} page_size==1",
                               "set password=hunter22"], name: "t")
            runner.finishRecording()
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\nvar: city=Leeds\n") && text.contains("\nvar: password={{secret:password}}\n"), "\(text)")
        #expect(!text.contains("new_password") && !text.contains("hunter2"), "\(text)")
        let run = await Replayer(environment: ["EXPLORER_SECRET_PASSWORD": "hunter2"]).run(path)
        let report = ReplayReport(palette: .plain).detailed(run)
        #expect(run.status == .ok, "\(report.out)\(report.err)")
    }

    /// A run a failure stopped says how many steps did not run (it used to
    /// say "4 passed, 0 failed" of a transcript with more), and fails.
    @Test func aRunThatStopsEarlySaysHowManyStepsDidNotRun() async throws {
        let path = Self.temporary("stops")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        # explorer transcript v1
        profile: linku
        base-url: sandbox

        > set a=1

        > set secret_thing={{secret:nobody_has_it}}

        > set b=2

        > set c=3

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(environment: [:]).run(path)
        #expect(run.status == .runtime)
        #expect(run.notRun == 3)
        let report = ReplayReport(palette: .plain)
        #expect(report.detailed(run).out.hasSuffix("4 steps: 1 passed, 0 failed, 3 did not run\n"))
        #expect(report.progress(run).out.contains("3 steps of 4 did not run"))
    }
}
