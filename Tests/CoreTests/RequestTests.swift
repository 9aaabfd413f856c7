import Foundation
import Testing
@testable import Core

@Suite struct RequestItemTests {
    @Test(arguments: [
        ("title=Fix bike", RequestItem.stringField(name: "title", value: "Fix bike")),
        ("price:=25", .jsonField(name: "price", value: .number("25"))),
        ("tags:=[\"a\",1]", .jsonField(name: "tags", value: .array([.string("a"), .number("1")]))),
        ("Accept:text/plain", .header(name: "Accept", value: "text/plain")),
        ("User-Agent:", .header(name: "User-Agent", value: "")),
        ("X-Empty;", .emptyHeader(name: "X-Empty")),
        ("page==2", .query(name: "page", value: "2")),
        ("image@photo.png", .file(name: "image", path: "photo.png", contentType: nil)),
        ("image@photo.bin;type=image/png", .file(name: "image", path: "photo.bin", contentType: "image/png")),
        ("bio=@bio.txt", .stringFieldFromFile(name: "bio", path: "bio.txt")),
        ("meta:=@meta.json", .jsonFieldFromFile(name: "meta", path: "meta.json")),
        ("@body.json", .file(name: "", path: "body.json", contentType: nil)),
    ])
    func parsesEachSeparator(text: String, expected: RequestItem) throws {
        #expect(try RequestItem.parse(text) == expected)
    }

    @Test func firstSeparatorWinsThenLongest() throws {
        // HTTPie: the separator that starts first wins.
        #expect(try RequestItem.parse("a:b=c") == .header(name: "a", value: "b=c"))
        #expect(try RequestItem.parse("a=b:c") == .stringField(name: "a", value: "b:c"))
        #expect(try RequestItem.parse("url==http://x/?a=b") == .query(name: "url", value: "http://x/?a=b"))
        #expect(try RequestItem.parse("n:=1") == .jsonField(name: "n", value: .number("1")))
    }

    @Test func backslashEscapesASeparator() throws {
        #expect(try RequestItem.parse(#"a\=b=c"#) == .stringField(name: "a=b", value: "c"))
        #expect(try RequestItem.parse(#"a\:b=c"#) == .stringField(name: "a:b", value: "c"))
        #expect(try RequestItem.parse(#"X-Note:a\:b"#) == .header(name: "X-Note", value: "a:b"))
    }

    @Test func aBackslashTakesTheCharacterAfterIt() throws {
        // HTTPie reads `\\` as one pair, so the `=` after it separates: the
        // key is `x\\` here and one backslash once the nested-JSON path reads it.
        #expect(try RequestItem.parse(#"x\\=1"#) == .stringField(name: #"x\\"#, value: "1"))
        #expect(try RequestItem.parse(#"x\\:=1"#) == .jsonField(name: #"x\\"#, value: .number("1")))
        #expect(try RequestItem.parse(#"a\\\=b=1"#) == .stringField(name: #"a\\=b"#, value: "1"))
        #expect(try RequestItem.parse(#"x\y=1"#) == .stringField(name: #"x\y"#, value: "1"))
    }

    @Test func invalidJSONSaysWhere() {
        do {
            _ = try RequestItem.parse("price:=2x")
            Issue.record("parsed")
        } catch {
            #expect(error.offset == 8)
            #expect(error.reason.contains("invalid JSON after ':='"))
            #expect(error.reason.contains("character 2"))
        }
    }

    @Test func rejectsNonItems() {
        #expect(throws: RequestItem.ParseError.self) { try RequestItem.parse("justaword") }
        #expect(throws: RequestItem.ParseError.self) { try RequestItem.parse("=value") }
        #expect(throws: RequestItem.ParseError.self) { try RequestItem.parse("file@") }
    }
}

