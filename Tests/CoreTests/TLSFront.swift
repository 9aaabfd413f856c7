import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// TLS in front of a `LocalHTTPServer`, as a load balancer terminates it:
/// every connection's bytes, decrypted, go to the server behind it and its
/// answers back, so the scripts that misbehave over plain TCP misbehave
/// over TLS too. Its certificate is self-signed for `localhost` and
/// 127.0.0.1, made with openssl when the front starts (`authority` is its
/// PEM file, for `--verify`). 127.0.0.1 and an ephemeral port.
final class TLSFront: @unchecked Sendable {
    let port: Int
    /// The certificate the front shows, as a PEM file: the CA a client trusts.
    let authority: String
    private let channel: any Channel
    private let folder: URL

    init(for backend: LocalHTTPServer) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-front-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificate = folder.appendingPathComponent("server.pem").path
        let key = folder.appendingPathComponent("server-key.pem").path
        try Self.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                          "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=localhost",
                          "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
        authority = certificate
        let context = try NIOSSLContext(configuration: .makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))))
        let backendPort = backend.port
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { front in
                front.eventLoop.makeCompletedFuture {
                    try front.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try front.pipeline.syncOperations.addHandler(Relay(to: backendPort))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    /// `https://localhost:PORT`: the name the certificate holds.
    var baseURL: URL { URL(string: "https://localhost:\(port)")! }

    func stop() async {
        try? await channel.close()
        try? FileManager.default.removeItem(at: folder)
    }

    private static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw LocalHTTPServer.ServerError(description: "openssl failed") }
    }

    /// One front connection: opens its own to the backend and copies bytes
    /// both ways; when either side closes, so does the other (the front's
    /// close sends TLS's closing notice).
    private final class Relay: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer

        private let backendPort: Int
        private var backend: (any Channel)?
        private var waiting: [ByteBuffer] = []

        init(to backendPort: Int) { self.backendPort = backendPort }

        func channelActive(context: ChannelHandlerContext) {
            let front = context.channel
            ClientBootstrap(group: context.eventLoop)
                .channelInitializer { back in
                    back.eventLoop.makeCompletedFuture { try back.pipeline.syncOperations.addHandler(Back(front: front)) }
                }
                .connect(host: "127.0.0.1", port: backendPort)
                .assumeIsolatedUnsafeUnchecked()
                .whenComplete { [self] result in
                    switch result {
                    case let .success(back):
                        backend = back
                        for buffer in waiting { back.write(buffer, promise: nil) }
                        waiting = []
                        back.flush()
                    case .failure:
                        front.close(promise: nil)
                    }
                }
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = Self.unwrapInboundIn(data)
            if let backend { backend.writeAndFlush(buffer, promise: nil) } else { waiting.append(buffer) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            backend?.close(promise: nil)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }

    private final class Back: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        private let front: any Channel

        init(front: any Channel) { self.front = front }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            front.writeAndFlush(Self.unwrapInboundIn(data), promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            front.close(promise: nil)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
