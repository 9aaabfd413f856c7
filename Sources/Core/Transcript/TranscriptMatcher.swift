import Foundation

/// Compares what a step expected with what came back, step after step, and
/// keeps the captures bound along the way. Differences are returned as data
/// (`Mismatch`, with the JSON path of each); nothing is printed.
///
/// Rules (docs/transcripts.md, "Matching"): literals compare as JSON (so
/// `8` equals `8.0`); object key order does not matter; keys the live object
/// has but the expectation does not are a mismatch unless the object holds
/// `...`; arrays compare in order and length unless they hold `...`, which
/// asks only that each listed element matches a different live element.
public struct TranscriptMatcher: Sendable {
    /// Captures bound so far, by name.
    public private(set) var captures: [String: Capture] = [:]
    /// Capture names in the order they were bound: `captureOrder[n...]` are
    /// those bound since there were `n`, found without walking every capture.
    public private(set) var captureOrder: [String] = []
    /// Session variables (`base_url`, `set NAME=…`): what `{{name}}` means
    /// when no capture has that name.
    public var variables: [String: String]
    /// Looked up after `variables`: names a replay adds for what a step
    /// expects (`ws_base_url`). Kept apart so that `variables` can be the
    /// session's own dictionary, shared, not a copy made at every step.
    public var extraVariables: [String: String] = [:]

    public init(variables: [String: String] = [:]) { self.variables = variables }

    private func variable(_ name: String) -> String? { variables[name] ?? extraVariables[name] }

    /// " (did you mean {{note_id}}?)": a capture or variable near the name, else a kind word.
    private func nearest(_ name: String) -> String {
        let names = Array(captures.keys) + variables.keys.filter { !$0.hasPrefix("secret:") }
        if let near = Core.nearest(to: name, in: names.sorted(), near: { distance, _ in distance <= max(1, min(2, name.count / 3)) }) {
            return " (did you mean {{\(near)}}?)"
        }
        return TranscriptPattern.nearestKindWord(name).map { " (did you mean {{\($0)}}?)" } ?? ""
    }

    /// The differences for one step; captures the step binds are kept.
    public mutating func match(_ expected: Expectation, _ observed: Observation) -> [Mismatch] {
        var found: [Mismatch] = []
        // A refresh the recording did not have is no difference: the replay's tokens expire on their
        // own clock (a suite longer than a token's life). One it had, caused on purpose, must happen.
        if expected.refreshed, !observed.refreshed {
            found.append(Mismatch(.refresh, expected: "a token refresh and a retry", actual: "no refresh"))
        }
        switch (expected.status, observed.status) {
        case (nil, nil): break
        case let (code?, actual?) where code == actual: break
        case let (code, actual):
            found.append(Mismatch(.status, expected: code.map { "\($0) \(expected.reason)".trimmed } ?? "no HTTP request",
                                  actual: actual.map { "\($0) \(observed.reason)".trimmed } ?? "no HTTP response"))
        }
        // A header that differs is compared again once the body is: a capture the body binds is what a header
        // may name (`Location: /orders/{{order_id}}`, compared while nothing was bound, failed).
        var differing: [(header: (name: String, value: PatternText), values: [String])] = []
        for header in expected.headers {
            let values = observed.headers.filter { $0.name.lowercased() == header.name.lowercased() }.map(\.value)
            guard !values.isEmpty else {
                found.append(Mismatch(.header(header.name), expected: header.value.description, actual: "no such header"))
                continue
            }
            if !expected.capturedHeaders.contains(header.name.lowercased()), !values.contains(where: { matchHeader(header.name, header.value, $0) }) {
                differing.append((header, values))
            }
        }
        var inBody: [Mismatch] = []
        matchBody(expected.body, observed.body, into: &inBody)
        let bodyMatched = expected.body != nil && inBody.isEmpty
        for (header, values) in differing where !values.contains(where: { matchHeader(header.name, header.value, $0) }) {
            let shown = Redactor.redact(header: HTTPHeader(name: header.name, value: values[0])).value
            found.append(Mismatch(.header(header.name), expected: header.value.description, actual: shown))
        }
        found += inBody
        let beforeErrors = found.count
        matchLines(expected.errors, observed.errors, place: Mismatch.Place.error, into: &found)
        // The first error line under a 4xx or 5xx is explorer's reading of the answer (`422: title: can't be blank`,
        // once `422 Unprocessable Entity`): with the status and a recorded body matching, another explorer's wording
        // of the same answer is no difference of the backend's (a suite recorded before failed on every such step).
        if bodyMatched, let status = observed.status, status >= 400, status == expected.status,
           let first = found[beforeErrors...].firstIndex(where: { $0.place == .error(1) }),
           expected.errors.first?.description.hasPrefix("\(status)") == true, observed.errors.first?.hasPrefix("\(status)") == true {
            found.remove(at: first)
        }
        matchLines(expected.notes, observed.notes, place: Mismatch.Place.note, into: &found)
        for direction in [FrameDirection.sent, .received] {
            matchFrames(expected.frames.filter { $0.direction == direction }, observed.frames.filter { $0.direction == direction },
                        direction: direction, inAnyOrder: expected.framesInAnyOrder, wait: observed.frameWait, ended: observed.framesEnded,
                        into: &found)
        }
        return found
    }

