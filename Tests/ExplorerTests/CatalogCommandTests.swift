import Core
import Testing
@testable import Explorer

/// `endpoints` and `describe`: parsed, then answered from the catalog alone.
@Suite struct CatalogCommandTests {
    @Test func parsing() throws {
        let parser = CommandParser()
        #expect(try parser.parse("endpoints") == .endpoints(filter: nil))
        #expect(try parser.parse("endpoints flea") == .endpoints(filter: "flea"))
        #expect(try parser.parse("describe POST /api/tasks") == .describe("POST /api/tasks"))
        #expect(throws: CommandError.self) { try parser.parse("describe") }
        #expect(throws: CommandError.self) { try parser.parse("endpoints a b") }
    }

    @Test func listingIsColumnsOfMethodPathAuthSummary() {
        let found = CatalogText.matching("banners", in: Profile.linku.endpoints)
        #expect(found.map(\.path) == ["/api/banners"])
        let text = CatalogText.list(CatalogText.matching("flea-market/items", in: Profile.linku.endpoints))
        let lines = text.split(separator: "\n")
        #expect(lines.first?.hasPrefix("GET    /api/flea-market/items ") == true)
        // The auth column starts at the same place on every line.
        let columns = Set(lines.map { $0.range(of: " auth ")?.lowerBound.utf16Offset(in: $0) })
        #expect(columns.count == 1)
        #expect(CatalogText.matching("post", in: Profile.nova.endpoints).allSatisfy { $0.method == "POST" })
    }

    @Test func describeShowsFieldsWithTypes() throws {
        let create = try #require(Profile.linku.endpoints.first { $0.method == "POST" && $0.path == "/api/tasks" })
        let text = CatalogText.describe(create, in: .linku)
        #expect(text.contains("body: TaskCreate"))
        #expect(text.contains("title        string       required"))
        #expect(text.contains("answer: Task"))
        let model = CatalogText.describe(try #require(Profile.linku.model(named: "task")))
        // An enum's values too long for the type column go on a line of their own under it.
        #expect(model.contains("  status       TaskStatus   required\n                 open | in_progress | completed | confirmed | cancelled\n"),
                "\(model)")
    }

    /// `describe Task` was 83 columns wide (the type column as wide as the
    /// enum's values), and 13 of linku's endpoints up to 98: every row wrapped
    /// mid-word on an 80-column screen.
    @Test(arguments: Profile.builtInNames)
    func describeFitsIn80Columns(_ name: String) throws {
        let profile = try #require(Profile.builtIn(named: name))
        let endpoints = OutcomeText.plain(.endpointDetails(profile.endpoints, in: profile))!
        let models = profile.models.map { OutcomeText.plain(.model($0))! }.joined(separator: "\n")
        for line in (endpoints + "\n" + models).split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).contains(" ") {
            #expect(String(line).columns <= 80, "\(line)")
        }
    }
}

/// `describe ENUM`: an enum's values, the catalog's declaration (not a body's narrower one in place).
@Suite struct DescribeEnumTests {
    @Test func anEnumIsDescribedByItsValues() async throws {
        let (declared, inPlace, none) = try await withLiveSession { live in
            let run = { (line: String) async throws -> Outcome in await live.interpreter.execute(try live.interpreter.parser.parse(line)) }
            return (try await run("describe taskstatus"), try await run("describe FleaMarketItemStatus"), try await run("describe Nope"))
        }
        guard case let .message(task) = declared, case let .message(item) = inPlace else { Issue.record("\(declared) \(inPlace)"); return }
        #expect(task == "TaskStatus: one of open, in_progress, completed, confirmed, cancelled")
        #expect(item == "FleaMarketItemStatus: one of available, sold, removed")
        guard case let .failure(message, _) = none else { Issue.record("\(none)"); return }
        #expect(message.hasPrefix("no endpoint or model 'Nope'; models: Session, "))
    }

    /// A typo was answered with every model's name (700 characters), and
    /// none of the enums or endpoints `describe` takes too.
    @Test func aTypoIsOfferedTheNameItMeant() async throws {
        let said = try await withLiveSession { live in
            var said: [String] = []
            for line in ["describe Tsk", "describe taskstatu", "describe get /api/taks", "describe /api/tasks/{id}/aply", "describe patch /api/tasks/7"] {
                if case let .failure(message, _) = await live.interpreter.execute(try live.interpreter.parser.parse(line)) { said.append(message) }
            }
            return said
        }
        #expect(said == ["no endpoint or model 'Tsk'; did you mean Task?", "no endpoint or model 'taskstatu'; did you mean TaskStatus?",
                         "no endpoint get /api/taks; did you mean /api/tasks?", "no endpoint /api/tasks/{id}/aply; did you mean /api/tasks/{id}/apply?",
                         "no endpoint patch /api/tasks/7; the catalog has GET, PUT /api/tasks/{id}"])
    }
}

