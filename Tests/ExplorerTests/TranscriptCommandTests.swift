import Core
import Testing
@testable import Explorer

/// The REPL commands that feed transcripts: `capture` and `record`.
@Suite struct TranscriptCommandTests {
    let parser = CommandParser(variables: ["file": "s.transcript"])

    @Test func captureTakesANameAndAPath() throws {
        let expected = Command.capture(name: "task_id", from: .body(try JSONPath.parse(".id")))
        #expect(try parser.parse("capture task_id = .id") == expected)
        #expect(try parser.parse("capture task_id=.id") == expected)
        #expect(try parser.parse("capture task_id .id") == expected)
        #expect(try parser.parse("capture task_id= .id") == expected)
        #expect(try parser.parse("capture first .tasks[0].id") == .capture(name: "first", from: .body(try JSONPath.parse(".tasks[0].id"))))
    }

    @Test func captureTakesAHeaderOrACookie() throws {
        #expect(try parser.parse("capture next = header:Location") == .capture(name: "next", from: .header("Location")))
        // A kind's word was taken as a name, and a recording read `{{uuid}}` as the kind.
        #expect(throws: CommandError("'uuid' names a kind of value in transcripts ({{uuid}}); give the capture another name", column: 8)) {
            try parser.parse("capture uuid = .id")
        }
        #expect(try parser.parse("capture csrf cookie:csrftoken") == .capture(name: "csrf", from: .cookie("csrftoken")))
        #expect(throws: CommandError("cookie: takes a cookie name: capture csrf = cookie:csrftoken", column: 15)) { try parser.parse("capture csrf = cookie:") }
        // Such a line holds no value: it is written as typed, not as a Cookie header's secret.
        #expect(Redactor.redact(words: ["capture", "csrf", "=", "cookie:sid"]) == ["capture", "csrf", "=", "cookie:sid"])
    }

    @Test func captureSaysWhatIsWrong() {
        #expect(throws: CommandError("usage: capture NAME = PATH, as in: capture task_id = .id", column: nil)) { try parser.parse("capture") }
        // `9x` has only letters and digits: the rule it breaks is the first character's.
        #expect(throws: CommandError("'9x' is not a variable name: a name starts with a letter or _", column: 8)) { try parser.parse("capture 9x = .id") }
        #expect(throws: CommandError("'a-b' is not a variable name: use letters, digits and _", column: 8)) { try parser.parse("capture a-b = .id") }
        #expect(throws: CommandError("'1a' is not a variable name: a name starts with a letter or _", column: 4)) { try parser.parse("set 1a=2") }
        // `capture = .id` said "'' is not a variable name".
        #expect(throws: CommandError("usage: capture NAME = PATH, as in: capture task_id = .id", column: 8)) { try parser.parse("capture = .id") }
        #expect(throws: CommandError("bad path '.a[': expected an index or a quoted key after '['", column: 16)) {
            try parser.parse("capture id = .a[")
        }
    }

    @Test func recordStartsStopsAndSays() throws {
        #expect(try parser.parse("record {{file}}") == .record(.start(path: "s.transcript")))
        #expect(try parser.parse("record stop") == .record(.stop))
        #expect(try parser.parse("record status") == .record(.status))
        #expect(throws: CommandError("usage: record FILE | stop | status", column: 9)) { try parser.parse("record a b") }
    }

    @Test func helpAndCompletionKnowThem() {
        let state = CompletionState(profile: .linku, variables: [], lastBody: try! JSONParser.parse(#"{"id": 6, "title": "x"}"#))
        #expect(CommandTable.standard.spec(named: "record")?.usage == "record FILE | stop | status")
        #expect(CommandTable.standard.spec(named: "capture")?.usage == "capture NAME = PATH")
        #expect(Completer.complete("rec", state: state).candidates.map(\.text) == ["record"])
        #expect(Completer.complete("record st", state: state).candidates.map(\.text) == ["stop", "status"])
        #expect(Completer.complete("capture id = .", state: state).candidates.map(\.text) == [".id", ".title"])
    }
}
