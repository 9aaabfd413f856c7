import Foundation
import Yams

/// A backend of the user's own, described in a file (docs/profiles.md):
/// its environments, how it authenticates, how its errors look, and where
/// its OpenAPI document is. Read with every problem said in one line:
/// the file, the line (YAML) and the JSON path, and what was expected.
public struct ProfileFile: Sendable, Equatable {
    public static let version = 1

    public var path: String
    public var name: String
    public var displayName: String
    public var environments: [Environment]
    public var defaultEnvironment: String
    public var auth: Auth
    public var errors: ErrorFields?
    /// The OpenAPI document, as a path relative to the working directory.
    public var spec: String?
    public var secretFields: [String]
    /// The inline catalog (`enums`, `models`, `endpoints`), with or without a spec.
    public var catalog = Catalog()
    /// The socket (`websocket`), when the backend has one.
    public var webSocket: WebSocket?
    /// Accounts that exist on every deployment of the backend (its sandbox's
    /// seeds): offered by TAB after `login`, their passwords filled in on replay.
    public var demoAccounts: [DemoAccount] = []
    /// `pagination`: how `next` finds the next page, when the file says.
    public var pagination: Pagination?
    /// `headers:`: sent with every request to the backend, beside `auth`
    /// (Supabase's `apikey` beside a login); values are templates, secrets
    /// as `{{secret:NAME}}`.
    public var headers: [HTTPHeader] = []

    public struct Catalog: Sendable, Equatable {
        public var enums: [String: [String]] = [:]
        public var models: [Model] = []
        public var endpoints: [Endpoint] = []
    }

    public struct WebSocket: Sendable, Equatable {
        /// `/ws/chat/{userId}?token={accessToken}`: filled from the login.
        public var path: String
        public var reconcile: ReconcileEndpoints?
    }

    public struct DemoAccount: Sendable, Equatable {
        public var email: String
        public var password: String
    }

    public struct Environment: Sendable, Equatable {
        public var name: String
        public var baseURL: URL
        /// `websocket-url`, where it differs from the base URL's host (`wss://ws.example.com`).
        public var webSocketURL: URL?
    }

    /// How every request proves who sends it. Secret parts are templates
    /// (`{{secret:token}}`): the value comes from `EXPLORER_SECRET_TOKEN` or
    /// is asked for, never from the file.
    public enum Auth: Sendable, Equatable {
        case none
        /// `Authorization: Bearer <token>`.
        case bearer(token: String)
        /// Any header, with a value template (`token {{secret:token}}`).
        case header(name: String, value: String)
        /// `Authorization: Basic base64(username:password)`.
        case basic(username: String, password: String)
        /// A query parameter (`?api_key=…`), its value a template.
        case query(name: String, value: String)
        /// A login endpoint that answers with tokens, refreshed on a 401:
        /// `login EMAIL` asks for the password.
        case login(AuthFlavour)

        /// The header it sets, before secrets are filled in.
        public var header: (name: String, template: String)? {
            switch self {
            case .none, .login, .query: return nil
            case let .bearer(token): return ("Authorization", "Bearer " + token)
            case let .header(name, value): return (name, value)
            case let .basic(username, password): return ("Authorization", "Basic {{basic:\(username):\(password)}}")
            }
        }
    }

    public func environment(named name: String?) -> Environment? {
        environments.first { $0.name == (name ?? defaultEnvironment) }
    }

