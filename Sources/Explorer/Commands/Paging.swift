import Core
import Foundation

/// `next`: the request for the page after the last list answer, read off
/// the answer the way backends say it, first that applies:
/// 1. a `Link: <…>; rel="next"` header (RFC 8288, GitHub's style; a Link
///    header without one: the last page);
/// 2. a `next` URL in the body (Django REST framework's style; null: the end),
///    or under `links` (JSON:API) or `_links` with its `href` (HAL);
/// 3. a cursor (`next_cursor`, `nextCursor`, `next_page_token`, … at the top
///    or under `meta`/`pagination`/`paging`), sent back in the query
///    parameter the request or the endpoint uses for it, else the one its
///    field's API family uses (`cursorParameter(for:)`);
/// 4. an offset: `offset==` (or `skip==`) on the request moves past the
///    items this page had; a `Range: 0-9` header (PostgREST's) moves to the
///    next as many; the total is the answer's `total` or its
///    `Content-Range` (`0-9/120`);
/// 5. a page number: `page==` on the request (or in the endpoint's query)
///    goes up by one, unless the answer's `total`, a short page or an empty
///    one says that was the last.
enum Paging {
    /// The last GET whose answer may have a next page.
    struct Last: Sendable, Equatable {
        var path: String
        var items: [RequestItem]
        var options: RequestOptions
        /// This page was reached by a `Link: rel="next"` header: one without
        /// it (or with none) is the last, not a reason to guess `page=N+1`.
        var linked = false
        /// The URLs of the pages before this one that `next` fetched: one
        /// fetched again means the pages loop.
        var fetched: [String] = []
        /// The items of the pages before this one that `next` fetched, as `digest` keeps them.
        var previousPages: Set<Int> = []

        /// A page's items (its list, where the answer has one: a `request_id` or a server time beside it changes
        /// each time), else its body.
        static func digest(_ response: ReceivedResponse) -> Int {
            var hasher = Hasher()
            if let list = listed(in: response.json) {
                hasher.combine(JSONPrinter.compact(.array(list)))
            } else {
                response.body.withUnsafeBytes { hasher.combine(bytes: $0) }
            }
            return hasher.finalize()
        }

        /// `get /items?page=2` read as `get /items page==2`: a page or a
        /// cursor in the path's query is the one `next` moves on (it was
        /// sent again beside a second `page==3`, which servers ignore).
        var queryAsItems: Last {
            guard let mark = path.firstIndex(of: "?") else { return self }
            let query = path[path.index(after: mark)...].prefix { $0 != "#" }
            let pairs: [RequestItem] = query.split(separator: "&").map { pair in
                let (name, value) = pair.firstIndex(of: "=").map { (pair[..<$0], pair[pair.index(after: $0)...]) } ?? (pair[...], "")
                func decoded(_ text: Substring) -> String {
                    let plain = text.replacingOccurrences(of: "+", with: " ")
                    return plain.removingPercentEncoding ?? plain
                }
                return .query(name: decoded(name), value: decoded(value))
            }
            return Last(path: String(path[..<mark]), items: pairs + items, options: options, linked: linked, fetched: fetched, previousPages: previousPages)
        }
    }

    enum Next: Equatable {
        /// The same request, its paging parameter changed.
        case request(path: String, items: [RequestItem])
        /// A URL the answer gave.
        case url(String)
        /// No next page, and why.
        case end(String)
    }

    /// A link the answer gave, unless it names a scheme other than HTTP's:
    /// `"next": "file:///etc/passwd"` went to the backend as a path, with
    /// the session's token (`--follow` refuses such a Location too).
    private static func followable(_ link: String) -> Next {
        guard let scheme = URL(string: link)?.scheme?.lowercased(), !["http", "https"].contains(scheme) else { return .url(link) }
        return .end("no next page: the answer's next link is not an http(s) URL (\(Renderer.visible(link, keepingLines: false)))")
    }

    static let cursorFields = ["next_cursor", "nextCursor", "next_page_token", "nextPageToken", "end_cursor", "endCursor", "next_token", "nextToken"]
    static let cursorParameters = ["cursor", "after", "page_token", "pageToken", "starting_after", "next_token", "continuation"]
    static let sizeParameters = ["page_size", "per_page", "pageSize", "limit", "size"]
    static let offsetParameters = ["offset", "skip"]

