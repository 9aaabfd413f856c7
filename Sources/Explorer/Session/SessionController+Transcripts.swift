import Core
import Foundation
import Sandbox

/// `replay FILE` and `tour [NAME]` inside the REPL: a transcript's steps run
/// on this session's interpreter (its server, login and variables), through
/// the same `Replayer.Steps` that `explorer replay` uses, so a step passes
/// or differs here exactly as it would there.
extension SessionController {
    func run(_ action: TranscriptAction) -> Outcome {
        let before = runBlocking { [interpreter] in await interpreter.userVariables }
        defer {
            let after = runBlocking { [interpreter, listensToSockets] in
                // The transcript's way of taking frames (`frames:`) was this session's while it ran.
                await interpreter.setFramesLive(listensToSockets)
                return await interpreter.userVariables
            }
            replayBound.formUnion(after.filter { before[$0.key] != $0.value }.keys)
        }
        switch action {
        case let .replay(path):
            return replay(path)
        case let .tour(name?):
            guard let tour = Tours().find(name, profile: interpreter.session.profile.name) else {
                let near = Tours().closest(to: name, profile: interpreter.session.profile.name).map { "; did you mean '\($0)'?" } ?? ""
                return .failure("no tour named '\(name)'\(near) (tour lists them)", .usage)
            }
            guard terminal.isInteractive else {
                return .failure("a tour waits for Enter at each step, so it needs the REPL; replay \(tour.path) runs it in one go", .usage)
            }
            return keepingFramesLive { walk(tour) }
        case .tour(nil):
            return .message(tourList())
        }
    }

    private func tourList() -> String {
        let tours = Tours()
        let all = tours.all
        guard !all.isEmpty else { return "no tours under \(tours.folder)/ (set EXPLORER_SESSIONS to the folder that has them)" }
        let profile = interpreter.session.profile.name
        let mine = all.filter { $0.profile == profile }
        let width = mine.map(\.name.columns).max() ?? 0
        var text = mine.isEmpty ? "no tours for \(profile)\n" : "Tours for \(profile) (tour NAME walks one; TAB completes NAME):\n"
        for tour in mine { text += "  " + tour.name.padded(to: width) + "  " + tour.summary + "\n" }
        // Summaries under their column at the terminal's width (80 columns elsewhere), not broken mid-word.
        let columns = renderer.columns?().map { min($0, 100) } ?? 80
        var shown = text.wrapped(width: columns)
        let others = Dictionary(grouping: all.filter { $0.profile != profile }, by: \.profile)
        for (other, tours) in others.sorted(by: { $0.key < $1.key }) {
            // Each profile's line wrapped on its own, its names indented under it: wrapped together, the
            // next profile's line ran on at the end of the one before.
            shown += "\n" + "\(other) (explorer --profile \(other)):" + "\n" + ("  " + tours.map(\.name).joined(separator: ", ")).wrapped(width: columns)
        }
        return shown
    }

    /// The transcript at `path`, parsed, and replay state on this session.
    private func steps(_ path: String, on interpreter: Interpreter? = nil) -> Result<(Transcript, Replayer.Steps), TranscriptRun.Failure> {
        let interpreter = interpreter ?? self.interpreter
        let transcript: Transcript
        switch TranscriptSource.parsed(path) {
        case let .failure(failure): return .failure(failure)
        case let .success(parsed): transcript = parsed
        }
        let profile = interpreter.session.profile
        guard Self.names(transcript.header.profile, profile, transcriptFolder: PathText.folder(of: path)) else {
            return .failure(.broken("\(path) is a \(transcript.header.profile) transcript and this session is \(profile.name): start explorer --profile \(transcript.header.profile)"))
        }
        var resolver = SecretResolver(environment: environment, demoAccounts: profile.demoAccounts)
        resolver.demoPasswordsFirst = target == .sandbox
        if terminal.isInteractive {
            // Asked without echo, as `explorer replay` asks at a terminal: told to set EXPLORER_SECRET_PASSWORD,
            // someone typed the password at the next prompt, and the history kept it.
            let asked = AskedSecrets(exitsOnInterrupt: false)
            resolver.ask = { asked.value($0, path: path) }
        }
        var steps = Replayer.Steps(path: path, interpreter: interpreter, transport: nil, profile: profile,
                                   baseURL: interpreter.session.builder.baseURL.absoluteString,
                                   resolver: resolver, update: false)
        steps.filesFolder = PathText.folder(of: path)
        return .success((transcript, steps))
    }

    /// How this session takes frames (live at the REPL), as it was again
    /// after a replay or tour in it, which takes them as its transcript says.
    private func keepingFramesLive<T>(_ body: () -> T) -> T {
        let live = runBlocking { [interpreter] in await interpreter.framesLive }
        defer { runBlocking { [interpreter] in await interpreter.setFramesLive(live) } }
        return body()
    }

