import Core
import Foundation
import Sandbox
import Testing
@testable import Explorer

/// Profile files (docs/profiles.md): a backend of the user's own as data,
/// and every mistake in one in one line, with where and what was expected.
@Suite struct ProfileFileTests {
    static let yaml = """
    explorer-profile: 1
    name: gitea
    display-name: Gitea
    environments:
      local:
        base-url: http://127.0.0.1:3000/api/v1
      staging:
        base-url: https://staging.example.com/api/v1
    default-environment: staging
    auth:
      kind: header
      header: Authorization
      value: "token {{secret:token}}"
    errors:
      message: .message
      code: .code
      codes:
        NOT_FOUND: no such thing here
    spec: openapi.yaml
    secret-fields: [sha]
    """

    func write(_ text: String, _ ext: String = "yaml") throws -> String {
        let folder = try Scratch.folder("profiles")
        let path = folder.appendingPathComponent("p.\(ext)").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func problem(_ text: String, _ ext: String = "yaml") throws -> String {
        let path = try write(text, ext)
        do {
            _ = try ProfileFile.read(path)
            Issue.record("read without a problem")
            return ""
        } catch {
            #expect(error.file == path)
            return String(error.description.dropFirst(path.count))
        }
    }

    @Test func aYAMLProfileReadsWithItsEnvironmentsAuthErrorsAndSpec() throws {
        let path = try write(Self.yaml)
        let file = try ProfileFile.read(path)
        #expect(file.name == "gitea" && file.displayName == "Gitea")
        #expect(file.environments.map(\.name) == ["local", "staging"])
        #expect(file.environment(named: nil)?.baseURL.absoluteString == "https://staging.example.com/api/v1")
        #expect(file.environment(named: "local")?.baseURL.port == 3000)
        #expect(file.environment(named: "prod") == nil)
        #expect(file.auth == .header(name: "Authorization", value: "token {{secret:token}}"))
        #expect(file.spec == ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("openapi.yaml"))
        let profile = file.profile
        #expect(profile.auth == nil && profile.secretHeaders == ["Authorization"] && profile.secretFields == ["sha"])
        #expect(profile.credentialSource == "the Authorization header (from EXPLORER_SECRET_TOKEN, or typed when asked)")
        let body = try JSONParser.parse(#"{"message":"raw","code":"NOT_FOUND"}"#)
        #expect(profile.errorEnvelope.describe(status: 404, body: body) == "404 NOT_FOUND: no such thing here")
    }

    @Test func theSameProfileInJSON() throws {
        let json = """
        {"explorer-profile": 1, "name": "api", "environments": {"dev": {"base-url": "http://127.0.0.1:8080"}},
         "auth": {"kind": "bearer", "token": "{{secret:api_token}}"}}
        """
        let file = try ProfileFile.read(try write(json, "json"))
        #expect(file.defaultEnvironment == "dev" && file.displayName == "api")
        #expect(file.auth.header?.name == "Authorization" && file.auth.header?.template == "Bearer {{secret:api_token}}")
    }

    @Test func aQueryParameterCredential() throws {
        let json = """
        {"explorer-profile": 1, "name": "keyed", "environments": {"dev": {"base-url": "http://127.0.0.1:8080"}},
         "auth": {"kind": "query", "parameter": "api_key", "value": "{{secret:api_key}}"}}
        """
        let file = try ProfileFile.read(try write(json, "json"))
        #expect(file.auth == .query(name: "api_key", value: "{{secret:api_key}}"))
        #expect(file.profile.secretParameters == ["api_key"] && file.profile.secretHeaders.isEmpty)
        #expect(file.profile.credentialSource == "the api_key query parameter (from EXPLORER_SECRET_API_KEY, or typed when asked)")
        guard case let .success(chosen) = ChosenProfile.resolve(try write(json, "json"), environment: nil, variables: ["EXPLORER_SECRET_API_KEY": "k"]) else {
            Issue.record("not resolved"); return
        }
        #expect(chosen.parameter?.name == "api_key" && chosen.parameter?.value == "k" && chosen.credential == nil)
        #expect(chosen.secrets == ["api_key": "k"], "a recording writes it as {{secret:api_key}}")
    }

    /// Supabase needs an `apikey` header beside its login, which a profile
    /// could not say: typed as `header apikey:…` each session, dropped by
    /// `env`. `headers:` says it, its secrets filled as the credential's.
    @Test func headersBesideALogin() throws {
        let yaml = """
        explorer-profile: 1
        name: supa
        environments: {dev: {base-url: "http://127.0.0.1:8080"}}
        auth: {kind: login, login-path: "/auth/v1/token?grant_type=password", whoami-path: /auth/v1/user}
        headers:
          apikey: "{{secret:anon_key}}"
          X-Client-Info: explorer
        """
        let path = try write(yaml, "yaml")
        #expect(try ProfileFile.read(path).headers == [HTTPHeader(name: "apikey", value: "{{secret:anon_key}}"), HTTPHeader(name: "X-Client-Info", value: "explorer")])
        guard case let .success(chosen) = ChosenProfile.resolve(path, environment: nil, variables: ["EXPLORER_SECRET_ANON_KEY": "anon1"]) else {
            Issue.record("not resolved"); return
        }
        #expect(chosen.headers == [HTTPHeader(name: "apikey", value: "anon1"), HTTPHeader(name: "X-Client-Info", value: "explorer")])
        #expect(chosen.secrets == ["anon_key": "anon1"] && chosen.credential == nil)
        #expect(chosen.profile.secretHeaders == ["apikey"], "hidden wherever it shows, whatever it is called")
        guard case let .failure(problem) = ChosenProfile.resolve(path, environment: nil, variables: [:]) else { Issue.record("resolved"); return }
        #expect(problem.description == "supa needs {{secret:anon_key}} for its apikey header: set EXPLORER_SECRET_ANON_KEY" && problem.isMissingSecret)
        let bad = try write(yaml.replacingOccurrences(of: "X-Client-Info:", with: "X Client:"), "yaml")
        #expect(throws: ProfileError.self) { try ProfileFile.read(bad) }
    }

    @Test func secretsAreFilledFromOutsideTheFile() {
        let basic = ProfileFile.Auth.basic(username: "alice", password: "{{secret:password}}").header!
        #expect(SecretTemplate.fill(basic.template) { $0 == "password" ? "pw" : nil } == .success("Basic " + Data("alice:pw".utf8).base64EncodedString()))
        #expect(SecretTemplate.fill("token {{secret:token}}") { _ in nil } == .failure(.init(name: "token")))
    }

    @Test func mistakesAreOneLineWithWhereAndWhatWasExpected() throws {
        let good = Self.yaml
        #expect(try problem(good.replacingOccurrences(of: "  kind: header", with: "  kind: [header")).hasPrefix(":12: not valid YAML: "))
        #expect(try problem(good.replacingOccurrences(of: "display-name:", with: "displayname:"))
            == ":3: at $.displayname: unknown field 'displayname'; did you mean display-name?")
        #expect(try problem(good.replacingOccurrences(of: "name: gitea\n", with: "")) == ":1: at $: missing field 'name'")
        #expect(try problem(good.replacingOccurrences(of: "base-url: http://127.0.0.1:3000/api/v1", with: "base-url: 3000"))
            == ":6: at $.environments.local.base-url: expected a string, not a number")
        #expect(try problem(good.replacingOccurrences(of: "\"token {{secret:token}}\"", with: "token abc123"))
            == ":13: at $.auth.value: a credential comes from the environment or is asked for, never from the file: write value: \"token {{secret:token}}\"")
        // The scheme is kind: bearer's to write: it went out as `Authorization: Bearer Bearer …`.
        let bearer = good.replacingOccurrences(of: "kind: header", with: "kind: bearer").replacingOccurrences(of: "  header: Authorization\n", with: "")
        #expect(try problem(bearer.replacingOccurrences(of: "value: \"token {{secret:token}}\"", with: "token: \"Bearer {{secret:token}}\""))
            == ":12: at $.auth.token: kind: bearer writes 'Bearer ' itself: write token: \"{{secret:token}}\"")
        #expect(try problem(bearer.replacingOccurrences(of: "value: \"token {{secret:token}}\"", with: "token: \"Token {{secret:token}}\""))
            == ":12: at $.auth.token: kind: bearer sends 'Bearer <token>': another scheme is kind: header, header: Authorization, "
            + "value: \"Token {{secret:token}}\"")
        #expect(try ProfileFile.parse(bearer.replacingOccurrences(of: "value: \"token {{secret:token}}\"", with: "token: \"{{secret:token}}\""),
                                      file: "g.yaml").auth == .bearer(token: "{{secret:token}}"))
        #expect(try problem(good.replacingOccurrences(of: "explorer-profile: 1\n", with: "") + "\nexplorer-profile: 1\n")
            .hasSuffix("the first field must be explorer-profile: 1, the version of this format"))
        #expect(try problem(good.replacingOccurrences(of: "explorer-profile: 1", with: "explorer-profile: 2"))
            == ":1: at $.explorer-profile: expected 1, the only version of this format so far")
        // Quoted, it is the same version (it was refused as "expected 1").
        #expect(try ProfileFile.parse(good.replacingOccurrences(of: "explorer-profile: 1", with: "explorer-profile: \"1\""), file: "g.yaml").profile.name == "gitea")
        #expect(try problem(good.replacingOccurrences(of: "default-environment: staging", with: "default-environment: prod"))
            == ":9: at $.default-environment: no environment named 'prod'; there are local, staging")
        #expect(try problem(good.replacingOccurrences(of: "kind: header", with: "kind: oauth"))
            .hasSuffix("expected one of none, bearer, header, basic, query, login"))
        #expect(try problem(#"{"explorer-profile": 1, "name": "x",}"#, "json").hasPrefix(":1: not valid JSON: "))
        // A JSON file's problem has its line too (it had none: "at $.auth.kind" was all).
        #expect(try problem("{\"explorer-profile\": 1,\n \"name\": \"x\",\n \"environments\": {\"a\": {\"base-url\": \"http://h\"}},\n"
                            + " \"auth\": {\n   \"kind\": \"oauth\"}}\n", "json")
            == ":5: at $.auth.kind: expected one of none, bearer, header, basic, query, login")
        #expect(try problem("{\"explorer-profile\": 1,\n \"name\": \"x\",\n \"displayname\": \"y\"}", "json")
            == ":3: at $.displayname: unknown field 'displayname'; did you mean display-name?")
        #expect(try problem("") == ": the file is empty")
        // An OAuth 2 token endpoint's fields: constants only, no secret written in the file.
        let flow = "explorer-profile: 1\nname: o\nenvironments: {a: {base-url: \"http://h\"}}\nauth:\n  kind: login\n  login-path: /token\n"
            + "  whoami-path: /me\n"
        #expect(try problem(flow + "  login-body: xml\n") == ":8: at $.auth.login-body: 'xml': expected json (the default) or form (as OAuth 2's token endpoint takes it)")
        #expect(try problem(flow + "  login-fields: {client_secret: abc}\n")
            == ":8: at $.auth.login-fields.client_secret: these fields are sent as written in the file, where a secret cannot be: "
            + "a backend that wants one here (a client_secret) cannot be described by a profile yet")
        #expect(try problem(flow + "  refresh-fields: {grant_type: 1}\n") == ":8: at $.auth.refresh-fields.grant_type: expected a string, not a number")
    }

    @Test func profilesAreFoundByNameInTheProjectBeforeTheUser() throws {
        let root = try Scratch.folder("lookup").path
        let project = root + "/project/.explorer/profiles", user = root + "/config/explorer/profiles"
        for folder in [project, user] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try "explorer-profile: 1".write(toFile: project + "/shop.yaml", atomically: true, encoding: .utf8)
        try #"{"explorer-profile": 1}"#.write(toFile: user + "/shop.json", atomically: true, encoding: .utf8)
        try "explorer-profile: 1".write(toFile: user + "/blog.yml", atomically: true, encoding: .utf8)
        // The Swagger document a profile's spec: names, kept beside it: not a profile.
        try "swagger: '2.0'".write(toFile: user + "/api.yaml", atomically: true, encoding: .utf8)
        let lookup = ProfileLookup(environment: ["XDG_CONFIG_HOME": root + "/config"], workingDirectory: root + "/project")
        #expect(lookup.file(named: "shop") == project + "/shop.yaml")
        #expect(lookup.file(named: "blog") == user + "/blog.yml")
        #expect(lookup.file(named: "none") == nil)
        #expect(lookup.file(named: "api") == nil, "a spec beside the profiles is not one")
        #expect(lookup.file(named: "./here.yaml") == "./here.yaml", "a path is taken as it is")
        #expect(lookup.files().map(\.name) == ["shop", "blog"])
        #expect(lookup.files().map(\.source) == ["project", "user"])
        // A transcript's profile is found in its own project, from any working directory, before the user's.
        let sessions = root + "/project/sessions/ci"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        let elsewhere = ProfileLookup(environment: ["XDG_CONFIG_HOME": root + "/config"], workingDirectory: root)
        #expect(elsewhere.file(named: "shop") == user + "/shop.json")
        #expect(elsewhere.file(named: "shop", near: sessions) == project + "/shop.yaml")
        #expect(elsewhere.file(named: "shop", near: "project/sessions/ci") == project + "/shop.yaml", "relative to the working directory")
        #expect(elsewhere.file(named: "blog", near: sessions) == user + "/blog.yml")
        #expect(elsewhere.file(named: "none", near: sessions) == nil)
    }
}

