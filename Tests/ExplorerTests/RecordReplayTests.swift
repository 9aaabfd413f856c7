import Core
import Foundation
import Sandbox
import Testing
@testable import Explorer

/// Recording a session against one sandbox and replaying it against a
/// fresh one, through the same parser and interpreter.
@Suite struct RecordReplayTests {
    /// Records `lines` against a fresh LinkU sandbox, the way the session controller does.
    static func record(_ lines: [String], comments: [Int: String] = [:]) async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString).transcript").path
        try await withSandboxInterpreter { interpreter, server in
            let recorder = try TranscriptRecorder(path: path, header: .make(profile: "linku", target: .sandbox),
                                                  renderer: Renderer(palette: .plain, envelope: Profile.linku.errorEnvelope),
                                                  baseURL: server.baseURL.absoluteString, secrets: SecretScrubber(),
                                                  variables: { [interpreter] in interpreter.allVariables })
            for (n, line) in lines.enumerated() {
                if let comment = comments[n] { try recorder.comment(comment) }
                do {
                    let command = try interpreter.parser.parse(line)
                    try recorder.record(line: line, command: command, outcome: await interpreter.execute(command), forcedOffline: false)
                } catch let error as CommandError {
                    try recorder.record(line: line, command: nil, outcome: .failure(error.message, .usage), forcedOffline: false)
                }
            }
        }
        return path
    }

    /// The 1-based line on which `text` holds `line`.
    static func number(of line: String, in text: String) -> Int {
        (text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0 == line } ?? -1) + 1
    }

    static let session = [
        "login alice@example.com alice123",
        "get /api/tasks page_size==2 city==Manchester",
        "post /api/tasks title=\"Fix my bike\" price:=25 city=Leeds",
        "capture task_id = .id",
        "get /api/tasks/{{task_id}}",
        "get /api/tasks/9999",
        "login alice@example.com not-her-password",
        "post /__sandbox/expire-access-tokens",
        "whoami",
        "lgoin typo",
        "vars",
    ]

    /// A transcript someone else wrote read `@~/.ssh/id_ed25519` (any file) and sent it where its line went:
    /// a replay reads its repository's files alone, and none hidden.
    @Test func aReplayReadsItsRepositorysFilesAlone() throws {
        let top = FileManager.default.temporaryDirectory.appendingPathComponent("files-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: top) }
        let project = top + "/project"
        for folder in [project + "/.git", project + "/sessions/app", project + "/fixtures"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        for (file, text) in [(project + "/fixtures/a.json", "{}"), (project + "/.env", "KEY=1"), (top + "/secret.txt", "s"),
                             (project + "/sessions/app/b.json", "[]")] {
            try text.write(toFile: file, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createSymbolicLink(atPath: project + "/fixtures/link.txt", withDestinationPath: top + "/secret.txt")
        // The home folder as a repository (a dotfiles one) is none: all of it was readable.
        #expect(Replayer.readableRoot(of: project + "/sessions/app", home: project) == project + "/sessions")
        // In the home folder or above it: no file (`~/evil.transcript` read all of /home); beside it, its own folder alone.
        for folder in [project, top, "/"] {
            #expect(Replayer.readableRoot(of: folder, home: project) == Replayer.readsNoFile, "\(folder)")
        }
        #expect(Replayer.readableRoot(of: top + "/bob", home: project) == top + "/bob", "above it is a folder holding home")
        #expect(throws: RequestBuilder.BuildError.self) {
            try Replayer.readFile(relativeTo: top, confined: true, home: top)("project/fixtures/a.json")
        }
        // Outside a repository: the folder above the transcript's.
        try "x".write(toFile: top + "/project/sessions/c.json", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: project + "/.git")
        #expect(try Replayer.readFile(relativeTo: project + "/sessions/app")("../c.json") == Array("x".utf8))
        #expect(throws: RequestBuilder.BuildError.self) { try Replayer.readFile(relativeTo: project + "/sessions/app")("../../fixtures/a.json") }
        try FileManager.default.createDirectory(atPath: project + "/.git", withIntermediateDirectories: true)
        let read = Replayer.readFile(relativeTo: project + "/sessions/app")
        #expect(try read("../../fixtures/a.json") == Array("{}".utf8))
        #expect(try read("b.json") == Array("[]".utf8))
        #expect(throws: RequestBuilder.BuildError(Replayer.standardInputRefusal)) { try read("-") }
        #expect(try read(project + "/fixtures/a.json") == Array("{}".utf8), "a whole path inside it")
        for (path, why) in [("../../../secret.txt", "outside"), (top + "/secret.txt", "outside"), ("../../fixtures/link.txt", "outside"),
                            ("../../.env", ".env is hidden"), ("../../.git/config", ".git is hidden")] {
            do {
                _ = try read(path)
                Issue.record("\(path) was read")
            } catch {
                #expect("\(error)".contains(why) && "\(error)".hasPrefix("cannot read file '\(path)'"), "\(error)")
            }
        }
    }

    /// A scratch folder holding a repository (`project/.git`) whose `sessions/steal.transcript` is to be written, and
    /// a file `outside` it beside the repository: the folder, and the transcript's path.
    static func stealingProject(_ name: String, outside: String) throws -> (top: String, transcript: String) {
        let top = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: top + "/project/.git", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: top + "/project/sessions", withIntermediateDirectories: true)
        try "OUTSIDE".write(toFile: top + "/" + outside, atomically: true, encoding: .utf8)
        return (top, top + "/project/sessions/steal.transcript")
    }

    /// A pasted curl's `-d @FILE` was read by the line's parser from anywhere (`-d @../../.env`, a link out, a whole
    /// path in the home folder) and sent where the line went: it goes through the replay's reader too.
    @Test func aReplayedCurlReadsItsDataFileAsItemsDo() async throws {
        let (top, path) = try Self.stealingProject("curl-files", outside: "outside.txt")
        defer { try? FileManager.default.removeItem(atPath: top) }
        try "# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n\n> curl -d @../../outside.txt http://127.0.0.1:9/echo\nHTTP/1.1 200 OK\n{{*}}\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer().run(path)
        guard case let .broken(said)? = run.failure else { Issue.record("\(String(describing: run.failure))"); return }
        #expect(said.contains("curl's -d @../../outside.txt: cannot read the file: it is outside \(top)/project"), "\(said)")
        // A spec load of a document outside it, the same.
        try "# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n\n> spec load ../../outside.txt\n| loaded 0 endpoints from ../../outside.txt\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let spec = await Replayer().run(path)
        let differences = spec.steps.flatMap(\.mismatches).map { "\($0)" }.joined() + String(describing: spec.failure)
        #expect(differences.contains("is outside \(top)/project"), "\(differences)")
    }

    /// `--cert ~/.ssl/client.pem` in a transcript someone else wrote was read, and the certificate shown to the
    /// server its line named; `--verify`, a socket's flags and the header's `spec:` read any file too.
    @Test func aReplaysTLSFilesAndHeaderSpecAreItsRepositorysAlone() async throws {
        let (top, path) = try Self.stealingProject("tls-files", outside: "outside.pem")
        defer { try? FileManager.default.removeItem(atPath: top) }
        let header = "# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n"
        for line in ["get https://127.0.0.1:9/x --cert ../../outside.pem", "get https://127.0.0.1:9/x --verify ../../outside.pem",
                     "curl -E ../../outside.pem https://127.0.0.1:9/x", "defaults --cert-key ../../outside.pem",
                     "ws connect wss://127.0.0.1:9/ --cert ../../outside.pem"] {
            try (header + "\n> \(line)\nHTTP/1.1 200 OK\n{{*}}\n").write(toFile: path, atomically: true, encoding: .utf8)
            let run = await Replayer().run(path)
            guard case let .broken(said)? = run.failure else { Issue.record("\(line): \(String(describing: run.failure))"); continue }
            #expect(said.contains("cannot read file '../../outside.pem': it is outside \(top)/project") && said.hasSuffix("nothing was run"),
                    "\(line): \(said)")
        }
        try (header + "spec: ../../outside.pem\n\n> get /x\nHTTP/1.1 200 OK\n{{*}}\n").write(toFile: path, atomically: true, encoding: .utf8)
        guard case let .broken(said)? = await Replayer().run(path).failure else { Issue.record("the header's spec was read"); return }
        #expect(said.contains("spec: cannot read file '../../outside.pem': it is outside \(top)/project"), "\(said)")
        // `~/…` is the home folder's, as `--cert ~/…` is (it was looked for as `sessions/~/…`, inside the project).
        try (header + "spec: ~/outside.yaml\n\n> get /x\nHTTP/1.1 200 OK\n{{*}}\n").write(toFile: path, atomically: true, encoding: .utf8)
        guard case let .broken(home)? = await Replayer().run(path).failure else { Issue.record("the header's ~ spec was read"); return }
        #expect(home.contains("spec: cannot read file '~/outside.yaml': it is outside \(top)/project"), "\(home)")
    }

    @Test func aFreshRecordingReplaysGreenOnAFreshSandbox() async throws {
        let path = try await Self.record(Self.session, comments: [0: "# Log in as alice."])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("alice123") && !text.contains("not-her-password") && !text.contains("eyJ"))
        #expect(text.contains("# Log in as alice.\n> login alice@example.com {{secret:password}}\n"))
        #expect(text.contains("> login alice@example.com {{secret:wrong_password}}\n"))
        #expect(text.contains("> capture task_id = .id\n{{integer}}\n"))
        // The answer after the capture holds the captured id: written as the capture, which a replay binds anew.
        #expect(text.contains("> get /api/tasks/{{task_id}}\nHTTP/1.1 200 OK\nContent-Type: application/json; charset=utf-8\n{\n  \"id\": {{task_id}},\n"), "\(text)")
        #expect(!text.contains("\"poster_id\": {{task_id}}"))
        #expect(text.contains("> whoami\n(access token refreshed; request retried)\nHTTP/1.1 200 OK\n"))
        let run = await Replayer().run(path)
        #expect(run.failure == nil)
        #expect(run.steps.count == Self.session.count)
        #expect(run.failedSteps.map(\.mismatches) == [])
        #expect(run.status == .ok)
    }

    /// An `--offline` step wrote its request line as sent: a secret in the
    /// query (`?access_token=`, Google's `?key=`) went to disk in clear.
    @Test func anOfflineStepHidesItsQuerysSecrets() async throws {
        let path = try await Self.record(["get /api/banners?access_token=S3CRETVALUE&key=G00GLEKEY&page=2 --offline"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("S3CRETVALUE") && !text.contains("G00GLEKEY"), "\(text)")
        #expect(text.contains("| GET /api/banners?access_token=<hidden: 11 characters>&key=<hidden: 9 characters>&page=2 HTTP/1.1"), "\(text)")
    }

    @Test func handWrittenCapturesFeedLaterCommandLines() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("captures-\(UUID().uuidString).transcript").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        # explorer transcript v1
        profile: linku
        base-url: sandbox

        > login alice@example.com {{secret:password}}
        HTTP/1.1 200 OK
        {{*}}
        note: logged in as alice

        > post /api/tasks title=x
        HTTP/1.1 201 Created
        {"id": {{task_id:=integer}}, "title": "x", ...}

        > get /api/tasks/{{task_id}}
        HTTP/1.1 200 OK
        {"id": {{task_id}}, "poster_id": 1, ...}

        # A capture command takes over the name; the bound value does not come back.
        > capture task_id = .poster_id
        {{integer}}

        > get /api/tasks/{{task_id}}
        HTTP/1.1 200 OK
        {"id": 1, ...}

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer().run(path)
        #expect(run.failure == nil)
        #expect(run.failedSteps.map(\.mismatches) == [])
        #expect(run.steps.count == 5)
    }

    @Test func aDifferenceIsReportedWithItsPath() async throws {
        let path = try await Self.record(["login bob@example.com bob12345", "get /api/tasks/4"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"Proofread an essay\"", with: "\"Proofread a poem\"").write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer().run(path)
        #expect(run.status == .mismatch)
        #expect(run.failedSteps.map(\.command) == ["get /api/tasks/4"])
        #expect(run.failedSteps.first?.mismatches == [Mismatch(.body(try JSONPath.parse(".title")), expected: "\"Proofread a poem\"",
                                                               actual: "\"Proofread an essay\"")])
        let report = ReplayReport(palette: .plain).detailed(run).out
        let line = Self.number(of: "> get /api/tasks/4", in: text)
        #expect(report.contains("  FAIL    line \(line)  get /api/tasks/4\n          body .title\n            expected \"Proofread a poem\"\n            got      \"Proofread an essay\"\n"))
        #expect(report.hasSuffix("2 steps: 1 passed, 1 failed\n"))
    }

    /// `test --update` with a stale password rewrote the suite to expect the
    /// refused login and every 401 after it, and said nothing. A refusal
    /// where a success was expected stops the update, which rewrites nothing.
    @Test func updateDoesNotWriteARefusalDownAsExpected() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("refused-\(UUID().uuidString).transcript").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = "# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n\n> get /api/banners\nHTTP/1.1 201 Created\n{{*}}\n\n"
            + "> get /api/users/profile/me\nHTTP/1.1 200 OK\n{{*}}\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(update: true).run(path)
        #expect(run.status == .runtime)
        #expect(run.failure == .runtime("\(path):9: answered 401 where 200 was expected; --update does not write a refusal down as what a step expects "
                                        + "(is a secret wrong or stale?), and rewrote nothing"), "\(String(describing: run.failure))")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text, "nothing rewritten, not even the step before it")
    }

    /// A fixture missing (renamed by a checkout, in another case) made `--update` write "cannot read file
    /// '…' in /home/me" over the step's answer, and the captures after it; exit 0.
    @Test func updateDoesNotWriteALinesOwnFailureDownAsExpected() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fixture-\(UUID().uuidString).transcript").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = "# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n\n> get /api/banners\nHTTP/1.1 201 Created\n{{*}}\n\n"
            + "> post /api/upload/image file@no-such-lamp.png\nHTTP/1.1 201 Created\n{{*}}\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(update: true).run(path)
        #expect(run.status == .runtime)
        guard case let .runtime(message)? = run.failure else { Issue.record("\(String(describing: run.failure))"); return }
        #expect(message.contains(":9: cannot read file '\(FileManager.default.temporaryDirectory.path)/no-such-lamp.png': no such file"), "\(message)")
        #expect(message.hasSuffix("--update does not write a line's own failure down as what it expects, and rewrote nothing"), "\(message)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text, "nothing rewritten, not even the step before it")
    }

    /// `test --update` while a dead upstream behind a proxy answered every
    /// step 502 rewrote the suite to expect the proxy's page, its captures
    /// gone, so it could not pass again. A server error where none was
    /// expected stops the update, which rewrites nothing.
    @Test func updateDoesNotWriteAServerErrorDownAsExpected() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("outage-\(UUID().uuidString).transcript").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = "# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n\n> put /__sandbox/faults error_rate:=1\nHTTP/1.1 200 OK\n{{*}}\n\n"
            + "> get /api/banners\nHTTP/1.1 201 Created\n{{*}}\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(update: true).run(path)
        #expect(run.status == .runtime)
        guard case let .runtime(message)? = run.failure else { Issue.record("\(String(describing: run.failure))"); return }
        #expect(message.hasPrefix("\(path):9: answered 50") && message.hasSuffix(" where 201 was expected; --update does not write a server error down as "
                                                                                  + "what a step expects (is the server, or a proxy in front of it, down?), and rewrote nothing"), "\(message)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }

    /// A rate limit where none was expected stops the update too: written
    /// down, the smoke test expected the 429 from then on.
    @Test func updateDoesNotWriteARateLimitDownAsExpected() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("limited-\(UUID().uuidString).transcript").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let send = "> post /api/secure-auth/send-verification-code email=new@example.com\nHTTP/1.1 200 OK\n{{*}}\n\n"
        let text = "# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n\n" + send + send
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(update: true).run(path)
        #expect(run.status == .runtime)
        #expect(run.failure == .runtime("\(path):9: answered 429 where 200 was expected; --update does not write a rate limit or a timeout down as "
                                        + "what a step expects (run it again later), and rewrote nothing"), "\(String(describing: run.failure))")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }

    @Test func updateRewritesDifferencesAndKeepsCommentsAndPatterns() async throws {
        let path = try await Self.record(["login bob@example.com bob12345", "get /api/tasks/4"], comments: [1: "# Bob's essay."])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let original = try String(contentsOfFile: path, encoding: .utf8)
        try original.replacingOccurrences(of: "\"Proofread an essay\"", with: "\"Proofread a poem\"")
            .replacingOccurrences(of: "\"price\": ", with: "# price next\n  \"price\": ")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(update: true).run(path)
        #expect(run.status == .ok)
        #expect(run.rewritten)
        #expect(run.steps.filter(\.updated).map(\.line) == [Self.number(of: "> get /api/tasks/4", in: original)])
        // Counted as updated, not passed: "2 passed, 0 failed" read as nothing changed.
        #expect(ReplayReport(palette: .plain).ending(run).out.hasPrefix("2 steps: 1 passed, 1 updated, 0 failed\n"))
        #expect(ReplayReport.summary([run, TranscriptRun(path: "x")]) == "1 passed, 1 updated, 0 failed")
        let rewritten = try String(contentsOfFile: path, encoding: .utf8)
        #expect(rewritten.contains("# Bob's essay.\n> get /api/tasks/4\n# price next\nHTTP/1.1 200 OK\n"))
        #expect(rewritten.replacingOccurrences(of: "# price next\n", with: "") == original)
        #expect(await Replayer().run(path).status == .ok)
    }

    /// `--update` kept neither a recording's 0600 (it became 0644) nor a
    /// symlink (replaced by a file, its target left stale).
    @Test func updateKeepsTheFilesModeAndWritesThroughASymlink() async throws {
        let path = try await Self.record(["login bob@example.com bob12345", "get /api/tasks/4"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stale = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\"Proofread an essay\"", with: "\"Proofread a poem\"")
        try stale.write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let link = path + "-link.transcript"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        defer { try? FileManager.default.removeItem(atPath: link) }
        let run = await Replayer(update: true).run(link)
        #expect(run.status == .ok && run.rewritten)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == path, "still a link")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("\"Proofread an essay\""), "the target rewritten")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    }

    /// docs/transcripts.md's example of the format replays green as written.
    @Test func theFormatsExampleInTheDocsReplays() async throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/transcripts.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try #require(text.range(of: "## The format, version 1"))
        let open = try #require(text.range(of: "```\n", range: section.upperBound..<text.endIndex))
        let close = try #require(text.range(of: "```", range: open.upperBound..<text.endIndex))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("docs-\(UUID().uuidString).transcript").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try String(text[open.upperBound..<close.lowerBound]).write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer().run(path)
        #expect(run.status == .ok && run.steps.count == 3, "\(ReplayReport(palette: .plain).detailed(run).out)")
    }

    /// Steps are reported "updated" as they finish; a run that then stops
    /// early writes nothing, and says so (it said nothing, exit 3).
    /// The steps it would have written anew are failures again, shown with
    /// their differences and failed in JUnit: a JUnit case passed, its
    /// difference said nowhere, where a plain `test` run failed it.
    @Test func anUpdateThatStoppedEarlySaysTheFileIsAsItWas() async throws {
        let path = try await Self.record(["login bob@example.com bob12345", "get /api/tasks/4", "get /api/banners"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let original = try String(contentsOfFile: path, encoding: .utf8)
        let edited = original.replacingOccurrences(of: "\"Proofread an essay\"", with: "\"Proofread a poem\"")
            .replacingOccurrences(of: "> get /api/banners", with: "> get http://127.0.0.1:1/api/banners")
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(update: true).run(path)
        #expect(run.status == .runtime && !run.rewritten)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == edited)
        #expect(run.failedSteps.map(\.line).contains(Self.number(of: "> get /api/tasks/4", in: original)))
        #expect(ReplayReport(palette: .plain).ending(run).out.hasSuffix("not rewritten: the run stopped at an error (below), so \(path) is as it was\n"))
        #expect(ReplayReport(palette: .plain).progress(run).out.contains("expected \"Proofread a poem\""))
        #expect(JUnitReport.xml([run]).contains("<failure message=\"body .title: expected"))
    }

    /// A step written anew refers to what an earlier `capture` took, as a
    /// recording does (it wrote the id's number, which failed the next run
    /// against a server of random ids); a step whose line did not run here
    /// (a misspelled variable) is not written down as what it expects.
    @Test func updateWritesCapturedValuesAsReferencesAndNeverALineThatDidNotRun() async throws {
        let path = try await Self.record(["login alice@example.com alice123", "post /api/tasks title=\"Fix my bike\" price:=25 city=Leeds",
                                          "capture task_id = .id", "get /api/tasks/{{task_id}}", "get /api/tasks/{{task_id}}"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        var text = try String(contentsOfFile: path, encoding: .utf8)
        var steps = text.components(separatedBy: "\n> ")
        // The first GET's answer cut to its status line; the second's line misspelled.
        steps[4] = "get /api/tasks/{{task_id}}\nHTTP/1.1 200 OK\n"
        steps[5] = steps[5].replacingOccurrences(of: "{{task_id}}\n", with: "{{task_idd}}\n")
        text = steps.joined(separator: "\n> ")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(update: true).run(path)
        #expect(run.rewritten && run.status == .mismatch, "\(run)")
        #expect(run.steps.map(\.updated) == [false, false, false, true, false])
        // Its cause alone is said: the missing status, headers and body followed from it.
        #expect(run.steps.last?.mismatches.map(\.actual) == ["unknown variable {{task_idd}}; did you mean {{task_id}}?"], "\(run.steps.last!.mismatches)")
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.contains("> get /api/tasks/{{task_id}}\nHTTP/1.1 200 OK\n{\n  \"id\": {{task_id}},\n"), "\(written)")
        #expect(written.components(separatedBy: "\n> ").last == steps[5])

        // A capture step that differs is written as a pattern of its kind (the id's number was written).
        var capture = written.components(separatedBy: "\n> ")
        capture[3] = "capture task_id = .id\n\"a string\"\n"
        try capture.joined(separator: "\n> ").write(toFile: path, atomically: true, encoding: .utf8)
        _ = await Replayer(update: true).run(path)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("> capture task_id = .id\n{{integer}}\n"))
    }

    /// `--update` of a step that differs in one value rewrote what still
    /// matched as a recording writes it: a literal id (or a hand-written
    /// `{{uuid}}`) of a captured value became `{{task_id}}`.
    @Test func updateKeepsWhatStillMatchedAsWritten() async throws {
        let path = try await Self.record(["login alice@example.com alice123", "post /api/tasks title=\"Fix my bike\" price:=25 city=Leeds",
                                          "capture task_id = .id", "get /api/tasks/{{task_id}}"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        var steps = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n> ")
        #expect(steps[4].contains("\"id\": {{task_id}},") && steps[4].contains("\"price\": 25,"), "\(steps[4])")
        // The id as it came, written by hand (the post's answer above has it so).
        let id = try #require(steps[2].firstMatch(of: /"id": ([0-9]+),/)?.1)
        steps[4] = steps[4].replacingOccurrences(of: "\"id\": {{task_id}},", with: "\"id\": \(id),")
        let edited = steps.joined(separator: "\n> ")
        steps[4] = steps[4].replacingOccurrences(of: "\"price\": 25,", with: "\"price\": 26,")
        try steps.joined(separator: "\n> ").write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(update: true).run(path)
        #expect(run.rewritten, "\(run)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == edited)
    }

    /// A CRLF file stays CRLF when --update rewrites it: a one-value change
    /// was a diff of every line.
    @Test func updateKeepsACRLFFileCRLF() async throws {
        let path = try await Self.record(["login bob@example.com bob12345", "get /api/tasks/4"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let original = try String(contentsOfFile: path, encoding: .utf8)
        // With a byte-order mark too: it was dropped.
        try Data(("\u{FEFF}" + original.replacingOccurrences(of: "\"Proofread an essay\"", with: "\"Proofread a poem\"")
            .replacingOccurrences(of: "\n", with: "\r\n")).utf8).write(to: URL(fileURLWithPath: path))
        #expect(await Replayer(update: true).run(path).rewritten)
        let rewritten = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        #expect(rewritten == "\u{FEFF}" + original.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    /// A secret typed as one is hidden wherever the answer repeats it,
    /// however short (values learned from answers need 6 characters).
    @Test func aShortTypedSecretIsHiddenWhereTheAnswerEchoesIt() async throws {
        let path = try await Self.record(["login alice@example.com alice123",
                                          "post /api/tasks title='PIN 9876' city=Leeds price:=3 api_key=9876"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("9876"), "\(text)")
        #expect(text.contains("\"title\": \"PIN {{secret:api_key}}\""))
    }

    /// A secret in a path's query (`?token=`) or a URL's userinfo was written
    /// as a placeholder on its line, and in clear where an answer echoed it.
    @Test func aSecretInAPathsQueryIsHiddenWhereAnAnswerEchoesIt() async throws {
        let path = try await Self.record(["login alice@example.com alice123",
                                          "post /api/tasks?token=litTOK98765 title=litTOK98765 price:=5 city=Leeds",
                                          "post /api/tasks?x=1&api_key=litKEY98765 title=litKEY98765 price:=5 city=Leeds"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("litTOK98765") && !text.contains("litKEY98765"), "\(text)")
        #expect(text.contains("> post /api/tasks?token={{secret:token}} title={{secret:token}} price:=5 city=Leeds\n"), "\(text)")
        #expect(text.contains(#""title": "{{secret:token}}""#) && text.contains(#""title": "{{secret:api_key}}""#), "\(text)")
        #expect(Redactor.secretsInTarget("http://me:pw1@h/a?x=1&token=t&key={{k}}#f").map { "\($0.name)=\($0.value)" } == ["password=pw1", "token=t"])
    }

    /// A report (and JUnit) named a hand-written step with the secret typed
    /// in it, and quoted a body line's or an error's credentials as the
    /// server sent them, where the screen hid them.
    @Test func aReportHidesTheSecretsOfAStepsLineAndOfWhatCame() {
        #expect(StepRun.shown("get /echo X-Api-Key:litKEY12345 q==1") == "get /echo X-Api-Key:{{secret:x_api_key}} q==1")
        #expect(StepRun.shown("get /echo?token=litTOK12345") == "get /echo?token={{secret:token}}")
        #expect(StepRun.shown("login alice@example.com {{secret:password}}") == "login alice@example.com {{secret:password}}")
        #expect(StepRun.shown("login alice@example.com alice123") == "login alice@example.com {{secret:password}}")
        #expect(StepRun.shown("get /api/tasks page==2") == "get /api/tasks page==2")
        var matcher = TranscriptMatcher()
        let found = matcher.match(Expectation(status: 200, body: .text([.literal("nope")]), errors: [.literal("x")]),
                                  Observation(status: 200, body: .text([#"data: {"access_token":"litSSE12345"}"#]),
                                              errors: ["401: see https://x/cb?access_token=litURL12345"]))
        #expect(found.map(\.actual) == [#"data: {"access_token":"<hidden: 11 characters>"}"#, "401: see https://x/cb?access_token=<hidden: 11 characters>"])
    }

    /// A 200 KB line that differed was printed whole (and twice in JUnit):
    /// cut as a JSON value is, around where it differs.
    @Test func aLongLineThatDiffersIsCut() {
        var matcher = TranscriptMatcher()
        let long = String(repeating: "z", count: 200_000)
        let found = matcher.match(Expectation(status: 200, body: .text([.literal(long)])), Observation(status: 200, body: .text([long + "!"])))
        #expect(found.count == 1 && found[0].expected.count < 100 && found[0].actual.count < 100 && found[0].actual.hasSuffix("z!"), "\(found)")
    }

    /// A nested field's secret after a login (`user[password]=X`) was written
    /// `{{secret:password}}`, the login's name, so its replay sent the
    /// login's password; it is a second password, as a form's is.
    @Test func aNestedFieldsSecretIsNamedApartFromTheLogins() async throws {
        let path = try await Self.record(["login alice@example.com alice123",
                                          "post /api/tasks title=x price:=5 city=Leeds extra[password]=nestedpw12345 more[api_key]:=12345678"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("> post /api/tasks title=x price:=5 city=Leeds extra[password]={{secret:password_2}} more[api_key]:={{secret:api_key}}\n"), "\(text)")
        #expect(!text.contains("nestedpw12345") && !text.contains("12345678"))
    }

    /// A transcript that cannot be read or parsed is its error alone: a
    /// count of "0 steps: 0 passed, 0 failed" came first, as if it had run.
    @Test func aTranscriptNotReadIsItsErrorAlone() async throws {
        let missing = NSTemporaryDirectory() + "explorer-missing-\(UUID().uuidString).transcript"
        let absent = ReplayReport(palette: .plain).detailed(await Replayer().run(missing))
        #expect(absent.out == "\(missing)\n" && absent.err == "error: \(missing): no such file\n", "\(absent)")
        let broken = NSTemporaryDirectory() + "explorer-broken-\(UUID().uuidString).transcript"
        defer { try? FileManager.default.removeItem(atPath: broken) }
        try "\(Transcript.versionLine)\nprofile: generic\nbase-url: sandbox\n\n> get /x\nHTTP/1.1 2x0 OK\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let parsed = ReplayReport(palette: .plain).detailed(await Replayer().run(broken))
        #expect(parsed.out == "\(broken)\n" && parsed.err.hasPrefix("error: \(broken):6:10: expected a status line"), "\(parsed)")
    }

    /// A transcript named with escape codes set the terminal's title and
    /// cleared its screen through the report's PASS or BROKEN line.
    @Test func aFileNamesEscapeCodesAreShownEscaped() async throws {
        let path = NSTemporaryDirectory() + "explorer-\u{1B}]0;pwned\u{07}\u{1B}[2J-\(UUID().uuidString).transcript"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "\(Transcript.versionLine)\nprofile: generic\nbase-url: sandbox\n\n> get /x\nHTTP/1.1 2x0 OK\n".write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer().run(path)
        let report = ReplayReport(palette: .plain)
        for text in [report.progress(run).out, report.detailed(run).err, report.heading(path)] {
            #expect(!text.contains("\u{1B}") && !text.contains("\u{07}") && text.contains("\\u001b]0;pwned\\u0007"), "\(text)")
        }
    }

    /// A symlink loop was "no such file": said as what it is.
    @Test func aSymlinkLoopIsSaidAsOne() throws {
        let folder = NSTemporaryDirectory() + "explorer-loop-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/a.transcript", withDestinationPath: folder + "/b.transcript")
        try FileManager.default.createSymbolicLink(atPath: folder + "/b.transcript", withDestinationPath: folder + "/a.transcript")
        #expect(TranscriptSource.read(folder + "/a.transcript") == .failure(.broken("\(folder)/a.transcript: a symbolic link that leads back to itself (a loop)")))
    }

    /// A name that is not UTF-8 (Latin-1's `café`), found by a folder's
    /// walk, was "no such file": said as what it is.
    @Test func aNameThatIsNotUTF8IsSaidAsOne() throws {
        let folder = NSTemporaryDirectory() + "explorer-latin1-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let name = Array((folder + "/caf").utf8) + [0xE9] + Array(".transcript".utf8) + [0]
        let descriptor = name.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) } }
        try #require(descriptor >= 0)
        close(descriptor)
        let found = TranscriptSource.files(in: [folder]).files
        try #require(found.count == 1)
        #expect(TranscriptSource.read(found[0]) == .failure(.broken("\(found[0]): its name is not UTF-8, which explorer reads names as: rename the file")))
    }

    /// A torn last step (a recording cut mid-line) runs the steps before it
    /// and fails the run; `--update` keeps its lines as comments, so nothing
    /// is lost. A last step that reads whole without its final newline (an
    /// editor's choice) is not torn: it runs.
    @Test func aTornFileRunsTheStepsBeforeTheCutAndFails() async throws {
        let path = try await Self.record(["login alice@example.com alice123", "get /api/tasks/1"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let cut = text.range(of: "\"title\": ")!.upperBound
        try String(text[..<cut]).write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer().run(path)
        let line = Self.number(of: "> get /api/tasks/1", in: text)
        #expect(run.status == .parse)
        #expect(run.steps.count == 1)
        #expect(run.torn?.line == line)
        #expect(ReplayReport(palette: .plain).detailed(run).err == "error: \(path):\(line): the last step is torn, the file ends in the middle "
            + "of a line; it was not replayed (fix it, or --update keeps it as comments)\n")
        // A torn file whose run could not go on (its server down) says the tear on standard output too.
        var down = TranscriptRun(path: path)
        down.failure = .runtime("\(path): could not connect")
        down.torn = run.torn
        #expect(ReplayReport(palette: .plain).progress(down).out.hasSuffix("        \(path):\(line): the file ends in the middle of a line\n"))
        // `explorer test` gives the line and reason on standard output as well, as for every other BROKEN file.
        #expect(ReplayReport(palette: .plain).progress(run).out.hasSuffix("\n        \(path):\(line): the file ends in the middle of a line\n"),
                "\(ReplayReport(palette: .plain).progress(run).out)")
        // Torn and differing is exit 2, as the docs order them (it was 4, FAIL).
        try String(text[..<cut]).replacingOccurrences(of: "\"token_type\": \"bearer\"", with: "\"token_type\": \"other\"")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let both = await Replayer().run(path)
        #expect(both.status == .parse && both.failedSteps.count == 1)
        #expect(ReplayReport(palette: .plain).progress(both).out.hasPrefix("BROKEN  \(path)  1 of 1 step differ, the last is torn"),
                "\(ReplayReport(palette: .plain).progress(both).out)")
        #expect(ReplayReport(palette: .plain).progress(both).out.hasSuffix("\(path):\(line): the file ends in the middle of a line\n"))
        try String(text[..<cut]).write(toFile: path, atomically: true, encoding: .utf8)

        let updated = await Replayer(update: true).run(path)
        #expect(updated.status == .ok && updated.rewritten)
        let kept = try String(contentsOfFile: path, encoding: .utf8)
        #expect(kept.contains("# > get /api/tasks/1\n# HTTP/1.1 200 OK\n"), "\(kept)")
        #expect(kept.hasSuffix("#   \"title\": \n"))
        #expect(await Replayer().run(path).status == .ok)

        try String(text.dropLast()).write(toFile: path, atomically: true, encoding: .utf8)
        let whole = await Replayer().run(path)
        #expect(whole.torn == nil && whole.steps.count == 2 && whole.status == .ok, "no final newline, and nothing missing")
        try text.dropLast().replacingOccurrences(of: "\"Pick up a parcel\"", with: "\"Pick up a letter\"").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(await Replayer().run(path).status == .mismatch, "so a wrong last step fails")
    }

    /// A recording cut right after its last command line's newline: a
    /// request with nothing under it was sent (a `delete` whose answer was
    /// never written, deleted again). It is torn now, unless `--update` is
    /// asked to write its answer; a last `set` with nothing under it (an
    /// editor trimmed the blank line) still runs.
    @Test func aFileCutRightAfterItsLastRequestLineDoesNotSendIt() async throws {
        let path = try await Self.record(["login alice@example.com alice123", "delete /api/tasks/1"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let command = text.range(of: "> delete /api/tasks/1\n")!
        try String(text[..<command.upperBound]).write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer().run(path)
        #expect(run.status == .parse && run.steps.count == 1, "\(run)")
        #expect(run.torn?.reason == "the file ends right after this command line, before its answer")

        let updated = await Replayer(update: true).run(path)
        #expect(updated.status == .ok && updated.rewritten && updated.steps.count == 2)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.contains("> delete /api/tasks/1\nHTTP/1.1 404 Not Found\n") && written.hasSuffix("\n\n"),
                "--update wrote the answer under it: \(written.suffix(200))")

        // A line whose variables or secrets are not filled in yet is judged as written (it did not parse, and was sent).
        for line in ["delete /api/tasks/{{task_id}}", "login alice@example.com {{secret:password}}", "/api/tasks", "ws send {\"a\":1}", "whoami"] {
            let cut = String(text[..<command.lowerBound]) + "> \(line)\n"
            #expect(TranscriptSource.tearingUnanswered(try TranscriptParser.parse(cut), text: cut).torn != nil, "\(line)")
        }
        for line in ["set a=1", "capture x = .id", "ws recv", "show"] { #expect(!Command.sends(line: line), "\(line)") }
        try (text[..<command.lowerBound] + "> set a=1\n").write(toFile: path, atomically: true, encoding: .utf8)
        let setLast = await Replayer().run(path)
        #expect(setLast.torn == nil && setLast.steps.count == 2 && setLast.status == .ok)
    }

    /// A command line mistyped in the file (`captur x = .id`) was a FAIL,
    /// exit 4, as a regression of the server is: CI could not tell them
    /// apart. A line that does not parse where the file expects no error is
    /// BROKEN; a recorded typo with its error line still passes.
    @Test func aLineThatDoesNotParseWhereNoErrorIsExpectedIsBroken() async throws {
        let header = "# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n\n"
        let typo = Scratch.file("typo", extension: "transcript").path
        try (header + "> get /api/tasks/categories\nHTTP/1.1 200 OK\n\n> captur x = .[0]\n\n> show\n").write(toFile: typo, atomically: true, encoding: .utf8)
        let broken = await Replayer().run(typo)
        #expect(broken.failure == .broken("\(typo):8: unknown command 'captur'; did you mean 'capture'? (type help for the list); nothing was run"))
        #expect(broken.status == .parse && broken.steps.isEmpty && broken.notRun == 3)
        let recorded = Scratch.file("recorded-typo", extension: "transcript").path
        try (header + "> captur x = .[0]\nerror: unknown command 'captur'; did you mean 'capture'? (type help for the list)\n")
            .write(toFile: recorded, atomically: true, encoding: .utf8)
        #expect(await Replayer().run(recorded).status == .ok)
        // A variable an earlier capture did not fill stays a difference: the server changed, not the file.
        let unfilled = Scratch.file("unfilled", extension: "transcript").path
        try (header + "> get /api/tasks/{{id}}\nHTTP/1.1 200 OK\n").write(toFile: unfilled, atomically: true, encoding: .utf8)
        #expect(await Replayer().run(unfilled).status == .mismatch)
    }

    /// A line that cannot parse was found when its step came: a typo at
    /// line 11 after the steps before it had changed the server. Every line
    /// is parsed before the first step runs; a variable's word is left to
    /// its step (only its value settles it), and so is a line that expects
    /// an error.
    @Test func aLineThatCannotParseStopsTheRunBeforeItsFirstStep() async throws {
        let header = "# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n\n"
        let path = Scratch.file("late-typo", extension: "transcript").path
        try (header + "> post /api/tasks title=x price:=5 city=Leeds\nHTTP/1.1 201 Created\n\n"
             + "> set n=5\n\n> get /api/tasks/{{n}} X-N:{{n}}\nHTTP/1.1 401 Unauthorized\n\n"
             + "> post /api/tasks/{{n}} price:=[1,\nHTTP/1.1 201 Created\n").write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer().run(path)
        #expect(run.failure == .broken("\(path):13: 'price:=[1,': invalid JSON after ':=' (expected a JSON value, found end of input "
                                       + "at character 4 of the value); nothing was run"))
        #expect(run.steps.isEmpty && run.notRun == 4 && run.status == .parse)
        // A placeholder written wrong is the line's mistake whatever the variables hold.
        let spaced = Scratch.file("spaced-placeholder", extension: "transcript").path
        try (header + "> post /api/tasks title=x\nHTTP/1.1 401 Unauthorized\n\n> get /api/tasks/{{ id }}\nHTTP/1.1 200 OK\n")
            .write(toFile: spaced, atomically: true, encoding: .utf8)
        let stopped = await Replayer().run(spaced)
        #expect(stopped.failure == .broken("\(spaced):8: unclosed '{{' in '/api/tasks/{{' (a variable is written {{name}}, without spaces); nothing was run"))
        // Words with variables are their steps' to judge: a JSON value or a path made of one parses here
        // whatever it holds, and a line that expects an error is a test of that error.
        let fine = Scratch.file("variables-parse-later", extension: "transcript").path
        try (header + "> set list=[1,2]\n\n> post /api/tasks items:={{list}}\nHTTP/1.1 401 Unauthorized\n\n"
             + "> get /api/tasks bad\nerror: 'bad' is not a request item: use name=value, name:=json, Header:value, name==query or name@file\n").write(toFile: fine, atomically: true, encoding: .utf8)
        let ran = await Replayer().run(fine)
        #expect(ran.steps.count == 3, "\(String(describing: ran.failure))")
    }

    @Test func brokenTranscriptsAreOneLineEach() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String, _ contents: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try contents.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let syntax = try file("syntax.transcript", "# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n> get /x\n{\"a\": nope}\n\n> get /y\n")
        let profile = try file("profile.transcript", "# explorer transcript v1\nprofile: myspace\nbase-url: sandbox\n")
        let binary = directory.appendingPathComponent("binary.transcript").path
        #expect(FileManager.default.createFile(atPath: binary, contents: Data([0x23, 0x00, 0xFF])))
        let missing = directory.appendingPathComponent("missing.transcript").path
        // A header alone, or every step commented out: it passed, "0 steps", a test of nothing.
        let empty = try file("empty.transcript", "# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n\n# > get /api/tasks\n# HTTP/1.1 200 OK\n")
        let runs = await [Replayer().run(syntax), Replayer().run(profile), Replayer().run(binary), Replayer().run(missing), Replayer().run(empty)]
        #expect(runs.map(\.failure) == [
            .broken("\(syntax):5:7: 'nope' is not a JSON value"),
            .broken("\(profile):2:10: unknown profile 'myspace': not built in (levelup, linku, nova, posture, generic), and no myspace.yaml in a .explorer/profiles/ beside the transcript or above it, in the working directory's or in $XDG_CONFIG_HOME/explorer/profiles/"),
            .broken("\(binary):1:2: a NUL byte: a binary file, not a transcript"),
            .broken("\(missing): no such file"),
            .broken("\(empty): no steps: a transcript tests its '> ' command lines, and this one has none"),
        ])
        #expect(runs.allSatisfy { $0.status == .parse })
        #expect(combinedStatus(runs + [TranscriptRun(path: "x", failure: .runtime("down"))]) == .parse)
        #expect(ReplayReport.summary(runs) == "0 passed, 0 failed, 5 broken")
        #expect(ReplayReport.summary(runs + [TranscriptRun(path: "x", failure: .runtime("down")), TranscriptRun(path: "y")]) == "1 passed, 0 failed, 1 could not run, 5 broken")
        try FileManager.default.removeItem(atPath: empty)
        #expect(TranscriptSource.files(in: [directory.path]).files == [binary, profile, syntax])
        // A folder named through a symlink (`ln -s …/sessions sessions`): no transcripts were found in it.
        let link = try Scratch.folder("link").appendingPathComponent("sessions").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.path)
        #expect(TranscriptSource.files(in: [link]).files == ["binary", "profile", "syntax"].map { "\(link)/\($0).transcript" })
        // A file named twice, or by a folder too, runs once (it ran four times; --update --jobs rewrote it at once).
        let dotted = (directory.path as NSString).appendingPathComponent("./profile.transcript")
        #expect(TranscriptSource.files(in: [profile, dotted, directory.path, link]).files == [profile, binary, syntax])
    }

    /// `login:` in a generic transcript's header asked for a password that
    /// could not help, then failed as a runtime error (exit 3): a mistake
    /// in the file, said as one before anything runs.
    @Test func aHeadersLoginUnderAProfileWithoutOneIsBroken() async throws {
        let path = Scratch.file("generic-login", extension: "transcript").path
        try "# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\nlogin: ann@example.com\n\n> get /x\nHTTP/1.1 200 OK\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(environment: [:]).run(path)
        #expect(run.failure == .broken("\(path):4: 'login: ann@example.com' needs a profile that logs in, and generic's does not "
                                       + "(drop the line, or name a profile file with an auth: section); nothing was run"))
        #expect(run.status == .parse && run.steps.isEmpty)
    }

    /// A recording begun logged in whose steps log in themselves after a
    /// `header` the backend wants (Supabase's `apikey`): the replay logged
    /// in first, without it, and failed whole. The steps' own login does.
    @Test func aHeadersLoginIsLeftToStepsThatLogInFirst() async throws {
        let path = Scratch.file("login-first", extension: "transcript").path
        try ("# explorer transcript v1\nprofile: linku\nbase-url: sandbox\nlogin: nobody@example.com\n\n> header X-Client:ios\n| X-Client: ios\n| (sent only to {{*}})\n\n"
             + "> login alice@example.com {{secret:password}}\nHTTP/1.1 200 OK\n{{*}}\nnote: logged in as alice\n\n> get /api/tasks/1\nHTTP/1.1 200 OK\n{{*}}\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        // No password for nobody@example.com: done first, the header's login could not be.
        let run = await Replayer(environment: [:]).run(path)
        let report = ReplayReport(palette: .plain).detailed(run)
        #expect(run.status == .ok && run.steps.count == 3, "\(report.out)\(report.err)")
    }

    /// A symlinked folder in a suite (`sessions/common -> ../common`) was
    /// left out without a word: its failing transcript never ran in CI.
    @Test func aSymlinkedFolderInASuiteIsSearchedOnce() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("linked-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let suite = root.appendingPathComponent("sessions"), common = root.appendingPathComponent("common")
        try FileManager.default.createDirectory(at: suite, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: common, withIntermediateDirectories: true)
        for file in [suite.appendingPathComponent("a.transcript"), common.appendingPathComponent("b.transcript")] {
            try "# explorer transcript v1\n".write(to: file, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createSymbolicLink(atPath: suite.appendingPathComponent("common").path, withDestinationPath: "../common")
        try FileManager.default.createSymbolicLink(atPath: common.appendingPathComponent("loop").path, withDestinationPath: "..")
        let found = TranscriptSource.files(in: [suite.path]).files.map { String($0.dropFirst(suite.path.count + 1)) }
        #expect(found == ["a.transcript", "common/b.transcript"], "\(found)")
    }

    /// A socket bound to an ephemeral loopback port that does not listen, and the port.
    static func boundNotListening() throws -> (Int32, Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard descriptor >= 0, bound else { throw CocoaError(.fileNoSuchFile) }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    @Test func aServerThatDoesNotAnswerIsARuntimeFailure() async throws {
        let path = try await Self.record(["login alice@example.com alice123", "get /api/tasks/1"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        // A port bound and not listening: refused, and no other test's server can take it meanwhile
        // (a stopped sandbox's port was, now and then, and the replay passed against it).
        let (refusing, port) = try Self.boundNotListening()
        defer { close(refusing) }
        let url = URL(string: "http://127.0.0.1:\(port)")!
        let run = await Replayer(baseURL: url).run(path)
        #expect(run.status == .runtime)
        #expect(run.failure == .runtime("\(path):5: cannot connect to 127.0.0.1:\(url.port!): connection refused (is the server running?)"))
        #expect(run.steps.count == 1)
        // `explorer test` names the step and why, not "got no HTTP response" under each of its parts.
        let said = ReplayReport(palette: .plain).progress(run).out
        #expect(said == "ERROR   \(path)\n        line 5: login alice@example.com {{secret:password}}\n        \(path):5: cannot connect to 127.0.0.1:\(url.port!): "
                + "connection refused (is the server running?)\n        1 step of 2 did not run\n", "\(said)")
        // `explorer replay` as well: the step as the error it was, not FAIL over five blocks of "no HTTP response".
        let detailed = ReplayReport(palette: .plain).detailed(run).out
        #expect(detailed == "\(path)\n  ERROR   line 5  login alice@example.com {{secret:password}}\n          error line 1\n            expected no error\n"
                + "            got      cannot connect to 127.0.0.1:\(url.port!): connection refused (is the server running?)\n"
                + "2 steps: 0 passed, 0 failed, 1 got no answer, 1 did not run\n", "\(detailed)")
    }

    /// `--base-url http://host:port/` (CI variables often end in `/`) made
    /// `{{base_url}}` end in a slash the origin a credential goes to does
    /// not: every replayed `auth` line differed.
    @Test func aBaseURLTypedWithATrailingSlashReplaysAsWithout() async throws {
        let path = try await Self.record(["auth bearer s3cret-token-value", "get /api/banners", "get {{base_url}}/api/banners"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try await SandboxServer.start()
        let run = await Replayer(baseURL: URL(string: server.baseURL.absoluteString + "/")!,
                                 environment: ["EXPLORER_SECRET_TOKEN": "s3cret-token-value"]).run(path)
        await server.stop()
        let report = ReplayReport(palette: .plain).detailed(run)
        #expect(run.status == .ok, "\(report.out)\(report.err)")
        #expect(RequestBuilder(baseURL: URL(string: "http://h:1/api//")!).baseURL.absoluteString == "http://h:1/api")
        #expect(RequestBuilder(baseURL: URL(string: "http://h:1/?v=2")!).baseURL.absoluteString == "http://h:1?v=2")
    }

    /// A test of a bad credential (a bogus refresh token, answered 401) was
    /// written `{{secret:refresh_token}}`, which a replay fills with its live
    /// refresh token: the refresh succeeded and the step failed. A value the
    /// server refused with a 401, not seen before, is `wrong_NAME`.
    @Test func aCredentialTheServerRefusedReplaysAsAWrongOne() async throws {
        let path = try await Self.record(["login alice@example.com alice123",
                                          "post /api/secure-auth/refresh refresh_token=bogus-refresh-value-123",
                                          "post /api/secure-auth/login email=alice@example.com password=not-hers-456",
                                          "get /api/users/profile/me"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // The refresh endpoint's 401 is its answer: the session does not refresh its own tokens and send the bogus one again.
        #expect(text.contains("> post /api/secure-auth/refresh refresh_token={{secret:wrong_refresh_token}}\nHTTP/1.1 401"), "\(text)")
        #expect(text.contains("> post /api/secure-auth/login email=alice@example.com password={{secret:wrong_password}}\nHTTP/1.1 401"), "\(text)")
        let run = await Replayer().run(path)
        let report = ReplayReport(palette: .plain).detailed(run)
        #expect(run.status == .ok, "\(report.out)\(report.err)\n\(text)")
    }

    /// A pasted `curl http://127.0.0.1:8000/items` was written with its URL:
    /// a replay with another `--base-url` went to the recording's server.
    @Test func aFullURLToTheSessionsServerIsWrittenAsBaseURL() {
        let base = "http://127.0.0.1:8000"
        #expect(TranscriptRecorder.templating(baseURL: base, in: "curl -d 'a=1' http://127.0.0.1:8000/items") == "curl -d 'a=1' {{base_url}}/items")
        #expect(TranscriptRecorder.templating(baseURL: base + "/", in: "get 'http://127.0.0.1:8000?x=1' http://127.0.0.1:8000")
                == "get '{{base_url}}?x=1' {{base_url}}")
        #expect(TranscriptRecorder.templating(baseURL: base, in: "get http://127.0.0.1:80001/x") == "get http://127.0.0.1:80001/x", "another port")
        #expect(TranscriptRecorder.templating(baseURL: base, in: "get https://other.example/x") == "get https://other.example/x")
    }

    /// A file item is read beside the transcript on replay, but was written
    /// as typed, relative to the working directory: `record rec/s.transcript`
    /// then `image@rec/photo.png` replayed as `rec/rec/photo.png`, and failed.
    @Test func aFileItemIsRecordedRelativeToTheTranscript() async throws {
        let folder = try Scratch.folder("files")
        let photo = folder.appendingPathComponent("photo.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: photo)
        let typed = FilePaths.relative(photo.path, from: FileManager.default.currentDirectoryPath)
        #expect(!typed.hasPrefix("/"))
        let path = try await Self.record(["login alice@example.com alice123", "post /api/upload/image image@\(typed)"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let written = FilePaths.relative(photo.path, from: (path as NSString).deletingLastPathComponent)
        #expect(text.contains("> post /api/upload/image image@\(written)\n"), "\(text)")
        let run = await Replayer().run(path)
        let report = ReplayReport(palette: .plain).detailed(run)
        #expect(run.status == .ok, "\(report.out)\(report.err)")
    }

    /// A stream stopped with Ctrl-C was written as a step whose body was our
    /// own "stopped: 1 line streamed above", without a status: its replay
    /// waited 30 s for it, failed, and the steps after it did not run.
    @Test func aStreamStoppedWithCtrlCIsLeftOutOfARecording() throws {
        let path = Scratch.file("stopped", extension: "transcript").path
        let recorder = try TranscriptRecorder(path: path, header: .make(profile: "generic", target: .url(nowhere.absoluteString)),
                                              renderer: Renderer(palette: .plain, envelope: .generic), baseURL: nowhere.absoluteString,
                                              secrets: SecretScrubber())
        let command = try CommandParser().parse("get /events")
        try recorder.record(line: "get /events", command: command, outcome: .message(Interpreter.streamStopped + "1 line streamed above"),
                            forcedOffline: false)
        try recorder.record(line: "get /events", command: command, outcome: .failure(Interpreter.cancelled, .runtime), forcedOffline: false)
        #expect(recorder.steps == 0)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("> get /events"))
        // Said where it would have been: a stream sampled with Ctrl-C left no trace.
        #expect(text.components(separatedBy: "# (get /events was stopped with Ctrl-C: not recorded, since a replay could not stop it there)\n").count == 3, "\(text)")
        #expect(try TranscriptParser.parse(text).steps.isEmpty)
    }

    /// A header named like a login's credential (`X-Session`, `X-Jwt`) was
    /// hidden on the line, yet an answer echoing it was recorded in clear.
    @Test func anEchoOfACredentialHeaderIsRecordedAsItsPlaceholder() throws {
        let path = Scratch.file("echo-header", extension: "transcript").path
        let recorder = try TranscriptRecorder(path: path, header: .make(profile: "generic", target: .url(nowhere.absoluteString)),
                                              renderer: Renderer(palette: .plain, envelope: .generic), baseURL: nowhere.absoluteString,
                                              secrets: SecretScrubber())
        let line = "get /echo X-Session:SESSVALUE42 X-Jwt:JWTVAL44"
        let command = try CommandParser().parse(line)
        let request = PreparedRequest(method: "GET", url: nowhere.appendingPathComponent("echo"))
        let answer = ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                                      body: Array(#"{"got": ["SESSVALUE42", "JWTVAL44"]}"#.utf8))
        try recorder.record(line: line, command: command, outcome: .exchange(Exchange(request: request, response: answer, duration: .zero), note: nil),
                            forcedOffline: false)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("SESSVALUE42") && !text.contains("JWTVAL44"), "\(text)")
        #expect(text.contains("{{secret:x_session}}") && text.contains("{{secret:x_jwt}}"), "\(text)")
    }

    /// A secret read from a file (`password=@pw.txt`, `Authorization:@token.txt`,
    /// a body `@login.json`) left the line clean, yet an answer echoing it was
    /// recorded in clear, where the screen hid it.
    @Test func anEchoOfASecretReadFromAFileIsRecordedAsItsPlaceholder() throws {
        let folder = try Scratch.folder("secret-files")
        try "filepass77\n".write(to: folder.appendingPathComponent("pw.txt"), atomically: true, encoding: .utf8)
        try "filetoken88\n".write(to: folder.appendingPathComponent("token.txt"), atomically: true, encoding: .utf8)
        try #"{"user": "a", "client_secret": "filesecret99"}"#.write(to: folder.appendingPathComponent("login.json"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("files.transcript").path
        let recorder = try TranscriptRecorder(path: path, header: .make(profile: "generic", target: .url(nowhere.absoluteString)),
                                              renderer: Renderer(palette: .plain, envelope: .generic), baseURL: nowhere.absoluteString,
                                              secrets: SecretScrubber(), readFile: Replayer.readFile(relativeTo: folder.path))
        let echoes = ["post /echo password=@pw.txt X-Api-Key:@token.txt": #"{"got": ["filepass77\n", "filepass77", "filetoken88"]}"#,
                      "post /echo @login.json": #"{"got": "user=a&client_secret=filesecret99"}"#]
        for (line, echo) in echoes.sorted(by: { $0.key < $1.key }) {
            let command = try CommandParser().parse(line)
            let request = PreparedRequest(method: "POST", url: nowhere.appendingPathComponent("echo"))
            let answer = ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                                          body: Array(echo.utf8))
            try recorder.record(line: line, command: command, outcome: .exchange(Exchange(request: request, response: answer, duration: .zero), note: nil),
                                forcedOffline: false)
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("filepass77") && !text.contains("filetoken88") && !text.contains("filesecret99"), "\(text)")
        #expect(text.contains("{{secret:password}}") && text.contains("{{secret:x_api_key}}") && text.contains("{{secret:client_secret}}"), "\(text)")
    }

    /// Two sessions started at once with `--record` on one new file both
    /// found it empty and wrote two headers and their steps into it. A
    /// recorder holds a lock on its file; another finds it taken.
    @Test func aFileAnotherSessionRecordsIntoIsRefused() throws {
        let path = Scratch.file("locked", extension: "transcript").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let other = open(path, O_RDWR)
        defer { close(other) }
        #expect(flock(other, LOCK_EX | LOCK_NB) == 0)
        let header = TranscriptHeader.make(profile: "generic", target: .url("http://127.0.0.1:9"))
        func start() throws(TranscriptRecorder.Failure) -> TranscriptRecorder {
            try TranscriptRecorder(path: path, header: header, renderer: Renderer(palette: .plain, envelope: .generic),
                                   baseURL: "http://127.0.0.1:9", secrets: SecretScrubber())
        }
        #expect(throws: TranscriptRecorder.Failure(description: "\(path) is being recorded by another explorer; record into a new file")) { try start() }
        #expect(try String(contentsOfFile: path, encoding: .utf8).isEmpty, "nothing written")
        flock(other, LOCK_UN)
        _ = try start()
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("# explorer transcript v1\n"))
    }

    /// A recording begun logged in (a kept token) says `login: alice@…` in
    /// its header, replayed with `{{secret:password}}`; `-a bob:PW` typed
    /// after was written `bob:{{secret:password}}`, and its replay sent
    /// alice's password as bob's.
    /// A recorder of a session against a closed port whose header says it began logged in as alice.
    private static func recorderBegunAsAlice(_ name: String) throws -> (recorder: TranscriptRecorder, path: String, nowhere: URL) {
        let nowhere = URL(string: "http://127.0.0.1:9")!
        let path = Scratch.file(name, extension: "transcript").path
        let recorder = try TranscriptRecorder(path: path, header: .make(profile: "generic", target: .url(nowhere.absoluteString), login: "alice@example.com"),
                                              renderer: Renderer(palette: .plain, envelope: .generic), baseURL: nowhere.absoluteString,
                                              secrets: SecretScrubber())
        return (recorder, path, nowhere)
    }

    @Test func aPasswordTypedAfterAHeadersLoginHasANameOfItsOwn() throws {
        let (recorder, path, nowhere) = try Self.recorderBegunAsAlice("header-login")
        let line = "get /echo -a bob:hunter2pass"
        let command = try CommandParser().parse(line)
        let request = PreparedRequest(method: "GET", url: nowhere.appendingPathComponent("echo"),
                                      headers: [HTTPHeader(name: "Authorization", value: BasicCredentials(user: "bob", password: "hunter2pass").authorization)])
        let answer = ReceivedResponse(status: 200, reason: "OK", headers: [], body: [])
        try recorder.record(line: line, command: command, outcome: .exchange(Exchange(request: request, response: answer, duration: .zero), note: nil),
                            forcedOffline: false)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("> get /echo -a bob:{{secret:password_2}}\n"), "\(text)")
    }

    /// Two GraphQL logins with two passwords, in a `:=` JSON item or in the document itself, were written under one
    /// placeholder: the replay sent the first password twice, and the second step's refusal did not come.
    @Test func twoPasswordsInJSONOrAGraphQLDocumentAreTwoSecrets() throws {
        let (recorder, path, nowhere) = try Self.recorderBegunAsAlice("graphql-logins")
        let lines = [#"post /graphql query=q variables:='{"email":"a@x.io","password":"hunter2pw"}'"#,
                     #"post /graphql query=q variables:='{"email":"a@x.io","password":"badpass77"}'"#,
                     #"post /graphql query='mutation { login(password: "gql1pass") }'"#,
                     #"post /graphql query='mutation { login(password: "gql2pass") }'"#]
        for line in lines {
            let answer = ReceivedResponse(status: 200, reason: "OK", headers: [], body: [])
            let exchange = Exchange(request: PreparedRequest(method: "POST", url: nowhere.appendingPathComponent("graphql")), response: answer, duration: .zero)
            try recorder.record(line: line, command: try CommandParser().parse(line), outcome: .exchange(exchange, note: nil), forcedOffline: false)
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let placeholders = text.split(separator: "\n").filter { $0.hasPrefix("> ") }.map { line in
            line.matches(of: /\{\{secret:([a-z_0-9]+)\}\}/).map { String($0.output.1) }
        }
        // The header's login took `password`: these are the next, one each.
        #expect(placeholders == [["password_2"], ["password_3"], ["password_4"], ["password_5"]], "\(text)")
        #expect(!text.contains("hunter2pw") && !text.contains("badpass77") && !text.contains("gql1pass") && !text.contains("gql2pass"))
    }

    /// A login posted as a request and refused with a 400 (Django REST's `non_field_errors`): its password was
    /// numbered as a right one, and the mock answered the right password with the refusal.
    @Test func aPasswordA400RefusedIsAWrongOne() throws {
        let (recorder, path, nowhere) = try Self.recorderBegunAsAlice("refused-login")
        for (line, status) in [("post /api/auth/login/ username=bob password=wonderland42", 200), ("post /api/auth/login/ username=bob password=wrongpass9", 400)] {
            let answer = ReceivedResponse(status: status, reason: status == 200 ? "OK" : "Bad Request", headers: [], body: [])
            let exchange = Exchange(request: PreparedRequest(method: "POST", url: nowhere.appendingPathComponent("api/auth/login/")), response: answer,
                                    duration: .zero)
            try recorder.record(line: line, command: try CommandParser().parse(line), outcome: .exchange(exchange, note: nil), forcedOffline: false)
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("> post /api/auth/login/ username=bob password={{secret:password_2}}\n"), "\(text)")
        #expect(text.contains("> post /api/auth/login/ username=bob password={{secret:wrong_password}}\n"), "\(text)")
    }

    /// The header's account logging in again (a recording begun after a
    /// login) was written `{{secret:password_2}}`: CI had to set one password
    /// under two names. Another account's password keeps a name of its own.
    @Test func theHeadersAccountLoggingInAgainTakesItsPassword() throws {
        let (recorder, path, nowhere) = try Self.recorderBegunAsAlice("relogin")
        for line in ["login Alice@example.com alicepw1", "login bob@example.com bobpw22"] {
            let answer = ReceivedResponse(status: 200, reason: "OK", headers: [], body: [])
            let request = PreparedRequest(method: "POST", url: nowhere.appendingPathComponent("login"))
            try recorder.record(line: line, command: try CommandParser().parse(line),
                                outcome: .exchange(Exchange(request: request, response: answer, duration: .zero), note: nil), forcedOffline: false)
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("> login Alice@example.com {{secret:password}}\n") && text.contains("> login bob@example.com {{secret:password_2}}\n"), "\(text)")
    }

    @Test func aMissingSecretIsARuntimeFailure() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString).transcript").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n\n> login carol@example.com {{secret:password}}\nHTTP/1.1 200 OK\n\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(environment: [:]).run(path)
        #expect(run.failure == .runtime("\(path):5: no value for {{secret:password}}: set EXPLORER_SECRET_PASSWORD; nothing was run"))
        // Every one missing is said at once (a run per value learned them one at a time), each once.
        try ("# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n\n> login carol@example.com {{secret:password}}\nHTTP/1.1 200 OK\n\n"
            + "> get /x X-Api-Key:{{secret:api_key}}\nHTTP/1.1 200 OK\n\n> get /y X-Api-Key:{{secret:api_key}} X-Sig:{{secret:signature}}\nHTTP/1.1 200 OK\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let all = await Replayer(environment: [:]).run(path)
        #expect(all.failure == .runtime("\(path):5: no value for {{secret:password}}: set EXPLORER_SECRET_PASSWORD; "
                                        + "also EXPLORER_SECRET_API_KEY (line 8), EXPLORER_SECRET_SIGNATURE (line 11); nothing was run"))
        // A pasted curl's password, its URL holding a variable: left out (a variable might have held a demo account's email).
        try ("# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n\n> post /echo step=1\nHTTP/1.1 200 OK\n\n"
            + "> curl -u bob:{{secret:password}} {{base_url}}/basic\nHTTP/1.1 200 OK\n\n> get /basic -a bob:{{secret:password_2}}\nHTTP/1.1 200 OK\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let curl = await Replayer(environment: [:]).run(path)
        #expect(curl.failure == .runtime("\(path):8: no value for {{secret:password}}: set EXPLORER_SECRET_PASSWORD; "
                                         + "also EXPLORER_SECRET_PASSWORD_2 (line 11); nothing was run"))
    }

    /// A secret missing for a later step stopped the run there, after the
    /// steps before it had changed the server: every line's secret is
    /// looked for before any step runs. The session's token is not.
    @Test func aSecretMissingForALaterStepStopsTheRunBeforeItsFirstStep() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("late-\(UUID().uuidString).transcript").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        # explorer transcript v1
        profile: linku
        base-url: sandbox

        > login alice@example.com {{secret:password}}
        note: logged in as alice

        > post /api/tasks title=x price:=5 city=Leeds
        HTTP/1.1 201 Created

        > ws connect /ws/chat/1?token={{secret:access_token}}

        > get /api/tasks X-Api-Key:{{secret:api_key}}
        HTTP/1.1 200 OK

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer(environment: [:]).run(path)
        #expect(run.failure == .runtime("\(path):13: no value for {{secret:api_key}}: set EXPLORER_SECRET_API_KEY; nothing was run"))
        #expect(run.steps.isEmpty && run.notRun == 4)
        final class Asked: @unchecked Sendable {
            let lock = NSLock()
            var names: [String] = []
        }
        let asked = Asked()
        var replayer = Replayer(environment: [:])
        replayer.askSecret = { _, name in asked.lock.withLock { asked.names.append(name) }; return nil }
        _ = await replayer.run(path)
        #expect(asked.lock.withLock { asked.names } == ["api_key"], "the demo password and the session's token are not asked for")
    }

    /// A replay of a profile file's transcript ignored the file's `spec:`:
    /// a line the REPL had refused (`quantity is an integer …, not sent`)
    /// went out, and created what the recording never had.
    @Test func aReplayChecksLinesAgainstTheProfilesSpecAsTheREPLDid() async throws {
        let folder = try Scratch.folder("spec-replay")
        try #"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/items": {"post": {"requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {"quantity": {"type": "integer"}}}}}}, "responses": {"201": {"description": "ok"}}}}}}"#
            .write(toFile: folder.appendingPathComponent("openapi.json").path, atomically: true, encoding: .utf8)
        // Nothing listens on port 9: a request sent fails the run at once.
        try "explorer-profile: 1\nname: inv\nenvironments:\n  local:\n    base-url: http://127.0.0.1:9\nspec: openapi.json\n"
            .write(toFile: folder.appendingPathComponent("inv.yaml").path, atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("refused.transcript").path
        try """
        # explorer transcript v1
        profile: inv.yaml
        base-url: http://127.0.0.1:9

        > post /items quantity=3
        error: quantity is an integer in POST /items, but quantity=3 sends the string "3": use quantity:=3 (not sent; --force sends it anyway)

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer().run(path)
        #expect(run.status == .ok && run.steps.count == 1, "\(ReplayReport(palette: .plain).detailed(run).out)\(run.failure.map { "\($0)" } ?? "")")
    }

    /// A session started with `--spec` recorded no spec: its replay sent
    /// the lines the session had refused. The header names the document,
    /// and `spec load FILE` in a step is read beside the transcript.
    @Test func aRecordingsSpecHeaderChecksItsReplayAndSpecLoadIsReadBesideIt() async throws {
        let folder = try Scratch.folder("spec-header")
        try #"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/items": {"post": {"requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {"quantity": {"type": "integer"}}}}}}, "responses": {"201": {"description": "ok"}}}}}}"#
            .write(toFile: folder.appendingPathComponent("openapi.json").path, atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("refused.transcript").path
        try """
        # explorer transcript v1
        profile: generic
        base-url: http://127.0.0.1:9
        spec: openapi.json

        > post /items quantity=3
        error: quantity is an integer in POST /items, but quantity=3 sends the string "3": use quantity:=3 (not sent; --force sends it anyway)

        > spec load openapi.json
        | loaded 1 endpoint from openapi.json

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let run = await Replayer().run(path)
        #expect(run.status == .ok && run.steps.count == 2, "\(ReplayReport(palette: .plain).detailed(run).out)\(run.failure.map { "\($0)" } ?? "")")
        #expect(try TranscriptParser.parse(String(contentsOfFile: path, encoding: .utf8)).header.spec == "openapi.json")
        // A spec load that cannot find its file stops the run: the lines after it would go unchecked (one went out).
        let lost = folder.appendingPathComponent("lost.transcript").path
        try "# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n\n> spec load ../elsewhere/openapi.json\n| loaded 1 endpoint from ../elsewhere/openapi.json\n\n> post /items quantity=3\nerror: quantity is an integer in POST /items, but quantity=3 sends the string \"3\": use quantity:=3 (not sent; --force sends it anyway)\n\n"
            .write(toFile: lost, atomically: true, encoding: .utf8)
        let stopped = await Replayer().run(lost)
        #expect(stopped.status == .runtime && stopped.steps.count == 1 && stopped.notRun == 1, "\(stopped)")
    }

    /// `--update` against a backend that answered 500 wrote the 500 down as
    /// what the step expects, said "UPDATED" and exited 0: an outage became
    /// a passing suite. It is blessed still (that is what was asked), and said.
    @Test func anUpdateThatBlessesAServerErrorSaysSo() {
        var step = StepRun(line: 9, command: "get /items", mismatches: [Mismatch(.status, expected: "200 OK", actual: "500 Internal Server Error")], duration: .zero)
        step.updated = true
        var fine = StepRun(line: 14, command: "get /other", mismatches: [Mismatch(.status, expected: "200 OK", actual: "201 Created")], duration: .zero)
        fine.updated = true
        var run = TranscriptRun(path: "ci/items.transcript", steps: [step, fine])
        run.rewritten = true
        let said = ReplayReport(palette: .plain).progress(run).out
        #expect(said.hasSuffix("rewrote ci/items.transcript: new expectations for the steps at lines 9, 14\n"
                               + "warning: line 9 now expects 500 Internal Server Error, a server error: check that it is meant before committing ci/items.transcript\n"), "\(said)")
    }

    /// A report showed `login bob@… {{secret:password_2}}` as `{{secret:password}}`.
    @Test func aLoginsPlaceholderKeepsItsNameInReports() {
        #expect(StepRun.shown("login bob@example.com {{secret:password_2}}") == "login bob@example.com {{secret:password_2}}")
        #expect(StepRun.shown("login bob@example.com {{secret:wrong_password}}") == "login bob@example.com {{secret:wrong_password}}")
        #expect(StepRun.shown("login bob@example.com hunter22") == "login bob@example.com {{secret:password}}")
    }

    /// A file saved as Latin-1 or UTF-16 was "not UTF-8 text" or "a binary
    /// file", where every other problem of a transcript says its line.
    @Test func aTranscriptThatIsNotUTF8SaysWhere() throws {
        let folder = try Scratch.folder("encodings")
        defer { try? FileManager.default.removeItem(at: folder) }
        let header = Array("# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n\n> get /x\n".utf8)
        let cases: [(String, [UInt8], String)] = [
            ("latin1", header + Array("| caf".utf8) + [0xE9] + [0x0A], ":6:6: byte 0xE9 is not UTF-8 (saved as Latin-1 or Windows-1252? save it as UTF-8)"),
            ("nul", header + Array("| a".utf8) + [0x00, 0x0A], ":6:4: a NUL byte: a binary file, not a transcript"),
            ("utf16", [0xFF, 0xFE] + header.flatMap { [$0, 0] }, ": UTF-16 text; save it as UTF-8"),
            ("utf16be", header.flatMap { [0, $0] }, ": UTF-16 text; save it as UTF-8"),
            ("utf32", [0xFF, 0xFE, 0, 0] + header.flatMap { [$0, 0, 0, 0] }, ": UTF-32 text (its first bytes say so); save it as UTF-8"),
        ]
        for (name, bytes, said) in cases {
            let path = folder.appendingPathComponent("\(name).transcript").path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            #expect(TranscriptSource.read(path) == .failure(.broken(path + said)), "\(name)")
        }
    }

    /// A 300,000-character command line was a case's name whole, and
    /// 500,001 differences a 46 MB report.
    @Test func junitBoundsLongLinesAndManyDifferences() {
        let long = "post /x note=" + String(repeating: "a", count: 300_000)
        #expect(StepRun.shown(long) == String(long.prefix(200)) + "… (300013 characters)")
        let many = (1...1_000).map { Mismatch(.line($0), expected: "a", actual: "b") }
        let xml = JUnitReport.xml([TranscriptRun(path: "s/big.transcript", steps: [StepRun(line: 5, command: "get /x", mismatches: many, duration: .zero)])])
        #expect(xml.contains("body line 100: expected a, got b\n… and 900 more</failure>"), "\(xml.suffix(300))")
        #expect(!xml.contains("body line 101:"))
    }

    /// Characters XML 1.0 forbids were dropped: a failure read `got line[31m red`.
    @Test func junitWritesControlCharactersAsTheConsoleDoes() {
        let step = StepRun(line: 5, command: "get /x", mismatches: [Mismatch(.line(1), expected: "line", actual: "line\u{1B}[31m red\u{01}")], duration: .zero)
        let xml = JUnitReport.xml([TranscriptRun(path: "s/a.transcript", steps: [step])])
        #expect(xml.contains("got line\\u001b[31m red\\u0001"), "\(xml)")
        #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && !["\n", "\t", "\r"].contains($0) })
    }

    @Test func junitHasASuitePerTranscriptAndACasePerStep() {
        var failing = StepRun(line: 9, command: "get /a&b", mismatches: [Mismatch(.status, expected: "200", actual: "404 <x>")], duration: .zero)
        failing.updated = false
        let runs = [
            TranscriptRun(path: "s/one.transcript", steps: [StepRun(line: 5, command: "login a {{secret:password}}", mismatches: [], duration: .milliseconds(12)), failing]),
            TranscriptRun(path: "s/two.transcript", failure: .broken("s/two.transcript:1:1: not a transcript")),
        ]
        let xml = JUnitReport.xml(runs)
        #expect(xml.contains(#"<testsuites name="explorer test" tests="3" failures="1" errors="1" skipped="0""#))
        #expect(xml.contains(#"<testcase classname="s/one.transcript" name="line 5: login a {{secret:password}}" time="0.012"/>"#))
        #expect(xml.contains(#"name="line 9: get /a&amp;b""#))
        // The message is the first difference, which is what CI dashboards show (it was "1 difference").
        #expect(xml.contains(#"<failure message="status: expected 200, got 404 &lt;x&gt;">status: expected 200, got 404 &lt;x&gt;</failure>"#))
        #expect(xml.contains(#"<error message="s/two.transcript:1:1: not a transcript"/>"#))
        // A server that went away: the steps after it were missing (2 cases for a file of 4 steps).
        var stopped = TranscriptRun(path: "s/three.transcript", steps: [StepRun(line: 5, command: "get /a", mismatches: [], duration: .zero)],
                                    failure: .runtime("s/three.transcript:9: connection refused"), total: 3)
        stopped.planned = [(5, "get /a"), (9, "get /b"), (13, "get /c")]
        let down = JUnitReport.xml([stopped])
        #expect(down.contains(#"<testsuite name="s/three.transcript" tests="4" failures="0" errors="1" skipped="2""#), "\(down)")
        #expect(down.contains(#"name="line 9: get /b" time="0.000"><skipped message="did not run: the transcript stopped before it"/></testcase>"#))
        #expect(down.contains(#"name="line 13: get /c""#))
        // The server went away at a step: that step is the error, with the differences its missing answer made;
        // it was a failure and an error both, and a case more than the file has steps, without a time.
        let gone = [Mismatch(.status, expected: "200 OK", actual: "no HTTP response"), Mismatch(.status, expected: "x", actual: "y")]
        var unreachable = TranscriptRun(path: "s/five.transcript", steps: [StepRun(line: 5, command: "get /a", mismatches: [], duration: .zero),
                                                                          StepRun(line: 9, command: "get /b", mismatches: gone, duration: .zero)],
                                        failure: .runtime("s/five.transcript:9: connection refused"), total: 3)
        unreachable.planned = [(5, "get /a"), (9, "get /b"), (13, "get /c")]
        let refused = JUnitReport.xml([unreachable])
        #expect(refused.contains(#"<testsuite name="s/five.transcript" tests="3" failures="0" errors="1" skipped="1""#), "\(refused)")
        #expect(refused.contains(#"name="line 9: get /b" time="0.000">"# + "\n" + #"      <error message="s/five.transcript:9: connection refused">status: expected 200 OK"#), "\(refused)")
        #expect(!refused.contains("<failure") && !refused.contains(#"classname="s/five.transcript" name="s/five.transcript""#), "\(refused)")
        var twice = failing
        twice.mismatches = gone
        #expect(JUnitReport.xml([TranscriptRun(path: "s/six.transcript", steps: [twice])]).contains(#"<failure message="status: expected 200 OK, got no HTTP response (and 1 more)">"#))
        // A torn last step: BROKEN, exit 2; the XML said all was well.
        let torn = TranscriptRun(path: "s/four.transcript", steps: [StepRun(line: 5, command: "get /a", mismatches: [], duration: .zero)],
                                 total: 1, torn: TornStep(line: 9, reason: "the file ends in the middle of a line"))
        let cut = JUnitReport.xml([torn])
        #expect(cut.contains(#"<testsuite name="s/four.transcript" tests="2" failures="0" errors="1""#), "\(cut)")
        #expect(cut.contains(#"<error message="the last step is torn, the file ends in the middle of a line"/>"#))
    }
}

/// How an answer after `capture` refers to the captured value.
@Suite struct CaptureReferencesTests {
    /// A server whose ids are three digits: `no item 553` was written as it
    /// came and failed against a fresh server (`no item 554`). In a message
    /// the id is the capture's, but not an error line's status, nor a
    /// number in a text body.
    /// A captured UUID was written `{{uuid}}` in the answers after it (the
    /// recording makes every UUID a pattern before captures are looked
    /// for): a replay never checked it was the same item. The answer says
    /// which `{{uuid}}` held it.
    @Test func aCapturedUUIDIsTheCapturesWhereverItShows() throws {
        var references = CaptureReferences()
        references.note(.capture(name: "item_id", from: .body(try JSONPath.parse(".id"))))
        let item = "3f2b8c1e-9a4d-4c2b-8f6e-1d2c3b4a5e6f", other = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"
        let observed = Observation(status: 200, body: .json(.object([("id", .string(item)), ("owner", .string(other)),
                                                                      ("message", .string("item \(item) moved from \(other)"))])),
                                   notes: ["saved \(item)"])
        let recorded = Expectation(recording: observed, baseURL: nil)
        let written = references.referencing(in: recorded, values: ["item_id": item], observed: observed)
        #expect(TranscriptWriter.response(written) == ["HTTP/1.1 200", "{", #"  "id": {{item_id}},"#, #"  "owner": "{{uuid}}","#,
                                                       #"  "message": "item {{item_id}} moved from {{uuid}}""#, "}", "note: saved {{item_id}}"])
    }

    /// A captured id that is a string of digits (JSON:API's `"id": "10"`) was
    /// written bare, `{{aid}}`, which expects the number: the replay failed
    /// on the value it captured itself. It is written in quotes.
    @Test func aCapturedStringOfDigitsIsReferencedAsAString() throws {
        var references = CaptureReferences()
        references.note(.capture(name: "aid", from: .body(try JSONPath.parse(".data.id"))))
        let observed = Observation(status: 200, body: .json(.object([("data", .object([("id", .string("10")), ("n", .string("1e3"))]))])))
        let written = references.referencing(in: Expectation(recording: observed, baseURL: nil), values: ["aid": "10"], observed: observed)
        #expect(TranscriptWriter.response(written) == ["HTTP/1.1 200", "{", #"  "data": {"#, #"    "id": "{{aid}}","#, #"    "n": "1e3""#, "  }", "}"])
        var matcher = TranscriptMatcher()
        matcher.variables = ["aid": "10"]
        #expect(matcher.match(written, observed).isEmpty)
    }

    /// A value the line typed itself (`get /users/1`, `uid` = 1 captured) is the line's: written
    /// `{{uid}}`, the replay against a server whose first user was 7 failed with nothing wrong.
    @Test func aValueTypedOnTheLineIsNotTheCaptures() throws {
        var references = CaptureReferences()
        references.note(.capture(name: "uid", from: .body(try JSONPath.parse(".[0].id"))))
        let recorded = Expectation(status: 200, body: .json(.object([.init("id", .literal(.number("1")))], open: false)))
        let typed = references.referencing(in: recorded, values: ["uid": "1"], line: "get /users/1 X-API-Key:{{secret:x_api_key}}")
        #expect(TranscriptWriter.response(typed) == ["HTTP/1.1 200", "{", #"  "id": 1"#, "}"])
        let referenced = references.referencing(in: recorded, values: ["uid": "1"], line: "get /users/{{uid}}")
        #expect(TranscriptWriter.response(referenced) == ["HTTP/1.1 200", "{", #"  "id": {{uid}}"#, "}"])
        let other = references.referencing(in: recorded, values: ["uid": "1"], line: "get /users/12")
        #expect(TranscriptWriter.response(other) == ["HTTP/1.1 200", "{", #"  "id": {{uid}}"#, "}"], "12 is not 1")
        // A query value or a flag's that happens to be equal is not about the item (`page_size==1` with
        // the id 1: the replay against a server whose ids began at 50 failed); an id-named one is.
        for line in ["get /users page_size==1", "get /users filter==1", "get /users?page=1&x=2", "get /users --timeout 1",
                     "get /users Accept-Version:1", "get /users category_id==1", "get /users?user_id=1"] {
            let paged = references.referencing(in: recorded, values: ["uid": "1"], line: line)
            #expect(TranscriptWriter.response(paged) == ["HTTP/1.1 200", "{", #"  "id": {{uid}}"#, "}"], "\(line)")
        }
        for line in ["get /users id==1", "get /users uid==1", "get /users?uid=1", "get /users/1/", "get http://h:1/users/1",
                     #"ws send {"id":1}"#, "post /users/search id:=1", "/users/1", #"post /echo --raw '{"uid": 1}'"#,
                     #"post /echo order:='{"id":1}'"#, #"curl -d '{"uid":1}' http://h/echo"#, #"post /echo --raw={"id":1}"#] {
            let filtered = references.referencing(in: recorded, values: ["uid": "1"], line: line)
            #expect(TranscriptWriter.response(filtered) == ["HTTP/1.1 200", "{", #"  "id": 1"#, "}"], "\(line)")
        }
    }

    @Test func aShortIdInAMessageIsTheCaptures() throws {
        var references = CaptureReferences()
        references.note(.capture(name: "item_id", from: .body(try JSONPath.parse(".id"))))
        let recorded = Expectation(status: 404, body: .json(.object([.init("message", .literal(.string("no item 553")))], open: false)),
                                   errors: [.literal("553 NOT_FOUND: no item 553")], notes: [.literal("deleted 553")])
        let written = references.referencing(in: recorded, values: ["item_id": "553"])
        #expect(TranscriptWriter.response(written) == ["HTTP/1.1 404", "{", #"  "message": "no item {{item_id}}""#, "}",
                                                       "error: 553 NOT_FOUND: no item {{item_id}}", "note: deleted {{item_id}}"])
        let text = references.referencing(in: Expectation(body: .text([.literal("Content-Length: 553")])), values: ["item_id": "553"])
        #expect(TranscriptWriter.response(text) == ["| Content-Length: 553"])
        // `vars`' line for the captured variable is its value, however short: `756` failed against any fresh server.
        let vars = references.referencing(in: Expectation(body: .text([.literal("base_url = http://h"), .literal("item_id = 55")])), values: ["item_id": "55"])
        #expect(TranscriptWriter.response(vars) == ["| base_url = http://h", "| item_id = {{item_id}}"])
        let two = references.referencing(in: Expectation(errors: [.literal("no item 55")]), values: ["item_id": "55"])
        #expect(TranscriptWriter.response(two) == ["error: no item 55"], "two digits are any number")
    }
}
