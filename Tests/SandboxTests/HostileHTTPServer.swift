import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP server that misbehaves as real ones do: it answers before the
/// request is written, answers with bytes that are not HTTP, or drops the
/// connection mid-answer. Blocking sockets on 127.0.0.1 with an ephemeral
/// port; each connection gets `handle` on its own thread, reads time out
/// after 5 s, and `stop()` ends the accept loop within 100 ms.
final class HostileHTTPServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let handle: @Sendable (Int32) -> Void
    private let lock = NSLock()
    private var stopped = false
    private var connections = 0
    private let done = DispatchSemaphore(value: 0)

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var accepted: Int { lock.withLock { connections } }

    init(_ handle: @escaping @Sendable (Int32) -> Void) throws {
        self.handle = handle
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard fd >= 0, bound else {
            close(fd)
            throw SocketTimeout(description: "could not listen on 127.0.0.1")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptLoop() }.start()
    }

    private func acceptLoop() {
        defer {
            close(listener)
            done.signal()
        }
        while !lock.withLock({ stopped }) {
            var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            lock.withLock { connections += 1 }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let handle = self.handle
            Thread {
                handle(client)
                close(client)
            }.start()
        }
    }

    func stop() {
        lock.withLock { stopped = true }
        _ = done.wait(timeout: .now() + 5)
    }

    // MARK: Behaviours

    /// Reads up to `count` bytes (one recv).
    static func read(_ client: Int32, _ count: Int = 4096) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let n = recv(client, &buffer, count, 0)
        return n > 0 ? Array(buffer[0..<n]) : []
    }

    /// Reads until the end of a request head (or 5 s of silence, or 1 MiB).
    static func readHead(_ client: Int32) -> [UInt8] {
        var head: [UInt8] = []
        while head.count < 1 << 20 {
            let chunk = read(client)
            if chunk.isEmpty { break }
            head += chunk
            if String(decoding: head, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        return head
    }

    static func write(_ client: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads what the client sends until it closes or goes quiet, so that a
    /// close does not reset the connection under the answer.
    static func drain(_ client: Int32) {
        while !read(client, 65536).isEmpty {}
    }
}
