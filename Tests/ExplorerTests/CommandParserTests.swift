import Foundation
import Core
import Testing
@testable import Explorer

@Suite struct CommandParserTests {
    let parser = CommandParser(variables: ["id": "3", "city": "New York"])

    /// `quit now` was told "exit takes no arguments": the name typed is the one said.
    @Test func anAliasIsNamedAsTyped() {
        #expect(throws: CommandError("quit takes no arguments", column: 5)) { try parser.parse("quit now") }
        #expect(throws: CommandError("exit takes no arguments", column: 5)) { try parser.parse("EXIT 3") }
    }

    /// Issue 14: HTTPie's TLS flags, checked in the parser (a file that cannot be read, with a caret).
    @Test func tlsFlags() throws {
        guard case let .http(_, _, _, options) = try CommandParser().parse("get https://h.example/ --verify no") else { throw CommandError("not http") }
        #expect(options.tls == TLSOptions(verify: .none))
        let files = TestCertificates.files
        guard case let .http(_, _, _, trusted) = try CommandParser().parse("get https://h.example/ --verify \(files.certificate) --cert \(files.combined)") else {
            throw CommandError("not http")
        }
        #expect(trusted.tls == TLSOptions(verify: .authorities(files.certificate), certificate: files.combined))
        // Read as NIOSSL reads them: a file that is not PEM, or a certificate without its key, is refused with a caret.
        #expect(throws: CommandError("the CA file /etc/hostname is not PEM, or holds no CA", column: 23)) {
            try CommandParser().parse("get https://h.example/ --verify /etc/hostname")
        }
        #expect(throws: CommandError("the certificate file \(files.certificate) holds no private key; give it with --cert-key FILE", column: 23)) {
            try CommandParser().parse("get https://h.example/ --cert \(files.certificate) --verify no")
        }
        guard case let .http(_, _, _, apart) = try CommandParser().parse("get https://h.example/ --cert \(files.certificate) --cert-key \(files.key)") else {
            throw CommandError("not http")
        }
        #expect(apart.tls == TLSOptions(verify: .system, certificate: files.certificate, key: files.key))
        #expect(throws: CommandError("--verify takes yes, no, or a CA file (PEM) that can be read; /nowhere.pem cannot", column: 32)) {
            try CommandParser().parse("get https://h.example/ --verify /nowhere.pem")
        }
        #expect(throws: CommandError("--cert needs a PEM file that can be read; nope cannot", column: 30)) {
            try CommandParser().parse("get https://h.example/ --cert nope")
        }
    }

    @Test func methodsAndBarePaths() throws {
        #expect(try parser.parse("GET /api/tasks page==2") == .http(method: "GET", path: "/api/tasks", items: [.query(name: "page", value: "2")], options: RequestOptions()))
        #expect(try parser.parse("post /api/tasks title=x --offline") == .http(method: "POST", path: "/api/tasks", items: [.stringField(name: "title", value: "x")], options: RequestOptions(offline: true)))
        #expect(try parser.parse("/api/tasks/{{id}}") == .http(method: "GET", path: "/api/tasks/3", items: [], options: RequestOptions()))
        // Data makes it a POST, as HTTPie's `http URL a=1` (it went out as a GET with a JSON body); a query or a header does not.
        #expect(try parser.parse("/x a=1") == .http(method: "POST", path: "/x", items: [.stringField(name: "a", value: "1")], options: RequestOptions()))
        #expect(try parser.parse("/x @b.json") == .http(method: "POST", path: "/x", items: [.file(name: "", path: "b.json", contentType: nil)], options: RequestOptions()))
        #expect(try parser.parse("/x --raw hi") == .http(method: "POST", path: "/x", items: [], options: RequestOptions(raw: "hi")))
        #expect(try parser.parse("/x q==1 X-A:b") == .http(method: "GET", path: "/x", items: [.query(name: "q", value: "1"), .header(name: "X-A", value: "b")], options: RequestOptions()))
        // HTTPie's shorthands as the first word (they were unknown commands).
        #expect(try parser.parse(":3000/x") == .http(method: "GET", path: "http://localhost:3000/x", items: [], options: RequestOptions()))
        #expect(try parser.parse("localhost:8080/x n:=2") == .http(method: "POST", path: "http://localhost:8080/x", items: [.jsonField(name: "n", value: .number("2"))], options: RequestOptions()))
        // A scheme in any case (it was "not an http:// or https:// URL"); the rest as typed.
        #expect(try parser.parse("get HTTPS://H.example/A") == .http(method: "GET", path: "https://H.example/A", items: [], options: RequestOptions()))
        #expect(try parser.parse("get Http://h.example/") == .http(method: "GET", path: "http://h.example/", items: [], options: RequestOptions()))
        // A path that merely starts with `http` is a path under the base URL (`httpbin` was "not an http:// or https:// URL").
        for path in ["httpbin", "http", "https_settings", "httpx?x=1"] {
            #expect(try parser.parse("get \(path)") == .http(method: "GET", path: path, items: [], options: RequestOptions()))
        }
        for typo in ["get http:/x", "get HTTP:/x", "get HTTPS:x"] { #expect(throws: CommandError.self, "\(typo)") { try parser.parse(typo) } }
    }

    /// Nested names that clash are said with a caret under the item, before anything is sent (the builder said them, with none).
    @Test func nestedNamesThatClashAreCaughtWithACaret() throws {
        #expect(throws: CommandError("'a[b]': 'a' is a string, so it has no key [b]", column: 12)) { try parser.parse("post /x a=1 a[b]=2") }
        #expect(throws: CommandError("'a': the body is an array, so it has no key [a]", column: 14)) { try parser.parse("post /x [0]=x a=1") }
        #expect(throws: CommandError("'a[]': 'a' is an object, so [] cannot append to it", column: 15)) { try parser.parse("post /x a[b]=1 a[]=2") }
        // A form's names are no paths; nor a file upload's fields; a field from a file is checked when read.
        for line in ["post /x a=1 a[b]=2 --form", "post /x a=1 a[b]=2 f@x.png", "post /x a:=@a.json a[b]=2", "post /x a=1 a=2", "post /x a[b]=1 a[c]=2"] {
            #expect(throws: Never.self, "\(line)") { try parser.parse(line) }
        }
        var forms = parser
        forms.formsByDefault = true
        #expect(throws: Never.self) { try forms.parse("post /x a=1 a[b]=2") }
        #expect(throws: CommandError.self) { try forms.parse("post /x a=1 a[b]=2 --json") }
    }

    /// `--raw` excludes the body's items, not headers or a query of any form (`X-Empty;` was refused as a field).
    @Test func rawTakesHeadersAndQueriesOfEveryForm() throws {
        #expect(try parser.parse("post /x --raw hi X-Empty; q==1") == .http(method: "POST", path: "/x", items: [.emptyHeader(name: "X-Empty"), .query(name: "q", value: "1")],
                                                                          options: RequestOptions(raw: "hi")))
        #expect(throws: CommandError("--raw sends its text as the whole body; it cannot be combined with fields or files", column: 23)) {
            try parser.parse("post /x --raw hi X-A:b a=1")
        }
    }

    /// `Authorization:Bearer TOKEN` unquoted: "'TOKEN' is not a request item" said the token back.
    @Test func anUnquotedCredentialIsNotSaidBack() throws {
        #expect(throws: CommandError("the credential after Authorization:Bearer is a word of its own: quote the header, Authorization:'Bearer …'", column: 28)) {
            try parser.parse("get /x Authorization:Bearer ghp_R2d2C3poLuke0123")
        }
    }

    /// A newcomer's slips were "not a request item" or "'{' cannot be in a header name": said with the fix.
    @Test func commonSlipsAreSaidWithTheFix() throws {
        #expect(throws: CommandError(#"'{"title":"x"}' is JSON, not a request item: send a JSON body with --raw '{…}' (or @file.json), "#
                                     + "or its members as items (title=x price:=5)", column: 16)) {
            try parser.parse(#"post /api/tasks '{"title":"x"}'"#)
        }
        do {
            _ = try parser.parse(#"post /echo '{"password": "S3CRc4x"}'"#)
            Issue.record("parsed")
        } catch {
            #expect(!error.message.contains("S3CRc4x") && error.message.contains("<hidden: 7 characters>"), "\(error.message)")
        }
        #expect(throws: CommandError("'my' is no request item: a value with spaces is quoted, title='Fix my…'", column: 26)) {
            try parser.parse("post /api/tasks title=Fix my bike")
        }
        #expect(throws: CommandError("'|' is the shell's, and explorer runs no shell: -o FILE saves the body; "
                                     + "outside the REPL, explorer -c 'LINE' | jq … pipes it", column: 15)) {
            try parser.parse("get /api/tasks | jq .")
        }
        // A line copied with what stood before it: HTTPie's command (it was told to send `HTTP` as a method), explorer's own
        // name, the REPL's prompt as README shows lines; said with the line to type, its secrets hidden.
        for (line, said) in [("http POST /api/tasks title=x", "'http' is HTTPie's command; here a request line starts with its method or path: post /api/tasks title=x"),
                             ("xh :8080/x", "'xh' is HTTPie's command; here a request line starts with its method or path: :8080/x"),
                             ("http --json POST /x a=1", "'http' is HTTPie's command; here a request line starts with its method or path: post /x a=1 --json"),
                             ("http -a u:p -f PUT /x", "'http' is HTTPie's command; here a request line starts with its method or path: put /x -a u:*** -f"),
                             (#"{"title": "x", "price": 5}"#, "JSON is no command: send it as a request's body, post PATH --raw '{…}', or on a socket, ws send {…}"),
                             ("explorer get /x", "'explorer' starts the program, and this is its prompt: type what follows it (get /x), or run explorer in a shell"),
                             ("linku alice> get /api/tasks page_size==2", "'linku alice>' is the prompt, copied with the line: type what follows it (get /api/tasks page_size==2)"),
                             ("linku> login alice@example.com alice123", "'linku>' is the prompt, copied with the line: type what follows it (login alice@example.com)")] {
            #expect(throws: CommandError(said, column: 0), "\(line)") { try parser.parse(line) }
        }
        // A word of no such kind is still said as before.
        #expect(throws: CommandError("'bad' is not a request item: use name=value, name:=json, Header:value, name==query or name@file", column: 15)) {
            try parser.parse("get /api/tasks bad")
        }
    }

    @Test func variablesKeepSpacesInOneWord() throws {
        #expect(try parser.parse("get /api/tasks city=={{city}}") == .http(method: "GET", path: "/api/tasks", items: [.query(name: "city", value: "New York")], options: RequestOptions()))
    }

    @Test func verbs() throws {
        #expect(try parser.parse("login alice@example.com alice123") == .login(email: "alice@example.com", password: "alice123"))
        #expect(try parser.parse("login alice@example.com") == .login(email: "alice@example.com", password: nil))
        // A helper typed `login EMAIL --offline`: "--offline" went out as the password.
        #expect(throws: CommandError("login takes no options: '--offline' would be sent as a password "
                                     + "(one that starts with -- is typed at the prompt: login EMAIL)", column: 24)) {
            try parser.parse("login alice@example.com --offline")
        }
        #expect(try parser.parse("set token_id=42") == .set(name: "token_id", value: "42"))
        #expect(try parser.parse("set name Bob") == .set(name: "name", value: "Bob"))
        #expect(try parser.parse("show .tasks[0].id") == .show(path: try JSONPath.parse(".tasks[0].id")))
        #expect(try parser.parse("  ") == .empty)
        #expect(try parser.parse("# a comment") == .empty)
        #expect(try parser.parse("QUIT") == .exit)
        #expect(try parser.parse("help get") == .help(topic: "get"))
    }

    @Test func unknownCommandSuggestsTheClosest() {
        #expect(throws: CommandError("unknown command 'lgoin'; did you mean 'login'? (type help for the list)", column: 0)) { try parser.parse("lgoin") }
        #expect(throws: CommandError("unknown command 'whoamii'; did you mean 'whoami'? (type help for the list)", column: 0)) { try parser.parse("whoamii") }
        #expect(throws: CommandError("unknown command 'frobnicate' (type help for the list)", column: 0)) { try parser.parse("frobnicate") }
        // A pasted megabyte was quoted whole, and compared in full with every name (a minute for 1 MB).
        let long = String(repeating: "y", count: 200_000)
        #expect(throws: CommandError("unknown command '\(String(repeating: "y", count: 80))…' (type help for the list)", column: 0)) { try parser.parse(long) }
        #expect(throws: CommandError("unknown command 'a\\nb\\u{1b}[2J' (type help for the list)", column: 0)) { try parser.parse("'a\nb\u{1B}[2J'") }
        #expect(editDistance(long, "login") == 200_000 - 5 && editDistance("lgoin", "login") == 1)
        // Nor in the other refusals that quote a word.
        for line in ["curl --\(long) https://h", "ws send --\(long)", "ws connect /x --\(long)", "set \(long)!=1", "capture \(long)! = .id",
                     "get /x --\(long)", "defaults --\(long)"] {
            do {
                _ = try parser.parse(line)
                Issue.record("parsed: \(line.prefix(30))")
            } catch {
                #expect(error.message.count < 400, "\(error.message.prefix(60))")
            }
        }
    }

    @Test func badItemsPointAtTheToken() {
        do {
            _ = try parser.parse("post /api/tasks title=ok price:=2x")
            Issue.record("parsed")
        } catch {
            #expect(error.column == 25 + 8)
            #expect(error.message.hasPrefix("'price:=2x': invalid JSON after ':='"))
        }
        // Quotes and backslashes before the fault move the caret with them (it stood one column left per quote).
        for (line, fault) in [(#"post /x n:='{"a":tru}'"#, "tru"), (#"post /x 'n':='{"a":tru}'"#, "tru"),
                              (#"post /x n:="[1,\"x\\\"y\",bad]""#, "bad"), (#"post /x a\ b:='{"x":nul}'"#, "nul")] {
            do {
                _ = try parser.parse(line)
                Issue.record("parsed \(line)")
            } catch {
                #expect(error.column == line.distance(from: line.startIndex, to: line.range(of: fault)!.lowerBound), "\(line): \(error)")
            }
        }
        #expect(throws: CommandError.self) { try parser.parse("get /x nonsense") }
        #expect(throws: CommandError("unknown option '--verbos'; did you mean '--verbose'? (help get lists the options)", column: 7)) { try parser.parse("get /x --verbos") }
        // Every short option is one letter from another: `-x` was asked "did you mean '-F'?".
        #expect(throws: CommandError("unknown option '-x' (help get lists the options)", column: 7)) { try parser.parse("get /x -x") }
        #expect(throws: CommandError("unknown option '-V'; did you mean '-v'? (help get lists the options)", column: 7)) { try parser.parse("get /x -V") }
        #expect(throws: CommandError("unknown option '--VERBOSE'; did you mean '--verbose'? (help get lists the options)", column: 7)) {
            try parser.parse("get /x --VERBOSE")
        }
        #expect(throws: CommandError("unknown option '--ab' (help get lists the options)", column: 7)) { try parser.parse("get /x --ab") }
        #expect(throws: CommandError("unknown option '--nonsense' (help get lists the options)", column: 7)) { try parser.parse("get /x --nonsense") }
    }

    @Test func aCommentsQuotesAreNotRead() throws {
        #expect(try parser.parse("# Alice's tasks") == .empty)
        #expect(try parser.parse(#"   # say "hi"#) == .empty)
    }

    /// `/items/{item_id}` pasted from the catalog went out as the literal `{item_id}`.
    @Test func aCatalogPlaceholderInAPathIsRefusedWithACaret() throws {
        #expect(throws: CommandError("{id} is a placeholder: put a value in its place (/api/tasks/7/participants), or a {{variable}}", column: 15)) {
            try parser.parse("get /api/tasks/{id}/participants")
        }
        #expect(throws: CommandError("{x} is a placeholder: put a value in its place (http://h.example/a/7), or a {{variable}}", column: 23)) {
            try parser.parse("get http://h.example/a/{x}")
        }
        // A query's braces are the server's business, and so is a segment that is not only a placeholder.
        guard case let .http(_, query, _, _) = try parser.parse("get /a?q={x}"), case let .http(_, segment, _, _) = try parser.parse("get /a/{x}y") else {
            Issue.record("not requests"); return
        }
        #expect(query == "/a?q={x}" && segment == "/a/{x}y")
    }

    /// HTTPie's `-a USER:PASSWORD` and `-A bearer -a TOKEN`: the line's own
    /// Authorization header (it was refused as an unknown option).
    @Test func authOnTheLineIsItsAuthorizationHeader() throws {
        guard case let .http(_, _, items, options) = try parser.parse("get /x -a bob:pa:ss") else { Issue.record("not a request"); return }
        #expect(items == [.header(name: "Authorization", value: "Basic Ym9iOnBhOnNz")])
        #expect(options == RequestOptions(), "taken out of the options")
        guard case let .http(_, _, bearer, _) = try parser.parse("get /x --auth-type=bearer --auth tok123") else { Issue.record("not a request"); return }
        #expect(bearer == [.header(name: "Authorization", value: "Bearer tok123")])
        guard case let .http(_, _, both, _) = try parser.parse("get /x Authorization:'Bearer item' -a bob:pa:ss X-Trace:1") else { Issue.record("not a request"); return }
        #expect(both == [.header(name: "X-Trace", value: "1"), .header(name: "Authorization", value: "Basic Ym9iOnBhOnNz")], "-a replaces it, as HTTPie's does")
        for (line, column, words) in [("get /x -a bob", 10, "--auth takes USER:PASSWORD"), ("get /x -A digest -a b:c", 10, "basic or bearer"),
                                      ("get /x -A bearer", 7, "give -a USER:PASSWORD"), ("get /x -a", 7, "-a needs USER:PASSWORD, as in: -a alice:PASSWORD")] {
            do {
                _ = try parser.parse(line)
                Issue.record("parsed: \(line)")
            } catch {
                #expect(error.column == column && error.message.contains(words), "\(line): \(error.message)")
            }
        }
    }

    /// HTTPie's request-line options, anywhere after the method, with `=VALUE` or the next word.
    @Test func requestOptions() throws {
        guard case let .http(method, path, items, options) = try parser.parse("post -v /api/tasks --follow --max-redirects=5 title=x --timeout 2.5 -f") else {
            Issue.record("not a request"); return
        }
        #expect(method == "POST" && path == "/api/tasks" && items == [.stringField(name: "title", value: "x")])
        #expect(options == RequestOptions(follow: true, maxRedirects: 5, timeout: 2.5, form: true, print: .verbose))
        // --max-redirects alone follows nothing, as in HTTPie, xh and curl (it followed).
        guard case let .http(_, _, _, counted) = try parser.parse("get /old --max-redirects 2") else { Issue.record("not a request"); return }
        #expect(counted == RequestOptions(maxRedirects: 2))
        guard case let .http(_, _, _, printed) = try parser.parse("/api/tasks -p Hh") else { Issue.record("not a request"); return }
        #expect(printed.print == [.requestHeaders, .responseHeaders])
        // A short option's value written against it, as HTTPie and curl take it (`-pHh` was an unknown option).
        guard case let .http(_, _, _, joined) = try parser.parse("/api/tasks -pHh -oout.json") else { Issue.record("not a request"); return }
        #expect(joined.print == [.requestHeaders, .responseHeaders] && joined.output == "out.json")
        // `-o -` is standard output, as in curl and HTTPie: the body alone (it wrote a file named `-`).
        guard case let .http(_, _, _, dash) = try parser.parse("get /x -o -") else { Issue.record("not a request"); return }
        #expect(dash.output == nil && dash.print == [.responseBody, .asItCame])
        #expect(throws: CommandError("--print takes letters of HBhb (H request headers, B request body, h response headers, b response body)", column: 9)) {
            try parser.parse("get /x -pZ")
        }
        guard case let .http(_, _, _, raw) = try parser.parse(#"post /x --raw '{"a": 1}' X-Trace:1"#) else { Issue.record("not a request"); return }
        #expect(raw.raw == #"{"a": 1}"#)
        for (line, column, words) in [("get /x --timeout inf", 17, "--timeout needs seconds"), ("get /x --timeout", 7, "--timeout needs SECONDS"),
                                      ("get /x -p Hx", 10, "--print takes letters"), ("get /x --folow", 7, "did you mean '--follow'"),
                                      ("post /x --raw hi title=x", 17, "--raw sends its text"), ("get -v", 3, "GET needs a path"),
                                      ("get /x --offline=yes", 7, "--offline takes no value"), ("get /x --max-redirects 1000", 23, "--max-redirects")] {
            do {
                _ = try parser.parse(line)
                Issue.record("parsed: \(line)")
            } catch {
                #expect(error.column == column, "\(line): \(error)")
                #expect(error.message.contains(words), "\(line): \(error.message)")
            }
        }
    }

    /// Issue 11 #7: a header name with a non-ASCII letter stopped the
    /// process (NIO's precondition). Names are RFC 9110 tokens and values
    /// hold no control characters: refused in the parser, with a caret.
    @Test func headerNamesAndValuesAreCheckedBeforeAnythingIsSent() throws {
        for (line, column, words) in [("get /api/tasks ß:v", 15, "'ß' cannot be in a header name"),
                                      ("get /api/tasks X-ßig:v", 17, "'ß' cannot be in a header name"),
                                      ("get /api/tasks \"Bad Name:v\"", 19, "' ' cannot be in a header name"),
                                      ("get /api/tasks \"X-Empty;\" ü;", 26, "'ü' cannot be in a header name"),
                                      ("post /x é:@file.txt", 8, "'é' cannot be in a header name"),
                                      ("get /x --offline X:{{nul}}", 20, "a NUL byte cannot be in a header value")] {
            do {
                _ = try CommandParser(variables: ["nul": "a\u{0}b"]).parse(line)
                Issue.record("parsed: \(line)")
            } catch {
                #expect(error.column == column, "\(line): \(error)")
                #expect(error.message.contains(words), "\(line): \(error.message)")
            }
        }
        #expect(throws: RequestItem.ParseError.self) { try RequestItem.parse("X-Evil:a\r\nHost: elsewhere") }
        #expect(throws: RequestItem.ParseError.self) { try RequestItem.parse("X:a\u{7F}") }
        // A credential's value is not shown back in the error (the screen showed the token).
        for line in ["auth bearer 'tok-secret-99\r\nX-Inj: 2'", "get /x 'Authorization:Bearer tok-secret-99\u{1}'", "get /x 'X-Api-Key:tok-secret-99\u{1}'"] {
            do {
                _ = try CommandParser().parse(line)
                Issue.record("parsed: \(line)")
            } catch {
                #expect(!error.message.contains("tok-secret-99") && error.message.contains("<hidden"), "\(line): \(error.message)")
            }
        }
        #expect(try RequestItem.parse("X-Tab:a\tb") == .header(name: "X-Tab", value: "a\tb"))
        #expect(try RequestItem.parse("X-Name:café") == .header(name: "X-Name", value: "café"), "obs-text is allowed in values")
        #expect(try RequestItem.parse("!#$%&'*+-.^_`|~09aZ:v") == .header(name: "!#$%&'*+-.^_`|~09aZ", value: "v"))
    }

    /// Two whole-body files: the second replaced the first without a word.
    @Test func aSecondWholeBodyFileIsRefusedWithItsColumn() throws {
        #expect(throws: CommandError("'@f.json': @f.txt is already the whole body; a request has one body", column: 15)) {
            try CommandParser().parse("post /x @f.txt @f.json")
        }
        _ = try CommandParser().parse("post /x @f.txt --offline")
    }

    /// Issue 11 #8: `ws recv --timeout inf` (or 1e19) overflowed a Duration
    /// and stopped the process. Every duration is range-checked here.
    @Test func durationsOutOfRangeAreRefused() throws {
        for value in ["inf", "1e19", "-1", "nan", "3601", "x"] {
            #expect(throws: CommandError.self, "\(value)") { try parser.parse("ws recv --timeout \(value)") }
        }
        #expect(throws: CommandError.self) { try parser.parse("ws recv 0") }
        #expect(throws: CommandError.self) { try parser.parse("ws recv 99999999999999999999") }
        #expect(try parser.parse("ws recv 2 --timeout 3600") == .ws(.recv(count: 2, timeout: 3600)))
        #expect(try parser.parse("ws recv --timeout 0") == .ws(.recv(count: 1, timeout: 0)))
        for flag in ["--backoff", "--heartbeat"] {
            #expect(throws: CommandError.self, "\(flag)") { try parser.parse("ws connect \(flag) inf") }
        }
    }

    @Test func variablesAreReplacedOnceEachWherever() throws {
        let parser = CommandParser(variables: ["id": "3", "brace": "{{id}}", "city": "Zürich"])
        let word = { (text: String) throws(CommandError) -> String in try parser.substitute(LineTokenizer.Word(text: text, start: 0)) }
        #expect(try word("/api/tasks/{{id}}/apply") == "/api/tasks/3/apply")
        #expect(try word("{{ id }}-{{id}}{{city}}é") == "3-3Züriché")
        // A value is not searched again, and JSON's own braces are left alone.
        #expect(try word("{{brace}}") == "{{id}}")
        #expect(try word(#"{"a":{"b":{{id}}}}"#) == #"{"a":{"b":3}}"#)
        #expect(try word("plain {text} only") == "plain {text} only")
        #expect(throws: CommandError("unclosed '{{' in 'x{{id}'", column: 0)) { try word("x{{id}") }
        // `{{ id }}` typed with spaces splits into words, the first ending in `{{`.
        #expect(throws: CommandError("unclosed '{{' in '{{' (a variable is written {{name}}, without spaces)", column: 0)) { try word("{{") }
        #expect(throws: CommandError("'{{}}' names no variable: write {{name}} (vars lists them)", column: 0)) { try word("a{{}}") }
    }

    /// `PURGE /x` and `QUERY /search` were unknown commands: no method beyond
    /// the seven could be sent but by a pasted curl command.
    @Test func aMethodInCapitalsBeyondTheSevenIsSent() throws {
        guard case let .http(method, path, items, _) = try parser.parse("PURGE /cache/x X-Key:1"),
              case let .http(query, _, _, _) = try parser.parse("QUERY https://h.example/search q==1") else { Issue.record("not a request"); return }
        #expect(method == "PURGE" && path == "/cache/x" && items == [.header(name: "X-Key", value: "1")])
        #expect(query == "QUERY")
        #expect(throws: CommandError("unknown command 'purge'; a method beyond get, post, put, patch, delete, head and options is written in capitals: PURGE /x (type help for the list)",
                                     column: 0)) { try parser.parse("purge /x") }
        #expect(QuickArguments.requestLine(["--base-url", "http://h.example", "PURGE", "/x"]) == ["--base-url", "http://h.example", "-c", "PURGE /x"])
        #expect(QuickArguments.requestLine(["--base-url", "http://h.example", "PURGE", "--offline", "/x"])
                == ["--base-url", "http://h.example", "-c", "PURGE --offline /x"])
    }

    @Test func otherMistakes() throws {
        #expect(throws: CommandError("unknown variable {{nope}} (set it with: set nope=VALUE; see vars)", column: 4)) { try parser.parse("get {{nope}}") }
        // A refused curl flag is said without a value joined to it: it showed the proxy's password.
        #expect(throws: CommandError("curl's -U is not one explorer reads (it reads -X, -H, -d, --data-urlencode, -G, -F, --form-string, -u, --oauth2-bearer, "
                                     + "-L, --max-redirs, -m, -A, -e, -b, -I, -i, -v, -k, --cacert, -E, --key, --url)", column: 5)) { try parser.parse("curl -Ubob:S3CRET http://h/x") }
        // A secret's name as `set NAME VALUE`: a replay's report hid `token=VALUE`'s word as a token.
        let hint = "unknown variable {{token}} (set it with: set token VALUE; see vars)"
        #expect(throws: CommandError(hint, column: 4)) { try parser.parse("get {{token}}") }
        #expect(Redactor.hidingCredentials(inText: hint) == hint)
        // A typo of a variable there is, as a hand-edited transcript has one.
        #expect(throws: CommandError("unknown variable {{note_idd}}; did you mean {{note_id}}?", column: 4)) {
            try CommandParser(variables: ["note_id": "n_1", "base_url": "x"]).parse("get /notes/{{note_idd}}")
        }
        // Nothing after '=': it was "bad path '=': unexpected '='".
        for (line, column) in [("capture x =", 11), ("capture x=", 10), ("capture x =  ", 11)] {
            #expect(throws: CommandError("capture needs what to take after '=': a path (capture x = .id), header:NAME or cookie:NAME", column: column), "\(line)") {
                try CommandParser().parse(line)
            }
        }
        // A misspelt secret was told "set it with: set secrt:password=VALUE", which set refuses.
        #expect(throws: CommandError("'{{secrt:password}}' is not a variable: did you mean {{secret:password}}?", column: 6)) {
            try CommandParser().parse("login {{secrt:password}}")
        }
        #expect(throws: CommandError("'{{env:HOME}}' is not a variable: a secret is written {{secret:NAME}}", column: 4)) {
            try CommandParser().parse("get /{{env:HOME}}")
        }
        #expect(throws: CommandError("'{{id:=integer}}' is a transcript's pattern, for the answers it expects; a line takes {{name}} or {{secret:NAME}}",
                                     column: 7)) {
            try CommandParser().parse("get /x {{id:=integer}}")
        }
        // Not 'set secret:password=VALUE', which is no variable name (issue 11, #22).
        #expect(throws: CommandError("{{secret:password}} is filled in from EXPLORER_SECRET_PASSWORD, or asked for when the line is typed at the prompt",
                                     column: 24)) { try parser.parse("login alice@example.com {{secret:password}}") }
        #expect(throws: CommandError("unterminated double quote", column: 14)) { try parser.parse(#"post /x title="oops"#) }
        // Not a LinkU path, which another backend has not.
        #expect(throws: CommandError("POST needs a path, as in: post /items", column: 4)) { try parser.parse("post") }
        #expect(throws: CommandError.self) { try parser.parse("show .tasks[") }
        #expect(throws: CommandError.self) { try parser.parse("set 1x=2") }
        #expect(throws: CommandError.self) { try parser.parse("logout now") }
        // Another scheme, or a typo of one, was sent to the backend as the path `/ftp://…`.
        #expect(throws: CommandError("ftp:// is not a scheme explorer sends requests to: use http:// or https://", column: 4)) {
            try parser.parse("get ftp://127.0.0.1/x")
        }
        #expect(throws: CommandError("htps:// is not a scheme explorer sends requests to: use http:// or https://", column: 5)) {
            try parser.parse("post htps://h.example/x a=1")
        }
        #expect(try parser.parse("get /x next==http://a") == .http(method: "GET", path: "/x", items: [.query(name: "next", value: "http://a")], options: RequestOptions()))
    }
}

