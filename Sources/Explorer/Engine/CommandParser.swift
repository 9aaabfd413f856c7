import Core
import Foundation

/// Turns a line into a `Command`: the one place that rejects bad input.
/// `{{name}}` is replaced from `variables` in each word after splitting, so a
/// value with spaces stays one word; then the command's entry in the
/// `CommandTable` reads the words.
struct CommandParser {
    var variables: [String: String] = [:]
    var table: CommandTable = .standard
    /// Values filled in for `{{secret:NAME}}` before the line got here: a
    /// `{{` in one of them is part of the secret, not a variable (it was
    /// filled as one, or its error quoted the secret).
    var literals: [String] = []
    /// The session's `defaults --form`: fields go as a form, whose names are
    /// not nested JSON paths, unless the line says `--json`.
    var formsByDefault = false
    /// How a pasted curl's `-d @FILE` is read: the session's reader, which a replay keeps to the transcript's own files.
    var readFile: @Sendable (String) throws -> [UInt8] = RequestBuilder.readFileFromDisk
    /// Where a file a flag names is opened later (`--cert`, `--verify CA`): the session's, which a replay keeps to
    /// the transcript's own files and finds from its folder.
    var locateFile: @Sendable (String) throws -> String = RequestBuilder.expandingHome

    func parse(_ line: String) throws(CommandError) -> Command {
        if let send = try webSocketSendJSON(line) { return send }
        // A comment is not split into words: its apostrophe is no quote (`# Alice's tasks` was an error).
        if line.utf8.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) == UInt8(ascii: "#") { return .empty }
        let words: [LineTokenizer.Word]
        do { words = try LineTokenizer.split(line) } catch {
            throw CommandError(error.reason, column: error.offset)
        }
        guard let first = words.first else { return .empty }
        if first.text.hasPrefix("#") { return .empty }
        var args: [LineTokenizer.Word] = []
        for word in words.dropFirst() {
            args.append(try substituted(word))
        }
        // A bare /path or URL is a GET of it, or a POST when the line sends data, as HTTPie's `http URL a=1` is
        // (it went out as a GET with a JSON body).
        if Self.isTarget(first.text), let get = table.spec(named: "get") {
            let path = try substituted(first)
            let command = try get.parse(CommandArguments(command: first, words: [path] + args, spec: get, formsByDefault: formsByDefault, readFile: readFile,
                                                                 locateFile: locateFile))
            if case let .http("GET", target, items, options) = command, options.raw != nil || items.contains(where: \.isData) {
                return .http(method: "POST", path: target, items: items, options: options)
            }
            return command
        }
        // A method beyond the seven, in capitals (`PURGE /x`, `QUERY /search q==1`), as HTTPie's `http PURGE URL` takes it:
        // it was an unknown command, and a cache purge or a WebDAV call could not be sent at all.
        if table.spec(named: first.text) == nil, Self.isExtensionMethod(first.text), let target = args.first, Self.isTarget(target.text),
           let get = table.spec(named: "get"),
           case let .http(_, path, items, options) = try get.parse(CommandArguments(command: first, words: args, spec: get, formsByDefault: formsByDefault,
                                                                                           readFile: readFile, locateFile: locateFile)) {
            return .http(method: first.text, path: path, items: items, options: options)
        }
        guard let spec = table.spec(named: first.text) else {
            // A whole line typed in quotes (`'set token=X'`) is one word: said with its secrets hidden.
            let shown = first.text.contains(" ") ? Redactor.redact(line: first.text) ?? "…" : first.text
            var message = "unknown command '\(CommandError.quotable(shown))'"
            if let said = Self.copiedWith(first, args, in: line) { throw CommandError(said, column: first.start) }
            if let suggestion = table.closest(to: first.text) {
                message += "; did you mean '\(suggestion)'?"
            } else if Self.isExtensionMethod(first.text.uppercased()), let target = args.first, Self.isTarget(target.text) {
                message += "; a method beyond get, post, put, patch, delete, head and options is written in capitals: \(first.text.uppercased()) \(target.text)"
            }
            message += " (type help for the list)"
            throw CommandError(message, column: first.start)
        }
        return try spec.parse(CommandArguments(command: first, words: args, spec: spec, formsByDefault: formsByDefault, readFile: readFile,
                                               locateFile: locateFile))
    }

    /// A line copied with what stands before its command in a shell or a document: HTTPie's `http`/`xh`
    /// (`http POST /x a=1`: it was told to use `HTTP` as a method, and was a 400), `explorer` itself, or the
    /// REPL's prompt (`linku alice> get …`, as README shows lines). Said with the line to type.
    static func copiedWith(_ first: LineTokenizer.Word, _ args: [LineTokenizer.Word], in line: String) -> String? {
        // A JSON body typed alone (`{"title": "x"}` was "unknown command '{title:'").
        if first.text.hasPrefix("{") || first.text.hasPrefix("[") {
            return "JSON is no command: send it as a request's body, post PATH --raw '{…}', or on a socket, ws send {…}"
        }
        guard let next = args.first else { return nil }
        // Said back with its secrets hidden, as history keeps a line (`linku> login alice@example.com alice123`).
        func shown(_ text: String) -> String { Redactor.redact(line: text) ?? "…" }
        let rest = shown(String(line.dropFirst(next.start)).trimmingBlanks())
        let lowered = first.text.lowercased()
        if ["http", "https", "xh", "xhs"].contains(lowered) {
            // HTTPie's options may come before its method (`http --json POST /x`): here they come after the path.
            var flags: [String] = []
            var at = 0
            while at < args.count, args[at].text.hasPrefix("-"), args[at].text.count > 1 {
                flags.append(args[at].text)
                let name = args[at].text.split(separator: "=", maxSplits: 1)[0]
                let takesValue = RequestOptions.flags.first { $0.names.contains(String(name)) }?.value != nil && !args[at].text.contains("=")
                if takesValue, at + 1 < args.count { flags.append(args[at + 1].text); at += 1 }
                at += 1
            }
            guard at < args.count else { return nil }
            let method = args[at]
            var typed = shown(String(line.dropFirst(method.start)).trimmingBlanks())
            // HTTPie's method in capitals is one of explorer's commands in lower case.
            let lowercase = method.text.lowercased()
            if ["get", "post", "put", "patch", "delete", "head", "options"].contains(lowercase), method.text == method.text.uppercased() {
                typed = lowercase + typed.dropFirst(method.text.count)
            }
            if !flags.isEmpty { typed += " " + shown(flags.joined(separator: " ")) }
            return "'\(first.text)' is HTTPie's command; here a request line starts with its method or path: \(typed)"
        }
        if lowered == "explorer" {
            return "'explorer' starts the program, and this is its prompt: type what follows it (\(rest)), or run explorer in a shell"
        }
        // `linku alice> get …`, `nova> get …`: the prompt's words (a profile's name, a user's), the last ending in `>`.
        let words = [first] + args
        guard let end = words.prefix(3).firstIndex(where: { $0.text.hasSuffix(">") }) else { return nil }
        let prompt = words.prefix(end + 1).map(\.text).joined(separator: " ")
        let after = end + 1 < words.count ? shown(String(line.dropFirst(words[end + 1].start)).trimmingBlanks()) : ""
        return "'\(prompt)' is the prompt, copied with the line: type what follows it" + (after.isEmpty ? "" : " (\(after))")
    }

    /// What a word that is no request item was most likely meant as, said with the fix: JSON pasted as the
    /// body, a value's next word left unquoted, a shell's pipe or redirection (each was "not a request item"
    /// or "'{' cannot be in a header name", which named no fix). `previous`: the word before it.
    static func slip(_ word: LineTokenizer.Word, after previous: LineTokenizer.Word?) -> String? {
        let text = word.text
        if text.hasPrefix("{") || text.hasPrefix("[") {
            // Its secrets hidden before it is cut (`'{"password": "…"}'` was said back in clear).
            let hidden = Redactor.hidingCredentials(inText: text)
            let shown = hidden.count > 40 ? String(hidden.prefix(40)) + "…" : hidden
            return "'\(CommandError.quotable(shown))' is JSON, not a request item: send a JSON body with --raw '{…}' (or @file.json), "
                + "or its members as items (title=x price:=5)"
        }
        if ["|", ">", ">>", "<", "2>", "&&", ";"].contains(text) || text.hasPrefix("|") || text.hasPrefix(">") {
            return "'\(CommandError.quotable(text))' is the shell's, and explorer runs no shell: -o FILE saves the body; "
                + "outside the REPL, explorer -c 'LINE' | jq … pipes it"
        }
        // `title=Fix my bike`: the value's next word, said to be no item.
        if !text.contains(where: { "=:@".contains($0) }), let previous, case let .stringField(name, value)? = try? RequestItem.parse(previous.text) {
            return "'\(CommandError.quotable(text))' is no request item: a value with spaces is quoted, \(name)='\(value) \(text)…'"
        }
        return nil
    }

    /// A request method written in capitals that is no command of explorer's
    /// (`PURGE`, `QUERY`, `PROPFIND`): letters and `-`, as RFC 9110's tokens mostly are.
    static func isExtensionMethod(_ word: String) -> Bool {
        word.count >= 3 && word.first!.isUppercase && word.allSatisfy { ("A"..."Z").contains($0) || $0 == "-" }
    }

    /// Whether a line's first word is a request target itself (`/api/tasks`, `https://…`).
    /// HTTPie's shorthands too (`:3000/items`, `localhost:3000/items`, `127.0.0.1/x`): "unknown command" before.
    static func isTarget(_ word: String) -> Bool {
        word.hasPrefix("/") || hasSchemePrefix(word, "http://") || hasSchemePrefix(word, "https://")
            || URLCheck.expandingShorthand(word) != nil
    }

    /// Whether `word` starts with `prefix`, ASCII case ignored (asked of each line's first word: no copy made).
    private static func hasSchemePrefix(_ word: String, _ prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { prefix in
            word.utf8.count >= prefix.count && zip(word.utf8, prefix).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }
        }
    }

    /// `set NAME=VALUE`, and `set NAME VALUE`.
    static func set(_ args: CommandArguments) throws(CommandError) -> Command {
        var text = args.texts
        if text.count == 2, !text[0].contains("=") { text = [text[0] + "=" + text[1]] }
        guard text.count == 1, let eq = text[0].firstIndex(of: "="), eq != text[0].startIndex else {
            throw args.usage(at: args.first)
        }
        let variable = String(text[0][..<eq])
        guard isVariableName(variable) else { throw CommandError(notAVariableName(variable), column: args[0].start) }
        return .set(name: variable, value: String(text[0][text[0].index(after: eq)...]))
    }

    /// `header`, `header Name:value …`, `header Name:`, `header clear`.
    static func header(_ args: CommandArguments) throws(CommandError) -> Command {
        guard let first = args.first else { return .header(.list) }
        if first.text == "clear", args.count == 1 { return .header(.clear) }
        // `header unset NAME`: `header NAME:` in words.
        if first.text == "unset", args.count == 2 {
            switch try item(.init(text: args[1].text + ":", start: args[1].start)) {
            case let .header(name, _), let .emptyHeader(name): return .header(.set([(name, "")]))
            default: throw args.usage(at: args[1])
            }
        }
        var set: [(name: String, value: String)] = []
        for arg in args.words {
            switch try item(arg) {
            case let .header(name, value): set.append((name, value))
            case let .emptyHeader(name): set.append((name, ""))
            default: throw args.usage(at: arg)
            }
        }
        return .header(.set(set))
    }

    /// `auth bearer TOKEN`, `auth basic USER:PASSWORD`, `auth header NAME
    /// VALUE`, `auth none`: the session's credential, as a session header
    /// (the same origin rule, the same hiding); `auth` alone lists them.
    static func auth(_ args: CommandArguments) throws(CommandError) -> Command {
        guard let kind = args.first else { return .header(.list) }
        switch (kind.text.lowercased(), args.count) {
        case ("none", 1):
            return .header(.credential(nil))
        case ("bearer", 2):
            return try header("Authorization", "Bearer " + args[1].text, at: args[1])
        case ("basic", 2):
            let pair = args[1].text
            guard let credentials = BasicCredentials(pair: pair), !pair.includes(ascii: "{{") else {
                throw CommandError("auth basic takes USER:PASSWORD as typed (USER:{{secret:password}} asks for the password)", column: args[1].start)
            }
            return try header("Authorization", credentials.authorization, at: args[1])
        case ("header", 3):
            return try header(args[1].text, args[2].text, at: args[1])
        default:
            throw args.usage(at: args.count > 1 && ["none", "bearer", "basic", "header"].contains(kind.text.lowercased()) ? args[min(args.count - 1, 3)] : kind)
        }
    }

    /// The session's credential header, checked as the request item `NAME:VALUE` would be.
    private static func header(_ name: String, _ value: String, at word: LineTokenizer.Word) throws(CommandError) -> Command {
        guard case let .header(checkedName, checkedValue) = try item(.init(text: name + ":" + value, start: word.start)) else {
            throw CommandError("\(name) is not a header name", column: word.start)
        }
        return .header(.credential((checkedName, checkedValue)))
    }

    /// `defaults FLAG…` (only the flags that make sense for every line), `defaults clear`.
    static func defaults(_ args: CommandArguments) throws(CommandError) -> Command {
        if args.texts == ["clear"] { return .defaults(nil) }
        var options = RequestOptions()
        var i = 0
        while i < args.count {
            let name = String(args[i].text.split(separator: "=", maxSplits: 1).first ?? "")
            let canonical = RequestOptions.flags.first { $0.names.contains(name) }?.names[0] ?? name
            guard args[i].text.hasPrefix("-"), RequestOptions.sessionFlags.contains(canonical) else {
                let known = RequestOptions.flags.contains { $0.names.contains(name) }
                let shown = CommandError.quotable(args[i].text)
                let what = !args[i].text.hasPrefix("-") ? "'\(shown)' is not an option" : known ? "\(shown) is for one line" : "unknown option \(shown)"
                throw CommandError("\(what); defaults takes \(RequestOptions.sessionFlags.sorted().joined(separator: ", ")), or clear",
                                   column: args[i].start)
            }
            i += try options.read(args.words, at: i, locateFile: args.locateFile)
        }
        if let problem = options.tlsProblem { throw CommandError(problem, column: RequestOptions.tlsFlagColumn(in: args.words)) }
        return .defaults(options)
    }

    /// A JSON path word (`.tasks[0].id`), with the caret on what is wrong in it.
    static func jsonPath(_ word: LineTokenizer.Word) throws(CommandError) -> JSONPath {
        do { return try JSONPath.parse(word.text) } catch {
            throw CommandError("bad path '\(CommandError.quotable(word.text))': \(error.reason)", column: word.column(at: error.offset))
        }
    }

    /// A request item word, with the caret on what is wrong in it.
    static func item(_ word: LineTokenizer.Word) throws(CommandError) -> RequestItem {
        do { return try RequestItem.parse(word.text) } catch {
            throw CommandError(error.reason, column: word.column(at: error.offset))
        }
    }

    /// `capture NAME = PATH`; `capture NAME=PATH` and `capture NAME PATH`
    /// too; PATH may be `header:NAME` or `cookie:NAME`.
    static func capture(_ arguments: CommandArguments) throws(CommandError) -> Command {
        let args = arguments.words, usage = arguments.spec.usageMessage
        var name: LineTokenizer.Word
        var path: LineTokenizer.Word
        switch args.count {
        case 3 where args[1].text == "=":
            (name, path) = (args[0], args[2])
        case 2:
            (name, path) = (args[0], args[1])
            if name.text.hasSuffix("=") { name.text.removeLast() }
        case 1 where args[0].text.contains("="):
            let text = args[0].text
            let eq = text.firstIndex(of: "=")!
            name = LineTokenizer.Word(text: String(text[..<eq]), start: args[0].start)
            path = args[0].dropping(text.distance(from: text.startIndex, to: eq) + 1)
        default:
            throw CommandError(usage, column: args.first?.start)
        }
        // `capture x =` was "bad path '=': unexpected '='".
        if path.text.isEmpty || path.text == "=" {
            throw CommandError("capture needs what to take after '=': a path (capture \(name.text) = .id), header:NAME or cookie:NAME",
                               column: path.text.isEmpty ? path.start : path.start + 1)
        }
        // `capture = .id` said "'' is not a variable name".
        guard !name.text.isEmpty else { throw CommandError(usage, column: name.start) }
        guard isVariableName(name.text) else { throw CommandError(notAVariableName(name.text), column: name.start) }
        guard !TranscriptPattern.isReservedName(name.text) else {
            throw CommandError("'\(name.text)' names a kind of value in transcripts ({{\(name.text)}}); give the capture another name", column: name.start)
        }
        for (prefix, make) in [("header:", CaptureSource.header), ("cookie:", CaptureSource.cookie)] where path.text.lowercased().hasPrefix(prefix) {
            let named = String(path.text.dropFirst(prefix.count))
            guard !named.isEmpty, !named.contains(where: { $0.isWhitespace || $0 == ":" }) else {
                throw CommandError("\(prefix) takes a \(prefix.dropLast()) name: capture \(name.text) = \(prefix)\(prefix == "header:" ? "Location" : "csrftoken")",
                                   column: path.start)
            }
            return .capture(name: name.text, from: make(named))
        }
        return .capture(name: name.text, from: .body(try jsonPath(path)))
    }

    /// A request line: flags anywhere (`RequestOptions`), the path first of
    /// the other words unless the line began with it, then request items.
    /// A whole path segment written `{name}` (not a `{{variable}}`), and where it starts.
    static func catalogPlaceholder(in path: String) -> (name: String, offset: Int)? {
        let bare = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var offset = 0
        for segment in bare.split(separator: "/", omittingEmptySubsequences: false) {
            if segment.count > 2, segment.hasPrefix("{"), segment.hasSuffix("}"), !segment.hasPrefix("{{"),
               !segment.dropFirst().dropLast().contains(where: { "{}".contains($0) }) {
                return (String(segment), offset)
            }
            offset += segment.count + 1
        }
        return nil
    }

    static func http(method: String, _ arguments: CommandArguments) throws(CommandError) -> Command {
        let args = arguments.words
        var items: [RequestItem] = []
        /// The body's items (fields, files) with their words: `--raw` excludes them; the caret of a clash between nested names.
        var fields: [(item: RequestItem, word: LineTokenizer.Word)] = []
        var options = RequestOptions()
        var path: LineTokenizer.Word?
        var i = 0
        while i < args.count {
            let arg = args[i]
            if arg.text.count > 1, arg.text.hasPrefix("-") {
                i += try options.read(args, at: i, locateFile: arguments.locateFile)
                continue
            }
            i += 1
            if path == nil {
                path = arg
                continue
            }
            let parsed: RequestItem
            do { parsed = try item(arg) } catch {
                // `Authorization:Bearer TOKEN` unquoted: the token is no item, and was said back on screen.
                if i >= 2, case let .header(name, value)? = try? RequestItem.parse(args[i - 2].text),
                   Redactor.isSecretHeaderName(name), Redactor.looksLikeCredential(value + " x") {
                    throw CommandError("the credential after \(name):\(value) is a word of its own: quote the header, \(name):'\(value) …'",
                                       column: arg.start)
                }
                if let slip = Self.slip(arg, after: args[..<(i - 1)].last) { throw CommandError(slip, column: arg.start) }
                throw error
            }
            // A second whole-body file replaced the first, unsaid (HTTPie refuses it too).
            if case .file("", _, _) = parsed, let first = items.first(where: { if case .file("", _, _) = $0 { true } else { false } }),
               case let .file(_, path, _) = first {
                throw CommandError("'\(arg.text)': @\(path) is already the whole body; a request has one body", column: arg.start)
            }
            items.append(parsed)
            if parsed.isData { fields.append((parsed, arg)) }
        }
        guard let path else {
            let command = arguments.command
            throw CommandError("\(method) needs a path, as in: \(method.lowercased()) /items", column: command.start + command.text.count)
        }
        if let problem = options.tlsProblem { throw CommandError(problem, column: RequestOptions.tlsFlagColumn(in: args)) }
        // `-a USER:PASSWORD`: the line's own Authorization header, sent where the line goes.
        if let authorization = try options.takeAuthorization(line: args) {
            // It replaces an Authorization typed as an item, as HTTPie's -a does: two went out.
            items.removeAll { item in
                switch item {
                case let .header(name, _), let .emptyHeader(name): name.lowercased() == "authorization"
                default: false
                }
            }
            items.append(authorization)
        }
        // The body's items, not a header's (`X-Empty;`, `X-Key:@key.txt`: they were refused with --raw as if fields).
        if options.raw != nil, let data = fields.first?.word {
            throw CommandError("--raw sends its text as the whole body; it cannot be combined with fields or files", column: data.start)
        }
        // `/items/{item_id}` pasted from the catalog or docs: it went out as the literal `{item_id}`.
        if path.text.utf8.contains(UInt8(ascii: "{")), let placeholder = Self.catalogPlaceholder(in: path.text) {
            let example = path.text.replacingCharacters(in: path.text.index(path.text.startIndex, offsetBy: placeholder.offset)
                                                        ..< path.text.index(path.text.startIndex, offsetBy: placeholder.offset + placeholder.name.count), with: "7")
            throw CommandError("\(placeholder.name) is a placeholder: put a value in its place (\(example)), or a {{variable}}",
                               column: path.column(at: placeholder.offset))
        }
        // A full URL typed out: checked here, with a caret (`{{name}}` in it is filled in later, and checked then).
        // A scheme is read in any case (RFC 3986 3.1): `HTTPS://` is https.
        // HTTPie's `:3000/items` and `localhost:3000/items` went to the base URL as the path `/:3000/items`.
        let target = URLCheck.expandingShorthand(path.text) ?? URLCheck.lowercasingScheme(path.text)
        // `http:` or `https:` begins one (`http:/x`, a typo, said); a word that merely starts so is a path under the
        // base URL (`get httpbin`, `get https_settings` were refused as URLs).
        if target.lowercased().hasPrefix("http:") || target.lowercased().hasPrefix("https:"), !target.includes(ascii: "{{"),
           let reason = URLCheck.problem(target) {
            throw CommandError(reason, column: path.start)
        }
        // `ftp://…`, `htps://…`: another scheme, or a typo of one, went to the backend as the path `/ftp://…`.
        if !target.hasPrefix("/"), let scheme = target.firstRange(of: "://").map({ target[..<$0.lowerBound] }), !scheme.isEmpty,
           scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }), scheme != "http", scheme != "https" {
            let hint = ["ws", "wss"].contains(scheme) ? " (a WebSocket: ws connect \(target))" : ""
            throw CommandError("\(scheme):// is not a scheme explorer sends requests to: use http:// or https://" + hint, column: path.start)
        }
        if !options.multipart, !(options.form || arguments.formsByDefault) || options.json { try Self.checkNesting(fields) }
        return .http(method: method, path: target, items: items, options: options)
    }

    /// Fields whose nested names clash (`a=1 a[b]=2`, `[0]=x a=1`): said
    /// here, with a caret under the item that cannot go in, before anything
    /// is sent (the builder said it, with no caret). A JSON body only: not
    /// with a file or `--raw` (refused on their own), nor with a field read
    /// from a file (its value is known when it is read, and checked then).
    static func checkNesting(_ fields: [(item: RequestItem, word: LineTokenizer.Word)]) throws(CommandError) {
        guard fields.count > 1, !fields.contains(where: { if case .file = $0.item { true } else if case .jsonFieldFromFile = $0.item { true } else { false } })
        else { return }
        var nested = NestedJSON()
        for (item, word) in fields {
            let field: (name: String, value: JSONValue)
            switch item {
            case let .stringField(name, value): field = (name, .string(value))
            case let .stringFieldFromFile(name, _): field = (name, .string(""))
            case let .jsonField(name, value): field = (name, value)
            default: continue
            }
            do { try nested.set(field.name, field.value) } catch { throw CommandError(error.message, column: word.start) }
        }
    }

    /// The word with its variables filled in; where it stands in the line
    /// kept while nothing was filled in (a value's length is not the name's).
    func substituted(_ word: LineTokenizer.Word) throws(CommandError) -> LineTokenizer.Word {
        let text = try substitute(word)
        return text == word.text ? word : LineTokenizer.Word(text: text, start: word.start)
    }

    /// Replaces each `{{name}}` in a word with the variable's value (a value
    /// is not searched again, nor is a supplied secret's own `{{`); an
    /// unknown name is an error, not an empty string. Works on UTF-8 bytes:
    /// Foundation's `range(of:)` made this most of the cost of parsing a
    /// `ws send {…}` line.
    func substitute(_ word: LineTokenizer.Word) throws(CommandError) -> String {
        let bytes = Array(word.text.utf8)
        let brace = UInt8(ascii: "{"), closing = UInt8(ascii: "}")
        func pair(_ b: UInt8, at i: Int) -> Bool { i + 1 < bytes.count && bytes[i] == b && bytes[i + 1] == b }
        guard bytes.indices.contains(where: { pair(brace, at: $0) }) else { return word.text }
        // Where a secret's own `{{` stands: copied as it is.
        var literalEnds: [Int: Int] = [:]
        for literal in literals where literal.includes(ascii: "{{") {
            let needle = Array(literal.utf8)
            var start = 0
            while start + needle.count <= bytes.count {
                if bytes[start..<(start + needle.count)].elementsEqual(needle) {
                    literalEnds[start] = start + needle.count
                    start += needle.count
                } else {
                    start += 1
                }
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if let end = literalEnds[i] {
                out += bytes[i..<end]
                i = end
                continue
            }
            guard pair(brace, at: i) else {
                out.append(bytes[i])
                i += 1
                continue
            }
            var close = i + 2
            while close < bytes.count, !pair(closing, at: close) { close += 1 }
            // `{{ id }}` typed with spaces is split into words: its first word has no `}}`.
            guard close < bytes.count else {
                let spaced = word.text.hasSuffix("{{") ? " (a variable is written {{name}}, without spaces)" : ""
                var unclosed = CommandError("unclosed '{{' in '\(CommandError.quotable(word.text))'" + spaced, column: word.start)
                unclosed.placeholderSyntax = true
                throw unclosed
            }
            let name = String(decoding: bytes[(i + 2)..<close], as: UTF8.self).trimmingBlanks()
            guard !name.isEmpty else {
                var empty = CommandError("'{{}}' names no variable: write {{name}} (vars lists them)", column: word.start)
                empty.placeholderSyntax = true
                throw empty
            }
            guard let value = variables[name] else {
                if name.hasPrefix("secret:") {
                    let secret = String(name.dropFirst(7))
                    throw CommandError("{{\(name)}} is filled in from \(SecretResolver.environmentName(secret)), or asked for when the line is typed at the prompt",
                                       column: word.start)
                }
                // `{{secrt:password}}` was told "set it with: set secrt:password=VALUE", which set refuses.
                if let colon = name.firstIndex(of: ":") {
                    let kind = String(name[..<colon]), rest = name[name.index(after: colon)...]
                    // `{{id:=integer}}` is a transcript's pattern, for what an answer holds, not a value to send.
                    if rest.hasPrefix("=") {
                        throw CommandError("'{{\(CommandError.quotable(name))}}' is a transcript's pattern, for the answers it expects; "
                                           + "a line takes {{name}} or {{secret:NAME}}", column: word.start)
                    }
                    let hint = editDistance(kind.lowercased(), "secret") <= 2 ? "did you mean {{secret:\(rest)}}?" : "a secret is written {{secret:NAME}}"
                    throw CommandError("'{{\(CommandError.quotable(name))}}' is not a variable: \(hint)", column: word.start)
                }
                // A typo of a variable there is (`{{note_idd}}`), most often in a hand-edited transcript.
                let near = nearest(to: name, in: variables.keys.filter { !$0.hasPrefix("secret:") }.sorted()) { distance, _ in
                    distance <= max(1, min(2, name.count / 3))
                }
                var unknown = if let near {
                    CommandError("unknown variable {{\(name)}}; did you mean {{\(near)}}?", column: word.start)
                } else {
                    // A secret's name as `set NAME VALUE`: written `token=VALUE`, a report hid the word VALUE as a token.
                    CommandError("unknown variable {{\(name)}} (set it with: set \(name)\(Redactor.isSecretName(name) ? " " : "=")VALUE; see vars)",
                                 column: word.start)
                }
                unknown.unknownVariable = true
                throw unknown
            }
            out += value.utf8
            i = close + 2
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Why a name is none: `1a` has only letters and digits, and was told to use letters, digits and _.
    static func notAVariableName(_ name: String) -> String {
        let rule = name.first?.isNumber == true ? "a name starts with a letter or _" : "use letters, digits and _"
        return "'\(CommandError.quotable(name))' is not a variable name: \(rule)"
    }

    static func isVariableName(_ s: String) -> Bool {
        guard let first = s.first, first.isLetter || first == "_" else { return false }
        return s.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}

