import Core
import Foundation

/// Completion after a request's path: what the endpoint takes. Query
/// parameters as `name==`, body fields as `name=` (strings) or `name:=`
/// (anything else), an enum field's values after `name=`, headers when the
/// word starts with a capital (HTTPie's convention), and files after `@`.
extension Completer {
    static let headerNames = ["Accept", "Authorization", "Content-Type", "If-None-Match", "User-Agent", "X-Request-Id"]
    static let headerValues = ["Accept": ["application/json", "*/*"],
                               "Content-Type": ["application/json", "multipart/form-data", "text/plain"]]

    static func items(_ word: String, method: String, path: String, used: [String], start: Int, state: CompletionState) -> Completion {
        if let at = word.firstIndex(of: "@") {
            let prefix = String(word[...at])
            return files(String(word[word.index(after: at)...]), prefix: prefix, start: start, state: state)
        }
        if let options = options(word, after: used.last, start: start, state: state) { return options }
        let endpoint = endpoint(method: method, path: path, in: state.profile)
        if word.first?.isUppercase == true, word.contains(":") ? !word.contains("=") : true { return headers(word, start: start) }
        if let query = word.range(of: "=="), let endpoint {
            let name = String(word[..<query.lowerBound])
            let typed = String(word[query.upperBound...])
            let values = queryValues(name, of: endpoint, in: state.profile).filter { $0.hasPrefix(typed) }
            return Completion(start: start, candidates: values.map { .init(text: name + "==" + $0, isFinal: true, hint: nil) })
        }
        if let eq = word.firstIndex(of: "="), !word[eq...].hasPrefix("==") {
            let name = String(word[..<eq])
            let typed = String(word[word.index(after: eq)...])
            guard case let .enumeration(_, values)? = endpoint?.body?.fields.first(where: { $0.name == name })?.type else {
                return Completion(start: start, candidates: [])
            }
            return Completion(start: start, candidates: values.filter { $0.hasPrefix(typed) }.map { .init(text: name + "=" + $0, isFinal: true, hint: nil) })
        }
        guard let endpoint else { return Completion(start: start, candidates: []) }
        let usedNames = Set(used.map { item in String(item.prefix { !"=:@".contains($0) }) })
        var candidates: [Completion.Candidate] = endpoint.query.filter { !usedNames.contains($0) }.map {
            .init(text: $0 + "==", isFinal: false, hint: "query")
        }
        // A list body is not made of fields (`--raw` or `@file` sends it): none are offered.
        for field in endpoint.bodyIsList ? [] : endpoint.body?.fields ?? [] where !usedNames.contains(field.name) {
            let hint = "\(field.type)" + (field.required ? ", required" : "")
            candidates.append(.init(text: field.name + (field.type.isString ? "=" : ":="), isFinal: false, hint: hint))
        }
        return Completion(start: start, candidates: candidates.filter { $0.text.hasPrefix(word) })
    }

    /// A header's name (`Acc` offers `Accept:`), or its value after the colon (`Accept:` offers `Accept:application/json`).
    static func headers(_ word: String, start: Int) -> Completion {
        guard let colon = word.firstIndex(of: ":") else {
            let names = headerNames.filter { $0.hasPrefix(word) }
            return Completion(start: start, candidates: names.map { .init(text: $0 + ":", isFinal: false, hint: "header") })
        }
        let name = String(word[..<colon])
        let typed = String(word[word.index(after: colon)...])
        let values = headerValues[name]?.filter { $0.hasPrefix(typed) } ?? []
        return Completion(start: start, candidates: values.map { .init(text: name + ":" + $0, isFinal: true, hint: nil) })
    }

    /// A request option (`-v`, `--timeout`) or its value, or nil when the
    /// word is neither. `among`: the options offered (`defaults` takes the
    /// session's alone).
    static func options(_ word: String, after last: String?, among names: Set<String>? = nil, start: Int,
                        state: CompletionState) -> Completion? {
        // The value of an option that takes one (`-p WHAT`, `-o FILE`): its values, not the endpoint's
        // fields (`-p <TAB>` offered `page==`, which -p then refused).
        if let last, let flag = RequestOptions.flags.first(where: { $0.names.contains(last) }), let value = flag.value {
            switch value {
            case "FILE": return files(word, prefix: "", start: start, state: state)
            case "WHAT": return Completion(start: start, candidates: ["b", "h", "hb", "HBhb", "Hh"].filter { $0.hasPrefix(word) }.map {
                .init(text: $0, isFinal: true, hint: nil) })
            case "basic|bearer", "yes|no|CA_FILE":
                let words = value.split(separator: "|").map(String.init).filter { $0 != "CA_FILE" && $0.hasPrefix(word) }
                // A CA file too: `--verify <TAB>` offered yes and no alone.
                let found = value.hasSuffix("CA_FILE") ? files(word, prefix: "", start: start, state: state).candidates : []
                return Completion(start: start, candidates: words.map { .init(text: $0, isFinal: true, hint: nil) } + found)
            default: return Completion(start: start, candidates: [])
            }
        }
        guard word.hasPrefix("-") else { return nil }
        let flags = RequestOptions.flags.filter { flag in flag.names[0].hasPrefix(word) && names.map { $0.contains(flag.names[0]) } ?? true }
        return Completion(start: start, candidates: flags.map { .init(text: $0.names[0], isFinal: $0.value == nil, hint: $0.help) })
    }

