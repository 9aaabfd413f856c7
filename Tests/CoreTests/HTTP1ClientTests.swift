import Foundation
import NIOConcurrencyHelpers
import NIOCore
import Testing
@testable import Core

/// The HTTP/1.1 client (`HTTP1Client`): that requests go out as the bytes
/// `-v` shows, and how it keeps, drops and ends connections, against
/// servers of our own (`LocalHTTPServer`).
/// Runs `body` with `transport`, shut down after it whatever happens.
func using(_ transport: LiveTransport, _ body: (LiveTransport) async throws -> Void) async throws {
    do {
        try await body(transport)
        await transport.shutdown()
    } catch {
        await transport.shutdown()
        throw error
    }
}

/// Answers `HTTP/1.1 000` to `GET /zero` and `200` with `body` to anything
/// else, on a kept-alive connection: a status under 100 stopped the process
/// inside async-http-client.
func answersZeroOr(_ body: String) -> @Sendable (LocalHTTPServer.Peer) -> Void {
    { peer in
        while let head = peer.readRequest() {
            if String(decoding: head, as: UTF8.self).hasPrefix("GET /zero ") {
                peer.write("HTTP/1.1 000 Zero\r\nContent-Length: 0\r\n\r\n")
            } else {
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            }
        }
    }
}

/// Answers the first request of each connection and drops the next one
/// unanswered, as a server whose idle timeout runs out as a request arrives.
func answersOnceThenDropsTheNext(_ peer: LocalHTTPServer.Peer) {
    guard peer.readRequest() != nil else { return }
    peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
    peer.readRequest()
}

@Suite struct HTTP1ClientTests {
    func transport() -> LiveTransport { LiveTransport() }

    func get(_ server: LocalHTTPServer, _ path: String = "/x", method: String = "GET", timeout: Duration? = nil) -> PreparedRequest {
        PreparedRequest(method: method, url: URL(string: "\(server.baseURL)\(path)")!, timeout: timeout)
    }

