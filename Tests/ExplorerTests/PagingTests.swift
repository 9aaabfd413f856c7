import Foundation
import Core
import Testing
@testable import Explorer

/// Issue 14: `next` reads the next page off the answer, the way backends say it.
@Suite struct PagingTests {
    let last = Paging.Last(path: "/items", items: [.query(name: "q", value: "x")], options: RequestOptions())

    func answer(_ body: String, headers: [HTTPHeader] = []) -> ReceivedResponse {
        ReceivedResponse(status: 200, reason: "OK", headers: headers, body: Array(body.utf8))
    }

    @Test func aLinkHeaderWins() {
        let link = HTTPHeader(name: "Link", value: #"<https://api.example.com/items?page=1>; rel="prev", <https://api.example.com/items?page=3>; rel="next""#)
        #expect(Paging.next(after: last, response: answer(#"{"page": 2}"#, headers: [link]), endpointQuery: []) == .url("https://api.example.com/items?page=3"))
        #expect(Paging.nextLink(in: #"</a?p=2>; rel="last next""#) == "/a?p=2")
        #expect(Paging.nextLink(in: #"</a?p=1>; rel="prev""#) == nil)
        // A comma inside a target or a quoted parameter does not end a link (it ended paging).
        #expect(Paging.nextLink(in: #"</a?fields=id,name&p=2>; rel="next", </a?fields=id,name&p=9>; rel="last""#) == "/a?fields=id,name&p=2")
        #expect(Paging.nextLink(in: #"</a?p=1>; rel="prev"; title="a, b", </a?p=3>; rel="next""#) == "/a?p=3")
        // A `;` in the target, and a quoted title that looks like another link, are no parameters.
        #expect(Paging.nextLink(in: #"<t?b=p2;x=1>; rel="next""#) == "t?b=p2;x=1")
        #expect(Paging.nextLink(in: #"</a?p=1>; rel="prev"; title="a, <b>; rel=next", </a?p=3>; rel="next""#) == "/a?p=3")
        // Several Link fields are one list: the next was in the third and not looked for.
        let fields = ["</a?p=1>; rel=\"first\"", "</a?p=1>; rel=\"prev\"", "</a?p=3>; rel=\"next\""].map { HTTPHeader(name: "Link", value: $0) }
        #expect(Paging.next(after: last, response: answer("[1]", headers: fields), endpointQuery: []) == .url("/a?p=3"))
        // The last page's Link has no next: the end, not a guessed `page=4` (page 3 was shown again).
        let lastLink = HTTPHeader(name: "Link", value: #"<https://api.example.com/items?page=2>; rel="prev""#)
        let third = Paging.Last(path: "/items", items: [.query(name: "page", value: "3")], options: RequestOptions())
        #expect(Paging.next(after: third, response: answer("[1]", headers: [lastLink]), endpointQuery: ["page"])
            == .end(#"no next page: the Link header has no rel="next""#))
    }

    /// A page (or cursor) typed in the path's query is the one that moves on:
    /// `/items?page=2&per_page=5` went out as `…&page=2` again, with `page==3` beside it.
    @Test func aPageTypedInThePathMovesOn() {
        let typed = Paging.Last(path: "/items?page=2&per_page=2&q=a%20b", items: [.query(name: "tag", value: "x")], options: RequestOptions())
        #expect(Paging.next(after: typed, response: answer("[1, 2]"), endpointQuery: [])
            == .request(path: "/items", items: [.query(name: "page", value: "3"), .query(name: "per_page", value: "2"),
                                                .query(name: "q", value: "a b"), .query(name: "tag", value: "x")]))
        let cursor = Paging.Last(path: "https://h.example/feed?after=old", items: [], options: RequestOptions())
        #expect(Paging.next(after: cursor, response: answer(#"{"next_cursor": "n2"}"#), endpointQuery: [])
            == .request(path: "https://h.example/feed", items: [.query(name: "after", value: "n2")]))
    }

    @Test func aNextURLInTheBody() {
        #expect(Paging.next(after: last, response: answer(#"{"next": "/items?page=2", "results": []}"#), endpointQuery: []) == .url("/items?page=2"))
        #expect(Paging.next(after: last, response: answer(#"{"next": null, "results": [1]}"#), endpointQuery: []) == .end("no next page: the answer's next is null"))
        // A link of another scheme went to the backend as a path, with the session's token.
        #expect(Paging.next(after: last, response: answer(#"{"next": "file:///etc/passwd"}"#), endpointQuery: [])
                == .end("no next page: the answer's next link is not an http(s) URL (file:///etc/passwd)"))
        #expect(Paging.next(after: last, response: answer("[1]", headers: [HTTPHeader(name: "Link", value: #"<javascript:alert(1)>; rel="next""#)]), endpointQuery: [])
                == .end("no next page: the answer's next link is not an http(s) URL (javascript:alert(1))"))
        #expect(Paging.next(after: last, response: answer(#"{"next": "items?page=2"}"#), endpointQuery: []) == .url("items?page=2"))
    }

    /// JSON:API's `links.next` and HAL's `_links.next.href` were not read
    /// ("the answer names none"), and a HAL list paged by number ran past its
    /// end, page after empty page.
    @Test func aNextLinkUnderLinksOrHALsLinks() {
        #expect(Paging.next(after: last, response: answer(#"{"data": [1], "links": {"self": "/a?page%5Bnumber%5D=1", "next": "/a?page%5Bnumber%5D=2"}}"#),
                            endpointQuery: []) == .url("/a?page%5Bnumber%5D=2"))
        #expect(Paging.next(after: last, response: answer(#"{"data": [1], "links": {"self": "/a", "next": null}}"#), endpointQuery: [])
                == .end("no next page: the answer's links.next is null"))
        #expect(Paging.next(after: last, response: answer(#"{"_embedded": {"orders": [1]}, "_links": {"next": {"href": "/orders?page=2"}}}"#),
                            endpointQuery: []) == .url("/orders?page=2"))
        let page3 = Paging.Last(path: "/orders", items: [.query(name: "page", value: "3")], options: RequestOptions())
        #expect(Paging.next(after: page3, response: answer(#"{"_embedded": {"orders": []}, "_links": {"self": {"href": "/orders?page=3"}}, "total": 5}"#),
                            endpointQuery: ["page"]) == .end("no next page: the answer's _links name no next"))
    }

    /// A page a Link names is asked with the list line's headers and the
    /// query items it does not name (a gateway's API key: page 2 got 401),
    /// on the list's origin only.
    @Test func aLinkedPageKeepsTheLinesHeadersOnItsOrigin() {
        let items: [RequestItem] = [.header(name: "X-Api-Key", value: "k"), .query(name: "api_key", value: "q"), .query(name: "page", value: "1"),
                                    .stringField(name: "a", value: "b")]
        let list = URL(string: "http://h.example/v2/items?page=1")!
        #expect(Interpreter.keptForLink(items, to: "http://h.example/v2/items?page=2", from: list)
                == [.header(name: "X-Api-Key", value: "k"), .query(name: "api_key", value: "q")])
        #expect(Interpreter.keptForLink(items, to: "https://other.example/v2/items?page=2", from: list) == [])
        // Absolute by its scheme in any case; relative even with `://` in its query.
        #expect(Interpreter.linkTarget("HTTP://h.example/p2", from: list) == "http://h.example/p2")
        #expect(Interpreter.linkTarget("/v2/r?to=http://a", from: list) == "http://h.example/v2/r?to=http://a")
        #expect(Interpreter.linkTarget("items?page=3", from: list) == "http://h.example/v2/items?page=3")
    }

    @Test func aCursorGoesBackInTheRequestsOwnParameter() {
        #expect(Paging.next(after: last, response: answer(#"{"posts": [1], "next_cursor": "abc"}"#), endpointQuery: ["cursor", "limit"])
            == .request(path: "/items", items: [.query(name: "q", value: "x"), .query(name: "cursor", value: "abc")]))
        let typed = Paging.Last(path: "/items", items: [.query(name: "after", value: "old")], options: RequestOptions())
        #expect(Paging.next(after: typed, response: answer(#"{"meta": {"nextCursor": 42}}"#), endpointQuery: [])
            == .request(path: "/items", items: [.query(name: "after", value: "42")]))
        #expect(Paging.next(after: last, response: answer(#"{"next_cursor": null}"#), endpointQuery: []) == .end("no next page: the answer's next_cursor is null"))
    }

    /// A list paged by its Link header whose last page has none (sent only
    /// while there is a next) was read as a page-number list: page=4, 5, …
    @Test func aListPagedByLinkEndsWhereTheLinkHeaderDoes() {
        var linked = Paging.Last(path: "/items?page=3", items: [], options: RequestOptions())
        linked.linked = true
        #expect(Paging.next(after: linked, response: answer(#"{"items": [1], "page": 3}"#), endpointQuery: [])
            == .end("no next page: this answer has no Link header, where the pages before it had one"))
        linked.linked = false
        #expect(Paging.next(after: linked, response: answer(#"{"items": [1], "page": 3}"#), endpointQuery: [])
            == .request(path: "/items", items: [.query(name: "page", value: "4")]))
    }

    /// Every cursor went back as `?cursor=` when nothing named the
    /// parameter: a Google-style API ignores it, and `next` fetched the
    /// first page again each time without a word.
    @Test func aCursorFieldGoesBackInItsAPIFamilysParameter() {
        let bare = Paging.Last(path: "/items", items: [], options: RequestOptions())
        for (field, parameter) in [("nextPageToken", "pageToken"), ("next_page_token", "page_token"), ("endCursor", "after"),
                                   ("nextToken", "nextToken"), ("next_cursor", "cursor")] {
            #expect(Paging.next(after: bare, response: answer(#"{"\#(field)": "c2"}"#), endpointQuery: [])
                == .request(path: "/items", items: [.query(name: parameter, value: "c2")]), "\(field)")
        }
        // A relay's last page keeps its endCursor and says hasNextPage: false.
        #expect(Paging.next(after: bare, response: answer(#"{"data": [1], "pageInfo": {"endCursor": "c9", "hasNextPage": false}}"#), endpointQuery: [])
            == .end("no next page: the answer's hasNextPage is false"))
        #expect(Paging.next(after: bare, response: answer(#"{"data": [1], "pageInfo": {"endCursor": "c9", "hasNextPage": true}}"#), endpointQuery: [])
            == .request(path: "/items", items: [.query(name: "after", value: "c9")]))
        // The catalog's own parameter still wins.
        #expect(Paging.next(after: bare, response: answer(#"{"nextPageToken": "c2"}"#), endpointQuery: ["cursor"])
            == .request(path: "/items", items: [.query(name: "cursor", value: "c2")]))
    }

    @Test func aPageNumberGoesUpUntilTheTotalOrAShortPage() {
        let paged = Paging.Last(path: "/api/tasks", items: [.query(name: "page", value: "2"), .query(name: "page_size", value: "2")], options: RequestOptions())
        #expect(Paging.next(after: paged, response: answer(#"{"tasks": [1, 2], "total": 5, "page": 2}"#), endpointQuery: ["page"])
            == .request(path: "/api/tasks", items: [.query(name: "page", value: "3"), .query(name: "page_size", value: "2")]))
        #expect(Paging.next(after: paged, response: answer(#"{"tasks": [1, 2], "total": 4, "page": 2}"#), endpointQuery: ["page"])
            == .end("no next page: 2 pages of 2 cover the total, 4"))
        #expect(Paging.next(after: paged, response: answer(#"[1]"#), endpointQuery: []) == .end("no next page: page 2 has 1 of 2"))
        #expect(Paging.next(after: last, response: answer(#"{"a": 1}"#), endpointQuery: [])
            == .end("no next page: the answer names none (no Link header, next, next_cursor or page)"))
    }

    @Test func nextFollowsTheSandboxsPages() async throws {
        try await withSandboxInterpreter { interpreter, _ in
            func run(_ line: String) async throws -> Outcome { await interpreter.execute(try interpreter.parser.parse(line)) }
            #expect(try await run("next").exitStatus == .usage, "nothing listed yet")
            _ = try await run("login alice@example.com alice123")
            _ = try await run("get /api/tasks page_size==2")
            // A command in between that is not a GET (whoami) does not change what next follows.
            _ = try await run("whoami")
            var pages = [(await interpreter.lastListResponse?.json)?["page"]]
            var views: [PrintParts?] = []
            for line in ["next -b", "next", "next"] {
                let outcome = try await run(line)
                if case let .exchange(_, _, view) = outcome { views.append(view) } else { views.append(nil) }
                pages.append((await interpreter.lastListResponse?.json)?["page"])
            }
            #expect(pages == [.int(1), .int(2), .int(3), .int(3)], "the third page is the last: next says so and fetches nothing")
            // `next -b` shows its page so, and the list's own options stay for the next `next`.
            #expect(views == [[.responseBody], PrintParts.standard(for: "GET"), nil])
            #expect(throws: CommandError.self) { try interpreter.parser.parse("next page==3") }
        }
    }
}

