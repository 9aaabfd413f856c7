import Foundation

/// Matching read backwards: turns what a transcript expects into a value a
/// server can send (`explorer mock`, docs/mock.md). A literal is itself; a
/// pattern becomes a value of its kind; `{{name:=KIND}}` binds `name` on
/// first sight and reuses it after; `{{name}}` is what `name` holds.
///
/// Generated values are **deterministic** for a step: they depend only on the
/// step's seed and their order in it. So the request a later step makes with
/// a captured id (`get /api/tasks/{{task_id}}`) is the same when the mock
/// works out its steps as when a client sends it. Only timestamps, times in
/// seconds since 1970 and secrets (fresh tokens) differ between runs.
public struct Materializer: Sendable {
    /// Capture and variable values by name; bound captures are added.
    public var bindings: [String: JSONValue]
    /// What `{{base_url}}` stands for (and `{{ws_base_url}}`, derived from it).
    public var baseURL: String
    /// The value of `{{secret:NAME}}` and `{{jwt}}` (`jwt`), given the name.
    public var secret: @Sendable (String) -> String
    /// `{{timestamp}}`.
    public var now: @Sendable () -> String
    /// How long a made-up expiry is from now, in seconds (an access token's, `--token-ttl`).
    public var lifetime = 900
    private let seed: Int
    private var counter = 0

    public init(seed: Int, bindings: [String: JSONValue] = [:], baseURL: String = "",
                secret: @escaping @Sendable (String) -> String = { "mock-\($0)" },
                now: @escaping @Sendable () -> String = Materializer.timestamp) {
        self.seed = seed
        self.bindings = bindings
        self.baseURL = baseURL
        self.secret = secret
        self.now = now
    }

