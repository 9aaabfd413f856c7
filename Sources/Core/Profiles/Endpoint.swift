/// One operation of a backend's catalog.
public struct Endpoint: Sendable, Equatable {
    public var method: String
    /// Path template with `{name}` parameters, such as `/api/tasks/{id}`.
    public var path: String
    public var summary: String
    /// Public endpoints get no Authorization header.
    public var isPublic: Bool

    public init(_ method: String, _ path: String, _ summary: String, isPublic: Bool = false) {
        self.method = method
        self.path = path
        self.summary = summary
        self.isPublic = isPublic
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