    /// The head on the wire is what `-v` shows (`PreparedRequest.wireHeaders`),
    /// byte for byte, in plain and over TLS: framing headers given by the
    /// user dropped, `Host` first when missing, `Content-Length` last, and
    /// only for methods that carry a body. (These were async-http-client's
    /// bytes until it went, but for `host`, which it wrote last in lower case.)
    @Test(arguments: [false, true]) func theHeadOnTheWireIsWhatVerboseShows(overTLS: Bool) async throws {
        let bodies: [(String, String, [HTTPHeader], String?)] = [
            ("GET", "/", [], nil),
            ("GET", "/empty-query?", [], nil),
            ("GET", "//double/x?y=1", [], nil),
            ("GET", "/a%20b/%C3%BC?q=1&r=%C3%A9", [HTTPHeader(name: "Accept", value: "*/*"), HTTPHeader(name: "X-Two", value: "a, b")], nil),
            ("HEAD", "/h", [], nil),
            ("DELETE", "/d", [HTTPHeader(name: "Transfer-Encoding", value: "chunked")], nil),
            ("OPTIONS", "/o", [], nil),
            ("POST", "/p", [HTTPHeader(name: "Content-Type", value: "application/json")], #"{"a":1}"#),
            ("POST", "/empty", [], nil),
            ("PATCH", "/p", [HTTPHeader(name: "content-length", value: "99")], "abc"),
            ("PUT", "/x", [HTTPHeader(name: "Host", value: "example.test"), HTTPHeader(name: "X-Tab", value: "a\tb")], "é"),
            ("DELETE", "/with-body", [], "gone"),
            ("PURGE", "/cache", [HTTPHeader(name: "Connection", value: "close")], nil),
            ("TRACE", "/t", [], nil),
        ]
        let server = try LocalHTTPServer(patience: 60) { peer in
            while let head = peer.readRequest() {
                peer.write(head.starts(with: Array("HEAD ".utf8)) ? "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n" : "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            }
        }
        defer { server.stop() }
        let front = overTLS ? try await TLSFront(for: server) : nil
        var shown: [String] = []
        try await using(transport()) { (transport) async throws in
            for (method, path, headers, body) in bodies {
                let url = try RequestBuilder(baseURL: front?.baseURL ?? server.baseURL).url(for: path)
                var request = PreparedRequest(method: method, url: url, headers: headers, body: body.map { Array($0.utf8) })
                request.tls = front.map { TLSOptions(verify: .authorities($0.authority)) }
                #expect(try await transport.send(request).status == 200)
                shown.append("\(method) \(request.target) HTTP/1.1\r\n" + request.wireHeaders.map { "\($0.name): \($0.value)\r\n" }.joined() + "\r\n")
            }
        }
        await front?.stop()
        let received = server.receivedHeads.map { String(decoding: $0, as: UTF8.self) }
        #expect(received == shown)
        let port = front?.port ?? server.port
        let host = overTLS ? "localhost:\(port)" : "127.0.0.1:\(port)"
        #expect(received.first == "GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        #expect(received[5] == "DELETE /d HTTP/1.1\r\nHost: \(host)\r\n\r\n", "a Transfer-Encoding given is not sent")
        #expect(received[8] == "POST /empty HTTP/1.1\r\nHost: \(host)\r\nContent-Length: 0\r\n\r\n")
        #expect(received[9] == "PATCH /p HTTP/1.1\r\nHost: \(host)\r\nContent-Length: 3\r\n\r\n", "the body's own length, not the one typed")
        #expect(received[10] == "PUT /x HTTP/1.1\r\nHost: example.test\r\nX-Tab: a\tb\r\nContent-Length: 2\r\n\r\n")
    }

    /// Requests one after another share one connection; a HEAD answer's
    /// Content-Length does not make the next answer wait for a body.
    /// Which answers stream, read from the type alone (its case, blanks and parameters aside).
    @Test func theStreamedTypesAreReadAsHTTPWritesThem() {
        for type in ["text/event-stream", "Text/Event-Stream; charset=utf-8", " application/x-ndjson ", "application/jsonl;q=1",
                     "APPLICATION/JSON-SEQ", "application/stream+json"] {
            #expect(StreamSink.streams(type), "\(type)")
        }
        for type in [nil, "", ";", "application/json", "application/jsonlx", "text/event-streams", "text/plain; x=text/event-stream"] {
            #expect(!StreamSink.streams(type), "\(type ?? "nil")")
        }
    }

    @Test func aKeptAliveConnectionCarriesTheNextRequests() async throws {
        let server = try LocalHTTPServer(patience: 60) { peer in
            while let head = peer.readRequest() {
                let isHead = String(decoding: head, as: UTF8.self).hasPrefix("HEAD ")
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n" + (isHead ? "" : "hello"))
            }
        }
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            let head = try await transport.send(get(server, method: "HEAD"))
            #expect(head.status == 200 && head.body.isEmpty)
            for _ in 0..<3 { #expect(try await transport.send(get(server)).body == Array("hello".utf8)) }
        }
        #expect(server.acceptedConnections == 1)
    }

    /// An answer that says `Connection: close`, or an HTTP/1.0 one, ends
    /// its connection; a request that says it does too. The next request
    /// opens another.
    @Test func anAnswerOrARequestThatSaysCloseEndsItsConnection() async throws {
        let server = try LocalHTTPServer { peer in
            guard let head = peer.readRequest() else { return }
            let text = String(decoding: head, as: UTF8.self)
            if text.hasPrefix("GET /old ") {
                peer.write("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok")
            } else if text.contains("Connection: close") {
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            } else {
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
            }
            // A server that keeps the socket open after saying close: the client must not wait for it.
            peer.drain()
        }
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            var asking = get(server)
            asking.headers = [HTTPHeader(name: "Connection", value: "close")]
            for request in [get(server), get(server, "/old"), asking, get(server)] {
                #expect(try await transport.send(request).body == Array("ok".utf8))
            }
        }
        #expect(server.acceptedConnections == 4)
    }

    /// A 101 to a request that asked for no upgrade is shown, and its
    /// connection, now in another protocol, is not used again: the next
    /// request waited on it until the server closed it.
    @Test func aConnectionSwitchedTo101IsNotReused() async throws {
        let server = try LocalHTTPServer(patience: 60) { peer in
            guard let head = peer.readRequest() else { return }
            if String(decoding: head, as: UTF8.self).hasPrefix("GET /switch ") {
                peer.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: something\r\nConnection: upgrade\r\n\r\n")
                return peer.drain()
            }
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        }
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            #expect(try await transport.send(get(server, "/switch")).status == 101)
            #expect(try await transport.send(get(server, timeout: .seconds(3))).status == 200)
            #expect(server.acceptedConnections == 2)
        }
    }

    /// A connection the server closed while it waited is not used again:
    /// the next request goes out on a new one and is answered.
    @Test func aConnectionClosedWhileIdleIsNotReused() async throws {
        let server = try LocalHTTPServer { peer in
            peer.readRequest()
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        }
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            for _ in 0..<3 {
                #expect(try await transport.send(get(server)).status == 200)
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        #expect(server.acceptedConnections == 3)
    }

    /// A kept-alive connection the server closes as the next request
    /// arrives (its idle timeout ran out then): an idempotent request goes
    /// again on a new connection and is answered; a POST is not sent twice,
    /// in a line that says why and what to do, unless it has an
    /// `Idempotency-Key` header.
    @Test func aRequestOnAConnectionClosedAsItArrivesGoesAgainOnlyIfIdempotent() async throws {
        let server = try LocalHTTPServer(answersOnceThenDropsTheNext)
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            #expect(try await transport.send(get(server)).status == 200)
            #expect(try await transport.send(get(server, method: "DELETE")).status == 200)
            #expect(server.receivedHeads.count == 3 && server.acceptedConnections == 2)
            let error = await #expect(throws: TransportError.self) { try await transport.send(get(server, method: "POST")) }
            #expect(error?.description == "request to 127.0.0.1:\(server.port) failed: the server closed its kept-alive connection "
                + "as the request went out on it; a POST is not sent twice unasked (the server may have acted on it): "
                + "send it again, or give it an Idempotency-Key header")
            #expect(server.receivedHeads.count == 4 && server.acceptedConnections == 2)
            #expect(try await transport.send(get(server)).status == 200)
            var keyed = get(server, method: "POST")
            keyed.headers = [HTTPHeader(name: "Idempotency-Key", value: "")]
            await #expect(throws: TransportError.self, "an empty key is none") { try await transport.send(keyed) }
            #expect(try await transport.send(get(server)).status == 200)
            keyed.headers = [HTTPHeader(name: "Idempotency-Key", value: "8e03978e")]
            #expect(try await transport.send(keyed).status == 200)
            #expect(server.receivedHeads.count == 9 && server.acceptedConnections == 5)
        }
    }

