import Core
import Foundation
import Testing

/// Issue 11 #6 as the issue reproduced it, against the sandbox. Servers that
/// answer early are in CoreTests' TransportTests (LocalHTTPServer).
@Suite struct HostileServerTests {
    /// The issue's own reproduction: the sandbox refuses a 90 KB head on a
    /// connection a login has used.
    @Test func theSandboxRefusingAHugeHeadLeavesTheClientWorking() async throws {
        try await withSandbox { server, http in
            let builder = RequestBuilder(baseURL: server.baseURL)
            let (token, _) = try await http.login(server)
            var request = try builder.build(method: "POST", path: "/api/tasks", items: [
                .stringField(name: "title", value: "x"), .header(name: "X-Big", value: String(repeating: "a", count: 90_000)),
            ])
            request.setHeader("Authorization", "Bearer \(token)")
            do {
                let answer = try await http.send(request)
                #expect(answer.status >= 400)
            } catch {
                #expect(!String(describing: error).isEmpty)
            }
            #expect(try await http.call(server, "GET", "/api/banners").status == 200)
        }
    }
}
