import Core
import Foundation

/// A `curl …` command pasted at the prompt (from browser dev tools or API
/// docs), read as the request it sends: `-X`, the URL, `-H`, `-d` and its
/// kin, `--data-urlencode`, `-G`, `-F`, `-u`, `-L`, the TLS flags (`-k`,
/// `--cacert`, `-E`, `--key`), `-i` and `-v` as explorer's `-p hb` and `-v`,
/// and the flags that change nothing here (`-s`, `--compressed`…). Anything
/// else is refused by name, with its column, rather than guessed at.
enum CurlImport {
    static let ignored: Set<String> = ["-s", "--silent", "-S", "--show-error", "--compressed",
                                       "-N", "--no-buffer", "--http1.1", "-#", "--progress-bar", "-f", "--fail",
                                       // explorer never globs `[1-3]` or `{a,b}` in a URL: curl's switch that stops it changes nothing.
                                       "-g", "--globoff"]

    /// curl's one-letter flags that take no value, and those that do.
    private static let shortSwitches = Set("sSNf#GLIikvg")
    private static let shortWithValue = Set("XHdFuoEmAeb")

    /// `-sSL`, `-fsSL`, `-sXPOST`: one-letter flags written together, as
    /// pasted commands often have them, one word each (`-s -S -L`, `-s
    /// -XPOST`). A group with a letter curl would not read here stays whole,
    /// refused by name.
    static func ungrouped(_ words: [LineTokenizer.Word]) -> [LineTokenizer.Word] {
        words.flatMap { word -> [LineTokenizer.Word] in
            let text = word.text
            guard text.count > 2, text.hasPrefix("-"), !text.hasPrefix("--"), shortSwitches.contains(text.dropFirst().first!) else { return [word] }
            var flags: [LineTokenizer.Word] = []
            var rest = text.dropFirst()
            while let letter = rest.first {
                rest = rest.dropFirst()
                if shortWithValue.contains(letter) {
                    flags.append(LineTokenizer.Word(text: "-\(letter)" + rest, start: word.start))
                    return flags
                }
                guard shortSwitches.contains(letter) else { return [word] }
                flags.append(LineTokenizer.Word(text: "-\(letter)", start: word.start))
            }
            return flags
        }
    }

