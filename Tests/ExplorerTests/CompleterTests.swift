import Core
import Testing
@testable import Explorer

@Suite struct CompleterTests {
    let state = CompletionState(profile: .linku, variables: ["base_url", "profile", "task_id"],
                                lastBody: try! JSONParser.parse(#"{"tasks":[{"id":1,"title":"x"}],"total":1}"#))

    func texts(_ line: String) -> [String] { Completer.complete(line, state: state).candidates.map(\.text) }

    @Test func commandWords() {
        #expect(texts("who") == ["whoami"])
        #expect(Completer.complete("who", state: state).candidates.first?.isFinal == true)
        #expect(Set(texts("lo")) == ["login", "logout"])
        #expect(texts("") == CommandTable.standard.offeredNames)
    }

    /// TAB offered what the line then refused: `unset base_url`, the base
    /// URL as a path segment (`/api/tasks/{{base_url}}` went to
    /// `/api/tasks/http://…`), the endpoint's query parameters as `-p`'s value.
    @Test func whatTABOffersTheLineTakes() {
        #expect(texts("unset ") == ["task_id"])
        #expect(texts("set ") == ["task_id="])
        // Nor the profile's name (`/api/tasks/linku`).
        #expect(texts("get /api/tasks/{{") == ["task_id}}"])
        #expect(texts("get {{") == ["base_url}}", "profile}}", "task_id}}"])
        #expect(texts("get /api/tasks -p ") == ["b", "h", "hb", "HBhb", "Hh"])
        #expect(texts("get /api/tasks -A b") == ["basic", "bearer"])
        #expect(texts("get /api/tasks --timeout ") == [])
        // A secret variable named for the resource is no id: `{{task_token}}` would put a credential in the path.
        let secrets = CompletionState(profile: .linku, variables: ["task_token", "task_id"], lastBody: nil)
        #expect(Completer.complete("get /api/tasks/", state: secrets).candidates.map(\.text).contains("/api/tasks/{{task_id}}"))
        #expect(!Completer.complete("get /api/tasks/", state: secrets).candidates.map(\.text).contains { $0.contains("task_token") })
        #expect(Completer.complete("get /api/tasks/{{", state: secrets).candidates.map(\.text) == ["task_id}}"], "nor after braces")
    }

    /// Issue 11 #27: `/api` stopped without its `/`, so every segment took two TABs.
    @Test func aSegmentThatOnlyGoesOnGetsItsSlash() {
        #expect(texts("get /ap") == ["/api/"])
        #expect(texts("get /api") == ["/api/"])
        #expect(texts("get /api/forum/po") == ["/api/forum/posts"], "an endpoint ends there: no slash forced")
    }

    /// Issue 11 #27: `describe POST /api/ta<TAB>` completed nothing.
    @Test func describeWithAMethodCompletesThatMethodsPaths() {
        #expect(texts("describe POST /api/ta") == ["/api/task-experts", "/api/tasks"])
        #expect(texts("describe PO").contains("POST"))
        #expect(texts("describe Task") == ["Task", "TaskListResponse", "TaskCreate", "TaskUpdate", "TaskStatus"], "models, then the enums")
        #expect(texts("describe post /api/forum/po") == ["/api/forum/posts"])
        // Nothing typed: the endpoints as well as the models (it offered models alone).
        let offered = texts("describe ")
        #expect(offered.contains { $0.hasPrefix("/api") } && offered.contains("Task"), "\(offered)")
    }

    @Test func pathsSegmentBySegment() {
        let c = Completer.complete("get /api/ta", state: state)
        #expect(c.start == 4)
        #expect(c.candidates.map(\.text) == ["/api/task-experts", "/api/tasks"])
        #expect(c.commonPrefix == "/api/task")
        #expect(texts("get /api/task") == ["/api/task-experts", "/api/tasks"])
        // Typed whole, an endpoint that goes on offers what follows it too: a second TAB lists them (it listed nothing).
        #expect(texts("get /api/tasks") == ["/api/tasks", "/api/tasks/{{task_id}}"])
        // /api/tasks goes on (/api/tasks/{id}), so no space is added after it.
        #expect(Completer.complete("get /api/tasks", state: state).candidates.first?.isFinal == false)
        #expect(Completer.complete("get /api/ban", state: state).candidates.first?.isFinal == true)
        #expect(texts("/api/ban") == ["/api/banners"])
    }

    @Test func pathsFollowTheMethod() {
        #expect(texts("post /api/secure-auth/l") == ["/api/secure-auth/login", "/api/secure-auth/login-with-code", "/api/secure-auth/login-with-phone-code", "/api/secure-auth/logout"])
        #expect(texts("get /api/secure-auth/l") == [])
        #expect(texts("post /api/tasks/7/") == ["/api/tasks/7/accept", "/api/tasks/7/applications", "/api/tasks/7/apply", "/api/tasks/7/cancel",
                                                  "/api/tasks/7/complete", "/api/tasks/7/confirm_completion", "/api/tasks/7/delete"])
        // The next segment is a parameter: nothing to offer yet.
        #expect(texts("post /api/tasks/7/applications/") == [])
        #expect(texts("post /api/tasks/7/applications/3/") == ["/api/tasks/7/applications/3/accept", "/api/tasks/7/applications/3/reject"])
    }