    /// A server that says how long it keeps an idle connection
    /// (`Keep-Alive: timeout=N`, as Node and Apache do) is not sent a
    /// request on one in its last second, when it may be closing it: with
    /// `timeout=1` every request goes on a new connection; with 30 they share one.
    @Test(arguments: [(1, 3), (30, 1)]) func theIdleTimeAServerAnnouncesIsKept(timeout: Int, connections: Int) async throws {
        let server = try LocalHTTPServer(patience: 60) { peer in
            while peer.readRequest() != nil {
                peer.write("HTTP/1.1 200 OK\r\nKeep-Alive: max=100, timeout=\(timeout)\r\nContent-Length: 2\r\n\r\nok")
            }
        }
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            for _ in 1...3 { #expect(try await transport.send(get(server, method: "POST")).status == 200) }
            #expect(server.acceptedConnections == connections)
        }
    }

    /// An answer no request asked for, sent to an idle connection (a 408 as
    /// a server gives up on it), ends that connection (NIO's decoder calls
    /// it unsolicited): the next request goes on a new one and gets its own
    /// answer, not the stray one.
    @Test func anAnswerToNoRequestEndsItsConnection() async throws {
        let server = try LocalHTTPServer(patience: 60) { peer in
            guard peer.readRequest() != nil else { return }
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst")
            peer.write("HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\n\r\n")
            while peer.readRequest() != nil { peer.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nlater") }
        }
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            #expect(try await transport.send(get(server)).body == Array("first".utf8))
            try await Task.sleep(for: .milliseconds(200))
            let next = try await transport.send(get(server))
            #expect(next.status == 200 && next.body == Array("first".utf8), "a new connection's first answer")
            #expect(server.acceptedConnections == 2)
        }
    }

    /// A streamed answer (the REPL's SSE and JSON lines) goes to its sink
    /// part by part as it comes, past the request's deadline, and is kept
    /// up to the limit; the REPL's requests now take this path, where a
    /// status under 100 is one line, not the end of the process (as it is
    /// inside async-http-client, which sent them before).
    @Test func aStreamGoesToItsSinkAsItComesAndPastTheDeadline() async throws {
        let server = try LocalHTTPServer { peer in
            guard let head = peer.readRequest() else { return }
            if String(decoding: head, as: UTF8.self).hasPrefix("GET /zero ") {
                return peer.write("HTTP/1.1 000 Zero\r\nContent-Length: 0\r\n\r\n")
            }
            peer.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
            for n in 1...3 {
                peer.write("data: \(n)\n\n")
                usleep(200_000)
            }
        }
        defer { server.stop() }
        let parts = NIOLockedValueBox<[String]>([])
        let heads = NIOLockedValueBox<[Int]>([])
        var request = get(server, "/events", timeout: .milliseconds(300))
        request.stream = StreamSink({ _, bytes in parts.withLockedValue { $0.append(String(decoding: bytes, as: UTF8.self)) } },
                                    head: { head in heads.withLockedValue { $0.append(head.status) } })
        try await using(transport()) { (transport) async throws in
            let answer = try await transport.send(request)
            #expect(answer.status == 200 && heads.withLockedValue { $0 } == [200])
            #expect(parts.withLockedValue { $0.joined() } == "data: 1\n\ndata: 2\n\ndata: 3\n\n")
            #expect(String(decoding: answer.body, as: UTF8.self) == "data: 1\n\ndata: 2\n\ndata: 3\n\n")
            var zero = get(server, "/zero")
            zero.stream = request.stream
            let error = await #expect(throws: TransportError.self) { try await transport.send(zero) }
            #expect(error?.kind == .badAnswer)
        }
    }

    /// An event stream in gzip (a proxy compressed it) goes to its sink
    /// decoded, part by part as it comes and past the deadline, as one
    /// uncompressed does; it was gathered whole and timed out.
    @Test func aGzippedStreamIsDecodedAsItComes() async throws {
        // Three events, each gzip-compressed and sync-flushed (Python's zlib), so each decodes on arrival.
        let parts: [[UInt8]] = [
            [31, 139, 8, 0, 0, 0, 0, 0, 0, 3, 74, 73, 44, 73, 180, 82, 48, 228, 226, 2, 0, 0, 0, 255, 255],
            [74, 1, 51, 140, 184, 184, 0, 0, 0, 0, 255, 255],
            [130, 48, 140, 185, 184, 0, 0, 0, 0, 255, 255, 3, 0, 160, 177, 115, 169, 27, 0, 0, 0],
        ]
        let server = try LocalHTTPServer { peer in
            guard peer.readRequest() != nil else { return }
            peer.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n")
            for part in parts {
                peer.write(part)
                usleep(200_000)
            }
        }
        defer { server.stop() }
        let received = NIOLockedValueBox<[String]>([])
        var request = get(server, "/events", timeout: .milliseconds(300))
        request.stream = StreamSink({ _, bytes in received.withLockedValue { $0.append(String(decoding: bytes, as: UTF8.self)) } })
        try await using(transport()) { (transport) async throws in
            let answer = try await transport.send(request)
            #expect(received.withLockedValue { $0 } == ["data: 1\n\n", "data: 2\n\n", "data: 3\n\n"])
            #expect(String(decoding: answer.body, as: UTF8.self) == "data: 1\n\ndata: 2\n\ndata: 3\n\n")
        }
    }

