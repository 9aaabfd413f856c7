import Foundation

/// What the recorder writes for what it saw: the values as seen, except
/// those that cannot be the same next time or must not be on disk
/// (docs/transcripts.md, "What the recorder writes"):
/// - secrets (members named like `*token`, `password`, `secret`; anything
///   shaped like a JWT) become `{{secret:NAME}}`;
/// - ISO timestamps and HTTP dates become `{{timestamp}}`, UUIDs `{{uuid}}`,
///   also inside a string; seconds since 1970 under a time's name `{{integer}}`;
///   so do generated names of 24 hex digits or more (`{{/[0-9a-f]+/}}`);
/// - the base URL inside a string becomes `{{base_url}}`;
/// - the value a `capture` step picked becomes a pattern of its kind.
/// Of the headers Content-Type is written, the Location of a redirect or
/// of a created thing, a list's Link and Content-Range; others can be added
/// by hand.
extension Expectation {
    public init(recording observed: Observation, baseURL: String?, volatileBody: Bool = false, secretFields: SecretFields = .none) {
        self.init(refreshed: observed.refreshed, status: observed.status, reason: observed.reason)
        version = observed.version
        if observed.status != nil, let type = observed.headers.first(where: { $0.name.lowercased() == "content-type" }) {
            headers = [("Content-Type", .literal(type.value))]
        }
        // Where a redirect points is the point of it: a replay said nothing when it moved, and the mock
        // answered the 3xx without one (a client following it stopped there). So is a created thing's
        // place (201, 202): the mock answered without it, and `capture loc = header:Location` then
        // `get {{loc}}` could not be served. Its ids are as they came, as a body's: the mock serves the
        // place the recording went to, and a replay takes any id there (`TranscriptMatcher.matchHeader`).
        if let status = observed.status, (200..<400).contains(status),
           let location = observed.headers.first(where: { $0.name.lowercased() == "location" }) {
            headers.append(("Location", .recording(location: location.value, baseURL: baseURL)))
        }
        // Which part a partial answer is (206, and a 416's `*/5`): without it the mock's 206 was no valid HTTP, and
        // PostgREST's clients, which read the count there, had none.
        // A 200 of items with its count (PostgREST's `Prefer: count=exact`, `0-9/120`) too: `next` pages by it.
        if let status = observed.status, (200..<300).contains(status) || status == 416,
           let range = observed.headers.first(where: { $0.name.lowercased() == "content-range" }) {
            headers.append(("Content-Range", .literal(range.value)))
        }
        // A list's pages (`Link: <…?page=2>; rel="next"`, GitHub's way): without it the mock served no `next` step (each
        // was left out unsaid, and `?page=3` got page 1), and a replay could not follow one.
        if let status = observed.status, (200..<300).contains(status) {
            for link in observed.headers where link.name.lowercased() == "link" {
                headers.append(("Link", .recording(location: link.value, baseURL: baseURL)))
            }
        }
        switch observed.body {
        case nil: body = nil
        case let .json(value)?:
            // An error answer hands out no secrets: its `details.password` is a message about one ("required").
            let secretKeys = (observed.status ?? 200) < 400
            body = .json(volatileBody ? .kind(of: value)
                         : .recording(value, key: nil, baseURL: baseURL, secretKeys: secretKeys, secretFields: secretKeys ? secretFields : .none))
        case let .text(lines)?: body = .text(lines.map { .recording($0, baseURL: baseURL) })
        case let .binary(summary)?: body = .binary(summary)
        }
        // A hidden value's length is the value's: a token of another length failed the line (a 302 login's
        // `#access_token=<hidden: 17 characters>`). Any length of two or more matches.
        errors = observed.errors.map { PatternText.recording($0, baseURL: baseURL).anyHiddenLength }
        notes = observed.notes.map { PatternText.recording($0, baseURL: baseURL).anyHiddenLength }
        var captures = FrameCaptures()
        frames = observed.frames.filter { !$0.isHeartbeat }.map {
            ExpectedFrame.recording($0, baseURL: baseURL, secretFields: secretFields, captures: &captures)
        }
    }
}

