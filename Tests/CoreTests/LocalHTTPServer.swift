import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP server that does whatever its `script` says with each connection,
/// however wrong: answer before reading, answer garbage, close mid-answer.
/// For the transport's behaviour with servers nobody here wrote. Blocking
/// sockets, one thread per connection, 127.0.0.1 and an ephemeral port; every
/// read times out after 5 s and the accept loop checks for `stop()` every
/// 100 ms, so nothing here can hang a test.
final class LocalHTTPServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let script: @Sendable (Peer) -> Void
    private let lock = NSLock()
    private var stopped = false
    private var peers: [Int32] = []
    private var heads: [[UInt8]] = []
    private let done = DispatchSemaphore(value: 0)

    private var accepted = 0

    /// Every request head read so far, as bytes, blank line included.
    var receivedHeads: [[UInt8]] { lock.withLock { heads } }

    /// How many connections clients have opened so far.
    var acceptedConnections: Int { lock.withLock { accepted } }

    /// One accepted connection, as the script sees it.
    struct Peer {
        let fd: Int32
        fileprivate let server: LocalHTTPServer

        /// Reads one request head (up to and including the blank line) and the
        /// body its Content-Length announces; nil when the client closed.
        @discardableResult
        func readRequest() -> [UInt8]? { readRequest(keepingBody: false)?.head }

        /// `readRequest()`, with the body kept when `keepingBody`.
        func readRequest(keepingBody: Bool) -> (head: [UInt8], body: [UInt8])? {
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.ends(with: [13, 10, 13, 10]) {
                guard recv(fd, &byte, 1, 0) == 1 else { return nil }
                head.append(byte)
            }
            server.lock.withLock { server.heads.append(head) }
            var body: [UInt8] = []
            let text = String(decoding: head, as: UTF8.self).lowercased()
            if let line = text.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
               var remaining = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) {
                var buffer = [UInt8](repeating: 0, count: 65536)
                while remaining > 0 {
                    let n = recv(fd, &buffer, min(buffer.count, remaining), 0)
                    guard n > 0 else { return nil }
                    if keepingBody { body += buffer[..<n] }
                    remaining -= n
                }
            }
            return (head, body)
        }

        /// Reads whatever has come, up to 64 KiB, however it is framed.
        func readSome() {
            var buffer = [UInt8](repeating: 0, count: 65536)
            _ = recv(fd, &buffer, buffer.count, 0)
        }

        func write(_ text: String) { write(Array(text.utf8)) }

        func write(_ bytes: [UInt8]) {
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, noSignal) }
                guard n > 0 else { return }
                sent += n
            }
        }

        /// Connects to 127.0.0.1:`port` and copies bytes both ways until
        /// either side closes: a proxy's tunnel, once it has said 200.
        func relay(to port: Int) {
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else {
                close(upstream)
                return
            }
            @Sendable func copy(_ from: Int32, _ to: Int32) {
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = recv(from, &buffer, buffer.count, 0)
                    guard n > 0 else { break }
                    guard buffer[..<n].withUnsafeBytes({ send(to, $0.baseAddress, n, noSignal) }) == n else { break }
                }
                shutdown(to, Int32(SHUT_WR))
            }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(upstream, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let backDone = DispatchSemaphore(value: 0)
            Thread {
                copy(upstream, fd)
                backDone.signal()
            }.start()
            copy(fd, upstream)
            // The other way ends when the backend closes (or after 5 s of silence).
            _ = backDone.wait(timeout: .now() + 6)
            close(upstream)
        }

        /// Reads and drops whatever comes until the client closes (or 5 s of silence).
        func drain() {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while recv(fd, &buffer, buffer.count, 0) > 0 {}
        }
    }

    /// `200 OK` with a two-byte body to every request, on a kept-alive connection.
    static let answersOK: @Sendable (Peer) -> Void = { peer in
        while peer.readRequest() != nil {
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        }
    }

    /// How long a read waits before the script sees the client as gone (5 s).
    private let patience: Int

    /// `patience`: seconds a read waits. Longer for tests that count on
    /// kept-alive connections: on a loaded machine a test paused for 5 s
    /// between requests, the server closed the connection as the next
    /// request went out on it, and a POST (rightly not sent twice) failed.
    init(patience: Int = 5, _ script: @escaping @Sendable (Peer) -> Void) throws {
        self.patience = patience
        self.script = script
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError(description: "socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw ServerError(description: "could not listen on 127.0.0.1")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptLoop() }.start()
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func acceptLoop() {
        defer {
            close(listener)
            done.signal()
        }
        while !isStopped {
            var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            var timeout = timeval(tv_sec: patience, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            lock.withLock {
                peers.append(client)
                accepted += 1
            }
            Thread { [self] in
                script(Peer(fd: client, server: self))
                // Closed here only if `stop()` has not closed it already.
                let mine = lock.withLock { () -> Bool in
                    guard let index = peers.firstIndex(of: client) else { return false }
                    peers.remove(at: index)
                    return true
                }
                if mine { close(client) }
            }.start()
        }
    }

    /// Stops accepting and closes every connection (waits up to 5 s for the loop to end).
    func stop() {
        let open = lock.withLock { () -> [Int32] in
            stopped = true
            defer { peers = [] }
            return peers
        }
        open.forEach { shutdown($0, Int32(SHUT_RDWR)); close($0) }
        _ = done.wait(timeout: .now() + 5)
    }

    struct ServerError: Error, CustomStringConvertible {
        let description: String
    }
}

#if os(Linux)
private let noSignal = Int32(MSG_NOSIGNAL)
#else
private let noSignal: Int32 = 0
#endif

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix) }
}
