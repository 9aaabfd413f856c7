import ArgumentParser
import Core
import Foundation

/// `explorer profile init NAME`: a starting profile file to edit, from an
/// OpenAPI document (its servers become environments, its security scheme
/// the auth) and/or a base URL.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Work with profile files (docs/profiles.md).",
        subcommands: [ProfileInitCommand.self, ProfileShowCommand.self]
    )
}

/// `explorer profile show NAME`: a profile's file, built-in ones included,
/// to read or to start one's own from.
struct ProfileShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print a profile's file: a built-in one, or one found by name or path.",
        discussion: """
        The built-in profiles are profile files compiled in; \
        explorer profile show linku > .explorer/profiles/mine.yaml starts one of your own \
        from LinkU's (give it another name: a built-in name is found first).
        """
    )

    @Argument(help: ArgumentHelp("A profile name or a profile file.", valueName: "name|file"),
              completion: .custom { words, _, _ in ConnectionOptions.profileNames(after: words) })
    var name: String

    @ParentCommand var root: ExplorerCommand

    func run() throws {
        try root.refuse("profile show")
        if let text = Profile.builtInFile(named: name) {
            Console().out(text.hasSuffix("\n") ? text : text + "\n")
            return
        }
        func refuse(_ message: String) -> ExitCode {
            Console().err("error: \(message)\n")
            return ExitCode(ExitStatus.parse.rawValue)
        }
        if name == Profile.generic.name {
            throw refuse("the generic profile (--base-url alone: no login, no catalog) is built in without a file; "
                         + "explorer profile init NAME --base-url URL writes one to start from")
        }
        let lookup = ProfileLookup(environment: Surroundings.current.environment)
        // Said as --profile says it: a directory, a dangling link or notes beside the profiles were all "no profile NAME",
        // next to a list that named them.
        if lookup.file(named: name) == nil, let other = lookup.notAProfile(named: name) {
            throw refuse("\(other) is not a profile file (its first field is not explorer-profile: 1)")
        }
        guard let path = lookup.file(named: name) ?? lookup.files().first(where: { $0.name == name })?.path else {
            let known = Profile.builtInNames.sorted() + lookup.files().map(\.name)
            throw refuse("no profile '\(name)'; there are \(known.joined(separator: ", "))")
        }
        // Its text is shown when it is a file that reads (not a FIFO, which waits for a writer, nor one past the limit),
        // then said unusable as --profile would say it: a check before use must not pass (it exited 0).
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) <= ProfileFile.maximumBytes,
           let data = FileManager.default.contents(atPath: path) {
            Console().out(String(decoding: data, as: UTF8.self))
        }
        do { _ = try ProfileFile.read(path) } catch { throw refuse(error.description) }
    }
}