extension ExpectedValue {
    /// A large answer's body as a recording keeps it: each list longer than
    /// `elements` by its first ones and `...` (the live list holds them,
    /// among others), each string longer than `characters` as `{{string}}`.
    /// A 50 MB answer was written as a 116 MB transcript, which replay and
    /// the mock refuse (64 MiB at most), taking 1.4 GB and 25 s to record.
    public func sampled(elements: Int = 20, characters: Int = 65_536) -> ExpectedValue {
        switch self {
        case let .object(members, open):
            return .object(members.map { Member($0.key, $0.value.sampled(elements: elements, characters: characters)) }, open: open)
        case let .array(items, contains):
            let kept = items.prefix(elements).map { $0.sampled(elements: elements, characters: characters) }
            return .array(Array(kept), contains: contains || items.count > elements)
        case let .literal(.string(text)) where text.utf8.count > characters:
            return .pattern(.init(.string))
        case let .text(text) where text.description.utf8.count > characters:
            return .pattern(.init(.string))
        default:
            return self
        }
    }

    /// `value` as a recording writes it; `key` is the member it is the value of.
    /// `secretKeys` false: members named like secrets are kept (JWT-shaped strings are still hidden).
    /// `secretFields`: the profile's secret fields, hidden whatever their values look like.
    public static func recording(_ value: JSONValue, key: String?, baseURL: String?, secretKeys: Bool = true,
                                 secretFields: SecretFields = .none) -> ExpectedValue {
        recording(value, keys: key.map { [$0] } ?? [], baseURL: baseURL, secretKeys: secretKeys, secretFields: secretFields)
    }

    private static func recording(_ value: JSONValue, keys: [String], baseURL: String?, secretKeys: Bool,
                                  secretFields: SecretFields) -> ExpectedValue {
        let key = keys.last
        switch value {
        case let .object(members):
            return .object(members.map {
                Member($0.key, recording($0.value, keys: keys + [$0.key], baseURL: baseURL, secretKeys: secretKeys, secretFields: secretFields))
            }, open: false)
        case let .array(items):
            return .array(items.map { recording($0, keys: keys, baseURL: baseURL, secretKeys: secretKeys, secretFields: secretFields) }, contains: false)
        case let .string(s):
            if secretKeys, !s.isEmpty, let key, Redactor.isSecretName(key) || secretFields.contains(keys) {
                return .text(PatternText([.pattern(.init(.secret(secretName(key))))]))
            }
            // In an error answer a secret-named member may be a message (`"password": "required"`); any other
            // value is hidden (an echoed token was written in clear, and a short one, `Bearer abc`, still was).
            if !secretKeys, !s.isEmpty, let key, Redactor.isSecretName(key) || secretFields.contains(keys), !Self.readsAsAMessage(s) {
                return .text(PatternText([.pattern(.init(.secret(secretName(key))))]))
            }
            if Redactor.looksLikeJWT(s) { return .text(PatternText([.pattern(.init(.secret(secretName(key ?? "jwt"))))])) }
            if let typed = typedPattern(s) { return .text(PatternText([.pattern(typed)])) }
            // A checksum of what was sent (`"sha256": "9f86…"`) is the same each time, and what an upload's test
            // checks: written as it came, not as a generated name (a corrupted upload replayed green).
            if let key, isDigestName(key), s.allSatisfy(\.isHexDigit) { return .literal(.string(s)) }
            let text = PatternText.recording(s, baseURL: baseURL)
            return text.literalText.map { .literal(.string($0)) } ?? .text(text)
        case .number:
            // A PIN or a numeric key is as secret as a string one (it was written as it came).
            if secretKeys, let key, Redactor.isSecretName(key) || secretFields.contains(keys) {
                return .pattern(.init(.secret(secretName(key))))
            }
            if let key, isEpochTime(value, key: key) { return .pattern(.init(.integer)) }
            // Seconds with a fraction (`"server_time": 1795949825.173`): any number.
            if let key, value.intValue == nil, case let .number(text) = value, let seconds = Double(text),
               (1_000_000_000...4_102_444_800).contains(seconds), isTimeName(key) { return .pattern(.init(.number)) }
            return .literal(value)
        default:
            return .literal(value)
        }
    }

    /// A pattern of the value's kind: what a captured value is expected to be.
    public static func kind(of value: JSONValue) -> ExpectedValue {
        switch value {
        case .number: return .pattern(.init(value.intValue != nil ? .integer : .number))
        case let .string(s): return .pattern(typedPattern(s) ?? .init(.string))
        default: return .pattern(.init(.any))
        }
    }

