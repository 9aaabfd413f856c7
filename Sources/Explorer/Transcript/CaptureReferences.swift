import Core

/// The variables `capture` set, and how an answer recorded after them
/// refers to their values. After `capture item_id = .id`, an answer whose
/// `"id"` (or `"item_id"`) holds the captured value is written `{{item_id}}`
/// there: a replay captures anew, and the later answers must agree with it
/// (`"id": 619` failed against any fresh server). A distinctive captured
/// value inside a string, an error or a note line (`note n_ac699c39 not
/// found`) is written as the reference too. The recorder writes answers
/// this way, and so does `--update` for the steps it writes anew.
struct CaptureReferences {
    /// Each captured name, with the keys whose values later answers write
    /// as a reference to it (the captured member's key, the name).
    private var captured: [String: Set<String>] = [:]

    /// Follows a step's command: a `capture` adds its name; `set` and `unset` take it away.
    mutating func note(_ command: Command?) {
        switch command {
        case let .capture(name, source)?:
            let keys: [String] = source.path?.components.suffix(1).compactMap { if case let .key(key) = $0 { key } else { nil } } ?? []
            captured[name] = Set([name] + keys)
        case let .set(name, _)?, let .unset(name)?: captured[name] = nil
        default: break
        }
    }

    /// `expectation` with the captured `values` (the session's variables)
    /// written as references. `observed` is what the expectation was
    /// written from: a captured UUID was already written `{{uuid}}` there,
    /// and the answer says which `{{uuid}}` held it.
    /// `line`: the step's line as written. A value typed there itself (`get /users/1`, with `uid` = 1
    /// captured) is the line's, not the capture's: written `{{uid}}`, its replay expected the new
    /// capture's value of an answer about user 1, and failed with nothing wrong.
    func referencing(in expectation: Expectation, values: [String: String], observed: Observation? = nil, line: String? = nil) -> Expectation {
        guard !captured.isEmpty else { return expectation }
        let values = line.map { line in values.filter { !Self.typedItself($0.value, name: $0.key, keys: captured[$0.key] ?? [], in: line) } } ?? values
        var expectation = expectation
        let distinctive = distinctiveCaptures(values)
        // In a message (a JSON string, an error or note line) an id of three digits or more is the
        // capture's too (`no item 553`): a message says what it is about. A text body's numbers are not
        // (a Content-Length that happens to equal it).
        let inMessages = distinctiveCaptures(values, numbersFrom: 3)
        var seen: JSONValue?
        if case let .json(value)? = observed?.body { seen = value }
        switch expectation.body {
        case let .json(body)?: expectation.body = .json(referencing(in: body, observed: seen, values: values, distinctive: inMessages))
        case let .text(lines)?: expectation.body = .text(lines.map { line in
            // `vars`' line for a captured variable is its value, however short (`note_id = 756`).
            if let text = line.literalText, let eq = text.range(of: " = "), case let name = String(text[..<eq.lowerBound]),
               captured[name] != nil, let value = values[name], text[eq.upperBound...] == value {
                return PatternText([.literal(name + " = "), .pattern(TranscriptPattern(.reference(name)))])
            }
            return Self.referencing(distinctive, in: line)
        })
        default: break
        }
        // `error: 404 NOT_FOUND: note n_ac699c39 not found`: the id is the capture's in the summary too
        // (not the status before it, were the id 404).
        let errors = observed.map(\.errors) ?? [], notes = observed.map(\.notes) ?? []
        expectation.errors = expectation.errors.enumerated().map { index, line in
            Self.referencing(inMessages, in: Self.referencingUUIDs(inMessages, in: line, observed: errors.count == expectation.errors.count ? errors[index] : nil),
                             keepingLeadingNumber: true)
        }
        expectation.notes = expectation.notes.enumerated().map { index, line in
            Self.referencing(inMessages, in: Self.referencingUUIDs(inMessages, in: line, observed: notes.count == expectation.notes.count ? notes[index] : nil))
        }
        return expectation
    }