    /// A step's frames of one direction against those that came, in order
    /// (or, `inAnyOrder`, each expected frame against a different live one).
    /// A live frame that fails here but matches a later expected frame is
    /// said to be out of order.
    private mutating func matchFrames(_ expected: [ExpectedFrame], _ live: [ObservedFrame], direction: FrameDirection,
                                      inAnyOrder: Bool, wait: Double?, ended: String? = nil, into found: inout [Mismatch]) {
        let none = ended.map { "no frame: \($0)" } ?? wait.map { "no frame within \(Self.seconds($0))" } ?? "no such frame"
        if inAnyOrder {
            var used = Set<Int>()
            for (n, frame) in expected.enumerated() {
                var matched = false
                for (i, value) in live.enumerated() where !used.contains(i) {
                    var trial = self
                    if trial.matchFrame(frame, value, place: n + 1).isEmpty {
                        self = trial
                        used.insert(i)
                        matched = true
                        break
                    }
                }
                guard !matched else { continue }
                let others = live.indices.filter { !used.contains($0) }
                let actual = others.isEmpty ? none : "none of the frames that came matches (\(others.map { Self.describe(live[$0]) }.joined(separator: "; ")))"
                found.append(Mismatch(.frame(direction, n + 1, JSONPath(components: [])), expected: Self.describe(frame), actual: Self.cut(actual)))
            }
            return
        }
        // Live frames said to be an earlier expected frame come late: not compared again in their place
        // (a swapped pair said so, then five differences of the second against the first).
        var explained = Set<Int>()
        for (n, frame) in expected.enumerated() {
            guard n < live.count else {
                found.append(Mismatch(.frame(direction, n + 1, JSONPath(components: [])), expected: Self.describe(frame), actual: none))
                continue
            }
            var trial = self
            let differences = trial.matchFrame(frame, live[n], place: n + 1)
            if differences.isEmpty {
                self = trial
                continue
            }
            if explained.contains(n) { continue }
            // Out of order: this live frame is one the step expects later, and the frame expected here came later
            // (frames 0, 1, 2 against 7, 0, 1 were said to be out of order: 7 never came, frame 1 differs).
            if let later = expected.indices.dropFirst(n + 1).first(where: { var other = self; return other.matchFrame(expected[$0], live[n], place: $0 + 1).isEmpty }),
               let came = live.indices.dropFirst(n + 1).first(where: { var other = self; return other.matchFrame(frame, live[$0], place: n + 1).isEmpty }) {
                explained.insert(came)
                found.append(Mismatch(.frame(direction, n + 1, JSONPath(components: [])), expected: Self.describe(frame),
                                      actual: "frame \(later + 1) of the step came first, out of order: \(Self.describe(live[n])) (write (frames in any order) to allow it)"))
            } else {
                self = trial
                found += differences
            }
        }
    }

    /// One frame; JSON differences carry their path under `.frame`.
    private mutating func matchFrame(_ expected: ExpectedFrame, _ live: ObservedFrame, place n: Int) -> [Mismatch] {
        let root = Mismatch.Place.frame(expected.direction, n, JSONPath(components: []))
        switch (expected.content, live.content) {
        case let (.json(value), .json(actual)):
            return match(value, actual).map { mismatch in
                guard case let .body(path) = mismatch.place else { return mismatch }
                return Mismatch(.frame(expected.direction, n, path), expected: mismatch.expected, actual: mismatch.actual)
            }
        case let (.text(text), .text(actual)):
            return matchText(text, actual.replacingOccurrences(of: "\n", with: "\\n")) ? [] : [Mismatch(root, expected: Self.describe(expected), actual: Self.describe(live))]
        case let (.binary(summary), .binary(count)) where summary == ObservedFrame.binarySummary(count):
            return []
        case let (.closed(code, reason), .closed(liveCode, liveReason)) where code == liveCode && reason == liveReason:
            return []
        default:
            return [Mismatch(root, expected: Self.describe(expected), actual: Self.describe(live))]
        }
    }

