import Core
import Foundation

/// WebSocket notices: one line each, `12:04:05 ← {…}`, with a bounded
/// preview so a 10 MB frame does not flood the terminal (`show` prints it all).
extension Renderer {
    static let framePreviewLimit = 2000

    func notice(_ notice: SocketNotice) -> String {
        let time = palette.dim(Self.clockTime(notice.time))
        switch notice.kind {
        case .received: return "\(time) \(palette.cyan("←")) \(notice.pretty ? indented(notice.text) : framePreview(notice.text))\n"
        // `show` prints the last frame received, not one sent: no hint under a long one sent.
        case .sent: return "\(time) \(palette.green("→")) \(notice.pretty ? indented(notice.text) : framePreview(notice.text, showable: false))\n"
        case .state: return "\(time) \(palette.yellow("·")) \(palette.yellow(Self.visible(notice.text, keepingLines: false)))\n"
        case .problem: return "\(time) \(palette.red("!")) \(palette.red(Self.visible(notice.text, keepingLines: false)))\n"
        case .streamed: return "\(time) \(palette.cyan("⇣")) \(framePreview(notice.text))\n"
        case .shown: return notice.text
        }
    }

    /// A JSON frame indented, its lines under the first (after `HH:MM:SS ← `),
    /// tokens hidden; one that is not JSON, or over 1 MiB, as a preview.
    private func indented(_ text: String) -> String {
        guard text.utf8.count <= 1 << 20, let json = try? JSONParser.parse(text) else { return framePreview(text) }
        return JSONPrinter.pretty(Redactor.hiding(credentials: alsoHidden, in: Redactor.redact(json: json, alsoSecret: secretNames, carried: alsoHidden))).replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: 11))
    }

    /// A frame's text on one line, tokens hidden, cut after `framePreviewLimit`
    /// characters. The cut comes first, so a 10 MB frame costs no more to
    /// show than its preview.
    private func framePreview(_ text: String, showable: Bool = true) -> String {
        // An empty frame showed as a bare arrow, which read as a line cut off.
        if text.isEmpty { return palette.dim("(empty text frame)") }
        let shown = Substring(hidingSecrets(inFrame: text))
        var preview = shown.prefix(Self.framePreviewLimit)
        // A text frame: its JWT-shaped words hidden, as in a JSON one.
        if preview.contains("eyJ") { preview = Substring(Redactor.hidingJWTs(in: String(preview))) }
        // One line, and nothing a server sent may drive the terminal (escape codes, a title).
        let line = Self.visible(preview.replacingOccurrences(of: "\n", with: "\\n"), keepingLines: false)
        guard preview.endIndex < shown.endIndex else { return line }
        return line + palette.dim(" … \(Self.size(text.utf8.count)) in all" + (showable ? "; `show` prints it" : ""))
    }

    /// A streamed answer's row as a script writes it, as it comes: whole,
    /// its secrets hidden as in a frame's preview, nothing in it that drives
    /// a terminal.
    func streamedRow(_ text: String) -> String {
        var row = hidingSecrets(inFrame: text)
        if row.contains("eyJ") { row = Redactor.hidingJWTs(in: row) }
        return Self.visible(row, keepingLines: true) + "\n"
    }

    /// A frame's (or streamed row's) text with its secrets hidden: a JSON
    /// one compact, its secret members and the values filled in for
    /// `{{secret:NAME}}` hidden. One over 1 MiB is not searched (parsing it
    /// would stall the prompt); its JWTs are hidden where it is cut.
    private func hidingSecrets(inFrame text: String) -> String {
        guard text.utf8.count <= 1 << 20 else { return text }
        if let json = try? JSONParser.parse(text) {
            return JSONPrinter.compact(Redactor.hiding(credentials: alsoHidden, in: Redactor.redact(json: json, alsoSecret: secretNames, carried: alsoHidden)))
        }
        // JSON within a line (a named event's `done: {"password":…}`): its secret members,
        // the values filled in for `{{secret:NAME}}`, and `password=X` words of any length
        // (a short one is no session secret, so it showed in its own frame's echo).
        // The rest as a text body's line is hidden (a `Bearer …`, a URL's `?access_token=`, quoted pairs: they showed here).
        var hidden = hidingSupplied(in: text)
        for (_, value) in Redactor.secretAssignments(inText: hidden) where !value.hasPrefix("<hidden") {
            hidden = hidden.replacingOccurrences(of: "=" + value, with: "=" + Redactor.hidden(value))
        }
        return Redactor.hidingCredentials(inText: hidden)
    }

    /// `HH:mm:ss` in local time. A `DateFormatter` did the same at a few
    /// microseconds a frame, 4% of a script of 1,000 round trips.
    static func clockTime(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "--:--:--" }
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : String(n) }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
