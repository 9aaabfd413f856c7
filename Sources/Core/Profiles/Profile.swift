import Foundation

/// A backend as data: how it authenticates, how its errors look, and its
/// endpoint catalog (docs/architecture.md, "A new profile field").
public struct Profile: Sendable {
    public var name: String
    public var displayName: String
    /// How the backend logs in and refreshes; nil when unknown (`generic`):
    /// `login` then says how to send credentials by hand.
    public var auth: AuthFlavour?
    public var errorEnvelope: ErrorEnvelope
    public var endpoints: [Endpoint] {
        didSet { lookup = EndpointLookup() }
    }
    /// `endpoints` by method and segment count, made when first asked.
    private(set) var lookup = EndpointLookup()
    /// Demo accounts the sandbox seeds (email, password).
    public var demoAccounts: [(email: String, password: String)]
    /// The WebSocket path, relative to the base URL, with `{userId}` and
    /// `{accessToken}` filled from the login (LinkU: `/ws/chat/{userId}?token={accessToken}`);
    /// nil when the backend has no socket.
    public var webSocketTemplate: String?
    /// Body fields that hold secrets (`access_token`, `tokens.access_token`,
    /// `password`): a transcript recording hides their values whatever they
    /// look like, opaque tokens included (docs/transcripts.md, "Secrets").
    public var secretFields: [String]
    /// Where REST tells what the socket missed, asked after a reconnect
    /// (`Reconciler`); nil when the backend has no such endpoints.
    public var webSocketReconcile: ReconcileEndpoints?
    /// The models the profile declares (a profile file's `models`): the
    /// answers its catalog names and the bodies it takes.
    public var declaredModels: [Model] = []
    /// Models imported with an OpenAPI document: when set, they are the
    /// profile's `models` in place of the built-in answers.
    public var importedModels: [Model]?
    /// Headers that carry this backend's credentials whatever their name
    /// (a profile file's `auth: header`): always hidden where shown.
    public var secretHeaders: [String] = []
    /// Query parameters that carry its credentials (`auth: query`): always hidden where shown.
    public var secretParameters: [String] = []
    /// How the backend authenticates when it is not a login flow, in a few
    /// words (`the Authorization header, from EXPLORER_SECRET_TOKEN`):
    /// what `login` and `whoami` say instead of posting anywhere.
    public var credentialSource: String?
    /// The deployments the backend's documents name (`--env NAME`), by the
    /// origin its catalog paths are joined to; the sandbox is the default.
    public var environments: [(name: String, baseURL: String)] = []
    /// The enums the profile declares (a profile file's `enums`), by name:
    /// the one place their values are written, for the sandbox as for TAB.
    public var enums: [String: [String]] = [:]
    /// How a list says where its next page is (a profile file's
    /// `pagination`); nil: `next` reads it off the answer as common APIs write it.
    public var pagination: Pagination?
    /// Where sockets connect when not beside the REST API (an environment's
    /// `websocket-url`): the template's path is joined to it, not to the base URL.
    public var webSocketBaseURL: URL?

    /// The base URL of the environment `name`, if the profile has it.
    public func environment(named name: String) -> URL? {
        environments.first { $0.name == name }.flatMap { URL(string: $0.baseURL) }
    }

    public init(name: String, displayName: String, auth: AuthFlavour?, errorEnvelope: ErrorEnvelope,
                endpoints: [Endpoint], demoAccounts: [(email: String, password: String)], webSocketTemplate: String? = nil,
                webSocketReconcile: ReconcileEndpoints? = nil, secretFields: [String] = []) {
        // Where the login and the refresh put the tokens is secret whatever
        // the fields are called (`.data.tokens.access`): hidden as `access_token` is.
        self.secretFields = secretFields + (auth?.tokenFields ?? []).filter { !secretFields.contains($0) }
        self.name = name
        self.displayName = displayName
        self.auth = auth
        self.errorEnvelope = errorEnvelope
        self.endpoints = endpoints
        self.demoAccounts = demoAccounts
        self.webSocketTemplate = webSocketTemplate
        self.webSocketReconcile = webSocketReconcile
    }

