import Core

/// Every REPL command, in the order `help` lists them. The parser, `help`,
/// "did you mean" and TAB read this and nothing else: see `CommandSpec`.
struct CommandTable: Sendable {
    var specs: [CommandSpec]

    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    /// The command named (or aliased) `name`, in any case.
    func spec(named name: String) -> CommandSpec? {
        let lower = name.lowercased()
        return specs.first { $0.names.contains(lower) }
    }

    /// The names TAB offers for the first word: every name and word alias.
    var offeredNames: [String] {
        specs.flatMap { [$0.name] + $0.aliases.filter { $0.allSatisfy(\.isLetter) } }
    }

    /// The known command closest to `word`, when it is close enough to be a typo.
    func closest(to word: String) -> String? {
        nearest(to: word.lowercased(), in: offeredNames) { distance, name in distance <= max(1, name.count / 3) }
    }

    /// A table with one more command (tests; a plug-in one day).
    func adding(_ spec: CommandSpec) -> CommandTable { CommandTable(specs: specs + [spec]) }
}

extension CommandTable {
    static let standard = CommandTable(specs: requests + session + responses + catalog + transcripts + [webSocket, help, exit])

    /// `get PATH [ITEM…]` and the other methods; a bare /path is a GET (the parser's rule).
    private static let requests: [CommandSpec] = methods.map { method in
        let lower = method.lowercased()
        let article = method == "OPTIONS" ? "an" : "a"
        return CommandSpec(
            name: lower, usage: "\(lower) PATH [ITEM…] [OPTION…]",
            summary: "send \(article) \(method) request" + (method == "GET" ? " (a bare /path means GET too, POST with data)" : ""),
            details: httpDetails,
            slot: { before, _ in before.isEmpty ? .path(method: method) : .requestItems(method: method) },
            parse: { args throws(CommandError) in try CommandParser.http(method: method, args) })
    }