    /// The parameter a cursor field goes back in by its API family's convention, when neither the
    /// request nor the catalog names one: Google's `nextPageToken` as `pageToken`, GraphQL's
    /// `endCursor` as `after`, AWS's `NextToken` as itself; `cursor` else (Slack's, Stripe-like).
    /// Every `next_page_token` went back as `?cursor=`, which such a server ignores: `next` fetched
    /// the first page again, and again.
    static func cursorParameter(for field: String) -> String {
        switch field {
        case "next_page_token": "page_token"
        case "nextPageToken": "pageToken"
        case "end_cursor", "endCursor": "after"
        case "next_token", "nextToken": field
        default: "cursor"
        }
    }

    static func next(after typed: Last, response: ReceivedResponse, endpointQuery: [String], declared: Pagination? = nil) -> Next {
        let last = typed.queryAsItems
        if let declared {
            // The profile's one rule for every list: an endpoint the catalog says takes other query items
            // (a cursor's `after`) was sent `?page=2`, and answered its first page again, for ever.
            let counted: String? = switch declared {
            case let .page(parameter, _, _), let .offset(parameter, _, _): parameter
            case .cursor: nil
            }
            if let parameter = counted, !endpointQuery.isEmpty, !endpointQuery.contains(parameter) {
                return .end("no next page by the profile's pagination: the catalog lists no \(parameter) query for this endpoint "
                            + "(it takes \(endpointQuery.joined(separator: ", "))); give the next page's item yourself")
            }
            return next(after: last, body: response.json, headers: response.headers, declared: declared)
        }
        let links = response.headers.filter { $0.hasName("Link") }
        if !links.isEmpty {
            // A Link header without rel="next" is the last page's (GitHub's way), not a reason to guess a page number.
            // Several Link fields are one list (RFC 9110 §5.3): the next may be in the third.
            return nextLink(in: links.map(\.value).joined(separator: ", ")).map(followable)
                ?? .end("no next page: the Link header has no rel=\"next\"")
        }
        // Some APIs send a Link header only while there is a next page: `next` asked for page=4, 5, … for ever.
        if last.linked { return .end("no next page: this answer has no Link header, where the pages before it had one") }
        let body = response.json
        let members = object(body)
        if let next = members.first(where: { $0.key == "next" })?.value {
            switch next {
            case let .string(url) where !url.isEmpty: return followable(url)
            case .null: return .end("no next page: the answer's next is null")
            default: break
            }
        }
        // JSON:API's `links.next` (a URL, or an object with its `href`) and HAL's `_links.next.href`; links
        // that name others (self, first, prev) and no next are the last page's (a HAL list was paged past its end).
        for key in ["links", "_links"] {
            guard let links = members.first(where: { $0.key == key })?.value, case let .object(named) = links else { continue }
            switch named.first(where: { $0.key == "next" })?.value {
            case let .string(url)? where !url.isEmpty: return followable(url)
            case let .object(link)?:
                if case let .string(href)? = link.first(where: { $0.key == "href" })?.value, !href.isEmpty { return followable(href) }
            case .null?: return .end("no next page: the answer's \(key).next is null")
            default:
                if named.contains(where: { ["self", "first", "prev", "previous", "last"].contains($0.key) }) {
                    return .end("no next page: the answer's \(key) name no next")
                }
            }
        }
        let containers = [members] + ["meta", "pagination", "paging", "page_info", "pageInfo"].compactMap { key in
            members.first { $0.key == key }.map { object($0.value) }
        }
        for container in containers {
            guard let (field, value) = container.first(where: { cursorFields.contains($0.key) }).map({ ($0.key, $0.value) }) else { continue }
            // GraphQL's pageInfo keeps its endCursor on the last page and says `hasNextPage: false`; Stripe-like
            // lists say `has_more: false`: `next` asked for page after page past the end.
            if let (flag, _) = container.first(where: { ["hasNextPage", "has_next_page", "has_more", "hasMore"].contains($0.key) && $0.value == .bool(false) })
                .map({ ($0.key, $0.value) }) {
                return .end("no next page: the answer's \(flag) is false")
            }
            let cursor = value.plainText
            guard value != .null, value != .bool(false), !cursor.isEmpty else {
                return .end("no next page: the answer's \(field) is \(value == .null ? "null" : "empty")")
            }
            let typed = last.items.compactMap { item -> String? in
                if case let .query(name, _) = item, cursorParameters.contains(name) { return name }
                return nil
            }.first
            let parameter = typed ?? endpointQuery.first(where: cursorParameters.contains) ?? cursorParameter(for: field)
            return .request(path: last.path, items: replacing(parameter, with: cursor, in: last.items))
        }
        // An offset or a range of items (PostgREST, Directus, most SQL-backed APIs): `next` said the answer named no next page.
        let contentTotal = contentRangeTotal(response.headers)
        let total = number(members, "total") ?? number(members, "total_count") ?? number(members, "count") ?? contentTotal
        let limit = last.items.lazy.compactMap { item -> Int? in
            if case let .query(name, value) = item, sizeParameters.contains(name) { return Int(value) }
            return nil
        }.first
        if let (parameter, offset) = last.items.lazy.compactMap({ item -> (String, Int)? in
            if case let .query(name, value) = item, offsetParameters.contains(name), let offset = Int(value), offset >= 0 { return (name, offset) }
            return nil
        }).first {
            return offsetAfter(offset, limit: limit, total: total, body: body, parameter: parameter, last: last)
        }
        // `limit==3` alone, answered with the items' Content-Range (`0-2/7`): the first page of an offset list.
        if limit != nil, let first = contentRangeFirst(response.headers) {
            return offsetAfter(first, limit: limit, total: total, body: body, parameter: "offset", last: last)
        }
        if let range = itemRange(last.items) {
            return rangeAfter(range, total: contentTotal ?? total, body: body, last: last)
        }
        let typedPage = last.items.compactMap { item -> String? in
            if case let .query(name, value) = item, name == "page" { return value }
            return nil
        }.first
        guard typedPage != nil || endpointQuery.contains("page") || members.contains(where: { $0.key == "page" }) else {
            return .end("no next page: the answer names none (no Link header, next, next_cursor or page)")
        }
        let page = typedPage.flatMap { Int($0) } ?? number(members, "page") ?? 1
        let size = last.items.compactMap { item -> Int? in
            if case let .query(name, value) = item, sizeParameters.contains(name) { return Int(value) }
            return nil
        }.first ?? sizeParameters.lazy.compactMap { number(members, $0) }.first
        return pageAfter(page, size: size, total: total, body: body, parameter: "page", last: last)
    }

