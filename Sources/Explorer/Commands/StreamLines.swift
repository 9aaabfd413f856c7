import Core
import Foundation

/// A streamed answer cut into what is shown as it comes: each line of JSON
/// lines, each event of Server-Sent Events (its data lines joined, its
/// name when not `message`, comments and ids left out). Parts arrive on the
/// event loop; each finished line or event goes to `post` at once.
final class StreamLines: @unchecked Sendable {
    private let lock = NSLock()
    /// The line begun and not ended yet: its first `lineLimit` bytes, and how
    /// many it had in all when it ran past them (the rest is not kept).
    private var pending: [UInt8] = []
    private var pendingLength = 0
    static let lineLimit = 16 << 20
    private var event: (name: String?, data: [String]) = (nil, [])
    /// An event stream's last part ended with a CR, which may be the start of a CR LF.
    private var lineFeedMayFollow = false
    /// How many bytes of a byte order mark the stream has begun with; nil past it, or once it has none.
    private var markMatched: Int? = 0
    private static let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private var isEvents = false
    private(set) var count = 0
    private let post: @Sendable (String) -> Void
    /// The answer as it came, for `show` after Ctrl-C stopped it (its first 64 MiB).
    private var head: (status: Int, headers: [HTTPHeader])?
    private var received: [UInt8] = []
    static let kept = 64 << 20

    init(post: @escaping @Sendable (String) -> Void) { self.post = post }

    var shown: Int { lock.withLock { count } }

    /// Whether the request was shown above the rows (`-v`): not again under them.
    private var requestWasShown = false
    var requestShown: Bool { lock.withLock { requestWasShown } }
    func shownRequest() { lock.withLock { requestWasShown = true } }

    /// Values no row may show (`hidden` has them): the credentials the
    /// request went with and the cookies the answer sets, learned at its head.
    private var hidden: [String] = []
    /// The charset the head names (`application/x-ndjson; charset=gbk`): a line whose bytes are not UTF-8 is read in it.
    private var charset: String?

    func begin(status: Int, headers: [HTTPHeader], hiding secrets: [String] = []) {
        lock.withLock {
            head = (status, headers)
            hidden = secrets
            charset = ReceivedResponse(status: status, headers: headers, body: []).charset
        }
    }

    /// What came of an answer stopped half-way, as an answer.
    var partial: ReceivedResponse? {
        lock.withLock { head.map { ReceivedResponse(status: $0.status, headers: $0.headers, body: received) } }
    }

    func feed(contentType: String, _ bytes: [UInt8]) {
        let lines: [String] = lock.withLock {
            isEvents = contentType.lowercased().hasPrefix("text/event-stream")
            if received.count < Self.kept { received += bytes.prefix(Self.kept - received.count) }
            // Each byte looked at once: a line that came in many parts was searched from its start again
            // at each part (a 4 MiB line took 5 s, 8 MiB 19 s), and each line ended moved the rest.
            var out: [String] = []
            var start = bytes.startIndex
            // A byte order mark first is no text (the spec of event streams drops it): the first line was lost
            // with it. Its bytes may come in parts; ones that turn out to be no mark are the line's.
            while let matched = markMatched, start < bytes.endIndex {
                guard bytes[start] == Self.mark[matched] else {
                    keep(Self.mark[..<matched])
                    markMatched = nil
                    break
                }
                start += 1
                markMatched = matched + 1 == Self.mark.count ? nil : matched + 1
            }
            // The line feed of a CR LF whose CR ended the last part.
            if lineFeedMayFollow, start < bytes.endIndex {
                if bytes[start] == UInt8(ascii: "\n") { start += 1 }
                lineFeedMayFollow = false
            }
            // An event stream's lines end with LF, CR LF or CR alone (its spec); JSON lines' with LF.
            let events = isEvents
            while let lineEnd = bytes[start...].firstIndex(where: { $0 == UInt8(ascii: "\n") || events && $0 == UInt8(ascii: "\r") }) {
                if let shown = end(bytes[start..<lineEnd]) { out.append(shown) }
                start = lineEnd + 1
                if bytes[lineEnd] == UInt8(ascii: "\r") {
                    if start == bytes.endIndex { lineFeedMayFollow = true } else if bytes[start] == UInt8(ascii: "\n") { start += 1 }
                }
            }
            keep(bytes[start...])
            count += out.count
            return hidden.isEmpty ? out : out.map { Redactor.hiding(hidden, inText: $0) }
        }
        lines.forEach(post)
    }

