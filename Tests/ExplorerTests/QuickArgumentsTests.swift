import ArgumentParser
import Core
import Testing
@testable import Explorer

/// `QuickArguments` reads the REPL's command lines without the argument
/// parser. Whatever it takes, it must read as the parser does; whatever it
/// cannot, it must leave to the parser.
@Suite struct QuickArgumentsTests {
    /// Each item is one option or word as a user might type it, well or badly.
    static let items: [[String]] = [
        ["--base-url", "http://127.0.0.1:8080"], ["--base-url=https://api.example.com/v1"], ["--base-url", "not a url"],
        ["--base-url", "-c"], ["--base-url"], ["--base-url="], ["--base-url", ":3000"], ["--base-url=localhost:8080/api"],
        ["--profile", "nova"], ["--profile=linku"], ["--profile", ""], ["--profile="], ["--env", "staging"], ["--env=dev"], ["--env="],
        ["--offline"], ["--offline=true"], ["--stop-on-error"], ["--stop-on-error=yes"],
        ["--color", "never"], ["--color=always"], ["--color", "purple"], ["--color", "auto"],
        ["--record", "s.transcript"], ["--record=a=b.transcript"], ["--record="], ["--spec", "api.yaml"], ["--spec="],
        ["-c", "get /x"], ["-c", "login alice secret"], ["-c", "-v"], ["-c", ""], ["-c"], ["-c=get"], ["-cget"],
        ["run"], ["run", "f.txt"], ["sandbox"], ["--help"], ["-h"], ["--version"], ["--"], ["get /x"], ["--bogus"],
        ["-o", "x"], ["--BASE-URL", "http://h"], ["--base-url", "--offline"],
        ["--verify", "no"], ["--verify", "/no/such/ca.pem"], ["--verify", TestCertificates.files.certificate],
    ]

    /// What the argument parser makes of `arguments`: the REPL's options
    /// and lines, or nil when it reads something else or refuses them.
    static func parsed(_ arguments: [String]) -> Reading? {
        guard let command = (try? ExplorerCommand.parseAsRoot(arguments)) as? ExplorerCommand else { return nil }
        return Reading(command.connection.settings, command.commands)
    }

    struct Reading: Equatable {
        var settings: ConnectionSettings
        var commands: [String]
        init(_ settings: ConnectionSettings, _ commands: [String]) {
            self.settings = settings
            self.commands = commands
        }
    }

    static var lines: [[String]] {
        var lines: [[String]] = [[]]
        for first in items {
            lines.append(first)
            for second in items { lines.append(first + second) }
        }
        // Three well-formed options together, in every order.
        let wellFormed = items.filter { QuickArguments($0) != nil }
        for first in wellFormed { for second in wellFormed { for third in wellFormed.prefix(6) { lines.append(first + second + third) } } }
        return lines
    }

    /// Thousands of parses: about 20 s on two loaded cores. The test gives
    /// its thread back now and then: held for the whole run, it left the
    /// suite's other tests one of the machine's two threads, and with a
    /// second long test none, so WebSocket tests waited 30 s for events
    /// that were there (the flake in `aServerThatClosesAtOnceIsNotRetriedForEver`).
    @Test func whatItReadsTheParserReadsAlike() async {
        var taken = 0
        for (index, line) in Self.lines.enumerated() {
            if index % 64 == 0 { await Task.yield() }
            guard let quick = QuickArguments(line) else { continue }
            taken += 1
            #expect(Self.parsed(line) == Reading(quick.connection, quick.commands), "\(line)")
        }
        // It is the common path, not a corner: most well-formed lines are its own.
        #expect(taken > 1_000)
    }

