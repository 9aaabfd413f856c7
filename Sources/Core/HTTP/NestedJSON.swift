/// HTTPie's nested JSON for data fields: `user[name]=alice`,
/// `user[roles][]=admin`, `items[0][id]:=1`, `[]:=1` (a top-level array).
/// Keys are paths: a first literal (or `[n]`, `[]`), then `[key]`, `[n]`
/// (an index; missing places are filled with null) or `[]` (append). A
/// backslash makes `[`, `]` or `\` literal (`foo\[x\]=1` has the key
/// `foo[x]`), and `[\1]` is the key "1", not an index. A later item
/// replaces an earlier one at the same place; an item that needs an
/// object where an earlier one put a string or an array is an error.
public struct NestedJSON: Sendable {
    /// One step of a key path.
    public enum Step: Sendable, Equatable {
        case key(String)
        case index(Int)
        case append

        var text: String {
            switch self {
            case let .key(name): return "[\(name)]"
            case let .index(n): return "[\(n)]"
            case .append: return "[]"
            }
        }
    }

    /// A key that is not a path, with the character offset of the problem.
    public struct SyntaxError: Error, Equatable, Sendable {
        public let offset: Int
        public let reason: String
    }

    /// The deepest a path may go, as deep as a JSON value may nest
    /// (`JSONParser`): 2,500 `[b]` overflowed the stack as the body was built.
    public static let maximumDepth = 512
    /// The largest index a path may name: the places before it are filled
    /// with null, and `a[99999999999]=1` asked for 800 GB of them.
    public static let maximumIndex = 10_000

    /// A long name as a message quotes it: its start.
    private static func shortened(_ name: String) -> String { name.count > 60 ? name.prefix(60) + "…" : name }

