import Core
import Foundation

/// Turns outcomes into text for a terminal or a pipe.
struct Renderer: Sendable {
    var palette: Palette
    /// How the backend words errors, for the one-line summary under a 4xx or 5xx.
    var envelope: ErrorEnvelope = .linku
    /// Bodies longer than this are cut in the first display; `show` prints all.
    var previewLimit = 256 * 1024

    /// Text for standard output, and for standard error (failures).
    func render(_ outcome: Outcome) -> (out: String, err: String) {
        switch outcome {
        case .nothing, .exit: return ("", "")
        case let .text(text): return (text.isEmpty ? "" : text + "\n", "")
        case let .value(value): return (JSONPrinter.pretty(Redactor.redact(json: value), style: palette.json) + "\n", "")
        case let .failure(message, _): return ("", palette.red("error: ") + message + "\n")
        case let .offline(request): return (offline(request), "")
        case let .exchange(exchange, note): return exchangeText(exchange, note: note)
        case let .frames(notices, shortfall):
            return (notices.map(notice).joined(), shortfall.map { palette.red("error: ") + $0 + "\n" } ?? "")
        }
    }

    private func exchangeText(_ exchange: Exchange, note: String?) -> (out: String, err: String) {
        let response = exchange.response
        var out = ""
        var err = ""
        if exchange.refreshed {
            out += palette.dim("(access token refreshed; request retried)") + "\n"
        }
        let statusText = "HTTP/1.1 \(response.status) \(response.reason)"
        let colored: String
        switch response.status {
        case 200..<300: colored = palette.green(statusText)
        case 300..<400: colored = palette.yellow(statusText)
        default: colored = palette.red(statusText)
        }
        out += palette.bold(colored) + "  " + palette.dim(Self.milliseconds(exchange.duration)) + "\n"
        out += body(response)
        if response.status >= 400 {
            err += palette.red("error: ") + errorSummary(response) + "\n"
        }
        if let note {
            if exchange.sessionExpired { err += palette.red("error: ") + note + "\n" } else { out += palette.dim(note) + "\n" }
        }
        return (out, err)
    }

    /// The one line under a 4xx or 5xx: the backend's envelope, or the status.
    func errorSummary(_ response: ReceivedResponse) -> String {
        envelope.describe(status: response.status, body: response.json) ?? "\(response.status) \(response.reason)"
    }

    /// A body: pretty JSON, text, or a one-line summary of binary data.
    func body(_ response: ReceivedResponse) -> String {
        let bytes = response.body
        guard !bytes.isEmpty else { return "" }
        let type = response.mediaType ?? "unknown type"
        do {
            // Tokens are never printed (DESIGN.md §5): the renderer hides them.
            let value = Redactor.redact(json: try JSONParser.parse(bytes))
            return preview(JSONPrinter.pretty(value, style: palette.json))
        } catch {
            if response.claimsJSON {
                let warning = palette.yellow("warning: ") + "the body says \(type) but is not valid JSON (\(error)); shown as text\n"
                return warning + textOrBinary(bytes, type: type)
            }
        }
        return textOrBinary(bytes, type: type)
    }

    private func textOrBinary(_ bytes: [UInt8], type: String) -> String {
        if let text = String(validating: bytes, as: UTF8.self), !text.contains("\u{0}") {
            return preview(text)
        }
        return palette.dim("binary body: \(type), \(Self.size(bytes.count)) (not shown)") + "\n"
    }

    private func preview(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.count > previewLimit else { return text.hasSuffix("\n") ? text : text + "\n" }
        var end = utf8.index(utf8.startIndex, offsetBy: previewLimit)
        while end > utf8.startIndex, !text.unicodeScalars.indices.contains(end) { end = utf8.index(before: end) }
        let shown = String(text[..<end])
        return shown + "\n" + palette.dim("… \(Self.size(utf8.count - previewLimit)) more not shown; `show` prints it all") + "\n"
    }

    /// The request line, headers and body, as they would go on the wire.
    func offline(_ request: PreparedRequest) -> String {
        var lines = ["\(request.method) \(request.target) HTTP/1.1", "Host: \(request.hostHeader)"]
        lines += request.headers.map { "\($0.name): \($0.value)" }
        if let body = request.body { lines.append("Content-Length: \(body.count)") }
        var text = lines.joined(separator: "\n") + "\n"
        if let body = request.body, !body.isEmpty {
            text += "\n"
            if let s = String(validating: body, as: UTF8.self) {
                text += s.hasSuffix("\n") ? s : s + "\n"
            } else {
                text += "binary body, \(Self.size(body.count))\n"
            }
        }
        return text
    }

    static func milliseconds(_ duration: Duration) -> String {
        // Integer arithmetic: String(format:) showed in the profile of a script of GETs.
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        guard micros < 9_950 else { return "\((micros + 500) / 1000) ms" }
        let tenths = (micros + 50) / 100
        return "\(tenths / 10).\(tenths % 10) ms"
    }

    static func size(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return String(format: "%.1f KiB", Double(bytes) / 1024) }
        return String(format: "%.1f MiB", Double(bytes) / 1024 / 1024)
    }
}
