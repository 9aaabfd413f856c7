import Core

/// What completion may draw on, captured after each command.
struct CompletionState: Sendable {
    var profile: Profile
    var variables: [String]
    var lastBody: JSONValue?
    /// Ids seen in answers, offered for `{param}` path segments.
    var seenIDs = SeenIDs()
    /// The commands: their names, and what each of their words is.
    var table: CommandTable = .standard
    /// A profile file's environments, for `env NAME`.
    var environments: [String] = []
    /// Lists a directory for `@file`, `record FILE` and `replay FILE`; tests pass a fake.
    var listDirectory: @Sendable (String) -> [String] = Completer.listDirectory
}

/// The result of completing: replace the characters from `start` (an offset
/// into the text before the cursor) with one of `candidates`.
struct Completion: Equatable, Sendable {
    struct Candidate: Equatable, Sendable {
        var text: String
        /// Whether a space should follow when this candidate is the only one
        /// (a finished word, not a path that goes on).
        var isFinal: Bool
        /// Shown next to the candidate when listing (an endpoint's summary).
        var hint: String?
    }

    var start: Int
    var candidates: [Candidate]
    /// Said when TAB lists, or when nothing can be inserted: what goes here
    /// though no value is known yet (`{id}` before any id was seen).
    var note: String? = nil

    /// The candidates as words in `quote` from their character `after` on (`photo@"my file.jpg"`;
    /// unescaped, a final one closed); nil when one holds that quote, which it cannot hold.
    func quoted(_ quote: Character, after kept: Int = 0) -> Completion? {
        var quoted = self
        for (index, candidate) in candidates.enumerated() {
            let text = candidate.text.contains("\\") ? (try? LineTokenizer.split(candidate.text))?.first?.text ?? candidate.text : candidate.text
            guard text.count >= kept, !text.dropFirst(kept).contains(quote) else { return nil }
            quoted.candidates[index].text = text.prefix(kept) + String(quote) + text.dropFirst(kept) + (candidate.isFinal ? String(quote) : "")
        }
        return quoted
    }

