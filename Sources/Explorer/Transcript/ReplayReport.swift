import Core
import Foundation

/// Turns replay results into text: every step for `explorer replay`, one
/// line per transcript for `explorer test`, and under a failing step each
/// difference with its place (JSON path, header, line), expected and got.
struct ReplayReport {
    var palette: Palette
    /// Differences shown per step; the rest are counted.
    var shownMismatches = 10

    /// `explorer replay`: each step's verdict, then a count.
    func detailed(_ run: TranscriptRun) -> (out: String, err: String) {
        var out = heading(run.path)
        let width = String(run.steps.map(\.line).max() ?? 0).count
        for step in run.steps { out += self.step(step, lineWidth: width) }
        let (end, err) = ending(run)
        return (out + end, err)
    }

    /// `detailed` in three parts, for a replay printed as it goes: the path,
    /// each step as it finishes, then the count and what went wrong.
    func heading(_ path: String) -> String { palette.bold(Renderer.visible(path, keepingLines: false)) + "\n" }

    func step(_ step: StepRun, lineWidth width: Int) -> String {
        let line = "line " + String(step.line).leftPadded(to: width)
        if step.updated {
            return "  " + palette.yellow("updated") + " \(line)  \(step.command)\n" + differences(step, indent: "          ")
        } else if step.passed {
            return "  " + palette.green("ok     ") + " \(line)  \(step.command)\n"
        } else if step.gotNoAnswer {
            return "  " + palette.red("ERROR  ") + " \(line)  \(step.command)\n" + differences(step, indent: "          ")
        }
        return "  " + palette.red("FAIL   ") + " \(line)  \(step.command)\n" + differences(step, indent: "          ")
    }

    func ending(_ run: TranscriptRun) -> (out: String, err: String) {
        if let why = run.skipped { return ("skipped: \(Renderer.visible(why))\n", "") }
        // Not read at all: the error alone ("0 steps: 0 passed, 0 failed" came first).
        if case .broken? = run.failure, run.steps.isEmpty { return ("", problems(run)) }
        var out = ""
        let unanswered = run.failedSteps.filter(\.gotNoAnswer).count
        let failed = run.failedSteps.count - unanswered
        // Steps `--update` rewrote are said so: "9 passed, 0 failed" over three rewritten read as nothing changed.
        let updated = run.steps.filter(\.updated).count
        out += "\(Self.count(max(run.total, run.steps.count), "step")): \(run.steps.count - failed - unanswered - updated) passed, "
            + (updated > 0 ? "\(updated) updated, " : "") + "\(failed) failed"
            + (unanswered > 0 ? ", " + palette.red("\(unanswered) got no answer") : "") + notRun(run) + "\n"
        if run.rewritten {
            out += rewritten(run)
        } else if run.updateDropped {
            // Steps are shown as they finish ("updated"), before the run knows it will stop.
            // Not "before its end": the step that stopped it may be the last (a 5xx --update will not write down).
            out += palette.yellow("not rewritten: ") + "the run stopped at an error (below), so \(run.path) is as it was\n"
        }
        return (out, problems(run))
    }

    /// `explorer test`: one line per transcript, its differences under it.
    func progress(_ run: TranscriptRun) -> (out: String, err: String) {
        let seconds = Double(run.duration.components.seconds) + Double(run.duration.components.attoseconds) / 1e18
        let time = palette.dim(String(format: "%.2f s", seconds))
        if let why = run.skipped { return (palette.yellow("SKIP   ") + " \(run.path)  \(Renderer.visible(why))\n", "") }
        switch run.failure {
        // A failure names the file as given, and may quote a server: nothing in it drives the terminal.
        case let .broken(message)?: return (palette.red("BROKEN ") + " " + Renderer.visible(message) + "\n", torn(run))
        case let .runtime(message)?:
            return (palette.red("ERROR  ") + " " + run.path + "\n" + failedSteps(run) + "        " + Renderer.visible(message) + "\n"
                    + (run.notRun > 0 ? "        " + Self.count(run.notRun, "step") + " of \(run.total) did not run\n" : "")
                    + (run.rewritten ? "" : run.torn.map { "        \(run.path):\($0.line): \($0.reason)\n" } ?? ""), torn(run))
        case nil:
            let failed = run.failedSteps.count
            // The torn step's line and reason on standard output too, under its verdict, as every
            // other BROKEN line gives them: a CI log that keeps standard output alone had neither.
            if failed == 0, let torn = run.torn, !run.rewritten {
                return (palette.red("BROKEN ") + " \(run.path)  \(Self.count(run.steps.count, "step")) passed, the last is torn  \(time)\n"
                        + "        \(run.path):\(torn.line): \(torn.reason)\n", self.torn(run))
            }
            if failed == 0 {
                let verdict = run.rewritten ? palette.yellow("UPDATED") : palette.green("PASS   ")
                return (verdict + " \(run.path)  \(Self.count(run.steps.count, "step"))  \(time)\n" + (run.rewritten ? rewritten(run) : ""), torn(run))
            }
            let isTorn = run.torn != nil && !run.rewritten
            // Steps --update could not write (a line that did not run) fail it; those it wrote are said, as for a pass.
            return (palette.red(isTorn ? "BROKEN " : "FAIL   ") + " \(run.path)  \(failed) of \(Self.count(run.steps.count, "step")) differ"
                    + (isTorn ? ", the last is torn" : "") + "  \(time)\n" + failedSteps(run)
                    + (isTorn ? run.torn.map { "        \(run.path):\($0.line): \($0.reason)\n" } ?? "" : "")
                    + (run.rewritten ? rewritten(run) : ""), torn(run))
        }
    }

