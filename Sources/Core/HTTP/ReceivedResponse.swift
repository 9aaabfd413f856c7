import Foundation

/// What came back for one request.
public struct ReceivedResponse: Sendable, Equatable {
    public var status: Int
    public var reason: String
    /// The protocol the status line named (`HTTP/1.0` from an old server), shown as it came.
    public var version = "HTTP/1.1"
    /// Their Content-Type's charset says how the body's JSON is read.
    public var headers: [HTTPHeader] {
        didSet { parsed = ParsedJSON() }
    }
    /// The body, or when it is spooled (`spool`), its first `keptBytes`.
    public var body: [UInt8] {
        didSet { parsed = ParsedJSON() }
    }
    /// A body larger than `keptBytes`, on disk: `show`, `save` and the drift
    /// check read it there; a preview is made from `body`, its start.
    public var spool: SpooledBody? {
        didSet { parsed = ParsedJSON() }
    }
    /// A streamed answer (Server-Sent Events, JSON lines) longer than what
    /// is kept of one: `body` is its start; the rest was shown as it came.
    public var streamCut = false
    /// The body did not decode as its Content-Encoding says (a server that
    /// says gzip and sends plain text): kept as it came, `undecodedEncoding`.
    public var undecodable = false
    /// The body's compressed stream (gzip, deflate) ended before its end
    /// came: the coding; the body is what came of it, as curl shows it.
    public var cutEncoding: String?
    /// The body parsed once, on first use, for every reader of every copy.
    private var parsed = ParsedJSON()

    public init(status: Int, reason: String = "", headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    public static func == (a: ReceivedResponse, b: ReceivedResponse) -> Bool {
        a.status == b.status && a.reason == b.reason && a.headers == b.headers && a.body == b.body && a.spool === b.spool
    }

    /// Bodies larger than this are spooled to disk, this much of their start kept in memory.
    public static let keptBytes = 1 << 20
    /// The most of a spooled body read back into memory whole (for `show`,
    /// `capture`, a recording, the drift check); `save` copies any size.
    public static let wholeLimit = 64 << 20

    /// The body's size, spooled or not.
    public var bodySize: Int { spool?.size ?? body.count }

    /// Whether `wholeBody` and `json` read the whole body: it is in memory, or spooled and at most `wholeLimit`.
    public var isReadableWhole: Bool { (spool?.size ?? 0) <= Self.wholeLimit }

    /// The whole body: in memory, or read from its spool; nil when it is
    /// spooled and larger than `wholeLimit`.
    public var wholeBody: [UInt8]? {
        guard let spool else { return body }
        return spool.size <= Self.wholeLimit ? spool.bytes(0..<spool.size) : nil
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.hasName(name) }?.value
    }

    /// The media type without parameters, lower-cased (`application/json`).
    /// Read once, with `charset`: asked several times of every answer shown
    /// (binary? JSON? which charset?), each a search of the headers.
    public var mediaType: String? { contentType.mediaType }

    /// The Content-Type's `charset=`, unquoted (`iso-8859-1`); nil without one.
    public var charset: String? { contentType.charset }

    /// The charset a body shown as text is read in when it is not UTF-8:
    /// the Content-Type's, else `Charset.textDefault` for a `text/*` type.
    public var textCharset: String? {
        if let charset { return charset }
        return mediaType?.hasPrefix("text/") == true ? Charset.textDefault : nil
    }

    private var contentType: (mediaType: String?, charset: String?) {
        parsed.contentType {
            let value = header("Content-Type")
            return (value.map(Self.mediaType(of:)), value.flatMap(Self.charset(of:)))
        }
    }

