import Foundation
import Core

/// Which parts of an exchange are printed: HTTPie's `--print` letters.
struct PrintParts: OptionSet, Sendable, Hashable {
    let rawValue: Int
    /// `H`: the request line and headers.
    static let requestHeaders = PrintParts(rawValue: 1)
    /// `B`: the request body.
    static let requestBody = PrintParts(rawValue: 2)
    /// `h`: the response's status line and headers.
    static let responseHeaders = PrintParts(rawValue: 4)
    /// `b`: the response body.
    static let responseBody = PrintParts(rawValue: 8)
    /// The status line alone (with the time taken): what a line shows above
    /// the body when it does not choose its parts. No letter: `-p b` (`-b`)
    /// prints the body alone, as HTTPie does, so it pipes into jq.
    static let statusLine = PrintParts(rawValue: 16)
    /// `-o -`: into a pipe, the body's bytes as they came (as `-o FILE`
    /// writes them, and curl), not the JSON shown again, indented.
    static let asItCame = PrintParts(rawValue: 32)

    /// The status line and the body: what an answer shows unless a line says otherwise.
    static let plain: PrintParts = [.statusLine, .responseBody]

    /// `-v`: everything.
    static let verbose: PrintParts = [.requestHeaders, .requestBody, .responseHeaders, .responseBody]

    /// Parses `HBhb` letters; nil when a letter is not one of them.
    init?(letters: String) {
        var parts: PrintParts = []
        for letter in letters {
            switch letter {
            case "H": parts.insert(.requestHeaders)
            case "B": parts.insert(.requestBody)
            case "h": parts.insert(.responseHeaders)
            case "b": parts.insert(.responseBody)
            default: return nil
            }
        }
        guard !parts.isEmpty else { return nil }
        self = parts
    }

    init(rawValue: Int) { self.rawValue = rawValue }

    /// The `--print` letters for these parts.
    var letters: String {
        [(PrintParts.requestHeaders, "H"), (.requestBody, "B"), (.responseHeaders, "h"), (.responseBody, "b")]
            .filter { contains($0.0) }.map(\.1).joined()
    }

    /// What a line prints when it says nothing: the body, and the headers
    /// too for HEAD and OPTIONS, whose answers are their headers.
    static func standard(for method: String) -> PrintParts {
        method == "HEAD" || method == "OPTIONS" ? [.responseHeaders, .responseBody] : .plain
    }
}

/// The flags of a request line, HTTPie's names: `--offline`, `--follow`
/// (`-F`), `--max-redirects N`, `--timeout SECONDS`, `--form` (`-f`),
/// `--raw TEXT`, `--print WHAT` (`-p`), `--verbose` (`-v`), `--headers`
/// (`-h`), `--body` (`-b`). Nil members mean "not said on this line".
struct RequestOptions: Sendable, Equatable {
    var offline = false
    var follow: Bool?
    var maxRedirects: Int?
    /// Seconds, from 0.001 to 3600.
    var timeout: Double?

    /// `timeout` as the transport takes it.
    var timeoutDuration: Duration? { timeout.map { .milliseconds(Int(($0 * 1000).rounded())) } }
    var form = false
    /// `--json`: fields as JSON on this line, a session's `defaults --form` notwithstanding.
    var json = false
    /// `--multipart`: fields as multipart form data, files or not (HTTPie's; curl's -F).
    var multipart = false
    var raw: String?
    var print: PrintParts?
    /// Send even when the catalog says the body's types are wrong.
    var force = false
    /// `-o FILE`: the answer's body goes to this file, not to the screen.
    var output: String?
    /// Print the request as a curl command instead of sending it.
    var curl = false
    /// `--download` (`-d`): the body to a file as it comes (named by `-o`, the answer or the URL).
    var download = false
    /// `--auth USER:PASSWORD` (`-a`), HTTPie's: the line's credential, sent
    /// as Basic, or as a bearer token with `--auth-type bearer` (`-A`). The
    /// parser turns it into the line's `Authorization` header.
    var auth: LineTokenizer.Word?
    var authType: String?
    /// `--verify yes|no|CA_FILE`.
    var verify: TLSOptions.Verify?
    /// `--cert FILE`, `--cert-key FILE`: a client certificate (PEM).
    var certificate: String?
    var certificateKey: String?

