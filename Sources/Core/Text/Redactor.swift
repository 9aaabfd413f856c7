import NIOConcurrencyHelpers

/// Removes secrets from command lines before they reach disk (history now,
/// transcripts later): the password of `login EMAIL PASSWORD`, values of
/// request items whose name says secret, and Authorization/Cookie headers.
public enum Redactor {
    public static let placeholder = "***"

    /// Parts of a name that make it a secret's: `X-Goog-Api-Key`, Azure's
    /// `api-key` and `Ocp-Apim-Subscription-Key`, `X-Authorization`.
    static let secretWords = ["password", "passwd", "secret", "api_key", "apikey", "api-key", "subscription-key", "subscription_key",
                              "access_key", "access-key", "accesskey", "private_key", "private-key", "privatekey", "authorization",
                              // Keys that sign or encrypt, OAuth's proofs, one-time codes under a longer name.
                              "signing_key", "signingkey", "encryption_key", "encryptionkey", "client_assertion", "code_verifier",
                              "mfa_code", "mfacode", "otp_code", "otpcode",
                              // The same in the seeds' language and its neighbours': a password, a token, a key, a one-time code.
                              "密码", "口令", "令牌", "密钥", "秘钥", "验证码", "パスワード", "비밀번호"]
    /// Whole names that are secrets' (a word in other names: `cookie_policy`,
    /// `passport`, `pwd_hint` are not one); `pw` and `pass` are short for a
    /// password; a session's id and a CSRF token are credentials, under the
    /// names frameworks give them (Django's `sessionid`, Express's `connect.sid`;
    /// not `session_id`, which is as often a workout's or a chat's).
    static let secretHeaders = ["cookie", "set-cookie", "set_cookie", "setcookie", "set-cookie2", "x-api-key", "authentication", "x-auth", "pw", "pwd", "pass", "passphrase",
                                "sessionid", "x-session-id", "session_key", "sessionkey", "jsessionid",
                                "phpsessid", "connect.sid", "laravel_session", "csrf", "xsrf", "x-csrf", "x-xsrf",
                                // A PIN, a one-time code, a request's signature header, a credential under a plain name
                                // (`set bearer=…`); not `signature` alone, a forum's or an email's as often (`?signature=` is `secretParameters`').
                                "pin", "otp", "totp", "x-signature", "bearer", "credential", "credentials", "auth", "jwt"]
    /// Whole names that are secrets' in a query, not elsewhere: Google's
    /// `?key=`, a signed URL's `sig=` (a JSON member `key` is usually not one);
    /// an S3 or GCS presigned URL's signature.
    /// And a socket's usual credentials in its URL: a one-time `ticket`, a `sid` or `session_id`.
    static let secretParameters: Set<String> = ["key", "sig", "signature", "x-amz-signature", "x-goog-signature", "jsessionid", "phpsessid",
                                                "ticket", "sid", "session", "session_id", "jwt"]

