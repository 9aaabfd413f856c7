import Core
import Foundation
import Sandbox
import Testing

/// permessage-deflate (RFC 7692): the Core client offers it and reads
/// compressed frames; the sandbox agrees to it when offered.
@Suite struct WebSocketDeflateTests {
    func session(port: Int, _ transport: LiveTransport) -> AuthSession {
        AuthSession(profile: .linku, builder: RequestBuilder(baseURL: URL(string: "http://127.0.0.1:\(port)")!),
                    transport: transport, store: MemoryTokenStore())
    }

    @Test func theClientOffersDeflateAndReadsACompressedFrame() async throws {
        let server = try SilentWebSocketServer(.helloDeflated)
        defer { server.stop() }
        let transport = LiveTransport()
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
        let transport = LiveTransport()
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
            let offered = try await rawHTTP(port: server.port, upgradeRequest("/__sandbox/echo", extensions: "permessage-deflate; client_max_window_bits"),
                                            headOnly: true)
            #expect(offered.hasPrefix("HTTP/1.1 101"))
            #expect(offered.lowercased().contains("sec-websocket-extensions: permessage-deflate"))
            let plain = try await rawHTTP(port: server.port, upgradeRequest("/__sandbox/echo"), headOnly: true)
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