/// `--download`'s file names, as HTTPie picks them.
@Suite struct DownloadNameTests {
    @Test func theAnswerNamesTheFileElseTheURL() {
        let url = URL(string: "https://h.example/files/a%20b.pdf?x=1")!
        #expect(Download.name(headers: [], url: url) == "a b.pdf")
        #expect(Download.name(headers: [HTTPHeader(name: "Content-Disposition", value: #"attachment; filename="../etc/passwd""#)], url: url) == "passwd")
        #expect(Download.name(headers: [HTTPHeader(name: "content-disposition", value: "inline; filename=..")], url: URL(string: "https://h.example/")!) == "download")
        // A 300-character name failed the download ("File name too long"), the body lost: cut, its extension kept.
        let long = Download.name(headers: [HTTPHeader(name: "Content-Disposition", value: "attachment; filename=\"\(String(repeating: "L", count: 300)).txt\"")], url: url)
        #expect(long == String(repeating: "L", count: Download.longestName - 4) + ".txt")
        let wide = Download.shortened(String(repeating: "é", count: 200) + ".pdf")
        #expect(wide.utf8.count <= Download.longestName && wide.hasSuffix("é.pdf"))
        #expect(Download.filename(in: #"attachment; filename="x.csv"; filename*=UTF-8''r%C3%A9sum%C3%A9.csv"#) == "résumé.csv")
    }