/// `explorer profile init`: a starting file that reads back as a profile.
@Suite struct ProfileInitTests {
    /// A spec's text: `schemes` under components, `security` on the document
    /// when given, and operations (`get /a: [key]` secured by `key`).
    static func spec(schemes: String, security: String? = nil, operations: [(String, String?)] = [("/a", nil)]) throws -> ImportedSpec {
        var text = """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        servers: [{url: "https://api.shop.example.com/v1"}, {url: "https://staging.shop.example.com/v1"}]

        """
        if let security { text += "security: \(security)\n" }
        text += "paths:\n"
        for (path, secured) in operations {
            text += "  \(path):\n    get:\n" + (secured.map { "      security: \($0)\n" } ?? "") + "      responses: {'200': {description: ok}}\n"
        }
        text += "components:\n  securitySchemes:\n" + schemes.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n"
        let url = Scratch.file("spec", extension: "yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return try SpecLoader.load(url.path)
    }

    /// The profile `text` writes, read back.
    static func profile(_ spec: ImportedSpec, baseURL: URL? = nil, specPath: String? = nil) throws -> (file: ProfileFile, auth: String) {
        let text = ProfileInitCommand.text(name: "shop", baseURL: baseURL, spec: spec, specPath: specPath)
        let path = try Scratch.folder("init").appendingPathComponent("shop.yaml").path
        try text.yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return (try ProfileFile.read(path), text.auth)
    }

    @Test func aSpecsServersBecomeEnvironmentsTheSafestFirstAndItsSchemeTheAuth() throws {
        let spec = try Self.spec(schemes: "key: {type: apiKey, in: header, name: X-Api-Key}", security: "[{key: []}]")
        let text = ProfileInitCommand.text(name: "shop", baseURL: URL(string: "http://127.0.0.1:8080"), spec: spec, specPath: "../openapi.yaml")
        #expect(text.environments == ["local", "staging", "production"])
        #expect(text.auth == "header X-Api-Key")
        let folder = try Scratch.folder("init")
        let path = folder.appendingPathComponent("shop.yaml").path
        try text.yaml.write(toFile: path, atomically: true, encoding: .utf8)
        let file = try ProfileFile.read(path)
        #expect(file.defaultEnvironment == "local")
        #expect(file.auth == .header(name: "X-Api-Key", value: "{{secret:api_key}}"))
        #expect(file.spec == folder.appendingPathComponent("../openapi.yaml").path)

        let bearer = try Self.profile(Self.spec(schemes: "jwt: {type: http, scheme: bearer}", security: "[{jwt: []}]"))
        #expect(bearer.file.auth == .bearer(token: "{{secret:token}}"))
        #expect(bearer.file.defaultEnvironment == "staging")
        let kubernetes = try Self.profile(Self.spec(schemes: "k: {type: apiKey, in: header, name: authorization}", security: "[{k: []}]"))
        #expect(kubernetes.file.auth == .bearer(token: "{{secret:token}}"), "an API key named Authorization is a bearer token")

        // FastAPI writes `security` on each operation and none on the document: it was `auth none`.
        let perOperation = try Self.spec(schemes: "jwt: {type: http, scheme: bearer}\nkey: {type: apiKey, in: header, name: X-Key}",
                                         operations: [("/login", nil), ("/items", "[{jwt: []}]"), ("/x", "[{key: []}]"), ("/y", "[{key: []}]")])
        #expect(try Self.profile(perOperation).auth == "header X-Key", "the scheme most of them name")
        let open = try Self.spec(schemes: "jwt: {type: http, scheme: bearer}")
        #expect(try Self.profile(open).auth == "none")
    }

    /// Servers whose hosts say nothing (three loopback ports) were `local`,
    /// `local2` and `local3`, the first listed (production) the default:
    /// their descriptions name them.
    @Test func aServersDescriptionNamesItsEnvironment() throws {
        let url = Scratch.file("described", extension: "yaml")
        try """
        openapi: 3.0.3
        info: {title: t, version: '1'}
        servers:
          - {url: "http://127.0.0.1:19603", description: Production server}
          - {url: "http://127.0.0.1:19602", description: "Staging (QA data)"}
          - {url: "http://127.0.0.1:19601", description: Development}
          - {url: "http://127.0.0.1:19604"}
        paths: {}
        """.write(to: url, atomically: true, encoding: .utf8)
        let text = ProfileInitCommand.text(name: "shop", baseURL: nil, spec: try SpecLoader.load(url.path), specPath: nil)
        #expect(text.environments == ["local", "dev", "staging", "production"], "the safest first: dev is the default, not production")
        #expect(text.yaml.contains("  production:\n    base-url: http://127.0.0.1:19603"))
        #expect(ProfileInitCommand.environmentName(URL(string: "https://api.example.com")!, description: "The live API") == "production")
        #expect(ProfileInitCommand.environmentName(URL(string: "https://staging.example.com")!, description: "Our servers") == "staging")
    }

    /// The display name was the profile's file name (`shop`) where the
    /// document's `info.title` says what the backend is: the banner and
    /// `explorer profiles` read "shop". Any title reads back as written.
    @Test func theDocumentsTitleIsTheDisplayName() throws {
        for (title, shown) in [("Pet Store API", "Pet Store API"), ("Shop: v2 # beta", "Shop: v2 # beta"), ("\"Quoted\" \\ 'x'", "\"Quoted\" \\ 'x'"),
                               ("multi\n  line", "multi line"), ("@scope/api", "@scope/api"), ("true", "true"), ("123", "123"),
                               ("\u{1B}]0;pwned\u{07}\u{1B}[31mRed\u{202E}x\u{0}", "]0;pwned[31mRedx")] {
            let url = Scratch.file("titled", extension: "json")
            try JSONPrinter.compact(.object([("openapi", .string("3.0.3")), ("info", .object([("title", .string(title)), ("version", .string("1"))])),
                                             ("servers", .array([.object([("url", .string("https://api.shop.example.com"))])])),
                                             ("paths", .object([]))])).write(to: url, atomically: true, encoding: .utf8)
            let text = ProfileInitCommand.text(name: "shop", baseURL: nil, spec: try SpecLoader.load(url.path), specPath: nil)
            let path = try Scratch.folder("init").appendingPathComponent("shop.yaml").path
            try text.yaml.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(try ProfileFile.read(path).displayName == shown, "\(title): \(text.yaml)")
        }
        #expect(ProfileInitCommand.text(name: "shop", baseURL: URL(string: "http://127.0.0.1:8080"), spec: nil, specPath: nil).yaml
            .contains("display-name: shop\n"), "no document: the name")
    }

