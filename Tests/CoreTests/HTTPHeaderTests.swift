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

    /// The charset a Content-Type names, read over bytes, is what splitting
    /// it into Strings at `;` and `=` gives: a parameter named `charset` in
    /// any case, its value without blanks or quotes at its ends.
    @Test(arguments: [
        ("application/json", nil), ("application/json; charset=utf-8", "utf-8"), ("text/plain;charset=ISO-8859-1", "ISO-8859-1"),
        ("text/plain ; CharSet = \"latin1\" ", "latin1"), ("text/plain; format=flowed; charset=koi8-r", "koi8-r"),
        ("text/plain; charset=", nil), ("text/plain; =utf-8", nil), ("text/plain; charset=\"\"", ""), ("text/plain; charset= ", ""),
        ("text/plain; charsetx=a; charset=b", "b"), ("text/plain; x=charset; charset=c=d", "c=d"), ("charset=utf-8", nil),
        ("text/plain;;charset=utf-16", "utf-16"), ("text/plain; charset=a; charset=b", "a"), ("text/plain; chars\u{e9}t=a", nil),
        ("text/plain; CHARSET\t=\tutf-8", "utf-8"), ("text/plain; charset", nil),
    ] as [(String, String?)])
    func theCharsetIsReadAsSplittingWouldReadIt(type: String, charset: String?) {
        #expect(ReceivedResponse(status: 200, headers: [HTTPHeader(name: "Content-Type", value: type)]).charset == charset)
    }

    /// Which Content-Types say a body is bytes whatever they hold.
    @Test(arguments: [
        ("application/octet-stream", true), ("Application/PDF; x=1", true), ("application/zip", true), ("application/gzip", true),
        ("image/png", true), (" IMAGE/JPEG ", true), ("audio/mpeg", true), ("video/mp4", true), ("font/woff2", true),
        ("image/svg+xml", false), ("image", false), ("images/png", false), ("imag/png", false), ("fonts/x", false),
        ("application/json", false), ("text/plain", false), ("application/zip+json", false), ("", false),
    ])
    func binaryTypesAreKnownByTheirName(type: String, binary: Bool) {
        #expect(ReceivedResponse(status: 200, headers: [HTTPHeader(name: "Content-Type", value: type)]).claimsBinary == binary)
    }
}
