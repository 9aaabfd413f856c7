import Core
import Testing
@testable import Explorer

/// Tables (`describe`, `profiles`, `env`, TAB's list) line up in a terminal
/// whatever script their text is in.
@Suite struct ColumnsTests {
    @Test(arguments: [
        ("name", 4), ("", 0), ("名称", 4), ("ｆｕｌｌ", 8), ("한국", 4), ("🚀", 2), ("❤️", 2), ("👩‍💻", 2),
        ("e\u{301}tape", 5), ("café", 4), ("a\u{200B}b", 2), ("Ω", 1),
    ])
    func aTerminalsColumns(_ text: String, _ columns: Int) {
        #expect(text.columns == columns, "\(text)")
    }

    @Test func paddingCountsColumnsAndNeverCuts() {
        #expect("id".padded(to: 6) == "id    ")
        #expect("名称".padded(to: 6) == "名称  ")
        #expect("e\u{301}".padded(to: 3) == "e\u{301}  ")
        #expect("--verify yes|no|CA_FILE".padded(to: 10) == "--verify yes|no|CA_FILE")
    }

    /// TAB's list with hints is cut to the terminal's width in columns: a
    /// Chinese summary cut by characters ran to 65 columns in a 40-column terminal.
    @Test func aHintListFitsTheTerminalInAnyScript() {
        let candidates = [Completion.Candidate(text: "linku/chat", isFinal: true, hint: "爱丽丝和鲍勃通过沙盒的套接字聊天，并通过接口读回聊天记录。"),
                          Completion.Candidate(text: "linku/browse", isFinal: true, hint: "Bob browses the task list: pages, the city, category and status filters.")]
        let lines = CandidateList.format(candidates, width: 40).split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines.allSatisfy { $0.columns < 40 }, "\(lines.map(\.columns))")
        #expect(lines[0].hasPrefix("linku/chat    爱丽丝"))
        // A cut hint says it is cut: it stopped mid-word, as if that were all.
        #expect(lines.allSatisfy { $0.hasSuffix("…") }, "\(lines)")
        #expect("名称abc".prefix(columns: 5) == "名称a" && "名称abc".prefix(columns: 3) == "名")
    }

    /// A summary in Chinese has no spaces to break at: it ran past a
    /// 60-column terminal and wrapped at column 0. It breaks between its
    /// characters, under the same indent as an English one.
    @Test func textWithoutSpacesWrapsBetweenItsCharacters() {
        let line = "GET    /long    " + String(repeating: "这是中文接口说明", count: 6) + " and more"
        let wrapped = line.wrapped(width: 40).split(separator: "\n").map(String.init)
        #expect(wrapped.count > 2 && wrapped.allSatisfy { $0.columns <= 40 }, "\(wrapped)")
        #expect(wrapped.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 16)) }, "\(wrapped)")
        #expect(wrapped.joined().replacingOccurrences(of: " ", with: "").contains(String(repeating: "这是中文接口说明", count: 6) + "andmore"))
        #expect("a verylongwordwithoutanyspace end".wrapped(width: 10) == "a\nverylongwordwithoutanyspace\nend", "an ASCII word stays whole")
    }

    /// `get /` TAB TAB on a spec of 6,000 paths printed every one: the first
    /// 200 are listed, and how many more.
    @Test func aLongCandidateListIsCutWithTheCountOfTheRest() {
        let candidates = (0..<6000).map { Completion.Candidate(text: "/r\($0)", isFinal: true) }
        let listing = CandidateList.format(candidates, width: 80)
        #expect(listing.hasSuffix("\n… and 5800 more: type more of it to narrow them\n"), "\(listing.suffix(80))")
        #expect(listing.contains("/r199") && !listing.contains("/r200 ") && !listing.contains("/r200\n"))
        #expect(!CandidateList.format(Array(candidates.prefix(200)), width: 80).contains("more"))
    }

    @Test func aModelsFieldsLineUpInAnyScript() throws {
        let model = Model("Post", [
            Field("id", .integer), Field("标题", .string), Field("🚀", .string, required: false),
            Field("e\u{301}tat", .boolean, required: false),
        ])
        let rows = CatalogText.describe(model).split(separator: "\n").dropFirst().map(String.init)
        // Each type starts at the same column.
        let starts = try rows.map { row in
            let type = try #require(["integer", "string", "boolean"].first { row.contains($0) })
            return String(row[..<row.range(of: type)!.lowerBound]).columns
        }
        #expect(Set(starts).count == 1, "\(rows)")
    }
}