    /// One word of 8 characters or more holding letters and digits: a token,
    /// not a message (`required`, `too short`, `must contain a digit`).
    static func looksLikeAToken(_ s: String) -> Bool {
        s.count >= 8 && !s.contains(where: \.isWhitespace) && s.contains(where: \.isLetter) && s.contains(where: \.isNumber)
    }

    /// What an error answer says under a secret's name that is a message,
    /// not the secret: words (`This password is too short.`, `can't be
    /// blank`) or one lower-case word (`required`, `too_short`). Anything
    /// else is hidden there as on a success: a 400 echoing `"password":
    /// "EBPW1"`, a 403's `"Authorization": "Bearer hunter2"` were shown.
    public static func readsAsAMessage(_ s: String) -> Bool {
        let words = s.split(whereSeparator: \.isWhitespace)
        guard let first = words.first else { return false }
        if words.count == 1 {
            return s.allSatisfy { $0.isASCII && ($0.isLowercase || $0 == "_" || $0 == "-" || $0 == ".") }
        }
        let schemes: Set<String> = ["bearer", "basic", "token", "digest", "jwt", "apikey", "api-key", "negotiate", "hmac", "mac", "dpop"]
        return !schemes.contains(first.lowercased()) && !looksLikeAToken(String(first)) && !Redactor.mayHoldJWT(s)
    }

    /// A time as seconds or milliseconds since 1970 (`"updated_at": 1764190000`,
    /// `"ts": 1764190000123`): an integer between 2001 and 2100 under a
    /// member whose name says time. It is written `{{integer}}`, as volatile
    /// as an ISO timestamp; an id of ten digits under another name is kept.
    /// A member holding a digest of content: `sha256`, `md5`, `checksum`, `contentHash`, `file_digest`.
    static func isDigestName(_ key: String) -> Bool {
        let letters = key.lowercased().filter { $0.isLetter || $0.isNumber }
        return ["sha1", "sha224", "sha256", "sha384", "sha512", "md5", "crc32", "checksum", "digest", "hash"].contains { letters.contains($0) }
    }

    static func isEpochTime(_ value: JSONValue, key: String) -> Bool {
        guard let number = value.intValue, (1_000_000_000...4_102_444_800).contains(number)
                || (1_000_000_000_000...4_102_444_800_000).contains(number) else { return false }
        return isTimeName(key)
    }

    /// Whether a member's name says it holds a time (`updated_at`, `exp`, `serverTime`).
    static func isTimeName(_ key: String) -> Bool {
        // Its unit after it (`created_at_ms`, `createdAtMs`, `updatedMillis`, `timestamp_sec`): the name before it.
        let key = timeUnit(of: key).map { String(key.dropLast($0.count)) } ?? key
        let name = key.lowercased()
        let words = name.split { !$0.isLetter }.map(String.init)
        let timeWords: Set<String> = ["ts", "time", "timestamp", "date", "iat", "exp", "nbf", "expires", "expiry", "created", "updated",
                                      "modified", "now", "epoch", "at", "since", "until", "seen", "sent", "when", "login"]
        if let last = words.last, timeWords.contains(last) { return true }
        // camelCase: `createdAt`, `serverTime`, `lastSeen`, `lastLogin`.
        return ["At", "Time", "Timestamp", "Date", "Ts", "Login", "Seen"].contains { key.hasSuffix($0) && key.count > $0.count }
    }

    /// The unit a time's name ends in (`_ms`, `Ms`, `Millis`, `_sec`), as written; nil without one.
    static func timeUnit(of key: String) -> String? {
        let lower = key.lowercased()
        for unit in ["milliseconds", "millis", "msec", "ms", "seconds", "secs", "sec"] where lower.hasSuffix(unit) && key.count > unit.count {
            let before = key.dropLast(unit.count)
            let written = String(key.suffix(unit.count))
            // After a separator, or camelCase's capital (`createdAtMs`); `items`, `terms` end in no unit.
            if before.hasSuffix("_") || before.hasSuffix("-") { return String(key.suffix(unit.count + 1)) }
            if written.first?.isUppercase == true, before.last?.isLetter == true { return written }
        }
        return nil
    }

