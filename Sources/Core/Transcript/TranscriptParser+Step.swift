import Foundation

/// A step: its command line and the lines of its response, read in the
/// order `TranscriptWriter` writes them.
extension TranscriptParser {
    /// A step's syntax error, and whether it is the end of the text that cut it short.
    struct StepFailure: Error {
        let error: TranscriptParseError
        let atEnd: Bool
    }

    static func parseStep(_ command: Line, _ lines: [Line]) throws(StepFailure) -> TranscriptStep {
        var text = String(command.text.dropFirst())
        if text.hasPrefix(" ") { text.removeFirst() }
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw StepFailure(error: TranscriptParseError(line: command.number, column: 1, message: "'>' needs a command after it"), atEnd: false)
        }
        var reader = ResponseReader(lines: lines)
        let expectation = try reader.read()
        return TranscriptStep(command: text, line: command.number, expectation: expectation, innerComments: reader.comments)
    }

    /// Walks the lines of one response, in the order the writer puts them.
    private struct ResponseReader {
        let lines: [Line]
        var index = 0
        var comments: [String] = []

        init(lines: [Line]) { self.lines = lines }

        private func fail(_ line: Line, _ column: Int, _ message: String, atEnd: Bool = false) -> StepFailure {
            StepFailure(error: TranscriptParseError(line: line.number, column: column, message: message), atEnd: atEnd)
        }

        private mutating func skipNoise() {
            while index < lines.count, isNoise(lines[index].text) {
                if isComment(lines[index].text) { comments.append(lines[index].text.trimmingCharacters(in: .whitespaces)) }
                index += 1
            }
        }

        private var current: Line? { index < lines.count ? lines[index] : nil }

        private static func isTrailer(_ text: String) -> Bool { text.hasPrefix("error: ") || text.hasPrefix("note: ") }

        mutating func read() throws(StepFailure) -> Expectation {
            var expectation = Expectation()
            skipNoise()
            if current?.text == refreshLine {
                expectation.refreshed = true
                index += 1
                skipNoise()
            }
            if let line = current, line.text.hasPrefix("HTTP/") {
                let parts = line.text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count >= 2, parts[1].count == 3, let code = Int(parts[1]) else {
                    throw fail(line, line.text.prefix { $0 != " " }.count + 2, "expected a status line such as 'HTTP/1.1 200 OK'")
                }
                expectation.status = code
                expectation.reason = parts.count > 2 ? String(parts[2]) : ""
                index += 1
                skipNoise()
                while let line = current, let header = try header(line) {
                    expectation.headers.append(header)
                    index += 1
                    skipNoise()
                }
            }
            expectation.body = try body()
            while let line = current {
                let value = try patternText(line, from: line.text.hasPrefix("error: ") ? 7 : 6)
                if line.text.hasPrefix("error: ") {
                    expectation.errors.append(value)
                } else if line.text.hasPrefix("note: ") {
                    expectation.notes.append(value)
                } else {
                    throw fail(line, 1, "expected 'error: …' or 'note: …' after the body; a text body's lines start with '| '")
                }
                index += 1
                skipNoise()
            }
            return expectation
        }

        /// `Name: value` right after the status line.
        private func header(_ line: Line) throws(StepFailure) -> (name: String, value: PatternText)? {
            guard let colon = line.text.firstIndex(of: ":") else { return nil }
            let name = String(line.text[..<colon])
            let token = !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            guard token, !["error", "note"].contains(name.lowercased()) else { return nil }
            let rest = line.text[line.text.index(after: colon)...]
            guard rest.hasPrefix(" ") else { return nil }
            return (name, try patternText(line, from: name.count + 2))
        }

        private func patternText(_ line: Line, from offset: Int) throws(StepFailure) -> PatternText {
            do { return try PatternText.parse(String(line.text.dropFirst(offset))) } catch {
                throw fail(line, offset + error.offset + 1, error.reason)
            }
        }

        private mutating func body() throws(StepFailure) -> Expectation.Body? {
            guard let first = current, !Self.isTrailer(first.text) else { return nil }
            if first.text.hasPrefix("|") {
                var texts: [PatternText] = []
                while let line = current, line.text.hasPrefix("|") {
                    guard line.text == "|" || line.text.hasPrefix("| ") else {
                        throw fail(line, 2, "a text line is '| ' followed by the text")
                    }
                    texts.append(try patternText(line, from: 2))
                    index += 1
                    skipNoise()
                }
                return .text(texts)
            }
            if first.text.hasPrefix("(binary body: "), first.text.hasSuffix(")") {
                index += 1
                skipNoise()
                return .binary(String(first.text.dropFirst("(binary body: ".count).dropLast()))
            }
            // A JSON body runs to the first error or note line; comments inside
            // it become blank lines so that error positions stay right.
            var block: [String] = []
            while let line = current, !Self.isTrailer(line.text) {
                block.append(isComment(line.text) ? "" : line.text)
                if isComment(line.text) { comments.append(line.text.trimmingCharacters(in: .whitespaces)) }
                index += 1
            }
            let isLastLine = index == lines.count
            do {
                return .json(try ExpectedJSONParser.parse(block.joined(separator: "\n")))
            } catch {
                let line = (first.number + error.line - 1, "")
                throw fail(line, error.column, error.reason, atEnd: error.atEnd && isLastLine)
            }
        }
    }
}
