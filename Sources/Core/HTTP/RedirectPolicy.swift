import Foundation

/// Following redirects (`--follow`, off by default as in HTTPie): at most
/// `maximum` hops (HTTPie's `--max-redirects`, 30 by default).
public struct RedirectPolicy: Sendable, Equatable {
    public var maximum: Int
    /// Asked of each hop before it goes (after the headers that stay behind were dropped): a reason not to
    /// send it stops the redirect (a replay's secret, which an open redirect would take to another origin).
    public var vetting: (@Sendable (PreparedRequest) -> Vetoed?)?

    public init(maximum: Int = 30, vetting: (@Sendable (PreparedRequest) -> Vetoed?)? = nil) {
        self.maximum = maximum
        self.vetting = vetting
    }

    public static func == (a: RedirectPolicy, b: RedirectPolicy) -> Bool { a.maximum == b.maximum && (a.vetting == nil) == (b.vetting == nil) }

    /// Why a hop was not sent, and the secret it would have carried where.
    public struct Vetoed: Sendable, Equatable {
        public let secret: String
        public let url: URL
        public let why: String
        public init(secret: String, url: URL, why: String) {
            self.secret = secret
            self.url = url
            self.why = why
        }
    }

    /// More redirects than allowed: said with where the last one pointed.
    public struct TooMany: Error, Equatable, Sendable, CustomStringConvertible {
        public let limit: Int
        public let location: String
        public init(limit: Int, location: String) {
            self.limit = limit
            self.location = location
        }
        public var description: String {
            // Its credentials hidden as the Location line above hides them (`admin:PW@`, `?access_token=`).
            "stopped after \(limit) redirect\(limit == 1 ? "" : "s") (--max-redirects \(limit)); the next would go to \(Redactor.hidingCredentials(inText: location))"
        }
    }

    /// A redirect `--follow` was asked to follow and cannot: no `Location`,
    /// one that is not a URL, or another scheme than http and https
    /// (`file:`, `ftp:`). Said in one line, as HTTPie does, never a quiet stop.
    public struct Unfollowable: Error, Equatable, Sendable, CustomStringConvertible {
        public let status: Int
        public let why: String
        /// The hop `vetting` stopped, if that is why.
        public var vetoed: Vetoed?
        public var description: String { "not following the \(status) redirect: \(why)" }
    }

    /// The request a 3xx answer to `request` sends the client to, or nil
    /// when the answer is not a redirect to follow (304, 300, not a 3xx).
    /// `request` is the one typed, without the session's token and cookies:
    /// those are added again for the new URL.
    public static func next(after response: ReceivedResponse, to request: PreparedRequest) throws(Unfollowable) -> PreparedRequest? {
        let status = response.status
        guard [301, 302, 303, 307, 308].contains(status) else { return nil }
        // No Location: the answer is the last one, shown as curl -L and HTTPie show it (the caller says
        // it was not followed); refused, its body and headers were never seen and the line failed.
        guard let location = response.header("Location")?.trimmingBlanks(), !location.isEmpty else { return nil }
        // Said with its credentials hidden, as its Location line shows it (an OAuth redirect to an app's
        // scheme, `app://cb?access_token=…`, was said in clear).
        let shown = Redactor.hidingCredentials(inLocation: location)
        guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL else {
            throw Unfollowable(status: status, why: "its Location '\(shown)' is not a URL")
        }
        guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw Unfollowable(status: status, why: "its Location \(shown) is not an http or https URL")
        }
        guard target.host != nil else { throw Unfollowable(status: status, why: "its Location '\(shown)' is not a URL") }
        var next = request
        next.url = target
        let method = next.method
        // 303 always, and 301/302 after a POST, become a GET without a body (what browsers, curl -L and HTTPie do).
        if (status == 303 && method != "HEAD") || ((status == 301 || status == 302) && method == "POST") {
            next.method = "GET"
            next.body = nil
            next.removeHeader("Content-Type")
            next.removeHeader("Content-Length")
        }
        return next
    }
}
