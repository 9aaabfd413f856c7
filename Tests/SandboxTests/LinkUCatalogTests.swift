import Core
import Foundation
import Testing
@testable import Sandbox

/// The Core catalog against the sandbox: every LinkU endpoint (messaging
/// aside, which has its own suite) is served, public ones answer without a
/// token, the others refuse with 401, and every GET works for alice.
@Suite struct LinkUCatalogTests {
    /// Not public in 001's set, yet usable without a bearer token: refresh
    /// carries its own token in the body.
    static let noBearerNeeded: Set<String> = ["/api/secure-auth/refresh"]

    static var endpoints: [Endpoint] {
        Profile.linku.endpoints.filter { !$0.path.hasPrefix("/api/users/messages") && $0.path != "/api/users/conversations" }
    }

    /// The template with every `{parameter}` set to 1.
    static func concrete(_ template: String) -> String {
        template.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("{") ? "1" : String($0) }.joined(separator: "/")
    }

    @Test func everyEndpointIsServedAndGuarded() async throws {
        try await withSandbox { server, http in
            #expect(Self.endpoints.count == 69)
            for endpoint in Self.endpoints {
                let response = try await http.call(server, endpoint.method, Self.concrete(endpoint.path))
                let name = "\(endpoint.method) \(endpoint.path)"
                #expect(response.json?["message"]?.stringValue?.hasPrefix("no route") != true, "\(name) is not served")
                #expect(response.status != 405, "\(name) has the wrong method")
                if endpoint.isPublic || Self.noBearerNeeded.contains(endpoint.path) {
                    #expect(response.status != 401, "\(name) should not need a token")
                } else {
                    #expect(response.status == 401, "\(name) should need a token, got \(response.status)")
                }
            }
        }
    }

    @Test func everyGetAnswers200ForALoggedInUser() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            // An upload exists only after one is made: the uploads suite covers it.
            for endpoint in Self.endpoints where endpoint.method == "GET" && endpoint.path != "/uploads/{name}" {
                let response = try await http.call(server, "GET", Self.concrete(endpoint.path), token: alice)
                #expect(response.status == 200, "GET \(endpoint.path): \(response.status) \(response.json?["message"]?.stringValue ?? "")")
            }
        }
    }

    @Test func everyListIsPagedTheSameWay() async throws {
        try await withSandbox { server, http in
            let alice = try await http.alice(server)
            for endpoint in Self.endpoints where endpoint.method == "GET" {
                let paged = try await http.call(server, "GET", Self.concrete(endpoint.path), [query("page_size", "1")], token: alice)
                guard paged.json?["total"] != nil else { continue }
                #expect(paged.json?["page"]?.intValue == 1, "GET \(endpoint.path)")
                #expect(paged.json?["page_size"]?.intValue == 1, "GET \(endpoint.path)")
                let tooBig = try await http.call(server, "GET", Self.concrete(endpoint.path), [query("page_size", "101")], token: alice)
                #expect(tooBig.status == 422, "GET \(endpoint.path) accepts page_size 101")
            }
        }
    }
}
