import Testing
@testable import Core

@Suite struct TranscriptMatcherTests {
    func expected(_ text: String) throws -> ExpectedValue { try ExpectedJSONParser.parse(text) }
    func json(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    func mismatches(_ expectedText: String, _ actualText: String, matcher: inout TranscriptMatcher) throws -> [String] {
        matcher.match(try expected(expectedText), try json(actualText)).map(\.description)
    }

    func mismatches(_ expectedText: String, _ actualText: String) throws -> [String] {
        var matcher = TranscriptMatcher()
        return try mismatches(expectedText, actualText, matcher: &matcher)
    }

    /// `{{*}}` as the body accepts any body, as the docs say: a text one and
    /// none were differences ("expected a JSON body: {{*}}").
    @Test func aStarBodyAcceptsAnyBody() throws {
        let star = Expectation(status: 200, body: .json(try ExpectedJSONParser.parse("{{*}}")))
        var matcher = TranscriptMatcher()
        for body: Observation.Body? in [.json(.int(1)), .text(["<html>", "</html>"]), .binary("image/png, 3 B"), nil] {
            #expect(matcher.match(star, Observation(status: 200, body: body)).isEmpty, "\(String(describing: body))")
        }
        // A capture of the whole body is still of JSON.
        let captured = Expectation(status: 200, body: .json(try ExpectedJSONParser.parse("{{all:=*}}")))
        #expect(!matcher.match(captured, Observation(status: 200, body: .text(["x"]))).isEmpty)
    }

    @Test func literalsCompareAsJSON() throws {
        #expect(try mismatches(#"{"price": 8, "ok": true, "none": null}"#, #"{"price": 8.0, "ok": true, "none": null}"#).isEmpty)
        #expect(try mismatches(#"{"title": "Fix my bike"}"#, #"{"title": "Fix bike"}"#)
            == [#"body .title: expected "Fix my bike", got "Fix bike""#])
        #expect(try mismatches(#""x""#, "1") == [#"body .: expected "x", got 1"#])
    }

    /// Two long texts that differ near their end were each cut at their
    /// first 200 characters: "expected" and "got" read the same.
    @Test func longTextsAreShownFromWhereTheyDiffer() throws {
        let long = "Lamp 台灯 " + String(repeating: "x", count: 5_000)
        let said = try mismatches(#"{"name": "\#(long)y"}"#, #"{"name": "\#(long)"}"#)
        let prefix = "…(\(long.count - 39) characters alike) "
        #expect(said == ["body .name: expected \(prefix)\(String(repeating: "x", count: 40))y\", got \(prefix)\(String(repeating: "x", count: 40))\""], "\(said)")
        var matcher = TranscriptMatcher()
        let lines = matcher.match(Expectation(status: 200, body: .text([.literal(long + " end")])), Observation(status: 200, body: .text([long + " END"])))
        #expect(lines.map(\.expected) == ["…(\(long.count - 39) characters alike) " + String(repeating: "x", count: 39) + " end"])
        #expect(lines.map(\.actual) == ["…(\(long.count - 39) characters alike) " + String(repeating: "x", count: 39) + " END"])
    }

    @Test func keyOrderDoesNotMatter() throws {
        #expect(try mismatches(#"{"a": 1, "b": {"c": 2, "d": 3}}"#, #"{"b": {"d": 3, "c": 2}, "a": 1}"#).isEmpty)
    }

    /// A key an answer has twice is recorded twice, and each is matched in
    /// order (the second failed against the first that came).
    @Test func aKeyGivenTwiceIsMatchedInOrder() throws {
        #expect(try mismatches(#"{"a": 1, "a": 2}"#, #"{"a": 1, "a": 2}"#).isEmpty)
        #expect(try mismatches(#"{"a": 1, "a": 3}"#, #"{"a": 1, "a": 2}"#) == ["body .a: expected 3, got 2"])
        // In another order than the answer's, from the first key that differs on.
        #expect(try mismatches(#"{"a": 1, "b": 2, "a": 3}"#, #"{"a": 1, "a": 3, "b": 2}"#).isEmpty)
        #expect(try mismatches(#"{"a": 1, "a": 2, "b": 3}"#, #"{"a": 1, "b": 3, "a": 2}"#).isEmpty)
        #expect(try mismatches(#"{"x": {"a": 1, "b": 2, "a": 4}}"#, #"{"x": {"a": 1, "a": 3, "b": 2}}"#) == ["body .x.a: expected 4, got 3"])
        // A key the answer has twice and the recording once: the second is one too many.
        #expect(try mismatches(#"{"k": 1}"#, #"{"k": 1, "k": 2}"#)
            == ["body .k: expected no such key (write ... in the object to allow extra keys), got 2"])
        #expect(try mismatches(#"{"k": 1, ...}"#, #"{"k": 1, "k": 2}"#).isEmpty)
    }

    /// A live value under a secret's name is hidden in a mismatch however
    /// short it is (a 3-letter password was shown; longer ones were hidden
    /// by the scrubber's length rule).
    @Test func aSecretInAMismatchIsHiddenWhateverItsLength() throws {
        let live = #"{"access_token": "abc", "user": {"password": "p", "api_key": 42, "name": "al"}, "refreshToken": {"v": "x"}}"#
        let said = try mismatches(#"{"access_token": "ZZ", "user": {"password": "q", "api_key": 1, "name": "bo"}, "refreshToken": 1}"#, live)
        #expect(said == [#"body .access_token: expected "ZZ", got "<hidden: 3 characters>""#,
                         #"body .user.password: expected "q", got "<hidden: 1 character>""#,
                         "body .user.api_key: expected 1, got <hidden: 2 characters>", #"body .user.name: expected "bo", got "al""#,
                         #"body .refreshToken: expected 1, got {"v":"<hidden: 1 character>"}"#])
        #expect(try mismatches(#"{"a": 1}"#, #"{"a": 1, "password": "pw"}"#)
            == [#"body .password: expected no such key (write ... in the object to allow extra keys), got "<hidden: 2 characters>""#])
    }

    /// So is one in a secret's list (`.password[0]` was shown in clear, in
    /// reports and in JUnit files); an object under such a name is judged
    /// member by member, as the screen judges it (`.auth.user_id`).
    @Test func aSecretInASecretsListIsHiddenAndAnObjectsMembersAreJudgedEach() throws {
        let live = #"{"password": ["S3CR_A1", "x"], "auth": {"user_id": 6, "token": "S3CR_A2"}, "tags": ["t1"]}"#
        let said = try mismatches(#"{"password": ["x", "x"], "auth": {"user_id": 5, "token": "y"}, "tags": ["t2"]}"#, live)
        #expect(said == [#"body .password[0]: expected "x", got "<hidden: 7 characters>""#,
                         "body .auth.user_id: expected 5, got 6",
                         #"body .auth.token: expected "y", got "<hidden: 7 characters>""#,
                         #"body .tags[0]: expected "t2", got "t1""#])
    }

    /// A variable holding a number (a captured id) is shown as the number it
    /// stands for: `{{n}} ("5")` read as if a string were expected.
    @Test func aVariablesValueIsShownAsTheValueItStandsFor() throws {
        var matcher = TranscriptMatcher(variables: ["n": "5", "s": "abc", "t": "true"])
        #expect(try mismatches(#"{"a": {{n}}, "b": {{s}}, "c": {{t}}}"#, #"{"a": 6, "b": "x", "c": false}"#, matcher: &matcher)
            == ["body .a: expected {{n}} (5), got 6", #"body .b: expected {{s}} ("abc"), got "x""#, "body .c: expected {{t}} (true), got false"])
    }

    /// A number's variable written bare expects the number: the string
    /// "123456" where the recording had 123456 passed (and the mock that
    /// served it as a string passed its own replay). A bare word's variable
    /// still takes the string it stands for.
    @Test func aNumbersVariableWrittenBareExpectsANumber() throws {
        var matcher = TranscriptMatcher(variables: ["id": "123456", "money": "19.990", "s": "abc"])
        #expect(try mismatches(#"{"a": {{id}}, "b": {{money}}, "c": {{s}}}"#, #"{"a": "123456", "b": "19.990", "c": "abc"}"#, matcher: &matcher)
            == ["body .a: expected {{id}} (123456), got \"123456\"", "body .b: expected {{money}} (19.990), got \"19.990\""])
        #expect(try mismatches(#"{"a": {{id}}, "b": {{money}}}"#, #"{"a": 123456, "b": 19.99}"#, matcher: &matcher).isEmpty)
    }

    /// An error line is explorer's reading of the answer: a suite recorded
    /// when it read `422 Unprocessable Entity` passes against the same body
    /// read `422: title: can't be blank`. A different body, status, or a
    /// line of another kind (a refresh's failure) still differs.
    @Test func anErrorLineReadFromAMatchingBodyIsNoDifference() throws {
        let body = try ExpectedJSONParser.parse(#"{"errors": {"title": ["can't be blank"]}}"#)
        let recorded = Expectation(status: 422, reason: "Unprocessable Entity", body: .json(body),
                                   errors: [try PatternText.parse("422 Unprocessable Entity")])
        var observed = Observation(status: 422, reason: "Unprocessable Entity", body: .json(try JSONParser.parse(#"{"errors": {"title": ["can't be blank"]}}"#)))
        observed.errors = ["422: title: can't be blank"]
        var matcher = TranscriptMatcher()
        #expect(matcher.match(recorded, observed).isEmpty)
        var otherBody = observed
        otherBody.body = .json(try JSONParser.parse(#"{"errors": {"title": ["is too long"]}}"#))
        otherBody.errors = ["422: title: is too long"]
        #expect(matcher.match(recorded, otherBody).map(\.place) == [.body(try JSONPath.parse(".errors.title[0]")), .error(1)])
        // Without a recorded body the line is the step's only word on the answer: compared.
        var bare = recorded
        bare.body = nil
        var bareObserved = observed
        bareObserved.body = nil
        #expect(matcher.match(bare, bareObserved).map(\.place) == [.error(1)])
        // A line that is not the answer's reading (a refresh that failed) is compared.
        var refresh = observed
        refresh.errors = ["token refresh failed: /refresh answered 502 Bad Gateway"]
        #expect(matcher.match(recorded, refresh).map(\.place) == [.error(1)])
    }

    /// Integers past a double's precision (64-bit ids) are compared by their digits.
    @Test func longIntegersAreComparedExactly() throws {
        #expect(try mismatches(#"{"big": 12345678901234567891}"#, #"{"big": 12345678901234567890}"#)
            == ["body .big: expected 12345678901234567891, got 12345678901234567890"])
        #expect(try mismatches(#"{"big": 12345678901234567890, "n": 8}"#, #"{"big": 12345678901234567890, "n": 8.0}"#).isEmpty)
        #expect(try mismatches("[-9007199254740993]", "[-9007199254740992]").count == 1)
    }

    /// A text body in place of JSON (a proxy's page) is said by its first
    /// line: "a text body of 1 line" left out the message that was the clue.
    @Test func aTextBodyInPlaceOfJSONIsSaidByItsFirstLine() throws {
        let expectation = try TranscriptParser.parse("# explorer transcript v1\nprofile: generic\nbase-url: sandbox\n\n> get /x\nHTTP/1.1 200 OK\n{\"ok\": true}\n")
            .steps[0].expectation
        var matcher = TranscriptMatcher()
        let got = matcher.match(expectation, Observation(status: 200, body: .text(["", "  <h1>502 Bad Gateway: upstream down</h1>", "<p>x</p>"])))
        #expect(got.map(\.description) == [#"body .: expected a JSON body: { "ok": true }, got a text body of 3 lines: <h1>502 Bad Gateway: upstream down</h1>"#])
    }

    /// Numbers are equal by their exact value, not as doubles: two numbers
    /// past a double's range were both infinity, and long decimals rounded
    /// alike, so a replay passed answers that had changed.
    @Test func numbersAreComparedByTheirExactValue() throws {
        for (expected, got) in [("1e400", "2e400"), ("-1e400", "-3e999"), ("1.0000000000000000000001", "1"), ("0.3", "0.30000000000000004"),
                                ("1e1000000000000", "1e1000000000001"), ("5", "-5")] {
            #expect(try mismatches("[\(expected)]", "[\(got)]").count == 1, "\(expected) \(got)")
        }
        for (expected, got) in [("8", "8.0"), ("-0", "0"), ("0.0", "-0.00e5"), ("1E5", "100000"), ("1.50", "15e-1"), ("12.5e+1", "125"),
                                ("1e400", "10E399"), ("0.000", "0")] {
            #expect(try mismatches("[\(expected)]", "[\(got)]").isEmpty, "\(expected) \(got)")
        }
    }

    /// Strings and keys are equal by their code points: Swift's `==` took a
    /// composed `é` for a decomposed one, other bytes on the wire.
    @Test func stringsAreComparedByTheirCodePoints() throws {
        #expect(try mismatches(#"{"s": "caf\u00e9"}"#, #"{"s": "cafe\u0301"}"#)
            == ["body .s: expected \"caf\u{E9}\", got \"cafe\u{301}\" (the same text in other code points: composed and decomposed accents are other bytes)"])
        #expect(JSONValue.object([("caf\u{E9}", .int(1))]) != JSONValue.object([("cafe\u{301}", .int(1))]))
        #expect(try mismatches(#"{"caf\u00e9": 1}"#, #"{"cafe\u0301": 1}"#).count == 2, "one key missing, one extra")
        // A key given twice is read as its last, as JavaScript and jq read it.
        let twice = try JSONParser.parse(#"{"a": 1, "b": 2, "a": 3, "caf\u00e9": 4, "cafe\u0301": 5}"#)
        #expect(twice["a"] == .int(3))
        #expect(twice["caf\u{E9}"] == .int(4) && twice["cafe\u{301}"] == .int(5))
    }

    @Test func extraKeysAreAMismatchUnlessTheObjectSaysSo() throws {
        #expect(try mismatches(#"{"a": 1}"#, #"{"a": 1, "b": 2}"#)
            == ["body .b: expected no such key (write ... in the object to allow extra keys), got 2"])
        #expect(try mismatches(#"{"a": 1, ...}"#, #"{"a": 1, "b": 2}"#).isEmpty)
        #expect(try mismatches(#"{"a": 1, "b": 2, ...}"#, #"{"a": 1}"#) == ["body .b: expected 2, got no such key"])
        // `...` opens only the object it is in.
        #expect(try mismatches(#"{"user": {"id": 1}, ...}"#, #"{"user": {"id": 1, "x": 0}}"#).count == 1)
    }

    @Test func arraysAreOrderedUnlessTheyContain() throws {
        #expect(try mismatches("[1, 2, 3]", "[1, 2, 3]").isEmpty)
        // The same elements in another order: one line that says so (each key of each element differed:
        // ten lines, and "… and 6 more" hid the one that said why).
        let order = "expected the elements in the order written (write ... as the last element to take them in any order), got the same elements in another order: "
        #expect(try mismatches("[1, 2, 3]", "[1, 3, 2]") == ["body .: " + order + "[1] came at [2], [2] at [1]"])
        #expect(try mismatches(#"[{"type": "ack", "id": {{n:=integer}}}, {"type": "message", "from": "bob"}]"#,
                               #"[{"type": "message", "from": "bob"}, {"type": "ack", "id": 7}]"#) == ["body .: " + order + "[0] came at [1], [1] at [0]"])
        #expect(try mismatches("[1, 2, 3]", "[1, 3, 4]") == ["body [1]: expected 2, got 3", "body [2]: expected 3, got 4"], "not the same elements")
        #expect(try mismatches("[1, 2]", "[1, 2, 3]") == ["body .: expected 2 elements, got 3"])
        #expect(try mismatches("[3, 1, ...]", "[1, 2, 3]").isEmpty)
        #expect(try mismatches(#"[{"id": 2, ...}, ...]"#, #"[{"id": 1, "t": "a"}, {"id": 2, "t": "b"}]"#).isEmpty)
        #expect(try mismatches("[4, ...]", "[1, 2, 3]") == ["body [0]: expected 4, got no element of the live array matches"])
        // An object that matches none is told apart from the nearest: a key renamed in every element was not named.
        #expect(try mismatches(#"[{"id": 1, "name": "apple"}, ...]"#, #"[{"id": 2, "title": "pear"}, {"id": 1, "title": "apple"}]"#) == [
            #"body [0]: expected { "id": 1, "name": "apple" }, got no element of the live array matches; the nearest is [1]:"#,
            #"body [1].name: expected "apple", got no such key"#,
            "body [1].title: expected no such key (write ... in the object to allow extra keys), got \"apple\""])
        // Each listed element needs an element of its own.
        #expect(try mismatches("[1, 1, ...]", "[1, 2]").count == 1)
    }

    @Test func patternsMatchByKind() throws {
        let live = #"{"id": 7, "price": 2.5, "name": "x", "uuid": "123e4567-e89b-12d3-a456-426614174000", "at": "2025-01-05T09:00:00Z", "any": [1]}"#
        let pattern = #"{"id": {{integer}}, "price": {{number}}, "name": {{string}}, "uuid": "{{uuid}}", "at": "{{timestamp}}", "any": {{*}}}"#
        #expect(try mismatches(pattern, live).isEmpty)
        #expect(try mismatches(#"{"id": {{integer}}}"#, #"{"id": "7"}"#) == [#"body .id: expected {{integer}}, got "7""#])
        #expect(try mismatches(#"{"at": "{{timestamp}}"}"#, #"{"at": "soon"}"#) == [#"body .at: expected "{{timestamp}}", got "soon""#])
        #expect(try mismatches(#"{"code": {{/[A-Z_]+/}}}"#, #"{"code": "TASK_NOT_FOUND"}"#).isEmpty)
        #expect(try mismatches(#"{"m": "task {{integer}} not found"}"#, #"{"m": "task 99 not found"}"#).isEmpty)
    }

    @Test func capturesBindOnFirstSightAndMustAgreeLater() throws {
        var matcher = TranscriptMatcher()
        #expect(try mismatches(#"{"id": {{task_id:=integer}}}"#, #"{"id": 6}"#, matcher: &matcher).isEmpty)
        #expect(matcher.captures["task_id"] == Capture(value: .int(6), fromText: false))
        #expect(try mismatches(#"{"id": {{task_id}}, "again": {{task_id:=integer}}}"#, #"{"id": 6, "again": 6}"#, matcher: &matcher).isEmpty)
        #expect(try mismatches(#"{"id": {{task_id}}}"#, #"{"id": 7}"#, matcher: &matcher) == ["body .id: expected {{task_id}} (6), got 7"])
        #expect(try mismatches(#"{"id": {{other}}}"#, #"{"id": 7}"#, matcher: &matcher)
            == ["body .id: expected {{other}}, but nothing is bound to 'other' yet, got 7"])
        // A kind word's typo is a reference nothing binds: said with the word it was likely meant to be.
        #expect(try mismatches(#"{"id": {{intger}}}"#, #"{"id": 7}"#, matcher: &matcher)
            == ["body .id: expected {{intger}}, but nothing is bound to 'intger' yet (did you mean {{integer}}?), got 7"])
        // A capture's typo, alone or inside a text: said with the capture it was likely meant to be.
        #expect(try mismatches(#"{"id": {{task_idd}}}"#, #"{"id": 6}"#, matcher: &matcher)
            == ["body .id: expected {{task_idd}}, but nothing is bound to 'task_idd' yet (did you mean {{task_id}}?), got 6"])
        #expect(try mismatches(#"{"m": "task {{task_idd}} not found"}"#, #"{"m": "task 6 not found"}"#, matcher: &matcher)
            == [#"body .m: expected "task {{task_idd}} not found", but nothing is bound to 'task_idd' yet (did you mean {{task_id}}?), got "task 6 not found""#])
    }

    @Test func aCaptureFromTextEqualsTheSameNumberLater() throws {
        var matcher = TranscriptMatcher()
        #expect(try mismatches(#"{"url": "/api/tasks/{{id:=integer}}"}"#, #"{"url": "/api/tasks/6"}"#, matcher: &matcher).isEmpty)
        #expect(matcher.captures["id"]?.text == "6")
        #expect(try mismatches(#"{"id": {{id}}}"#, #"{"id": 6}"#, matcher: &matcher).isEmpty)
    }

    @Test func referencesFallBackToSessionVariables() throws {
        var matcher = TranscriptMatcher(variables: ["base_url": "http://127.0.0.1:9"])
        #expect(try mismatches(#"{"link": "{{base_url}}/x", "same": {{base_url}}}"#,
                               #"{"link": "http://127.0.0.1:9/x", "same": "http://127.0.0.1:9"}"#, matcher: &matcher).isEmpty)
    }

    @Test func aFailedContainsTrialBindsNothing() throws {
        var matcher = TranscriptMatcher()
        let result = try mismatches(#"[{"id": {{x:=integer}}, "t": "b"}, ...]"#, #"[{"id": 1, "t": "a"}, {"id": 2, "t": "b"}]"#, matcher: &matcher)
        #expect(result.isEmpty)
        #expect(matcher.captures["x"]?.value == .int(2))
    }

    @Test func secretsMatchAnyValueAndAreNeverShown() throws {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"
        #expect(try mismatches(#"{"access_token": "{{secret:access_token}}"}"#, #"{"access_token": "\#(jwt)"}"#).isEmpty)
        let shown = try mismatches(#"{"access_token": 1}"#, #"{"access_token": "\#(jwt)"}"#)
        #expect(shown == ["body .access_token: expected 1, got \"<hidden: \(jwt.count) characters>\""])
    }

    /// A created thing's Location holds the server's id: recorded as it
    /// came (the mock serves the place the recording went to), a replay
    /// takes any id there, and the path around it must be the same.
    /// `--update` keeps such a line as written (it wrote each run's id).
    @Test func aLocationsIdsAreOfTheirKind() throws {
        func step(_ location: String) -> Core.Expectation {
            Expectation(status: 201, reason: "Created", headers: [("Location", .literal(location))])
        }
        func seen(_ location: String) -> Observation {
            Observation(status: 201, reason: "Created", headers: [HTTPHeader(name: "Location", value: location)])
        }
        let uuid = "3f2b8c1e-9a4d-4c2b-8f6e-1d2c3b4a5e6f", other = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"
        for (recorded, live) in [("/items/1", "/items/908"), ("http://h.example:8080/v1/notes/\(uuid)/", "http://h.example:8080/v1/notes/\(other)/"),
                                 ("/jobs/12?attempt=3", "/jobs/40?attempt=1")] {
            var matcher = TranscriptMatcher()
            #expect(matcher.match(step(recorded), seen(live)).isEmpty, "\(recorded) against \(live)")
            #expect(TranscriptWriter.response(step(recorded).updated(with: seen(live), matcher: &matcher, baseURL: nil))
                == ["HTTP/1.1 201 Created", "Location: \(recorded)"])
        }
        for (recorded, live) in [("/items/1", "/things/1"), ("/items/1", "/items/abc"), ("/items/1", "/items/1/x"), ("/items/v1", "/items/v2"), ("/items/5", "/items/-1")] {
            var matcher = TranscriptMatcher()
            #expect(matcher.match(step(recorded), seen(live)).map(\.description) == ["header Location: expected \(recorded), got \(live)"])
        }
    }

    @Test func wholeStepsCompareStatusHeadersBodyErrorsAndNotes() throws {
        var expectation = Expectation(refreshed: false, status: 201, reason: "Created",
                                      headers: [("Content-Type", try PatternText.parse("application/json{{*}}"))],
                                      body: .json(try expected(#"{"id": {{id:=integer}}}"#)), notes: [.literal("created")])
        let observed = Observation(refreshed: true, status: 200, reason: "OK",
                                   headers: [HTTPHeader(name: "content-type", value: "application/json; charset=utf-8")],
                                   body: .json(try json(#"{"id": 3}"#)), errors: ["oops"])
        var matcher = TranscriptMatcher()
        // A refresh the recording did not have is no difference (tokens expire on their own clock).
        #expect(matcher.match(expectation, observed).map(\.description) == [
            "status: expected 201 Created, got 200 OK",
            "error line 1: expected no error, got oops",
            "note line 1: expected created, got no note",
        ])
        // One the recording had, caused on purpose, must happen.
        #expect(matcher.match(Expectation(refreshed: true, status: 200, reason: "OK"), Observation(status: 200, reason: "OK")).map(\.description)
            == ["refresh: expected a token refresh and a retry, got no refresh"])
        expectation.headers = [("X-Request-Id", .literal("1"))]
        expectation.body = .text([.literal("a")])
        #expect(matcher.match(expectation, Observation(status: 201)).map(\.description).prefix(2) == [
            "header X-Request-Id: expected 1, got no such header",
            "body .: expected a text body of 1 line: a, got no body",
        ])
    }

    @Test func textBodiesCompareLineByLine() throws {
        let expectation = Expectation(body: .text([try PatternText.parse("a {{integer}}"), .literal("b")]))
        var matcher = TranscriptMatcher()
        #expect(matcher.match(expectation, Observation(body: .text(["a 1", "b"]))).isEmpty)
        #expect(matcher.match(expectation, Observation(body: .text(["a x", "b", "c"]))).map(\.description)
            == ["body line 1: expected a {{integer}}, got a x", "body line 3: expected no line, got c"])
    }
}

/// Issue 11 #9: a replay found a step's new captures by walking all of them
/// (and copying them) at every step; `captureOrder` names them in the order
/// bound, so a step reads only its own.
@Suite struct CaptureOrderTests {
    @Test func capturesAreListedOnceInTheOrderBound() throws {
        var matcher = TranscriptMatcher()
        for (n, id) in [7, 8, 7].enumerated() {
            let expected = try ExpectedJSONParser.parse("{\"id\": {{id\(n % 2):=integer}}}")
            #expect(matcher.match(expected, .object([("id", .int(id))])).isEmpty)
        }
        #expect(matcher.captureOrder == ["id0", "id1"])
        #expect(matcher.captures["id0"]?.text == "7")
    }
}