    /// The TLS flags as the transport takes them; nil when none was given.
    var tls: TLSOptions? {
        guard verify != nil || certificate != nil else { return nil }
        return TLSOptions(verify: verify ?? .system, certificate: certificate, key: certificateKey)
    }

    /// Every flag with whether it takes a value, for the parser, help and TAB.
    static let flags: [(names: [String], value: String?, help: String)] = [
        (["--offline"], nil, "print the request instead of sending it"),
        (["--follow", "-F"], nil, "follow redirects (3xx with a Location)"),
        (["--no-follow"], nil, "do not follow redirects on this line, whatever defaults says"),
        (["--max-redirects"], "N", "follow at most N redirects (30)"),
        (["--timeout"], "SECONDS", "give up when the server goes quiet for SECONDS (30): nothing answered, nothing more taken or sent; a stream, only when given"),
        (["--form", "-f"], nil, "send fields as application/x-www-form-urlencoded"),
        (["--json", "-j"], nil, "send fields as JSON (the default) on this line, whatever defaults says"),
        (["--multipart"], nil, "send fields as multipart/form-data, with or without files"),
        (["--raw"], "TEXT", "send TEXT as the whole body"),
        (["--print", "-p"], "WHAT", "print H request headers, B request body, h response headers, b response body"),
        (["--verbose", "-v"], nil, "print the request and the whole response (-p HBhb)"),
        (["--headers", "-h"], nil, "print the response headers only (-p h)"),
        (["--body", "-b"], nil, "print the response body only (-p b)"),
        (["--force"], nil, "send even when the catalog says a body field has the wrong type; -o replaces a file that is there"),
        (["--output", "-o"], "FILE", "save the answer's body in FILE (a new file) instead of printing it"),
        (["--download", "-d"], nil, "write the body to a file as it comes, any size, named by -o, the answer or the URL; follows redirects"),
        (["--curl"], nil, "print the request as a curl command (secrets as $VARIABLES) instead of sending it"),
        (["--auth", "-a"], "USER:PASSWORD", "send Basic authentication (with -A bearer, a TOKEN), to this line's host only"),
        (["--auth-type", "-A"], "basic|bearer", "how --auth is sent: basic (the default) or bearer"),
        (["--verify"], "yes|no|CA_FILE", "check the server's certificate against the system's CAs (yes), a CA file, or not at all (no)"),
        (["--cert"], "FILE", "a client certificate (PEM), with its key unless --cert-key names another file"),
        (["--cert-key"], "FILE", "the client certificate's private key (PEM)"),
    ]

    static var flagNames: [String] { flags.flatMap(\.names) }

