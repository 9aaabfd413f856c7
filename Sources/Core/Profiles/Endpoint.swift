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

    public init(_ method: String, _ path: String, _ summary: String, isPublic: Bool = false,
                query: [String] = [], body: Model? = nil, response: String? = nil) {
        self.method = method
        self.path = path
        self.summary = summary
        self.isPublic = isPublic
        self.query = query
        self.body = body
        self.response = response
    }

    /// Path parameter names, such as `id` for `/api/tasks/{id}`.
    public var pathParameters: [String] {
        path.split(separator: "/").filter { $0.hasPrefix("{") && $0.hasSuffix("}") }.map { String($0.dropFirst().dropLast()) }
    }

    /// Whether a concrete path (no query) matches this template segment by segment.
    public func matches(path concrete: String) -> Bool {
        Endpoint.matches(template: path, path: concrete)
    }

    /// Segment by segment over UTF-8, without allocating: every request looks
    /// its endpoint up (auth, drift, ids), so this runs once per catalog entry.
    /// Empty segments are skipped; a `{name}` segment matches any one segment.
    static func matches(template: String, path concrete: String) -> Bool {
        let slash = UInt8(ascii: "/")
        var t = template.utf8[...]
        var p = concrete.utf8[...]
        while true {
            t = t.drop { $0 == slash }
            p = p.drop { $0 == slash }
            if t.isEmpty || p.isEmpty { return t.isEmpty && p.isEmpty }
            let tEnd = t.firstIndex(of: slash) ?? t.endIndex
            let pEnd = p.firstIndex(of: slash) ?? p.endIndex
            let segment = t[..<tEnd]
            let isParameter = segment.count >= 2 && segment.first == UInt8(ascii: "{") && segment.last == UInt8(ascii: "}")
            if !isParameter && !segment.elementsEqual(p[..<pEnd]) { return false }
            t = t[tEnd...]
            p = p[pEnd...]
        }
    }
}
