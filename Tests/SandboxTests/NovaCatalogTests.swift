import Core
import Foundation
import Hummingbird
import Testing
@testable import Sandbox

/// The Core catalogs of the three profiles this suite covers list exactly
/// the routes their sandboxes serve (method and path; capture names aside),
/// so completion and `isPublic` never disagree with the server.
@Suite struct NovaCatalogTests {
    /// "GET /users/{}" for every route the backend registers.
    static func served(_ backend: any SandboxBackend) async throws -> Set<String> {
        let store = try await SandboxStore.open(path: nil, backend: backend)
        let state = SandboxState(store: store, signer: TokenSigner(key: .init(data: [UInt8](repeating: 7, count: 32))),
                                 configuration: SandboxConfiguration(), errorStyle: backend.errorStyle, tokenGeneration: 0)
        let router = Router(context: BasicRequestContext.self)
        backend.register(on: router, state: state)
        await store.close()
        return Set(router.routes.map { "\($0.method.rawValue) \(normalized($0.path.description))" })
    }

    static func normalized(_ path: String) -> String {
        path.split(separator: "/").map { $0.hasPrefix("{") ? "{}" : String($0) }.reduce("") { $0 + "/" + $1 }
    }

    static func catalog(_ profile: Profile) -> Set<String> {
        Set(profile.endpoints.map { "\($0.method) \(normalized($0.path))" })
    }

    @Test(arguments: ["nova", "levelup", "posture"])
    func catalogMatchesTheRoutes(_ name: String) async throws {
        let backend = try #require(SandboxBackends.named(name))
        let catalog = Self.catalog(backend.profile)
        let served = try await Self.served(backend)
        #expect(catalog.subtracting(served).sorted() == [], "listed but not served")
        #expect(served.subtracting(catalog).sorted() == [], "served but not listed")
    }
}