    /// Whether a `method` request to `path` goes without an Authorization
    /// header: a public endpoint has that method and that path exactly.
    /// The method matters: `GET /api/forum/posts` is public, `POST` to the
    /// same path needs the token. (001's `contains` check would also make
    /// `/api/forum/posts/7/replies` public; we do not.) HEAD is asked as GET.
    public func isPublic(method: String, path: String) -> Bool {
        let bare = Endpoint.bare(path)
        let trimmed = bare.utf8.count > 1 && bare.hasSuffix("/") ? String(bare.dropLast()) : bare
        let concrete = Endpoint.segments(of: trimmed)
        let upper = method.uppercased()
        let asked = upper == "HEAD" ? "GET" : upper
        return lookup.candidates(method: asked, segments: concrete.count, in: endpoints).contains {
            endpoints[$0].isPublic && endpoints[$0].matches(segments: concrete)
        }
    }

    /// Built-in profiles by name: the four backends the sandbox serves, read
    /// from the profile files compiled into the binary (`BuiltIn/*.yaml`),
    /// with the deployments their seeds list. Those URLs are origins: the
    /// catalogs' paths carry the prefix (`/api/v1/…` for posture, `/api/…`
    /// for Level Up), so a seed's `https://api.beidao-posture.com/api/v1` is not doubled.
    ///
    /// Each is read the first time it is asked for: a session against one
    /// backend reads one file.
    public static func builtIn(named name: String) -> Profile? {
        switch name {
        case "linku": linku
        case "nova": nova
        case "levelup": levelup
        case "posture": posture
        default: nil
        }
    }

    /// The text of a built-in profile's file, as compiled in: where a
    /// profile of one's own can start (`explorer profile show linku`).
    public static func builtInFile(named name: String) -> String? {
        BuiltInProfiles.files.first { $0.name == name }.map { String(decoding: $0.text, as: UTF8.self) }
    }

    /// The built-in profiles' names, in the order `explorer profiles` lists them.
    public static let builtInNames = BuiltInProfiles.files.map(\.name)

    /// Every built-in profile, by name.
    public static var builtIn: [String: Profile] {
        Dictionary(uniqueKeysWithValues: builtInNames.map { ($0, builtIn(named: $0)!) })
    }

    public static let linku = BuiltInProfiles.load("linku")
    public static let nova = BuiltInProfiles.load("nova")
    public static let levelup = BuiltInProfiles.load("levelup")
    public static let posture = BuiltInProfiles.load("posture")

    /// A backend explorer knows nothing of: the profile of `--base-url` without
    /// `--profile`. No login flow, no catalog (a `--spec` can bring one), the
    /// error shapes common frameworks use. Any server is not LinkU.
    public static let generic = Profile(name: "generic", displayName: "HTTP API", auth: nil, errorEnvelope: .generic,
                                        endpoints: [], demoAccounts: [])

    /// A profile by name: a built-in one or `generic`.
    public static func named(_ name: String) -> Profile? {
        name == generic.name ? generic : builtIn(named: name)
    }

    /// Every name `named` knows, for messages and completion.
    public static var names: [String] { builtInNames.sorted() + [generic.name] }
}

/// How a backend pages its lists, as a profile file declares it.
public enum Pagination: Sendable, Equatable {
    /// The answer's cursor at `next` goes back in the query parameter
    /// `parameter`; null, empty or absent: the last page.
    case cursor(next: JSONPath, parameter: String)
    /// The query parameter `parameter` counts pages from 1; `size` names
    /// the page size parameter and `total` where the answer has the count.
    case page(parameter: String, size: String?, total: JSONPath?)
    /// The query parameter `parameter` counts items from 0, `limit` how many
    /// a page has; the total is at `total` or in the answer's `Content-Range`.
    case offset(parameter: String, limit: String, total: JSONPath?)
}

/// How a backend logs in and refreshes. Paths are relative to the base URL;
/// token locations are JSON paths into the response bodies.
public struct AuthFlavour: Sendable, Equatable {
    public var loginPath: String
    public var loginEmailField: String
    public var loginPasswordField: String
    public var accessTokenPath: JSONPath
    public var refreshTokenPath: JSONPath
    /// Where the user object is in the login answer (for the prompt and `whoami`).
    public var userPath: JSONPath
    /// Member of the user object shown in the prompt.
    public var userNameField: String
    /// Nil when the backend has no refresh (an OAuth 2 password grant often
    /// has none): a 401 then ends the login.
    public var refreshPath: String?
    public var refreshTokenField: String
    /// Whether the login and refresh send their fields as a form
    /// (`application/x-www-form-urlencoded`, as OAuth 2's token endpoint
    /// takes them) rather than JSON.
    public var sendsForm = false
    /// Fields sent beside the email and password (`grant_type: password`,
    /// `client_id`), and beside the refresh token (`grant_type: refresh_token`).
    public var loginFields: [Field] = []
    public var refreshFields: [Field] = []

