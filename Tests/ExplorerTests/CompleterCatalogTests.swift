import Core
import Foundation
import Testing
@testable import Explorer

/// TAB that knows the API: ids for `{param}` segments, query parameters, body
/// fields, enum values, headers and files. The completer is a pure function,
/// so every case is a line and a state.
@Suite struct CompleterCatalogTests {
    static func state(profile: Profile = .linku, variables: [String] = ["base_url", "profile", "task_id"]) -> CompletionState {
        var seen = SeenIDs()
        seen.learn(from: try! JSONParser.parse(#"{"tasks":[{"id":3,"user_id":1},{"id":12,"user_id":2}],"total":2}"#), path: "/api/tasks")
        return CompletionState(profile: profile, variables: variables, lastBody: nil, seenIDs: seen,
                               listDirectory: { dir in dir == "" ? ["avatar.png", "docs/", ".hidden"] : dir == "docs/" ? ["a.json"] : [] })
    }

    func texts(_ line: String, _ state: CompletionState = state()) -> [String] {
        Completer.complete(line, state: state).candidates.map(\.text)
    }

    @Test func seenIDsAreCollectedPerResourceNewestFirstAndBounded() throws {
        var seen = SeenIDs()
        seen.learn(from: try JSONParser.parse(#"{"tasks":[{"id":1},{"id":2}],"user":{"id":"u-9"},"post_id":"p1"}"#), path: "/api/tasks")
        #expect(seen.ids(for: "tasks") == ["2", "1"])
        #expect(seen.ids(for: "users") == ["u-9"])
        #expect(seen.ids(for: "posts") == ["p1"])
        seen.learn(from: try JSONParser.parse(#"{"id":7,"title":"x"}"#), path: "/api/tasks/7")
        #expect(seen.ids(for: "tasks").first == "7")
        // Seen again, an id moves to the front once.
        seen.learn(from: try JSONParser.parse(#"{"id":1}"#), path: "/api/tasks/1")
        #expect(seen.ids(for: "tasks") == ["1", "7", "2"])
        // Text with a space or a slash is kept too: TAB offers it percent-encoded.
        seen.learn(from: try JSONParser.parse(#"[{"id":"a b"},{"id":"a/b"},{"id":"ab"},{"id":""}]"#), path: "/api/tags")
        #expect(seen.ids(for: "tags") == ["ab", "a/b", "a b"])
        for n in 100..<150 { seen.learn(from: .object([("id", .int(n))]), path: "/api/tasks") }
        #expect(seen.ids(for: "tasks") == (130..<150).reversed().map(String.init))
        #expect(SeenIDs.limit == 20)
        // A list under a wrapper that does not name its resource (`items`, `data`…) holds the path's:
        // TAB after `get /notes/` offered nothing after `get /notes` answered {"items": […]}.
        seen.learn(from: try JSONParser.parse(#"{"items":[{"id":"n_001"}],"page":1}"#), path: "/notes")
        seen.learn(from: try JSONParser.parse(#"{"data":{"results":[{"id":"o-7"}]}}"#), path: "/api/orders")
        #expect(seen.ids(for: "notes") == ["n_001"] && seen.ids(for: "orders") == ["o-7"] && seen.ids(for: "items").isEmpty)
    }

    @Test func pathParametersOfferSeenIDsAndMatchingVariables() {
        #expect(texts("get /api/tasks/") == ["/api/tasks/12", "/api/tasks/3", "/api/tasks/{{task_id}}"])
        #expect(texts("get /api/tasks/1") == ["/api/tasks/12"])
        // `{userId}` takes users' ids (the user_id members), beside the literal `me`.
        #expect(texts("get /api/users/profile/") == ["/api/users/profile/1", "/api/users/profile/2", "/api/users/profile/me"])
        // An application id is not a task id.
        #expect(texts("post /api/tasks/7/applications/") == [])
    }

    /// FastAPI's `/items/` was completed to `/items` (a 307 back to
    /// `/items/`), and `/c/x/` was checked against `/c/{id}`'s body when
    /// `/c/{name}/` is the operation it names.
    @Test func aTemplatesLastSlashIsKeptAndMatchedFirst() {
        var profile = Profile.generic
        profile.endpoints = [Endpoint("POST", "/items/", "create"), Endpoint("GET", "/items/{id}", "read"), Endpoint("POST", "/things/", "make"),
                             Endpoint("POST", "/c/{id}", "by id"), Endpoint("POST", "/c/{name}/", "by name")]
        let state = Self.state(profile: profile, variables: [])
        #expect(texts("post /th", state) == ["/things/"])
        #expect(texts("post /it", state) == ["/items/"])
        #expect(texts("get /it", state) == ["/items/"], "GET goes on to /items/{id}")
        #expect(profile.endpoint(method: "POST", path: "/c/x/")?.summary == "by name")
        #expect(profile.endpoint(method: "POST", path: "/c/x")?.summary == "by id")
        #expect(Completer.endpoint(method: "POST", path: "/c/x/", in: profile)?.summary == "by name")
    }

    /// Nova's `/users/{id}/posts`: TAB completed a seen id to `/users/<id>`,
    /// a path no endpoint has, and the next TAB offered nothing.
    @Test func anIdOfATemplateThatGoesOnGetsItsSlash() throws {
        var profile = Profile.generic
        profile.endpoints = [Endpoint("GET", "/users/{username}", "a user"), Endpoint("GET", "/users/{id}/posts", "their posts"),
                             Endpoint("GET", "/tasks/{id}", "a task"), Endpoint("GET", "/tasks/{id}/log", "its log")]
        var seen = SeenIDs()
        seen.learn(from: try JSONParser.parse(#"{"users": [{"id": "u-1"}], "tasks": [{"id": 7}]}"#), path: "/feed")
        let state = CompletionState(profile: profile, variables: [], lastBody: nil, seenIDs: seen, listDirectory: { _ in [] })
        #expect(texts("get /users/", state) == ["/users/u-1/"])
        #expect(texts("get /users/u-1/", state) == ["/users/u-1/posts"])
        #expect(texts("get /tasks/", state) == ["/tasks/7"], "a template ends there too")
    }

    /// A variable is offered for a parameter when a word of its name is the
    /// resource's: `/a/{id}` offered `{{base_url}}`, `/file/{id}`
    /// `{{profile}}` (any name holding the letters), and TAB sent them.
    @Test func aVariableIsOfferedForAParameterByAWordOfItsName() {
        let state = Self.state(variables: ["base_url", "profile", "task_id", "newTask", "taskmaster", "file-id"])
        #expect(Completer.parameterValues(["a", "{id}"], at: 1, state: state) == [])
        #expect(Completer.parameterValues(["file", "{id}"], at: 1, state: state) == ["{{file-id}}"])
        #expect(Completer.parameterValues(["api", "tasks", "{id}"], at: 2, state: state) == ["12", "3", "{{task_id}}", "{{newTask}}"])
        #expect(Completer.words(of: "taskId") == ["task", "id"] && Completer.words(of: "base_url") == ["base", "url"])
    }

    /// An id is offered as a path segment takes it: `it's` completed to a
    /// line that did not parse, `q?z#1` to a request for `q`; ids with a
    /// space or a slash were not offered at all.
    @Test func seenIDsAreOfferedPercentEncodedWhereTheyMustBe() throws {
        var seen = SeenIDs()
        seen.learn(from: try JSONParser.parse(#"{"tasks":[{"id":"it's"},{"id":"q?z#1"},{"id":"50%"},{"id":"é{x}"},{"id":"a b"},{"id":"x/y"}]}"#), path: "/api/tasks")
        let state = CompletionState(profile: .linku, variables: ["task_id"], lastBody: nil, seenIDs: seen, listDirectory: { _ in [] })
        let offered = texts("get /api/tasks/", state)
        #expect(offered == ["/api/tasks/50%25", "/api/tasks/a%20b", "/api/tasks/it%27s", "/api/tasks/q%3Fz%231", "/api/tasks/x%2Fy",
                            "/api/tasks/{{task_id}}", "/api/tasks/é%7Bx%7D"])
        #expect(texts("get /api/tasks/q%3F", state) == ["/api/tasks/q%3Fz%231"])
        // Each goes out as the id's own path segment.
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!)
        for path in offered where !path.hasSuffix("{{task_id}}") {
            let request = try builder.build(method: "GET", path: path, items: [])
            #expect(request.url.absoluteString == "http://127.0.0.1:9" + path.replacingOccurrences(of: "é", with: "%C3%A9"), "\(path)")
        }
        let line = try CommandParser().parse("get /api/tasks/it%27s")
        guard case .http = line else { Issue.record("not a request: \(line)"); return }
    }

    @Test func queryParametersAfterAPath() {
        #expect(texts("get /api/tasks page") == ["page==", "page_size=="])
        #expect(texts("/api/tasks ci") == ["city=="])
        #expect(texts("get /api/tasks page==2 page") == ["page_size=="])
        #expect(Completer.complete("get /api/tasks ci", state: Self.state()).candidates.first?.isFinal == false)
    }

    @Test func bodyFieldsFromTheRequestModel() {
        #expect(texts("post /api/tasks ti") == ["title="])
        #expect(texts("post /api/tasks pr") == ["price:="])
        #expect(texts("post /api/tasks title=x ") == ["description=", "category=", "city=", "price:=", "images:="])
        let hint = Completer.complete("post /api/tasks ti", state: Self.state()).candidates.first?.hint
        #expect(hint == "string, required")
        // A concrete id and a variable both find the endpoint.
        #expect(texts("put /api/tasks/3 ti") == ["title="])
        #expect(texts("put /api/tasks/{{task_id}} ti") == ["title="])
    }

    @Test func enumValuesHeadersAndFlags() {
        let levelup = Self.state(profile: .levelup)
        #expect(texts("post /api/tasks difficulty=", levelup) == ["difficulty=easy", "difficulty=medium", "difficulty=hard"])
        #expect(texts("post /api/tasks difficulty=h", levelup) == ["difficulty=hard"])
        #expect(texts("post /api/tasks Con") == ["Content-Type:"])
        #expect(texts("post /api/tasks Content-Type:app") == ["Content-Type:application/json"])
        #expect(texts("get /api/tasks --of") == ["--offline"])
    }

    /// `--verify <TAB>` offered yes and no, never a CA file; `defaults` completed nothing.
    @Test func aCAFileAfterVerifyAndTheSessionsOptionsAfterDefaults() {
        #expect(texts("get /api/tasks --verify ") == ["yes", "no", "avatar.png", "docs/"])
        #expect(texts("get /api/tasks --verify do") == ["docs/"])
        #expect(texts("defaults ") == ["clear"])
        #expect(texts("defaults --fo") == ["--follow", "--form"])
        #expect(texts("defaults --follow --veri") == ["--verify"])
        #expect(texts("defaults --offl").isEmpty, "for one line, not the session")
        #expect(texts("defaults --verify n") == ["no"])
        #expect(texts("defaults --cert do") == ["docs/"])
    }

    @Test func filesAfterAtAndRecord() {
        #expect(texts("post /api/upload/image file@") == ["file@avatar.png", "file@docs/"])
        #expect(texts("post /api/tasks @docs/") == ["@docs/a.json"])
        #expect(Completer.complete("post /api/tasks @docs/", state: Self.state()).candidates.first?.isFinal == true)
        #expect(texts("record av") == ["avatar.png"])
        #expect(texts("record st") == ["stop", "status"])
        #expect(texts("spec l") == ["load"])
        #expect(texts("spec load do") == ["docs/"])
        #expect(texts("ws send @do") == ["@docs/"])
        #expect(texts("ws send --binary @av") == ["@avatar.png"])
    }

    /// A name with a space is offered escaped, so the line keeps it one word
    /// (it broke the line: "'file' is not a request item").
    @Test func aFileNameWithASpaceIsOfferedEscaped() throws {
        var state = Self.state()
        state.listDirectory = { dir in dir == "files/" ? ["my file ü.txt", "it's.json"] : [] }
        #expect(texts("post /api/tasks title=@files/my", state) == [#"title=@files/my\ file\ ü.txt"#])
        #expect(texts(#"post /api/tasks title=@files/my\ fi"#, state) == [#"title=@files/my\ file\ ü.txt"#])
        #expect(texts("post /api/tasks @files/it", state) == [#"@files/it\'s.json"#])
        let words = try LineTokenizer.split(#"post /x title=@files/my\ file\ ü.txt"#).map(\.text)
        #expect(words == ["post", "/x", "title=@files/my file ü.txt"])
        // In a quote the name stays unescaped and the quote is kept, closed on a whole name
        // (it came back `\'@files/my\ file…`, the quote escaped).
        #expect(texts("post /api/tasks x=1 '@files/my", state) == ["'@files/my file ü.txt'"])
        #expect(texts(#"post /api/tasks x=1 "@files/"#, state) == [#""@files/it's.json""#, #""@files/my file ü.txt""#])
        #expect(texts("post /api/tasks x=1 '@files/it", state) == [#"@files/it\'s.json"#], "a name holding the quote: escaped, unquoted")
        #expect(texts("post /api/tasks x=1 '@do") == ["'@docs/"], "a folder: the quote left open")
        // A quote opened inside the word, after the `@` (it offered nothing).
        #expect(texts(#"post /api/tasks title=@"files/my"#, state) == [#"title=@"files/my file ü.txt""#])
        #expect(texts(#"post /api/tasks title=@"files/"#, state) == [#"title=@"files/it's.json""#, #"title=@"files/my file ü.txt""#])
    }

    @Test func replayOffersFilePathsLikeRecord() {
        #expect(texts("replay av") == ["avatar.png"])
        #expect(texts("replay docs/") == ["docs/a.json"])
        #expect(texts("replay ") == texts("record ").filter { $0 != "stop" && $0 != "status" })
        // Only the first word after replay is a file.
        #expect(texts("replay avatar.png av") == [])
    }

    @Test func describeOffersModelsAndPaths() {
        #expect(texts("describe Tas") == ["Task", "TaskListResponse", "TaskCreate", "TaskUpdate", "TaskStatus"])
        #expect(texts("describe /api/ban") == ["/api/banners"])
    }

    @Test func candidatesListInColumnsWithHints() {
        let completion = Completer.complete("post /api/tasks ", state: Self.state())
        let listing = CandidateList.format(completion.candidates, width: 80)
        let lines = listing.split(separator: "\n")
        #expect(lines.first == "title=        string, required")
        #expect(lines.count == completion.candidates.count)
    }
}
