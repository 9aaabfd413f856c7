import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A server that misbehaves on purpose (`Mode`). Blocking sockets on its own
/// thread, 127.0.0.1 and an ephemeral port; every read has a timeout and the
/// accept loop checks for `stop()` every 100 ms, so nothing here can hang a test.
final class SilentWebSocketServer: @unchecked Sendable {
    enum Mode {
        /// Completes the opening handshake, then never answers anything, pings
        /// included: a peer gone silent (a half-dead NAT, a hung backend).
        case webSocket
        /// Accepts the TCP connection and never says a word.
        case mute
        /// Answers the first bytes (whatever they are) with a plain HTTP 400.
        case plainHTTP
        /// Completes the handshake, accepting permessage-deflate when the
        /// client offers it, sends one text frame "Hello" (compressed, RFC
        /// 7692 section 7.2.3.1's bytes, when the extension was agreed), then
        /// goes silent.
        case helloDeflated
        /// Completes the handshake, waits for the client's first frame (so the
        /// client is past its upgrade and reading frames), sends these bytes
        /// (a broken frame), then reads the client's close frame, keeps its
        /// code (`closeCodes`) and answers it.
        case sends([UInt8])
        /// Completes the handshake, sends one text frame, closes with `code`
        /// at once and ends the connection: every time it is reached.
        case greetsAndCloses(code: UInt16)
    }

    let port: Int
    let mode: Mode
    private let listener: Int32
    private let lock = NSLock()
    private var clients: [Int32] = []
    private var accepted = 0
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    /// The codes of the close frames clients sent back (`.sends`), in order.
    var closeCodes: [Int] { lock.withLock { codes } }
    private var codes: [Int] = []

    /// Opening handshakes completed so far.
    var handshakes: Int { lock.withLock { accepted } }

    /// The Sec-WebSocket-Extensions header of each upgrade request ("" when absent).
    var offeredExtensions: [String] { lock.withLock { offers } }
    private var offers: [String] = []

