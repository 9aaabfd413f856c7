import Foundation
import Testing
@testable import Core

/// The mock's values: what a transcript expects, made into something it matches.
@Suite struct MaterializerTests {
    func expected(_ text: String) throws -> ExpectedValue { try ExpectedJSONParser.parse(text) }

    @Test func whatIsMadeMatchesWhatWasExpected() throws {
        let body = try expected("""
        {"id": {{task_id:=integer}}, "ref": "{{uuid}}", "when": "{{timestamp}}", "token": "{{secret:access_token}}", "pin": {{secret:pin}},
         "url": "{{base_url}}/uploads/{{/[0-9a-f]{8}/}}.png", "same": {{task_id}}, "any": {{*}}, "n": {{number}}, "tags": ["a", ...], ...}
        """)
        var values = Materializer(seed: 27, baseURL: "http://127.0.0.1:9000", secret: { "tok-\($0)" })
        let made = values.value(body)
        var matcher = TranscriptMatcher(variables: ["base_url": "http://127.0.0.1:9000"])
        #expect(matcher.match(body, made).isEmpty, "\(JSONPrinter.compact(made))")
        #expect(made["id"] == made["same"], "a capture is reused where it is referenced")
        #expect(made["token"] == .string("tok-access_token"))
        // A bare secret stood for a number (a recording quotes a string's): a number is made.
        #expect(made["pin"]?.intValue != nil, "\(String(describing: made["pin"]))")
        #expect(made["url"]?.stringValue == "http://127.0.0.1:9000/uploads/00000000.png")
        #expect(values.bindings["task_id"] == made["id"])
    }

    /// A bare regex was served as a string ("seq": "0", "flag": "true"): a
    /// client decoding Int or Bool failed against the mock alone.
    @Test func aBareRegexIsServedAsTheNumberOrBooleanItSamples() throws {
        let body = try expected(#"{"seq": {{/[0-9]+/}}, "flag": {{/true|false/}}, "code": {{/[A-Z]{3}/}}, "quoted": "{{/[0-9]+/}}"}"#)
        var values = Materializer(seed: 3)
        let made = values.value(body)
        #expect(made == .object([("seq", .number("0")), ("flag", .bool(true)), ("code", .string("AAA")), ("quoted", .string("0"))]),
                "\(JSONPrinter.compact(made))")
        var matcher = TranscriptMatcher()
        #expect(matcher.match(body, made).isEmpty, "what the mock serves a replay accepts")
    }