struct ProfileInitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a starting profile file for a backend of your own, to edit.",
        discussion: """
        Writes .explorer/profiles/NAME.yaml (or --output FILE). With --from-spec, the OpenAPI document's \
        servers become environments, its security scheme the auth, and the document the catalog; \
        --base-url adds an environment named local. The file never holds a secret: it names it as \
        {{secret:token}}, filled in from EXPLORER_SECRET_TOKEN or asked for.
        """
    )

    @Argument(help: ArgumentHelp("The profile's name: letters, digits, - and _.", valueName: "name"))
    var name: String

    @Option(name: .customLong("from-spec"), help: ArgumentHelp("An OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML).", valueName: "file"),
            completion: .file())
    var spec: String?

    @Option(name: .long, help: ArgumentHelp("A base URL, as an environment named local.", valueName: "url"),
            transform: URLCheck.expandingBaseShorthand)
    var baseURL: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write it (default: .explorer/profiles/NAME.yaml).", valueName: "file"),
            completion: .file())
    var output: String?

    @Flag(name: .long, help: "Replace an existing file.")
    var force = false

    func validate() throws {
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw ValidationError("'\(name)' is not a profile name: use letters, digits, - and _")
        }
        // `--profile linku` finds the built-in one first: the file written would never be read.
        if Profile.named(name) != nil {
            throw ValidationError("'\(name)' is a built-in profile's name, which --profile \(name) finds first: give yours another (\(name)-staging)")
        }
        if let baseURL {
            if let reason = URLCheck.baseProblem(baseURL) { throw ValidationError(reason) }
        }
        // Here, not in run: thrown there, it came with explorer's whole usage instead of this command's.
        if spec == nil, baseURL == nil, root.connection.baseURL == nil {
            throw ValidationError("give --from-spec FILE, --base-url URL, or both: the profile needs at least one environment")
        }
    }

    @ParentCommand var root: ExplorerCommand

    func run() throws {
        // `--base-url` after `profile init` is read as explorer's own (see ConnectionOptions.givenNames).
        try root.refuse("profile init", except: ["--base-url"])
        let baseURL = self.baseURL ?? root.connection.baseURL
        let console = Console()
        func fail(_ message: String, _ status: ExitStatus = .parse) -> ExitCode {
            console.err("error: \(message)\n")
            return ExitCode(status.rawValue)
        }
        var imported: ImportedSpec?
        if let spec {
            do { imported = try SpecLoader.load(spec) } catch { throw fail(error.description) }
        }
        let path = output ?? ".explorer/profiles/\(name).yaml"
        // A folder: "--force replaces it" was said of it, and --force then failed with Foundation's words.
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw fail("\(path) is a folder: -o names the file to write (\(path)/\(name).yaml)", .usage)
        }
        // An API key's header named with characters no header name has (`X-Key: "v" #`) wrote a file that did not read back.
        if case let .apiKeyHeader(header)? = imported?.credential, HTTPHeader.invalidNameOffset(header) != nil {
            throw fail("\(spec ?? "the document")'s API key header '\(header)' is not a header name (letters, digits and !#$%&'*+-.^_`|~)")
        }
        if FileManager.default.fileExists(atPath: path), !force {
            throw fail("\(path) exists; --force replaces it", .usage)
        }
        let folder = PathText.folder(of: path)
        let text = Self.text(name: name, baseURL: baseURL.flatMap(URL.init(string:)), spec: imported,
                             specPath: spec.map { FilePaths.relative($0, from: folder) })
        guard !text.environments.isEmpty else {
            throw fail("\(spec ?? "the document") names no server with an absolute URL: give --base-url URL too")
        }
        do {
            if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            try Data(text.yaml.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw fail("cannot write \(path): \(error.localizedDescription)", .runtime)
        }
        let named = output == nil ? name : path
        // What the profile cannot carry over (a digest or mutual-TLS scheme wrote `kind: none` without a word).
        for note in imported?.notes ?? [] where SpecCatalog.changesWhatIsSent(note) { console.err("note: \(note)\n") }
        console.out("wrote \(path): \(text.environments.count == 1 ? "1 environment" : "\(text.environments.count) environments")"
                    + " (\(text.environments.joined(separator: ", "))), auth \(text.auth)\n"
                    + "Edit it (docs/profiles.md), then: explorer --profile \(named)\n")
    }

    /// The file's text, and what it says, for the summary line.
    static func text(name: String, baseURL: URL?, spec: ImportedSpec?, specPath: String?) -> (yaml: String, environments: [String], auth: String) {
        var environments: [(name: String, url: String)] = []
        if let baseURL { environments.append(("local", (spec?.placing(baseURL) ?? baseURL).absoluteString)) }
        let descriptions = spec?.serverDescriptions ?? []
        for (index, server) in (spec?.servers ?? []).enumerated() where server.host != nil && !environments.contains(where: { $0.url == server.absoluteString }) {
            let named = environmentName(server, description: index < descriptions.count ? descriptions[index] : nil)
            var label = named
            var n = 2
            while environments.contains(where: { $0.name == label }) {
                label = named + "\(n)"
                n += 1
            }
            environments.append((label, server.absoluteString))
        }
        // The safest first: the first environment is the default one.
        let rank = ["local": 0, "dev": 1, "test": 1, "sandbox": 1, "qa": 1, "staging": 2]
        environments = environments.enumerated().sorted { a, b in
            let (x, y) = (rank[a.element.name.trimmingCharacters(in: .decimalDigits)] ?? 3, rank[b.element.name.trimmingCharacters(in: .decimalDigits)] ?? 3)
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
        var lines = ["explorer-profile: 1", "name: \(name)", "display-name: \(displayName(spec?.title) ?? name)",
                     "environments:                # the first is the default; --env NAME picks another"]
        for environment in environments {
            lines += ["  \(environment.name):", "    base-url: \(environment.url)"]
        }
        let auth: String
        var credential = spec?.credential
        // An API key named Authorization (Kubernetes' BearerToken) means "Bearer <token>" in practice.
        if case let .apiKeyHeader(header)? = credential, header.lowercased() == "authorization" { credential = .bearer }
        switch credential {
        case .bearer?:
            auth = "bearer"
            lines += ["auth:", "  kind: bearer", "  token: \"{{secret:token}}\"   # from EXPLORER_SECRET_TOKEN, or asked for"]
        case let .apiKeyHeader(header)?:
            auth = "header \(header)"
            lines += ["auth:", "  kind: header", "  header: \(header)",
                      "  value: \"{{secret:api_key}}\"   # from EXPLORER_SECRET_API_KEY, or asked for"]
        case .basic?:
            auth = "basic"
            lines += ["auth:", "  kind: basic",
                      "  username: \"{{secret:username}}\"   # from EXPLORER_SECRET_USERNAME, or asked for; or write the name itself",
                      "  password: \"{{secret:password}}\"   # from EXPLORER_SECRET_PASSWORD, or asked for"]
        case let .apiKeyQuery(parameter)?:
            auth = "query \(parameter)"
            lines += ["auth:", "  kind: query", "  parameter: \(parameter)",
                      "  value: \"{{secret:api_key}}\"   # from EXPLORER_SECRET_API_KEY, or asked for"]
        case .unsupported?, nil:
            auth = "none"
            lines += ["auth:", "  kind: none   # or bearer (token:), header (header:, value:), basic (username:, password:), login (below)",
                      "# auth:               # an email and password login that hands out access and refresh tokens (docs/profiles.md)",
                      "#   kind: login",
                      "#   login-path: /auth/login",
                      "#   refresh-path: /auth/refresh",
                      "#   whoami-path: /users/me"]
        }
        lines += ["# errors:             # where an error body keeps its parts (JSON paths)",
                  "#   message: .message",
                  "#   code: .code"]
        if let specPath { lines.append("spec: \(specPath)") }
        return (lines.joined(separator: "\n") + "\n", environments.map(\.name), auth)
    }

    /// A document's title as a YAML value on one line: blanks and line ends
    /// made one space, quoted as JSON (which YAML reads) when YAML would
    /// read it otherwise (`API: v2`, `#1 API`, `"quoted"`, `true`).
    /// Nil when blank.
    static func displayName(_ title: String?) -> String? {
        // Without control and format characters: a downloaded document's escape codes set the
        // terminal's title and colours each time `explorer profiles` printed the name.
        let printable = title.map { String(String.UnicodeScalarView($0.unicodeScalars.filter { scalar in
            ![.control, .format].contains(scalar.properties.generalCategory) || scalar == "\t" || scalar == "\n"
        })) }
        guard let words = printable?.split(whereSeparator: \.isWhitespace), !words.isEmpty else { return nil }
        let line = String(words.joined(separator: " ").prefix(80))
        let plain = line.first!.isLetter && line.allSatisfy { $0.isLetter || $0.isNumber || " -_.()/".contains($0) }
            && !["true", "false", "yes", "no", "on", "off", "y", "n", "null"].contains(line.lowercased())
        return plain ? line : JSONPrinter.compact(.string(line))
    }

    /// What the server's `description` says it is (`Production server`,
    /// `Staging`), else `local` for a loopback server, `staging` or `dev`
    /// when the host says so, else `production`. Three loopback servers
    /// described production, staging and dev were `local`, `local2` and
    /// `local3`, production the default.
    static func environmentName(_ url: URL, description: String? = nil) -> String {
        if let description {
            let words = description.lowercased().split { !$0.isLetter }.map(String.init)
            let kinds: [(String, [String])] = [("production", ["production", "prod", "live"]), ("staging", ["staging", "stage"]),
                                                ("dev", ["dev", "development", "develop"]), ("test", ["test", "testing"]), ("sandbox", ["sandbox"]),
                                                ("qa", ["qa"]), ("local", ["local", "localhost"])]
            for (name, said) in kinds where words.contains(where: said.contains) { return name }
        }
        let host = url.host?.lowercased() ?? ""
        if host == "localhost" || host == "127.0.0.1" || host == "::1" { return "local" }
        for word in ["staging", "stage", "dev", "test", "sandbox", "qa"] where host.contains(word) { return word == "stage" ? "staging" : word }
        return "production"
    }
}
