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
        // `>` then a tab (an editor's indent) was kept in the command, and in the step's name in every report.
        if text.hasPrefix(" ") || text.hasPrefix("\t") { text.removeFirst() }
        guard !text.trimmingBlanks().isEmpty else {
            throw StepFailure(error: TranscriptParseError(line: command.number, column: 1, message: "'>' needs a command after it"), atEnd: false)
        }
        // Said here, at its place, rather than at the run, which asked to set a variable no shell can set.
        if let problem = SecretResolver.nameProblem(in: text) {
            let column = command.text.count - text.count + problem.offset + 1
            throw StepFailure(error: TranscriptParseError(line: command.number, column: column, message: problem.message), atEnd: false)
        }
        // No response line starts with `>` (JSON, `| ` text, headers, frames): an indented command
        // line, read as part of the step above, whose body then "had text after it".
        if let indented = lines.first(where: { [" ", "\t"].contains($0.text.first) && $0.text.trimmingBlanks().hasPrefix(">") }) {
            let column = indented.text.prefix { $0 == " " || $0 == "\t" }.count + 1
            throw StepFailure(error: TranscriptParseError(line: indented.number, column: column,
                                                          message: "a command line starts with '> ' at the start of the line; this one is indented"), atEnd: false)
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

        /// Trailing spaces are dropped from every line but a text body's and a
        /// text frame's, where they may be the answer's: on a status, header,
        /// `note:` or `error:` line an editor's stray spaces made a difference
        /// no one could see.
        init(lines: [Line]) {
            self.lines = lines.map { line in
                let text = line.text
                guard text.last == " " || text.last == "\t", !text.hasPrefix("|"), !text.hasPrefix("→ (text)"), !text.hasPrefix("← (text)") else {
                    return line
                }
                var trimmed = Substring(text)
                while trimmed.last == " " || trimmed.last == "\t" { trimmed.removeLast() }
                return (line.number, String(trimmed))
            }
        }

        private func fail(_ line: Line, _ column: Int, _ message: String, atEnd: Bool = false) -> StepFailure {
            StepFailure(error: TranscriptParseError(line: line.number, column: column, message: message), atEnd: atEnd)
        }

        private mutating func skipNoise() {
            while index < lines.count, isNoise(lines[index].text) {
                if isComment(lines[index].text) { comments.append(lines[index].text.trimmingBlanks()) }
                index += 1
            }
        }

        private var current: Line? { index < lines.count ? lines[index] : nil }

        /// Asked of every line of every body: its first byte first (a JSON
        /// line starts with a blank, a bracket or a quote).
        private static func isTrailer(_ text: String) -> Bool {
            switch text.utf8.first {
            case UInt8(ascii: "e"): text.hasPrefix("error: ")
            case UInt8(ascii: "n"): text.hasPrefix("note: ")
            case UInt8(ascii: "("): text.hasPrefix("(frames ")
            case 0xE2: isFrameLine(text)  // the first byte of → and ←
            default: false
            }
        }

        /// `→ …` or `← …`: the first line of a frame.
        static func isFrameLine(_ text: String) -> Bool { text.hasPrefix("→ ") || text.hasPrefix("← ") }

        mutating func read() throws(StepFailure) -> Expectation {
            var expectation = Expectation()
            skipNoise()
            if current?.text == refreshLine {
                expectation.refreshed = true
                index += 1
                skipNoise()
            }
            // A status line misspelt (`HTTTP/1.1 200 OK`, `http/1.1 200`) was read as a body: "expected a JSON value…, found 'H'".
            if let line = current, !line.text.hasPrefix("HTTP/"), let word = line.text.prefixMatch(of: /[A-Za-z]{2,8}\/[0-9.]+ [0-9]{3}\b/) {
                let version = word.output.prefix { $0 != " " }
                throw fail(line, 1, "expected a status line such as 'HTTP/1.1 200 OK', not one that starts '\(version)'")
            }
            if let line = current, line.text.hasPrefix("HTTP/") {
                let parts = line.text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count >= 2, parts[1].count == 3, let code = Int(parts[1]) else {
                    throw fail(line, line.text.prefix { $0 != " " }.count + 2, "expected a status line such as 'HTTP/1.1 200 OK'")
                }
                expectation.status = code
                expectation.reason = parts.count > 2 ? String(parts[2]) : ""
                expectation.version = String(parts[0])
                index += 1
                skipNoise()
                while let line = current, let header = try header(line) {
                    expectation.headers.append(header)
                    index += 1
                    skipNoise()
                }
            }
            // A header with no status line above it (the line deleted by hand) was "expected a JSON value…, found 'C'".
            if expectation.status == nil, let line = current, (try? header(line)) != nil {
                throw fail(line, 1, "a header line needs the status line above it, such as 'HTTP/1.1 200 OK'")
            }
            // A status written as its code alone (`404`, `404 Not Found`) above a header: read as a JSON body, it was
            // "unexpected text after the body" at the next line.
            // So with its reason phrase (`404 Not Found`), or above a body (`200` then `{`).
            if expectation.status == nil, let line = current, line.text.wholeMatch(of: /[1-5][0-9]{2}( .*)?/) != nil,
               line.text.wholeMatch(of: /[0-9]{3} [A-Za-z].*/) != nil
                || index + 1 < lines.count && ((try? header(lines[index + 1])) != nil || ["{", "[", "|"].contains(lines[index + 1].text.first.map(String.init) ?? "")) {
                throw fail(line, 1, "expected a status line such as 'HTTP/1.1 \(line.text.prefix(3)) …', with its HTTP version before the code")
            }
            expectation.body = try body()
            while let line = current {
                if Self.isFrameLine(line.text) {
                    expectation.frames.append(try frame())
                    continue
                }
                if line.text.hasPrefix("(frames ") {
                    try frameOptions(line, into: &expectation)
                    index += 1
                    skipNoise()
                    continue
                }
                let value = try patternText(line, from: line.text.hasPrefix("error: ") ? 7 : 6)
                if line.text.hasPrefix("error: ") {
                    expectation.errors.append(value)
                } else if line.text.hasPrefix("note: ") {
                    expectation.notes.append(value)
                } else {
                    throw fail(line, 1, "expected 'error: …', 'note: …' or a frame ('→ …', '← …') after the body; a text body's lines start with '| '")
                }
                index += 1
                skipNoise()
            }
            return expectation
        }

        /// `(frames in any order)`, `(frames within 10 s)`, or both: `(frames in any order, within 10 s)`.
        private func frameOptions(_ line: Line, into expectation: inout Expectation) throws(StepFailure) {
            let usage = "expected '(frames in any order)', '(frames within SECONDS s)' or '(frames in any order, within SECONDS s)'"
            guard line.text.hasSuffix(")") else { throw fail(line, line.text.count, usage) }
            let inner = line.text.dropFirst("(frames ".count).dropLast()
            var column = "(frames ".count + 1
            for part in inner.split(separator: ",", omittingEmptySubsequences: false) {
                let words = part.split(separator: " ")
                if words == ["in", "any", "order"] {
                    expectation.framesInAnyOrder = true
                } else if words.count == 3, words[0] == "within", words[2] == "s", let seconds = Double(words[1]), seconds > 0, seconds <= 3600 {
                    expectation.frameTimeout = seconds
                } else {
                    throw fail(line, column + part.prefix { $0 == " " }.count, usage)
                }
                column += part.count + 1
            }
        }

        /// One frame: its first line, and for JSON the lines up to the next frame, `error:`/`note:` or the end.
        private mutating func frame() throws(StepFailure) -> ExpectedFrame {
            let first = lines[index]
            let direction: FrameDirection = first.text.hasPrefix("→") ? .sent : .received
            let rest = String(first.text.dropFirst(2))
            if rest.hasPrefix("(text) ") {
                let text = try patternText(first, from: 2 + "(text) ".count)
                index += 1
                skipNoise()
                return ExpectedFrame(direction, .text(text))
            }
            if rest.hasPrefix("(binary frame, "), rest.hasSuffix(")") {
                index += 1
                skipNoise()
                return ExpectedFrame(direction, .binary(String(rest.dropFirst().dropLast())))
            }
            if rest.hasPrefix("(closed "), rest.hasSuffix(")"), let close = ObservedFrame.close(summary: rest.dropFirst().dropLast()) {
                index += 1
                skipNoise()
                return ExpectedFrame(direction, .closed(code: close.code, reason: close.reason))
            }
            // The JSON starts after the arrow; two spaces keep its columns where the file has them.
            index += 1
            return ExpectedFrame(direction, .json(try json(startingWith: "  " + rest, at: first)))
        }

        /// A JSON value from `text` and the lines after it, up to the next
        /// frame, `error:`/`note:` line or the end. Comments inside become
        /// blank lines (and are kept), so error positions stay right.
        private mutating func json(startingWith text: String?, at first: Line) throws(StepFailure) -> ExpectedValue {
            var block = text.map { [$0] } ?? []
            while let line = current, !Self.isTrailer(line.text) {
                block.append(isComment(line.text) ? "" : line.text)
                if isComment(line.text) { comments.append(line.text.trimmingBlanks()) }
                index += 1
            }
            let isLastLine = index == lines.count
            do {
                return try ExpectedJSONParser.parse(block.joined(separator: "\n"))
            } catch {
                let line = (first.number + error.line - 1, "")
                // `Content-Type application/json` under the status line: a header without its colon, not bad JSON.
                if text == nil, error.line == 1, error.column == 1, let word = block.first?.split(separator: " ", maxSplits: 1).first,
                   word.count < (block.first?.count ?? 0), word.first?.isLetter == true,
                   word.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) {
                    throw fail(line, word.count + 1, "expected a header (\(word): value, its name ends with a colon) or a body (JSON, or text lines starting '| ')")
                }
                throw fail(line, error.column, error.reason, atEnd: error.atEnd && isLastLine)
            }
        }

        /// `Name: value` right after the status line.
        private func header(_ line: Line) throws(StepFailure) -> (name: String, value: PatternText)? {
            guard let colon = line.text.firstIndex(of: ":") else { return nil }
            let name = String(line.text[..<colon])
            let token = !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            guard token, !["error", "note"].contains(name.lowercased()) else { return nil }
            let rest = line.text[line.text.index(after: colon)...]
            // `Name: value`, and as hands write it too: `Name:value`, `Name:<tab>value` (each was "expected a JSON value").
            guard let first = rest.first else { return nil }
            let skipped = rest.prefix { $0 == " " || $0 == "\t" }.count
            guard first == " " || first == "\t" || !first.isWhitespace else { return nil }
            return (name, try patternText(line, from: name.count + 1 + skipped))
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
            // A JSON body runs to the first frame, error or note line.
            return .json(try json(startingWith: nil, at: first))
        }
    }
}
