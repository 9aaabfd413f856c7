import Core

/// What replaying one transcript found: data for the reporters (terminal
/// text, JUnit XML) and the exit status.
struct TranscriptRun: Sendable {
    /// Why a transcript did not run to the end.
    enum Failure: Error, Sendable, Equatable {
        /// Missing, binary, a syntax error, an unknown profile: exit status 2.
        case broken(String)
        /// No answer from the server, no sandbox, a secret nobody supplied: exit status 3.
        case runtime(String)
    }

    var path: String
    var steps: [StepRun] = []
    var failure: Failure?
    /// Why the transcript was not run, when it was left out on purpose
    /// (`test --env` over a built-in profile's): neither a pass nor a failure.
    var skipped: String?
    /// The steps the transcript has, run or not.
    var total = 0
    /// Their lines and commands, for a report that names those a failure kept from running.
    var planned: [(line: Int, command: String)] = []
    var torn: TornStep?
    /// `--update` rewrote the file.
    var rewritten = false
    /// `--update` had new expectations for steps, and the run stopped before
    /// its end: nothing was written, and those steps are failures again.
    var updateDropped = false
    var duration: Duration = .zero

    var failedSteps: [StepRun] { steps.filter { !$0.passed } }

    /// The step the failure stopped the run at, when it ran: an unreachable
    /// server's step differs only by having had no answer, and the failure
    /// says why (a report shows it as that step's error, not a difference).
    var stoppingStep: StepRun? {
        guard let failure, let last = steps.last, !last.passed else { return nil }
        let message = switch failure { case let .broken(text), let .runtime(text): text }
        return message.hasPrefix("\(path):\(last.line): ") ? last : nil
    }

    /// Steps a failure kept from running: a report says so, lest "4 passed,
    /// 0 failed" read as a green run of a transcript that has 6.
    var notRun: Int { failure == nil && skipped == nil ? 0 : max(0, total - steps.count) }

    /// Those steps, where the transcript's steps are known.
    var stepsNotRun: [(line: Int, command: String)] { failure == nil && skipped == nil ? [] : Array(planned.dropFirst(steps.count)) }

    /// A torn last step fails the run until `--update` keeps it as a
    /// comment: a typo at the end of a hand-written file is not a pass.
    var passed: Bool { failure == nil && failedSteps.isEmpty && (torn == nil || rewritten) }

    var status: ExitStatus {
        switch failure {
        case .broken?: return .parse
        case .runtime?: return .runtime
        // Torn and differing: the file's fault comes first, as 2 comes before 4 everywhere else.
        case nil: return torn != nil && !rewritten ? .parse : !failedSteps.isEmpty ? .mismatch : .ok
        }
    }
}

/// One replayed step.
struct StepRun: Sendable {
    /// A step's command line as a report names it: a secret written in a
    /// hand-made file (`X-Api-Key:abc`) as `{{secret:NAME}}`, as history
    /// keeps it (reports and JUnit printed it as written).
    static func shown(_ command: String) -> String {
        let whole = shownWhole(command)
        // A 300,000-character line (a body typed inline) filled the CI log and a JUnit case's name.
        let limit = 200
        guard whole.count > limit else { return whole }
        return whole.prefix(limit) + "… (\(whole.count) characters)"
    }

    private static func shownWhole(_ command: String) -> String {
        let placeholder = TranscriptPattern.secretPlaceholder(forItem:)
        // History drops a login's password; a report keeps its place, as the transcript writes it.
        if let words = try? LineTokenizer.split(command).map(\.text), words.first?.lowercased() == "login" {
            let shown = Redactor.redact(words: words, hide: placeholder)
            return shown == words ? command : LineTokenizer.join(shown)
        }
        return Redactor.redact(line: command, hide: placeholder) ?? "(a line that cannot be shown: it may hold a secret)"
    }

    var line: Int
    /// The command as the transcript writes it (secrets as placeholders).
    var command: String
    var mismatches: [Mismatch]
    var duration: Duration
    /// `--update` wrote a new expectation for this step, which then counts as passed.
    var updated = false
    /// The step got no answer (nothing listening, a timeout) and the run
    /// stopped at it: its differences all follow from that, so it is said as
    /// the error it was, not as a failed step.
    var gotNoAnswer = false

    var passed: Bool { mismatches.isEmpty || updated }
}
