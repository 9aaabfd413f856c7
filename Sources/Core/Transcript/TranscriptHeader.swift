/// The fields before a transcript's first step: which backend it was
/// recorded against, and the session state it starts from.
public struct TranscriptHeader: Sendable, Equatable {
    /// `base-url: sandbox` or `base-url: https://…`.
    public enum Target: Sendable, Equatable {
        /// A fresh in-process sandbox of the profile.
        case sandbox
        case url(String)
    }

    public struct Variable: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A built-in profile's name, `none`, or a profile file (its name, or a
    /// path relative to the transcript).
    public var profile: String
    /// `env: NAME`: the profile file's environment the recording ran against.
    public var environment: String?
    /// Line and column of the environment's name, for messages about it.
    public var environmentLine = 0, environmentColumn = 0
    public var target: Target
    /// `var: NAME=VALUE`: set before the first step.
    public var variables: [Variable]
    /// `login: EMAIL`: recording began while logged in, so replay logs in first.
    public var login: String?
    /// `frames: live`: recorded in the REPL, where a WebSocket frame is shown
    /// as it comes and a later `ws recv` waits for frames not shown yet; without
    /// it (a script), frames wait for `ws recv`. A replay takes them the same way.
    public var framesLive = false
    /// `spec: FILE`: the OpenAPI document the session's catalog came from
    /// (`--spec`, `spec load`), relative to the transcript: a replay checks
    /// lines against it as the REPL did, and sends none the REPL refused.
    public var spec: String?
    /// Line and column of the profile's name, for messages about it.
    public var profileLine: Int
    public var profileColumn: Int
    /// The lines after the version line as written (fields and comments),
    /// so rewriting the file keeps them.
    public var lines: [String]

    public init(profile: String, target: Target, variables: [Variable] = [], login: String? = nil,
                profileLine: Int = 2, profileColumn: Int = 10, lines: [String]) {
        self.profile = profile
        self.target = target
        self.variables = variables
        self.login = login
        self.profileLine = profileLine
        self.profileColumn = profileColumn
        self.lines = lines
    }

    /// The header of a new recording, fields in their usual order.
    public static func make(profile: String, environment: String? = nil, target: Target, variables: [Variable] = [],
                            login: String? = nil, framesLive: Bool = false, spec: String? = nil) -> TranscriptHeader {
        var lines = ["profile: \(profile)"]
        if let environment { lines.append("env: \(environment)") }
        switch target {
        case .sandbox: lines.append("base-url: sandbox")
        case let .url(url):
            // Its password is a secret on disk (`--base-url http://bob:PW@host`): left out, the user kept;
            // a replay gives it with `--base-url` (the header's URL is not read with placeholders).
            // A token given as the user (`http://TOKEN@host`, `TOKEN:@`) is left out with its `@`.
            var written = url
            if let secret = Redactor.userinfoSecret(in: url), let at = url[secret.range.upperBound...].firstIndex(of: "@") {
                written.removeSubrange(secret.name == "password" ? url.index(before: secret.range.lowerBound)..<secret.range.upperBound
                                                                 : secret.range.lowerBound..<url.index(after: at))
            }
            lines.append("base-url: \(written)")
        }
        lines += variables.map { "var: \($0.name)=\($0.value)" }
        if let login { lines.append("login: \(login)") }
        if framesLive { lines.append("frames: live") }
        if let spec { lines.append("spec: \(spec)") }
        var header = TranscriptHeader(profile: profile, target: target, variables: variables, login: login, lines: lines)
        header.environment = environment
        header.framesLive = framesLive
        header.spec = spec
        return header
    }
}
