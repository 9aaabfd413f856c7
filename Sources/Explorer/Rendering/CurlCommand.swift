import Core
import Foundation

/// A request as a curl command line (`--curl`), to paste into a shell, a
/// bug report or API docs. Secrets never appear: the access token and the
/// values of secret-named items are shell variables (`"$ACCESS_TOKEN"`,
/// `"$PASSWORD"`), set by whoever runs the command.
enum CurlCommand {
    /// Stands for a secret in a request until the command is quoted:
    /// `⟦PASSWORD⟧` becomes `"$PASSWORD"` outside the single quotes.
    static func placeholder(_ name: String) -> String { "⟦\(variable(name))⟧" }

    /// The same for a known value: two values under one name (a form's
    /// `password` and a Basic credential's) become two variables when the
    /// command is rendered (`$PASSWORD`, `$PASSWORD_2`); one variable for
    /// both, the command sent one password twice. The value is marked by a
    /// fingerprint that `render` takes out.
    static func placeholder(_ name: String, for value: String) -> String {
        // Hasher is seeded afresh by each process: the mark, were it ever seen, tells nothing of the value
        // (a plain hash of a PIN was printed where a name was not ASCII, and brute-forced at once).
        var hasher = Hasher()
        hasher.combine(value)
        let digits = String(UInt32(truncatingIfNeeded: hasher.finalize()), radix: 16)
        return "⟦\(variable(name))~\(String(repeating: "0", count: 8 - digits.count) + digits)⟧"
    }