    /// Reads one flag (and its value, from `=VALUE` or the next word).
    /// Returns how many words it took; throws with a column on a bad value.
    /// `locateFile`: where a TLS flag's file is (`CommandParser.locateFile`).
    mutating func read(_ words: [LineTokenizer.Word], at index: Int,
                       locateFile: (String) throws -> String = RequestBuilder.expandingHome) throws(CommandError) -> Int {
        let word = words[index]
        var (name, inline) = Self.split(word.text)
        var valueStart = name.count + 1
        // A short option's value written straight after it, as HTTPie (argparse) and curl take it: `-pHh`, `-oout.json`.
        if !name.hasPrefix("--"), name.count > 2, !Self.flagNames.contains(name),
           Self.flags.contains(where: { $0.value != nil && $0.names.contains(String(name.prefix(2))) }) {
            (name, inline, valueStart) = (String(name.prefix(2)), String(name.dropFirst(2)), 2)
        }
        guard let flag = Self.flags.first(where: { $0.names.contains(name) }) else {
            var message = "unknown option '\(CommandError.quotable(word.text))'"
            // Every short option is one letter from any other: `-x` was asked "did you mean '-F'?". A short
            // one is offered only in the other case (`-V` for `-v`); a long one when near in its length.
            let near = name.count == 2 ? Self.flagNames.first { $0.count == 2 && $0 != name && $0.lowercased() == name.lowercased() }
                : nearest(to: name.lowercased(), in: Self.flagNames.filter { $0.count > 2 }) { distance, _ in distance <= min(2, max(1, name.count / 3)) }
            if let near { message += "; did you mean '\(near)'?" }
            throw CommandError(message + " (help get lists the options)", column: word.start)
        }
        var taken = 1
        var value: LineTokenizer.Word?
        if flag.value != nil {
            if inline != nil {
                value = word.dropping(valueStart)
            } else if index + 1 < words.count {
                value = words[index + 1]
                taken = 2
            } else {
                throw CommandError("\(name) needs \(flag.value!), as in: \(name) \(Self.example(flag.names[0]))", column: word.start)
            }
        } else if inline != nil {
            throw CommandError("\(name) takes no value", column: word.start)
        }
        switch flag.names[0] {
        case "--offline": offline = true
        case "--follow": follow = true
        // HTTPie's negation: a session's `defaults --follow` undone for one line (`--max-redirects 0` made the 3xx an error).
        case "--no-follow": follow = false
        case "--max-redirects":
            guard let n = Int(value!.text), (0...100).contains(n) else {
                throw CommandError("--max-redirects needs a whole number from 0 to 100", column: value!.start)
            }
            // Counts the redirects --follow follows; alone it follows none (HTTPie, xh and curl's --max-redirs alike).
            maxRedirects = n
        case "--timeout":
            guard let seconds = Double(value!.text), seconds >= 0.001, seconds <= 3600 else {
                throw CommandError("--timeout needs seconds from 0.001 to 3600, as in: --timeout 2.5", column: value!.start)
            }
            timeout = seconds
        case "--form", "--json":
            // As HTTPie's: one or the other.
            if flag.names[0] == "--form" ? json : form { throw CommandError("--form and --json say two ways to send the fields: give one", column: word.start) }
            if flag.names[0] == "--form" { form = true } else { json = true }
        case "--multipart": multipart = true
        case "--raw": raw = value!.text
        case "--print":
            guard let parts = PrintParts(letters: value!.text) else {
                throw CommandError("--print takes letters of HBhb (H request headers, B request body, h response headers, b response body)",
                                   column: value!.start)
            }
            print = parts
        case "--verbose": print = .verbose
        case "--headers": print = .responseHeaders
        case "--body": print = .responseBody
        case "--force": force = true
        case "--output" where value!.text == "-":
            // Standard output, as curl and HTTPie read `-o -` (it wrote a file named `-`): the body alone, as -b,
            // and into a pipe its bytes as they came, as -o FILE writes them (a checksum of it differed from curl's).
            (output, print) = (nil, [.responseBody, .asItCame])
        case "--output":
            // `-o ''` was sent, then its answer had nowhere to go.
            guard !value!.text.isEmpty else { throw CommandError("-o needs a file name (or - for standard output)", column: value!.start) }
            output = value!.text
        case "--curl": curl = true
        case "--download": download = true
        case "--auth": auth = value!
        case "--auth-type":
            let type = value!.text.lowercased()
            guard ["basic", "bearer"].contains(type) else {
                throw CommandError("--auth-type takes basic or bearer, not '\(value!.text)'", column: value!.start)
            }
            authType = type
        case "--verify", "--cert", "--cert-key":
            do throws(TLSFlagProblem) {
                try setTLS(flag.names[0], value!.text, locateFile: locateFile)
            } catch {
                throw CommandError(error.message, column: value!.start)
            }
        default: break
        }
        return taken
    }

    /// The `Authorization` header `--auth` and `--auth-type` make, taking
    /// them out of the options; nil when the line has no `--auth`.
    mutating func takeAuthorization(line: [LineTokenizer.Word]) throws(CommandError) -> RequestItem? {
        defer { auth = nil; authType = nil }
        guard let word = auth else {
            if authType != nil {
                throw CommandError("--auth-type says how --auth is sent: give -a USER:PASSWORD (or -A bearer -a TOKEN)",
                                   column: line.first { ["-A", "--auth-type"].contains(Self.split($0.text).0) }?.start ?? 0)
            }
            return nil
        }
        if authType == "bearer" { return .header(name: "Authorization", value: "Bearer " + word.text) }
        guard let credentials = BasicCredentials(pair: word.text) else {
            throw CommandError("--auth takes USER:PASSWORD (or -A bearer -a TOKEN); the explorer does not ask for a password here",
                               column: word.start)
        }
        return .header(name: "Authorization", value: credentials.authorization)
    }

    /// Why a TLS flag's value cannot be taken: what it should be.
    struct TLSFlagProblem: Error {
        let message: String
    }

