import Foundation

// A profile file's own catalog (`enums`, `models`, `endpoints`), its socket
// (`websocket`) and its demo accounts: what the four built-in profiles are
// written with, and what a user's file may say without an OpenAPI document.
extension ProfileFile {
    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    /// `enums` (name → values), `models` (name → field → type) and
    /// `endpoints` ("METHOD /path" → summary, public, query, body, response).
    /// A type names a model or an enum of the file, or is one of string,
    /// integer, number, boolean, any; `Name (a|b)` is an enum written in
    /// place, `T[]` a list, and `T | null` may be null. A field written `name?` may be absent.
    static func catalog(_ root: ProfileDocument.Value) throws(ProfileError) -> Catalog {
        var enums: [String: [String]] = [:]
        if let value = try root.member("enums") {
            for (name, values) in try value.object(nil) {
                try TypeNames.checkName(name, at: values, what: "an enum")
                let list = try values.strings()
                guard !list.isEmpty, !list.contains(""), Set(list).count == list.count else {
                    throw values.problem("an enum lists its values once each, none empty, as in: [open, closed]")
                }
                enums[name] = list
            }
        }
        var catalog = Catalog(enums: enums)
        let modelsValue = try root.member("models")
        let declared = try modelsValue?.object(nil) ?? []
        let names = Set(declared.map(\.key))
        let types = TypeNames(enums: enums, models: names)
        for (name, fields) in declared {
            try TypeNames.checkName(name, at: fields, what: "a model")
            if enums[name] != nil { throw fields.problem("'\(name)' names both an enum and a model") }
            var model = Model(name, [])
            for (key, type) in try fields.object(nil) {
                let required = !key.hasSuffix("?")
                let field = required ? key : String(key.dropLast())
                guard !field.isEmpty, !field.contains("?" as Character) else { throw type.problem("a field is a name, with ? after it when it may be absent, as in: note?") }
                guard !model.fields.contains(where: { $0.name == field }) else { throw type.problem("field '\(field)' is listed twice") }
                let (parsed, nullable) = try types.parse(type)
                model.fields.append(Field(field, parsed, required: required, nullable: nullable))
            }
            catalog.models.append(model)
        }
        guard let endpointsValue = try root.member("endpoints") else { return catalog }
        for (key, value) in try endpointsValue.object(nil) {
            let parts = key.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2, methods.contains(parts[0].uppercased()), parts[1].hasPrefix("/") else {
                throw value.problem("an endpoint is named by its method and path, as in: GET /users/{id}")
            }
            var endpoint = Endpoint(parts[0].uppercased(), String(parts[1]), "")
            let badSegment = endpoint.segments.first { segment in
                (segment.contains("{" as Character) || segment.contains("}" as Character)) && !(Endpoint.isParameter(segment) && segment.count > 2
                    && segment.dropFirst().dropLast().allSatisfy { $0 != "{" && $0 != "}" })
            }
            if let badSegment { throw value.problem("'\(badSegment)' in the path: a parameter is a whole segment, as in: /users/{id}") }
            if endpoint.path.contains("?" as Character) || endpoint.path.contains("#" as Character) {
                throw value.problem("an endpoint's path has no query: its parameters go in query:, as in: query: [page]")
            }
            // `/x/{id}` and `/x/{name}` are one endpoint: a request cannot tell them apart.
            let shape = { (found: Endpoint) in found.segments.map { Endpoint.isParameter($0) ? "{}" : $0 } }
            if let twin = catalog.endpoints.first(where: { $0.method == endpoint.method && shape($0) == shape(endpoint) }) {
                throw value.problem("\(endpoint.method) \(endpoint.path) is listed twice" + (twin.path == endpoint.path ? "" : " (as \(twin.path))"))
            }
            if case .null = value.value {
                catalog.endpoints.append(endpoint)
                continue
            }
            _ = try value.object(["summary", "public", "query", "body", "response"])
            endpoint.summary = try value.member("summary")?.string() ?? ""
            endpoint.isPublic = try value.member("public")?.bool() ?? false
            endpoint.query = try value.member("query")?.strings() ?? []
            if let body = try value.member("body") {
                // A model of this file, or a list of one (`LogEntry[]`: an upload of many).
                var name = try body.string().trimmingBlanksAndNewlines()
                if name.hasSuffix("[]") {
                    name = String(name.dropLast(2)).trimmingBlanksAndNewlines()
                    endpoint.bodyIsList = true
                }
                guard let model = catalog.models.first(where: { $0.name == name }) else { throw body.problem(types.unknown(name, models: true)) }
                endpoint.body = model
            }
            if let response = try value.member("response") {
                switch try types.parse(response).type {
                case let .model(name): endpoint.response = name
                case let .array(.model(name)): (endpoint.response, endpoint.responseIsList) = (name, true)
                default: throw response.problem("an answer is a model of this file or a list of one, as in: Task or Task[]")
                }
            }
            catalog.endpoints.append(endpoint)
        }
        return catalog
    }

