import Foundation
import Testing
@testable import Core

@Suite struct LineTokenizerTests {
    @Test func splitsWithQuotesAndEscapes() throws {
        let words = try LineTokenizer.split(#"post /api/tasks title="Fix my bike" note="it's" path='C:\x' a\ b c\=d"#)
        #expect(words.map(\.text) == ["post", "/api/tasks", "title=Fix my bike", "note=it's", #"path=C:\x"#, "a b", #"c\=d"#])
        #expect(words[2].start == 16)
    }

    @Test func unterminatedQuoteSaysWhere() {
        do {
            _ = try LineTokenizer.split(#"post /x title="oops"#)
            Issue.record("split")
        } catch {
            #expect(error.offset == 14)
            #expect(error.reason == "unterminated double quote")
        }
    }

    /// A recorded curl line whose body had a secret hidden was joined without
    /// its quotes (`--data-raw username=alice&password=…`): pasted into a
    /// shell, the `&` ended it. Other lines are quoted as our own reader needs.
    @Test func aCurlLineIsJoinedForAShell() throws {
        let words = ["curl", "--data-raw", "a=1&b={{secret:password}}", "http://h/x?y=1", "-H", "X-A: b"]
        #expect(LineTokenizer.join(words) == "curl --data-raw 'a=1&b={{secret:password}}' 'http://h/x?y=1' -H 'X-A: b'")
        #expect(try LineTokenizer.split(LineTokenizer.join(words)).map(\.text) == words)
        #expect(LineTokenizer.join(["post", "/x?y=1", "a=1&b=2"]) == "post /x?y=1 a=1&b=2")
    }

    /// Bash's `$'…'`, as browsers' "Copy as cURL" writes a body with a
    /// newline or a quote: its `$` was sent, its escapes were not read.
    @Test func ansiCQuotesAreReadAsBashReadsThem() throws {
        let words = try LineTokenizer.split(#"curl --data-raw $'{"a":"x\ny","b":"it\'s"}' $'\x41\101\u00e9\q' pre$'\t'"#)
        #expect(words.map(\.text) == ["curl", "--data-raw", "{\"a\":\"x\ny\",\"b\":\"it's\"}", #"AAé\q"#, "pre\t"])
        #expect(words[2].column(at: 0) == 18, "the caret stands under the body's first character")
        #expect(throws: LineTokenizer.ParseError(offset: 5, reason: "unterminated $' quote")) { try LineTokenizer.split("curl $'abc") }
        #expect(try LineTokenizer.split("price=$5 a$b").map(\.text) == ["price=$5", "a$b"], "a $ alone is kept")
    }

    @Test(arguments: [["a b", "c"], ["it's", #"q"uote"#], [#"back\slash"#, ""], ["plain"]])
    func joinRoundTrips(words: [String]) throws {
        #expect(try LineTokenizer.split(LineTokenizer.join(words)).map(\.text) == words)
    }
}

@Suite struct RedactorTests {
    /// Lines the parser refuses are kept in history (and a recording) all
    /// the same: `set a=1 client_secret=X` kept its second assignment, and
    /// `token:=X` (not JSON) its value, in clear; the error said it back.
    /// A path typed without its `/` (under the base URL, as HTTPie takes it)
    /// whose query began with a secret was read as an item `echo?api_key`:
    /// history and transcripts lost the rest of the query
    /// (`&token=…&user=bob`), and named the secret `echo_api_key`.
    @Test func aRelativePathsQueryKeepsEveryPair() {
        #expect(Redactor.redact(line: "get echo?api_key=sk_live_1&token=T0K&user=bob") == "get echo?api_key=***&token=***&user=bob")
        #expect(Redactor.redact(line: "get echo?password=PW1&user=bob", hide: { "{{secret:\($0)}}" }) == "get echo?password={{secret:password}}&user=bob")
        #expect(Redactor.redact(line: "get v2/items?a=1") == "get v2/items?a=1")
        // A transcript's line, its placeholders in place (a replay's report showed `{{secret:echo_api_key}}` and dropped the rest).
        let written = "get echo?api_key={{secret:api_key}}&token={{secret:token}}&user=bob"
        #expect(Redactor.redact(line: written, hide: { "{{secret:\($0)}}" }) == written)
        #expect(Redactor.redact(line: "post /x note?password=x") == "post /x note?password=***")
    }

    /// A bracketed query name (JSON:API's, Rails') was judged whole:
    /// `auth[access_token]==X` went to screen, history and transcripts in
    /// clear, and `user[password]==X` was named `user_password_`.
    @Test func aBracketedQueryNameIsJudgedByItsLastKey() {
        #expect(Redactor.redact(line: "get /x auth[access_token]==atval7 user[password]==pw1 page[size]==3", hide: { "{{secret:\($0)}}" })
                == "get /x auth[access_token]=={{secret:access_token}} user[password]=={{secret:password}} page[size]==3")
        #expect(Redactor.redact(line: "get /x?auth[token]=tok12345&page[size]=3", hide: { "{{secret:\($0)}}" })
                == "get /x?auth[token]={{secret:token}}&page[size]=3")
        #expect(Redactor.isSecretParameter("auth[access_token]") && Redactor.isSecretParameter("a[b][key]") && !Redactor.isSecretParameter("page[number]"))
        // Echoed percent-encoded in a URL (an answer's `"path"`): shown in clear.
        let echoed = Redactor.hidingCredentials(inText: "/echo?auth%5Baccess_token%5D=TOK5abc&user%5Bpassword%5D=PW6abc&page%5Bsize%5D=2")
        #expect(echoed == "/echo?auth%5Baccess_token%5D=<hidden: 7 characters>&user%5Bpassword%5D=<hidden: 6 characters>&page%5Bsize%5D=2", "\(echoed)")
    }

    @Test func aRefusedLinesSecretsAreHiddenToo() {
        #expect(Redactor.redact(line: "set client_id=id client_secret=S3cr3tX9") == "set client_id=id client_secret=***")
        #expect(Redactor.redact(line: "post /echo token:=S3cr3tX9 n:=1") == "post /echo token:=*** n:=1")
        #expect(Redactor.redact(line: "post /echo X-Api-Key S3cr3tX9") == "post /echo X-Api-Key S3cr3tX9", "no separator: not an item")
        #expect(Redactor.redact(line: "post /echo note:=notjson") == "post /echo note:=notjson")
        // A field whose text holds a secret pair: that value, the rest of the text kept.
        #expect(Redactor.redact(line: "post /echo note='password=QZN02 in text' foo:=bad") == "post /echo 'note=password=*** in text' foo:=bad")
        #expect(Redactor.redact(line: "post /echo note='see key=title'") == "post /echo note='see key=title'")
        do {
            _ = try RequestItem.parse("token:=S3cr3tX9")
            Issue.record("parsed")
        } catch {
            #expect(!error.reason.contains("S3cr3t") && error.reason.hasPrefix("'token:=<hidden: 8 characters>': invalid JSON"), "\(error.reason)")
        }
    }

    /// Issue 11 #18: history kept `login bob@example.com ***`, and a recalled
    /// line sent `***` as the password. It keeps the line without it, so a
    /// recalled login asks for the password.
    @Test func dropsTheLoginPassword() {
        #expect(Redactor.redact(line: "login alice@example.com alice123") == "login alice@example.com")
        #expect(Redactor.redact(line: "LOGIN alice@example.com 'pass word'") == "LOGIN alice@example.com")
        #expect(Redactor.redact(line: "login alice@example.com") == "login alice@example.com")
        // A typo of the command (refused as unknown) kept the password in history and in a recording.
        #expect(Redactor.redact(line: "lgin alice@example.com S3cretPassw0rd!") == "lgin alice@example.com")
        #expect(Redactor.redact(line: "Logn alice@example.com S3cretPassw0rd!") == "Logn alice@example.com")
        #expect(Redactor.redact(line: "aut bearer S3cretTok3n") == "aut bearer {{secret:token}}")
        #expect(Redactor.redact(line: "logout now") == "logout now")
        #expect(Redactor.redact(line: "put /x a=1") == "put /x a=1")
        // A transcript keeps every word's place: `login a b c` fails as typed, and on replay.
        #expect(Redactor.redact(words: ["login", "a@example.com", "al", "ice123"], hide: { "{{secret:\($0)}}" })
            == ["login", "a@example.com", "{{secret:password}}", "{{secret:password}}"])
    }

    /// Issue 11 #3: `set token hunter2` reached the history file in clear
    /// while `set token=hunter2` did not. Every form the parser accepts of
    /// every command that can carry a secret, and that no secret is left.
    @Test(arguments: [
        ("set token hunter2", "set token ***"),
        ("set token=hunter2", "set token=***"),
        ("set auth 'Bearer hunter2'", "set auth ***"),
        ("set header=\"token hunter2\"", "set header=***"),
        ("set api_key hunter2", "set api_key ***"),
        ("login bob@example.com hunter2", "login bob@example.com"),
        ("post /login password=hunter2", "post /login password=***"),
        ("post /login password:='\"hunter2\"'", "post /login 'password:=\"***\"'"),
        ("post /login api_key:=12345", "post /login api_key:=***"),
        ("get /x Authorization:'Bearer hunter2'", "get /x Authorization:***"),
        ("get /x X-Api-Key:hunter2", "get /x X-Api-Key:***"),
        // A captured token by reference holds no secret: kept, so each replay sends its own capture.
        ("get /me 'Authorization:Bearer {{tok}}'", "get /me 'Authorization:Bearer {{tok}}'"),
        ("get /me 'Authorization:Bearer hunter2'", "get /me Authorization:***"),
        ("get /x Cookie:sid=hunter2", "get /x Cookie:***"),
        ("get /x api_key==hunter2", "get /x api_key==***"),
        // HTTPie's -a: the password went to history in clear, the line refused or not.
        ("get /x -a bob:hunter2", "get /x -a bob:***"),
        ("get /x --auth=bob:hunter2", "get /x --auth=bob:***"),
        ("get /x -A bearer -a hunter2", "get /x -A bearer -a ***"),
        ("set pw=hunter2", "set pw=***"),
        ("set pass hunter2", "set pass ***"),
        ("get /x?api_key=hunter2&page=2", "get /x?api_key=***&page=2"),
        ("/x?access_token=hunter2", "/x?access_token=***"),
        ("get https://h.example/x?token=hunter2", "get https://h.example/x?token=***"),
        ("ws connect /ws/chat/1?token=hunter2", "ws connect /ws/chat/1?token=***"),
        ("ws connect wss://h.example/ws?token=hunter2 --retries 2", "ws connect wss://h.example/ws?token=*** --retries 2"),
        ("post /r refresh_token=hunter2 --follow", "post /r refresh_token=*** --follow"),
        ("header Authorization:'Bearer hunter2' X-Trace:1", "header Authorization:*** X-Trace:1"),
        // The user stays: a replay must log in as alice (it sent `Basic base64(PASSWORD)`).
        ("curl -u alice:hunter2 https://h.example/x", "curl -u 'alice:***' https://h.example/x"),
        ("curl --user alice:{{secret:pw}} -u bob https://h.example/x", "curl --user alice:{{secret:pw}} -u bob https://h.example/x"),
        ("curl -H 'Authorization: Bearer hunter2' -H 'Accept: */*' https://h.example/x", "curl -H 'Authorization: ***' -H 'Accept: */*' https://h.example/x"),
        ("curl https://h.example/login --data-raw '{\"email\":\"a\",\"password\":\"hunter2\"}'", "curl https://h.example/login --data-raw '{\"email\":\"a\",\"password\":\"***\"}'"),
        ("curl https://h.example/login -d 'user=a&password=hunter2'", "curl https://h.example/login -d 'user=a&password=***'"),
        ("curl -b 'sid=hunter2' 'https://h.example/x?token=hunter2'", "curl -b '***' 'https://h.example/x?token=***'"),
        // A value joined to its flag, and a form field: kept in history as typed.
        ("curl -ualice:hunter2 https://h.example/x", "curl '-ualice:***' https://h.example/x"),
        ("curl -HAuthorization:hunter2 --user=alice:hunter2 https://h.example/x", "curl '-HAuthorization: ***' '--user=alice:***' https://h.example/x"),
        ("curl -F password=hunter2 -F name=x --form-string 'token=hunter2' https://h.example/x",
         "curl -F 'password=***' -F name=x --form-string 'token=***' https://h.example/x"),
        ("get /x -aalice:hunter2", "get /x -aalice:***"),
        // A secret header's value typed after a space (the line is refused; history kept it all the same).
        ("header Authorization: Bearer hunter2", "header Authorization: *** ***"),
        ("get /x X-Api-Key: hunter2 page==2", "get /x X-Api-Key: *** page==2"),
        // A path or URL with its credentials in it, set as a variable.
        ("set u=/echo?token=hunter2&x=1", "set u=/echo?token=***&x=1"),
        ("set w=http://bob:hunter2@h.example/x", "set w=http://bob:***@h.example/x"),
        // A value the screen hides part of (a cookie, a header, a parameter): vars showed `sessionid=<hidden…>`
        // while history and a recording kept it in clear.
        ("set mycookie=sessionid=plainvarcookie99", "set mycookie=***"),
        // A scheme and a captured token hold no value (graphql-transport-ws's connection_init): written as typed, a
        // replay sends its own capture; hidden, it asked for EXPLORER_SECRET_AUTHORIZATION and sent a stale token.
        (#"post /graphql authorization="Bearer {{tok}}""#, #"post /graphql authorization="Bearer {{tok}}""#),
        (#"ws send type=connection_init payload[authorization]="Bearer {{tok}}""#, #"ws send type=connection_init payload[authorization]="Bearer {{tok}}""#),
        (#"ws send {"type":"connection_init","payload":{"authorization":"Bearer {{tok}}"}}"#,
         #"ws send {"type":"connection_init","payload":{"authorization":"Bearer {{tok}}"}}"#),
        (#"post /graphql authorization="Bearer {{tok}} x""#, #"post /graphql authorization=***"#),
        ("set h 'Authorization: Bearer opaque-hunter2'", "set h ***"),
        ("set q=user=bob&password=hunter2", "set q=***"),
        ("set note=hello=world", "set note=hello=world"),
        // A reference holds no value: kept, so a replay sends its own capture (it asked for EXPLORER_SECRET_H).
        (#"set h="Authorization: Bearer {{tok}}""#, #"set h="Authorization: Bearer {{tok}}""#),
        (#"set c="sessionid={{tok}}""#, #"set c="sessionid={{tok}}""#),
        // A URL's password, and the secrets of an inline body.
        ("get http://alice:hunter2@h.example/x", "get http://alice:***@h.example/x"),
        ("curl http://alice:hunter2@h.example:8080/x?q=1", "curl 'http://alice:***@h.example:8080/x?q=1'"),
        // A copy in the path (httpbin's /basic-auth/USER/PASSWORD) went to history in clear; the transcript hid it.
        ("get http://admin:s3cret-pw@h.example/basic-auth/admin/s3cret-pw", "get http://admin:***@h.example/basic-auth/admin/***"),
        ("post /login --raw '{\"email\":\"a\",\"password\":\"hunter2\"}'", "post /login --raw '{\"email\":\"a\",\"password\":\"***\"}'"),
        ("post /login --raw 'user=a&password=hunter2'", "post /login --raw user=a&password=***"),
        // JSON typed where an item goes (a line the parser refuses): history kept its password.
        (#"post /echo "{\"password\": \"S3cr3tH_3f\"}""#, #"post /echo "{\"password\": \"***\"}""#),
        (#"ws send {"note": "Bearer opaqueS3cr3tH"}"#, #"ws send {"note": "Bearer ***"}"#),
        (#"post /echo {"password":"S3cr3tHG"}"#, #"post /echo {"password":"***"}"#),
        ("post /login --raw=password=hunter2", "post /login --raw=password=***"),
        ("ws send --text my token is eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.SIGSECRETXYZ", "ws send --text my token is ***"),
        // A socket's JSON, whose quotes the word split dropped: they went to history as typed.
        (#"ws send {"type":"login","password":"hunter2","n":1}"#, #"ws send {"type":"login","password":"***","n":1}"#),
        (#"WS  send [{"access_token":"hunter2"}]"#, #"WS  send [{"access_token":"***"}]"#),
        // JSON sent as a text frame: it went to history with its password.
        (#"ws send --text {"password":"hunter2"}"#, #"ws send --text {"password":"***"}"#),
        ("ws send --text user=bob&password=hunter2&x=1", "ws send --text user=bob&password=***&x=1"),
        ("ws send --text my password=hunter2 now", "ws send --text my password=*** now"),
        (#"ws send {"to":{{peer}},"password":"hunter2","n":[{{a}},{{b}}],"s":"{{c}}"}"#,
         #"ws send {"to":{{peer}},"password":"***","n":[{{a}},{{b}}],"s":"{{c}}"}"#),
        // `auth` keeps its secret as a placeholder: recalled, the prompt asks for it.
        ("auth bearer hunter2", "auth bearer {{secret:token}}"),
        ("auth basic alice:hunter2", "auth basic alice:{{secret:password}}"),
        ("auth header X-Api-Key hunter2", "auth header X-Api-Key {{secret:x_api_key}}"),
        ("auth header X-Trace hunter2", "auth header X-Trace {{secret:x_trace}}"),
        ("auth bearer hunter2 extra", "auth bearer {{secret:secret}} {{secret:secret}}"),
        ("auth basic hunter2", "auth basic {{secret:password}}"),
        // A placeholder holds no value: kept, so that a recalled line asks for it again (`***` was sent).
        ("post /x password={{secret:password}}", "post /x password={{secret:password}}"),
        ("post /x 'password:=\"{{secret:password}}\"'", "post /x 'password:=\"{{secret:password}}\"'"),
        ("set token={{secret:token}}", "set token={{secret:token}}"),
        // An object typed whole, and a number in a raw body (bare, as the number stood).
        // Kept as typed, the value alone hidden.
        ("post /x data:='{\"password\":\"SECRET30\",\"n\":1}'", "post /x data:='{\"password\":\"***\",\"n\":1}'"),
        ("post /x --raw '{\"pin_token\":12}'", "post /x --raw '{\"pin_token\":***}'"),
        // true, false and null hold no secret, whatever the name.
        ("post /x has_password:=true password:=null", "post /x has_password:=true password:=null"),
    ])
    func everyFormOfASecretIsHiddenInHistory(line: String, kept: String) {
        let stored = Redactor.redact(line: line)
        #expect(stored == kept)
        #expect(stored?.contains("hunter2") != true)
    }

    /// Bare `{{NAME}}`s in a socket's JSON stand in as numbers for the
    /// parse and come back as typed, however many (the 1st and the 17th
    /// stand-ins share a start).
    @Test func referencesInASocketsJSONComeBackAsTyped() {
        let references = (0..<20).map { "{{v\($0)}}" }.joined(separator: ",")
        let line = #"ws send {"password":"hunter2","n":["# + references + "]}"
        #expect(Redactor.redact(line: line) == #"ws send {"password":"***","n":["# + references + "]}")
        // Not JSON even so: all of it hidden when it may hold a secret, else kept.
        #expect(Redactor.redact(line: #"ws send {"password": hunter2"#) == "ws send ***")
        #expect(Redactor.redact(line: #"ws send {"type": ping"#) == #"ws send {"type": ping"#)
    }

    @Test func anAuthLinesPlaceholderIsKeptAsTyped() {
        #expect(Redactor.redact(line: "auth bearer {{secret:staging_token}}") == "auth bearer {{secret:staging_token}}")
        #expect(Redactor.redact(line: "auth basic bob:{{secret:password}}") == "auth basic bob:{{secret:password}}")
        #expect(Redactor.redact(words: ["auth", "bearer", "hunter2"], hide: { "{{secret:\($0)}}" }) == ["auth", "bearer", "{{secret:token}}"])
        #expect(Redactor.redact(line: "auth none") == "auth none")
    }

    @Test func variablesStandingForSecretsAreKeptAsTyped() {
        #expect(Redactor.redact(line: "set token={{fresh}}") == "set token={{fresh}}")
        #expect(Redactor.redact(line: "get /x?token={{t}}") == "get /x?token={{t}}")
        #expect(Redactor.redact(line: "set city Leeds") == "set city Leeds")
    }

    @Test func hidesSecretItemsAndVariables() {
        #expect(Redactor.redact(line: "post /api/secure-auth/login email=a password=hunter2") == "post /api/secure-auth/login email=a password=***")
        #expect(Redactor.redact(line: "get /x Authorization:'Bearer abc'") == "get /x Authorization:***")
        #expect(Redactor.redact(line: "post /r refresh_token=xyz") == "post /r refresh_token=***")
        #expect(Redactor.redact(line: "set api_key=123") == "set api_key=***")
        #expect(Redactor.redact(line: "get /api/tasks page==2") == "get /api/tasks page==2")
    }

    @Test func dropsUnsplittableLinesThatMentionSecrets() {
        #expect(Redactor.redact(line: "login a 'unterminated") == nil)
        #expect(Redactor.redact(line: "get /x 'unterminated") == "get /x 'unterminated")
    }

    @Test func hidesTokensInJSON() throws {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"
        let body = try JSONParser.parse(#"{"access_token":"abc","token_type":"bearer","user":{"password":"p"},"list":["\#(jwt)"]}"#)
        let redacted = Redactor.redact(json: body)
        #expect(redacted["access_token"] == .string("<hidden: 3 characters>"))
        #expect(redacted["token_type"] == .string("bearer"))
        #expect(redacted["user"]?["password"] == .string("<hidden: 1 character>"))
        #expect(redacted["list"]?[0] == .string("<hidden: \(jwt.count) characters>"))
        #expect(!JSONPrinter.compact(redacted).contains("abc"))
        // A numeric secret is one too (`api_key:=12345` was shown).
        let numbers = Redactor.redact(json: try JSONParser.parse(#"{"api_key": 12345, "id": 7}"#))
        #expect(numbers["api_key"] == .string("<hidden: 5 characters>") && numbers["id"] == .number("7"))
    }
}

@Suite struct ErrorEnvelopeTests {
    @Test func linkuEnvelopeIsOneLine() throws {
        let body = try JSONParser.parse(#"{"error":true,"message":"not your task","error_code":"FORBIDDEN","status_code":403}"#)
        #expect(Profile.linku.errorEnvelope.describe(status: 403, body: body) == "403 FORBIDDEN: not your task")
    }

    @Test func detailsAreListed() throws {
        let body = try JSONParser.parse(#"{"error":true,"message":"invalid","error_code":"VALIDATION_ERROR","status_code":422,"details":{"title":"required"}}"#)
        #expect(Profile.linku.errorEnvelope.describe(status: 422, body: body) == "422 VALIDATION_ERROR: invalid (title: required)")
    }

    @Test func otherBodiesAreNotEnvelopes() throws {
        #expect(Profile.linku.errorEnvelope.describe(status: 500, body: try JSONParser.parse(#"{"ok":false}"#)) == nil)
        #expect(Profile.linku.errorEnvelope.describe(status: 500, body: nil) == nil)
    }
}

@Suite struct ProfileTests {
    @Test func publicEndpointsMatchExactly() {
        let linku = Profile.linku
        #expect(linku.isPublic(method: "POST", path: "/api/secure-auth/login"))
        #expect(linku.isPublic(method: "GET", path: "/api/banners"))
        #expect(linku.isPublic(method: "GET", path: "/api/forum/posts?page=2"))
        #expect(linku.isPublic(method: "HEAD", path: "/api/forum/posts"))
        // 001's `endpoint.contains(public)` would make these public too.
        #expect(!linku.isPublic(method: "GET", path: "/api/forum/posts/7/replies"))
        #expect(!linku.isPublic(method: "GET", path: "/api/tasks"))
        #expect(!linku.isPublic(method: "POST", path: "/api/secure-auth/refresh"))
    }

    /// Issue 11 #11: `GET /api/forum/posts` is public, so `POST` to the same
    /// path went out without the token and got 401.
    @Test func theMethodDecidesWhetherAPathIsPublic() {
        let linku = Profile.linku
        #expect(linku.isPublic(method: "get", path: "/api/forum/posts"))
        #expect(!linku.isPublic(method: "POST", path: "/api/forum/posts"))
        #expect(!linku.isPublic(method: "DELETE", path: "/api/banners"))
    }

    @Test func catalogHoldsBothSeedsEndpoints() {
        let paths = Set(Profile.linku.endpoints.map { "\($0.method) \($0.path)" })
        // Appendix 1 of seed 000 (26 HTTP rows) and seed 001's APIEndpoints.
        for expected in ["POST /api/secure-auth/login", "POST /api/users/register", "GET /api/tasks/{id}", "POST /api/tasks/{id}/accept",
                         "POST /api/tasks/{id}/apply", "GET /api/users/conversations", "PUT /api/users/messages/{id}/read",
                         "POST /api/upload/image", "GET /api/flea-market/favorites/items", "GET /api/activities/{id}/favorite/status"] {
            #expect(paths.contains(expected), "\(expected)")
        }
    }
}

@Suite struct FileTokenStoreTests {
    /// `HOME=` (empty) put tokens.json and the history under the working
    /// directory, wherever explorer happened to run.
    @Test func anEmptyOrRelativeHomeIsNotTheWorkingDirectory() {
        let here = FileManager.default.currentDirectoryPath
        for home in ["", "relative/home"] {
            let folder = XDG.configHome(["HOME": home]).path
            #expect(folder.hasSuffix("/.config") && !folder.hasPrefix(here + "/"), "\(folder)")
            #expect(!XDG.stateHome(["HOME": home]).path.hasPrefix(here + "/"))
        }
        #expect(XDG.configHome(["HOME": "/home/ada"]).path == "/home/ada/.config")
    }

    @Test func savesWithMode0600AndReadsBack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-tokens-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("explorer/tokens.json")
        let store = FileTokenStore(url: url)
        let tokens = Tokens(accessToken: "a", refreshToken: "r", userJSON: #"{"username":"alice"}"#)
        try store.save(key: "linku http://x", tokens: tokens)
        #expect(FileTokenStore(url: url).load(key: "linku http://x") == tokens)
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let dirMode = try FileManager.default.attributesOfItem(atPath: url.deletingLastPathComponent().path)[.posixPermissions] as? Int
        #expect(dirMode == 0o700)
        try store.save(key: "linku http://x", owner: "alice", tokens: nil)
        #expect(store.load(key: "linku http://x") == nil)
    }

    /// Two sessions logged in as different users against one backend: each
    /// keeps its own login (a refresh saved one user's tokens over the
    /// other's), the last saved is what a new session starts with, and a
    /// logout forgets only its own.
    @Test func twoUsersOfOneBackendKeepTheirOwnLogins() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-tokens-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("tokens.json")
        let (a, b) = (FileTokenStore(url: url), FileTokenStore(url: url))
        let alice = Tokens(accessToken: "a1", refreshToken: "ra", userJSON: #"{"email":"alice@example.com"}"#)
        let bob = Tokens(accessToken: "b1", refreshToken: "rb", userJSON: #"{"email":"bob@example.com"}"#)
        try a.save(key: "k", tokens: alice)
        try b.save(key: "k", tokens: bob)
        #expect(FileTokenStore(url: url).load(key: "k") == bob, "the last login")
        var refreshed = alice
        refreshed.accessToken = "a2"
        try a.save(key: "k", tokens: refreshed)
        #expect(FileTokenStore(url: url).load(key: "k") == refreshed)
        try a.save(key: "k", owner: "alice@example.com", tokens: nil)
        #expect(FileTokenStore(url: url).load(key: "k") == nil, "alice logged out; bob's login is not hers to resume")
        try b.save(key: "k", tokens: bob)
        #expect(FileTokenStore(url: url).load(key: "k") == bob, "bob's login was kept")
    }

    /// A version 1 file (one login per backend) still logs the user in.
    @Test func aVersionOneFileIsRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-tokens-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("tokens.json")
        try #"{"version": 1, "sessions": {"k": {"accessToken": "a", "refreshToken": "r", "userJSON": "{\"email\":\"x@y\"}"}}}"#
            .write(to: url, atomically: true, encoding: .utf8)
        #expect(FileTokenStore(url: url).load(key: "k")?.accessToken == "a")
        #expect(FileTokenStore(url: url).load(key: "k")?.owner == "x@y")
    }

    /// Issue 11 #5: a token folder made before (or by hand, 0755) stayed open to others.
    @Test func anExistingOpenFolderIsClosedToOthers() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-tokens-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("explorer")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try FileTokenStore(url: folder.appendingPathComponent("tokens.json")).save(key: "k", tokens: Tokens(accessToken: "a", refreshToken: nil, userJSON: nil))
        #expect(try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int == 0o700)
    }

    @Test func defaultPathFollowsXDG() {
        #expect(FileTokenStore.defaultURL(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/u"]).path == "/cfg/explorer/tokens.json")
        #expect(FileTokenStore.defaultURL(environment: ["HOME": "/home/u"]).path == "/home/u/.config/explorer/tokens.json")
        #expect(FileTokenStore.defaultURL(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/u"]).path == "/home/u/.config/explorer/tokens.json")
    }
}

/// A backend without a profile: its error body said in one line, whatever framework made it.
@Suite struct GenericErrorEnvelopeTests {
    @Test(arguments: [
        (#"{"type":"about:blank","title":"Not Found","detail":"no task 7","status":404}"#, "404: Not Found: no task 7"),
        (#"{"detail":"Not authenticated"}"#, "404: Not authenticated"),
        (#"{"message":"Validation failed","errors":[]}"#, "404: Validation failed"),
        (#"{"error":"invalid_grant"}"#, "404: invalid_grant"),
        // OAuth 2's description was dropped: the only words of an RFC 6749 error.
        (#"{"error":"invalid_grant","error_description":"bad username or password"}"#, "404 invalid_grant: bad username or password"),
        (#"{"error":{"code":7,"message":"quota exceeded"}}"#, "404: quota exceeded"),
        (#"{"errors":[{"message":"field x is required"}]}"#, "404: field x is required"),
        // A code in words is said, as a profile's envelope says it; a number or a sentence is not a code.
        (#"{"code":"TOKEN_EXPIRED","message":"access token expired"}"#, "404 TOKEN_EXPIRED: access token expired"),
        (#"{"error":{"code":"NOT_FOUND","message":"no task 7"}}"#, "404 NOT_FOUND: no task 7"),
        (#"{"error_code":"E42","error":"boom"}"#, "404 E42: boom"),
        (#"{"code":"404","message":"gone"}"#, "404: gone"),
        (#"{"code":"bad thing","message":"gone"}"#, "404: gone"),
        // FastAPI's validation errors: each field's place and message (it was "422 Unprocessable Entity").
        (#"{"detail":[{"type":"missing","loc":["body","quantity"],"msg":"Field required","input":{}}]}"#, "404: body.quantity: Field required"),
        (#"{"detail":[{"loc":["body","a"],"msg":"x"},{"loc":["query",0],"msg":"y"},{"msg":"z"},{"loc":["b"],"msg":"w"},{"loc":["c"],"msg":"v"}]}"#,
         "404: body.a: x; query.0: y; z (and 2 more)"),
        // Django REST framework's: each field's first message.
        (#"{"email":["Enter a valid email address."],"non_field_errors":["Unable to log in."]}"#, "404: email: Enter a valid email address.; Unable to log in."),
        // Each message, nested fields by their place (only the first was said, and a nested one not at all).
        (#"{"password":["This password is too short.","This password is too common."]}"#,
         "404: password: This password is too short.; password: This password is too common."),
        (#"{"address":{"zip":["Enter a valid zip."]}}"#, "404: address.zip: Enter a valid zip."),
        // simplejwt's code beside `detail`, as beside `message`.
        (#"{"detail":"Given token not valid for any token type","code":"token_not_valid","messages":[{"message":"Token is invalid"}]}"#,
         "404 token_not_valid: Given token not valid for any token type"),
        // Rails' `errors`, a list or fields' messages (it was the bare status, or `errors: …` as if a field).
        (#"{"errors":{"title":["can't be blank"],"body":["is too short (minimum is 10 characters)"]}}"#,
         "404: title: can't be blank; body: is too short (minimum is 10 characters)"),
        (#"{"errors":["Title can't be blank","Body is too short"]}"#, "404: Title can't be blank; Body is too short"),
        // JSON:API's: each error's detail and where it points.
        (#"{"errors":[{"status":"422","source":{"pointer":"/data/attributes/title"},"detail":"Title must contain at least three characters."}]}"#,
         "404: /data/attributes/title: Title must contain at least three characters."),
        (#"{"errors":[{"title":"Not Found","detail":"Article 7 does not exist"}]}"#, "404: Article 7 does not exist"),
        // Problem details with their `errors` (ASP.NET's fields, RFC 9457's pointers), a sentence's stop kept single.
        (#"{"title":"One or more validation errors occurred.","status":400,"errors":{"Email":["The Email field is required."]}}"#,
         "404: One or more validation errors occurred. Email: The Email field is required."),
        (##"{"title":"Your request is not valid.","detail":"The request body failed validation.","errors":[{"detail":"must be a positive integer","pointer":"#/age"}]}"##,
         "404: Your request is not valid. The request body failed validation. #/age: must be a positive integer"),
        // NestJS's list of messages (it said its generic "Bad Request").
        (#"{"statusCode":400,"message":["email must be an email","name should not be empty"],"error":"Bad Request"}"#,
         "404: email must be an email; name should not be empty"),
        (#"{"timestamp":"2026-11-28T10:00:00Z","status":500,"error":"Internal Server Error","message":"boom","path":"/x"}"#, "404: boom"),
        // A title that is its detail again, said once; Rails' one message a field as a string.
        (#"{"title":"Validation failed","detail":"Validation failed","errors":{"Name":["required"]}}"#, "404: Validation failed: Name: required"),
        (#"{"errors":{"email":"is invalid"}}"#, "404: email: is invalid"),
        // JSON:API's one error's code in words, and RFC 9457's `invalid-params` (both left out of the line).
        (#"{"errors":[{"status":"409","code":"TYPE_CONFLICT","detail":"data.type must be articles"}]}"#, "404 TYPE_CONFLICT: data.type must be articles"),
        (#"{"title":"Your request is not valid.","invalid-params":[{"name":"age","reason":"must be a positive integer"}]}"#,
         "404: Your request is not valid. age: must be a positive integer"),
    ])
    func commonShapes(body: String, line: String) throws {
        #expect(ErrorEnvelope.generic.describe(status: 404, body: try JSONParser.parse(body)) == line)
    }

    /// A profile's envelope that does not fit the body (a framework's own 422)
    /// falls back on the common shapes: it said only the status.
    @Test func aProfilesEnvelopeFallsBackOnTheCommonShapes() throws {
        let envelope = ErrorEnvelope.fields(ErrorFields(message: try JSONPath.parse(".error.message")))
        #expect(envelope.describe(status: 422, body: try JSONParser.parse(#"{"detail":[{"loc":["body","name"],"msg":"Field required"}]}"#))
            == "422: body.name: Field required")
        #expect(envelope.describe(status: 404, body: try JSONParser.parse(#"{"error":{"message":"no item 3"}}"#)) == "404: no item 3")
        // `message: .detail` pointing at FastAPI's list: said as problems, not dumped as JSON.
        let detail = ErrorEnvelope.fields(ErrorFields(message: try JSONPath.parse(".detail")))
        #expect(detail.describe(status: 422, body: try JSONParser.parse(#"{"detail":[{"loc":["body","q"],"msg":"Field required"}]}"#)) == "422: body.q: Field required")
    }

    /// google.rpc.Status (grpc-gateway): its field violations were dropped, and its code said as a bare number
    /// with a profile, its details as JSON.
    @Test func aGoogleStatusSaysItsCodesNameAndItsViolations() throws {
        let body = try JSONParser.parse(#"""
            {"code": 3, "message": "invalid project", "details": [
              {"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [
                {"field": "project.display_name", "description": "must not be empty"}, {"field": "project.timeout", "description": "invalid Duration"}]},
              {"@type": "type.googleapis.com/google.rpc.RequestInfo", "requestId": "r-1"}]}
            """#)
        #expect(ErrorEnvelope.generic.describe(status: 400, body: body)
                == "400 INVALID_ARGUMENT: invalid project (project.display_name: must not be empty; project.timeout: invalid Duration)")
        #expect(ErrorEnvelope.generic.describe(status: 401, body: try JSONParser.parse(#"{"code": 16, "message": "bad token", "details": []}"#))
                == "401 UNAUTHENTICATED: bad token")
        // As Google's REST APIs send it, wrapped, with the code's name beside the HTTP status.
        let wrapped = try JSONParser.parse(#"{"error": {"code": 400, "status": "INVALID_ARGUMENT", "message": "bad", "details": [{"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [{"field": "a", "description": "b"}]}]}}"#)
        #expect(ErrorEnvelope.generic.describe(status: 400, body: wrapped) == "400 INVALID_ARGUMENT: bad (a: b)")
        let profile = ErrorEnvelope.fields(ErrorFields(message: try JSONPath.parse(".message"), code: try JSONPath.parse(".code"),
                                                       details: try JSONPath.parse(".details")))
        #expect(profile.describe(status: 400, body: body) == "400 3: invalid project (project.display_name: must not be empty; project.timeout: invalid Duration)")
    }

    @Test func otherBodiesAreNotEnvelopes() throws {
        #expect(ErrorEnvelope.generic.describe(status: 500, body: try JSONParser.parse(#"{"ok":false}"#)) == nil)
        #expect(ErrorEnvelope.generic.describe(status: 500, body: try JSONParser.parse("[1]")) == nil)
    }
}

/// A close frame's code is said with its reason, or with what RFC 6455 says it means.
@Suite struct CloseCodeTests {
    @Test func aCodeIsSaidWithItsReasonOrItsMeaning() {
        #expect(CloseCode.describe(4003, reason: "token expired") == "4003: token expired")
        #expect(CloseCode.describe(1011, reason: nil) == "1011, internal server error")
        #expect(CloseCode.describe(1002, reason: "") == "1002, protocol error: a frame broke RFC 6455")
        #expect(CloseCode.describe(4999, reason: nil) == "4999")
        #expect(CloseCode.mayBeOurs(1002) && CloseCode.mayBeOurs(1007) && !CloseCode.mayBeOurs(1011))
    }
}

@Suite struct BlankTrimmingTests {
    /// `trimmingBlanks()` is the hot path's stand-in for Foundation's
    /// `trimmingCharacters(in: .whitespaces)`: it gives the same text, a
    /// space before a combining mark and the zero-width space included.
    @Test func trimsWhatFoundationTrims() {
        let pieces = ["", " ", "\t", "\u{00A0}", "\u{3000}", "\u{2003}", "\n", "\r\n", "a", "Bearer", "é", "e\u{301}", "🙂", "x y", "\u{200B}", "\u{301}", "\u{FEFF}", "\u{85}", "\u{0B}", "\u{2028}", "\u{2029}", "\r"]
        var checked = 0
        for a in pieces { for b in pieces { for c in pieces {
            let text = a + b + c
            #expect(text.trimmingBlanks() == text.trimmingCharacters(in: .whitespaces), "\(Array(text.unicodeScalars))")
            #expect(text[...].trimmingBlanks() == text.trimmingCharacters(in: .whitespaces))
            #expect(text.trimmingBlanksAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(Array(text.unicodeScalars))")
            checked += 1
        } } }
        #expect(checked == pieces.count * pieces.count * pieces.count)
    }

    /// `includes(_:)`, a carried token's search in each string shown, finds
    /// what Foundation's `contains` finds, in text of any script.
    @Test func includesFindsATokenWhereFoundationDoes() {
        let texts = ["", "tok", "a tok3n b", "tok3n", "xtok3", "é tok3n🙂", "токен tok3n", "tok3", "TOK3N", "tok3ntok3n"]
        for text in texts {
            for needle in ["tok3n", "🙂", "токен", "", "é"] {
                #expect(text.includes(needle) == (needle.isEmpty || text.contains(needle)), "\(text) \(needle)")
            }
        }
    }

    /// `includes(ascii:)` finds what Foundation's `contains` finds.
    @Test func findsWhatFoundationFinds() {
        let texts = ["", "{", "{{", "a{{b", "{ {", "é{{secret:x}}", "{{secre", "🙂{{", "x}}{{", "{{secret:", "{{{secret:",
                     "{{secret{{secret:", "get /a {{secre", "}", "x}", "a}}", "}{}"]
        for text in texts {
            #expect(text.includes(ascii: "{{") == text.contains("{{"), "\(text)")
            #expect(text.includes(ascii: "{{secret:") == text.contains("{{secret:"), "\(text)")
            #expect(text[...].includes(ascii: "}}") == text.contains("}}"), "\(text)")
            // A piece of a longer text: only its own bytes are searched.
            let inner = text.dropFirst().dropLast()
            #expect(inner.includes(ascii: "{{") == String(inner).contains("{{"), "\(inner)")
            #expect(inner.includes(ascii: "}}") == String(inner).contains("}}"), "\(inner)")
        }
    }
}

@Suite struct PathTextTests {
    @Test(arguments: [("a", ""), ("é", ""), ("x/", ""), ("a//", ""), ("ab", ""), ("a/b", "a"), ("a/b/", "a"), ("ab/c/", "ab"),
                      ("dir/a", "dir"), ("./a", "."), ("/a", "/"), ("/", "/"), ("//a", "/"), ("/x/", "/"), ("", ""),
                      ("a//b", "a"), ("../up/f.json", "../up")])
    func theFolderOfAPathIsWhatFoundationMeansByIt(path: String, folder: String) {
        #expect(PathText.folder(of: path) == folder, "\(path)")
    }
}