    /// The current time as RFC 3339 in UTC, whole seconds. Formatted by
    /// hand: a formatter made per call cost the mock a third of its answer.
    public static func timestamp() -> String {
        var seconds = time_t(Date().timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// Whether `members` hold a token a recording hid (`{{secret:access_token}}`), which the mock signs.
    static func holdsAToken(_ members: [ExpectedValue.Member]) -> Bool {
        members.contains { member in
            let pattern: TranscriptPattern? = switch member.value {
            case let .pattern(found): found
            case let .text(text): text.pieces.count == 1 ? text.pieces.first.flatMap { if case let .pattern(found) = $0 { found } else { nil } } : nil
            default: nil
            }
            if case let .secret(name)? = pattern?.kind { return name.lowercased().contains("token") || name == "jwt" }
            return false
        }
    }

    static func isLifetimeName(_ key: String) -> Bool { ["expires_in", "expiresin", "expires"].contains(key.lowercased()) }

    /// The lifetime in seconds an answer recorded beside its token (`"expires_in": 3600`), at any depth.
    public static func recordedTokenLifetime(in value: ExpectedValue) -> Int? {
        switch value {
        case let .object(members, _):
            if holdsAToken(members), let seconds = members.lazy.compactMap({ member -> Int? in
                guard isLifetimeName(member.key), case let .literal(value) = member.value,
                      let seconds = value.intValue ?? value.stringValue.flatMap({ Int($0) }), seconds > 0 else { return nil }
                return seconds
            }).first {
                return seconds
            }
            return members.lazy.compactMap { recordedTokenLifetime(in: $0.value) }.first
        case let .array(elements, _): return elements.lazy.compactMap { recordedTokenLifetime(in: $0) }.first
        default: return nil
        }
    }

    /// A JSON value that `expected` matches.
    public mutating func value(_ expected: ExpectedValue) -> JSONValue {
        switch expected {
        case let .literal(value): return value
        case let .text(text): return .string(self.text(text))
        case let .pattern(pattern): return value(pattern)
        case let .object(members, _):
            // Beside a token the mock signs, a literal `expires_in` says how long it lives: `--token-ttl`'s, as the
            // token's `exp` and a refresh answer say (the login said 900 of a token signed for 5 s).
            let signsToken = Self.holdsAToken(members)
            return .object(members.map { member in
                if signsToken, case let .literal(number) = member.value, number.intValue != nil, Self.isLifetimeName(member.key) {
                    return (member.key, .int(lifetime))
                }
                // Some servers (Azure AD v1) send it as a string of digits: a string it stays.
                if signsToken, case let .literal(.string(digits)) = member.value, Int(digits) != nil, Self.isLifetimeName(member.key) {
                    return (member.key, .string(String(lifetime)))
                }
                // A time in seconds since 1970 a recording wrote `{{integer}}` (`"expires_at": 1795…`): now, or now and
                // a token's life for an expiry. A counter's 1002 was a session expired in 1970: a client refreshed at every call.
                // Seconds with a fraction (`"server_time": {{number}}`): now too (it was 507, the same every time).
                if case let .pattern(pattern) = member.value, pattern.kind == .number, pattern.capture == nil, ExpectedValue.isTimeName(member.key) {
                    counter += 1
                    return (member.key, .number(String(format: "%.3f", Date().timeIntervalSince1970)))
                }
                if case let .pattern(pattern) = member.value, pattern.kind == .integer, pattern.capture.map({ bindings[$0] == nil }) ?? true,
                   ExpectedValue.isTimeName(member.key) {
                    let words = member.key.lowercased().split { !$0.isLetter }
                    let expiry = words.contains { ["exp", "expires", "expiry", "until"].contains($0) } || member.key.hasPrefix("expires")
                    // In milliseconds where its name says so (`createdAtMs`): seconds were a date in January 1970.
                    let scale = ExpectedValue.isMillisecondsName(member.key) ? 1000 : 1
                    let made = JSONValue.int((Int(Date().timeIntervalSince1970) + (expiry ? lifetime : 0)) * scale)
                    counter += 1  // counted as a value made, bound later or not (`value(_:)` counts a bound one)
                    if let name = pattern.capture { bindings[name] = made }
                    return (member.key, made)
                }
                return (member.key, value(member.value))
            })
        case let .array(items, _): return .array(items.map { value($0) })
        }
    }

    /// A text that `text` matches.
    public mutating func text(_ text: PatternText) -> String {
        var out = ""
        for piece in text.pieces {
            switch piece {
            case let .literal(literal): out += literal
            case let .pattern(pattern): out += value(pattern, inText: true).plainText
            }
        }
        return out
    }

    /// A value of the pattern's kind, bound to its capture name.
    public mutating func value(_ pattern: TranscriptPattern, inText: Bool = false) -> JSONValue {
        if let name = pattern.capture, let bound = bindings[name] {
            // Counted as if made: the values after it are the same whether it was bound before or here (the
            // second answer's `count` took the first's id, every value after it moved, and UI snapshots differed).
            counter += 1
            return bound
        }
        let made = generate(pattern.kind, inText: inText)
        if let name = pattern.capture { bindings[name] = made }
        return made
    }

    private mutating func generate(_ kind: TranscriptPattern.Kind, inText: Bool) -> JSONValue {
        counter += 1
        let unique = seed * 100 + counter
        switch kind {
        case .any: return inText ? .string("") : .null
        case .integer, .number: return .int(unique)
        case .string: return .string("mock-\(unique)")
        case .uuid: return .string(String(format: "00000000-0000-4000-8000-%012x", unique))
        case .timestamp: return .string(now())
        case .jwt: return .string(secret("jwt"))
        // A bare secret stood for a number (a recording writes a string's as
        // "{{secret:NAME}}", in quotes): a number it is again.
        case let .secret(name): return inText ? .string(secret(name)) : .int(unique)
        case let .regex(source):
            let sample = Self.sample(of: source) ?? ""
            // Bare, it stands for a value of any type it matches: `"seq": {{/[0-9]+/}}` is written so for a
            // number (a string's pattern goes in quotes), and was served "0", which a client decoding Int refused.
            if !inText, let scalar = try? JSONParser.parse(sample) {
                switch scalar {
                case .number, .bool: return scalar
                default: break
                }
            }
            return .string(sample)
        case let .reference(name):
            if let bound = bindings[name] { return bound }
            if name == "base_url" { return .string(baseURL) }
            if name == PatternText.socketBaseVariable { return .string(PatternText.socketURL(baseURL)) }
            return inText ? .string("") : .null
        }
    }

    /// A text a regular expression accepts, for the simple ones a
    /// transcript writes (literals, escapes, classes such as `[0-9a-f]+`,
    /// counts); nil when the guess does not match.
    static func sample(of source: String) -> String? {
        let branch = source.split(separator: "|", maxSplits: 1).first.map(String.init) ?? source
        var out = ""
        var last = ""
        var characters = Array(branch)[...]
        while let character = characters.popFirst() {
            switch character {
            case "^", "$", "(", ")": continue
            case "\\":
                guard let escaped = characters.popFirst() else { return nil }
                if escaped == "x" || escaped == "u", characters.first == "{", let close = characters.firstIndex(of: "}") {
                    // `\x{1B}`: a control character a recording wrote as a pattern.
                    guard let value = UInt32(String(characters[characters.index(after: characters.startIndex)..<close]), radix: 16),
                          let scalar = Unicode.Scalar(value) else { return nil }
                    last = String(scalar)
                    characters = characters[characters.index(after: close)...]
                } else {
                    last = escaped == "d" ? "0" : escaped == "w" ? "a" : escaped == "s" ? " " : String(escaped)
                }
            case ".": last = "a"
            case "[":
                guard let end = characters.firstIndex(of: "]") else { return nil }
                let members = characters[..<end]
                characters = characters[characters.index(after: end)...]
                guard let first = members.first, first != "^" else { return nil }
                last = String(first)
            case "+", "*", "?": continue
            case "{":
                guard let end = characters.firstIndex(of: "}") else { return nil }
                let bounds = String(characters[characters.startIndex..<end])
                let count = Int(bounds.split(separator: ",").first.map(String.init) ?? "") ?? 1
                characters = characters[characters.index(after: end)...]
                out += String(repeating: last, count: max(count - 1, 0))
                continue
            default: last = String(character)
            }
            out += last
        }
        guard let regex = try? Regex(source), (try? regex.wholeMatch(in: out)) != nil else { return nil }
        return out
    }
}
