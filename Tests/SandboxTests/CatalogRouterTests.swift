import Core
import Foundation
import Hummingbird
import Testing
@testable import Sandbox

/// The catalogs of the four built-in profiles list exactly the routes their
/// sandboxes serve (method and path; capture names aside), so completion and
/// `isPublic` never disagree with the server: `CatalogRouter` registers each
/// route from its entry and refuses a route or an entry without the other.
@Suite struct CatalogRouterTests {
    /// The backend's routes, registered as the sandbox does.
    static func withRoutes<T>(_ backend: any SandboxBackend, profile: Profile? = nil,
                              _ body: (CatalogRouter, SandboxState) throws -> T) async throws -> T {
        let store = try await SandboxStore.open(path: nil, backend: backend)
        let state = SandboxState(store: store, signer: TokenSigner(key: .init(data: [UInt8](repeating: 7, count: 32))),
                                 configuration: SandboxConfiguration(), errorStyle: backend.errorStyle, tokenGeneration: 0)
        let routes = CatalogRouter(Router(context: BasicRequestContext.self), profile: profile ?? backend.profile, state: state)
        let result = Result { try body(routes, state) }
        store.close()
        return try result.get()
    }

    /// "GET /users/{}" for every route the backend registers.
    static func served(_ backend: any SandboxBackend) async throws -> Set<String> {
        try await withRoutes(backend) { routes, state in
            backend.register(on: routes, state: state)
            try routes.finish()
            return Set(routes.router.routes.map { "\($0.method.rawValue) \($0.path.description)" })
                .subtracting(routes.outside).map(normalized).reduce(into: []) { $0.insert($1) }
        }
    }

    /// "GET /users/{}" for "GET /users/{id}".
    static func normalized(_ route: String) -> String {
        route.split(separator: "/").map { $0.hasPrefix("{") ? "{}" : String($0) }.joined(separator: "/")
    }

    static func catalog(_ profile: Profile) -> Set<String> {
        Set(profile.endpoints.map { normalized("\($0.method) \($0.path)") })
    }

    @Test(arguments: SandboxBackends.names)
    func catalogMatchesTheRoutes(_ name: String) async throws {
        let backend = try #require(SandboxBackends.named(name))
        let catalog = Self.catalog(backend.profile)
        let served = try await Self.served(backend)
        #expect(catalog.subtracting(served).sorted() == [], "listed but not served")
        #expect(served.subtracting(catalog).sorted() == [], "served but not listed")
    }

    /// A route the catalog does not list is not served, and an entry
    /// without a route is named: the sandbox refuses to start with either.
    @Test func aRouteAndACatalogThatDisagreeAreRefused() async throws {
        let backend = try #require(SandboxBackends.named("posture"))
        var profile = backend.profile
        profile.endpoints.append(Endpoint("GET", "/api/v1/listed/{id}", "listed, never served"))
        let mismatch = try await Self.withRoutes(backend, profile: profile) { routes, state in
            backend.register(on: routes, state: state)
            routes.get("/api/v1/unlisted") { _, _ in Response(status: .ok) }
            return #expect(throws: CatalogMismatch.self) { try routes.finish() }
        }
        let message = try #require(mismatch).description
        #expect(message.contains("served but not in the catalog: GET /api/v1/unlisted"))
        #expect(message.contains("in the catalog but not served: GET /api/v1/listed/{id}"))
    }
}