    private static let session: [CommandSpec] = [
        CommandSpec(
            name: "login", usage: "login [EMAIL] [PASSWORD]", summary: "log in and keep the tokens",
            details: """
            Logs in with the profile's login endpoint and keeps the access and refresh tokens.
            Without PASSWORD the REPL asks for it without echo. History keeps the line without
            the password. A 401 later is answered by one refresh and one retry.
            """,
            slot: SlotKind.positional(.demoEmail),
            parse: { args throws(CommandError) in
                // `login EMAIL --offline` sent "--offline" as the password: an option-shaped word is refused.
                if let option = args.words.first(where: { $0.text.hasPrefix("--") }) {
                    throw CommandError("login takes no options: '\(option.text)' would be sent as a password "
                                       + "(one that starts with -- is typed at the prompt: login EMAIL)", column: option.start)
                }
                try args.atMost(2)
                return .login(email: args.first?.text, password: args.count > 1 ? args[1].text : nil)
            }),
        CommandSpec(
            name: "logout", usage: "logout", summary: "log out and forget the tokens",
            details: "Calls the profile's logout endpoint (revoking the refresh token) and forgets the tokens.",
            parse: { args throws(CommandError) in try args.none(); return .logout }),
        CommandSpec(
            name: "whoami", usage: "whoami", summary: "show the logged-in user (asks the server)",
            details: "Calls the profile's who-am-I endpoint with the current token.",
            parse: { args throws(CommandError) in try args.none(); return .whoami }),
        CommandSpec(
            name: "set", usage: "set NAME=VALUE", summary: "set a variable, used as {{NAME}}",
            details: "Sets a variable. {{NAME}} anywhere in a later line is replaced by VALUE.\nExample: set id=3, then get /api/tasks/{{id}}",
            slot: SlotKind.positional(.variable(assigning: true)),
            parse: { args throws(CommandError) in try CommandParser.set(args) }),
        CommandSpec(
            name: "unset", usage: "unset NAME", summary: "remove a variable", details: "Removes a variable set with `set`.",
            slot: SlotKind.positional(.variable(assigning: false)),
            parse: { args throws(CommandError) in
                guard args.count == 1 else { throw args.usage(at: nil) }
                return .unset(name: args[0].text)
            }),
        CommandSpec(
            name: "vars", usage: "vars", summary: "list variables",
            details: "Lists variables, including the built-in base_url and profile.",
            parse: { args throws(CommandError) in try args.none(); return .vars }),
        CommandSpec(
            name: "next", usage: "next [-b|-h|-v|-p WHAT]", summary: "the next page of the last list",
            details: """
            Fetches the page after the last GET's answer, as the answer says: a Link header with
            rel="next", a next URL in the body, a cursor (next_cursor, nextCursor, next_page_token, at the
            top or under meta/pagination) sent back as the request's cursor parameter, an offset==/skip==
            or a Range: 0-9 header moved past this page's items, or page==N+1, while the total (the
            answer's or its Content-Range's), a short page or an empty one does not say that was the
            last. The request's other items and options stay.
            """,
            parse: { args throws(CommandError) in
                var options = RequestOptions()
                var i = 0
                while i < args.count {
                    let name = String(args[i].text.split(separator: "=", maxSplits: 1).first ?? "")
                    guard ["-b", "--body", "-h", "--headers", "-v", "--verbose", "-p", "--print"].contains(name) else {
                        throw CommandError("next takes -b, -h, -v or -p WHAT; the rest of the request is the last list's", column: args[i].start)
                    }
                    i += try options.read(args.words, at: i)
                }
                return .next(print: options.print)
            }),
        CommandSpec(
            name: "history", usage: "history [N]", summary: "the lines typed before, secrets hidden (the last 25, or N)",
            details: """
            Lists the REPL's history, numbered, oldest first: the last 25 lines, or the last N. History keeps
            every line with its secrets hidden (a login without its password, a token as *** or
            {{secret:NAME}}), so that is what it shows. Up-arrow and Ctrl-R recall them. The history lives in
            $XDG_STATE_HOME/explorer/history; two REPLs add to it line by line.
            """,
            parse: { args throws(CommandError) in
                guard let word = args.first else { return .history(nil) }
                guard args.count == 1, let count = Int(word.text), count > 0 else {
                    throw CommandError("history takes a number of lines, such as history 10", column: word.start)
                }
                return .history(count)
            }),
        CommandSpec(
            name: "cookies", usage: "cookies [clear]", summary: "list the session's cookies (values hidden), or forget them",
            details: """
            Lists the cookies answers have set in this session: name, domain and port, path, and flags,
            with values hidden. They go back by RFC 6265's rules, only to the port that set them, and
            are kept in memory only. `cookies clear` forgets them all.
            """,
            slot: SlotKind.positional(.word(["clear"])),
            parse: { args throws(CommandError) in
                guard args.count <= 1, args.first.map({ $0.text == "clear" }) ?? true else { throw args.usage(at: args.first) }
                return .cookies(clear: !args.isEmpty)
            }),
        CommandSpec(
            name: "header", aliases: ["headers"], usage: "header [Name:value…] | header Name: | header unset Name | header clear",
            summary: "headers sent with every request to the backend",
            details: """
            Sets headers for the session, as request items: header Authorization:'Bearer TOKEN', header
            X-Api-Key:KEY. They go with every request to the backend's own origin (scheme, host and port)
            that does not set them itself, and to no other origin. header Name: (or header unset Name)
            removes one, header clear all; header alone lists them, credentials hidden. History and
            transcripts hide their values.
            """,
            slot: SlotKind.positional(rest: .header),
            parse: { args throws(CommandError) in try CommandParser.header(args) }),
        CommandSpec(
            name: "auth", usage: "auth bearer TOKEN | basic USER:PASSWORD | header NAME VALUE | none",
            summary: "the session's credential, sent only to the backend",
            details: """
            Sets the credential every request to the backend's own origin carries, as a session header:
            auth bearer TOKEN sends Authorization: Bearer TOKEN; auth basic USER:PASSWORD sends HTTP basic
            auth; auth header X-Api-Key KEY sends any header, its value hidden wherever it shows. Each auth
            line replaces the credential the one before set; auth none removes it.
            Give a secret as {{secret:NAME}} to be asked for it without echo (or to take it from
            EXPLORER_SECRET_NAME). History keeps auth lines with the secret as {{secret:NAME}}, so a recalled
            line asks again; transcripts write it the same way. auth alone lists the session headers.
            """,
            slot: SlotKind.positional(.word(["bearer", "basic", "header", "none"])),
            parse: { args throws(CommandError) in try CommandParser.auth(args) }),
        CommandSpec(
            name: "env", usage: "env [NAME]", summary: "list the profile's environments, or move to another",
            details: """
            env lists the environments of the session's profile (a profile file's, docs/profiles.md; a
            built-in one's: the sandbox and the deployments its documents list), the one in use marked.
            env NAME moves the session to that environment's base URL: logged out (tokens belong to
            their environment; a login kept for it is resumed), its credential filled in again, your
            variables kept. Leaving the built-in sandbox closes it, and what it held (env sandbox starts a
            fresh one). Not while recording: a transcript runs against one environment.
            """,
            slot: SlotKind.positional(.environment),
            parse: { args throws(CommandError) in
                try args.atMost(1)
                return .environment(args.first?.text)
            }),
        CommandSpec(
            name: "defaults", usage: "defaults [FLAG…] | defaults clear",
            summary: "request options for every later line (--follow, --timeout, -v…)",
            details: """
            Sets request options that every later request line gets unless it says otherwise:
            --follow, --max-redirects N, --timeout SECONDS, --form, --print WHAT, -v, -h, -b,
            --verify yes|no|CA_FILE, --cert FILE, --cert-key FILE.
            defaults alone shows them; defaults clear drops them. Example: defaults --follow --timeout 5
            """,
            slot: { _, _ in .requestOptions },
            parse: { args throws(CommandError) in try CommandParser.defaults(args) }),
        CommandSpec(
            name: "curl", usage: "curl [OPTION…] URL", summary: "run a pasted curl command as a request",
            details: """
            Reads a curl command, as browser dev tools and API docs give them, as the request it sends:
            -X, -H, -d/--data/--data-raw/--data-binary/--json (-d @FILE sends the file), --data-urlencode,
            -G, -F/--form-string, -u, --oauth2-bearer, -b, -A, -e, -L, --max-redirs, -m, -I, --url,
            and -k/--insecure, --cacert, -E/--cert, --key as --verify no, --verify, --cert, --cert-key.
            -i and -v show the heads as -p hb and -v do; flags that change nothing here (-s, -S, -f,
            --compressed and their kin) are skipped; others are refused by name. A URL without a scheme
            is http://, as curl reads it. The token and session headers follow their usual rule: only to
            the backend's origin.
            """,
            parse: { args throws(CommandError) in try CurlImport.parse(args.words, readFile: args.readFile, locateFile: args.locateFile) }),
    ]