    /// A body that ends with its connection (no Content-Length) comes whole;
    /// an interim 100 before the answer is passed over.
    @Test func bodiesFramedByTheCloseAndInterimAnswersAreRead() async throws {
        let server = try LocalHTTPServer { peer in
            guard let head = peer.readRequest() else { return }
            if String(decoding: head, as: UTF8.self).hasPrefix("GET /eof ") {
                peer.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end")
            } else {
                peer.write("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 3\r\nConnection: close\r\n\r\nnew")
            }
        }
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            #expect(try await transport.send(get(server, "/eof")).body == Array("until the end".utf8))
            let created = try await transport.send(get(server, "/new", method: "POST"))
            #expect(created.status == 201 && created.body == Array("new".utf8))
        }
    }

    /// A server that reads the request and says nothing: the request's
    /// deadline ends it in one line, and the next request goes out.
    @Test func theDeadlineEndsASilentServerAndTheNextRequestGoesOut() async throws {
        let server = try LocalHTTPServer { peer in
            guard let head = peer.readRequest() else { return }
            if String(decoding: head, as: UTF8.self).hasPrefix("GET /silent ") {
                peer.drain()
            } else {
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            }
        }
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            let error = await #expect(throws: TransportError.self) {
                try await transport.send(get(server, "/silent", timeout: .milliseconds(300)))
            }
            #expect(error?.description == "127.0.0.1:\(server.port) did not answer in time: no complete answer within 0.3 s (--timeout changes it)")
            #expect(try await transport.send(get(server)).status == 200)
        }
    }

    /// While bytes move the deadline moves with them (HTTPie's --timeout is the longest the server may go
    /// quiet): an answer coming in parts for longer than it goes through; one that stops half-way is ended,
    /// and says so. Both ended at the deadline, the first "no complete answer".
    @Test func theDeadlineIsTheLongestSilence() async throws {
        let server = try LocalHTTPServer { peer in
            guard let head = peer.readRequest() else { return }
            if String(decoding: head, as: UTF8.self).hasPrefix("GET /slow ") {
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\n")
                for c in "abcdef" {
                    usleep(100_000)
                    peer.write(String(c))
                }
            } else {
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nab")
                peer.drain()
            }
        }
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            #expect(try await transport.send(get(server, "/slow", timeout: .milliseconds(400))).body == Array("abcdef".utf8))
            let error = await #expect(throws: TransportError.self) {
                try await transport.send(get(server, "/stall", timeout: .milliseconds(300)))
            }
            #expect(error?.description == "127.0.0.1:\(server.port) did not answer in time: it sent nothing more of its answer for 0.3 s (--timeout changes it)")
        }
    }

    /// A head that comes slowly, a byte at a time, is the server answering: it was ended at the deadline,
    /// "no complete answer", where HTTPie waits for it; one that stops half-way is ended, and says so.
    @Test func aHeadThatComesSlowlyIsNotCutAtTheDeadline() async throws {
        let server = try LocalHTTPServer { peer in
            guard let head = peer.readRequest() else { return }
            let answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Slow: yes\r\n\r\nok"
            if String(decoding: head, as: UTF8.self).hasPrefix("GET /drip ") {
                for c in answer {
                    usleep(30_000)
                    peer.write(String(c))
                }
            } else {
                peer.write(String(answer.prefix(20)))
                peer.drain()
            }
        }
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            #expect(try await transport.send(get(server, "/drip", timeout: .milliseconds(300))).body == Array("ok".utf8))
            let error = await #expect(throws: TransportError.self) {
                try await transport.send(get(server, "/stall", timeout: .milliseconds(300)))
            }
            #expect(error?.description == "127.0.0.1:\(server.port) did not answer in time: it sent nothing more of its answer for 0.3 s (--timeout changes it)")
        }
    }

    /// A server that reads a request's head, then its body `chunk` bytes at a time with `pause` µs between reads
    /// (its receive buffer `receiveBuffer` bytes when given) until `done` says, and answers with how much it read.
    static func slowReader(receiveBuffer: Int32? = nil, chunk: Int, pause: useconds_t, closes: Bool = false,
                           done: @escaping @Sendable (_ read: Int, _ elapsed: Duration) -> Bool) throws -> LocalHTTPServer {
        try LocalHTTPServer { peer in
            if var size = receiveBuffer { setsockopt(peer.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while head.suffix(4) != [13, 10, 13, 10] {
                guard recv(peer.fd, &byte, 1, 0) == 1 else { return }
                head.append(byte)
            }
            var buffer = [UInt8](repeating: 0, count: chunk)
            var read = 0
            let started = ContinuousClock.now
            while !done(read, ContinuousClock.now - started) {
                let n = recv(peer.fd, &buffer, buffer.count, 0)
                guard n > 0 else { return }
                read += n
                usleep(pause)
            }
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: \(String(read).count)\r\n" + (closes ? "Connection: close\r\n" : "") + "\r\n\(read)")
        }
    }

    /// An upload to a server that reads it slowly, for longer than the deadline, goes through: it failed at
    /// the deadline, blaming the server for not answering.
    @Test func anUploadReadSlowlyIsNotCutAtTheDeadline() async throws {
        let size = 40 << 20
        let server = try Self.slowReader(receiveBuffer: 64 << 10, chunk: 65536, pause: 4_000) { read, _ in read >= size }
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            let started = ContinuousClock.now
            var request = get(server, "/upload", method: "POST", timeout: .seconds(2))
            request.body = [UInt8](repeating: 0x61, count: size)
            let answer = try await transport.send(request)
            #expect(answer.body == Array(String(size).utf8))
            #expect(ContinuousClock.now - started > .seconds(2), "the upload took longer than the deadline")
        }
    }

    /// An upload the socket's buffers took at once and the server reads slowly: no part of it was taken for
    /// longer than the deadline, though the server read all the while, and the upload was said to stall. The
    /// server's acknowledgements say it reads; here it answers, having read for three times the deadline.
    @Test func anUploadTheBuffersHoldMovesOnAsTheServerReadsIt() async throws {
        let server = try Self.slowReader(chunk: 6_000, pause: 20_000, closes: true) { _, elapsed in elapsed >= .milliseconds(2_400) }
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            // Read 300 KB/s, the acknowledgements come every 0.3-0.4 s on loopback: the window opens a step at a time.
            var request = get(server, "/upload", method: "POST", timeout: .milliseconds(800))
            request.body = [UInt8](repeating: 0x61, count: 16 << 20)
            let answer = try await transport.send(request)
            #expect(answer.status == 200 && Int(String(decoding: answer.body, as: UTF8.self)) ?? 0 > 0)
        }
    }

    /// An upload the socket takes whole at once, which the server then reads slowly: it counted as sent, and
    /// the wait for the answer was cut, "it sent nothing more of its answer", while the server read on.
    @Test func anUploadTheSocketHoldsWholeMovesOnAsTheServerReadsIt() async throws {
        let size = 160 << 10
        let server = try Self.slowReader(receiveBuffer: 4096, chunk: 8192, pause: 40_000) { read, _ in read >= size }
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            var request = get(server, "/upload", method: "POST", timeout: .milliseconds(600))
            request.body = [UInt8](repeating: 0x61, count: size)
            let answer = try await transport.send(request)
            #expect(answer.body == Array(String(size).utf8))
        }
    }

    /// A server that closes its connection after a 401 without saying so: the refresh went out on that
    /// connection, dead by then, and failed ("closed the connection as /refresh went out") every time.
    @Test func aRefreshGoesOnAConnectionOfItsOwn() async throws {
        let server = try LocalHTTPServer { peer in
            while let (head, _) = peer.readRequest(keepingBody: true) {
                let text = String(decoding: head, as: UTF8.self)
                func json(_ status: String, _ body: String) {
                    peer.write("HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                }
                if text.hasPrefix("POST /login ") {
                    json("200 OK", #"{"access_token": "A1", "refresh_token": "R1"}"#)
                } else if text.hasPrefix("POST /refresh ") {
                    json("200 OK", #"{"access_token": "A2", "refresh_token": "R2"}"#)
                } else if text.contains("Bearer A2") {
                    json("200 OK", #"{"id": 1}"#)
                } else {
                    json("401 Unauthorized", #"{"error": "invalid_token"}"#)
                    return
                }
            }
        }
        defer { server.stop() }
        let file = try ProfileFile.parse("""
            explorer-profile: 1
            name: closer
            environments: {local: {base-url: "\(server.baseURL)"}}
            auth: {kind: login, login-path: /login, refresh-path: /refresh, whoami-path: /me}
            """, file: "closer.yaml")
        let builder = RequestBuilder(baseURL: server.baseURL)
        try await using(transport()) { (transport) async throws in
            let auth = AuthSession(profile: file.profile, builder: builder, transport: transport, store: MemoryTokenStore())
            _ = try await auth.login(email: "ann@example.com", password: "pw")
            let me = try await auth.send(builder.build(method: "GET", path: "/me", items: []))
            #expect(me.refreshed && me.response.status == 200, "\(me.response.status) \(String(describing: me.refreshRefusal))")
        }
    }

    /// Cancelling the request's task (Ctrl-C) ends it at once as cancelled.
    @Test func cancellingTheTaskEndsTheRequest() async throws {
        let server = try LocalHTTPServer { peer in
            peer.readRequest()
            peer.drain()
        }
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            let request = get(server)
            let waiting = Task { try await transport.send(request) }
            try await Task.sleep(for: .milliseconds(200))
            waiting.cancel()
            let result = await waiting.result
            #expect(throws: TransportError(kind: .cancelled, host: "127.0.0.1:\(server.port)", detail: "")) { try result.get() }
        }
    }

    /// An upload larger than the socket takes at once goes out whole, and
    /// its connection carries the next request; an answer that comes
    /// before the upload ends is read, and its connection is not used again.
    @Test func anUploadGoesOutWholeAndAnEarlyAnswerEndsItsConnection() async throws {
        let server = try LocalHTTPServer(patience: 60) { peer in
            while let head = peer.readRequest(keepingBody: true) {
                let text = String(decoding: head.head, as: UTF8.self)
                if text.hasPrefix("POST /refuse ") {
                    return peer.write("HTTP/1.1 413 Content Too Large\r\nContent-Length: 2\r\n\r\nno")
                }
                let sum = head.body.reduce(0) { ($0 &+ Int($1)) & 0xFFFF_FFFF }
                let answer = "\(head.body.count) \(sum)"
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: \(answer.utf8.count)\r\n\r\n\(answer)")
            }
        }
        defer { server.stop() }
        let body = (0..<(6 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let sum = body.reduce(0) { ($0 &+ Int($1)) & 0xFFFF_FFFF }
        try await using(transport()) { (transport) async throws in
            for _ in 0..<2 {
                let answer = try await transport.send(PreparedRequest(method: "PUT", url: URL(string: "\(server.baseURL)/up")!, body: body))
                #expect(String(decoding: answer.body, as: UTF8.self) == "\(body.count) \(sum)")
            }
            #expect(server.acceptedConnections == 1)
            let refused = try await transport.send(PreparedRequest(method: "POST", url: URL(string: "\(server.baseURL)/refuse")!,
                                                                   headers: [HTTPHeader(name: "Content-Type", value: "application/octet-stream")],
                                                                   body: Array(body.prefix(100 << 10))))
            #expect(refused.status == 413)
            #expect(try await transport.send(get(server)).status == 200)
            #expect(server.acceptedConnections == 2, "the refused upload's connection is not used again")
        }
    }

    /// A server that answered a large upload with a 413 after reading part of
    /// it, and kept the connection without reading the rest: the kernel had
    /// taken the whole upload, the connection went back to the pool, and the
    /// next request waited behind the unread body for its whole timeout.
    @Test func anErrorAnswerToALargeUploadEndsItsConnection() async throws {
        let server = try LocalHTTPServer(patience: 60) { peer in
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = recv(peer.fd, &buffer, buffer.count, 0)
            guard n > 0 else { return }
            if String(decoding: buffer[..<n], as: UTF8.self).hasPrefix("POST /early ") {
                peer.write("HTTP/1.1 413 Content Too Large\r\nContent-Length: 2\r\n\r\nno")
                Thread.sleep(forTimeInterval: 4)
                return
            }
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        }
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            let upload = PreparedRequest(method: "POST", url: URL(string: "\(server.baseURL)/early")!, body: [UInt8](repeating: 7, count: 2 << 20))
            #expect(try await transport.send(upload).status == 413)
            #expect(try await transport.send(get(server, timeout: .seconds(3))).status == 200)
            #expect(server.acceptedConnections == 2)
        }
    }

    /// Requests sent together each get their own connection and their own answer.
    @Test func requestsAtOnceEachGetTheirAnswer() async throws {
        let server = try LocalHTTPServer(patience: 60) { peer in
            while let head = peer.readRequest() {
                let path = String(decoding: head, as: UTF8.self).split(separator: " ")[1]
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: \(path.utf8.count)\r\n\r\n\(path)")
            }
        }
        defer { server.stop() }
        try await using(transport()) { (transport) async throws in
            let bodies = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<8 { group.addTask { String(decoding: try await transport.send(get(server, "/\(index)")).body, as: UTF8.self) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(bodies.sorted() == (0..<8).map { "/\($0)" })
        }
    }
}

/// `HTTP1Client` over TLS, through a `TLSFront` before servers of our own:
/// connections kept and checked as they were made, what only async-http-
/// client's path stopped the process on now one line, and TLS's own
/// failures worded as before.
@Suite struct HTTPSClientTests {
    func transport() -> LiveTransport { LiveTransport() }

    func get(_ front: TLSFront, _ path: String = "/x", method: String = "GET", verify: TLSOptions.Verify? = nil) -> PreparedRequest {
        var request = PreparedRequest(method: method, url: URL(string: "\(front.baseURL)\(path)")!)
        request.tls = TLSOptions(verify: verify ?? .authorities(front.authority))
        return request
    }

    /// One TLS connection carries request after request; a status under
    /// 100 over https is one line (async-http-client stopped the process).
    @Test func aTLSConnectionIsKeptAndAStatusUnder100IsOneLine() async throws {
        let server = try LocalHTTPServer(patience: 60, answersZeroOr("hello"))
        defer { server.stop() }
        let front = try await TLSFront(for: server)
        try await using(transport()) { (transport) async throws in
            for _ in 0..<3 { #expect(try await transport.send(get(front)).body == Array("hello".utf8)) }
            #expect(server.acceptedConnections == 1)
            let error = await #expect(throws: TransportError.self) { try await transport.send(get(front, "/zero")) }
            #expect(error?.description == "localhost:\(front.port) sent an answer that is not valid HTTP: "
                    + "its status code 0 is not one HTTP has (they run from 100)")
        }
        await front.stop()
    }

    /// A connection made without checks (`--verify no`) never carries a
    /// request that asked for them: that one makes its own connection, and
    /// the untrusted certificate fails it.
    @Test func aConnectionIsReusedOnlyUnderTheChecksItWasMadeWith() async throws {
        let server = try LocalHTTPServer(patience: 60, LocalHTTPServer.answersOK)
        defer { server.stop() }
        let front = try await TLSFront(for: server)
        try await using(transport()) { (transport) async throws in
            #expect(try await transport.send(get(front, verify: TLSOptions.Verify.none)).status == 200)
            let error = await #expect(throws: TransportError.self) { try await transport.send(get(front, verify: .system)) }
            #expect(error?.kind == .tls)
            #expect(error?.detail.hasPrefix("the server's certificate is not signed by a CA explorer trusts") == true, "\(String(describing: error))")
            #expect(try await transport.send(get(front)).status == 200)
            #expect(try await transport.send(get(front, verify: TLSOptions.Verify.none)).status == 200)
            #expect(server.acceptedConnections == 3, "one for --verify no, used twice; one refused; one for the CA file")
        }
        await front.stop()
    }

    /// A kept-alive TLS connection the server closes as the next request
    /// arrives: an idempotent request goes again and is answered.
    @Test func aStaleTLSConnectionIsRetriedForAnIdempotentRequest() async throws {
        let server = try LocalHTTPServer(answersOnceThenDropsTheNext)
        defer { server.stop() }
        let front = try await TLSFront(for: server)
        try await using(transport()) { (transport) async throws in
            #expect(try await transport.send(get(front)).status == 200)
            #expect(try await transport.send(get(front, method: "PUT")).status == 200)
            #expect(server.acceptedConnections == 2)
        }
        await front.stop()
    }

    /// A body that ends with the connection comes whole when TLS closes
    /// with its closing notice.
    @Test func aBodyEndedByACleanTLSCloseIsWhole() async throws {
        let server = try LocalHTTPServer { peer in
            guard peer.readRequest() != nil else { return }
            peer.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end")
        }
        defer { server.stop() }
        let front = try await TLSFront(for: server)
        try await using(transport()) { (transport) async throws in
            #expect(try await transport.send(get(front)).body == Array("until the end".utf8))
        }
        await front.stop()
    }

    /// A server that never answers the handshake: the request's deadline
    /// ends it, in a line that says the handshake did not finish (it was a
    /// fixed 10 s, whatever --timeout said). A plain HTTP server on an https
    /// URL: one line that says so.
    @Test func aSilentOrPlainServerOnAnHTTPSURLIsOneLine() async throws {
        let silent = try LocalHTTPServer { peer in peer.drain() }
        defer { silent.stop() }
        let plain = try LocalHTTPServer { peer in
            // What an HTTP server makes of a TLS hello: not a request line.
            peer.readSome()
            peer.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            peer.drain()
        }
        defer { plain.stop() }
        try await using(transport()) { (transport) async throws in
            let waited = await #expect(throws: TransportError.self) {
                try await transport.send(PreparedRequest(method: "GET", url: URL(string: "https://127.0.0.1:\(silent.port)/")!, timeout: .milliseconds(300)))
            }
            #expect(waited?.kind == .timeout)
            #expect(waited?.detail == "the TLS handshake did not finish within 0.3 s (is it an https server? --timeout changes it)")
            let refused = await #expect(throws: TransportError.self) {
                try await transport.send(PreparedRequest(method: "GET", url: URL(string: "https://127.0.0.1:\(plain.port)/")!))
            }
            #expect(refused?.kind == .tls)
            #expect(refused?.detail == "the server does not speak TLS on this port (try http://)")

        }
    }
}

/// `HTTP1Client` through an HTTP proxy's CONNECT tunnel (`ProxyTunnel`), the
/// proxy a `LocalHTTPServer` of our own: the request inside is the bytes it
/// is without a proxy, the tunnel is kept for the next request, and a proxy
/// that says no is one line that names it.
@Suite struct ProxyTunnelTests {
    /// A proxy that records each CONNECT head, answers it with `answer`,
    /// and on a 2xx tunnels to 127.0.0.1:`backend`.
    func proxy(to backend: Int, answer: String = "HTTP/1.1 200 Connection established\r\n\r\n") throws -> LocalHTTPServer {
        try LocalHTTPServer { peer in
            guard peer.readRequest() != nil else { return }
            peer.write(answer)
            if answer.hasPrefix("HTTP/1.1 2") { peer.relay(to: backend) }
        }
    }

    func transport(through proxy: LocalHTTPServer, user: String? = nil) -> LiveTransport {
        var options = LiveTransport.Options()
        let address = user.map { "http://\($0)@127.0.0.1:\(proxy.port)" } ?? "http://127.0.0.1:\(proxy.port)"
        options.proxies = ProxyRules(http: ProxyRules.Proxy(address), https: ProxyRules.Proxy(address))
        return LiveTransport(options: options)
    }

    /// A plain-http request goes to the proxy whole (`GET http://host/path`),
    /// as curl and HTTPie send it: it went through a CONNECT tunnel, which a
    /// proxy that tunnels only to port 443 (Squid's default) refused.
    @Test func aPlainHTTPRequestGoesToTheProxyWhole() async throws {
        let proxy = try LocalHTTPServer(patience: 60, LocalHTTPServer.answersOK)
        defer { proxy.stop() }
        try await using(transport(through: proxy, user: "me:s%40cret")) { (transport) async throws in
            for path in ["/a?b=1", "/c"] {
                let answer = try await transport.send(PreparedRequest(method: "GET", url: URL(string: "http://backend.test:8080\(path)")!))
                #expect(answer.body == Array("ok".utf8))
            }
        }
        let credentials = "Proxy-Authorization: Basic \(Data("me:s@cret".utf8).base64EncodedString())\r\n"
        #expect(proxy.receivedHeads.map { String(decoding: $0, as: UTF8.self) }
                == ["GET http://backend.test:8080/a?b=1 HTTP/1.1\r\nHost: backend.test:8080\r\n\(credentials)\r\n",
                    "GET http://backend.test:8080/c HTTP/1.1\r\nHost: backend.test:8080\r\n\(credentials)\r\n"])
    }

    /// An address in brackets: the proxy got a bare path (`GET /x`) it could not route.
    @Test func anIPv6HostGoesToTheProxyInBrackets() throws {
        let request = PreparedRequest(method: "GET", url: URL(string: "http://[::1]:8080/x?y=1")!)
        #expect(HTTP1Client.head(of: request, through: ProxyRules.Proxy("http://127.0.0.1:3128")).uri == "http://[::1]:8080/x?y=1")
        #expect(HTTP1Client.head(of: PreparedRequest(method: "GET", url: URL(string: "http://h/x")!), through: ProxyRules.Proxy("p:1")).uri == "http://h/x")
    }

    /// A 407 from a proxy a plain-http request went to whole is the proxy's:
    /// said as a tunnel's is, not shown as the backend's answer.
    @Test func aProxysOwn407IsSaidAsTheProxys() async throws {
        let proxy = try LocalHTTPServer { peer in
            guard peer.readRequest() != nil else { return }
            peer.write("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=x\r\nContent-Length: 0\r\n\r\n")
        }
        defer { proxy.stop() }
        try await using(transport(through: proxy, user: "me:wrong")) { (transport) async throws in
            let error = await #expect(throws: TransportError.self) {
                try await transport.send(PreparedRequest(method: "GET", url: URL(string: "http://backend.test:8080/x")!))
            }
            #expect(error?.description == "request to backend.test:8080 failed: the proxy http://127.0.0.1:\(proxy.port) (HTTP_PROXY/HTTPS_PROXY): "
                    + "it refused the credentials in its URL (407)")
        }
    }

    @Test func requestsGoThroughOneTunnelAsTheyWouldGoStraight() async throws {
        let backend = try LocalHTTPServer(patience: 60, answersZeroOr("ok"))
        defer { backend.stop() }
        let proxy = try proxy(to: backend.port)
        defer { proxy.stop() }
        let url = URL(string: "http://backend.test:\(backend.port)/a?b=1")!
        // A plain-http request asks for a tunnel as a socket's handshake does (`tunnelsThroughProxy`).
        func tunnelled(_ method: String, _ url: URL, body: [UInt8]? = nil) -> PreparedRequest {
            var request = PreparedRequest(method: method, url: url, body: body)
            request.tunnelsThroughProxy = true
            return request
        }
        try await using(transport(through: proxy, user: "me:s%40cret")) { (transport) async throws in
            for method in ["GET", "POST", "GET"] {
                let answer = try await transport.send(tunnelled(method, url, body: method == "POST" ? Array("{}".utf8) : nil))
                #expect(answer.body == Array("ok".utf8))
            }
            let error = await #expect(throws: TransportError.self) {
                try await transport.send(tunnelled("GET", URL(string: "http://backend.test:\(backend.port)/zero")!))
            }
            #expect(error?.kind == .badAnswer, "a status under 100 through a proxy is one line too")
        }
        let connects = proxy.receivedHeads.map { String(decoding: $0, as: UTF8.self) }
        #expect(connects == ["CONNECT backend.test:\(backend.port) HTTP/1.1\r\nHost: backend.test:\(backend.port)\r\n"
                             + "Proxy-Authorization: Basic \(Data("me:s@cret".utf8).base64EncodedString())\r\n\r\n"])
        #expect(backend.receivedHeads.first.map { String(decoding: $0, as: UTF8.self) }
                == "GET /a?b=1 HTTP/1.1\r\nHost: backend.test:\(backend.port)\r\n\r\n")
        #expect(backend.receivedHeads.count == 4)
    }

    @Test func httpsGoesThroughTheTunnel() async throws {
        let backend = try LocalHTTPServer(LocalHTTPServer.answersOK)
        defer { backend.stop() }
        let front = try await TLSFront(for: backend)
        let proxy = try proxy(to: front.port)
        defer { proxy.stop() }
        try await using(transport(through: proxy)) { (transport) async throws in
            var request = PreparedRequest(method: "GET", url: front.baseURL.appendingPathComponent("x"))
            request.tls = TLSOptions(verify: .authorities(front.authority))
            #expect(try await transport.send(request).body == Array("ok".utf8))
        }
        await front.stop()
        #expect(proxy.receivedHeads.map { String(decoding: $0, as: UTF8.self) }
                == ["CONNECT localhost:\(front.port) HTTP/1.1\r\nHost: localhost:\(front.port)\r\n\r\n"])
    }

    @Test(arguments: [
        ("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n",
         "it asks for credentials (407); give them in its URL, http://user:password@host:port"),
        ("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 5\r\n\r\nnope!", "it would not open a tunnel to backend.test:9: 502 Bad Gateway"),
        ("SSH-2.0-OpenSSH_9.2\r\n\r\n", "its answer to CONNECT is not HTTP"),
        ("", "it closed the connection before opening a tunnel"),
    ])
    func aProxyThatSaysNoIsOneLine(answer: String, said: String) async throws {
        try await refused(answer: answer, said: said)
    }

    /// A proxy that says nothing: the request's deadline names the tunnel.
    @Test func aSilentProxyIsOneLineAtTheDeadline() async throws {
        let proxy = try LocalHTTPServer { peer in
            peer.readRequest()
            peer.drain()
        }
        defer { proxy.stop() }
        try await using(transport(through: proxy)) { (transport) async throws in
            var request = PreparedRequest(method: "GET", url: URL(string: "http://backend.test:9/x")!, timeout: .milliseconds(300))
            request.tunnelsThroughProxy = true
            let error = await #expect(throws: TransportError.self) { try await transport.send(request) }
            #expect(error?.description == "backend.test:9 did not answer in time: the proxy http://127.0.0.1:\(proxy.port) "
                    + "did not open a tunnel within 0.3 s (--timeout changes it)")
        }
    }

    func refused(answer: String, said: String) async throws {
        let proxy = try proxy(to: 9, answer: answer)
        defer { proxy.stop() }
        try await using(transport(through: proxy)) { (transport) async throws in
            var request = PreparedRequest(method: "GET", url: URL(string: "http://backend.test:9/x")!)
            request.tunnelsThroughProxy = true
            let error = await #expect(throws: TransportError.self) { try await transport.send(request) }
            #expect(error?.description == "request to backend.test:9 failed: the proxy http://127.0.0.1:\(proxy.port) (HTTP_PROXY/HTTPS_PROXY): \(said)")
        }
    }
}