    /// The type names a file may use, and how one is written.
    struct TypeNames {
        let enums: [String: [String]]
        let models: Set<String>

        func parse(_ value: ProfileDocument.Value) throws(ProfileError) -> (type: FieldType, nullable: Bool) {
            let written = try value.string().trimmingBlanksAndNewlines()
            var text = written
            var nullable = false
            if text.hasSuffix("| null") {
                nullable = true
                text = text.dropLast(6).trimmingBlanks()
            }
            guard let type = type(text) else { throw value.problem(unknown(nullable && text.contains("|" as Character) ? written : text, models: false)) }
            return (type, nullable)
        }

        /// A model's or an enum's name: not one of the plain types, which it would hide.
        static func checkName(_ name: String, at value: ProfileDocument.Value, what: String) throws(ProfileError) {
            guard !["string", "integer", "number", "boolean", "any", "null"].contains(name), !name.isEmpty,
                  name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }) else {
                throw value.problem("'\(name)' cannot name \(what): letters, digits, _, - and ., and not a plain type's name")
            }
        }

        private func type(_ text: String) -> FieldType? {
            if text.hasSuffix("[]") { return type(String(text.dropLast(2))).map(FieldType.array) }
            // `Status (open|closed)`: an enum written in place, as `describe` shows one.
            if text.hasSuffix(")"), let open = text.firstIndex(of: "(") {
                let name = text[..<open].trimmingBlanks()
                let values = text[text.index(after: open)..<text.index(before: text.endIndex)].split(separator: "|", omittingEmptySubsequences: false).map {
                    $0.trimmingBlanks()
                }
                guard !name.isEmpty, !values.contains(where: \.isEmpty), Set(values).count == values.count else { return nil }
                return .enumeration(name, values)
            }
            switch text {
            case "string": return .string
            case "integer": return .integer
            case "number": return .number
            case "boolean": return .boolean
            case "any": return .any
            default:
                if let values = enums[text] { return .enumeration(text, values) }
                return models.contains(text) ? .model(text) : nil
            }
        }

        func unknown(_ name: String, models only: Bool) -> String {
            let known = models.sorted() + (only ? [] : enums.keys.sorted())
            let near = nearest(to: name, in: known) { distance, _ in distance <= 2 }
            if only { return "no model named '\(name)' in models" + (near.map { "; did you mean \($0)?" } ?? "") }
            return "unknown type '\(name)'" + (near.map { "; did you mean \($0)?" } ?? "")
                + "; a type is string, integer, number, boolean, any, a model or enum of this file, Name (a|b) for an enum in place, T[] for a list, T | null"
        }
    }

    /// `websocket: {path, reconcile}`.
    static func webSocket(_ value: ProfileDocument.Value) throws(ProfileError) -> WebSocket {
        _ = try value.object(["path", "reconcile"])
        let path = try value.require("path")
        let template = try path.string()
        guard template.hasPrefix("/") else { throw path.problem("a path on the base URL starts with /, as in: /ws?token={accessToken}") }
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = rest[rest.index(after: open)..<close]
            guard name == "userId" || name == "accessToken" else {
                throw path.problem("'{\(name)}' is not filled in: a socket path knows {userId} and {accessToken}, from the login")
            }
            rest = rest[rest.index(after: close)...]
        }
        return WebSocket(path: template, reconcile: try value.member("reconcile").map(reconcile))
    }

    /// Where REST tells what a socket missed: `ReconcileEndpoints`, field for field.
    private static func reconcile(_ value: ProfileDocument.Value) throws(ProfileError) -> ReconcileEndpoints {
        _ = try value.object(["conversations-path", "conversations-query", "conversations", "conversation-id", "last-message-id",
                              "messages-path", "messages-query", "messages", "message-id"])
        func path(_ key: String) throws(ProfileError) -> JSONPath {
            let member = try value.require(key)
            let written = try member.string()
            do { return try JSONPath.parse(written) } catch { throw member.problem("'\(written)' is not a JSON path (\(error.reason)), as in: .items") }
        }
        func query(_ key: String) throws(ProfileError) -> [ReconcileEndpoints.Query] {
            guard let member = try value.member(key) else { return [] }
            var out: [ReconcileEndpoints.Query] = []
            for (name, item) in try member.object(nil) { out.append(.init(name, try item.scalar())) }
            return out
        }
        return ReconcileEndpoints(
            conversationsPath: try value.require("conversations-path").string(), conversationsQuery: try query("conversations-query"),
            conversations: try path("conversations"), conversationID: try path("conversation-id"), lastMessageID: try path("last-message-id"),
            messagesPath: try value.require("messages-path").string(), messagesQuery: try query("messages-query"),
            messages: try path("messages"), messageID: try path("message-id"))
    }

    /// `pagination: {style: cursor, next-cursor, cursor-parameter}` or
    /// `{style: page, page-parameter, size-parameter, total}` or
    /// `{style: offset, offset-parameter, limit-parameter, total}`.
    static func pagination(_ value: ProfileDocument.Value) throws(ProfileError) -> Pagination {
        let styleValue = try value.require("style")
        func path(_ key: String) throws(ProfileError) -> JSONPath? {
            guard let member = try value.member(key) else { return nil }
            let written = try member.string()
            do { return try JSONPath.parse(written) } catch { throw member.problem("'\(written)' is not a JSON path (\(error.reason)), as in: .meta.next") }
        }
        switch try styleValue.string() {
        case "cursor":
            _ = try value.object(["style", "next-cursor", "cursor-parameter"])
            return .cursor(next: try path("next-cursor") ?? .known(".next_cursor"),
                           parameter: try value.member("cursor-parameter")?.string() ?? "cursor")
        case "page":
            _ = try value.object(["style", "page-parameter", "size-parameter", "total"])
            return .page(parameter: try value.member("page-parameter")?.string() ?? "page",
                         size: try value.member("size-parameter")?.string() ?? "page_size", total: try path("total"))
        case "offset":
            _ = try value.object(["style", "offset-parameter", "limit-parameter", "total"])
            return .offset(parameter: try value.member("offset-parameter")?.string() ?? "offset",
                           limit: try value.member("limit-parameter")?.string() ?? "limit", total: try path("total"))
        default:
            throw styleValue.problem("expected cursor (a next cursor in the answer), page (a page number in the query) "
                                     + "or offset (an item offset in the query)")
        }
    }

    /// `demo-accounts: [{email, password}]`.
    static func demoAccounts(_ value: ProfileDocument.Value) throws(ProfileError) -> [DemoAccount] {
        guard case let .array(items) = value.value else { throw value.problem("expected a list of {email, password}, not \(value.kind)") }
        var accounts: [DemoAccount] = []
        for index in items.indices {
            let item = value.element(index)
            _ = try item.object(["email", "password"])
            accounts.append(DemoAccount(email: try item.require("email").string(), password: try item.require("password").string()))
        }
        return accounts
    }
}