    /// The lifetime a recorded login gave its token is the mock's (`explorer mock` without --token-ttl), as a
    /// number or as a string of digits (Azure AD v1's), which is served as a string again.
    @Test func aRecordedTokenLifetimeIsReadAsANumberOrDigits() throws {
        let number = try expected(#"{"data": {"access_token": "{{secret:access_token}}", "expires_in": 3600}}"#)
        let digits = try expected(#"{"access_token": "{{secret:access_token}}", "expires_in": "120"}"#)
        #expect(Materializer.recordedTokenLifetime(in: number) == 3600 && Materializer.recordedTokenLifetime(in: digits) == 120)
        #expect(Materializer.recordedTokenLifetime(in: try expected(#"{"expires_in": 60, "id": 1}"#)) == nil, "no token beside it")
        var values = Materializer(seed: 1)
        values.lifetime = 120
        #expect(values.value(digits)["expires_in"] == .string("120"))
    }

    @Test func theSameStepMakesTheSameValuesAndAnotherStepOthers() throws {
        let body = try expected(#"{"id": {{integer}}, "key": "{{string}}", "ref": "{{uuid}}"}"#)
        var one = Materializer(seed: 60)
        var again = Materializer(seed: 60)
        var other = Materializer(seed: 61)
        let first = one.value(body)
        #expect(first == again.value(body))
        #expect(first["id"] != other.value(body)["id"])
    }

    @Test func aBoundCaptureKeepsItsValue() throws {
        var values = Materializer(seed: 1, bindings: ["message_id": .int(77)])
        #expect(values.value(try expected(#"{"id": {{message_id:=integer}}}"#)) == .object([("id", .int(77))]))
        #expect(values.text(try PatternText.parse("/api/users/messages/{{message_id}}/read")) == "/api/users/messages/77/read")
    }

    @Test(arguments: [#"[0-9a-f]+"#, #"img-\d{3}\.png"#, #"^(yes|no)$"#, #"[A-Z]{2}-[0-9]{4}"#])
    func aSimpleRegexGetsATextItAccepts(source: String) throws {
        let sample = try #require(Materializer.sample(of: source))
        #expect(try Regex(source).wholeMatch(in: sample) != nil, "\(sample)")
    }

    @Test func anErrorBodyInEachEnvelopeReadsBackAsOneLine() {
        let envelopes: [ErrorEnvelope] = [Profile.linku.errorEnvelope, Profile.nova.errorEnvelope, .generic,
                                          .fields(ErrorFields(message: JSONPath(components: [.key("error"), .key("text")]),
                                                              code: JSONPath(components: [.key("error"), .key("kind")]))),
                                          // JSON:API's: the mock's own 404 was `{"errors": {}}`, no message in it.
                                          .fields(ErrorFields(message: JSONPath(components: [.key("errors"), .index(0), .key("detail")]),
                                                              code: JSONPath(components: [.key("errors"), .index(0), .key("code")])))]
        for envelope in envelopes {
            let body = envelope.body(status: 404, code: "NOT_RECORDED", message: "no recorded step")
            #expect(envelope.describe(status: 404, body: body)?.contains("no recorded step") == true, "\(JSONPrinter.compact(body))")
        }
        let jsonAPI = envelopes.last!.body(status: 404, code: "NOT_RECORDED", message: "no recorded step")
        #expect(JSONPrinter.compact(jsonAPI) == #"{"errors":[{"code":"NOT_RECORDED","detail":"no recorded step"}]}"#)
    }
}

extension MaterializerTests {
    /// GoTrue's `"expires_at": 1795…`, recorded `{{integer}}`, was served
    /// as 1002: a session expired in 1970, which supabase-swift refreshed at
    /// every call. A time-named integer is now, an expiry now and a token's life.
    @Test func aTimeInSecondsIsNowAndAnExpiryIsAhead() throws {
        var values = Materializer(seed: 10)
        values.lifetime = 60
        let made = values.value(.object([.init("expires_at", .pattern(TranscriptPattern(.integer))), .init("updatedAt", .pattern(TranscriptPattern(.integer))),
                                          .init("count", .pattern(TranscriptPattern(.integer)))], open: false))
        let now = Int(Date().timeIntervalSince1970)
        let expires = try #require(made["expires_at"]?.intValue), updated = try #require(made["updatedAt"]?.intValue)
        #expect(abs(expires - (now + 60)) <= 30 && abs(updated - now) <= 30 && expires > updated, "\(JSONPrinter.compact(made))")
        #expect(made["count"]?.intValue.map { $0 < 100_000 } == true)
        // A login's `expires_in` beside a token the mock signs is the token's life (it said 900 of one signed for 60 s).
        let login = values.value(.object([.init("access_token", .text(PatternText([.pattern(TranscriptPattern(.secret("access_token")))]))),
                                          .init("expires_in", .literal(.int(900)))], open: false))
        #expect(login["expires_in"] == .int(60), "\(JSONPrinter.compact(login))")
        let plain = values.value(.object([.init("expires_in", .literal(.int(900)))], open: false))
        #expect(plain["expires_in"] == .int(900))
        // In milliseconds where its name says so: seconds were a date in January 1970 to an app that reads ms.
        let millis = values.value(.object([.init("createdAtMs", .pattern(TranscriptPattern(.integer)))], open: false))
        #expect(millis["createdAtMs"]?.intValue.map { abs($0 - now * 1000) <= 30_000 } == true, "\(JSONPrinter.compact(millis))")
        let fraction = values.value(.object([.init("server_time", .pattern(TranscriptPattern(.number)))], open: false))
        #expect(fraction["server_time"].flatMap { Double($0.plainText) }.map { abs($0 - Double(now)) <= 30 } == true, "\(JSONPrinter.compact(fraction))")
    }

    /// An answer is the same each time it is served: once its capture was
    /// bound, the values after it moved up one (`count` took the id's value).
    @Test func anAnswerIsTheSameOnceItsCaptureIsBound() {
        let expected = ExpectedValue.object([.init("id", .pattern(TranscriptPattern(.integer, capture: "sid"))),
                                             .init("updated_at", .pattern(TranscriptPattern(.integer, capture: "at"))),
                                             .init("count", .pattern(TranscriptPattern(.integer))),
                                             .init("note", .pattern(TranscriptPattern(.string)))], open: false)
        var first = Materializer(seed: 22)
        let made = first.value(expected)
        var again = Materializer(seed: 22, bindings: first.bindings)
        #expect(again.value(expected) == made, "\(JSONPrinter.compact(made))")
        #expect(made["id"] != made["count"])
    }

    @Test func aTimestampIsRFC3339InUTC() throws {
        let text = Materializer.timestamp()
        #expect(try Regex(#"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z"#).wholeMatch(in: text) != nil, "\(text)")
        #expect(ISO8601DateFormatter().date(from: text).map { abs($0.timeIntervalSinceNow) < 5 } == true)
    }
}