    /// HTTP Basic and an API key in the query were written `kind: bearer`:
    /// every request went with `Authorization: Bearer` the server refused.
    @Test func basicAndQuerySchemesBecomeBasicAndQueryAuth() throws {
        let basic = try Self.profile(Self.spec(schemes: "b: {type: http, scheme: basic}", security: "[{b: []}]"))
        #expect(basic.auth == "basic")
        #expect(basic.file.auth == .basic(username: "{{secret:username}}", password: "{{secret:password}}"))
        let header = try #require(basic.file.auth.header)
        let filled = SecretTemplate.fill(header.template) { ["username": "alice", "password": "s3cret"][$0] }
        #expect(filled == .success("Basic " + Data("alice:s3cret".utf8).base64EncodedString()), "the user name is filled in before the pair is encoded")

        let query = try Self.profile(Self.spec(schemes: "q: {type: apiKey, in: query, name: api_key}",
                                               operations: [("/a", "[{q: []}]"), ("/b", "[{q: []}]")]))
        #expect(query.auth == "query api_key")
        #expect(query.file.auth == .query(name: "api_key", value: "{{secret:api_key}}"))

        // A cookie key cannot be sent by a profile: none, not a bearer token the server never asked for.
        let cookie = try Self.spec(schemes: "c: {type: apiKey, in: cookie, name: sid}", security: "[{c: []}]")
        #expect(try Self.profile(cookie).auth == "none")
        #expect(cookie.notes.contains(SpecScheme.unsupportedNote))
    }
}

