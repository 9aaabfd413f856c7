import Core
import Foundation
import Testing
@testable import Sandbox

/// Shorthands the LinkU contract suites share: request items, logins for
/// the demo accounts, the error envelope, multipart uploads.
func field(_ name: String, _ value: String) -> RequestItem { .stringField(name: name, value: value) }
func raw(_ name: String, _ json: String) -> RequestItem { .jsonField(name: name, value: try! JSONParser.parse(json)) }
func query(_ name: String, _ value: String) -> RequestItem { .query(name: name, value: value) }

extension LiveTransport {
    func alice(_ server: SandboxServer) async throws -> String { try await login(server).access }
    func bob(_ server: SandboxServer) async throws -> String { try await login(server, "bob@example.com", "bob12345").access }

    /// POSTs `bytes` as a multipart file part, the way `name@file;type=…` does.
    func upload(_ server: SandboxServer, _ bytes: [UInt8], to path: String = "/api/upload/image", field: String = "file",
                filename: String = "photo.png", type: String = "image/png", token: String?) async throws -> ReceivedResponse {
        let builder = RequestBuilder(baseURL: server.baseURL, readFile: { _ in bytes })
        var request = try builder.build(method: "POST", path: path, items: [.file(name: field, path: filename, contentType: type)])
        if let token { request.setHeader("Authorization", "Bearer \(token)") }
        return try await send(request)
    }

    /// GET of an absolute URL the sandbox handed out (an uploaded image).
    func fetch(_ url: String) async throws -> ReceivedResponse {
        try await send(PreparedRequest(method: "GET", url: try #require(URL(string: url))))
    }
}

/// Checks a LinkU error envelope: status, `error_code`, and `status_code` agreeing with the status line.
func expectError(_ response: ReceivedResponse, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.status == status, sourceLocation: sourceLocation)
    #expect(response.json?["error"] == .bool(true), sourceLocation: sourceLocation)
    #expect(response.json?["error_code"] == .string(code), sourceLocation: sourceLocation)
    #expect(response.json?["status_code"]?.intValue == status, sourceLocation: sourceLocation)
}

/// A tiny valid PNG (2×1 pixels).
let pngBytes = [UInt8](Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGNgqPoPRAAIWALzMctc4QAAAABJRU5ErkJggg==")!)

/// A clock that stands still until a test moves it, so durations the
/// sandbox reports (retry_after) are exact however slowly the tests run.
final class FrozenClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Double
    init(_ iso8601: String) { seconds = ISO8601DateFormatter().date(from: iso8601)!.timeIntervalSince1970 }
    func advance(_ delta: Double) { lock.withLock { seconds += delta } }
    var now: @Sendable () -> Double { { [self] in lock.withLock { seconds } } }
}

/// Lines the sandbox logged, for reading the verification codes it "sent".
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var sink: @Sendable (String) -> Void { { [self] line in lock.withLock { lines.append(line) } } }
    var all: [String] { lock.withLock { lines } }
}

extension JSONValue {
    /// The `id`s of an array of objects.
    var ids: [Int] {
        guard case let .array(items) = self else { return [] }
        return items.compactMap { $0["id"]?.intValue }
    }
}