    /// The longest text every candidate starts with.
    var commonPrefix: String {
        guard var prefix = candidates.first?.text else { return "" }
        for c in candidates.dropFirst() {
            while !c.text.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}

/// TAB completion as a pure function of the text before the cursor and the
/// state: command words, methods, endpoint paths segment by segment,
/// variables after `{{`, demo emails after `login`, keys after `show .`.
enum Completer {
    static func complete(_ before: String, state: CompletionState) -> Completion {
        let chars = Array(before)
        // The word being typed starts after the last unquoted space.
        var wordStart = 0
        var quote: Character?
        var quoteStart = 0
        var escaped = false
        for (i, c) in chars.enumerated() {
            if escaped { escaped = false; continue }
            if let q = quote { if c == q { quote = nil }; continue }
            if c == "\\" { escaped = true } else if c == "'" || c == "\"" { (quote, quoteStart) = (c, i) } else if c == " " || c == "\t" { wordStart = i + 1 }
        }
        // A word with an open quote (`'@files/w`, `photo@"my fi`): completed as the same word unquoted, and kept in
        // its quote (a name's space was escaped, and the quote itself: `\'@files/with\ space.txt`). What comes before
        // the quote must read as typed (no other quote or backslash) for the candidates to start with it.
        if let q = quote, quoteStart >= wordStart, !chars[wordStart..<quoteStart].contains(where: { "'\"\\".contains($0) }) {
            let inner = String(chars[(quoteStart + 1)...])
            let unquoted = complete(String(chars[..<quoteStart]) + Completer.escaped(inner), state: state)
            // A name holding the quote itself cannot stay in it: offered escaped, the quote dropped.
            if unquoted.start == wordStart { return unquoted.quoted(q, after: quoteStart - wordStart) ?? unquoted }
        }
        // The word as the line will read it: `my\ fi` is `my fi` (a name with a space, escaped).
        let raw = String(chars[wordStart...])
        let word = raw.contains("\\") ? (try? LineTokenizer.split(raw))?.first?.text ?? raw : raw
        let previousWords = (try? LineTokenizer.split(String(chars[..<wordStart])))?.map(\.text) ?? []

        // {{variable: complete the name and close the braces.
        if let open = word.range(of: "{{", options: .backwards), !word[open.upperBound...].contains("}") {
            let partial = String(word[open.upperBound...])
            let offset = wordStart + word.distance(from: word.startIndex, to: open.upperBound)
            // Inside a path (`/api/tasks/{{`) the built-ins are no segment (the base URL, the profile's name):
            // offered, they were sent as one; nor is a secret (`{{token}}` was offered for a task's id).
            let inPath = word.hasPrefix("/") && open.lowerBound > word.startIndex
            let names = state.variables.filter {
                $0.hasPrefix(partial) && !(inPath && (Interpreter.builtInNames.contains($0) || $0 == "ws_base_url" || Redactor.isSecretName($0)))
            }
            return Completion(start: offset, candidates: names.map { .init(text: $0 + "}}", isFinal: false, hint: nil) })
        }

        guard let first = previousWords.first else {
            // The first word: a command, a method, or a bare path.
            if word.hasPrefix("/") { return paths(word, method: "GET", start: wordStart, state: state) }
            let matches = state.table.offeredNames.filter { $0.hasPrefix(word.lowercased()) }
            return Completion(start: wordStart, candidates: matches.map {
                .init(text: $0, isFinal: true, hint: state.table.spec(named: $0)?.summary)
            })
        }
        // A bare /path is a GET: its words are those of `get` after the path.
        let spec = CommandParser.isTarget(first) ? state.table.spec(named: "get") : state.table.spec(named: first)
        guard let spec else { return Completion(start: wordStart, candidates: []) }
        let before = CommandParser.isTarget(first) ? previousWords : Array(previousWords.dropFirst())
        return complete(word, as: spec.slot(before, word), before: before, start: wordStart, state: state)
    }

    /// What to offer for a word of the kind `slot`.
    static func complete(_ word: String, as slot: SlotKind, before: [String], start: Int, state: CompletionState) -> Completion {
        /// Finished words that start with what was typed, in any case (`WS CON` too).
        func words(_ texts: [String]) -> [Completion.Candidate] {
            texts.filter { $0.hasPrefix(word.lowercased()) || $0.hasPrefix(word) }.map { .init(text: $0, isFinal: true, hint: nil) }
        }
        switch slot {
        case .none:
            return Completion(start: start, candidates: [])
        case .command:
            return Completion(start: start, candidates: words(state.table.specs.map(\.name)))
        case let .path(method):
            return paths(word.isEmpty ? "/" : word, method: method, start: start, state: state)
        case let .requestItems(method):
            return items(word, method: method, path: before[0], used: Array(before.dropFirst()), start: start, state: state)
        case .header:
            // `header unset <TAB>` and `header Na<TAB>`: names; `header Accept:<TAB>` their values; `clear` and `unset` first.
            let verbs = before.isEmpty ? words(["clear", "unset"]) : []
            let named = before.first == "unset" ? before.count > 1 ? [] : headerNames.filter { $0.hasPrefix(word) }.map { Completion.Candidate(text: $0, isFinal: true, hint: nil) }
                : word.isEmpty || word.first?.isUppercase == true ? headers(word, start: start).candidates : []
            return Completion(start: start, candidates: verbs + named)
        case .file:
            // `@file` (`ws send @frame.json`): the path after the @.
            if word.hasPrefix("@") { return files(String(word.dropFirst()), prefix: "@", start: start, state: state) }
            return files(word, prefix: "", start: start, state: state)
        case let .variable(assigning):
            // The built-in ones can be neither set nor unset (`unset profile` is refused).
            let own = state.variables.filter { !Interpreter.builtInNames.contains($0) }
            return Completion(start: start, candidates: own.filter { $0.hasPrefix(word) }.map {
                .init(text: $0 + (assigning ? "=" : ""), isFinal: !assigning, hint: nil)
            })
        case .jsonPath:
            return keys(word, start: start, body: state.lastBody)
        case .environment:
            return Completion(start: start, candidates: words(state.environments))
        case .demoEmail:
            return Completion(start: start, candidates: words(state.profile.demoAccounts.map(\.email)))
        case .tour:
            // A tour's full name, or the part after its backend folder: `cr` offers `linku/create-task`.
            let tours = Tours().tours(for: state.profile.name).filter { $0.name.hasPrefix(word) || $0.shortName.hasPrefix(word) }
            return Completion(start: start, candidates: tours.map { .init(text: $0.name, isFinal: true, hint: $0.summary) })
        case .endpointOrModel:
            if word.hasPrefix("/") { return paths(word, method: "", start: start, state: state) }
            let names = state.profile.models.map(\.name).filter { $0.hasPrefix(word) }
            let enums = state.profile.enums.keys.sorted().filter { $0.hasPrefix(word) }
            let methods = word.isEmpty ? [] : CommandTable.methods.filter { $0.hasPrefix(word.uppercased()) }
            // Nothing typed yet: the endpoints' first segments too (`describe <TAB>` offered models alone).
            let endpoints = word.isEmpty ? paths("/", method: "", start: start, state: state).candidates : []
            return Completion(start: start, candidates: endpoints + names.map { .init(text: $0, isFinal: true, hint: "model") }
                + enums.map { .init(text: $0, isFinal: true, hint: "enum") } + methods.map { .init(text: $0, isFinal: true, hint: nil) })
        case let .word(choices, orFile):
            let found = orFile ? files(word, prefix: "", start: start, state: state).candidates : []
            return Completion(start: start, candidates: words(choices) + found)
        case .requestOptions:
            // `defaults`: the session's options and their values; `clear` alone, first.
            let clear = before.isEmpty && "clear".hasPrefix(word) && !word.hasPrefix("-") ? [Completion.Candidate(text: "clear", isFinal: true, hint: nil)] : []
            let options = options(word, after: before.last, among: RequestOptions.sessionFlags, start: start, state: state)
            return Completion(start: start, candidates: clear + (options?.candidates ?? []))
        case let .flags(flags):
            return Completion(start: start, candidates: flags.filter { $0.name.hasPrefix(word) }.map {
                .init(text: $0.name, isFinal: true, hint: $0.hint)
            })
        }
    }

    /// Endpoint paths, one segment at a time: `/api/ta` offers `/api/tasks`
    /// and `/api/task-experts`. Concrete values typed for `{id}` segments match.
    static func paths(_ typed: String, method: String, start: Int, state: CompletionState) -> Completion {
        // Every template starts with "/": split after it, as the catalog's segments are.
        guard typed.hasPrefix("/") else { return Completion(start: start, candidates: []) }
        let typedSegments = typed.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        // The last segment is the one being completed; those before must match.
        let done = typedSegments.dropLast()
        let depth = typedSegments.count
        let partial = typedSegments.last ?? ""
        let head = done.isEmpty ? "/" : "/" + done.joined(separator: "/") + "/"
        let all = state.profile.endpoints
        let useAll = !all.contains { $0.method == method }
        // One pass over the catalog with its pre-split templates and no
        // copies, so a spec with thousands of operations completes at once.
        var seen = Set<String>()
        var candidates: [Completion.Candidate] = []
        // Literal next segments: whether a template goes on past each, and the summary of one that ends there.
        var texts: [String] = []
        var goesOn = Set<String>()
        var summaries: [String: String] = [:]
        // `{param}` segments with no value to offer: named in the note.
        var unknown: [String] = []
        // Values offered for `{param}` segments, and those a template ends at.
        var valueCandidates: [(text: String, hint: String)] = []
        var valuesEndingHere = Set<String>()
        for endpoint in all where useAll || endpoint.method == method {
            let segments = endpoint.segments
            guard segments.count >= depth,
                  zip(done, segments).allSatisfy({ t, s in s == t || (Endpoint.isParameter(s) && !t.isEmpty) }) else { continue }
            let next = segments[depth - 1]
            if Endpoint.isParameter(next) {
                // A `{param}` segment: the ids seen for its resource, and variables holding an id.
                let full = [""] + segments.map(String.init)
                let values = parameterValues(full, at: depth, state: state).map(pathSegment).filter { $0.hasPrefix(partial) }
                for value in values {
                    if segments.count == depth { valuesEndingHere.insert(head + value) }
                    if seen.insert(head + value).inserted { valueCandidates.append((head + value, String(next))) }
                }
                if values.isEmpty, partial.isEmpty, !unknown.contains(String(next)) { unknown.append(String(next)) }
                continue
            }
            guard next.hasPrefix(partial) else { continue }
            // A template that ends in `/` (FastAPI's `/items/`) keeps it: completed to `/items`, the request
            // got a 307 to `/items/`, which is not followed by default.
            let endsInSlash = segments.count == depth && Endpoint.endsInSlash(endpoint.path)
            let text = head + next + (endsInSlash ? "/" : "")
            if seen.insert(text).inserted { texts.append(text) }
            if segments.count > depth { goesOn.insert(text) } else if summaries[text] == nil { summaries[text] = endpoint.summary }
        }
        // A value no template ends at (`/users/{id}/posts` alone) gets its `/`, so the next TAB offers what
        // follows: the id alone was a path no endpoint has, and TAB then offered nothing.
        for (text, hint) in valueCandidates {
            candidates.append(.init(text: valuesEndingHere.contains(text) ? text : text + "/", isFinal: false, hint: hint))
        }
        // `/items/` that ends a template and `/items` that goes on past it are one candidate: `/items/`.
        for text in texts where text.hasSuffix("/") && goesOn.contains(String(text.dropLast())) {
            texts.removeAll { $0 == String(text.dropLast()) }
            goesOn.insert(text)
        }
        // Final when a template ends here and none goes on past it.
        for text in texts {
            let summary = summaries[text]
            candidates.append(.init(text: text, isFinal: summary != nil && !goesOn.contains(text), hint: summary))
        }
        // The one candidate, a segment that only goes on, gets its `/`:
        // `/api` completes to `/api/`, not to itself.
        if candidates.count == 1, let only = texts.first, candidates[0].text == only, summaries[only] == nil, goesOn.contains(only) {
            candidates[0].text += "/"
        }
        let note = unknown.isEmpty ? nil
            : unknown.map { head + $0 }.joined(separator: ", ") + ": type the value (none seen yet; a list answer's ids are offered here)"
        // A path typed whole that is an endpoint and goes on (`/api/tasks`, and `/api/tasks/{id}`): the paths
        // after it are offered with it, so a second TAB lists them (it listed nothing, and added nothing).
        if candidates.count == 1, candidates[0].text == typed, summaries[typed] != nil, goesOn.contains(typed) {
            let deeper = paths(typed + "/", method: method, start: start, state: state)
            return Completion(start: start, candidates: candidates + deeper.candidates, note: deeper.note)
        }
        return Completion(start: start, candidates: candidates.sorted { $0.text < $1.text }, note: note)
    }

    /// A value as a path segment takes it: what the line or the URL would
    /// read otherwise percent-encoded (`it's` completed to a line that did
    /// not parse, `q?z#1` to a request for `q`); a `{{variable}}` as it is.
    static func pathSegment(_ value: String) -> String {
        if value.hasPrefix("{{"), value.hasSuffix("}}") { return value }
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "%", "?", "#", "/", "'", "\"", "\\", "{", "}", " ", "\u{00}"..."\u{1F}", "\u{7F}":
                out += "%" + String(format: "%02X", scalar.value)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Values for the parameter at `index`: ids seen for its resource (`{userId}`
    /// → `users`; `{username}` → `usernames`; `{id}` → the segment before it), then `{{variables}}` named
    /// for that resource (`task_id` for `/api/tasks/{id}`).
    static func parameterValues(_ segments: [String], at index: Int, state: CompletionState) -> [String] {
        let name = String(segments[index].dropFirst().dropLast())
        var resource = index > 0 ? segments[index - 1] : name
        for suffix in ["Id", "_id"] where name.hasSuffix(suffix) && name.count > suffix.count {
            resource = String(name.dropLast(suffix.count)) + "s"
        }
        if SeenIDs.namedKeys.contains(name) { resource = name + "s" }
        let stem = resource.hasSuffix("s") ? String(resource.dropLast()) : resource
        // A word of the name, not any part of it: `/a/{id}` offered `{{base_url}}` and `/file/{id}`
        // `{{profile}}`, which TAB then sent as the path.
        // Nor a secret's (`item_token` for `{itemId}`): a credential in a path goes to every log on the way.
        let variables = state.variables.filter { words(of: $0).contains(stem.lowercased()) && !Redactor.isSecretName($0) }.map { "{{\($0)}}" }
        return state.seenIDs.ids(for: resource) + variables
    }

    /// A variable's name in lower-case words: `task_id`, `taskId` and `task-id` are `task`, `id`.
    static func words(of name: String) -> [String] {
        var words: [String] = []
        var current = ""
        for c in name {
            if c == "_" || c == "-" || c == "." || (c.isUppercase && current.last?.isLowercase == true) {
                if !current.isEmpty { words.append(current.lowercased()) }
                current = c.isLetter || c.isNumber ? String(c) : ""
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return words
    }

    /// Keys of the last response for `show`: `.ta` offers `.tasks`, `.tasks[0].` offers that element's keys.
    static func keys(_ typed: String, start: Int, body: JSONValue?) -> Completion {
        guard let body else { return Completion(start: start, candidates: []) }
        let text = typed.isEmpty ? "." : typed
        // `.tasks[` and `.tasks[1`: the list's indices (they offered nothing).
        if let open = text.lastIndex(of: "["), !text[open...].contains("]") {
            let listText = String(text[..<open])
            let digits = text[text.index(after: open)...]
            guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let list = try? JSONPath.parse(listText.isEmpty ? "." : listText),
                  case let .success(.array(items)) = list.evaluate(body) else { return Completion(start: start, candidates: []) }
            let indices = items.indices.map(String.init).filter { $0.hasPrefix(digits) }.prefix(100)
            return Completion(start: start, candidates: indices.map { .init(text: listText + "[" + $0 + "]", isFinal: false, hint: nil) })
        }
        guard let cut = text.lastIndex(where: { $0 == "." || $0 == "]" }) else { return Completion(start: start, candidates: []) }
        let parentText = String(text[..<cut]) + (text[cut] == "]" ? "]" : "")
        let partial = text[cut] == "." ? String(text[text.index(after: cut)...]) : ""
        guard let parentPath = try? JSONPath.parse(parentText.isEmpty ? "." : parentText),
              case let .success(parent) = parentPath.evaluate(body), case let .object(members) = parent else {
            return Completion(start: start, candidates: [])
        }
        let base = text[cut] == "]" ? parentText + "." : String(text[...cut])
        let names = members.map(\.key).filter { $0.hasPrefix(partial) }
        // `.tasks` typed whole: into it, `.tasks[` for a list and `.tasks.` for an object (it offered itself).
        if names == [partial], JSONPath.isName(partial), let value = members.last(where: { $0.key == partial })?.value {
            switch value {
            case let .array(items) where !items.isEmpty: return Completion(start: start, candidates: [.init(text: base + partial + "[", isFinal: false, hint: nil)])
            case let .object(inner) where !inner.isEmpty: return Completion(start: start, candidates: [.init(text: base + partial + ".", isFinal: false, hint: nil)])
            default: break
            }
        }
        return Completion(start: start, candidates: names.map { name in
            guard !JSONPath.isName(name) else { return .init(text: base + name, isFinal: false, hint: nil) }
            // `@id`, `odd key`, `a.b`: `["…"]`, the whole path in single quotes so the line keeps it one word.
            var path = JSONPath(components: parentPath.components + [.key(name)]).description
            if path.hasPrefix("[") { path = "." + path }
            return .init(text: "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'", isFinal: true, hint: nil)
        })
    }
}