    /// Whether a header's name names a credential: a secret's name, or one
    /// holding a word only a credential's header holds (`X-Session`,
    /// `Session-Id`, `X-Jwt`, `X-Bearer`, `X-Creds`, `X-Passphrase`). A JSON
    /// member `session_id` is as often a workout's; a header so named is a
    /// login's. CORS's `Access-Control-Allow-Credentials` holds none.
    /// So is one with a word of its own that names one (`X-Sid`, `X-Tok`,
    /// `X-Pin`, `X-Otp-Code`, `X-Client-Key`, `X-Cookie`): the redirect rule
    /// kept them from another origin. `Idempotency-Key` and
    /// `Sec-WebSocket-Key` are no one's secret: a replay would ask for them.
    public static func isSecretHeaderName(_ name: some StringProtocol) -> Bool {
        let name = String(name)
        if isSecretName(name) { return true }
        // Asked of every header of every request: kept, as `isSecretName`'s answers are (Foundation's
        // substring search, on every header, cost a request 5%).
        if let known = headersJudged.withLockedValue({ $0[name] }) { return known }
        let lower = name.lowercased()
        let secret = !lower.hasPrefix("access-control-") && !notSecretHeaders.contains(lower)
            && (headerOnlyWords.contains { lower.utf8.firstRange(of: $0.utf8) != nil }
                || lower.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == "." }).contains { headerOnlyNames.contains(String($0)) })
        headersJudged.withLockedValue { judged in
            if judged.count >= 4096 { judged.removeAll(keepingCapacity: true) }
            judged[name] = secret
        }
        return secret
    }

    private static let headersJudged = NIOLockedValueBox<[String: Bool]>([:])

    private static let headerOnlyWords = ["session", "jwt", "bearer", "cred", "passphrase", "passcode", "authentication", "signature", "hmac",
                                          "mfa", "verification-code", "access-code", "auth-code"]
    private static let headerOnlyNames: Set<String> = ["sid", "tok", "pin", "otp", "key", "cookie", "auth", "pass", "pwd", "secret"]
    private static let notSecretHeaders: Set<String> = ["idempotency-key", "sec-websocket-key"]

    /// Whether a query parameter's name names a secret: a secret's name, or one of `secretParameters`.
    public static func isSecretParameter(_ name: String) -> Bool {
        if isSecretName(name) || secretParameters.contains(name.lowercased()) { return true }
        // A bracketed name by its last key (`auth[access_token]`, JSON:API's and Rails' nesting): it was sent in clear.
        guard name.utf8.contains(UInt8(ascii: "[")) else { return false }
        let leaf = leaf(of: name)
        return leaf != name && (isSecretName(leaf) || secretParameters.contains(leaf.lowercased()))
    }

    /// OAuth 2's authorization code (RFC 6749 §4.1.2): a bearer credential,
    /// exchanged once for tokens, under a name (`code`) that says nothing
    /// alone (a country's, a product's). It is one beside what an
    /// authorization answer or a token request holds besides it: a
    /// `grant_type`, `code_verifier` (PKCE), `redirect_uri`, `client_id` or
    /// `session_state`; or a `state` with a code of 10 characters or more.
    public static func isOAuthCode(name: String, value: String, besides names: some Sequence<String>) -> Bool {
        guard name.lowercased() == "code", !value.isEmpty else { return false }
        let others = Set(names.map { $0.lowercased() })
        return !others.isDisjoint(with: ["grant_type", "code_verifier", "redirect_uri", "client_id", "session_state"])
            || others.contains("state") && value.count >= 10
    }

    /// The names of a line's query and field items, when one is a `code`
    /// (what `isOAuthCode` reads it beside); empty otherwise.
    public static func itemNames(besideACode words: [String]) -> [String] {
        guard words.contains(where: { $0.lowercased().hasPrefix("code=") }) else { return [] }
        return words.dropFirst().compactMap { word in
            switch try? RequestItem.parse(word) {
            case let .query(name, _)?, let .stringField(name, _)?: name
            default: nil
            }
        }
    }

    /// The names of a query's or a form's pairs (`a=1&b=2`), decoded.
    static func pairNames(_ text: some StringProtocol) -> [String] {
        text.split(separator: "&").map { pair in decodedName(Substring(pair.prefix { $0 != "=" })) }
    }

    /// A command line as history keeps it: secrets replaced, and a `login`
    /// line without its password (recalled, it asks for the password again,
    /// where a stored `***` would be sent as the password). A line that does
    /// not split into words is kept only when it mentions nothing secret.
    /// `secretFields`: the profile's own secret fields, hidden as the
    /// usual names are.
    /// `hide`: what a secret becomes (`***`; history's `{{secret:NAME}}`,
    /// which a recalled line asks for again instead of sending `***`).
    public static func redact(line: String, secretFields: SecretFields = .none,
                              hide: (String) -> String = { _ in placeholder }) -> String? {
        // Last, a JWT wherever the rules left it (a `ws send` JSON string, a curl header, `?x=eyJ…`):
        // the history kept six such forms in clear that a recording hid.
        // And the credential after `Bearer ` wherever it stands (`ws send {"note": "Bearer abc…"}`).
        redactingByRule(line: line, secretFields: secretFields, hide: hide).map { redacted in
            let kept = hidingServiceTokens(in: mayHoldJWT(redacted) ? hidingJWTs(in: redacted) { _ in hide("jwt") } : redacted) { _ in hide("service_key") }
            return hidingBearerCredentials(in: kept) { _ in hide("authorization") }
        }
    }

    private static func redactingByRule(line: String, secretFields: SecretFields, hide: (String) -> String) -> String? {
        if let socket = redact(socketJSONLine: line, hide: hide, secretFields: secretFields) {
            return socket
        }
        if let frame = redact(textFrameLine: line, hide: hide) { return frame }
        // JSON typed unquoted where an item goes (`post /x {"password":"…"}`): its quotes are gone once split.
        let line = line.includes(ascii: "\":") ? hidingSecretMembers(inWord: line, hide: hide) : line
        guard let words = try? LineTokenizer.split(line).map(\.text) else {
            let lower = line.lowercased()
            let risky = ["login", "token", "bearer", "basic "] + secretWords + secretHeaders
            return risky.contains { lower.contains($0) } ? nil : line
        }
        // A whole line typed in quotes (`'set token=X'`, refused as an unknown command) is read as the line it holds.
        if words.count == 1, let only = words.first, only.contains(" "), only != line {
            return redactingByRule(line: only, secretFields: secretFields, hide: hide).map { $0 == only ? line : LineTokenizer.quote($0) }
        }
        let command = words.first.map(meantCommand) ?? ""
        if command == "login" {
            let kept = Array(words.prefix(2))
            return kept == words ? line : LineTokenizer.join(kept)
        }
        // An `auth` line keeps its secret as a placeholder: recalled, the
        // prompt asks for it (a stored `***` would be sent as the token).
        let redacted = command == "auth" ? redactAuth(words, hide: { "{{secret:\($0)}}" })
            : redact(words: words, hide: hide, secretFields: secretFields)
        return redacted == words ? line : LineTokenizer.join(redacted)
    }

    /// `login` or `auth` for those commands and for a word one typo from
    /// them (`lgin alice@example.com PASSWORD`, refused as an unknown
    /// command, kept the password in history and in a recording); else the
    /// word lower-cased. No other command is so near: `logout` is three edits away.
    static func meantCommand(_ word: String) -> String {
        let lower = word.lowercased()
        guard lower != "login", lower != "auth", lower.count >= 3, lower.allSatisfy({ $0.isASCII && $0.isLetter }) else { return lower }
        if editDistance(lower, "login") <= 2 { return "login" }
        if editDistance(lower, "auth") <= 1 { return "auth" }
        return lower
    }

    /// A word holding JSON with a secret-named member (`'{"password": "x"}'`
    /// typed where an item goes, a line the parser refuses and history keeps):
    /// each such value as `hide(NAME)`.
    private static func hidingSecretMembers(inWord word: String, hide: (String) -> String) -> String {
        let members = PatternText.secretMembers(in: word)
        guard !members.isEmpty else { return word }
        var out = ""
        var cursor = word.startIndex
        for member in members where !isReference(String(word[member.value])) {
            out += word[cursor..<member.value.lowerBound] + hide(ExpectedValue.secretName(member.key))
            cursor = member.value.upperBound
        }
        return out + word[cursor...]
    }

    /// Where the JSON of a `ws send {…}` or `ws send […]` line starts; nil
    /// for any other line. Such a line is JSON as typed: split into words,
    /// it loses its quotes.
    public static func socketJSONStart(_ line: String) -> String.Index? {
        var words = line.split(maxSplits: 2, whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 3, words[0].lowercased() == "ws", words[1].lowercased() == "send" else { return nil }
        // `ws send --text {"password":…}`: JSON sent as a text frame, as typed too (history kept its password).
        if words[2].hasPrefix("--text ") || words[2].hasPrefix("--text\t") {
            words = words[2].split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
            // A text frame that begins with a placeholder (`--text {{secret:auth}}`) is no JSON: its value
            // went out quoted (`"plainvalue"`), so the recorder's own `--text {{secret:token}}` never replayed.
            guard words.count == 2, !words[1].hasPrefix("{{") else { return nil }
            words.insert("", at: 0)
        }
        guard let first = words[2].first, first == "{" || first == "[" else { return nil }
        return words[2].startIndex
    }

    /// `ws send {…}` or `ws send […]` with the JSON's secret-named members
    /// hidden, the rest as typed (JSON that does not parse, all of it when it
    /// mentions a secret); nil for any other line. Split into words, the
    /// JSON lost its quotes, and a password in it went to history and
    /// transcripts as typed.
    public static func redact(socketJSONLine line: String, hide: (String) -> String, secretFields: SecretFields = .none) -> String? {
        guard let start = socketJSONStart(line) else { return nil }
        // A `{{NAME}}` outside a string is not JSON until it is filled in:
        // it stands in as a number of its own for the parse, and comes back.
        var references: [String] = []
        var json = ""
        var inString = false, escaped = false
        var rest = line[start...]
        while let c = rest.first {
            if !inString, rest.hasPrefix("{{"), let close = rest.firstRange(of: "}}") {
                json += "77770\(references.count)7777"
                references.append(String(rest[..<close.upperBound]))
                rest = rest[close.upperBound...]
                continue
            }
            if inString { if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false } }
            else if c == "\"" { inString = true }
            json.append(c)
            rest = rest.dropFirst()
        }
        guard (try? JSONParser.parse(json)) != nil else {
            // Not JSON, so not sent: kept unless it may hold a secret.
            let lower = json.lowercased()
            let risky = ["token", "bearer"] + secretWords
            return risky.contains { lower.contains($0) } ? String(line[..<start]) + hide("secret") : line
        }
        var hidden = redactBody(json, hide: hide, isSecret: { isSecretName($0) || secretFields.containsName($0) })
        guard hidden != json else { return line }
        // The last first: `7777017777` is the start of `77770177777`.
        for (index, reference) in references.enumerated().reversed() {
            hidden = hidden.replacingOccurrences(of: "77770\(index)7777", with: reference)
        }
        return String(line[..<start]) + hidden
    }

    /// Whether a field or header name names a secret.
    public static func isSecretName(_ name: String) -> Bool {
        // Asked of every header of every request, twice, and of every key of
        // every answer shown: the same few names, so the answers are kept.
        if let known = judged.withLockedValue({ $0[name] }) { return known }
        let secret = !describesASecret(name)
            && (name.utf8.withContiguousStorageIfAvailable(isSecretName(bytes:)) ?? isSecretName(bytes: Array(name.utf8))
                || endsInAShortSecretWord(name))
        judged.withLockedValue { judged in
            if judged.count >= 4096 { judged.removeAll(keepingCapacity: true) }
            judged[name] = secret
        }
        return secret
    }

    /// `db_pw`, `user-pass`, `adminPwd`, `old_pin`: a short word for a password
    /// or a PIN ending a name after a separator or a capital (whole, `pw`, `pass`
    /// and `pin` are `secretHeaders`); `bypass`, `compass` and `spin` are not.
    private static func endsInAShortSecretWord(_ name: String) -> Bool {
        ["pw", "pwd", "pass", "pin"].contains { word in
            let lower = name.lowercased()
            guard name.count > word.count, lower.hasSuffix(word) else { return false }
            let before = name.dropLast(word.count)
            return before.last == "_" || before.last == "-" || name.dropFirst(before.count).first?.isUppercase == true
        }
    }

    /// A name about a secret, not holding one: `password_min_length`, `passwordUpdatedAt`,
    /// `secret_version` (their values were hidden, numbers as strings). An id is
    /// kept secret (`api_key_id`, `aws_access_key_id` are half a credential).
    private static func describesASecret(_ name: String) -> Bool {
        let lower = name.lowercased()
        // A paging cursor (`nextPageToken`, `page_token`, `continuation_token`) opens the next page, nothing more:
        // hidden, `next` had it but `show` did not, and a recording wrote `{{secret:nextpagetoken}}`.
        let letters = lower.filter { $0.isLetter }
        if ["pagetoken", "nexttoken", "continuationtoken", "synctoken"].contains(where: letters.hasSuffix) { return true }
        // A language model's token counts (`max_tokens`, `prompt_tokens`, `usage.output_tokens`) count words, hold none.
        if letters.hasSuffix("tokens"), Self.tokenCounts.contains(where: letters.dropLast(6).hasSuffix) { return true }
        // Where a secret is sent, not one: OpenID discovery's `authorization_endpoint` and `revocation_endpoint`, a service
        // account's `token_uri` (hidden, a client doing discovery against the mock got `mock-authorization_endpoint`).
        // A `password_reset_url` is one: it holds the reset's token.
        if ["_length", "_policy", "_version", "_at", "_count", "_required", "_hint", "_strength",
            "_enabled", "_changed", "_rules", "_endpoint", "_uri"].contains(where: lower.hasSuffix) { return true }
        return ["Length", "Policy", "Version", "At", "Count", "Required", "Hint", "Strength", "Enabled", "Changed", "Rules", "Endpoint", "Uri", "URI"]
            .contains { name.hasSuffix($0) && name.count > $0.count && name.dropLast($0.count).last?.isLowercase == true }
    }

    private static let tokenCounts = ["max", "min", "prompt", "completion", "total", "input", "output", "cached", "reasoning",
                                      "remaining", "used", "num", "context", "audio", "text", "image", "generated", "billed", "estimated"]

    /// Names judged so far (a few thousand at most: answers with generated keys are not kept for ever).
    private static let judged = NIOLockedValueBox<[String: Bool]>([:])

    private static func isSecretName(bytes name: some RandomAccessCollection<UInt8>) -> Bool {
        func folded(_ byte: UInt8) -> UInt8 { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte }
        func holds(_ word: [UInt8], at start: Int) -> Bool {
            var position = name.index(name.startIndex, offsetBy: start)
            for byte in word {
                guard folded(name[position]) == byte else { return false }
                position = name.index(after: position)
            }
            return true
        }
        func has(_ word: [UInt8]) -> Bool {
            word.count <= name.count && (0...(name.count - word.count)).contains { holds(word, at: $0) }
        }
        // `access_token`, `refreshToken`, `token` are secrets; `token_type` is not. Plurals too
        // (`refresh_tokens`, `authTokens`), save counts (`max_tokens`: `describesASecret`).
        return secretHeaderBytes.contains { $0.count == name.count && holds($0, at: 0) }
            || name.count >= 5 && holds(tokenBytes, at: name.count - 5)
            || name.count >= 6 && holds(tokenBytes + [UInt8(ascii: "s")], at: name.count - 6)
            || secretWordBytes.contains(where: has)
    }

    private static let secretWordBytes = secretWords.map { Array($0.utf8) }
    private static let secretHeaderBytes = secretHeaders.map { Array($0.utf8) }
    private static let tokenBytes = Array("token".utf8)

    /// The key a nested field name sets, read as the request builder reads
    /// it (`NestedJSON`, HTTPie's rules): `pin_token` of `user[pin_token]`,
    /// `password` of `users[0][password]`, `token` of `user[token][0]`; the
    /// name itself when it sets no key of its own.
    public static func leaf(of name: String) -> String {
        guard let steps = try? NestedJSON.parse(name) else { return name }
        for case let .key(key) in steps.reversed() { return key }
        return name
    }

    /// The words of a command line with secrets replaced. `hide` gives the
    /// text that stands for a secret, from its name (`password`,
    /// `authorization`): `***` for history, `{{secret:NAME}}` for transcripts.
    /// Last, JSON inside a word no rule reads as an item (`ws send --text
    /// '{"refresh_token":"…"}'`, `--raw 'payload={…}'`, a `set` value): its
    /// secret-named members (history hid them, a recording kept them).
    public static func redact(words: [String], hide: (String) -> String = { _ in placeholder },
                              secretFields: SecretFields = .none) -> [String] {
        redactingWords(words, hide: hide, secretFields: secretFields).map { word in
            word.includes(ascii: "\"") ? hidingSecretMembers(inWord: word, hide: hide) : word
        }
    }

    private static func redactingWords(_ words: [String], hide: (String) -> String, secretFields: SecretFields) -> [String] {
        guard let first = words.first else { return words }
        let itemNames = itemNames(besideACode: words)
        func isSecretName(_ name: String) -> Bool { Self.isSecretName(name) || secretFields.containsName(name) }
        if first.lowercased() == "login" {
            // Every word after the email hidden, none dropped: `login a b c`
            // is a usage error, and its recording must stay one.
            // A placeholder stays as it is named (`{{secret:password_2}}` was reported as `{{secret:password}}`).
            return Array(words.prefix(2)) + words.dropFirst(2).map { $0.wholeMatch(of: /\{\{secret:[^{}]+\}\}/) != nil ? $0 : hide("password") }
        }
        if first.lowercased() == "curl" { return redactCurl(words, hide: hide) }
        // `capture csrf = cookie:sid` names where a value is, and holds none (it is no `cookie:` header item).
        if first.lowercased() == "capture" { return words }
        if first.lowercased() == "ws", words.count > 3, words[1].lowercased() == "send", words[2] == "--text" {
            // A text frame's `password=X` words, a form's (`user=bob&password=X`) too, and JWTs.
            return Array(words.prefix(3)) + words.dropFirst(3).map { word in
                if looksLikeJWT(word) { return hide("jwt") }
                return secretAssignments(inText: word, isSecret: isSecretName).reduce(word) { word, secret in
                    word.replacingOccurrences(of: secret.name + "=" + secret.value, with: secret.name + "=" + hide(ExpectedValue.secretName(secret.name)))
                }
            }
        }
        if first.lowercased() == "auth" { return redactAuth(words, hide: hide) }
        // `set NAME=VALUE` and `set NAME VALUE`: the parser takes both, so both are hidden.
        if first.lowercased() == "set", words.count > 2, words[1].contains("=") {
            // `set a=1 b=2` is refused (one variable a line), and kept in history: each assignment as one.
            return [first] + words.dropFirst().flatMap { redact(words: [first, $0], hide: hide, secretFields: secretFields).dropFirst() }
        }
        if first.lowercased() == "set", words.count >= 2 {
            if let eq = words[1].firstIndex(of: "=") {
                let name = String(words[1][..<eq])
                let value = String(words[1][words[1].index(after: eq)...])
                if (isSecretName(name) || looksLikeCredential(value)) && !isReference(value) { return [first, name + "=" + hide(name)] }
                // A path or URL with its credentials in it (`set u=/a?token=X`, `set w=http://bob:PW@h/`).
                let kept = redactUserinfo(in: value, hide: hide)
                if let hidden = redactQuery(in: kept, hide: hide) ?? (kept == value ? nil : kept) { return [first, name + "=" + hidden] }
                if holdsCredential(value) { return [first, name + "=" + hide(name)] }
            } else if words.count >= 3 {
                let name = words[1]
                let value = words[2...].joined(separator: " ")
                if (isSecretName(name) || looksLikeCredential(value) || holdsCredential(value)) && !isReference(value) { return [first, name, hide(name)] }
            }
            return words
        }
        // `Authorization: Bearer X` typed with spaces (a line the parser refuses, kept in history all the
        // same): the words after a secret header's empty value are its value.
        var valueWords: [Int: String] = [:]
        // And `Authorization:Bearer TOKEN` typed unquoted, curl's habit: the scheme kept, the words after it the value
        // (only `Bearer` was hidden, and the token was written to history in clear).
        var schemeWords: Set<Int> = []
        for (index, word) in words.enumerated() where index > 0 {
            guard let colon = word.firstIndex(of: ":") else { continue }
            let name = String(word[..<colon]), value = word[word.index(after: colon)...]
            guard isSecretName(name) || isSecretHeaderName(name) else { continue }
            if !value.isEmpty {
                guard credentialSchemes.contains(value.lowercased()), index + 1 < words.count else { continue }
                schemeWords.insert(index)
            }
            var next = index + 1
            while next < words.count, !words[next].hasPrefix("-"), (try? RequestItem.parse(words[next])) == nil {
                valueWords[next] = ExpectedValue.secretName(name)
                next += 1
            }
        }
        func redactWord(_ index: Int, _ word: String) -> String {
            if let name = valueWords[index] { return isReference(word) ? word : hide(name) }
            if schemeWords.contains(index) { return word }
            // HTTPie's `-a USER:PASSWORD` / `--auth`: the password hidden, the user kept.
            if index > 0, ["-a", "--auth"].contains(words[index - 1]) { return redactCredentialPair(word, hide: hide) }
            if word.hasPrefix("--auth=") { return "--auth=" + redactCredentialPair(String(word.dropFirst(7)), hide: hide) }
            if index > 0, word.hasPrefix("-a"), word.count > 2 { return "-a" + redactCredentialPair(String(word.dropFirst(2)), hide: hide) }
            // The body of `--raw TEXT`: its secret-named members or form fields.
            if index > 0, words[index - 1] == "--raw" { return redactBody(word, hide: hide, isSecret: isSecretName) }
            if word.hasPrefix("--raw=") { return "--raw=" + redactBody(String(word.dropFirst(6)), hide: hide, isSecret: isSecretName) }
            // A URL's password (`http://user:pw@host`), and a path or URL's
            // secret-named query parameters (`/ws?token=…`).
            // A JWT is a token whatever stands before it (`ws send --text my token is eyJ…`).
            if index > 0, looksLikeJWT(word) { return hide("jwt") }
            let word = redactUserinfo(in: word, hide: hide)
            if let hidden = redactQuery(in: word, hide: hide) { return hidden }
            // A path typed without its `/` (`get echo?api_key=X&token=Y`, under the base URL): its query's pairs,
            // each where it stands. Read as an item `echo?api_key`, the rest of the query was dropped.
            // Kept as it is when it holds none, or only placeholders (a transcript's line, shown by a replay's report).
            if index > 0, let question = word.firstIndex(of: "?"), !word[..<question].contains(where: { "=:@".contains($0) }),
               word[question...].contains("=") {
                return redactQuery(in: "/" + word, hide: hide).map { String($0.dropFirst()) } ?? word
            }
            // A path is no item (`/a;token={{secret:token}}/b` was read as `/a;token` = `{{…}}/b`, and hidden to its end).
            guard index > 0, !word.hasPrefix("/") else { return word }
            guard let item = try? RequestItem.parse(word) else {
                // An item the parser refuses (`token:=S3cr3t`, not JSON) is kept in history all the same.
                let separators = [":=", "==", "=", ":"].compactMap { separator in word.range(of: separator).map { (separator, $0) } }
                guard let (separator, range) = separators.min(by: { $0.1.lowerBound < $1.1.lowerBound }), range.upperBound < word.endIndex else { return word }
                let name = String(word[..<range.lowerBound])
                // An item's name, not JSON typed where an item goes (`{"password":…}`, hidden after).
                guard !name.isEmpty, !name.contains(where: { "{}\"' ".contains($0) }) else { return word }
                let secret = isSecretName(name) || isSecretName(leaf(of: name)) || (separator == ":" && isSecretHeaderName(name))
                return secret && !isReference(String(word[range.upperBound...])) ? name + separator + hide(leaf(of: name)) : word
            }
            switch item {
            case let .header(_, value) where isReference(value) || isSchemeAndReference(value) || isCookiesOfReferences(value),
                 let .stringField(_, value) where isReference(value), let .query(_, value) where isReference(value):
                return word
            case let .header(name, value) where (isSecretName(name) || isSecretHeaderName(name)) && !value.isEmpty: return "\(name):\(hide(name))"
            case let .stringField(name, _) where isSecretName(name) || isSecretName(leaf(of: name)): return "\(name)=\(hide(leaf(of: name)))"
            case let .jsonField(_, .string(value)) where isReference(value):
                return word
            case .jsonField(_, .bool), .jsonField(_, .null):
                // `has_password:=true` holds no secret.
                return word
            case let .jsonField(name, value) where isSecretName(name) || isSecretName(leaf(of: name)):
                // A string stays a string; a number (`pin:=1234`) or any other
                // JSON is filled in as typed, so a replay sends the same type.
                if case .string = value { return "\(name):=\"\(hide(leaf(of: name)))\"" }
                return "\(name):=\(hide(leaf(of: name)))"
            case let .jsonField(name, value):
                // An object or list typed whole: its secret-named members (`data:='{"password":"…"}'`).
                switch value {
                case .object, .array:
                    let text = JSONPrinter.compact(value)
                    let hidden = redactBody(text, hide: hide, isSecret: isSecretName)
                    return hidden == text ? word : "\(name):=\(hidden)"
                default: return word
                }
            case let .query(name, _) where isSecretParameter(name): return "\(name)==\(hide(leaf(of: name)))"
            // OAuth 2's authorization code beside its token request's items (`code=X grant_type=authorization_code`).
            case let .query(name, value) where isOAuthCode(name: name, value: value, besides: itemNames): return "\(name)==\(hide("code"))"
            case let .stringField(name, value) where isOAuthCode(name: name, value: value, besides: itemNames): return "\(name)=\(hide("code"))"
            // A well-known service's key under a name that says nothing (`X-Custom:sk_live_…`, `note=ghp_…`).
            case let .header(name, value) where isServiceToken(value): return "\(name):\(hide(name))"
            case let .stringField(name, value) where isServiceToken(value): return "\(name)=\(hide(leaf(of: name)))"
            case let .query(name, value) where isServiceToken(value): return "\(name)==\(hide(leaf(of: name)))"
            case let .jsonField(name, .string(value)) where isServiceToken(value): return "\(name):=\"\(hide(leaf(of: name)))\""
            // A field or query item whose text holds a secret pair (`note='password=X'`, `cb=https://x/?access_token=X`,
            // `next==/cb?access_token=X`): that value.
            case let .stringField(name, value) where value.includes(ascii: "="), let .query(name, value) where value.includes(ascii: "="):
                let pieces = parameterPieces(in: value)
                guard pieces.contains(where: { $0.secret != nil }) else { return word }
                let separator = if case .query = item { "==" } else { "=" }
                return name + separator + pieces.map { piece in piece.secret.map(hide) ?? piece.text }.joined()
            // Typed percent-encoded (`next==/cb%3Ftoken%3DX`): its pairs read decoded, the rest kept as typed.
            case let .query(name, value) where value.includes(ascii: "%3D") || value.includes(ascii: "%3d") || value.includes(ascii: "%253"):
                return redactEncodedPairs(in: value[...], hide: hide).map { name + "==" + $0 } ?? word
            default: return word
            }
        }
        return words.enumerated().map { index, word in
            let redacted = redactWord(index, word)
            // A JWT inside a word redactWord left (`X-Proto:'chat, eyJ…'`, `q==eyJ…`, `note=Bearer eyJ…`).
            guard index > 0, redacted == word, mayHoldJWT(word) else { return redacted }
            return hidingJWTs(in: word) { _ in hide("jwt") }
        }
    }

    /// `USER:PASSWORD` with the password hidden; a word without a colon (a
    /// token, HTTPie's `-A bearer -a TOKEN`) hidden whole, and so is the
    /// user of an empty password (`-a sk_test_KEY:`, a token as the user).
    static func redactCredentialPair(_ word: String, hide: (String) -> String) -> String {
        guard !isReference(word), !(word.hasPrefix("{{secret:") && word.hasSuffix("}}")) else { return word }
        // The user may be a placeholder already (`{{secret:token}}:`): its colon is not the pair's.
        let userEnd = word.hasPrefix("{{") ? word.range(of: "}}")?.upperBound ?? word.startIndex : word.startIndex
        guard let colon = word[userEnd...].firstIndex(of: ":") else { return hide("token") }
        let password = word[word.index(after: colon)...]
        if password.isEmpty { return userEnd > word.startIndex ? word : hide("token") + ":" }
        if password.hasPrefix("{{secret:") && password.hasSuffix("}}") || isReference(String(password)) { return word }
        return String(word[..<colon]) + ":" + hide("password")
    }

    /// `auth bearer TOKEN`, `auth basic USER:PASSWORD`, `auth header NAME
    /// VALUE`: the secret hidden (a `{{secret:NAME}}` placeholder kept), the
    /// user of basic kept; any other shape hides every word past the kind.
    static func redactAuth(_ words: [String], hide: (String) -> String) -> [String] {
        guard words.count >= 3 else { return words }
        func kept(_ value: String, _ name: String) -> String {
            value.hasPrefix("{{secret:") && value.hasSuffix("}}") || isReference(value) ? value : hide(name)
        }
        switch (words[1].lowercased(), words.count) {
        case ("bearer", 3):
            return [words[0], words[1], kept(words[2], "token")]
        case ("basic", 3):
            guard let colon = words[2].firstIndex(of: ":") else { return [words[0], words[1], hide("password")] }
            return [words[0], words[1], String(words[2][...colon]) + kept(String(words[2][words[2].index(after: colon)...]), "password")]
        case ("header", 4):
            let name = String(words[2].lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
            return [words[0], words[1], words[2], kept(words[3], name)]
        default:
            return Array(words.prefix(2)) + words.dropFirst(2).map { _ in hide("secret") }
        }
    }

    /// A pasted curl command: the value of `-u`/`--user` and `-b`/`--cookie`,
    /// secret headers after `-H`, secret fields in `-d` bodies (JSON or form)
    /// and secret query parameters in the URL.
    static func redactCurl(_ words: [String], hide: (String) -> String) -> [String] {
        /// A flag's value with its secret hidden, or nil when the flag holds none this way.
        func value(of flag: String, _ word: String) -> String? {
            switch flag {
            case "-u", "--user":
                // The user stays (a replay must log in as them); the password goes. With an empty
                // password (`-u sk_test_KEY:`, Stripe's way), the user is a token: it goes. Without a
                // colon (`-u bob`) it is a user whose password curl asks for: kept.
                guard word.contains(":") else { return nil }
                return redactCredentialPair(word, hide: hide)
            // Flags explorer refuses, whose lines history and recordings keep all the same.
            case "--oauth2-bearer": return isReference(word) ? word : hide("token")
            case "-U", "--proxy-user": return redactCredentialPair(word, hide: hide)
            case "--pass", "--proxy-pass": return isReference(word) ? word : hide("password")
            case "-E", "--cert", "--proxy-cert":
                // `FILE:PASSPHRASE`, curl's way of giving the key's passphrase.
                guard let colon = word.lastIndex(of: ":"), colon < word.index(before: word.endIndex) else { return nil }
                return word[...colon] + hide("password")
            case "-b", "--cookie":
                // `-b 'csrftoken={{csrf}}'` holds a variable, which a replay fills in: kept.
                return isCookiesOfReferences(word) ? word : hide("cookie")
            case "-H", "--header", "--proxy-header":
                guard let colon = word.firstIndex(of: ":") else { return nil }
                let name = word[..<colon].trimmingBlanks()
                let value = word[word.index(after: colon)...].trimmingBlanks()
                // A secret's header, or a well-known service's key under any name (`X-Custom: sk_live_…`).
                guard isSecretHeaderName(name) || isServiceToken(value) else { return nil }
                if isReference(value) || isSchemeAndReference(value) || (name.lowercased() == "cookie" && isCookiesOfReferences(value)) { return word }
                return name + ": " + hide(name)
            case "-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--json", "--data-urlencode", "-F", "--form", "--form-string":
                return redactBody(word, hide: hide)
            default: return nil
            }
        }
        var out: [String] = []
        var previous = ""
        for word in words {
            // Short flags bundled (`-sU bob:PW`, `-su`): the last takes the value, as curl reads them.
            defer { previous = word.wholeMatch(of: /-[a-zA-Z]{2,}/) != nil ? "-" + String(word.last!) : word }
            if let hidden = value(of: previous, word) {
                out.append(hidden)
                continue
            }
            // A value joined to its flag (`-uuser:pw`, `-HAuthorization:X`, `--user=user:pw`) was kept as typed.
            if word.hasPrefix("--"), let eq = word.firstIndex(of: "="), let hidden = value(of: String(word[..<eq]), String(word[word.index(after: eq)...])) {
                out.append(word[...eq] + hidden)
                continue
            }
            if word.count > 2, word.hasPrefix("-"), !word.hasPrefix("--"), let hidden = value(of: String(word.prefix(2)), String(word.dropFirst(2))) {
                out.append(word.prefix(2) + hidden)
                continue
            }
            let word = redactUserinfo(in: word, hide: hide)
            out.append(redactQuery(in: word, hide: hide) ?? word)
        }
        return out
    }

    /// A request body as typed: secret-named members of a JSON object, or
    /// secret-named pairs of a form, hidden.
    /// An inline body (curl's `-d`, our `--raw`): a JSON value's
    /// secret-named members, or a form's (`a=1&password=x`), hidden; the
    /// text kept as typed when nothing is.
    public static func redactBody(_ text: String, hide: (String) -> String, isSecret: (String) -> Bool = isSecretName) -> String {
        redactBody(text, hidingValue: { name, _ in hide(name) }, isSecret: isSecret)
    }

    /// The same, `hide` given each hidden value's text too (see `hidingMembers(of:hidingValue:isSecret:)`).
    public static func redactBody(_ text: String, hidingValue hide: (_ name: String, _ value: String) -> String,
                                  isSecret: (String) -> Bool = isSecretName) -> String {
        if let json = try? JSONParser.parse(text) {
            let hidden = hidingMembers(of: json, hidingValue: hide, isSecret: isSecret)
            guard hidden != json else { return text }
            // As typed, each string value in its place: compacted, the replay sent other bytes than
            // the recording (`{"password":"…"}` for `{"password": "…"}`), which an echo showed.
            var kept = "", cursor = text.startIndex
            for member in PatternText.secretMembers(in: text)
            where text[text.index(before: member.value.lowerBound)] == "\"" && !text[member.value].contains("⟦") {
                // The value as the JSON holds it, as `hidden` was made of it (escapes decoded).
                let written = String(text[member.value])
                let value = if case let .string(decoded)? = try? JSONParser.parse("\"" + written + "\"") { decoded } else { written }
                kept += text[cursor..<member.value.lowerBound] + hide(member.key, value)
                cursor = member.value.upperBound
            }
            kept += text[cursor...]
            return (try? JSONParser.parse(kept)) == hidden ? kept : JSONPrinter.compact(hidden)
        }
        var changed = false
        // A form's pairs, or a cookie list's (`sid=X;theme=dark;token=Y`): `;` ends a value as `&` does.
        var out = "", start = text.startIndex
        while start <= text.endIndex {
            let end = text[start...].firstIndex { $0 == "&" || $0 == ";" } ?? text.endIndex
            let pair = text[start..<end]
            // The name is the last word before `=` (`Cookie: sid=X`'s is `sid`).
            if let eq = pair.firstIndex(of: "="),
               case let name = String(pair[..<eq].split(whereSeparator: { $0 == " " || $0 == "\t" }).last ?? ""), !name.isEmpty,
               case let value = pair[pair.index(after: eq)...],
               isSecret(name.removingPercentEncoding ?? name), !value.isEmpty, !isReference(String(value)) {
                out += pair[...eq] + hide(name, String(value))
                changed = true
            } else {
                out += pair
            }
            guard end < text.endIndex else { break }
            out.append(text[end])
            start = text.index(after: end)
        }
        // Or a setting's line (`--raw 'password: x'`, `--raw 'Authorization: Basic …'`).
        return changed ? out : hidingSecretLines(in: text) { name, value in hide(ExpectedValue.secretName(name), String(value)) }
    }

    /// `text` with each of `values` in it hidden, the longest first (a
    /// carried `Bearer abc` whole, not `Bearer ` and a hidden `abc`).
    public static func hiding(_ values: [String], inText text: String) -> String {
        // A value longer than the text is in it in no form (each is as long or longer): a status line or a
        // short string, most of what is asked, is not searched at all. Each search was an `NSString`
        // one through UTF-16, a twentieth of a scripted GET's CPU.
        let values = values.filter { !$0.isEmpty && $0.utf8.count <= text.utf8.count }
        guard !values.isEmpty else { return text }
        // Each as it is, and as a JSON encoder that escapes `/` or all but ASCII echoes it.
        let forms = (values + values.flatMap { jsonEchoForms(of: $0) }).filter { text.includes($0) }
        let plain = forms.sorted { $0.utf8.count > $1.utf8.count }.reduce(text) { $0.replacingOccurrences(of: $1, with: hidden($1)) }
        // Then as any other escapes write it (`\u00E9`, `\u002f`, `&#x2F;`).
        return replacing(escapedMatches(of: values, in: plain), in: plain) { _, written in hidden(String(written)) }
    }

    /// Where `values` stand in `text` written with escapes, as other
    /// encoders write them: `\u00E9` or `\u00e9` (Jackson, .NET, Python), a
    /// `/` as `\/` or `\u002f`, every character escaped, an HTML page's
    /// `&#x2F;` and `&#47;`. Each match holds at least one escape (a plain
    /// one is found by a plain search); the longest values first, matches
    /// apart. Text without `\u`, `\/` or `&#` is not read at all, nor text
    /// past 4 MiB (a piped body of 64 MiB would take gigabytes to map; the
    /// forms `SecretScrubber.forms` lists are still found there).
    public static func escapedMatches(of values: [String], in text: String) -> [(range: Range<String.Index>, value: String)] {
        guard !values.isEmpty, text.utf8.count <= 4 << 20,
              text.includes(ascii: "\\u") || text.includes(ascii: "\\/") || text.includes(ascii: "&#") else { return [] }
        // The text read with its escapes undone, each scalar with the span of text it came from.
        var scalars: [Unicode.Scalar] = [], starts: [String.Index] = [], ends: [String.Index] = [], escaped: [Bool] = []
        let view = text.unicodeScalars
        var i = view.startIndex
        func digit(_ s: Unicode.Scalar, hex: Bool) -> UInt32? {
            switch s.value {
            case 0x30...0x39: s.value - 0x30
            case 0x41...0x46 where hex: s.value - 0x41 + 10
            case 0x61...0x66 where hex: s.value - 0x61 + 10
            default: nil
            }
        }
        func hex(_ from: String.Index, _ count: Int) -> (UInt32, String.Index)? {
            var j = from, value: UInt32 = 0
            for _ in 0..<count {
                guard j < view.endIndex, let d = digit(view[j], hex: true) else { return nil }
                value = value * 16 + d
                j = view.index(after: j)
            }
            return (value, j)
        }
        while i < view.endIndex {
            var next = view.index(after: i), scalar = view[i], wasEscaped = false
            if view[i] == "\\", next < view.endIndex {
                if view[next] == "/" {
                    (scalar, next, wasEscaped) = ("/", view.index(after: next), true)
                } else if view[next] == "u", let (unit, after) = hex(view.index(after: next), 4) {
                    var code = unit, end = after
                    // A pair of surrogates (`\ud83d\ude00`) is one scalar.
                    if (0xD800...0xDBFF).contains(unit), after < view.endIndex, view[after] == "\\",
                       view.index(after: after) < view.endIndex, view[view.index(after: after)] == "u",
                       let (low, afterLow) = hex(view.index(after: view.index(after: after)), 4), (0xDC00...0xDFFF).contains(low) {
                        code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        end = afterLow
                    }
                    if let decoded = Unicode.Scalar(code) { (scalar, next, wasEscaped) = (decoded, end, true) }
                }
            } else if view[i] == "&", next < view.endIndex, view[next] == "#" {
                var j = view.index(after: next), value: UInt32 = 0, digits = 0
                let isHex = j < view.endIndex && (view[j] == "x" || view[j] == "X")
                if isHex { j = view.index(after: j) }
                while j < view.endIndex, digits < 8, let d = digit(view[j], hex: isHex) {
                    value = value * (isHex ? 16 : 10) + d
                    digits += 1
                    j = view.index(after: j)
                }
                if digits > 0, j < view.endIndex, view[j] == ";", let decoded = Unicode.Scalar(value) {
                    (scalar, next, wasEscaped) = (decoded, view.index(after: j), true)
                }
            }
            scalars.append(scalar)
            starts.append(i)
            ends.append(next)
            escaped.append(wasEscaped)
            i = next
        }
        guard escaped.contains(true) else { return [] }
        var taken = [Bool](repeating: false, count: scalars.count)
        var found: [(range: Range<String.Index>, value: String)] = []
        for value in values.sorted(by: { $0.unicodeScalars.count > $1.unicodeScalars.count }) {
            let needle = Array(value.unicodeScalars)
            guard let first = needle.first, needle.count <= scalars.count else { continue }
            var k = 0
            while k + needle.count <= scalars.count {
                if scalars[k] == first, !taken[k], scalars[k..<(k + needle.count)].elementsEqual(needle),
                   !taken[k..<(k + needle.count)].contains(true), escaped[k..<(k + needle.count)].contains(true) {
                    for n in k..<(k + needle.count) { taken[n] = true }
                    found.append((starts[k]..<ends[k + needle.count - 1], value))
                    k += needle.count
                } else {
                    k += 1
                }
            }
        }
        return found.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// `text` with each match of `escapedMatches` replaced by `replacement(value, written)`.
    public static func replacing(_ matches: [(range: Range<String.Index>, value: String)], in text: String,
                                 with replacement: (_ value: String, _ written: Substring) -> String) -> String {
        guard !matches.isEmpty else { return text }
        var out = ""
        var cursor = text.startIndex
        for match in matches {
            out += text[cursor..<match.range.lowerBound] + replacement(match.value, text[match.range])
            cursor = match.range.upperBound
        }
        return out + text[cursor...]
    }

    /// How JSON encoders other than ours may write `text` (already JSON-escaped
    /// as ours does, or plain): `/` as `\/` (PHP's `json_encode`, many
    /// Java ones), every character past ASCII as `\u00e9` (Python's
    /// `json.dumps`, PHP), and both. Empty for text neither touches.
    public static func jsonEchoForms(of text: String) -> [String] {
        let slashes = text.utf8.contains(UInt8(ascii: "/"))
        let wide = text.utf8.contains { $0 >= 0x80 }
        guard slashes || wide else { return [] }
        let escapedSlashes = slashes ? text.replacingOccurrences(of: "/", with: "\\/") : text
        guard wide else { return [escapedSlashes] }
        func ascii(_ text: String) -> String {
            var out = ""
            for unit in text.utf16 {
                guard unit >= 0x80 else { out.unicodeScalars.append(Unicode.Scalar(UInt8(unit))); continue }
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            return out
        }
        return slashes ? [escapedSlashes, ascii(text), ascii(escapedSlashes)] : [ascii(text)]
    }

    /// The values of the secret-named members in JSON (`alsoSecret`: names a
    /// profile marks secret): what a request's body carried that an echo of
    /// it must not show.
    public static func secretStrings(in value: JSONValue, alsoSecret: Set<String> = []) -> [String] {
        secretMembers(in: value, alsoSecret: alsoSecret).map(\.value)
    }

    /// The secret-named members in JSON whose values are strings or numbers
    /// (or lists of them), with their names, at any depth; a `{{NAME}}`
    /// reference is none.
    public static func secretMembers(in value: JSONValue, alsoSecret: Set<String> = []) -> [(name: String, value: String)] {
        switch value {
        case let .object(members):
            return members.flatMap { member -> [(name: String, value: String)] in
                let secret = isSecretName(member.key) || alsoSecret.contains(member.key)
                switch member.value {
                case let .string(s) where secret && !isReference(s): return [(member.key, s)]
                case let .number(n) where secret: return [(member.key, n)]
                // A list under a secret's name (`"password": ["x"]`): its strings and numbers too, under that name.
                case let .array(items) where secret:
                    return items.flatMap { item in
                        switch item {
                        case .string, .number, .array: return secretMembers(in: .object([(member.key, item)]), alsoSecret: alsoSecret)
                        default: return secretMembers(in: item, alsoSecret: alsoSecret)
                        }
                    }
                default: return secretMembers(in: member.value, alsoSecret: alsoSecret)
                }
            }
        case let .array(items): return items.flatMap { secretMembers(in: $0, alsoSecret: alsoSecret) }
        default: return []
        }
    }

    /// A text frame's text inside the quotes it was typed in, if any (they are sent too).
    private static func insideQuotes(_ text: Substring) -> Substring {
        // Bytes counted, not characters (a walk of the whole text): a quote is one byte.
        guard text.utf8.count > 2, let quote = text.first, quote == "'" || quote == "\"", text.last == quote else { return text }
        return text.dropFirst().dropLast()
    }

    /// Where a text frame's secret assignments' values are, inside the
    /// quotes it was typed in, if any.
    static func assignments(inTextFrame text: Substring) -> [(name: String, range: Range<String.Index>)] {
        insideQuotes(text).split(whereSeparator: { $0.isWhitespace || $0 == "&" || $0 == ";" }).compactMap { word in
            guard let equals = word.firstIndex(of: "="), equals > word.startIndex, isSecretName(String(word[..<equals])) else { return nil }
            let value = word[word.index(after: equals)...]
            // A typed `{{secret:password_3}}` holds no value: it stays, under the name it was given.
            return value.isEmpty || value.hasPrefix("{{") ? nil : (String(word[..<equals]), value.startIndex..<value.endIndex)
        }
    }

    /// A text frame's (`ws send --text TEXT`, sent as typed): its assignments
    /// as `secretAssignments` finds them, inside the quotes a frame typed in
    /// them has (`"password=X"` was read as the name `"password`, nothing
    /// learned, and a second password recorded under the first one's name).
    public static func secretAssignments(inTextFrame text: String, isSecret: (String) -> Bool = isSecretName) -> [(name: String, value: String)] {
        secretAssignments(inText: String(insideQuotes(Substring(text))), isSecret: isSecret)
    }

    /// The `NAME=VALUE` words of a plain text whose name is a secret's
    /// (`login password=hunter2` typed as a text frame), with their names.

    public static func secretAssignments(inText text: String, isSecret: (String) -> Bool = isSecretName) -> [(name: String, value: String)] {
        // `user=bob&password=x` too: a form written as a text frame; and `sid=x; csrftoken=y`, a cookie
        // list (the `;` was taken as the value's, and a recording that hid `x;` lost it).
        text.split(whereSeparator: { $0.isWhitespace || $0 == "&" || $0 == ";" }).compactMap { word in
            guard let equals = word.firstIndex(of: "="), equals > word.startIndex, isSecret(String(word[..<equals])) else { return nil }
            let value = word[word.index(after: equals)...]
            return value.isEmpty ? nil : (String(word[..<equals]), String(value))
        }
    }

    /// JSON with the strings and numbers of its secret-named members replaced
    /// by `hide(NAME)` (a number's bare, as it stood: a replay or a shell
    /// fills a number in); a `{{NAME}}` reference is kept.
    public static func hidingMembers(of value: JSONValue, hide: (String) -> String,
                                     isSecret: (String) -> Bool = isSecretName) -> JSONValue {
        hidingMembers(of: value, hidingValue: { name, _ in hide(name) }, isSecret: isSecret)
    }

    /// The same, `hide` given each hidden value's text too (a string's, a
    /// number's digits): `--curl` names two passwords of one body by their
    /// values (`$PASSWORD`, `$PASSWORD_2`), or the command sent one twice.
    public static func hidingMembers(of value: JSONValue, hidingValue hide: (_ name: String, _ value: String) -> String,
                                     isSecret: (String) -> Bool = isSecretName) -> JSONValue {
        switch value {
        case let .object(members):
            return .object(members.map { member in
                switch member.value {
                // One already a `--curl` variable (`⟦PASSWORD~…⟧`) stays it: made again by name, two passwords were one.
                case let .string(s) where isSecret(member.key) && !isReference(s) && !s.contains("⟦"): return (member.key, .string(hide(member.key, s)))
                case let .number(digits) where isSecret(member.key) && !digits.contains("⟦"): return (member.key, .number(hide(member.key, digits)))
                // A list under a secret's name (`"password": ["x"]`): its strings and numbers too, under that name.
                case let .array(items) where isSecret(member.key):
                    return (member.key, .array(items.map { item in
                        switch item {
                        case .string, .number, .array: return hidingMembers(of: .object([(member.key, item)]), hidingValue: hide, isSecret: isSecret)[member.key] ?? item
                        default: return hidingMembers(of: item, hidingValue: hide, isSecret: isSecret)
                        }
                    }))
                default: return (member.key, hidingMembers(of: member.value, hidingValue: hide, isSecret: isSecret))
                }
            })
        case let .array(items): return .array(items.map { hidingMembers(of: $0, hidingValue: hide, isSecret: isSecret) })
        default: return value
        }
    }

    /// A request target (`/path?query`) as shown on screen: the values of
    /// secret-named query parameters (and of those in `alsoSecret`) hidden,
    /// as `/ws?token=<hidden: 24 characters>`.
    public static func redact(target: String, alsoSecret names: [String] = []) -> String {
        // The path's own parameters too (`/app;jsessionid=X`).
        var target = target
        for (_, range) in pathParameterSecrets(in: target).reversed() { target.replaceSubrange(range, with: hidden(String(target[range]))) }
        // A JWT wherever it stands (`/chat/eyJ…`, `?q=eyJ…`): -v and --offline showed it.
        target = hidingJWTs(in: target)
        guard let question = target.firstIndex(of: "?") else { return target }
        return String(target[...question]) + redact(pairs: target[target.index(after: question)...], alsoSecret: names)
    }

    /// An `application/x-www-form-urlencoded` body as shown on screen: the
    /// values of secret-named fields hidden, as a query's are.
    public static func redact(form: String, alsoSecret names: [String] = []) -> String {
        redact(pairs: form[...], alsoSecret: names)
    }

    /// A `multipart/form-data` body as shown on screen: the value of each
    /// secret-named text field hidden, files left as they are.
    public static func redact(multipart text: String, boundary: String) -> String {
        let delimiter = "--" + boundary
        return text.split(separator: delimiter, omittingEmptySubsequences: false).map { part -> String in
            guard let blank = part.firstRange(of: "\r\n\r\n") else { return String(part) }
            let head = part[..<blank.lowerBound]
            guard !head.contains("filename="), let start = head.firstRange(of: "name=\"") else { return String(part) }
            guard isSecretName(String(head[start.upperBound...].prefix { $0 != "\"" })) else { return String(part) }
            var value = part[blank.upperBound...]
            let ending = value.hasSuffix("\r\n") ? "\r\n" : ""
            value = value.dropLast(ending.count)
            guard !value.isEmpty else { return String(part) }
            return String(part[..<blank.upperBound]) + hidden(String(value)) + ending
        }.joined(separator: delimiter)
    }

    private static func redact(pairs text: Substring, alsoSecret names: [String]) -> String {
        let pairNames = pairNames(text)
        return text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let eq = pair.firstIndex(of: "=") else { return String(pair) }
            let name = String(pair[..<eq]), value = String(pair[pair.index(after: eq)...])
            let decoded = name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? name
            guard !value.isEmpty, isSecretParameter(decoded) || names.contains(where: { $0.lowercased() == decoded.lowercased() })
                    || isOAuthCode(name: decoded, value: value, besides: pairNames) else {
                // A value that is itself a URL or a query (`next=%2Fcb%3Faccess_token%3DX`): its secret pairs, shown decoded.
                guard value.includes(ascii: "%3D") || value.includes(ascii: "%3d"), let plain = value.removingPercentEncoding,
                      case let pieces = parameterPieces(in: plain), pieces.contains(where: { $0.secret != nil }) else {
                    // Encoded twice (`%253D`): hidden where it stands.
                    return name + "=" + hidingEncodedPairs(in: value)
                }
                return name + "=" + pieces.map { $0.secret == nil ? $0.text : hidden($0.text) }.joined()
            }
            return name + "=" + hidden(value.removingPercentEncoding ?? value)
        }.joined(separator: "&")
    }

    /// Where the password of a URL's userinfo (`scheme://user:PASSWORD@host…`)
    /// is, empty or not; nil without one. Without `scheme://` when
    /// `needsScheme` is false (`user:pw@proxy:3128`, as proxy variables take it).
    static func userinfoPassword(in text: String, needsScheme: Bool = true) -> Range<String.Index>? {
        let scheme = text.range(of: "://")
        if needsScheme, scheme == nil { return nil }
        let authority = text[(scheme?.upperBound ?? text.startIndex)...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return nil }
        return text.index(after: colon)..<at
    }

    /// Where the password of each URL's userinfo in a text is (`see
    /// https://deploy:PASSWORD@host/`), a placeholder's aside. Not a user
    /// alone (`ssh://git@host`): in prose that is a name more often than a token.
    /// `oneURL`: the text is one URL (a header's value), whose authority may
    /// hold a blank (`http://us er:PW@host`, a Location no URL parser takes:
    /// its password was shown); in free text a blank ends it.
    static func userinfoPasswords(in text: String, oneURL: Bool = false) -> [Range<String.Index>] {
        var found: [Range<String.Index>] = []
        var from = text.startIndex
        while let scheme = text.range(of: "://", range: from..<text.endIndex) {
            from = scheme.upperBound
            let authority = text[scheme.upperBound...].prefix { !"/?#\"'<>\\".contains($0) && (oneURL || !$0.isWhitespace) }
            guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { continue }
            let password = text.index(after: colon)..<at
            // Not one hidden already (`bob:…@`, as an error about the URL writes it).
            if !password.isEmpty, !text[password].hasPrefix("{{"), !["…", "***"].contains(text[password]) { found.append(password) }
        }
        return found
    }

    /// `text` cut at each URL password in it (`userinfoPasswords`), each piece
    /// said to be one or not; the pieces joined are `text`.
    static func userinfoPieces(in text: String, oneURL: Bool = false) -> [(text: String, isPassword: Bool)] {
        var pieces: [(text: String, isPassword: Bool)] = []
        var rest = text.startIndex
        for password in userinfoPasswords(in: text, oneURL: oneURL) {
            pieces += [(String(text[rest..<password.lowerBound]), false), (String(text[password]), true)]
            rest = password.upperBound
        }
        return (pieces + [(String(text[rest...]), false)]).filter { !$0.text.isEmpty }
    }

    /// The secret of a URL's userinfo: its password (`user:PASSWORD@`), or
    /// its user when the password is empty or none (`https://TOKEN@host`,
    /// Stripe's `sk_live_KEY:@`): a token given as the user, named `token`.
    /// Nil when there is none to hide (a `{{reference}}` is none).
    public static func userinfoSecret(in text: String) -> (name: String, range: Range<String.Index>)? {
        let scheme = text.range(of: "://")
        guard let scheme else { return nil }
        let authority = text[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return nil }
        // The colon between user and password, not one inside a placeholder (`{{secret:token}}@`).
        var colon: String.Index?
        var index = authority.startIndex, braces = 0
        while index < at, colon == nil {
            switch authority[index] {
            case "{": braces += 1
            case "}": braces = max(0, braces - 1)
            case ":" where braces == 0: colon = index
            default: break
            }
            index = authority.index(after: index)
        }
        let found: (name: String, range: Range<String.Index>) = if let colon, authority.index(after: colon) < at {
            ("password", authority.index(after: colon)..<at)
        } else {
            ("token", authority.startIndex..<(colon ?? at))
        }
        return found.range.isEmpty || text[found.range].contains("{{") ? nil : found
    }

    /// `scheme://user:PASSWORD@host…` with the password hidden; a token
    /// given as the user (`scheme://TOKEN@host`, `TOKEN:@`) hidden as `token`.
    static func redactUserinfo(in word: String, hide: (String) -> String) -> String {
        guard let (name, range) = userinfoSecret(in: word) else { return word }
        let secret = String(word[range])
        // A copy of it further on (`/basic-auth/admin/PASSWORD`, httpbin's way) goes too, as the transcript hides it.
        var rest = String(word[range.upperBound...])
        if secret.count >= 3 { rest = rest.replacingOccurrences(of: secret, with: hide(name)) }
        return String(word[..<range.lowerBound]) + hide(name) + rest
    }

    /// The secret parameters of a path's or URL's query (`/a?token=X`), and a
    /// URL's userinfo password as `password`, with their values as typed:
    /// what a recording hides wherever an answer echoes them (`"path":
    /// "/a?token=X"` was written in clear). References (`{{token}}`) are left out.
    public static func secretsInTarget(_ target: String) -> [(name: String, value: String)] {
        secretRanges(in: target).map { ($0.name, String(target[$0.range])) }
    }

    /// A path or URL with those values each replaced where it stands by
    /// `hide(value)` (a short value replaced wherever its text stood hid
    /// digits of the path too).
    public static func hidingSecretsInTarget(_ target: String, hide: (String) -> String) -> String {
        var text = target
        for (_, range) in secretRanges(in: target).reversed() { text.replaceSubrange(range, with: hide(String(target[range]))) }
        return text
    }

    /// Where `secretsInTarget`'s values stand, in order.
    private static func secretRanges(in target: String) -> [(name: String, range: Range<String.Index>)] {
        var found: [(name: String, range: Range<String.Index>)] = []
        if let userinfo = userinfoSecret(in: target) { found.append(userinfo) }
        found += pathParameterSecrets(in: target)
        guard let question = target.firstIndex(of: "?") else { return found }
        let query = target[target.index(after: question)...].prefix { $0 != "#" }
        let names = pairNames(query)
        for pair in query.split(separator: "&") {
            guard let eq = pair.firstIndex(of: "="), isSecretParameter(decodedName(pair[..<eq]))
                    || isOAuthCode(name: decodedName(pair[..<eq]), value: String(pair[pair.index(after: eq)...]), besides: names) else { continue }
            let value = pair.index(after: eq)..<pair.endIndex
            guard !value.isEmpty, !pair[value].contains("{{") else { continue }
            found.append((decodedName(pair[..<eq]), value))
        }
        return found
    }

    /// Where a path's secret parameters are (`/app;jsessionid=X/items`, a
    /// servlet's session in its path): each value up to the next `/`, `;`
    /// or the query. Not one hidden already, nor a placeholder.
    public static func pathParameterSecrets(in target: some StringProtocol) -> [(name: String, range: Range<String.Index>)] {
        let path = target[..<(target.firstIndex { $0 == "?" || $0 == "#" } ?? target.endIndex)]
        var found: [(name: String, range: Range<String.Index>)] = []
        var at = path.startIndex
        while let semicolon = path[at...].firstIndex(of: ";") {
            let end = path[semicolon...].dropFirst().firstIndex { $0 == "/" || $0 == ";" } ?? path.endIndex
            let parameter = path[path.index(after: semicolon)..<end]
            if let eq = parameter.firstIndex(of: "="), case let name = decodedName(Substring(parameter[..<eq])), isSecretParameter(name),
               case let value = parameter[parameter.index(after: eq)...], !value.isEmpty, !isReference(String(value)), !value.contains("<hidden") {
                found.append((name, value.startIndex..<value.endIndex))
            }
            at = end
        }
        return found
    }

    /// A query parameter's name as the server reads it (`%74oken` is `token`, `access+token` is `access token`).
    static func decodedName(_ name: Substring) -> String {
        guard name.contains(where: { $0 == "%" || $0 == "+" }) else { return String(name) }
        return name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(name)
    }

    public static func redactQuery(in word: String, hide: (String) -> String) -> String? {
        let lower = word.lowercased()
        guard word.hasPrefix("/") || ["http://", "https://", "ws://", "wss://"].contains(where: { lower.hasPrefix($0) }) else { return nil }
        // A path's own parameters (`;jsessionid=X`), each where it stands, then the query's.
        let inPath = pathParameterSecrets(in: word)
        var hidden = word
        for (name, range) in inPath.reversed() { hidden.replaceSubrange(range, with: hide(name)) }
        // A JWT as a segment (`/chat/eyJ…`, a socket's credential in its path).
        let pathEnd = hidden.firstIndex { $0 == "?" || $0 == "#" } ?? hidden.endIndex
        let path = String(hidden[..<pathEnd])
        let jwtless = hidingJWTs(in: path) { _ in hide("jwt") }
        if jwtless != path { hidden = jwtless + hidden[pathEnd...] }
        return redactQueryPairs(in: hidden, hide: hide) ?? (hidden == word ? nil : hidden)
    }

    private static func redactQueryPairs(in word: String, hide: (String) -> String) -> String? {
        guard let question = word.firstIndex(of: "?") else { return nil }
        var changed = false
        let pairs = word[word.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let eq = pair.firstIndex(of: "=") else { return String(pair) }
            // A JWT under any name (`?jwt=eyJ…`, a socket's usual credential) is one.
            guard isSecretParameter(decodedName(pair[..<eq])) || looksLikeJWT(String(pair[pair.index(after: eq)...])) else {
                // A value that is itself a URL or a query, encoded (`next=%2Fcb%3Ftoken%3DX`): its secret pairs.
                guard let hidden = redactEncodedPairs(in: pair[pair.index(after: eq)...], hide: hide) else { return String(pair) }
                changed = true
                return String(pair[...eq]) + hidden
            }
            let value = String(pair[pair.index(after: eq)...])
            guard !value.isEmpty, !isReference(value) else { return String(pair) }
            changed = true
            return String(pair[...eq]) + hide(leaf(of: decodedName(pair[..<eq])))
        }
        return changed ? String(word[...question]) + pairs.joined(separator: "&") : nil
    }

    /// A query value that is itself a URL or a query, percent-encoded once
    /// or twice (`/cb%3Ftoken%3DX`, `%2Fcb%3Ftoken%253DX`), each secret
    /// pair's value as `hide(NAME)` where it stands (`encodedSecretPieces`),
    /// every other byte as typed; nil when it holds none. Re-encoded around
    /// the secret, `/cb` became `%2Fcb` and a recording's replay sent
    /// another request; encoded twice, the line kept the token.
    public static func redactEncodedPairs(in value: Substring, hide: (String) -> String) -> String? {
        let pieces = encodedSecretPieces(in: String(value))
        guard pieces.contains(where: { $0.secret != nil }) else { return nil }
        return pieces.map { piece in piece.secret.map(hide) ?? piece.text }.joined()
    }

    /// `text` with every byte but RFC 3986's unreserved ones as `%XX`.
    private static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): out.append(byte)
            default: out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `text` mentions a secret's name (`password`, `token`, `bearer`…) anywhere, in any case.
    public static func mayNameASecret(_ text: String) -> Bool {
        let lower = text.lowercased()
        return (["token", "bearer"] + secretWords).contains { lower.contains($0) }
    }

    /// `{{NAME}}` alone names a variable: the line holds no secret, the variable
    /// may (and `set` hides it), so `password={{new_password}}` is kept as typed.
    /// A text with the values of secret-named members of JSON written in it
    /// hidden (an event stream's `data: {"token":"…"}`), as a JSON body's are.
    public static func hidingSecretMembers(in text: String) -> String {
        let members = PatternText.secretMembers(in: text)
        guard !members.isEmpty else { return text }
        var out = ""
        var cursor = text.startIndex
        // One hidden already (a body shown twice, `show` of what was shown) keeps its length.
        for member in members where !isHidden(String(text[member.value])) {
            out += text[cursor..<member.value.lowerBound] + hidden(String(text[member.value]))
            cursor = member.value.upperBound
        }
        return out + text[cursor...]
    }

    /// `{{NAME}}` or `{{secret:NAME}}`: a value that holds none, kept as
    /// typed (recalled from history, the secret is asked for again, where a
    /// stored `***` was sent as the value).
    /// `Bearer {{tok}}`: a credential's scheme and a reference, no secret
    /// (a captured token, which each replay captures anew).
    static func isSchemeAndReference(_ value: String) -> Bool {
        let parts = value.split(separator: " ", omittingEmptySubsequences: true)
        return parts.count == 2 && parts[0].allSatisfy { $0.isLetter } && isReference(String(parts[1]))
    }

    /// `a={{x}}; b={{y}}`: a Cookie header whose every value is a variable.
    static func isCookiesOfReferences(_ value: String) -> Bool {
        let pairs = value.split(separator: ";").map { $0.trimmingBlanks() }.filter { !$0.isEmpty }
        return !pairs.isEmpty && pairs.allSatisfy { pair in
            guard let eq = pair.firstIndex(of: "=") else { return false }
            return isReference(String(pair[pair.index(after: eq)...]))
        }
    }

    static func isReference(_ value: String) -> Bool {
        // A scheme and a reference (`Bearer {{tok}}`, a GraphQL socket's connection_init) hold no value either:
        // hidden, a recording asked for EXPLORER_SECRET_AUTHORIZATION and its replay sent a stale token.
        if let space = value.firstIndex(of: " "), credentialSchemes.contains(value[..<space].lowercased()) {
            return isReference(String(value[value.index(after: space)...]))
        }
        guard value.hasPrefix("{{"), value.hasSuffix("}}"), value.count > 4 else { return false }
        var name = value.dropFirst(2).dropLast(2)
        if name.hasPrefix("secret:") { name = name.dropFirst(7) }
        return !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// What a string of a JSON value shows as `redact(json:)` leaves it,
    /// given the key of its member (nil in an array): for printing a large
    /// value without copying it first (`JSONPrinter.pretty(_:limit:shown:)`).
    /// It remembers which keys name secrets: a large answer asks of the same
    /// few keys a million times.
    /// `alsoSecret`: names a profile marks secret (`Profile.secretFields`' last keys).
    /// `messages`: an error answer's, where a secret's field holds a message (`"password": ["too short"]`,
    /// Django's validation errors) unless it looks like a credential, as a recording of one keeps it.
    public static func shownRememberingKeys(alsoSecret: Set<String> = [], messages: Bool = false) -> (_ key: String?, _ text: String) -> String {
        var secret: [String: Bool] = [:]
        return { key, text in
            if let key, !text.isEmpty, !isHidden(text), !(messages && ExpectedValue.readsAsAMessage(text)) {
                let named: Bool
                if let known = secret[key] { named = known } else {
                    named = isSecretName(key) || alsoSecret.contains(key)
                    secret[key] = named
                }
                if named { return hidden(text) }
            }
            if looksLikeJWT(text) { return hidden(text) }
            // One inside a string (`"tok eyJ…"`, `"Bearer abc…"`, a URL's `?access_token=`, JSON in a string), as a text body's is hidden.
            return hidingCredentials(inText: text)
        }
    }

    /// A secret value as it may be shown: a string hidden whole, the strings
    /// of a list or object hidden one by one (`show .tokens`, its parent secret).
    public static func hiding(_ value: JSONValue) -> JSONValue {
        switch value {
        case let .string(s) where !s.isEmpty && !isHidden(s): return .string(hidden(s))
        // A PIN or a numeric key is as secret (`show .pin_token` printed it).
        case let .number(digits): return .string(hidden(digits))
        case let .array(items): return .array(items.map(hiding))
        case let .object(members): return .object(members.map { ($0.key, hiding($0.value)) })
        default: return value
        }
    }

    /// `value` with each of its strings and numbers, however deep, as `text`
    /// (what a recording of `show .password` writes).
    public static func hidingLeaves(_ value: JSONValue, as text: String) -> JSONValue {
        switch value {
        case .string, .number: return .string(text)
        case let .array(items): return .array(items.map { hidingLeaves($0, as: text) })
        case let .object(members): return .object(members.map { ($0.key, hidingLeaves($0.value, as: text)) })
        default: return value
        }
    }

    /// A value with every string that holds one of `credentials` (what the
    /// request carried, echoed back by the server) hidden.
    public static func hiding(credentials: [String], in value: JSONValue) -> JSONValue {
        guard !credentials.isEmpty else { return value }
        switch value {
        // Only the credential: the rest of the string says where it was (`/echo?api_key=<hidden: 11 characters>`).
        case let .string(s) where credentials.contains(where: s.contains): return .string(hiding(credentials, inText: s))
        // An HTML page's escapes inside a JSON string (`"bad key S3cr3t&#x2F;4"`), or JSON escaped twice.
        case let .string(s) where s.includes(ascii: "&#") || s.includes(ascii: "\\u") || s.includes(ascii: "\\/"):
            return .string(hiding(credentials, inText: s))
        case let .array(items): return .array(items.map { hiding(credentials: credentials, in: $0) })
        case let .object(members): return .object(members.map { ($0.key, hiding(credentials: credentials, in: $0.value)) })
        default: return value
        }
    }

    /// A value with every secret string replaced by a placeholder that says
    /// what was hidden: members whose name says secret, and JWT-shaped strings.
    /// A value already hidden (`placeholder`, as an offline `login` shows its
    /// password) is left as it is, not counted as a three-character secret.
    /// `alsoSecret`: names a profile marks secret (`Profile.secretFields`' last keys).
    /// `carried`: credentials the request carried, hidden whole where a string
    /// holds one before the rest of it is looked at (`"Bearer <its token>"`
    /// is one credential, not `Bearer ` and a hidden word).
    public static func redact(json value: JSONValue, alsoSecret: Set<String> = [], carried: [String] = []) -> JSONValue {
        switch value {
        case let .string(s) where looksLikeJWT(s): return .string(hidden(s))
        case let .string(s) where !carried.isEmpty && carried.contains(where: s.contains):
            return .string(hidingCredentials(inText: hiding(carried, inText: s)))
        case let .string(s) where mayHoldCredential(s) && !isHidden(s): return .string(hidingCredentials(inText: s))
        case let .array(items): return .array(items.map { redact(json: $0, alsoSecret: alsoSecret, carried: carried) })
        case let .object(members):
            return .object(members.map { member in
                let secret = isSecretName(member.key) || alsoSecret.contains(member.key)
                if case let .string(s) = member.value, secret, !s.isEmpty, s != placeholder, !isHidden(s) {
                    return (member.key, .string(hidden(s)))
                }
                // A PIN or a numeric key (`api_key:=12345`) is a secret too: shown as one.
                if case let .number(digits) = member.value, secret {
                    return (member.key, .string(hidden(digits)))
                }
                // A list under a secret's name (`"password": ["x"]`): its strings and numbers too.
                if secret, case let .array(items) = member.value {
                    return (member.key, .array(items.map { item in
                        switch item {
                        case .string, .number, .array: return redact(json: .object([(member.key, item)]), alsoSecret: alsoSecret, carried: carried)[member.key] ?? item
                        default: return redact(json: item, alsoSecret: alsoSecret, carried: carried)
                        }
                    }))
                }
                return (member.key, redact(json: member.value, alsoSecret: alsoSecret, carried: carried))
            })
        default: return value
        }
    }

    /// A header as it may be shown: credentials hidden, their shape kept.
    /// `Authorization: Bearer <hidden: 228 characters>`, `Cookie: sid=<hidden: …>`,
    /// `Set-Cookie: sid=<hidden: …>; Path=/; HttpOnly`; a secret-named header's value whole.
    public static func redact(header: HTTPHeader) -> HTTPHeader {
        let pieces = secretPieces(ofHeader: header)
        guard pieces.contains(where: { $0.secret != nil }) else { return header }
        return HTTPHeader(name: header.name, value: pieces.map { $0.secret == nil ? $0.text : hidden($0.text) }.joined())
    }

    /// A header's value in pieces, each secret one with the name a transcript
    /// gives it: what `redact(header:)` hides, and what a rewritten transcript
    /// (`--update`) writes as `{{secret:NAME}}` (it wrote them in clear).
    public static func secretPieces(ofHeader header: HTTPHeader) -> [(text: String, secret: String?)] {
        let name = header.name.lowercased()
        let value = header.value
        guard !value.isEmpty else { return [(value, nil)] }
        func pair(_ pair: Substring) -> [(text: String, secret: String?)] {
            // A cookie with no name (`Set-Cookie: s3cr3t`) is all value, as a browser takes it (RFC 6265bis).
            guard let eq = pair.firstIndex(of: "=") else { return [(String(pair), pair.trimmingBlanks().isEmpty ? nil : "cookie")] }
            let secret = pair[pair.index(after: eq)...]
            let cookie = String(pair[..<eq]).trimmingBlanks()
            return secret.isEmpty ? [(String(pair), nil)] : [(String(pair[...eq]), nil), (String(secret), cookie.isEmpty ? "cookie" : cookie)]
        }
        switch name {
        case "set-cookie", "set-cookie2":
            let parts = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            return pair(parts[0]) + (parts.count > 1 ? [(";" + parts[1], nil)] : [])
        case "cookie":
            let pairs = value.split(separator: ";").map { pair(Substring($0.trimmingBlanks())) }
            return Array(pairs.joined(separator: [("; ", nil)]))
        case "www-authenticate", "proxy-authenticate":
            // A challenge (`Basic realm="…"`), not a credential: it says which `auth` the server wants.
            return [(value, nil)]
        case "authorization", "proxy-authorization":
            let words = value.split(separator: " ", maxSplits: 1)
            if words.count == 2 { return [("\(words[0]) ", nil), (String(words[1]), name)] }
            return [(value, name)]
        default:
            if isSecretHeaderName(header.name) || looksLikeCredential(value) { return [(value, name)] }
            // A URL's secret parameters (`Location: /cb#access_token=…`, a `Link`'s `?access_token=`): shown, and
            // written by `--update`, in clear. So was its password (`Location: https://deploy:PW@host/`).
            // And a JWT in its path beside them (`/cb/eyJ…?api_key=…`): hidden alone, where the query held none.
            return userinfoPieces(in: value, oneURL: true).flatMap { $0.isPassword ? [($0.text, "password")] : parameterPieces(in: $0.text) }
                .flatMap { piece in piece.secret == nil ? jwtPieces(in: piece.text) : [piece] }
        }
    }

    /// `text` in pieces, each JWT in it one named `jwt`.
    static func jwtPieces(in text: String) -> [(text: String, secret: String?)] {
        guard mayHoldJWT(text) else { return [(text, nil)] }
        var pieces: [(text: String, secret: String?)] = []
        var rest = text[...]
        for jwt in jwts(in: text) {
            guard let range = rest.range(of: jwt) else { continue }
            if rest.startIndex < range.lowerBound { pieces.append((String(rest[..<range.lowerBound]), nil)) }
            pieces.append((jwt, "jwt"))
            rest = rest[range.upperBound...]
        }
        if !rest.isEmpty || pieces.isEmpty { pieces.append((String(rest), nil)) }
        return pieces
    }

    /// A `Location` (or any one URL) as an error line says it: its password and
    /// secret parameters hidden as its header line shows them, and a JWT in it.
    public static func hidingCredentials(inLocation location: String) -> String {
        let pieces = secretPieces(ofHeader: HTTPHeader(name: "Location", value: location))
        return hidingCredentials(inText: pieces.map { $0.secret == nil ? $0.text : hidden($0.text) }.joined())
    }

    /// A text in pieces, the values of its secret-named `NAME=VALUE` pairs
    /// apart, each with the name a transcript gives it: a URL's parameters
    /// (`?access_token=…`, `#access_token=…`, `&key=…`), a form's, and
    /// such pairs in a line of text (`password=…` in a text frame or a
    /// server's message). A pair starts the text or follows `?#&;`, a blank,
    /// a comma or an opening bracket; its value ends at one of those or a quote.
    public static func parameterPieces(in text: String) -> [(text: String, secret: String?)] {
        guard text.includes(ascii: "=") else { return [(text, nil)] }
        // `\r\n` is one Character, which no list of single ones held: a CRLF body's pairs ran on.
        func isBoundary(_ c: Character) -> Bool { c.isWhitespace || "?#&;,(\"'{[:|>".contains(c) }
        func endsValue(_ c: Character) -> Bool { c.isWhitespace || "&#;<>\",')}]|\\".contains(c) }
        var pieces: [(text: String, secret: String?)] = []
        var literalStart = text.startIndex
        var i = text.startIndex
        var atBoundary = true
        // After `?&#;` a URL's parameter, where `key=` and `sig=` are secrets; in prose (`key=title`) they are not.
        var inURL = false
        // An authorization answer's or a token request's `code` (a Location's `?code=…&state=…`, a form's).
        let codeBesides: [String]? = text.includes(ascii: "code=")
            ? text.split(whereSeparator: { "?&#; \n".contains($0) }).map { decodedName(Substring($0.prefix { $0 != "=" })) } : nil
        while i < text.endIndex {
            // A name percent-encoded (`auth%5Baccess_token%5D`, a URL's echo of a bracketed one) is read decoded.
            let eq = atBoundary ? text[i...].firstIndex { !($0.isLetter || $0.isNumber || "_-.[]%".contains($0)) } ?? text.endIndex : i
            if eq > i, eq < text.endIndex, text[eq] == "=", case let name = decodedName(text[i..<eq]),
               (inURL ? isSecretParameter(name) : isSecretName(name))
                || codeBesides.map({ isOAuthCode(name: name, value: String(text[text.index(after: eq)...].prefix { !endsValue($0) }), besides: $0) }) == true {
                var valueStart = text.index(after: eq)
                var valueEnd = text[valueStart...].firstIndex(where: endsValue) ?? text.endIndex
                // A quoted value (`password="a b"`, `api_key='x'`): what is between the quotes.
                if valueStart < text.endIndex, text[valueStart] == "\"" || text[valueStart] == "'",
                   let close = text[text.index(after: valueStart)...].firstIndex(of: text[valueStart]) {
                    valueStart = text.index(after: valueStart)
                    valueEnd = close
                }
                // A value hidden already (a supplied secret's), or a placeholder, is not hidden again.
                if valueStart < valueEnd, !text[valueStart...].hasPrefix("{{") {
                    pieces.append((String(text[literalStart..<valueStart]), nil))
                    pieces.append((String(text[valueStart..<valueEnd]), ExpectedValue.secretName(leaf(of: name))))
                    literalStart = valueEnd
                    i = valueEnd
                    atBoundary = false
                    continue
                }
            }
            atBoundary = isBoundary(text[i])
            inURL = "?&#;".contains(text[i])
            i = text.index(after: i)
        }
        pieces.append((String(text[literalStart...]), nil))
        return pieces.filter { !$0.text.isEmpty }
    }

    /// A text (a line of a body, an error, a JSON string) as the screen and a
    /// report show it: the values of secret-named members of JSON written in
    /// it, a URL's secret parameters, the credential after `Bearer ` and any
    /// JWT hidden. A report printed them as the server sent them.
    public static func hidingCredentials(inText text: String) -> String {
        let signs = CredentialSigns(of: text)
        guard !signs.isEmpty else { return text }
        var shown = text
        if signs.contains(.quote) { shown = hidingSecretMembers(in: shown) }
        if signs.contains(.equals) { shown = parameterPieces(in: shown).map { $0.secret == nil ? $0.text : hidden($0.text) }.joined() }
        if signs.contains(.bearer) { shown = hidingBearerCredentials(in: shown) }
        if signs.contains(.jwt) { shown = hidingJWTs(in: shown) }
        if signs.contains(.userinfo) {
            for password in userinfoPasswords(in: shown).reversed() { shown.replaceSubrange(password, with: hidden(String(shown[password]))) }
        }
        // `KEY = VALUE` has no `: `: its `=` is the sign.
        if !signs.isDisjoint(with: [.setting, .equals]) { shown = hidingSecretLines(in: shown) { _, value in hidden(String(value)) } }
        // A URL's query encoded inside another's (`?next=%2Fcb%3Ftoken%3DX`, an echo of the request's URL).
        if signs.contains(.equals) { shown = hidingEncodedPairs(in: shown) }
        return shown
    }

    /// `text` with the values of secret pairs written percent-encoded in it
    /// (`next=%2Fcb%3Ftoken%3DX`) hidden where they stand.
    static func hidingEncodedPairs(in text: String) -> String {
        encodedSecretPieces(in: text).map { $0.secret == nil ? $0.text : hidden($0.text.removingPercentEncoding ?? $0.text) }.joined()
    }

    /// `text` in pieces, each value of a secret pair written percent-encoded
    /// in it (`next=%2Fcb%3Ftoken%3DX`: `X`) with its name: what the screen
    /// hides and a recording writes as `{{secret:NAME}}`.
    public static func encodedSecretPieces(in text: String) -> [(text: String, secret: String?)] {
        guard text.includes(ascii: "%3D") || text.includes(ascii: "%3d") || text.includes(ascii: "%253D") || text.includes(ascii: "%253d"),
              var plain = text.removingPercentEncoding else { return [(text, nil)] }
        // Encoded twice too (`%253D`: a typed `next==/cb%3Ftoken%3DX` is encoded again on its way).
        for _ in 0..<2 where plain.includes(ascii: "%3D") || plain.includes(ascii: "%3d") {
            guard let again = plain.removingPercentEncoding else { break }
            plain = again
        }
        let found = parameterPieces(in: plain).compactMap { piece in piece.secret.map { (value: piece.text, name: $0) } }
            .filter { $0.value.count >= 3 && !isHidden($0.value) && !$0.value.hasPrefix("{{") }
        guard !found.isEmpty else { return [(text, nil)] }
        var pieces: [(text: String, secret: String?)] = []
        var rest = text[...]
        // Each where it stands, encoded (`a%2Fb`) or as it is (letters and digits need no encoding).
        while let (range, name) = found.compactMap({ value, name in
            (rest.range(of: percentEncoded(value)) ?? rest.range(of: value)).map { ($0, name) }
        }).min(by: { $0.0.lowerBound < $1.0.lowerBound }) {
            if rest.startIndex < range.lowerBound { pieces.append((String(rest[..<range.lowerBound]), nil)) }
            pieces.append((String(rest[range]), name))
            rest = rest[range.upperBound...]
        }
        if !rest.isEmpty { pieces.append((String(rest), nil)) }
        return pieces
    }

    /// A line `KEY: VALUE`, `KEY:VALUE` or `KEY = VALUE` (an indented `"KEY": VALUE`, as
    /// `--offline` prints a body, `vars` a variable, a config or an error
    /// text a setting) whose KEY names a secret: the name and where its
    /// VALUE is. Nil for any other line, and for a value hidden already.
    public static func secretLineValue(_ line: Substring) -> (name: String, value: Range<String.Index>)? {
        // Read by bytes, as every string shown with a `: ` in it is: blanks, a name (quoted or not), blanks, the separator.
        let bytes = line.utf8
        var i = bytes.startIndex
        func skipBlanks() { while i < bytes.endIndex, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") { i = bytes.index(after: i) } }
        skipBlanks()
        let quoted = i < bytes.endIndex && bytes[i] == UInt8(ascii: "\"")
        if quoted { i = bytes.index(after: i) }
        let nameStart = i
        // A name, not the start of JSON (`{"password": "x", "user": "a"}` was cut there, its rest lost).
        while i < bytes.endIndex, bytes[i] >= 0x80 || isNameByte(bytes[i]) { i = bytes.index(after: i) }
        let nameEnd = i
        guard nameStart < nameEnd else { return nil }
        if quoted {
            guard i < bytes.endIndex, bytes[i] == UInt8(ascii: "\"") else { return nil }
            i = bytes.index(after: i)
        }
        let blankStart = i
        skipBlanks()
        guard i < bytes.endIndex, case let separator = bytes[i], separator == UInt8(ascii: ":") || separator == UInt8(ascii: "=") && i > blankStart
        else { return nil }
        let unspaced = i == blankStart
        i = bytes.index(after: i)
        guard i < bytes.endIndex else { return nil }
        let value: Substring
        if bytes[i] == UInt8(ascii: " ") {
            value = line[bytes.index(after: i)...]
        } else if separator == UInt8(ascii: ":"), unspaced, !quoted, (0x41...0x5A).contains(bytes[nameStart] & 0xDF),
                  ![UInt8(ascii: "="), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "\t")].contains(bytes[i]) {
            // `Password:x`, `authorization:Basic X`, as `curl -H` and config files take them; not a URL (`token://`),
            // HTTPie's raw JSON item (`password:=x`), a time (`12:30`: a name starts with a letter).
            value = line[i...]
        } else {
            return nil
        }
        let key = String(line[nameStart..<nameEnd])
        // Letters of any script, as `isLetter` took them.
        guard key.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) }), isSecretName(key), !value.isEmpty,
              !(value.hasPrefix("<") && value.hasSuffix(">")), !value.contains("<hidden"), !value.hasPrefix("{{"),
              !value.contains("{{secret:") else { return nil }
        // A cookie line is `cookieLine`'s: each cookie's value hidden, its name kept.
        if ["cookie", "set-cookie"].contains(key.lowercased()) { return nil }
        // A list of pairs (`Cookie: sid=X; csrftoken=Y`) is the pairs' rule's: each cookie its own secret, its `;` kept
        // (hidden whole, a recording needed the whole list as one secret to replay).
        if value.includes(ascii: "="), parameterPieces(in: String(value)).contains(where: { $0.secret != nil }) { return nil }
        return (key, value.startIndex..<value.endIndex)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// The secrets `hidingSecretLines` hides, with their names: what a
    /// recording learns from a text it sends (`--raw`, a text frame), so that
    /// an echo of it is written by name too.
    public static func secretsInLines(of text: String) -> [(name: String, value: String)] {
        var found: [(name: String, value: String)] = []
        _ = hidingSecretLines(in: text) { name, value in
            found.append((name, String(value)))
            return String(value)
        }
        return found
    }

    /// Where a line of text holds secrets, each with the name a transcript
    /// gives it: a setting's value (`password: x`, `secretLineValue`), or
    /// each cookie's of a `Cookie:` or `Set-Cookie:` line, as the header's
    /// rule hides them (not one hidden already, nor a placeholder).
    public static func lineSecrets(_ line: Substring) -> [(name: String, range: Range<String.Index>)] {
        if let (name, value) = secretLineValue(line) { return [(name, value)] }
        // Wrapped in quotes (`'password: X'`, a text frame typed with them: they are sent too).
        if case let inner = insideQuotes(line), inner.count < line.count { return lineSecrets(inner) }
        guard let (header, value) = cookieLine(line) else { return [] }
        var found: [(name: String, range: Range<String.Index>)] = []
        var at = value.lowerBound
        for piece in secretPieces(ofHeader: HTTPHeader(name: header, value: String(line[value]))) {
            guard let range = line[at...].range(of: piece.text) else { continue }
            at = range.upperBound
            if let name = piece.secret, !piece.text.contains("<hidden"), !piece.text.contains("{{") { found.append((name, range)) }
        }
        return found
    }

    /// `ws send --text TEXT` whose text is a setting's or a cookie's line
    /// (`Authorization: Basic X`, `'password: X'`): the line with their
    /// values hidden where they stand, every other byte as typed (the text
    /// is sent as typed, quotes and all: a line rebuilt from its words lost
    /// them, and its replay sent another frame). Nil for any other line.
    public static func redact(textFrameLine line: String, hide: (String) -> String) -> String? {
        guard let match = line.prefixMatch(of: /\s*ws\s+send\s+--text\s/.ignoresCase()) else { return nil }
        let text = line[match.range.upperBound...]
        // A setting's or cookie's line, else its assignments (`"password=X"`): rebuilt from its words, a
        // frame typed in quotes lost them, and its replay sent another frame.
        let settings = lineSecrets(text)
        let secrets = settings.isEmpty ? assignments(inTextFrame: text) : settings
        guard !secrets.isEmpty else { return nil }
        var out = String(line[..<text.startIndex]), copied = text.startIndex
        for (name, range) in secrets {
            out += line[copied..<range.lowerBound] + hide(ExpectedValue.secretName(name))
            copied = range.upperBound
        }
        return out + line[copied...]
    }

    /// A `Cookie: …` or `Set-Cookie: …` line of a text (a header dump): the header's name and where its value is.
    private static func cookieLine(_ line: Substring) -> (name: String, value: Range<String.Index>)? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        // With a blank after the colon or without (`Cookie:a=x`, as `curl -H` takes it).
        guard let colon = trimmed.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        // By bytes: asked of every string shown with a colon (each timestamp).
        let name = trimmed.utf8[..<colon]
        guard name.elementsEqual("cookie".utf8, by: { $0 | 0x20 == $1 }) || name.elementsEqual("set-cookie".utf8, by: { $0 | 0x20 == $1 }) else { return nil }
        let value = trimmed[trimmed.index(after: colon)...].drop { $0 == " " }
        guard !value.isEmpty else { return nil }
        return (String(trimmed[..<colon]), value.startIndex..<trimmed.endIndex)
    }

    /// `text` with the value of each `secretLineValue` line as `hide` makes it.
    static func hidingSecretLines(in text: String, hide: (_ name: String, _ value: Substring) -> String) -> String {
        var out = "", copied = text.startIndex
        var start = text.startIndex
        // Lines by their `\n` bytes: `\r\n` is one Character, which a split on "\n" does not split at.
        while true {
            let end = text.utf8[start...].firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
            // A CRLF text's line keeps its `\r`, outside the value.
            let line = text.utf8[start..<end].last == UInt8(ascii: "\r") ? text[start..<text.utf8.index(before: end)] : text[start..<end]
            for (name, value) in lineSecrets(line) {
                out += text[copied..<value.lowerBound] + hide(name, text[value])
                copied = value.upperBound
            }
            guard end < text.endIndex else { break }
            start = text.utf8.index(after: end)
        }
        return copied == text.startIndex ? text : out + text[copied...]
    }

    /// What in a text may hold what `hidingCredentials` hides: a quote
    /// (JSON in it), a `=` (a parameter), a colon (a setting's line), `eyJ` (a
    /// JWT), `bearer `. Asked of every string of every answer shown, so one
    /// pass over its bytes; each rule runs only where its sign is.
    struct CredentialSigns: OptionSet {
        let rawValue: UInt8
        static let quote = CredentialSigns(rawValue: 1), equals = CredentialSigns(rawValue: 2), setting = CredentialSigns(rawValue: 4)
        static let jwt = CredentialSigns(rawValue: 8), bearer = CredentialSigns(rawValue: 16)
        /// `@` after a colon: a URL's `user:password@` may be there.
        static let userinfo = CredentialSigns(rawValue: 32)

        init(rawValue: UInt8) { self.rawValue = rawValue }

        init(of text: String) {
            // Plain bits in the loop: the option set's generic operations cost a call a byte unoptimized.
            func scan(_ b: UnsafeBufferPointer<UInt8>) -> CredentialSigns {
                var found: UInt8 = 0
                for i in b.indices where found != 63 {
                    switch b[i] {
                    case UInt8(ascii: "\""): found |= 1
                    case UInt8(ascii: "="): found |= 2
                    // `: `, or a colon with no blank (`Password:x`): `secretLineValue` reads the line's start only.
                    case UInt8(ascii: ":"): found |= 4
                    case UInt8(ascii: "@") where found & 4 != 0: found |= 32
                    case UInt8(ascii: "e") where i + 2 < b.count && b[i + 1] == UInt8(ascii: "y") && b[i + 2] == UInt8(ascii: "J"): found |= 8
                    case UInt8(ascii: " ") where i >= 6 && b[i - 1] | 0x20 == UInt8(ascii: "r") && b[i - 2] | 0x20 == UInt8(ascii: "e")
                        && b[i - 3] | 0x20 == UInt8(ascii: "r") && b[i - 4] | 0x20 == UInt8(ascii: "a") && b[i - 5] | 0x20 == UInt8(ascii: "e")
                        && b[i - 6] | 0x20 == UInt8(ascii: "b"):
                        found |= 16
                    default: continue
                    }
                }
                return CredentialSigns(rawValue: found)
            }
            self = text.utf8.withContiguousStorageIfAvailable(scan) ?? Array(text.utf8).withUnsafeBufferPointer(scan)
        }
    }

    /// Whether the screen hides part of a variable's value (`sessionid=X`,
    /// `Authorization: Bearer X`, `user=a&password=X`): a `set` line keeps
    /// it hidden whole, in history and recordings, as `vars` shows it hidden
    /// (they kept it in clear).
    public static func holdsCredential(_ value: String) -> Bool {
        // `Authorization: Bearer {{tok}}`: a setting whose value is a reference holds none.
        if let (_, range) = secretLineValue(value[...]), isReference(String(value[range]).trimmingBlanks()) { return false }
        return mayHoldCredential(value) && hidingCredentials(inText: value) != value
    }

    /// Whether a text may hold what `hidingCredentials` hides.
    static func mayHoldCredential(_ text: String) -> Bool { !CredentialSigns(of: text).isEmpty }

    /// Where a credential follows `Bearer ` in a text (`"Bearer abc…"`): 8 characters or more, up to a blank or a quote.
    public static func bearerCredentials(in text: String) -> [Range<String.Index>] {
        var found: [Range<String.Index>] = []
        var from = text.startIndex
        while let match = text.range(of: "bearer ", options: .caseInsensitive, range: from..<text.endIndex) {
            // Up to a blank, a line's end (it took the next line, and in a recording the step's end), a quote,
            // a comma or a backslash (a JSON string's `\n`).
            let end = text[match.upperBound...].firstIndex { $0.isWhitespace || "\"',\\<>".contains($0) } ?? text.endIndex
            let word = text[match.upperBound..<end]
            let atWordStart = match.lowerBound == text.startIndex || !text[text.index(before: match.lowerBound)].isLetter
            // Not one hidden already (`Bearer <hidden: 23 characters>`), nor a placeholder, nor a flag after
            // `-A bearer` (`--auth=TOKEN`, hidden by its rule: taken whole, the line lost its `--auth=`).
            if atWordStart, word.count >= 8, !word.hasPrefix("{{"), !word.hasPrefix("--") { found.append(match.upperBound..<end) }
            from = end
        }
        return found
    }

    static func hidingBearerCredentials(in text: String, hide: (String) -> String = hidden) -> String {
        guard text.includes(ascii: "earer ") || text.includes(ascii: "EARER ") else { return text }
        var shown = text
        for range in bearerCredentials(in: text).reversed() { shown.replaceSubrange(range, with: hide(String(text[range]))) }
        return shown
    }

    /// `redact(header:)`, and the whole value of a header a profile names as
    /// its credential (`auth: header` in a profile file), whatever its name.
    public static func redact(header: HTTPHeader, alsoSecret names: [String]) -> HTTPHeader {
        guard !header.value.isEmpty, names.contains(where: { header.hasName($0) }) else { return redact(header: header) }
        let hiddenHere = redact(header: header)
        return hiddenHere != header ? hiddenHere : HTTPHeader(name: header.name, value: hidden(header.value))
    }

    /// What stands for a secret on screen: its length, never its text.
    public static func hidden(_ secret: String) -> String { "<hidden: \(secret.count) character\(secret.count == 1 ? "" : "s")>" }

    /// Whether `text` is what `hidden` made: hidden again, it would count the placeholder's characters.
    static func isHidden(_ text: String) -> Bool {
        text.hasPrefix("<hidden: ") && text.hasSuffix(" characters>") || text == "<hidden: 1 character>"
    }

    /// A value that is a credential whatever it is called: a JWT, or a
    /// credentials header's value (`Bearer …`, `Basic …`, `token …`).
    public static func looksLikeCredential(_ value: String) -> Bool {
        if looksLikeJWT(value) || isServiceToken(value) { return true }
        let words = value.split(separator: " ", maxSplits: 1)
        guard words.count == 2 else { return false }
        return credentialSchemes.contains(words[0].lowercased())
    }

    private static let credentialSchemes: Set<String> = ["bearer", "basic", "token", "digest", "apikey", "api-key"]

    /// A key a well-known service hands out, known by its prefix whatever it
    /// is called (`set i=ghp_…`, `X-Custom: sk_live_…` were shown, written
    /// and kept in clear): GitHub's, GitLab's, Stripe's secret and
    /// restricted keys, Slack's, AWS's access key ids, Google's API keys,
    /// OpenAI's, SendGrid's, npm's, PyPI's, Shopify's, DigitalOcean's,
    /// Hugging Face's. One word of 20 characters or more.
    public static func isServiceToken(_ value: String) -> Bool {
        guard value.utf8.count >= 20, value.utf8.count <= 512, let first = value.utf8.first,
              "gsrxAnpSdhG".utf8.contains(first) else { return false }
        guard let (prefix, separators, exact) = serviceTokenPrefixes.first(where: { value.hasPrefix($0.0) }) else { return false }
        let rest = value.utf8.dropFirst(prefix.utf8.count)
        // Its own characters only (a branch `hf_fix_tokenizer_bug_123`, a file `SG.backup.2024.tar` are none), letters and digits both.
        guard rest.count >= 16, exact.map({ rest.count == $0 }) ?? true,
              rest.allSatisfy({ isASCIIAlphanumeric($0) || separators.utf8.contains($0) }),
              rest.contains(where: { $0 >= 0x30 && $0 <= 0x39 }), rest.contains(where: { $0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A }) else { return false }
        // AWS's key ids are upper case; SendGrid's keys are two parts of 22 and 43.
        if prefix == "AKIA" || prefix == "ASIA" { return rest.allSatisfy { !($0 >= 0x61 && $0 <= 0x7A) } }
        if prefix == "SG." { return rest.split(separator: UInt8(ascii: ".")).map(\.count) == [22, 43] }
        return true
    }

    /// An ASCII letter or digit.
    private static func isASCIIAlphanumeric(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) }

    /// Each prefix, the separators its keys hold beside letters and digits, and their length after it when fixed.
    private static let serviceTokenPrefixes: [(String, String, Int?)] = [
        ("ghp_", "", 36), ("gho_", "", 36), ("ghu_", "", 36), ("ghs_", "", 36), ("ghr_", "", 36), ("github_pat_", "_", nil),
        ("glpat-", "-_", nil), ("sk_live_", "", nil), ("sk_test_", "", nil), ("rk_live_", "", nil), ("rk_test_", "", nil),
        ("xoxb-", "-", nil), ("xoxp-", "-", nil), ("xoxa-", "-", nil), ("xoxs-", "-", nil), ("xapp-", "-", nil),
        ("AKIA", "", 16), ("ASIA", "", 16), ("AIza", "-_", 35), ("sk-proj-", "-_", nil), ("sk-ant-", "-_", nil), ("SG.", "-_.", nil),
        ("npm_", "", 36), ("pypi-", "-_", nil), ("shpat_", "", 32), ("shpss_", "", 32), ("dop_v1_", "", 64), ("hf_", "", nil),
    ]

    /// `text` with each JWT in it hidden (`<hidden: N characters>`, or what
    /// `hide` makes of it), wherever it stands: after a space, a `=`, a quote
    /// (`token=eyJ…`, `"Bearer eyJ…"`).
    public static func hidingJWTs(in text: String, hide: (String) -> String = hidden) -> String {
        guard mayHoldJWT(text) else { return text }
        return replacingRuns(in: text, where: looksLikeJWT, with: hide)
    }

    /// `text` with each well-known service's key in it hidden, wherever it
    /// stands (`--raw 'ghp_…'`, `note='see sk_live_… here'`): a key is a
    /// credential whatever surrounds it.
    public static func hidingServiceTokens(in text: String, hide: (String) -> String = hidden) -> String {
        guard text.utf8.count >= 20 else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var at = 0
        for range in serviceTokenRanges(in: bytes) {
            out += bytes[at..<range.lowerBound]
            out += Array(hide(String(decoding: bytes[range], as: UTF8.self)).utf8)
            at = range.upperBound
        }
        guard at > 0 else { return text }
        out += bytes[at...]
        return String(decoding: out, as: UTF8.self)
    }

    /// Where a service's key stands in `bytes`: at its prefix, not inside a
    /// word (after a separator it may be: `/f/AKIA….json`, `stripe_sk_live_…`,
    /// `ghp_…-old`), as far as its own characters go (to its length when
    /// fixed), and a key by `isServiceToken`.
    private static func serviceTokenRanges(in bytes: [UInt8]) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var i = 0
        while i < bytes.count {
            guard (i == 0 || !isASCIIAlphanumeric(bytes[i - 1])), "gsrxAnpSdhG".utf8.contains(bytes[i]),
                  let (prefix, separators, exact) = serviceTokenPrefixes.first(where: { bytes[i...].starts(with: $0.0.utf8) }) else {
                i += 1
                continue
            }
            var end = i + prefix.utf8.count
            let limit = exact.map { min(bytes.count, end + $0) } ?? bytes.count
            while end < limit, isASCIIAlphanumeric(bytes[end]) || separators.utf8.contains(bytes[end]) { end += 1 }
            // A fixed length is the key's whole: a letter or digit right after it makes it another word.
            if exact != nil, end < bytes.count, isASCIIAlphanumeric(bytes[end]) {
                i += 1
                continue
            }
            if isServiceToken(String(decoding: bytes[i..<end], as: UTF8.self)) {
                found.append(i..<end)
                i = end
            } else {
                i += 1
            }
        }
        return found
    }

    /// The service keys in `text`, in order (as `hidingServiceTokens` finds them).
    public static func serviceTokens(in text: String) -> [String] {
        var found: [String] = []
        _ = hidingServiceTokens(in: text) { found.append($0); return $0 }
        return found
    }

    /// `text` with each run of a token's characters (letters, digits, `-`,
    /// `_`, `.`; not inside a longer word) that `matches` replaced by what
    /// `hide` makes of it; a sentence's full stop after one is not its own.
    private static func replacingRuns(in text: String, where matches: (String) -> Bool, with hide: (String) -> String) -> String {
        let bytes = Array(text.utf8)
        func isPart(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F || b == 0x2E
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            // A run of a token's characters, starting where one may (not inside a longer word).
            guard isPart(bytes[i]), i == 0 || !isPart(bytes[i - 1]) else {
                out.append(bytes[i])
                i += 1
                continue
            }
            var end = i
            while end < bytes.count, isPart(bytes[end]) { end += 1 }
            let run = String(decoding: bytes[i..<end], as: UTF8.self)
            if matches(run) {
                out += Array(hide(run).utf8)
            } else if run.hasSuffix("."), matches(String(run.dropLast())) {
                // A sentence's full stop after it is not part of it.
                out += Array(hide(String(run.dropLast())).utf8) + [0x2E]
            } else {
                out += bytes[i..<end]
            }
            i = end
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The JWTs in `text`, in order, wherever they stand (as `hidingJWTs` finds them).
    public static func jwts(in text: String) -> [String] {
        var found: [String] = []
        _ = hidingJWTs(in: text) { found.append($0); return $0 }
        return found
    }

    /// Whether `text` holds `eyJ`, the start of every JWT: a byte search, asked of every string shown.
    public static func mayHoldJWT(_ text: String) -> Bool {
        let utf8 = text.utf8
        return utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.count >= 3 else { return false }
            for i in 0..<(bytes.count - 2) where bytes[i] == 0x65 && bytes[i + 1] == 0x79 && bytes[i + 2] == 0x4A { return true }
            return false
        } ?? text.contains("eyJ")
    }

    /// Three base64url parts, the first a JSON object (`eyJ` is `{"`).
    public static func looksLikeJWT(_ s: String) -> Bool {
        // Most strings are rejected here, before any splitting.
        guard s.utf8.starts(with: "eyJ".utf8) else { return false }
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].hasPrefix("eyJ"), parts[1].count >= 4 else { return false }
        return parts.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") } }
    }
}
