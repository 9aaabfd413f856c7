import Testing
@testable import Core

/// WebSocket steps: `→`/`←` frames parse, match (in order, in any order,
/// missing, out of order), record with patterns and captures, and re-bless.
@Suite struct TranscriptFrameTests {
    static let base = "http://127.0.0.1:4040"

    static func frames(_ text: String) throws -> TranscriptStep {
        let transcript = try TranscriptParser.parse("# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n\n" + text)
        return try #require(transcript.steps.first)
    }

    static func received(_ json: String) -> ObservedFrame { ObservedFrame(.received, text: json) }
    static func sent(_ json: String) -> ObservedFrame { ObservedFrame(.sent, text: json) }

    static let ack = #"{"type":"ack","client_message_id":"a-1","message":{"id":4,"conversation_id":1,"sender_id":1,"receiver_id":2,"content":"hi","type":"text","client_message_id":"a-1","is_read":false,"read_at":null,"created_at":"2026-03-01T10:15:02Z"}}"#
    static let receipt = #"{"type":"read","message_id":4,"conversation_id":1,"reader_id":2,"read_at":"2026-03-01T10:15:09Z"}"#

    @Test func framesParseWithTheirDirectionsAfterTheRestOfTheStep() throws {
        let step = try Self.frames("""
        > ws send {"type":"message","client_message_id":"a-1","receiver_id":2,"content":"hi"}
        note: something
        (frames in any order, within 2.5 s)
        → {"type": "message", ...}
        ← {
          "type": "ack",
          # the server's id for it
          "message": {"id": {{message_id:=integer}}, ...},
          ...
        }
        ← (text) hello {{*}}
        ← (binary frame, 12 bytes)

        """)
        let e = step.expectation
        #expect(e.notes == [.literal("something")])
        #expect(e.framesInAnyOrder && e.frameTimeout == 2.5)
        #expect(e.frames.map(\.direction) == [.sent, .received, .received, .received])
        #expect(e.frames[0] == ExpectedFrame(.sent, .json(.object([.init("type", .literal(.string("message")))], open: true))))
        guard case let .json(.object(members, open: true)) = e.frames[1].content else { Issue.record("not an open object"); return }
        #expect(members.map(\.key) == ["type", "message"])
        #expect(e.frames[2] == ExpectedFrame(.received, .text(try PatternText.parse("hello {{*}}"))))
        #expect(e.frames[3] == ExpectedFrame(.received, .binary("binary frame, 12 bytes")))
        #expect(step.innerComments == ["# the server's id for it"])
        // Written back, it reads the same.
        let again = try Self.frames(TranscriptWriter.step(step))
        #expect(again.expectation == e)
    }

