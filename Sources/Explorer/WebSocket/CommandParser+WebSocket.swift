import Core

/// `ws …` lines. `ws send` takes the rest of the line as JSON text (so its
/// quotes are JSON's, not the shell's), or request items that build an object.
extension CommandParser {
    /// `ws send {…}` or `ws send […]`, read before the line is split into
    /// words; nil for every other line.
    func webSocketSendJSON(_ line: String) throws(CommandError) -> Command? {
        // Every line is asked: most are not `ws …`, and are not made characters.
        let lead = line.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard lead.prefix(2).elementsEqual("ws".utf8, by: { $0 | 0x20 == $1 }) else { return nil }
        let chars = Array(line)
        var i = 0
        func skipSpaces() { while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 } }
        func word(_ w: String) -> Bool {
            let end = i + w.count
            guard end <= chars.count, String(chars[i..<end]).lowercased() == w,
                  end == chars.count || chars[end] == " " || chars[end] == "\t" else { return false }
            i = end
            return true
        }
        skipSpaces()
        guard word("ws") else { return nil }
        skipSpaces()
        guard word("send") else { return nil }
        skipSpaces()
        // `--text` takes the rest of the line as it is, spaces and quotes included.
        if word("--text") || String(chars[i...]) == "--text" {
            if i < chars.count { i += 1 }
            guard i < chars.count else { throw CommandError("ws send --text needs the text to send, as in: ws send --text PING", column: i) }
            return .ws(.sendText(try substitute(LineTokenizer.Word(text: String(chars[i...]), start: i))))
        }
        // A number, true, false or null is a JSON frame too (`ws send 42` was "not a request item");
        // a JSON string is `--text "…"`, the text as typed.
        let scalar = String(chars[i...]).trimmingBlanks()
        if ["true", "false", "null"].contains(scalar) || scalar.first.map({ $0 == "-" || $0.isASCII && $0.isNumber }) == true,
           let value = try? JSONParser.parse(scalar) {
            return .ws(.send(value))
        }
        let typed: LineTokenizer.Word
        if i < chars.count, chars[i] == "{" || chars[i] == "[" {
            typed = LineTokenizer.Word(text: String(chars[i...]), start: i)
        } else if i < chars.count, chars[i] == "'" || chars[i] == "\"",
                  let words = try? LineTokenizer.split(String(chars[i...])), words.count == 1, let only = words.first?.text,
                  only.first == "{" || only.first == "[" {
            // JSON in the shell's quotes (`ws send '{"a":1}'`, as a shell or HTTPie's --raw wants it) is the JSON they hold.
            typed = LineTokenizer.Word(text: only, start: i + 1)
        } else {
            return nil
        }
        let start = typed.start
        let text = try substitute(typed)
        do {
            return .ws(.send(try JSONParser.parse(text)))
        } catch {
            let column = start + String(decoding: Array(text.utf8).prefix(error.offset), as: UTF8.self).count
            throw CommandError("invalid JSON: \(error.reason) (nothing sent)", column: column)
        }
    }

    /// `locateFile`: where a TLS flag's file is (`CommandParser.locateFile`).
    static func webSocket(_ args: [LineTokenizer.Word],
                          locateFile: (String) throws -> String = RequestBuilder.expandingHome) throws(CommandError) -> Command {
        // As `help ws` lists them (pretty and --until were left out).
        let usage = "usage: ws connect [URL|PATH] | send JSON|@file|--text TEXT|--binary @file | recv [N] [--timeout S] [--until FILTER] [--pretty] "
            + "| pretty [on|off] | status | close (help ws explains each)"
        guard let sub = args.first else { throw CommandError(usage) }
        let rest = Array(args.dropFirst())
        switch sub.text.lowercased() {
        case "connect":
            return .ws(try connect(rest, locateFile: locateFile))
        case "send":
            guard !rest.isEmpty else { throw CommandError("usage: ws send JSON | name=value count:=3 | @file.json | --binary @file | --text TEXT", column: sub.start + 4) }
            if rest.count == 1, rest[0].text.hasPrefix("@") {
                guard rest[0].text.count > 1 else { throw CommandError("@ needs a file name, as in: ws send @message.json", column: rest[0].start) }
                return .ws(.sendFile(path: String(rest[0].text.dropFirst()), binary: false))
            }
            if rest.first?.text == "--binary" {
                guard rest.count == 2, rest[1].text.hasPrefix("@"), rest[1].text.count > 1 else {
                    throw CommandError("ws send --binary takes one @file, whose bytes go as one binary frame", column: rest.count > 1 ? rest[1].start : rest[0].start)
                }
                return .ws(.sendFile(path: String(rest[1].text.dropFirst()), binary: true))
            }
            if let flag = rest.first(where: { $0.text.hasPrefix("--") }) {
                throw CommandError("unknown flag \(CommandError.quotable(flag.text)); ws send takes --text TEXT or --binary @file", column: flag.start)
            }
            return .ws(.send(try jsonObject(rest)))
        case "recv":
            return .ws(try recv(rest))
        case "pretty":
            switch rest.map({ $0.text.lowercased() }) {
            case []: return .ws(.pretty(nil))
            case ["on"]: return .ws(.pretty(true))
            case ["off"]: return .ws(.pretty(false))
            default: throw CommandError("usage: ws pretty [on|off]", column: rest[0].start)
            }
        case "status", "close":
            if let extra = rest.first { throw CommandError("ws \(sub.text) takes no arguments", column: extra.start) }
            return .ws(sub.text.lowercased() == "status" ? .status : .close)
        default:
            throw CommandError(usage, column: sub.start)
        }
    }

    /// `ws connect [URL|PATH] [--retries N] [--backoff S] [--heartbeat S] [--verify …] [--cert …] [--cert-key …]`, flags anywhere.
    private static func connect(_ words: [LineTokenizer.Word], locateFile: (String) throws -> String) throws(CommandError) -> WebSocketAction {
        let usage = "usage: ws connect [URL|PATH] [Name:value…] [--retries N] [--backoff S] [--heartbeat S] [--verify yes|no|CA_FILE] [--cert FILE] [--cert-key FILE]"
        var target: String?
        var settings = ConnectSettings()
        var i = 0
        func value(_ flag: LineTokenizer.Word, _ example: String) throws(CommandError) -> String {
            guard i + 1 < words.count else { throw CommandError("\(flag.text) needs a value, as in: ws connect \(example)", column: flag.start) }
            return words[i + 1].text
        }
        while i < words.count {
            let word = words[i]
            switch word.text {
            case "--retries":
                guard let n = Int(try value(word, "--retries 3")), (0...ConnectSettings.maximumRetries).contains(n) else {
                    throw CommandError("--retries needs a whole number from 0 (never reconnect) to \(ConnectSettings.maximumRetries)", column: word.start)
                }
                settings.retries = n
                i += 2
            case "--backoff":
                guard let s = Double(try value(word, "--backoff 0.5")), s >= 0.01, s <= 3600 else {
                    throw CommandError("--backoff needs seconds from 0.01 to 3600 (the first wait; each next one doubles)", column: word.start)
                }
                settings.backoff = s
                i += 2
            case "--heartbeat":
                guard let s = Double(try value(word, "--heartbeat 10")), s == 0 || (s >= 0.1 && s <= 3600) else {
                    throw CommandError("--heartbeat needs seconds from 0.1 to 3600, or 0 for no pings", column: word.start)
                }
                settings.heartbeat = s
                i += 2
            case "--verify", "--cert", "--cert-key":
                let given = try value(word, "\(word.text) \(word.text == "--verify" ? "no" : "client.pem")")
                do throws(RequestOptions.TLSFlagProblem) {
                    try settings.tls.setTLS(word.text, given, locateFile: locateFile)
                } catch {
                    throw CommandError(error.message, column: words[i + 1].start)
                }
                i += 2
            default:
                if word.text.hasPrefix("--") {
                    throw CommandError("unknown flag \(CommandError.quotable(word.text)); ws connect takes \(ConnectSettings.flags.joined(separator: ", "))", column: word.start)
                }
                // `Name:value` after the URL: a handshake header, checked as a request's.
                if target != nil || !(word.text.hasPrefix("/") || word.text.contains("://")), word.text.contains(":") {
                    switch try item(word) {
                    case let .header(name, value):
                        // WSClient writes its own Origin and would add this one beside it: servers refuse the two.
                        if name.lowercased() == "origin" {
                            throw CommandError("the WebSocket client (swift-websocket) always sends Origin: ws://HOST of the URL, without its port, "
                                               + "and cannot send another; a server that compares the Origin with its own host and port "
                                               + "(gorilla/websocket's default) refuses it on a port other than 80 or 443", column: word.start)
                        }
                        settings.headers.append(HTTPHeader(name: name, value: value))
                        i += 1
                        continue
                    default:
                        throw CommandError("ws connect takes a URL or /path, headers as Name:value, and \(ConnectSettings.flags.joined(separator: ", "))", column: word.start)
                    }
                }
                guard target == nil else { throw CommandError(usage, column: word.start) }
                target = URLCheck.lowercasingScheme(word.text)
                i += 1
            }
        }
        if let problem = settings.tls.tlsProblem { throw CommandError(problem, column: RequestOptions.tlsFlagColumn(in: words)) }
        return .connect(target: target, settings: settings)
    }

    /// `name=value` and `name:=json` items, as in an HTTP body.
    /// Fields nest as in an HTTP body (`b[c]:=2 tags[]=x`, HTTPie's rules,
    /// `NestedJSON`): the same items make the same JSON (they made `"b[c]"`).
    private static func jsonObject(_ words: [LineTokenizer.Word]) throws(CommandError) -> JSONValue {
        var nested = NestedJSON()
        for word in words {
            let (name, value): (String, JSONValue)
            // `ws send hello` was told to use Header:value, name==query or name@file, which a frame has none of.
            guard word.text.contains("=") else {
                throw CommandError("'\(CommandError.quotable(word.text))' is not JSON or a field: ws send takes JSON, name=value, name:=json, "
                                   + "or --text TEXT for a text frame", column: word.start)
            }
            switch try item(word) {
            case let .stringField(field, text): (name, value) = (field, .string(text))
            case let .jsonField(field, json): (name, value) = (field, json)
            default: throw CommandError("ws send takes JSON, or fields: name=value, name:=json", column: word.start)
            }
            do { try nested.set(name, value) } catch { throw CommandError(error.message, column: word.start) }
        }
        return nested.value
    }

    /// The longest any duration option waits: an hour. A bound keeps every
    /// value a `Duration` can hold.
    static let longestWait = 3600.0

    private static func recv(_ words: [LineTokenizer.Word]) throws(CommandError) -> WebSocketAction {
        var count: Int?
        var timeout: Double?
        var until: FrameFilter?
        var pretty = false
        var i = 0
        while i < words.count {
            let word = words[i]
            if word.text == "--pretty" {
                pretty = true
                i += 1
                continue
            }
            if word.text == "--until" {
                guard i + 1 < words.count else {
                    throw CommandError("--until needs a filter, as in: ws recv --until '.type == \"message\"'", column: word.start)
                }
                do { until = try FrameFilter(words[i + 1].text) } catch {
                    throw CommandError("--until: \(error.reason)", column: words[i + 1].column(at: error.offset))
                }
                i += 2
                continue
            }
            if word.text == "--timeout" {
                // `inf` and 1e19 parse as Doubles and then overflowed the Duration: a crash, not an error.
                guard i + 1 < words.count, let seconds = Double(words[i + 1].text), (0...Self.longestWait).contains(seconds) else {
                    throw CommandError("--timeout needs seconds from 0 to \(Int(Self.longestWait)), as in: ws recv 2 --timeout 10",
                                       column: (i + 1 < words.count ? words[i + 1] : word).start)
                }
                timeout = seconds
                i += 2
                continue
            }
            guard let n = Int(word.text), (1...SocketState.inboxLimit).contains(n) else {
                // `--until .type == done`: the filter's words split by the spaces in it.
                if i >= 2, words[i - 2].text == "--until" {
                    let filter = words[(i - 1)...].prefix { !$0.text.hasPrefix("--") }.map(\.text).joined(separator: " ")
                    throw CommandError("--until takes the filter as one word: quote it, as in: ws recv --until '\(filter)'", column: words[i - 1].start)
                }
                throw CommandError("usage: ws recv [N | --until FILTER] [--timeout S] [--pretty], N from 1 to \(SocketState.inboxLimit)", column: word.start)
            }
            count = n
            i += 1
        }
        if until != nil, let count, let word = words.first(where: { $0.text == String(count) }) {
            throw CommandError("ws recv takes a count or --until, not both (--until shows every frame up to the one it waits for)", column: word.start)
        }
        // Waiting for a given frame takes longer than for the next one: 10 s by default.
        return .recv(count: count ?? 1, timeout: timeout ?? (until == nil ? 5 : 10), until: until, pretty: pretty)
    }
}
