import Foundation

/// Turns a method, a path and HTTPie request items into a `PreparedRequest`,
/// with HTTPie's rules: data fields make a JSON object body, a file field makes
/// the body multipart form data, `==` items go into the query string.
/// URLs are built with `URLComponents`, never by concatenating strings.
public struct RequestBuilder: Sendable {
    public static let userAgent = "explorer/0.1"
    /// What every request accepts unless a line says otherwise: the transport decodes both.
    public static let acceptEncoding = "gzip, deflate"

    /// Errors in building a request, each one line.
    public struct BuildError: Error, Equatable, Sendable, CustomStringConvertible {
        public let message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    public var baseURL: URL {
        didSet { prefix = Self.prefix(of: baseURL) }
    }
    /// The base URL up to its path, without the path's trailing slashes,
    /// its query or fragment: what a plain path is joined to.
    private var prefix: String?
    /// Reads a file named by an `@` item. Injected so tests need no files.
    public var readFile: @Sendable (String) throws -> [UInt8]
    /// The `boundary` parameter of a multipart media type, unquoted; nil when it has none.
    static func boundary(in type: String) -> String? {
        for parameter in type.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// Multipart boundary; random unless a test fixes it.
    public var boundary: @Sendable () -> String

    public init(baseURL: URL,
                readFile: @escaping @Sendable (String) throws -> [UInt8] = RequestBuilder.readFileFromDisk,
                boundary: @escaping @Sendable () -> String = { UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }) {
        self.baseURL = Self.trimmingTrailingSlashes(baseURL)
        self.readFile = readFile
        self.boundary = boundary
        prefix = Self.prefix(of: baseURL)
    }

    public static let readFileFromDisk: @Sendable (String) throws -> [UInt8] = { path in
        if path == "-" { return try StandardInputBody.read() }
        let expanded = expandingHome(path)
        // Why, in a few words: "cannot read file" alone left a missing file, a folder and a
        // file of another user's looking the same.
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: expanded, isDirectory: &isFolder) else {
            let folder = expanded.hasPrefix("/") ? "" : " in \(FileManager.default.currentDirectoryPath)"
            throw BuildError("cannot read file '\(path)': no such file\(folder)")
        }
        if isFolder.boolValue { throw BuildError("cannot read file '\(path)': it is a folder") }
        // A pipe (`@<(cmd)`, a FIFO) has no size to read at once: read to its end, as HTTPie does.
        var status = stat()
        if stat(expanded, &status) == 0, status.st_mode & S_IFMT != S_IFREG { return try readToEnd(expanded, typed: path) }
        guard let data = FileManager.default.contents(atPath: expanded) else {
            let reason = access(expanded, R_OK) == 0 ? "it could not be read" : String(cString: strerror(errno)).lowercased()
            throw BuildError("cannot read file '\(path)': \(reason)")
        }
        return [UInt8](data)
    }

    /// Most that is read from a pipe or a device for a body: /dev/zero has no end.
    static let pipeLimit = 256 << 20