    /// Adds to the line begun, up to `lineLimit` bytes kept (a line that never
    /// ends held the whole stream in memory).
    private func keep(_ part: ArraySlice<UInt8>) {
        let room = Self.lineLimit - pending.count
        if room > 0 { pending += part.prefix(room) }
        pendingLength += part.count
    }

    /// The text a line ending here completes, if any; `last` ends the begun line.
    private func end(_ last: ArraySlice<UInt8>) -> String? {
        var line = last
        var cutFrom: Int?
        if pendingLength > 0 {
            keep(last)
            line = pending[...]
            if pendingLength > pending.count { cutFrom = pendingLength }
        }
        defer { pending.removeAll(keepingCapacity: pending.capacity <= 1 << 16); pendingLength = 0 }
        if cutFrom == nil, line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        // Cut inside a character (a 3-byte `€` at the limit): its first bytes showed as U+FFFD.
        if cutFrom != nil, let lead = line.lastIndex(where: { $0 & 0xC0 != 0x80 }), line[lead] >= 0xC0 {
            let width = line[lead] >= 0xF0 ? 4 : line[lead] >= 0xE0 ? 3 : 2
            if line.endIndex - lead < width { line = line[..<lead] }
        }
        // In the charset the head names when the bytes are not UTF-8, as the whole body is read (GBK rows were U+FFFD).
        var text = String(validating: line, as: UTF8.self) ?? charset.flatMap { Charset.decode(Array(line), charset: $0) }
            ?? String(decoding: line, as: UTF8.self)
        if let cutFrom { text += " … (a line of \(Renderer.size(cutFrom)), cut at \(Renderer.size(Self.lineLimit)))" }
        return take(text)
    }

    /// Said after an event the stream ended inside (no blank line after it).
    static let cutEvent = "  (cut: the stream ended inside this event)"
    /// Said after a line the connection broke inside.
    static let cutLine = "  (cut: the connection broke inside this line)"

    /// What is left when the body ends: a last line with no newline, an event with no blank line.
    /// Such an event is not dispatched by a browser (the spec of event streams); shown, it is said to be cut,
    /// as it may be (`data: {"n":` looked like any other event).
    /// `broken`: the connection failed there (a drop, a reset), so a last line is cut too.
    func finish(broken: Bool = false) {
        let last: String? = lock.withLock {
            var shown: String?
            if pendingLength > 0 { shown = end([]).map { broken ? $0 + Self.cutLine : $0 } }
            if shown == nil, isEvents { shown = take("").map { $0 + Self.cutEvent } }
            if shown != nil { count += 1 }
            return shown.map { Redactor.hiding(hidden, inText: $0) }
        }
        last.map(post)
    }

    /// The text a line completes, if any (called under the lock).
    private func take(_ line: String) -> String? {
        guard isEvents else { return line.trimmingBlanks().isEmpty ? nil : line }
        if line.isEmpty {
            defer { event = (nil, []) }
            guard !event.data.isEmpty else { return nil }
            let data = event.data.joined(separator: "\n")
            return event.name.map { $0 == "message" ? data : "\($0): \(data)" } ?? data
        }
        if line.hasPrefix(":") { return nil }
        let (field, value) = Self.field(line)
        switch field {
        case "data": event.data.append(value)
        case "event": event.name = value
        default: break
        }
        return nil
    }

    /// `field: value` (one space after the colon dropped, as the spec says).
    private static func field(_ line: String) -> (String, String) {
        guard let colon = line.firstIndex(of: ":") else { return (line, "") }
        var value = line[line.index(after: colon)...]
        if value.first == " " { value = value.dropFirst() }
        return (String(line[..<colon]), String(value))
    }
}
