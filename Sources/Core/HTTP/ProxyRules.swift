import Foundation

/// Which proxy a request goes through, from the environment as curl reads
/// it: `HTTP_PROXY` for http URLs, `HTTPS_PROXY` for https ones (lower-case
/// names too, which win), none for a host `NO_PROXY` names. `NO_PROXY` is a
/// comma-separated list of hosts, each covering its subdomains
/// (`example.com`, `.example.com`), with an optional `:port`, or `*` for all.
public struct ProxyRules: Sendable, Equatable {
    /// A proxy's address, with the credentials its URL carries (`http://user:pass@proxy:3128`).
    public struct Proxy: Sendable, Hashable, CustomStringConvertible {
        public let host: String
        public let port: Int
        public let user: String?
        public let password: String?

        /// An `http://` proxy URL (`host:port` alone is read as one); nil for what is not.
        public init?(_ text: String) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return nil }
            let withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed
            guard let components = URLComponents(string: withScheme), components.scheme?.lowercased() == "http",
                  let host = components.host, !host.isEmpty else { return nil }
            self.host = host
            port = components.port ?? 80
            user = components.user.flatMap { $0.removingPercentEncoding }
            password = components.password.flatMap { $0.removingPercentEncoding }
        }

        /// `http://proxy.example:3128`, credentials left out.
        public var description: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)" }
    }

    public var http: Proxy?
    public var https: Proxy?
    public var noProxy: [String]

    public init(http: Proxy? = nil, https: Proxy? = nil, noProxy: [String] = []) {
        self.http = http
        self.https = https
        self.noProxy = noProxy
    }

    /// The rules the environment sets; nil when it names no proxy.
    public init?(environment: [String: String]) {
        func value(_ name: String) -> String? { environment[name.lowercased()] ?? environment[name] }
        http = value("HTTP_PROXY").flatMap(Proxy.init)
        https = value("HTTPS_PROXY").flatMap(Proxy.init)
        guard http != nil || https != nil else { return nil }
        noProxy = (value("NO_PROXY") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// The proxy for a request to `url`, or nil to go straight there.
    public func proxy(for url: URL) -> Proxy? {
        guard let host = url.host?.lowercased() else { return nil }
        let scheme = url.scheme?.lowercased()
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        for rule in noProxy {
            if rule == "*" { return nil }
            var name = rule
            if let colon = name.lastIndex(of: ":"), !name.hasSuffix("]"), let rulePort = Int(name[name.index(after: colon)...]) {
                guard rulePort == port else { continue }
                name = String(name[..<colon])
            }
            name = name.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if name.hasPrefix(".") { name.removeFirst() }
            if name.hasPrefix("*.") { name.removeFirst(2) }
            if host == name || host.hasSuffix("." + name) { return nil }
        }
        return scheme == "https" ? https : http
    }
}