@Suite struct RequestBuilderTests {
    let files: [String: [UInt8]] = ["photo.png": [0x89, 0x50, 0x4E, 0x47], "meta.json": Array(#"{"k":[1]}"#.utf8), "bio.txt": Array("hi\n".utf8),
                                    "a\nContent-Type: evil\r\n\r\nb.txt": Array("z".utf8), "bom.json": [0xEF, 0xBB, 0xBF] + Array("[1, 2]\r\n".utf8)]

    var builder: RequestBuilder {
        let files = self.files
        return RequestBuilder(baseURL: URL(string: "http://127.0.0.1:8080")!,
                              readFile: { path in
                                  guard let data = files[path] else { throw RequestBuilder.BuildError("cannot read file '\(path)'") }
                                  return data
                              },
                              boundary: { "BOUNDARY" })
    }

    @Test func fieldsMakeAJSONBody() throws {
        let request = try builder.build(method: "post", path: "/api/tasks", items: [
            .stringField(name: "title", value: "Fix"), .jsonField(name: "price", value: .number("25")),
            .jsonFieldFromFile(name: "meta", path: "meta.json"),
        ])
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "http://127.0.0.1:8080/api/tasks")
        #expect(String(decoding: request.body ?? [], as: UTF8.self) == #"{"title":"Fix","price":25,"meta":{"k":[1]}}"#)
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Accept") == "application/json, */*;q=0.5")
    }

    /// A header typed twice goes twice, as HTTPie sends it; one typed once
    /// replaces the default of its name.
    @Test func aHeaderTypedTwiceGoesTwice() throws {
        let request = try builder.build(method: "GET", path: "/x", items: [
            .header(name: "X-Many", value: "1"), .header(name: "accept", value: "text/plain"), .header(name: "X-Many", value: "2"),
        ])
        #expect(request.headers.filter { $0.hasName("X-Many") }.map(\.value) == ["1", "2"])
        #expect(request.headers.filter { $0.hasName("Accept") }.map(\.value) == ["text/plain"])
    }

    @Test func queryValuesArePercentEncoded() throws {
        let request = try builder.build(method: "GET", path: "/api/tasks?page=1", items: [
            .query(name: "keyword", value: "a b+c&d=é"), .query(name: "city", value: "London"),
        ])
        #expect(request.target == "/api/tasks?page=1&keyword=a%20b%2Bc%26d%3D%C3%A9&city=London")
        #expect(request.body == nil)
        #expect(request.header("Accept") == "*/*")
    }

    /// What goes on the request line and in Host, as curl writes them: an
    /// empty query kept (`/p?`), a leading `//` a path and not a host (it
    /// went to `/x` of the base URL), no port in Host when it is the scheme's own.
    @Test func theTargetAndHostAreWhatWasTyped() throws {
        #expect(try builder.build(method: "GET", path: "/p?", items: []).target == "/p?")
        #expect(try builder.build(method: "GET", path: "/s?#", items: []).target == "/s?")
        let double = try builder.build(method: "GET", path: "//double/x?y=1", items: [])
        #expect(double.target == "//double/x?y=1" && double.url.host == builder.baseURL.host)
        #expect(try builder.build(method: "GET", path: "/p", items: []).target == "/p")
        for (url, host) in [("http://h:80/x", "h"), ("https://h:443/x", "h"), ("http://h:8080/x", "h:8080"), ("https://h:80/x", "h:80"),
                            ("http://h/x", "h"), ("HTTP://H:80/x", "H"), ("http://[::1]:8080/x", "[::1]:8080"), ("http://[::1]/x", "[::1]")] {
            #expect(PreparedRequest(method: "GET", url: URL(string: url)!).hostHeader == host, "\(url)")
        }
        // The target read from the URL is what its components say.
        for url in ["http://h", "http://h/", "http://h?", "http://h/p?", "http://h/a%20b/%C3%A9?q=50%25&r=a+b#f", "http://h//x//y?z",
                    "http://u:p@h:81/x;y=1?a=1&a=2", "http://[::1]:8080/x?", "https://h/%7Bid%7D?#"] {
            let components = URLComponents(string: url)!
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            #expect(PreparedRequest(method: "GET", url: URL(string: url)!).target == path + (components.percentEncodedQuery.map { "?" + $0 } ?? ""), "\(url)")
        }
    }