    private static let responses: [CommandSpec] = [
        CommandSpec(
            name: "show", usage: "show [PATH]", example: "show .tasks[0].id", summary: "show the last response, or a value in it",
            details: "Without PATH prints the last response body again. PATH picks a value: .tasks[0].id,\n.user.email, '[\"odd key\"]' (quoted, so the line keeps its quotes), [-1] for the last element.",
            slot: SlotKind.positional(.jsonPath),
            parse: { args throws(CommandError) in
                try args.atMost(1)
                guard let word = args.first else { return .show(path: nil) }
                return .show(path: try CommandParser.jsonPath(word))
            }),
        CommandSpec(
            name: "save", usage: "save FILE [--force]", summary: "save the last response's body in FILE, byte for byte",
            details: """
            Writes the last response's body, exactly as it came (an image stays an image), to FILE,
            created readable by you only. An existing FILE is kept unless --force is given.
            On a request line, -o FILE does the same for that answer and prints no body.
            """,
            slot: SlotKind.positional(.file),
            parse: { args throws(CommandError) in
                let files = args.words.filter { $0.text != "--force" }
                guard files.count == 1 else { throw args.usage(at: files.dropFirst().first ?? args.first) }
                return .save(path: files[0].text, force: files.count < args.count)
            }),
        CommandSpec(
            name: "capture", usage: "capture NAME = PATH", example: "capture task_id = .id",
            summary: "keep a value of the last response as {{NAME}}",
            details: """
            Picks a value out of the last response, as `show PATH` does, and keeps it as the variable
            NAME. Later lines use it as {{NAME}}. PATH may also be header:NAME (a header of the last
            response: header:Location) or cookie:NAME (a cookie the session holds, kept secret). In a
            recording, the captured value is written as a pattern of its kind, so a replay captures the
            live value instead.
            Example: post /api/tasks title=x, then capture task_id = .id, then get /api/tasks/{{task_id}}
            Example: get /login, then capture csrf = cookie:csrftoken, then post /notes X-CSRFToken:{{csrf}} text=hi
            """,
            slot: { before, word in !before.isEmpty && (word.hasPrefix(".") || word.hasPrefix("[")) ? .jsonPath : .none },
            parse: { args throws(CommandError) in try CommandParser.capture(args) }),
    ]

