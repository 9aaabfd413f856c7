import Core

/// Ids the interpreter has seen in answers, per resource (`tasks`, `items`,
/// `users`…), newest first and bounded: TAB offers them for `{id}` segments.
/// A resource is named by where an id stood: an element of `"tasks": [...]`,
/// the object under `"post"` (→ `posts`), a `task_id` member (→ `tasks`), or
/// the answer to a request whose path ends in that resource (`/api/tasks/3`);
/// `username` and `file_key` values are kept as `usernames` and `file_keys`.
struct SeenIDs: Sendable, Equatable {
    /// How many ids each resource keeps.
    static let limit = 20
    /// How many elements of a list are looked at: the first ones, which the
    /// preview shows; a list of 100,000 cost a fifth of showing it.
    static let elementsRead = 100
    private(set) var byResource: [String: [String]] = [:]
    /// Members that paths take although they are not ids (`/users/{username}`).
    static let namedKeys: Set<String> = ["username", "file_key"]
    /// Members that wrap a list or an answer without naming what it holds
    /// (`{"items": […]}` from `/notes`): what is in them is the path's resource.
    static let wrappers: Set<String> = ["items", "data", "results", "result", "records", "rows", "list", "content", "entries",
                                        "hits", "nodes", "objects", "values", "elements", "page", "payload"]

    func ids(for resource: String) -> [String] { byResource[resource] ?? [] }

    /// Learns the ids in an answer to a request for `path` (no query).
    mutating func learn(from body: JSONValue, path: String) {
        let resource = Endpoint.segments(of: path).last { Int($0) == nil && !Self.looksLikeUUID(String($0)) }.map(String.init)
        walk(body, resource: resource, depth: 0)
    }

    private mutating func walk(_ value: JSONValue, resource: String?, depth: Int) {
        // Deep answers are rare and their ids are not what a path takes.
        guard depth < 6 else { return }
        switch value {
        case let .array(elements):
            for element in elements.prefix(Self.elementsRead) { walk(element, resource: resource, depth: depth + 1) }
        case let .object(members):
            for (key, member) in members {
                if key == "id", let resource, let id = Self.idText(member) { add(id, to: resource) }
                if key.hasSuffix("_id"), key.utf8.count > 3, let id = Self.idText(member) { add(id, to: String(key.dropLast(3)) + "s") }
                if Self.namedKeys.contains(key), let id = Self.idText(member) { add(id, to: key + "s") }
                let wrapped = Self.wrappers.contains(key) && resource != nil
                switch member {
                case .array where wrapped, .object where wrapped: walk(member, resource: resource, depth: depth + 1)
                case .array: walk(member, resource: key, depth: depth + 1)
                case .object: walk(member, resource: key.hasSuffix("s") ? key : key + "s", depth: depth + 1)
                default: break
                }
            }
        default: break
        }
    }

    private mutating func add(_ id: String, to resource: String) {
        // In place: a copy out of the dictionary and back cost every answer an array.
        byResource[resource, default: []].removeAll { $0 == id }
        byResource[resource, default: []].insert(id, at: 0)
        if byResource[resource, default: []].count > Self.limit { byResource[resource, default: []].removeLast() }
    }

    private static func idText(_ value: JSONValue) -> String? {
        switch value {
        case let .number(n) where Int(n) != nil: n
        // Any characters: TAB offers them percent-encoded (`Completer.pathSegment`).
        case let .string(s) where !s.isEmpty && s.count <= 64: s
        default: nil
        }
    }

    private static func looksLikeUUID(_ s: String) -> Bool { s.count == 36 && s.filter { $0 == "-" }.count == 4 }
}