    /// The profile a session uses: no login flow, the file's error
    /// envelope (or the common shapes), its credential header always hidden.
    public var profile: Profile {
        var flow: AuthFlavour?
        if case let .login(found) = auth { flow = found }
        var profile = Profile(name: name, displayName: displayName, auth: flow,
                              errorEnvelope: errors.map(ErrorEnvelope.fields) ?? .generic, endpoints: catalog.endpoints,
                              demoAccounts: demoAccounts.map { ($0.email, $0.password) }, webSocketTemplate: webSocket?.path,
                              webSocketReconcile: webSocket?.reconcile, secretFields: secretFields)
        profile.declaredModels = catalog.models
        profile.pagination = pagination
        profile.enums = catalog.enums
        profile.environments = environments.map { ($0.name, $0.baseURL.absoluteString) }
        // Either place: a token typed when asked at start was said to come from the variable, which was not set.
        func from(_ template: String) -> String {
            "(from " + SecretTemplate.names(in: template).map(SecretResolver.environmentName).joined(separator: " and ") + ", or typed when asked)"
        }
        if let name = flow?.refreshTokenHeader { profile.secretHeaders.append(name) }
        if let header = auth.header {
            profile.secretHeaders = [header.name]
            profile.credentialSource = "the \(header.name) header \(from(header.template))"
        }
        if case let .query(name, value) = auth {
            profile.secretParameters = [name]
            profile.credentialSource = "the \(name) query parameter \(from(value))"
        }
        // A `headers:` value holding a secret is one wherever it shows, whatever its header is called.
        profile.secretHeaders += headers.filter { !SecretTemplate.names(in: $0.value).isEmpty }.map(\.name)
        return profile
    }
}

/// A profile file that cannot be used: where, and why, in one line.
public struct ProfileError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var path: String
    public var reason: String

    public init(file: String, line: Int?, path: String, reason: String) {
        self.file = file
        self.line = line
        self.path = path
        self.reason = reason
    }

    public var description: String {
        file + (line.map { ":\($0)" } ?? "") + ": " + (path.isEmpty ? "" : "at \(path): ") + reason
    }
}

/// `{{secret:NAME}}` in a profile's credential values, read by Core's one
/// scanner of them (`SecretResolver.replacingPlaceholders`).
public enum SecretTemplate {
    public static func names(in text: String) -> [String] { SecretResolver.placeholderNames(in: text) }

    /// The template with each secret filled in by `value`; the first name
    /// `value` has nothing for, when one is missing.
    public static func fill(_ template: String, _ value: (String) -> String?) -> Result<String, Missing> {
        var out: String
        do {
            out = try SecretResolver.replacingPlaceholders(in: template) { name throws(Missing) in
                guard let secret = value(name) else { throw Missing(name: name) }
                return secret
            }.text
        } catch {
            return .failure(error)
        }
        // `Basic` credentials: username:password, base64-encoded after the password is in.
        if let open = out.range(of: "{{basic:"), let close = out.range(of: "}}", range: open.upperBound..<out.endIndex) {
            let pair = String(out[open.upperBound..<close.lowerBound])
            out.replaceSubrange(open.lowerBound..<close.upperBound, with: Data(pair.utf8).base64EncodedString())
        }
        return .success(out)
    }

    public struct Missing: Error, Equatable {
        public let name: String
        public init(name: String) { self.name = name }
    }
}

extension ProfileFile {
    /// The largest profile file read: LinkU's, with 73 endpoints, is 25 KiB.
    public static let maximumBytes = 2 * 1024 * 1024

    /// Reads and checks a profile file, JSON or YAML.
    public static func read(_ path: String) throws(ProfileError) -> ProfileFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ProfileError(file: path, line: nil, path: "", reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw ProfileError(file: path, line: nil, path: "", reason: "it is a directory") }
        // A FIFO or a device in the profiles folder: `explorer profiles` waited on it for ever.
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            throw ProfileError(file: path, line: nil, path: "", reason: "not a regular file (a FIFO, a device or a socket)")
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maximumBytes {
            throw ProfileError(file: path, line: nil, path: "", reason: "\(size / 1024) KiB; a profile file is at most \(maximumBytes / 1024 / 1024) MiB "
                               + "(a large catalog belongs in its OpenAPI document: spec:)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ProfileError(file: path, line: nil, path: "", reason: "cannot read the file (permission denied?)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ProfileError(file: path, line: nil, path: "", reason: "not UTF-8 text")
        }
        return try parse(text, file: path)
    }

    /// Checks a profile file's text; `file` names it in problems and is
    /// where a relative `spec:` is found from.
    public static func parse(_ text: String, file: String) throws(ProfileError) -> ProfileFile {
        do { return try ProfileFile(ProfileDocument.parse(text, file: file), file: file) } catch {
            throw ProfileDocument.locating(error, in: text)
        }
    }