    /// A pipe's or a device's bytes, to their end (at most `pipeLimit`).
    private static func readToEnd(_ path: String, typed: String) throws(BuildError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw BuildError("cannot read file '\(typed)': \(String(cString: strerror(errno)).lowercased())")
        }
        defer { try? handle.close() }
        var bytes: [UInt8] = []
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch { throw BuildError("cannot read file '\(typed)': \(error.localizedDescription)") }
            guard let chunk, !chunk.isEmpty else { return bytes }
            bytes += chunk
            if bytes.count > pipeLimit { throw BuildError("cannot read file '\(typed)': it goes on past \(pipeLimit >> 20) MiB (a pipe or a device)") }
        }
    }

    /// `~/x` in `$HOME`, as a shell expands it (Foundation's tilde went to the account's home, not
    /// `$HOME`: `@~/b.json` was "no such file" with HOME set elsewhere); `~user/x` as Foundation reads it.
    public static func expandingHome(_ path: String) -> String {
        if path == "~" || path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty {
            return home + path.dropFirst()
        }
        return (path as NSString).expandingTildeInPath
    }

    /// Joins `path` (which may carry its own `?query`, or be a full http(s) URL)
    /// onto the base URL and appends `query` items, percent-encoded.
    public func url(for path: String, query: [(String, String)] = []) throws(BuildError) -> URL {
        // Most lines name a plain path (`/api/tasks/1`): joined to the base as
        // text, it is the URL the components below make, in one parse instead of
        // three (they were 6% of a scripted GET's CPU).
        guard query.isEmpty, let prefix, Self.isPlainPath(path), !Self.hasDotSegment(path),
              let url = URL(string: prefix + (path.hasPrefix("/") ? path : "/" + path)) else {
            return try urlFromComponents(for: path, query: query)
        }
        if let reason = URLCheck.problem(port: url) { throw BuildError(reason) }
        return url
    }

    /// Bytes a path may hold as they are (RFC 3986 `pchar` and `/`), with
    /// nothing that makes it a query, a fragment, an escape, a host (`//`)
    /// or a URL of its own.
    static func isPlainPath(_ path: String) -> Bool {
        let bytes = path.utf8
        guard !bytes.starts(with: "//".utf8), !path.hasPrefix("http://"), !path.hasPrefix("https://") else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            case UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
                 UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
                 UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"): true
            default: false
            }
        }
    }

    /// `base` without its path's trailing slashes: `http://h:1/` is
    /// `http://h:1`, `…/api/` is `…/api`, so `{{base_url}}` and the origin a
    /// credential goes to read the same however the URL was typed (a CI
    /// variable ending in `/` failed every replayed `auth` line).
    public static func trimmingTrailingSlashes(_ base: URL) -> URL {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false), components.percentEncodedPath.hasSuffix("/") else { return base }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        components.percentEncodedPath = path
        return components.url ?? base
    }

    private static func prefix(of base: URL) -> String? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return nil }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        components.percentEncodedPath = path
        components.percentEncodedQuery = nil
        components.fragment = nil
        return components.string
    }

    /// `url(for:query:)` by URL components, for any path or URL typed.
    func urlFromComponents(for path: String, query: [(String, String)] = []) throws(BuildError) -> URL {
        var components: URLComponents
        if path.hasPrefix("http://") || path.hasPrefix("https://") {
            guard let parsed = Self.components(path) else {
                throw BuildError("'\(path)' is not a valid URL")
            }
            components = parsed
        } else {
            guard var base = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
                throw BuildError("base URL '\(baseURL)' is not valid")
            }
            let relative = path.hasPrefix("/") ? path : "/" + path
            // `//x/y` alone would name a host `x`, dropped for the base URL's: read it as a path.
            guard let typed = relative.hasPrefix("//") ? Self.components("http://h" + relative) : Self.components(relative) else {
                throw BuildError("'\(path)' is not a valid path")
            }
            var basePath = base.percentEncodedPath
            while basePath.hasSuffix("/") { basePath.removeLast() }
            base.percentEncodedPath = basePath + typed.percentEncodedPath
            base.percentEncodedQuery = typed.percentEncodedQuery
            base.fragment = nil
            components = base
        }
        if !query.isEmpty {
            let encoded = query.map { Self.percentEncode($0.0) + "=" + Self.percentEncode($0.1) }.joined(separator: "&")
            if let existing = components.percentEncodedQuery, !existing.isEmpty {
                components.percentEncodedQuery = existing + "&" + encoded
            } else {
                components.percentEncodedQuery = encoded
            }
        }
        // `/a/./b/../c` is `/a/c`, as curl, HTTPie and xh send it (RFC 3986 5.2.4): sent as typed, a server
        // answered for another resource than any of them would reach.
        if Self.hasDotSegment(components.percentEncodedPath) {
            components.percentEncodedPath = Self.removingDotSegments(components.percentEncodedPath)
        }
        guard let url = components.url else { throw BuildError("cannot build a URL from '\(path)'") }
        if let reason = URLCheck.problem(port: url) { throw BuildError(reason) }
        return url
    }

    /// Whether a path has a `.` or `..` segment.
    static func hasDotSegment(_ path: String) -> Bool {
        path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == "." || $0 == ".." }
    }

    /// RFC 3986 5.2.4 for an absolute path: `.` segments go, and `..` takes
    /// the segment before it with it (none above the root). A last `.` or
    /// `..` leaves the path ending in `/`, as the RFC's does.
    static func removingDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            switch segment {
            case ".": if last { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if last { output.append("") }
            default: output.append(segment)
            }
        }
        return "/" + output.joined(separator: "/")
    }

    /// Builds the request. `method` is upper-cased. With `form` (HTTPie's
    /// `--form`), data fields make an `application/x-www-form-urlencoded`
    /// body instead of JSON; `raw` (`--raw`) is the whole body as given.
    /// `json` (`--json` typed): JSON's Accept and Content-Type with no data too, as HTTPie and xh send them.
    public func build(method: String, path: String, items: [RequestItem], form: Bool = false, multipart: Bool = false,
                      raw: String? = nil, json: Bool = false) throws(BuildError) -> PreparedRequest {
        var query: [(String, String)] = []
        var headers: [HTTPHeader] = [
            HTTPHeader(name: "User-Agent", value: Self.userAgent),
            HTTPHeader(name: "Accept", value: "*/*"),
            HTTPHeader(name: "Accept-Encoding", value: Self.acceptEncoding),
        ]
        var removedHeaders: [String] = []
        var userHeaders: [HTTPHeader] = []
        var fields: [(key: String, value: JSONValue)] = []
        var files: [(name: String, filename: String, contentType: String, data: [UInt8])] = []
        /// Fields and files in the order typed: a multipart body keeps it, as HTTPie's does.
        var parts: [(isFile: Bool, index: Int)] = []
        var rawBody: (data: [UInt8], contentType: String)?

        func load(_ path: String) throws(BuildError) -> [UInt8] {
            do { return try readFile(path) } catch let error as BuildError { throw error } catch {
                throw BuildError("cannot read file '\(path)': \(error)")
            }
        }
        func text(_ path: String) throws(BuildError) -> String {
            let bytes = try load(path)
            guard let s = String(validating: bytes, as: UTF8.self) else { throw BuildError("file '\(path)' is not UTF-8 text") }
            return s
        }

        for item in items {
            if item.isField { parts.append((false, fields.count)) }
            switch item {
            case let .header(name, typed):
                // The spaces around a value are no part of it (RFC 9110 5.5), as HTTPie strips them: `X:  a` went as `X:   a`.
                let value = String(String(typed.drop { $0 == " " || $0 == "\t" }.reversed()).drop { $0 == " " || $0 == "\t" }.reversed())
                if value.isEmpty { removedHeaders.append(name) } else { userHeaders.append(HTTPHeader(name: name, value: value)) }
            case let .emptyHeader(name): userHeaders.append(HTTPHeader(name: name, value: ""))
            case let .headerFromFile(name, path):
                let value = try text(path).trimmingCharacters(in: .newlines)
                if let bad = HTTPHeader.invalidValueOffset(value) {
                    throw BuildError("header \(name) from '\(path)': \(HTTPHeader.describeCharacter(at: bad, of: value)) cannot be in a header value")
                }
                userHeaders.append(HTTPHeader(name: name, value: value))
            case let .query(name, value): query.append((name, value))
            case let .queryFromFile(name, path): query.append((name, try text(path)))
            case let .stringField(name, value): fields.append((name, .string(value)))
            case let .stringFieldFromFile(name, path): fields.append((name, .string(try text(path))))
            case let .jsonField(name, value): fields.append((name, value))
            case let .jsonFieldFromFile(name, path):
                // A byte-order mark before the JSON (Windows editors write one) is no part of it.
                let source = String(try text(path).trimmingPrefix("\u{FEFF}"))
                do { fields.append((name, try JSONParser.parse(source))) } catch {
                    throw BuildError("file '\(path)' is not valid JSON: \(error)")
                }
            case let .file(name, path, contentType):
                if name.isEmpty {
                    // The whole body: its type is the one given with `;type=`, else its extension's.
                    rawBody = (try load(path), contentType.flatMap { $0.isEmpty ? nil : $0 } ?? Self.guessContentType((path as NSString).lastPathComponent))
                } else {
                    let data = try load(path)
                    let filename = (path as NSString).lastPathComponent
                    parts.append((true, files.count))
                    // `;type=` with nothing after it: the guessed type, as HTTPie sends (an empty Content-Type went).
                    files.append((name, filename, contentType.flatMap { $0.isEmpty ? nil : $0 } ?? Self.guessContentType(filename), data))
                }
            }
        }

        var body: [UInt8]?
        if let raw {
            guard rawBody == nil, fields.isEmpty, files.isEmpty else {
                throw BuildError("--raw sends its text as the whole body; it cannot be combined with fields or files")
            }
            body = Array(raw.utf8)
            headers.append(HTTPHeader(name: "Content-Type", value: form ? Self.formType : "application/json"))
            if !form { headers[1] = HTTPHeader(name: "Accept", value: "application/json, */*;q=0.5") }
        } else if let rawBody {
            guard fields.isEmpty, files.isEmpty else {
                throw BuildError("'@file' sends the file as the whole body; it cannot be combined with fields")
            }
            body = rawBody.data
            headers.append(HTTPHeader(name: "Content-Type", value: rawBody.contentType))
            if rawBody.contentType == "application/json" {
                headers[1] = HTTPHeader(name: "Accept", value: "application/json, */*;q=0.5")
            }
        } else if !files.isEmpty || multipart && !fields.isEmpty {
            if let raw = fields.first(where: { if case .string = $0.value { return false } else { return true } }) {
                throw BuildError("'\(raw.key):=…' is a raw JSON field, but multipart form data (a file upload, --multipart) carries only text fields (use \(raw.key)=…)")
            }
            // A multipart type typed on the line (pasted from a curl command, or `multipart/mixed`) gets the
            // boundary the body uses: typed without one, the server found no parts; with one, the body used ours.
            let typed = userHeaders.lastIndex { $0.hasName("Content-Type") && $0.value.lowercased().hasPrefix("multipart/") }
            let boundary = typed.flatMap { Self.boundary(in: userHeaders[$0].value) } ?? boundary()
            if let typed, Self.boundary(in: userHeaders[typed].value) == nil {
                let value = userHeaders[typed].value.trimmingBlanks()
                userHeaders[typed].value = value + (value.hasSuffix(";") ? " " : "; ") + "boundary=\(boundary)"
            }
            var data: [UInt8] = []
            func append(_ s: String) { data.append(contentsOf: Array(s.utf8)) }
            for part in parts {
                if part.isFile {
                    let file = files[part.index]
                    append("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escapeQuoted(file.name))\"; filename=\"\(Self.escapeQuoted(file.filename))\"\r\n")
                    append("Content-Type: \(file.contentType)\r\n\r\n")
                    data.append(contentsOf: file.data)
                } else {
                    let field = fields[part.index]
                    append("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escapeQuoted(field.key))\"\r\n\r\n")
                    append(field.value.stringValue ?? "")
                }
                append("\r\n")
            }
            append("--\(boundary)--\r\n")
            body = data
            headers.append(HTTPHeader(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)"))
        } else if form, !fields.isEmpty {
            if let json = fields.first(where: { if case .string = $0.value { return false } else { return true } }) {
                throw BuildError("'\(json.key):=…' is a raw JSON field, but --form sends text fields only (use \(json.key)=…)")
            }
            body = Array(fields.map { Self.formEncode($0.key) + "=" + Self.formEncode($0.value.stringValue ?? "") }.joined(separator: "&").utf8)
            headers.append(HTTPHeader(name: "Content-Type", value: Self.formType))
        } else if !fields.isEmpty {
            // Names are nested JSON paths (HTTPie's rules): `user[roles][]=admin`, a later item replaces an earlier one.
            var nested = NestedJSON()
            for field in fields { try nested.set(field.key, field.value) }
            body = Array(JSONPrinter.compact(nested.value).utf8)
            headers[1] = HTTPHeader(name: "Accept", value: "application/json, */*;q=0.5")
            headers.append(HTTPHeader(name: "Content-Type", value: "application/json"))
        } else if json, body == nil, !form {
            headers[1] = HTTPHeader(name: "Accept", value: "application/json, */*;q=0.5")
            headers.append(HTTPHeader(name: "Content-Type", value: "application/json"))
        }

        var request = PreparedRequest(method: method.uppercased(), url: try url(for: path, query: query), headers: headers, body: body)
        // `http://user:password@host/…` (typed, or in the base URL): basic auth,
        // as curl and HTTPie send it, unless an Authorization is typed; the
        // URL goes without them. They were dropped without a word.
        if request.url.user != nil, var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false), let user = components.user {
            let password = components.password ?? ""
            components.percentEncodedUser = nil
            components.percentEncodedPassword = nil
            if let bare = components.url { request.url = bare }
            if !userHeaders.contains(where: { $0.hasName("Authorization") }) {
                request.headers.append(HTTPHeader(name: "Authorization", value: BasicCredentials(user: user, password: password).authorization))
            }
        }
        for name in removedHeaders { request.removeHeader(name) }
        // A typed header replaces the default of its name; typed twice, both go (as HTTPie sends them).
        for header in userHeaders { request.removeHeader(header.name) }
        request.headers += userHeaders
        return request
    }

    public static let formType = "application/x-www-form-urlencoded; charset=utf-8"

    /// `application/x-www-form-urlencoded` as browsers and HTTPie write it:
    /// unreserved characters stay, a space is `+`, the rest is %-encoded.
    public static func formEncode(_ s: String) -> String {
        percentEncode(s).replacingOccurrences(of: "%20", with: "+")
    }

    /// RFC 3986 unreserved characters stay; everything else is %-encoded, so a
    /// `+` or `&` in a value reaches the server as itself.
    public static func percentEncode(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s
    }

    /// Encodes characters that cannot appear in a URL (spaces, non-ASCII),
    /// leaving `%XX` escapes and delimiters the user typed alone.
    /// A typed URL or path read as components. Foundation encodes what is
    /// not valid in it, but then a `%` too: `/é%7Bx%7D` went out as
    /// `/%C3%A9%257Bx%257D`. Text with a `%` is encoded here first, which
    /// leaves a `%XX` as typed (as HTTPie and curl send it).
    private static func components(_ text: String) -> URLComponents? {
        if text.includes(ascii: "%") { return URLComponents(string: encodeInvalid(text)) ?? URLComponents(string: text) }
        return URLComponents(string: text) ?? URLComponents(string: encodeInvalid(text))
    }

    private static func encodeInvalid(_ s: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        // `;` too: a path's parameters (`/t;jsessionid=A%2FB`) went as `%3B`, which no server reads as one.
        allowed.insert(charactersIn: "?&=%#:;")
        return encodingStrayPercents(s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s)
    }

    /// Each `%` that starts no escape as `%25`, the escapes kept: one stray
    /// `%` (`?t=100%`) made Foundation encode every `%` again, and `50%25`
    /// went as `50%2525`, another value (curl keeps the escapes, RFC 3986 2.4).
    static func encodingStrayPercents(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        func isHex(_ index: Int) -> Bool {
            index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9") ~= bytes[index] || UInt8(ascii: "a")...UInt8(ascii: "f") ~= bytes[index]
                                    || UInt8(ascii: "A")...UInt8(ascii: "F") ~= bytes[index])
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        for (index, byte) in bytes.enumerated() {
            out.append(byte)
            if byte == UInt8(ascii: "%"), !(isHex(index + 1) && isHex(index + 2)) { out += Array("25".utf8) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A name or file name in a part's quoted string: `\` and `"` escaped, a line break percent-encoded as
    /// browsers send it (a file named `a\nContent-Type: evil\n\nb.txt` wrote headers of its own into the part).
    private static func escapeQuoted(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    static func guessContentType(_ filename: String) -> String {
        switch (filename as NSString).pathExtension.lowercased() {
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "json": return "application/json"
        case "txt": return "text/plain"
        case "csv": return "text/csv"
        case "html", "htm": return "text/html"
        case "xml": return "application/xml"
        case "yaml", "yml": return "application/yaml"
        case "pdf": return "application/pdf"
        default: return "application/octet-stream"
        }
    }
}

private extension RequestItem {
    /// Whether the item adds a body field (`name=value`, `name:=json`, from a file or not).
    var isField: Bool {
        switch self {
        case .stringField, .stringFieldFromFile, .jsonField, .jsonFieldFromFile: true
        default: false
        }
    }
}