    static func describe(_ frame: ExpectedFrame) -> String {
        switch frame.content {
        case let .json(value): return describe(value)
        case let .text(text): return "(text) " + text.description
        case let .binary(summary): return "(\(summary))"
        case let .closed(code, reason): return "(\(ObservedFrame.closeSummary(code: code, reason: reason)))"
        }
    }

    static func describe(_ frame: ObservedFrame) -> String {
        switch frame.content {
        case let .json(value): return describe(value)
        case let .text(text): return cut("(text) " + text)
        case let .binary(count): return "(\(ObservedFrame.binarySummary(count)))"
        case let .closed(code, reason): return cut("(\(ObservedFrame.closeSummary(code: code, reason: reason)))")
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// The differences between an expected JSON value and a live one, from `path` down.
    public mutating func match(_ expected: ExpectedValue, _ actual: JSONValue, at path: JSONPath = JSONPath(components: [])) -> [Mismatch] {
        var found: [Mismatch] = []
        var here = path.components
        match(expected, actual, at: &here, into: &found)
        return found
    }

    private mutating func matchBody(_ expected: Expectation.Body?, _ observed: Observation.Body?, into found: inout [Mismatch]) {
        let root = Mismatch.Place.body(JSONPath(components: []))
        switch (expected, observed) {
        case (nil, nil): return
        // `{{*}}` for a body accepts any body: JSON, text, binary, or none.
        case let (.json(.pattern(pattern))?, _) where pattern.kind == .any && pattern.capture == nil: return
        case let (.json(value)?, .json(actual)?):
            var path: [JSONPath.Component] = []
            match(value, actual, at: &path, into: &found)
        case let (.text(lines)?, .text(actual)?): matchLines(lines, actual, place: Mismatch.Place.line, into: &found)
        case let (.binary(summary)?, .binary(actual)?) where summary == actual: return
        default: found.append(Mismatch(root, expected: Self.describe(expected), actual: Self.describe(observed)))
        }
    }

    private mutating func matchLines(_ expected: [PatternText], _ actual: [String], place: (Int) -> Mismatch.Place,
                                     into found: inout [Mismatch]) {
        // What is said where a line is missing on one side: "expected no such line" read as a riddle.
        let none = switch place(1) {
        case .error: "no error"
        case .note: "no note"
        default: "no line"
        }
        for (n, text) in expected.enumerated() {
            guard n < actual.count else {
                found.append(Mismatch(place(n + 1), expected: Self.cut(text.description), actual: none))
                continue
            }
            // A line's credentials are hidden as the screen hides them (an event's `data: {"token": …}`).
            // Cut when long, as a JSON value is: a 200 KB line was printed whole, twice in JUnit.
            if !matchText(text, actual[n]) {
                let (shownExpected, shownActual) = Self.cut(text.description, Redactor.hidingCredentials(inText: actual[n]))
                found.append(Mismatch(place(n + 1), expected: shownExpected, actual: shownActual))
            }
        }
        for n in expected.count..<max(expected.count, actual.count) {
            found.append(Mismatch(place(n + 1), expected: none, actual: Self.cut(Redactor.hidingCredentials(inText: actual[n]))))
        }
    }

    /// Matches a header's value. A `Location`'s ids (a path segment or a
    /// query value all digits, or a UUID) are of their kind: a created
    /// thing's place holds the id the server gave it, another on each run
    /// (recorded, it failed the replay against a live server, and `--update`
    /// wrote each run's id); the path around them must be the same.
    public mutating func matchHeader(_ name: String, _ text: PatternText, _ actual: String) -> Bool {
        guard name.lowercased() == "location" else { return matchText(text, actual) }
        return matchText(text.idsOfTheirKind, actual)
    }

    /// Matches a whole text and binds the captures it holds.
    mutating func matchText(_ text: PatternText, _ actual: String) -> Bool {
        let captures = self.captures
        guard let bound = text.match(actual, bound: { captures[$0]?.text ?? variable($0) }) else { return false }
        for (name, value) in bound where self.captures[name] == nil {
            self.captures[name] = Capture(value: .string(value), fromText: true, source: actual)
            captureOrder.append(name)
        }
        return true
    }

    /// `path` is where the values are, grown and shrunk as the match goes
    /// down and up: a path made for every member of every answer was most
    /// of a matching replay's allocations. It becomes a `JSONPath` only in a mismatch.
    private mutating func match(_ expected: ExpectedValue, _ actual: JSONValue, at path: inout [JSONPath.Component],
                                into found: inout [Mismatch]) {
        // A live value under a key that names a secret is not shown, however
        // short (a 3-letter password was, where the scrubber's length ends).
        // Asked only of a mismatch: a match that passes names nothing.
        func shown(_ value: JSONValue) -> String {
            if Self.isSecret(at: path) { return Self.hiddenDescription(value) }
            return Self.describe(value)
        }
        func differ(_ expectedText: String? = nil, _ actualText: String? = nil) {
            if expectedText == nil, actualText == nil, !Self.isSecret(at: path) {
                let (shownExpected, shownActual) = Self.cut(Self.whole(expected), JSONPrinter.compact(Redactor.redact(json: actual)))
                return found.append(Mismatch(.body(JSONPath(components: path)), expected: shownExpected, actual: shownActual))
            }
            found.append(Mismatch(.body(JSONPath(components: path)), expected: expectedText ?? Self.describe(expected),
                                  actual: actualText ?? shown(actual)))
        }
        switch expected {
        case let .literal(value):
            if value != actual { differ() }
        case let .text(text):
            guard case let .string(s) = actual, matchText(text, s) else {
                // `"note {{note_idd}} not found"`: a reference to nothing bound is the likelier fault than the text.
                var unbound: String?
                for piece in text.pieces {
                    if case let .pattern(pattern) = piece, case let .reference(name) = pattern.kind, captures[name] == nil, variable(name) == nil {
                        unbound = name
                        break
                    }
                }
                return differ(unbound.map { Self.describe(expected) + ", but nothing is bound to '\($0)' yet" + nearest($0) })
            }
        case let .pattern(pattern):
            if case let .reference(name) = pattern.kind {
                if let capture = captures[name] {
                    if !capture.isEqual(to: actual) { differ("\(pattern) (\(shown(capture.value)))") }
                } else if let text = variable(name) {
                    // As the value it stands for: a captured id `5` was shown `("5")`, as if a string were expected.
                    let value = (try? JSONParser.parse(text)).flatMap { parsed -> JSONValue? in
                        if case .string = parsed { return nil }
                        return Self.isScalar(parsed) ? parsed : nil
                    }
                    // Written bare, a number's (or a boolean's) reference expects that value, as JSON compares it: a
                    // string "123456" where the recording had 123456 passed (a mock serving it as a string too).
                    let differs = value.map { $0 != actual } ?? (actual.plainText != text || !Self.isScalar(actual))
                    if differs { differ("\(pattern) (\(value == nil ? JSONPrinter.quote(text) : text))") }
                } else {
                    differ("\(pattern), but nothing is bound to '\(name)' yet" + nearest(name))
                }
                return
            }
            guard pattern.accepts(actual) else { return differ() }
            guard let name = pattern.capture else { return }
            if let capture = captures[name] {
                if !capture.isEqual(to: actual) { differ("\(pattern) (bound earlier to \(shown(capture.value)))") }
            } else {
                captures[name] = Capture(value: actual, fromText: false)
                captureOrder.append(name)
            }
        case let .object(members, open):
            guard case let .object(live) = actual else { return differ(nil, "\(actual.kindName): \(shown(actual))") }
            // A key an answer has twice (`{"a": 1, "a": 2}`) is matched in order: the
            // second written against the second that came, as a recording writes both.
            // Keys by code point (`é` composed is not `é` decomposed), as values are.
            var seen: [[UInt8]: Int] = [:]
            // While the live keys so far are the expected ones in order (as an
            // answer and its recording have them), the member at the same place
            // is the one: no search, and nothing counted until they part.
            var aligned = true
            for (position, member) in members.enumerated() {
                let value: JSONValue?
                if aligned, position < live.count, live[position].key.sameCodePoints(member.key) {
                    value = live[position].value
                } else {
                    if aligned {
                        aligned = false
                        for earlier in members[..<position] { seen[Array(earlier.key.utf8), default: 0] += 1 }
                    }
                    let ordinal = seen[Array(member.key.utf8), default: 0]
                    seen[Array(member.key.utf8)] = ordinal + 1
                    let same = live.lazy.filter { $0.key.sameCodePoints(member.key) }
                    value = (same.dropFirst(ordinal).first ?? same.first)?.value
                }
                path.append(.key(member.key))
                defer { path.removeLast() }
                guard let value else {
                    found.append(Mismatch(.body(JSONPath(components: path)), expected: Self.describe(member.value), actual: "no such key"))
                    continue
                }
                match(member.value, value, at: &path, into: &found)
            }
            guard !open else { return }
            // The same keys in the same order have none extra.
            if live.count == members.count, zip(live, members).allSatisfy({ $0.key.sameCodePoints($1.key) }) { return }
            // Counted, not listed: a key the answer has twice and the recording
            // once has one member too many (it passed as matched).
            var listed: [[UInt8]: Int] = [:]
            for member in members { listed[Array(member.key.utf8), default: 0] += 1 }
            for member in live {
                if let left = listed[Array(member.key.utf8)], left > 0 {
                    listed[Array(member.key.utf8)] = left - 1
                    continue
                }
                let shown = Redactor.isSecretName(member.key) ? Self.hiddenDescription(member.value) : Self.describe(member.value)
                found.append(Mismatch(.body(JSONPath(components: path + [.key(member.key)])),
                                      expected: "no such key (write ... in the object to allow extra keys)", actual: shown))
            }
        case let .array(items, contains):
            guard case let .array(live) = actual else { return differ(nil, "\(actual.kindName): \(shown(actual))") }
            if contains { return matchContains(items, live, at: path, into: &found) }
            if items.count != live.count {
                differ("\(items.count) element\(items.count == 1 ? "" : "s")", "\(live.count)")
            }
            var trial = self
            var inPlace: [Mismatch] = []
            for (n, (item, value)) in zip(items, live).enumerated() {
                path.append(.index(n))
                trial.match(item, value, at: &path, into: &inPlace)
                path.removeLast()
            }
            // The same elements in another order (the two frames a `ws recv 2` got, swapped): one line, where
            // each key of each element differed, ten lines and "… and 6 more" hid the one that said why.
            if !inPlace.isEmpty, items.count == live.count, let (order, matched) = reordering(items, live, at: path) {
                self = matched
                let moved = order.enumerated().filter { $0.offset != $0.element }
                let said = moved.prefix(6).enumerated().map { n, pair in "[\(pair.offset)] \(n == 0 ? "came " : "")at [\(pair.element)]" }
                return differ("the elements in the order written (write ... as the last element to take them in any order)",
                              "the same elements in another order: " + said.joined(separator: ", ") + (moved.count > 6 ? ", …" : ""))
            }
            self = trial
            found += inPlace
        }
    }

    /// Where each expected element is in `live` when `live` holds them all
    /// in another order, one live element each (taken as `[a, b, ...]`
    /// takes them), with the matcher as matching them leaves it; nil when it
    /// does not, or when the order is the same. Not tried past 100 elements.
    private func reordering(_ items: [ExpectedValue], _ live: [JSONValue], at path: [JSONPath.Component]) -> ([Int], TranscriptMatcher)? {
        guard items.count > 1, items.count <= 100 else { return nil }
        var state = self
        var used = Set<Int>()
        var order: [Int] = []
        for item in items {
            guard let index = live.indices.first(where: { i in
                guard !used.contains(i) else { return false }
                var trial = state
                guard trial.match(item, live[i], at: JSONPath(components: path + [.index(i)])).isEmpty else { return false }
                state = trial
                return true
            }) else { return nil }
            used.insert(index)
            order.append(index)
        }
        return order == Array(items.indices) ? nil : (order, state)
    }

    /// `[a, b, ...]`: each listed element matches a different live element.
    /// Elements are taken in order, each by the first free live element it
    /// matches; a trial that fails binds nothing.
    private mutating func matchContains(_ items: [ExpectedValue], _ live: [JSONValue], at path: [JSONPath.Component], into found: inout [Mismatch]) {
        let path = JSONPath(components: path)
        var used = Set<Int>()
        for (n, item) in items.enumerated() {
            var matched = false
            // The free live element that differs least, and how: "no element matches" alone named no key
            // (a field renamed in every element), where an ordered array's report names it.
            var closest: (index: Int, differences: [Mismatch])?
            for (i, value) in live.enumerated() where !used.contains(i) {
                var trial = self
                let differences = trial.match(item, value, at: path.appending(.index(i)))
                if differences.isEmpty {
                    self = trial
                    used.insert(i)
                    matched = true
                    break
                }
                // A scalar has no parts to tell apart: `4` is as far from `1` as from `2`.
                if Self.isStructured(item), differences.count < closest?.differences.count ?? .max { closest = (i, differences) }
            }
            if !matched {
                found.append(Mismatch(.body(path.appending(.index(n))), expected: Self.describe(item),
                                      actual: "no element of the live array matches" + (closest.map { "; the nearest is [\($0.index)]:" } ?? "")))
                found += closest?.differences ?? []
            }
        }
    }

    private static func isStructured(_ value: ExpectedValue) -> Bool {
        switch value {
        case .object, .array: return true
        default: return false
        }
    }

    private static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .string, .number, .bool: return true
        default: return false
        }
    }

