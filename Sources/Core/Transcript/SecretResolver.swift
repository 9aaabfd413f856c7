import Foundation

/// Supplies the live values for a command line's `{{secret:NAME}}` when a
/// transcript is replayed (docs/transcripts.md, "Secrets"), in this order:
/// 1. the environment variable `EXPLORER_SECRET_NAME` (NAME upper-cased);
/// 2. `password`: the password of the profile's demo account whose email
///    is on the same line (`login alice@example.com {{secret:password}}`);
///    against a sandbox this comes first (`demoPasswordsFirst`);
/// 3. `wrong_…` (`wrong_password`, `wrong_refresh_token`): a fresh random
///    string, which no account has: the recorder writes it for a value the
///    server refused (a login's password, a secret a 401 answered);
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
        guard line.includes(ascii: "{{secret:") else { return (line, []) }
        // `ws send {…}` is JSON as typed: split into words, it lost its quotes.
        if let json = Redactor.socketJSONStart(line) {
            let (text, used) = try Self.fillingJSON(String(line[json...])) { name throws(Missing) in try value(name, email: nil) }
            return (String(line[..<json]) + text, used)
        }
        // `ws send --text …` sends the rest of the line as it is: filled in place, not split into
        // words and joined again (which quoted a value with a space and closed up double spaces).
        if let text = Self.socketTextStart(line) {
            let (filled, used) = try Self.replacingPlaceholders(in: String(line[text...])) { name throws(Missing) in try value(name, email: nil) }
            return (String(line[..<text]) + filled, used)
        }
        guard let words = try? LineTokenizer.split(line).map(\.text) else { return (line, []) }
        let email = demoEmail(in: words)
        var used: [(name: String, value: String)] = []
        var resolved: [String] = []
        for (index, word) in words.enumerated() {
            let fill = { (name: String) throws(Missing) -> String in try value(name, email: email) }
            let (text, values): (String, [(name: String, value: String)])
            if let json = Self.jsonItemValue(word) {
                // `pin:={{secret:pin}}` takes the value as JSON (`1234`), or as a
                // string when it is not JSON; `'password:="{{secret:password}}"'`
                // as a string's content, escaped (`a"b` made broken JSON, whose
                // error quoted the password).
                let filled = try Self.fillingJSON(String(word[json...]), fill)
                (text, values) = (String(word[..<json]) + filled.text, filled.secrets)
            } else if index > 0, words[index - 1] == "--raw", (word.first == "{" && !word.hasPrefix("{{")) || word.first == "[" {
                // JSON typed whole; a raw body that is a placeholder (`--raw {{secret:key}}`) is its value as it is (it was quoted).
                (text, values) = try Self.fillingJSON(word, fill)
            } else {
                (text, values) = try Self.replacingPlaceholders(in: word, fill)
            }
            resolved.append(text)
            used += values
        }
        return (LineTokenizer.join(resolved), used)
    }

    /// Where the text of a `ws send --text TEXT` line begins.
    private static func socketTextStart(_ line: String) -> String.Index? {
        let words = line.split(maxSplits: 3, omittingEmptySubsequences: true, whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 4, words[0].lowercased() == "ws", words[1].lowercased() == "send", words[2] == "--text" else { return nil }
        return words[3].startIndex
    }

    /// The demo account's email a line's words name (`login alice@…`,
    /// `email=alice@…`, `{{who}}` holding one), whose password fills its
    /// `{{secret:password}}`.
    public func demoEmail(in words: [String]) -> String? {
        words.lazy.compactMap { word -> String? in
            var candidate = word.split(separator: "=", maxSplits: 1).last.map(String.init) ?? word
            if candidate.hasPrefix("{{"), candidate.hasSuffix("}}"), let value = variables[String(candidate.dropFirst(2).dropLast(2))] {
                candidate = value
            }
            return demoAccounts.first { $0.email.lowercased() == candidate.lowercased() }?.email
        }.first
    }

    /// `text` with each `{{secret:NAME}}` replaced by its value, and the values used by name.
    public func fill(_ text: String, email: String?) throws(Missing) -> (text: String, secrets: [(name: String, value: String)]) {
        try Self.replacingPlaceholders(in: text) { name throws(Missing) in try value(name, email: email) }
    }

    /// Where the value of a `NAME:=JSON` item starts: after its first
    /// separator, when that is `:=` (not `:=@`, a file). HTTPie's escapes
    /// (`a\:=b`) are skipped over.
    private static func jsonItemValue(_ word: String) -> String.Index? {
        var index = word.startIndex
        while index < word.endIndex {
            let c = word[index]
            if c == "\\" {
                index = word.index(after: index)
                if index < word.endIndex { index = word.index(after: index) }
                continue
            }
            if c == "=" || c == "@" { return nil }
            if c == ":" {
                let next = word.index(after: index)
                guard next < word.endIndex, word[next] == "=" else { return nil }
                let value = word.index(after: next)
                return value < word.endIndex && word[value] == "@" ? nil : value
            }
            index = word.index(after: index)
        }
        return nil
    }

    /// JSON text with each placeholder filled in as JSON: inside a string,
    /// the value's characters escaped; elsewhere the value itself when it is
    /// JSON (`1234`, `true`), else a string of it.
    static func fillingJSON<E: Error>(_ text: String, _ value: (String) throws(E) -> String) throws(E)
        -> (text: String, secrets: [(name: String, value: String)]) {
        let bytes = Array(text.utf8)
        let open = Array("{{secret:".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var used: [(name: String, value: String)] = []
        var inString = false
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if inString, byte == UInt8(ascii: "\\"), i + 1 < bytes.count {
                out += bytes[i...i + 1]
                i += 2
                continue
            }
            if byte == UInt8(ascii: "\"") { inString.toggle() }
            if byte == UInt8(ascii: "{"), bytes[i...].starts(with: open), let close = closing(bytes, from: i + open.count) {
                let name = String(decoding: bytes[(i + open.count)..<close], as: UTF8.self)
                let filled = try value(name)
                used.append((name, filled))
                let quoted = JSONPrinter.quote(filled)
                if inString {
                    out += Array(quoted.utf8).dropFirst().dropLast()
                } else {
                    out += (try? JSONParser.parse(Array(filled.utf8))) != nil ? Array(filled.utf8) : Array(quoted.utf8)
                }
                i = close + 2
                continue
            }
            out.append(byte)
            i += 1
        }
        return (String(decoding: out, as: UTF8.self), used)
    }

    /// Where the `}}` closing a placeholder's name is, when the name is one.
    private static func closing(_ bytes: [UInt8], from start: Int) -> Int? {
        var j = start
        while j < bytes.count, bytes[j] != UInt8(ascii: "}") {
            let c = bytes[j]
            guard (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
                || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "_") else { return nil }
            j += 1
        }
        guard j > start, j + 1 < bytes.count, bytes[j + 1] == UInt8(ascii: "}") else { return nil }
        return j
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

    /// Whether `name` can name a secret: its value comes from
    /// `EXPLORER_SECRET_NAME`, which a shell can set only for ASCII letters,
    /// digits and `_` (`api-key` was told to `export EXPLORER_SECRET_API-KEY`).
    public static func isSecretName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// Why `name` cannot name a secret, where it is written.
    public static func badName(_ name: String) -> String {
        "'{{secret:\(name)}}': a secret's name is letters, digits and _, as in: {{secret:api_key}}"
    }

    /// The first `{{secret:NAME}}` in `text` whose name cannot be one: why,
    /// and where its name starts (a count of characters into `text`).
    public static func nameProblem(in text: String) -> (message: String, offset: Int)? {
        var searchStart = text.startIndex
        while let open = text.range(of: "{{secret:", range: searchStart..<text.endIndex),
              let close = text.range(of: "}}", range: open.upperBound..<text.endIndex) {
            let name = String(text[open.upperBound..<close.lowerBound])
            let offset = text.distance(from: text.startIndex, to: open.upperBound)
            if name.isEmpty { return ("'{{secret:}}' names no secret: write {{secret:NAME}}", offset) }
            if !isSecretName(name) { return (badName(name), offset) }
            searchStart = close.upperBound
        }
        return nil
    }

    /// The names of the `{{secret:NAME}}` placeholders in `text`, in order.
    public static func placeholderNames(in text: String) -> [String] {
        replacingPlaceholders(in: text) { $0 }.secrets.map(\.name)
    }

    /// `password`, or `password_2`…: what a recording names the second
    /// login's password, a demo account's as much as the first's.
    public static func isPasswordName(_ name: String) -> Bool {
        name == "password" || (name.hasPrefix("password_") && name.dropFirst(9).allSatisfy(\.isNumber) && name.count > 9)
    }

    /// One secret's value.
    public func value(_ name: String, email: String?) throws(Missing) -> String {
        let demo = Self.isPasswordName(name) ? email.flatMap { email in demoAccounts.first { $0.email.lowercased() == email.lowercased() } } : nil
        if demoPasswordsFirst, let demo { return demo.password }
        // Empty is unset: CI systems hand an unset secret over as "" (it logged in with an empty password, a
        // backend's failure where the run's was).
        if let value = environment[Self.environmentName(name)], !value.isEmpty { return value }
        if let demo { return demo.password }
        if name.hasPrefix("wrong_") { return "wrong-" + UUID().uuidString }
        // Letters and digits, so that password rules that ask for both accept it.
        if name.hasPrefix("new_") { return "New1" + String(invention.prefix(20)) + name.dropFirst(4).filter(\.isLetter).prefix(8) }
        if let value = session[name] { return value }
        if let value = ask?(name) { return value }
        throw Missing(name: name)
    }
}
