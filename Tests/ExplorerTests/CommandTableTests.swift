import Core
import Foundation
import Testing
@testable import Explorer

/// The command table is the one list of commands: the parser, `help`, "did
/// you mean" and TAB see an entry added to it and nothing else.
@Suite struct CommandTableTests {
    /// A command that exists only in this test's table.
    static let ping = CommandSpec(
        name: "ping", aliases: ["pong"], usage: "ping [loud|quiet]", summary: "answer with the variables",
        details: "Only in this test.",
        slot: SlotKind.positional(.word(["loud", "quiet"])),
        parse: { args throws(CommandError) in
            guard args.count <= 1, args.first.map({ ["loud", "quiet"].contains($0.text) }) ?? true else { throw args.usage(at: args.first) }
            return .vars
        })
    let table = CommandTable.standard.adding(ping)

    @Test func theParserTakesANewEntry() throws {
        let parser = CommandParser(table: table)
        #expect(try parser.parse("ping loud") == .vars)
        #expect(try parser.parse("PONG") == .vars, "an alias, in any case")
        #expect(throws: CommandError("usage: ping [loud|quiet]", column: 5)) { try parser.parse("ping soft") }
        #expect(throws: CommandError("unknown command 'pimg'; did you mean 'ping'? (type help for the list)", column: 0)) {
            try parser.parse("pimg")
        }
        // The standard table does not know it.
        #expect(throws: CommandError.self) { try CommandParser().parse("ping") }
    }

    @Test func tabOffersANewEntryAndItsWords() {
        let state = CompletionState(profile: .linku, variables: [], lastBody: nil, table: table)
        #expect(Completer.complete("pi", state: state).candidates.map(\.text) == ["ping"])
        #expect(Completer.complete("pi", state: state).candidates.first?.hint == "answer with the variables")
        #expect(Completer.complete("ping ", state: state).candidates.map(\.text) == ["loud", "quiet"])
        #expect(Completer.complete("pong q", state: state).candidates.map(\.text) == ["quiet"])
        #expect(Completer.complete("help pi", state: state).candidates.map(\.text) == ["ping"])
    }

    @Test func helpListsAndExplainsANewEntry() async throws {
        let (list, one, typo) = try await withLiveSession(profile: .generic, target: .url(nowhere), table: table) { live in
            let interpreter = live.interpreter
            return (await interpreter.execute(.help(topic: nil)), await interpreter.execute(try interpreter.parser.parse("help pong")),
                    await interpreter.execute(.help(topic: "pnig")))
        }
        guard case let .help(specs) = list, case let .commandHelp(spec) = one, case let .failure(message, _) = typo,
              let text = list.shownText, let details = one.shownText else {
            Issue.record("help answered \(list), \(one), \(typo)")
            return
        }
        #expect(specs.map(\.name).contains("ping") && spec.name == "ping")
        #expect(text.contains("ping [loud|quiet]") && text.contains("answer with the variables"))
        #expect(details == "usage: ping [loud|quiet]\n\nOnly in this test.")
        #expect(message == "no help for 'pnig'; did you mean 'ping'? (type help for the list)")
    }

    /// TAB offered `quit` and `headers`, which help did not list.
    @Test func helpNamesEveryWordTabOffersForACommand() {
        let text = OutcomeText.help(CommandTable.standard.specs)
        for name in CommandTable.standard.offeredNames {
            #expect(text.contains("  \(name) ") || text.contains("also: \(name)") || text.contains(", \(name)"), "\(name)")
        }
        #expect(text.contains("exit                               leave; Ctrl-D does too (also: quit)"))
    }

    /// Every usage error says the usage `help` shows: they cannot drift apart.
    /// `help get` lists each request option with its help in a column apart,
    /// however long the option (`--verify yes|no|CA_FILE` ran into its help).
    @Test func everyRequestOptionStandsApartFromItsHelp() {
        let lines = CommandTable.httpDetails.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for flag in RequestOptions.flags {
            let option = "  " + flag.names.joined(separator: ", ") + (flag.value.map { " " + $0 } ?? "")
            guard let at = lines.firstIndex(where: { $0.hasPrefix(option + " ") || $0 == option }) else {
                Issue.record("no line for \(option)")
                continue
            }
            let rest = lines[at].dropFirst(option.count)
            let help = rest.isEmpty ? lines[at + 1].drop(while: { $0 == " " }) : rest.drop(while: { $0 == " " })
            #expect(rest.isEmpty || rest.hasPrefix("  "), "\(lines[at])")
            #expect(help == flag.help[...], "\(option)")
        }
    }

    @Test func usageErrorsSayWhatHelpSays() {
        let wrong = ["login a b c", "unset", "cookies now", "show a b", "save", "capture", "endpoints a b",
                     "describe", "spec", "record", "replay", "tour a b"]
        for line in wrong {
            let name = String(line.split(separator: " ")[0])
            let spec = CommandTable.standard.spec(named: name)!
            #expect(throws: CommandError.self) { try CommandParser().parse(line) }
            do { _ = try CommandParser().parse(line) } catch {
                #expect(error.message == spec.usageMessage, "\(line)")
            }
        }
    }

    /// `help ws send` was "usage: help [COMMAND]": it is the ws command's help, which says its actions.
    @Test func helpOfACommandsActionIsTheCommandsHelp() throws {
        #expect(try CommandParser().parse("help ws send") == .help(topic: "ws"))
    }

    @Test func envCompletesTheProfilesEnvironments() throws {
        let state = CompletionState(profile: .linku, variables: [], lastBody: nil, environments: ["local", "staging"])
        #expect(Completer.complete("env s", state: state).candidates.map(\.text) == ["staging"])
        #expect(try CommandParser().parse("env staging") == .environment("staging"))
        #expect(try CommandParser().parse("env") == .environment(nil))
    }

    @Test func defaultsSaysWhyAFlagIsRefused() {
        func message(_ line: String) -> String {
            do { return "parsed: \(try CommandParser().parse(line))" } catch { return error.message }
        }
        #expect(message("defaults --bogus").hasPrefix("unknown option --bogus; defaults takes "))
        #expect(message("defaults --raw x").hasPrefix("--raw is for one line; defaults takes "))
    }

    /// The usage column stays narrow: a long usage puts its summary on the
    /// next line (the column was 83 wide, and every summary wrapped mid-word).
    @Test func helpKeepsItsColumnNarrow() {
        let text = OutcomeText.help(CommandTable.standard.specs)
        let get = text.split(separator: "\n").first { $0.hasPrefix("  get ") }!
        #expect(get.range(of: "send a GET request")!.lowerBound.utf16Offset(in: get) <= OutcomeText.helpColumn + 4)
        #expect(text.contains("  header [Name:value…] | header Name: | header unset Name | header clear\n      "))
    }

    @Test func namesAreUnique() {
        let names = CommandTable.standard.specs.flatMap(\.names)
        #expect(Set(names).count == names.count)
    }
}

