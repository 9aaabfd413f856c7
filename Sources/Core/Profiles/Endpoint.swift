/// One operation of a backend's catalog.
public struct Endpoint: Sendable, Equatable {
    public var method: String
    /// Path template with `{name}` parameters, such as `/api/tasks/{id}`.
    public var path: String {
        didSet { segments = Endpoint.segments(of: path) }
    }
    /// The template's segments, split once: matching and TAB compare these
    /// (a catalog of a thousand operations is searched on every key press).
    public private(set) var segments: [Substring]
    public var summary: String
    /// Public endpoints get no Authorization header.
    public var isPublic: Bool
    /// Query parameter names the endpoint reads (`page`, `city`…), for completion and `describe`.
    public var query: [String]
    /// The values a query parameter takes when the catalog knows them (an
    /// OpenAPI `enum`), offered by TAB after `name==`.
    public var queryValues: [String: [String]] = [:]
    /// The JSON body it takes, when it takes one: completion offers its fields.
    public var body: Model?
    /// The body is a JSON array of `body` models (an upload of many), which
    /// request fields cannot make: `--raw` or `@file` sends one.
    public var bodyIsList = false
    /// The JSON media type its body goes as when not `application/json`
    /// (`application/merge-patch+json`): a line's JSON body is sent with it.
    public var bodyMediaType: String?
    /// What its body is in words when it is not a `body` model (`string (JSON,
    /// not an object: …)`, `text/csv (…)`), for `describe`.
    public var bodyShape: String?
    /// The name of the model its success answer follows, in the profile's `models`.
    public var response: String?
    /// The success answer is a JSON array of `response` models (a list endpoint).
    public var responseIsList: Bool
    /// How the access token goes with a request that is not public.
    public var token: TokenPlacement

    public init(_ method: String, _ path: String, _ summary: String, isPublic: Bool = false,
                query: [String] = [], body: Model? = nil, response: String? = nil,
                responseIsList: Bool = false, token: TokenPlacement = .bearer) {
        self.method = method
        self.path = path
        segments = Endpoint.segments(of: path)
        self.summary = summary
        self.isPublic = isPublic
        self.query = query
        self.body = body
        self.response = response
        self.responseIsList = responseIsList
        self.token = token
    }

    /// Path parameter names, such as `id` for `/api/tasks/{id}`.
    public var pathParameters: [String] {
        segments.filter(Endpoint.isParameter).map { String($0.dropFirst().dropLast()) }
    }

    /// How many `{param}` segments the template has (a literal segment beats a parameter).
    public var parameterCount: Int { segments.count(where: Endpoint.isParameter) }

    /// Whether a concrete path (no query) matches this template segment by segment.
    public func matches(path concrete: String) -> Bool {
        matches(segments: Endpoint.segments(of: concrete))
    }

    /// The same for a path already split with `segments(of:)`.
    public func matches(segments concrete: [Substring]) -> Bool {
        guard segments.count == concrete.count else { return false }
        for (a, b) in zip(segments, concrete) where a != b && !Endpoint.isParameter(a) { return false }
        return true
    }

    /// Whether `template` names this endpoint: the same literal segments, and
    /// a `{parameter}` wherever this has one (the names may differ).
    public func hasShape(of template: String) -> Bool {
        let other = Endpoint.segments(of: template)
        guard segments.count == other.count else { return false }
        return zip(segments, other).allSatisfy { a, b in
            Endpoint.isParameter(a) ? Endpoint.isParameter(b) : a == b
        }
    }

    /// A path's non-empty segments.
    public static func segments(of path: String) -> [Substring] {
        // Over UTF-8: a split by Character finds grapheme breaks at every step
        // (a tenth of each request's catalog lookups).
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map { Substring($0) }
    }

    /// A request path without its query (`/api/tasks?page=2` is `/api/tasks`).
    public static func bare(_ path: String) -> String {
        guard let mark = path.utf8.firstIndex(of: UInt8(ascii: "?")) else { return path }
        return String(path[..<mark])
    }

    /// How well this template names a path it matches, the lower the better:
    /// one that agrees on a last `/` first (`/c/{name}/` for `/c/x/`, not
    /// `/c/{id}`), then the fewest parameters (`/users/me` over `/users/{username}`).
    public func rank(forPathEndingInSlash slash: Bool) -> (Int, Int) {
        (Endpoint.endsInSlash(path) == slash ? 0 : 1, parameterCount)
    }

    /// `/items/`, not `/items` nor `/`: FastAPI and Django tell them apart.
    public static func endsInSlash(_ path: String) -> Bool {
        path.utf8.count > 1 && path.utf8.last == UInt8(ascii: "/")
    }

    /// `{name}`.
    public static func isParameter(_ segment: Substring) -> Bool {
        segment.first == "{" && segment.last == "}"
    }
}

/// Where a request carries the access token. The built-in backends all take
/// `Authorization: Bearer`; an OpenAPI document may name an API key header.
public enum TokenPlacement: Sendable, Equatable {
    /// `Authorization: Bearer <token>`.
    case bearer
    /// The token alone as the value of this header (an OpenAPI `apiKey` in a header).
    case header(String)

    /// The header's name.
    public var headerName: String {
        switch self {
        case .bearer: "Authorization"
        case let .header(name): name
        }
    }

    /// The header's value for `token`.
    public func headerValue(_ token: String) -> String {
        switch self {
        case .bearer: "Bearer \(token)"
        case .header: token
        }
    }
}
