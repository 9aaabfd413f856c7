import Foundation
import Testing
@testable import Core

/// A scheme has no case (RFC 3986 3.1): `HTTPS://host` was refused as "not
/// an http:// or https:// URL" everywhere but on a request line.
@Suite struct URLCheckTests {
    @Test(arguments: [("HTTPS://H.example/A?B", "https://H.example/A?B"), ("Http://h:1", "http://h:1"), ("WSS://h/ws", "wss://h/ws"),
                      ("https://h", "https://h"), ("/path://x", "/path://x"), ("no scheme", "no scheme"), ("a1b://x", "a1b://x")])
    func aSchemeIsReadInAnyCase(text: String, lowered: String) {
        #expect(URLCheck.lowercasingScheme(text) == lowered)
    }

    /// HTTPie's shorthands went to the base URL as a path (`/:18302/get`).
    @Test(arguments: [(":3000/items", "http://localhost:3000/items"), (":/items", "http://localhost/items"), (":3000", "http://localhost:3000"),
                      ("localhost:8080/get?a=1", "http://localhost:8080/get?a=1"), ("localhost/get", "http://localhost/get"),
                      ("api.example.com:443/v1", "http://api.example.com:443/v1"), ("127.0.0.1:9/x", "http://127.0.0.1:9/x"),
                      ("127.0.0.1/get", "http://127.0.0.1/get"), ("[::1]:18601/get", "http://[::1]:18601/get"), ("[::1]/get", "http://[::1]/get")])
    func httpieShorthandsAreURLs(text: String, url: String) {
        #expect(URLCheck.expandingShorthand(text) == url)
    }

    @Test(arguments: ["/items", "items", "items/1", "v1:x/y", "{{base}}/x", "http://h/x", "a b:1/x", "tasks?x=1:2", "", "1.2.3/x", "v1.2.3.4.5/x"])
    func pathsStayPaths(text: String) {
        #expect(URLCheck.expandingShorthand(text) == nil)
    }

    /// A base URL's query was dropped from every request without a word
    /// (and written to a recording's header, an API key in clear).
    @Test func aBaseURLHasNoQueryOrFragment() throws {
        let query = try #require(URLCheck.baseProblem("http://127.0.0.1:8/api/v2?api_key=K123secret"))
        #expect(query.hasPrefix("'http://127.0.0.1:8/api/v2?api_key=<hidden: 10 characters>' has a query, which a base URL does not keep"), "\(query)")
        #expect(URLCheck.baseProblem("https://h.example/api#top")?.contains("has a #fragment") == true)
        #expect(URLCheck.baseProblem("https://h.example/api/") == nil && URLCheck.baseProblem("HTTP://h.example:80") == nil)
        #expect(URLCheck.baseProblem("ftp://h") == URLCheck.problem("ftp://h"))
        let profile = "explorer-profile: 1\nname: q\nenvironments:\n  dev: {base-url: \"https://h.example/v1?key=abc\"}\n"
        #expect(throws: ProfileError.self) { try ProfileFile.parse(profile, file: "q.yaml") }
    }

    /// A servlet's session in a base URL's path (`/app;jsessionid=X`) was
    /// written to a recording's header in clear and shown on every `-v`.
    @Test func aBaseURLKeepsNoCredentialInItsPath() throws {
        let problem = try #require(URLCheck.baseProblem("http://127.0.0.1:8/app;jsessionid=S3CRJ1"))
        #expect(problem == "'http://127.0.0.1:8/app;jsessionid=<hidden: 6 characters>' has a credential in its path (;jsessionid=), "
                + "which a base URL would keep in clear: send it as the JSESSIONID cookie (header Cookie:JSESSIONID=VALUE)", "\(problem)")
        #expect(URLCheck.baseProblem("http://127.0.0.1:8/app;v=2/x") == nil)
        // The secret alone is counted, not the rest of the path.
        #expect(URLCheck.baseProblem("http://127.0.0.1:8/app;token=S3CRJ2/b")?.hasPrefix("'http://127.0.0.1:8/app;token=<hidden: 6 characters>/b'") == true)
    }

    @Test func everyPlaceThatTakesABaseURLTakesAnUpperCaseScheme() throws {
        #expect(URLCheck.problem("HTTPS://h.example") == nil)
        #expect(try URLCheck.url("HTTP://h.example:8080/v1").get().absoluteString == "http://h.example:8080/v1")
        #expect(URLCheck.problem("FTP://h.example") == "'FTP://h.example' is not an http:// or https:// URL")
        let transcript = try TranscriptParser.parse("\(Transcript.versionLine)\nprofile: generic\nbase-url: HTTPS://h.example\n")
        #expect(transcript.header.target == .url("https://h.example"))
    }
}
