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
        #expect(model.contains("TaskStatus (open|in_progress|completed|confirmed|cancelled)"))
    }
}
