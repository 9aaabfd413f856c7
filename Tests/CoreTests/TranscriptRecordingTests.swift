import Testing
@testable import Core

/// What the recorder writes, what it hides, and how re-blessing merges.
@Suite struct TranscriptRecordingTests {
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"
    static let base = "http://127.0.0.1:4040"

    static var login: Observation {
        let body = try! JSONParser.parse(#"""
        {"access_token": "\#(jwt)", "refresh_token": "r-123456789", "token_type": "bearer", "expires_in": 900,
         "user": {"id": 1, "email": "alice@example.com", "created_at": "2025-01-05T09:00:00Z",
                  "session": "123e4567-e89b-12d3-a456-426614174000", "avatar": "\#(base)/a.png", "note": "{{x}}"}}
        """#)
        return Observation(status: 200, reason: "OK",
                           headers: [HTTPHeader(name: "Content-Type", value: "application/json"), HTTPHeader(name: "Set-Cookie", value: "sid=1")],
                           body: .json(body), notes: ["logged in as alice"])
    }

    /// An upload's stored name is random (32 hex digits): written literally,
    /// a fresh recording of an upload could never replay (issue 11, #20).
    @Test func generatedNamesBecomePatternsAndMatchTheNextOne() throws {
        let seen = Observation(status: 201, reason: "Created", body: .json(.object([
            ("url", .string("\(Self.base)/uploads/9f86d081884c7d659a2feaa0c55ad015.png")),
            ("sha", .string("ABCDEF0123456789ABCDEF0123456789")),
            ("order", .string("20250105123456")),
            ("word", .string("deadbeefdeadbeefdeadbeefdeadbeefx")),
            ("data", .string(String(repeating: "a", count: 129))),
        ])))
        let step = TranscriptStep(command: "post /api/upload/image file@lamp.png", expectation: Expectation(recording: seen, baseURL: Self.base))
        let text = TranscriptWriter.step(step)
        #expect(text.contains(#""url": "{{base_url}}/uploads/{{/[0-9a-f]+/}}.png""#), "\(text)")
        #expect(text.contains(#""sha": "{{/[0-9A-Fa-f]+/}}""#), "\(text)")
        // Short digit runs (dates, ids) and hex inside a longer word stay as they are.
        #expect(text.contains(#""order": "20250105123456""#) && text.contains(#""word": "deadbeefdeadbeefdeadbeefdeadbeefx""#), "\(text)")
        // Longer than any hash: data, matched as written (as a pattern, a 100 KB one took 387 s to match).
        #expect(text.contains("\"data\": \"" + String(repeating: "a", count: 129) + "\""), "\(text)")
        var matcher = TranscriptMatcher()
        matcher.variables = ["base_url": "http://127.0.0.1:5050"]
        let next = Observation(status: 201, reason: "Created", body: .json(.object([
            ("url", .string("http://127.0.0.1:5050/uploads/0123456789abcdef0123456789abcdef.png")),
            ("sha", .string("0123456789ABCDEF0123456789ABCDEF")),
            ("order", .string("20250105123456")),
            ("word", .string("deadbeefdeadbeefdeadbeefdeadbeefx")),
            ("data", .string(String(repeating: "a", count: 129))),
        ])))
        #expect(matcher.match(step.expectation, next).isEmpty)
    }

    /// A checksum of an upload was written as a pattern of hex digits, so a corrupted upload replayed green.
    @Test func aDigestIsWrittenAsItCame() throws {
        let sha = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
        let seen = Observation(status: 201, reason: "Created", body: .json(.object([
            ("sha256", .string(sha)), ("md5", .string("d41d8cd98f00b204e9800998ecf8427e")),
            ("fileChecksum", .string("ABCDEF0123456789ABCDEF0123456789")), ("name", .string("0123456789abcdef0123456789abcdef")),
        ])))
        let step = TranscriptStep(command: "post /upload photo@a.png", expectation: Expectation(recording: seen, baseURL: Self.base))
        let text = TranscriptWriter.step(step)
        #expect(text.contains("\"sha256\": \"\(sha)\"") && text.contains(#""md5": "d41d8cd98f00b204e9800998ecf8427e""#), "\(text)")
        #expect(text.contains(#""fileChecksum": "ABCDEF0123456789ABCDEF0123456789""#), "\(text)")
        #expect(text.contains(#""name": "{{/[0-9a-f]+/}}""#), "a generated name is still a pattern: \(text)")
        let corrupted = Observation(status: 201, reason: "Created", body: .json(.object([
            ("sha256", .string(String(sha.dropLast()) + "9")), ("md5", .string("d41d8cd98f00b204e9800998ecf8427e")),
            ("fileChecksum", .string("ABCDEF0123456789ABCDEF0123456789")), ("name", .string("fedcba9876543210fedcba9876543210")),
        ])))
        var matcher = TranscriptMatcher()
        #expect(matcher.match(step.expectation, corrupted).count == 1)
    }

    @Test func volatileAndSecretValuesBecomePatterns() throws {
        let step = TranscriptStep(command: "login alice@example.com {{secret:password}}",
                                  expectation: Expectation(recording: Self.login, baseURL: Self.base))
        let text = TranscriptWriter.step(step)
        #expect(text == #"""
        > login alice@example.com {{secret:password}}
        HTTP/1.1 200 OK
        Content-Type: application/json
        {
          "access_token": "{{secret:access_token}}",
          "refresh_token": "{{secret:refresh_token}}",
          "token_type": "bearer",
          "expires_in": 900,
          "user": {
            "id": 1,
            "email": "alice@example.com",
            "created_at": "{{timestamp}}",
            "session": "{{uuid}}",
            "avatar": "{{base_url}}/a.png",
            "note": "{{/\\{\\{/}}x}}"
          }
        }
        note: logged in as alice


        """#)
        #expect(!text.contains(Self.jwt) && !text.contains("r-123456789") && !text.contains("sid=1"))
    }

    /// A number under a secret's name (a PIN, an echoed `api_key:=7`) was
    /// written as it came; it is a secret as a string is, in a body and in
    /// a frame, and its recording matches the next number there.
    @Test func aNumberUnderASecretNameIsWrittenAsASecret() throws {
        let body = try JSONParser.parse(#"{"pin_token": 7, "n": 7, "user": {"password": 12}, "ids": [1]}"#)
        let expectation = Expectation(recording: Observation(status: 200, body: .json(body)), baseURL: nil)
        let text = TranscriptWriter.step(TranscriptStep(command: "get /x", expectation: expectation))
        #expect(text.contains(#""pin_token": {{secret:pin_token}},"#) && text.contains(#""password": {{secret:password}}"#), "\(text)")
        #expect(text.contains(#""n": 7,"#))
        let parsed = try TranscriptParser.parse("\(Transcript.versionLine)\nprofile: generic\nbase-url: sandbox\n\n" + text)
        let other = try JSONParser.parse(#"{"pin_token": 8123, "n": 7, "user": {"password": 99}, "ids": [1]}"#)
        var matcher = TranscriptMatcher()
        #expect(matcher.match(parsed.steps[0].expectation, Observation(status: 200, body: .json(other))).isEmpty)
        var captures = FrameCaptures()
        let frame = ExpectedFrame.recording(ObservedFrame(.sent, .json(try JSONParser.parse(#"{"api_key": 12345}"#))), baseURL: nil, captures: &captures)
        #expect(frame.content == ExpectedFrame.Content.json(.object([.init("api_key", .pattern(.init(.secret("api_key"))))], open: false)))
    }

    /// Times in the other shapes servers send them were written as they came,
    /// so the next run's answer differed: an HTTP date is a `{{timestamp}}`,
    /// seconds or milliseconds since 1970 under a member named for a time
    /// an `{{integer}}`. A ten-digit id under another name is kept.
    @Test func httpDatesAndEpochTimesAreVolatile() throws {
        let body = try JSONParser.parse(#"""
        {"date": "Thu, 26 Nov 2026 21:00:07 GMT", "updated_at": 1764190000, "serverTime": 1764190000123, "exp": 1764190900,
         "id": 1764190000, "expires_in": 900, "ts": 12, "bad_date": "Thu, 31 Nov 2026 25:00:07 GMT"}
        """#)
        let expectation = Expectation(recording: Observation(status: 200, body: .json(body)), baseURL: nil)
        let text = TranscriptWriter.step(TranscriptStep(command: "get /x", expectation: expectation))
        for member in [#""date": "{{timestamp}}""#, #""updated_at": {{integer}}"#, #""serverTime": {{integer}}"#, #""exp": {{integer}}"#,
                       #""id": 1764190000"#, #""expires_in": 900"#, #""ts": 12"#, #""bad_date": "Thu, 31 Nov 2026 25:00:07 GMT""#] {
            #expect(text.contains(member), "\(member) in \(text)")
        }
        let parsed = try TranscriptParser.parse("\(Transcript.versionLine)\nprofile: generic\nbase-url: sandbox\n\n" + text)
        let later = try JSONParser.parse(#"""
        {"date": "Fri, 27 Nov 2026 08:49:37 GMT", "updated_at": 1764199999, "serverTime": 1764199999999, "exp": 1764200000,
         "id": 1764190000, "expires_in": 900, "ts": 12, "bad_date": "Thu, 31 Nov 2026 25:00:07 GMT"}
        """#)
        var matcher = TranscriptMatcher()
        #expect(matcher.match(parsed.steps[0].expectation, Observation(status: 200, body: .json(later))).isEmpty)
        // A unit after the name (`createdAtMs`, `updated_at_ms`, `updatedMillis`), a last login, seconds with a fraction;
        // not a word that merely ends so (`items`).
        let units = try JSONParser.parse(#"""
        {"createdAtMs": 1795949825220, "updated_at_ms": 1795949825220, "updatedMillis": 1795949825220, "lastLogin": 1795949825,
         "server_time": 1795949825.1732008, "items": 1795949825}
        """#)
        let written = TranscriptWriter.step(TranscriptStep(command: "get /x", expectation: Expectation(recording: Observation(status: 200, body: .json(units)), baseURL: nil)))
        for member in [#""createdAtMs": {{integer}}"#, #""updated_at_ms": {{integer}}"#, #""updatedMillis": {{integer}}"#, #""lastLogin": {{integer}}"#,
                       #""server_time": {{number}}"#, #""items": 1795949825"#] {
            #expect(written.contains(member), "\(member) in \(written)")
        }
        #expect(ExpectedValue.isMillisecondsName("createdAtMs") && ExpectedValue.isMillisecondsName("ts_millis") && !ExpectedValue.isMillisecondsName("timestamp_sec"))
    }

    /// JSON in a line of text (an event stream's `data:`, an echo of the JSON
    /// sent in a string): its secret-named members were written in clear.
    @Test func secretMembersOfJSONInATextAreHidden() throws {
        let line = #"data: {"n":0,"token":"secrettokenvalue0","pin_token":7,"password":"","ok":true,"s":"a "q" b"}"#
        let written = PatternText.recording(line, baseURL: nil)
        #expect(written.description == #"data: {"n":0,"token":"{{secret:token}}","pin_token":{{secret:pin_token}},"password":"","ok":true,"s":"a "q" b"}"#)
        let other = #"data: {"n":0,"token":"another-one","pin_token":81,"password":"","ok":true,"s":"a "q" b"}"#
        #expect(written.match(other, bound: { _ in nil }) != nil)
        #expect(PatternText.recording("no JSON: here", baseURL: nil).description == "no JSON: here")
        // A row that starts with its secret member was read as a `KEY: VALUE` line, and its rest lost.
        #expect(PatternText.recording(#"{"password": "hunter22", "user": "a"}"#, baseURL: nil).description
            == #"{"password": "{{secret:password}}", "user": "a"}"#)
        #expect(PatternText.recording("api_key: abc123", baseURL: nil).description == "api_key: {{secret:api_key}}")
    }

    /// An old server's `HTTP/1.0` was written `HTTP/1.1`; like the reason,
    /// the protocol is kept for the reader and not compared.
    @Test func theStatusLineKeepsTheServersProtocol() throws {
        var observed = Observation(status: 200, reason: "OK")
        observed.version = "HTTP/1.0"
        let text = TranscriptWriter.step(TranscriptStep(command: "get /x", expectation: Expectation(recording: observed, baseURL: nil)))
        #expect(text.contains("\nHTTP/1.0 200 OK\n"), "\(text)")
        let parsed = try TranscriptParser.parse("\(Transcript.versionLine)\nprofile: generic\nbase-url: sandbox\n\n" + text)
        #expect(parsed.steps[0].expectation.version == "HTTP/1.0")
        #expect(TranscriptWriter.response(parsed.steps[0].expectation).first == "HTTP/1.0 200 OK")
        var matcher = TranscriptMatcher()
        #expect(matcher.match(parsed.steps[0].expectation, Observation(status: 200, reason: "OK")).isEmpty)
    }

    @Test func whatIsRecordedMatchesWhatWasSeenAndParsesBack() throws {
        let header = TranscriptHeader.make(profile: "linku", target: .sandbox)
        let step = TranscriptStep(command: "login alice@example.com {{secret:password}}",
                                  expectation: Expectation(recording: Self.login, baseURL: Self.base))
        let transcript = try TranscriptParser.parse(TranscriptWriter.start(header) + TranscriptWriter.step(step))
        var matcher = TranscriptMatcher(variables: ["base_url": Self.base])
        #expect(matcher.match(transcript.steps[0].expectation, Self.login).isEmpty)
    }

    @Test func aCapturedValueIsWrittenAsItsKind() {
        #expect(ExpectedValue.kind(of: .int(6)) == .pattern(.init(.integer)))
        #expect(ExpectedValue.kind(of: .number("2.5")) == .pattern(.init(.number)))
        #expect(ExpectedValue.kind(of: .string("x")) == .pattern(.init(.string)))
        #expect(ExpectedValue.kind(of: .string("2025-01-05T09:00:00Z")) == .pattern(.init(.timestamp)))
        #expect(ExpectedValue.kind(of: .object([])) == .pattern(.init(.any)))
        let recorded = Expectation(recording: Observation(body: .json(.int(6))), baseURL: nil, volatileBody: true)
        #expect(TranscriptWriter.response(recorded) == ["{{integer}}"])
    }

    /// A redirect's Location was not written: a replay said nothing when it
    /// moved, and the mock answered the 3xx without one. Nor a created thing's.
    @Test func aRedirectsLocationIsWrittenItsSecretsHidden() {
        func written(_ status: Int, _ location: String) -> String? {
            let seen = Observation(status: status, reason: "", headers: [HTTPHeader(name: "Location", value: location)])
            return Expectation(recording: seen, baseURL: Self.base).headers.first { $0.name == "Location" }?.value.description
        }
        #expect(written(307, "/items/2") == "/items/2")
        #expect(written(302, "\(Self.base)/cb?x=1#access_token=S3CRETLOC") == "{{base_url}}/cb?x=1#access_token={{secret:access_token}}")
        // A created thing's place too (201, 202): `capture loc = header:Location` then `get {{loc}}` could not be
        // served by the mock, which answered without one. A replay takes any id there.
        #expect(written(201, "/items/2") == "/items/2")
        #expect(written(202, "\(Self.base)/jobs/7") == "{{base_url}}/jobs/7")
        #expect(written(404, "/items/2") == nil)
        // A JWT inside it (a magic link, a verify URL) was written in clear, though the screen hid it.
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
        #expect(written(201, "/verify/\(jwt)") == "/verify/{{secret:jwt}}")
        #expect(written(302, "/v?t=\(jwt)&x=1") == "/v?t={{secret:jwt}}&x=1")
        #expect(written(302, "/v#\(jwt).") == "/v#{{secret:jwt}}.")
        // Beside a secret query pair, the screen showed it (the pair's hiding left the rest as it came).
        let shown = Redactor.redact(header: HTTPHeader(name: "Location", value: "http://h.example/cb/\(jwt)?api_key=K1234567&x=1")).value
        #expect(shown == "http://h.example/cb/<hidden: \(jwt.count) characters>?api_key=<hidden: 8 characters>&x=1", "\(shown)")
    }

    /// A 206 was written without its Content-Range: the mock's 206 was no
    /// valid HTTP, and a PostgREST client read no count.
    @Test func aPartialAnswersRangeIsWritten() {
        let seen = Observation(status: 206, reason: "Partial Content", headers: [HTTPHeader(name: "Content-Range", value: "0-1/5"),
                                                                                  HTTPHeader(name: "Content-Type", value: "application/json")])
        #expect(TranscriptWriter.response(Expectation(recording: seen, baseURL: nil))
                == ["HTTP/1.1 206 Partial Content", "Content-Type: application/json", "Content-Range: 0-1/5"])
        // A 200's count of items (PostgREST's `Prefer: count=exact`), and a list's Link, which `next` pages by;
        // an error's Link is none of a list's.
        let whole = Observation(status: 200, reason: "OK", headers: [HTTPHeader(name: "Content-Range", value: "0-1/5"),
                                                                     HTTPHeader(name: "Link", value: "<\(Self.base)/t?page=2>; rel=\"next\"")])
        #expect(TranscriptWriter.response(Expectation(recording: whole, baseURL: Self.base))
                == ["HTTP/1.1 200 OK", "Content-Range: 0-1/5", "Link: <{{base_url}}/t?page=2>; rel=\"next\""])
        let refused = Observation(status: 404, reason: "Not Found", headers: [HTTPHeader(name: "Link", value: "</docs>; rel=\"help\"")])
        #expect(TranscriptWriter.response(Expectation(recording: refused, baseURL: nil)) == ["HTTP/1.1 404 Not Found"])
    }

    /// A hidden value's length in an error or note line is any length: a
    /// token of another length failed the line (a 302 login's error).
    @Test func aHiddenLengthInAnErrorLineIsAnyLength() {
        let seen = Observation(status: 302, reason: "Found", errors: ["the login answered 302 Found to app://cb#access_token=<hidden: 17 characters>&s=1"],
                               notes: ["kept <hidden: 9 characters> and <hidden: 12 characters>"])
        let recorded = Expectation(recording: seen, baseURL: nil)
        #expect(TranscriptWriter.response(recorded) == ["HTTP/1.1 302 Found",
            "error: the login answered 302 Found to app://cb#access_token=<hidden: {{/[0-9]+/}} characters>&s=1",
            "note: kept <hidden: {{/[0-9]+/}} characters> and <hidden: {{/[0-9]+/}} characters>"])
        var matcher = TranscriptMatcher()
        let live = Observation(status: 302, reason: "Found", errors: ["the login answered 302 Found to app://cb#access_token=<hidden: 23 characters>&s=1"],
                               notes: ["kept <hidden: 10 characters> and <hidden: 2 characters>"])
        #expect(matcher.match(recorded, live).isEmpty)
    }

    @Test func textLinesHideSecretsAndTheBaseURL() {
        #expect(PatternText.recording("base_url = \(Self.base)", baseURL: Self.base).description == "base_url = {{base_url}}")
        #expect(PatternText.recording("api_key = abc123", baseURL: nil).description == "api_key = {{secret:api_key}}")
        #expect(PatternText.recording("Cookie: sid=1", baseURL: nil).description == "Cookie: sid={{secret:sid}}")
        #expect(PatternText.recording("Set-Cookie: a=1; Path=/", baseURL: nil).description == "Set-Cookie: a={{secret:a}}; Path=/")
        #expect(PatternText.recording("Authorization: <access_token>", baseURL: nil).description == "Authorization: <access_token>")
        #expect(PatternText.recording("token \"\(Self.jwt)\" seen", baseURL: nil).description == "token \"{{secret:jwt}}\" seen")
        #expect(PatternText.recording("a {{b}}", baseURL: nil).description == #"a {{/\{\{/}}b}}"#)
        // The base URL's host:port alone (a cookie's domain) stands for any, so `--env` and the mock match it.
        let cookie = PatternText.recording("sid=<hidden>  127.0.0.1:28571, path /", baseURL: "http://127.0.0.1:28571")
        #expect(cookie.description == #"sid=<hidden>  {{/[A-Za-z0-9.:_\[\]-]+/}}, path /"#)
        #expect(cookie.match("sid=<hidden>  staging.example:8443, path /", bound: { _ in nil }) != nil)
        // An IPv6 base URL's authority, brackets and all, records and matches itself (found by a helper).
        let v6 = PatternText.recording("Host: [::1]:19081", baseURL: "http://[::1]:19081")
        #expect(v6.description == #"Host: {{/[A-Za-z0-9.:_\[\]-]+/}}"#)
        #expect(v6.match("Host: [::1]:19081", bound: { _ in nil }) != nil)
        // Timestamps in a line of text, as in JSON: they differ on every run.
        let row = PatternText.recording(#"{"t": "2026-11-25T20:40:43Z", "n": 1} at 2026-11-25T20:40:43.5+01:00."#, baseURL: nil)
        #expect(row.description == #"{"t": "{{timestamp}}", "n": 1} at {{timestamp}}."#)
        #expect(row.match(#"{"t": "2027-01-01T00:00:00Z", "n": 1} at 2027-01-01T00:00:00Z."#, bound: { _ in nil }) != nil)
        #expect(PatternText.recording("version 2026-11-25", baseURL: nil).description == "version 2026-11-25", "a date alone is not volatile")
    }

    @Test func theScrubberHidesEverySecretItHasSeen() {
        var scrubber = SecretScrubber()
        scrubber.learn("hunter22", name: "password")
        scrubber.learn("abc", name: "short")
        scrubber.learn(secretsIn: Self.login.body.flatMap { if case let .json(v) = $0 { return v } else { return nil } }!)
        let text = "echo hunter22 and \(Self.jwt) and \"pa\\\"ss\" and abc"
        #expect(scrubber.scrub(text) == "echo {{secret:password}} and {{secret:access_token}} and \"pa\\\"ss\" and abc")
        scrubber.learn("pa\"ss99", name: "quoted")
        #expect(scrubber.scrub(#"{"p": "pa\"ss99"}"#) == #"{"p": "{{secret:quoted}}"}"#)
        // As a URL or a form carries it: httpbin's `"url"` echo of a query was written in clear.
        scrubber.learn("hunter 2&x", name: "pw")
        #expect(scrubber.scrub(#""url": "http://h/get?q=hunter%202%26x", "data": "q=hunter+2%26x""#)
                == #""url": "http://h/get?q={{secret:pw}}", "data": "q={{secret:pw}}""#)
        // In base64 and in HTML, as a server may echo it.
        scrubber.learn("tok<S&\"ecret", name: "tok")
        #expect(scrubber.scrub("b64 dG9rPFMmImVjcmV0 html tok&lt;S&amp;&quot;ecret") == "b64 {{secret:tok}} html {{secret:tok}}")
        // A secret in a member's name named its placeholder, lower-cased: `{{secret:k_toksecretxyz123}}` went to disk.
        scrubber.learn("tokSECRETxyz123", name: "x_api_key")
        #expect(scrubber.scrub(#""k_{{secret:x_api_key}}": {{secret:k_toksecretxyz123}}"#) == #""k_{{secret:x_api_key}}": {{secret:k_hidden}}"#)
    }

    @Test func aSecretIsNotFoundAgainInsideAPlaceholder() {
        // `token=secret` and a password `password` were written `{{{{secret:token}}:token}}` and
        // `{{secret:{{secret:password}}}}`: the values are words of the placeholders' own text.
        var scrubber = SecretScrubber()
        scrubber.learn("secret", name: "token")
        scrubber.learn("password", name: "password", typed: true)
        #expect(scrubber.scrub("> ws connect /echo?token={{secret:token}}&p=password") == "> ws connect /echo?token={{secret:token}}&p={{secret:password}}")
        #expect(scrubber.scrub("> auth basic admin:password") == "> auth basic admin:{{secret:password}}")
        // `{{NAME}}` is a variable's reference, kept; a lone brace is text.
        #expect(scrubber.scrub("echo secret and {{secret}} and {secret}") == "echo {{secret:token}} and {{secret}} and {{{secret:token}}}")
        #expect(scrubber.hide("{{secret:password}} was password") == "{{secret:password}} was <hidden>")
        // A secret that is a word is found as a word: inside a name it is the name's text.
        var words = SecretScrubber()
        words.learn("token", name: "password", typed: true)
        #expect(words.scrub(#"{"access_token": "x", "token_type": "bearer", "q": "tokens", "pw": "token"} a==token"#)
            == #"{"access_token": "x", "token_type": "bearer", "q": "tokens", "pw": "{{secret:password}}"} a=={{secret:password}}"#)
        // Nor inside a path, a version, a hyphenated name, or as a member's name.
        var common = SecretScrubber()
        common.learn("HTTP", name: "token", typed: true)
        common.learn("Accept", name: "password", typed: true)
        common.learn("echo", name: "api_key", typed: true)
        let step = "> get /echo q==echo\nHTTP/1.1 200 OK\n{\n  \"Accept\": \"*/*\",\n  \"Accept-Encoding\": \"gzip\",\n  \"note\": \"Accept echo\"\n}\n"
        #expect(common.scrub(step) == "> get /echo q=={{secret:api_key}}\nHTTP/1.1 200 OK\n{\n  \"Accept\": \"*/*\",\n  \"Accept-Encoding\": \"gzip\",\n"
            + "  \"note\": \"{{secret:password}} {{secret:api_key}}\"\n}\n")
    }

    @Test func commandLinesGetNamedPlaceholders() {
        let hide = { (name: String) in "{{secret:\(ExpectedValue.secretName(name))}}" }
        #expect(Redactor.redact(words: ["login", "a@b.c", "pw"], hide: hide) == ["login", "a@b.c", "{{secret:password}}"])
        #expect(Redactor.redact(words: ["get", "/x", "Authorization:Bearer x", "X-API-Key:k", "page==1"], hide: hide)
            == ["get", "/x", "Authorization:{{secret:authorization}}", "X-API-Key:{{secret:x_api_key}}", "page==1"])
        #expect(Redactor.redact(words: ["set", "refreshToken=abc"], hide: hide) == ["set", "refreshToken={{secret:refreshtoken}}"])
        // A JSON item keeps its type: a string's placeholder is quoted, a number's is not.
        #expect(Redactor.redact(words: ["post", "/x", "api_key:=12345", "password:=\"12\"", "user[token]:=7"], hide: hide)
            == ["post", "/x", "api_key:={{secret:api_key}}", "password:=\"{{secret:password}}\"", "user[token]:={{secret:token}}"])
    }

    /// `api_key:=12345` was recorded as `'api_key:="{{secret:api_key}}"'`,
    /// so its replay sent the string "12345". The placeholder of a number
    /// is filled in as JSON; a value that is not JSON goes as a string.
    @Test func aSecretInAJSONItemKeepsItsType() throws {
        var resolver = SecretResolver(environment: ["EXPLORER_SECRET_API_KEY": "12345", "EXPLORER_SECRET_PIN": "s3 cr\"t"], demoAccounts: [])
        #expect(try resolver.resolve("post /x api_key:={{secret:api_key}} n:=1").line == "post /x api_key:=12345 n:=1")
        #expect(try resolver.resolve("post /x pin:={{secret:pin}}").line == #"post /x 'pin:="s3 cr\"t"'"#)
        #expect(try resolver.resolve("post /x 'pin:=\"{{secret:api_key}}\"'").line == #"post /x 'pin:="12345"'"#)
        // In a string, the value is its content, escaped: `s3 cr"t` was `"s3 cr"t"`, broken JSON.
        #expect(try resolver.resolve("post /x 'pin:=\"{{secret:pin}}\"'").line == #"post /x 'pin:="s3 cr\"t"'"#)
        // In JSON typed whole (`ws send`, `--raw`, an object item), each placeholder as it stands there.
        #expect(try resolver.resolve(#"ws send {"a":"{{secret:pin}}","n":{{secret:api_key}},"m":["x{{secret:pin}}"]}"#).line
            == #"ws send {"a":"s3 cr\"t","n":12345,"m":["xs3 cr\"t"]}"#)
        #expect(try resolver.resolve(#"post /x --raw '{"p":"{{secret:pin}}","n":{{secret:api_key}}}'"#).line
            == #"post /x --raw '{"p":"s3 cr\"t","n":12345}'"#)
        // A raw body that is a placeholder alone is the value as it is: it was quoted as a JSON string.
        #expect(try resolver.resolve("post /x --raw {{secret:pin}}").line == #"post /x --raw 's3 cr"t'"#)
        #expect(try resolver.resolve(#"post /x 'user:={"token":"{{secret:pin}}","pin":{{secret:api_key}}}'"#).line
            == #"post /x 'user:={"token":"s3 cr\"t","pin":12345}'"#)
        #expect(try resolver.resolve("post /x 'a\\:=b={{secret:api_key}}'").line == #"post /x 'a\:=b=12345'"#)
        resolver.environment["EXPLORER_SECRET_API_KEY"] = #"{"k":[1,true]}"#
        let word = try LineTokenizer.split(resolver.resolve("post /x user[key]:={{secret:api_key}}").line)[2].text
        #expect(try RequestItem.parse(word) == .jsonField(name: "user[key]", value: .object([("k", .array([.int(1), .bool(true)]))])))
    }

    /// On a sandbox a demo login keeps its demo password when
    /// EXPLORER_SECRET_PASSWORD is set for a variable named password (it
    /// used to take the variable's value and fail); an email typed as a
    /// variable still names the demo account (issue 11, #21).
    @Test func onASandboxTheDemoPasswordComesBeforeTheEnvironment() throws {
        var resolver = SecretResolver(environment: ["EXPLORER_SECRET_PASSWORD": "hunter2"], demoAccounts: [("alice@example.com", "alice123")])
        #expect(try resolver.resolve("login alice@example.com {{secret:password}}").line == "login alice@example.com hunter2")
        resolver.demoPasswordsFirst = true
        #expect(try resolver.resolve("login alice@example.com {{secret:password}}").line == "login alice@example.com alice123")
        #expect(try resolver.resolve("set password={{secret:password}}").line == "set password=hunter2")
        resolver.variables = ["who": "alice@example.com"]
        #expect(try resolver.resolve("login {{who}} {{secret:password}}").line == "login {{who}} alice123")
        #expect(try resolver.resolveNamed("login {{who}} {{secret:password}}").secrets.map(\.name) == ["password"])
    }

    /// A text frame is sent as typed, its secrets filled in place: a frame
    /// that was only a placeholder went out as a JSON string (`"plainvalue"`),
    /// and one with spaces came back quoted and closed up.
    @Test func aTextFrameHasItsSecretsFilledInPlace() throws {
        let resolver = SecretResolver(environment: ["EXPLORER_SECRET_FOO": "plainvalue", "EXPLORER_SECRET_BAR": "two words"], demoAccounts: [])
        #expect(try resolver.resolveNamed("ws send --text {{secret:foo}}").line == "ws send --text plainvalue")
        #expect(try resolver.resolveNamed("ws send --text AUTH {{secret:bar}}  now").line == "ws send --text AUTH two words  now")
        #expect(try resolver.resolveNamed(#"ws send --text {"k":"{{secret:bar}}"}"#).line == #"ws send --text {"k":"two words"}"#)
        #expect(try resolver.resolveNamed("ws send --text {{secret:foo}}").secrets.map(\.name) == ["foo"])
    }

    @Test func replaySuppliesSecrets() throws {
        let resolver = SecretResolver(environment: ["EXPLORER_SECRET_API_KEY": "k 1"],
                                      demoAccounts: [("alice@example.com", "alice123")])
        #expect(try resolver.resolve("login alice@example.com {{secret:password}}").line == "login alice@example.com alice123")
        #expect(try resolver.resolve("post /login email=ALICE@example.com password={{secret:password}}").line
            == "post /login email=ALICE@example.com password=alice123")
        #expect(try resolver.resolve("get /x X-Api-Key:{{secret:api_key}}") == (line: "get /x 'X-Api-Key:k 1'", secrets: ["k 1"]))
        let wrong = try resolver.resolve("login alice@example.com {{secret:wrong_password}}").line
        #expect(wrong.hasPrefix("login alice@example.com wrong-") && !wrong.hasSuffix("alice123"))
        #expect(throws: SecretResolver.Missing(name: "password")) { try resolver.resolve("login bob@example.com {{secret:password}}") }
        #expect(SecretResolver.Missing(name: "password").description == "no value for {{secret:password}}: set EXPLORER_SECRET_PASSWORD")
        #expect(try resolver.resolve("get /x a=\"{{b}}\"").line == "get /x a=\"{{b}}\"")
    }

    @Test func updateKeepsWhatStillMatchesAndRewritesTheRest() throws {
        let old = try ExpectedJSONParser.parse(#"{"id": {{id:=integer}}, "title": "old", "at": "{{timestamp}}", "gone": 1, "list": [1, 2]}"#)
        let live = try JSONParser.parse(#"{"id": 9, "title": "new", "added": "2026-01-01T00:00:00Z", "at": "2025-01-01T00:00:00Z", "list": [1, 3, 4]}"#)
        var matcher = TranscriptMatcher()
        let updated = old.updated(with: live, key: nil, matcher: &matcher, baseURL: nil)
        #expect(updated.pretty() == """
        {
          "id": {{id:=integer}},
          "title": "new",
          "added": "{{timestamp}}",
          "at": "{{timestamp}}",
          "list": [
            1,
            3,
            4
          ]
        }
        """)
        #expect(matcher.captures["id"]?.value == .int(9))
        // An object with `...` keeps its keys, in its own order.
        let open = try ExpectedJSONParser.parse(#"{"b": 1, "a": 2, ...}"#)
        #expect(open.updated(with: try JSONParser.parse(#"{"a": 3, "b": 1, "c": 0}"#), key: nil, matcher: &matcher, baseURL: nil)
            == .object([.init("b", .literal(.int(1))), .init("a", .literal(.int(3)))], open: true))
    }

    /// `--update` of a header a step expects wrote the live value in clear: a
    /// cookie's value, a token, a URL's `access_token`. Its secrets are
    /// written as placeholders, where the screen hides them, and match again.
    @Test func updateWritesAHeadersSecretsAsPlaceholders() throws {
        let expected = Expectation(status: 200, reason: "OK", headers: [
            ("Set-Cookie", try PatternText.parse("sid={{secret:sid}}; Path=/old")), ("Authorization", .literal("Bearer old")),
            ("X-Amz-Security-Token", .literal("old")), ("Location", .literal("/cb")), ("X-Trace", .literal("1"))])
        let observed = Observation(status: 200, reason: "OK", headers: [
            HTTPHeader(name: "Set-Cookie", value: "sid=S3CRETcookie; Path=/; HttpOnly"), HTTPHeader(name: "Authorization", value: "Bearer S3CRETauth"),
            HTTPHeader(name: "X-Amz-Security-Token", value: "S3CRETamz"), HTTPHeader(name: "Location", value: "/cb?state=1#access_token=S3CRETloc&x=1"),
            HTTPHeader(name: "X-Trace", value: "2")])
        var matcher = TranscriptMatcher()
        let updated = expected.updated(with: observed, matcher: &matcher, baseURL: nil)
        #expect(TranscriptWriter.response(updated) == [
            "HTTP/1.1 200 OK", "Set-Cookie: sid={{secret:sid}}; Path=/; HttpOnly", "Authorization: Bearer {{secret:authorization}}",
            "X-Amz-Security-Token: {{secret:x_amz_security_token}}", "Location: /cb?state=1#access_token={{secret:access_token}}&x=1",
            "X-Trace: 2"])
        var again = TranscriptMatcher()
        #expect(again.match(updated, observed).isEmpty)
        // The report hides them as the screen does, the rest of the value shown.
        var fresh = TranscriptMatcher()
        let shown = fresh.match(expected, observed).map(\.actual)
        #expect(shown.contains("sid=<hidden: 12 characters>; Path=/; HttpOnly"), "\(shown)")
        #expect(shown.contains("/cb?state=1#access_token=<hidden: 9 characters>&x=1"), "\(shown)")
        #expect(!shown.joined().contains("S3CRET"), "\(shown)")
    }

    /// A key the server writes twice is updated occurrence by occurrence, as
    /// the matcher compares it: `{"a": 1, "a": 2}` was written `"a": 1, "a": 1`,
    /// and the next replay failed on the line `--update` had blessed.
    @Test func updateMatchesARepeatedKeyOccurrenceByOccurrence() throws {
        let old = try ExpectedJSONParser.parse(#"{"a": 1, "b": 0, "a": 3}"#)
        let live = try JSONParser.parse(#"{"a": 1, "b": 0, "a": 2}"#)
        var matcher = TranscriptMatcher()
        let updated = old.updated(with: live, key: nil, matcher: &matcher, baseURL: nil)
        #expect(updated.pretty() == "{\n  \"a\": 1,\n  \"b\": 0,\n  \"a\": 2\n}")
        var again = TranscriptMatcher()
        #expect(again.match(updated, live).isEmpty)
    }

    /// `--update` against a server that hands out fresh ids wrote each new id
    /// literally, and the very next run failed on it: an id that changed is
    /// written as its kind; any other value, and an id of another kind, as it came.
    @Test func updateWritesAnIdThatChangedAsItsKind() throws {
        let old = try ExpectedJSONParser.parse(#"{"id": 4, "owner_id": 7, "ownerId": "u-1", "count": 1, "uuid_id": 5}"#)
        let live = try JSONParser.parse(#"{"id": 711370, "owner_id": 7, "ownerId": "u-2", "count": 2, "uuid_id": "x"}"#)
        var matcher = TranscriptMatcher()
        #expect(old.updated(with: live, key: nil, matcher: &matcher, baseURL: nil).pretty() == """
        {
          "id": {{integer}},
          "owner_id": 7,
          "ownerId": {{string}},
          "count": 2,
          "uuid_id": "x"
        }
        """)
    }

    /// `--update` rewrote an object in the server's key order: every key
    /// that still matched moved, and the diff hid the one that changed. The
    /// written order is kept; a new key lands after the one the server puts before it.
    @Test func updateKeepsTheWrittenKeyOrder() throws {
        let old = try ExpectedJSONParser.parse(#"{"name": "pear", "id": {{integer}}, "at": "{{timestamp}}"}"#)
        let live = try JSONParser.parse(#"{"at": "2026-01-01T00:00:00Z", "id": 4, "tag": "t", "name": "apple"}"#)
        var matcher = TranscriptMatcher()
        #expect(old.updated(with: live, key: nil, matcher: &matcher, baseURL: nil).pretty() == """
        {
          "name": "apple",
          "id": {{integer}},
          "tag": "t",
          "at": "{{timestamp}}"
        }
        """)
        #expect(ExpectedValue.mergedOrder(written: ["a", "b", "a"], live: ["x", "b", "a", "a", "a"]) == ["x", "a", "b", "a", "a"])
    }

    /// So is one where a reference stood: `"id": {{item_id}}` in a list whose
    /// first item is another now was written as that item's id, and the
    /// re-blessed file failed its next run.
    @Test func updateWritesAnIdWhereAReferenceStoodAsItsKind() throws {
        let old = try ExpectedJSONParser.parse(#"{"items": [{"id": {{item_id}}, "name": "apple"}], "owner": {{who}}}"#)
        let live = try JSONParser.parse(#"{"items": [{"id": 429833, "title": "apple"}], "owner": "bob"}"#)
        var matcher = TranscriptMatcher(variables: ["item_id": "865754", "who": "alice"])
        #expect(old.updated(with: live, key: nil, matcher: &matcher, baseURL: nil).pretty() == """
        {
          "items": [
            {
              "id": {{integer}},
              "title": "apple"
            }
          ],
          "owner": "bob"
        }
        """)
    }

    /// A list written `[{…}, ...]` was written anew whole when one member
    /// changed, losing the capture in it (the next step then failed with
    /// "unknown variable", and --update wrote that down); a capture whose
    /// kind changed was written as a literal, binding nothing.
    @Test func updateMergesAContainsListAndKeepsItsCaptures() throws {
        let old = try ExpectedJSONParser.parse(#"[{"id": {{first_id:=integer}}, "name": "{{/[a-z]+/}}", ...}, ...]"#)
        let live = try JSONParser.parse(#"[{"id": "7", "title": "apple", "n": 1}, {"id": "8", "title": "pear", "n": 2}]"#)
        var matcher = TranscriptMatcher()
        let updated = old.updated(with: live, key: nil, matcher: &matcher, baseURL: nil)
        #expect(updated.pretty() == """
        [
          {
            "id": {{first_id:=string}},
            ...
          },
          ...
        ]
        """)
        #expect(matcher.captures["first_id"]?.text == "7")
        var check = TranscriptMatcher()
        #expect(check.match(updated, live).isEmpty)
        // Reordered, and no longer matching (the id became a string): merged with the element most like it.
        let apple = try ExpectedJSONParser.parse(#"[{"id": {{a:=integer}}, "name": "apple", ...}, ...]"#)
        var reordered = TranscriptMatcher()
        _ = apple.updated(with: try JSONParser.parse(#"[{"id": "9", "name": "cherry"}, {"id": "7", "name": "apple"}]"#), key: nil, matcher: &reordered, baseURL: nil)
        #expect(reordered.captures["a"]?.text == "7", "apple's id, not cherry's")
        // A listed element that still matches a live one keeps it; the other is merged with one left.
        let two = try ExpectedJSONParser.parse(#"[{"id": 8, "n": 2}, {"id": 7, "n": 0}, ...]"#)
        var again = TranscriptMatcher()
        #expect(two.updated(with: try JSONParser.parse(#"[{"id": 7, "n": 1}, {"id": 8, "n": 2}, {"id": 9, "n": 3}]"#), key: nil, matcher: &again, baseURL: nil).pretty()
            == "[\n  {\n    \"id\": 8,\n    \"n\": 2\n  },\n  {\n    \"id\": 7,\n    \"n\": 1\n  },\n  ...\n]")
    }

    @Test func updatingAStepKeepsItsHeadersAndLines() throws {
        let expectation = Expectation(status: 200, reason: "OK", headers: [("Content-Type", try PatternText.parse("application/{{*}}"))],
                                      body: .text([try PatternText.parse("n = {{integer}}"), .literal("old")]), errors: [.literal("x")])
        let observed = Observation(status: 201, reason: "Created", headers: [HTTPHeader(name: "content-type", value: "application/json")],
                                   body: .text(["n = 4", "new", "more"]))
        var matcher = TranscriptMatcher()
        let updated = expectation.updated(with: observed, matcher: &matcher, baseURL: nil)
        #expect(TranscriptWriter.response(updated) == ["HTTP/1.1 201 Created", "Content-Type: application/{{*}}", "| n = {{integer}}", "| new", "| more"])
        var check = TranscriptMatcher()
        #expect(check.match(updated, observed).isEmpty)
    }
}
