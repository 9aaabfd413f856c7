import Core
import Foundation

/// The plain text of the outcomes that are lists and states (help, `vars`,
/// the catalog, cookies, socket status…): what the terminal shows of them,
/// and what a transcript records and replays compare. Exchanges, values,
/// frames and failures are the `Renderer`'s and the `Observation`'s own.
enum OutcomeText {
    /// Why `show` or `capture` does not read a body: spooled, and larger than they read into memory.
    static func tooLargeToRead(_ response: ReceivedResponse) -> String {
        "the body is \(sizeBeyondLimit(response)), more than the \(ReceivedResponse.wholeLimit >> 20) MiB `show` and `capture` read; `save FILE` writes it whole"
    }

    /// The size of a body past what is read whole: not "64.0 MiB, more than the 64 MiB" for one a few bytes over.
    static func sizeBeyondLimit(_ response: ReceivedResponse) -> String {
        let size = Renderer.size(response.bodySize)
        return size == "\(ReceivedResponse.wholeLimit >> 20).0 MiB" ? "just over \(ReceivedResponse.wholeLimit >> 20) MiB" : size
    }

    /// The text, without a final newline; nil for the outcomes it does not cover.
    /// `width`: the terminal's columns, when shown on one narrower than the
    /// 80 a recording keeps: help wraps there, and an endpoint's summary is
    /// cut there (it wrapped mid-word, two lines in three at 80 columns).
    static func plain(_ outcome: Outcome, width: Int? = nil) -> String? {
        switch outcome {
        case let .message(text): return text
        case let .body(response, carried):
            guard let bytes = response.wholeBody else { return tooLargeToRead(response) }
            // Raw bytes would reach the terminal (cut at the first NUL): summarised, as the first display does.
            // Text in the charset its Content-Type names is text, as the first display shows it.
            guard let text = Renderer.text(bytes, charset: response.textCharset) else {
                return "binary body: \(Renderer.mediaType(of: response)), \(bytes.count) bytes (not shown)"
            }
            return Renderer.hidingSecrets(in: text, carried: carried)
        case let .variables(variables):
            return variables.map { "\($0.name) = \($0.shown)" }.joined(separator: "\n")
        case let .cookies(cookies):
            return cookies.isEmpty ? "no cookies" : cookies.map(describe(cookie:)).joined(separator: "\n")
        case let .sessionHeaders(headers, query, origin):
            guard !headers.isEmpty || query != nil else { return "no session headers (header Name:value sets one)" }
            let lines = headers.map { "\($0.name): \($0.value)" } + (query.map { ["\($0) (in the query; header clear or auth none drops it)"] } ?? [])
            return (lines + ["(sent only to \(origin))"]).joined(separator: "\n")
        case let .defaults(options):
            let text = options.sessionFlagsText
            return text.isEmpty ? "no defaults (defaults --follow --timeout 5 -v sets some)" : "every request line: \(text)"
        case let .endpoints(endpoints):
            return CatalogText.list(endpoints, width: width)
        case let .endpointDetails(endpoints, profile):
            // Within the terminal's width, 80 at most: a long summary or query list ran past it.
            return endpoints.map { CatalogText.describe($0, in: profile) }.joined(separator: "\n\n")
                .wrapped(width: min(width ?? 80, 80), joiningLines: false)
        case let .model(model):
            return CatalogText.describe(model).wrapped(width: min(width ?? 80, 80), joiningLines: false)
        case let .help(specs):
            return help(specs).wrapped(width: min(width ?? 80, 80))
        case let .commandHelp(spec):
            return "usage: \(spec.usage)\n\n\(spec.details)".wrapped(width: min(width ?? 80, 80))
        case let .socketStatus(status):
            return status.map(describe(socket:)) ?? "no WebSocket (ws connect [URL|PATH])"
        case let .curl(request, follow, form, bodyFile, saving, removed, note):
            return ([CurlCommand.render(request, follow: follow, form: form, bodyFile: bodyFile, saving: saving, removed: removed)]
                    + (note.map { ["# " + $0] } ?? [])).joined(separator: "\n")
        case .exchange, .offline, .value, .failure, .unanswered, .frames, .exit, .nothing:
            return nil
        }
    }

    /// The widest usage that keeps its summary on its own line; a longer
    /// one (`header`'s is 80 characters) puts its summary on the next line,
    /// so the column stays narrow and an 80- or 120-column terminal does not
    /// wrap every summary mid-word.
    static let helpColumn = 34

    static func help(_ specs: [CommandSpec]) -> String {
        let width = specs.map(\.usage.columns).filter { $0 <= helpColumn }.max() ?? helpColumn
        var lines = ["Commands:"]
        for spec in specs {
            // The names TAB offers too (`quit`, `headers`), which help did not list.
            let aliases = spec.aliases.filter { $0.allSatisfy(\.isLetter) }
            let summary = spec.summary + (aliases.isEmpty ? "" : " (also: \(aliases.joined(separator: ", ")))")
            if spec.usage.columns > width {
                lines.append("  " + spec.usage)
                lines.append("  " + String(repeating: " ", count: width + 2) + summary)
            } else {
                lines.append("  " + spec.usage.padded(to: width + 2) + summary)
            }
        }
        lines.append("")
        lines.append("A bare /path is a GET (a POST when it sends data). {{name}} uses a variable. TAB completes commands, paths and variables.")
        lines.append("help COMMAND explains one command; `help get` explains request items.")
        return lines.joined(separator: "\n")
    }

    static func describe(cookie: Cookie) -> String {
        var flags = [cookie.hostOnly ? "\(cookie.domain):\(cookie.port)" : "*.\(cookie.domain):\(cookie.port)", "path \(cookie.path)"]
        if cookie.secure { flags.append("secure") }
        if cookie.httpOnly { flags.append("httponly") }
        flags.append(cookie.expires.map { "until \(ISO8601DateFormatter().string(from: $0))" } ?? "for the session")
        return "\(cookie.name)=\(Redactor.hidden(cookie.value))  " + flags.joined(separator: ", ")
    }

    static func describe(socket status: SocketStatus) -> String {
        var lines = ["state: \(status.state)"]
        if let url = status.url { lines.append("url: \(url)") }
        lines.append("sent: \(status.sent), received: \(status.received), duplicates dropped: \(status.duplicatesDropped)"
            + ", queued: \(status.queued), reconnects: \(status.reconnects), not yet shown: \(status.notYetShown)"
            + (status.droppedUnread == 0 ? "" : ", dropped unread: \(status.droppedUnread)"))
        let heartbeat = status.heartbeat.map { "a ping every \(seconds($0))" } ?? "no heartbeat"
        let attempts = status.reconnectAttempts
        let retries = attempts == 0 ? "no reconnects"
            : "up to \(attempts) reconnect\(attempts == 1 ? "" : "s"), the first after \(seconds(status.firstReconnectDelay))"
        lines.append("policy: \(heartbeat); \(retries)")
        return lines.joined(separator: "\n")
    }

    static func seconds(_ duration: Duration) -> String {
        let s = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        // `--backoff 0.01` retried "in 0.0 s".
        if s > 0, s < 0.1 { return "\(Int((s * 1000).rounded())) ms" }
        return s == s.rounded() ? "\(Int(s)) s" : String(format: "%.1f s", s)
    }
}
