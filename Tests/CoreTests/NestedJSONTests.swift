import Core
import Foundation
import Testing

/// HTTPie's nested JSON fields. Each expected body is what `http --offline`
/// (HTTPie 3.2.4) sends for the same items.
@Suite struct NestedJSONTests {
    func body(_ items: String...) throws -> String {
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!)
        let request = try builder.build(method: "POST", path: "/", items: try items.map { try RequestItem.parse($0) })
        return String(decoding: request.body ?? [], as: UTF8.self)
    }

    @Test func bracketsBuildObjectsAndArrays() throws {
        #expect(try body("user[name]=alice", "user[roles][]=admin", "user[roles][]=dev")
            == #"{"user":{"name":"alice","roles":["admin","dev"]}}"#)
        #expect(try body("items[0][id]:=1", "items[0][tags][]=x", "items[2]=z")
            == #"{"items":[{"id":1,"tags":["x"]},null,"z"]}"#)
    }

    @Test func aKeyStartingWithABracketMakesATopLevelArray() throws {
        #expect(try body("[]:=1", "[]=x", "[3][a]=b") == #"[1,"x",null,{"a":"b"}]"#)
    }

    /// A path into a value given whole with := builds on it (it was refused
    /// with "'a' is an array, so [] cannot append to it"); a path that starts
    /// with [ must be an array's ([x]=1 made {"x": "1"}; HTTPie refuses it).
    @Test func aPathBuildsOnAValueGivenWhole() throws {
        #expect(try body("a:=[1]", "a[]=2") == #"{"a":[1,"2"]}"#)
        #expect(try body("a:=[1]", "a[3]=2") == #"{"a":[1,null,null,"2"]}"#)
        #expect(try body(#"a:={"x":1}"#, "a[y]=2", "a[x]=3") == #"{"a":{"x":"3","y":"2"}}"#)
        #expect(throws: RequestBuilder.BuildError.self) { try body("a:=1", "a[]=2") }
        #expect(throws: (any Error).self) { try body("[x]=1") }
    }

    /// Before, two items with one name made an object with the key twice.
    @Test func aLaterItemReplacesAnEarlierOne() throws {
        #expect(try body("a=1", "a=2", "b[c]=3", "b[c]=4") == #"{"a":"2","b":{"c":"4"}}"#)
    }

    @Test func backslashesMakeBracketsAndNumbersLiteral() throws {
        #expect(try body(#"foo\[x\]=1"#, #"x[\1]=a"#, #"a\b=c"#, #"p=a\b"#) == #"{"foo[x]":"1","x":{"1":"a"},"a\\b":"c","p":"a\\b"}"#)
    }

    @Test func aTypeConflictIsOneLineNamingBothPlaces() {
        do {
            _ = try body("a[b]=1", "a[]=2")
            Issue.record("built")
        } catch {
            #expect("\(error)" == "'a[]': 'a' is an object, so [] cannot append to it")
        }
        #expect(throws: RequestBuilder.BuildError.self) { try body("a=1", "a[b]=2") }
        #expect(throws: RequestBuilder.BuildError.self) { try body("a=1", "[]=2") }
    }

    @Test func badPathsArePointedAtInTheParser() {
        for (item, offset) in [("a]=1", 1), ("a[b]c=1", 4), ("a[-1]=1", 2), ("a[b=1", 3), ("a[[b]]=1", 2)] {
            do {
                _ = try RequestItem.parse(item)
                Issue.record("parsed \(item)")
            } catch {
                #expect(error.offset == offset, "\(item): \(error.reason)")
            }
        }
    }

    @Test func formAndMultipartNamesStayFlat() throws {
        let builder = RequestBuilder(baseURL: URL(string: "http://127.0.0.1:9")!, readFile: { _ in [1] }, boundary: { "B" })
        let request = try builder.build(method: "POST", path: "/", items: [.stringField(name: "meta[a]", value: "x"), .file(name: "f", path: "p.png", contentType: nil)])
        #expect(String(decoding: request.body ?? [], as: UTF8.self).contains(#"name="meta[a]""#))
    }
}

/// Paths that asked for more than a body can hold: 2,500 `[b]` overflowed
/// the stack (SIGSEGV, the REPL's session lost), `a[99999999999]` asked for
/// 800 GB of nulls (an abort). Each is refused, with its place, before anything is built.
@Suite struct NestedJSONLimitTests {
    @Test func aPathDeeperThanJSONMayNestIsRefused() throws {
        let deepest = "a" + String(repeating: "[b]", count: NestedJSON.maximumDepth - 1)
        #expect(try NestedJSON.parse(deepest).count == NestedJSON.maximumDepth)
        let deeper = "a" + String(repeating: "[b]", count: 2_500)
        do {
            _ = try NestedJSON.parse(deeper)
            Issue.record("parsed")
        } catch {
            #expect(error.offset == 1 + 3 * (NestedJSON.maximumDepth - 1))
            #expect(error.reason == "'\(deeper.prefix(60))…' nests deeper than 512 levels, the most a JSON body may")
        }
        let appends = "a" + String(repeating: "[]", count: 3_000) + "=1"
        #expect(throws: RequestItem.ParseError.self) { try RequestItem.parse(appends) }
    }

    @Test func anIndexPastTheLimitIsRefusedAndOneOfManyDigitsIsAnIndex() throws {
        #expect(try NestedJSON.parse("a[10000]") == [.key("a"), .index(10_000)])
        do {
            _ = try NestedJSON.parse("a[99999999999]")
            Issue.record("parsed")
        } catch {
            #expect(error.offset == 2 && error.reason == "index [99999999999] in 'a[99999999999]' is past 10000, the most explorer fills with null up to")
        }
        // Too many digits for an Int was a key ({"a": {"9999…": "1"}}); HTTPie reads an index.
        #expect(throws: NestedJSON.SyntaxError.self) { try NestedJSON.parse("a[999999999999999999999999]") }
        #expect(try NestedJSON.parse(#"a[\999999999999999999999999]"#) == [.key("a"), .key("999999999999999999999999")], "escaped, a key")
        do {
            _ = try RequestItem.parse("a[300000000]=1")
            Issue.record("parsed")
        } catch {
            #expect(error.offset == 2)
        }
    }
}