    private init(_ document: ProfileDocument, file: String) throws(ProfileError) {
        path = file
        let root = document.root
        let top = try root.object(["explorer-profile", "name", "display-name", "environments", "default-environment", "auth",
                                   "errors", "spec", "secret-fields", "enums", "models", "endpoints", "websocket", "demo-accounts", "pagination",
                                   "headers"])
        guard top.first?.key == "explorer-profile" else {
            throw root.problem("the first field must be explorer-profile: \(Self.version), the version of this format")
        }
        let version = try root.member("explorer-profile")!
        // Quoted as YAML writers often quote versions (`"1"`, as `openapi: "3.0.0"`): the same version.
        guard version.value.intValue == Self.version || version.value.stringValue == String(Self.version) else {
            throw version.problem("expected \(Self.version), the only version of this format so far")
        }
        let nameValue = try root.require("name")
        name = try nameValue.string()
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw nameValue.problem("a name is letters, digits, - and _ (it names the prompt and the token store)")
        }
        displayName = try root.member("display-name")?.string() ?? name

        let environmentsValue = try root.require("environments")
        environments = []
        for (key, value) in try environmentsValue.object(nil) {
            let members = try value.member("base-url")
            _ = try value.object(["base-url", "websocket-url"])
            guard let urlValue = members else { throw value.problem("missing base-url, as in: base-url: https://api.example.com") }
            let url = try Self.url(urlValue, schemes: ["http", "https"])
            if let reason = URLCheck.baseProblem(url.absoluteString) { throw urlValue.problem(reason) }
            let socket = try value.member("websocket-url").map { value throws(ProfileError) in try Self.url(value, schemes: ["ws", "wss"]) }
            environments.append(Environment(name: key, baseURL: url, webSocketURL: socket))
        }
        guard let first = environments.first else {
            throw environmentsValue.problem("at least one environment, as in: local: {base-url: http://127.0.0.1:8080}")
        }
        if let chosen = try root.member("default-environment") {
            let wanted = try chosen.string()
            let names = environments.map(\.name)
            guard names.contains(wanted) else {
                throw chosen.problem("no environment named '\(wanted)'; there are " + names.joined(separator: ", "))
            }
            defaultEnvironment = wanted
        } else {
            defaultEnvironment = first.name
        }

