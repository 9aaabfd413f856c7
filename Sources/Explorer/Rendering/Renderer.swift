import Core
import Foundation

/// Turns outcomes into text for a terminal or a pipe.
struct Renderer: Sendable {
    var palette: Palette
    /// How the backend words errors, for the one-line summary under a 4xx or 5xx.
    var envelope: ErrorEnvelope = .generic
    /// Bodies longer than this are cut in the first display; `show` prints all.
    var previewLimit = 256 * 1024
    /// Headers the profile names as credentials, hidden whatever they are called.
    var secretHeaders: [String] = []
    /// Query parameters the profile names as credentials, hidden in request lines.
    var secretParameters: [String] = []
    /// Body fields the profile names as secrets (`Profile.secretFields`, its
    /// token fields included), by their own name: hidden wherever JSON shows.
    var secretNames: Set<String> = []
    /// `--offline` shows a JSON body indented, as HTTPie does on a terminal
    /// (piped, both print the bytes as they would be sent).
    var formatsOfflineJSON = false
    /// Text bodies have their control characters shown escaped (`\u001b`),
    /// as on a terminal, where a server's escape codes would clear the
    /// screen or set the title; piped, they are passed on as sent.
    var escapesControls = false
    /// Values the session filled in for `{{secret:NAME}}`: hidden where an
    /// answer echoes them, as the credentials the request carried are.
    var alsoHidden: [String] = []
    /// Piped, `-b` alone prints the whole body (`| jq`), not a terminal's
    /// preview: see `wholeBody`.
    var printsWholeBodies = false
    /// The terminal's columns now (it may be resized), when standard output is one.
    var columns: (@Sendable () -> Int?)?

    /// `text` with its control characters escaped on a terminal (a server's
    /// text quoted again: `show`, `vars`, an error naming what was sent).
    private func shownSafely(_ text: String) -> String {
        escapesControls ? Self.visible(text) : text
    }

    /// A failure's line. Its control characters are escaped wherever it goes:
    /// standard error is read by a person even when standard output is piped
    /// (a server's close reason or redirect set the window title and cleared
    /// the screen of `run s.txt > log`), and no program reads an error line's escapes.
    private func errorLine(_ message: String) -> String {
        palette.red("error: ") + Self.visible(hidingSupplied(in: message)) + "\n"
    }

    /// Text for standard output, and for standard error (failures).
    func render(_ outcome: Outcome) -> (out: String, err: String) {
        switch outcome {
        case .nothing, .exit: return ("", "")
        case let .value(value, secret):
            let shown = secret ? Redactor.hiding(value) : Redactor.redact(json: value, alsoSecret: secretNames)
            return (JSONPrinter.pretty(shown, style: palette.json) + "\n", "")
        // A failure may quote what was typed or sent (a socket's URL, a header's value): supplied secrets hidden.
        case let .failure(message, _): return ("", errorLine(message))
        case let .unanswered(request, hops, view, message, _):
            return (hopsText(hops, view) + (request.map { sent($0, view) + "\n" } ?? ""), errorLine(message))
        case let .offline(request, note, parts):
            return (offline(request, hidingSecrets: true, formattingJSON: formatsOfflineJSON, parts: parts) + (note.map { palette.dim($0) + "\n" } ?? ""), "")
        case let .exchange(exchange, note, view): return exchangeText(exchange, note: note, view: view)
        case let .frames(notices, shortfall):
            return (notices.filter { !$0.shownAsItCame }.map(notice).joined(), shortfall.map(errorLine) ?? "")
        case .message, .body, .variables, .cookies, .sessionHeaders, .defaults, .endpoints, .endpointDetails, .model,
             .help, .commandHelp, .socketStatus, .curl:
            // A socket's URL (`connected to ws://…?x=…`, `ws status`), a download's name: supplied secrets hidden.
            // On a terminal, a server's escape codes shown again (`show` of a text body, `vars` of a captured value)
            // are escaped as the first display escapes them: they cleared the screen and set the window title.
            var text = shownSafely(hidingSupplied(in: OutcomeText.plain(outcome, width: columns?()) ?? ""))
            // Ctrl-C flushed the terminal's output mid-row: the reset after a dim timestamp was lost, and the
            // prompt and all typed after it showed dim.
            if palette.enabled, case let .message(message) = outcome, message.hasPrefix(Interpreter.streamStopped) { text = Palette.reset + text }
            return (text.isEmpty ? "" : text + "\n", "")
        }
    }

