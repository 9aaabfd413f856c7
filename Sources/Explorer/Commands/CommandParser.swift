import Core
import Foundation

/// Turns a line into a `Command`: the one place that rejects bad input.
/// `{{name}}` is replaced from `variables` in each word after splitting, so a
/// value with spaces stays one word.
struct CommandParser {
    var variables: [String: String] = [:]

    func parse(_ line: String) throws(CommandError) -> Command {
        if let send = try webSocketSendJSON(line) { return send }
        let words: [LineTokenizer.Word]
        do { words = try LineTokenizer.split(line) } catch {
            throw CommandError(error.reason, column: error.offset)
        }
        guard let first = words.first else { return .empty }
        if first.text.hasPrefix("#") { return .empty }
        var args: [LineTokenizer.Word] = []
        for word in words.dropFirst() {
            args.append(LineTokenizer.Word(text: try substitute(word), start: word.start))
        }
        let name = first.text.lowercased()

        if first.text.hasPrefix("/") || first.text.hasPrefix("http://") || first.text.hasPrefix("https://") {
            let path = LineTokenizer.Word(text: try substitute(first), start: first.start)
            return try http(method: "GET", path: path, args: args, end: first.start + first.text.count)
        }
        if Vocabulary.methods.contains(first.text.uppercased()) {
            return try http(method: first.text.uppercased(), path: nil, args: args, end: first.start + first.text.count)
        }
        switch name {
        case "login":
            guard args.count <= 2 else { throw CommandError("usage: login [EMAIL] [PASSWORD]", column: args[2].start) }
            return .login(email: args.first?.text, password: args.count > 1 ? args[1].text : nil)
        case "logout": try noArguments(name, args); return .logout
        case "whoami": try noArguments(name, args); return .whoami
        case "vars": try noArguments(name, args); return .vars
        case "cookies":
            guard args.count <= 1, args.first.map({ $0.text == "clear" }) ?? true else {
                throw CommandError("usage: cookies [clear]", column: args.first?.start)
            }
            return .cookies(clear: !args.isEmpty)
        case "exit", "quit": try noArguments(name, args); return .exit
        case "set":
            var text = args.map(\.text)
            if text.count == 2, !text[0].contains("=") { text = [text[0] + "=" + text[1]] }
            guard text.count == 1, let eq = text[0].firstIndex(of: "="), eq != text[0].startIndex else {
                throw CommandError("usage: set NAME=VALUE", column: args.first?.start)
            }
            let variable = String(text[0][..<eq])
            guard Self.isVariableName(variable) else {
                throw CommandError("'\(variable)' is not a variable name: use letters, digits and _", column: args[0].start)
            }
            return .set(name: variable, value: String(text[0][text[0].index(after: eq)...]))
        case "unset":
            guard args.count == 1 else { throw CommandError("usage: unset NAME") }
            return .unset(name: args[0].text)
        case "show":
            guard args.count <= 1 else { throw CommandError("usage: show [PATH], as in: show .tasks[0].id", column: args[1].start) }
            guard let arg = args.first else { return .show(path: nil) }
            do { return .show(path: try JSONPath.parse(arg.text)) } catch {
                throw CommandError("bad path '\(arg.text)': \(error.reason)", column: arg.start + error.offset)
            }
        case "curl":
            return try CurlImport.parse(args)
        case "defaults":
            if args.map(\.text) == ["clear"] { return .defaults(nil) }
            var options = RequestOptions()
            var i = 0
            while i < args.count {
                let name = String(args[i].text.split(separator: "=", maxSplits: 1).first ?? "")
                let canonical = RequestOptions.flags.first { $0.names.contains(name) }?.names[0] ?? name
                guard args[i].text.hasPrefix("-"), RequestOptions.sessionFlags.contains(canonical) else {
                    throw CommandError("defaults takes \(RequestOptions.sessionFlags.sorted().joined(separator: ", ")), or clear; \(args[i].text) is for one line",
                                       column: args[i].start)
                }
                i += try options.read(args, at: i)
            }
            return .defaults(options)
        case "header", "headers":
            guard let first = args.first else { return .header(.list) }
            if first.text == "clear", args.count == 1 { return .header(.clear) }
            var set: [(name: String, value: String)] = []
            for arg in args {
                let item: RequestItem
                do { item = try RequestItem.parse(arg.text) } catch {
                    throw CommandError(error.reason, column: arg.start + error.offset)
                }
                switch item {
                case let .header(name, value): set.append((name, value))
                case let .emptyHeader(name): set.append((name, ""))
                default: throw CommandError("usage: header Name:value … | header Name: | header clear", column: arg.start)
                }
            }
            return .header(.set(set))
        case "save":
            let force = args.contains { $0.text == "--force" }
            let files = args.filter { $0.text != "--force" }
            guard files.count == 1 else { throw CommandError("usage: save FILE [--force]", column: files.dropFirst().first?.start ?? args.first?.start) }
            return .save(path: files[0].text, force: force)
        case "capture":
            return try capture(args)
        case "endpoints":
            guard args.count <= 1 else { throw CommandError("usage: endpoints [FILTER]", column: args[1].start) }
            return .endpoints(filter: args.first?.text)
        case "spec":
            guard args.count == 2, args[0].text == "load" else { throw CommandError("usage: spec load FILE", column: args.first?.start) }
            return .specLoad(path: args[1].text)
        case "describe":
            // `describe POST /api/tasks` names an endpoint by method and path.
            guard (1...2).contains(args.count) else { throw CommandError("usage: describe ENDPOINT|MODEL, as in: describe /api/tasks", column: args.dropFirst(2).first?.start) }
            return .describe(args.map(\.text).joined(separator: " "))
        case "replay":
            guard args.count == 1 else { throw CommandError("usage: replay FILE", column: args.dropFirst().first?.start) }
            return .transcript(.replay(path: args[0].text))
        case "tour":
            guard args.count <= 1 else { throw CommandError("usage: tour [NAME]", column: args[1].start) }
            return .transcript(.tour(name: args.first?.text))
        case "record":
            guard args.count == 1 else { throw CommandError("usage: record FILE | record stop | record status", column: args.dropFirst().first?.start) }
            switch args[0].text {
            case "stop": return .record(.stop)
            case "status": return .record(.status)
            default: return .record(.start(path: args[0].text))
            }
        case "ws":
            return try webSocket(args)
        case "help", "?":
            guard args.count <= 1 else { throw CommandError("usage: help [COMMAND]") }
            return .help(topic: args.first?.text)
        default:
            var message = "unknown command '\(first.text)'"
            if let suggestion = Vocabulary.closest(to: first.text) { message += "; did you mean '\(suggestion)'?" }
            message += " (type help for the list)"
            throw CommandError(message, column: first.start)
        }
    }