    private func replay(_ path: String) -> Outcome {
        keepingFramesLive { replayHere(path) }
    }

    private func replayHere(_ path: String) -> Outcome {
        let started = ContinuousClock.now
        let transcript: Transcript
        var prepared: Replayer.Steps
        switch steps(path) {
        case let .failure(.broken(message)), let .failure(.runtime(message)): return .failure(message, .parse)
        case let .success(loaded): (transcript, prepared) = loaded
        }
        // It runs in this session, wherever it was recorded: said when that was another environment of the
        // session's profile file (a staging smoke test's PATCH went to production unsaid).
        if let file = profileFile, transcript.header.environment != file.environment {
            let recorded = transcript.header.environment.map { "on \($0)" } ?? "on the file's default environment"
            let here = file.environment.map { "on \($0)" } ?? "on the default environment"
            terminal.err("note: \(path) was recorded \(recorded); it runs in this session, \(here)\n")
        }
        // Printed as it goes, as `explorer replay` prints it: the frames this session shows as they
        // come fall under their step (a sent one came before the file's name, a late one after its count).
        let report = ReplayReport(palette: renderer.palette)
        let post = terminal.asyncOutput() ?? terminal.streamedOutput()
        if let post {
            post(report.heading(path))
            let width = String(transcript.steps.last?.line ?? 0).count
            prepared.onStep = { post(report.step($0, lineWidth: width)) }
        }
        // Its files as `explorer replay` keeps them: read from its repository's alone, written to a scratch folder
        // (a transcript someone else wrote replaced ~/.bashrc with `save ~/.bashrc --force` and sent @~/.ssh/id).
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-replay-\(UUID().uuidString)")
        let outputs = runBlocking { [interpreter] in await interpreter.outputs.path }
        runBlocking { [interpreter, path] in
            await interpreter.confineFiles(to: Replayer.readableRoot(of: PathText.folder(of: path)))
            await interpreter.setOutputFolder(scratch.path)
        }
        defer {
            runBlocking { [interpreter] in
                await interpreter.confineFiles(to: nil)
                await interpreter.setOutputFolder(outputs)
            }
            try? FileManager.default.removeItem(at: scratch)
        }
        let steps: Replayer.Steps
        if recorder == nil {
            steps = runBlocking(interrupts: interrupts) { [prepared] in
                var steps = prepared
                if await steps.prepare(transcript.header, steps: transcript.steps) { await steps.replay(transcript.steps) }
                return steps
            }
        } else {
            steps = replayRecorded(transcript, prepared)
        }
        var run = TranscriptRun(path: path, steps: steps.runs, failure: steps.shownFailure, total: transcript.steps.count, torn: transcript.torn)
        run.duration = ContinuousClock.now - started
        let (out, err) = post == nil ? report.detailed(run) : report.ending(run)
        terminal.out(out)
        terminal.err(err)
        return run.status == .ok ? .nothing : .failure("\(path) did not replay as written", run.status)
    }

    /// A replay while recording: each of its steps is written as if it had
    /// been typed (the header's `set`s and login first), so the recording
    /// holds what its later lines depend on and replays on a fresh server.
    private func replayRecorded(_ transcript: Transcript, _ prepared: Replayer.Steps) -> Replayer.Steps {
        var steps = runBlocking(interrupts: interrupts) { [prepared] in
            var steps = prepared
            _ = await steps.prepare(transcript.header, steps: transcript.steps)
            return steps
        }
        for (line, command, outcome) in steps.headerSteps {
            whileRecording { try $0.record(line: line, command: command, outcome: outcome, forcedOffline: false) }
        }
        guard steps.failure == nil else { return steps }
        // As `explorer replay` runs them: a value a later line captures is expected as its kind (it was
        // compared as recorded here alone, and a server's fresh id failed the step).
        for step in Replayer.Steps.leavingCapturedValues(transcript.steps) {
            guard let outcome = runStep(step, on: &steps) else { break }
            if case .exit = outcome { break }
        }
        return steps
    }

    /// Runs one of a transcript's steps (as `typed`, when a tour's user
    /// edited it) on this session; a recording takes it as if it had been
    /// typed: its comments, then the line as run. Nil when the run cannot go on.
    private func runStep(_ step: TranscriptStep, typed: String? = nil, on steps: inout Replayer.Steps) -> Outcome? {
        whileRecording { recorder in
            try recorder.flushFrames()
            for comment in step.comments where !comment.trimmingBlanks().isEmpty { try recorder.comment(comment) }
        }
        let (outcome, after) = runBlocking(interrupts: interrupts) { [steps] in
            var steps = steps
            let outcome = await steps.run(step, typed: typed)
            return (outcome, steps)
        }
        steps = after
        if let outcome {
            whileRecording { try $0.record(line: typed ?? step.command, command: after.lastCommand, outcome: outcome, forcedOffline: false) }
        }
        return outcome
    }

