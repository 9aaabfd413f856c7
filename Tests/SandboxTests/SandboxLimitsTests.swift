import Core
import Foundation
import Testing
@testable import Sandbox
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a raw client saw: whether all its bytes went out before it read,
/// what came back, and whether the server then closed the connection.
struct RawExchange {
    var sentAll: Bool
    var answers: String
    var closed: Bool
    var status: Int { parseRaw(answers).status }
    var body: JSONValue? { parseRaw(answers).body }
}

/// Writes each of `requests` whole before reading anything, as Python's
/// `requests` does with a body, on one connection: the first request's
/// answer is read (head, then Content-Length bytes) before the next is
/// written. Then reads until the server closes. Sends and reads give up
/// after 30 s (as `rawHTTP`), so a server that stops reading fails the test
/// rather than hanging it. The blocking calls run on a Dispatch thread.
func rawExchange(port: Int, _ requests: [[UInt8]]) async throws -> RawExchange {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try blockingRawExchange(port: port, requests) })
        }
    }
}

private func blockingRawExchange(port: Int, _ requests: [[UInt8]]) throws -> RawExchange {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw SocketTimeout(description: "socket() failed") }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw SocketTimeout(description: "connect() failed") }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    var sentAll = true
    var closed = false
    func read() -> Bool {
        let n = recv(fd, &buffer, buffer.count, 0)
        if n == 0 { closed = true }
        guard n > 0 else { return false }
        received += buffer[0..<n]
        return true
    }
    for (index, request) in requests.enumerated() {
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { break }
            sent += n
        }
        if sent < request.count { sentAll = false; break }
        guard index < requests.count - 1 else { break }
        // One whole answer before the next request.
        let before = received.count
        while true {
            let text = String(decoding: received[before...], as: UTF8.self)
            if let split = text.range(of: "\r\n\r\n") {
                let head = text[..<split.lowerBound].lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text[split.upperBound...].utf8.count >= length { break }
            }
            guard read() else { break }
        }
    }
    while read() {}
    return RawExchange(sentAll: sentAll, answers: String(decoding: received, as: UTF8.self), closed: closed)
}

/// Issue 11 #10: the sandbox answers a head or a body over its limits at
/// once, 431 or 413 in its envelope, reads what the client still sends and
/// closes, so no client is left waiting. The sandbox's tests only ever sent
/// bodies near the limits from a client that reads while it writes.
@Suite struct SandboxLimitsTests {
    static func head(_ method: String, _ path: String, _ headers: [String], bodyLength: Int? = nil) -> [UInt8] {
        Array(("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers.map { $0 + "\r\n" }.joined()
            + (bodyLength.map { "Content-Length: \($0)\r\n" } ?? "") + "\r\n").utf8)
    }

    @Test func aHeadOverTheLimitOnAFreshConnectionIs431AtOnce() async throws {
        try await withSandbox { server, _ in
            let answer = try await rawExchange(port: server.port, [Self.head("GET", "/api/banners", ["X-Big: " + String(repeating: "a", count: 90_000)])])
            #expect(answer.status == 431)
            #expect(answer.body?["error_code"] == .string("REQUEST_HEADERS_TOO_LARGE"))
            #expect(answer.body?["message"] == .string("the request line and headers are limited to 80 KiB"))
            #expect(answer.closed)
        }
    }

    @Test func aHeadOverTheLimitOnAReusedConnectionIs431() async throws {
        try await withSandbox { server, _ in
            let answer = try await rawExchange(port: server.port, [
                Self.head("GET", "/api/banners", []),
                Self.head("GET", "/api/banners", ["X-Big: " + String(repeating: "a", count: 90_000)]),
            ])
            #expect(answer.answers.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(answer.answers.contains("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
            #expect(answer.closed)
        }
    }

    @Test func aRequestThatIsNotHTTPIs400InTheEnvelope() async throws {
        try await withSandbox({ $0.profile = "nova" }) { server, _ in
            let answer = try await rawExchange(port: server.port, [Array("garbage\r\n\r\n".utf8)])
            #expect(answer.status == 400)
            #expect(answer.body == .object([("code", .string("BAD_REQUEST")), ("message", .string("the request is not valid HTTP/1.1"))]))
            #expect(answer.closed)
        }
    }

    /// The client writes all 8 MiB before reading, with `Connection: close`:
    /// the early 413 used to leave it blocked in its write.
    @Test func aLargeJSONBodyWithConnectionCloseIs413AndTheBodyIsRead() async throws {
        try await withSandbox { server, http in
            let token = try await http.login(server).access
            let body = Array(#"{"title":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 8 << 20) + Array(#""}"#.utf8)
            let request = Self.head("POST", "/api/tasks", ["Authorization: Bearer \(token)", "Content-Type: application/json", "Connection: close"],
                                    bodyLength: body.count) + body
            let answer = try await rawExchange(port: server.port, [request])
            #expect(answer.sentAll)
            #expect(answer.status == 413)
            #expect(answer.body?["error_code"] == .string("PAYLOAD_TOO_LARGE"))
            #expect(answer.closed)
        }
    }

    @Test func aLargeUploadWithConnectionCloseIs413AndTheBodyIsRead() async throws {
        try await withSandbox { server, http in
            let token = try await http.login(server).access
            let boundary = "b0undary"
            let body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n".utf8)
                + [0x89, 0x50, 0x4E, 0x47] + Array(repeating: 0, count: 10 << 20) + Array("\r\n--\(boundary)--\r\n".utf8)
            let request = Self.head("POST", "/api/upload/image", ["Authorization: Bearer \(token)", "Connection: close",
                                                                 "Content-Type: multipart/form-data; boundary=\(boundary)"], bodyLength: body.count) + body
            let answer = try await rawExchange(port: server.port, [request])
            #expect(answer.sentAll)
            #expect(answer.status == 413)
            #expect(answer.closed)
        }
    }

    /// On a kept-alive connection the rest of a refused body is read too,
    /// and the next request is answered.
    @Test func aLargeBodyOnAKeptAliveConnectionIs413AndTheNextRequestIsAnswered() async throws {
        try await withSandbox { server, http in
            let token = try await http.login(server).access
            let body = Array(repeating: UInt8(ascii: "x"), count: 6 << 20)
            let answer = try await rawExchange(port: server.port, [
                Self.head("POST", "/api/tasks", ["Authorization: Bearer \(token)", "Content-Type: application/json"], bodyLength: body.count) + body,
                Self.head("GET", "/api/banners", ["Connection: close"]),
            ])
            #expect(answer.sentAll)
            #expect(answer.answers.hasPrefix("HTTP/1.1 413 Payload Too Large\r\n"))
            #expect(answer.answers.contains("HTTP/1.1 200 OK\r\n"))
            #expect(answer.closed)
        }
    }
}
