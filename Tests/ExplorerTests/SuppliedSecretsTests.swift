import Core
import Foundation
import Testing
@testable import Explorer

/// The values a line types as secrets, which the screen hides from then on.
@Suite struct SuppliedSecretsTests {
    func typed(_ line: String) throws -> [String] {
        SuppliedSecrets.typed(in: try CommandParser().parse(line)).map { "\($0.name)=\($0.value)" }
    }

    /// A session credential set by `auth` (and a Basic pair typed with
    /// `-a`) showed in clear on streamed rows and frames that echoed the
    /// header: the live rows hide only the session's secrets.
    @Test func aCredentialHeadersSecretPartIsTheSessions() throws {
        #expect(try typed("auth bearer BearTok9731xyz") == ["token=BearTok9731xyz"])
        let basic = Data("alice:S3cr3tPass".utf8).base64EncodedString()
        #expect(try typed("auth basic alice:S3cr3tPass") == ["password=S3cr3tPass", "basic_credentials=\(basic)"])
        let bob = Data("bob:BobPw99887".utf8).base64EncodedString()
        #expect(try typed("get /ndjson -a bob:BobPw99887") == ["password=BobPw99887", "basic_credentials=\(bob)"])
        #expect(try typed("header X-Api-Key:k3y-typed-123") == ["X-Api-Key=k3y-typed-123"])
        #expect(try typed("header X-Trace:t-1").isEmpty)
    }

    /// A replay's capture of a piece of an echoed secret (`{{a:=/.{2}/}}{{b:=/.*/}}`) sent it elsewhere piece by
    /// piece: a piece over the secret's place in the text is a part of it, found however short; an id beside it is not.
    @Test func aPieceOfASecretIsFoundWhereverItIsSent() {
        var secrets = SuppliedSecrets()
        _ = secrets.add([("token", "SECRETTOKEN123")])
        let echo = "/echo?t=SECRETTOKEN123&id=5"
        #expect(secrets.secret(under: "SECRE", in: echo)?.name == "token")
        #expect(secrets.secret(under: "t=SECR", in: echo)?.name == "token", "a piece that starts before it")
        #expect(secrets.secret(under: "5", in: echo) == nil, "an id beside it")
        #expect(secrets.secret(under: "secre", in: "/echo?t=SecretToken123") != nil, "in another case")
        #expect(secrets.secret(under: "SECRE", in: "/echo?t=SECRET%54OKEN123") == nil, "the text holds it in no form it has")
        secrets.addPart("SE", of: "token")
        #expect(secrets.held(in: ["http://elsewhere/q?a=se"])?.placeholder == "part of {{secret:token}}")
        #expect(secrets.held(in: ["http://other/q?a=xx"]) == nil)
        #expect(secrets.secret(under: "S", in: "xSEx")?.name == "token", "a piece of a part")
        // Inside base64 at any offset (a Basic header's `x:SECRET`), in pieces: the word is the secret's place.
        let basic = "Basic " + Data("x:SECRETTOKEN123".utf8).base64EncodedString()
        let word = basic.dropFirst(6)
        #expect(secrets.secret(under: String(word.prefix(8)), in: basic)?.name == "token")
        #expect(secrets.secret(under: String(word.dropFirst(8)), in: basic)?.name == "token")
        #expect(secrets.secret(under: "Basic", in: basic) == nil, "the scheme beside it")
    }

