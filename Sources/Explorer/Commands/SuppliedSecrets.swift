import Core
import Foundation

/// The values a session filled in for `{{secret:NAME}}` (from
/// `EXPLORER_SECRET_*`, or typed without echo). Once supplied, a value is
/// the session's secret: hidden wherever an answer or a request shown
/// holds it (a captured copy sent again in another line included), and a
/// shell variable of its name in `--curl`. So is a value typed under a
/// secret's name (`typed(in:outcome:)`).
struct SuppliedSecrets: Sendable, Equatable {
    struct Secret: Sendable, Equatable {
        let name: String
        let value: String
        /// A part of the secret `name`, not the whole (`parts`).
        var isPart = false

        /// How a refusal names it.
        var placeholder: String { isPart ? "part of {{secret:\(name)}}" : "{{secret:\(name)}}" }
    }

    private(set) var named: [Secret] = []
    /// What the screen hides: each value of 3 characters or more, as typed,
    /// as a JSON string holds it (an echo of the JSON sent: `tok\"en`), as a
    /// URL or a form carries it (`a%20b`, `a+b`: an echo of the URL), as an
    /// HTML page writes it, and in base64 (`SecretScrubber.forms`).
    private(set) var shown: [String] = []
    /// Parts of a secret a replay captured from an answer that held it (`{{a:=/.{5}/}}{{b:=/.*/}}` of an echoed
    /// token): sent elsewhere piece by piece, they were the secret. Looked for in what a line sends however short,
    /// in any case; not hidden on screen (a piece of two letters would hide them everywhere).
    private(set) var parts: [Secret] = []

    var isEmpty: Bool { named.isEmpty && parts.isEmpty }

    /// Adds `value`, captured from an answer that held the secret `name`, as a part of it.
    mutating func addPart(_ value: String, of name: String) {
        guard !value.isEmpty, !parts.contains(where: { $0.value == value }) else { return }
        parts.append(Secret(name: name, value: value, isPart: true))
    }

    /// The secret a `capture` line took (`capture csrf = cookie:csrftoken`),
    /// by the variable's name, from the `variables` it was kept in: the
    /// session's secret from then on, as a typed one is (the screen, the
    /// recorder and a replay's reports hide it).
    static func captured(by command: Command?, outcome: Outcome, variables: [String: String]) -> (name: String, value: String)? {
        guard case let .capture(name, _)? = command, case .value(_, secret: true) = outcome, let value = variables[name] else { return nil }
        return (name, value)
    }

    /// Whether `add` would take any of `secrets` (a value not held yet).
    func wouldAdd(_ secrets: [(name: String, value: String)]) -> Bool {
        secrets.contains { secret in !secret.value.isEmpty && !named.contains { $0.value == secret.value } }
    }

    /// Adds the values not held yet; says whether any was new.
    mutating func add(_ secrets: [(name: String, value: String)]) -> Bool {
        var added = false
        for (name, value) in secrets where !value.isEmpty && !named.contains(where: { $0.value == value }) {
            named.append(Secret(name: name, value: value))
            added = true
            guard value.count >= 3 else { continue }
            // As the recorder finds them: typed, JSON-escaped, URL- and form-encoded, in HTML, in base64.
            for form in SecretScrubber.forms(of: value) where !shown.contains(form) { shown.append(form) }
        }
        return added
    }

    /// The secret `texts` or `bytes` hold, as they are or encoded (a Basic header's base64, hex, base64
    /// percent-encoded in a query), in any case: an echo that changed a header name's case (Flask's
    /// `Zq7Wlmp0…`) held it still.
    func held(in texts: [String], bytes: [UInt8]? = nil) -> Secret? {
        guard !isEmpty else { return nil }
        let plain = texts + texts.compactMap { $0.includes(ascii: "%") ? $0.removingPercentEncoding : nil }
        let all = (plain + plain.flatMap(Self.base64Decoded) + plain.flatMap(Self.hexDecoded)).map { $0.lowercased() }
        let lowered = bytes.map { $0.map { (65...90).contains($0) ? $0 | 0x20 : $0 } }
        func holds(_ form: String) -> Bool {
            let form = form.lowercased()
            return all.contains { $0.includes(form) } || lowered.map { $0.firstRange(of: Array(form.utf8)) != nil } == true
        }
        return named.first { secret in secret.value.count >= 3 && SecretScrubber.forms(of: secret.value).contains(where: holds) }
            ?? parts.first { part in holds(part.value) }
    }

