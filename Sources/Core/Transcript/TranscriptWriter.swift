import Foundation

/// Turns transcript values into text that `TranscriptParser` reads back.
/// Every piece ends with a newline and every step with a blank line, so a
/// recording can append and flush one step at a time.
public enum TranscriptWriter {
    /// The version line, the header fields and a blank line.
    public static func start(_ header: TranscriptHeader) -> String {
        ([Transcript.versionLine] + header.lines + [""]).joined(separator: "\n") + "\n"
    }

    /// One step: its comments, `> command`, the response, then a blank line.
    public static func step(_ step: TranscriptStep) -> String {
        let lines = step.comments + ["> " + step.command] + step.innerComments + response(step.expectation) + [""]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A comment line; `text` may or may not start with `#` already.
    public static func comment(_ text: String) -> String {
        let trimmed = text.trimmingBlanks()
        return (trimmed.hasPrefix("#") ? trimmed : "# " + trimmed) + "\n"
    }

    /// A whole file in the writer's form, which the parser reads back (a
    /// torn last step is dropped). `--update` does not use it: it rewrites
    /// only the steps that differ (`rewriting`).
    public static func transcript(_ transcript: Transcript) -> String {
        var text = start(transcript.header)
        for step in transcript.steps { text += self.step(step) }
        if !transcript.trailingComments.isEmpty { text += transcript.trailingComments.joined(separator: "\n") + "\n" }
        return text
    }

    /// `text` (a transcript file) with `steps` written anew, each in place of
    /// the lines of the step at its `line`: its command to its last response
    /// line. Every other byte stays as it was (comments, blank lines,
    /// indentation, a byte-order mark, CRLF line ends), so `--update`
    /// changes only the steps it names. A `torn` step's lines, to the end,
    /// become comments for a person to mend. `scrub` is applied to each
    /// line written anew (it hides the secrets a server answered).
    public static func rewriting(_ text: String, steps: [TranscriptStep], torn: TornStep? = nil,
                                 scrub: (String) -> String = { $0 }) -> String {
        // Split on UTF-8 newlines: "\r\n" is one Character, which never equals "\n".
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let crlf = lines.first?.utf8.last == UInt8(ascii: "\r")
        let endsWithNewline = lines.last == ""
        if endsWithNewline { lines.removeLast() }
        func bare(_ index: Int) -> String { lines[index].hasSuffix("\r") ? String(lines[index].dropLast()) : lines[index] }
        var replacements: [(range: Range<Int>, with: [String])] = []
        if let torn, torn.line >= 1, torn.line <= lines.count {
            let cut = (torn.line - 1)..<lines.count
            let commented = cut.map { "# " + bare($0) }.reversed().drop { $0.trimmingBlanks() == "#" }.reversed()
            replacements.append((cut, ["# The step below was torn and is not replayed; mend it and remove the #s."] + commented))
        }
        for step in steps where step.line >= 1 && step.line <= lines.count {
            let start = step.line - 1
            var end = start + 1
            while end < lines.count, !TranscriptParser.isCommand(bare(end)), end != (torn?.line ?? 0) - 1 { end += 1 }
            while end > start + 1, TranscriptParser.isNoise(bare(end - 1)) { end -= 1 }
            // A command that ended the file, its answer never written, gets the blank line the writer ends a step with.
            let after = end == lines.count && end == start + 1 ? [""] : []
            replacements.append((start..<end, (["> " + step.command] + step.innerComments + response(step.expectation)).map(scrub) + after))
        }
        // A step written anew at the end of a file without its last newline gets one: without it, the
        // next run took the file for cut in that step's last line (and a second --update commented it out).
        let rewritesTheEnd = replacements.contains { $0.range.upperBound == lines.count }
        for (range, written) in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            lines.replaceSubrange(range, with: crlf ? written.map { $0 + "\r" } : written)
        }
        return lines.joined(separator: "\n") + (endsWithNewline || rewritesTheEnd ? "\n" : "")
    }

    /// The lines after the command, in the order the parser expects them.
    public static func response(_ expectation: Expectation) -> [String] {
        var lines: [String] = []
        if expectation.refreshed { lines.append(TranscriptParser.refreshLine) }
        if let status = expectation.status {
            // A reason is never compared: its control characters are written as `\u{1B}`, not as themselves.
            let reason = String(expectation.reason.unicodeScalars.map { PatternText.isControl($0) ? "\\u{\(String($0.value, radix: 16, uppercase: true))}" : String($0) }.joined())
            lines.append(reason.isEmpty ? "\(expectation.version) \(status)" : "\(expectation.version) \(status) \(reason)")
        }
        lines += expectation.headers.map { "\($0.name): \($0.value)" }
        switch expectation.body {
        case nil: break
        case let .json(value)?: lines += value.pretty().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        case let .text(texts)?: lines += texts.map { $0.pieces.isEmpty ? "|" : "| \($0)" }
        case let .binary(summary)?: lines.append("(binary body: \(summary))")
        }
        lines += expectation.errors.map { "error: \($0)" }
        lines += expectation.notes.map { "note: \($0)" }
        if let options = frameOptions(expectation) { lines.append(options) }
        lines += frames(expectation.frames)
        return lines
    }

    /// `(frames in any order, within 10 s)`, or nil when the step keeps the defaults.
    static func frameOptions(_ expectation: Expectation) -> String? {
        var parts: [String] = []
        if expectation.framesInAnyOrder { parts.append("in any order") }
        if let timeout = expectation.frameTimeout { parts.append("within " + TranscriptMatcher.seconds(timeout)) }
        return parts.isEmpty ? nil : "(frames " + parts.joined(separator: ", ") + ")"
    }

    /// Frames, each `→ ` or `← ` and its JSON (pretty, over several lines), text or summary.
    public static func frames(_ frames: [ExpectedFrame]) -> [String] {
        frames.flatMap { frame -> [String] in
            let arrow = frame.direction.arrow + " "
            switch frame.content {
            case let .json(value):
                var lines = value.pretty().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                lines[0] = arrow + lines[0]
                return lines
            case let .text(text): return [arrow + "(text) " + text.description]
            case let .binary(summary): return [arrow + "(" + summary + ")"]
            case let .closed(code, reason): return [arrow + "(" + ObservedFrame.closeSummary(code: code, reason: reason) + ")"]
            }
        }
    }

    /// Frames that came after their step was written: appended below it, they
    /// still belong to it (a step runs to the next command line).
    public static func lateFrames(_ frames: [ExpectedFrame]) -> String {
        (self.frames(frames) + [""]).joined(separator: "\n") + "\n"
    }
}