    /// Whether `line` holds `value` as a path's segment of its own (the
    /// line's first word too: `/items/7`), inside JSON typed on it (`--raw
    /// '{"id":7}'`, `order:='{"id":7}'`), or as the value of an item or a
    /// query parameter named for the capture (`id==7`, `?item_id=7`), not by
    /// `{{name}}`. A query value or a flag's that only happens to be equal
    /// (`page_size==1`, `category_id==1`, `--timeout 1`) is not about the
    /// item: taken as typed, it left the captured id literal, and the replay
    /// against a server with other ids failed.
    static func typedItself(_ value: String, name: String, keys: Set<String> = [], in line: String) -> Bool {
        guard !value.isEmpty, !line.contains("{{\(name)}}") else { return false }
        func pieces(_ text: Substring) -> [Substring] { text.split { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") } }
        func stem(_ name: String) -> String {
            let lower = name.lowercased()
            for suffix in ["_id", "-id", "id"] where lower.hasSuffix(suffix) && lower.count > suffix.count { return String(lower.dropLast(suffix.count)) }
            return lower
        }
        func namesTheItem(_ item: Substring) -> Bool {
            let lower = item.lowercased()
            return lower == "id" || lower == name.lowercased() || keys.contains { $0.lowercased() == lower } || stem(lower) == stem(name)
        }
        func pairs(_ query: Substring) -> Bool {
            query.split(separator: "&").contains { pair in
                guard let eq = pair.firstIndex(of: "=") else { return false }
                return pair[pair.index(after: eq)...] == value && namesTheItem(pair[..<eq])
            }
        }
        func isJSON(_ text: Substring) -> Bool { text.first == "{" || text.first == "[" }
        func path(_ word: Substring) -> Bool {
            var target = word
            if let scheme = target.range(of: "://") { target = target[scheme.upperBound...].drop { $0 != "/" } }
            let query = target.firstIndex(of: "?")
            if pieces(target[..<(query ?? target.endIndex)]).contains(where: { $0 == value }) { return true }
            if let query, pairs(target[target.index(after: query)...].prefix { $0 != "#" }) { return true }
            return false
        }
        // Words as the parser reads them (`'{"id": 7}'` is one), else split at blanks.
        let words = (try? LineTokenizer.split(line).map { Substring($0.text) }) ?? line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        var afterFlag = false
        for (index, word) in words.enumerated() {
            defer { afterFlag = word.hasPrefix("-") && !word.contains("=") }
            if word.hasPrefix("-") {
                // `--raw={"id":7}`: the flag's value is the line's JSON.
                if let eq = word.firstIndex(of: "="), isJSON(word[word.index(after: eq)...]), pieces(word[word.index(after: eq)...]).contains(where: { $0 == value }) {
                    return true
                }
                continue
            }
            if isJSON(word) {
                if pieces(word).contains(where: { $0 == value }) { return true }
            } else if word.hasPrefix("/") || word.contains("://") || index == 1 && !isItem(word) {
                if path(word) { return true }
            } else if index == 0 || afterFlag {
                continue
            } else if let (item, itemValue) = Self.item(word) {
                if isJSON(itemValue) ? pieces(itemValue).contains(where: { $0 == value }) : itemValue == value && namesTheItem(item) { return true }
            } else if pieces(word).contains(where: { $0 == value }) {
                return true
            }
        }
        return false
    }

    private static func isItem(_ word: Substring) -> Bool { item(word) != nil }

    /// A request item's name and value (`id==7`, `name=x`, `n:=1`, `X-Id:7`), quotes around the value dropped.
    private static func item(_ word: Substring) -> (name: Substring, value: Substring)? {
        // JSON typed as it is (`ws send {"id":7}`) is no item: its numbers are the line's.
        guard let start = word.first, !"{[\"'".contains(start) else { return nil }
        guard let separator = word.firstIndex(where: { $0 == "=" || $0 == ":" }), separator > word.startIndex else { return nil }
        var value = word[word.index(after: separator)...]
        while let first = value.first, first == "=" || first == ":" || first == "@" { value = value.dropFirst() }
        if value.count >= 2, let first = value.first, first == "'" || first == "\"", value.last == first { value = value.dropFirst().dropLast() }
        return (word[..<separator], value)
    }

    private func referencing(in value: ExpectedValue, observed: JSONValue?, values: [String: String],
                             distinctive: [(name: String, value: String)]) -> ExpectedValue {
        switch value {
        case let .object(members, open):
            var seen: [(key: String, value: JSONValue)] = []
            if case let .object(found)? = observed { seen = found.map { ($0.key, $0.value) } }
            return .object(members.map { member in
                let live = seen.first { $0.key == member.key }?.value
                // The value as it came: a literal, or a captured UUID the recording wrote `{{uuid}}`.
                var value: JSONValue?
                if case let .literal(literal) = member.value { value = literal }
                if case let .text(text) = member.value, text.pieces == [.pattern(TranscriptPattern(.uuid))], case .string? = live { value = live }
                if let value, Self.isScalarID(value),
                   let name = captured.keys.sorted().first(where: { captured[$0]!.contains(member.key) && values[$0] == value.plainText }) {
                    // A string of digits (JSON:API's `"id": "10"`) in quotes: bare, the reference expects the number, and
                    // the replay failed on the very value it captured (`expected {{id}} (10), got "10"`).
                    if case let .string(text) = value, let parsed = try? JSONParser.parse(text), parsed.stringValue == nil {
                        return ExpectedValue.Member(member.key, .text(PatternText([.pattern(TranscriptPattern(.reference(name)))])))
                    }
                    return ExpectedValue.Member(member.key, .pattern(TranscriptPattern(.reference(name))))
                }
                return ExpectedValue.Member(member.key, referencing(in: member.value, observed: live, values: values, distinctive: distinctive))
            }, open: open)
        case let .array(items, contains):
            var seen: [JSONValue] = []
            if case let .array(found)? = observed, found.count == items.count { seen = found }
            return .array(items.enumerated().map { index, item in
                referencing(in: item, observed: seen.isEmpty ? nil : seen[index], values: values, distinctive: distinctive)
            }, contains: contains)
        case let .literal(.string(text)):
            let referenced = Self.referencing(distinctive, in: .literal(text))
            return referenced.literalText == text ? value : .text(referenced)
        case let .text(text):
            var live: String?
            if case let .string(found)? = observed { live = found }
            return .text(Self.referencing(distinctive, in: Self.referencingUUIDs(distinctive, in: text, observed: live)))
        default: return value
        }
    }

    /// `text`, written from `observed`, with each `{{uuid}}` that stands for
    /// a captured UUID written as its reference (`item {{item_id}} not
    /// found`): the recording made every UUID in a text `{{uuid}}`, in order.
    static func referencingUUIDs(_ captures: [(name: String, value: String)], in text: PatternText, observed: String?) -> PatternText {
        guard let observed, captures.contains(where: { TranscriptPattern.isUUID($0.value) }) else { return text }
        let found = observed.matches(of: uuidInText).map { String($0.output) }
        let slots = text.pieces.filter { $0 == .pattern(TranscriptPattern(.uuid)) }.count
        guard slots == found.count, found.contains(where: { uuid in captures.contains { $0.value == uuid } }) else { return text }
        var next = 0
        return PatternText(text.pieces.map { piece in
            guard piece == .pattern(TranscriptPattern(.uuid)) else { return piece }
            defer { next += 1 }
            return captures.first { $0.value == found[next] }.map { .pattern(TranscriptPattern(.reference($0.name))) } ?? piece
        })
    }

    nonisolated(unsafe) private static let uuidInText = #/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/#

    /// Captured values long or mixed enough that finding one inside a text
    /// is finding that id (`n_ac699c39`, `1764190003`), not a number that
    /// happens to be there (`7`, `2025`); the longest first.
    private func distinctiveCaptures(_ values: [String: String], numbersFrom digits: Int = 6) -> [(name: String, value: String)] {
        captured.keys.sorted().compactMap { name -> (name: String, value: String)? in
            guard let value = values[name] else { return nil }
            let mixed = value.contains(where: \.isLetter) && value.contains(where: { !$0.isLetter })
            let number = value.count >= digits && value.allSatisfy { $0.isASCII && $0.isNumber }
            return value.count >= 6 || (value.count >= 4 && mixed) || number ? (name, value) : nil
        }.sorted { $0.value.count > $1.value.count }
    }

    /// `text` with each captured value standing as a word of its own in its
    /// literal pieces written as `{{name}}`.
    static func referencing(_ captures: [(name: String, value: String)], in text: PatternText, keepingLeadingNumber: Bool = false) -> PatternText {
        guard !captures.isEmpty else { return text }
        var pieces: [PatternText.Piece] = []
        for (index, piece) in text.pieces.enumerated() {
            guard case var .literal(rest) = piece else { pieces.append(piece); continue }
            if keepingLeadingNumber, index == 0, let status = rest.prefixMatch(of: /[0-9]+/) {
                // An error line's status (`404 NOT_FOUND: …`) stays as it is.
                pieces.append(.literal(String(status.output)))
                rest = String(rest[status.range.upperBound...])
            }
            while !rest.isEmpty {
                var found: (range: Range<String.Index>, name: String)?
                for capture in captures {
                    var from = rest.startIndex
                    while let range = rest.range(of: capture.value, range: from..<rest.endIndex) {
                        let before = range.lowerBound == rest.startIndex ? nil : rest[rest.index(before: range.lowerBound)]
                        let after = range.upperBound == rest.endIndex ? nil : rest[range.upperBound]
                        let word = { (c: Character?) in c.map { $0.isLetter || $0.isNumber } ?? false }
                        if !word(before), !word(after) {
                            if found == nil || range.lowerBound < found!.range.lowerBound { found = (range, capture.name) }
                            break
                        }
                        from = range.upperBound
                    }
                }
                guard let (range, name) = found else { pieces.append(.literal(rest)); break }
                if range.lowerBound > rest.startIndex { pieces.append(.literal(String(rest[..<range.lowerBound]))) }
                pieces.append(.pattern(TranscriptPattern(.reference(name))))
                rest = String(rest[range.upperBound...])
            }
        }
        // Adjacent literals as one, as the parser reads them back.
        return PatternText(pieces.reduce(into: [PatternText.Piece]()) { merged, piece in
            if case let .literal(next) = piece, case let .literal(previous)? = merged.last {
                merged[merged.count - 1] = .literal(previous + next)
            } else {
                merged.append(piece)
            }
        })
    }

    /// A number, or a string that is not empty: what an id is.
    private static func isScalarID(_ value: JSONValue) -> Bool {
        switch value {
        case .number: true
        case let .string(text): !text.isEmpty
        default: false
        }
    }
}