    private func exchangeText(_ exchange: Exchange, note: String?, view: PrintParts) -> (out: String, err: String) {
        let response = exchange.response
        var out = ""
        var err = ""
        out += hopsText(exchange.hops, view)
        if !view.isDisjoint(with: [.requestHeaders, .requestBody]) { out += sent(exchange.request, view) + "\n" }
        // The body alone into a pipe is for a program: what is said about it goes to standard error.
        let piped = printsWholeBodies && view.subtracting(.asItCame) == [.responseBody]
        if exchange.refreshed {
            let line = palette.dim("(access token refreshed; request retried)") + "\n"
            if piped { err += line } else { out += line }
        }
        for warning in [exchange.refreshWarning, exchange.storeWarning].compactMap({ $0 }) { err += palette.yellow("warning: ") + warning + "\n" }
        let carried = credentials(of: exchange.request) + Self.cookiesSet(in: response.headers) + exchange.heldTokens + alsoHidden
        if !view.isDisjoint(with: [.statusLine, .responseHeaders]) { out += statusLine(exchange, hiding: carried) }
        if view.contains(.responseHeaders) {
            out += headerLines(response.headers, hiding: carried)
        } else if (300..<400).contains(response.status), let location = response.header("Location") {
            // Where a redirect points is the point of it: always shown.
            let line = headerLines([HTTPHeader(name: "Location", value: Redactor.hiding(carried, inText: location))])
            if piped { err += line } else { out += line }
        }
        if view.contains(.responseBody) {
            if view.contains(.responseHeaders), !response.body.isEmpty { out += "\n" }
            if piped {
                let (text, said) = wholeBody(response, hiding: carried)
                out += text
                err += said
            } else {
                out += body(response, hiding: carried)
            }
        }
        if let coding = response.cutEncoding {
            err += palette.yellow("warning: ") + "its \(Self.visible(coding, keepingLines: false)) stream ended before its end came: the body is what came of it\n"
        }
        if response.status >= 400 {
            let summary = errorSummary(response, hiding: carried)
            err += palette.red("error: ") + summary + retryAfter(response, besides: summary)
                + challenge(response, besides: summary) + "\n"
        }
        if let note {
            if exchange.sessionExpired || exchange.refusal != nil {
                err += palette.red("error: ") + note + "\n"
            } else if piped {
                err += palette.dim(note) + "\n"
            } else {
                out += palette.dim(note) + "\n"
            }
        }
        return (out, err)
    }

    /// With -v, every redirect followed, as it happened: its request, and the 3xx with its headers.
    private func hopsText(_ hops: [Exchange], _ view: PrintParts) -> String {
        guard view.contains(.requestHeaders) else { return "" }
        return hops.map { hop in
            let carried = credentials(of: hop.request) + alsoHidden
            return sent(hop.request, view) + "\n" + statusLine(hop, hiding: carried) + headerLines(hop.response.headers, hiding: carried) + "\n"
        }.joined()
    }

    /// `hiding`: credentials the request carried, which a reason phrase may
    /// quote (`403 Forbidden for key sk-live-…`).
    private func statusLine(_ exchange: Exchange, hiding carried: [String]) -> String {
        let response = exchange.response
        let statusText = Self.visible(Redactor.hiding(carried, inText: "\(response.version) \(response.statusAndReason)"), keepingLines: false)
        let colored: String
        switch response.status {
        case 200..<300: colored = palette.green(statusText)
        case 300..<400: colored = palette.yellow(statusText)
        default: colored = palette.red(statusText)
        }
        return palette.bold(colored) + "  " + palette.dim(Self.milliseconds(exchange.duration)) + "\n"
    }

    /// Headers as `Name: value` lines, credentials hidden (`Redactor.redact(header:)`).
    /// `hiding`: credentials the request carried; a header that echoes one
    /// back is hidden whatever it is called.
    func headerLines(_ headers: [HTTPHeader], hiding carried: [String] = []) -> String {
        headers.map { header in
            var shown = Redactor.redact(header: header, alsoSecret: secretHeaders)
            if shown.value == header.value, carried.contains(where: header.value.contains) { shown.value = Redactor.hidden(header.value) }
            // A JWT in a header of any name (`X-A: x eyJ…` sent, or answered), as the body and the recording hide it.
            if shown.value == header.value { shown.value = Redactor.hidingJWTs(in: shown.value) }
            // A server's header may hold escape codes (a title, a cleared screen): shown escaped, as bodies are.
            return palette.cyan(Self.visible(shown.name, keepingLines: false)) + ": " + Self.visible(shown.value, keepingLines: false) + "\n"
        }.joined()
    }

    /// The credentials a request carried: its Authorization (and the token
    /// after the scheme), its cookies' values and the headers the profile
    /// names secret. A server that echoes one back (`"you_sent": "Bearer …"`)
    /// must not have it printed: an opaque token looks like any other string.
    func credentials(of request: PreparedRequest) -> [String] {
        Self.credentials(of: request, secretHeaders: secretHeaders, secretParameters: secretParameters, secretNames: secretNames)
    }