    static func parse(_ typed: [LineTokenizer.Word], readFile: @Sendable (String) throws -> [UInt8] = RequestBuilder.readFileFromDisk,
                      locateFile: (String) throws -> String = RequestBuilder.expandingHome) throws(CommandError) -> Command {
        let words = ungrouped(typed)
        // `-u 'bob:'"$PASSWORD"` (explorer's own --curl writes so), `-H "Authorization: Bearer $TOKEN"` (API docs do): the
        // shell's variable went out as the credential's text. Said, with explorer's way to give one.
        for word in words {
            guard let variable = Self.shellVariable(in: word.text) else { continue }
            throw CommandError("\(CommandError.quotable(variable)) is a shell variable, which explorer does not expand: write {{secret:\(variable.dropFirst().lowercased())}} "
                               + "(asked for, or EXPLORER_SECRET_\(variable.dropFirst()) in the environment), or paste the command as the shell expanded it",
                               column: word.start)
        }
        var method: String?
        var url: LineTokenizer.Word?
        var items: [RequestItem] = []
        /// `-d`, `--data-urlencode` and their kin, in the order typed: curl joins them so (a signed
        /// request's order was changed: every `-d` first, then every `--data-urlencode`).
        var data: [String] = []
        /// `-b name=value`, joined into one Cookie header as curl sends them; a typed `-H Cookie:` wins.
        var cookies: [String] = []
        /// `-u`'s credentials, unless a typed `-H Authorization:` replaces them, as in curl.
        var basic: RequestItem?
        var bearer: RequestItem?
        /// Where `-I` was typed: a HEAD, which takes no body.
        var head: Int?
        var getWithData = false
        /// `-d @FILE`, `--data-binary @FILE`: the file's path, and where it was typed.
        var dataFile: (path: String, column: Int)?
        var options = RequestOptions()
        var i = 0
        func value(_ flag: LineTokenizer.Word) throws(CommandError) -> String {
            i += 1
            guard i < words.count else { throw CommandError("curl's \(flag.text) needs a value", column: flag.start) }
            return words[i].text
        }
        while i < words.count {
            let word = words[i]
            var text = word.text
            var inline: String?
            // `--data=x`, `-XPOST`, `-HAccept:x`, `-m5`: a value joined to its flag.
            if text.hasPrefix("--"), let eq = text.firstIndex(of: "=") {
                inline = String(text[text.index(after: eq)...])
                text = String(text[..<eq])
            } else if text.count > 2, text.hasPrefix("-"), !text.hasPrefix("--"), shortWithValue.contains(text[text.index(text.startIndex, offsetBy: 1)]) {
                inline = String(text.dropFirst(2))
                text = String(text.prefix(2))
            }
            func take() throws(CommandError) -> String {
                if let inline { return inline }
                return try value(word)
            }
            switch text {
            case "-X", "--request":
                let given = try take()
                // A method is a token: a space or a CR LF in it would split the request line.
                if given.isEmpty || HTTPHeader.invalidNameOffset(given) != nil {
                    throw CommandError("curl's \(text) '\(given)' is not an HTTP method (letters, digits and !#$%&'*+-.^_`|~ only)", column: word.start)
                }
                method = given.uppercased()
            case "-H", "--header":
                let header = try take()
                // `-H 'X-A;'` is curl's way to send a header with no value.
                if header.hasSuffix(";"), !header.contains(":") {
                    let name = String(header.dropLast()).trimmingBlanks()
                    guard !name.isEmpty, HTTPHeader.invalidNameOffset(name) == nil else {
                        throw CommandError("curl's -H '\(header)': not a header name before ';'", column: word.start)
                    }
                    items.append(.emptyHeader(name: name))
                    break
                }
                guard let colon = header.firstIndex(of: ":") else {
                    throw CommandError("curl's -H needs 'Name: value' (or 'Name;' for an empty one), got '\(header)'", column: word.start)
                }
                let name = String(header[..<colon]).trimmingBlanks()
                let headerValue = String(header[header.index(after: colon)...]).trimmingBlanks()
                // `-H ':x'` crashed the process (the empty name's first character was looked up).
                guard !name.isEmpty else { throw CommandError("curl's -H '\(header)': missing name before ':'", column: word.start) }
                if let bad = HTTPHeader.invalidNameOffset(name) {
                    throw CommandError("curl's -H '\(header)': \(HTTPHeader.describeCharacter(at: bad, of: name)) cannot be in a header name", column: word.start)
                }
                if let bad = HTTPHeader.invalidValueOffset(headerValue) {
                    throw CommandError("curl's -H '\(header)': \(HTTPHeader.describeCharacter(at: bad, of: headerValue)) cannot be in a header value", column: word.start)
                }
                // `-H 'User-Agent:'` removes the header, in curl as in HTTPie's `User-Agent:` (it was sent empty).
                items.append(.header(name: name, value: headerValue))
            case "-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--json":
                let body = try take()
                if body.hasPrefix("@"), ["-d", "--data", "--data-ascii"].contains(text), body.count > 1 {
                    // curl strips a -d file's line ends and NULs (only --data-binary keeps them): read here, so.
                    data.append(try strippedFile(String(body.dropFirst()), flag: text, column: word.start, readFile: readFile))
                } else if body.hasPrefix("@"), text != "--data-raw" {
                    // The file is the body (curl's usual way to send one), as explorer's `@FILE` item sends it.
                    guard body.count > 1 else { throw CommandError("curl's \(text) @: a file name goes after '@'", column: word.start) }
                    guard dataFile == nil else { throw CommandError("curl's \(text) @FILE a second time: explorer sends one file as the body", column: word.start) }
                    dataFile = (String(body.dropFirst()), word.start)
                } else {
                    data.append(body)
                }
                if text == "--json" {
                    items.append(.header(name: "Content-Type", value: "application/json"))
                    items.append(.header(name: "Accept", value: "application/json"))
                }
            case "--data-urlencode":
                let given = try take()
                // curl reads `@FILE` and `name@FILE` from the file; sent as typed, the file's name went instead.
                if given.first == "@" || !given.contains("=") && given.contains("@") {
                    throw CommandError("curl's --data-urlencode with a file is not read here: give the value, or use explorer's name=@FILE item", column: word.start)
                }
                data.append(Self.urlencode(given))
            case "-G", "--get": getWithData = true
            case "--form-string":
                // A value as it is, `@` and `<` included: what explorer's own --curl writes for a text field.
                options.multipart = true
                let part = try take()
                guard let eq = part.firstIndex(of: "=") else { throw CommandError("curl's --form-string needs name=value", column: word.start) }
                items.append(.stringField(name: String(part[..<eq]), value: String(part[part.index(after: eq)...])))
            case "-F", "--form":
                // Multipart whatever the parts: `-F password=x` alone went out as a GET with a JSON body.
                options.multipart = true
                let part = try take()
                guard let eq = part.firstIndex(of: "=") else { throw CommandError("curl's -F needs name=value or name=@file", column: word.start) }
                let name = String(part[..<eq])
                let rest = String(part[part.index(after: eq)...])
                // `<file` (the file's text as the value), `;filename=`, `;headers=`, a quoted value: sent as typed,
                // the part carried the wrong value without a word.
                if rest.hasPrefix("<") || rest.hasPrefix("\"") || rest.contains(";filename=") || rest.contains(";headers=")
                    || !rest.hasPrefix("@") && rest.contains(";type=") {
                    throw CommandError("curl's -F '\(CommandError.quotable(part))': explorer reads -F name=value and name=@FILE[;type=TYPE] only "
                                       + "(for a file's text as a field, its item name=@FILE)", column: word.start)
                }
                if rest.hasPrefix("@") {
                    var path = String(rest.dropFirst())
                    var type: String?
                    if let semicolon = path.range(of: ";type=") {
                        type = String(path[semicolon.upperBound...])
                        path = String(path[..<semicolon.lowerBound])
                    }
                    items.append(.file(name: name, path: path, contentType: type))
                } else {
                    items.append(.stringField(name: name, value: rest))
                }
            case "-u", "--user":
                let credentials = try take()
                // No colon: curl asks for the password; an empty one went out without a word.
                guard let pair = BasicCredentials(pair: credentials) else {
                    throw CommandError("curl's \(text) names no password (curl would ask for one): give -u 'USER:PASSWORD', or USER:{{secret:password}}",
                                       column: word.start)
                }
                basic = .header(name: "Authorization", value: pair.authorization)
            // Over -u, wherever typed, as curl sends it.
            case "--oauth2-bearer": bearer = .header(name: "Authorization", value: "Bearer " + (try take()))
            case "-L", "--location": options.follow = true
            case "--max-redirs":
                // curl's -1 is no limit: explorer's own (30) then.
                let given = try take()
                guard let n = Int(given), (-1...100).contains(n) else {
                    throw CommandError("curl's --max-redirs needs a whole number from -1 to 100", column: word.start)
                }
                options.maxRedirects = n < 0 ? nil : n
            case "-m", "--max-time":
                guard let seconds = Double(try take()), seconds >= 0.001, seconds <= 3600 else {
                    throw CommandError("curl's \(text) needs seconds from 0.001 to 3600", column: word.start)
                }
                options.timeout = seconds
            case "-A", "--user-agent": items.append(.header(name: "User-Agent", value: try take()))
            case "-e", "--referer": items.append(.header(name: "Referer", value: try take()))
            case "-b", "--cookie":
                let given = try take()
                // Without `=` it names a cookie jar, which curl reads: its name went out as the cookie.
                guard given.contains("=") else {
                    throw CommandError("curl's \(text) '\(CommandError.quotable(given))' names a cookie file, which explorer does not read: give -b 'name=value'",
                                       column: word.start)
                }
                cookies.append(given)
            case "-I", "--head":
                method = "HEAD"
                head = word.start
            // What curl shows: the answer's head too (-i), and the request's (-v); they were ignored.
            case "-i", "--include": options.print = (options.print ?? []).union([.responseHeaders, .responseBody])
            case "-v", "--verbose": options.print = .verbose
            case "--url": url = LineTokenizer.Word(text: try take(), start: word.start)
            // curl's TLS flags, as explorer's --verify, --cert and --cert-key.
            case "-k", "--insecure", "--cacert", "-E", "--cert", "--key":
                let (flag, given) = switch text {
                case "-k", "--insecure": ("--verify", "no")
                case "--cacert": ("--verify", try take())
                case "-E", "--cert": ("--cert", try take())
                default: ("--cert-key", try take())
                }
                do throws(RequestOptions.TLSFlagProblem) {
                    try options.setTLS(flag, given, locateFile: locateFile)
                } catch {
                    // curl's `-E FILE:PASSPHRASE`: the passphrase is not said back (on screen and in the recording).
                    var said = error.message
                    if flag == "--cert", let colon = given.lastIndex(of: ":"), colon < given.index(before: given.endIndex) {
                        said = said.replacingOccurrences(of: given, with: given[...colon] + "…")
                    }
                    throw CommandError("curl's \(text): \(said)", column: word.start)
                }
            // explorer's own: show the request instead of sending it.
            case "--offline": options.offline = true
            default:
                if ignored.contains(text) { break }
                if text.hasPrefix("-") {
                    // The flag alone, not a value joined to it (`-Ubob:PW`, `--proxy-user=bob:PW`): said back, it showed the password.
                    let flag = text.hasPrefix("--") ? String(text.prefix { $0 != "=" }) : String(text.prefix(2))
                    throw CommandError("curl's \(CommandError.quotable(flag)) is not one explorer reads (it reads -X, -H, -d, --data-urlencode, -G, -F, --form-string, -u, "
                                       + "--oauth2-bearer, -L, --max-redirs, -m, -A, -e, -b, -I, -i, -v, -k, --cacert, -E, --key, --url)", column: word.start)
                }
                guard url == nil else { throw CommandError("a second URL: explorer runs one request at a time", column: word.start) }
                url = word
            }
            i += 1
        }
        guard let url else { throw CommandError("curl command with no URL", column: words.first?.start) }
        if let problem = options.tlsProblem {
            throw CommandError(problem, column: words.first { ["-k", "--insecure", "--cacert", "-E", "--cert", "--key"].contains($0.text) }?.start)
        }
        // curl takes a URL without a scheme as http:// (`curl localhost:8080/x`, as docs write it).
        let typed = URLCheck.expandingShorthand(url.text) ?? (url.text.hasPrefix("/") || url.text.contains("://") ? url.text : "http://" + url.text)
        if !typed.hasPrefix("/"), let reason = URLCheck.problem(typed) {
            // Said of the URL as typed, not of the http:// put before it.
            throw CommandError(reason.replacingOccurrences(of: "'\(typed)'", with: "'\(url.text)'"), column: url.start)
        }
        var target = URLCheck.lowercasingScheme(typed)
        if let head, !getWithData && !data.isEmpty || dataFile != nil || options.multipart {
            throw CommandError("curl's -I sends a HEAD, which carries no body: it cannot go with -d or -F (curl refuses the two)", column: head)
        }
        // A typed `-H Authorization:` or `-H Cookie:` replaces what -u and -b make, as curl's does: both went, two credentials.
        // `-H 'Authorization;'` too: sent empty, in place of the credential, as curl sends it (both went).
        func typedHeader(_ name: String) -> Bool {
            items.contains { item in
                switch item {
                case let .header(typed, _), let .emptyHeader(typed): typed.lowercased() == name
                default: false
                }
            }
        }
        if let credential = bearer ?? basic, !typedHeader("authorization") { items.append(credential) }
        if !cookies.isEmpty, !typedHeader("cookie") { items.append(.header(name: "Cookie", value: cookies.joined(separator: "; "))) }
        if let dataFile {
            guard !getWithData else { throw CommandError("curl's -G with -d @FILE: explorer does not read a file into the query: give its items as name==value", column: dataFile.column) }
            guard data.isEmpty else {
                throw CommandError("curl's -d @FILE with other data: explorer sends the file alone as the body", column: dataFile.column)
            }
            // curl's type for -d (a form's), or --json's; a -H Content-Type given replaces it.
            let json = words.contains { $0.text == "--json" || $0.text.hasPrefix("--json=") }
            items.append(.file(name: "", path: dataFile.path, contentType: json ? "application/json" : "application/x-www-form-urlencoded"))
        }
        if getWithData {
            // -G: the data goes on the URL's query as it is, as curl puts it there (before a fragment, which
            // curl does not send: after it, the data went with it).
            if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
            let query = data.joined(separator: "&")
            if !query.isEmpty { target += (target.hasSuffix("?") ? "" : target.contains("?") ? "&" : "?") + query }
        } else if !data.isEmpty {
            options.raw = data.joined(separator: "&")
            // curl's type for -d is a form's, without explorer's `; charset=utf-8`; a -H or --json type given replaces it.
            options.form = true
            if !typedHeader("content-type") { items.append(.header(name: "Content-Type", value: "application/x-www-form-urlencoded")) }
        }
        let hasFiles = items.contains { if case .file = $0 { return true }; return false }
        let resolved = method ?? (options.raw != nil || hasFiles || options.multipart ? "POST" : "GET")
        return .http(method: resolved, path: target, items: items, options: options)
    }