    /// A GraphQL document's secret arguments (`login(email: "…", password: "…")`): kept in clear in history and
    /// transcripts, shown in clear in an echo, where the same value as a variable was hidden.
    @Test func aGraphQLDocumentsSecretArgumentsAreTypedAndHidden() throws {
        let line = #"post /graphql query='mutation { login(email: "ada@x.io", password: "hunter2secret") { token } }'"#
        #expect(try typed(line) == ["password=hunter2secret"])
        let raw = #"post /graphql --raw '{"query":"mutation { login(email: \"a\", password: \"hunter3secret\") { token } }"}'"#
        #expect(try typed(raw) == ["password=hunter3secret"])
        for typed in [line, raw] {
            let kept = Redactor.redact(line: typed) ?? typed
            #expect(!kept.contains("hunter") && kept.contains("password: "), "\(kept)")
        }
        let echo = Redactor.hidingCredentials(inText: #"login(password: "hunter2secret", email: "ada@x.io")"#)
        #expect(!echo.contains("hunter2secret") && echo.contains("ada@x.io"), "\(echo)")
        // Not a name after a quote, in a word or a URL; an argument of another name.
        #expect(PatternText.bareMembers(in: #"{"password": "x", ok: "y", https://a:"b", note: "z"}"#).map(\.key) == [])
        #expect(PatternText.bareMembers(in: #"login(token:"t0k3n")"#).map(\.key) == ["token"])
        // A block string, and a variable's default value.
        for (text, value) in [(#"login(password: """PW_block_666""") { ok }"#, "PW_block_666"),
                              (#"mutation L($password: String! = "PW_vdef_171") { login(password: $password) }"#, "PW_vdef_171"),
                              (#"{"query": "mutation L($password: String = "PW_esc_9") { x }"}"#, "PW_esc_9")] {
            #expect(PatternText.bareMembers(in: text).map { String(text[$0.value]) } == [value], "\(text)")
        }
    }

    /// A `--raw` body's secret-named fields, in a form or JSON: echoed, the
    /// password was shown in clear, and a 307 took it to another origin.
    @Test func aRawBodysSecretFieldsAreTyped() throws {
        #expect(try typed("post /echo --raw 'user=bob&password=S3cr3tRaw_14c'") == ["password=S3cr3tRaw_14c"])
        #expect(try typed(#"post /echo --raw '{"client_secret":"cs-9f8e7d"}'"#) == ["client_secret=cs-9f8e7d"])
        #expect(try typed("post /echo --raw 'just text'").isEmpty)
    }

    /// A value typed in a Cookie (an item, curl's `-b` or `-H 'Cookie: …'`), as a URL's password, or inside a
    /// JSON item's object: `set v=…` then one of these kept `v` in clear in history, `vars` and the recording.
    @Test func cookiesAURLsPasswordAndNestedMembersAreTyped() throws {
        #expect(try typed("get /echo Cookie:sid=Wu55vv66ww77") == ["sid=Wu55vv66ww77"])
        #expect(try typed("get /echo 'Cookie:a=Aa11bb22; b=Bb33cc44'") == ["a=Aa11bb22", "b=Bb33cc44"])
        #expect(try typed("curl -b sid=Wr22ss33tt44 http://127.0.0.1:9/echo") == ["sid=Wr22ss33tt44"])
        #expect(try typed("curl -H 'Cookie: sid=Wt44uu55vv66' http://127.0.0.1:9/echo") == ["sid=Wt44uu55vv66"])
        #expect(try typed("get http://u:Wq11rr22ss33@127.0.0.1:9/echo") == ["password=Wq11rr22ss33"])
        #expect(try typed(#"post /echo creds:='{"password":"Ws33tt44uu55","user":"bob"}'"#) == ["password=Ws33tt44uu55"])
        #expect(try typed(#"post /echo list:='[{"otp":"123456"}]'"#) == ["otp=123456"])
        #expect(try typed("get http://127.0.0.1:9/a@b").isEmpty)
    }

    /// A short secret typed on a line was hidden in the transcript (from 4
    /// characters) and shown on screen where an answer quoted it (from 6).
    @Test func aShortTypedSecretIsTheSessionsFromFourCharacters() throws {
        #expect(try typed("post /login password=ab1xy") == ["password=ab1xy"])
        #expect(try typed("get /x X-Api-Key:k123") == ["X-Api-Key=k123"])
        #expect(try typed("post /login password=abc").isEmpty)
    }
}
