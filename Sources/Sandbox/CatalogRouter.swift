import Core
import Hummingbird

/// A backend's routes, each registered from its entry in the backend's
/// catalog (`Core/Profiles/BuiltIn/<name>.yaml`), which decides the token
/// check: unless the entry is public, or is the login flow's refresh (its
/// credential is the refresh token in the body), the handler runs only for a
/// valid access token, and reads whose it is with `Caller.user()`.
///
/// So the catalog the explorer completes and guards with, and the server
/// that answers, cannot disagree: a route missing from the catalog is not
/// served, and `finish` refuses to start a sandbox with such a route or with
/// an entry no route serves. Every test that starts a sandbox builds all of
/// its routes.
final class CatalogRouter {
    typealias Handler = @Sendable (Request, BasicRequestContext) async throws -> Response

    let router: Router<BasicRequestContext>
    let profile: Profile
    let state: SandboxState
    private var served: Set<Int> = []
    private var unlisted: [String] = []
    /// "METHOD /path" of the routes added with `outsideCatalog`.
    private(set) var outside: Set<String> = []

    init(_ router: Router<BasicRequestContext>, profile: Profile, state: SandboxState) {
        self.router = router
        self.profile = profile
        self.state = state
    }

    func get(_ path: String, use handler: @escaping Handler) { on(.get, path, handler) }
    func post(_ path: String, use handler: @escaping Handler) { on(.post, path, handler) }
    func put(_ path: String, use handler: @escaping Handler) { on(.put, path, handler) }
    func patch(_ path: String, use handler: @escaping Handler) { on(.patch, path, handler) }
    func delete(_ path: String, use handler: @escaping Handler) { on(.delete, path, handler) }

    /// A route that is none of the backend's endpoints: the sandbox's own
    /// (`/__sandbox/…`), or a socket's path fetched without an upgrade. No
    /// token check is installed; the handler makes its own.
    func outsideCatalog(_ method: HTTPRequest.Method, _ path: String, use handler: @escaping Handler) {
        outside.insert("\(method.rawValue) \(path)")
        router.on(RouterPath(path), method: method, use: handler)
    }

    private func on(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        guard let index = profile.endpoints.firstIndex(where: { $0.method == method.rawValue && $0.hasShape(of: path) }) else {
            unlisted.append("\(method.rawValue) \(path)")
            return
        }
        served.insert(index)
        let endpoint = profile.endpoints[index]
        guard !endpoint.isPublic, endpoint.path != profile.auth?.refreshPath else {
            router.on(RouterPath(path), method: method, use: handler)
            return
        }
        let state = state
        router.on(RouterPath(path), method: method) { request, context in
            let user = try await state.authenticate(request)
            return try await Caller.$id.withValue(user) { try await handler(request, context) }
        }
    }

    /// Throws when a route was not in the catalog, or an entry of the
    /// catalog has no route.
    func finish() throws(CatalogMismatch) {
        let unserved = profile.endpoints.indices.filter { !served.contains($0) }
            .map { "\(profile.endpoints[$0].method) \(profile.endpoints[$0].path)" }
        guard unlisted.isEmpty, unserved.isEmpty else {
            throw CatalogMismatch(profile: profile.name, unlisted: unlisted, unserved: unserved)
        }
    }
}

/// The sandbox's routes and its catalog disagree: its own mistake.
struct CatalogMismatch: Error, CustomStringConvertible {
    var profile: String
    var unlisted: [String]
    var unserved: [String]

    var description: String {
        var parts: [String] = []
        if !unlisted.isEmpty { parts.append("served but not in the catalog: " + unlisted.joined(separator: ", ")) }
        if !unserved.isEmpty { parts.append("in the catalog but not served: " + unserved.joined(separator: ", ")) }
        return "the \(profile) sandbox disagrees with its catalog; " + parts.joined(separator: "; ")
    }
}

/// The user whose access token a request carries, set by `CatalogRouter`
/// before a handler of an endpoint that needs a login runs.
enum Caller {
    @TaskLocal static var id: String?

    /// The caller's id. A handler of a public endpoint has none: asking is
    /// the sandbox's own mistake, answered 500.
    static func user() throws -> String {
        guard let id else { throw APIFailure.internal("a public endpoint's handler asked who is calling") }
        return id
    }

    /// The caller's id as the integer LinkU and the posture app use.
    static func number() throws -> Int {
        guard let number = Int(try user()) else { throw APIFailure.unauthorized("invalid access token", code: "INVALID_TOKEN") }
        return number
    }
}