    private static func mediaType(of value: String) -> String {
        // Over UTF-8.
        let bytes = value.utf8
        var type = bytes[..<(bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex)]
        while let first = type.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { type = type.dropFirst() }
        while let last = type.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { type = type.dropLast() }
        return String(decoding: type.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// `404 Not Found`, or `999` alone when the answer gave no reason a
    /// status line can show (it was `999 ` and `error: 999 `).
    public var statusAndReason: String {
        let reason = reason.trimmingBlanks()
        return reason.isEmpty ? String(status) : "\(status) \(reason)"
    }

    /// The `charset=` of a Content-Type value, unquoted; nil without one.
    /// Over UTF-8, as `mediaType`: asked before every answer's JSON is read
    /// (splitting Strings was 4% of a scripted GET's CPU).
    public static func charset(of value: String) -> String? {
        let semicolon = UInt8(ascii: ";"), equals = UInt8(ascii: "="), quote = UInt8(ascii: "\"")
        var rest = value.utf8[...]
        guard let first = rest.firstIndex(of: semicolon) else { return nil }
        rest = rest[rest.index(after: first)...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: semicolon) ?? rest.endIndex
            let parameter = rest[..<end]
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
            guard let middle = parameter.firstIndex(of: equals), middle != parameter.startIndex,
                  parameter.index(after: middle) != parameter.endIndex,
                  unpadded(parameter[..<middle]).elementsEqual("charset".utf8, by: { ($0 | 0x20) == $1 }) else { continue }
            var value = unpadded(parameter[parameter.index(after: middle)...])
            while value.first == quote { value = value.dropFirst() }
            while value.last == quote { value = value.dropLast() }
            return String(Substring(value))
        }
        return nil
    }

    /// Without the spaces and tabs at its ends.
    private static func unpadded(_ text: Substring.UTF8View) -> Substring.UTF8View {
        var text = text
        while let first = text.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { text = text.dropFirst() }
        while let last = text.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { text = text.dropLast() }
        return text
    }

    /// Whether the server says the body is JSON (`application/json`, `+json`).
    public var claimsJSON: Bool {
        guard let type = mediaType else { return false }
        return type == "application/json" || type.hasSuffix("+json")
    }

    /// Whether the server says the body is binary (`application/octet-stream`,
    /// an image, audio, video, a font, a PDF or an archive): it is shown and
    /// recorded as binary whatever its bytes, so random bytes that happen to
    /// be UTF-8 (or digits, which parse as JSON) are not text in one run and
    /// binary in the next. SVG (`image/svg+xml`) is text.
    public var claimsBinary: Bool {
        guard let type = mediaType else { return false }
        switch type {
        case "application/octet-stream", "application/pdf", "application/zip", "application/gzip": return true
        default:
            // Asked of every answer: no array made for the question.
            let top = type.utf8.prefix { $0 != UInt8(ascii: "/") }
            switch Substring(top) {
            case "image", "audio", "video", "font": return top.count < type.utf8.count && !type.hasSuffix("+xml")
            default: return false
            }
        }
    }

    /// A `Content-Encoding` the transport does not decode (it decodes gzip
    /// and deflate), such as `br`: the body is still encoded. Nil otherwise.
    public var undecodedEncoding: String? {
        guard let value = header("Content-Encoding")?.trimmingBlanks().lowercased(), !value.isEmpty else { return nil }
        if undecodable { return value }
        let codings = value.split(separator: ",").map { $0.trimmingBlanks() }
        return codings.allSatisfy { ["gzip", "x-gzip", "deflate", "identity"].contains($0) } ? nil : value
    }

    /// The body parsed as JSON, or nil when it is not JSON. Parsed once: the
    /// interpreter, the renderer, the auth session and a recording all ask.
    public var json: JSONValue? {
        guard let spool else { return try? parsed.whole(of: { jsonBytes }).get() }
        // Judged on its way to disk: a body that is not JSON is not read back.
        guard spool.jsonError == nil, spool.size <= Self.wholeLimit else { return nil }
        return try? parsed.whole(of: { spool.bytes(0..<spool.size) }).get()
    }

    /// The JSON an error envelope is read from: the whole body's when it is
    /// in memory, its start's when it is spooled (a 60 MB error page was
    /// read back and parsed whole, 500 MiB at the peak, to find its code).
    public var leadingJSON: JSONValue? {
        guard spool != nil else { return json }
        return try? jsonPreview(keep: Self.previewParseBytes).get().value
    }

    /// The body's JSON as far as a preview needs it: whole when the body is
    /// at most `keep` bytes or was parsed whole already, else the values that
    /// start in its first `keep` bytes (`complete` false), the rest checked
    /// but not kept, so a 20 MB answer shown cut is not built as a tree.
    /// The parse error when the body is not JSON.
    public func jsonPreview(keep: Int) -> Result<(value: JSONValue, complete: Bool), JSONParseError> {
        guard let spool else { return parsed.preview(of: { jsonBytes }, keep: keep) }
        if let error = spool.jsonError { return .failure(error) }
        return parsed.preview(ofStart: body, keep: keep)
    }

    /// The bytes the JSON parser reads: the body, in UTF-8 when its
    /// Content-Type names another charset and the bytes are not UTF-8 (a
    /// Latin-1 `José` was shown `Jos\u{FFFD}`, UTF-16 JSON was "not valid
    /// JSON"). UTF-8 without a NUL byte is read as UTF-8 whatever the label
    /// says, as the renderer reads text: JSON is UTF-8 (RFC 8259 defines no
    /// charset for it), and servers that write it often label it Latin-1.
    /// A UTF-8 byte order mark is passed over, as RFC 8259 lets a parser
    /// do (HTTPie and xh show such JSON). A spooled body is read as it is.
    private var jsonBytes: [UInt8] {
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(body.dropFirst(3)) }
        guard let charset, !Charset.isUTF8(charset), body.contains(0) || String(validating: body, as: UTF8.self) == nil,
              let text = Charset.decode(body, charset: charset) else { return body }
        return Array(text.utf8)
    }

