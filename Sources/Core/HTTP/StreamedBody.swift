import NIOCore
import NIOHTTP1

/// Where a streamed answer's body goes as it arrives: Server-Sent Events
/// (`text/event-stream`) and JSON lines (`application/x-ndjson`,
/// `application/jsonl`), which may run for minutes or never end. A
/// request carries one when someone watches (the REPL); the transport then
/// hands it each part of such a body, and lifts the request's deadline once
/// the answer's head says it streams (Ctrl-C ends it, or the server).
public final class StreamSink: Sendable, Equatable {
    /// The answer's Content-Type and a part of its body.
    public let deliver: @Sendable (_ contentType: String, _ bytes: [UInt8]) -> Void
    /// A download (`--download`): every 2xx body is handed over, whatever its
    /// type, and not kept in memory, so its size has no limit; `head` hears
    /// the answer's status and headers first (the file's name may be there).
    public let takesEveryBody: Bool
    public let head: (@Sendable (StreamHead) -> Void)?
    /// Asked after each part is delivered: false ends the answer as Ctrl-C
    /// would (the reader of a script's output went away, and a stream that
    /// never ends would run unread for ever).
    public let goesOn: @Sendable () -> Bool

    /// `head` hears the status and headers of an answer that streams.
    public init(_ deliver: @escaping @Sendable (_ contentType: String, _ bytes: [UInt8]) -> Void,
                head: (@Sendable (StreamHead) -> Void)? = nil,
                goesOn: @escaping @Sendable () -> Bool = { true }) {
        self.deliver = deliver
        takesEveryBody = false
        self.head = head
        self.goesOn = goesOn
    }

    public init(download deliver: @escaping @Sendable (_ contentType: String, _ bytes: [UInt8]) -> Void,
                head: @escaping @Sendable (StreamHead) -> Void) {
        self.deliver = deliver
        takesEveryBody = true
        self.head = head
        goesOn = { true }
    }

    public static func == (a: StreamSink, b: StreamSink) -> Bool { a === b }

    /// Whether a Content-Type is one of the streamed kinds.
    public static func streams(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        // Asked of every answer a script gets: no array, no copy, unless the type is one of these lengths.
        let type = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }
        let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let start = type.firstIndex { !blank($0) } ?? type.endIndex
        let end = type.lastIndex { !blank($0) }.map { type.index(after: $0) } ?? start
        let trimmed = type[start..<end]
        guard streamedLengths.contains(trimmed.count) else { return false }
        return streamedTypes.contains(String(decoding: trimmed, as: UTF8.self).lowercased())
    }

    private static let streamedTypes: Set<String> = ["text/event-stream", "application/x-ndjson", "application/ndjson", "application/jsonl",
                                                     "application/x-jsonlines", "application/stream+json", "application/json-seq"]
    private static let streamedLengths = Set(streamedTypes.map(\.utf8.count))
}

extension StreamSink {
    /// What becomes of an answer with this head: a download (a 2xx to
    /// `--download`, not encoded), a stream handed over as it comes (a
    /// download, or a streamed Content-Type, not encoded or in gzip or
    /// deflate, decoded as it comes: `HTTP1Client`), or neither (the body
    /// gathered whole).
    func plan(for head: HTTPResponseHead) -> (streams: Bool, download: Bool) {
        // Most answers: gathered whole, decided by their type alone.
        guard takesEveryBody || StreamSink.streams(head.headers.first(name: "Content-Type")) else { return (false, false) }
        let encoding = head.headers.first(name: "Content-Encoding")
        let identity = encoding == nil || encoding?.lowercased() == "identity"
        let download = takesEveryBody && (200..<300).contains(Int(head.status.code)) && identity
        // A download writes the bytes as they came: only the REPL's rows decode them.
        let decodable = identity || (!takesEveryBody && encoding.flatMap(StreamDecoder.init(encoding:)) != nil)
        return (download || (StreamSink.streams(head.headers.first(name: "Content-Type")) && decodable), download)
    }

    /// Tells `head` of an answer that streams or downloads, as it asks.
    func announce(_ head: HTTPResponseHead, streams: Bool, download: Bool, sent: [HTTPHeader]) {
        guard download || streams && !takesEveryBody else { return }
        self.head?(StreamHead(status: Int(head.status.code), headers: head.headers.map { HTTPHeader(name: $0.name, value: $0.value) },
                              sentHeaders: sent))
    }
}

/// The head of an answer that streams, and the headers its request went
/// out with: the jar's cookies and the session's token are added after the
/// line was read, and a row that echoes them must not show them.
public struct StreamHead: Sendable {
    public let status: Int
    public let headers: [HTTPHeader]
    public let sentHeaders: [HTTPHeader]
}

/// A stream's start as it is kept: its first `limit` bytes (a
/// stream may never end; the rest was shown, not kept), and whether it ran past them.
struct StreamStart {
    let limit: Int
    private(set) var bytes: [UInt8] = []
    private(set) var cut = false

    init(limit: Int) { self.limit = limit }

    mutating func append(_ part: some Collection<UInt8>) {
        let room = limit - bytes.count
        if part.count > room { cut = true }
        if room > 0 { bytes += part.prefix(room) }
    }
}
