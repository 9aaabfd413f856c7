import Foundation
import Yams

/// A profile file's tree, JSON or YAML, with each value's JSON path and,
/// for YAML, its line: what a profile problem is reported with.
struct ProfileDocument {
    let root: Value

    /// A value in the document and where it is.
    struct Value {
        let value: JSONValue
        let path: String
        let line: Int?
        let file: String
        /// The lines of YAML values, by JSON path.
        let lines: [String: Int]

        func problem(_ reason: String) -> ProfileError {
            ProfileError(file: file, line: line, path: path, reason: reason)
        }

        private func child(_ key: String, _ value: JSONValue) -> Value {
            let path = self.path + "." + key
            return Value(value: value, path: path, line: lines[path] ?? line, file: file, lines: lines)
        }

        /// The members of an object, each a known key when `allowed` is given:
        /// an unknown one is named, with the closest known key.
        func object(_ allowed: [String]?) throws(ProfileError) -> [(key: String, value: Value)] {
            guard case let .object(members) = value else { throw problem("expected a mapping of names to values, not \(kind)") }
            // A JSON file can name a key twice; YAML's parser refuses it already.
            var seen = Set<String>()
            for (key, _) in members where !seen.insert(key).inserted { throw child(key, .null).problem("'\(key)' appears twice") }
            if let allowed {
                for (key, _) in members where !allowed.contains(key) {
                    let near = nearest(to: key, in: allowed) { distance, _ in distance <= 3 }
                    let hint = near.map { "; did you mean \($0)?" } ?? "; known: \(allowed.joined(separator: ", "))"
                    throw child(key, .null).problem("unknown field '\(key)'" + hint)
                }
            }
            return members.map { ($0.key, child($0.key, $0.value)) }
        }

        func member(_ key: String) throws(ProfileError) -> Value? {
            guard case let .object(members) = value else { throw problem("expected a mapping of names to values, not \(kind)") }
            return members.first { $0.key == key }.map { child($0.key, $0.value) }
        }

        func require(_ key: String) throws(ProfileError) -> Value {
            guard let found = try member(key) else { throw problem("missing field '\(key)'") }
            return found
        }

        func string() throws(ProfileError) -> String {
            guard case let .string(text) = value else { throw problem("expected a string, not \(kind)") }
            return text
        }

        func bool() throws(ProfileError) -> Bool {
            guard case let .bool(flag) = value else { throw problem("expected true or false, not \(kind)") }
            return flag
        }

        /// A string, number or boolean as text (`page_size: 100`).
        func scalar() throws(ProfileError) -> String {
            switch value {
            case .string, .number, .bool: return value.plainText
            default: throw problem("expected a string or a number, not \(kind)")
            }
        }

        /// The item `index` of a list.
        func element(_ index: Int) -> Value {
            let path = self.path + "[\(index)]"
            guard case let .array(items) = value, items.indices.contains(index) else { return self }
            return Value(value: items[index], path: path, line: lines[path] ?? line, file: file, lines: lines)
        }

        func strings() throws(ProfileError) -> [String] {
            guard case let .array(items) = value else { throw problem("expected a list of strings, not \(kind)") }
            var out: [String] = []
            for (index, item) in items.enumerated() {
                let path = self.path + "[\(index)]"
                guard case let .string(text) = item else {
                    throw ProfileError(file: file, line: lines[path] ?? line, path: path, reason: "expected a string")
                }
                out.append(text)
            }
            return out
        }

        var kind: String {
            switch value {
            case .null: return "null"
            case .bool: return "a boolean"
            case .number: return "a number"
            case .string: return "a string"
            case .array: return "a list"
            case .object: return "a mapping"
            }
        }
    }

    /// Parses JSON (a file starting with `{`) or YAML; a syntax error says where.
    static func parse(_ text: String, file: String) throws(ProfileError) -> ProfileDocument {
        if text.first(where: { !$0.isWhitespace }) == "{" {
            do {
                let value = try JSONParser.parse(text)
                return ProfileDocument(root: Value(value: value, path: "$", line: nil, file: file, lines: [:]))
            } catch {
                let line = text.utf8.prefix(error.offset).filter { $0 == UInt8(ascii: "\n") }.count + 1
                throw ProfileError(file: file, line: line, path: "", reason: "not valid JSON: \(error.reason)")
            }
        }
        let parser: Parser
        let node: Node?
        // The basic resolver tags no scalar: `convert` types them, without
        // the default resolver's regular expressions (most of a load's time).
        do {
            parser = try Parser(yaml: text, resolver: .basic)
            node = try parser.singleRoot()
        } catch {
            throw ProfileError(file: file, line: Self.line(of: error), path: "", reason: "not valid YAML: \(Self.reason(of: error))")
        }
        guard let node else { throw ProfileError(file: file, line: nil, path: "", reason: "the file is empty") }
        var lines: [String: Int] = [:]
        // A node's anchor is weak, owned by the parser: kept alive while
        // `convert` looks for anchors.
        let value = try withExtendedLifetime(parser) { () throws(ProfileError) in try convert(node, path: "$", lines: &lines, file: file) }
        return ProfileDocument(root: Value(value: value, path: "$", line: lines["$"], file: file, lines: lines))
    }