    /// Also the values of secret query parameters (`?api_key=…`, a profile's
    /// query credential) and of a body's secret-named fields (`password=…`
    /// typed on the line), and a Basic credential's password: a server that
    /// echoes the request (`"path": "/echo?api_key=…"`) showed them.
    static func credentials(of request: PreparedRequest, secretHeaders: [String], secretParameters: [String] = [],
                            secretNames: Set<String> = []) -> [String] {
        var values: [String] = []
        if let query = request.url.query(percentEncoded: true) {
            for pair in query.split(separator: "&") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let name = String(pair[..<equals]).removingPercentEncoding ?? String(pair[..<equals])
                guard Redactor.isSecretParameter(name) || secretParameters.contains(name) else { continue }
                let value = String(pair[pair.index(after: equals)...])
                values.append(value)
                if let decoded = value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding, decoded != value { values.append(decoded) }
            }
        }
        if let body = request.body, !body.isEmpty, body.count <= 64 * 1024 {
            if let json = try? JSONParser.parse(body) {
                values += Redactor.secretStrings(in: json, alsoSecret: secretNames)
            } else if request.header("Content-Type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true,
                      let form = String(validating: body, as: UTF8.self) {
                for pair in form.split(separator: "&") {
                    guard let equals = pair.firstIndex(of: "="), Redactor.isSecretName(String(pair[..<equals]).removingPercentEncoding ?? "") else { continue }
                    let value = String(pair[pair.index(after: equals)...])
                    values.append(value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? value)
                }
            }
        }
        var cookies: [String] = []
        for header in request.headers {
            if header.hasName("Cookie") {
                cookies += Cookie.pairs(inHeader: header.value).map(\.value)
            } else if Redactor.isSecretHeaderName(header.name) || secretHeaders.contains(where: header.hasName) {
                values.append(header.value)
                // Over UTF-8: a space is one byte, and a search by Character breaks graphemes.
                if let space = header.value.utf8.firstIndex(of: UInt8(ascii: " ")) {
                    values.append(header.value[header.value.utf8.index(after: space)...].trimmingBlanks())
                }
                // `bob:simplePW1` echoed decoded (httpbin's /basic-auth, a page that greets the user).
                if header.hasName("Authorization"), let basic = BasicCredentials(authorization: header.value) {
                    values += [basic.user + ":" + basic.password, basic.password]
                }
            }
        }
        // Counts no further than it needs to: a token is long. What a secret's name carried, from 4
        // characters, as a recording hides it (a 5-character password an error quoted was shown);
        // a cookie (`theme=dark`) from 6.
        return values.filter { $0.dropFirst(SecretScrubber.typedMinimumLength - 1).isEmpty == false }
            + cookies.filter { $0.dropFirst(SecretScrubber.minimumLength - 1).isEmpty == false }
    }

    /// The values of the cookies an answer sets (6 characters or more, as a
    /// cookie the request carried): the answer that sets a session cookie
    /// and echoes it (`"session": "…"`) showed it, where later ones hid it.
    static func cookiesSet(in headers: [HTTPHeader]) -> [String] {
        headers.compactMap { header -> String? in
            guard header.hasName("Set-Cookie"), let value = Cookie.pair(setBy: header.value)?.value else { return nil }
            return value.count >= SecretScrubber.minimumLength ? value : nil
        }
    }

    /// The request as sent (`-v`, `-p H`/`B`): its line and headers with
    /// credentials hidden, and its body with secret fields hidden.
    func sent(_ request: PreparedRequest, _ view: PrintParts) -> String {
        var text = ""
        if view.contains(.requestHeaders) {
            // A redirect's target may carry what the request did (`/landing?got=Bearer%20…`).
            let target = Redactor.hiding(credentials(of: request) + alsoHidden, inText: Redactor.redact(target: request.target, alsoSecret: secretParameters))
            text += palette.bold("\(request.method) \(target) HTTP/1.1") + "\n"
            text += headerLines(request.wireHeaders, hiding: alsoHidden)
        }
        if view.contains(.requestBody), let body = request.body, !body.isEmpty {
            if view.contains(.requestHeaders) { text += "\n" }
            let type = request.header("Content-Type") ?? "unknown type"
            if let json = try? JSONParser.parse(body) {
                text += JSONPrinter.pretty(Redactor.hiding(credentials: alsoHidden, in: Redactor.redact(json: json, alsoSecret: secretNames, carried: alsoHidden)), style: palette.json) + "\n"
            } else if !body.contains(0), let fields = String(validating: body, as: UTF8.self), Self.carriesFields(type) {
                let shown = hidingSupplied(in: Self.hidingFields(fields, type: type))
                text += preview(escapesControls ? Self.visible(shown) : shown, bodySize: nil)
            } else {
                text += textOrBinary(body[...], type: type, hiding: alsoHidden)
            }
        }
        return text
    }

    /// Whether a body of this Content-Type is made of named fields (a form,
    /// multipart form data) whose secret-named values are hidden on screen.
    static func carriesFields(_ type: String) -> Bool {
        let lower = type.lowercased()
        return lower.hasPrefix("application/x-www-form-urlencoded") || lower.hasPrefix("multipart/form-data")
    }

    /// A form or multipart body as shown on screen: secret-named fields'
    /// values hidden, as a JSON body's are (`Redactor.redact(json:)`).
    static func hidingFields(_ body: String, type: String) -> String {
        let lower = type.lowercased()
        if lower.hasPrefix("application/x-www-form-urlencoded") { return Redactor.redact(form: body) }
        guard lower.hasPrefix("multipart/form-data"), let at = type.range(of: "boundary=", options: .caseInsensitive) else { return body }
        let boundary = type[at.upperBound...].prefix { $0 != ";" }.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        return boundary.isEmpty ? body : Redactor.redact(multipart: body, boundary: boundary)
    }