/// A curl command pasted at the prompt is read as the request it sends.
@Suite struct CurlImportTests {
    let parser = CommandParser()

    @Test func devToolsStyleCommands() throws {
        guard case let .http(method, path, items, options) = try parser.parse(
            #"curl 'https://api.example.com/v1/tasks' -H 'content-type: application/json' -H 'authorization: Bearer abc' --data-raw '{"a":1}' --compressed -s"#
        ) else { Issue.record("not a request"); return }
        #expect(method == "POST" && path == "https://api.example.com/v1/tasks")
        #expect(items == [.header(name: "content-type", value: "application/json"), .header(name: "authorization", value: "Bearer abc")])
        #expect(options.raw == #"{"a":1}"# && options.form)
        guard case let .http(getMethod, getPath, _, _) = try parser.parse("curl -G https://h.example/s -d q=a+b --data-urlencode 'r=x y'") else {
            Issue.record("not a request"); return
        }
        #expect(getMethod == "GET" && getPath == "https://h.example/s?q=a+b&r=x+y")
        guard case let .http(_, _, basic, follow) = try parser.parse("curl -L -u alice:pw -X PUT https://h.example/x") else { Issue.record("not a request"); return }
        #expect(basic == [.header(name: "Authorization", value: "Basic YWxpY2U6cHc=")] && follow.follow == true)
        guard case let .http(formMethod, _, form, _) = try parser.parse("curl -F name=x -F f=@a.png;type=image/png https://h.example/up") else { Issue.record("not a request"); return }
        #expect(formMethod == "POST" && form == [.stringField(name: "name", value: "x"), .file(name: "f", path: "a.png", contentType: "image/png")])
        // Fields alone are multipart too: `-F password=x` went out as a GET with a JSON body.
        guard case let .http(fieldsMethod, _, _, fieldsOptions) = try parser.parse("curl -F password=x https://h.example/up") else { Issue.record("not a request"); return }
        #expect(fieldsMethod == "POST" && fieldsOptions.multipart)
        guard case let .http(_, _, _, typed) = try parser.parse("post /x a=1 --multipart") else { Issue.record("not a request"); return }
        #expect(typed.multipart)
    }