    static let shownLength = 200

    /// A live value on one line with its secrets hidden, cut when long.
    public static func describe(_ value: JSONValue) -> String {
        cut(JSONPrinter.compact(Redactor.redact(json: value)))
    }

    /// A value under a key that names a secret: a string or a number
    /// hidden whatever its length, the strings of a list or an object one by one.
    /// Whether the value at `path` is a secret-named member's, or in its
    /// list (`.password[0]`), as the screen judges it: an object under such
    /// a name is judged member by member (`.auth.user_id` is no secret).
    private static func isSecret(at path: [JSONPath.Component]) -> Bool {
        for component in path.reversed() {
            if case let .key(key) = component { return Redactor.isSecretName(key) }
        }
        return false
    }

    static func hiddenDescription(_ value: JSONValue) -> String {
        if case let .number(digits) = value { return Redactor.hidden(digits) }
        return cut(JSONPrinter.compact(Redactor.hiding(value)))
    }

    static func describe(_ value: ExpectedValue) -> String {
        cut(whole(value))
    }

    /// What a step expects on one line, uncut.
    private static func whole(_ value: ExpectedValue) -> String {
        value.pretty().split(separator: "\n").map { $0.trimmingBlanks() }.joined(separator: " ")
    }

    static func describe(_ body: Expectation.Body?) -> String {
        switch body {
        case nil: return "no body"
        case let .json(value)?: return "a JSON body: " + describe(value)
        case let .text(lines)?: return textBody(lines.map(\.description))
        case let .binary(summary)?: return "a binary body (\(summary))"
        }
    }

