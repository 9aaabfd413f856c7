import Foundation

/// One stored cookie (RFC 6265 §5.3).
public struct Cookie: Sendable, Equatable {
    public var name: String
    public var value: String
    /// Lower-cased, without a leading dot.
    public var domain: String
    /// Sent only to `domain` itself, not its subdomains (no Domain attribute was given).
    public var hostOnly: Bool
    public var path: String
    public var secure: Bool
    public var httpOnly: Bool
    /// Nil for a session cookie: it lives as long as the jar.
    public var expires: Date?
    public var created: Date
    /// The port of the answer that set it: sent back only to that port.
    public var port: Int

    /// A `Cookie` header's name-value pairs (`a=1; b=2`), as written.
    public static func pairs(inHeader value: String) -> [(name: String, value: String)] {
        value.split(separator: ";").compactMap { pair in
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            return (pair[..<equals].trimmingBlanks(), String(pair[pair.index(after: equals)...]))
        }
    }

    /// The name and value a `Set-Cookie` header sets, before its attributes.
    public static func pair(setBy value: String) -> (name: String, value: String)? {
        let pair = value.prefix { $0 != ";" }
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        return (pair[..<equals].trimmingBlanks(), pair[pair.index(after: equals)...].trimmingBlanks())
    }
}

/// The session's cookies, kept in memory only, with RFC 6265's rules for
/// which requests get which cookie: the domain (exactly, or a subdomain when
/// the server named a Domain), the path prefix, `Secure` only over https,
/// and expiry (`Max-Age` before `Expires`; zero or less deletes).
///
/// One rule is stricter than RFC 6265, which ignores ports: a cookie goes
/// back only to the port that set it. Developers point this tool at several
/// services on one host (`127.0.0.1:8000`, `:9000`), and a session cookie of
/// one is a credential the others must not get.
///
/// No public-suffix list ships here: a Domain attribute is accepted only if
/// the request's host domain-matches it and it has at least one dot (or is
/// the host itself), which refuses `Domain=com` but not `Domain=co.uk`.
public struct CookieJar: Sendable {
    public private(set) var cookies: [Cookie] = []

    public init() {}

    /// The most bytes a cookie's name and value may take together.
    static let largestCookie = 4096

