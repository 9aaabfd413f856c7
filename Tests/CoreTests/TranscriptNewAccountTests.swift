import Core
import Testing

/// A session that registers an account: its password lives in a
/// `new_`-named secret the replay invents, and a line that only names the
/// variable holding it is written as typed.
@Suite struct TranscriptNewAccountTests {
    @Test func aNewSecretIsInventedOncePerReplay() throws {
        let resolver = SecretResolver(environment: [:], demoAccounts: [])
        let first = try resolver.value("new_password", email: "newbie@example.com")
        #expect(try resolver.value("new_password", email: nil) == first)
        #expect(first.contains { $0.isLetter } && first.contains { $0.isNumber })
        let other = SecretResolver(environment: [:], demoAccounts: [])
        #expect(try other.value("new_password", email: nil) != first)
        // The environment still wins.
        let given = SecretResolver(environment: ["EXPLORER_SECRET_NEW_PASSWORD": "given1"], demoAccounts: [])
        #expect(try given.value("new_password", email: nil) == "given1")
        // An empty variable is an unset one (as CI hands over a secret it does not have): missing, not "".
        let error = #expect(throws: SecretResolver.Missing.self) { try SecretResolver(environment: ["EXPLORER_SECRET_TOKEN": ""], demoAccounts: []).value("token", email: nil) }
        #expect(error?.description == "no value for {{secret:token}}: set EXPLORER_SECRET_TOKEN")
        #expect(try SecretResolver(environment: ["EXPLORER_SECRET_NEW_PASSWORD": ""], demoAccounts: []).value("new_password", email: nil) != "")
    }

    /// A variable in a pasted curl's header or cookie (`-H 'X-CSRFToken: {{csrf}}'`,
    /// `-b 'csrftoken={{csrf}}'`) or a Cookie item was written as a secret:
    /// the replay asked for a value nobody had, and its steps did not run.
    @Test func aVariableInACurlHeaderOrACookieIsKept() {
        let curl = ["curl", "http://h/x", "-H", "X-CSRFToken: {{csrf}}", "-b", "csrftoken={{csrf}}; sid={{sid}}", "-H", "Cookie: a={{b}}"]
        #expect(Redactor.redact(words: curl) == curl)
        #expect(Redactor.redact(words: ["curl", "http://h/x", "-b", "sid=abc; x={{y}}", "-H", "X-CSRFToken: abcdef"])
                == ["curl", "http://h/x", "-b", "***", "-H", "X-CSRFToken: ***"])
        #expect(Redactor.redact(words: ["get", "/echo", "Cookie:csrftoken={{csrf}}"]) == ["get", "/echo", "Cookie:csrftoken={{csrf}}"])
        #expect(Redactor.redact(words: ["get", "/echo", "Cookie:csrftoken=abc"]) == ["get", "/echo", "Cookie:***"])
    }

    @Test func aVariableReferenceIsNotASecret() {
        #expect(Redactor.redact(words: ["post", "/auth/register", "password={{new_password}}"]) == ["post", "/auth/register", "password={{new_password}}"])
        #expect(Redactor.redact(words: ["get", "/x", "Authorization:{{auth}}"]) == ["get", "/x", "Authorization:{{auth}}"])
        // Text around the reference may be the secret itself.
        #expect(Redactor.redact(words: ["post", "/x", "password=a{{b}}"]) == ["post", "/x", "password=***"])
        #expect(Redactor.redact(words: ["post", "/x", "password=hunter22"]) == ["post", "/x", "password=***"])
    }

    @Test func theScrubberTellsUnderWhichNameItLearnedAValue() {
        var scrubber = SecretScrubber()
        scrubber.learn("Sunny2day4me", name: "new_password")
        #expect(scrubber.name(of: "Sunny2day4me") == "new_password")
        #expect(scrubber.name(of: "other-value") == nil)
    }
}

/// Ids the server makes up inside a string are recorded as patterns too.
@Suite struct RecordingUUIDsInTextTests {
    @Test func aUUIDInsideAStringBecomesAPattern() {
        let text = PatternText.recording("http://h:1/uploads/d1f64344-dda4-4114-a422-e8d58405d155.png", baseURL: "http://h:1")
        #expect(text.description == "{{base_url}}/uploads/{{uuid}}.png")
        #expect(PatternText.recording("no id here", baseURL: nil).literalText == "no id here")
    }
}

/// An error answer hands out no secrets: its secret-named members are messages.
@Suite struct RecordingErrorDetailsTests {
    @Test func aValidationMessageAboutThePasswordIsKept() {
        let details = JSONValue.object([("password", .string("required")), ("token", .string("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"))])
        let body = JSONValue.object([("code", .string("VALIDATION_ERROR")), ("details", details)])
        let refused = Expectation(recording: Observation(status: 422, body: .json(body)), baseURL: nil)
        let text = TranscriptWriter.step(TranscriptStep(command: "post /x", expectation: refused))
        #expect(text.contains("\"password\": \"required\""))
        #expect(text.contains("\"token\": \"{{secret:token}}\""), "a JWT-shaped string is hidden in any answer")
        let accepted = Expectation(recording: Observation(status: 200, body: .json(body)), baseURL: nil)
        #expect(TranscriptWriter.step(TranscriptStep(command: "post /x", expectation: accepted)).contains("\"password\": \"{{secret:password}}\""))
    }

    /// A 401's `details.access_token` echoing the token sent was written in
    /// clear: a value that looks like a token is hidden in an error answer too.
    @Test func aTokenInAnErrorAnswerIsHidden() {
        let details = JSONValue.object([("access_token", .string("SEKRIT61errat")), ("password", .string("too short")), ("pwd", .string("abc"))])
        let refused = Expectation(recording: Observation(status: 401, body: .json(.object([("details", details)]))), baseURL: nil)
        let text = TranscriptWriter.step(TranscriptStep(command: "get /x", expectation: refused))
        #expect(text.contains("\"access_token\": \"{{secret:access_token}}\"") && !text.contains("SEKRIT"), "\(text)")
        #expect(text.contains("\"password\": \"too short\"") && text.contains("\"pwd\": \"abc\""), "\(text)")
        // A short credential echoed (`auth bearer abc`, then a 401) was written in clear.
        let echoed = Expectation(recording: Observation(status: 401, body: .json(.object([("Authorization", .string("Bearer abc"))]))), baseURL: nil)
        let written = TranscriptWriter.step(TranscriptStep(command: "get /x", expectation: echoed))
        #expect(!written.contains("Bearer abc"), "\(written)")
        for name in ["accessKeyId", "otp_code", "mfaCode", "signingKey", "encryption_key", "client_assertion", "code_verifier"] {
            #expect(Redactor.isSecretName(name), "\(name)")
        }
    }
}