/// `auth: kind: login`: a login flow described in a file works as a built-in one.
@Suite struct ProfileLoginFlowTests {
    static let linkuLike = """
    explorer-profile: 1
    name: mine
    environments:
      local: {base-url: "http://127.0.0.1:1"}
    auth:
      kind: login
      login-path: /api/secure-auth/login
      refresh-path: /api/secure-auth/refresh
      refreshed-refresh-token: .refresh_token
      logout-path: /api/secure-auth/logout
      whoami-path: /api/users/profile/me
    """

    @Test func aLoginFlowReadsWithItsDefaultsFilledIn() throws {
        let path = try ProfileFileTests().write(Self.linkuLike)
        guard case let .login(flow) = try ProfileFile.read(path).auth else { Issue.record("not a login flow"); return }
        #expect(flow == Profile.linku.auth, "LinkU's flow, with every field the defaults leave out")
        let broken = try ProfileFileTests().write(Self.linkuLike.replacingOccurrences(of: "whoami-path: /api", with: "whoami-path: api"))
        #expect(throws: ProfileError.self) { try ProfileFile.read(broken) }
        let missing = try ProfileFileTests().write(Self.linkuLike.replacingOccurrences(of: "  refresh-path: /api/secure-auth/refresh\n", with: ""))
        do { _ = try ProfileFile.read(missing) } catch { #expect(error.reason == "missing field 'refresh-path'" && error.path == "$.auth") }
    }

    /// Where the flow finds the tokens is secret whatever the fields are
    /// called: `show`, `vars`, the screen and recordings hide them.
    @Test func theFlowsTokenFieldsAreSecretFields() throws {
        let text = Self.linkuLike.replacingOccurrences(of: "  refreshed-refresh-token: .refresh_token\n",
                                                       with: "  access-token: .data.tokens.access\n  refresh-token: .data.tokens.refresh\n  refreshed-access-token: .data.access\n")
        let profile = try ProfileFile.read(try ProfileFileTests().write(text + "\nsecret-fields: [session_key]\n")).profile
        #expect(profile.secretFields == ["session_key", "data.tokens.access", "data.tokens.refresh", "data.access", "refresh_token"])
        #expect(SecretFields(profile.secretFields).contains(["data", "tokens", "refresh"]))
    }

    /// Against a LinkU sandbox reached by URL, as any server would be: the
    /// file's flow logs in, and the token goes with the next request.
    @Test func itLogsInAndTheTokenGoesWithTheNextRequest() async throws {
        let path = try ProfileFileTests().write(Self.linkuLike)
        let profile = try ProfileFile.read(path).profile
        let server = try await SandboxServer.start()
        defer { Task { await server.stop() } }
        try await withLiveSession(profile: profile, target: .url(server.baseURL)) { live in
            let interpreter = live.interpreter
            let login = await interpreter.execute(try interpreter.parser.parse("login alice@example.com alice123"))
            guard case let .exchange(_, note, _) = login else { Issue.record("\(login)"); return }
            #expect(note == "logged in as alice")
            guard case let .exchange(tasks, _, _) = await interpreter.execute(try interpreter.parser.parse("get /api/tasks")) else {
                Issue.record("not sent"); return
            }
            #expect(tasks.response.status == 200)
            #expect(await interpreter.promptLabel() == "mine alice")
        }
    }
}
