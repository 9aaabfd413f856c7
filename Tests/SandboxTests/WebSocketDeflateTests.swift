import Core
import Foundation
import Sandbox
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// permessage-deflate (RFC 7692): the Core client offers it and reads
/// compressed frames; the sandbox agrees to it when offered.
@Suite struct WebSocketDeflateTests {
    func session(port: Int, _ transport: AsyncHTTPTransport) -> AuthSession {
        AuthSession(profile: .linku, builder: RequestBuilder(baseURL: URL(string: "http://127.0.0.1:\(port)")!),
                    transport: transport, store: MemoryTokenStore())
    }

    @Test func theClientOffersDeflateAndReadsACompressedFrame() async throws {
        let server = try SilentWebSocketServer(.helloDeflated)
        defer { server.stop() }
        let transport = AsyncHTTPTransport()
        var options = fastOptions()
        options.closeTimeout = .milliseconds(300)  // the server never answers the close frame
        let (socket, log) = try await openSocket(.url("ws://127.0.0.1:\(server.port)/"), session(port: server.port, transport), options)
        do {
            // The frame on the wire is RSV1 plus 7 deflated bytes; what arrives is the text.
            try await log.wait { $0 == .received(.text("Hello")) }
            #expect(server.offeredExtensions.count == 1)
            #expect(server.offeredExtensions.first?.contains("permessage-deflate") == true)
        } catch {
            Issue.record(error)
        }
        await socket.close()
        await transport.shutdown()
    }

    @Test func withDeflateOffNothingIsOffered() async throws {
        let server = try SilentWebSocketServer(.helloDeflated)
        defer { server.stop() }
        let transport = AsyncHTTPTransport()
        var options = fastOptions()
        options.closeTimeout = .milliseconds(300)
        options.deflate = false
        let (socket, log) = try await openSocket(.url("ws://127.0.0.1:\(server.port)/"), session(port: server.port, transport), options)
        do {
            try await log.wait { $0 == .received(.text("Hello")) }
            #expect(server.offeredExtensions == [""])
        } catch {
            Issue.record(error)
        }
        await socket.close()
        await transport.shutdown()
    }

    @Test func theSandboxAgreesToDeflateWhenOffered() async throws {
        try await withSandbox { server, _ in
            let offered = try upgradeAnswer(port: server.port, path: "/__sandbox/echo", extensions: "permessage-deflate; client_max_window_bits")
            #expect(offered.hasPrefix("HTTP/1.1 101"))
            #expect(offered.lowercased().contains("sec-websocket-extensions: permessage-deflate"))
            let plain = try upgradeAnswer(port: server.port, path: "/__sandbox/echo", extensions: nil)
            #expect(plain.hasPrefix("HTTP/1.1 101"))
            #expect(!plain.lowercased().contains("sec-websocket-extensions"))
        }
    }

    @Test func largeFramesGoBothWaysCompressedWithTheSandbox() async throws {
        try await withSandbox { server, http in
            let anyone = AuthSession(profile: .linku, builder: RequestBuilder(baseURL: server.baseURL), transport: http, store: MemoryTokenStore())
            let (socket, log) = try await openSocket(.url("/__sandbox/echo"), anyone)
            // Over the 256 bytes from which frames are compressed, and far
            // over the library's 16 KiB default for an inflated frame.
            let big = String(repeating: "compressible ", count: 100_000)
            try await socket.send(.text(big))
            try await log.wait(timeout: .seconds(30)) { $0 == .received(.text(big)) }
            await socket.close()
        }
    }
}

/// The sandbox's answer head to a WebSocket upgrade request sent over a plain
/// blocking socket (5 s timeouts), optionally offering `extensions`.
private func upgradeAnswer(port: Int, path: String, extensions: String?) throws -> String {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw SocketTimeout(description: "socket() failed") }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    guard connected else { throw SocketTimeout(description: "could not connect to 127.0.0.1:\(port)") }
    let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        + (extensions.map { "Sec-WebSocket-Extensions: \($0)\r\n" } ?? "") + "\r\n"
    let bytes = Array(request.utf8)
    guard send(fd, bytes, bytes.count, 0) == bytes.count else { throw SocketTimeout(description: "send failed") }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !String(decoding: answer, as: UTF8.self).contains("\r\n\r\n") {
        let n = recv(fd, &buffer, buffer.count, 0)
        guard n > 0 else { throw SocketTimeout(description: "no answer head from 127.0.0.1:\(port)") }
        answer += buffer[0..<n]
    }
    return String(decoding: answer, as: UTF8.self)
}
