import Core
import Foundation

/// JUnit XML for CI (`explorer test --junit FILE`): one test suite per
/// transcript, one test case per step. A transcript that could not run is
/// a suite with one errored case, so CI shows why (the step it stopped at,
/// when that ran: an unreachable server's), and the steps it kept from
/// running are skipped cases. A failure's message is its first difference,
/// which is what CI dashboards show.
enum JUnitReport {
    /// What the report file holds while the run goes: one errored case, so a
    /// run that never ends (stopped, killed) is not read as the last run's result.
    static let unfinished = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="explorer test" tests="1" failures="0" errors="1" skipped="0" time="0.000">
          <testsuite name="explorer test" tests="1" failures="0" errors="1" skipped="0" time="0.000">
            <testcase classname="explorer test" name="the run" time="0.000"><error message="the run did not finish (stopped or killed before it wrote its report)"/></testcase>
          </testsuite>
        </testsuites>

        """

    /// The differences a failed case lists; the rest are counted.
    static let listedMismatches = 100

    static func xml(_ runs: [TranscriptRun]) -> String {
        let failures = runs.reduce(0) { $0 + failed($1).count }
        let errors = runs.filter { $0.failure != nil || isTorn($0) }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"explorer test\" tests=\"\(runs.reduce(0) { $0 + cases($1) })\" failures=\"\(failures)\" errors=\"\(errors)\" "
            + "skipped=\"\(runs.reduce(0) { $0 + $1.stepsNotRun.count })\" time=\"\(seconds(runs.reduce(.zero) { $0 + $1.duration }))\">\n"
        for run in runs {
            let stopping = run.stoppingStep
            xml += "  <testsuite name=\"\(escape(run.path))\" tests=\"\(cases(run))\" failures=\"\(failed(run).count)\" errors=\"\(run.failure == nil && !isTorn(run) ? 0 : 1)\" "
                + "skipped=\"\(run.stepsNotRun.count)\" time=\"\(seconds(run.duration))\">\n"
            for step in run.steps {
                xml += "    <testcase classname=\"\(escape(run.path))\" name=\"\(escape("line \(step.line): \(step.command)"))\" time=\"\(seconds(step.duration))\""
                if step.passed {
                    xml += "/>\n"
                } else {
                    // Bounded as the console's are: 500,001 differences made a 46 MB report.
                    let details = step.mismatches.prefix(Self.listedMismatches).map(\.description).joined(separator: "\n")
                        + (step.mismatches.count > Self.listedMismatches ? "\n… and \(step.mismatches.count - Self.listedMismatches) more" : "")
                    let (element, message) = step.line == stopping?.line ? ("error", failureText(run.failure)) : ("failure", summary(step.mismatches))
                    xml += ">\n      <\(element) message=\"\(escape(message))\">\(escape(details))</\(element)>\n    </testcase>\n"
                }
            }
            // A failure before any step it names (a secret nobody supplied) is a case of its own.
            if let failure = run.failure, stopping == nil {
                xml += "    <testcase classname=\"\(escape(run.path))\" name=\"\(escape(run.path))\" time=\"0.000\"><error message=\"\(escape(failureText(failure)))\"/></testcase>\n"
            }
            // The steps the failure kept from running: skipped, so CI counts the transcript's every step.
            let why = run.skipped.map { "not run: " + $0 } ?? "did not run: the transcript stopped before it"
            for step in run.stepsNotRun {
                xml += "    <testcase classname=\"\(escape(run.path))\" name=\"\(escape("line \(step.line): \(step.command)"))\" time=\"0.000\">"
                    + "<skipped message=\"\(escape(why))\"/></testcase>\n"
            }
            // A torn last step fails the run (exit 2, BROKEN): CI reading the XML must see it too.
            if let torn = run.torn, isTorn(run) {
                xml += "    <testcase classname=\"\(escape(run.path))\" name=\"\(escape("line \(torn.line): the last step"))\" time=\"0.000\">"
                    + "<error message=\"\(escape("the last step is torn, \(torn.reason)"))\"/></testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// A case per step, run or skipped, and one more for a failure that
    /// stopped the transcript before a step it names.
    private static func cases(_ run: TranscriptRun) -> Int {
        run.steps.count + run.stepsNotRun.count + (run.failure == nil || run.stoppingStep != nil ? 0 : 1) + (isTorn(run) ? 1 : 0)
    }

    /// The steps that differ, not the one a failure stopped at (an error).
    private static func failed(_ run: TranscriptRun) -> [StepRun] {
        let stopping = run.stoppingStep?.line
        return run.failedSteps.filter { $0.line != stopping }
    }

    /// The first difference's first line, and how many more: what a CI
    /// dashboard shows of a failure (it was "3 differences").
    private static func summary(_ mismatches: [Mismatch]) -> String {
        guard let first = mismatches.first?.description.split(separator: "\n", omittingEmptySubsequences: false).first else { return "differs" }
        return String(first) + (mismatches.count > 1 ? " (and \(mismatches.count - 1) more)" : "")
    }

    private static func failureText(_ failure: TranscriptRun.Failure?) -> String {
        switch failure {
        case let .broken(text)?, let .runtime(text)?: text
        case nil: ""
        }
    }

    /// A torn last step that `--update` did not turn into comments.
    private static func isTorn(_ run: TranscriptRun) -> Bool { run.failure == nil && run.torn != nil && !run.rewritten }

    private static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%.3f", value)
    }

    /// XML text: markup characters escaped, characters XML 1.0 forbids
    /// written as the console writes them (`\u001b`): dropped, a failure
    /// showed `got line[31m red`, a value the server never sent.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