    /// The final line of `explorer test`.
    /// Those that could not run (`ERROR`) and could not be read (`BROKEN`) are
    /// counted as such, not as failed: they were "0 passed, 2 failed".
    static func summary(_ runs: [TranscriptRun]) -> String {
        let count = { (status: ExitStatus) in runs.filter { $0.status == status && $0.skipped == nil }.count }
        let updated = runs.filter { $0.status == .ok && $0.rewritten }.count
        var parts = ["\(count(.ok) - updated) passed"] + (updated > 0 ? ["\(updated) updated"] : []) + ["\(count(.mismatch)) failed"]
        if case let skipped = runs.filter({ $0.skipped != nil }).count, skipped > 0 { parts.append("\(skipped) skipped") }
        if count(.runtime) > 0 { parts.append("\(count(.runtime)) could not run") }
        if count(.parse) > 0 { parts.append("\(count(.parse)) broken") }
        return parts.joined(separator: ", ")
    }

    /// `, 2 did not run` after a count, when a failure stopped the run early.
    private func notRun(_ run: TranscriptRun) -> String {
        run.notRun > 0 ? ", " + palette.red("\(run.notRun) did not run") : ""
    }

    /// The steps that differ, each with its differences; the one a failure
    /// stopped at with none (an unreachable server's "got no HTTP response"
    /// under every part): the failure's line under it says why.
    private func failedSteps(_ run: TranscriptRun) -> String {
        let stopping = run.stoppingStep?.line
        return run.failedSteps.map { "        line \($0.line): \($0.command)\n" + ($0.line == stopping ? "" : differences($0, indent: "          ")) }.joined()
    }

    func differences(_ step: StepRun, indent: String) -> String {
        var text = ""
        for mismatch in step.mismatches.prefix(shownMismatches) {
            text += indent + palette.bold(mismatch.place.description) + "\n"
            // What a server sent may hold escape codes (a reason phrase, a header): shown escaped.
            text += indent + "  expected " + Renderer.visible(mismatch.expected, keepingLines: false) + "\n"
            text += indent + "  got      " + palette.red(Renderer.visible(mismatch.actual, keepingLines: false)) + "\n"
        }
        if step.mismatches.count > shownMismatches {
            text += indent + "… and \(step.mismatches.count - shownMismatches) more\n"
        }
        return text
    }

    private func rewritten(_ run: TranscriptRun) -> String {
        let lines = run.steps.filter(\.updated).map { String($0.line) }
        var text = "rewrote \(run.path)"
        if !lines.isEmpty { text += ": new expectations for the step\(lines.count == 1 ? "" : "s") at line\(lines.count == 1 ? "" : "s") \(lines.joined(separator: ", "))" }
        if run.torn != nil { text += (lines.isEmpty ? ": " : "; ") + "kept the torn last step as comments" }
        text += "\n"
        // A server error written down as what a step expects turns an outage into a passing suite: said.
        for step in run.steps where step.updated {
            guard let status = step.mismatches.first(where: { $0.place == .status })?.actual, status.hasPrefix("5") else { continue }
            text += palette.yellow("warning: ") + "line \(step.line) now expects \(Renderer.visible(status, keepingLines: false)), a server error: "
                + "check that it is meant before committing \(run.path)\n"
        }
        return text
    }

    private func problems(_ run: TranscriptRun) -> String {
        var text = torn(run)
        switch run.failure {
        case let .broken(message)?, let .runtime(message)?: text += palette.red("error: ") + Renderer.visible(message) + "\n"
        case nil: break
        }
        return text
    }

    private func torn(_ run: TranscriptRun) -> String {
        guard let torn = run.torn else { return "" }
        if run.rewritten { return "" }
        return palette.red("error: ") + "\(run.path):\(torn.line): the last step is torn, \(torn.reason); it was not replayed "
            + "(fix it, or --update keeps it as comments)\n"
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
