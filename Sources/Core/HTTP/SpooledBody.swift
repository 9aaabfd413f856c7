import CompressNIO
import Foundation
import NIOCore
import NIOHTTP1

/// A body too large to keep in memory, on disk: a private file made in the
/// temporary folder and unlinked at once, so nobody else can open it and
/// it is gone when the last answer holding it is, or the process ends
/// however it ends. The answer keeps the first `ReceivedResponse.keptBytes`
/// in memory for its preview; `show`, `save` and the drift check read here.
public final class SpooledBody: Sendable {
    /// The whole body's size in bytes.
    public let size: Int
    /// Whether the whole body is JSON, judged as it arrived (`JSONChecker`):
    /// nil when it is, else the parser's first error.
    public let jsonError: JSONParseError?
    let file: SpoolFile
    private var descriptor: Int32 { file.descriptor }

    init(size: Int, jsonError: JSONParseError?, file: SpoolFile) {
        self.size = size
        self.jsonError = jsonError
        self.file = file
    }

    /// Bytes `range` of the body (fewer if the file is shorter).
    public func bytes(_ range: Range<Int>) -> [UInt8] {
        Self.read(descriptor, range)
    }

    /// Copies the whole body to an open file.
    public func copy(to output: Int32) throws(SpoolError) {
        var offset = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while offset < size {
            let got = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, min($0.count, size - offset), off_t(offset)) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw SpoolError(reason: got < 0 ? String(cString: strerror(errno)) : "the spooled body is shorter than it was") }
            try Self.writeAll(output, chunk[..<got])
            offset += got
        }
    }

    /// The characters in bytes `range` of a file, as `String.count` counts
    /// them, read a piece at a time: a minified body is one line, and an
    /// error at its end must not read it all into memory to say its column.
    static func characters(in descriptor: Int32, _ range: Range<Int>) -> Int {
        var count = 0
        var at = range.lowerBound
        var carried: [UInt8] = []
        while at < range.upperBound {
            let piece = carried + read(descriptor, at..<min(at + (1 << 20), range.upperBound))
            guard piece.count > carried.count else { break }
            at += piece.count - carried.count
            // Cut before an ASCII byte other than a line feed: no character spans that place.
            var cut = piece.endIndex
            if at < range.upperBound {
                while cut > piece.startIndex, piece[cut - 1] >= 0x80 || piece[cut - 1] == 0x0A { cut -= 1 }
                if cut > piece.startIndex { cut -= 1 }
            }
            count += String(decoding: piece[..<cut], as: UTF8.self).count
            carried = Array(piece[cut...])
        }
        return count + (carried.isEmpty ? 0 : String(decoding: carried, as: UTF8.self).count)
    }

    static func read(_ descriptor: Int32, _ range: Range<Int>) -> [UInt8] {
        guard !range.isEmpty else { return [] }
        var out = [UInt8](repeating: 0, count: range.count)
        var done = 0
        while done < range.count {
            let got = out.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, range.count - done, off_t(range.lowerBound + done)) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        return Array(out[..<done])
    }

    /// Writes all of `bytes` to an open file.
    public static func writeAll(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) throws(SpoolError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(SpoolError) in try writeAll(descriptor, raw) } }.get()
    }

    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SpoolError) {
        var done = 0
        while done < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if written < 0 {
                if errno == EINTR { continue }
                throw SpoolError(reason: String(cString: strerror(errno)))
            }
            done += written
        }
    }
}

/// The open, unlinked file under a spooled body; closed with its last holder.
final class SpoolFile: Sendable {
    let descriptor: Int32
    /// The temporary folder it is in, for a message.
    let folder: String

    /// A new file in `folder` (by default TMPDIR's, else /tmp), readable by this user only, unlinked at once.
    init(in chosen: String? = nil) throws(SpoolError) {
        let folder = chosen ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder.hasSuffix("/") ? folder : folder + "/").utf8CString.dropLast()) + Array("explorer-body.XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw SpoolError(reason: "cannot make a file in \(folder) (TMPDIR): \(String(cString: strerror(errno))); \(SpoolError.remedy)")
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
        self.folder = folder
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(SpoolError) {
        do { try SpooledBody.writeAll(descriptor, bytes) } catch {
            throw SpoolError(reason: "cannot write to a file in \(folder) (TMPDIR): \(error.reason); \(SpoolError.remedy)")
        }
    }

    deinit { close(descriptor) }
}

/// Why a body could not be kept on disk or read back.
public struct SpoolError: Error, Equatable, Sendable {
    /// What the user can do when no spool file can be made or written.
    static let remedy = "set TMPDIR to a writable folder with room"
    public let reason: String
}