    /// A problem in a JSON file, given the line of the value it is about.
    /// The JSON parser keeps no lines (a profile is parsed at every start,
    /// so they are not looked for then); JSON is YAML's flow style, whose
    /// parser has them: "at $.auth.kind" alone sent a reader searching.
    static func locating(_ error: ProfileError, in text: String) -> ProfileError {
        guard error.line == nil, !error.path.isEmpty, text.first(where: { !$0.isWhitespace }) == "{",
              let parser = try? Parser(yaml: text, resolver: .basic), let node = try? parser.singleRoot() else { return error }
        var lines: [String: Int] = [:]
        withExtendedLifetime(parser) { _ = try? convert(node, path: "$", lines: &lines, file: error.file) }
        var located = error
        located.line = lines[error.path]
        return located
    }

    /// A YAML node as JSON: plain scalars typed as YAML 1.2's core schema
    /// types them (`8080` a number, `true` a boolean), quoted ones strings.
    private static func convert(_ node: Node, path: String, lines: inout [String: Int], file: String) throws(ProfileError) -> JSONValue {
        // A member's line is its key's (set by its mapping): where a problem with it is.
        if lines[path] == nil, let mark = node.mark { lines[path] = mark.line }
        // Refused where the anchor is, before any alias is followed: nine
        // aliases of nine aliases (the "billion laughs") would be walked
        // 9^9 times.
        if node.anchor != nil {
            throw ProfileError(file: file, line: node.mark?.line, path: path, reason: "YAML anchors and aliases are not supported in a profile")
        }
        switch node {
        case let .scalar(scalar):
            return scalar.style == .plain ? plain(scalar.string) : .string(scalar.string)
        case let .mapping(mapping):
            var members: [(key: String, value: JSONValue)] = []
            for (key, value) in mapping {
                guard case let .scalar(name) = key else {
                    throw ProfileError(file: file, line: key.mark?.line, path: path, reason: "a key must be a plain name")
                }
                if let mark = key.mark { lines[path + "." + name.string] = mark.line }
                members.append((name.string, try convert(value, path: path + "." + name.string, lines: &lines, file: file)))
            }
            return .object(members)
        case let .sequence(sequence):
            var items: [JSONValue] = []
            for (index, item) in sequence.enumerated() {
                items.append(try convert(item, path: path + "[\(index)]", lines: &lines, file: file))
            }
            return .array(items)
        case .alias:
            throw ProfileError(file: file, line: node.mark?.line, path: path, reason: "YAML aliases are not supported in a profile")
        }
    }

    /// A plain scalar by YAML 1.2's core schema: `null`, `~` or nothing;
    /// `true`, `false`; a decimal number; anything else is a string
    /// (`no` and `on` too, as YAML 1.2 has it).
    static func plain(_ text: String) -> JSONValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: return isDecimal(text.utf8) ? .number(text) : .string(text)
        }
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, the core schema's
    /// int and float, without a regular expression.
    private static func isDecimal(_ bytes: String.UTF8View) -> Bool {
        var rest = bytes[...]
        func digits() -> Int {
            let count = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            rest = rest.dropFirst(count)
            return count
        }
        if let sign = rest.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { rest = rest.dropFirst() }
        var mantissa = digits()
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if let e = rest.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if let sign = rest.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { rest = rest.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return rest.isEmpty
    }

    /// libyaml's limit on nesting, which it reports as an error.
    static let maxDepth = 1000

    private static func line(of error: any Error) -> Int? {
        switch error as? YamlError {
        case let .scanner(_, _, mark, _)?, let .parser(_, _, mark, _)?, let .composer(_, _, mark, _)?: return mark.line
        case let .duplicatedKeysInMapping(duplicates, context)?: return repeated(duplicates, after: context) ?? context.mark.line
        default: return nil
        }
    }

    /// The line that names a duplicated key again: the one to delete (the
    /// parser's mark is the first's, so a block appended at line 36 was
    /// reported at line 4). The first line after the mark that holds the
    /// key at the mark's column, as a plain or quoted key.
    private static func repeated(_ keys: [String], after context: YamlError.Context) -> Int? {
        guard let key = keys.first else { return nil }
        // By line ends of any kind: "\r\n" is one Character, and a CRLF file read as one line.
        let lines = context.text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let column = context.mark.column - 1
        guard context.mark.line >= 1, context.mark.line <= lines.count, column >= 0 else { return nil }
        for n in context.mark.line..<lines.count {
            let line = lines[n].utf8.dropFirst(column)
            guard lines[n].utf8.count > column, lines[n].utf8.prefix(column).allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "-") }) else { continue }
            if ["\(key):", "\"\(key)\":", "'\(key)':"].contains(where: { line.starts(with: $0.utf8) }) { return n + 1 }
        }
        return nil
    }

    private static func reason(of error: any Error) -> String {
        switch error as? YamlError {
        case let .scanner(_, problem, _, _)?, let .parser(_, problem, _, _)?, let .composer(_, problem, _, _)?:
            // libyaml's own words name one of its functions.
            return problem.hasPrefix("Maximum nesting level") ? "nested more than \(maxDepth) levels deep" : problem
        case let .duplicatedKeysInMapping(duplicates, context)?:
            // Said at its second appearance, with where the first is.
            let first = repeated(duplicates, after: context) == nil ? "" : "; first at line \(context.mark.line)"
            return "a key appears twice in one mapping (\(duplicates.joined(separator: ", "))\(first))"
        default: return "\(error)"
        }
    }
}