    /// Whether the body is neither UTF-8 nor text in a charset its
    /// Content-Type names: read as UTF-8 all the same (JSON), the bytes
    /// that are not come out as U+FFFD. Of a spooled body, its start.
    public var readsWithReplacements: Bool {
        let bytes = spool == nil ? body[...] : JSONParser.wholeCharacters(body)
        if String(validating: bytes, as: UTF8.self) != nil { return false }
        if let charset, !Charset.isUTF8(charset), Charset.decode(Array(bytes), charset: charset) != nil { return false }
        return true
    }

    /// What a preview's parse keeps by default: more than a 256 KiB preview
    /// prints from it (pretty printing adds to the text).
    public static let previewParseBytes = 512 * 1024
}

/// A response body's JSON, kept after the first parse.
private final class ParsedJSON: @unchecked Sendable {
    private let lock = NSLock()
    /// The Content-Type's media type and charset, read once too; under a
    /// lock of their own, as a parse reads the charset.
    private var contentType: (mediaType: String?, charset: String?)?
    private let typeLock = NSLock()

    func contentType(of read: () -> (mediaType: String?, charset: String?)) -> (mediaType: String?, charset: String?) {
        typeLock.withLock {
            if let contentType { return contentType }
            let read = read()
            contentType = read
            return read
        }
    }

    private var parsed: Result<JSONValue, JSONParseError>?
    private var start: Result<(value: JSONValue, complete: Bool), JSONParseError>?
    /// Whether `start` was parsed from a spooled body's start, which fails when its first value is cut.
    private var startIsCut = false

    /// `body` is asked for only when there is no parse yet.
    func whole(of body: () -> [UInt8]) -> Result<JSONValue, JSONParseError> {
        lock.withLock {
            if let parsed { return parsed }
            // A body found not to be JSON by a preview's parse is not parsed again.
            if case let .failure(error)? = start, !startIsCut { parsed = .failure(error); return .failure(error) }
            let result = Result<JSONValue, JSONParseError> { () throws(JSONParseError) in try JSONParser.parse(body()) }
            parsed = result
            return result
        }
    }

    func preview(of body: () -> [UInt8], keep: Int) -> Result<(value: JSONValue, complete: Bool), JSONParseError> {
        lock.withLock {
            if let parsed { return parsed.map { ($0, true) } }
            if let start { return start }
            let body = body()
            guard body.count > keep else {
                let result = Result<JSONValue, JSONParseError> { () throws(JSONParseError) in try JSONParser.parse(body) }
                parsed = result
                return result.map { ($0, true) }
            }
            let result = Result<(value: JSONValue, complete: Bool), JSONParseError> { () throws(JSONParseError) in
                try JSONParser.parsePrefix(body, keep: keep)
            }
            start = result
            return result
        }
    }

    /// The preview of a spooled body, from its start; the whole is JSON
    /// (its check on the way to disk said so).
    func preview(ofStart bytes: [UInt8], keep: Int) -> Result<(value: JSONValue, complete: Bool), JSONParseError> {
        lock.withLock {
            if let start { return start }
            let result = Result<(value: JSONValue, complete: Bool), JSONParseError> { () throws(JSONParseError) in
                try JSONParser.parsePrefix(bytes, keep: keep, truncated: true)
            }
            start = result
            startIsCut = true
            return result
        }
    }
}