    /// Whether a time's name says milliseconds (`createdAtMs`, `ts_millis`).
    public static func isMillisecondsName(_ key: String) -> Bool {
        guard let unit = timeUnit(of: key)?.lowercased() else { return false }
        return !unit.contains("sec") || unit.contains("msec") || unit.contains("milli")
    }

    static func typedPattern(_ s: String) -> TranscriptPattern? {
        if TranscriptPattern.isTimestamp(s) { return .init(.timestamp) }
        if TranscriptPattern.isUUID(s) { return .init(.uuid) }
        return nil
    }

    /// A secret's placeholder name from a member or item name: `access_token`, `x_api_key`.
    public static func secretName(_ name: String) -> String {
        // A name in another script: the secret words `Redactor` knows in English (`密码` is `password`), any
        // other letter by its code point (`u540d`). Each was `_`: `set 密码=…` and `set 令牌=…` were one
        // `{{secret:__}}`, and a replay filled both with one value.
        var name = name
        if !name.allSatisfy(\.isASCII) {
            for (word, english) in foreignSecretWords { name = name.replacingOccurrences(of: word, with: "_" + english + "_") }
            name = name.unicodeScalars.map { $0.isASCII ? String($0) : "u" + String($0.value, radix: 16) }.joined()
            name = name.split(separator: "_").joined(separator: "_")
        }
        var out = String(name.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
        if out.isEmpty || out.first!.isNumber { out = "_" + out }
        return out
    }
}

/// `Redactor.secretWords`' words in other languages, with the English name a placeholder takes for them.
private let foreignSecretWords = [("验证码", "code"), ("密码", "password"), ("口令", "password"), ("令牌", "token"), ("密钥", "key"),
                                  ("秘钥", "key"), ("パスワード", "password"), ("비밀번호", "password")]

/// A UUID anywhere in a text, as `TranscriptPattern.isUUID` accepts one whole.
nonisolated(unsafe) private let uuidInText = #/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/#


extension PatternText {
    /// The text with each `<hidden: N characters>` in its literal pieces matching any length of two or more.
    var anyHiddenLength: PatternText {
        guard pieces.contains(where: { if case let .literal(text) = $0 { text.contains("<hidden: ") } else { false } }) else { return self }
        return PatternText(pieces.flatMap { piece -> [Piece] in
            guard case let .literal(text) = piece else { return [piece] }
            var out: [Piece] = [], rest = text[...]
            while let match = rest.firstMatch(of: /<hidden: [0-9]+ characters>/) {
                out += [.literal(String(rest[..<match.range.lowerBound]) + "<hidden: "), .pattern(TranscriptPattern(.regex("[0-9]+"))),
                        .literal(" characters>")]
                rest = rest[match.range.upperBound...]
            }
            if !rest.isEmpty { out.append(.literal(String(rest))) }
            return out
        })
    }

    /// A redirect's `Location` as a recording writes it: as a line of text
    /// (the base URL as `{{base_url}}`…), its secret parameters
    /// (`#access_token=…`) as `{{secret:…}}`. Ids stay as they came, as a
    /// body's do: the mock answers with the place the recording went to.
    public static func recording(location: String, baseURL: String?) -> PatternText {
        var pieces: [Piece] = []
        for piece in Redactor.secretPieces(ofHeader: HTTPHeader(name: "Location", value: location)) {
            if let name = piece.secret {
                pieces.append(.pattern(.init(.secret(ExpectedValue.secretName(name)))))
            } else {
                pieces += recording(piece.text, baseURL: baseURL).pieces
            }
        }
        return PatternText(pieces)
    }

