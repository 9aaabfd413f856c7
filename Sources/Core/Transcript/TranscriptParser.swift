import Foundation

/// Reads a transcript (docs/transcripts.md): the only place a transcript's
/// syntax is checked. Errors name a line and a column. A last step the file
/// ends in the middle of is returned as `Transcript.torn`, not as an error,
/// so the steps before it still run.
public enum TranscriptParser {
    /// Written before the status line when a 401 was cured by a refresh.
    public static let refreshLine = "(access token refreshed; request retried)"
    static let headerKeys = ["profile", "env", "base-url", "var", "login", "frames", "spec"]

    typealias Line = (number: Int, text: String)

    /// `<<<<<<< HEAD`, `=======`, `>>>>>>> branch`, `||||||| base`: git's, alone at a line's start.
    static func isConflictMarker(_ line: String) -> Bool {
        for mark in ["<<<<<<<", "=======", ">>>>>>>", "|||||||"] where line.hasPrefix(mark) {
            let rest = line.dropFirst(7)
            if rest.isEmpty || rest.first == " " { return true }
        }
        return false
    }

    public static func parse(_ text: String) throws(TranscriptParseError) -> Transcript {
        // Split on UTF-8 newlines: faster than by Character, and a CRLF file
        // splits too ("\r\n" is one Character, so it never equals "\n").
        var raw = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }
        let endsWithNewline = text.hasSuffix("\n")
        if endsWithNewline { raw.removeLast() }
        let lines: [Line] = raw.enumerated().map { ($0.offset + 1, $0.element) }
        guard !text.isEmpty, let first = lines.first else {
            throw TranscriptParseError(line: 1, column: 1, message: "empty file: a transcript starts with '\(Transcript.versionLine)'")
        }
        try checkVersion(first)
        // A merge left half done (`<<<<<<< HEAD`) read as a broken body or header, which said nothing of it.
        if let marker = lines.first(where: { isConflictMarker($0.text) }) {
            throw TranscriptParseError(line: marker.number, column: 1,
                                       message: "a merge conflict marker ('\(marker.text.prefix(7))'): resolve the conflict, keeping one side's steps, then run it again")
        }

        let commandIndices = lines.indices.filter { $0 > 0 && isCommand(lines[$0].text) }
        if commandIndices.isEmpty, !endsWithNewline, let last = lines.last {
            // The writer ends every line: a header without its last newline was cut, and what it said may be too.
            throw TranscriptParseError(line: last.number, column: last.text.count + 1, message: "the file ends in the middle of its header")
        }
        let preludeEnd = commandIndices.first ?? lines.count
        let (header, firstComments) = try parseHeader(Array(lines[1..<preludeEnd]))