    /// Keeps the cookies of a response's `Set-Cookie` headers. Malformed ones
    /// and ones for another domain are ignored, as browsers ignore them.
    public mutating func store(_ headers: [HTTPHeader], from url: URL, now: Date = Date()) {
        for header in headers where header.hasName("Set-Cookie") {
            guard let cookie = Self.parse(header.value, from: url, now: now) else { continue }
            // Its port's cookie of that name alone: another service on the host setting (or clearing) a
            // `sessionid` of its own replaced the backend's, which then got no session at all.
            cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path && $0.port == cookie.port }
            if let expires = cookie.expires, expires <= now { continue }
            cookies.append(cookie)
        }
    }

    /// Forgets the cookies whose time has passed, as a request would: `cookies` listed them
    /// until the next one.
    public mutating func removeExpired(now: Date = Date()) {
        let expired = cookies.filter { $0.expires.map { $0 <= now } ?? false }.map(\.name)
        guard !expired.isEmpty else { return }
        cookies.removeAll { $0.expires.map { $0 <= now } ?? false }
        expiredNames = Array((expiredNames.filter { !expired.contains($0) } + expired).suffix(32))
    }

    /// The names of the last cookies forgotten because their time passed (a
    /// capture of one says it expired, not only that there is none).
    public private(set) var expiredNames: [String] = []

    /// The `Cookie` header value for a request to `url`; nil when no cookie applies.
    public mutating func header(for url: URL, now: Date = Date()) -> String? {
        removeExpired(now: now)
        let matching = sent(to: url, now: now)
        guard !matching.isEmpty else { return nil }
        return matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// The cookie named `name` a request to `url` would carry first (`capture
    /// csrf = cookie:csrftoken`): of two for `/admin` and `/`, the one for
    /// the path asked; never another origin's.
    public func cookie(named name: String, for url: URL, now: Date = Date()) -> Cookie? {
        sent(to: url, now: now).first { $0.name == name }
    }

    /// `localhost` (and its subdomains), 127.0.0.0/8 and `::1`: a secure context however reached.
    public static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        let ipv4Loopback = octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
        return bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" || ipv4Loopback
    }

    /// https or wss, or the loopback host however reached.
    static func isSecureContext(_ url: URL) -> Bool {
        ["https", "wss"].contains(url.scheme?.lowercased() ?? "") || url.host.map { isLoopback($0.lowercased()) } ?? false
    }

    /// The cookies a request to `url` carries, in the order they go (the longest path first, then the oldest).
    private func sent(to url: URL, now: Date) -> [Cookie] {
        guard let host = url.host?.lowercased() else { return [] }
        let path = Self.path(of: url)
        // A Secure cookie goes over https, and to the loopback host over http as browsers and curl send it
        // there (a local gateway's `sessionid=…; Secure` login was kept and never sent back).
        let https = Self.isSecureContext(url)
        let port = Self.port(of: url)
        return cookies.filter { cookie in
            cookie.port == port && (cookie.hostOnly ? host == cookie.domain : Self.domainMatches(host, cookie.domain))
                && Self.pathMatches(path, cookie.path) && (!cookie.secure || https) && !(cookie.expires.map { $0 <= now } ?? false)
        }.sorted { a, b in a.path.count != b.path.count ? a.path.count > b.path.count : a.created < b.created }
    }

    public mutating func removeAll() { cookies.removeAll() }

    // MARK: - RFC 6265 §5.2, §5.3

    static func parse(_ text: String, from url: URL, now: Date) -> Cookie? {
        guard let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        // A control character (other than a tab; C1 too) makes the whole line ignored, as browsers do
        // (RFC 6265bis 5.6): kept, it went back in every Cookie header, which HTTP refuses to send.
        guard !text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value) }) else { return nil }
        let parts = text.split(separator: ";", omittingEmptySubsequences: false).map { String($0) }
        guard let pair = parts.first, let eq = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<eq].trimmingBlanks()
        let value = pair[pair.index(after: eq)...].trimmingBlanks()
        guard !name.isEmpty else { return nil }
        // Past 4096 bytes for its name and value a cookie is ignored, as browsers and curl ignore it
        // (RFC 6265bis 5.6): kept, a 10,000-byte one went with every request.
        guard name.utf8.count + value.utf8.count <= Self.largestCookie else { return nil }
        var cookie = Cookie(name: name, value: value, domain: host, hostOnly: true, path: defaultPath(path(of: url)),
                            secure: false, httpOnly: false, expires: nil, created: now, port: port(of: url))
        var maxAge: Date?
        var expires: Date?
        var givenDomain = false
        for attribute in parts.dropFirst() {
            let pieces = attribute.split(separator: "=", maxSplits: 1).map { $0.trimmingBlanks() }
            guard let key = pieces.first?.lowercased() else { continue }
            let argument = pieces.count > 1 ? pieces[1] : ""
            switch key {
            case "expires":
                if let date = parseDate(argument) { expires = date }
            case "max-age":
                // Digits past an Int are the longest life allowed (or none, negative), not a session cookie.
                let digits = argument.hasPrefix("-") ? argument.dropFirst() : Substring(argument)
                let overflow = !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber } ? (argument.hasPrefix("-") ? Int.min : Int.max) : nil
                guard let seconds = Int(argument) ?? overflow else { continue }
                maxAge = seconds <= 0 ? .distantPast : now.addingTimeInterval(Double(min(seconds, 400 * 86_400)))
            case "domain":
                var domain = argument.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                guard !domain.isEmpty else { continue }
                guard domainMatches(host, domain), domain == host || domain.contains(".") else { return nil }
                cookie.domain = domain
                // An address has no subdomains: `Domain=127.0.0.1` is that host alone (it was listed `*.127.0.0.1`).
                cookie.hostOnly = isAddress(domain)
                givenDomain = true
            case "path":
                cookie.path = argument.hasPrefix("/") ? argument : defaultPath(path(of: url))
            case "secure": cookie.secure = true
            case "httponly": cookie.httpOnly = true
            default: continue
            }
        }
        cookie.expires = maxAge ?? expires
        // RFC 6265bis 4.1.3: a `__Secure-` cookie must say Secure; a `__Host-` one Secure, Path=/ and no
        // Domain. Ignored otherwise, as browsers and curl ignore them: the names promise what was not kept.
        let lower = name.lowercased()
        if lower.hasPrefix("__secure-"), !cookie.secure { return nil }
        if lower.hasPrefix("__host-"), !cookie.secure || givenDomain || cookie.path != "/" { return nil }
        // RFC 6265bis 5.6: only a secure context sets a Secure cookie. Kept from a plain http answer (anyone
        // on the path can write one), it went back as the session's over https.
        if cookie.secure, !isSecureContext(url) { return nil }
        return cookie
    }

    /// A request's path as sent, its last `/` kept: `URL.path` drops it, and a
    /// cookie for `Path=/x/` never went to `/x/` itself.
    static func path(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        return path.isEmpty ? "/" : path
    }

    static func port(of url: URL) -> Int {
        url.port ?? (["https", "wss"].contains(url.scheme?.lowercased() ?? "") ? 443 : 80)
    }

    /// RFC 6265 §5.1.3: the same host, or a subdomain of a domain (never of an IP address).
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if host == domain { return true }
        return !isAddress(host) && host.hasSuffix("." + domain)
    }

    /// An IPv4 or IPv6 address rather than a name.
    static func isAddress(_ host: String) -> Bool {
        host.allSatisfy { $0.isNumber || $0 == "." } || host.contains(":")
    }

    /// RFC 6265 §5.1.4.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }

    /// RFC 6265 §5.1.4's default-path: the request path up to its last `/`.
    static func defaultPath(_ path: String) -> String {
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }

    /// RFC 6265 §5.1.1's cookie-date: the time, day, month and year found
    /// among the tokens in any order, the zone ignored (every date is GMT),
    /// a two-digit year 70-99 as 19xx and 00-69 as 20xx. `Wed, 21 Oct 69
    /// 07:28:00 GMT` (2069) was dropped, and a `+0100` was applied.
    static func parseDate(_ text: String) -> Date? {
        func isDelimiter(_ c: Character) -> Bool {
            guard let ascii = c.asciiValue else { return false }
            return ascii == 0x09 || (0x20...0x2F).contains(ascii) || (0x3B...0x40).contains(ascii) || (0x5B...0x60).contains(ascii)
                || (0x7B...0x7E).contains(ascii)
        }
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        var time: (Int, Int, Int)?, day: Int?, month: Int?, year: Int?
        for token in text.split(whereSeparator: isDelimiter) {
            let digits = token.prefix { $0.isASCII && $0.isNumber }
            if time == nil {
                let parts = token.split(separator: ":", omittingEmptySubsequences: false)
                if parts.count == 3, parts.allSatisfy({ (1...2).contains($0.prefix { $0.isASCII && $0.isNumber }.count) }),
                   let h = Int(parts[0].prefix(2)), let m = Int(parts[1].prefix(2)), let s = Int(parts[2].prefix { $0.isASCII && $0.isNumber }) {
                    time = (h, m, s)
                    continue
                }
            }
            if day == nil, (1...2).contains(digits.count), let value = Int(digits) { day = value; continue }
            if month == nil, token.count >= 3, let index = months.firstIndex(of: token.prefix(3).lowercased()) { month = index + 1; continue }
            if year == nil, (2...4).contains(digits.count), let value = Int(digits) { year = value; continue }
        }
        guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        // A day the month does not have (`31 Feb`) is refused, not rolled over.
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
        return date
    }
}