    /// `access_token` → `ACCESS_TOKEN`, `X-Api-Key` → `X_API_KEY`; one
    /// that would start with a digit starts with `_` (`$1ST` is `$1`, then `ST`).
    static func variable(_ name: String) -> String {
        // ASCII alone: a shell variable's name is (`$JÉTON_TOKEN` could not be set).
        let variable = String(name.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
        return variable.first?.isNumber == true ? "_" + variable : variable
    }

    /// Items with each secret value replaced by its placeholder. A nested
    /// field is judged, and its variable named, by the key it sets
    /// (`user[token]` is `$TOKEN`); a JSON item that is not a string stays
    /// bare in the body (`{"pin":'"$PIN"'}`), so the command sends a number.
    /// A value filled in for `{{secret:NAME}}` (`supplied`) is `"$NAME"`
    /// wherever an item holds it, whatever the item's name (`X-Api-Key:
    /// {{secret:tok}}` is `"$TOK"`, and `Bearer {{secret:tok}}` keeps its scheme).
    static func hidingSecrets(_ items: [RequestItem], supplied: [SuppliedSecrets.Secret] = []) -> [RequestItem] {
        hidingSecretNamed(hidingSupplied(items, supplied))
    }

    private static func hidingSupplied(_ items: [RequestItem], _ supplied: [SuppliedSecrets.Secret]) -> [RequestItem] {
        guard !supplied.isEmpty else { return items }
        let secrets = supplied.sorted { $0.value.count > $1.value.count }
        func hide(_ text: String) -> String { hiding(secrets, in: text) }
        func hide(_ value: JSONValue) -> JSONValue {
            switch value {
            case let .string(s): return .string(hide(s))
            case let .number(digits): return secrets.first { $0.value == digits }.map { .number(placeholder($0.name, for: $0.value)) } ?? value
            case let .array(items): return .array(items.map(hide))
            case let .object(members): return .object(members.map { ($0.key, hide($0.value)) })
            default: return value
            }
        }
        return items.map { item in
            switch item {
            case let .header(name, value) where name.lowercased() == "authorization":
                // `-a bob:PASSWORD`: its base64 was hidden whole, and the command said `Basic "$BASIC_CREDENTIALS"`
                // where README (and `auth basic`) give `-u 'bob:'"$PASSWORD"`. The password alone is a variable.
                guard let credentials = BasicCredentials(authorization: value) else { return .header(name: name, value: credential(value, supplied: secrets) ?? value) }
                return .header(name: name, value: BasicCredentials(user: credentials.user, password: hide(credentials.password)).authorization)
            // A credential header is its variable whole or after its scheme, or left to its name's rule: a supplied
            // value inside it (`X-Api-Key:Bearer`'s, a PIN's digits in the token) stood for part and printed the rest.
            case let .header(name, value) where Redactor.isSecretHeaderName(name):
                return .header(name: name, value: credential(value, supplied: secrets) ?? value)
            case let .header(name, value): return .header(name: name, value: hide(value))
            case let .stringField(name, value): return .stringField(name: name, value: hide(value))
            case let .jsonField(name, value): return .jsonField(name: name, value: hide(value))
            case let .query(name, value): return .query(name: name, value: hide(value))
            default: return item
            }
        }
    }

    /// A credential header's value with a supplied secret as its variable:
    /// the whole value (`"$KEY"`), or the credential after its scheme
    /// (`Bearer "$TOK"`); nil when no supplied value is either.
    static func credential(_ value: String, supplied: [SuppliedSecrets.Secret]) -> String? {
        if let whole = supplied.first(where: { $0.value == value }) { return placeholder(whole.name, for: value) }
        let words = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard words.count == 2, !words[0].isEmpty, let secret = supplied.first(where: { $0.value == words[1] }) else { return nil }
        return words[0] + " " + placeholder(secret.name, for: secret.value)
    }

    /// `text` with each supplied value as its placeholder, the longest
    /// first (a value holding a shorter one is replaced whole).
    static func hiding(_ supplied: [SuppliedSecrets.Secret], in text: String) -> String {
        supplied.sorted { $0.value.count > $1.value.count }.reduce(text) { $0.replacingOccurrences(of: $1.value, with: placeholder($1.name, for: $1.value)) }
    }

    /// Items a secret name makes secret, unless a supplied value already stands as its variable.
    private static func hidingSecretNamed(_ items: [RequestItem]) -> [RequestItem] {
        func secret(_ name: String) -> String? {
            if Redactor.isSecretName(name) { return name }
            let leaf = Redactor.leaf(of: name)
            return Redactor.isSecretName(leaf) ? leaf : nil
        }
        let names = items.compactMap { item -> String? in
            switch item {
            case let .query(name, _), let .stringField(name, _): name
            default: nil
            }
        }
        return items.map { item in
            // OAuth 2's authorization code beside its token request's items.
            switch item {
            case let .query(name, value) where !value.contains("⟦") && Redactor.isOAuthCode(name: name, value: value, besides: names):
                return .query(name: name, value: placeholder(name, for: value))
            case let .stringField(name, value) where !value.contains("⟦") && Redactor.isOAuthCode(name: name, value: value, besides: names):
                return .stringField(name: name, value: placeholder(name, for: value))
            default: break
            }
            // A typed Basic credential (`-a bob:PASSWORD`) keeps its user: the command says `-u 'bob:'"$PASSWORD"`.
            // Its password may be a variable already (a supplied secret's), inside the base64: kept, not made again.
            if case let .header(name, value) = item, name.lowercased() == "authorization", let credentials = BasicCredentials(authorization: value),
               credentials.password.contains("⟦") || credentials.user.contains("⟦") {
                return item
            }
            if case let .header(name, value) = item, name.lowercased() == "authorization", !value.contains("⟦"),
               let credentials = BasicCredentials(authorization: value) {
                // An empty password (`-a 'sk_test_KEY:'`): the user is a token, a variable.
                guard !credentials.password.isEmpty else {
                    return .header(name: name, value: BasicCredentials(user: placeholder("token"), password: "").authorization)
                }
                return .header(name: name, value: BasicCredentials(user: credentials.user, password: placeholder("password", for: credentials.password)).authorization)
            }
            switch item {
            case let .header(name, value) where Redactor.isSecretHeaderName(name) && !value.isEmpty && !value.contains("⟦"):
                return .header(name: name, value: hidingCredential(named: name, value))
            case let .stringField(_, value) where value.contains("⟦"): return item
            case let .stringField(name, value):
                return secret(name).map { .stringField(name: name, value: placeholder(Redactor.leaf(of: $0), for: value)) } ?? item
            case .jsonField(_, .string(let text)) where text.contains("⟦"), .jsonField(_, .number(let text)) where text.contains("⟦"):
                return item
            case let .jsonField(name, value):
                // An object or list typed whole: its secret-named members.
                guard let secret = secret(name) else { return .jsonField(name: name, value: Redactor.hidingMembers(of: value, hidingValue: placeholder(_:for:))) }
                if case let .string(text) = value { return .stringField(name: name, value: placeholder(Redactor.leaf(of: secret), for: text)) }
                return .jsonField(name: name, value: .number(placeholder(Redactor.leaf(of: secret), for: JSONPrinter.compact(value))))
            case let .query(name, value) where Redactor.isSecretParameter(name) && !value.contains("⟦"): return .query(name: name, value: placeholder(name, for: value))
            // A value that is itself a URL or a query (`next==/cb?access_token=X`): its secret pairs.
            case let .query(name, value) where value.contains("="):
                let pieces = Redactor.parameterPieces(in: value)
                guard pieces.contains(where: { $0.secret != nil }) else { return item }
                return .query(name: name, value: pieces.map { piece in piece.secret.map(placeholder) ?? piece.text }.joined())
            // Typed percent-encoded (`next==/cb%3Faccess_token%3DX`): its pairs read decoded, the rest as typed.
            case let .query(name, value) where !value.contains("⟦") && (value.contains("%3D") || value.contains("%3d") || value.contains("%253")):
                return Redactor.redactEncodedPairs(in: value[...], hide: placeholder).map { .query(name: name, value: $0) } ?? item
            // Read from a file (`token=@tok.txt`): the file's secret was printed in the command.
            case let .stringFieldFromFile(name, _): return secret(name).map { .stringField(name: name, value: placeholder(Redactor.leaf(of: $0))) } ?? item
            case let .jsonFieldFromFile(name, _):
                return secret(name).map { .jsonField(name: name, value: .number(placeholder(Redactor.leaf(of: $0)))) } ?? item
            case let .headerFromFile(name, _) where Redactor.isSecretHeaderName(name): return .header(name: name, value: placeholder(name))
            case let .queryFromFile(name, _) where Redactor.isSecretParameter(name): return .query(name: name, value: placeholder(name))
            default: return item
            }
        }
    }

    /// A credential header's value as its variable: after its scheme, if it
    /// has one (`Bearer "$TOKEN"`), so the command still says what it sends;
    /// whole otherwise (`"$X_API_KEY"`).
    static func hidingCredential(named name: String, _ value: String) -> String {
        let words = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard name.lowercased() == "authorization", words.count == 2, !words[0].isEmpty, !words[1].isEmpty,
              words[0].allSatisfy({ $0.isLetter || $0 == "-" }) else { return placeholder(name) }
        return words[0] + " " + placeholder(words[0].lowercased() == "basic" ? "credentials" : "token")
    }

    /// Where a line's body goes instead of the screen.
    enum Saving: Sendable, Equatable {
        /// `-o FILE`.
        case file(String)
        /// `--download` without `-o`: named by the answer or the URL.
        case remoteName
    }

    /// A part of a multipart body, as curl's `-F` makes it.
    enum FormPart: Sendable, Equatable {
        case text(name: String, value: String)
        /// A text field read from a file (`name=@notes.txt`): curl's `name=<file`.
        case textFile(name: String, path: String)
        case file(name: String, path: String, type: String?)

        /// The parts of a multipart body made of request items; nil when an item cannot be one.
        static func parts(of items: [RequestItem]) -> [FormPart] {
            items.compactMap { item in
                switch item {
                case let .stringField(name, value): .text(name: name, value: value)
                case let .jsonField(name, value): .text(name: name, value: JSONPrinter.compact(value))
                case let .stringFieldFromFile(name, path): .textFile(name: name, path: path)
                case let .file(name, path, type): .file(name: name, path: path, type: type)
                default: nil
                }
            }
        }

        var words: [String] {
            switch self {
            case let .text(name, value): ["--form-string", CurlCommand.quote(name + "=" + value)]
            case let .textFile(name, path): ["-F", CurlCommand.quote(name + "=<" + Self.formPath(path))]
            case let .file(name, path, type): ["-F", CurlCommand.quote(name + "=@" + Self.formPath(path) + (type.map { ";type=" + $0 } ?? ""))]
            }
        }

        /// A file's path as curl's -F reads it: in double quotes when it holds what ends a path there (`;`, `,`)
        /// or a quote, `\` and `"` escaped (`-F 'photo=@semi;x.png'` was "skip unknown form field: x.png").
        static func formPath(_ path: String) -> String {
            guard path.contains(where: { ";,\"".contains($0) }) else { return path }
            return "\"" + path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
    }

    /// A body's credentials no item's name said (a file's JSON read into a
    /// field, `data=@body.json`; `"Bearer …"` in a value) as variables:
    /// the secret-named members of JSON written in it, escaped or not, and
    /// the credential after `Bearer `.
    static func hidingCredentials(inBody text: String) -> String {
        var found = PatternText.secretMembers(in: text).map { (range: $0.value, name: Redactor.leaf(of: $0.key)) }
        found += Redactor.bearerCredentials(in: text).map { (range: $0, name: "authorization") }
        var shown = "", cursor = text.startIndex
        for (range, name) in found.sorted(by: { $0.range.lowerBound < $1.range.lowerBound })
        where range.lowerBound >= cursor && !text[range].contains("⟦") {
            shown += text[cursor..<range.lowerBound] + placeholder(ExpectedValue.secretName(name), for: String(text[range]))
            cursor = range.upperBound
        }
        return shown + text[cursor...]
    }

    /// `form`: a multipart body as the parts curl makes it from (`-F
    /// 'photo=@cat.png'`), its boundary and bytes left to curl; the body
    /// inlined was raw bytes and a fixed boundary, or `@BODY_FILE` nobody had.
    /// `bodyFile`: a whole body read from a file, as curl's `--data-binary @FILE`:
    /// inlined, its bytes (a password in a form file) were printed and recorded.
    /// `saving`: where the body goes (`-o FILE`, `--download`), as curl's `-o` or `-OJ`.
    static func render(_ request: PreparedRequest, follow: Int? = nil, form: [FormPart]? = nil, bodyFile: String? = nil,
                       saving: Saving? = nil, removed: [String] = []) -> String {
        var words = ["curl"]
        if request.method == "HEAD" {
            words.append("--head")
        } else if follow != nil, request.method == "POST", request.body != nil {
            // --data-raw makes it a POST; with -X POST curl would POST again
            // after a 303 (and a 301 or 302), where explorer follows with a GET.
        } else if request.method != "GET" || request.body != nil {
            words += ["-X", request.method]
        }
        if let follow { words += ["-L", "--max-redirs", String(follow)] }
        switch saving {
        case let .file(path)?: words += ["-o", quote(path)]
        // Named by the answer's Content-Disposition, else the URL, as explorer's `--download` names it.
        case .remoteName?: words += ["-O", "-J"]
        case nil: break
        }
        if let timeout = request.timeout {
            let (seconds, attoseconds) = timeout.components
            words += ["-m", attoseconds == 0 ? String(seconds) : String(Double(seconds) + Double(attoseconds) / 1e18)]
        }
        switch request.tls?.verify {
        case .none?: words.append("--insecure")
        case let .authorities(path)?: words += ["--cacert", quote(path)]
        default: break
        }
        if let certificate = request.tls?.certificate { words += ["--cert", quote(certificate)] }
        if let key = request.tls?.key { words += ["--key", quote(key)] }
        // Basic credentials as curl's own `-u 'user:'"$PASSWORD"` (`Interpreter.curlView` puts them in the URL).
        var url = request.url
        if let user = url.user(percentEncoded: false), var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            words += ["-u", quote(user + ":" + (components.password ?? ""))]
            components.percentEncodedUser = nil
            components.percentEncodedPassword = nil
            url = components.url ?? url
        }
        words.append(quote(url.absoluteString.removingPercentEncodingOfPlaceholders))
        for header in request.headers {
            // Sent empty, it is no --compressed (which asks for curl's own list).
            if header.hasName("Accept-Encoding"), !header.value.isEmpty {
                words.append("--compressed")
                continue
            }
            if form != nil, header.hasName("Content-Type") || header.hasName("Content-Length") { continue }
            // `-H 'X-E: '` is curl's way to remove a header: one sent empty is `-H 'X-E;'`.
            words += ["-H", quote(header.value.isEmpty ? header.name + ";" : "\(header.name): \(header.value)")]
        }
        // curl sends a User-Agent and an Accept of its own: a line that removed explorer's (`User-Agent:`)
        // removes curl's too, or the colleague's run sent what this one did not.
        for name in removed { words += ["-H", quote(name + ":")] }
        if let form {
            words += form.flatMap(\.words)
        } else if let bodyFile {
            words += ["--data-binary", quote("@" + bodyFile)]
        } else if let body = request.body, !body.isEmpty {
            if let text = String(validating: body, as: UTF8.self) {
                // A form body percent-encodes the placeholders' brackets.
                words += ["--data-raw", quote(hidingCredentials(inBody: text.removingPercentEncodingOfPlaceholders))]
            } else {
                words += ["--data-binary", "@BODY_FILE"]
            }
        }
        return namingVariables(words.joined(separator: " "))
    }

    /// The command with each value's variable named: the first value under
    /// a name takes it, another value under it `NAME_2` (a fingerprint marks
    /// each value, see `placeholder(_:for:)`).
    static func namingVariables(_ command: String) -> String {
        var named: [String: String] = [:], taken: Set<String> = []
        var out = "", rest = command[...]
        // Only what `quote` made a variable: a body's own `"$PASSWORD"` text is left as typed.
        while let start = rest.range(of: "\"$" + Self.variableMark) {
            out += rest[..<start.lowerBound] + "\"$"
            rest = rest[start.upperBound...]
            let name = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            var key = String(name)
            var after = rest[name.endIndex...]
            if after.first == "~", case let mark = after.dropFirst().prefix(8), mark.count == 8, mark.allSatisfy(\.isHexDigit) {
                key += "~" + mark
                after = after.dropFirst(9)
            }
            if named[key] == nil {
                var variable = String(name), n = 2
                while taken.contains(variable) { variable = "\(name)_\(n)"; n += 1 }
                named[key] = variable
                taken.insert(variable)
            }
            out += named[key]!
            rest = after
        }
        return out + rest
    }

    /// Marks a variable `quote` wrote, until `namingVariables` names it (a private-use character).
    static let variableMark = "\u{E000}"

    /// Single-quoted for a POSIX shell, with each placeholder outside the
    /// quotes as a double-quoted variable: `'{"password":"'"$PASSWORD"'"}'`.
    static func quote(_ text: String) -> String {
        var out = ""
        var literal = ""
        var rest = Substring(text)
        func flushLiteral() {
            guard !literal.isEmpty else { return }
            out += "'" + literal.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
            literal = ""
        }
        while let open = rest.range(of: "⟦"), let close = rest[open.upperBound...].range(of: "⟧") {
            literal += rest[..<open.lowerBound]
            flushLiteral()
            out += "\"$" + Self.variableMark + rest[open.upperBound..<close.lowerBound] + "\""
            rest = rest[close.upperBound...]
        }
        literal += rest
        flushLiteral()
        return out.isEmpty ? "''" : out
    }
}

private extension String {
    /// URLs percent-encode the placeholder's brackets in a query: decoded back so `quote` finds them.
    /// A form encodes the value's mark's `~` too (`%7E`): decoded inside a placeholder alone.
    var removingPercentEncodingOfPlaceholders: String {
        let decoded = replacingOccurrences(of: "%E2%9F%A6", with: "⟦").replacingOccurrences(of: "%E2%9F%A7", with: "⟧")
        guard decoded.contains("%7E") else { return decoded }
        var out = "", rest = decoded[...]
        while let open = rest.range(of: "⟦"), let close = rest[open.upperBound...].range(of: "⟧") {
            out += rest[..<open.upperBound] + rest[open.upperBound..<close.lowerBound].replacingOccurrences(of: "%7E", with: "~") + "⟧"
            rest = rest[close.upperBound...]
        }
        return out + rest
    }
}