    @Test(arguments: [
        [], ["-c", "get /x"], ["--base-url", "http://127.0.0.1:8080", "-c", "get /x"], ["--base-url=http://127.0.0.1:8080"],
        ["--profile", "nova", "--env", "staging", "-c", "a", "-c", "b"], ["--offline", "--color", "never", "--record", "r.transcript"],
        ["--spec", "api.yaml"], ["-c", "login alice p=ss"], ["--verify", "no", "--cert", TestCertificates.files.certificate, "--cert-key", TestCertificates.files.key],
        ["--verify=YES"], ["--cert=" + TestCertificates.files.combined], ["--base-url", ":3000"],
    ])
    func theREPLsOwnLinesAreReadDirectly(_ line: [String]) throws {
        let quick = try #require(QuickArguments(line))
        #expect(Self.parsed(line) == Reading(quick.connection, quick.commands))
    }

    /// HTTPie's shorthands as a base URL, as a line takes them (they were "not an http:// or https:// URL").
    @Test func aBaseURLsShorthandIsExpanded() throws {
        #expect(QuickArguments(["--base-url", ":3000"])?.connection.baseURL == "http://localhost:3000")
        #expect(QuickArguments(["--base-url=127.0.0.1:8080/v1"])?.connection.baseURL == "http://127.0.0.1:8080/v1")
        #expect(try TranscriptRunOptions.parse(["--base-url", "localhost:9/api"]).baseURL == "http://localhost:9/api", "replay's and test's")
    }

    /// Left to the parser: subcommands, its own flags, anything it refuses or
    /// would read its own way.
    @Test(arguments: [
        ["run", "f.txt"], ["sandbox"], ["--help"], ["-h"], ["--version"], ["--bogus"], ["get /x"], ["--"],
        ["--base-url", "not a url"], ["--base-url"], ["--color", "purple"], ["--offline", "--offline"], ["--offline=true"],
        ["--profile", "a", "--profile", "b"], ["-c", "-v"], ["--base-url", "--offline"], ["-cget"], ["-c=get"],
        ["--generate-completion-script", "bash"], ["--verify", "/no/such/ca.pem"], ["--cert", "/no/such/client.pem"], ["--verify="],
        ["--verify", "/dev/null"], ["--cert", TestCertificates.files.certificate], ["--cert-key", TestCertificates.files.key],
    ])
    func theRestIsLeftToTheParser(_ line: [String]) {
        #expect(QuickArguments(line) == nil)
    }