    /// The list in an answer: the answer itself, or its first member that is one.
    static func listed(in body: JSONValue?) -> [JSONValue]? {
        if case let .array(items)? = body { items } else {
            object(body).lazy.compactMap { if case let .array(items) = $0.value { items } else { nil } }.first
        }
    }

    /// The items after `offset` and this page's, unless the total, an empty page or a short one says it was the last.
    private static func offsetAfter(_ offset: Int, limit: Int?, total: Int?, body: JSONValue?, parameter: String, last: Last) -> Next {
        if let body, listed(in: body) == nil, !holdsList(body) { return .end("no next page: the last answer is not a list (next pages through a list answer)") }
        if total == 0 { return .end("no next page: the total is 0") }
        guard let listed = listed(in: body) else { return .end("no next page: the answer has no list to count from offset \(offset)") }
        if listed.isEmpty { return .end("no next page: the page at offset \(offset) is empty") }
        // The items this page had, not the limit asked for: a server that caps the limit at 25 answered
        // `limit=100` with 25, and the next offset is 25 on.
        let next = offset + listed.count
        if let total {
            if next >= total { return .end("no next page: offset \(offset) and \(listed.count) more reach the total, \(total)") }
        } else if let limit, listed.count < limit {
            return .end("no next page: the page at offset \(offset) has \(listed.count) of \(limit)")
        }
        return .request(path: last.path, items: replacing(parameter, with: String(next), in: last.items))
    }

    /// A `Range: first-last` header item (PostgREST's `Range: 0-9`, with or without `items=`).
    private static func itemRange(_ items: [RequestItem]) -> ClosedRange<Int>? {
        for case let .header(name, value) in items where name.lowercased() == "range" {
            var text = Substring(value.trimmingBlanks())
            if text.lowercased().hasPrefix("items=") { text = text.dropFirst(6) }
            let ends = text.split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count == 2, let first = Int(ends[0]), let end = Int(ends[1]), first >= 0, end >= first else { return nil }
            return first...end
        }
        return nil
    }

