import Core

/// What a transcript keeps of an outcome: the parts the REPL shows, with the
/// body as data rather than coloured text, and no timings.
extension Outcome {
    func observation(renderer: Renderer) -> Observation {
        switch self {
        case .nothing, .exit: return Observation()
        // `show .password`: hidden on screen, and so in the recording (it was written in clear, and a report
        // compared the two values in clear).
        case let .value(value, secret): return Observation(body: .json(secret ? Redactor.hidingLeaves(value, as: "<hidden>") : value))
        case let .variables(variables):
            let text = variables.map { "\($0.name) = \($0.hidden ? "<hidden>" : $0.shown)" }.joined(separator: "\n")
            return Observation(body: text.isEmpty ? nil : .text(Self.lines(text)))
        case let .frames(notices, shortfall):
            // JSON frames as a JSON array, so a transcript writes them with patterns and hides their secrets.
            let values = notices.compactMap { try? JSONParser.parse($0.text) }
            var observation = Observation(body: values.count == notices.count ? .json(.array(values)) : .text(notices.map(\.text)))
            observation.errors = shortfall.map(Self.lines) ?? []
            return observation
        case let .failure(message, _), let .unanswered(_, _, _, message, _): return Observation(errors: Self.lines(message))
        case let .offline(request, note, _):
            // The Host line names this run's port; the rest is the request itself,
            // its query's secrets hidden (`?access_token=`, `?key=` were written in clear).
            var lines = Self.lines(renderer.offline(request)).filter { !$0.hasPrefix("Host: ") }
            if !lines.isEmpty {
                lines[0] = "\(request.method) \(Redactor.redact(target: request.target, alsoSecret: renderer.secretParameters)) HTTP/1.1"
            }
            // A JSON body's secret-named fields hidden, however short: the
            // scrubber finds only values of four characters or more, and
            // `password=abc` was written in clear. A replay hides them alike.
            if let body = request.body, let json = try? JSONParser.parse(body), let last = lines.indices.last,
               lines[last] == JSONPrinter.compact(json) {
                lines[last] = JSONPrinter.compact(Self.hidingSecrets(json, key: nil))
            }
            return Observation(body: .text(lines), notes: note.map(Self.lines) ?? [])
        case let .exchange(exchange, note, _):
            let response = exchange.response
            var observation = Observation(refreshed: exchange.refreshed, status: response.status, reason: response.reason,
                                          headers: response.headers, body: Self.body(response))
            observation.version = response.version
            if response.status >= 400 { observation.errors = Self.lines(renderer.errorSummary(response)) }
            if let note {
                if exchange.sessionExpired || exchange.refusal != nil {
                    observation.errors += Self.lines(note)
                } else {
                    // "4 lines streamed above" says how a terminal showed the body (the body
                    // itself is recorded): a replay, a script, shows it whole and says nothing;
                    // "not logged in" is a hint for the screen.
                    observation.notes = Self.lines(note).filter { !Interpreter.isScreenOnlyNote($0) }
                }
            }
            return observation
        case .message, .body, .cookies, .sessionHeaders, .defaults, .endpoints, .endpointDetails, .model,
             .help, .commandHelp, .socketStatus, .curl:
            // A hidden value's length is left out: a replay's secret may be another length.
            let text = (OutcomeText.plain(self) ?? "").replacing(/<hidden: \d+ characters?>/, with: "<hidden>")
            return Observation(body: text.isEmpty ? nil : .text(Self.lines(text)))
        }
    }

    /// JSON when it parses (whatever the Content-Type says), else text (UTF-8,
    /// or the charset the Content-Type names, as the display reads it), else
    /// a summary (as for a spooled body too large to read back); a summary
    /// too when the Content-Type says binary (`claimsBinary`).
    private static func body(_ response: ReceivedResponse) -> Observation.Body? {
        guard response.bodySize > 0 else { return nil }
        if response.claimsBinary { return .binary("\(Renderer.mediaType(of: response)), \(response.bodySize) bytes") }
        if let json = response.json { return .json(json) }
        // Mostly text (a byte or two not UTF-8), as the screen shows it: recorded as "binary", a replay compared nothing.
        if let bytes = response.wholeBody,
           let text = Renderer.text(bytes, charset: response.textCharset) ?? Renderer.mostlyText(bytes, type: Renderer.mediaType(of: response)) {
            return .text(lines(text))
        }
        return .binary("\(Renderer.mediaType(of: response)), \(response.bodySize) bytes")
    }

    /// `value` with each string or number under a key that names a secret
    /// as `<hidden>`, without its length (a replay's secret may be another).
    static func hidingSecrets(_ value: JSONValue, key: String?) -> JSONValue {
        let secret = key.map(Redactor.isSecretName) ?? false
        switch value {
        case .string where secret: return .string("<hidden>")
        case .number where secret: return .number("<hidden>")
        case let .array(items): return .array(items.map { hidingSecrets($0, key: key) })
        case let .object(members): return .object(members.map { ($0.key, hidingSecrets($0.value, key: $0.key)) })
        default: return value
        }
    }

    /// Lines without their ends; a final newline does not make an empty last line.
    private static func lines(_ text: String) -> [String] {
        // "\r\n" is one Character, which a split on "\n" does not see: CRLF text stayed one line.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
