import Core
import Testing
@testable import Explorer

@Suite struct CommandParserTests {
    let parser = CommandParser(variables: ["id": "3", "city": "New York"])

    @Test func methodsAndBarePaths() throws {
        #expect(try parser.parse("GET /api/tasks page==2") == .http(method: "GET", path: "/api/tasks", items: [.query(name: "page", value: "2")], offline: false))
        #expect(try parser.parse("post /api/tasks title=x --offline") == .http(method: "POST", path: "/api/tasks", items: [.stringField(name: "title", value: "x")], offline: true))
        #expect(try parser.parse("/api/tasks/{{id}}") == .http(method: "GET", path: "/api/tasks/3", items: [], offline: false))
    }

    @Test func variablesKeepSpacesInOneWord() throws {
        #expect(try parser.parse("get /api/tasks city=={{city}}") == .http(method: "GET", path: "/api/tasks", items: [.query(name: "city", value: "New York")], offline: false))
    }

    @Test func verbs() throws {
        #expect(try parser.parse("login alice@example.com alice123") == .login(email: "alice@example.com", password: "alice123"))
        #expect(try parser.parse("login alice@example.com") == .login(email: "alice@example.com", password: nil))
        #expect(try parser.parse("set token_id=42") == .set(name: "token_id", value: "42"))
        #expect(try parser.parse("set name Bob") == .set(name: "name", value: "Bob"))
        #expect(try parser.parse("show .tasks[0].id") == .show(path: try JSONPath.parse(".tasks[0].id")))
        #expect(try parser.parse("  ") == .empty)
        #expect(try parser.parse("# a comment") == .empty)
        #expect(try parser.parse("QUIT") == .exit)
        #expect(try parser.parse("help get") == .help(topic: "get"))
    }

    @Test func unknownCommandSuggestsTheClosest() {
        #expect(throws: CommandError("unknown command 'lgoin'; did you mean 'login'? (type help for the list)", column: 0)) { try parser.parse("lgoin") }
        #expect(throws: CommandError("unknown command 'whoamii'; did you mean 'whoami'? (type help for the list)", column: 0)) { try parser.parse("whoamii") }
        #expect(throws: CommandError("unknown command 'frobnicate' (type help for the list)", column: 0)) { try parser.parse("frobnicate") }
    }

    @Test func badItemsPointAtTheToken() {
        do {
            _ = try parser.parse("post /api/tasks title=ok price:=2x")
            Issue.record("parsed")
        } catch {
            #expect(error.column == 25 + 8)
            #expect(error.message.hasPrefix("'price:=2x': invalid JSON after ':='"))
        }
        #expect(throws: CommandError.self) { try parser.parse("get /x nonsense") }
        #expect(throws: CommandError("unknown option '--verbose' (HTTP commands take --offline)", column: 7)) { try parser.parse("get /x --verbose") }
    }

    @Test func variablesAreReplacedOnceEachWherever() throws {
        let parser = CommandParser(variables: ["id": "3", "brace": "{{id}}", "city": "Zürich"])
        let word = { (text: String) throws(CommandError) -> String in try parser.substitute(LineTokenizer.Word(text: text, start: 0)) }
        #expect(try word("/api/tasks/{{id}}/apply") == "/api/tasks/3/apply")
        #expect(try word("{{ id }}-{{id}}{{city}}é") == "3-3Züriché")
        // A value is not searched again, and JSON's own braces are left alone.
        #expect(try word("{{brace}}") == "{{id}}")
        #expect(try word(#"{"a":{"b":{{id}}}}"#) == #"{"a":{"b":3}}"#)
        #expect(try word("plain {text} only") == "plain {text} only")
        #expect(throws: CommandError("unclosed '{{' in 'x{{id}'", column: 0)) { try word("x{{id}") }
        #expect(throws: CommandError("unclosed '{{' in '{{'", column: 0)) { try word("{{") }
    }

    @Test func otherMistakes() {
        #expect(throws: CommandError("unknown variable {{nope}} (set it with: set nope=VALUE; see vars)", column: 4)) { try parser.parse("get {{nope}}") }
        // Not 'set secret:password=VALUE', which is no variable name (issue 11, #22).
        #expect(throws: CommandError("{{secret:password}} is filled in from EXPLORER_SECRET_PASSWORD, or asked for when the line is typed at the prompt",
                                     column: 24)) { try parser.parse("login alice@example.com {{secret:password}}") }
        #expect(throws: CommandError("unterminated double quote", column: 14)) { try parser.parse(#"post /x title="oops"#) }
        #expect(throws: CommandError("POST needs a path, as in: post /api/tasks", column: 4)) { try parser.parse("post") }
        #expect(throws: CommandError.self) { try parser.parse("show .tasks[") }
        #expect(throws: CommandError.self) { try parser.parse("set 1x=2") }
        #expect(throws: CommandError.self) { try parser.parse("logout now") }
    }
}