    /// `explorer --base-url URL get /x` was "2 unexpected arguments": HTTPie's
    /// and xh's way (`http GET URL ITEM…`). From the method on, the words are one `-c` line.
    @Test func aRequestAfterTheOptionsIsALine() throws {
        #expect(QuickArguments.requestLine(["--base-url", "http://h:1", "post", "/x", "name=a b", "-v"])
            == ["--base-url", "http://h:1", "-c", "post /x 'name=a b' -v"])
        #expect(QuickArguments.requestLine(["GET", "http://h:1/x"]) == ["-c", "GET http://h:1/x"])
        // A URL alone, as HTTPie's `http URL a=1` (it was "2 unexpected arguments" and the whole usage).
        #expect(QuickArguments.requestLine(["--base-url", "http://h:1", "/x", "a=1"]) == ["--base-url", "http://h:1", "-c", "/x a=1"])
        #expect(QuickArguments.requestLine([":3000/x"]) == ["-c", ":3000/x"])
        #expect(QuickArguments.requestLine(["https://h.example/x", "-v"]) == ["-c", "https://h.example/x -v"])
        // Into a pipe, the body alone unless the line says what to print, as HTTPie's (`| jq` read the status line first).
        #expect(QuickArguments.requestLine(["get", "/x", "q==1"], piped: true) == ["-c", "get /x q==1 -b"])
        for said in [["-v"], ["-pHh"], ["--print=b"], ["-h"], ["-o", "x.json"], ["--download"], ["--curl"]] {
            #expect(QuickArguments.requestLine(["get", "/x"] + said, piped: true) == ["-c", LineTokenizer.join(["get", "/x"] + said)], "\(said)")
        }
        #expect(QuickArguments.requestLine(["--offline", "post", "/x", "a=1"], piped: true) == ["--offline", "-c", "post /x a=1"])
        #expect(QuickArguments.requestLine(["post", "/x", "--raw", "-hello"], piped: true) == ["-c", "post /x --raw -hello -b"], "--raw's text is no flag")
        // Standard input as the body of a POST, PUT, PATCH or DELETE with no data of its own, as HTTPie's
        // `http POST URL < task.json` (it was dropped); not asked for otherwise, nor with HTTPie's `--ignore-stdin`.
        var asked = 0
        let input = { () -> [UInt8]? in asked += 1; return Array(#"{"a": 1}"#.utf8) }
        #expect(QuickArguments.requestLine(["post", "/x", "X-A:b", "q==1"], takeInput: input) == ["-c", #"post /x X-A:b q==1 --raw '{"a":1}'"#])
        #expect(QuickArguments.requestLine(["--ignore-stdin", "put", "/x"], takeInput: input) == ["-c", "put /x"])
        #expect(QuickArguments.requestLine(["put", "/x", "--ignore-stdin"], takeInput: input) == ["-c", "put /x"])
        #expect(QuickArguments.requestLine(["patch", "/x", "a=1"], takeInput: input) == ["-c", "patch /x a=1"])
        #expect(QuickArguments.requestLine(["post", "/x", "--raw", "hi"], takeInput: input) == ["-c", "post /x --raw hi"])
        #expect(QuickArguments.requestLine(["get", "/x"], takeInput: input) == ["-c", "get /x"])
        #expect(QuickArguments.requestLine(["/x"], takeInput: input) == ["-c", "/x"])
        #expect(asked == 1, "read for the first line alone")
        #expect(QuickArguments.requestLine(["post", "/x"], takeInput: { nil }) == ["-c", "post /x"], "nothing came")
        // JSON compact (echo's line break, a file's indentation are no part of it); other text of one line as it came.
        #expect(QuickArguments.rawText(Array("{\n  \"a\": [1, 2],\n  \"é\": \"x\"\n}\n".utf8)) == #"{"a":[1,2],"é":"x"}"#)
        #expect(QuickArguments.rawText(Array("a=1&b=2".utf8)) == "a=1&b=2")
        #expect(QuickArguments.rawText(Array("line one\nline two\n".utf8)) == nil, "lines of text go as @-")
        // Bytes that are not text are standard input itself, typed as --form says.
        #expect(QuickArguments.requestLine(["post", "/x", "-f"], takeInput: { [0xFF, 0x00] }) == ["-c", "post /x -f '@-;type=application/x-www-form-urlencoded; charset=utf-8'"])
        // An option's value is no method; a subcommand's arguments are the subcommand's.
        #expect(QuickArguments.requestLine(["--env", "get", "-c", "put /a"]) == nil)
        #expect(QuickArguments.requestLine(["--env=staging", "delete", "/a/1"]) == ["--env=staging", "-c", "delete /a/1"])
        for other in [["run", "get"], ["replay", "get.transcript"], [], ["--", "get", "/x"], ["-c", "get /x"], ["test", "sessions/x.transcript"],
                      ["mock", "sessions"], ["profile", "show", "x"]] {
            #expect(QuickArguments.requestLine(other) == nil, "\(other)")
        }
        let line = try #require(QuickArguments.requestLine(["--base-url", "http://127.0.0.1:8080", "get", "/x", "q==1"]))
        #expect(QuickArguments(line)?.commands == ["get /x q==1"])
    }
}

/// `--help` named `--color`'s value two ways (`<mode>` in USAGE, `<color>`
/// under OPTIONS) and listed its values twice.
@Test func theColourOptionIsNamedOneWayInHelp() {
    for help in [ExplorerCommand.helpMessage(), ExplorerCommand.helpMessage(for: ReplayCommand.self)] {
        #expect(help.contains("--color <mode>") && !help.contains("--color <color>"), "\(help)")
        #expect(help.components(separatedBy: "always").count == 2, "its values listed once: \(help)")
    }
}