    /// When a 429 or a 503 says to send it again (its Retry-After), on
    /// screen: it was left to `-h` to find. Not recorded: it counts down.
    /// Not when the summary says it already (Nova's envelope: `(retry_after: 60)`).
    private func retryAfter(_ response: ReceivedResponse, besides summary: String) -> String {
        // Said once where the message says it already: as a word of its own, not digits inside another number (`2` in `429`).
        guard let retry = response.header("Retry-After")?.trimmingBlanks(), !retry.isEmpty, !Self.holdsWord(retry, in: summary) else { return "" }
        if retry.utf8.allSatisfy({ (48...57).contains($0) }) { return " (retry after \(retry) s)" }
        // An HTTP date (RFC 9110 §10.2.3) as the wait it leaves, as the seconds form says it (it was shown as the date).
        if let date = Self.httpDate(retry) { return " (retry after \(max(0, Int((date.timeIntervalSinceNow).rounded(.up)))) s)" }
        return Self.visible(" (Retry-After: \(retry), neither seconds nor a date)", keepingLines: false)
    }

    /// An IMF-fixdate (`Sun, 29 Nov 2026 13:12:48 GMT`), the form RFC 9110 asks senders to use.
    static func httpDate(_ text: String) -> Date? {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return format.date(from: text)
    }

