import Testing
@testable import Core

/// Which member and header names the redactor treats as secrets, and what it
/// takes for a JWT: asked of every string in every answer shown.
struct SecretNameTests {
    @Test(arguments: [
        ("password", true), ("new_password", true), ("Password", true), ("PASSWD", true),
        ("client_secret", true), ("X-Api-Key", true), ("apikey", true), ("api_key_id", true),
        ("Authorization", true), ("cookie", true), ("Proxy-Authorization", true),
        ("access_token", true), ("refreshToken", true), ("token", true), ("accessTOKEN", true),
        ("token_type", false), ("title", false), ("tokens", true), ("passport", false), ("", false), ("ток", false),
        // Short for a password, as whole names only (`set pw=…` was shown by `vars`).
        ("pass", true), ("pw", true), ("PWD", true), ("passphrase", true), ("pwd_hint", false), ("compass", false),
        ("db_pw", true), ("user-pass", true), ("adminPwd", true), ("bypass", false), ("mypw", false),
        // A PIN under a longer name, and a JWT under its own (`set old_pin=…`, `set jwt=…` were shown by `vars`).
        ("old_pin", true), ("newPin", true), ("user-pin", true), ("spin", false), ("pinned", false), ("jwt", true), ("JWT", true),
        // About a secret, not one: their values (8, "strong", 2) were hidden, numbers as strings.
        ("password_min_length", false), ("password_policy", false), ("passwordUpdatedAt", false), ("secret_version", false),
        ("token_expires_at", false), ("password_reset_url", true),
        // Where a secret goes, in an OpenID discovery document or a service account's file: a URL, no secret.
        ("authorization_endpoint", false), ("revocation_endpoint", false), ("token_uri", false), ("authTokenEndpoint", false),
        // A session's id and a CSRF token, as frameworks name them (`set sessionid=…` showed in vars and transcripts).
        // A PIN, a one-time code, a signature, a private key, a credential under a plain name (they reached history in clear).
        ("pin", true), ("otp", true), ("X-Signature", true), ("privateKey", true), ("bearer", true), ("credentials", true), ("auth", true),
        ("pins", false), ("author", false), ("auth_method", false), ("signature", false),
        ("sessionid", true), ("X-Session-Id", true), ("session_key", true), ("connect.sid", true), ("JSESSIONID", true),
        ("csrf", true), ("csrftoken", true), ("X-CSRF", true), ("session", false), ("session_count", false), ("sid", false), ("session_id", false),
        // In the seeds' language and its neighbours' (`set 密码=…` was shown by `vars` and recorded in clear).
        ("密码", true), ("新密码", true), ("登录密码", true), ("访问令牌", true), ("密钥", true), ("验证码", true), ("口令", true),
        ("パスワード", true), ("비밀번호", true), ("用户名", false), ("任务", false),
    ])
    func secretNames(name: String, secret: Bool) {
        #expect(Redactor.isSecretName(name) == secret)
    }

    @Test(arguments: [
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln", true),
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.", true),
        ("eyJ.abc.def", false),                 // the payload is too short
        ("eyJhbGci.eyJzdWIi", false),            // two parts
        ("eyJhbGci.eyJz dWIi.c2ln", false),      // a space
        ("abc.eyJzdWIiOiIxIn0.c2ln", false),     // no JSON header
        ("Zürich", false),
    ])
    func jwtShapes(text: String, jwt: Bool) {
        #expect(Redactor.looksLikeJWT(text) == jwt)
    }