    /// A constant field a login or refresh sends.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }
    /// When set, the refresh sends the refresh token in this header instead
    /// of the body: `Authorization` as `Bearer <token>`, any other header as
    /// the token alone (Flask-JWT-Extended and others read it there).
    public var refreshTokenHeader: String?
    /// Where the new tokens are in the refresh answer.
    public var refreshedAccessTokenPath: JSONPath
    public var refreshedRefreshTokenPath: JSONPath?
    public var logoutPath: String?
    /// Whether logout sends `{refreshTokenField: token}` (LinkU) or only the header (Nova).
    public var logoutSendsRefreshToken: Bool
    public var whoAmIPath: String

    /// The token fields as `secretFields` names them (`data.tokens.access`):
    /// the login's and the refresh's answers, and the refresh's request field.
    public var tokenFields: [String] {
        var fields: [String] = []
        for path in [accessTokenPath, refreshTokenPath, refreshedAccessTokenPath] + (refreshedRefreshTokenPath.map { [$0] } ?? []) {
            let keys = path.components.compactMap { if case let .key(name) = $0 { name } else { nil } }
            let field = keys.joined(separator: ".")
            if !keys.isEmpty, !fields.contains(field) { fields.append(field) }
        }
        if !refreshTokenField.isEmpty, !fields.contains(refreshTokenField) { fields.append(refreshTokenField) }
        return fields
    }

    public init(loginPath: String, loginEmailField: String, loginPasswordField: String, accessTokenPath: JSONPath,
                refreshTokenPath: JSONPath, userPath: JSONPath, userNameField: String, refreshPath: String?,
                refreshTokenField: String, refreshedAccessTokenPath: JSONPath, refreshedRefreshTokenPath: JSONPath?,
                logoutPath: String?, logoutSendsRefreshToken: Bool = true, whoAmIPath: String, refreshTokenHeader: String? = nil) {
        self.loginPath = loginPath
        self.loginEmailField = loginEmailField
        self.loginPasswordField = loginPasswordField
        self.accessTokenPath = accessTokenPath
        self.refreshTokenPath = refreshTokenPath
        self.userPath = userPath
        self.userNameField = userNameField
        self.refreshPath = refreshPath
        self.refreshTokenField = refreshTokenField
        self.refreshedAccessTokenPath = refreshedAccessTokenPath
        self.refreshedRefreshTokenPath = refreshedRefreshTokenPath
        self.logoutPath = logoutPath
        self.logoutSendsRefreshToken = logoutSendsRefreshToken
        self.whoAmIPath = whoAmIPath
        self.refreshTokenHeader = refreshTokenHeader
    }
}

extension Profile {
    /// The models of this profile, for `describe` and the drift check: a
    /// loaded OpenAPI document's, or those it declares with the bodies its
    /// catalog takes.
    public var models: [Model] {
        if let importedModels { return importedModels }
        var seen = Set(declaredModels.map(\.name))
        return declaredModels + endpoints.compactMap(\.body).filter { seen.insert($0.name).inserted }
    }

    /// The values of a declared enum; a name the profile does not declare is
    /// a defect of the caller (the sandbox asks for its own backend's).
    public func values(of enumeration: String) -> [String] {
        guard let values = enums[enumeration] else { preconditionFailure("the \(name) profile declares no enum \(enumeration)") }
        return values
    }

    /// A model by name, case-insensitively.
    public func model(named name: String) -> Model? {
        models.first { $0.name.lowercased() == name.lowercased() }
    }
}

extension JSONPath {
    /// For paths written in source code, known to be valid.
    public static func known(_ text: String) -> JSONPath {
        do { return try JSONPath.parse(text) } catch { preconditionFailure("bad built-in path \(text): \(error)") }
    }
}

extension AuthFlavour {
    /// A refresh answer in this backend's shape, the tokens where the
    /// session reads them: for a server of ours that makes one up (`explorer mock`).
    public func refreshAnswer(accessToken: String, refreshToken: String) -> JSONValue {
        // A rotated refresh token where the session reads one (`refreshed-refresh-token`, else where the
        // login's was): without it, an app that replaces its refresh token held none after the first refresh.
        JSONValue.object([]).setting(refreshedAccessTokenPath, to: .string(accessToken))
            .setting(refreshedRefreshTokenPath ?? refreshTokenPath, to: .string(refreshToken))
    }
}
