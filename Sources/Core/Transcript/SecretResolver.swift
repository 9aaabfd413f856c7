import Foundation

/// Supplies the live values for a command line's `{{secret:NAME}}` when a
/// transcript is replayed (docs/transcripts.md, "Secrets"), in this order:
/// 1. the environment variable `EXPLORER_SECRET_NAME` (NAME upper-cased);
/// 2. `password`: the password of the profile's demo account whose email
///    is on the same line (`login alice@example.com {{secret:password}}`);
///    against a sandbox this comes first (`demoPasswordsFirst`);
/// 3. `wrong_password`: a fresh random string, which no account has: the
///    recorder writes it for a login the server refused;
/// 4. `new_…` (`new_password`): a value the replay invents, random but the
///    same for every occurrence in one replay, for an account it registers;
/// 5. the replay's own session secrets (`access_token`: its current access
///    token), as in `ws connect /ws/chat/1?token={{secret:access_token}}`;
/// 6. `ask`, when someone is at a terminal to answer without echo.
public struct SecretResolver: Sendable {
    public var environment: [String: String]
    public var demoAccounts: [(email: String, password: String)]
    /// Secrets of the replaying session by placeholder name (`access_token`), set before each step.
    public var session: [String: String] = [:]
    /// The session's variables, set before each step: a demo email may be
    /// typed as one (`login {{who}} {{secret:password}}`, written as typed).
    public var variables: [String: String] = [:]
    /// The server is a sandbox, whose demo accounts have the passwords the
    /// profile says: a demo login's `{{secret:password}}` takes the demo
    /// password even when `EXPLORER_SECRET_PASSWORD` is set, which then
    /// serves a variable named `password` (`set password={{secret:password}}`).
    public var demoPasswordsFirst = false
    /// Makes the `new_…` values of this resolver: fixed per replay, new for the next.
    private let invention = UUID().uuidString.replacingOccurrences(of: "-", with: "")
    /// Asks for a secret nothing else supplies (a terminal, without echo);
    /// nil when nobody is there to answer.
    public var ask: (@Sendable (String) -> String?)?

    public init(environment: [String: String], demoAccounts: [(email: String, password: String)]) {
        self.environment = environment
        self.demoAccounts = demoAccounts
    }

    /// A secret nobody supplied.
    public struct Missing: Error, Equatable, Sendable, CustomStringConvertible {
        public let name: String
        public var description: String {
            "no value for {{secret:\(name)}}: set \(SecretResolver.environmentName(name))"
        }
    }

    public static func environmentName(_ name: String) -> String { "EXPLORER_SECRET_" + name.uppercased() }

    /// The line with its secrets filled in, re-quoted so a value with spaces
    /// stays one word, and the values used (to keep them out of reports).
    public func resolve(_ line: String) throws(Missing) -> (line: String, secrets: [String]) {
        let (resolved, named) = try resolveNamed(line)
        return (resolved, named.map(\.value))
    }

    /// As `resolve`, with each value under its placeholder's name (a
    /// recording of a line typed at the prompt writes the names back).
    public func resolveNamed(_ line: String) throws(Missing) -> (line: String, secrets: [(name: String, value: String)]) {
        guard line.includes(ascii: "{{secret:"), let words = try? LineTokenizer.split(line).map(\.text) else { return (line, []) }
        let email = words.lazy.compactMap { word -> String? in
            var candidate = word.split(separator: "=", maxSplits: 1).last.map(String.init) ?? word
            if candidate.hasPrefix("{{"), candidate.hasSuffix("}}"), let value = variables[String(candidate.dropFirst(2).dropLast(2))] {
                candidate = value
            }
            return demoAccounts.first { $0.email.lowercased() == candidate.lowercased() }?.email
        }.first
        var used: [(name: String, value: String)] = []
        var resolved: [String] = []
        for word in words {
            let (text, values) = try fillItem(word, email: email)
            resolved.append(text)
            used += values
        }
        return (LineTokenizer.join(resolved), used)
    }

