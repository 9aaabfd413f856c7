import Foundation

/// Which proxy a request goes through, from the environment as curl reads
/// it: `HTTP_PROXY` for http URLs, `HTTPS_PROXY` for https ones, `ALL_PROXY`
/// for either when its own is not set (lower-case names too, which win),
/// none for a host `NO_PROXY` names. `NO_PROXY` is a
/// comma-separated list of hosts, each covering its subdomains
/// (`example.com`, `.example.com`), with an optional `:port`, of IP ranges
/// (`10.0.0.0/8`, `fd00::/8`) covering the addresses in them, or `*` for all.
public struct ProxyRules: Sendable, Equatable {
    /// A proxy's address, with the credentials its URL carries (`http://user:pass@proxy:3128`).
    public struct Proxy: Sendable, Hashable, CustomStringConvertible {
        public let host: String
        public let port: Int
        public let user: String?
        public let password: String?
        /// The environment variable that named it (`https_proxy`, `ALL_PROXY`), for messages.
        public var variable = "HTTP_PROXY/HTTPS_PROXY"

        /// An `http://` proxy URL (`host:port` alone is read as one); nil for what is not.
        public init?(_ text: String) {
            let trimmed = text.trimmingBlanks()
            guard !trimmed.isEmpty else { return nil }
            let withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed
            guard let components = URLComponents(string: withScheme), components.scheme?.lowercased() == "http",
                  let bracketed = components.host, !bracketed.isEmpty else { return nil }
            // `http://[::1]:3128`: the address without its brackets, as a socket takes it.
            host = bracketed.hasPrefix("[") && bracketed.hasSuffix("]") ? String(bracketed.dropFirst().dropLast()) : bracketed
            port = components.port ?? 80
            // Decoded once: `user` and `password` are already, and decoded again `p%25ss` (`p%ss`) was no password at all.
            user = components.percentEncodedUser.map { $0.removingPercentEncoding ?? $0 }
            password = components.percentEncodedPassword.map { $0.removingPercentEncoding ?? $0 }
        }

        /// `http://proxy.example:3128`, credentials left out.
        public var description: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

        /// What its 407 means, said of it.
        public var credentialsRefusal: String {
            user == nil ? "it asks for credentials (407); give them in its URL, http://user:password@host:port"
                : "it refused the credentials in its URL (407)"
        }

        /// The `Proxy-Authorization` its URL's credentials make (Basic); nil without.
        public var authorization: String? {
            user.map { "Basic " + Data("\($0):\(password ?? "")".utf8).base64EncodedString() }
        }
    }

    public var http: Proxy?
    public var https: Proxy?
    public var noProxy: [String]

    public init(http: Proxy? = nil, https: Proxy? = nil, noProxy: [String] = []) {
        self.http = http
        self.https = https
        self.noProxy = noProxy
    }

    /// A proxy variable names a proxy this client cannot use (`socks5://`,
    /// `https://`): nothing is sent rather than sent around the proxy.
    public struct Unsupported: Error, Equatable, CustomStringConvertible {
        public let variable: String
        /// The value with any password it carries as `***`.
        public let value: String
        public var description: String {
            // An http:// URL that does not read (a port that is not a number) was told only http:// is supported.
            let lower = value.trimmingBlanks().lowercased()
            let why = !lower.contains("://") || lower.hasPrefix("http://")
                ? "not a proxy URL explorer can read (http://[USER:PASSWORD@]HOST:PORT)" : "only http:// proxies are supported"
            return "\(variable)=\(value): \(why), so nothing is sent (unset it to go direct)"
        }

        /// `text` with the password of its userinfo as `***`, whether or not it reads as a URL
        /// (`http://user:pw@host:badport` was shown whole, to the screen and into JUnit files).
        static func masked(_ text: String) -> String {
            guard let password = Redactor.userinfoPassword(in: text, needsScheme: false) else { return text }
            return text.replacingCharacters(in: password, with: "***")
        }
    }

    /// The rules the environment sets; nil when it names no proxy.
    public init?(environment: [String: String]) throws(Unsupported) {
        func proxy(_ name: String) throws(Unsupported) -> Proxy? {
            let variable = environment[name.lowercased()] != nil ? name.lowercased() : name
            guard let text = environment[variable], !text.trimmingBlanks().isEmpty else { return nil }
            guard var proxy = Proxy(text) else {
                throw Unsupported(variable: variable, value: Unsupported.masked(text))
            }
            proxy.variable = variable
            return proxy
        }
        // ALL_PROXY was not read: on a network where all traffic must go through the proxy, requests went around it.
        let all = try proxy("ALL_PROXY")
        http = try proxy("HTTP_PROXY") ?? all
        https = try proxy("HTTPS_PROXY") ?? all
        guard http != nil || https != nil else { return nil }
        noProxy = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",").map { $0.trimmingBlanks().lowercased() }.filter { !$0.isEmpty }
    }

    /// The proxy for a request to `url`, or nil to go straight there.
    public func proxy(for url: URL) -> Proxy? {
        guard let host = url.host?.lowercased() else { return nil }
        let scheme = url.scheme?.lowercased()
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        let address = IPAddress(host)
        for rule in noProxy {
            if rule == "*" { return nil }
            if let address, let range = IPAddress.Range(rule) {
                if range.contains(address) { return nil }
                continue
            }
            var name = rule
            if let colon = name.lastIndex(of: ":"), !name.hasSuffix("]"), let rulePort = Int(name[name.index(after: colon)...]) {
                guard rulePort == port else { continue }
                name = String(name[..<colon])
            }
            name = name.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if name.hasPrefix(".") { name.removeFirst() }
            if name.hasPrefix("*.") { name.removeFirst(2) }
            // A domain's suffix, not an address's: `no_proxy=0.1` or `.0.0.1` sent 10.0.0.1 around the proxy (curl does not).
            if host == name || (address == nil && host.hasSuffix("." + name)) { return nil }
        }
        return scheme == "https" ? https : http
    }
}

/// An IPv4 or IPv6 address as its bytes, for `NO_PROXY` ranges.
struct IPAddress: Equatable {
    let bytes: [UInt8]

    /// `10.1.2.3`, `::1`, `[::1]`; nil for a name.
    init?(_ text: String) {
        let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            bytes = withUnsafeBytes(of: v4) { Array($0) }
        } else if inet_pton(AF_INET6, bare, &v6) == 1 {
            bytes = withUnsafeBytes(of: v6) { Array($0) }
        } else {
            return nil
        }
    }

    /// `10.0.0.0/8`, `fd00::/8`, or one address (all its bits).
    struct Range {
        let network: IPAddress
        let bits: Int

        init?(_ text: String) {
            let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
            guard let network = IPAddress(parts[0]) else { return nil }
            let all = network.bytes.count * 8
            guard let bits = parts.count == 2 ? Int(parts[1]) : all, (0...all).contains(bits) else { return nil }
            self.network = network
            self.bits = bits
        }

        func contains(_ address: IPAddress) -> Bool {
            guard address.bytes.count == network.bytes.count else { return false }
            for bit in 0..<bits {
                let mask = UInt8(0x80) >> (bit % 8)
                if address.bytes[bit / 8] & mask != network.bytes[bit / 8] & mask { return false }
            }
            return true
        }
    }
}