    /// Walks a tour: each step's comment, then its command in the line
    /// editor; Enter runs it and the answer is followed by the verdict.
    private func walk(_ tour: Tours.Tour) -> Outcome {
        // On a sandbox, and unless recording (whose steps must all run on one
        // server), the tour gets a fresh sandbox of its own: the data this
        // session made (a 7th task, another login) would make it differ.
        let own = target == .sandbox && recorder == nil ? TourSandbox.start(interpreter.session.profile) : nil
        defer { if let own { runBlocking { await own.close() } } }
        if let own, let post = terminal.asyncOutput() {
            // Its socket's frames show as they come, as the session's do.
            let renderer = renderer
            runBlocking { [interpreter = own.interpreter] in await interpreter.setSocketListener { post(renderer.notice($0)) } }
        }
        let transcript: Transcript, prepared: Replayer.Steps
        switch steps(tour.path, on: own?.interpreter) {
        case let .failure(.broken(message)), let .failure(.runtime(message)): return .failure(message, .parse)
        case let .success(loaded): (transcript, prepared) = loaded
        }
        let palette = renderer.palette
        let count = transcript.steps.count
        let place = own != nil ? " It runs on a fresh sandbox of its own; your session is left as it is."
            : " It runs in this session, whose data may make a step differ from what the tour expects."
        // Wrapped between words at the terminal's width, as help is: the terminal cut them mid-word.
        let width = renderer.columns?().map { min($0, 100) }
        func fitted(_ text: String) -> String { width.map { text.wrapped(width: $0, joiningLines: false) } ?? text }
        let intro = fitted("Tour \(tour.name): \(ReplayReport.count(count, "step")). Enter runs a step (edit it first if you like;"
                           + " an empty line skips it). Ctrl-C ends the tour." + place)
        terminal.out(palette.bold("Tour \(tour.name)") + intro.dropFirst("Tour \(tour.name)".count) + "\n")
        var steps = runBlocking { [prepared] in
            var steps = prepared
            _ = await steps.prepare(transcript.header, steps: transcript.steps)
            return steps
        }
        if let failure = steps.shownFailure { return .failure(Self.message(failure), .runtime) }
        var expected = 0
        for (index, step) in transcript.steps.enumerated() {
            terminal.out("\n")
            for comment in step.comments where !comment.isEmpty { terminal.out(palette.dim(fitted(comment)) + "\n") }
            let typed: String
            switch terminal.readLine(prompt: "tour \(index + 1)/\(count)> ", editing: step.command) {
            case .endOfInput, .interrupted:
                return .message("tour ended at step \(index + 1) of \(count)")
            case let .line(line):
                typed = line
            }
            remember(typed)
            guard !typed.trimmingBlanks().isEmpty else {
                terminal.out(palette.dim("(skipped)") + "\n")
                continue
            }
            guard let outcome = runStep(step, typed: typed, on: &steps) else {
                return .failure(steps.shownFailure.map(Self.message) ?? "the tour stopped", .runtime)
            }
            let (out, err) = renderer.render(outcome)
            terminal.out(out)
            terminal.err(err)
            guard let run = steps.runs.last else { continue }
            if run.passed {
                expected += 1
                terminal.out(palette.green("✓ as the tour expected") + "\n")
            } else {
                terminal.out(palette.yellow("≠ the tour expected otherwise:") + "\n" + ReplayReport(palette: palette).differences(run, indent: "  "))
            }
        }
        return .message("tour finished: \(expected) of \(ReplayReport.count(count, "step")) as expected")
    }

    /// Whether a transcript's `profile:` is this session's profile: its
    /// name, `none` for the generic one, or a profile file of that name.
    static func names(_ written: String, _ profile: Profile, transcriptFolder: String) -> Bool {
        if written == profile.name || (written == "none" && profile.name == Profile.generic.name) { return true }
        guard Profile.named(written) == nil else { return false }
        let path = ProfileLookup.isPath(written)
            ? (written.hasPrefix("/") || transcriptFolder.isEmpty ? written : (transcriptFolder as NSString).appendingPathComponent(written))
            : ProfileLookup(environment: Surroundings.current.environment).file(named: written)
        return path.flatMap { try? ProfileFile.read($0) }?.name == profile.name
    }

    private static func message(_ failure: TranscriptRun.Failure) -> String {
        switch failure {
        case let .broken(message), let .runtime(message): return message
        }
    }
}

/// A fresh in-process sandbox of a profile and an interpreter on it, for a
/// tour to walk: what a replay starts from, so a step is as the tour expects
/// whatever the session did before.
enum TourSandbox {
    /// Nil when the sandbox cannot start (the tour then runs in the session).
    static func start(_ profile: Profile) -> LiveSession? {
        runBlocking { try? await LiveSession.open(profile: profile, target: .sandbox()) }
    }
}
