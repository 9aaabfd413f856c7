@testable import Core
import Foundation
import Testing

/// RFC 6265's rules for which request gets which cookie.
@Suite struct CookieJarTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    func url(_ s: String) -> URL { URL(string: s)! }
    func set(_ jar: inout CookieJar, _ from: String, _ values: String...) {
        jar.store(values.map { HTTPHeader(name: "Set-Cookie", value: $0) }, from: url(from), now: now)
    }

    @Test func hostOnlyUnlessADomainIsGiven() {
        var jar = CookieJar()
        set(&jar, "https://api.example.com/login", "sid=1; Path=/", "wide=2; Domain=.example.com; Path=/")
        #expect(jar.header(for: url("https://api.example.com/x"), now: now) == "sid=1; wide=2")
        #expect(jar.header(for: url("https://cdn.example.com/x"), now: now) == "wide=2")
        #expect(jar.header(for: url("https://example.com/x"), now: now) == "wide=2")
        #expect(jar.header(for: url("https://evil-example.com/x"), now: now) == nil)
        #expect(jar.header(for: url("https://other.test/x"), now: now) == nil)
    }

    /// A cookie holding an escape code was kept and sent back in every
    /// Cookie header, which HTTP refuses: every request after it failed.
    /// `__Host-` and `__Secure-` cookies without what their names promise
    /// were kept and sent (RFC 6265bis 4.1.3; browsers and curl ignore them).
    @Test func prefixedCookiesKeepTheirPromiseOrAreIgnored() {
        var jar = CookieJar()
        set(&jar, "https://api.example.com/a/b", "__Host-ok=1; Secure; Path=/", "__Host-nosecure=1; Path=/", "__Host-path=1; Secure; Path=/a",
            "__Host-domain=1; Secure; Path=/; Domain=api.example.com", "__host-lower=1; Path=/", "__Secure-ok=1; Secure", "__Secure-no=1")
        #expect(jar.cookies.map(\.name) == ["__Host-ok", "__Secure-ok"])
    }

    /// A cookie for `Path=/x/` never went to `/x/` itself (`URL.path` drops
    /// the last slash); `/a/b/`'s default path is `/a/b`.
    @Test func aPathEndingInASlashMatchesItself() {
        var jar = CookieJar()
        set(&jar, "http://h.test/", "p=6; Path=/x/")
        set(&jar, "http://h.test/a/b/", "d=1")
        #expect(jar.header(for: url("http://h.test/x/"), now: now) == "p=6")
        #expect(jar.header(for: url("http://h.test/x"), now: now) == nil)
        #expect(jar.cookies.first { $0.name == "d" }?.path == "/a/b")
    }

    /// Another service on the host (`:8001`) setting or clearing a cookie of
    /// the same name replaced the backend's (`:8000`), whose next requests
    /// went without its session: each port keeps its own.
    @Test func anotherPortsCookieOfTheSameNameLeavesThisOnesAlone() {
        var jar = CookieJar()
        set(&jar, "http://127.0.0.1:8000/login", "sessionid=A; Path=/", "csrftoken=T; Path=/")
        set(&jar, "http://127.0.0.1:8001/login", "csrftoken=U; Path=/")
        set(&jar, "http://127.0.0.1:8001/logout", "sessionid=; Path=/; Max-Age=0")
        #expect(jar.header(for: url("http://127.0.0.1:8000/x"), now: now) == "sessionid=A; csrftoken=T")
        #expect(jar.header(for: url("http://127.0.0.1:8001/x"), now: now) == "csrftoken=U")
    }

    /// RFC 6265 §5.1.1's dates: `69` is 2069 (the cookie was dropped as
    /// expired), a zone is ignored (a `+0100` was applied), and a Max-Age
    /// past an Int is the longest life (it made a session cookie).
    @Test func cookieDatesAreReadAsRFC6265ReadsThem() {
        let date = { (text: String) in CookieJar.parseDate(text).map { Int($0.timeIntervalSince1970) } }
        #expect(date("Wed, 21 Oct 2015 07:28:00 GMT") == 1_445_412_480)
        #expect(date("Wed, 21 Oct 2015 07:28:00 +0100") == 1_445_412_480)
        #expect(date("Wednesday, 21-Oct-15 07:28:00 GMT") == 1_445_412_480)
        #expect(date("Wed Oct 21 07:28:00 2015") == 1_445_412_480)
        #expect(date("Wed, 21 Oct 69 07:28:00 GMT") == 3_149_566_080)
        #expect(date("Wed, 21 Oct 70 07:28:00 GMT") == 25_342_080)
        #expect(date("Wed, 31 Feb 2015 07:28:00 GMT") == nil)
        #expect(date("Wed, 21 Oct 2015 25:28:00 GMT") == nil)
        #expect(date("soon") == nil)
        var jar = CookieJar()
        set(&jar, "http://h.test/", "far=1; Max-Age=99999999999999999999", "gone=1; Max-Age=-99999999999999999999", "old=1; Expires=Wed, 21 Oct 69 07:28:00 GMT")
        #expect(jar.cookies.map(\.name) == ["far", "old"])
        #expect(jar.cookies.first?.expires != nil)
    }

    /// `capture csrf = cookie:csrftoken` took the first held: the one for
    /// `/admin`, or another port's, which then went to the backend.
    @Test func theCookieARequestWouldCarryIsTheOneNamed() {
        var jar = CookieJar()
        set(&jar, "http://127.0.0.1:8000/admin/x", "csrftoken=ADMIN; Path=/admin")
        set(&jar, "http://127.0.0.1:8000/", "csrftoken=ROOT; Path=/")
        set(&jar, "http://127.0.0.1:8001/", "other=1; Path=/")
        #expect(jar.cookie(named: "csrftoken", for: url("http://127.0.0.1:8000"), now: now)?.value == "ROOT")
        #expect(jar.cookie(named: "csrftoken", for: url("http://127.0.0.1:8000/admin/"), now: now)?.value == "ADMIN")
        #expect(jar.cookie(named: "other", for: url("http://127.0.0.1:8000"), now: now) == nil)
    }

    /// `Domain=127.0.0.1` is that address alone: listed as `*.127.0.0.1`, as if it had subdomains.
    @Test func anAddressGivenAsTheDomainIsThatHostAlone() {
        var jar = CookieJar()
        set(&jar, "http://127.0.0.1:8080/", "sid=1; Domain=127.0.0.1; Path=/")
        #expect(jar.cookies.first?.hostOnly == true)
        #expect(jar.header(for: url("http://127.0.0.1:8080/x"), now: now) == "sid=1")
    }

    @Test func aCookieWithAControlCharacterIsIgnored() {
        var jar = CookieJar()
        set(&jar, "http://127.0.0.1:8080/", "sid=v\u{1B}[31m; Path=/", "ok=1; Path=/", "tab=a\tb", "c1=x\u{85}y")
        #expect(jar.cookies.map(\.name) == ["ok", "tab"])
    }

    /// A 10,000-byte cookie was kept and sent with every request; browsers and curl drop one past 4096 bytes.
    @Test func aCookiePast4096BytesIsIgnored() {
        var jar = CookieJar()
        set(&jar, "http://127.0.0.1:8080/", "big=" + String(repeating: "x", count: 10_000), "edge=" + String(repeating: "y", count: 4092), "ok=1")
        #expect(jar.cookies.map(\.name) == ["edge", "ok"])
    }

    @Test func aDomainTheHostDoesNotMatchOrATopLevelDomainIsRefused() {
        var jar = CookieJar()
        set(&jar, "https://api.example.com/", "a=1; Domain=other.com", "b=2; Domain=com", "c=3; Domain=api.example.com")
        #expect(jar.cookies.map(\.name) == ["c"])
        set(&jar, "http://127.0.0.1:8080/", "d=4; Domain=0.0.1")
        #expect(!jar.cookies.contains { $0.name == "d" })
    }

    @Test func pathsMatchByPrefixAtASlash() {
        var jar = CookieJar()
        set(&jar, "https://h.test/api/auth/login", "def=1", "root=2; Path=/", "docs=3; Path=/docs")
        #expect(jar.cookies.first { $0.name == "def" }?.path == "/api/auth")
        #expect(jar.header(for: url("https://h.test/api/auth/me"), now: now) == "def=1; root=2")
        #expect(jar.header(for: url("https://h.test/api/authx"), now: now) == "root=2")
        #expect(jar.header(for: url("https://h.test/docs/a"), now: now) == "docs=3; root=2")
        #expect(jar.header(for: url("https://h.test/docsx"), now: now) == "root=2")
    }

    @Test func secureCookiesGoOnlyOverHTTPS() {
        var jar = CookieJar()
        set(&jar, "https://h.test/", "s=1; Secure; HttpOnly; Path=/")
        #expect(jar.header(for: url("http://h.test/"), now: now) == nil)
        #expect(jar.header(for: url("https://h.test/"), now: now) == "s=1")
        // Set over plain http (RFC 6265bis 5.6), it is not kept: not even for https.
        var plain = CookieJar()
        set(&plain, "http://h.test/", "s=2; Secure; Path=/", "t=3; Path=/")
        #expect(plain.cookies.map(\.name) == ["t"])
    }

    /// A local gateway's `sessionid=…; Secure` login was kept and never sent
    /// back over http: the loopback host is a secure context, as browsers and curl take it.
    @Test func secureCookiesGoToTheLoopbackHostOverHTTPToo() {
        for host in ["localhost:8000", "127.0.0.1:8000", "[::1]:8000", "app.localhost:8000"] {
            var jar = CookieJar()
            set(&jar, "http://\(host)/", "s=1; Secure; HttpOnly; Path=/")
            #expect(jar.header(for: url("http://\(host)/me"), now: now) == "s=1", "\(host)")
        }
        #expect(!CookieJar.isLoopback("127.0.0.1.evil.test") && !CookieJar.isLoopback("localhost.evil.test") && !CookieJar.isLoopback("127.a.b.c"))
    }

    @Test func expiryMaxAgeFirstAndDeletion() {
        var jar = CookieJar()
        set(&jar, "https://h.test/", "a=1; Path=/; Max-Age=60; Expires=Wed, 21 Oct 2015 07:28:00 GMT",
            "b=2; Path=/; Expires=Wed, 21 Oct 2015 07:28:00 GMT", "c=3; Path=/; Expires=Sat, 01 Jan 2050 00:00:00 GMT")
        #expect(jar.header(for: url("https://h.test/"), now: now) == "a=1; c=3")
        set(&jar, "https://h.test/", "c=; Path=/; Max-Age=0")
        #expect(jar.header(for: url("https://h.test/"), now: now) == "a=1")
        #expect(jar.header(for: url("https://h.test/"), now: now.addingTimeInterval(61)) == nil)
    }

    @Test func aLaterCookieReplacesTheSameNameDomainAndPath() {
        var jar = CookieJar()
        set(&jar, "https://h.test/", "a=1; Path=/", "a=2; Path=/", "a=3; Path=/x")
        #expect(jar.header(for: url("https://h.test/x/y"), now: now) == "a=3; a=2")
        #expect(jar.cookies.count == 2)
    }

    @Test func malformedCookiesAreIgnored() {
        var jar = CookieJar()
        set(&jar, "https://h.test/", "novalue", "=x", "; Path=/", "ok=1")
        #expect(jar.cookies.map(\.name) == ["ok"])
    }
}

extension CookieJarTests {
    /// Stricter than RFC 6265 on purpose: one host's other port is another service.
    @Test func aCookieGoesBackOnlyToThePortThatSetIt() {
        var jar = CookieJar()
        set(&jar, "http://127.0.0.1:8000/", "sid=1; Path=/")
        #expect(jar.header(for: url("http://127.0.0.1:8000/x"), now: now) == "sid=1")
        #expect(jar.header(for: url("http://127.0.0.1:9000/x"), now: now) == nil)
        set(&jar, "https://api.example.com/", "t=2; Path=/")
        #expect(jar.header(for: url("https://api.example.com:443/"), now: now) == "t=2")
    }
}