    /// The next range of as many items, unless the total, an empty page or a short one says it was the last.
    private static func rangeAfter(_ range: ClosedRange<Int>, total: Int?, body: JSONValue?, last: Last) -> Next {
        let asked = range.count
        if let body, listed(in: body) == nil, !holdsList(body) { return .end("no next page: the last answer is not a list (next pages through a list answer)") }
        if total == 0 { return .end("no next page: the total is 0") }
        let count = listed(in: body)?.count
        if count == 0 { return .end("no next page: items \(range.lowerBound)-\(range.upperBound) are empty") }
        let next = range.lowerBound + (count ?? asked)
        if let total, next >= total { return .end("no next page: items \(range.lowerBound)-\(next - 1) reach the total, \(total)") }
        if total == nil, let count, count < asked { return .end("no next page: items \(range.lowerBound)-\(range.upperBound) had \(count) of \(asked)") }
        let items = last.items.map { item -> RequestItem in
            guard case let .header(name, value) = item, name.lowercased() == "range" else { return item }
            let unit = value.trimmingBlanks().lowercased().hasPrefix("items=") ? "items=" : ""
            return .header(name: name, value: "\(unit)\(next)-\(next + asked - 1)")
        }
        return .request(path: last.path, items: items)
    }

    /// The first item a `Content-Range` answer of items gives (`0-9/120`, `items 0-9/120`; not `bytes`).
    static func contentRangeFirst(_ headers: [HTTPHeader]) -> Int? {
        guard var value = headers.first(where: { $0.hasName("Content-Range") })?.value.trimmingBlanks().lowercased() else { return nil }
        if value.hasPrefix("items ") { value.removeFirst(6) }
        return value.split(separator: "/").first?.split(separator: "-").first.flatMap { Int($0) }
    }

    /// The total a `Content-Range` answer gives (`0-9/120`, `items 0-9/120`, `*/120`); `*` is unknown.
    static func contentRangeTotal(_ headers: [HTTPHeader]) -> Int? {
        guard let value = headers.first(where: { $0.hasName("Content-Range") })?.value, let slash = value.lastIndex(of: "/") else { return nil }
        return Int(value[value.index(after: slash)...].trimmingBlanks())
    }

    /// The page after `page`, unless the total, an empty page or a short one says it was the last.
    private static func pageAfter(_ page: Int, size: Int?, total: Int?, body: JSONValue?, parameter: String, last: Last) -> Next {
        let listed = listed(in: body)
        // A size that cannot be (0, or a first page of 2 that "had 100" of a total of 7): the first page's own length.
        var size = size.flatMap { $0 > 0 ? $0 : nil }
        if page == 1, let total, let listed, !listed.isEmpty, let claimed = size, listed.count < claimed, listed.count < total { size = listed.count }
        // One object with no list in it (`get /notes/n_001`) has no next page: page==2 of it fetched the same object.
        if let body, listed == nil, !holdsList(body) { return .end("no next page: the last answer is not a list (next pages through a list answer)") }
        if total == 0 { return .end("no next page: the total is 0") }
        if let total, let size, page * size >= total {
            return .end("no next page: \(page) page\(page == 1 ? "" : "s") of \(size) cover\(page == 1 ? "s" : "") the total, \(total)")
        }
        if let listed, listed.isEmpty { return .end("no next page: page \(page) is empty") }
        if let listed, let size, listed.count < size { return .end("no next page: page \(page) has \(listed.count) of \(size)") }
        return .request(path: last.path, items: replacing(parameter, with: String(page + 1), in: last.items))
    }

    /// Whether a list is in the answer, at its top or one level down (`{"data": {"items": […]}}`).
    private static func holdsList(_ body: JSONValue) -> Bool {
        switch body {
        case .array: return true
        case let .object(members):
            return members.contains { member in
                if case .array = member.value { return true }
                if case let .object(inner) = member.value { return inner.contains { if case .array = $0.value { true } else { false } } }
                return false
            }
        default: return false
        }
    }

