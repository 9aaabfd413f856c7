import Core
import Foundation
import Testing
@testable import Explorer

/// A streamed body cut as it is shown: JSON lines one by one, Server-Sent
/// Events one event at a time, whatever the chunks' edges.
@Suite struct StreamLinesTests {
    final class Posted: @unchecked Sendable {
        let lock = NSLock()
        var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
    }

    @Test func jsonLinesAcrossChunkEdges() {
        let posted = Posted()
        let stream = StreamLines { posted.add($0) }
        for chunk in [#"{"n":1}"#, "\n{\"n\"", ":2}\r\n\n", #"{"n":3}"#] { stream.feed(contentType: "application/x-ndjson", Array(chunk.utf8)) }
        #expect(posted.lines == [#"{"n":1}"#, #"{"n":2}"#])
        stream.finish()
        #expect(posted.lines.last == #"{"n":3}"# && stream.shown == 3, "a last line with no newline still shows")
        // Where the connection broke, the line it broke inside is said to be cut.
        let broken = StreamLines { posted.add($0) }
        broken.feed(contentType: "application/x-ndjson", Array("{\"n\":4}\n{\"n\":".utf8))
        broken.finish(broken: true)
        #expect(posted.lines.suffix(2) == [#"{"n":4}"#, #"{"n":"# + StreamLines.cutLine])
    }

    /// JSON lines in the charset the head names (`charset=gbk`) showed as
    /// U+FFFD, where `show` read the same body right; UTF-8 stays UTF-8.
    @Test func linesAreReadInTheCharsetTheHeadNames() throws {
        let posted = Posted()
        let stream = StreamLines { posted.add($0) }
        stream.begin(status: 200, headers: [HTTPHeader(name: "Content-Type", value: "application/x-ndjson; charset=gbk")])
        // {"名字":"张三"} in GBK, then a UTF-8 line: each read as what it is.
        let gbk: [UInt8] = [0x7B, 0x22, 0xC3, 0xFB, 0xD7, 0xD6, 0x22, 0x3A, 0x22, 0xD5, 0xC5, 0xC8, 0xFD, 0x22, 0x7D, 0x0A]
        stream.feed(contentType: "application/x-ndjson", gbk + Array("{\"n\":\"é\"}\n".utf8))
        #expect(posted.lines == [#"{"名字":"张三"}"#, #"{"n":"é"}"#])
    }

    /// A line that never ends (a server streaming one 2 GiB line) was held
    /// whole, and searched from its start at every part: quadratic, it ran
    /// for hours. Past `lineLimit` it is kept no further, and shown cut.
    @Test func aLineLongerThanTheLimitIsShownCutAndTheNextWhole() {
        let posted = Posted()
        let stream = StreamLines { posted.add($0) }
        let part = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<(StreamLines.lineLimit >> 20) + 3 { stream.feed(contentType: "application/x-ndjson", part) }
        stream.feed(contentType: "application/x-ndjson", Array("y\r\n{\"n\":2}\r\n".utf8))
        stream.finish()
        #expect(posted.lines.count == 2)
        let cut = posted.lines.first ?? ""
        #expect(cut.utf8.count < StreamLines.lineLimit + 100 && cut.hasPrefix("xxx"))
        #expect(cut.hasSuffix(" … (a line of 19.0 MiB, cut at 16.0 MiB)"), "\(cut.suffix(60))")
        #expect(posted.lines.last == #"{"n":2}"#)
        // Cut inside a character: the character is left out whole, not shown as U+FFFD.
        let euros = StreamLines { posted.add($0) }
        let text = Array(String(repeating: "€", count: StreamLines.lineLimit / 3 + 10).utf8)
        euros.feed(contentType: "application/x-ndjson", text + [UInt8(ascii: "\n")])
        #expect(posted.lines.last?.hasPrefix("€€€") == true && posted.lines.last?.contains("\u{FFFD}") == false)
    }

    @Test func eventsJoinTheirDataAndNameTheirKind() {
        let posted = Posted()
        let stream = StreamLines { posted.add($0) }
        let text = ": keep-alive\n\ndata: a\ndata:b\n\nevent: tick\nid: 7\ndata: {\"i\": 1}\n\nevent: message\ndata: plain\n\nretry: 10\ndata: last"
        for byte in text.utf8 { stream.feed(contentType: "text/event-stream; charset=utf-8", [byte]) }
        stream.finish()
        // The last event had no blank line after it: the stream ended inside it, and that is said.
        #expect(posted.lines == ["a\nb", #"tick: {"i": 1}"#, "plain", "last" + StreamLines.cutEvent])
    }

    /// An event stream's lines may end with CR alone, or CR LF split between
    /// parts; a byte order mark may start it (its spec). Events ran together
    /// into one row, and the first event was lost after a mark.
    @Test(arguments: [1, 3, 100])
    func eventsEndLinesWithAnyLineEndAndSkipAByteOrderMark(partSize: Int) {
        let posted = Posted()
        let stream = StreamLines { posted.add($0) }
        let text = Array("\u{FEFF}data: first\r\rdata: two\r\n\r\nevent: update\rdata: cr-only\n\ndata: line1\n\n".utf8)
        for start in stride(from: 0, to: text.count, by: partSize) {
            stream.feed(contentType: "text/event-stream", Array(text[start..<min(start + partSize, text.count)]))
        }
        stream.finish()
        #expect(posted.lines == ["first", "two", "update: cr-only", "line1"])
        // JSON lines keep LF as their end: a CR inside stays in its line.
        let rows = Posted()
        let lines = StreamLines { rows.add($0) }
        lines.feed(contentType: "application/x-ndjson", Array("\u{FEFF}{\"a\":\"x\ry\"}\r\n{\"n\":2}\n".utf8))
        #expect(rows.lines == ["{\"a\":\"x\ry\"}", "{\"n\":2}"])
    }
}