    /// A JWT inside a text (an event's `data:`, an echo's `"tok eyJ…"`) was
    /// hidden only between spaces, and in a JSON string not at all.
    /// A replay's report and the screen printed these as the server sent
    /// them; a recording wrote them in clear: JSON in a string or a line, a
    /// URL's secret parameter, the credential after `Bearer `.
    @Test func aCredentialInsideATextIsHiddenAndRecordedAsASecret() {
        let cases: [(text: String, shown: String, recorded: String)] = [
            (#"data: {"access_token":"S3CRETsse1"}"#, #"data: {"access_token":"<hidden: 10 characters>"}"#, #"data: {"access_token":"{{secret:access_token}}"}"#),
            (#"{"apiKey": "S3CRETemb"}"#, #"{"apiKey": "<hidden: 9 characters>"}"#, #"{"apiKey": "{{secret:apikey}}"}"#),
            ("https://x/cb?state=1&access_token=S3CRETurl&x=2", "https://x/cb?state=1&access_token=<hidden: 9 characters>&x=2",
             "https://x/cb?state=1&access_token={{secret:access_token}}&x=2"),
            ("/cb#id_token=S3CRETfrag", "/cb#id_token=<hidden: 10 characters>", "/cb#id_token={{secret:id_token}}"),
            // A recording leaves it to the scrubber, which knows the session's tokens by name first.
            ("Bearer S3CRETbearer", "Bearer <hidden: 12 characters>", "Bearer S3CRETbearer"),
            ("auth failed for api_key=S3CRETtb1 password=S3CRETtb2.", "auth failed for api_key=<hidden: 9 characters> password=<hidden: 10 characters>",
             "auth failed for api_key={{secret:api_key}} password={{secret:password}}"),
            // A line's end ends a Bearer credential (it took the next line, and in a recording the step's end).
            ("Bearer abcdefgh12\nid=5", "Bearer <hidden: 10 characters>\nid=5", #"Bearer abcdefgh12{{/\x{A}/}}id=5"#),
            // `\r\n` is one Character: a CRLF body's pairs ran on, and the next one stayed in clear.
            ("password=QZR01\r\nuser=bob\r\napi_key=QZR02\r\n", "password=<hidden: 5 characters>\r\nuser=bob\r\napi_key=<hidden: 5 characters>\r\n",
             #"password={{secret:password}}{{/\x{D}/}}{{/\x{A}/}}user=bob{{/\x{D}/}}{{/\x{A}/}}api_key={{secret:api_key}}{{/\x{D}/}}{{/\x{A}/}}"#),
            (#"password="a b" {api_key=QZ9x}"#, #"password="<hidden: 3 characters>" {api_key=<hidden: 4 characters>}"#,
             #"password="{{secret:password}}" {api_key={{secret:api_key}}}"#),
            ("error:password=QZ1|<p>secret=QZ2</p>", "error:password=<hidden: 3 characters>|<p>secret=<hidden: 3 characters></p>",
             "error:password={{secret:password}}|<p>secret={{secret:secret}}</p>"),
            // In prose `key=` and `sig=` are words; in a URL, secrets.
            ("set key=title and sig=abc, see /x?key=QZK", "set key=title and sig=abc, see /x?key=<hidden: 3 characters>",
             "set key=title and sig=abc, see /x?key={{secret:key}}"),
            (#"| {"embedded": "{\"refresh_token\": \"S3CRETesc\"}"}"#, #"| {"embedded": "{\"refresh_token\": \"<hidden: 9 characters>\"}"}"#,
             #"| {"embedded": "{\"refresh_token\": \"{{secret:refresh_token}}\"}"}"#),
            ("see https://x/a?page=2&q=token and Bearer of news", "see https://x/a?page=2&q=token and Bearer of news",
             "see https://x/a?page=2&q=token and Bearer of news"),
        ]
        for (text, shown, recorded) in cases {
            #expect(Redactor.hidingCredentials(inText: text) == shown, "\(text)")
            #expect(PatternText.recording(text, baseURL: nil).description == recorded, "\(text)")
        }
        var scrubber = SecretScrubber()
        scrubber.learn("S3CRETknown", name: "token")
        #expect(scrubber.scrub(#""a": "Bearer S3CRETknown", "b": "Bearer S3CRETother""#)
                == #""a": "Bearer {{secret:token}}", "b": "Bearer {{secret:authorization}}""#)
        // A step's end stays: a text body's last line ending in a Bearer credential took the blank line and the next step's.
        #expect(scrubber.scrub("| see Bearer S3CRETline\n\n> get /x\n") == "| see Bearer {{secret:authorization}}\n\n> get /x\n")
        for hidden in ["/cb?key=<hidden: 4 characters>", "Bearer <hidden: 23 characters>"] {
            #expect(Redactor.hidingCredentials(inText: hidden) == hidden, "not hidden twice")
        }
        #expect(Redactor.redact(json: .string("https://x/?token=S3CRETjson")) == .string("https://x/?token=<hidden: 10 characters>"))
    }

    @Test func aJWTInATextIsHiddenWhereverItStands() {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"
        let hidden = Redactor.hidden(jwt)
        #expect(Redactor.hidingJWTs(in: "data: my token is \(jwt) ok") == "data: my token is \(hidden) ok")
        #expect(Redactor.hidingJWTs(in: "token=\(jwt)&x=1") == "token=\(hidden)&x=1")
        #expect(Redactor.hidingJWTs(in: "\"Bearer \(jwt)\". It was \(jwt).") == "\"Bearer \(hidden)\". It was \(hidden).")
        #expect(Redactor.hidingJWTs(in: "x\(jwt)") == "x\(jwt)", "inside a longer word: not one")
        #expect(Redactor.hidingJWTs(in: "Zürich eyJ only") == "Zürich eyJ only")
        let shown = Redactor.shownRememberingKeys()
        #expect(shown("body", "tok \(jwt)") == "tok \(hidden)")
        #expect(shown("body", jwt) == hidden)
    }
}

/// A list under a secret's name is a list of secrets (`"password": ["x"]`
/// was shown and reported in clear): its strings and numbers are hidden
/// wherever the member's own would be; an object in it, or under the name,
/// is judged member by member (`"auth": {"user_id": 5}` is no secret).
@Suite struct SecretListTests {
    static let text = #"{"password": ["S3CR_A1", 4242, ["S3CR_A3"], {"note": "kept", "token": "S3CR_A4"}], "auth": {"user_id": 5}, "tags": ["t1"]}"#

    @Test func itsItemsAreHiddenOnScreen() throws {
        let value = try JSONParser.parse(Self.text)
        for shown in [JSONPrinter.compact(Redactor.redact(json: value)),
                      JSONPrinter.pretty(value, limit: .max, shown: Redactor.shownRememberingKeys()).text,
                      Redactor.hidingCredentials(inText: Self.text)] {
            for secret in ["S3CR_A1", "4242", "S3CR_A3", "S3CR_A4"] { #expect(!shown.contains(secret), "\(secret) in \(shown)") }
            for kept in ["kept", "t1", "\"user_id\"", "5"] { #expect(shown.contains(kept), "\(kept) not in \(shown)") }
        }
    }

    @Test func itsItemsArePlaceholdersAndKnownSecrets() throws {
        let value = try JSONParser.parse(Self.text)
        #expect(JSONPrinter.compact(Redactor.hidingMembers(of: value, hide: { "{{secret:\($0)}}" }))
            == #"{"password":["{{secret:password}}",{{secret:password}},["{{secret:password}}"],{"note":"kept","token":"{{secret:token}}"}],"auth":{"user_id":5},"tags":["t1"]}"#)
        #expect(Redactor.secretMembers(in: value).map { "\($0.name)=\($0.value)" }
            == ["password=S3CR_A1", "password=4242", "password=S3CR_A3", "token=S3CR_A4"])
        #expect(PatternText.secretMembers(in: Self.text).map { "\($0.key)=\(Self.text[$0.value])" }
            == ["password=S3CR_A1", "password=4242", "password=S3CR_A3", "token=S3CR_A4"], "in order, as written")
    }
}

/// `--raw 'Cookie: sid=X; csrftoken=Y'`: a cookie list's values end at
/// `;`. The recording took `X;` for the secret and wrote the line without
/// its `;`, so the replay sent one byte less.
@Test func aCookieListsValuesEndAtTheirSemicolons() {
    #expect(Redactor.secretAssignments(inText: "Cookie: sessionid=X1; csrftoken=Y2;").map { "\($0.name)=\($0.value)" }
        == ["sessionid=X1", "csrftoken=Y2"])
    #expect(Redactor.secretAssignments(inText: "user=bob&password=pw p2").map { "\($0.name)=\($0.value)" } == ["password=pw"])
}

/// A setting's line (`password: x`, `token = "x"`, `Authorization: Basic
/// x`) in a text: a recording wrote `{{secret:…}}`, while the screen, the
/// reports and a typed `--raw` line showed and kept the value.
@Test func aSecretSettingsLineIsHiddenWhereverTheRecordingHidesIt() {
    let text = "line1\npassword: S3CR_B1\r\ntoken = \"S3CR_B2\"\nAuthorization: Basic UzNDUl9CMw==\nnote: kept\n"
    #expect(Redactor.hidingCredentials(inText: text) == "line1\npassword: <hidden: 7 characters>\r\ntoken = <hidden: 9 characters>\n"
        + "Authorization: <hidden: 18 characters>\nnote: kept\n")
    #expect(Redactor.hidingCredentials(inText: #"  "password": "<hidden: 3 characters>","#) == #"  "password": "<hidden: 3 characters>","#,
            "hidden once")
    #expect(Redactor.redact(line: "post /x --raw 'password: S3CR_B4'") == "post /x --raw 'password: ***'")
    #expect(Redactor.redact(line: "post /x --raw 'Error: none'") == "post /x --raw 'Error: none'")
}

/// A text frame of a setting's line was hidden where it came back, and
/// kept in clear on its own command line (history, the recording); a
/// header dump's `Set-Cookie:` line was shown in clear in a text body.
@Test func settingAndCookieLinesAreHiddenInFramesAndTexts() {
    #expect(Redactor.redact(line: "ws send --text Authorization: Basic S3CR_F1") == "ws send --text Authorization: ***")
    #expect(Redactor.redact(line: "ws send --text password: S3CR_F2") == "ws send --text password: ***")
    #expect(Redactor.redact(line: "ws send --text hello: world") == "ws send --text hello: world")
    // The text is sent as typed, quotes and all: every byte kept but the secret's (rebuilt from its words, the quotes went).
    #expect(Redactor.redact(line: #"ws send --text "Authorization: Bearer tokABC123""#) == #"ws send --text "Authorization: ***""#)
    #expect(Redactor.redact(line: "ws send --text 'password: S3CR_F2'") == "ws send --text 'password: ***'")
    #expect(Redactor.hidingCredentials(inText: "'password: S3CR_F2'") == "'password: \(Redactor.hidden("S3CR_F2"))'")
    let dump = "HTTP/1.1 200 OK\nSet-Cookie: session=S3CR_C1; Path=/\nCookie: theme=S3CR_C2\n"
    #expect(Redactor.hidingCredentials(inText: dump) == "HTTP/1.1 200 OK\nSet-Cookie: session=\(Redactor.hidden("S3CR_C1")); Path=/\n"
        + "Cookie: theme=\(Redactor.hidden("S3CR_C2"))\n")
    // Hidden once, where the pairs' rule hid a secret-named cookie first; a placeholder is none.
    #expect(Redactor.hidingCredentials(inText: "Cookie: sessionid=S3CR_C3") == "Cookie: sessionid=\(Redactor.hidden("S3CR_C3"))")
    #expect(Redactor.hidingCredentials(inText: "Cookie: sessionid={{secret:sessionid}}") == "Cookie: sessionid={{secret:sessionid}}")
    #expect(Redactor.secretsInLines(of: "Set-Cookie: session=S3CR_C1; Path=/\npassword: S3CR_F2").map(\.value) == ["S3CR_C1", "S3CR_F2"])
}

/// A setting's or a cookie's line written without a blank after its colon
/// (`Password:x`, `authorization:Basic X`, `Cookie:a=x`, as `curl -H` and
/// many config files take them) was shown, recorded and kept in a text
/// frame's line in clear.
@Test func settingAndCookieLinesWithoutABlankAreHiddenToo() {
    #expect(Redactor.hidingCredentials(inText: "Password:S3CR_N1\nauthorization:Basic UzNDUl9OMg==\nnote:kept\n")
        == "Password:\(Redactor.hidden("S3CR_N1"))\nauthorization:\(Redactor.hidden("Basic UzNDUl9OMg=="))\nnote:kept\n")
    #expect(Redactor.hidingCredentials(inText: "Cookie:theme=S3CR_N3") == "Cookie:theme=\(Redactor.hidden("S3CR_N3"))")
    #expect(Redactor.redact(line: "ws send --text Password:S3CR_N1") == "ws send --text Password:***")
    #expect(Redactor.redact(line: "ws send --text 'Cookie:theme=S3CR_N3'") == "ws send --text 'Cookie:theme=***'")
    #expect(Redactor.redact(line: "post /x --raw token:S3CR_N4") == "post /x --raw token:***")
    #expect(Redactor.secretsInLines(of: "token:S3CR_N4\nSet-Cookie:sid=S3CR_N5; Path=/").map(\.value) == ["S3CR_N4", "S3CR_N5"])
    // Not a setting: a URL, a time, HTTPie's raw JSON item, a quoted JSON member (the JSON rule's), a placeholder.
    for kept in ["https://h/x", "token://h", "12:30:00", "password:={{p}}", "token:{{secret:token}}", "secret:"] {
        #expect(Redactor.hidingCredentials(inText: kept) == kept, "\(kept)")
        #expect(Redactor.secretsInLines(of: kept).isEmpty, "\(kept)")
    }
}

/// A path's own parameters (`/t;jsessionid=X`, `;token=X`): the line went
/// to history and recordings in clear, and `-v` showed the request line so.
@Test func aPathsSecretParametersAreHiddenWhereTheyStand() {
    #expect(Redactor.redact(line: "get /t;jsessionid=S3CRP1/items;v=2?token=S3CRP2&a=1") == "get /t;jsessionid=***/items;v=2?token=***&a=1")
    #expect(Redactor.redact(line: "get http://h/a;token=S3CRP3;x=1/b") == "get http://h/a;token=***;x=1/b")
    #expect(Redactor.hidingSecretsInTarget("/app;jsessionid=S3CRP1/t", hide: Redactor.hidden) == "/app;jsessionid=<hidden: 6 characters>/t")
    #expect(Redactor.redact(target: "/app;token=S3CRP3/b?x=1") == "/app;token=<hidden: 6 characters>/b?x=1", "-v's request line")
    #expect(Redactor.secretsInTarget("/a;phpsessid=S3CRP4?sig=S3CRP5").map { "\($0.name)=\($0.value)" } == ["phpsessid=S3CRP4", "sig=S3CRP5"])
    for kept in ["get /a;v=2/b", "get /a;token={{secret:token}}/b", "get /a;jsessionid=/b"] {
        #expect(Redactor.redact(line: kept) == kept)
    }
}

/// A socket's usual credentials in its URL (`?jwt=eyJ…`, `?ticket=`,
/// `?session_id=`, `?sid=`): `connected to`, `ws status` and `already
/// connected` showed them, and a recording wrote the ticket in clear.
@Test func aSocketURLsCredentialsAreHidden() {
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abcdefgh"
    #expect(WebSocketAddress.redacted("ws://h:1/x?jwt=\(jwt)&room=2") == "ws://h:1/x?jwt=<jwt>&room=2")
    #expect(WebSocketAddress.redacted("ws://h:1/x?ticket=Zq8xK2mP&session_id=Ab12Cd&sid=Xy98Wv&session=S1&t=5")
            == "ws://h:1/x?ticket=<ticket>&session_id=<session_id>&sid=<sid>&session=<session>&t=5")
    #expect(Redactor.redact(line: "get /x?q=\(jwt)&ticket=Zq8xK2mP") == "get /x?q=***&ticket=***")
    #expect(WebSocketAddress.redacted("ws://h:1/x?jwt=notajwtsecret") == "ws://h:1/x?jwt=<jwt>", "named jwt, whatever its shape")
    #expect(Redactor.isSecretParameter("Ticket") && !Redactor.isSecretName("ticket"), "a query's name, not a JSON member's")
}

