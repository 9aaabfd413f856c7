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
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return (trimmed.hasPrefix("#") ? trimmed : "# " + trimmed) + "\n"
    }

    /// A whole file (re-blessing rewrites it). A torn last step is dropped.
    public static func transcript(_ transcript: Transcript) -> String {
        var text = start(transcript.header)
        for step in transcript.steps { text += self.step(step) }
        if !transcript.trailingComments.isEmpty { text += transcript.trailingComments.joined(separator: "\n") + "\n" }
        return text
    }

    /// The lines after the command, in the order the parser expects them.
    public static func response(_ expectation: Expectation) -> [String] {
        var lines: [String] = []
        if expectation.refreshed { lines.append(TranscriptParser.refreshLine) }
        if let status = expectation.status {
            lines.append(expectation.reason.isEmpty ? "HTTP/1.1 \(status)" : "HTTP/1.1 \(status) \(expectation.reason)")
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
        return lines
    }
}