/// A body as it arrives: decoded when its Content-Encoding is gzip or
/// deflate, kept in memory while it is at most `ReceivedResponse.keptBytes`,
/// then written to a `SpooledBody` with only its start kept, and checked
/// for JSON on the way. Memory is bounded by the start kept, whatever the
/// body's size. Used on the event loop by one request at a time.
struct BodyGatherer {
    enum Problem: Error {
        /// The body does not decode as its Content-Encoding says.
        case undecodable(encoding: String)
        case spool(SpoolError)
        /// The body decodes to more than `floor` bytes, and more than
        /// `BodyGatherer.bombRatio` times the `sent` bytes it came in.
        case bomb(encoding: String, sent: Int, floor: Int)
        /// The body ran past `limit` bytes, more than is kept on disk.
        case overLimit(Int)

        func transportError(host: String) -> TransportError {
            switch self {
            case let .undecodable(encoding): TransportError(kind: .badBody, host: host, detail: "it says Content-Encoding: \(encoding)")
            case let .bomb(encoding, sent, floor):
                TransportError(kind: .tooLarge, host: host, detail: "its \(encoding) body decodes to over \(Self.size(floor)), "
                               + "more than \(BodyGatherer.bombRatio) times the \((sent + 1023) / 1024) KiB sent (a compression bomb?); stopped there")
            case let .overLimit(limit):
                TransportError(kind: .tooLarge, host: host, detail: "its body runs past \(Self.size(limit)), more than explorer keeps; stopped there "
                               + "(--download saves a body of any size)")
            case let .spool(error): TransportError(kind: .other, host: host, detail: "its body is too large to keep in memory, and \(error.reason)")
            }
        }

        private static func size(_ bytes: Int) -> String { bytes >= 1 << 30 ? "\(bytes >> 30) GiB" : "\(bytes >> 20) MiB" }
    }

    private let keep: Int
    private var start: [UInt8] = []
    private var file: SpoolFile?
    /// Why no file could be made: the body is then kept in memory, as far
    /// as `ReceivedResponse.wholeLimit` (a missing or full TMPDIR failed
    /// every answer over 1 MiB).
    private var noFile: SpoolError?
    private var size = 0
    private var checker = JSONChecker()
    private var decoder: StreamDecoder?
    /// The bytes as they came while the decoder has made nothing of them: a
    /// body that says gzip and is not (a server's mistake) is kept as it came.
    private var raw: [UInt8]? = []
    /// The body did not decode as its Content-Encoding says: kept as it came.
    private(set) var undecodable = false
    /// The body decoded, but its compressed stream never came to its end (a gzip
    /// trailer cut off): the coding, and what came of it is all there is.
    private(set) var cutEncoding: String?

    /// Where spool files are made; nil: the temporary folder.
    private let folder: String?

    /// A decoded body past this size, and past `bombRatio` times what
    /// came on the wire, is stopped: 1 MiB of gzip can decode to 1 GiB of
    /// spool file, 10 MiB to 10 GiB, filling TMPDIR within the timeout.
    /// Usual JSON and text compress 5 to 50 times; zeros, 1000 times.
    static let bombFloor = 1 << 30
    static let bombRatio = 100
    /// The floor a test lowers.
    private let bombFloor: Int

    /// Most a body spooled takes on disk: an endless answer filled TMPDIR
    /// (10 GB in the 30 s of the default timeout over loopback; a tmpfs is
    /// memory). A larger one goes to a file with `--download`, which does
    /// not spool.
    static let spoolLimit = 2 << 30
    private let spoolLimit: Int

    /// `expected`: the Content-Length, when it is the body's (not encoded);
    /// `encoding`: the Content-Encoding.
    init(expected: Int?, encoding: String?, keep: Int = ReceivedResponse.keptBytes, folder: String? = nil, bombFloor: Int = Self.bombFloor,
         spoolLimit: Int = Self.spoolLimit) {
        self.keep = keep
        self.folder = folder
        self.bombFloor = bombFloor
        self.spoolLimit = spoolLimit
        decoder = encoding.flatMap(StreamDecoder.init(encoding:))
        if decoder == nil, let expected, expected > 0 { start.reserveCapacity(min(expected, keep)) }
    }

    /// For an answer's head; `reserves` false for a HEAD request's, whose Content-Length names a body that does not come.
    init(head: HTTPResponseHead, reserves: Bool) {
        self.init(expected: reserves ? head.headers.first(name: "Content-Length").flatMap { Int($0) } : nil,
                  encoding: head.headers.first(name: "Content-Encoding"))
    }