        if let value = try root.member("auth") { auth = try Self.auth(value) } else { auth = .none }
        if let value = try root.member("errors") { errors = try Self.errors(value) } else { errors = nil }
        if let specValue = try root.member("spec") {
            let given = try specValue.string()
            let folder = PathText.folder(of: file)
            spec = given.hasPrefix("/") || folder.isEmpty ? given : (folder as NSString).appendingPathComponent(given)
        }
        secretFields = try root.member("secret-fields")?.strings() ?? []
        catalog = try Self.catalog(root)
        webSocket = try root.member("websocket").map(Self.webSocket)
        if let path = webSocket?.path, path.contains("{userId}") || path.contains("{accessToken}") {
            guard case .login = auth else {
                throw try root.member("websocket")!.require("path").problem("{userId} and {accessToken} come from a login, and this profile's auth is not kind: login")
            }
        }
        demoAccounts = try root.member("demo-accounts").map(Self.demoAccounts) ?? []
        pagination = try root.member("pagination").map(Self.pagination)
        if let value = try root.member("headers") {
            for (key, header) in try value.object(nil) {
                let text = try header.string()
                guard !key.isEmpty, key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains($0) }) else {
                    throw header.problem("'\(key)' is not a header name (letters, digits and !#$%&'*+-.^_`|~)")
                }
                guard !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) else {
                    throw header.problem("a header's value holds no control characters")
                }
                headers.append(HTTPHeader(name: key, value: text))
            }
        }
    }

    /// An absolute URL with one of `schemes`.
    private static func url(_ value: ProfileDocument.Value, schemes: [String]) throws(ProfileError) -> URL {
        let text = try value.string()
        switch URLCheck.url(text, schemes: schemes) {
        case let .failure(problem): throw value.problem(problem.description)
        case let .success(url):
            // A password in the file would be a secret on disk: auth says where credentials come from.
            guard url.user == nil, url.password == nil else {
                throw value.problem("a URL in a profile carries no user or password: give them in auth, as in: kind: basic")
            }
            return url
        }
    }

    private static func auth(_ value: ProfileDocument.Value) throws(ProfileError) -> Auth {
        let kinds = ["none", "bearer", "header", "basic", "query", "login"]
        let kindValue = try value.require("kind")
        let kind = try kindValue.string()
        /// A credential value: must name its secret, so the secret stays out of the file.
        func secret(_ key: String, example: String) throws(ProfileError) -> String {
            let member = try value.require(key)
            let text = try member.string()
            let names = SecretTemplate.names(in: text)
            guard !names.isEmpty else {
                throw member.problem("a credential comes from the environment or is asked for, never from the file: write \(example)")
            }
            // The name becomes EXPLORER_SECRET_NAME: a shell must be able to set it.
            if let bad = names.first(where: { !SecretResolver.isSecretName($0) }) { throw member.problem(SecretResolver.badName(bad)) }
            return text
        }
        switch kind {
        case "none":
            _ = try value.object(["kind"])
            return .none
        case "bearer":
            _ = try value.object(["kind", "token"])
            let token = try secret("token", example: "token: \"{{secret:token}}\"")
            // The scheme is the kind's to write: "Bearer {{secret:token}}" went out as `Bearer Bearer …`.
            if let scheme = token.split(separator: " ").first, token.contains(" "), !scheme.contains("{{") {
                throw try value.require("token").problem(scheme.lowercased() == "bearer"
                    ? "kind: bearer writes 'Bearer ' itself: write token: \"{{secret:token}}\""
                    : "kind: bearer sends 'Bearer <token>': another scheme is kind: header, header: Authorization, value: \"\(token)\"")
            }
            return .bearer(token: token)
        case "header":
            _ = try value.object(["kind", "header", "value"])
            let nameValue = try value.require("header")
            let name = try nameValue.string()
            guard HTTPHeader.invalidNameOffset(name) == nil else { throw nameValue.problem("'\(name)' is not a header name") }
            return .header(name: name, value: try secret("value", example: "value: \"token {{secret:token}}\""))
        case "basic":
            _ = try value.object(["kind", "username", "password"])
            return .basic(username: try value.require("username").string(), password: try secret("password", example: "password: \"{{secret:password}}\""))
        case "query":
            _ = try value.object(["kind", "parameter", "value"])
            let name = try value.require("parameter").string()
            return .query(name: name, value: try secret("value", example: "value: \"{{secret:api_key}}\""))
        case "login":
            return .login(try loginFlow(value))
        default:
            throw kindValue.problem("expected one of \(kinds.joined(separator: ", "))")
        }
    }

    /// `kind: login`: where the login, refresh, logout and who-am-I
    /// endpoints are, and where the tokens and the user are in their answers.
    private static func loginFlow(_ value: ProfileDocument.Value) throws(ProfileError) -> AuthFlavour {
        _ = try value.object(["kind", "login-path", "email-field", "password-field", "access-token", "refresh-token", "user", "user-name",
                              "refresh-path", "refresh-token-field", "refresh-token-header", "refreshed-access-token", "refreshed-refresh-token",
                              "logout-path", "logout-sends-refresh-token", "whoami-path", "login-body", "login-fields", "refresh-fields"])
        func text(_ key: String, _ fallback: String? = nil) throws(ProfileError) -> String {
            guard let member = try value.member(key) else {
                guard let fallback else { throw value.problem("missing field '\(key)'") }
                return fallback
            }
            return try member.string()
        }
        func path(_ key: String, _ fallback: String?) throws(ProfileError) -> JSONPath? {
            guard let member = try value.member(key) else { return fallback.map(JSONPath.known) }
            let written = try member.string()
            do { return try JSONPath.parse(written) } catch { throw member.problem("'\(written)' is not a JSON path (\(error.reason)), as in: .tokens.access_token") }
        }
        func endpoint(_ key: String) throws(ProfileError) -> String {
            let member = try value.require(key)
            let written = try member.string()
            guard written.hasPrefix("/") else { throw member.problem("a path on the base URL starts with /, as in: /auth/login") }
            return written
        }
        func refreshHeader() throws(ProfileError) -> String? {
            guard let member = try value.member("refresh-token-header") else { return nil }
            let name = try member.string()
            guard HTTPHeader.invalidNameOffset(name) == nil else { throw member.problem("'\(name)' is not a header name") }
            return name
        }
        /// Constant fields beside the login's or refresh's own: no secret among them (it would be in the file).
        func fields(_ key: String) throws(ProfileError) -> [AuthFlavour.Field] {
            guard let member = try value.member(key) else { return [] }
            var fields: [AuthFlavour.Field] = []
            for (name, field) in try member.object(nil) {
                guard case let .string(text) = field.value else { throw field.problem("expected a string, not \(field.kind)") }
                if Redactor.isSecretName(name) || !SecretTemplate.names(in: text).isEmpty {
                    throw field.problem("these fields are sent as written in the file, where a secret cannot be: "
                                        + "a backend that wants one here (a client_secret) cannot be described by a profile yet")
                }
                fields.append(AuthFlavour.Field(name: name, value: text))
            }
            return fields
        }
        var sendsForm = false
        if let member = try value.member("login-body") {
            switch try member.string() {
            case "json": sendsForm = false
            case "form": sendsForm = true
            case let other: throw member.problem("'\(other)': expected json (the default) or form (as OAuth 2's token endpoint takes it)")
            }
        }
        var sendsRefreshToken = true
        if let member = try value.member("logout-sends-refresh-token") {
            guard case let .bool(flag) = member.value else { throw member.problem("expected true or false, not \(member.kind)") }
            sendsRefreshToken = flag
        }
        var flow = AuthFlavour(
            loginPath: try endpoint("login-path"), loginEmailField: try text("email-field", "email"),
            loginPasswordField: try text("password-field", "password"),
            accessTokenPath: try path("access-token", ".access_token")!, refreshTokenPath: try path("refresh-token", ".refresh_token")!,
            userPath: try path("user", ".user")!, userNameField: try text("user-name", "username"),
            refreshPath: try value.member("refresh-path") != nil ? try endpoint("refresh-path") : nil, refreshTokenField: try text("refresh-token-field", "refresh_token"),
            refreshedAccessTokenPath: try path("refreshed-access-token", ".access_token")!,
            refreshedRefreshTokenPath: try path("refreshed-refresh-token", nil),
            logoutPath: try value.member("logout-path") != nil ? try endpoint("logout-path") : nil,
            logoutSendsRefreshToken: sendsRefreshToken, whoAmIPath: try endpoint("whoami-path"),
            refreshTokenHeader: try refreshHeader())
        flow.sendsForm = sendsForm
        flow.loginFields = try fields("login-fields")
        flow.refreshFields = try fields("refresh-fields")
        return flow
    }

    private static func errors(_ value: ProfileDocument.Value) throws(ProfileError) -> ErrorFields {
        _ = try value.object(["message", "code", "details", "status", "fixed", "codes"])
        func path(_ key: String) throws(ProfileError) -> JSONPath? {
            guard let member = try value.member(key) else { return nil }
            let text = try member.string()
            do { return try JSONPath.parse(text) } catch { throw member.problem("'\(text)' is not a JSON path (\(error.reason)), as in: .error.message") }
        }
        guard let message = try path("message") else { throw value.problem("missing message, the JSON path of the error's message, as in: message: .message") }
        var codes: [String: String] = [:]
        if let table = try value.member("codes") {
            for (code, text) in try table.object(nil) { codes[code] = try text.string() }
        }
        var fixed: [(key: String, value: JSONValue)] = []
        if let members = try value.member("fixed") {
            fixed = try members.object(nil).map { ($0.key, $0.value.value) }
        }
        return ErrorFields(message: message, code: try path("code"), details: try path("details"), status: try path("status"),
                           fixed: fixed, codes: codes)
    }
}