    /// `--verify`, `--cert` or `--cert-key` with its value, here and on
    /// explorer's own command line (`ConnectionSettings.requestDefaults`).
    /// `locateFile` says where its file is, or why it is not read (a replay's:
    /// a transcript sent `~/.ssl/client.pem` as its client certificate to a server of its choosing).
    mutating func setTLS(_ name: String, _ value: String,
                         locateFile: (String) throws -> String = RequestBuilder.expandingHome) throws(TLSFlagProblem) {
        let path: String
        if name == "--verify", ["yes", "true", "no", "false"].contains(value.lowercased()) {
            path = value
        } else {
            do { path = try locateFile(value) } catch { throw TLSFlagProblem(message: "\(name): \(error)") }
        }
        if name == "--verify" {
            switch value.lowercased() {
            case "yes", "true": verify = .system
            case "no", "false": verify = TLSOptions.Verify.none
            default:
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw TLSFlagProblem(message: "--verify takes yes, no, or a CA file (PEM) that can be read; \(value) cannot")
                }
                verify = .authorities(path)
            }
            return
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw TLSFlagProblem(message: "\(name) needs a PEM file that can be read; \(value) cannot")
        }
        if name == "--cert" { certificate = path } else { certificateKey = path }
    }

    /// Why the TLS flags of one line (or of `defaults`) cannot be used, or
    /// nil: each file read as NIOSSL will read it, and the key checked
    /// against its certificate. A `--cert-key` alone is left to the
    /// request: the certificate may be in the session's `defaults`.
    var tlsProblem: String? { tls?.problem }

    /// Where the first TLS flag of `words` is, for the caret under `tlsProblem`.
    static func tlsFlagColumn(in words: [LineTokenizer.Word]) -> Int? {
        words.first { word in ["--verify", "--cert", "--cert-key"].contains(split(word.text).0) }?.start
    }

    /// Flags that make sense for a session (`defaults`): the others are about one line.
    static let sessionFlags: Set<String> = ["--follow", "--max-redirects", "--timeout", "--form", "--print", "--verbose", "--headers", "--body",
                                            "--verify", "--cert", "--cert-key"]

    /// This line's options, with what it does not say taken from the session's defaults.
    func over(_ defaults: RequestOptions) -> RequestOptions {
        var merged = self
        merged.follow = follow ?? defaults.follow
        merged.maxRedirects = maxRedirects ?? defaults.maxRedirects
        merged.timeout = timeout ?? defaults.timeout
        merged.print = print ?? defaults.print
        merged.form = !json && (form || defaults.form)
        merged.verify = verify ?? defaults.verify
        merged.certificate = certificate ?? defaults.certificate
        merged.certificateKey = certificateKey ?? defaults.certificateKey
        return merged
    }

    /// The session flags set here, as they would be typed (`--follow --timeout 5 -p hb`).
    var sessionFlagsText: String {
        var words: [String] = []
        if follow == true { words.append("--follow") }
        if let maxRedirects { words.append("--max-redirects \(maxRedirects)") }
        if let timeout { words.append("--timeout " + (timeout == timeout.rounded() ? "\(Int(timeout))" : "\(timeout)")) }
        if form { words.append("--form") }
        if let print { words.append("--print " + print.letters) }
        switch verify {
        case .none?: words.append("--verify no")
        case let .authorities(path)?: words.append("--verify " + path)
        case .system?: words.append("--verify yes")
        case nil: break
        }
        if let certificate { words.append("--cert " + certificate) }
        if let certificateKey { words.append("--cert-key " + certificateKey) }
        return words.joined(separator: " ")
    }

    private static func split(_ text: String) -> (String, String?) {
        guard text.hasPrefix("--"), let eq = text.firstIndex(of: "=") else { return (text, nil) }
        return (String(text[..<eq]), String(text[text.index(after: eq)...]))
    }

    private static func example(_ name: String) -> String {
        switch name {
        case "--max-redirects": return "5"
        case "--timeout": return "2.5"
        case "--auth": return "alice:PASSWORD"
        case "--auth-type": return "bearer"
        case "--raw": return "'{\"a\": 1}'"
        case "--output": return "answer.json"
        case "--verify": return "no"
        case "--cert", "--cert-key": return "client.pem"
        default: return "hb"
        }
    }
}