/// Issue 13: `auth …` and `header unset NAME`, sugar over session headers.
@Suite struct AuthCommandTests {
    let parser = CommandParser()

    @Test func authSetsTheSessionCredentialAsAHeader() throws {
        #expect(try parser.parse("auth bearer T0K") == .header(.credential(("Authorization", "Bearer T0K"))))
        #expect(try parser.parse("auth basic alice:pw") == .header(.credential(("Authorization", "Basic YWxpY2U6cHc="))))
        #expect(try parser.parse("auth header X-Api-Key k1") == .header(.credential(("X-Api-Key", "k1"))))
        #expect(try parser.parse("auth none") == .header(.credential(nil)))
        #expect(try parser.parse("auth") == .header(.list))
        #expect(try parser.parse("header unset X-Trace") == .header(.set([("X-Trace", "")])))
    }

    @Test func badAuthLinesAreRefusedWithACaret() {
        #expect(throws: CommandError("auth basic takes USER:PASSWORD as typed (USER:{{secret:password}} asks for the password)", column: 11)) {
            try parser.parse("auth basic alice")
        }
        #expect(throws: CommandError.self) { try parser.parse("auth header ß v") }
        #expect(throws: CommandError.self) { try parser.parse("auth bearer 'a\rb'") }
        #expect(throws: CommandError.self) { try parser.parse("auth digest x") }
        #expect(throws: CommandError.self) { try parser.parse("auth bearer") }
        #expect(Completer.complete("auth b", state: CompletionState(profile: .linku, variables: [], lastBody: nil)).candidates.map(\.text) == ["bearer", "basic"])
    }
}