    /// `capture NAME = PATH`; `capture NAME=PATH` and `capture NAME PATH` too.
    private func capture(_ args: [LineTokenizer.Word]) throws(CommandError) -> Command {
        let usage = "usage: capture NAME = PATH, as in: capture task_id = .id"
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
            path = LineTokenizer.Word(text: String(text[text.index(after: eq)...]), start: args[0].start + text.distance(from: text.startIndex, to: eq) + 1)
        default:
            throw CommandError(usage, column: args.first?.start)
        }
        guard Self.isVariableName(name.text) else {
            throw CommandError("'\(name.text)' is not a variable name: use letters, digits and _", column: name.start)
        }
        do { return .capture(name: name.text, path: try JSONPath.parse(path.text)) } catch {
            throw CommandError("bad path '\(path.text)': \(error.reason)", column: path.start + error.offset)
        }
    }

    private func noArguments(_ name: String, _ args: [LineTokenizer.Word]) throws(CommandError) {
        if let extra = args.first { throw CommandError("\(name) takes no arguments", column: extra.start) }
    }

    /// A request line: flags anywhere (`RequestOptions`), the path first of
    /// the other words unless the line began with it, then request items.
    private func http(method: String, path given: LineTokenizer.Word?, args: [LineTokenizer.Word], end: Int) throws(CommandError) -> Command {
        var items: [RequestItem] = []
        /// The words of body items (fields, files), which `--raw` excludes.
        var dataWords: [LineTokenizer.Word] = []
        var options = RequestOptions()
        var path = given
        var i = 0
        while i < args.count {
            let arg = args[i]
            if arg.text.count > 1, arg.text.hasPrefix("-") {
                i += try options.read(args, at: i)
                continue
            }
            i += 1
            if path == nil {
                path = arg
                continue
            }
            do { items.append(try RequestItem.parse(arg.text)) } catch {
                throw CommandError(error.reason, column: arg.start + error.offset)
            }
            if case .header = items.last! {} else if case .query = items.last! {} else { dataWords.append(arg) }
        }
        guard let path else {
            throw CommandError("\(method) needs a path, as in: \(method.lowercased()) /api/tasks", column: end)
        }
        if options.raw != nil, let data = dataWords.first {
            throw CommandError("--raw sends its text as the whole body; it cannot be combined with fields or files", column: data.start)
        }
        return .http(method: method, path: path.text, items: items, options: options)
    }

    /// Replaces `{{name}}` in a word. An unknown name is an error, not an empty string.
    /// Replaces each `{{name}}` with the variable's value (a value is not
    /// searched again). Works on UTF-8 bytes: Foundation's `range(of:)` made
    /// this most of the cost of parsing a `ws send {…}` line.
    func substitute(_ word: LineTokenizer.Word) throws(CommandError) -> String {
        let bytes = Array(word.text.utf8)
        let brace = UInt8(ascii: "{"), closing = UInt8(ascii: "}")
        func pair(_ b: UInt8, at i: Int) -> Bool { i + 1 < bytes.count && bytes[i] == b && bytes[i + 1] == b }
        guard bytes.indices.contains(where: { pair(brace, at: $0) }) else { return word.text }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            guard pair(brace, at: i) else {
                out.append(bytes[i])
                i += 1
                continue
            }
            var close = i + 2
            while close < bytes.count, !pair(closing, at: close) { close += 1 }
            guard close < bytes.count else { throw CommandError("unclosed '{{' in '\(word.text)'", column: word.start) }
            let name = String(decoding: bytes[(i + 2)..<close], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            guard let value = variables[name] else {
                if name.hasPrefix("secret:") {
                    let secret = String(name.dropFirst(7))
                    throw CommandError("{{\(name)}} is filled in from \(SecretResolver.environmentName(secret)), or asked for when the line is typed at the prompt",
                                       column: word.start)
                }
                throw CommandError("unknown variable {{\(name)}} (set it with: set \(name)=VALUE; see vars)", column: word.start)
            }
            out += value.utf8
            i = close + 2
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func isVariableName(_ s: String) -> Bool {
        guard let first = s.first, first.isLetter || first == "_" else { return false }
        return s.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}