    /// A URL without a scheme is http://, as curl takes it (docs write
    /// `curl localhost:8080/…`); and HTTPie's shorthands on a request line.
    @Test func aURLWithoutASchemeIsHTTP() throws {
        guard case let .http(_, curled, _, _) = try parser.parse("curl -s -X PUT localhost:8080/__sandbox/faults -d '{}'"),
              case let .http(_, short, _, _) = try parser.parse("get :18302/get a==1"),
              case let .http(_, named, _, _) = try parser.parse("get localhost:18302/get"),
              case let .http(_, path, _, _) = try parser.parse("get api/tasks") else { Issue.record("not a request"); return }
        #expect(curled == "http://localhost:8080/__sandbox/faults")
        guard case let .http(_, port, _, _) = try parser.parse("curl :18601/get") else { Issue.record("not a request"); return }
        #expect(port == "http://localhost:18601/get")
        #expect(throws: CommandError("'h:99999/x' has port 99999; a port is 1 to 65535", column: 5)) { try parser.parse("curl h:99999/x") }
        #expect(short == "http://localhost:18302/get" && named == "http://localhost:18302/get" && path == "api/tasks")
    }

    /// curl's -i and -v show what curl shows (they were accepted and ignored).
    @Test func includeAndVerboseShowTheHeads() throws {
        guard case let .http(_, _, _, include) = try parser.parse("curl -i https://h.example/x"),
              case let .http(_, _, _, verbose) = try parser.parse("curl --verbose -s https://h.example/x"),
              case let .http(_, _, _, quiet) = try parser.parse("curl -s --compressed https://h.example/x") else { Issue.record("not a request"); return }
        #expect(include.print == [.responseHeaders, .responseBody])
        #expect(verbose.print == .verbose)
        #expect(quiet.print == nil)
    }

