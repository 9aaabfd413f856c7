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
    var torn: TornStep?
    /// `--update` rewrote the file.
    var rewritten = false
    var duration: Duration = .zero

    var failedSteps: [StepRun] { steps.filter { !$0.passed } }

    var passed: Bool { failure == nil && failedSteps.isEmpty }

    var status: ExitStatus {
        switch failure {
        case .broken?: return .parse
        case .runtime?: return .runtime
        case nil: return failedSteps.isEmpty ? .ok : .mismatch
        }
    }
}

/// One replayed step.
struct StepRun: Sendable {
    var line: Int
    /// The command as the transcript writes it (secrets as placeholders).
    var command: String
    var mismatches: [Mismatch]
    var duration: Duration
    /// `--update` wrote a new expectation for this step, which then counts as passed.
    var updated = false

    var passed: Bool { mismatches.isEmpty || updated }
}
