import Core
import Foundation
import Testing
@testable import Sandbox

/// Helpers for the Nova suites: log in with 003's shapes, send raw bodies,
/// post an image, walk a cursor list to its end.
extension LiveTransport {
    func novaLogin(_ server: SandboxServer, _ email: String = "alice@example.com", _ password: String = "alice123") async throws -> (access: String, refresh: String) {
        let response = try await call(server, "POST", "/auth/login", [.stringField(name: "email", value: email), .stringField(name: "password", value: password)])
        try #require(response.status == 200)
        let tokens = try #require(response.json?["tokens"])
        return (try #require(tokens["access_token"]?.stringValue), try #require(tokens["refresh_token"]?.stringValue))
    }

    func raw(_ server: SandboxServer, _ method: String, _ path: String, body: [UInt8], contentType: String? = nil, token: String? = nil) async throws -> ReceivedResponse {
        var headers: [HTTPHeader] = []
        if let contentType { headers.append(HTTPHeader(name: "Content-Type", value: contentType)) }
        if let token { headers.append(HTTPHeader(name: "Authorization", value: "Bearer \(token)")) }
        return try await send(PreparedRequest(method: method, url: try #require(URL(string: server.baseURL.absoluteString + path)), headers: headers, body: body))
    }

    /// Upload URL, PUT of the bytes, POST /posts: the new post.
    func novaPost(_ server: SandboxServer, token: String, caption: String? = nil, image: [UInt8] = novaPNG) async throws -> JSONValue {
        let slot = try await call(server, "POST", "/posts/upload-url", [.stringField(name: "content_type", value: "image/png")], token: token)
        let key = try #require(slot.json?["file_key"]?.stringValue)
        let put = try await raw(server, "PUT", "/uploads/\(key)", body: image, contentType: "image/png")
        try #require(put.status == 200)
        var items: [RequestItem] = [.stringField(name: "file_key", value: key)]
        if let caption { items.append(.stringField(name: "caption", value: caption)) }
        let created = try await call(server, "POST", "/posts", items, token: token)
        try #require(created.status == 201)
        return try #require(created.json?["post"])
    }

    /// Follows `next_cursor` from the first page to the end: every item's id
    /// in order, and how many pages it took.
    func novaWalk(_ server: SandboxServer, _ path: String, key: String, limit: Int, token: String) async throws -> (ids: [String], pages: Int) {
        var ids: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            var items: [RequestItem] = [.query(name: "limit", value: String(limit))]
            if let cursor { items.append(.query(name: "cursor", value: cursor)) }
            let response = try await call(server, "GET", path, items, token: token)
            try #require(response.status == 200)
            guard case let .array(list)? = response.json?[key] else { Issue.record("no \(key) array"); break }
            #expect(list.count <= limit)
            ids += list.compactMap { $0["id"]?.stringValue }
            cursor = response.json?["next_cursor"]?.stringValue
            pages += 1
        } while cursor != nil && pages < 100
        return (ids, pages)
    }
}

/// A valid 1×1 PNG.
let novaPNG = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!)

/// Seeded ids (NovaSeed).
enum NovaIDs {
    static let alice = "8d3e7a52-4a1c-4c43-9a51-0c2f8b7d1a01"
    static let bob = "5b1f0c9e-2d47-4f6a-8e3b-7a9c4d2e6b02"
    static let bobsRamen = "b0a1c2d3-0003-4000-8000-000000000003"
    static let alicesFirst = "b0a1c2d3-0002-4000-8000-000000000002"
}

func nova(_ configuration: inout SandboxConfiguration) { configuration.profile = "nova" }

/// A clock that moves only when told (ManualClock also follows real time,
/// and five bcrypt checks take long enough to change a Retry-After).
final class NovaStoppedClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds = Date().timeIntervalSince1970.rounded(.down)
    func advance(_ by: Double) { lock.withLock { seconds += by } }
    var now: @Sendable () -> Double { { [self] in lock.withLock { seconds } } }
}