/// A secret named in another script has a placeholder of its own: `set 密码=…` and `set 令牌=…`
/// were both `{{secret:__}}`, and a replay filled both with one value.
@Test func aSecretNamedInAnotherScriptHasAPlaceholderOfItsOwn() {
    #expect(ExpectedValue.secretName("密码") == "password")
    #expect(ExpectedValue.secretName("令牌") == "token")
    #expect(ExpectedValue.secretName("登录密码") == "u767bu5f55_password")
    #expect(ExpectedValue.secretName("パスワード") == "password")
    #expect(ExpectedValue.secretName("api_key") == "api_key", "ASCII as before")
    #expect(Redactor.redact(line: "set 令牌=tok123", hide: { "{{secret:\(ExpectedValue.secretName($0))}}" }) == "set 令牌={{secret:token}}")
}

/// `Authorization:Bearer TOKEN` typed unquoted, curl's habit (the parser refuses it): only `Bearer`
/// was hidden, and the token went to the history file in clear.
@Test func aCredentialAfterAnUnquotedSchemeIsHidden() {
    #expect(Redactor.redact(line: "get /api/tasks Authorization:Bearer ghp_R2d2C3poLuke0123") == "get /api/tasks Authorization:Bearer ***")
    #expect(Redactor.redact(line: "get /x Authorization:Token 9944b09199c62b X-A:b") == "get /x Authorization:Token *** X-A:b")
    #expect(Redactor.redact(line: "get /x Authorization: Bearer abc123") == "get /x Authorization: *** ***")
    #expect(Redactor.redact(line: "get /x X-Note:Bearer") == "get /x X-Note:Bearer", "not a credential header")
}

/// A JWT as a path's segment (`/chat/eyJ…`, a socket's credential in its
/// path): a recording hid it, `connected to`, `ws status` and history's
/// line showed it whole.
@Test func aJWTInASocketsOrRequestsPathIsHidden() {
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abcdefgh"
    #expect(WebSocketAddress.redacted("ws://h:1/chat/\(jwt)") == "ws://h:1/chat/<jwt>")
    #expect(WebSocketAddress.redacted("ws://h:1/chat/\(jwt)/room?jwt=\(jwt)") == "ws://h:1/chat/<jwt>/room?jwt=<jwt>")
    #expect(Redactor.redact(line: "get /users/\(jwt)/tasks") == "get /users/***/tasks")
    #expect(Redactor.redact(line: "ws connect ws://h/chat/\(jwt)") == "ws connect ws://h/chat/***")
    #expect(WebSocketAddress.redacted("ws://h:1/chat/eyJnotajwt") == "ws://h:1/chat/eyJnotajwt")
    #expect(Redactor.redact(target: "/users/\(jwt)?q=\(jwt)&page=2") == "/users/<hidden: 45 characters>?q=<hidden: 45 characters>&page=2",
            "as -v and --offline show a request's line")
}