    /// `-d` of `/export/eyJ…` named the file after the token and said it on screen.
    /// On a 40-column terminal the line wrapped, and each redraw left the
    /// rows above it: it is fitted by shortening the name, wide characters
    /// counted as two columns.
    @Test func theProgressLineFitsTheTerminal() {
        let name = "你好-very-long-file-name-for-a-narrow-terminal-😀.bin"
        let line = Download.progressLine(name: name, amount: "1.1 MiB of 3.0 MiB (35%)", width: 60)
        #expect(line.hasPrefix("\r\u{1B}[Kdownloading 你好-very") && line.hasSuffix("… 1.1 MiB of 3.0 MiB (35%)"), "\(line)")
        #expect(String(line.dropFirst(4)).columns <= 59, "\(line)")
        // Narrower, the amount goes down to its percentage before the name is lost (it went, and the percentage was cut).
        #expect(Download.progressLine(name: name, amount: "1.1 MiB of 3.0 MiB (35%)", width: 40) == "\r\u{1B}[Kdownloading 你好-very-long-file-na… 35%")
        #expect(Download.progressLine(name: "日本語のとても長いファイル名です.bin", amount: "320.0 KiB of 976.6 KiB (32%)", width: 30)
                == "\r\u{1B}[Kdownloading 日本語のとて… 32%")
        #expect(Download.progressLine(name: "a.bin", amount: "3 B", width: 80) == "\r\u{1B}[Kdownloading a.bin 3 B")
        #expect(String(Download.progressLine(name: name, amount: "1.1 MiB of 3.0 MiB (35%)", width: 20).dropFirst(4)).columns <= 19)
    }

    @Test func aTokenInThePathIsNoName() {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"
        #expect(Download.name(headers: [], url: URL(string: "https://h.example/export/\(jwt)")!) == "download")
        #expect(Download.name(headers: [], url: URL(string: "https://h.example/export/\(jwt)?format=csv")!) == "download")
    }

    /// A `;` inside the quotes cut the name there: a title's escape code
    /// (`\e]0;DL\a`) made a file named `]0`.
    @Test func aQuotedNameKeepsItsSemicolonsAndEscapes() {
        #expect(Download.filename(in: #"attachment; filename="a;b.txt"; size=3"#) == "a;b.txt")
        #expect(Download.filename(in: #"attachment; filename="say \"hi\".txt""#) == #"say "hi".txt"#)
        let hostile = HTTPHeader(name: "Content-Disposition", value: "attachment; filename=\"../../\u{1B}]0;DL\u{07}evil.txt\"")
        #expect(Download.name(headers: [hostile], url: URL(string: "https://h.example/x")!) == "]0;DLevil.txt")
    }
}

