import Foundation
import Testing
@testable import Core

/// The HTTP transport against servers that misbehave (`LocalHTTPServer`):
/// whatever a server does, a request ends in an answer or in one
/// `TransportError` line, and the next request goes out as usual.
@Suite struct TransportTests {
    func request(_ server: LocalHTTPServer, _ method: String = "GET", _ path: String = "/",
                 headers: [HTTPHeader] = [], body: [UInt8]? = nil) -> PreparedRequest {
        PreparedRequest(method: method, url: server.baseURL.appendingPathComponent(path), headers: headers, body: body)
    }

    func withTransport<T>(_ server: LocalHTTPServer, _ body: (AsyncHTTPTransport) async throws -> T) async throws -> T {
        let transport = AsyncHTTPTransport()
        defer { server.stop() }
        do {
            let result = try await body(transport)
            await transport.shutdown()
            return result
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    /// Issue 11 #6: a 70 KiB head with a body, on a kept-alive connection,
    /// killed the process inside async-http-client. It is now refused before
    /// anything is sent, and the connection goes on serving.
    @Test func aHeadOverTheLimitIsRefusedUnsentAndTheNextRequestGoesOut() async throws {
        let server = try LocalHTTPServer(LocalHTTPServer.answersOK)
        try await withTransport(server) { (transport) async throws in
            #expect(try await transport.send(request(server)).status == 200)
            let big = request(server, "POST", "/tasks", headers: [HTTPHeader(name: "X-Big", value: String(repeating: "a", count: 70 * 1024))],
                              body: Array(#"{"title":"x"}"#.utf8))
            let error = await #expect(throws: TransportError.self) { try await transport.send(big) }
            #expect(error?.kind == .notSent)
            #expect(error?.description == "request to 127.0.0.1:\(server.port) not sent: its request line and headers take 70.1 KiB, more than the 63 KiB explorer sends")
            #expect(try await transport.send(request(server, "POST", "/tasks", body: [1])).status == 200)
            // Only the two small requests reached the server.
            #expect(server.receivedHeads.count == 3 - 1)
        }
    }

    /// Heads up to the limit go out, on a kept-alive connection, with a body.
    @Test func aHeadJustUnderTheLimitIsSent() async throws {
        let server = try LocalHTTPServer(LocalHTTPServer.answersOK)
        try await withTransport(server) { (transport) async throws in
            #expect(try await transport.send(request(server)).status == 200)
            var near = request(server, "POST", "/tasks", headers: [HTTPHeader(name: "X-Big", value: "")], body: Array("{}".utf8))
            near.headers[0].value = String(repeating: "a", count: AsyncHTTPTransport.Options().maximumHeadBytes - near.headByteCount)
            #expect(near.headByteCount == AsyncHTTPTransport.Options().maximumHeadBytes)
            #expect(try await transport.send(near).status == 200)
        }
    }

    /// `headByteCount` is what the client writes: the limit is checked against the real head.
    @Test func theHeadCountIsTheBytesOnTheWire() async throws {
        let server = try LocalHTTPServer(LocalHTTPServer.answersOK)
        let requests = [
            request(server),
            request(server, "POST", "/a b/ü?q=1&r=é", headers: [HTTPHeader(name: "X-One", value: "1"), HTTPHeader(name: "Accept", value: "*/*")],
                    body: Array("hello".utf8)),
            request(server, "PUT", "/x", headers: [HTTPHeader(name: "Host", value: "example.test"), HTTPHeader(name: "Content-Length", value: "99")],
                    body: Array("abc".utf8)),
            request(server, "POST", "/empty"),
            request(server, "DELETE", "/gone", headers: [HTTPHeader(name: "Transfer-Encoding", value: "chunked")]),
        ]
        try await withTransport(server) { (transport) async throws in
            for request in requests { _ = try await transport.send(request) }
        }
        #expect(server.receivedHeads.map(\.count) == requests.map(\.headByteCount))
    }

    /// A server that answers once it has the head, without reading the body
    /// (an early 413, as a proxy does for a body it will not take), while a
    /// large body is still going out: the answer is shown, every time.
    @Test func anAnswerBeforeTheBodyIsReadIsShown() async throws {
        let server = try LocalHTTPServer { peer in
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]), recv(peer.fd, &byte, 1, 0) == 1 { head.append(byte) }
            peer.write("HTTP/1.1 413 Content Too Large\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno")
            peer.drain()
        }
        try await withTransport(server) { (transport) async throws in
            let headers = [HTTPHeader(name: "X-Big", value: String(repeating: "a", count: 60 * 1024))]
            for _ in 0..<3 {
                let answer = try await transport.send(request(server, "POST", "/upload", headers: headers, body: Array(repeating: 1, count: 8 << 20)))
                #expect(answer.status == 413)
                #expect(answer.body == Array("no".utf8))
            }
        }
    }

    /// A server that speaks first, before any request: whatever the timing,
    /// each request ends in the answer or in one plain line, and the process lives.
    @Test func anAnswerBeforeAnyRequestEndsInAnAnswerOrOneLine() async throws {
        let server = try LocalHTTPServer { peer in
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
            peer.drain()
        }
        try await withTransport(server) { (transport) async throws in
            for size in [0, 60 * 1024, 8 << 20] {
                do {
                    let answer = try await transport.send(request(server, "POST", "/upload", body: Array(repeating: 1, count: size)))
                    #expect(answer.status == 200)
                } catch {
                    #expect("\(error)" == "request to 127.0.0.1:\(server.port) failed: the server closed the connection before answering")
                }
            }
        }
    }
}