    /// A line or string as a recording writes it: the base URL as
    /// `{{base_url}}`, JWT-shaped words and the value of a secret-named
    /// `KEY = VALUE` or `KEY: VALUE` line (what `vars` and `--offline` print)
    /// as `{{secret:…}}`.
    public static func recording(_ text: String, baseURL: String?) -> PatternText {
        let secrets = Redactor.lineSecrets(text[...])
        if !secrets.isEmpty {
            var pieces: [Piece] = []
            var copied = text.startIndex
            for (name, range) in secrets {
                if copied < range.lowerBound { pieces.append(.literal(String(text[copied..<range.lowerBound]))) }
                pieces.append(.pattern(.init(.secret(ExpectedValue.secretName(name)))))
                copied = range.upperBound
            }
            if copied < text.endIndex { pieces.append(.literal(String(text[copied...]))) }
            return PatternText(pieces)
        }
        var pieces: [Piece] = []
        func literal(_ s: String) {
            guard !s.isEmpty else { return }
            if case let .literal(last)? = pieces.last {
                pieces[pieces.count - 1] = .literal(last + s)
            } else {
                pieces.append(.literal(s))
            }
        }
        func word(_ w: String) {
            if Redactor.looksLikeJWT(w) { pieces.append(.pattern(.init(.secret("jwt")))); return }
            // One inside a word (`/verify/eyJ…`, `?t=eyJ…`: a magic link's Location) went to the file in clear.
            if let jwt = Redactor.jwts(in: w).first, let at = w.range(of: jwt) {
                word(String(w[..<at.lowerBound]))
                pieces.append(.pattern(.init(.secret("jwt"))))
                word(String(w[at.upperBound...]))
                return
            }
            // A timestamp is as volatile in a line of text (`generated at …`, an NDJSON row) as in JSON;
            // quotes and punctuation around it stay.
            let core = w.drop { !$0.isNumber }.reversed().drop { !($0.isNumber || $0 == "Z") }.reversed()
            if core.count >= 16, TranscriptPattern.isTimestamp(String(core)), let range = w.range(of: String(core)) {
                literal(String(w[..<range.lowerBound]))
                pieces.append(.pattern(.init(.timestamp)))
                literal(String(w[range.upperBound...]))
                return
            }
            uuids(in: w)
        }
        // A UUID inside a word (`/uploads/<uuid>`) is as volatile as one standing alone.
        func uuids(in w: String) {
            var rest = Substring(w)
            while let match = rest.firstMatch(of: uuidInText) {
                generated(in: String(rest[..<match.range.lowerBound]))
                pieces.append(.pattern(.init(.uuid)))
                rest = rest[match.range.upperBound...]
            }
            generated(in: String(rest))
        }
        // So is a generated name: a run of 24 hex digits or more (96 random
        // bits and up: `/uploads/<32 hex digits>.png`), not part of a longer
        // word. No server hands out the same one twice. Up to 128 (a SHA-512):
        // a longer run is data (a 3 MB "aaa…" became a pattern whose match
        // took minutes, regex matching being quadratic on it).
        func generated(in w: String) {
            var run = ""
            func endRun() {
                if (24...128).contains(run.count), run.allSatisfy(\.isHexDigit) {
                    pieces.append(.pattern(.init(.regex(run.contains(where: \.isUppercase) ? "[0-9A-Fa-f]+" : "[0-9a-f]+"))))
                } else {
                    literal(run)
                }
                run = ""
            }
            for c in w {
                if c.isASCII, c.isLetter || c.isNumber {
                    run.append(c)
                } else {
                    endRun()
                    literal(String(c))
                }
            }
            endRun()
        }
        func words(_ segment: String) {
            // JSON in a line (`data: {"token":"…"}` of an event stream, an echo
            // of the JSON sent): its secret-named members' values, however short.
            var cursor = segment.startIndex
            for member in Self.secretMembers(in: segment) {
                userinfo(String(segment[cursor..<member.value.lowerBound]))
                pieces.append(.pattern(.init(.secret(ExpectedValue.secretName(member.key)))))
                cursor = member.value.upperBound
            }
            userinfo(String(segment[cursor...]))
        }
        // A URL's password (`https://bob:PW@host/`), as the screen hides it: recorded in clear.
        func userinfo(_ span: String) {
            for piece in Redactor.userinfoPieces(in: span) {
                if piece.isPassword { pieces.append(.pattern(.init(.secret("password")))) } else { pairs(piece.text) }
            }
        }
        // Secret-named `NAME=VALUE` pairs (`password="a b"`, a URL's `?access_token=`), read across words.
        func pairs(_ span: String) {
            for piece in Redactor.parameterPieces(in: span) {
                if let name = piece.secret { pieces.append(.pattern(.init(.secret(name)))) } else { encodedPairs(piece.text) }
            }
        }
        // A URL's query encoded inside another's (`?next=%2Fcb%3Ftoken%3DX`, an echo of the request's URL).
        func encodedPairs(_ span: String) {
            for piece in Redactor.encodedSecretPieces(in: span) {
                if let name = piece.secret { pieces.append(.pattern(.init(.secret(name)))) } else { plainWords(piece.text) }
            }
        }
        func plainWords(_ segment: String) {
            var current = ""
            for c in segment {
                if c == " " || c == "\"" || c == "'" {
                    word(current)
                    current = ""
                    literal(String(c))
                } else {
                    current.append(c)
                }
            }
            word(current)
        }
        // The base URL, and its ws:// form (a socket's URL), stand for this run's port.
        let base = baseURL.flatMap { $0.isEmpty ? nil : $0 }
        let socketBase = base.map(Self.socketURL)
        // Its host:port alone (a cookie's domain in `cookies`, an echoed Host) is as much this run's.
        let authority = base.flatMap { URLComponents(string: $0) }.flatMap { url in url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } }
        let segments: [String] = base.map { text.components(separatedBy: $0) } ?? [text]
        for (n, segment) in segments.enumerated() {
            if n > 0 { pieces.append(.pattern(.init(.reference("base_url")))) }
            let parts: [String] = socketBase.map { segment.components(separatedBy: $0) } ?? [segment]
            for (m, part) in parts.enumerated() {
                if m > 0 { pieces.append(.pattern(.init(.reference(Self.socketBaseVariable)))) }
                let spans: [String] = authority.map { part.components(separatedBy: $0) } ?? [part]
                for (k, span) in spans.enumerated() {
                    if k > 0 { pieces.append(.pattern(.init(.regex(Self.authorityPattern)))) }
                    words(span)
                }
            }
        }
        return PatternText(pieces)
    }