    /// A text body by its size and first line that says something (a proxy's
    /// page in place of JSON was "a text body of 1 line", its message unshown).
    private static func textBody(_ lines: [String]) -> String {
        let size = "a text body of \(lines.count) line\(lines.count == 1 ? "" : "s")"
        guard let first = lines.first(where: { !$0.trimmingBlanks().isEmpty }) else { return size }
        return size + ": " + cut(first.trimmingBlanks())
    }

    static func describe(_ body: Observation.Body?) -> String {
        switch body {
        case nil: return "no body"
        case let .json(value)?: return "a JSON body: " + describe(value)
        case let .text(lines)?: return textBody(lines)
        case let .binary(summary)?: return "a binary body (\(summary))"
        }
    }

    static func cut(_ text: String) -> String {
        text.count <= shownLength ? text : String(text.prefix(shownLength)) + "…"
    }

    /// What was expected and what came, cut around where they first differ:
    /// each cut at its start, a 200 KB string that differed at its end was
    /// shown as the same 200 characters twice.
    static func cut(_ expected: String, _ actual: String) -> (String, String) {
        let context = 40
        guard expected.count > shownLength || actual.count > shownLength else { return (expected, actual) }
        let alike = zip(expected, actual).prefix { $0 == $1 }.count
        guard alike > shownLength - context else { return (cut(expected), cut(actual)) }
        let skipped = alike - context
        func fromTheDifference(_ text: String) -> String { "…(\(skipped) characters alike) " + cut(String(text.dropFirst(skipped))) }
        return (fromTheDifference(expected), fromTheDifference(actual))
    }
}

extension JSONPath {
    /// This path with one more component.
    public func appending(_ component: Component) -> JSONPath { JSONPath(components: components + [component]) }
}

private extension String {
    var trimmed: String { trimmingBlanks() }
}