    /// A server's close is a line of its own: read, written back the same,
    /// matched by code and reason (a line break in the reason as `\n`).
    @Test func aServersCloseParsesWritesAndMatches() throws {
        let step = try Self.frames("> ws recv\n← (closed 4003: quota exceeded)\n← (closed 1000)\n← (closed 4001: a\\nb)\n")
        let e = step.expectation
        #expect(e.frames == [ExpectedFrame(.received, .closed(code: 4003, reason: "quota exceeded")),
                             ExpectedFrame(.received, .closed(code: 1000, reason: "")),
                             ExpectedFrame(.received, .closed(code: 4001, reason: "a\nb"))])
        #expect(try Self.frames(TranscriptWriter.step(step)).expectation == e)
        var matcher = TranscriptMatcher()
        let closes = [ObservedFrame(.received, .closed(code: 4003, reason: "quota exceeded")), ObservedFrame(.received, .closed(code: 1000, reason: "")),
                      ObservedFrame(.received, .closed(code: 4001, reason: "a\nb"))]
        #expect(matcher.match(e, Observation(frames: closes)) == [])
        var other = TranscriptMatcher()
        #expect(other.match(e, Observation(frames: [ObservedFrame(.received, .closed(code: 4008, reason: "quota exceeded"))] + closes.dropFirst())).map(\.actual)
                == ["(closed 4008: quota exceeded)"])
    }

    @Test func badFrameLinesSayWhereAndWhat() {
        #expect(throws: TranscriptParseError(line: 6, column: 12, message: "'nope' is not a JSON value")) {
            try Self.frames("> ws recv\n← {\"type\": nope}\n")
        }
        #expect(throws: TranscriptParseError(line: 6, column: 9,
                                             message: "expected '(frames in any order)', '(frames within SECONDS s)' or '(frames in any order, within SECONDS s)'")) {
            try Self.frames("> ws recv\n(frames sideways)\n← {}\n")
        }
        // A frame cut off at the end of the file is a torn step, not an error.
        let torn = try? TranscriptParser.parse("# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n\n> get /a\nHTTP/1.1 200 OK\n\n> ws recv\n← {\n  \"type\": ")
        #expect(torn?.steps.count == 1)
        #expect(torn?.torn?.line == 8)
    }

    @Test func receivedFramesMatchInOrderAndBindCaptures() throws {
        let step = try Self.frames("""
        > ws send {"type":"read","message_id":4}
        ← {"type": "ack", "client_message_id": "a-1", "message": {"id": {{message_id:=integer}}, ...}}
        ← {"type": "read", "message_id": {{message_id}}, "conversation_id": 1, "reader_id": 2, "read_at": "{{timestamp}}"}

        """)
        var matcher = TranscriptMatcher()
        #expect(matcher.match(step.expectation, Observation(frames: [Self.received(Self.ack), Self.received(Self.receipt)])) == [])
        #expect(matcher.captures["message_id"]?.value == .int(4))
        // The receipt names another message than the ack handed out.
        var other = TranscriptMatcher()
        let wrong = Self.receipt.replacingOccurrences(of: #""message_id":4"#, with: #""message_id":5"#)
        #expect(other.match(step.expectation, Observation(frames: [Self.received(Self.ack), Self.received(wrong)]))
            == [Mismatch(.frame(.received, 2, try JSONPath.parse(".message_id")), expected: "{{message_id}} (4)", actual: "5")])
    }

    @Test func aMissingFrameSaysHowLongItWasWaitedFor() throws {
        let step = try Self.frames("> ws send {\"type\":\"ping\"}\n← {\"type\": \"ack\", ...}\n← {\"type\": \"read\", ...}\n")
        var matcher = TranscriptMatcher()
        let found = matcher.match(step.expectation, Observation(frames: [Self.received(Self.ack)], frameWait: 5))
        #expect(found == [Mismatch(.frame(.received, 2, JSONPath(components: [])), expected: #"{ "type": "read", ... }"#,
                                   actual: "no frame within 5 s")])
        #expect(found[0].place.description == "← frame 2")
    }

    /// Frames 0, 1, 2 against 7, 0, 1: two were said to have come "out of
    /// order", a hint that any order would pass, where 7 never came.
    @Test func framesThatDifferAreNotSaidToBeOutOfOrder() throws {
        let step = try Self.frames("> ws recv 3\n← {\"n\": 7}\n← {\"n\": 0}\n← {\"n\": 1}\n")
        var matcher = TranscriptMatcher()
        let live = (0..<3).map { Self.received(#"{"n":\#($0)}"#) }
        let found = matcher.match(step.expectation, Observation(frames: live, frameWait: 5))
        #expect(found.map(\.description) == ["← frame 1 .n: expected 7, got 0", "← frame 2 .n: expected 0, got 1", "← frame 3 .n: expected 1, got 2"])
    }

    @Test func framesOutOfOrderAreSaidToBeSoUnlessTheStepAllowsIt() throws {
        let text = "← {\"type\": \"ack\", ...}\n← {\"type\": \"read\", ...}\n"
        let ordered = try Self.frames("> ws recv 2\n" + text)
        var matcher = TranscriptMatcher()
        let found = matcher.match(ordered.expectation, Observation(frames: [Self.received(Self.receipt), Self.received(Self.ack)], frameWait: 5))
        // One line: the frame that came late is not compared again in its place (the receipt's keys against the ack's).
        #expect(found.count == 1, "\(found)")
        #expect(found[0].place == .frame(.received, 1, JSONPath(components: [])))
        #expect(found[0].actual.hasPrefix("frame 2 of the step came first, out of order: {\"type\":\"read\""))
        #expect(found[0].actual.hasSuffix("(write (frames in any order) to allow it)"))
        let anyOrder = try Self.frames("> ws recv 2\n(frames in any order)\n" + text)
        var relaxed = TranscriptMatcher()
        #expect(relaxed.match(anyOrder.expectation, Observation(frames: [Self.received(Self.receipt), Self.received(Self.ack)])) == [])
        // In any order, a frame nothing matches still fails, and says what came instead.
        var strict = TranscriptMatcher()
        let missing = strict.match(anyOrder.expectation, Observation(frames: [Self.received(Self.receipt), Self.received(Self.receipt)]))
        #expect(missing.map(\.place) == [.frame(.received, 1, JSONPath(components: []))])
        #expect(missing.first?.actual.hasPrefix("none of the frames that came matches ({\"type\":\"read\"") == true)
    }

    @Test func sentAndReceivedFramesAreComparedApart() throws {
        let step = try Self.frames("> ws send {\"type\":\"message\"}\n→ {\"type\": \"message\"}\n← {\"type\": \"ack\", ...}\n")
        var matcher = TranscriptMatcher()
        // The ack may be handled before the sent frame's notice: directions do not race.
        #expect(matcher.match(step.expectation, Observation(frames: [Self.received(Self.ack), Self.sent(#"{"type":"message"}"#)])) == [])
        var other = TranscriptMatcher()
        #expect(other.match(step.expectation, Observation(frames: [Self.received(Self.ack), Self.sent(#"{"type":"read"}"#)]))
            == [Mismatch(.frame(.sent, 1, try JSONPath.parse(".type")), expected: "\"message\"", actual: "\"read\"")])
    }

    /// A GraphQL document's line breaks were written as `{{/\x{A}/}}`, and the brace before one as `{{/\{/}}`:
    /// a subscription's frame could not be read. A JSON string keeps them as its own escapes, and replays.
    @Test func aStringsLineBreaksAreWrittenAsJSONEscapes() throws {
        var captures = FrameCaptures()
        let subscribe = Self.sent(#"{"id":"1","type":"subscribe","payload":{"query":"subscription OnTodo {\n  todoAdded { id }\n}\t"}}"#)
        let written = TranscriptWriter.frames([ExpectedFrame.recording(subscribe, baseURL: Self.base, captures: &captures)]).joined(separator: "\n")
        #expect(written.contains(#""query": "subscription OnTodo {\n  todoAdded { id }\n}\t""#), "\(written)")
        let step = try Self.frames("> ws send @sub.json\n" + written + "\n")
        var matcher = TranscriptMatcher()
        #expect(matcher.match(step.expectation, Observation(frames: [subscribe])) == [])
    }

    @Test func recordingWritesPatternsCapturesAndLeavesHeartbeatsOut() throws {
        var captures = FrameCaptures()
        let observed = [Self.sent(#"{"type":"message","client_message_id":"a-1","receiver_id":2,"content":"hi"}"#),
                        Self.received(#"{"type":"pong"}"#), Self.received(Self.ack), Self.received(#"{"type":"ka"}"#), Self.received(Self.receipt)]
        // The legacy GraphQL keep-alive too: written among a subscription's `data`, it failed replays on its timing.
        #expect(observed.filter(\.isHeartbeat).count == 2)
        #expect(!Self.received(#"{"type":"data","id":"ka"}"#).isHeartbeat)
        let written = observed.filter { !$0.isHeartbeat }.map { ExpectedFrame.recording($0, baseURL: Self.base, captures: &captures) }
        let text = TranscriptWriter.frames(written).joined(separator: "\n")
        #expect(text == """
        → {
          "type": "message",
          "client_message_id": "a-1",
          "receiver_id": 2,
          "content": "hi"
        }
        ← {
          "type": "ack",
          "client_message_id": "a-1",
          "message": {
            "id": {{message_id:=integer}},
            "conversation_id": 1,
            "sender_id": 1,
            "receiver_id": 2,
            "content": "hi",
            "type": "text",
            "client_message_id": "a-1",
            "is_read": false,
            "read_at": null,
            "created_at": "{{timestamp}}"
          }
        }
        ← {
          "type": "read",
          "message_id": {{message_id}},
          "conversation_id": 1,
          "reader_id": 2,
          "read_at": "{{timestamp}}"
        }
        """)
        // A second message gets a capture of its own.
        let next = ExpectedFrame.recording(Self.received(Self.ack.replacingOccurrences(of: #""id":4"#, with: #""id":5"#)), baseURL: Self.base, captures: &captures)
        #expect(TranscriptWriter.frames([next]).joined().contains("\"id\": {{message_id_2:=integer}}"))
        // What was written matches what was seen.
        let step = try Self.frames("> ws send {}\n" + text + "\n")
        var matcher = TranscriptMatcher()
        #expect(matcher.match(step.expectation, Observation(frames: Array(observed.filter { !$0.isHeartbeat }))) == [])
    }

    /// A `ws recv`'s body listed the frames' ids literally (`"id": 4`) where
    /// its `←` lines captured them: a replay against `explorer mock`, which
    /// numbers its frames otherwise, failed the body. The body writes an id
    /// the frames capture as its kind, one captured earlier as its reference,
    /// and binds nothing (its frames, matched after it, bind).
    @Test func aTakenFramesBodyWritesTheFramesIdsAsTheirLinesDo() throws {
        var captures = FrameCaptures()
        _ = ExpectedFrame.recording(Self.received(Self.ack), baseURL: Self.base, captures: &captures)
        let live = try JSONParser.parse("[" + Self.receipt + "," + Self.ack.replacingOccurrences(of: #""id":4"#, with: #""id":5"#) + "]")
        let written = ExpectedValue.recording(live, key: nil, baseURL: Self.base)
        let body = ExpectedFrame.recordingTaken(written, live: live, captures: captures)
        let text = body.pretty()
        #expect(text.contains("\"message_id\": {{message_id}},") && text.contains("\"id\": {{integer}},"), "\(text)")
        #expect(!text.contains(":=") && !text.contains("\"id\": 5"), "\(text)")
        // Nothing was bound: the step's `←` line binds the next name.
        let frame = ExpectedFrame.recording(Self.received(Self.ack.replacingOccurrences(of: #""id":4"#, with: #""id":5"#)), baseURL: Self.base, captures: &captures)
        #expect(TranscriptWriter.frames([frame]).joined().contains("\"id\": {{message_id_2:=integer}}"))
        var matcher = TranscriptMatcher()
        #expect(matcher.match(body, try JSONParser.parse("[" + Self.receipt + "," + Self.ack.replacingOccurrences(of: #""id":4"#, with: #""id":77"#) + "]"))
                .isEmpty == false, "message_id is unbound in a fresh matcher: the reference must not pass blind")
    }

    @Test func socketURLsAndSecretsInFramesAreHidden() {
        var captures = FrameCaptures()
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"
        let frame = ExpectedFrame.recording(Self.received(#"{"url":"ws://127.0.0.1:4040/ws/chat/1","image":"http://127.0.0.1:4040/uploads/a.png","t":"\#(jwt)","session_key":"opaque-1234567"}"#),
                                            baseURL: Self.base, secretFields: SecretFields(["session_key"]), captures: &captures)
        let text = TranscriptWriter.frames([frame]).joined(separator: "\n")
        #expect(text.contains(#""url": "{{ws_base_url}}/ws/chat/1""#))
        #expect(text.contains(#""image": "{{base_url}}/uploads/a.png""#))
        #expect(text.contains(#""t": "{{secret:t}}""#))
        #expect(text.contains(#""session_key": "{{secret:session_key}}""#))
        #expect(!text.contains("opaque-1234567") && !text.contains("eyJ") && !text.contains("4040"))
    }

    @Test func updateRewritesOnlyFramesThatDiffer() throws {
        let step = try Self.frames("> ws recv\n← {\"type\": \"ack\", \"message\": {\"id\": {{message_id:=integer}}, ...}, ...}\n")
        var matcher = TranscriptMatcher()
        let same = step.expectation.updated(with: Observation(frames: [Self.received(Self.ack)]), matcher: &matcher, baseURL: Self.base)
        #expect(same.frames == step.expectation.frames)
        var other = TranscriptMatcher()
        let changed = step.expectation.updated(with: Observation(frames: [Self.received(Self.receipt)], frameWait: 5), matcher: &other, baseURL: Self.base)
        #expect(TranscriptWriter.frames(changed.frames).first == "← {")
        #expect(TranscriptWriter.frames(changed.frames).contains("  \"type\": \"read\","))
        // A frame written anew after message_id was bound refers to it, and binds no name twice.
        var bound = TranscriptMatcher()
        _ = bound.match(step.expectation, Observation(frames: [Self.received(Self.ack)]))
        let next = try Self.frames("> ws recv\n← {\"type\": \"typing\"}\n")
        let rewritten = next.expectation.updated(with: Observation(frames: [Self.received(Self.receipt),
                                                                            Self.received(Self.ack.replacingOccurrences(of: #""id":4"#, with: #""id":9"#))]),
                                                 matcher: &bound, baseURL: Self.base)
        let text = TranscriptWriter.frames(rewritten.frames).joined(separator: "\n")
        #expect(text.contains("\"message_id\": {{message_id}},"))
        #expect(text.contains("\"id\": {{message_id_2:=integer}},"))
    }
}

/// The fields each profile marks secret, and what a recording does with them.
@Suite struct ProfileSecretFieldsTests {
    @Test func everyProfileListsItsTokenFieldsAndPasswords() {
        #expect(Profile.linku.secretFields.contains("access_token") && Profile.linku.secretFields.contains("refresh_token"))
        #expect(Profile.nova.secretFields.contains("tokens.access_token") && Profile.nova.secretFields.contains("tokens.refresh_token"))
        #expect(Profile.levelup.secretFields.contains("accessToken") && Profile.levelup.secretFields.contains("refreshToken"))
        #expect(Profile.posture.secretFields.contains("access_token"))
        for profile in Profile.builtIn.values { #expect(profile.secretFields.contains("password"), "\(profile.name)") }
    }

    @Test func fieldsMatchByTheirLastKeys() {
        let fields = SecretFields(["tokens.access_token", "sid"])
        #expect(fields.contains(["tokens", "access_token"]))
        #expect(fields.contains(["data", "tokens", "access_token"]))
        #expect(!fields.contains(["access_token"]))
        #expect(fields.contains(["sid"]) && fields.containsName("sid") && fields.containsName("access_token"))
    }

    /// An opaque token (no JWT shape) under a name the name rule does not
    /// know is hidden only because the profile marks the field.
    @Test func anOpaqueTokenInAMarkedFieldIsHidden() throws {
        let body = try JSONParser.parse(#"{"auth": {"sid": "opaque-9f8e7d6c5b4a"}, "user": {"sid_hint": "visible"}}"#)
        let observed = Observation(status: 200, body: .json(body))
        let plain = TranscriptWriter.response(Expectation(recording: observed, baseURL: nil)).joined(separator: "\n")
        #expect(plain.contains("opaque-9f8e7d6c5b4a"))
        let marked = TranscriptWriter.response(Expectation(recording: observed, baseURL: nil, secretFields: SecretFields(["auth.sid"])))
            .joined(separator: "\n")
        #expect(!marked.contains("opaque-9f8e7d6c5b4a"))
        #expect(marked.contains(#""sid": "{{secret:sid}}""#))
        #expect(marked.contains(#""sid_hint": "visible""#))
        // The scrubber learns it too, and hides it wherever it is echoed.
        var scrubber = SecretScrubber()
        scrubber.learn(secretsIn: body, fields: SecretFields(["auth.sid"]))
        #expect(scrubber.scrub("echo: opaque-9f8e7d6c5b4a") == "echo: {{secret:sid}}")
    }

    @Test func levelUpsOpaqueTokensAreHiddenThroughTheProfile() throws {
        // Level Up's camelCase names: an opaque value, not a JWT.
        let body = try JSONParser.parse(#"{"message": "ok", "accessToken": "lu-opaque-0001", "refreshToken": "lu-opaque-0002", "user": {"id": 1}}"#)
        let text = TranscriptWriter.response(Expectation(recording: Observation(status: 200, body: .json(body)), baseURL: nil,
                                                         secretFields: SecretFields(Profile.levelup.secretFields))).joined(separator: "\n")
        #expect(!text.contains("lu-opaque"))
        #expect(text.contains(#""accessToken": "{{secret:accesstoken}}""#))
    }

    /// An --offline body is text lines: a secret member there is hidden
    /// however short (the scrubber skips values under six characters).
    @Test func aSecretMemberOfAnOfflineBodyIsHidden() {
        #expect(PatternText.recording(#"  "password": "abc","#, baseURL: nil).description == #"  "password": {{secret:password}}"#)
        #expect(PatternText.recording(#"  "title": "abc","#, baseURL: nil).description == #"  "title": "abc","#)
        #expect(PatternText.recording("access_token = <hidden>", baseURL: nil).description == "access_token = <hidden>")
    }
}