        var transcript = Transcript(header: header)
        var leading = firstComments
        for (n, start) in commandIndices.enumerated() {
            let end = n + 1 < commandIndices.count ? commandIndices[n + 1] : lines.count
            let region = Array(lines[(start + 1)..<end])
            let lastResponse = region.lastIndex { !isNoise($0.text) }
            let response = lastResponse.map { Array(region[...$0]) } ?? []
            let after = lastResponse.map { Array(region[($0 + 1)...]) } ?? region
            let isLast = n == commandIndices.count - 1
            let command = lines[start]
            // The writer ends every line, so a last line without one may have
            // been cut; if the step still reads whole, an editor left off the
            // newline, and the step is kept.
            let cutInThisStep = isLast && !endsWithNewline && (response.last ?? command).number == lines.count
            // A cut command line reads whole (`delete /items/12` cut to `delete /items/1`): it is never run.
            if cutInThisStep, response.isEmpty {
                transcript.torn = TornStep(line: command.number, reason: "the file ends in the middle of this command line (no newline after it; if the line is whole, end the file with a newline)")
                leading = []
                break
            }
            do {
                var step = try parseStep(command, response)
                // Whole but for its newline: kept only when its last line closes a JSON body. A header
                // or text line reads whole cut anywhere (`Content-Type: applicatio`), and a cut after
                // any line drops the lines after it, so the step would check less than was recorded.
                if cutInThisStep, let last = response.last?.text.trimmingBlanks(), !last.hasSuffix("}"), !last.hasSuffix("]") {
                    transcript.torn = TornStep(line: command.number, reason: "the file ends in the middle of a line (no newline after it; if the step is whole, end the file with a newline)")
                    leading = []
                    break
                }
                step.comments = leading
                transcript.steps.append(step)
            } catch {
                // A step followed by its blank line was written whole: its mistake is a mistake, not a cut.
                // A last line without its newline, even one of spaces after the body, is a cut; so is a
                // body unfinished at the end with no blank line after it (the writer ends each step with one).
                guard isLast, (error.atEnd && !after.contains { $0.text.isEmpty }) || cutInThisStep || (!endsWithNewline && error.atEnd) else {
                    throw error.error
                }
                transcript.torn = TornStep(line: command.number, reason: cutInThisStep ? "the file ends in the middle of a line"
                                           : "the file ends inside this step (\(error.error.message))")
            }
            leading = trimBlank(after.map(\.text))
        }
        transcript.trailingComments = leading
        return transcript
    }

    /// The header and the comments before the first step, the steps left
    /// unread: what a list of transcripts shows (the REPL's tours), without
    /// parsing every step of every file at each start. A step's mistakes are
    /// found when the file is run.
    public static func prelude(_ text: String) throws(TranscriptParseError) -> (header: TranscriptHeader, comments: [String]) {
        var lines: [Line] = []
        for raw in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let line = String(decoding: raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw, as: UTF8.self)
            if !lines.isEmpty, isCommand(line) { break }
            lines.append((lines.count + 1, line))
        }
        guard !text.isEmpty, let first = lines.first else {
            throw TranscriptParseError(line: 1, column: 1, message: "empty file: a transcript starts with '\(Transcript.versionLine)'")
        }
        try checkVersion(first)
        return try parseHeader(Array(lines.dropFirst()))
    }

    private static func checkVersion(_ line: Line) throws(TranscriptParseError) {
        let text = line.text.trimmingBlanks()
        if text == Transcript.versionLine { return }
        let prefix = "# explorer transcript v"
        if text.hasPrefix(Transcript.versionLine + "\r") {
            // Lines ended by CR alone (a classic Mac's): the whole file was one line, quoted whole in the error.
            throw TranscriptParseError(line: 1, column: Transcript.versionLine.count + 1,
                                       message: "its lines end in a carriage return alone; save it with LF (or CRLF) line ends")
        }
        if text.hasPrefix(prefix) {
            let version = text.dropFirst(prefix.count - 1).prefix { !$0.isWhitespace && !$0.isNewline }.prefix(20)
            throw TranscriptParseError(line: 1, column: prefix.count + 1,
                                       message: "this explorer reads transcript v\(Transcript.version), not '\(version)'")
        }
        throw TranscriptParseError(line: 1, column: 1, message: "not a transcript: the first line must be '\(Transcript.versionLine)'")
    }

    static func isCommand(_ text: String) -> Bool { text.hasPrefix(">") }

    /// Blank lines and `#` comments: skipped between the lines of a response.
    static func isNoise(_ text: String) -> Bool {
        for byte in text.utf8 where byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
            // Other Unicode spaces count as blank too: the slow path, for them only.
            if byte >= 0x80 { return text.trimmingBlanks().isEmpty || isComment(text) }
            return byte == UInt8(ascii: "#")
        }
        return true
    }

    /// A `#` line, indented or not (no JSON line starts with `#`; text lines start with `|`).
    /// Asked of every line of every file: walks UTF-8, not characters.
    static func isComment(_ text: String) -> Bool {
        for byte in text.utf8 where byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
            return byte == UInt8(ascii: "#")
        }
        return false
    }

    private static func trimBlank(_ lines: [String]) -> [String] {
        var lines = lines
        while let first = lines.first, first.trimmingBlanks().isEmpty { lines.removeFirst() }
        while let last = lines.last, last.trimmingBlanks().isEmpty { lines.removeLast() }
        return lines
    }

    // MARK: Header

    /// The header fields, and the comments after the last field (they belong to the first step).
    private static func parseHeader(_ lines: [Line]) throws(TranscriptParseError) -> (TranscriptHeader, [String]) {
        var profile: (name: String, line: Int, column: Int)?
        var target: TranscriptHeader.Target?
        var variables: [TranscriptHeader.Variable] = []
        var login: String?
        var environment: String?
        var (environmentLine, environmentColumn) = (0, 0)
        var framesLive: Bool?
        var spec: String?
        var lastField = -1
        for (index, line) in lines.enumerated() where !isNoise(line.text) {
            lastField = index
            if [" ", "\t"].contains(line.text.first), line.text.trimmingBlanks().hasPrefix(">") {
                throw TranscriptParseError(line: line.number, column: line.text.prefix { $0 == " " || $0 == "\t" }.count + 1,
                                           message: "a command line starts with '> ' at the start of the line; this one is indented")
            }
            // A frame or response line above the first step (`← {"type":…}` was "unknown header field '← {"type"'").
            if let first = line.text.first, ["←", "→", "|"].contains(first) {
                throw TranscriptParseError(line: line.number, column: 1,
                                           message: "'\(first)' lines go under the step ('> command') they belong to; this one is above the first step")
            }
            guard let colon = line.text.firstIndex(of: ":") else {
                throw TranscriptParseError(line: line.number, column: 1,
                                           message: "expected a header field (\(headerKeys.map { $0 + ":" }.joined(separator: ", "))), a # comment or a step ('> command')")
            }
            let key = String(line.text[..<colon])
            let valueStart = line.text.index(after: colon)
            let value = line.text[valueStart...].trimmingBlanks()
            let valueColumn = line.text.distance(from: line.text.startIndex, to: valueStart) + 1
                + (line.text[valueStart...].prefix { $0 == " " }.count)
            func fail(_ message: String, column: Int? = nil) -> TranscriptParseError {
                TranscriptParseError(line: line.number, column: column ?? valueColumn, message: message)
            }
            switch key {
            case "profile":
                guard profile == nil else { throw fail("a second 'profile:' field", column: 1) }
                guard !value.isEmpty else { throw fail("'profile:' needs a profile name, such as linku") }
                profile = (value, line.number, valueColumn)
            case "env":
                guard environment == nil else { throw fail("a second 'env:' field", column: 1) }
                guard !value.isEmpty else { throw fail("'env:' needs the name of one of the profile's environments") }
                environment = value
                (environmentLine, environmentColumn) = (line.number, valueColumn)
            case "base-url":
                guard target == nil else { throw fail("a second 'base-url:' field", column: 1) }
                if value == "sandbox" {
                    target = .sandbox
                } else {
                    let value = URLCheck.lowercasingScheme(value)
                    guard let url = URL(string: value), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                        throw fail("'base-url:' is 'sandbox' or an http:// or https:// URL, not '\(value)'")
                    }
                    target = .url(value)
                }
            case "var":
                guard let eq = value.firstIndex(of: "="), TranscriptPattern.isName(String(value[..<eq])) else {
                    throw fail("'var:' is written NAME=VALUE, with a name of letters, digits and _")
                }
                if let problem = SecretResolver.nameProblem(in: value) { throw fail(problem.message, column: valueColumn + problem.offset) }
                variables.append(.init(name: String(value[..<eq]), value: String(value[value.index(after: eq)...])))
            case "login":
                guard !value.isEmpty else { throw fail("'login:' needs the email the session was logged in as") }
                login = value
            case "spec":
                guard spec == nil else { throw fail("a second 'spec:' field", column: 1) }
                guard !value.isEmpty else { throw fail("'spec:' needs the OpenAPI document's file, relative to the transcript") }
                spec = value
            case "frames":
                guard framesLive == nil else { throw fail("a second 'frames:' field", column: 1) }
                switch value {
                case "live": framesLive = true
                case "kept": framesLive = false
                default: throw fail("'frames:' is 'live' (frames were shown as they came, in the REPL) or 'kept' (they waited for ws recv), not '\(value)'")
                }
            default:
                throw fail("unknown header field '\(key)' (known: \(headerKeys.joined(separator: ", ")))", column: 1)
            }
        }
        let afterVersion = lines.first?.number ?? 2
        guard let profile else {
            throw TranscriptParseError(line: afterVersion, column: 1, message: "the header has no 'profile:' field")
        }
        guard let target else {
            throw TranscriptParseError(line: afterVersion, column: 1, message: "the header has no 'base-url:' field ('sandbox' or a URL)")
        }
        let fieldLines = lastField >= 0 ? lines[...lastField].map(\.text) : []
        var header = TranscriptHeader(profile: profile.name, target: target, variables: variables, login: login,
                                      profileLine: profile.line, profileColumn: profile.column, lines: fieldLines)
        header.environment = environment
        (header.environmentLine, header.environmentColumn) = (environmentLine, environmentColumn)
        header.framesLive = framesLive ?? false
        header.spec = spec
        return (header, trimBlank(lines[(lastField + 1)...].map(\.text)))
    }
}
