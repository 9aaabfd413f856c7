import Core
import Foundation
import Testing
@testable import Explorer

@Suite struct RendererTests {
    let plain = Renderer(palette: .plain, envelope: Profile.linku.errorEnvelope)

    func exchange(_ status: Int, _ reason: String, type: String?, body: [UInt8], headers more: [HTTPHeader] = []) -> Outcome {
        let request = PreparedRequest(method: "GET", url: URL(string: "http://127.0.0.1:1/x")!)
        let headers = (type.map { [HTTPHeader(name: "Content-Type", value: $0)] } ?? []) + more
        return .exchange(Exchange(request: request, response: ReceivedResponse(status: status, reason: reason, headers: headers, body: body),
                                  duration: .milliseconds(12)), note: nil)
    }

    /// `show` of a frame echoing `token=X` under a secret-named member hid
    /// the token, then the member's whole value, placeholder and all: the
    /// live line said 31 characters, `show` 29.
    @Test func showHidesAnEchoedCredentialOnceAsTheFirstDisplayDoes() throws {
        let echo = try JSONParser.parse(#"{"echo_token": "token=s3cr3t-T0KEN-abcdef123456"}"#)
        let shown = Interpreter.hiding(["s3cr3t-T0KEN-abcdef123456"], in: echo, secretNames: [])
        let (out, _) = plain.render(.value(shown))
        #expect(out.contains(#""echo_token": "<hidden: 31 characters>""#), "\(out)")
    }

    /// A backend that echoed the session's refresh token (or the access
    /// token a refresh replaced) under a name of its own (`"rt"`) had it
    /// shown in clear: the tokens the session held are carried credentials.
    @Test func theSessionsTokensAreHiddenWhereAnAnswerEchoesThem() async throws {
        var echoed = Exchange(request: PreparedRequest(method: "GET", url: URL(string: "http://127.0.0.1:1/x")!),
                              response: ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                                                         body: Array(#"{"rt": "RefreshTok19506ghijk", "note": "at AccessTok19506abcdef"}"#.utf8)))
        echoed.heldTokens = ["AccessTok19506abcdef", "RefreshTok19506ghijk"]
        let (out, _) = plain.render(.exchange(echoed, note: nil))
        #expect(!out.contains("RefreshTok19506ghijk") && !out.contains("AccessTok19506abcdef"), "\(out)")
        // The session fills them in as it sends.
        try await withSandboxInterpreter { interpreter, _ in
            _ = await interpreter.execute(try interpreter.parser.parse("login alice@example.com alice123"))
            guard case let .exchange(exchange, _, _) = await interpreter.execute(try interpreter.parser.parse("get /api/tasks page_size==1")) else {
                Issue.record("no exchange"); return
            }
            let tokens = await interpreter.session.tokens
            #expect(exchange.heldTokens == [tokens?.accessToken, tokens?.refreshToken].compactMap { $0 })
        }
    }

    @Test func statusLineThenPrettyJSONInServerOrder() {
        let (out, err) = plain.render(exchange(200, "OK", type: "application/json", body: Array(#"{"z":1,"a":[true]}"#.utf8)))
        #expect(out == "HTTP/1.1 200 OK  12 ms\n{\n  \"z\": 1,\n  \"a\": [\n    true\n  ]\n}\n")
        #expect(err == "")
    }

    @Test func errorsGetAOneLineSummary() {
        let body = #"{"error":true,"message":"not yours","error_code":"FORBIDDEN","status_code":403}"#
        let (_, err) = plain.render(exchange(403, "Forbidden", type: "application/json", body: Array(body.utf8)))
        #expect(err == "error: 403 FORBIDDEN: not yours\n")
        let (_, other) = plain.render(exchange(502, "Bad Gateway", type: "text/html", body: Array("<h1>oops</h1>".utf8)))
        #expect(other == "error: 502 Bad Gateway\n")
        // A message and a code with line breaks in them made one error four lines.
        let broken = #"{"message":"first\nsecond\r\nthird","error_code":"A\nB"}"#
        let (_, said) = plain.render(exchange(400, "Bad Request", type: "application/json", body: Array(broken.utf8)))
        #expect(said == "error: 400 A\\nB: first\\nsecond\\nthird\n")
        // When to send it again: a 429's Retry-After was left to `-h` to find.
        let (_, limited) = plain.render(exchange(429, "Too Many Requests", type: "text/plain", body: [], headers: [HTTPHeader(name: "Retry-After", value: "30")]))
        #expect(limited == "error: 429 Too Many Requests (retry after 30 s)\n")
        // Said once where the backend's envelope says it already.
        let envelope = Array(#"{"message":"slow down: retry in 30 s"}"#.utf8)
        let (_, once) = plain.render(exchange(429, "Too Many Requests", type: "application/json", body: envelope, headers: [HTTPHeader(name: "Retry-After", value: "30")]))
        #expect(!once.contains("(retry after 30 s)"), "\(once)")
        // Not where its digits only stand inside another number (`2` in `429`): the usual values were never said.
        #expect(Renderer.holdsWord("30", in: "retry in 30s") && Renderer.holdsWord("30", in: "429: wait 30 seconds"))
        #expect(!Renderer.holdsWord("30", in: "429: wait 30.5 seconds") && !Renderer.holdsWord("2", in: "429: busy"))
        for (status, seconds) in [(429, "2"), (429, "4"), (503, "3"), (503, "5")] {
            let (_, busy) = plain.render(exchange(status, "Busy", type: "application/json", body: Array(#"{"message":"busy"}"#.utf8),
                                                  headers: [HTTPHeader(name: "Retry-After", value: seconds)]))
            #expect(busy.hasSuffix("(retry after \(seconds) s)\n"), "\(busy)")
        }
        // As an HTTP date, the wait it leaves (the date was shown); neither a number nor a date, said to be neither.
        let format = DateFormatter()
        (format.locale, format.timeZone, format.dateFormat) = (Locale(identifier: "en_US_POSIX"), TimeZone(identifier: "GMT"), "EEE, dd MMM yyyy HH:mm:ss 'GMT'")
        let soon = format.string(from: Date().addingTimeInterval(120))
        let (_, dated) = plain.render(exchange(503, "Busy", type: "text/plain", body: [], headers: [HTTPHeader(name: "Retry-After", value: soon)]))
        #expect(dated.hasSuffix(" s)\n") && [119, 120].contains(dated.split(separator: " ").dropLast().last.flatMap { Int($0) }), "\(dated)")
        let (_, odd) = plain.render(exchange(429, "Busy", type: "text/plain", body: [], headers: [HTTPHeader(name: "Retry-After", value: "-5")]))
        #expect(odd == "error: 429 Busy (Retry-After: -5, neither seconds nor a date)\n", "\(odd)")
        // A 401's challenge says why a login or token did not do (Digest, which explorer does not answer): it showed only with -v.
        let digest = HTTPHeader(name: "WWW-Authenticate", value: #"Digest realm="gw", nonce="abc", qop="auth""#)
        let (_, challenged) = plain.render(exchange(401, "Unauthorized", type: "text/html", body: Array("<h1>401</h1>".utf8), headers: [digest]))
        #expect(challenged == #"error: 401 Unauthorized (it asks for WWW-Authenticate: Digest realm="gw", nonce="abc", qop="auth")"# + "\n")
        // RFC 6750's reason is said as the reason (it read as a request for the Bearer scheme the token was sent in).
        let expired = HTTPHeader(name: "WWW-Authenticate", value: #"Bearer realm="api", error="invalid_token", error_description="The access token expired""#)
        let (_, why) = plain.render(exchange(401, "Unauthorized", type: "text/plain", body: [], headers: [expired]))
        #expect(why == "error: 401 Unauthorized (WWW-Authenticate: invalid_token: The access token expired)\n", "\(why)")
        // A body that says why is the reason: "Incorrect username or password (it asks for WWW-Authenticate: Bearer)" read as advice to send a token.
        let bearer = HTTPHeader(name: "WWW-Authenticate", value: "Bearer")
        let (_, wrong) = plain.render(exchange(401, "Unauthorized", type: "application/json", body: Array(#"{"detail":"Incorrect username or password"}"#.utf8), headers: [bearer]))
        #expect(wrong == "error: 401: Incorrect username or password\n", "\(wrong)")
        #expect(Renderer.challengeParameter("error", in: #"Bearer x_error="no", error=insufficient_scope, scope="a b""#) == "insufficient_scope")
        // A 403 for a scope the token has not (RFC 6750 §3.1) said only "403 Forbidden".
        let scope = HTTPHeader(name: "WWW-Authenticate", value: #"Bearer realm="api", error="insufficient_scope", scope="admin", error_description="admin scope required""#)
        let (_, refused) = plain.render(exchange(403, "Forbidden", type: "text/plain", body: [], headers: [scope]))
        #expect(refused == "error: 403 Forbidden (WWW-Authenticate: insufficient_scope: admin scope required (scope admin))\n", "\(refused)")
        // An OAuth server's body that says the same is said once (it read "invalid_token: … (WWW-Authenticate: invalid_token: …)").
        let (_, saidOnce) = plain.render(exchange(401, "Unauthorized", type: "application/json",
                                              body: Array(#"{"error":"invalid_token","error_description":"The access token expired"}"#.utf8), headers: [expired]))
        #expect(saidOnce == "error: 401 invalid_token: The access token expired\n", "\(saidOnce)")
    }

    /// A short error body in words is the error line: it said only the status.
    @Test func aShortTextErrorBodyIsTheErrorLine() {
        for (type, body, line) in [
            ("text/plain; charset=utf-8", "404 page not found\n", "error: 404: 404 page not found\n"),
            ("text/plain", #"Bad request: missing parameter "q""#, #"error: 400: Bad request: missing parameter "q""# + "\n"),
            ("text/html; charset=utf-8", #"<!DOCTYPE html><html><head><title>Error</title></head><body><pre>Cannot GET /x</pre></body></html>"#,
             "error: 404: Cannot GET /x\n"),
            // The status again, several lines, or a page: the status alone, as before.
            ("text/plain", "Not Found", "error: 404 Not Found\n"),
            ("text/plain", "line one\nline two\n", "error: 404 Not Found\n"),
            ("text/html", "<html><body><h1>404</h1></body></html>", "error: 404 Not Found\n"),
            // Express escapes what it puts there; a page with a <pre> among other things (Django's debug table) is a page.
            ("text/html", "<html><body>\n<pre>Cannot GET /a&lt;b&gt;?q=&quot;x&quot;&amp;y=&#39;z&#x27;</pre>\n</body></html>",
             #"error: 404: Cannot GET /a<b>?q="x"&y='z'"# + "\n"),
            ("text/html", "<html><body><h1>KeyError at /x</h1><table><tr><td><pre>&#x27;127.0.0.1:22290&#x27;</pre></td></tr></table></body></html>",
             "error: 404 Not Found\n"),
        ] as [(String, String, String)] {
            let status = body.contains("Bad request") ? 400 : 404
            let (_, said) = plain.render(exchange(status, status == 400 ? "Bad Request" : "Not Found", type: type, body: Array(body.utf8)))
            #expect(said == line, "\(type) \(body)")
        }
    }

    /// A server's escape codes never drive the terminal: not from a text
    /// body on a terminal, an error line of ours or a socket frame.
    @Test func controlCharactersFromTheServerAreShownEscaped() {
        var terminal = plain
        terminal.escapesControls = true
        let (out, _) = terminal.render(exchange(200, "OK", type: "text/plain", body: Array("a\r\nb\u{1B}[2J\u{1B}]0;PWN\u{7}\tc\n".utf8)))
        #expect(out == "HTTP/1.1 200 OK  12 ms\na\nb\\u001b[2J\\u001b]0;PWN\\u0007\tc\n")
        // Shown again (`show` of the body, `vars` of a captured value, an error quoting it): escaped too; they were raw.
        let again = ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "text/plain")],
                                     body: Array("x\u{1B}[2Jy".utf8))
        #expect(terminal.render(.body(again)).out == "x\\u001b[2Jy\n")
        #expect(terminal.render(.message("z = \u{1B}]0;pwned\u{7}")).out == "z = \\u001b]0;pwned\\u0007\n")
        #expect(terminal.render(.failure("no \u{1B}[2J here", .usage)).err == "error: no \\u001b[2J here\n")
        #expect(plain.render(.body(again)).out == "x\u{1B}[2Jy\n", "piped, as it came")
        let (piped, _) = plain.render(exchange(200, "OK", type: "text/plain", body: Array("b\u{1B}[2J\n".utf8)))
        #expect(piped.hasSuffix("b\u{1B}[2J\n"), "piped, a text body is passed on as sent, as HTTPie does")
        let problem = #"{"title":"Boom","detail":"It \u001b[31mbroke"}"#
        let (_, err) = Renderer(palette: .plain).render(exchange(500, "Internal Server Error", type: "application/problem+json", body: Array(problem.utf8)))
        #expect(!err.contains("\u{1B}") && err.contains("\\u001b[31mbroke"), "\(err)")
        let frame = plain.notice(SocketNotice(time: Date(timeIntervalSince1970: 0), kind: .received, text: "\u{1B}[2JRAW\u{1B}]0;TITLE\u{7}"))
        #expect(!frame.contains("\u{1B}") && frame.contains("\\u001b[2JRAW"))
        // A reason phrase and a header were printed raw: a header could clear the screen and set its title.
        let hostile = ReceivedResponse(status: 200, reason: "OK\u{1B}]0;T\u{7}", headers: [HTTPHeader(name: "X-Evil", value: "a\u{1B}[2Jb")],
                                       body: Array(#"{"a":"x\#u{9B}31m"}"#.utf8))
        let (shown, _) = Renderer(palette: .plain).render(.exchange(Exchange(request: PreparedRequest(method: "GET", url: URL(string: "http://127.0.0.1:1/x")!),
                                                                             response: hostile, duration: .milliseconds(12)),
                                                                    note: nil, view: [.statusLine, .responseHeaders, .responseBody]))
        #expect(!shown.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B }, "\(shown)")
        #expect(shown.contains("200 OK\\u001b]0;T\\u0007") && shown.contains("X-Evil: a\\u001b[2Jb") && shown.contains(#""a": "x\u009b31m""#), "\(shown)")
    }

    /// A password read from a file that ends in a newline, echoed in an
    /// error's message: the body hid it, the error line showed it as
    /// `abcdefghi\n` (its newline escaped before the search for it).
    @Test func anErrorLineHidesACarriedValueThatEndsInANewline() {
        let request = PreparedRequest(method: "POST", url: URL(string: "http://127.0.0.1:1/login")!,
                                      headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                                      body: Array(#"{"password": "abcdefghi\n"}"#.utf8))
        let answer = ReceivedResponse(status: 400, reason: "Bad Request", headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                                      body: Array(#"{"error": "password abcdefghi\n is too short"}"#.utf8))
        let (out, err) = Renderer(palette: .plain).render(.exchange(Exchange(request: request, response: answer, duration: .zero), note: nil))
        #expect(!(out + err).contains("abcdefghi") && err.hasPrefix("error: 400: password <hidden"), "\(out)\(err)")
    }

    /// A 4xx or 5xx answer's secret members were shown unless they looked
    /// like a token (`"password": "EBPW1"`), and the session's own
    /// credential echoed under `Authorization` too (`Bearer hunter2`): only
    /// a message is shown there (`This password is too short.`).
    @Test func anErrorAnswerHidesSecretsThatAreNoMessage() {
        let request = PreparedRequest(method: "GET", url: URL(string: "http://127.0.0.1:1/status")!,
                                      headers: [HTTPHeader(name: "Authorization", value: "Bearer hunter2")])
        let body = #"{"password": "EBPW1", "api_key": "EBKEY3", "headers": {"Authorization": "Bearer hunter2"}, "note": "sent hunter2", "errors": {"password": ["This password is too short."], "token": "expired"}}"#
        for status in [400, 403, 500] {
            let answer = ReceivedResponse(status: status, reason: "No", headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Array(body.utf8))
            let (out, err) = Renderer(palette: .plain).render(.exchange(Exchange(request: request, response: answer, duration: .zero), note: nil))
            let shown = out + err
            #expect(!shown.contains("EBPW1") && !shown.contains("EBKEY3") && !shown.contains("hunter2"), "\(shown)")
            #expect(shown.contains("This password is too short.") && shown.contains(#""token": "expired""#), "\(shown)")
        }
    }

    /// An error line quoting a server (a socket's close reason, a redirect's
    /// Location, a status's reason) went to standard error raw when standard
    /// output was piped (`run s.txt > log`): it set the window title and
    /// cleared the screen. Error lines are escaped wherever output goes.
    @Test func anErrorLineIsEscapedWhenOutputIsPipedToo() {
        let piped = Renderer(palette: .plain)
        #expect(!piped.escapesControls)
        for outcome: Outcome in [.failure("closed (4000: bye \u{1B}]0;PWN\u{07}\u{1B}[2J)", .runtime),
                                 .frames([], shortfall: "no frame: bye \u{1B}[2J"),
                                 .unanswered(nil, hops: [], view: [.requestHeaders], failure: "its Location javascript:\u{1B}[2J", .runtime)] {
            let (_, err) = piped.render(outcome)
            #expect(!err.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 } && err.contains("\\u001b"), "\(err)")
        }
    }

    /// A bidi override from a server reordered what was shown after it: an
    /// error `ok ‮gnp.exe` read as `ok exe.png`. Escaped in text, in JSON
    /// (the same string to a JSON reader) and in error lines.
    @Test func bidiOverridesFromTheServerAreShownEscaped() throws {
        var terminal = plain
        terminal.escapesControls = true
        let (text, _) = terminal.render(exchange(200, "OK", type: "text/plain", body: Array("ok \u{202E}gnp.exe \u{2067}x\u{2069}\n".utf8)))
        #expect(text.hasSuffix("ok \\u202egnp.exe \\u2067x\\u2069\n"), "\(text)")
        let json = #"{"file": "ok \u202egnp.exe", "quote": "\u201chi\u201d \u2026"}"#
        let (shown, err) = Renderer(palette: .plain).render(exchange(500, "Internal Server Error", type: "application/json", body: Array(json.utf8)))
        #expect(shown.contains(#""file": "ok \u202egnp.exe""#) && shown.contains("\u{201C}hi\u{201D} \u{2026}"), "\(shown)")
        #expect(!(shown + err).unicodeScalars.contains { $0.value == 0x202E }, "\(shown)\(err)")
        #expect(try JSONParser.parse(JSONPrinter.compact(.string("a\u{202E}b\u{2066}c"))) == .string("a\u{202E}b\u{2066}c"))
    }

    /// The answer that sets a session cookie and echoes it in its body showed
    /// it in clear; the next answer, carrying it, hid it. A short cookie
    /// (`theme=dark`) stays shown, as a carried one does.
    @Test func aCookieTheAnswerSetsIsHiddenWhereTheSameAnswerEchoesIt() {
        let answer = exchange(200, "OK", type: "application/json", body: Array(#"{"session": "COOKIEVAL12345", "theme": "dark"}"#.utf8),
                              headers: [HTTPHeader(name: "Set-Cookie", value: "sid=COOKIEVAL12345; Path=/; HttpOnly"),
                                        HTTPHeader(name: "Set-Cookie", value: "theme=dark")])
        let (out, _) = plain.render(answer)
        #expect(!out.contains("COOKIEVAL12345") && out.contains(#""theme": "dark""#), "\(out)")
    }

    /// A Content-Type or Content-Encoding with an escape sequence in it was
    /// copied into the lines that name it (`binary body: application/ESC[31m…`,
    /// `body encoded as ESC[31mx-evil`, the not-valid-JSON warning): the
    /// server drove the terminal. Escaped as `show` escapes headers.
    /// A JWT in a header of another name (`X-A: x eyJ…` typed and shown by
    /// `--offline` or `-v`, or answered) was printed in clear, where the
    /// recording and the body hid it.
    @Test func aJWTInAHeaderOfAnyNameIsHidden() {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.SIGSECRETXYZ"
        let lines = plain.headerLines([HTTPHeader(name: "X-A", value: "x \(jwt)"), HTTPHeader(name: "X-Trace", value: "abc-123")])
        #expect(lines == "X-A: x \(Redactor.hidden(jwt))\nX-Trace: abc-123\n", "\(lines)")
    }

    @Test func aServersMediaTypeOrEncodingIsShownEscapedWhereALineNamesIt() {
        let evil = "\u{1B}[31mevil\u{1B}]0"
        let answers = [
            exchange(200, "OK", type: "application/\(evil)", body: [0, 1, 2, 0xFF]),
            exchange(200, "OK", type: "image/png", body: [1, 2, 3], headers: [HTTPHeader(name: "Content-Encoding", value: "x-\(evil)")]),
            exchange(200, "OK", type: "application/x\(evil)+json", body: Array("not json".utf8)),
        ]
        for answer in answers {
            let (out, err) = plain.render(answer)
            #expect(!(out + err).contains("\u{1B}") && (out + err).contains("\\u001b[31mevil"), "\(out)\(err)")
        }
        // `show` of the body (`.body`): summarised with the type escaped too.
        let body = ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "application/\(evil)")], body: [0, 1, 2, 0xFF])
        #expect(OutcomeText.plain(.body(body))?.contains("\\u001b[31mevil") == true)
    }

    /// A short secret a request carried (a 5-character password, a
    /// 4-character API key) was shown where the answer quoted it, and hidden
    /// in the transcript; a short cookie value (`theme=dark`) stays shown.
    @Test func aShortSecretTheRequestCarriedIsHiddenWhereTheAnswerQuotesIt() {
        var request = PreparedRequest(method: "POST", url: URL(string: "http://127.0.0.1:1/login")!,
                                      headers: [HTTPHeader(name: "Content-Type", value: "application/json"), HTTPHeader(name: "X-Api-Key", value: "k123"),
                                                HTTPHeader(name: "Cookie", value: "theme=dark")],
                                      body: Array(#"{"email":"a@b.c","password":"ab1xy"}"#.utf8))
        request.timeout = nil
        let answer = #"{"message":"bad password 'ab1xy' with key k123 in theme dark"}"#
        let response = ReceivedResponse(status: 401, reason: "Unauthorized", headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                                        body: Array(answer.utf8))
        let (out, err) = Renderer(palette: .plain).render(.exchange(Exchange(request: request, response: response), note: nil, view: .plain))
        #expect(!(out + err).contains("ab1xy") && !(out + err).contains("k123"), "\(out)\(err)")
        #expect((out + err).contains("theme dark"), "\(out)\(err)")
    }

    /// A CRLF text answer is recorded a line per line: it was one line
    /// holding "\r\n", which no transcript could read back.
    @Test func aCRLFTextAnswerIsObservedLineByLine() {
        let observation = exchange(200, "OK", type: "text/plain", body: Array("a\r\nb\r\n\r\nc\n".utf8)).observation(renderer: plain)
        #expect(observation.body == .text(["a", "b", "", "c"]))
    }

    /// `-b` prints the body alone, so it pipes into jq; the status line
    /// comes with `h` or when a line chooses nothing (HTTPie's rule).
    @Test func theStatusLineComesWithTheHeadersOrByDefault() {
        let body = Array(#"{"a":1}"#.utf8)
        func shown(_ view: PrintParts) -> String {
            guard case let .exchange(exchange, _, _) = exchange(200, "OK", type: "application/json", body: body) else { return "" }
            return plain.render(.exchange(exchange, note: nil, view: view)).out
        }
        #expect(shown(.responseBody) == "{\n  \"a\": 1\n}\n")
        #expect(shown(.plain) == "HTTP/1.1 200 OK  12 ms\n{\n  \"a\": 1\n}\n")
        #expect(shown(.responseHeaders).hasPrefix("HTTP/1.1 200 OK  12 ms\nContent-Type: application/json\n"))
        #expect(!shown(.requestHeaders).contains("200 OK"))
    }

    /// A body with NUL bytes is binary though it is valid UTF-8 (a tar, a
    /// zeroed file): it printed a NUL per byte, and gigabytes for 100 MB.
    @Test func aBodyWithNULBytesIsSummedUpAsBinary() {
        var request = PreparedRequest(method: "POST", url: URL(string: "http://127.0.0.1:1/x")!)
        request.body = [UInt8](repeating: 0, count: 2048)
        #expect(plain.offline(request).hasSuffix("\nbinary body, 2.0 KiB\n"))
        let (out, _) = plain.render(exchange(200, "OK", type: "application/x-tar", body: Array("name\u{0}\u{0}".utf8)))
        #expect(out.hasSuffix("binary body: application/x-tar, 6 B (not shown)\n"))
    }

    /// A body the Content-Type calls binary is binary whatever its bytes:
    /// random bytes that happened to be UTF-8 (or digits) were text, and a
    /// recording of a random-bytes endpoint failed its replay now and then.
    @Test func aBodyCalledBinaryIsBinaryWhateverItsBytes() {
        for (type, binary) in [("application/octet-stream", true), ("image/png", true), ("audio/mpeg", true), ("font/woff2", true),
                               ("application/pdf", true), ("image/svg+xml", false), ("text/plain", false), ("application/json", false)] {
            let outcome = exchange(200, "OK", type: type, body: Array("12345678".utf8))
            #expect(plain.render(outcome).out.hasSuffix("binary body: \(type), 8 B (not shown)\n") == binary, "\(type)")
            let body = outcome.observation(renderer: plain).body
            #expect((body == .binary("\(type), 8 bytes")) == binary, "\(type): \(String(describing: body))")
        }
    }

    /// An offline request's JSON body is recorded with its secret-named
    /// fields hidden however short they are (the scrubber finds values of
    /// four characters or more: `password=abc` went to disk in clear).
    @Test func anOfflineBodyIsRecordedWithItsSecretsHidden() throws {
        var request = PreparedRequest(method: "POST", url: URL(string: "http://127.0.0.1:1/x")!,
                                      headers: [HTTPHeader(name: "Content-Type", value: "application/json")])
        request.body = Array(#"{"password":"abc","pin":7,"pins":7,"user":{"api_key":"k","name":"al"},"api_keys":["t1","t2"]}"#.utf8)
        let lines = try #require(Outcome.offline(request, note: nil).observation(renderer: plain).body)
        guard case let .text(text) = lines else { Issue.record("\(lines)"); return }
        // A PIN is a secret (its number was written); `pins` is not a secret's name.
        #expect(text.last == #"{"password":"<hidden>","pin":<hidden>,"pins":7,"user":{"api_key":"<hidden>","name":"al"},"api_keys":["<hidden>","<hidden>"]}"#)
    }

    /// A challenge says which `auth` the server wants: not hidden.
    @Test func aChallengeIsShownAndACredentialHidden() {
        #expect(Redactor.redact(header: HTTPHeader(name: "WWW-Authenticate", value: "Basic realm=\"Fake Realm\"")).value == "Basic realm=\"Fake Realm\"")
        #expect(Redactor.redact(header: HTTPHeader(name: "Authorization", value: "Basic dTpw")).value == "Basic <hidden: 4 characters>")
    }

    /// JSON nested past the parser's depth is explorer's limit, said as
    /// such: it was "not valid JSON", blaming a server whose body was valid.
    @Test func jsonTooDeepIsSaidAsExplorersLimit() {
        let deep = Array(String(repeating: "[", count: 1000).utf8) + Array(String(repeating: "]", count: 1000).utf8)
        let (_, err) = plain.render(exchange(200, "OK", type: "application/json", body: deep))
        let (out, _) = plain.render(exchange(200, "OK", type: "application/json", body: deep))
        let said = out + err
        #expect(said.contains("warning: the body nests JSON deeper than 512 levels, more than explorer reads; shown as text"), "\(said.prefix(300))")
        #expect(!said.contains("not valid JSON"))
        // Piped (`get /deep > o.txt`), it was "not valid JSON; written as it came".
        var piped = Renderer(palette: .plain)
        piped.printsWholeBodies = true
        let (written, warned) = piped.render(.exchange(Exchange(request: PreparedRequest(method: "GET", url: URL(string: "http://127.0.0.1:1/deep")!),
                                                                response: ReceivedResponse(status: 200, headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: deep)),
                                                       note: nil, view: [.responseBody]))
        #expect(written.utf8.count == deep.count)
        #expect(warned == "warning: the body nests JSON deeper than 512 levels, more than explorer reads; written as it came\n", "\(warned)")
    }

    /// Text in the charset it declares: a Latin-1 page was "binary body".
    @Test func textIsShownInItsDeclaredCharset() {
        let (out, _) = plain.render(exchange(200, "OK", type: "text/plain; charset=ISO-8859-1", body: [0x63, 0x61, 0x66, 0xE9, 0x0A]))
        #expect(out.hasSuffix("\ncafé\n"), "\(out)")
        let (unknown, _) = plain.render(exchange(200, "OK", type: "text/plain; charset=x-unknown", body: [0x63, 0xE9]))
        // A charset explorer does not know: read as UTF-8, each byte that is not said (it was "binary body").
        #expect(unknown.contains("warning: the body is not UTF-8") && unknown.hasSuffix("\nc\u{FFFD}\n"), "\(unknown)")
        // `show` reads it as the first display did (it said "binary body"), a quoted charset too.
        let latin = ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: #"text/plain; Charset = "iso-8859-1""#)],
                                     body: [0x63, 0x61, 0x66, 0xE9])
        #expect(OutcomeText.plain(.body(latin)) == "café")
        var unknownShown = latin
        unknownShown.headers = [HTTPHeader(name: "Content-Type", value: "text/plain; charset=x-unknown")]
        #expect(OutcomeText.plain(.body(unknownShown)) == "binary body: text/plain, 4 bytes (not shown)")
        // UTF-16 has NUL bytes and is text; Latin-2 is known.
        let utf16 = Array("zażółć".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let (wide, _) = plain.render(exchange(200, "OK", type: "text/plain; charset=utf-16be", body: utf16))
        #expect(wide.hasSuffix("\nzażółć\n"), "\(wide)")
        let (latin2, _) = plain.render(exchange(200, "OK", type: "text/plain; charset=ISO-8859-2", body: [0x7A, 0xB3, 0xF3, 0x77]))
        #expect(latin2.hasSuffix("\nzłów\n"), "\(latin2)")
        // Python's name for it (a JSON answer of a Python server said "not UTF-8", and a recording kept U+FFFD).
        let (python, _) = plain.render(exchange(200, "OK", type: "application/json; charset=latin-1", body: Array(#"{"name":"caf"#.utf8) + [0xE9, 0x22, 0x7D]))
        #expect(python.hasSuffix("\n{\n  \"name\": \"café\"\n}\n") && !python.contains("warning"), "\(python)")
        // Chinese, Korean and Cyrillic pages, which were "binary body"; bytes not in the charset still are.
        for (charset, bytes, text) in [("gb2312", [0xC4, 0xE3, 0xBA, 0xC3], "你好"), ("GBK", [0xC4, 0xE3, 0x41], "你A"),
                                       ("gb18030", [0x81, 0x30, 0x81, 0x30], "\u{80}"), ("big5", [0xA4, 0xA4, 0xA4, 0xE5], "中文"),
                                       ("euc-kr", [0xBE, 0xC8, 0xB3, 0xE7], "안녕"), ("koi8-r", [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4], "Привет")] as [(String, [UInt8], String)] {
            let (page, _) = plain.render(exchange(502, "Bad Gateway", type: "text/html; charset=\(charset)", body: bytes))
            #expect(page.hasSuffix("\n\(text)\n"), "\(charset): \(page)")
        }
        let (broken, _) = plain.render(exchange(200, "OK", type: "text/plain; charset=gbk", body: [0x41, 0xFF, 0xFF]))
        #expect(broken.contains("binary body: text/plain, 3 B (not shown)"), "\(broken)")
    }

    /// Text that names no charset and is not UTF-8 (an old server's
    /// `text/html` in Latin-1) is read as Windows-1252, as browsers read it:
    /// it was "binary body" on screen, in `show` and in a recording.
    @Test func textWithoutACharsetIsReadAsWindows1252() {
        let page: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x20, 0x80, 0x35, 0x0A]
        let (out, _) = plain.render(exchange(200, "OK", type: "text/html", body: page))
        #expect(out.hasSuffix("\ncafé €5\n"), "\(out)")
        let response = ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "text/plain")], body: page)
        #expect(OutcomeText.plain(.body(response)) == "café €5\n")
        #expect(exchange(200, "OK", type: "text/plain", body: page).observation(renderer: plain).body == .text(["café €5"]))
        // A byte Windows-1252 leaves undefined is Latin-1's control, as the WHATWG reads it.
        #expect(Charset.decode([0x41, 0x81], charset: Charset.textDefault) == "A\u{81}")
        // Not text by its type, or with a NUL byte: still binary.
        let (octets, _) = plain.render(exchange(200, "OK", type: "application/x-thing", body: page))
        #expect(octets.contains("binary body: application/x-thing, 8 B (not shown)"), "\(octets)")
        let (nul, _) = plain.render(exchange(200, "OK", type: "text/plain", body: [0x41, 0x00, 0xE9]))
        #expect(nul.contains("binary body: text/plain, 3 B (not shown)"), "\(nul)")
    }

    /// JSON in the charset it declares: a Latin-1 `José` was shown
    /// `Jos\u{FFFD}` (and `show .name` too), UTF-16 JSON was "not valid JSON".
    @Test func jsonIsReadInItsDeclaredCharset() throws {
        let latin = Array(#"{"name":"Jos"#.utf8) + [0xE9] + Array(#"","n":1}"#.utf8)
        let (out, _) = plain.render(exchange(200, "OK", type: "application/json; charset=iso-8859-1", body: latin))
        #expect(out.hasSuffix("{\n  \"name\": \"José\",\n  \"n\": 1\n}\n"), "\(out)")
        var response = ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "application/json; charset=ISO-8859-1")],
                                        body: latin)
        #expect(try #require(response.json)["name"] == .string("José"))
        let utf16: [UInt8] = [0xFE, 0xFF] + Array(#"{"a":"ł"}"#.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let (wide, _) = plain.render(exchange(200, "OK", type: "application/json; charset=utf-16", body: utf16))
        #expect(!wide.contains("warning") && wide.hasSuffix("{\n  \"a\": \"ł\"\n}\n"), "\(wide)")
        // Said UTF-8, or a charset not known: the bytes as they are.
        response.headers = [HTTPHeader(name: "Content-Type", value: "application/json; charset=utf-8")]
        #expect(try #require(response.json)["name"] == .string("Jos\u{FFFD}"))
        // UTF-8 labelled Latin-1, as servers often send it, is read as UTF-8: not `JosÃ©`.
        let mislabelled = ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "application/json; charset=iso-8859-1")],
                                           body: Array(#"{"name":"José"}"#.utf8))
        #expect(try #require(mislabelled.json)["name"] == .string("José"))
        // A UTF-8 byte order mark is passed over (it was "not valid JSON … byte 0xef").
        let marked = ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                                      body: [0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8))
        #expect(try #require(marked.json)["a"] == .int(1))
        let (shown, _) = plain.render(exchange(200, "OK", type: "application/json", body: marked.body))
        #expect(!shown.contains("warning") && shown.hasSuffix("{\n  \"a\": 1\n}\n"), "\(shown)")
        // Bytes in no charset it names (GBK labelled as nothing) are said, not shown as U+FFFD silently.
        let gbk: [UInt8] = Array(#"{"msg":""#.utf8) + [0xC4, 0xE3] + Array(#""}"#.utf8)
        let (misread, _) = plain.render(exchange(200, "OK", type: "application/json", body: gbk))
        #expect(misread.contains("warning: the body is not UTF-8 (nor in a charset its Content-Type names); \u{FFFD} stands for each byte that is not\n"))
        let (named, _) = plain.render(exchange(200, "OK", type: "application/json; charset=gbk", body: gbk))
        #expect(!named.contains("warning") && named.contains("\"msg\": \"你\""), "\(named)")
        // Not JSON and not text: one word for it, not "shown as text" then "binary body".
        let (neither, _) = plain.render(exchange(200, "OK", type: "application/json; charset=big5", body: Array(#"{"a": "#.utf8) + [0xFF, 0xFE]))
        #expect(neither.contains("is not valid JSON (") && !neither.contains("shown as text") && neither.contains("binary body"), "\(neither)")
    }

    /// `show .password` is hidden on screen; its recording wrote it in clear
    /// (and a report compared the two values in clear). A text of a few bytes
    /// that are not UTF-8 is recorded as text, as the screen shows it.
    @Test func aSecretShownIsRecordedHiddenAndMostlyTextIsRecordedAsText() {
        let shown = Outcome.value(.array([.string("S3cF1"), .number("42")]), secret: true).observation(renderer: plain)
        #expect(shown.body == .json(.array([.string("<hidden>"), .string("<hidden>")])))
        let body = Array("password: S3cretX1\ncaf".utf8) + [0xE9] + Array("\n".utf8)
        let response = ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "text/plain; charset=utf-8")], body: body)
        let exchange = Exchange(request: PreparedRequest(method: "GET", url: URL(string: "http://127.0.0.1:1/x")!), response: response)
        guard case let .text(lines)? = Outcome.exchange(exchange, note: nil, view: .plain).observation(renderer: plain).body else {
            Issue.record("not recorded as text")
            return
        }
        #expect(lines == ["password: S3cretX1", "caf\u{FFFD}"])
    }

    /// A text said to be UTF-8 with one byte that is not (a Latin-1 `é`) was
    /// "binary body: text/plain, 45 B (not shown)": its error never seen.
    @Test func aTextWithAFewBytesThatAreNotUTF8IsShownAndSaid() {
        let body = Array("Error: caf".utf8) + [0xE9] + Array(" service unavailable\n".utf8)
        let (shown, _) = plain.render(exchange(503, "Service Unavailable", type: "text/plain; charset=utf-8", body: body))
        #expect(shown.contains("warning: the body is not UTF-8") && shown.contains("Error: caf\u{FFFD} service unavailable"), "\(shown)")
        // Bytes that are mostly not text stay binary, whatever the label.
        let (noise, _) = plain.render(exchange(200, "OK", type: "text/plain; charset=utf-8", body: (0..<64).map { UInt8(0x80 + $0) }))
        #expect(noise.contains("binary body: text/plain, 64 B"), "\(noise)")
    }

    /// A status without a reason (NIO keeps none for a code it does not
    /// know) is shown without a dangling space, on the status line and in the error.
    @Test func aStatusWithoutAReasonEndsAtItsCode() {
        let (out, err) = plain.render(exchange(599, "", type: "text/plain", body: Array("odd".utf8)))
        #expect(out.hasPrefix("HTTP/1.1 599  "), "\(out)")
        #expect(!out.hasPrefix("HTTP/1.1 599   "), "\(out)")
        #expect(err.contains("error: 599: odd\n"), "\(err)")
        let (_, bare) = plain.render(exchange(599, "", type: "text/plain", body: []))
        #expect(bare.contains("error: 599\n"), "\(bare)")
        let (named, _) = plain.render(exchange(404, "Not Found", type: "text/plain", body: []))
        #expect(named.hasPrefix("HTTP/1.1 404 Not Found  "), "\(named)")
    }

    @Test func brokenJSONIsShownRawWithAWarning() {
        let (out, _) = plain.render(exchange(200, "OK", type: "application/json", body: Array(#"{"a": 1"#.utf8)))
        #expect(out.contains("warning: the body says application/json but is not valid JSON"))
        #expect(out.hasSuffix("{\"a\": 1\n"))
    }

    @Test func textAndBinaryBodies() {
        let (text, _) = plain.render(exchange(200, "OK", type: "text/plain", body: Array("hello".utf8)))
        #expect(text.hasSuffix("hello\n"))
        let (binary, _) = plain.render(exchange(200, "OK", type: "image/png", body: [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0xFE] + Array(repeating: 0, count: 2041)))
        #expect(binary.hasSuffix("binary body: image/png, 2.0 KiB (not shown)\n"))
    }

    @Test func longBodiesArePreviewed() {
        var small = plain
        small.previewLimit = 100
        let (out, _) = small.render(exchange(200, "OK", type: "text/plain", body: Array(String(repeating: "x", count: 1000).utf8)))
        #expect(out.contains("… 900 B more not shown; `show` prints it all"))
        #expect(out.count < 300)
    }

    /// Piped, `-b` alone is the whole body for a program to read, its
    /// secrets hidden as in the preview; with the status line it is the
    /// preview still; a binary body is summarised.
    @Test func theBodyAloneIntoAPipeIsWhole() throws {
        var piped = plain
        piped.previewLimit = 200
        piped.printsWholeBodies = true
        let items = (0..<2_000).map { #"{"id": \#($0), "access_token": "t\#($0)"}"# }
        let body = Array(("[" + items.joined(separator: ",") + "]").utf8)
        func rendered(_ type: String, _ body: [UInt8], _ view: PrintParts) -> (out: String, err: String) {
            guard case let .exchange(exchange, _, _) = exchange(200, "OK", type: type, body: body) else { return ("", "") }
            return piped.render(.exchange(exchange, note: nil, view: view))
        }
        let (out, err) = rendered("application/json", body, [.responseBody])
        guard case let .array(parsed) = try JSONParser.parse(out) else { Issue.record("not a JSON array"); return }
        #expect(parsed.count == 2_000 && err.isEmpty)
        #expect(!out.contains("\"t1999\"") && out.contains("\"access_token\": \"<hidden: 5 characters>\""))
        #expect(rendered("application/json", body, PrintParts.standard(for: "GET")).out.contains("body is not shown"))
        let text = Array(String(repeating: "line of text\n", count: 100).utf8)
        #expect(rendered("text/plain", text, [.responseBody]) == (String(decoding: text, as: UTF8.self), ""))
        #expect(rendered("image/png", text, [.responseBody]).out.hasPrefix("binary body: image/png"))
        // What is not text goes out as its bytes; text and JSON are rendered.
        func written(_ type: String, _ body: [UInt8], _ view: PrintParts = [.responseBody]) -> Renderer.PipedBody? {
            guard case let .exchange(exchange, _, _) = exchange(200, "OK", type: type, body: body) else { return nil }
            return piped.pipedBody(.exchange(exchange, note: nil, view: view))
        }
        #expect(written("image/png", text) == .bytes(text) && written("application/octet-stream", [0, 1, 2]) == .bytes([0, 1, 2]))
        #expect(written("text/plain", text) == nil && written("application/json", body) == nil)
        #expect(written("image/png", text, [.statusLine, .responseBody]) == nil)
        // What is said about the answer goes to standard error, out of the program's way; text goes as it came.
        guard case let .exchange(small, _, _) = exchange(200, "OK", type: "application/json", body: Array(#"{"a":1}"#.utf8)) else { return }
        let noted = piped.render(.exchange(small, note: "token not sent: elsewhere", view: [.responseBody]))
        #expect(noted == ("{\n  \"a\": 1\n}\n", "token not sent: elsewhere\n"))
        #expect(rendered("text/plain", Array("no line end".utf8), [.responseBody]) == ("no line end", ""))
        let (broken, said) = rendered("application/json", Array("{oops".utf8), [.responseBody])
        #expect(broken == "{oops" && said.hasPrefix("warning: the body says application/json but is not valid JSON"))
        #expect(written("application/json", [0x1F, 0x8B], [.responseBody]) == .bytes([0x1F, 0x8B]), "neither JSON nor text: its bytes")
    }

    /// A large JSON answer is pretty-printed only as far as the preview goes,
    /// with its secrets hidden there as in the whole.
    @Test func aLongJSONBodyIsPrintedOnlyAsFarAsItShows() {
        var small = plain
        small.previewLimit = 200
        let items = (0..<10_000).map { #"{"id": \#($0), "access_token": "t\#($0)", "name": "item \#($0)"}"# }
        let body = Array(("[" + items.joined(separator: ",") + "]").utf8)
        let (out, _) = small.render(exchange(200, "OK", type: "application/json", body: body))
        #expect(out.contains("\"id\": 0,"))
        #expect(!out.contains("\"t0\""), "a token is hidden in the preview")
        #expect(out.contains("<hidden: 2 characters>"))
        #expect(out.contains("… the rest of the \(Renderer.size(body.count)) body is not shown; `show` prints it all"))
        #expect(out.count < 500)
    }

    @Test func tokensAreNeverPrinted() {
        let body = #"{"access_token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig","refresh_token":"r-secret","token_type":"bearer"}"#
        let (out, _) = plain.render(exchange(200, "OK", type: "application/json", body: Array(body.utf8)))
        #expect(!out.contains("eyJ"))
        #expect(!out.contains("r-secret"))
        #expect(out.contains("\"token_type\": \"bearer\""))
    }

    /// Ctrl-C flushed the terminal mid-row, the reset after a dim timestamp
    /// with it: the prompt and what was typed after it showed dim.
    @Test func aStreamStoppedByCtrlCResetsTheColours() {
        let colour = Renderer(palette: Palette(enabled: true))
        #expect(colour.render(.message(Interpreter.streamStopped + Interpreter.streamedNote(3))).out == "\u{1B}[0mstopped: 3 lines streamed above\n")
        #expect(plain.render(.message(Interpreter.streamStopped + Interpreter.streamedNote(3))).out == "stopped: 3 lines streamed above\n")
    }

    @Test func coloursOnlyWhenEnabled() {
        let colour = Renderer(palette: Palette(enabled: true))
        let body = Array(#"{"a":"b"}"#.utf8)
        #expect(colour.render(exchange(200, "OK", type: "application/json", body: body)).out.contains("\u{1B}["))
        #expect(!plain.render(exchange(200, "OK", type: "application/json", body: body)).out.contains("\u{1B}"))
    }

    @Test(arguments: [
        (ColorMode.auto, true, ["TERM": "xterm"], true), (.auto, true, ["TERM": "xterm", "NO_COLOR": "1"], false), (.auto, false, ["TERM": "xterm"], false),
        (.auto, true, ["TERM": "dumb"], false), (.always, false, ["NO_COLOR": "1"], true), (.never, true, ["TERM": "xterm"], false),
        // No TERM asked for no colour (git reads it so); `--color always` still gives it.
        (.auto, true, [String: String](), false), (.always, true, [:], true),
    ])
    func choosesColour(mode: ColorMode, terminal: Bool, environment: [String: String], expected: Bool) {
        #expect(Palette.choose(mode, isTerminal: terminal, environment: environment).enabled == expected)
    }

    /// `--print` letters choose the parts; credentials in headers and secret
    /// fields in bodies are hidden wherever they are printed.
    @Test func printPartsAndHiddenCredentials() {
        var request = PreparedRequest(method: "POST", url: URL(string: "http://127.0.0.1:1/login")!,
                                      headers: [HTTPHeader(name: "Authorization", value: "Bearer abc.def"), HTTPHeader(name: "Cookie", value: "a=1; b=22")],
                                      body: Array(#"{"email":"a@b.c","password":"hunter2"}"#.utf8))
        request.setHeader("Content-Type", "application/json")
        let response = ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Set-Cookie", value: "sid=xyz; Path=/; HttpOnly"),
                                                                          HTTPHeader(name: "Content-Type", value: "application/json")],
                                        body: Array(#"{"ok":true}"#.utf8))
        let exchange = Exchange(request: request, response: response, duration: .milliseconds(3))
        let verbose = plain.render(.exchange(exchange, note: nil, view: .verbose)).out
        #expect(verbose == """
        POST /login HTTP/1.1
        Host: 127.0.0.1:1
        Authorization: Bearer <hidden: 7 characters>
        Cookie: a=<hidden: 1 character>; b=<hidden: 2 characters>
        Content-Type: application/json
        Content-Length: 38

        {
          "email": "a@b.c",
          "password": "<hidden: 7 characters>"
        }

        HTTP/1.1 200 OK  3.0 ms
        Set-Cookie: sid=<hidden: 3 characters>; Path=/; HttpOnly
        Content-Type: application/json

        {
          "ok": true
        }

        """)
        #expect(plain.render(.exchange(exchange, note: nil, view: .responseHeaders)).out == """
        HTTP/1.1 200 OK  3.0 ms
        Set-Cookie: sid=<hidden: 3 characters>; Path=/; HttpOnly
        Content-Type: application/json

        """)
        let redirect = Exchange(request: request, response: ReceivedResponse(status: 302, reason: "Found", headers: [HTTPHeader(name: "Location", value: "/next")]))
        #expect(plain.render(.exchange(redirect, note: nil)).out.contains("\nLocation: /next\n"), "a 3xx always shows where it points")
    }

    /// A value filled in for `{{secret:NAME}}`, or a credential the request
    /// carried, echoed where no body is: in the one-line error summary, in
    /// the `Location` a 3xx always shows (the rest of it kept: where it
    /// points is the point), and in a WebSocket frame, sent or received.
    /// A text frame's (and a streamed row's) `Bearer …` and a URL's
    /// `?access_token=` showed in clear, where a text body hid them.
    @Test func aTextFramesCredentialsAreHiddenAsATextBodysAre() {
        let renderer = Renderer(palette: .plain)
        let line = renderer.notice(SocketNotice(time: Date(timeIntervalSince1970: 0), kind: .received,
                                                text: "token is Bearer QZB01wsbearerx, cb https://x/cb?access_token=QZB02urlx&s=1"))
        #expect(!line.contains("QZB") && line.contains("Bearer <hidden: 14 characters>") && line.contains("access_token=<hidden: 9 characters>&s=1"), "\(line)")
        #expect(renderer.streamedRow("data: Bearer QZS04bearernochunk") == "data: Bearer <hidden: 18 characters>\n")
    }

    @Test func aSuppliedSecretIsHiddenInTheErrorLineALocationAndFrames() {
        var renderer = Renderer(palette: .plain)
        renderer.alsoHidden = ["s3cr3t-value"]
        let request = PreparedRequest(method: "GET", url: URL(string: "http://127.0.0.1:1/x")!,
                                      headers: [HTTPHeader(name: "Authorization", value: "Bearer tok-abcdef")])
        let json = [HTTPHeader(name: "Content-Type", value: "application/json")]
        let refused = Exchange(request: request, response: ReceivedResponse(status: 401, reason: "Unauthorized", headers: json,
                                                                             body: Array(#"{"message":"key s3cr3t-value revoked; tok-abcdef expired"}"#.utf8)))
        let err = renderer.render(.exchange(refused, note: nil)).err
        #expect(err == "error: 401: key <hidden: 12 characters> revoked; <hidden: 10 characters> expired\n", "\(err)")
        let redirect = Exchange(request: request, response: ReceivedResponse(status: 302, reason: "Found",
                                                                              headers: [HTTPHeader(name: "Location", value: "/cb?key=s3cr3t-value&next=/home")]))
        let out = renderer.render(.exchange(redirect, note: nil)).out
        #expect(out.contains("\nLocation: /cb?key=<hidden: 12 characters>&next=/home\n"), "\(out)")
        for kind in [SocketNotice.Kind.sent, .received] {
            for text in [#"{"note":"s3cr3t-value"}"#, "plain s3cr3t-value text"] {
                let line = renderer.notice(SocketNotice(time: Date(timeIntervalSince1970: 0), kind: kind, text: text))
                #expect(!line.contains("s3cr3t") && line.contains("<hidden: 12 characters>"), "\(line)")
                let pretty = renderer.notice(SocketNotice(time: Date(timeIntervalSince1970: 0), kind: kind, text: text, pretty: true))
                #expect(!pretty.contains("s3cr3t") && pretty.contains("<hidden: 12 characters>"), "\(pretty)")
            }
        }
    }

    /// What a request carried that an echo of it showed in clear: a secret
    /// query value (a profile's query credential too), a password typed in
    /// the body, a Basic credential decoded; a supplied secret in base64 or
    /// in HTML, in a failure's message, and in a redirect hop's Location (-v).
    @Test func everyCredentialARequestCarriedIsHiddenInItsEcho() {
        var renderer = Renderer(palette: .plain)
        renderer.secretParameters = ["qk"]
        var supplied = SuppliedSecrets()
        _ = supplied.add([(name: "tok", value: #"tok<S&"ecret"#)])
        renderer.alsoHidden = supplied.shown
        var request = PreparedRequest(method: "POST", url: URL(string: "http://127.0.0.1:1/echo?qk=qkSECRET555&api_key=a%20key9")!,
                                      headers: [HTTPHeader(name: "Authorization", value: BasicCredentials(user: "bob", password: "simplePW1").authorization)],
                                      body: Array(#"{"user": {"password": "hunter22"}, "n": 1}"#.utf8))
        request.setHeader("Content-Type", "application/json")
        let echo = #"{"path": "/echo?qk=qkSECRET555&api_key=a key9", "seen": "pw hunter22", "decoded": "bob:simplePW1", "b64": "dG9rPFMmImVjcmV0", "html": "tok&lt;S&amp;&quot;ecret"}"#
        let answer = Exchange(request: request, response: ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                                                                             body: Array(echo.utf8)))
        let out = renderer.render(.exchange(answer, note: nil)).out
        for secret in ["qkSECRET555", "a key9", "hunter22", "simplePW1", "dG9rPFMmImVjcmV0", "&lt;S&amp;"] { #expect(!out.contains(secret), "\(secret) in \(out)") }
        // Only the credential: the rest of a string says where it was.
        #expect(out.contains(#""path": "/echo?qk=<hidden: 11 characters>&api_key=<hidden: 6 characters>""#), "\(out)")
        #expect(!renderer.render(.failure(#"no route /p?x=tok<S&"ecret"#, .runtime)).err.contains("ecret"))
        var hop = Exchange(request: PreparedRequest(method: "GET", url: URL(string: "http://127.0.0.1:1/redir?api_key=a%20key9")!),
                           response: ReceivedResponse(status: 302, reason: "Found", headers: [HTTPHeader(name: "Location", value: "/landing?got=a%20key9")]))
        hop.hops = []
        var followed = answer
        followed.hops = [hop]
        #expect(!renderer.render(.exchange(followed, note: nil, view: .verbose)).out.contains("/landing?got=a%20key9"))
        // A socket's URL in `connected to …` and `ws status`, a download named after the secret.
        #expect(!renderer.render(.message(#"connected to ws://h/p?x=tok<S&"ecret"#)).out.contains("ecret"))
        // The request line under -v: a redirect's target carrying the request's own Authorization.
        let landing = PreparedRequest(method: "GET", url: URL(string: "http://127.0.0.1:1/landing?got=Bearer%20sessBEAR4242")!,
                                      headers: [HTTPHeader(name: "Authorization", value: "Bearer sessBEAR4242")])
        let landed = Exchange(request: landing, response: ReceivedResponse(status: 204, reason: "No Content"))
        #expect(!renderer.render(.exchange(landed, note: nil, view: .verbose)).out.contains("sessBEAR4242"))
    }

    /// Issue 11: a Host or Content-Length set on the line was shown twice, though one of each is sent.
    /// Issue 11 #25: the cut counted colour escape codes, so coloured output was cut earlier than plain.
    @Test func colouredAndPlainOutputAreCutAtTheSameText() {
        var plainCut = plain
        plainCut.previewLimit = 200
        var colourCut = Renderer(palette: Palette(enabled: true))
        colourCut.previewLimit = 200
        let body = Array(("[" + (0..<100).map { "{\"n\":\($0)}" }.joined(separator: ",") + "]").utf8)
        let response = ReceivedResponse(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: body)
        let strip = { (s: String) in s.replacing(/\u{1B}\[[0-9;]*m/, with: "") }
        #expect(strip(colourCut.body(response)) == plainCut.body(response))
    }

    /// A text body's credential lines (`--raw 'Password:x'`) were printed
    /// by `--offline` as typed, where `-v` hid them.
    @Test func offlineHidesATextBodysCredentialLinesAsVerboseDoes() {
        let request = PreparedRequest(method: "POST", url: URL(string: "http://127.0.0.1:8080/x")!,
                                      headers: [HTTPHeader(name: "Content-Type", value: "text/plain")],
                                      body: Array("Password:S3CRO1\nCookie: a=S3CRO2\nnote: kept\n".utf8))
        let text = plain.render(.offline(request, note: nil)).out
        #expect(!text.contains("S3CRO1") && !text.contains("S3CRO2") && text.contains("note: kept"), "\(text)")
    }

    @Test func offlineShowsEachHeaderOnceAsSent() throws {
        let request = try RequestBuilder(baseURL: URL(string: "http://127.0.0.1:8080")!).build(method: "POST", path: "/x", items: [
            .header(name: "Host", value: "api.example.com"), .header(name: "Content-Length", value: "2"), .stringField(name: "a", value: "b"),
        ])
        let text = plain.render(.offline(request, note: nil)).out
        #expect(text.components(separatedBy: "Host: ").count == 2 && text.contains("Host: api.example.com"))
        // The client frames the body itself: the length sent is the body's, not the one typed.
        #expect(text.components(separatedBy: "Content-Length: ").count == 2 && text.contains("Content-Length: \(request.body!.count)\n"))
        // A method that takes a body goes with Content-Length: 0 without one; a GET without.
        let options = try RequestBuilder(baseURL: URL(string: "http://127.0.0.1:8080")!).build(method: "OPTIONS", path: "/x", items: [])
        #expect(plain.render(.offline(options, note: nil)).out.contains("Content-Length: 0\n"))
        let get = try RequestBuilder(baseURL: URL(string: "http://127.0.0.1:8080")!).build(method: "GET", path: "/x", items: [
            .header(name: "Transfer-Encoding", value: "chunked"),
        ])
        let shown = plain.render(.offline(get, note: nil)).out
        #expect(!shown.contains("Content-Length") && !shown.contains("Transfer-Encoding"), "\(shown)")
    }

    /// httpbin's /stream/N (JSON lines under application/json) came with a
    /// warning that it was not JSON, and as text: a row each now, silently.
    @Test func jsonLinesUnderAJSONTypeAreShownARowEach() {
        let lines = Array(#"{"id": 0, "password": "S3cret!x"}"#.utf8) + [10] + Array(#"{"id": 1}"#.utf8) + [10]
        let (out, err) = plain.render(exchange(200, "OK", type: "application/json", body: lines))
        #expect(out.hasSuffix(#"{"id":0,"password":"<hidden: 8 characters>"}"# + "\n" + #"{"id":1}"# + "\n"), "\(out)")
        #expect(!out.contains("warning") && !err.contains("warning"), "\(out)\(err)")
        // One value and garbage after it is still not JSON, and said so.
        let (broken, _) = plain.render(exchange(200, "OK", type: "application/json", body: Array("{\"a\": 1}\nnot json\n".utf8)))
        #expect(broken.contains("warning: the body says application/json but is not valid JSON"), "\(broken)")
    }

    /// `--offline -p B` printed the whole request; HTTPie prints the body alone.
    @Test func offlinePrintsTheRequestPartsAsked() async throws {
        try await withSandboxInterpreter { interpreter, _ in
            let line = { (flags: String) async throws -> String in
                self.plain.render(await interpreter.execute(try interpreter.parser.parse("post /api/echo a=1 --offline \(flags)"))).out
            }
            #expect(try await line("-p B") == #"{"a":"1"}"# + "\n")
            let head = try await line("-p H")
            #expect(head.hasPrefix("POST /api/echo HTTP/1.1\n") && !head.contains(#"{"a":"1"}"#), "\(head)")
            // Parts of the answer alone (`defaults -p hb`): the whole request, never nothing.
            let whole = try await line("-p hb")
            #expect(whole.hasPrefix("POST /api/echo HTTP/1.1\n") && whole.hasSuffix(#"{"a":"1"}"# + "\n"), "\(whole)")
        }
    }

    /// `--offline` on screen hides what `-v` hides: a password in a JSON or
    /// form body (it showed `"password":"hunter2"`, a helper found).
    @Test func offlineHidesSecretFieldsOfTheBody() throws {
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:8080")!)
        let json = try builder.build(method: "POST", path: "/register", items: [.stringField(name: "email", value: "a@b.c"),
                                                                                .stringField(name: "password", value: "hunter2")])
        let form = try builder.build(method: "POST", path: "/login", items: [.stringField(name: "user", value: "a"),
                                                                             .stringField(name: "password", value: "hunter2")], form: true)
        var pretty = plain
        pretty.formatsOfflineJSON = true
        for shown in [plain.render(.offline(json, note: nil)).out, pretty.render(.offline(json, note: nil)).out,
                      plain.render(.offline(form, note: nil)).out] {
            #expect(!shown.contains("hunter2") && shown.contains("<hidden: 7 characters>"), "\(shown)")
        }
        #expect(plain.render(.offline(json, note: nil)).out.hasSuffix("\n{\"email\":\"a@b.c\",\"password\":\"<hidden: 7 characters>\"}\n"))
        #expect(plain.render(.offline(form, note: nil)).out.hasSuffix("\nuser=a&password=<hidden: 7 characters>\n"))
        // JSON sent under another type (curl's -d is a form's; `--raw … Content-Type:text/plain`): printed in clear.
        let raw = try builder.build(method: "POST", path: "/login", items: [.header(name: "Content-Type", value: "text/plain")],
                                    raw: #"{"password":"hunter2"}"#)
        for shown in [plain.render(.offline(raw, note: nil)).out, pretty.render(.offline(raw, note: nil)).out] {
            #expect(shown.hasSuffix("\n{\"password\":\"<hidden: 7 characters>\"}\n"), "\(shown)")
        }
        // A recording takes the request whole; its scrubber names the secret.
        #expect(plain.offline(form).contains("password=hunter2"))
        // Multipart form data: the field hidden, the file part as it is.
        let multipart = try RequestBuilder(baseURL: URL(string: "http://127.0.0.1:8080")!, readFile: { _ in Array("file text".utf8) },
                                           boundary: { "B0UNDARY" })
            .build(method: "POST", path: "/upload", items: [.stringField(name: "password", value: "hunter2"), .stringField(name: "note", value: "hi"),
                                                           .file(name: "password_file", path: "f.txt", contentType: "text/plain")])
        let shown = plain.render(.offline(multipart, note: nil)).out
        #expect(!shown.contains("hunter2") && shown.contains("name=\"password\"\r\n\r\n<hidden: 7 characters>\r\n--B0UNDARY"), "\(shown)")
        #expect(shown.contains("name=\"note\"\r\n\r\nhi\r\n") && shown.contains("filename=\"f.txt\"\r\nContent-Type: text/plain\r\n\r\nfile text\r\n"))
    }

    @Test func offlineShowsTheWireFormat() throws {
        let request = try RequestBuilder(baseURL: URL(string: "http://127.0.0.1:8080")!).build(method: "POST", path: "/api/tasks", items: [.stringField(name: "title", value: "x"), .query(name: "a", value: "b c")])
        #expect(plain.render(.offline(request, note: nil)).out == """
        POST /api/tasks?a=b%20c HTTP/1.1
        Host: 127.0.0.1:8080
        User-Agent: explorer/0.1
        Accept: application/json, */*;q=0.5
        Accept-Encoding: gzip, deflate
        Content-Type: application/json
        Content-Length: 13

        {"title":"x"}

        """)
    }
}

/// `--curl`: shell quoting with secrets as variables outside the quotes.
@Suite struct CurlCommandTests {
    @Test func quotesForAPOSIXShellWithSecretsAsVariables() {
        #expect(CurlCommand.quote("plain") == "'plain'")
        #expect(CurlCommand.quote("it's") == #"'it'\''s'"#)
        #expect(CurlCommand.quote("") == "''")
        #expect(CurlCommand.namingVariables(CurlCommand.quote(#"{"password":"⟦PASSWORD⟧"}"#)) == #"'{"password":"'"$PASSWORD"'"}'"#)
        #expect(CurlCommand.namingVariables(CurlCommand.quote("Bearer ⟦ACCESS_TOKEN⟧")) == #"'Bearer '"$ACCESS_TOKEN""#)
        // A body's own `"$PASSWORD"` text is no variable of ours: left as typed (it was renamed $PASSWORD_2).
        let typed = CurlCommand.namingVariables(CurlCommand.quote(#"x=⟦PASSWORD~0000abcd⟧ script=echo "$PASSWORD""#))
        #expect(typed == #"'x='"$PASSWORD"' script=echo "$PASSWORD"'"#, "\(typed)")
        // A name no shell can use (`JÉTON`): ASCII alone, and the value's mark never shows.
        let accented = CurlCommand.namingVariables(CurlCommand.quote(CurlCommand.placeholder("jéton_token", for: "hunter2")))
        #expect(accented == #""$J_TON_TOKEN""#, "\(accented)")
        #expect(CurlCommand.variable("X-Api-Key") == "X_API_KEY")
    }

    /// An object typed whole (`user:='{"token":…}'`) had its secrets printed:
    /// its secret-named members are variables, a number's bare.
    @Test func secretMembersOfATypedObjectAreVariables() {
        let items = CurlCommand.hidingSecrets([.jsonField(name: "user", value: .object([("token", .string("t0k")), ("pin_token", .int(5)), ("n", .int(1))]))])
        #expect(items == [.jsonField(name: "user", value: .object([("token", .string(CurlCommand.placeholder("token", for: "t0k"))),
                                                                   ("pin_token", .number(CurlCommand.placeholder("pin_token", for: "5"))), ("n", .int(1))]))])
    }

    /// Two passwords of one body typed whole (`--raw`, `order:='{…}'`) were
    /// one `$PASSWORD`: the command sent the first twice. One value met
    /// twice stays one variable.
    @Test func twoSecretsOfOneTypedBodyAreTwoVariables() {
        var request = PreparedRequest(method: "POST", url: URL(string: "http://h.example/pw")!)
        request.body = Array(#"{"password":"a1","new_password":"b2","old":{"password":"c3"},"again":{"password":"a1"}}"#.utf8)
        let raw = CurlCommand.render(request)
        #expect(raw.hasSuffix(#"--data-raw '{"password":"'"$PASSWORD"'","new_password":"'"$NEW_PASSWORD"'","old":{"password":"'"$PASSWORD_2"'"},"again":{"password":"'"$PASSWORD"'"}}'"#),
                "\(raw)")
        let items = CurlCommand.hidingSecrets([.jsonField(name: "order", value: .object([("password", .string("a1")), ("old", .object([("password", .string("c3"))]))]))])
        request.body = Array(JSONPrinter.compact(items.compactMap { if case let .jsonField(_, value) = $0 { value } else { nil } }[0]).utf8)
        let typed = CurlCommand.render(request)
        #expect(typed.hasSuffix(#"--data-raw '{"password":"'"$PASSWORD"'","old":{"password":"'"$PASSWORD_2"'"}}'"#), "\(typed)")
    }

    /// A supplied secret is its own variable, whatever the item is called
    /// (`X-Api-Key` was `$X_API_KEY`, not the `$TOK` the user set), and a
    /// credential header keeps its scheme (`Bearer "$TOKEN"`, not `"$AUTHORIZATION"`).
    @Test func suppliedSecretsKeepTheirNamesAndCredentialsTheirSchemes() {
        let supplied = [SuppliedSecrets.Secret(name: "tok", value: "v4lue")]
        let items = CurlCommand.hidingSecrets([.header(name: "X-Api-Key", value: "v4lue"), .header(name: "Authorization", value: "Bearer v4lue"),
                                               .stringField(name: "password", value: "v4lue"), .query(name: "api_key", value: "v4lue"),
                                               .header(name: "Authorization", value: "Token typed"), .header(name: "X-Auth-Token", value: "typed")],
                                              supplied: supplied)
        let tok = CurlCommand.placeholder("tok", for: "v4lue")
        #expect(items == [.header(name: "X-Api-Key", value: tok), .header(name: "Authorization", value: "Bearer \(tok)"),
                          .stringField(name: "password", value: tok), .query(name: "api_key", value: tok),
                          .header(name: "Authorization", value: "Token ⟦TOKEN⟧"), .header(name: "X-Auth-Token", value: "⟦X_AUTH_TOKEN⟧")])
        #expect(CurlCommand.hidingCredential(named: "Authorization", "Basic Ym9iOng=") == "Basic ⟦CREDENTIALS⟧")
        #expect(CurlCommand.hidingCredential(named: "Authorization", "opaque-token") == "⟦AUTHORIZATION⟧")
        let request = PreparedRequest(method: "GET", url: URL(string: "http://bob:%E2%9F%A6PW%E2%9F%A7@h.example/a")!)
        #expect(CurlCommand.render(request) == #"curl -u 'bob:'"$PW" 'http://h.example/a'"#)
    }

    /// Two values under one name are two variables: a staging server's Basic
    /// password and a login form's were both `$PASSWORD`, so the command sent
    /// one of them twice. The same value is one variable wherever it goes, and
    /// a name that would start with a digit (a cookie `1st`) is no positional
    /// parameter (`$1ST` is `$1`, then `ST`).
    @Test func twoValuesUnderOneNameAreTwoVariables() {
        let basic = CurlCommand.placeholder("password", for: "BasicPw2"), form = CurlCommand.placeholder("password", for: "FormPw1")
        var request = PreparedRequest(method: "POST", url: URL(string: "http://h.example/login")!)
        request.setHeader("X-Again", basic)
        request.setHeader("Cookie", "1st=" + CurlCommand.placeholder("1st", for: "c00kie-1") + "; sid=" + CurlCommand.placeholder("SID", for: "a")
                          + "; SID=" + CurlCommand.placeholder("sid", for: "b"))
        request.body = Array("password=\(form)&again=\(form)".utf8)
        let command = CurlCommand.render(request)
        #expect(command == #"curl -X POST 'http://h.example/login' -H 'X-Again: '"$PASSWORD" -H 'Cookie: 1st='"$_1ST"'; sid='"$SID"'; SID='"$SID_2" --data-raw 'password='"$PASSWORD_2"'&again='"$PASSWORD_2""#,
                "\(command)")
        #expect(!command.contains("~"))
    }

    /// Following redirects, a POST with a body goes without `-X POST` (with
    /// it curl POSTs again after a 303); a form body's placeholders, which
    /// the encoding percent-encoded, become variables all the same.
    @Test func aFollowedPostAndAFormBodyAreWhatExplorerSends() {
        let url = URL(string: "http://h.example/a")!
        let post = PreparedRequest(method: "POST", url: url, headers: [], body: Array("token=%E2%9F%A6TOKEN%E2%9F%A7&n=1".utf8))
        #expect(CurlCommand.render(post, follow: 5) == #"curl -L --max-redirs 5 'http://h.example/a' --data-raw 'token='"$TOKEN"'&n=1'"#)
        #expect(CurlCommand.render(post).hasPrefix("curl -X POST 'http://h.example/a'"))
        var put = post
        put.method = "PUT"
        #expect(CurlCommand.render(put, follow: 5).hasPrefix("curl -X PUT -L --max-redirs 5 "))
    }

    /// An empty header was written `-H 'X-E: '`, which curl reads as
    /// removing it, and a default the line removed (`Accept:`) was left out,
    /// so curl sent its own: each is written as curl reads it.
    @Test func anEmptyOrRemovedHeaderIsWrittenAsCurlReadsIt() {
        let request = PreparedRequest(method: "GET", url: URL(string: "http://h.example/p")!, headers: [HTTPHeader(name: "X-E", value: "")])
        #expect(CurlCommand.render(request, removed: ["Accept"]) == "curl 'http://h.example/p' -H 'X-E;' -H 'Accept:'")
        // A body sent without a type is sent without curl's form type; an empty Accept-Encoding is no --compressed.
        let post = PreparedRequest(method: "POST", url: URL(string: "http://h.example/p")!, headers: [HTTPHeader(name: "Accept-Encoding", value: "")],
                                   body: Array("{}".utf8))
        #expect(Interpreter.removedForCurl(post, multipart: false) == ["User-Agent", "Accept", "Content-Type"])
        #expect(CurlCommand.render(post, removed: ["Content-Type"]) == "curl -X POST 'http://h.example/p' -H 'Accept-Encoding;' -H 'Content-Type:' --data-raw '{}'")
    }

    /// `-o FILE` and `--download` were left out of `--curl`: the command
    /// printed the body to the terminal (a binary file's bytes among them).
    @Test func aSavedBodyIsCurlsOutputFile() {
        let get = PreparedRequest(method: "GET", url: URL(string: "http://h.example/report.pdf")!)
        #expect(CurlCommand.render(get, saving: .file("my report.pdf")) == "curl -o 'my report.pdf' 'http://h.example/report.pdf'")
        #expect(CurlCommand.render(get, follow: 30, saving: .remoteName) == "curl -L --max-redirs 30 -O -J 'http://h.example/report.pdf'")
    }
}
