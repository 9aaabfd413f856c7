import Foundation

/// The recorder's last line of defence: every live secret it has seen (a
/// typed password, a token from a login answer) is replaced in the text
/// about to be written by its `{{secret:NAME}}`, wherever it turns up. The
/// structured rules of `Expectation(recording:)` come first; this catches a
/// secret echoed somewhere no rule looks (inside a string, in an error).
public struct SecretScrubber: Sendable {
    /// Shorter values are not searched for: "1234" would also hide ids and
    /// prices. A value typed as a secret (`password=PW123`) is searched for
    /// from `typedMinimumLength`: the user said what it is.
    public static let minimumLength = 6
    public static let typedMinimumLength = 4

    /// Live value → placeholder name.
    private var secrets: [String: String] = [:]
    /// Each secret as it may be written (`forms(of:)`) and its name, the longest first.
    private var written: [(text: String, name: String)] = []

    /// Names a replay fills with no value learned here: a recording's
    /// `login:` header takes `password`, so a password typed later is `password_2`.
    private var reserved: Set<String> = []

    public init() {}

    /// Keeps `name` for a value this scrubber does not know, unless one it knows holds it.
    public mutating func reserve(_ name: String) {
        if !secrets.values.contains(name) { reserved.insert(name) }
    }

    public mutating func learn(_ value: String, name: String, typed: Bool = false) {
        guard value.count >= (typed ? Self.typedMinimumLength : Self.minimumLength), secrets[value] == nil else { return }
        secrets[value] = name
        for form in Self.forms(of: value) where !written.contains(where: { $0.text == form }) { written.append((form, name)) }
        written.sort { $0.text.count > $1.text.count }
    }