    /// Whether `word` stands in `text` with no letter or digit against it.
    static func holdsWord(_ word: String, in text: String) -> Bool {
        var from = text.startIndex
        while let found = text.range(of: word, range: from..<text.endIndex) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            // `30.5` is another number than 30; `30s` is 30 seconds.
            let next = found.upperBound == text.endIndex ? nil : text[text.index(after: found.upperBound)...].first
            let fraction = (after == "." || after == ",") && next?.isNumber == true
            let unit = after == "s" && !(next?.isLetter ?? false)
            if !(before?.isLetter ?? false || before?.isNumber ?? false || before == "."), !fraction,
               unit || !(after?.isLetter ?? false || after?.isNumber ?? false) { return true }
            from = text.index(after: found.lowerBound)
        }
        return false
    }

    /// A 401's (or 407's, or a 403's refused scope) challenge: the scheme the server asks for, which
    /// says why a login or a token did not do (`Digest`, which explorer
    /// does not answer). It was shown only with -v.
    private func challenge(_ response: ReceivedResponse, besides summary: String) -> String {
        let name = response.status == 407 ? "Proxy-Authenticate" : "WWW-Authenticate"
        // A 403's too: RFC 6750 answers a token without the scope asked for so (`error="insufficient_scope"`).
        guard [401, 403, 407].contains(response.status), let asked = response.header(name)?.trimmingBlanks(), !asked.isEmpty else { return "" }
        // RFC 6750's words for a refused token (`error="invalid_token", error_description="The access token expired"`):
        // why, not "it asks for" a scheme the request may well have used.
        if let code = Self.challengeParameter("error", in: asked) {
            let description = Self.challengeParameter("error_description", in: asked)
            let scope = Self.challengeParameter("scope", in: asked).map { " (scope \($0))" } ?? ""
            // Said once: an OAuth server's body says the same (`401 invalid_token: The access token expired`).
            if summary.contains(code), description.map(summary.contains) ?? true { return "" }
            return Self.visible(" (\(name): \(code)" + (description.map { ": \($0)" } ?? "") + scope + ")", keepingLines: false)
        }
        guard response.status != 403 else { return "" }
        // A body that said why (a wrong password's "Incorrect username or password") is the reason; the bare
        // challenge under it read as advice to send a token.
        guard summary == response.statusAndReason else { return "" }
        let shown = asked.count > 120 ? asked.prefix(120) + "…" : Substring(asked)
        return Self.visible(" (it asks for \(name): \(shown))", keepingLines: false)
    }

    /// A challenge's `name="value"` (or `name=token`) parameter, unquoted.
    static func challengeParameter(_ name: String, in challenge: String) -> String? {
        var rest = Substring(challenge)
        while let found = rest.range(of: name + "=", options: .caseInsensitive) {
            let before = rest[..<found.lowerBound].last
            rest = rest[found.upperBound...]
            // `error=` inside `x_error=` is another parameter.
            guard before == nil || before == " " || before == "," else { continue }
            if rest.first == "\"" {
                var value = ""
                var escaped = false
                for c in rest.dropFirst() {
                    if escaped { value.append(c); escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { break } else { value.append(c) }
                }
                return value.isEmpty ? nil : String(value.prefix(200))
            }
            let token = rest.prefix { $0 != "," && $0 != " " }
            return token.isEmpty ? nil : String(token.prefix(200))
        }
        return nil
    }

    /// The one line under a 4xx or 5xx: the backend's envelope, or the status.
    /// One line whatever the server wrote: a message with newlines in it
    /// (`"first\nsecond"`) made one error four lines.
    /// `hiding`: credentials the request carried, hidden before its line breaks are escaped (a password
    /// read from a file that ends in one was shown as `abcdefghi\n`, which no search for it found).
    func errorSummary(_ response: ReceivedResponse, hiding carried: [String] = []) -> String {
        let read = envelope.describe(status: response.status, body: response.leadingJSON) ?? Self.shortText(of: response).map { "\(response.status): \($0)" }
        let said = Redactor.hiding(carried, inText: read ?? response.statusAndReason)
        return Self.visible(said.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n"), keepingLines: false)
    }

    /// A short error body in words (Go's `404 page not found`, a text/plain
    /// `Bad request: missing parameter "q"`, Express's `<pre>Cannot GET /x</pre>`):
    /// its one line, for the error line, which said only the status.
    /// Nil for anything longer, or a line that only repeats the status.
    static func shortText(of response: ReceivedResponse) -> String? {
        guard response.spool == nil, response.body.count <= 2048, response.undecodedEncoding == nil,
              let text = String(validating: response.body, as: UTF8.self) else { return nil }
        var line: Substring
        switch response.mediaType {
        case "text/plain"?:
            let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard lines.count == 1 else { return nil }
            line = Substring(lines[0])
        case "text/html"?:
            // Express's default error page holds its one line in a <pre>, the body's whole content (a page with a
            // <pre> among other things, Django's debug table, said its first cell), its text escaped.
            guard let body = text.range(of: "<body>"), let end = text.range(of: "</body>", range: body.upperBound..<text.endIndex) else { return nil }
            let content = text[body.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
            guard content.hasPrefix("<pre>"), content.hasSuffix("</pre>"), content.count > 11 else { return nil }
            line = Substring(content.dropFirst(5).dropLast(6))
            guard !line.contains("<"), !line.contains(where: \.isNewline) else { return nil }
            line = Substring(Self.decodingEntities(line))
        default:
            return nil
        }
        line = Substring(line.trimmingCharacters(in: .whitespaces))
        guard !line.isEmpty, line.count <= 200 else { return nil }
        let repeatsTheStatus = [response.statusAndReason, response.reason, String(response.status)].contains { $0.caseInsensitiveCompare(line) == .orderedSame }
        return repeatsTheStatus ? nil : Redactor.hidingCredentials(inText: String(line))
    }

    /// HTML's escapes of a short text (`&lt;`, `&amp;`, `&#39;`, `&#x27;`) as what they stand for.
    static func decodingEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = "", rest = text
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            rest = rest[amp...]
            guard let semicolon = rest.prefix(10).firstIndex(of: ";") else { out.append("&"); rest = rest.dropFirst(); continue }
            let name = rest[rest.index(after: rest.startIndex)..<semicolon]
            let named: [Substring: String] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'", "nbsp": "\u{A0}"]
            var decoded = named[name]
            if decoded == nil, name.hasPrefix("#") {
                let digits = name.dropFirst()
                let code = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
                decoded = code.flatMap(Unicode.Scalar.init).map { String($0) }
            }
            guard let decoded else { out.append("&"); rest = rest.dropFirst(); continue }
            out += decoded
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }

    /// `text` with its control characters escaped (`\u001b`), line breaks
    /// and tabs aside (`keepingLines: false` escapes line breaks too; a
    /// CR before a line feed goes): for what a server wrote, on a line of ours.
    static func visible(_ text: some StringProtocol, keepingLines: Bool = true) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value < 0x20 && !(keepingLines && (scalar == "\n" || scalar == "\t")) || (0x7F...0x9F).contains(scalar.value)
                // Bidi overrides and isolates: a server's `ok ‮gnp.exe` showed as `ok exe.png`.
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
        guard text.unicodeScalars.contains(where: isControl) else { return String(text) }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if keepingLines, scalar == "\r", index + 1 < scalars.count, scalars[index + 1] == "\n" { continue }
            guard isControl(scalar) else { out.append(scalar); continue }
            let hex = String(scalar.value, radix: 16)
            out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        }
        return String(out)
    }

    /// The answer's media type as a line may show it: a server's control
    /// characters escaped (`application/\u001b[31mevil` drove the terminal).
    static func mediaType(of response: ReceivedResponse, or missing: String = "unknown type") -> String {
        response.mediaType.map { visible($0, keepingLines: false) } ?? missing
    }

    /// A body: pretty JSON, text, or a one-line summary of binary data.
    func body(_ response: ReceivedResponse, hiding carried: [String] = []) -> String {
        // A spooled body's size is the spool's.
        let size = response.bodySize
        guard size > 0 else { return "" }
        let type = Self.mediaType(of: response)
        if let encoding = response.undecodedEncoding {
            let said = Self.visible(encoding, keepingLines: false)
            return palette.dim((response.undecodable ? "body does not decode as the \(said) its Content-Encoding says"
                                : "body encoded as \(said), which explorer cannot decode") + ": \(type), \(Self.size(size)) (not shown)") + "\n"
        }
        if response.claimsBinary { return palette.dim("binary body: \(type), \(Self.size(size)) (not shown)") + "\n" }
        let charset = response.textCharset
        do {
            // Tokens are never printed: the renderer hides them. Only the
            // preview is made: a large body is neither copied nor printed
            // whole, nor built whole as a tree (its start is: `jsonPreview`).
            let shown = Self.shown(hiding: carried, secretNames: secretNames, status: response.status)
            let start = try response.jsonPreview(keep: Self.previewParse(previewLimit)).get()
            var (text, complete) = JSONPrinter.pretty(start.value, style: palette.json, limit: previewLimit + 1, shown: shown)
            if complete, !start.complete, response.spool == nil, let whole = response.json {
                // The start printed shorter than a preview (a body of escapes that print small): all of it, then.
                (text, complete) = JSONPrinter.pretty(whole, style: palette.json, limit: previewLimit + 1, shown: shown)
            }
            // A spooled body's tree is only its start, however short it prints.
            return misreadWarning(response) + preview(text, bodySize: complete && response.spool == nil ? nil : size)
        } catch {
            // A spooled body found to be JSON on its way, whose start alone
            // does not parse (its first value is longer): the start as text.
            if response.claimsJSON, response.spool?.jsonError != nil || response.spool == nil {
                // JSON lines under a JSON type (httpbin's /stream/N): a row each, as a stream's are shown, with no warning.
                if let rows = Self.jsonLines(response) {
                    let shown = Self.shown(hiding: carried, secretNames: secretNames, status: response.status)
                    return rows.map { JSONPrinter.compact($0, style: palette.json, shown: shown) + "\n" }.joined()
                }
                let shown = textOrBinary(response, type: type, charset: charset, hiding: carried)
                let binary = shown.hasPrefix(palette.dim("binary body: "))
                // Past the parser's depth is explorer's limit, not the server's mistake (xh formats it).
                let said = Self.tooDeep(error) ?? "the body says \(type) but is not valid JSON (\(error))"
                let warning = palette.yellow("warning: ") + said + (binary ? "" : "; shown as text") + "\n"
                return warning + shown
            }
        }
        return textOrBinary(response, type: type, charset: charset, hiding: carried)
    }

    /// The values of a body of JSON lines (two or more lines, each a JSON
    /// value, blank lines aside), kept in memory whole; nil for any other.
    static func jsonLines(_ response: ReceivedResponse) -> [JSONValue]? {
        guard response.spool == nil, response.body.contains(UInt8(ascii: "\n")) else { return nil }
        var values: [JSONValue] = []
        for line in response.body.split(separator: UInt8(ascii: "\n")) {
            guard line.contains(where: { !" \t\r".utf8.contains($0) }) else { continue }
            guard let value = try? JSONParser.parse(Array(line)) else { return nil }
            values.append(value)
        }
        return values.count >= 2 ? values : nil
    }

    /// Bytes that are not UTF-8 (GBK labelled as nothing) read as U+FFFD: said, not silently.
    private func misreadWarning(_ response: ReceivedResponse) -> String {
        guard response.readsWithReplacements else { return "" }
        return palette.yellow("warning: ") + Self.misreadNote
    }

    static let misreadNote = "the body is not UTF-8 (nor in a charset its Content-Type names); \u{FFFD} stands for each byte that is not\n"

    /// `text` (a request line, a header, a form) with the values filled in
    /// for `{{secret:NAME}}` hidden.
    func hidingSupplied(in text: String) -> String {
        Redactor.hiding(alsoHidden, inText: text)
    }

    /// A text body as shown: the secret members of JSON written in it, and
    /// the credentials the request carried where it echoes them, hidden.
    static func hidingSecrets(in text: String, carried: [String]) -> String {
        Redactor.hidingCredentials(inText: Redactor.hiding(carried, inText: text))
    }

    /// How a JSON body's strings are shown: secret-named members hidden,
    /// and any string holding a credential the request carried.
    private static func shown(hiding carried: [String], secretNames: Set<String>, status: Int = 200) -> (_ key: String?, _ text: String) -> String {
        let named = Redactor.shownRememberingKeys(alsoSecret: secretNames, messages: status >= 400)
        // A credential is long (a token): most strings are shorter, and are not searched.
        let shortest = carried.map(\.utf8.count).min() ?? .max
        return carried.isEmpty ? named : { key, text in
            // A secret-named member is hidden whole on a success; an error's may be a message, searched as any string.
            guard text.utf8.count >= shortest, status >= 400 || !(key.map { Redactor.isSecretName($0) || secretNames.contains($0) } ?? false) else { return named(key, text) }
            // An HTML page's escapes inside a string (`bad key S3cr3t&#x2F;4`) too.
            let escaped = text.includes(ascii: "&#") || text.includes(ascii: "\\u") || text.includes(ascii: "\\/")
            guard escaped || carried.contains(where: text.includes) else { return named(key, text) }
            // The credentials it carried first, whole (`a key9`), then what else the string holds.
            return named(key, Redactor.hiding(carried, inText: text))
        }
    }

    /// The body for a program to read (`explorer -c 'get /big -b' | jq`):
    /// whole, as `show` reads it (up to 64 MiB), pretty and with its
    /// secrets hidden as on a terminal, where the preview cut it after 256
    /// Why a body that says JSON is not read as JSON, when the reason is explorer's own limit.
    static func tooDeep(_ error: JSONParseError) -> String? {
        error.reason.hasPrefix("nesting deeper than")
            ? "the body nests JSON deeper than \(JSONParser.maximumDepth) levels, more than explorer reads" : nil
    }

    /// KiB and jq read a broken JSON. A binary body, and one past what
    /// `show` reads, are `pipedBody`'s.
    private func wholeBody(_ response: ReceivedResponse, hiding carried: [String]) -> (out: String, err: String) {
        if response.isReadableWhole, response.undecodedEncoding == nil, !response.claimsBinary {
            if let value = response.json {
                let (text, _) = JSONPrinter.pretty(value, style: palette.json, limit: .max, shown: Self.shown(hiding: carried, secretNames: secretNames, status: response.status))
                return (text.hasSuffix("\n") ? text : text + "\n", misreadWarning(response))
            }
            // Mostly text (a byte or two not UTF-8) as the screen shows it: its raw bytes went out, secrets and all.
            if let bytes = response.wholeBody,
               let text = Self.text(bytes, charset: response.textCharset) ?? Self.mostlyText(bytes, type: Self.mediaType(of: response)) {
                // Text as it came: no line end added (a 64 MiB text stays 64 MiB).
                let hidden = Self.hidingSecrets(in: text, carried: carried)
                // No body at all (a HEAD's, a 204's) is no JSON gone wrong: it was warned of.
                var warning = ""
                if response.claimsJSON, !bytes.isEmpty, Self.jsonLines(response) == nil {
                    // Past the parser's depth is explorer's limit, as the screen says (piped, it was "not valid JSON").
                    let deep: String? = { () -> String? in
                        do throws(JSONParseError) { _ = try JSONParser.parse(bytes) } catch { return Self.tooDeep(error) }
                        return nil
                    }()
                    let said = deep ?? "the body says \(Self.mediaType(of: response, or: "JSON")) but is not valid JSON"
                    warning = palette.yellow("warning: ") + said + "; written as it came\n"
                }
                return (hidden, warning)
            }
        }
        // Binary or still encoded: `pipedBody` writes its bytes instead.
        return (body(response, hiding: carried), "")
    }

    /// What `-b` alone into a pipe writes that is not text.
    enum PipedBody: Equatable {
        /// A binary body's bytes, as curl and HTTPie write them (`> photo.png`).
        case bytes([UInt8])
        /// Why nothing is written: a body past what is read whole (half a
        /// JSON document, with a success status, would mislead a program).
        case refused(String)
    }

    /// Nil where the body is text (`render` prints it) or nothing is piped.
    func pipedBody(_ outcome: Outcome) -> PipedBody? {
        guard printsWholeBodies, case let .exchange(exchange, _, view) = outcome, view.subtracting(.asItCame) == [.responseBody] else { return nil }
        let response = exchange.response
        guard response.bodySize > 0 else { return nil }
        guard response.isReadableWhole else {
            return .refused("the body is \(OutcomeText.sizeBeyondLimit(response)), more than the \(ReceivedResponse.wholeLimit >> 20) MiB "
                            + "printed whole into a pipe; -o FILE or `save FILE` writes it (nothing written)")
        }
        guard let bytes = response.wholeBody else { return nil }
        if view.contains(.asItCame) { return .bytes(bytes) }
        // Still encoded (brotli): the bytes as they came, as curl writes them without --compressed.
        if response.undecodedEncoding != nil || response.claimsBinary { return .bytes(bytes) }
        if response.json == nil && Self.text(bytes, charset: response.textCharset) == nil { return .bytes(bytes) }
        return nil
    }

    private func textOrBinary(_ response: ReceivedResponse, type: String, charset: String? = nil, hiding carried: [String]) -> String {
        // A spooled body's start may end inside a character.
        guard let spool = response.spool else { return textOrBinary(response.body[...], type: type, charset: charset, hiding: carried) }
        return textOrBinary(JSONParser.wholeCharacters(response.body), type: type, charset: charset, hiding: carried, spooledSize: spool.size)
    }

    /// `spooledSize`: the whole body's size when `bytes` are only its start.
    private func textOrBinary(_ bytes: ArraySlice<UInt8>, type: String, charset: String? = nil, hiding carried: [String], spooledSize: Int? = nil) -> String {
        if let text = Self.text(bytes, charset: charset) {
            let hidden = Self.hidingSecrets(in: text, carried: carried)
            return preview(escapesControls ? Self.visible(hidden) : hidden, bodySize: spooledSize)
        }
        if let text = Self.mostlyText(bytes, type: type) {
            let hidden = Self.hidingSecrets(in: text, carried: carried)
            return palette.yellow("warning: ") + Self.misreadNote + preview(escapesControls ? Self.visible(hidden) : hidden, bodySize: spooledSize)
        }
        return palette.dim("binary body: \(type), \(Self.size(spooledSize ?? bytes.count)) (not shown)") + "\n"
    }

    /// Text said to be text, with a few bytes that are not UTF-8 (`caf\u{E9}`
    /// of a Latin-1 server that says utf-8), read with U+FFFD for each: shown
    /// and said, as a JSON body is, not taken for binary (HTTPie shows it so).
    /// Judged by its first 4 KiB: megabytes of noise are not decoded to find out.
    static func mostlyText(_ bytes: some Collection<UInt8>, type: String) -> String? {
        guard type.hasPrefix("text/"), !bytes.contains(0), case let start = bytes.prefix(4096),
              String(decoding: start, as: UTF8.self).unicodeScalars.lazy.filter({ $0 == "\u{FFFD}" }).count <= max(1, start.count / 32)
        else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A body as text, or nil when it is binary: UTF-8 without a NUL byte
    /// (a NUL makes it binary, as HTTPie judges it), else the charset its
    /// Content-Type declares, in which a NUL byte may be half a character
    /// (UTF-16: an answer said "shown as text", then "binary body").
    static func text(_ bytes: some Collection<UInt8>, charset: String?) -> String? {
        let utf8 = bytes.contains(0) ? nil : String(validating: bytes, as: UTF8.self)
        guard let text = utf8 ?? charset.flatMap({ Charset.decode(Array(bytes), charset: $0) }), !text.utf8.contains(0) else { return nil }
        return text
    }

    /// How much of a body a preview's parse keeps: more than a preview
    /// prints from it in any usual case (pretty printing adds to the text),
    /// and the interpreter's (its TAB ids read the same tree).
    static func previewParse(_ previewLimit: Int) -> Int { max(2 * previewLimit, ReceivedResponse.previewParseBytes) }

    /// The text cut after `previewLimit` bytes of what shows: colour escape
    /// codes do not count (they cut coloured output short before), and a cut
    /// never splits a character or an escape; colour is reset after it.
    /// `bodySize`: the size of the body when `text` is only the start of its
    /// pretty form, which is not made whole (nor counted: that was a fifth of
    /// showing a large answer).
    private func preview(_ text: String, bodySize: Int? = nil) -> String {
        let bytes = Array(text.utf8)
        var visible = 0
        var i = 0
        while i < bytes.count, visible < previewLimit {
            if bytes[i] == 0x1B, i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
                i += 2
                while i < bytes.count, !(0x40...0x7E).contains(bytes[i]) { i += 1 }
                i += 1
                continue
            }
            visible += 1
            i += 1
        }
        while i < bytes.count, bytes[i] & 0xC0 == 0x80 { i += 1 }
        guard i < bytes.count || bodySize != nil else { return text.hasSuffix("\n") ? text : text + "\n" }
        // A cut after a line's indent would leave a line of spaces above the note.
        var end = i
        while end > 0, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        let shown = String(decoding: bytes[..<end], as: UTF8.self) + (palette.enabled ? "\u{1B}[0m" : "")
        let rest = bodySize.map { "the rest of the \(Self.size($0)) body is not shown" }
            ?? "\(Self.size(Self.visibleCount(bytes[i...]))) more not shown"
        // `show` reads a body into memory only up to a size; `save` writes any.
        let whole = (bodySize ?? 0) > ReceivedResponse.wholeLimit ? "`save FILE` writes it all" : "`show` prints it all"
        return shown + "\n" + palette.dim("… \(rest); \(whole)") + "\n"
    }

    /// Bytes of `bytes` that show: all but CSI escape sequences (`ESC [ … final`).
    static func visibleCount(_ bytes: ArraySlice<UInt8>) -> Int {
        var count = 0
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] == 0x1B, i + 1 < bytes.endIndex, bytes[i + 1] == UInt8(ascii: "[") {
                i += 2
                while i < bytes.endIndex, !(0x40...0x7E).contains(bytes[i]) { i += 1 }
                i += 1
            } else {
                count += 1
                i += 1
            }
        }
        return count
    }

    /// The request line, headers and body, as they would go on the wire;
    /// on screen (`hidingSecrets`), secret query values and the values of
    /// secret-named fields of a JSON, form or multipart body hidden, as `-v`
    /// hides them.
    /// A recording takes it whole: its own scrubber writes them as
    /// `{{secret:NAME}}`.
    func offline(_ request: PreparedRequest, hidingSecrets: Bool = false, formattingJSON: Bool = false,
                 parts: PrintParts = [.requestHeaders, .requestBody]) -> String {
        let target = hidingSecrets ? hidingSupplied(in: Redactor.redact(target: request.target, alsoSecret: secretParameters)) : request.target
        var lines = ["\(request.method) \(target) HTTP/1.1"]
        lines += request.wireHeaders.map { "\($0.name): \(hidingSecrets ? hidingSupplied(in: $0.value) : $0.value)" }
        var text = parts.contains(.requestHeaders) ? lines.joined(separator: "\n") + "\n" : ""
        if parts.contains(.requestBody), let body = request.body, !body.isEmpty {
            if !text.isEmpty { text += "\n" }
            let type = request.header("Content-Type")?.lowercased() ?? ""
            // JSON sent under another type (curl's -d is a form's, `--raw` with Content-Type:text/plain) has its secrets
            // hidden too, as -v hides them: its password was printed in clear.
            let json = type.contains("json") || hidingSecrets ? try? JSONParser.parse(body) : nil
            let shownJSON = hidingSecrets ? json.map { Redactor.hiding(credentials: alsoHidden, in: Redactor.redact(json: $0, alsoSecret: secretNames, carried: alsoHidden)) } : json
            if formattingJSON, type.contains("json"), let shownJSON {
                text += JSONPrinter.pretty(shownJSON) + "\n"
            } else if let json, let shownJSON, shownJSON != json {
                // As sent, but for what is hidden.
                text += JSONPrinter.compact(shownJSON) + "\n"
            } else if !body.contains(0), var s = String(validating: body, as: UTF8.self) {
                if hidingSecrets {
                    // A text body's credential lines (`--raw 'Password:x'`) too, as -v hides them: printed as typed.
                    let fields = Self.hidingFields(s, type: request.header("Content-Type") ?? "")
                    s = hidingSupplied(in: Self.carriesFields(type) ? fields : Redactor.hidingCredentials(inText: fields))
                }
                text += s.hasSuffix("\n") ? s : s + "\n"
            } else {
                // NUL bytes are binary though they are valid UTF-8 (a tar, a zeroed file), as HTTPie judges them.
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
