import Foundation
import NIOCore
import NIOHTTP1

/// Reads HTTP/1.x answers off a connection, as curl reads them, into the
/// parts NIO's own decoder hands on (`HTTPClientResponsePart`). NIO's
/// decoder (llhttp, strict) refused answers curl and HTTPie take: a bare LF
/// where CR LF belongs, a header folded onto the next line, two equal
/// Content-Lengths, a Content-Length beside `Transfer-Encoding: chunked`
/// (RFC 9112 6.3: the chunking wins); and it put the standard reason phrase
/// in place of the server's own (`200 Everything Fine` showed `200 OK`).
///
/// Framing follows RFC 9112 6.3: no body after a HEAD request nor for 204,
/// 304 and 1xx (which are dropped, but 101, which ends the reading);
/// chunked when the last Transfer-Encoding is; else the Content-Length;
/// else up to the close. It sits after the request encoder and sees each
/// request's head go out, to know which answers a HEAD.
final class ResponseDecoder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = HTTPClientResponsePart
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// Sent on when a read brought part of a head and no whole one: the
    /// server is answering, however slowly (`--timeout` is the longest it
    /// may go quiet; a head sent a byte every half second ran into it).
    struct HeadUnderway: Sendable {}

    /// Why an answer cannot be read, in the words a failed request shows.
    enum Malformed: Error, Equatable {
        case notAStatusLine
        case statusCode
        case headTooLarge
        case headerLine
        case contentLength
        /// Two Content-Lengths that differ: which one frames the body cannot be known.
        case contentLengths
        case chunkSize
        /// A chunk's data not followed by its line end: more came than its size said.
        case chunkOverrun
        /// Trailer fields after the last chunk past a head's size.
        case trailersTooLarge
        /// An answer while no request waits for one (a 408 to an idle connection).
        case unasked
        /// The connection closed inside an answer framed by its length or
        /// chunks: its status line (`201 Created`; nil inside the head), the
        /// body bytes that came, and the Content-Length (nil when chunked).
        case cutShort(status: String?, received: Int, expected: Int?)
        /// The same, by a reset (ECONNRESET) after the status line came: not
        /// a TLS server refusing plain HTTP, which resets before any answer.
        case resetShort(status: String, received: Int, expected: Int?)
        /// A reset inside an answer's head: its status line as it came.
        case resetInHead(statusLine: String)
    }

    /// Longest head read (status line and headers), as NIO's decoder allowed.
    static let maximumHeadBytes = 80 * 1024

    private enum State {
        /// Waiting for a status line and its headers.
        case head
        /// So many body bytes still to come.
        case length(Int)
        /// A chunked body: the size line of the next chunk is next.
        case chunkSize
        /// Inside a chunk: so many of its bytes still to come, then its CR LF.
        case chunkData(Int)
        /// After a chunk's data: the line end that closes it.
        case chunkEnd
        /// After the last chunk: the trailer fields, to the empty line.
        case trailers(HTTPHeaders, bytes: Int)
        /// A body that ends when the server closes the connection.
        case untilClose
        /// After a 101 or an error: nothing more is read.
        case done
    }

    private var state = State.head
    private var buffer: ByteBuffer?
    /// The methods of the requests sent and not yet answered, oldest first.
    private var methods: [HTTPMethod] = []
    /// The answer being read: its status line, the body bytes read so far
    /// and its Content-Length, for the error when it is cut short.
    private var answer: (status: HTTPResponseStatus, received: Int, expected: Int?)?

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case let .head(head) = unwrapOutboundIn(data) { methods.append(head.method) }
        context.write(data, promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if buffer == nil || buffer!.readableBytes == 0 {
            buffer = bytes
        } else {
            buffer!.writeBuffer(&bytes)
        }
        do {
            while try step(context: context) {}
        } catch {
            state = .done
            buffer = nil
            context.fireErrorCaught(error)
        }
        if let left = buffer, left.readableBytes == 0 { buffer = nil } else { buffer?.discardReadBytes() }
        if case .head = state, let left = buffer, left.readableBytes > 0 { context.fireUserInboundEventTriggered(HeadUnderway()) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        switch state {
        case .untilClose:
            // A body that runs to the close is whole now.
            state = .head
            context.fireChannelRead(wrapInboundOut(.end(nil)))
        case .head where (buffer?.readableBytes ?? 0) == 0, .done:
            // Between answers: the handler after this one says what a close means then.
            break
        case .head, .length, .chunkSize, .chunkData, .chunkEnd, .trailers:
            let inBody = if case .head = state { false } else { true }
            state = .done
            // Its status line in words only now: made for every answer, it was a cost of every request.
            let status = inBody ? answer.map { "\($0.status.code) \($0.status.reasonPhrase)" } : nil
            context.fireErrorCaught(Malformed.cutShort(status: status, received: answer?.received ?? 0, expected: answer?.expected))
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset inside an answer: said with its status and what came of it, as a close there is.
        if let io = error as? IOError, io.errnoCode == ECONNRESET {
            switch state {
            case .length, .chunkSize, .chunkData, .chunkEnd, .trailers, .untilClose:
                guard let answer else { break }
                state = .done
                return context.fireErrorCaught(Malformed.resetShort(status: "\(answer.status.code) \(answer.status.reasonPhrase)",
                                                                    received: answer.received, expected: answer.expected))
            case .head:
                // The head begun (`HTTP/1.1 200 OK` and part of its headers): an HTTP server's, not a TLS one's.
                if let bytes = buffer?.readableBytesView, bytes.starts(with: "HTTP/".utf8) {
                    state = .done
                    let line = bytes.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }.prefix(100)
                    return context.fireErrorCaught(Malformed.resetInHead(statusLine: String(decoding: line, as: UTF8.self)))
                }
            case .done:
                break
            }
        }
        context.fireErrorCaught(error)
    }

    /// Reads what the buffer holds of the current part; false when more bytes are needed.
    private func step(context: ChannelHandlerContext) throws(Malformed) -> Bool {
        guard var bytes = buffer, bytes.readableBytes > 0 || isEmptyEnd else { return false }
        defer { buffer = bytes }
        switch state {
        case .head:
            guard let head = try Self.head(from: &bytes) else { return false }
            return try begin(head, context: context)
        case let .length(left):
            let count = min(left, bytes.readableBytes)
            answer?.received += count
            if count > 0 { context.fireChannelRead(wrapInboundOut(.body(bytes.readSlice(length: count)!))) }
            if left - count == 0 {
                finish(context: context, trailers: nil)
            } else {
                state = .length(left - count)
            }
            return bytes.readableBytes > 0
        case .chunkSize:
            guard let line = try Self.line(from: &bytes, limit: 4096) else { return false }
            // Blanks around the size, not inside it (`1 0` was read as 0x10); leading zeros are no digits' worth.
            func blank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            let field = line.prefix { $0 != UInt8(ascii: ";") }.drop(while: blank)
            let trimmed = field.prefix { !blank($0) }
            guard field.dropFirst(trimmed.count).allSatisfy(blank) else { throw .chunkSize }
            var digits = trimmed.drop { $0 == UInt8(ascii: "0") }
            if digits.isEmpty, !trimmed.isEmpty { digits = trimmed.suffix(1) }
            // Hex digits only: `Int(_:radix:)` reads a sign, and a chunk of `-5` bytes stopped the process.
            guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
                  let size = Int(String(decoding: digits, as: UTF8.self), radix: 16) else {
                throw .chunkSize
            }
            state = size == 0 ? .trailers(HTTPHeaders(), bytes: 0) : .chunkData(size)
            return true
        case let .chunkData(left):
            let count = min(left, bytes.readableBytes)
            answer?.received += count
            context.fireChannelRead(wrapInboundOut(.body(bytes.readSlice(length: count)!)))
            state = left - count == 0 ? .chunkEnd : .chunkData(left - count)
            return bytes.readableBytes > 0
        case .chunkEnd:
            // CR LF or a bare LF, and nothing before it: a byte of more data is an overrun at once.
            let view = bytes.readableBytesView
            guard let first = view.first else { return false }
            let end: Int
            if first == UInt8(ascii: "\n") {
                end = 1
            } else if first == UInt8(ascii: "\r") {
                guard view.count >= 2 else { return false }
                guard view[view.startIndex + 1] == UInt8(ascii: "\n") else { throw .chunkOverrun }
                end = 2
            } else {
                throw .chunkOverrun
            }
            bytes.moveReaderIndex(forwardBy: end)
            state = .chunkSize
            return true
        case .trailers(var fields, let taken):
            guard let line = try Self.line(from: &bytes, limit: Self.maximumHeadBytes) else { return false }
            if line.isEmpty {
                finish(context: context, trailers: fields.isEmpty ? nil : fields)
                return bytes.readableBytes > 0
            }
            // The trailer section as a whole is held to a head's size: one that never ended grew without limit.
            guard taken + line.count <= Self.maximumHeadBytes else { throw .trailersTooLarge }
            if let (name, value) = Self.field(line) { fields.add(name: name, value: value) }
            state = .trailers(fields, bytes: taken + line.count + 2)
            return true
        case .untilClose:
            answer?.received += bytes.readableBytes
            context.fireChannelRead(wrapInboundOut(.body(bytes.readSlice(length: bytes.readableBytes)!)))
            return false
        case .done:
            bytes.moveReaderIndex(forwardBy: bytes.readableBytes)
            return false
        }
    }

    /// A Content-Length of 0 ends the body with no byte to read.
    private var isEmptyEnd: Bool {
        if case .length(0) = state { return true }
        return false
    }

    /// Hands on the head and works out how its body is framed; true when
    /// the buffer may hold more to read now.
    private func begin(_ head: HTTPResponseHead, context: ChannelHandlerContext) throws(Malformed) -> Bool {
        let code = head.status.code
        // 100 Continue, 103 Early Hints: a final answer follows.
        if (100..<200).contains(code), code != 101 { return true }
        guard !methods.isEmpty else { throw .unasked }
        let method = methods.removeFirst()
        answer = (status: head.status, received: 0, expected: nil)
        context.fireChannelRead(wrapInboundOut(.head(head)))
        if code == 101 {
            // The connection speaks another protocol now: nothing more is HTTP.
            context.fireChannelRead(wrapInboundOut(.end(nil)))
            state = .done
            return false
        }
        if method == .HEAD || code == 204 || code == 304 {
            finish(context: context, trailers: nil)
            return true
        }
        let codings = head.headers[canonicalForm: "Transfer-Encoding"]
        if let last = codings.last {
            // Chunked last: chunked, whatever Content-Length says (RFC 9112 6.3, 3); another coding last: to the close.
            state = last.lowercased() == "chunked" ? .chunkSize : .untilClose
            return true
        }
        let lengths = head.headers[canonicalForm: "Content-Length"]
        guard let first = lengths.first else {
            state = .untilClose
            return true
        }
        // `Content-Length: 12, 12` and two equal fields are one length (RFC 9110 8.6); others are a mistake.
        guard lengths.allSatisfy({ $0 == first }) else { throw .contentLengths }
        guard first.utf8.count <= 18, first.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let length = Int(first) else { throw .contentLength }
        state = .length(length)
        answer?.expected = length
        return true
    }

    private func finish(context: ChannelHandlerContext, trailers: HTTPHeaders?) {
        state = .head
        context.fireChannelRead(wrapInboundOut(.end(trailers)))
    }

    // MARK: Reading lines

    /// The next line, its CR LF (or bare LF) consumed; nil when no line end
    /// has come yet. A line longer than `limit` is an error.
    private static func line(from bytes: inout ByteBuffer, limit: Int) throws(Malformed) -> ArraySlice<UInt8>? {
        let view = bytes.readableBytesView
        guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
            if view.count > limit { throw limit == maximumHeadBytes ? .headTooLarge : .chunkSize }
            return nil
        }
        var line = Array(view[view.startIndex..<newline])[...]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        bytes.moveReaderIndex(forwardBy: newline - view.startIndex + 1)
        return line
    }

    /// A whole head: status line and headers to the empty line; nil while
    /// it has not all come (the buffer is then left as it was).
    static func head(from bytes: inout ByteBuffer) throws(Malformed) -> HTTPResponseHead? {
        // Not an HTTP answer at all (a server of another protocol): said at once, not at the close.
        let start = bytes.readableBytesView.drop { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }.prefix(5)
        if !Array("HTTP/".utf8).starts(with: start) { throw .notAStatusLine }
        var copy = bytes
        // Blank lines before a status line are skipped (RFC 9112 2.2), as after a body's stray CR LF.
        var statusLine: ArraySlice<UInt8>
        repeat {
            guard let line = try line(from: &copy, limit: maximumHeadBytes) else { return nil }
            statusLine = line
        } while statusLine.isEmpty
        var lines: [ArraySlice<UInt8>] = []
        var size = statusLine.count
        while true {
            guard let line = try line(from: &copy, limit: maximumHeadBytes) else {
                if size + copy.readableBytes > maximumHeadBytes { throw .headTooLarge }
                return nil
            }
            if line.isEmpty { break }
            size += line.count + 2
            if size > maximumHeadBytes { throw .headTooLarge }
            lines.append(line)
        }
        let (version, status) = try Self.status(statusLine)
        var headers = HTTPHeaders()
        var last: (name: String, value: String)?
        for line in lines {
            if line.first == UInt8(ascii: " ") || line.first == UInt8(ascii: "\t") {
                // A folded line continues the field before it (RFC 9112 5.2: replaced by a space).
                guard last != nil else { throw .headerLine }
                last!.value += " " + String(decoding: trimmed(line), as: UTF8.self)
                continue
            }
            if let field = last { headers.add(name: field.name, value: field.value) }
            guard let field = field(line) else { throw .headerLine }
            last = field
        }
        if let field = last { headers.add(name: field.name, value: field.value) }
        bytes = copy
        return HTTPResponseHead(version: version, status: status, headers: headers)
    }

    /// `HTTP/1.1 200 OK`: the version and the status, its reason phrase the server's own.
    private static func status(_ line: ArraySlice<UInt8>) throws(Malformed) -> (HTTPVersion, HTTPResponseStatus) {
        let prefix = Array("HTTP/".utf8)
        guard line.starts(with: prefix) else { throw .notAStatusLine }
        var rest = line.dropFirst(prefix.count)
        let versionText = rest.prefix { $0 != UInt8(ascii: " ") }
        rest = rest.dropFirst(versionText.count)
        let numbers = versionText.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard (1...2).contains(numbers.count), let major = Int(String(decoding: numbers[0], as: UTF8.self)),
              let minor = numbers.count == 2 ? Int(String(decoding: numbers[1], as: UTF8.self)) : 0,
              (0...9).contains(major), (0...9).contains(minor) else { throw .notAStatusLine }
        while rest.first == UInt8(ascii: " ") { rest = rest.dropFirst() }
        let digits = rest.prefix { $0 != UInt8(ascii: " ") }
        guard digits.count == 3, digits.allSatisfy({ (0x30...0x39).contains($0) }), let code = Int(String(decoding: digits, as: UTF8.self)) else {
            throw .statusCode
        }
        // A phrase that is not UTF-8 is ISO 8859-1 (`Très bien` was `Tr\u{FFFD}s bien`).
        let reason = text(trimmed(rest.dropFirst(3)))
        let standard = HTTPResponseStatus(statusCode: code)
        let status = standard.reasonPhrase == reason ? standard : .custom(code: UInt(code), reasonPhrase: reason)
        return (HTTPVersion(major: major, minor: minor), status)
    }

    /// `Name: value`, the value without the blanks around it; nil for a
    /// line that is not one (no colon, or a name that is not a token).
    private static func field(_ line: ArraySlice<UInt8>) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else { return nil }
        let name = line[..<colon]
        guard name.allSatisfy(isTokenByte) else { return nil }
        // A value that is not UTF-8 is ISO 8859-1, as the reason phrase is read (`caf\xe9` was `caf\u{FFFD}`; xh shows `café`).
        return (String(decoding: name, as: UTF8.self), text(trimmed(line[(colon + 1)...])))
    }

    /// Bytes of the head as text: UTF-8, else ISO 8859-1, as HTTP/1.1 first had it.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(validating: bytes, as: UTF8.self) ?? String(bytes.map { Character(Unicode.Scalar($0)) })
    }

    /// RFC 9110 5.6.2's tchar.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
        default: false
        }
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes = bytes.dropLast() }
        return bytes
    }
}