    init(_ mode: Mode = .webSocket) throws {
        self.mode = mode
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketTimeout(description: "socket() failed") }
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
        guard bound else {
            close(fd)
            throw SocketTimeout(description: "could not listen on 127.0.0.1")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

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
            guard answer(client) else {
                close(client)
                continue
            }
            lock.withLock {
                clients.append(client)
                accepted += 1
            }
        }
    }

    private func answer(_ client: Int32) -> Bool {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        switch mode {
        case .webSocket: return handshake(client)
        case .helloDeflated:
            guard let agreed = handshake(client, acceptDeflate: true) else { return false }
            let frame: [UInt8] = agreed
                ? [0xC1, 0x07, 0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]  // FIN, RSV1, text; "Hello" deflated
                : [0x81, 0x05] + Array("Hello".utf8)
            return send(client, frame, frame.count, 0) == frame.count
        case let .sends(bytes):
            // The client's answer to a broken frame is waited for as long as
            // anything that should come at once (30 s): 5 s ran out on a busy machine.
            var patient = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &patient, socklen_t(MemoryLayout<timeval>.size))
            var pending: [UInt8] = []
            guard handshake(client), readFrame(client, &pending) != nil, send(client, bytes, bytes.count, 0) == bytes.count else { return false }
            while let (opcode, payload) = readFrame(client, &pending) {
                guard opcode == 0x8 else { continue }
                lock.withLock { codes.append(payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005) }
                // Answer the close and end the connection, as a server does (RFC 6455
                // §7.1.1): the client is done without waiting for its close timeout.
                let answer: [UInt8] = [0x88, UInt8(min(payload.count, 2))] + payload.prefix(2)
                _ = send(client, answer, answer.count, 0)
                shutdown(client, Int32(SHUT_RDWR))
                break
            }
            return true
        case let .greetsAndCloses(code):
            guard handshake(client) else { return false }
            let greeting: [UInt8] = [0x81, 0x0D] + Array(#"{"bye": true}"#.utf8)
            let close: [UInt8] = [0x88, 0x02, UInt8(code >> 8), UInt8(code & 0xFF)]
            _ = send(client, greeting + close, greeting.count + close.count, 0)
            var pending: [UInt8] = []
            _ = readFrame(client, &pending)
            shutdown(client, Int32(SHUT_RDWR))
            return true
        case .mute: return true
        case .plainHTTP:
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = recv(client, &buffer, buffer.count, 0)
            let bytes = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
            _ = send(client, bytes, bytes.count, 0)
            return false
        }
    }

    /// The next small frame the client sends (masked, as a client's frames
    /// are): its opcode and unmasked payload; nil if none comes in 5 s.
    /// `pending` keeps bytes read past it.
    private func readFrame(_ client: Int32, _ pending: inout [UInt8]) -> (opcode: UInt8, payload: [UInt8])? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if pending.count >= 2 {
                let length = Int(pending[1] & 0x7F)
                guard length < 126 else { return nil }
                if pending.count >= 6 + length {
                    let mask = Array(pending[2..<6])
                    let payload = pending[6..<(6 + length)].enumerated().map { $1 ^ mask[$0 % 4] }
                    let opcode = pending[0] & 0x0F
                    pending.removeFirst(6 + length)
                    return (opcode, payload)
                }
            }
            let n = recv(client, &buffer, buffer.count, 0)
            guard n > 0 else { return nil }
            pending += buffer[0..<n]
        }
    }

    private func handshake(_ client: Int32) -> Bool {
        handshake(client, acceptDeflate: false) != nil
    }

    /// Reads the upgrade request (5 s at most) and answers 101 with the right
    /// accept key; nil on failure, else whether permessage-deflate was agreed.
    private func handshake(_ client: Int32, acceptDeflate: Bool) -> Bool? {
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.ends(with: Array("\r\n\r\n".utf8)) {
            let n = recv(client, &buffer, buffer.count, 0)
            guard n > 0, request.count < 65536 else { return nil }
            request += buffer[0..<n]
        }
        let text = String(decoding: request, as: UTF8.self)
        func header(_ name: String) -> String? {
            text.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix(name + ":") })
                .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
        }
        guard let key = header("sec-websocket-key") else { return nil }
        let offered = header("sec-websocket-extensions") ?? ""
        lock.withLock { offers.append(offered) }
        let agreed = acceptDeflate && offered.contains("permessage-deflate")
        let digest = SHA1.hash(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))
        let answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(Data(digest).base64EncodedString())\r\n"
            + (agreed ? "Sec-WebSocket-Extensions: permessage-deflate\r\n" : "") + "\r\n"
        let bytes = Array(answer.utf8)
        guard send(client, bytes, bytes.count, 0) == bytes.count else { return nil }
        return agreed
    }

    /// Stops accepting and closes every connection (waits up to 5 s for the loop to end).
    func stop() {
        let open = lock.withLock { () -> [Int32] in
            stopped = true
            defer { clients = [] }
            return clients
        }
        open.forEach { close($0) }
        _ = done.wait(timeout: .now() + 5)
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}

/// SHA-1 (FIPS 180-4), only for the handshake's accept key, which RFC 6455 defines with it.
enum SHA1 {
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var data = message + [0x80]
        while data.count % 64 != 56 { data.append(0) }
        let bits = UInt64(message.count) * 8
        data += (0..<8).reversed().map { UInt8(truncatingIfNeeded: bits >> (UInt64($0) * 8)) }
        for chunk in stride(from: 0, to: data.count, by: 64) {
            var w = [UInt32](repeating: 0, count: 80)
            for i in 0..<16 {
                w[i] = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(data[chunk + i * 4 + $1]) }
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let t = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, t)
            }
            h[0] = h[0] &+ a
            h[1] = h[1] &+ b
            h[2] = h[2] &+ c
            h[3] = h[3] &+ d
            h[4] = h[4] &+ e
        }
        return h.flatMap { word in (0..<4).reversed().map { UInt8(truncatingIfNeeded: word >> (UInt32($0) * 8)) } }
    }
}