    mutating func append(_ part: ByteBuffer) throws(Problem) {
        guard var decoding = decoder else {
            try part.withUnsafeReadableBytes { bytes in Result { () throws(Problem) in try take(bytes) } }.get()
            return
        }
        if raw != nil {
            if raw!.count + part.readableBytes <= keep { raw! += part.readableBytesView } else { raw = nil }
        }
        var input = part
        var failure: Problem?
        // What has come on the wire with this part (the decoder cannot be asked inside its own call).
        let sent = decoding.consumed + input.readableBytes, encoding = decoding.encoding
        decoding.decode(&input) { bytes in
            guard failure == nil else { return }
            do throws(Problem) { try take(bytes) } catch { failure = error }
            if failure == nil, size > bombFloor, size / Self.bombRatio > sent {
                failure = .bomb(encoding: encoding, sent: sent, floor: bombFloor)
            }
        }
        decoder = decoding
        if let failure { throw failure }
        if decoding.failed {
            if try keepUndecoded() { return }
            throw .undecodable(encoding: decoding.encoding)
        }
        if !decoding.producedNothing { raw = nil }
    }

    /// A body none of which decoded: from now on taken as it comes, from its
    /// first byte (curl and HTTPie fail it; its status and headers were lost
    /// with it). False when more came than is kept to go back to.
    private mutating func keepUndecoded() throws(Problem) -> Bool {
        guard let decoder, decoder.producedNothing, let came = raw else { return false }
        self.decoder = nil
        raw = nil
        undecodable = true
        try came.withUnsafeBytes { bytes in Result { () throws(Problem) in try take(bytes) } }.get()
        return true
    }

    /// The body's start (all of it when it was small) and, when it was not, its spool.
    mutating func finish() throws(Problem) -> (start: [UInt8], spool: SpooledBody?) {
        // A stream that never came to its end: bytes that are none (nothing came out), or one cut short
        // (it was shown as if whole; xh says so, curl and HTTPie do not).
        if let decoder, decoder.consumed > 0, !decoder.streamEnded() {
            if decoder.producedNothing {
                guard try keepUndecoded() else { throw .undecodable(encoding: decoder.encoding) }
            } else {
                // What came of it is kept, and said to be cut, as curl shows it (it failed the line, status and headers lost).
                cutEncoding = decoder.encoding
            }
        }
        guard let file else { return (start, nil) }
        let error = checker.finish { SpooledBody.characters(in: file.descriptor, $0) }
        return (start, SpooledBody(size: size, jsonError: error, file: file))
    }

    private mutating func take(_ bytes: UnsafeRawBufferPointer) throws(Problem) {
        guard !bytes.isEmpty else { return }
        guard let file else {
            if start.count + bytes.count <= (noFile == nil ? keep : ReceivedResponse.wholeLimit) {
                start.append(contentsOf: bytes)
                size += bytes.count
                return
            }
            if let noFile { throw .spool(noFile) }
            // Past what is kept in memory: what came goes to disk, and from now on all of it.
            do {
                let made = try SpoolFile(in: folder)
                try start.withUnsafeBytes { raw in Result { () throws(SpoolError) in try made.write(raw) } }.get()
                self.file = made
            } catch {
                noFile = error
                try take(bytes)
                return
            }
            start.withUnsafeBytes { checker.feed($0) }
            try take(bytes)
            return
        }
        let room = keep - start.count
        if room > 0 { start.append(contentsOf: bytes.prefix(room)) }
        guard size + bytes.count <= spoolLimit else { throw .overLimit(spoolLimit) }
        do { try file.write(bytes) } catch { throw .spool(error) }
        checker.feed(bytes)
        size += bytes.count
    }
}

/// A body's Content-Encoding undone as the parts come: one coding, or a
/// list of them (`deflate, gzip`, applied in that order, so undone gzip
/// first), as curl and HTTPie undo them; `identity` in a list is no coding.
struct StreamDecoder {
    /// The codings, as a line that names them says them (`deflate, gzip`).
    let encoding: String
    /// One for each coding, in the order they are undone.
    private var stages: [OneDecoder]

    /// Nil when the value names no coding, or one that is not gzip or deflate.
    init?(encoding: String) {
        let codings = encoding.split(separator: ",").map { $0.trimmingBlanks().lowercased() }.filter { !$0.isEmpty && $0 != "identity" }
        var stages: [OneDecoder] = []
        for coding in codings.reversed() {
            guard let stage = OneDecoder(encoding: coding) else { return nil }
            stages.append(stage)
        }
        guard !stages.isEmpty else { return nil }
        self.stages = stages
        self.encoding = codings.joined(separator: ", ")
    }

    /// Bytes of the body as it came that were decoded.
    var consumed: Int { stages[0].consumed }
    /// No byte of the decoded body has come out yet.
    var producedNothing: Bool { stages[stages.count - 1].producedNothing }
    var failed: Bool { stages.contains(where: \.failed) }

    mutating func decode(_ input: inout ByteBuffer, into emit: (UnsafeRawBufferPointer) -> Void) {
        decode(&input, from: 0, into: emit)
    }