    private static let catalog: [CommandSpec] = [
        CommandSpec(
            name: "endpoints", usage: "endpoints [FILTER]", summary: "list the backend's endpoints (method, path, auth, summary)",
            details: "Lists the profile's endpoint catalog. FILTER is a method (endpoints post) or text that the path\nor summary contains (endpoints flea).",
            parse: { args throws(CommandError) in
                try args.atMost(1)
                return .endpoints(filter: args.first?.text)
            }),
        CommandSpec(
            name: "describe", usage: "describe ENDPOINT|MODEL|ENUM", example: "describe /api/tasks",
            summary: "show an endpoint's parameters and body, a model's fields or an enum's values",
            details: """
            describe [METHOD] PATH shows the endpoint's path and query parameters, its body fields with
            their types, and the model of its answer. describe MODEL shows a model's fields, describe ENUM
            an enum's values.
            Examples: describe POST /api/tasks, describe /api/tasks/7, describe Task, describe TaskStatus
            """,
            slot: { before, _ in
                switch before.count {
                case 0: return .endpointOrModel
                // `describe POST /api/ta` completes that method's paths.
                case 1 where methods.contains(before[0].uppercased()): return .path(method: before[0].uppercased())
                default: return .none
                }
            },
            parse: { args throws(CommandError) in
                // `describe POST /api/tasks` names an endpoint by method and path.
                guard (1...2).contains(args.count) else { throw args.usage(at: args.words.dropFirst(2).first) }
                return .describe(args.texts.joined(separator: " "))
            }),
        CommandSpec(
            name: "spec", usage: "spec load FILE", summary: "use an OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML) as the catalog",
            details: """
            Reads an OpenAPI 3.0 or 3.1 document (Swagger 2.0 converted to 3.0 first); its paths, parameters, request bodies and security
            become the catalog that endpoints, describe and TAB use. What it cannot carry over is
            said once. A broken document is reported with the file, a JSON path and the reason.
            """,
            slot: SlotKind.positional(.word(["load"]), .file),
            parse: { args throws(CommandError) in
                guard args.count == 2, args[0].text == "load" else { throw args.usage(at: args.first) }
                return .specLoad(path: args[1].text)
            }),
    ]

    private static let transcripts: [CommandSpec] = [
        CommandSpec(
            name: "record", usage: "record FILE | stop | status", summary: "record this session as a transcript",
            details: """
            record FILE starts writing every following command and its answer to FILE (which must be
            new or empty); each step is flushed as it completes. record stop ends it; record status
            says where it goes. Passwords and tokens are written as {{secret:NAME}}, never as values.
            `explorer replay FILE` and `explorer test` run a transcript again and compare.
            See docs/transcripts.md.
            """,
            slot: SlotKind.positional(.word(["stop", "status"], orFile: true)),
            parse: { args throws(CommandError) in
                guard args.count == 1 else { throw args.usage(at: args.words.dropFirst().first) }
                switch args[0].text {
                case "stop": return .record(.stop)
                case "status": return .record(.status)
                default: return .record(.start(path: args[0].text))
                }
            }),
        CommandSpec(
            name: "replay", usage: "replay FILE", summary: "run a transcript's steps in this session and compare",
            details: """
            Runs every step of the transcript FILE in this session (its server, login and variables),
            and shows ok or the differences for each. The transcript must be for this backend.
            `explorer replay FILE` does the same against a fresh sandbox.
            """,
            slot: SlotKind.positional(.file),
            parse: { args throws(CommandError) in
                guard args.count == 1 else { throw args.usage(at: args.words.dropFirst().first) }
                return .transcript(.replay(path: args[0].text))
            }),
        CommandSpec(
            name: "tour", usage: "tour [NAME]", summary: "walk a guided tour from sessions/, one step at a time",
            details: """
            tour lists the tours (the transcripts under sessions/, or $EXPLORER_SESSIONS) for this
            backend; TAB completes NAME. tour NAME shows each step's comment and puts its command on
            the line: Enter runs it (edit it first if you like; an empty line skips it), and the
            answer is followed by what the tour expected. Ctrl-C ends the tour.
            """,
            slot: SlotKind.positional(.tour),
            parse: { args throws(CommandError) in
                try args.atMost(1)
                return .transcript(.tour(name: args.first?.text))
            }),
    ]