    /// The values of secret-named members of JSON written in `text` (a
    /// string's content between its quotes, or a number; each of those in a
    /// list under such a name), with their keys; and of GraphQL's arguments
    /// and input fields, whose names have no quotes (`bareMembers`).
    /// Read as JSON's grammar is, loosely: a text that is not JSON has none.
    public static func secretMembers(in text: String) -> [(key: String, value: Range<String.Index>)] {
        let quoted = quotedMembers(in: text)
        let bare = bareMembers(in: text)
        guard !bare.isEmpty else { return quoted }
        return (quoted + bare).sorted { $0.value.lowerBound < $1.value.lowerBound }
    }

    /// `password: "…"` with its name bare: a GraphQL document's argument or input field
    /// (`login(email: "a", password: "…")`), a JavaScript object's member; its quotes escaped too, as a JSON
    /// string holds the document (`{"query": "… password: \"…\" …"}`). A query's password was kept in
    /// clear in history and transcripts where its variable's was hidden.
    public static func bareMembers(in text: String) -> [(key: String, value: Range<String.Index>)] {
        guard text.includes(ascii: ": \"") || text.includes(ascii: ":\"") || text.includes(ascii: ": \\\"") || text.includes(ascii: ":\\\"")
                || text.includes(ascii: "= \"") || text.includes(ascii: "= \\\"") else {
            return []
        }
        let utf8 = text.utf8
        func isNameByte(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_")
        }
        var found: [(key: String, value: Range<String.Index>)] = []
        var i = utf8.startIndex
        var before: UInt8 = UInt8(ascii: " ")
        while i < utf8.endIndex {
            let byte = utf8[i]
            // A name starts after a blank, `(`, `{` or `,` (not inside a word, a quoted key, a URL or `$variable`).
            guard isNameByte(byte), [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "("), UInt8(ascii: "{"),
                                     UInt8(ascii: ","), UInt8(ascii: "$")].contains(before) else {
                before = byte
                i = utf8.index(after: i)
                continue
            }
            var j = i
            while j < utf8.endIndex, isNameByte(utf8[j]) { j = utf8.index(after: j) }
            let name = text[i..<j]
            var k = j
            while k < utf8.endIndex, utf8[k] == UInt8(ascii: " ") { k = utf8.index(after: k) }
            let variable = before == UInt8(ascii: "$")
            before = utf8[utf8.index(before: j)]
            i = j
            guard k < utf8.endIndex, utf8[k] == UInt8(ascii: ":"), Redactor.isSecretName(String(name)) else { continue }
            k = utf8.index(after: k)
            while k < utf8.endIndex, utf8[k] == UInt8(ascii: " ") { k = utf8.index(after: k) }
            // A variable's default (`$password: String = "…"`): past its type to the `=`.
            if variable {
                while k < utf8.endIndex, isNameByte(utf8[k]) || [UInt8(ascii: "!"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: " ")].contains(utf8[k]) {
                    k = utf8.index(after: k)
                }
                guard k < utf8.endIndex, utf8[k] == UInt8(ascii: "=") else { continue }
                k = utf8.index(after: k)
                while k < utf8.endIndex, utf8[k] == UInt8(ascii: " ") { k = utf8.index(after: k) }
            }
            // A block string (`"""…"""`): to the next three quotes.
            if text.utf8[k...].starts(with: Array("\"\"\"".utf8)) {
                let start = utf8.index(k, offsetBy: 3)
                guard let close = text[start...].range(of: "\"\"\""), start < close.lowerBound else { continue }
                found.append((String(name), start..<close.lowerBound))
                i = close.upperBound
                before = UInt8(ascii: "\"")
                continue
            }
            // Its quote, `"` or `\"`, and the same again where it ends (a `\` in it escapes what follows).
            let escaped = k < utf8.endIndex && utf8[k] == UInt8(ascii: "\\")
            if escaped { k = utf8.index(after: k) }
            guard k < utf8.endIndex, utf8[k] == UInt8(ascii: "\"") else { continue }
            let start = utf8.index(after: k)
            var end = start
            var closed = false
            while end < utf8.endIndex {
                if escaped, utf8[end] == UInt8(ascii: "\\"), utf8.index(after: end) < utf8.endIndex, utf8[utf8.index(after: end)] == UInt8(ascii: "\"") {
                    closed = true
                    break
                }
                if !escaped, utf8[end] == UInt8(ascii: "\"") { closed = true; break }
                if !escaped, utf8[end] == UInt8(ascii: "\\") { end = utf8.index(after: end) }
                if end < utf8.endIndex { end = utf8.index(after: end) }
            }
            guard closed, start < end else { continue }
            found.append((String(name), start..<end))
            i = end
            before = UInt8(ascii: "\"")
        }
        return found
    }

    /// The members of JSON written in `text` whose keys are quoted (`secretMembers`).
    private static func quotedMembers(in text: String) -> [(key: String, value: Range<String.Index>)] {
        guard text.includes(ascii: "\":") || text.includes(ascii: "\" :") else { return [] }
        let utf8 = text.utf8
        var found: [(key: String, value: Range<String.Index>)] = []
        // A list's items are found before the members of an object in it, which the loop finds later.
        var sorted = true
        var i = utf8.startIndex
        /// The end of the string that starts at `start` (its closing quote), or nil.
        func stringEnd(from start: String.Index) -> String.Index? {
            var j = utf8.index(after: start)
            while j < utf8.endIndex {
                switch utf8[j] {
                case UInt8(ascii: "\\"): j = utf8.index(after: j); if j < utf8.endIndex { j = utf8.index(after: j) }
                case UInt8(ascii: "\""): return j
                default: j = utf8.index(after: j)
                }
            }
            return nil
        }
        /// Where the number that may start at `start` ends (`start` itself when none does).
        func numberEnd(from start: String.Index) -> String.Index {
            var k = start
            while k < utf8.endIndex, utf8[k] == UInt8(ascii: "-") || utf8[k] == UInt8(ascii: ".") || utf8[k] == UInt8(ascii: "+")
                    || (0x30...0x39).contains(utf8[k]) || utf8[k] == UInt8(ascii: "e") || utf8[k] == UInt8(ascii: "E") { k = utf8.index(after: k) }
            return k
        }
        func skipBlanks(_ j: inout String.Index) {
            while j < utf8.endIndex, utf8[j] == UInt8(ascii: " ") || utf8[j] == UInt8(ascii: "\t") { j = utf8.index(after: j) }
        }
        while i < utf8.endIndex {
            guard utf8[i] == UInt8(ascii: "\""), let end = stringEnd(from: i) else { i = utf8.index(after: i); continue }
            let key = String(text[utf8.index(after: i)..<end])
            var j = utf8.index(after: end)
            skipBlanks(&j)
            guard j < utf8.endIndex, utf8[j] == UInt8(ascii: ":"), Redactor.isSecretName(key) else {
                // JSON inside a string (`"{\"refresh_token\": \"…\"}"`, as a line quotes a string that holds JSON).
                if key.includes(ascii: "\\\":") || key.includes(ascii: "\\\" :") { found += escapedMembers(in: text, utf8.index(after: i)..<end) }
                i = utf8.index(after: end)
                continue
            }
            j = utf8.index(after: j)
            skipBlanks(&j)
            guard j < utf8.endIndex else { break }
            if utf8[j] == UInt8(ascii: "\""), let valueEnd = stringEnd(from: j) {
                let start = utf8.index(after: j)
                if start < valueEnd { found.append((key, start..<valueEnd)) }
                i = utf8.index(after: valueEnd)
            } else if utf8[j] == UInt8(ascii: "[") {
                // A list under a secret's name (`"password": ["x"]`, `"tokens": [["a"], 2]`): its strings and
                // numbers, under that name. An object in it is read member by member, as the loop goes on inside.
                var objects = 0, lists = 0
                var k = j
                scan: while k < utf8.endIndex {
                    switch utf8[k] {
                    case UInt8(ascii: "\""):
                        guard let end = stringEnd(from: k) else { break scan }
                        if objects == 0, utf8.index(after: k) < end { found.append((key, utf8.index(after: k)..<end)) }
                        k = utf8.index(after: end)
                        continue scan
                    case UInt8(ascii: "["): lists += 1
                    case UInt8(ascii: "{"): objects += 1
                    case UInt8(ascii: "}"): objects -= 1
                    case UInt8(ascii: "]"):
                        lists -= 1
                        if lists == 0 { break scan }
                    case UInt8(ascii: "-"), 0x30...0x39:
                        let end = numberEnd(from: k)
                        if objects == 0, (0x30...0x39).contains(utf8[utf8.index(before: end)]) { found.append((key, k..<end)) }
                        k = end
                        continue scan
                    default: break
                    }
                    k = utf8.index(after: k)
                }
                sorted = false
                i = utf8.index(after: j)
            } else {
                let k = numberEnd(from: j)
                // A number (true, false and null are no secret).
                if k > j, (0x30...0x39).contains(utf8[utf8.index(before: k)]) { found.append((key, j..<k)) }
                i = k > j ? k : utf8.index(after: j)
            }
        }
        return sorted ? found : found.sorted { $0.value.lowerBound < $1.value.lowerBound }
    }

    /// `secretMembers` of JSON written escaped inside a string, between
    /// `bounds`: each quote is `\"`. A string value only.
    private static func escapedMembers(in text: String, _ bounds: Range<String.Index>) -> [(key: String, value: Range<String.Index>)] {
        var found: [(key: String, value: Range<String.Index>)] = []
        var rest = text[bounds]
        while let open = rest.range(of: "\\\""), let close = rest[open.upperBound...].range(of: "\\\"") {
            let key = String(rest[open.upperBound..<close.lowerBound])
            var after = rest[close.upperBound...].drop { $0 == " " }
            guard after.first == ":", Redactor.isSecretName(key) else { rest = rest[close.lowerBound...]; continue }
            after = after.dropFirst().drop { $0 == " " }
            guard after.hasPrefix("\\\""), let end = after.dropFirst(2).range(of: "\\\"") else { rest = after; continue }
            let start = after.dropFirst(2).startIndex
            if start < end.lowerBound { found.append((key, start..<end.lowerBound)) }
            rest = text[end.upperBound..<bounds.upperBound]
        }
        return found
    }

    /// What a base URL's host:port is written as in a line of text: any host
    /// and port, an IPv6 address in its brackets too (`[::1]:8080`).
    public static let authorityPattern = #"[A-Za-z0-9.:_\[\]-]+"#

    /// The variable a replay sets to the ws:// form of its base URL.
    public static let socketBaseVariable = "ws_base_url"

    /// http → ws, https → wss.
    public static func socketURL(_ url: String) -> String {
        if url.hasPrefix("https://") { return "wss://" + url.dropFirst("https://".count) }
        if url.hasPrefix("http://") { return "ws://" + url.dropFirst("http://".count) }
        return url
    }
}