    /// Issue 11 #27: `/api/tasks/` offered nothing, and said nothing, before an id was seen.
    @Test func aParameterSegmentWithNoValueSaysWhatGoesThere() {
        let fresh = CompletionState(profile: .linku, variables: [], lastBody: nil)
        let c = Completer.complete("post /api/tasks/7/applications/", state: fresh)
        #expect(c.candidates.isEmpty)
        #expect(c.note?.hasPrefix("/api/tasks/7/applications/{applicationId}: type the value") == true, "\(c.note ?? "no note")")
        // A literal beside a parameter (`profile/me` and `profile/{userId}`): both told.
        let users = Completer.complete("get /api/users/profile/", state: fresh)
        #expect(users.candidates.map(\.text) == ["/api/users/profile/me"])
        #expect(users.note != nil)
        // Typed characters are a value already: no note.
        #expect(Completer.complete("get /api/tasks/4", state: fresh).note == nil)
    }

    /// Issue 11 #27: `status==` offered no values; a list filters on its items' own field.
    @Test func queryParametersOfferTheirValues() {
        #expect(texts("get /api/tasks status==") == ["status==open", "status==in_progress", "status==completed", "status==confirmed", "status==cancelled"])
        #expect(texts("get /api/tasks status==c") == ["status==completed", "status==confirmed", "status==cancelled"])
        #expect(texts("get /api/flea-market/items status==") == ["status==available", "status==sold", "status==removed"])
        #expect(texts("get /api/tasks city==") == [], "a free-text field has no values to offer")
        // A list answered as a bare array (Level Up's tasks) filters on the fields of the model its path names.
        let levelup = CompletionState(profile: .levelup, variables: [], lastBody: nil)
        #expect(Completer.complete("get /api/tasks category==", state: levelup).candidates.map(\.text) == ["category==habit", "category==daily", "category==todo"])
        #expect(Completer.complete("get /api/tasks completed==", state: levelup).candidates.map(\.text) == ["completed==true", "completed==false"])
        // An OpenAPI enum names the values; a boolean field offers true and false.
        var spec = Profile.generic
        var endpoint = Endpoint("GET", "/pets", "Pets", query: ["kind", "vaccinated"], response: "Pet", responseIsList: true)
        endpoint.queryValues["kind"] = ["cat", "dog"]
        spec.endpoints = [endpoint]
        spec.importedModels = [Model("Pet", [Field("kind", .string), Field("vaccinated", .boolean)])]
        let pets = CompletionState(profile: spec, variables: [], lastBody: nil)
        #expect(Completer.complete("get /pets kind==d", state: pets).candidates.map(\.text) == ["kind==dog"])
        #expect(Completer.complete("get /pets vaccinated==", state: pets).candidates.map(\.text) == ["vaccinated==true", "vaccinated==false"])
    }

    @Test func variablesAfterBraces() {
        let c = Completer.complete("get /api/tasks/{{ta", state: state)
        #expect(c.candidates.map(\.text) == ["task_id}}"])
        #expect(c.start == "get /api/tasks/{{".count)
    }

    @Test func demoEmailsHelpTopicsAndShowKeys() {
        #expect(texts("login al") == ["alice@example.com"])
        #expect(texts("help who") == ["whoami"])
        #expect(texts("show .to") == [".total"])
        #expect(texts("show .tasks[0].t") == [".tasks[0].title"])
        #expect(Set(texts("show ")) == [".tasks", ".total"])
        // Into a list or an object typed whole, and a list's indices (they offered nothing).
        #expect(texts("show .tasks") == [".tasks["])
        #expect(texts("show .tasks[") == [".tasks[0]"])
        #expect(texts("show .tasks[1").isEmpty)
        #expect(texts("show .total") == [".total"])
    }

    /// Keys a dot cannot take (`@id`, `odd key`, `a.b`, quotes) were offered
    /// as `.odd key`, a line that did not parse or picked something else;
    /// they are offered as `'.["odd key"]'`, and each picks its own value.
    @Test func showKeysThatAreNotNamesAreOfferedQuoted() throws {
        let body = try JSONParser.parse(#"{"@id":1,"odd key":2,"a.b":3,"it's \"x\"":4,"back\\slash":5,"plain":6,"nest":{"x y":7}}"#)
        let odd = CompletionState(profile: .linku, variables: [], lastBody: body)
        let offered = Completer.complete("show ", state: odd).candidates.map(\.text)
        #expect(offered.contains(".plain") && offered.contains(#"'.["@id"]'"#) && offered.contains(#"'.["odd key"]'"#))
        let nested = Completer.complete("show .nest.", state: odd).candidates.map(\.text)
        #expect(nested == [#"'.nest["x y"]'"#])
        for candidate in offered + nested {
            let words = try LineTokenizer.split("show " + candidate)
            #expect(words.count == 2, "\(candidate)")
            #expect(throws: Never.self, "\(candidate)") { try JSONPath.parse(words[1].text).evaluate(body).get() }
        }
        let values = try (offered + nested).map { try JSONPath.parse(LineTokenizer.split($0)[0].text).evaluate(body).get() }
        #expect(Set(values.compactMap { $0.intValue }) == [1, 2, 3, 4, 5, 6, 7])
    }

    /// `header <TAB>` offered nothing: names and their values, as after a request's path, and its verbs.
    @Test func headerOffersNamesValuesAndItsVerbs() {
        #expect(texts("header ") == ["clear", "unset"] + Completer.headerNames.map { $0 + ":" })
        #expect(texts("header Acc") == ["Accept:"])
        #expect(texts("header Accept:") == ["Accept:application/json", "Accept:*/*"])
        #expect(texts("header X-A:1 Content-Type:text") == ["Content-Type:text/plain"])
        #expect(texts("header unset Auth") == ["Authorization"])
        #expect(texts("header unset Authorization ") == [])
        #expect(texts("headers cl") == ["clear"])
    }

    @Test func nothingToOfferIsEmpty() {
        #expect(texts("get /api/tasks zzz") == [])
        #expect(texts("frob ") == [])
    }
}