    private static let webSocket = CommandSpec(
        name: "ws", usage: "ws connect|send|recv|status|close|pretty", summary: "a WebSocket: connect, send JSON, text or bytes, read frames",
        details: """
        ws connect [URL|PATH]      the profile's socket (LinkU's chat, with your token), a /path on
                                   the base URL, or any ws:// or wss:// URL (wss:// needs a host
                                   name, not an IP address); no answer within 10 s fails.
                                   Name:value items are handshake headers; the session's
                                   headers join them on the backend's origin only
            --retries N            reconnect tries after a drop (default 5; 0: never reconnect)
            --backoff S            seconds before the first try, doubling after (default 1)
            --heartbeat S          seconds between pings (default 30; 0: none); a ping still
                                   unanswered when the next is due counts as a drop
            --verify, --cert, --cert-key
                                   a wss:// server's certificate and a client one, as
                                   for requests (default: the session's defaults)
        ws send JSON               one text frame: {"type":"ping"}, or fields as in an HTTP body:
                                   ws send type=message receiver_id:=2 content=hi; JSON pasted
                                   over several lines is read on at ... until it ends
        ws send @file.json         the file's JSON (checked first), as one text frame
        ws send --text TEXT        the rest of the line as typed, for protocols that are not JSON
        ws send --binary @file     the file's bytes as one binary frame
        ws recv [N] [--timeout S]  waits for the next N frames not shown yet (default 1, up to 5 s)
        ws recv --until FILTER     every frame up to the first that matches (up to 10 s):
                                   '.msg_type == "execute_result"', '.ok != true', or a path alone;
                                   several joined with and: '.type == "next" and .id == "1"'
            --pretty               JSON frames indented over several lines
        ws pretty [on|off]         JSON frames indented as they arrive too (off: one line each)
        ws status, ws close
        Each received frame is shown once. In the REPL frames and state changes print above the
        prompt as they happen (← in, → out), so ws recv waits for new ones; in a script they
        wait for ws recv. A dropped socket reconnects with a fresh token; messages sent
        meanwhile wait in a queue. `show` shows the last frame received.
        """,
        slot: { before, word in
            guard let sub = before.first else { return .word(WebSocketAction.subcommands) }
            // `ws send @frame.json`, `ws send --binary @photo.png`.
            if sub.lowercased() == "send", word.hasPrefix("@") { return .file }
            // `ws connect`'s flags, each once; none where a flag's value goes.
            guard sub.lowercased() == "connect", word.isEmpty || word.hasPrefix("-"),
                  let last = before.last, !ConnectSettings.flags.contains(last) else { return .none }
            return .flags(ConnectSettings.flagHints.filter { !before.contains($0.name) })
        },
        parse: { args throws(CommandError) in try CommandParser.webSocket(args.words, locateFile: args.locateFile) })

    private static let help = CommandSpec(
        name: "help", aliases: ["?"], usage: "help [COMMAND]", summary: "list commands, or explain one",
        details: "help COMMAND shows a command's usage and details (help ws send: the ws command's).",
        slot: SlotKind.positional(.command),
        parse: { args throws(CommandError) in
            // `help ws send`: the command's help, which says its actions (it was "usage: help [COMMAND]").
            return .help(topic: args.first?.text)
        })

    private static let exit = CommandSpec(
        name: "exit", aliases: ["quit"], usage: "exit", summary: "leave; Ctrl-D does too", details: "Leaves the explorer.",
        parse: { args throws(CommandError) in try args.none(); return .exit })

    /// An option and its help, the help in a column of its own: on the next
    /// line after an option too long for it (`--verify yes|no|CA_FILE`).
    static func optionLine(_ option: String, _ help: String) -> String {
        let column = 24
        let option = "  " + option
        return option.columns < column ? option.padded(to: column) + help : option + "\n" + String(repeating: " ", count: column) + help
    }

    static var httpDetails: String { """
    Sends a request to PATH (relative to the base URL, or a full http:// URL).
    Items, as in HTTPie:
      name=value      JSON string field
      name:=json      raw JSON field (number, bool, array…)
      Header:value    request header (Header: removes a default one)
      Header;         request header sent empty
      name==value     query parameter (percent-encoded)
      name@file       multipart file upload (name@file;type=image/png sets its type)
      name=@file      string field read from a file
      name:=@file     raw JSON field read from a file
      @file           the file is the whole body (@file;type=text/csv sets its type)
    Fields make a JSON body (user[name]=x, tags[]=a and items[0][id]:=1 nest, as
    in HTTPie; []:=1 makes the body a list); a file field makes it
    multipart/form-data. A backslash escapes a separator
    (a\\=b=c has the key a=b) or a bracket. {{name}} is replaced by a variable.
    Options, anywhere on the line (HTTPie's names):
    \(RequestOptions.flags.map { optionLine($0.names.joined(separator: ", ") + ($0.value.map { " " + $0 } ?? ""), $0.help) }.joined(separator: "\n"))
    By default the status line and the body are printed (HEAD and OPTIONS: the
    headers too); a redirect's Location is always shown. Credentials are hidden
    wherever they are printed.
    Examples:
      get /api/tasks page==1 page_size==5
      post /api/tasks title="Fix my bike" price:=25 city=London
      get /api/banners -v
    """ }
}