    /// The values a query parameter takes: the catalog's (an OpenAPI `enum`),
    /// else those of the listed model's field of that name, a list filtering
    /// on its own field (`status==` on `/api/tasks` takes a task's statuses).
    static func queryValues(_ name: String, of endpoint: Endpoint, in profile: Profile) -> [String] {
        if let values = endpoint.queryValues[name] { return values }
        // A list answered as a bare array names no model: the one its last segment names (`/api/tasks`, a Task).
        let resource = endpoint.path.split(separator: "/").last.map { $0.hasSuffix("s") ? String($0.dropLast()) : String($0) }
        guard let response = endpoint.response.flatMap(profile.model(named:)) ?? resource.flatMap(profile.model(named:)) else { return [] }
        // A page names its items in an array member: `{tasks: [Task], total, …}`.
        let listed = response.fields.lazy.compactMap { field -> Model? in
            guard case let .array(.model(element)) = field.type else { return nil }
            return profile.model(named: element)
        }.first
        for model in [response, listed].compactMap(\.self) {
            switch model.fields.first(where: { $0.name == name })?.type {
            case let .enumeration(_, values)?: return values
            case .boolean?: return ["true", "false"]
            default: continue
            }
        }
        return []
    }

    /// The catalog entry for a typed path (a template, or concrete ids and
    /// `{{variables}}` in its parameter segments), preferring the method's.
    static func endpoint(method: String, path: String, in profile: Profile) -> Endpoint? {
        let bare = String(path.split(separator: "?", maxSplits: 1).first ?? "")
        let concrete = Endpoint.segments(of: bare)
        // A literal segment beats a parameter: `/users/me` is not `/users/{username}`.
        // One that agrees on a last `/` first (`/c/{name}/` for `/c/x/`), as the request's lookup does.
        let slash = Endpoint.endsInSlash(bare)
        func rank(_ e: Endpoint) -> (Int, Int) { e.rank(forPathEndingInSlash: slash) }
        var best: Endpoint?
        var bestOfMethod: Endpoint?
        for endpoint in profile.endpoints where endpoint.path == bare || endpoint.matches(segments: concrete) {
            if best.map({ rank(endpoint) < rank($0) }) ?? true { best = endpoint }
            if endpoint.method == method, bestOfMethod.map({ rank(endpoint) < rank($0) }) ?? true { bestOfMethod = endpoint }
        }
        return bestOfMethod ?? best
    }

    /// Files and directories for `@file`, `record FILE`: `prefix` is what
    /// stays in front of the path (`avatar@`).
    static func files(_ typed: String, prefix: String, start: Int, state: CompletionState) -> Completion {
        let slash = typed.lastIndex(of: "/")
        let directory = slash.map { String(typed[...$0]) } ?? ""
        let partial = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        let entries = state.listDirectory(directory).filter { $0.hasPrefix(partial) && (partial.hasPrefix(".") || !$0.hasPrefix(".")) }
        return Completion(start: start, candidates: entries.sorted().map { entry in
            .init(text: escaped(prefix + directory + entry), isFinal: !entry.hasSuffix("/"), hint: nil)
        })
    }

    /// A word as the line must hold it to stay one word: spaces, quotes and
    /// backslashes escaped with a backslash (`my\ file.txt`), as the line's
    /// tokenizer reads them.
    static func escaped(_ word: String) -> String {
        guard word.contains(where: { $0 == " " || $0 == "'" || $0 == "\"" || $0 == "\\" }) else { return word }
        var out = ""
        for c in word {
            if c == " " || c == "'" || c == "\"" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// The entries of a directory (`""` is the current one), directories with a trailing `/`.
    @Sendable static func listDirectory(_ directory: String) -> [String] {
        let fm = FileManager.default
        let expanded = directory.hasPrefix("~/") ? fm.homeDirectoryForCurrentUser.path + directory.dropFirst() : directory
        let path = expanded.isEmpty ? "." : expanded
        guard let names = try? fm.contentsOfDirectory(atPath: path) else { return [] }
        return names.map { name in
            var isDirectory: ObjCBool = false
            _ = fm.fileExists(atPath: (path as NSString).appendingPathComponent(name), isDirectory: &isDirectory)
            return isDirectory.boolValue ? name + "/" : name
        }
    }
}