    /// The first `$NAME` or `${NAME}` in `text` whose name is in capitals, as
    /// environment variables are (`$PASSWORD`, `${API_TOKEN}`): nil for a
    /// `$5` or a `$ref` in a body.
    static func shellVariable(in text: String) -> String? {
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            var name = rest[rest.index(after: dollar)...]
            if name.first == "{" { name = name.dropFirst() }
            let word = name.prefix { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
            if word.count >= 2, let first = word.first, ("A"..."Z").contains(first) || first == "_", word.contains(where: { ("A"..."Z").contains($0) }) {
                return "$" + word
            }
            rest = rest[rest.index(after: dollar)...]
        }
        return nil
    }

    /// `-d @FILE`'s text as curl sends it: without its carriage returns, line
    /// feeds and NULs (the file's line ends were sent).
    private static func strippedFile(_ path: String, flag: String, column: Int, readFile: (String) throws -> [UInt8]) throws(CommandError) -> String {
        let bytes: [UInt8]
        do { bytes = try readFile(path) } catch {
            // Why, as an item's file says it (a replay's reader refuses a file outside the transcript's repository).
            let why = (error as? RequestBuilder.BuildError)?.message.components(separatedBy: "': ").dropFirst().joined(separator: "': ")
            throw CommandError("curl's \(flag) @\(CommandError.quotable(path)): cannot read the file" + (why.map { $0.isEmpty ? "" : ": \($0)" } ?? ""),
                               column: column)
        }
        guard let text = String(validating: bytes.filter { ![0x0D, 0x0A, 0x00].contains($0) }, as: UTF8.self) else {
            throw CommandError("curl's \(flag) @\(CommandError.quotable(path)): not text; --data-binary @FILE sends a file as it is", column: column)
        }
        return text
    }

    /// `--data-urlencode name=value`: the value percent-encoded, as curl does;
    /// `=content` is the content alone (its `=` was sent).
    private static func urlencode(_ text: String) -> String {
        if text.hasPrefix("=") { return RequestBuilder.formEncode(String(text.dropFirst())) }
        guard let eq = text.firstIndex(of: "=") else { return RequestBuilder.formEncode(text) }
        return String(text[...eq]) + RequestBuilder.formEncode(String(text[text.index(after: eq)...]))
    }
}