    /// The secret (or part of one) that `piece`, a part of `text`, was taken from: one of its occurrences in
    /// `text` overlaps the secret's there, in any of its forms, in any case. An id beside a token in the same
    /// URL is none of it.
    func secret(under piece: String, in text: String) -> Secret? {
        guard !piece.isEmpty else { return nil }
        let lowered = text.lowercased()
        let pieces = lowered.ranges(of: piece.lowercased())
        func overlaps(_ form: String) -> Bool {
            lowered.ranges(of: form.lowercased()).contains { found in pieces.contains { $0.overlaps(found) } }
        }
        if !pieces.isEmpty, let found = named.first(where: { $0.value.count >= 3 && SecretScrubber.forms(of: $0.value).contains(where: overlaps) })
            ?? parts.first(where: { overlaps($0.value) }) {
            return found
        }
        // A secret inside a base64 or hex word, at any offset (a Basic header's `x:SECRET`, its pieces `eDpTM0NS`
        // and `RVRWQUxVRTk5`): the word is the secret's place.
        let exact = text.ranges(of: piece)
        for word in Self.encodedWords(in: text) where exact.contains(where: { $0.overlaps(word.range) }) {
            let decoded = word.decoded.lowercased()
            if let found = named.first(where: { $0.value.count >= 3 && decoded.includes($0.value.lowercased()) }) { return found }
        }
        return nil
    }

    /// The base64 (8 characters or more) and hex (16 digits or more) words of `text`, where each stands, and
    /// what each decodes to (`base64Decoded`, `hexDecoded`).
    static func encodedWords(in text: String) -> [(range: Range<String.Index>, decoded: String)] {
        var words: [(range: Range<String.Index>, decoded: String)] = []
        var start: String.Index?
        var at = text.startIndex
        func close(_ end: String.Index) {
            guard let from = start else { return }
            start = nil
            let word = String(text[from..<end])
            if let decoded = base64Decoded(word).first { words.append((from..<end, decoded)) }
            if let decoded = hexDecoded(word).first { words.append((from..<end, decoded)) }
        }
        while at < text.endIndex {
            let character = text[at]
            if isBase64Character(character) {
                if start == nil { start = at }
            } else {
                close(at)
            }
            at = text.index(after: at)
        }
        close(text.endIndex)
        return words
    }