extension DownloadNameTests {
    /// A name taken where it was recorded (`x-1.txt`) is free in a replay's
    /// own folder: the recording lets the `-N` be there or not.
    @Test func aRenamedDownloadIsRecordedWithItsNumberOptional() throws {
        let renamed = try #require(TranscriptRecorder.renamedDownload(.literal("saved 3 B to x-12.txt"), intended: "x.txt"))
        #expect(renamed.description == "saved 3 B to x{{/(-[0-9]+)?/}}.txt")
        func matches(_ name: String) -> Bool { renamed.match("saved 3 B to \(name)", bound: { _ in nil }) != nil }
        for name in ["x.txt", "x-1.txt", "x-12.txt"] { #expect(matches(name), "\(name)") }
        for name in ["x-a.txt", "y.txt", "x.txt.txt"] { #expect(!matches(name), "\(name)") }
        #expect(TranscriptRecorder.renamedDownload(.literal("saved 3 B to archive-2"), intended: "archive")?.description
                == "saved 3 B to archive{{/(-[0-9]+)?/}}")
        // Not renamed, another name (-o), or not a save: as it was.
        for (note, intended) in [("saved 3 B to x.txt", "x.txt"), ("saved 3 B to report-2024.csv", "report-2024.csv"),
                                 ("saved 3 B to mine-1.txt", "x.txt"), ("not saved: the answer was 404", "x.txt")] {
            #expect(TranscriptRecorder.renamedDownload(.literal(note), intended: intended) == nil, "\(note)")
        }
    }
}

extension PagingTests {
    /// A profile file's `pagination` is the rule, with its own names.
    @Test func aDeclaredCursorIsReadWhereTheProfileSays() throws {
        let text = "explorer-profile: 1\nname: x\nenvironments: {a: {base-url: \"http://127.0.0.1:1\"}}\n"
            + "pagination: {style: cursor, next-cursor: .meta.after, cursor-parameter: from}\n"
        let declared = try #require(try ProfileFile.parse(text, file: "x.yaml").profile.pagination)
        // A next_cursor the guesses would take is not the declared one.
        #expect(Paging.next(after: last, response: answer(#"{"data": [1], "next_cursor": "no", "meta": {"after": "c2"}}"#), endpointQuery: [], declared: declared)
            == .request(path: "/items", items: [.query(name: "q", value: "x"), .query(name: "from", value: "c2")]))
        #expect(Paging.next(after: last, response: answer(#"{"data": [1], "meta": {"after": null}}"#), endpointQuery: [], declared: declared)
            == .end("no next page: the answer's .meta.after is null, empty or absent"))
    }

    @Test func aDeclaredPageNumberCountsInItsOwnParameters() throws {
        let text = "explorer-profile: 1\nname: x\nenvironments: {a: {base-url: \"http://127.0.0.1:1\"}}\n"
            + "pagination: {style: page, page-parameter: p, size-parameter: n, total: .meta.count}\n"
        let declared = try #require(try ProfileFile.parse(text, file: "x.yaml").profile.pagination)
        let second = Paging.Last(path: "/items", items: [.query(name: "p", value: "2"), .query(name: "n", value: "10")], options: RequestOptions())
        let items = #"[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]"#
        #expect(Paging.next(after: second, response: answer(#"{"rows": \#(items), "meta": {"count": 25}}"#), endpointQuery: [], declared: declared)
            == .request(path: "/items", items: [.query(name: "p", value: "3"), .query(name: "n", value: "10")]))
        #expect(Paging.next(after: second, response: answer(#"{"rows": \#(items), "meta": {"count": 20}}"#), endpointQuery: [], declared: declared)
            == .end("no next page: 2 pages of 10 cover the total, 20"))
        // An endpoint the catalog says pages another way (a cursor's `after`) was sent `?p=3`, and answered
        // its first page again, for ever; one whose query items the catalog does not know is paged as declared.
        #expect(Paging.next(after: second, response: answer(#"{"rows": \#(items), "meta": {"count": 25}}"#), endpointQuery: ["after", "limit"], declared: declared)
            == .end("no next page by the profile's pagination: the catalog lists no p query for this endpoint (it takes after, limit); give the next page's item yourself"))
        #expect(Paging.next(after: second, response: answer(#"{"rows": \#(items), "meta": {"count": 25}}"#), endpointQuery: ["p", "n"], declared: declared)
            == .request(path: "/items", items: [.query(name: "p", value: "3"), .query(name: "n", value: "10")]))
        // No size typed: the one the answer says it used. Without it the total was never reached,
        // and `next` fetched an empty page 4 of a total of 7 in pages of 3.
        let untyped = try #require(try ProfileFile.parse("explorer-profile: 1\nname: x\nenvironments: {a: {base-url: \"http://127.0.0.1:1\"}}\n"
            + "pagination: {style: page, total: .total}\n", file: "x.yaml").profile.pagination)
        let third = Paging.Last(path: "/items", items: [.query(name: "page", value: "3")], options: RequestOptions())
        #expect(Paging.next(after: third, response: answer(#"{"items": [7], "page": 3, "page_size": 3, "total": 7}"#), endpointQuery: [], declared: untyped)
            == .end("no next page: 3 pages of 3 cover the total, 7"))
        let first = Paging.Last(path: "/items", items: [], options: RequestOptions())
        #expect(Paging.next(after: first, response: answer(#"{"items": [1, 2], "page_size": 2, "total": 2}"#), endpointQuery: [], declared: untyped)
            == .end("no next page: 1 page of 2 covers the total, 2"))
        // A server that caps the size: the size it says it used, not the one asked for.
        let capped = Paging.Last(path: "/items", items: [.query(name: "page_size", value: "5")], options: RequestOptions())
        let sized = try #require(try ProfileFile.parse("explorer-profile: 1\nname: x\nenvironments: {a: {base-url: \"http://127.0.0.1:1\"}}\n"
            + "pagination: {style: page, size-parameter: page_size, total: .total}\n", file: "x.yaml").profile.pagination)
        #expect(Paging.next(after: capped, response: answer(#"{"items": [1, 2, 3], "page_size": 3, "total": 7}"#), endpointQuery: [], declared: sized)
            == .request(path: "/items", items: [.query(name: "page_size", value: "5"), .query(name: "page", value: "2")]))
        #expect(Paging.next(after: first, response: answer(#"{"items": [], "total": 0}"#), endpointQuery: [], declared: untyped)
            == .end("no next page: the total is 0"))
        // A size that cannot be: a first page of 2 that "had 100" of 7, or 0.
        for claimed in ["100", "0"] {
            #expect(Paging.next(after: first, response: answer(#"{"items": [0, 1], "page": 1, "page_size": \#(claimed), "total": 7}"#), endpointQuery: [], declared: untyped)
                    == .request(path: "/items", items: [.query(name: "page", value: "2")]), "\(claimed)")
        }
        // One object, not a list (`get /notes/n_001` then `next`): page 2 of it fetched the same object again.
        #expect(Paging.next(after: second, response: answer(#"{"id": "n_001", "title": "x"}"#), endpointQuery: [], declared: declared)
            == .end("no next page: the last answer is not a list (next pages through a list answer)"))
        #expect(Paging.next(after: second, response: answer(#"{"data": {"rows": \#(items)}}"#), endpointQuery: [], declared: declared)
            == .request(path: "/items", items: [.query(name: "p", value: "3"), .query(name: "n", value: "10")]), "a list one level down")
        do {
            _ = try ProfileFile.parse(text.replacingOccurrences(of: "style: page", with: "style: keyset"), file: "x.yaml")
            Issue.record("read an unknown style")
        } catch {
            #expect(error.description == "x.yaml:4: at $.pagination.style: expected cursor (a next cursor in the answer), "
                    + "page (a page number in the query) or offset (an item offset in the query)")
        }
    }

    /// A list paged by an item offset (PostgREST's `offset`/`limit` and its
    /// `Range` header, Directus, most SQL-backed APIs): `next` said the
    /// answer named no next page.
    @Test func anOffsetMovesPastTheItemsThisPageHad() {
        let rows = #"[{"id": 1}, {"id": 2}, {"id": 3}]"#
        let typed = Paging.Last(path: "/rest/v1/todos?select=id&limit=3&offset=3", items: [], options: RequestOptions())
        #expect(Paging.next(after: typed, response: answer(rows), endpointQuery: [])
            == .request(path: "/rest/v1/todos", items: [.query(name: "select", value: "id"), .query(name: "limit", value: "3"), .query(name: "offset", value: "6")]))
        // The total in a Content-Range (`Prefer: count=exact`) ends it; so does a short page, an empty one, or the body's total.
        let total = HTTPHeader(name: "Content-Range", value: "3-5/6")
        #expect(Paging.next(after: typed, response: answer(rows, headers: [total]), endpointQuery: [])
            == .end("no next page: offset 3 and 3 more reach the total, 6"))
        // `limit` alone, answered with a Content-Range of items: the first page of an offset list.
        let limited = Paging.Last(path: "/rest/v1/todos", items: [.query(name: "limit", value: "3")], options: RequestOptions())
        #expect(Paging.next(after: limited, response: answer(rows, headers: [HTTPHeader(name: "Content-Range", value: "0-2/*")]), endpointQuery: [])
            == .request(path: "/rest/v1/todos", items: [.query(name: "limit", value: "3"), .query(name: "offset", value: "3")]))
        #expect(Paging.next(after: limited, response: answer(rows, headers: [HTTPHeader(name: "Content-Range", value: "bytes 0-2/9")]), endpointQuery: [])
            == .end("no next page: the answer names none (no Link header, next, next_cursor or page)"))
        #expect(Paging.next(after: typed, response: answer(#"[{"id": 4}]"#), endpointQuery: []) == .end("no next page: the page at offset 3 has 1 of 3"))
        #expect(Paging.next(after: typed, response: answer("[]"), endpointQuery: []) == .end("no next page: the page at offset 3 is empty"))
        // A server that caps the limit: the next offset is past the items it gave, not the limit asked for.
        let skip = Paging.Last(path: "/items", items: [.query(name: "skip", value: "0"), .query(name: "limit", value: "100")], options: RequestOptions())
        #expect(Paging.next(after: skip, response: answer(#"{"items": \#(rows), "total": 10}"#), endpointQuery: [])
            == .request(path: "/items", items: [.query(name: "skip", value: "3"), .query(name: "limit", value: "100")]))
        #expect(Paging.next(after: skip, response: answer(#"{"id": 1}"#), endpointQuery: [])
            == .end("no next page: the last answer is not a list (next pages through a list answer)"))
    }

    /// PostgREST's other way: `Range: 0-2` asked, `Content-Range: 0-2/7` answered.
    @Test func aRangeHeaderMovesToTheNextAsManyItems() {
        let rows = #"[{"id": 1}, {"id": 2}, {"id": 3}]"#
        let ranged = Paging.Last(path: "/rest/v1/todos", items: [.header(name: "Range", value: "0-2"), .header(name: "Range-Unit", value: "items")],
                                 options: RequestOptions())
        #expect(Paging.next(after: ranged, response: answer(rows, headers: [HTTPHeader(name: "Content-Range", value: "0-2/7")]), endpointQuery: [])
            == .request(path: "/rest/v1/todos", items: [.header(name: "Range", value: "3-5"), .header(name: "Range-Unit", value: "items")]))
        let last = Paging.Last(path: "/t", items: [.header(name: "range", value: "items=6-8")], options: RequestOptions())
        #expect(Paging.next(after: last, response: answer(#"[{"id": 7}]"#, headers: [HTTPHeader(name: "Content-Range", value: "items 6-6/7")]), endpointQuery: [])
            == .end("no next page: items 6-6 reach the total, 7"))
        #expect(Paging.next(after: last, response: answer(rows, headers: [HTTPHeader(name: "Content-Range", value: "6-8/*")]), endpointQuery: [])
            == .request(path: "/t", items: [.header(name: "range", value: "items=9-11")]))
        #expect(Paging.next(after: last, response: answer(#"[{"id": 7}]"#, headers: [HTTPHeader(name: "Content-Range", value: "6-6/*")]), endpointQuery: [])
            == .end("no next page: items 6-8 had 1 of 3"))
        #expect(Paging.contentRangeTotal([HTTPHeader(name: "content-range", value: "*/120")]) == 120)
        #expect(Paging.contentRangeTotal([HTTPHeader(name: "Content-Range", value: "bytes 0-1/*")]) == nil)
    }

    @Test func aDeclaredOffsetCountsInItsOwnParameters() throws {
        let declared = try #require(try ProfileFile.parse("explorer-profile: 1\nname: x\nenvironments: {a: {base-url: \"http://127.0.0.1:1\"}}\n"
            + "pagination: {style: offset, offset-parameter: start, limit-parameter: count, total: .meta.total}\n", file: "x.yaml").profile.pagination)
        #expect(declared == .offset(parameter: "start", limit: "count", total: .known(".meta.total")))
        let first = Paging.Last(path: "/items", items: [.query(name: "count", value: "2")], options: RequestOptions())
        #expect(Paging.next(after: first, response: answer(#"{"data": [1, 2], "meta": {"total": 5}}"#), endpointQuery: [], declared: declared)
            == .request(path: "/items", items: [.query(name: "count", value: "2"), .query(name: "start", value: "2")]))
        let third = Paging.Last(path: "/items", items: [.query(name: "start", value: "4"), .query(name: "count", value: "2")], options: RequestOptions())
        #expect(Paging.next(after: third, response: answer(#"{"data": [5], "meta": {"total": 5}}"#), endpointQuery: [], declared: declared)
            == .end("no next page: offset 4 and 1 more reach the total, 5"))
        // A guessed `offset` is not the declared one.
        let other = Paging.Last(path: "/items", items: [.query(name: "offset", value: "9")], options: RequestOptions())
        #expect(Paging.next(after: other, response: answer(#"{"data": [1, 2], "meta": {"total": 5}}"#), endpointQuery: [], declared: declared)
            == .request(path: "/items", items: [.query(name: "offset", value: "9"), .query(name: "start", value: "2")]))
        #expect(Paging.next(after: first, response: answer(#"{"data": [1, 2]}"#), endpointQuery: ["page"], declared: declared)
            == .end("no next page by the profile's pagination: the catalog lists no start query for this endpoint (it takes page); give the next page's item yourself"))
    }
}