/// A parameter's name percent-encoded (`?%74oken=X`) is the name the
/// server reads: the screen hid its value, history and recordings kept it.
@Test func aPercentEncodedParameterNameIsReadAsTheServerReadsIt() {
    #expect(Redactor.redact(line: "get /t?%74oken=S3CRE1&a=1") == "get /t?%74oken=***&a=1")
    #expect(Redactor.redact(line: "get /t;%74oken=S3CRE3/x") == "get /t;%74oken=***/x", "a path's parameter too")
    #expect(Redactor.secretsInTarget("/t?access%5Ftoken=S3CRE2").map { "\($0.name)=\($0.value)" } == ["access_token=S3CRE2"])
    #expect(Redactor.redact(line: "get /t?%7A=1") == "get /t?%7A=1")
}

/// A whole line typed in quotes is one word the parser refuses (an
/// unknown command); history kept its secrets, and so did an item's error.
@Test func aLineTypedInQuotesIsReadAsTheLineItHolds() throws {
    #expect(Redactor.redact(line: "'set token=S3CR_C1'") == "'set token=***'")
    #expect(Redactor.redact(line: "'post /echo X-Api-Key:S3CR_C5'") == "'post /echo X-Api-Key:***'")
    #expect(Redactor.redact(line: "'get /tasks'") == "'get /tasks'")
    #expect(throws: RequestItem.ParseError.self) { try RequestItem.parse(#"{"password": "S3CR_C4", }"#) }
    do { _ = try RequestItem.parse(#"{"password": "S3CR_C4", }"#) } catch { #expect(!error.reason.contains("S3CR_C4"), "\(error.reason)") }
}

/// A query value that is itself a URL (`next==/cb?access_token=X`, typed
/// or percent-encoded in a path) carried its token in clear on screen, in
/// history, in recordings and in `--curl`.
@Test func aTokenInAQueryValueThatIsAURLIsHidden() {
    #expect(Redactor.redact(line: "get /echo 'next==/cb?access_token=S3CRq1'") == "get /echo next==/cb?access_token=***")
    #expect(Redactor.redact(line: "get '/echo?next=%2Fcb%3Ftoken%3DS3CRq2&a=1'") == "get /echo?next=%2Fcb%3Ftoken%3D***&a=1")
    #expect(Redactor.redact(target: "/echo?next=%2Fcb%3Ftoken%3DS3CRq2&a=1") == "/echo?next=/cb?token=<hidden: 6 characters>&a=1")
    #expect(Redactor.redact(target: "/echo?next=%2Fcb%3Fpage%3D2") == "/echo?next=%2Fcb%3Fpage%3D2", "no secret: as it was")
}

/// The re-trial of the rules above: an error answer's messages under a
/// secret's name are read (Django's `"password": ["too short"]` was hidden
/// whole), a credential echoed there is not (the error line said it); a
/// typed cookie list keeps one secret per cookie; a token encoded inside
/// another URL's query is found; a base URL's password stays off disk.
@Test func theRulesReTrialFoundWanting() throws {
    let shownInError = Redactor.shownRememberingKeys(messages: true)
    #expect(shownInError("password", "This password is too short.") == "This password is too short.")
    #expect(shownInError("password", "S3cretE1xx") == Redactor.hidden("S3cretE1xx"))
    // Only a message is: a short secret (`EBPW1`), an echoed `Bearer abc` were shown.
    for secret in ["EBPW1", "Bearer abc", "Basic Ym9iOkI2NFBXMQ==", "hunter2", "tok eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"] {
        #expect(shownInError("password", secret) == Redactor.hidden(secret), "\(secret)")
        #expect(ErrorEnvelope.shown(secret, as: "token") == Redactor.hidden(secret), "\(secret)")
    }
    for message in ["required", "too_short", "can't be blank", "Ensure this field has at least 8 characters."] {
        #expect(shownInError("password", message) == message)
    }
    #expect(Redactor.shownRememberingKeys()("password", "too short") == Redactor.hidden("too short"), "a success's is hidden")
    let drf = try JSONParser.parse(#"{"password": ["This password is too short."], "token": ["S3cretE1xx"]}"#)
    let said = try #require(ErrorEnvelope.fieldMessages(drf))
    #expect(said.contains("password: This password is too short.") && !said.contains("S3cretE1xx"), "\(said)")
    #expect(Redactor.redact(line: "post /x --raw 'sessionid=S1xxx;theme=dark;token=T1xxx;'")
        == "post /x --raw sessionid=***;theme=dark;token=***;", "one word still: a `;` needs no quotes")
    #expect(Redactor.redact(line: "post /x --raw 'Cookie: sessionid=S1xxx; csrftoken=C1xxx'")
        == "post /x --raw 'Cookie: sessionid=***; csrftoken=***'")
    // Every byte but the secret's as typed: re-encoded (`%2Fcb`), the recording's replay sent another request.
    #expect(Redactor.redact(line: "get /echo next==/cb%3Ftoken%3DS3cN1") == "get /echo next==/cb%3Ftoken%3D***")
    #expect(Redactor.redact(line: "get '/x?next=/cb%3Fa%3D1%26access_token%3DS3cN3&b=2'") == "get /x?next=/cb%3Fa%3D1%26access_token%3D***&b=2")
    // Encoded twice: kept in clear on the line and in history, where the screen and the body hid it.
    #expect(Redactor.redact(line: "get /echo?next=%2Fcb%3Faccess_token%253DS3cN4x") == "get /echo?next=%2Fcb%3Faccess_token%253D***")
    #expect(Redactor.redact(line: "get /echo next==%2Fcb%3Faccess_token%253DS3cN4x") == "get /echo next==%2Fcb%3Faccess_token%253D***")
    #expect(Redactor.hidingCredentials(inText: "http://h/echo?next=%2Fcb%3Ftoken%3DS3cN2&a=1") == "http://h/echo?next=%2Fcb%3Ftoken%3D<hidden: 5 characters>&a=1")
    #expect(Redactor.redact(target: "/echo?next=%2Fcb%253Ftoken%253DS3cN1") == "/echo?next=%2Fcb%253Ftoken%253D<hidden: 5 characters>", "encoded twice")
    let recorded = PatternText.recording("http://x/a?next=%2Fcb%3Faccess_token%3DS3cW2&b=2", baseURL: nil).description
    #expect(recorded == "http://x/a?next=%2Fcb%3Faccess_token%3D{{secret:access_token}}&b=2", "\(recorded)")
    do { _ = try RequestItem.parse(#"{password:S3cR4}"#) } catch { #expect(!error.reason.contains("S3cR4"), "\(error.reason)") }
    let header = TranscriptHeader.make(profile: "generic", target: .url("http://bob:S3cBU1pw@127.0.0.1:9/api"))
    #expect(header.lines.contains("base-url: http://bob@127.0.0.1:9/api"), "\(header.lines)")
}

/// A token given as Basic's user, its password empty (Stripe's `curl -u
/// sk_test_KEY:`, GitHub's `https://TOKEN@host`), was written in clear to
/// history, recordings, a recording's header and error lines: only a
/// password counted as Basic's secret.
@Test func aTokenGivenAsTheUserIsTheSecret() {
    #expect(Redactor.redact(line: "curl -u sk_test_S3CA: http://h/v1/charges") == "curl -u '***:' http://h/v1/charges")
    #expect(Redactor.redact(line: "curl -u bob:pw12 http://h/") == "curl -u 'bob:***' http://h/")
    #expect(Redactor.redact(line: "get /x -a sk_test_S3CC:") == "get /x -a ***:")
    #expect(Redactor.redact(line: "get /x --auth=sk_test_S3CC:") == "get /x --auth=***:")
    #expect(Redactor.redact(line: "get http://ghp_S3CB@h/x") == "get http://***@h/x")
    #expect(Redactor.redact(line: "get http://ghp_S3CB:@h/x") == "get http://***:@h/x")
    // What a recording wrote is left as it is when shown again (a report showed `{{secret:{{secret:password}}@`).
    for line in ["get http://{{secret:token}}@h/x", "get /x -a {{secret:token}}:", "get http://u:{{secret:pw}}@h/x", "curl -u {{secret:token}}: http://h/"] {
        #expect(Redactor.redact(line: line) == line, "\(line)")
    }
    #expect(Redactor.secretsInTarget("http://ghp_S3CB@h/x").map(\.name) == ["token"])
    #expect(URLCheck.quoted("http://ghp_S3CB@h:99999/x") == "'http://…@h:99999/x'")
    let header = TranscriptHeader.make(profile: "generic", target: .url("http://ghp_S3CE@127.0.0.1:9/api"))
    #expect(header.lines.contains("base-url: http://127.0.0.1:9/api"), "\(header.lines)")
}

/// A pasted curl refused for a flag explorer does not read was kept in
/// history and recordings with that flag's credential in clear.
@Test func aRefusedCurlsCredentialFlagsAreHidden() {
    #expect(Redactor.redact(line: "curl --oauth2-bearer S3CRETA http://h/x") == "curl --oauth2-bearer '***' http://h/x")
    #expect(Redactor.redact(line: "curl --proxy-user u:S3CRETB http://h/x") == "curl --proxy-user 'u:***' http://h/x")
    #expect(Redactor.redact(line: "curl -U u:S3CRETB http://h/x") == "curl -U 'u:***' http://h/x")
    #expect(Redactor.redact(line: "curl --cert c.pem:S3CRETC http://h/x") == "curl --cert 'c.pem:***' http://h/x")
    #expect(Redactor.redact(line: "curl --cert c.pem http://h/x") == "curl --cert c.pem http://h/x")
    #expect(Redactor.redact(line: "curl --pass S3CRETD http://h/x") == "curl --pass '***' http://h/x")
    // Short flags bundled, the last taking the value, as curl reads them; a proxy's header.
    #expect(Redactor.redact(line: "curl -sU bob:S3CRETE http://h/x") == "curl -sU 'bob:***' http://h/x")
    #expect(Redactor.redact(line: "curl --proxy-header 'Proxy-Authorization: Basic S3CRETF' http://h/x")
            == "curl --proxy-header 'Proxy-Authorization: ***' http://h/x")
}

/// `--auth-type=bearer --auth=TOKEN` was kept as `--auth-type=bearer
/// {{secret:authorization}}`: the word after `bearer ` was taken for the
/// token, flag and all, and the recalled or replayed line was refused.
@Test func aBearerTokenGivenByFlagKeepsItsFlag() {
    for (line, kept) in [("post /echo --auth-type=bearer --auth=tok_zzzz98765 x=1", "post /echo --auth-type=bearer --auth=*** x=1"),
                         ("post /echo -A bearer --auth=tok_yyyy98765 x=1", "post /echo -A bearer --auth=*** x=1"),
                         ("post /echo -A bearer -a tok_xxxx98765", "post /echo -A bearer -a ***")] {
        #expect(Redactor.redact(line: line) == kept)
    }
}

/// A header a profile names as its credential is hidden whatever it is called.
@Suite struct ProfileSecretHeaderTests {
    @Test func aProfilesCredentialHeaderIsHiddenWhateverItsName() {
        let plain = HTTPHeader(name: "X-Shop-Sesame", value: "abc123")
        #expect(Redactor.redact(header: plain) == plain, "nothing about it says secret")
        #expect(Redactor.redact(header: plain, alsoSecret: ["x-shop-sesame"]).value == Redactor.hidden("abc123"))
        #expect(Redactor.redact(header: HTTPHeader(name: "Authorization", value: "token T0KEN"), alsoSecret: ["Authorization"]).value
            == "token " + Redactor.hidden("T0KEN"), "the scheme stays, as for any Authorization")
        #expect(Redactor.redact(header: HTTPHeader(name: "Accept", value: "*/*"), alsoSecret: ["X-Auth"]).value == "*/*")
    }

    /// A number under a secret path is hidden where a string is (`show
    /// .pin_token` printed it); what is hidden already is not hidden again
    /// (its placeholder's length was shown).
    @Test func hiddenValuesAreNumbersTooAndNeverTwice() {
        #expect(Redactor.hiding(.number("98765432")) == .string("<hidden: 8 characters>"))
        #expect(Redactor.hiding(.string("<hidden: 15 characters>")) == .string("<hidden: 15 characters>"))
        let once = JSONValue.object([("token", .string("<hidden: 15 characters>"))])
        #expect(Redactor.redact(json: once) == once)
        #expect(Redactor.shownRememberingKeys()("token", "<hidden: 15 characters>") == "<hidden: 15 characters>")
    }

    /// A nested field is judged by the key it sets: `user[pin_token]=77` was
    /// kept in history and transcripts in clear.
    @Test func aNestedFieldIsJudgedByItsKey() {
        #expect(Redactor.redact(line: "post /x user[pin_token]=77 user[name]=al items[0][password]:=12 tags[]=a")
            == #"post /x user[pin_token]=*** user[name]=al items[0][password]:=*** tags[]=a"#)
        #expect(Redactor.leaf(of: "a[token]") == "token" && Redactor.leaf(of: "token") == "token" && Redactor.leaf(of: "[]") == "[]")
        // An index after the key, and HTTPie's escapes, as the builder reads them.
        #expect(Redactor.redact(line: "post /x user[token][0]=t1 foo\\[x\\]=1") == #"post /x user[token][0]=*** 'foo\[x\]=1'"#)
    }

    /// A cookie with no name is all value (RFC 6265bis), and was shown in
    /// clear; a Set-Cookie's attributes after it are not secrets.
    @Test func aCookieWithNoNameIsHidden() {
        #expect(Redactor.redact(header: HTTPHeader(name: "Set-Cookie", value: "s3cr3t; Path=/; HttpOnly")).value
            == Redactor.hidden("s3cr3t") + "; Path=/; HttpOnly")
        #expect(Redactor.redact(header: HTTPHeader(name: "Cookie", value: "sid=abc; s3cr3t")).value
            == "sid=" + Redactor.hidden("abc") + "; " + Redactor.hidden("s3cr3t"))
        #expect(Redactor.redact(header: HTTPHeader(name: "Set-Cookie", value: "sid=; Path=/")).value == "sid=; Path=/")
    }

    /// Names real APIs give their keys were shown and recorded in clear
    /// (a helper found Azure's `api-key`, Google's `X-Goog-Api-Key` and
    /// `?key=`, `Ocp-Apim-Subscription-Key`, `X-Auth`, `Authentication`).
    @Test func theKeyNamesOfCommonAPIsAreSecrets() {
        for name in ["api-key", "X-Goog-Api-Key", "Ocp-Apim-Subscription-Key", "X-Auth", "Authentication", "X-Authorization",
                     "aws_secret_access_key", "private_key", "X-Access-Key"] {
            #expect(Redactor.isSecretName(name), "\(name)")
            #expect(Redactor.redact(header: HTTPHeader(name: name, value: "v4lue")).value == Redactor.hidden("v4lue"), "\(name)")
        }
        // A paging cursor was hidden (`show .nextPageToken` said "<hidden: 7 characters>"): it opens a page, nothing more.
        for name in ["key", "id", "file_key", "public_key", "keyword", "author", "x-author", "content-type",
                     "nextPageToken", "next_page_token", "pageToken", "continuation_token", "nextToken", "syncToken"] {
            #expect(!Redactor.isSecretName(name), "\(name)")
        }
        #expect(Redactor.isSecretName("access_token") && Redactor.isSecretName("refreshToken") && Redactor.isSecretName("token"))
        // Plurals were no secrets (`"refresh_tokens": ["…"]` shown, recorded, resent across origins); token counts are none.
        for name in ["tokens", "access_tokens", "refresh_tokens", "authTokens", "deviceTokens", "API_TOKENS"] {
            #expect(Redactor.isSecretName(name), "\(name)")
        }
        for name in ["max_tokens", "prompt_tokens", "completionTokens", "total_tokens", "input_tokens", "output_tokens",
                     "cached_tokens", "reasoning_tokens", "maxOutputTokens", "token_type", "tokens_used"] {
            #expect(!Redactor.isSecretName(name), "\(name)")
        }
        #expect(Redactor.redact(json: .object([("refresh_tokens", .array([.string("S3CRETB")])), ("max_tokens", .number("256"))]))
                == .object([("refresh_tokens", .array([.string(Redactor.hidden("S3CRETB"))])), ("max_tokens", .number("256"))]))
        #expect(Redactor.redact(target: "/maps?key=AIzaSyA&q=x&sig=S1g") == "/maps?key=\(Redactor.hidden("AIzaSyA"))&q=x&sig=\(Redactor.hidden("S1g"))")
        #expect(Redactor.redact(line: "get /x api-key:AZUREKEY1 key==QKEY5 keyword==cats") == "get /x api-key:*** key==*** keyword==cats")
        #expect(Redactor.redact(line: "get /y?key=QKEY5&page=2") == "get /y?key=***&page=2")
        // A presigned URL's signature: shown, recorded and kept in history in clear.
        #expect(Redactor.redact(target: "/b/o?X-Amz-Expires=60&X-Amz-Signature=S1gS3") == "/b/o?X-Amz-Expires=60&X-Amz-Signature=\(Redactor.hidden("S1gS3"))")
    }

    /// A JWT was hidden only as a word of its own: inside a header's value
    /// (`Sec-WebSocket-Protocol:'chat, eyJ…'`), a query or a field of any
    /// name, it was kept in the history in clear. The rest of the word stays.
    @Test func aJWTInsideAWordIsHiddenInAHistoryLine() {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.SIGSECRETXYZ"
        #expect(Redactor.redact(line: "ws connect /ws 'Sec-WebSocket-Protocol:chat, \(jwt)' X-B:\(jwt)")
                == "ws connect /ws 'Sec-WebSocket-Protocol:chat, ***' X-B:***")
        #expect(Redactor.redact(line: "get /x q==\(jwt) note='Bearer \(jwt)' n=eyJnot") == "get /x q==*** 'note=Bearer ***' n=eyJnot")
        #expect(Redactor.jwts(in: "a \(jwt), \(jwt).") == [jwt, jwt])
        // Lines other rules read first (a socket's JSON, curl, a query of another name) kept it too.
        #expect(Redactor.redact(line: #"ws send {"type":"echo","data":"\#(jwt)"}"#) == #"ws send {"type":"echo","data":"***"}"#)
        #expect(Redactor.redact(line: "ws send --text 'Bearer \(jwt)'") == "ws send --text 'Bearer ***'")
        #expect(Redactor.redact(line: "ws connect /ws/chat?token=t0k3n5ecret&x=\(jwt)") == "ws connect /ws/chat?token=***&x=***")
        #expect(Redactor.redact(line: "curl -H 'X-Y: \(jwt)' http://h/x") == "curl -H 'X-Y: ***' http://h/x")
    }

    /// Headers the redirect rule kept from another origin were shown, and
    /// recorded, in clear: a header so named is a login's, though a JSON
    /// member `session_id` is as often a workout's.
    @Test(arguments: [
        ("X-Session", true), ("Session-Id", true), ("X-Session-Token", true), ("X-Jwt", true), ("X-Bearer", true),
        ("X-Creds", true), ("X-Credential", true), ("X-Passphrase", true), ("X-Api-Key", true),
        // Words of their own the redirect rule drops them by (a re-trial found these in clear).
        ("X-Passcode", true), ("X-Authentication", true), ("X-Client-Key", true), ("X-Signing-Key", true), ("X-Sid", true),
        ("X-Tok", true), ("X-Hub-Signature", true), ("X-Cookie", true), ("X-Otp-Code", true), ("X-Pin", true),
        ("X-Shopify-Hmac-Sha256", true), ("X-Hmac", true), ("X-Mfa-Code", true), ("X-Verification-Code", true), ("X-Access-Code", true),
        ("X-Error-Code", false), ("X-Country-Code", false),
        ("Access-Control-Allow-Credentials", false), ("X-Request-Id", false), ("Accept", false), ("X-Author", false),
        ("Idempotency-Key", false), ("Sec-WebSocket-Key", false), ("X-Pins", false), ("X-Keyword", false), ("Inside", false),
    ])
    func credentialHeaderNames(name: String, secret: Bool) {
        #expect(Redactor.isSecretHeaderName(name) == secret)
        let shown = Redactor.redact(header: HTTPHeader(name: name, value: "S3cr3t"))
        #expect((shown.value == Redactor.hidden("S3cr3t")) == secret, "\(shown)")
        #expect(Redactor.redact(line: "header \(name):S3cr3t")?.contains("S3cr3t") == !secret)
        #expect(Redactor.redact(line: "get /x \(name):S3cr3t")?.contains("S3cr3t") == !secret)
    }

    /// `-h` showed an obsolete `Set-Cookie2`'s value in clear.
    @Test func anObsoleteSetCookie2IsHiddenAsSetCookieIs() {
        #expect(Redactor.redact(header: HTTPHeader(name: "Set-Cookie2", value: "sid=abc123; Version=1")).value
                == "sid=\(Redactor.hidden("abc123")); Version=1")
    }

    /// `-v` and `--offline` printed `GET /x?access_token=SECRET` in clear.
    @Test func secretQueryValuesAreHiddenInARequestLine() {
        #expect(Redactor.redact(target: "/x?access_token=abc&page=2") == "/x?access_token=\(Redactor.hidden("abc"))&page=2")
        #expect(Redactor.redact(target: "/x?key=abc", alsoSecret: ["KEY"]) == "/x?key=\(Redactor.hidden("abc"))")
        #expect(Redactor.redact(target: "/x?page=2&q=") == "/x?page=2&q=")
        #expect(Redactor.redact(target: "/x") == "/x")
    }

    @Test func errorFieldsSumUpABodyInTheProfilesWords() throws {
        let fields = ErrorFields(message: try JSONPath.parse(".error.text"), code: try JSONPath.parse(".error.kind"),
                                 details: try JSONPath.parse(".error.fields"), codes: ["AUTH": "log in again"])
        let body = try JSONParser.parse(#"{"error":{"text":"bad","kind":"INVALID","fields":["name is required","age < 0"]}}"#)
        #expect(ErrorEnvelope.fields(fields).describe(status: 422, body: body) == "422 INVALID: bad (name is required; age < 0)")
        let auth = try JSONParser.parse(#"{"error":{"text":"expired","kind":"AUTH"}}"#)
        #expect(ErrorEnvelope.fields(fields).describe(status: 401, body: auth) == "401 AUTH: log in again")
        #expect(ErrorEnvelope.fields(fields).describe(status: 500, body: try JSONParser.parse(#"{"other":1}"#)) == nil)
    }

    /// The error line under a 401 repeated the credential the body above it
    /// hid (`bad credential: Bearer X`, `token=X rejected`), in each shape
    /// an envelope reads; a message about a secret is still said.
    @Test func anErrorLineHidesTheCredentialItsMessageRepeats() throws {
        let bodies = [#"{"message": "bad credential: Bearer abcdef123456xyz"}"#, #"{"detail": "token=abcdef123456xyz rejected"}"#,
                      #"{"error": {"message": "invalid api_key=abcdef123456xyz", "code": "AUTH"}}"#,
                      #"{"detail": [{"loc": ["query", "token"], "msg": "?access_token=abcdef123456xyz expired"}]}"#]
        for text in bodies {
            let said = try #require(ErrorEnvelope.generic.describe(status: 401, body: try JSONParser.parse(text)))
            #expect(!said.contains("abcdef123456xyz") && said.hasPrefix("401"), "\(said)")
        }
        let fields = ErrorFields(message: try JSONPath.parse(".error"), details: try JSONPath.parse(".fields"))
        let body = try JSONParser.parse(#"{"error": "refused Bearer abcdef123456xyz", "fields": {"refresh_token": "abcdef123456xyz", "page": "2"}}"#)
        let said = try #require(ErrorEnvelope.fields(fields).describe(status: 401, body: body))
        #expect(!said.contains("abcdef123456xyz") && said.contains("page: 2"), "\(said)")
        #expect(ErrorEnvelope.generic.describe(status: 400, body: try JSONParser.parse(#"{"message": "password is too short"}"#))
            == "400: password is too short")
    }
}

/// A secret echoed by another JSON encoder than ours: PHP's `\/`, Python's
/// `\u00e9`. A base64 token's `/` echoed as `\/` in a text body was shown,
/// recorded and written to JUnit in clear.
@Suite struct SecretEchoFormTests {
    @Test func aSecretIsKnownAsOtherEncodersWriteIt() {
        let forms = SecretScrubber.forms(of: "S3cr3tB64+Tok/abc16==")
        #expect(forms.contains(#"S3cr3tB64+Tok\/abc16=="#))
        #expect(SecretScrubber.forms(of: "pässwört/1").contains(#"p\u00e4ssw\u00f6rt\/1"#))
        #expect(SecretScrubber.forms(of: "pässwört").contains(#"p\u00e4ssw\u00f6rt"#))
        #expect(Redactor.jsonEchoForms(of: "plain-token") == [])
    }

    @Test func hidingTextHidesTheEscapedEchoToo() {
        #expect(Redactor.hiding(["Tok/abc16=="], inText: #"invalid credentials: Bearer Tok\/abc16=="#)
                == "invalid credentials: Bearer " + Redactor.hidden(#"Tok\/abc16=="#))
    }
}

/// Escapes no form lists: upper-case hex (Jackson, .NET), `\u002f` for `/`,
/// a secret escaped whole, an HTML page's numeric references. Each was shown
/// and recorded in clear in a text body or JSON that does not parse.
@Suite struct SecretEscapeTests {
    @Test(arguments: [#"got S3cr\u00E9Tok\/x1!"#, #"got S3cr\u00e9Tok\u002fx1!"#, #"got S3cr\u00E9Tok\u002Fx1!"#,
                      #"got \u0053\u0033\u0063\u0072\u00e9\u0054\u006f\u006b\u002f\u0078\u0031!"#, "got S3cr&#xE9;Tok&#x2F;x1!",
                      "got S3cr&#233;Tok&#47;x1!"])
    func anEscapedEchoIsHidden(text: String) {
        let shown = Redactor.hiding(["S3cr\u{E9}Tok/x1"], inText: text)
        #expect(shown.hasPrefix("got <hidden: ") && shown.hasSuffix("!") && !shown.contains("Tok"), "\(shown)")
        var scrubber = SecretScrubber()
        scrubber.learn("S3cr\u{E9}Tok/x1", name: "api_key")
        #expect(scrubber.scrub(text) == "got {{secret:api_key}}!")
    }

    @Test func textWithoutEscapesOrWithOthersIsAsItWas() {
        #expect(Redactor.hiding(["S3crTok1"], inText: #"a \u00e9 and &#47; and S3crTok1"#) == #"a \u00e9 and &#47; and "# + Redactor.hidden("S3crTok1"))
        #expect(Redactor.escapedMatches(of: ["S3crTok1"], in: "plain S3crTok1").isEmpty)
        #expect(Redactor.escapedMatches(of: ["abc"], in: #"\u00zz &#; &#x; \"#).isEmpty)
        // Past 4 MiB the text is not mapped (a piped 64 MiB body took gigabytes); its plain forms still are hidden.
        let big = String(repeating: "x", count: 4 << 20) + #" S3cr\u00E9Tok"#
        #expect(Redactor.escapedMatches(of: ["S3cr\u{E9}Tok"], in: big).isEmpty)
        #expect(Redactor.escapedMatches(of: ["S3cr\u{E9}Tok"], in: String(big.suffix(20))).count == 1)
    }
}

/// Text of escapes half written, surrogates alone, combining marks and
/// emoji beside them: reading it with its escapes undone neither traps nor
/// loses a character that is not a secret's.
@Suite struct SecretEscapeRobustnessTests {
    @Test func anyTextIsReadWithoutTrapping() {
        var generator = SplitMix64(seed: 27)
        let pieces = ["\\", "u", "U", "00", "e9", "E9", "d83d", "de00", "/", "&", "#", "x", "2F", "47", ";", "a", "é", "e\u{301}", "😀", " ", "S3"]
        for _ in 0..<3000 {
            let text = (0..<Int(generator.next() % 24)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            let secret = (0..<Int(2 + generator.next() % 4)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            let hidden = Redactor.hiding([secret], inText: text)
            let matches = Redactor.escapedMatches(of: [secret], in: text)
            #expect(matches.allSatisfy { !$0.range.isEmpty })
            if matches.isEmpty, !text.contains(secret) { #expect(hidden == text || hidden.contains("<hidden")) }
        }
    }
}

/// A URL's password came back in a `Location` (`http://deploy:PW@host/`):
/// its `access_token` was hidden beside it, the password shown on screen,
/// in `capture`'s echo and in recordings. A text's too (`see https://u:PW@h`).
@Test func aURLsPasswordInAnAnswerIsHidden() {
    let location = HTTPHeader(name: "Location", value: "http://deploy:LOCPW99x@127.0.0.1:8/next?access_token=TOK1234567")
    #expect(Redactor.redact(header: location).value
        == "http://deploy:\(Redactor.hidden("LOCPW99x"))@127.0.0.1:8/next?access_token=\(Redactor.hidden("TOK1234567"))")
    #expect(Redactor.secretPieces(ofHeader: location).compactMap(\.secret) == ["password", "access_token"])
    #expect(Redactor.hidingCredentials(inText: "mirror at https://u:LOCPW99x@h.test/x and ftp://a:B2b2b2@f.test")
        == "mirror at https://u:\(Redactor.hidden("LOCPW99x"))@h.test/x and ftp://a:\(Redactor.hidden("B2b2b2"))@f.test")
    // And recorded as the screen shows it (a body's was written in clear).
    #expect(PatternText.recording("see https://u:LOCPW99x@h.test/x for details", baseURL: nil).description
        == "see https://u:{{secret:password}}@h.test/x for details")
    // A user alone, an address, a time and a placeholder are no password.
    for kept in ["ssh://git@github.com/a.git", "mail bob@example.com at 10:30", "http://u:{{secret:password}}@h/", "'http://bob:…@h:99999/x' has port"] {
        #expect(Redactor.hidingCredentials(inText: kept) == kept)
    }
}

/// An echo of the answer's own headers (httpbin's `/response-headers`) hid
/// its `Cookie` member and showed `Set-Cookie` beside it in clear.
@Test func aSetCookieMemberIsASecretsAsACookieMemberIs() throws {
    let body = try JSONParser.parse(#"{"Cookie": "sid=COOKIE77x", "Set-Cookie": "sid=SETCOOKIE88x; Path=/; HttpOnly", "Set-Cookie-Policy": "strict", "set_cookie": "c=SC3LEAKx", "setCookie": "d=SC4LEAKx"}"#)
    let shown = JSONPrinter.compact(Redactor.redact(json: body, alsoSecret: []))
    #expect(!shown.contains("COOKIE77x") && !shown.contains("SETCOOKIE88x") && shown.contains("strict"), "\(shown)")
    #expect(!shown.contains("SC3LEAKx") && !shown.contains("SC4LEAKx"), "as access_token's spellings are: \(shown)")
    // The header itself still hides its value alone, its attributes shown.
    #expect(Redactor.redact(header: HTTPHeader(name: "Set-Cookie", value: "sid=SETCOOKIE88x; Path=/")).value == "sid=\(Redactor.hidden("SETCOOKIE88x")); Path=/")
}

/// A well-known service's key is a credential whatever it is called: `set
/// i=ghp_…` and `X-Custom: sk_live_…` were shown, written and kept in clear.
@Test func aServiceKeyIsKnownByItsPrefix() {
    for key in ["ghp_abcdefghijklmnopqrstuvwxyz0123456789", "sk_live_51HaBcDeFgHiJkLmN0pQ", "xoxb-1234567890-abcdefghij", "AKIAIOSFODNN7EXAMPLE",
                "glpat-xYz12AbC34dEf56GhI78", "AIzaSyA1234567890abcdefghijklmnopqrstuv", "SG.abcdefghij0123456789AB.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"] {
        #expect(Redactor.looksLikeCredential(key), "\(key)")
        #expect(Redactor.redact(line: "set k=\(key)") == "set k=***", "\(key)")
    }
    // Words that merely start so: documentation's `sk_live_docs`, a slug, a sentence.
    for text in ["sk_live_docs", "ghp_settings_page_for_users", "AKIA is a prefix of AWS keys", "hf_transfer_enabled_flag_on",
                 "hf_fix_tokenizer_bug_123", "SG.backup.2024.archive.tar", "AKIA_scan_2024_01_01.png", "ghp_a1b2c3"] {
        #expect(!Redactor.looksLikeCredential(text), "\(text)")
    }
    #expect(Redactor.redact(header: HTTPHeader(name: "X-Custom", value: "sk_test_4eC39HqLyjWDarjtT1zdp7dc")).value == "<hidden: 32 characters>")
    // Under any name on a line, as history and recordings keep it (only `set` hid them).
    #expect(Redactor.redact(line: "get /echo X-Custom:sk_live_abcdefghijklmnop12345 note=ghp_abcdefghijklmnopqrstuvwxyz0123456789 q==AKIAIOSFODNN7EXAMPLE n:=1")
            == "get /echo X-Custom:*** note=*** q==*** n:=1")
    #expect(Redactor.redact(line: "curl http://h/x -H 'X-Custom: sk_live_abcdefghijklmnop12345'")?.contains("sk_live_abcdefghijklmnop12345") == false)
    // Inside a longer value, wherever it stands: a raw body, a note, a pair, a sentence's end.
    #expect(Redactor.redact(line: "post /echo --raw 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'") == "post /echo --raw '***'")
    #expect(Redactor.redact(line: "post /echo note='see sk_live_51Habcdefghijklmnopqrstuv here' b='k=AKIAIOSFODNN7EXAMPLE.'")
            == "post /echo note='see *** here' b='k=***.'")
    #expect(Redactor.serviceTokens(in: #"{"a":"xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx","b":"ghp_a1b2c3"}"#)
            == ["xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx"])
    // Not inside a longer word; beside a separator it may be (an S3 object's name, a prefixed word, a suffix).
    #expect(Redactor.serviceTokens(in: "xAKIAIOSFODNN7EXAMPLE") == [])
    #expect(Redactor.serviceTokens(in: "/f/AKIAIOSFODNN7EXAMPLE.json") == ["AKIAIOSFODNN7EXAMPLE"])
    #expect(Redactor.serviceTokens(in: "k=stripe_sk_live_51HxYzAbCdEfGhIjKlMnOpQr") == ["sk_live_51HxYzAbCdEfGhIjKlMnOpQr"])
    #expect(Redactor.serviceTokens(in: "ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5-old") == ["ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5"])
    #expect(Redactor.serviceTokens(in: "/p/key-sk_live_51HxYzAbCdEfGhIjKlMnOpQr-x") == ["sk_live_51HxYzAbCdEfGhIjKlMnOpQr"])
    #expect(Redactor.serviceTokens(in: "ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5x") == [], "one character more is another word")
}

/// OAuth 2's authorization code (RFC 6749 §4.1) was shown, recorded and
/// kept in history in clear: its name says nothing alone, so it is a secret
/// beside what an authorization answer or a token request holds with it.
@Test func anOAuthCodeIsASecretBesideItsFlowsOtherNames() {
    #expect(Redactor.isOAuthCode(name: "code", value: "abc123", besides: ["grant_type", "code", "redirect_uri"]))
    #expect(Redactor.isOAuthCode(name: "code", value: "SplxlOBeZQQYbYS6WxSbIA", besides: ["code", "state"]))
    // A country's, a product's, a state's: not one.
    #expect(!Redactor.isOAuthCode(name: "code", value: "US", besides: ["code", "state"]))
    #expect(!Redactor.isOAuthCode(name: "code", value: "SKU-1234567", besides: ["code", "limit"]))
    #expect(Redactor.redact(line: "post /oauth/token --form grant_type=authorization_code code=SplxlOBeZQQ client_id=app")
            == "post /oauth/token --form grant_type=authorization_code code=*** client_id=app")
    #expect(Redactor.redact(line: "get /countries code==US state==CA") == "get /countries code==US state==CA")
    #expect(Redactor.redact(target: "/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz") == "/cb?code=<hidden: 22 characters>&state=xyz")
    #expect(Redactor.redact(form: "grant_type=authorization_code&code=Splx&redirect_uri=x") == "grant_type=authorization_code&code=<hidden: 4 characters>&redirect_uri=x")
    #expect(Redactor.secretsInTarget("https://app.example/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz").map(\.name) == ["code"])
    #expect(Redactor.hidingCredentials(inLocation: "https://app.example/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz")
            == "https://app.example/cb?code=<hidden: 22 characters>&state=xyz")
}