    private mutating func decode(_ input: inout ByteBuffer, from stage: Int, into emit: (UnsafeRawBufferPointer) -> Void) {
        guard stage < stages.count - 1 else { return stages[stage].decode(&input, into: emit) }
        var undone = ByteBuffer()
        stages[stage].decode(&input) { undone.writeBytes($0) }
        if undone.readableBytes > 0 { decode(&undone, from: stage + 1, into: emit) }
    }

    /// Whether every coding's stream came to its end.
    func streamEnded() -> Bool { stages.allSatisfy { $0.streamEnded() } }
}

/// gzip or deflate undone as the parts come. RFC 9110's deflate is
/// zlib-wrapped, but some servers send it raw: until the first byte comes
/// out, the input is kept so a raw stream can be tried instead.
private struct OneDecoder {
    let encoding: String
    private var decompressor: any NIODecompressor
    private var fallback: CompressionAlgorithm?
    private var held: ByteBuffer?
    private(set) var consumed = 0
    private(set) var producedNothing = true
    private(set) var failed = false
    private var ended = false
    /// The start of what may be another gzip member, cut by the end of a part.
    private var magicStart: [UInt8] = []
    private static let gzipMagic: [UInt8] = [0x1F, 0x8B]

    init?(encoding: String) {
        let name = encoding.trimmingBlanks().lowercased()
        switch name {
        case "gzip", "x-gzip": decompressor = CompressionAlgorithm.gzip().decompressor
        case "deflate":
            decompressor = CompressionAlgorithm.zlib().decompressor
            fallback = .deflate()
            held = ByteBuffer()
        default: return nil
        }
        self.encoding = name
        do { try decompressor.startStream() } catch { return nil }
    }

    mutating func decode(_ input: inout ByteBuffer, into emit: (UnsafeRawBufferPointer) -> Void) {
        guard !ended, !failed else { return }
        if !magicStart.isEmpty {
            var joined = ByteBuffer(bytes: magicStart)
            joined.writeImmutableBuffer(input)
            input = joined
            magicStart = []
        }
        consumed += input.readableBytes
        if producedNothing, held != nil { held!.writeImmutableBuffer(input) }
        var output = ByteBuffer()
        output.reserveCapacity(64 * 1024)
        while input.readableBytes > 0 {
            output.clear()
            var done = false
            do {
                try decompressor.streamInflate(from: &input, to: &output)
                // No error: the input is used up, or the compressed stream ended
                // before it. After a gzip member another may follow (RFC 1952
                // 2.2; curl and Python read them all); anything else after the
                // end is not the body.
                if input.readableBytes > 0, encoding != "deflate" {
                    if input.readableBytesView.starts(with: Self.gzipMagic) {
                        if output.readableBytes > 0 { flush(output, into: emit) }
                        output.clear()
                        guard (try? decompressor.resetStream()) != nil else { failed = true; return }
                        continue
                    }
                    if Self.gzipMagic.starts(with: input.readableBytesView) {
                        // The next member's first byte ends this part: wait for the next.
                        magicStart = Array(input.readableBytesView)
                        input.moveReaderIndex(forwardBy: input.readableBytes)
                    }
                }
                done = true
                if input.readableBytes > 0 { ended = true }
            } catch let error as CompressNIOError where error == .bufferOverflow {
                // The output is full: give it and go on.
            } catch let error as CompressNIOError where error == .inputBufferOverflow {
                done = true
            } catch {
                if producedNothing, let algorithm = fallback, var again = held {
                    fallback = nil
                    held = nil
                    decompressor = algorithm.decompressor
                    guard (try? decompressor.startStream()) != nil else { failed = true; return }
                    consumed -= again.readableBytes
                    decode(&again, into: emit)
                    return
                }
                failed = true
                return
            }
            if output.readableBytes > 0 { flush(output, into: emit) }
            if done { break }
        }
        if ended { try? decompressor.finishStream() }
    }

    private mutating func flush(_ output: ByteBuffer, into emit: (UnsafeRawBufferPointer) -> Void) {
        producedNothing = false
        held = nil
        output.withUnsafeReadableBytes(emit)
    }

    /// Whether the compressed stream came to its end (a gzip or zlib
    /// trailer): what tells a valid stream of nothing (20 bytes of gzip for
    /// an empty body) from bytes that are not one. zlib answers a stream
    /// that has ended, asked for more, with its end again; one that has not,
    /// with a wait for input.
    func streamEnded() -> Bool {
        if ended { return true }
        var nothing = ByteBufferAllocator().buffer(capacity: 16)
        var output = ByteBufferAllocator().buffer(capacity: 16)
        do {
            try decompressor.streamInflate(from: &nothing, to: &output)
            return output.readableBytes == 0
        } catch {
            return false
        }
    }
}