    /// Parses a field name into its steps. A plain name is one `.key`.
    public static func parse(_ name: String) throws(SyntaxError) -> [Step] {
        let tokens = tokenize(name)
        var steps: [Step] = []
        var i = 0
        func expectClose(after token: Token) throws(SyntaxError) {
            guard i < tokens.count, case .close = tokens[i].kind else {
                throw SyntaxError(offset: i < tokens.count ? tokens[i].start : name.count, reason: "expected ']' in '\(shortened(name))'")
            }
            i += 1
        }
        // The root: a literal, or [n], or [].
        if let first = tokens.first {
            switch first.kind {
            case let .text(text, _): steps.append(.key(text)); i = 1
            case .close: throw SyntaxError(offset: first.start, reason: "']' with no '[' before it in '\(shortened(name))'")
            case .open: break
            }
        } else {
            return [.key("")]
        }
        while i < tokens.count {
            let token = tokens[i]
            guard steps.count < maximumDepth else {
                throw SyntaxError(offset: token.start, reason: "'\(shortened(name))' nests deeper than \(maximumDepth) levels, the most a JSON body may")
            }
            guard case .open = token.kind else {
                throw SyntaxError(offset: token.start, reason: "expected '[' in '\(shortened(name))' (a backslash makes it literal: \\[)")
            }
            i += 1
            guard i < tokens.count else { throw SyntaxError(offset: name.count, reason: "expected ']' at the end of '\(shortened(name))'") }
            switch tokens[i].kind {
            case .close:
                steps.append(.append)
                i += 1
            case let .text(text, escaped):
                i += 1
                if !escaped, let n = Int(text) {
                    guard n >= 0 else { throw SyntaxError(offset: tokens[i - 1].start, reason: "negative index [\(n)] in '\(shortened(name))': indexes start at 0") }
                    guard n <= maximumIndex else {
                        throw SyntaxError(offset: tokens[i - 1].start, reason: "index [\(n)] in '\(shortened(name))' is past \(maximumIndex), the most explorer fills with null up to")
                    }
                    steps.append(.index(n))
                } else if !escaped, !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
                    // Too many digits for an Int: an index all the same, not a key.
                    throw SyntaxError(offset: tokens[i - 1].start, reason: "index [\(text.count > 20 ? text.prefix(20) + "…" : text)] in '\(shortened(name))' is past \(maximumIndex), the most explorer fills with null up to")
                } else if steps.isEmpty {
                    // A path that starts with `[` makes the body an array (HTTPie's rule).
                    throw SyntaxError(offset: tokens[i - 1].start, reason: "'\(shortened(name))' starts with [ so the body is an array: expected a number or ']', as in [0] or []")
                } else {
                    steps.append(.key(text))
                }
                try expectClose(after: token)
            case .open:
                throw SyntaxError(offset: tokens[i].start, reason: "expected a key, a number or ']' in '\(shortened(name))'")
            }
        }
        return steps
    }

    /// The body being built: nil until the first field.
    private var root: Node?

    public init() {}

    /// Puts `value` at the place `name` says.
    public mutating func set(_ name: String, _ value: JSONValue) throws(RequestBuilder.BuildError) {
        let steps: [Step]
        do { steps = try Self.parse(name) } catch { throw RequestBuilder.BuildError(error.reason) }
        try Self.insert(value, into: &root, steps: steps[...], done: [], item: name)
    }

    /// The body: an object (empty without fields), or an array when the keys start with `[`.
    public var value: JSONValue { root?.json ?? .object([]) }

    // MARK: - Building

    private indirect enum Node {
        case object(Members)
        case array([Node?])
        case leaf(JSONValue)

        var json: JSONValue {
            switch self {
            case let .object(members): return .object(members.list.map { ($0.key, $0.node.json) })
            case let .array(items): return .array(items.map { $0?.json ?? .null })
            case let .leaf(value): return value
            }
        }

        /// An object's members, taken out (the node left an empty leaf), or nil.
        mutating func takeMembers() -> Members? {
            guard case let .object(members) = self else { return nil }
            self = .leaf(.null)
            return members
        }

        /// An array's items, taken out (the node left an empty leaf), or nil.
        mutating func takeItems() -> [Node?]? {
            guard case let .array(items) = self else { return nil }
            self = .leaf(.null)
            return items
        }

        var kindName: String {
            switch self {
            case .object: return "an object"
            case .array: return "an array"
            case let .leaf(value): return value.kindName
            }
        }
    }

    /// An object's members in order, found by key at once: a linear search
    /// made a line of 20,000 fields take 4 s (a tenth of that at 5,000).
    private struct Members {
        private(set) var list: [(key: String, node: Node)] = []
        private var positions: [String: Int] = [:]

        init(_ members: [(key: String, node: Node)] = []) {
            for member in members { append(member.key, member.node) }
        }

        /// The first member with this key.
        func position(of key: String) -> Int? { positions[key] }

        mutating func append(_ key: String, _ node: Node) {
            if positions[key] == nil { positions[key] = list.count }
            list.append((key, node))
        }

        mutating func replace(at position: Int, with node: Node) { list[position].node = node }
    }

    private static func container(for step: Step) -> Node {
        if case .key = step { return .object(Members()) }
        return .array([])
    }

    private static func describe(_ done: [Step]) -> String {
        guard let first = done.first else { return "the body" }
        var text: String
        switch first {
        case let .key(name): text = name
        default: text = first.text
        }
        for step in done.dropFirst() { text += step.text }
        return "'\(text)'"
    }

    private static func insert(_ value: JSONValue, into slot: inout Node?, steps: ArraySlice<Step>, done: [Step],
                               item: String) throws(RequestBuilder.BuildError) {
        guard let step = steps.first else {
            slot = .leaf(value)
            return
        }
        if slot == nil { slot = container(for: step) }
        // A value given whole with := and a path into it (`a:='[1]' a[]=2`) build on it, as in HTTPie.
        if case let .leaf(.array(items))? = slot { slot = .array(items.map { .leaf($0) }) }
        if case let .leaf(.object(members))? = slot { slot = .object(Members(members.map { ($0.key, .leaf($0.value)) })) }
        let rest = steps.dropFirst()
        let here = done + [step]
        // The node is taken out of its slot and consumed by the match, so its
        // members are held once and grow in place: matched as a copy, each
        // field copied the whole object (20,000 fields took 4 s).
        // The node is taken out of its slot and its members or items out of
        // the node, so they are held once and grow in place: matched as a
        // copy, each field copied the whole object (20,000 fields took 4 s).
        var node = slot!
        slot = nil
        switch step {
        case let .key(name):
            guard var members = node.takeMembers() else {
                throw RequestBuilder.BuildError("'\(item)': \(describe(done)) is \(node.kindName), so it has no key [\(name)]")
            }
            if let at = members.position(of: name) {
                var child: Node? = members.list[at].node
                if rest.isEmpty { child = nil }
                try insert(value, into: &child, steps: rest, done: here, item: item)
                members.replace(at: at, with: child!)
            } else {
                var child: Node?
                try insert(value, into: &child, steps: rest, done: here, item: item)
                members.append(name, child!)
            }
            slot = .object(members)
        case let .index(n):
            guard var items = node.takeItems() else {
                throw RequestBuilder.BuildError("'\(item)': \(describe(done)) is \(node.kindName), so it has no index [\(n)]")
            }
            if items.count <= n { items += Array(repeating: nil, count: n - items.count + 1) }
            var child = rest.isEmpty ? nil : items[n]
            try insert(value, into: &child, steps: rest, done: here, item: item)
            items[n] = child
            slot = .array(items)
        case .append:
            guard var items = node.takeItems() else {
                throw RequestBuilder.BuildError("'\(item)': \(describe(done)) is \(node.kindName), so [] cannot append to it")
            }
            var child: Node?
            try insert(value, into: &child, steps: rest, done: here, item: item)
            items.append(child)
            slot = .array(items)
        }
    }

    // MARK: - Tokens

    private struct Token {
        enum Kind {
            case open, close
            /// Text, and whether a backslash was in it (then it is never a number).
            case text(String, escaped: Bool)
        }
        let kind: Kind
        let start: Int
    }

    private static func tokenize(_ source: String) -> [Token] {
        let chars = Array(source)
        var tokens: [Token] = []
        var buffer = ""
        var escaped = false
        var bufferStart = 0
        func flush(at end: Int) {
            guard !buffer.isEmpty else { return }
            var text = buffer
            // `[\1]`: a number made a key by its backslash.
            if !escaped, text.hasPrefix("\\"), text.count > 1, text.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) {
                text.removeFirst()
                escaped = true
            }
            tokens.append(Token(kind: .text(text, escaped: escaped), start: bufferStart))
            buffer = ""
            escaped = false
        }
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "[" || c == "]" {
                flush(at: i)
                tokens.append(Token(kind: c == "[" ? .open : .close, start: i))
            } else if c == "\\", i + 1 < chars.count {
                if buffer.isEmpty { bufferStart = i }
                if "[]\\".contains(chars[i + 1]) {
                    escaped = true
                } else {
                    buffer.append(c)
                }
                buffer.append(chars[i + 1])
                i += 1
            } else {
                if buffer.isEmpty { bufferStart = i }
                buffer.append(c)
            }
            i += 1
        }
        flush(at: chars.count)
        return tokens
    }
}
