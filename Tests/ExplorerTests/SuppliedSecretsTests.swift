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

    /// A `--raw` body's secret-named fields, in a form or JSON: echoed, the
    /// password was shown in clear, and a 307 took it to another origin.
    @Test func aRawBodysSecretFieldsAreTyped() throws {
        #expect(try typed("post /echo --raw 'user=bob&password=S3cr3tRaw_14c'") == ["password=S3cr3tRaw_14c"])
        #expect(try typed(#"post /echo --raw '{"client_secret":"cs-9f8e7d"}'"#) == ["client_secret=cs-9f8e7d"])
        #expect(try typed("post /echo --raw 'just text'").isEmpty)
    }

    /// A short secret typed on a line was hidden in the transcript (from 4
    /// characters) and shown on screen where an answer quoted it (from 6).
    @Test func aShortTypedSecretIsTheSessionsFromFourCharacters() throws {
        #expect(try typed("post /login password=ab1xy") == ["password=ab1xy"])
        #expect(try typed("get /x X-Api-Key:k123") == ["X-Api-Key=k123"])
        #expect(try typed("post /login password=abc").isEmpty)
    }
}