    /// Credentials in a URL, typed or in the base URL, go as basic auth, as
    /// curl and HTTPie send them, and the URL goes without them; a typed
    /// Authorization wins, and `Authorization:` alone sends none. They were
    /// dropped without a word (found by a helper).
    @Test func credentialsInTheURLAreSentAsBasicAuth() throws {
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:8080")!)
        let typed = try builder.build(method: "GET", path: "http://u:p%40ss@h.example/basic-auth", items: [])
        #expect(typed.header("Authorization") == "Basic " + Data("u:p@ss".utf8).base64EncodedString())
        #expect(typed.url.absoluteString == "http://h.example/basic-auth")
        let mine = try builder.build(method: "GET", path: "http://u:p@h.example/x", items: [.header(name: "Authorization", value: "Bearer t")])
        #expect(mine.header("Authorization") == "Bearer t" && mine.headers.filter { $0.hasName("Authorization") }.count == 1)
        #expect(try builder.build(method: "GET", path: "http://u:p@h.example/x", items: [.header(name: "Authorization", value: "")]).header("Authorization") == nil)
        let based = RequestBuilder(baseURL: URL(string: "https://me@api.example.com/v1")!)
        let request = try based.build(method: "GET", path: "/tasks", items: [])
        #expect(request.header("Authorization") == "Basic " + Data("me:".utf8).base64EncodedString())
        #expect(request.url.absoluteString == "https://api.example.com/v1/tasks")
    }

    /// `/a/./b/../c` went out as typed, where curl, HTTPie and xh send
    /// `/a/c` (RFC 3986 5.2.4); `../admin` under a base path leaves it, as
    /// theirs does for the URL the two make.
    @Test(arguments: [
        ("/a/./b/../c", "https://api.example.com/v1/a/c"), ("../admin", "https://api.example.com/admin"),
        ("/a/..", "https://api.example.com/v1/"), ("/x/../../../y?q=1", "https://api.example.com/y?q=1"),
        ("https://h.example/a/b/../c/.", "https://h.example/a/c/"), ("/a..b/.c/x.", "https://api.example.com/v1/a..b/.c/x."),
    ])
    func dotSegmentsAreRemovedAsCurlRemovesThem(typed: String, sent: String) throws {
        let builder = RequestBuilder(baseURL: URL(string: "https://api.example.com/v1")!)
        #expect(try builder.build(method: "GET", path: typed, items: []).url.absoluteString == sent)
    }

    /// A stray `%` made every escape be encoded again: `q=50%25` went as
    /// `50%2525`, another value; curl keeps the escapes and encodes the stray one.
    @Test(arguments: [
        ("/p?q=50%25&t=100%", "http://h.example/p?q=50%25&t=100%25"), ("/p%zz/%41?x=1", "http://h.example/p%25zz/%41?x=1"),
        ("http://h.example/a%2Fb?c=%", "http://h.example/a%2Fb?c=%25"),
    ])
    func aStrayPercentLeavesTheEscapesAsTheyAre(typed: String, sent: String) throws {
        let builder = RequestBuilder(baseURL: URL(string: "http://h.example")!)
        #expect(try builder.build(method: "GET", path: typed, items: []).url.absoluteString == sent)
    }

    /// `X:  lead  ` went with its spaces (`X:   lead  `); HTTPie strips them, and they are no part of a value.
    @Test func aHeaderValuesSurroundingSpacesAreNotSent() throws {
        let builder = RequestBuilder(baseURL: URL(string: "http://h.example")!)
        let request = try builder.build(method: "GET", path: "/x", items: [.header(name: "X", value: "  lead \t"), .header(name: "Accept", value: "  ")])
        #expect(request.header("X") == "lead" && request.header("Accept") == nil)
    }

    @Test func joinsOntoABasePathAndAcceptsFullURLs() throws {
        let prefixed = RequestBuilder(baseURL: URL(string: "https://api.example.com/v1/")!)
        #expect(try prefixed.url(for: "/api/tasks").absoluteString == "https://api.example.com/v1/api/tasks")
        #expect(try prefixed.url(for: "api/tasks").absoluteString == "https://api.example.com/v1/api/tasks")
        #expect(try prefixed.url(for: "http://127.0.0.1:9/x").absoluteString == "http://127.0.0.1:9/x")
        #expect(try prefixed.url(for: "/a path/é").absoluteString == "https://api.example.com/v1/a%20path/%C3%A9")
        // A `%XX` typed beside a character that needs encoding goes as typed, as HTTPie sends it (it went as `%257B`).
        #expect(try prefixed.url(for: "/é%7Bx%7D?q=50%25").absoluteString == "https://api.example.com/v1/%C3%A9%7Bx%7D?q=50%25")
        // A path parameter's `;` stays itself beside a `%XX` (it went as `%3B`).
        #expect(try prefixed.url(for: "/t;jsessionid=A%2FB/é").absoluteString == "https://api.example.com/v1/t;jsessionid=A%2FB/%C3%A9")
        #expect(try prefixed.url(for: "https://h.example/é%20x").absoluteString == "https://h.example/%C3%A9%20x")
        #expect(try prefixed.url(for: "/50%").absoluteString == "https://api.example.com/v1/50%25")
    }