/// `endpoints` and `help` on a terminal narrower than their rows: the
/// terminal broke summaries mid-word, two lines in three at 80 columns.
@Suite struct NarrowTerminalTests {
    @Test func anEndpointsSummaryIsCutOrPutUnderItsRowToFitTheTerminal() {
        let endpoints = Profile.linku.endpoints.prefix(3).map { $0 }
        let wide = CatalogText.list(endpoints)
        #expect(CatalogText.list(endpoints, width: 400) == wide, "room enough: as before")
        let pathWidth = endpoints.map(\.path.count).max()!
        let roomy = CatalogText.list(endpoints, width: 7 + pathWidth + 2 + 8 + 30)
        #expect(roomy.split(separator: "\n").allSatisfy { String($0).columns <= 7 + pathWidth + 2 + 8 + 30 } && roomy.contains("…"), "\(roomy)")
        let narrow = CatalogText.list(endpoints, width: 7 + pathWidth + 2 + 8 + 10)
        #expect(narrow.split(separator: "\n").allSatisfy { String($0).columns <= 7 + pathWidth + 2 + 8 + 10 }, "\(narrow)")
        #expect(narrow.contains("\n         " + endpoints[0].summary.prefix(20)), "\(narrow)")
        // Narrower than the path column: each path unpadded, `auth` beside it, not alone on the next line.
        let tight = CatalogText.list(endpoints, width: pathWidth)
        for (row, endpoint) in zip(tight.split(separator: "\n").filter { !$0.hasPrefix(" ") }, endpoints) {
            #expect(row.hasSuffix(endpoint.path + "  " + (endpoint.isPublic ? "public" : "auth")), "\(row)")
        }
        // A recording keeps the rows whole, whatever the terminal.
        #expect(OutcomeText.plain(.endpoints(endpoints)) == wide)
    }

    @Test func helpWrapsAtTheTerminalsWidthUpTo80() {
        let specs = CommandTable.standard.specs
        let sixty = OutcomeText.plain(.help(specs), width: 60)!
        #expect(sixty.split(separator: "\n").allSatisfy { String($0).columns <= 60 }, "\(sixty)")
        #expect(OutcomeText.plain(.help(specs), width: 200) == OutcomeText.plain(.help(specs)))
    }

    /// At 50 columns the command table ran together into one paragraph, and
    /// `help get` joined its examples into false ones (`city=London get /old-path`):
    /// a line that fits in 80 columns starts a line at any width.
    @Test func narrowHelpKeepsEachRowAndExampleOnALineOfItsOwn() {
        let specs = CommandTable.standard.specs
        let wide = OutcomeText.plain(.help(specs), width: 80)!
        let narrow = OutcomeText.plain(.help(specs), width: 50)!
        let lines = narrow.split(separator: "\n")
        for row in wide.split(separator: "\n") where row.hasPrefix("  ") && !row.hasPrefix("   ") {
            let command = row.dropFirst(2).prefix(10).split(separator: " ").first!
            #expect(lines.contains { $0.hasPrefix("  " + command + " ") || $0 == "  " + command }, "\(row)\n\(narrow)")
        }
        #expect(lines.allSatisfy { String($0).columns <= 50 }, "\(narrow)")
        let get = specs.first { $0.name == "get" }!
        let shown = OutcomeText.plain(.commandHelp(get), width: 50)!
        let lineStarts = shown.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for example in get.details.split(separator: "\n") where example.hasPrefix("  get ") || example.hasPrefix("  post ") {
            let words = example.trimmingCharacters(in: .whitespaces).split(separator: " ").prefix(2).joined(separator: " ")
            #expect(lineStarts.contains { $0.hasPrefix(words) }, "\(example)\n\(shown)")
        }
        // A word wider than the room left (`application/x-www-form-urlencoded`) stands alone.
        #expect(shown.split(separator: "\n").allSatisfy { String($0).columns <= 50 || !$0.trimmingCharacters(in: .whitespaces).contains(" ") },
                "\(shown)")
    }
}
