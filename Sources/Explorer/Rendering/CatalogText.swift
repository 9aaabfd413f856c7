import Core

/// `endpoints` and `describe` as text: columns a person can scan, built from
/// the profile's catalog. Plain text, so a transcript records it as it reads.
enum CatalogText {
    /// The endpoints of a method when `filter` is one (`endpoints post`), else
    /// those whose path or summary contain it (case-insensitive).
    static func matching(_ filter: String?, in endpoints: [Endpoint]) -> [Endpoint] {
        guard let filter = filter?.lowercased(), !filter.isEmpty else { return endpoints }
        if CommandTable.methods.contains(filter.uppercased()) { return endpoints.filter { $0.method == filter.uppercased() } }
        return endpoints.filter { $0.path.lowercased().contains(filter) || $0.summary.lowercased().contains(filter) }
    }

    /// One line per endpoint: method, path, auth, summary, in aligned columns.
    static func list(_ endpoints: [Endpoint], width: Int? = nil) -> String {
        let pathWidth = endpoints.map(\.path.count).max() ?? 0
        return endpoints.map { e in
            let row = pad(e.method, 7) + pad(e.path, pathWidth + 2) + pad(e.isPublic ? "public" : "auth", 8) + e.summary
            // On a narrow terminal the terminal broke the summary mid-word under the method: it is cut
            // where there is room for some of it, else it goes under the row, indented.
            guard let width, row.columns > width else { return row }
            if width - (7 + pathWidth + 2 + 8) >= 24 { return row.prefix(columns: width - 1) + "…" }
            // Narrower than the path column itself (50 columns, paths of 53): the path unpadded,
            // where the padding pushed `auth` alone onto the next line of every row.
            let path = 7 + pathWidth + 2 + 8 <= width ? pad(e.path, pathWidth + 2) : e.path + "  "
            let head = pad(e.method, 7) + path + (e.isPublic ? "public" : "auth")
            return head + "\n" + ("         " + e.summary).wrapped(width: width)
        }.joined(separator: "\n")
    }

    /// An endpoint's parameters, body fields, and its answer's model with its fields.
    static func describe(_ endpoint: Endpoint, in profile: Profile) -> String {
        // Without a login flow the profile's credentials go with every request: "needs a login" would send the user to a dead end.
        let access = endpoint.isPublic ? "public" : profile.auth == nil ? "needs the profile's credentials" : "needs a login"
        var lines = ["\(endpoint.method) \(endpoint.path)  (\(access))", endpoint.summary]
        if !endpoint.pathParameters.isEmpty { lines.append("path: " + endpoint.pathParameters.map { "{\($0)}" }.joined(separator: " ")) }
        if !endpoint.query.isEmpty { lines.append("query: " + endpoint.query.map { "\($0)==" }.joined(separator: " ")) }
        if let body = endpoint.body {
            lines.append("body: " + (endpoint.bodyIsList ? "[\(body.name)] (send the list with [0][name]=… items, --raw '[…]' or @file.json)" : body.name))
            lines += fields(body.fields)
        } else if let shape = endpoint.bodyShape {
            lines.append("body: " + shape)
        }
        if let response = endpoint.response {
            lines.append("answer: " + (endpoint.responseIsList ? "[\(response)]" : response))
            if let model = profile.model(named: response) { lines += fields(model.fields) }
        }
        return lines.joined(separator: "\n")
    }

    /// A model's fields with their types.
    static func describe(_ model: Model) -> String {
        (["\(model.name)"] + fields(model.fields)).joined(separator: "\n")
    }

    private static func fields(_ fields: [Field]) -> [String] {
        let width = fields.map(\.name.columns).max() ?? 0
        let types = fields.map { $0.type.description + ($0.nullable ? "?" : "") }
        // As wide as the longest type, within 80 columns in all: `required` stays in one column. An
        // enum's values that would pass it go on a line of their own under the type (`describe Task`
        // was 83 columns wide, every row wrapped on an 80-column screen).
        let room = max(12, 80 - 2 - (width + 2) - " required".count)
        let kept = types.map { type in type.columns > room ? type.range(of: " (").map { String(type[..<$0.lowerBound]) } ?? type : type }
        let typeWidth = max(12, min(room, kept.map(\.columns).max() ?? 0))
        return zip(fields, types).flatMap { f, type -> [String] in
            let front = "  " + pad(f.name, width + 2)
            let need = f.required ? " required" : " optional"
            guard type.columns > typeWidth, let values = type.range(of: " (") else { return [front + type.padded(to: typeWidth) + need] }
            let nullable = type.hasSuffix("?") && !type[..<values.lowerBound].hasSuffix("?") ? "?" : ""
            return [front + (String(type[..<values.lowerBound]) + nullable).padded(to: typeWidth) + need,
                    String(repeating: " ", count: front.columns + 2) + type[values.upperBound...].dropLast(nullable.count + 1)
                        .split(separator: "|").joined(separator: " | ")]
        }
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        s.columns >= width ? s + " " : s.padded(to: width)
    }
}
