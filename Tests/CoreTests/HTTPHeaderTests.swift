import Foundation
import Testing
@testable import Core

struct HTTPHeaderTests {
    @Test(arguments: [
        ("Content-Type", "content-type", true),
        ("content-type", "CONTENT-TYPE", true),
        ("X-Request-Id", "x-request-id", true),
        ("Content-Type", "Content-Typo", false),
        ("Content-Type", "Content-Type2", false),
        // '[' and '{', '@' and '`' differ only in bit 0x20 as letters' cases do, but are not letters.
        ("X[", "X{", false),
        ("X@", "X`", false),
    ])
    func namesCompareIgnoringASCIICaseOnly(name: String, other: String, same: Bool) {
        #expect(HTTPHeader(name: name, value: "").hasName(other) == same)
    }

    @Test func lookupsFindEitherCase() {
        let response = ReceivedResponse(status: 200, headers: [HTTPHeader(name: "content-TYPE", value: " Application/JSON ; charset=utf-8")])
        #expect(response.header("Content-Type") == " Application/JSON ; charset=utf-8")
        #expect(response.mediaType == "application/json")
        #expect(response.claimsJSON)
        var request = PreparedRequest(method: "GET", url: URL(string: "http://127.0.0.1/")!, headers: [HTTPHeader(name: "authorization", value: "x")])
        #expect(request.header("Authorization") == "x")
        request.setHeader("AUTHORIZATION", "y")
        #expect(request.headers == [HTTPHeader(name: "AUTHORIZATION", value: "y")])
    }
}