    /// `-sSL`, `-fsSL` (curl's one-letter flags together, as pasted commands
    /// have them) were refused as one option curl does not have.
    @Test func oneLetterFlagsWrittenTogetherAreReadOneByOne() throws {
        guard case let .http(method, _, items, options) = try parser.parse("curl -fsSLXPUT -m5 -sH 'A: b' https://h.example/x"),
              case let .http(_, _, _, verbose) = try parser.parse("curl -sSv https://h.example/x") else { Issue.record("not a request"); return }
        #expect(method == "PUT" && options.follow == true && options.timeout == 5 && items == [.header(name: "A", value: "b")])
        #expect(verbose.print == .verbose)
        #expect(CurlImport.ungrouped([.init(text: "-sSo", start: 5)]).map(\.text) == ["-s", "-S", "-o"])
    }

    /// curl's `-H 'Name:'` removes the header (it was sent empty), `-H 'Name;'` sends it empty (it was
    /// refused), and `-d @FILE` sends the file (it was refused): curl scripts port as they are.
    @Test func curlsHeaderRemovalEmptyHeaderAndFileBodyAreRead() throws {
        guard case let .http(method, _, items, _) = try parser.parse("curl https://h.example/x -H 'User-Agent:' -H 'X-A;' --data-binary @form.txt") else {
            Issue.record("not a request"); return
        }
        #expect(method == "POST")
        #expect(items == [.header(name: "User-Agent", value: ""), .emptyHeader(name: "X-A"),
                          .file(name: "", path: "form.txt", contentType: "application/x-www-form-urlencoded")])
        guard case let .http(_, _, json, _) = try parser.parse("curl https://h.example/x --json @a.json") else { Issue.record("not a request"); return }
        #expect(json.last == .file(name: "", path: "a.json", contentType: "application/json"))
        do {
            _ = try parser.parse("curl https://h.example/x --data-binary @a.txt -d b=1")
            Issue.record("parsed")
        } catch {
            #expect(error.message == "curl's -d @FILE with other data: explorer sends the file alone as the body")
        }
        // What curl reads from a file is refused by name, not sent as the file's name (`%40sp.txt` went).
        for (line, said) in [("curl https://h.example/x --data-urlencode @sp.txt", "curl's --data-urlencode with a file is not read here"),
                             ("curl https://h.example/x --data-urlencode name@sp.txt", "curl's --data-urlencode with a file is not read here"),
                             ("curl -G https://h.example/x --data-binary @q.txt", "curl's -G with -d @FILE: explorer does not read a file into the query")] {
            do {
                _ = try parser.parse(line)
                Issue.record("parsed: \(line)")
            } catch {
                #expect(error.message.hasPrefix(said), "\(line): \(error.message)")
            }
        }
        #expect((try? parser.parse("curl https://h.example/x --data-urlencode 'email=a@b.example'")) != nil)
    }

    /// What a pasted curl command sends is what curl sends (a helper's
    /// capture of both): `-d` and `--data-urlencode` in the order typed,
    /// `=content`, a typed Authorization or Cookie over -u and -b, several
    /// -b as one Cookie, -G before a fragment, a form's type without a
    /// charset, and `-d @FILE` without its line ends.
    @Test func aPastedCurlCommandSendsWhatCurlSends() throws {
        func request(_ line: String) throws -> (String, String, [RequestItem], RequestOptions) {
            guard case let .http(method, path, items, options) = try parser.parse(line) else { throw CommandError("not a request") }
            return (method, path, items, options)
        }
        #expect(try request("curl https://h.example/p -d 'price=$5&ref=$ref'").3.raw == "price=$5&ref=$ref", "no variable: sent as typed")
        let ordered = try request("curl https://h.example/p --data-urlencode 'q=a b' -d r=1 --data-urlencode t=3 -d s=2 --data-urlencode '=raw me'")
        #expect(ordered.3.raw == "q=a+b&r=1&t=3&s=2&raw+me")
        #expect(ordered.2 == [.header(name: "Content-Type", value: "application/x-www-form-urlencoded")])
        let credentials = try request("curl https://h.example/p -u bob:pw -H 'Authorization: Bearer abc' -b a=1 -b b=2")
        #expect(credentials.2 == [.header(name: "Authorization", value: "Bearer abc"), .header(name: "Cookie", value: "a=1; b=2")])
        #expect(try request("curl https://h.example/p -b a=1 -H 'Cookie: c=3'").2 == [.header(name: "Cookie", value: "c=3")])
        #expect(try request("curl https://h.example/p --oauth2-bearer tok -u a:b").2 == [.header(name: "Authorization", value: "Bearer tok")])
        // Typed empty, it is sent so, in the credential's place (both went).
        #expect(try request("curl https://h.example/p -H 'Authorization;' -u a:b -H 'Cookie;' -b a=1").2 == [.emptyHeader(name: "Authorization"), .emptyHeader(name: "Cookie")])
        // -G leaves no body for -I to refuse; a URL ending in `?` gets no `&`.
        #expect(try request("curl https://h.example/p -I -G -d a=1").1 == "https://h.example/p?a=1")
        #expect(try request("curl 'https://h.example/p?' -G -d a=1").1 == "https://h.example/p?a=1")
        #expect(try request("curl -G 'https://h.example/p?x=1#frag' -d a=1 -g").1 == "https://h.example/p?x=1&a=1")
        let typed = try request("curl https://h.example/p -H 'Content-Type: text/plain' -d x")
        #expect(typed.2 == [.header(name: "Content-Type", value: "text/plain")])
        let strings = try request("curl https://h.example/p --form-string 'title=@not-a-file'")
        #expect(strings.2 == [.stringField(name: "title", value: "@not-a-file")] && strings.3.multipart)
        let folder = try Scratch.folder("curl-data")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("body.txt").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data("line1\r\nline2\nline3\n".utf8)))
        #expect(try request("curl https://h.example/p -d @\(file) -d z=1").3.raw == "line1line2line3&z=1")
        for (line, said) in [("curl https://h.example/p -b cookies.txt", "curl's -b 'cookies.txt' names a cookie file, which explorer does not read"),
                             ("curl https://h.example/p -u bob", "curl's -u names no password (curl would ask for one)"),
                             ("curl -I https://h.example/p -d a=1", "curl's -I sends a HEAD, which carries no body"),
                             ("curl https://h.example/p -F 'txt=<body.txt'", "curl's -F 'txt=<body.txt': explorer reads -F name=value and name=@FILE[;type=TYPE] only"),
                             ("curl https://h.example/p -F 'f=@a.png;filename=z.png'", "curl's -F 'f=@a.png;filename=z.png': explorer reads"),
                             // Explorer's own --curl output pasted back, and API docs' form: the variable's name went as the credential.
                             ("curl -u 'bob:'\"$PASSWORD\" https://h.example/p", "$PASSWORD is a shell variable, which explorer does not expand: write {{secret:password}}"),
                             ("curl https://h.example/p -H \"Authorization: Bearer ${API_TOKEN}\"", "$API_TOKEN is a shell variable")] {
            do {
                _ = try parser.parse(line)
                Issue.record("parsed: \(line)")
            } catch {
                #expect(error.message.hasPrefix(said), "\(line): \(error.message)")
            }
        }
    }

    @Test func whatIsNotReadIsSaidWithItsColumn() {
        for (line, column) in [("curl --proxy http://p https://h", 5), ("curl -H 'NoColon' https://h", 5), ("curl -s", 5), ("curl ftp://h/x", 5),
                               ("curl -X 'GET /x HTTP/1.1' https://h", 5), ("curl -X '' https://h", 5),
                               // An empty header name crashed the process (its first character was looked up).
                               ("curl -H ':x' https://h", 5), ("curl -H ' : v' https://h", 5), ("curl -H ':' https://h", 5),
                               ("curl -sZ https://h", 5)] {
            do {
                _ = try parser.parse(line)
                Issue.record("parsed: \(line)")
            } catch {
                #expect(error.column == column, "\(line): \(error)")
            }
        }
        // The refusal lists every option it reads: each of them parses.
        do {
            _ = try parser.parse("curl --proxy http://p https://h")
        } catch {
            let listed = error.message.split(separator: "(it reads ").last?.dropLast().split(separator: ", ").map(String.init) ?? []
            #expect(listed.count == 23, "\(error.message)")
            // The TLS flags read files: tried with real ones through the binary (test_tls.py).
            for option in listed where !["--cacert", "-E", "--key"].contains(option) {
                let value = ["-I", "-G", "-L", "-k", "-i", "-v"].contains(option) ? "" : ["-F": " a=b", "--form-string": " a=b", "-b": " a=b", "-u": " a:b", "-H": " 'A: b'", "-m": " 5", "--max-redirs": " 3", "-X": " GET", "--url": ""][option] ?? " x"
                #expect((try? parser.parse("curl \(option)\(value) https://h.example/x")) != nil, "\(option)")
            }
        }
    }
}
