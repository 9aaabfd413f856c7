/// A small path language for picking a value out of a response, as in
/// `show .tasks[0].id`: `.name` for members, `[N]` for elements (negative N
/// counts from the end), `["odd key"]` for keys that are not identifiers.
public struct JSONPath: Sendable, Equatable, CustomStringConvertible {
    public enum Component: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    public let components: [Component]

    public init(components: [Component]) { self.components = components }

    /// A syntax error, with the 0-based offset in the path text.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "\(reason) at position \(offset + 1)" }
    }

    /// Parses `.a.b[0]["c d"]`. The leading dot is optional; `.` alone is the root.
    public static func parse(_ text: String) throws(ParseError) -> JSONPath {
        let chars = Array(text)
        var i = 0
        var components: [Component] = []
        func isIdent(_ c: Character) -> Bool { isNameCharacter(c) }
        if i < chars.count, chars[i] != "." && chars[i] != "[" {
            // `tasks[0]` is accepted as `.tasks[0]`.
        } else if i < chars.count, chars[i] == "." {
            i += 1
        }
        /// A `"key"` (past its opening quote), `\` escaping the next character.
        func quotedKey() throws(ParseError) -> String {
            var key = ""
            while i < chars.count, chars[i] != "\"" {
                if chars[i] == "\\", i + 1 < chars.count { i += 1 }
                key.append(chars[i]); i += 1
            }
            guard i < chars.count else { throw ParseError(offset: i, reason: "unterminated quoted key") }
            i += 1
            return key
        }
        while i < chars.count {
            if chars[i] == "[" {
                i += 1
                if i < chars.count, chars[i] == "\"" {
                    i += 1
                    components.append(.key(try quotedKey()))
                } else {
                    let start = i
                    if i < chars.count, chars[i] == "-" { i += 1 }
                    while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
                    guard let n = Int(String(chars[start..<i])) else {
                        throw ParseError(offset: start, reason: "expected an index or a quoted key after '['")
                    }
                    components.append(.index(n))
                }
                guard i < chars.count, chars[i] == "]" else { throw ParseError(offset: i, reason: "expected ']'") }
                i += 1
            } else {
                if chars[i] == "." {
                    if components.isEmpty && i == 0 { i += 1; continue }
                    i += 1
                }
                // jq's `."a.b"` and `.""`: a key that is no name, quoted after the dot.
                if i < chars.count, chars[i] == "\"" {
                    i += 1
                    components.append(.key(try quotedKey()))
                    continue
                }
                let start = i
                while i < chars.count, isIdent(chars[i]) { i += 1 }
                guard i > start else {
                    throw ParseError(offset: i, reason: i < chars.count ? "unexpected '\(chars[i])'" : "expected a name after '.'")
                }
                components.append(.key(String(chars[start..<i])))
            }
        }
        return JSONPath(components: components)
    }

    /// The value at this path, or a reason why there is none.
    public func evaluate(_ root: JSONValue) -> Result<JSONValue, LookupError> {
        var current = root
        for (n, component) in components.enumerated() {
            let here = JSONPath(components: Array(components[..<n])).description
            switch component {
            case let .key(key):
                guard case .object = current else {
                    return .failure(LookupError(message: "\(here) is \(current.kindName), not an object"))
                }
                guard let next = current[key] else {
                    return .failure(LookupError(message: "\(here) has no key \"\(key)\""))
                }
                current = next
            case let .index(i):
                guard case let .array(items) = current else {
                    return .failure(LookupError(message: "\(here) is \(current.kindName), not an array"))
                }
                let resolved = i < 0 ? items.count + i : i
                guard items.indices.contains(resolved) else {
                    return .failure(LookupError(message: "\(here) has \(items.count) element\(items.count == 1 ? "" : "s"), no index \(i)"))
                }
                current = items[resolved]
            }
        }
        return .success(current)
    }

    public struct LookupError: Error, Equatable, Sendable { public let message: String }

    /// Whether a key can follow a dot (`.name`); any other is written `["…"]`.
    public static func isName(_ key: String) -> Bool { !key.isEmpty && key.allSatisfy(isNameCharacter) }

    private static func isNameCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "-" || c == "$" }

    public var description: String {
        if components.isEmpty { return "." }
        return components.map { c -> String in
            switch c {
            case let .key(k): return Self.isName(k) ? "." + k : "[" + JSONPrinter.quote(k) + "]"
            case let .index(i): return "[\(i)]"
            }
        }.joined()
    }
}

extension JSONValue {
    /// This value with `value` put at `path`, the objects on the way made as
    /// needed (an answer a server of ours makes up: an error envelope, a
    /// refresh answer). An index in the path, or a member that is not an
    /// object, stops the walk there: the value is returned as it was.
    public func setting(_ path: JSONPath, to value: JSONValue) -> JSONValue {
        setting(path.components[...], to: value)
    }

    private func setting(_ path: ArraySlice<JSONPath.Component>, to value: JSONValue) -> JSONValue {
        guard let first = path.first else { return value }
        // An item of a list, made where there is none yet (`.errors[0].detail`, JSON:API's error message:
        // the mock's own errors came out `{"errors": {}}`, with no message).
        if case let .index(index) = first, index >= 0 {
            var items: [JSONValue]
            switch self {
            case let .array(found): items = found
            case let .object(members) where members.isEmpty: items = []
            default: return self
            }
            guard index <= items.count else { return self }
            if index == items.count { items.append(JSONValue.object([]).setting(path.dropFirst(), to: value)) } else {
                items[index] = items[index].setting(path.dropFirst(), to: value)
            }
            return .array(items)
        }
        guard case let .key(key) = first, case var .object(members) = self else { return self }
        if let at = members.firstIndex(where: { $0.key == key }) {
            members[at].value = members[at].value.setting(path.dropFirst(), to: value)
        } else {
            members.append((key, JSONValue.object([]).setting(path.dropFirst(), to: value)))
        }
        return .object(members)
    }
}