    /// The profile's own rule (a profile file's `pagination`), and no guessing.
    private static func next(after last: Last, body: JSONValue?, headers: [HTTPHeader], declared: Pagination) -> Next {
        func query(_ name: String) -> String? {
            last.items.lazy.compactMap { item -> String? in
                if case let .query(found, value) = item, found == name { return value }
                return nil
            }.first
        }
        func integer(_ value: JSONValue?) -> Int? {
            switch value {
            case let .number(text)?, let .string(text)?: Int(text)
            default: nil
            }
        }
        switch declared {
        case let .cursor(field, parameter):
            guard case let .success(value) = field.evaluate(body ?? .null), value != .null, !value.plainText.isEmpty else {
                return .end("no next page: the answer's \(field) is null, empty or absent")
            }
            return .request(path: last.path, items: replacing(parameter, with: value.plainText, in: last.items))
        case let .page(parameter, sizeParameter, totalField):
            let page = query(parameter).flatMap { Int($0) } ?? 1
            // Not typed: the size the answer says it used (`"page_size": 3`). Without it the total
            // was never reached, and `next` fetched an empty page after the last.
            let members = object(body)
            // The size the answer says it used comes first: a server that caps page_size at 3 answered a
            // page_size of 5 with 3, and `next` took that page for the last.
            let size = ((sizeParameter.map { [$0] } ?? []) + sizeParameters).lazy.compactMap { number(members, $0) }.first
                ?? sizeParameter.flatMap(query).flatMap { Int($0) }
            let total = totalField.flatMap { path in
                if case let .success(value) = path.evaluate(body ?? .null) { integer(value) } else { nil }
            }
            return pageAfter(page, size: size, total: total, body: body, parameter: parameter, last: last)
        case let .offset(parameter, limitParameter, totalField):
            let total = totalField.flatMap { path in
                if case let .success(value) = path.evaluate(body ?? .null) { integer(value) } else { nil }
            } ?? contentRangeTotal(headers)
            return offsetAfter(query(parameter).flatMap { Int($0) } ?? 0, limit: query(limitParameter).flatMap { Int($0) },
                               total: total, body: body, parameter: parameter, last: last)
        }
    }

    /// The `rel="next"` target of a Link header. Its links are cut at the
    /// commas between them, not those inside a `<…>` target or a quoted
    /// parameter (`?fields=id,name`: the comma ended the link, and paging).
    static func nextLink(in header: String) -> String? {
        for link in Self.links(in: header) {
            let text = link.trimmingBlanks()
            guard text.hasPrefix("<"), let close = text.firstIndex(of: ">") else { continue }
            let target = text[text.index(after: text.startIndex)..<close]
            // `rel="next"`, `rel=next`, or `rel="last next"` (a space-separated list); a `;` in the
            // target (`?a=1;b=2`) or in a quoted title is no parameter's end.
            let isNext = Self.separated(text[text.index(after: close)...], by: ";").contains { part in
                let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingBlanks() }
                guard pair.count == 2, pair[0].lowercased() == "rel" else { return false }
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased().split(separator: " ").contains("next")
            }
            if isNext { return String(target) }
        }
        return nil
    }

    /// `text` cut at each `separator` outside quotes.
    private static func separated(_ text: Substring, by separator: Character) -> [Substring] {
        var parts: [Substring] = []
        var start = text.startIndex, inQuotes = false
        for index in text.indices {
            if text[index] == "\"" { inQuotes.toggle() }
            if text[index] == separator, !inQuotes {
                parts.append(text[start..<index])
                start = text.index(after: index)
            }
        }
        parts.append(text[start...])
        return parts
    }

    /// A Link header's links: the text between commas that are outside `<…>` and quotes.
    private static func links(in header: String) -> [Substring] {
        var links: [Substring] = []
        var start = header.startIndex, inTarget = false, inQuotes = false
        for index in header.indices {
            switch header[index] {
            case "<" where !inQuotes: inTarget = true
            case ">" where !inQuotes: inTarget = false
            case "\"" where !inTarget: inQuotes.toggle()
            case "," where !inTarget && !inQuotes:
                links.append(header[start..<index])
                start = header.index(after: index)
            default: break
            }
        }
        links.append(header[start...])
        return links
    }

    /// The items with `name==value` in place of the query item of that name (or added).
    static func replacing(_ name: String, with value: String, in items: [RequestItem]) -> [RequestItem] {
        var replaced = false
        var out: [RequestItem] = items.compactMap { item in
            guard case .query(name, _) = item else { return item }
            if replaced { return nil }
            replaced = true
            return .query(name: name, value: value)
        }
        if !replaced { out.append(.query(name: name, value: value)) }
        return out
    }

    private static func object(_ value: JSONValue?) -> [(key: String, value: JSONValue)] {
        if case let .object(members)? = value { members } else { [] }
    }

    private static func number(_ members: [(key: String, value: JSONValue)], _ key: String) -> Int? {
        guard let value = members.first(where: { $0.key == key })?.value else { return nil }
        switch value {
        case let .number(text): return Int(text)
        case let .string(text): return Int(text)
        default: return nil
        }
    }
}
