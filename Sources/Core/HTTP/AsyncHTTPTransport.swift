import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// `HTTPTransport` over async-http-client, with a connect timeout, a
/// per-request deadline and a cap on how much of a body is read.
public final class AsyncHTTPTransport: HTTPTransport {
    public struct Options: Sendable {
        public var connectTimeout: TimeAmount = .seconds(10)
        public var requestTimeout: TimeAmount = .seconds(30)
        /// Larger bodies are refused rather than filling memory.
        public var maximumBodyBytes = 64 * 1024 * 1024
        public init() {}
    }

    private let client: HTTPClient
    private let options: Options

    public init(options: Options = Options()) {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: options.connectTimeout, read: options.requestTimeout)
        // Like HTTPie: show redirects rather than follow them.
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        // By default the pool retries a refused connection with backoff until the
        // connect timeout (10 s of silence at the prompt); fail at once, like curl.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.options = options
    }

    /// Closes connections. Call once before the process exits.
    public func shutdown() async {
        try? await client.shutdown()
    }

    public func send(_ request: PreparedRequest) async throws(TransportError) -> ReceivedResponse {
        let host = request.hostHeader
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for header in request.headers {
            outgoing.headers.add(name: header.name, value: header.value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let response = try await client.execute(outgoing, timeout: options.requestTimeout)
            var buffer = try await response.body.collect(upTo: options.maximumBodyBytes)
            let body = buffer.readBytes(length: buffer.readableBytes) ?? []
            return ReceivedResponse(
                status: Int(response.status.code),
                reason: response.status.reasonPhrase,
                headers: response.headers.map { HTTPHeader(name: $0.name, value: $0.value) },
                body: body
            )
        } catch {
            throw Self.classify(error, host: host, limit: options.maximumBodyBytes)
        }
    }

    static func classify(_ error: any Error, host: String, limit: Int) -> TransportError {
        if error is CancellationError { return TransportError(kind: .cancelled, host: host, detail: "") }
        if let e = error as? HTTPClientError {
            switch e {
            case .cancelled: return TransportError(kind: .cancelled, host: host, detail: "")
            case .connectTimeout: return TransportError(kind: .timeout, host: host, detail: "connect timed out")
            case .readTimeout, .deadlineExceeded: return TransportError(kind: .timeout, host: host, detail: "no response before the deadline")
            case .remoteConnectionClosed: return TransportError(kind: .other, host: host, detail: "the server closed the connection before answering")
            default: break
            }
        }
        if let e = error as? NIOTooManyBytesError {
            _ = e
            return TransportError(kind: .tooLarge, host: host, detail: "body larger than \(limit / 1024 / 1024) MiB; stopped reading")
        }
        if let e = error as? IOError, e.errnoCode == ECONNREFUSED {
            return TransportError(kind: .connectionRefused, host: host, detail: "")
        }
        let text = String(describing: error)
        if text.contains("connectionRefused") || text.contains("Connection refused") || text.contains("ECONNREFUSED") {
            return TransportError(kind: .connectionRefused, host: host, detail: "")
        }
        if text.localizedCaseInsensitiveContains("ssl") || text.localizedCaseInsensitiveContains("tls") || text.contains("handshake") {
            return TransportError(kind: .tls, host: host, detail: text)
        }
        if text.contains("NXDOMAIN") || text.contains("unknownHost") || text.contains("resolve") || text.contains("getaddrinfo") {
            return TransportError(kind: .dns, host: host, detail: text)
        }
        if text.lowercased().contains("timeout") || text.contains("timedOut") {
            return TransportError(kind: .timeout, host: host, detail: text)
        }
        return TransportError(kind: .other, host: host, detail: text)
    }
}