    /// A plain path is joined to the base as text: the URL is the one URL
    /// components make, for every base (path, trailing slashes, userinfo,
    /// port, query, IPv6) and path (relative, `//`, every `pchar`).
    @Test func aPlainPathJoinedAsTextIsTheURLComponentsMake() throws {
        let bases = ["http://127.0.0.1:8080", "https://api.example.com/v1/", "https://api.example.com/v1//", "http://me:pw@h.example:81/a/b",
                     "https://h.example/base?x=1#frag", "http://[::1]:8080/", "http://h.example", "http://h.example/%7Euser/"]
        let paths = ["/api/tasks/1", "api/tasks", "/", "", "//x/y", "/a;b=c,d/e:f@g!$&'()*+~._-", "/x/", "/A-Z/0-9"]
        for base in bases {
            let builder = RequestBuilder(baseURL: URL(string: base)!)
            for path in paths {
                #expect(RequestBuilder.isPlainPath(path) == !path.hasPrefix("//"), "\(path)")
                #expect(try builder.url(for: path) == builder.urlFromComponents(for: path), "\(base) + \(path)")
            }
        }
        var moved = RequestBuilder(baseURL: URL(string: "http://a.example/v1")!)
        moved.baseURL = URL(string: "http://b.example/v2/")!
        #expect(try moved.url(for: "/x").absoluteString == "http://b.example/v2/x")
        for typed in ["/a b", "/é", "/50%", "/x?y=1", "/x#y", "/x\"y", "/{id}", "/a|b", "http://h.example:9/x", "https://h.example"] { #expect(!RequestBuilder.isPlainPath(typed), "\(typed)") }
    }

    @Test func headersCanBeSetRemovedOrEmpty() throws {
        let request = try builder.build(method: "GET", path: "/", items: [
            .header(name: "User-Agent", value: ""), .emptyHeader(name: "X-Empty"), .header(name: "accept", value: "text/plain"),
        ])
        #expect(request.header("User-Agent") == nil)
        #expect(request.header("X-Empty") == "")
        #expect(request.header("Accept") == "text/plain")
        #expect(request.headers.filter { $0.name.lowercased() == "accept" }.count == 1)
    }

    /// `--multipart` (HTTPie's) makes fields alone multipart form data; a JSON field cannot go there.
    @Test func multipartMakesFieldsAloneMultipart() throws {
        let request = try builder.build(method: "POST", path: "/x", items: [.stringField(name: "a", value: "1"), .stringField(name: "b", value: "x y")],
                                        multipart: true)
        #expect(request.header("Content-Type") == "multipart/form-data; boundary=BOUNDARY")
        #expect(request.body == Array(("--BOUNDARY\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n"
                                       + "--BOUNDARY\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\nx y\r\n--BOUNDARY--\r\n").utf8))
        #expect(throws: RequestBuilder.BuildError("'n:=…' is a raw JSON field, but multipart form data (a file upload, --multipart) carries only text fields (use n=…)")) {
            try builder.build(method: "POST", path: "/x", items: [.jsonField(name: "n", value: .int(1))], multipart: true)
        }
        // Nothing to send: no body at all, as HTTPie sends none.
        #expect(try builder.build(method: "POST", path: "/x", items: [], multipart: true).body == nil)
    }

    @Test func aFileMakesMultipart() throws {
        let request = try builder.build(method: "POST", path: "/api/upload/image", items: [
            .stringField(name: "caption", value: "cat"), .file(name: "image", path: "photo.png", contentType: nil),
        ])
        #expect(request.header("Content-Type") == "multipart/form-data; boundary=BOUNDARY")
        let body = request.body ?? []
        let expected: [UInt8] = Array("--BOUNDARY\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\ncat\r\n".utf8)
            + Array("--BOUNDARY\r\nContent-Disposition: form-data; name=\"image\"; filename=\"photo.png\"\r\nContent-Type: image/png\r\n\r\n".utf8)
            + [0x89, 0x50, 0x4E, 0x47] + Array("\r\n--BOUNDARY--\r\n".utf8)
        #expect(body == expected)
        // The parts keep the order typed, as HTTPie's do (fields came first whatever the order).
        let fileFirst = try builder.build(method: "POST", path: "/api/upload/image", items: [
            .file(name: "image", path: "photo.png", contentType: nil), .stringField(name: "caption", value: "cat"),
            .header(name: "X-A", value: "1"), .stringField(name: "alt", value: "a cat"),
        ])
        let names = String(decoding: fileFirst.body ?? [], as: UTF8.self).split(separator: "\r\n").filter { $0.hasPrefix("Content-Disposition") }
        #expect(names.map { $0.split(separator: "name=\"")[1].prefix { $0 != "\"" } } == ["image", "caption", "alt"])
    }

    /// A file named with line breaks wrote headers of its own into its part; a JSON file that starts with a
    /// byte-order mark (a Windows editor's) was "not valid JSON"; a pipe (`@<(cmd)`) could not be read.
    @Test func oddFilesGoAsTheyAre() throws {
        let named = try builder.build(method: "POST", path: "/x", items: [.file(name: "doc", path: "a\nContent-Type: evil\r\n\r\nb.txt", contentType: nil)])
        let body = String(decoding: named.body ?? [], as: UTF8.self)
        #expect(body.contains(#"filename="a%0AContent-Type: evil%0D%0A%0D%0Ab.txt""#), "\(body)")
        #expect(body.components(separatedBy: "\r\n").filter { $0.hasPrefix("Content-Type:") } == ["Content-Type: text/plain"])
        let json = try builder.build(method: "POST", path: "/x", items: [.jsonFieldFromFile(name: "items", path: "bom.json")])
        #expect(json.body == Array(#"{"items":[1,2]}"#.utf8))
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(#"{"a":1}"#.utf8))
        try pipe.fileHandleForWriting.close()
        #expect(try RequestBuilder.readFileFromDisk("/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)") == Array(#"{"a":1}"#.utf8))
    }

    /// A multipart Content-Type typed on the line (curl commands pasted from Postman carry one) went as typed:
    /// without a boundary the server found no parts; with one, the body used another. An empty `;type=` sent
    /// an empty part type.
    @Test func aTypedMultipartTypeCarriesTheBodysBoundary() throws {
        let file = RequestItem.file(name: "image", path: "photo.png", contentType: nil)
        let bare = try builder.build(method: "POST", path: "/x", items: [.header(name: "Content-Type", value: "multipart/form-data"), file])
        #expect(bare.header("Content-Type") == "multipart/form-data; boundary=BOUNDARY")
        #expect(bare.headers.filter { $0.hasName("Content-Type") }.count == 1)
        let given = try builder.build(method: "POST", path: "/x", items: [.header(name: "Content-Type", value: #"multipart/form-data; boundary="XYZ""#), file])
        #expect(given.header("Content-Type") == #"multipart/form-data; boundary="XYZ""#)
        #expect(String(decoding: given.body ?? [], as: UTF8.self).hasPrefix("--XYZ\r\nContent-Disposition: form-data; name=\"image\""))
        #expect(String(decoding: given.body ?? [], as: UTF8.self).hasSuffix("\r\n--XYZ--\r\n"))
        let mixed = try builder.build(method: "POST", path: "/x", items: [.header(name: "Content-Type", value: "multipart/mixed;"), file])
        #expect(mixed.header("Content-Type") == "multipart/mixed; boundary=BOUNDARY")
        let emptyType = try builder.build(method: "POST", path: "/x", items: [.file(name: "image", path: "photo.png", contentType: "")])
        #expect(String(decoding: emptyType.body ?? [], as: UTF8.self).contains("Content-Type: image/png\r\n"))
    }

    /// Issue 11 #12: `@file` as the whole body sent no Content-Type, and `;type=` was ignored.
    @Test func aFileAsTheWholeBodyIsTypedByItsExtensionOrTypeGiven() throws {
        func sent(_ item: String) throws -> PreparedRequest {
            try builder.build(method: "POST", path: "/", items: [try RequestItem.parse(item)])
        }
        let json = try sent("@meta.json")
        #expect(json.header("Content-Type") == "application/json")
        #expect(json.header("Accept") == "application/json, */*;q=0.5")
        #expect(json.body == files["meta.json"])
        #expect(try sent("@photo.png").header("Content-Type") == "image/png")
        #expect(try sent("@bio.txt;type=text/markdown").header("Content-Type") == "text/markdown")
        #expect(try sent("@bio.txt").header("Accept") == "*/*")
        let chosen = try builder.build(method: "POST", path: "/", items: [.file(name: "", path: "meta.json", contentType: nil),
                                                                          .header(name: "Content-Type", value: "application/vnd.api+json")])
        #expect(chosen.headers.filter { $0.hasName("Content-Type") }.map(\.value) == ["application/vnd.api+json"], "a typed header wins")
    }

    @Test func aHeaderFromAFileMayNotSmuggleALine() {
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:8080")!, readFile: { _ in Array("v\r\nX-Other: 1\n".utf8) })
        #expect(throws: RequestBuilder.BuildError.self) { try builder.build(method: "GET", path: "/", items: [.headerFromFile(name: "X", path: "f")]) }
    }

    /// `--json` with no data says JSON all the same, as HTTPie and xh do (`Accept: */*` and no type went out).
    @Test func jsonWithNoDataStillSaysJSON() throws {
        let bare = try builder.build(method: "POST", path: "/", items: [], json: true)
        #expect(bare.header("Accept") == "application/json, */*;q=0.5" && bare.header("Content-Type") == "application/json" && bare.body == nil)
        let plain = try builder.build(method: "POST", path: "/", items: [])
        #expect(plain.header("Accept") == "*/*" && plain.header("Content-Type") == nil, "without --json, as xh")
        let once = try builder.build(method: "POST", path: "/", items: [.stringField(name: "a", value: "1")], json: true)
        #expect(once.headers.filter { $0.hasName("Content-Type") }.count == 1)
    }

    @Test func rawJSONCannotGoIntoMultipart() {
        #expect(throws: RequestBuilder.BuildError.self) {
            try builder.build(method: "POST", path: "/", items: [.jsonField(name: "n", value: .number("1")), .file(name: "f", path: "photo.png", contentType: nil)])
        }
    }

    @Test func missingFileIsOneLine() {
        do {
            _ = try builder.build(method: "POST", path: "/", items: [.file(name: "f", path: "nope.png", contentType: nil)])
            Issue.record("built")
        } catch {
            #expect(error.message == "cannot read file 'nope.png'")
        }
    }

    @Test func aFileThatCannotBeReadSaysWhy() {
        let missing = "/nonexistent-\(UUID().uuidString)/a.json"
        #expect(throws: RequestBuilder.BuildError("cannot read file '\(missing)': no such file")) { try RequestBuilder.readFileFromDisk(missing) }
        #expect(throws: RequestBuilder.BuildError("cannot read file '/tmp': it is a folder")) { try RequestBuilder.readFileFromDisk("/tmp") }
        let relative = "nope-\(UUID().uuidString).png"
        #expect(throws: RequestBuilder.BuildError("cannot read file '\(relative)': no such file in \(FileManager.default.currentDirectoryPath)")) {
            try RequestBuilder.readFileFromDisk(relative)
        }
    }
}

/// A response's JSON is parsed once and kept; a changed body is parsed anew.
@Suite struct ReceivedResponseJSONTests {
    @Test func aChangedBodyIsParsedAgain() {
        var response = ReceivedResponse(status: 200, body: Array(#"{"a":1}"#.utf8))
        #expect(response.json?["a"]?.intValue == 1)
        let copy = response
        response.body = Array("[2]".utf8)
        #expect(response.json == .array([.int(2)]))
        #expect(copy.json?["a"]?.intValue == 1, "a copy keeps its own body's JSON")
        response.body = Array("not json".utf8)
        #expect(response.json == nil)
        #expect(response == ReceivedResponse(status: 200, body: Array("not json".utf8)), "the kept parse is not part of equality")
    }
}
