import Foundation

/// Whether a URL is one explorer can connect to: an absolute URL with one
/// of the schemes, a host, and a port TCP has (1 to 65535). One check for
/// `--base-url`, a profile file's environments, a typed URL and one taken
/// from an answer: a port out of range would otherwise reach the HTTP
/// client, which stops the process on it.
public enum URLCheck {
    /// `text` with its scheme in lower case (`HTTPS://h` is `https://h`):
    /// a scheme has no case (RFC 3986 3.1), and the rest of explorer reads
    /// schemes as written in lower case.
    public static func lowercasingScheme(_ text: String) -> String {
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://"),
              text[..<colon].allSatisfy({ $0.isASCII && $0.isLetter }), text[..<colon].contains(where: \.isUppercase) else { return text }
        return text[..<colon].lowercased() + text[colon...]
    }

    /// Why `text` is not such a URL, in one phrase; nil when it is one.
    public static func problem(_ text: String, schemes: [String] = ["http", "https"]) -> String? {
        let article = schemes.first?.hasPrefix("h") == true ? "an " : "a "  // "an http://", "a ws://"
        let expected = "not " + article + schemes.map { "\($0)://" }.joined(separator: " or ") + " URL"
        guard let url = URL(string: lowercasingScheme(text)), let scheme = url.scheme, schemes.contains(scheme) else {
            return "\(quoted(text)) is \(expected)"
        }
        // `http://user:pw@/api`, `http:///x`: the scheme is right, the host is missing.
        guard let host = url.host, !host.isEmpty else { return "\(quoted(text)) has no host (\(scheme)://HOST/…)" }
        return problem(port: url)
    }

    /// Why `text` is not a base URL, in one phrase; nil when it is one: a
    /// URL (`problem`) without a query or fragment. Each line's path is
    /// joined to it, and a query was dropped without a word (an `?api_key=`
    /// never went out; it went to a recording's header in clear).
    public static func baseProblem(_ text: String) -> String? {
        if let reason = problem(text) { return reason }
        guard let url = URL(string: lowercasingScheme(text)) else { return nil }
        if url.query != nil {
            return "\(quoted(text)) has a query, which a base URL does not keep: give it on each line (name==value), "
                + "or a key as a profile's auth (kind: query, docs/profiles.md)"
        }
        if url.fragment != nil { return "\(quoted(text)) has a #fragment, which a base URL does not keep" }
        // A recording's header writes the base URL as it is, and every line's request line shows it.
        if let (name, range) = Redactor.pathParameterSecrets(in: text).first {
            let instead = name.lowercased() == "jsessionid" ? "send it as the JSESSIONID cookie (header Cookie:JSESSIONID=VALUE)"
                : name.lowercased() == "phpsessid" ? "send it as the PHPSESSID cookie (header Cookie:PHPSESSID=VALUE)" : "give it on each line"
            var shown = text
            shown.replaceSubrange(range, with: Redactor.hidden(String(text[range])))
            return "\(quoted(shown)) has a credential in its path (;\(name)=), which a base URL would keep in clear: \(instead)"
        }
        return nil
    }

    /// A URL as a problem quotes it: the password of its `user:password@`
    /// as `…`, and the values of its secret parameters hidden (the error
    /// line said them, on screen and in a recording).
    static func quoted(_ text: String) -> String {
        var shown = text
        if let secret = Redactor.userinfoSecret(in: shown) { shown.replaceSubrange(secret.range, with: "…") }
        return "'" + Redactor.hidingCredentials(inText: shown) + "'"
    }

    /// A `--base-url` as typed, HTTPie's shorthands expanded (`:3000`, `localhost:3000/api`): they were
    /// "not an http:// or https:// URL" there, while a line took them.
    @Sendable public static func expandingBaseShorthand(_ text: String) -> String {
        expandingShorthand(text) ?? text
    }

    /// HTTPie's URL shorthands as the http:// URL they stand for, or nil:
    /// `:3000/items` and `:/items` on localhost, `localhost/items`, and
    /// `HOST:PORT/items` (a port of digits). Anything else (`items`,
    /// `v1:x`) is a path under the base URL, as it was.
    public static func expandingShorthand(_ target: String) -> String? {
        // By bytes: asked of each line's first word (`get`), Foundation's `contains` was a search through UTF-16.
        guard let first = target.first, first != "/", first != "{", !target.includes(ascii: "://") else { return nil }
        let authority = target.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let rest = target.dropFirst(authority.count)
        if authority == "localhost" || isAddress(authority) { return "http://" + target }
        guard let colon = authority.lastIndex(of: ":") else { return nil }
        let host = authority[..<colon], port = authority[authority.index(after: colon)...]
        guard port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        if host.isEmpty { return "http://localhost" + (port.isEmpty ? "" : ":" + port) + rest }
        guard !port.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else { return nil }
        return "http://" + target
    }

    /// `127.0.0.1`, `127.0.0.1:8080`, `[::1]:8080`: an IP address, with a port or not.
    private static func isAddress(_ authority: Substring) -> Bool {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            let port = authority[authority.index(after: close)...]
            return port.isEmpty || port.first == ":" && port.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
        }
        let host = authority.prefix { $0 != ":" }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// Why the URL's port is not one TCP has; nil when it has none or a good one.
    public static func problem(port url: URL) -> String? {
        guard let port = url.port, !(1...65535).contains(port) else { return nil }
        return "\(quoted(url.absoluteString)) has port \(port); a port is 1 to 65535"
    }

    /// The URL, or why not.
    public static func url(_ text: String, schemes: [String] = ["http", "https"]) -> Result<URL, Problem> {
        if let reason = problem(text, schemes: schemes) { return .failure(Problem(description: reason)) }
        return .success(URL(string: lowercasingScheme(text))!)
    }

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let description: String
    }
}
