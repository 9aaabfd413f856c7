/// One operation of a backend's catalog.
public struct Endpoint: Sendable, Equatable {
    public var method: String
    /// Path template with `{name}` parameters, such as `/api/tasks/{id}`.
    public var path: String
    public var summary: String
    /// Public endpoints get no Authorization header.
    public var isPublic: Bool
    /// Query parameter names the endpoint reads (`page`, `city`…), for completion and `describe`.
    public var query: [String]
    /// The JSON body it takes, when it takes one: completion offers its fields.
    public var body: Model?
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
        path.split(separator: "/").filter { $0.hasPrefix("{") && $0.hasSuffix("}") }.map { String($0.dropFirst().dropLast()) }
    }

    /// Whether a concrete path (no query) matches this template segment by segment.
    public func matches(path concrete: String) -> Bool {
        Endpoint.matches(template: path, path: concrete)
    }

    static func matches(template: String, path concrete: String) -> Bool {
        let t = template.split(separator: "/", omittingEmptySubsequences: true)
        let p = concrete.split(separator: "/", omittingEmptySubsequences: true)
        guard t.count == p.count else { return false }
        return zip(t, p).allSatisfy { a, b in (a.hasPrefix("{") && a.hasSuffix("}")) || a == b }
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