    /// `text` with each `{{secret:NAME}}` replaced by its value, and the values used by name.
    public func fill(_ text: String, email: String?) throws(Missing) -> (text: String, secrets: [(name: String, value: String)]) {
        try fillNamed(text, email: email)
    }

    private func fillNamed(_ text: String, email: String?) throws(Missing) -> (text: String, secrets: [(name: String, value: String)]) {
        try Self.replacingPlaceholders(in: text) { name throws(Missing) in try value(name, email: email) }
    }

    /// `pin:={{secret:pin}}` takes its value as JSON (`1234`); a value that
    /// is not JSON (`s3cr3t`) goes as a string, never as a broken item.
    /// `password:="{{secret:password}}"` takes it as a string's content,
    /// escaped (`a"b` was `"a"b"`: an error that quoted the password).
    /// Any other word has each placeholder replaced by its value.
    private func fillItem(_ word: String, email: String?) throws(Missing) -> (text: String, secrets: [(name: String, value: String)]) {
        guard let item = Self.jsonItemSecret(word) else { return try fillNamed(word, email: email) }
        let filled = try value(item.name, email: email)
        let json = !item.quoted && (try? JSONParser.parse(Array(filled.utf8))) != nil ? filled : JSONPrinter.compact(.string(filled))
        return (String(item.prefix) + json, [(item.name, filled)])
    }

    /// `NAME:={{secret:SECRET}}` or `NAME:="{{secret:SECRET}}"`, a JSON item
    /// whose whole value is one placeholder: the text up to the value
    /// (`NAME:=`), the secret's name, and whether it stands in a string.
    private static func jsonItemSecret(_ word: String) -> (prefix: Substring, name: String, quoted: Bool)? {
        let quoted = word.hasSuffix("}}\"")
        guard quoted || word.hasSuffix("}}"), let open = word.range(of: quoted ? ":=\"{{secret:" : ":={{secret:") else { return nil }
        let name = word[open.upperBound..<word.index(word.endIndex, offsetBy: quoted ? -3 : -2)]
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return (word[..<word.index(open.lowerBound, offsetBy: 2)], String(name), quoted)
    }

    /// `text` with each `{{secret:NAME}}` replaced by `value(NAME)`, and the
    /// values used by name: the one scanner of secret placeholders (lines,
    /// transcripts, profile files). A value is not searched again.
    public static func replacingPlaceholders<E: Error>(in text: String, _ value: (String) throws(E) -> String) throws(E)
        -> (text: String, secrets: [(name: String, value: String)]) {
        var text = text
        var used: [(name: String, value: String)] = []
        var searchStart = text.startIndex
        while let open = text.range(of: "{{secret:", range: searchStart..<text.endIndex),
              let close = text.range(of: "}}", range: open.upperBound..<text.endIndex) {
            let name = String(text[open.upperBound..<close.lowerBound])
            let filled = try value(name)
            used.append((name, filled))
            text.replaceSubrange(open.lowerBound..<close.upperBound, with: filled)
            searchStart = text.index(open.lowerBound, offsetBy: filled.count)
        }
        return (text, used)
    }

    /// The names of the `{{secret:NAME}}` placeholders in `text`, in order.
    public static func placeholderNames(in text: String) -> [String] {
        replacingPlaceholders(in: text) { $0 }.secrets.map(\.name)
    }

    /// One secret's value.
    public func value(_ name: String, email: String?) throws(Missing) -> String {
        let demo = name == "password" ? email.flatMap { email in demoAccounts.first { $0.email.lowercased() == email.lowercased() } } : nil
        if demoPasswordsFirst, let demo { return demo.password }
        if let value = environment[Self.environmentName(name)] { return value }
        if let demo { return demo.password }
        if name == "wrong_password" { return "wrong-" + UUID().uuidString }
        // Letters and digits, so that password rules that ask for both accept it.
        if name.hasPrefix("new_") { return "New1" + String(invention.prefix(20)) + name.dropFirst(4).filter(\.isLetter).prefix(8) }
        if let value = session[name] { return value }
        if let value = ask?(name) { return value }
        throw Missing(name: name)
    }
}