    /// A value as written, as it looks inside a JSON string and inside a
    /// JSON string inside one (an echo's `"data"` of the JSON sent, as a
    /// report quotes it), and as a URL or a form carries it (`a%20b`, `a+b`:
    /// an echo's `"url"`).
    public static func forms(of value: String) -> [String] {
        let escaped = String(JSONPrinter.quote(value).dropFirst().dropLast())
        let twice = String(JSONPrinter.quote(escaped).dropFirst().dropLast())
        var candidates = [value, escaped, twice, RequestBuilder.percentEncode(value), RequestBuilder.formEncode(value),
                          value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? value, htmlEscaped(value)]
        // As PHP's json_encode (`\/`) and Python's json.dumps (`\u00e9`) write it: a base64 token's `/`
        // echoed as `\/` in a text or HTML body was shown, recorded and put in JUnit in clear.
        candidates += Redactor.jsonEchoForms(of: escaped)
        // An echo in base64 (a server that signs or stores what it got); a short value's base64 could be anything's.
        if value.utf8.count >= 6 {
            let base64 = Data(value.utf8).base64EncodedString()
            let unpadded = String(base64.prefix { $0 != "=" })
            // And as a URL or a JWT carries base64 (`-` and `_` for `+` and `/`).
            candidates += [base64, unpadded, unpadded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")]
        }
        var forms: [String] = []
        for form in candidates where !forms.contains(form) { forms.append(form) }
        return forms
    }

    /// As an HTML page writes the value (`&lt;`, `&amp;`, `&quot;`, `&#39;`).
    static func htmlEscaped(_ value: String) -> String {
        guard value.contains(where: { "<>&\"'".contains($0) }) else { return value }
        return value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }

    /// The placeholder name a value was learned under, if any.
    public func name(of value: String) -> String? { secrets[value] }

    /// `base` when no other value holds it, else `base_2`, `base_3`…: a
    /// second login's password gets a name of its own, so that a replay
    /// can be given each (`EXPLORER_SECRET_PASSWORD_2`).
    public func freeName(_ base: String, for value: String) -> String {
        let taken = Set(secrets.filter { $0.key != value }.values).union(reserved)
        guard taken.contains(base) else { return base }
        return (2...).lazy.map { "\(base)_\($0)" }.first { !taken.contains($0) }!
    }

    /// Learns the secret-named string members, the profile's secret fields
    /// and the JWT-shaped strings in a body.
    public mutating func learn(secretsIn value: JSONValue, key: String? = nil, fields: SecretFields = .none) {
        learn(secretsIn: value, keys: key.map { [$0] } ?? [], fields: fields)
    }

    private mutating func learn(secretsIn value: JSONValue, keys: [String], fields: SecretFields) {
        let key = keys.last
        switch value {
        case let .string(s):
            if let key, Redactor.isSecretName(key) || fields.contains(keys) { learn(s, name: ExpectedValue.secretName(key)) }
            else if Redactor.looksLikeJWT(s) { learn(s, name: ExpectedValue.secretName(key ?? "jwt")) }
        case let .array(items): items.forEach { learn(secretsIn: $0, keys: keys, fields: fields) }
        case let .object(members): members.forEach { learn(secretsIn: $0.value, keys: keys + [$0.key], fields: fields) }
        default: break
        }
    }

    /// `text` with every known secret, in each of its `forms`, replaced by
    /// its `{{secret:NAME}}`, longest first.
    public func scrub(_ text: String) -> String {
        // Last, a credential after `Bearer ` no rule named (`"note": "Bearer abc…"`): after the known
        // secrets, so that an echo of the session's own token keeps its name (`{{secret:token}}`).
        let scrubbed = Redactor.hidingBearerCredentials(in: replacing(in: text) { TranscriptPattern(.secret($0)).description }) { _ in
            TranscriptPattern(.secret("authorization")).description
        }
        // A secret inside a member's name (`{"k_<token>": 1}`) names its placeholder too, lower-cased
        // (`{{secret:k_<token>}}`), which no search for the secret finds: that name goes as well.
        return secrets.keys.reduce(scrubbed) { text, value in
            guard value.count >= Self.minimumLength else { return text }
            let named = String(value.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
            return named == value ? text : text.replacingOccurrences(of: named, with: "hidden")
        }
    }

    /// `text` with every known secret replaced by `<hidden>`: for reports.
    public func hide(_ text: String) -> String {
        replacing(in: text) { _ in "<hidden>" }
    }

    /// Each form of each secret (the longest first) replaced in `text`, but never
    /// within a placeholder: one the text had (`{{secret:token}}`, written
    /// by a structured rule) or one put in for a longer secret. Replaced one
    /// after another over the whole text, a secret `secret` or `password`
    /// was found again inside `{{secret:password}}`, and the line was written
    /// `{{secret:{{secret:password}}}}`, which no replay could fill in.
    private func replacing(in text: String, with placeholderOf: (String) -> String) -> String {
        let plain = replacingForms(in: text, with: placeholderOf)
        // Then as other encoders escape it (`\u00E9`, `\u002f`, `&#x2F;`), which no form lists.
        return Redactor.replacing(Redactor.escapedMatches(of: Array(secrets.keys), in: plain), in: plain) { value, _ in
            placeholderOf(secrets[value] ?? "secret")
        }
    }

    private func replacingForms(in text: String, with placeholderOf: (String) -> String) -> String {
        guard written.contains(where: { text.contains($0.text) }) else { return text }
        var pieces = Self.placeholders(in: text)
        for form in written where pieces.contains(where: { !$0.kept && $0.text.contains(form.text) }) {
            // A secret that is a word (a password `token`) is found as a word only: inside `access_token`
            // it was the field name's text, and the login's answer was written `access_{{secret:password}}`.
            // A word is not one inside a name, a path or a version either, nor a member's name: `set
            // token=HTTP` and `set password=Accept` wrote `{{secret:token}}/1.1 200 OK` and
            // `"{{secret:password}}-Encoding"`, and the recording no longer read back.
            let isWord = form.text.allSatisfy(\.isLetter)
            func joins(_ c: Character) -> Bool { c.isLetter || c.isNumber || "_-/.".contains(c) }
            pieces = pieces.flatMap { piece -> [(text: String, kept: Bool)] in
                guard !piece.kept, piece.text.contains(form.text) else { return [piece] }
                var out: [(text: String, kept: Bool)] = []
                var free = "", rest = Substring(piece.text)
                while let found = rest.range(of: form.text) {
                    let before = found.lowerBound > rest.startIndex ? rest[rest.index(before: found.lowerBound)] : (free.last ?? " ")
                    let after = found.upperBound < rest.endIndex ? rest[found.upperBound] : " "
                    let name = before == "\"" && rest[found.upperBound...].hasPrefix("\":")
                    if isWord, name || [before, after].contains(where: joins) {
                        free += rest[..<found.upperBound]
                    } else {
                        free += rest[..<found.lowerBound]
                        if !free.isEmpty { out.append((free, false)) }
                        free = ""
                        out.append((placeholderOf(form.name), true))
                    }
                    rest = rest[found.upperBound...]
                }
                free += rest
                if !free.isEmpty { out.append((free, false)) }
                return out
            }
        }
        return pieces.map(\.text).joined()
    }

    /// `text` cut into the placeholders it holds (`{{…}}`, kept as they
    /// are) and the text between them.
    private static func placeholders(in text: String) -> [(text: String, kept: Bool)] {
        var pieces: [(text: String, kept: Bool)] = []
        var free = "", rest = Substring(text)
        while let open = rest.range(of: "{{") {
            free += rest[..<open.lowerBound]
            let inside = rest[open.upperBound...].prefix { $0 != "{" && $0 != "}" }
            guard rest[inside.endIndex...].hasPrefix("}}") else {
                // `{{{`, or no `}}` before the next brace: not a placeholder.
                free += "{"
                rest = rest[rest.index(after: open.lowerBound)...]
                continue
            }
            if !free.isEmpty { pieces.append((free, false)) }
            free = ""
            let end = rest.index(inside.endIndex, offsetBy: 2)
            pieces.append((String(rest[open.lowerBound..<end]), true))
            rest = rest[end...]
        }
        free += rest
        if !free.isEmpty { pieces.append((free, false)) }
        return pieces
    }
}