    /// A character of a base64 word, standard or URL-safe (not its `=` padding).
    static func isBase64Character(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "+/_-".contains(character))
    }

    /// The texts that the base64 words (standard or URL-safe, 8 characters
    /// or more) in `text` decode to, read as UTF-8 (a byte that is not stands
    /// as U+FFFD: the text around it is still read).
    static func base64Decoded(_ text: String) -> [String] {
        // Cut at `=` too: a query's `q=…` is no part of its value (its padding is made again).
        text.split { !isBase64Character($0) }.compactMap { word in
            guard word.count >= 8 else { return nil }
            var standard = word.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while standard.count % 4 != 0 { standard += "=" }
            return Data(base64Encoded: standard).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// The texts that the hex words (16 digits or more, of an even count) in `text` decode to.
    static func hexDecoded(_ text: String) -> [String] {
        text.split { !$0.isHexDigit }.compactMap { word in
            guard word.count >= 16, word.count % 2 == 0 else { return nil }
            var bytes: [UInt8] = []
            var at = word.startIndex
            while at < word.endIndex {
                let next = word.index(at, offsetBy: 2)
                bytes.append(UInt8(word[at..<next], radix: 16) ?? 0)
                at = next
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The values a line typed under a secret's name, 6 characters or more
    /// (a shorter one would hide bits of ordinary text, as the recorder's
    /// scrubber judges it): a variable set, a request's items and the query
    /// of its path, a socket URL's query, a frame's secret members or
    /// `password=…` words. A line that fails has typed them all the same.
    static func typed(in command: Command) -> [(name: String, value: String)] {
        var found: [(name: String, value: String)] = []
        func query(_ target: String) {
            let items = URLComponents(string: target)?.queryItems ?? []
            for item in items where Redactor.isSecretParameter(item.name)
                || Redactor.isOAuthCode(name: item.name, value: item.value ?? "", besides: items.map(\.name)) {
                if let value = item.value { found.append((item.name, value)) }
            }
        }
        /// A credential header's value (`auth bearer X`, `auth basic U:P`, `header X-Api-Key:K`): a
        /// bearer's token, a Basic's password and its base64 (an echo of the header showed them on
        /// streamed rows and frames), another's whole value.
        func credential(_ value: String, named name: String) {
            // A Cookie's pairs each (`Cookie:sid={{v}}`, curl's `-b sid=…`): a variable set to one was kept in clear.
            if name.lowercased() == "cookie" {
                for pair in value.split(separator: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    if parts.count == 2 { found.append((parts[0], parts[1])) } else { found.append((name, parts[0])) }
                }
                return
            }
            let words = value.split(separator: " ", maxSplits: 1)
            // `token SECRET end` is no scheme and credential: the value whole (`SECRET end` was the token, named `$TOKEN`).
            guard words.count == 2, words[0].allSatisfy(\.isLetter), !words[1].contains(" ") else { return found.append((name, value)) }
            if words[0].lowercased() == "basic" {
                if let pair = BasicCredentials(authorization: value) { found.append(("password", pair.password)) }
                found.append(("basic_credentials", String(words[1])))
            } else {
                found.append(("token", String(words[1])))
            }
        }
        switch command {
        case let .set(name, value):
            if Redactor.isSecretName(name) { found.append((name, value)) }
        case let .header(.credential(header?)):
            credential(header.value, named: header.name)
        case let .header(.set(headers)):
            for header in headers where Redactor.isSecretHeaderName(header.name) { credential(header.value, named: header.name) }
        case let .http(_, path, items, options):
            // A byte test: `contains("?")` went through Foundation's string search, on every request.
            if path.utf8.contains(UInt8(ascii: "?")) { query(path) }
            // `http://u:PASSWORD@host/…`: sent as Basic auth.
            if path.utf8.contains(UInt8(ascii: "@")), let password = URLComponents(string: path)?.password { found.append(("password", password)) }
            // `--raw 'password=…'` (or raw JSON with one): echoed, it was shown in clear.
            if let raw = options.raw {
                found += (try? JSONParser.parse(raw)).map { Redactor.secretMembers(in: $0) } ?? Redactor.secretAssignments(inText: raw)
                // A GraphQL document's `password: \"…\"` in it.
                found += PatternText.bareMembers(in: raw).map { ($0.key, String(raw[$0.value])) }
            }
            let names = items.compactMap { item -> String? in
                if case let .query(name, _) = item { return name }
                if case let .stringField(name, _) = item { return name }
                return nil
            }
            for item in items {
                switch item {
                // OAuth 2's authorization code beside its token request's items.
                case let .query(name, value) where Redactor.isOAuthCode(name: name, value: value, besides: names),
                     let .stringField(name, value) where Redactor.isOAuthCode(name: name, value: value, besides: names):
                    found.append((name, value))
                case let .header(name, value) where Redactor.isSecretHeaderName(name):
                    // `Bearer …`: the credential after its scheme, named as --curl names it; `-a U:P` is one of these.
                    credential(value, named: name)
                case let .stringField(name, value) where Redactor.isSecretName(Redactor.leaf(of: name)): found.append((Redactor.leaf(of: name), value))
                // `query='mutation { login(email: "…", password: "…") }'`: a GraphQL document's secret arguments.
                case let .stringField(_, value): found += PatternText.bareMembers(in: value).map { ($0.key, String(value[$0.value])) }
                case let .jsonField(name, .string(value)) where Redactor.isSecretName(Redactor.leaf(of: name)): found.append((Redactor.leaf(of: name), value))
                // `creds:='{"password": "…"}'`: the secret members inside.
                case let .jsonField(_, .object(members)): found += Redactor.secretMembers(in: .object(members))
                case let .jsonField(_, .array(elements)): found += Redactor.secretMembers(in: .array(elements))
                case let .query(name, value) where Redactor.isSecretParameter(name): found.append((name, value))
                default: break
                }
            }
        case let .ws(.connect(target?, _)):
            query(target)
        case let .ws(.send(value)):
            found += Redactor.secretMembers(in: value)
        case let .ws(.sendText(text)):
            found += Redactor.secretAssignments(inTextFrame: text)
        default:
            break
        }
        // From 4 characters, as a recording hides what was typed: a 5-character password an error
        // quoted was shown on screen and hidden in the transcript.
        return found.filter { $0.value.count >= SecretScrubber.typedMinimumLength }
    }
}
