import Core
import Foundation

/// A profile file as a session uses it: the environment picked and the
/// credential header with its secrets filled in. The REPL (`--profile`),
/// a recording's header and a replay all go through `resolve`.
struct ChosenProfile: Sendable {
    let document: ProfileFile
    let environment: ProfileFile.Environment
    let credential: HTTPHeader?
    /// The file's `headers:`, secrets filled in: session headers beside the credential.
    var headers: [HTTPHeader] = []
    /// `auth: query`: the parameter and its value, secrets filled in.
    var parameter: (name: String, value: String)?
    /// The secrets filled into it, by name: a recording writes them as `{{secret:NAME}}`.
    var secrets: [String: String] = [:]
    /// The variables of secrets taken from one every environment shares
    /// (`EXPLORER_SECRET_TOKEN`), in a file of several environments: `env NAME`
    /// says the credential went along (the dev token went to production unsaid).
    var sharedSecretVariables: [String] = []
    /// The secrets those filled, by name.
    var sharedSecrets: [String] = []

    /// The session's profile: the file's, its sockets where the environment puts them.
    var profile: Profile {
        var profile = document.profile
        profile.webSocketBaseURL = environment.webSocketURL
        return profile
    }

    /// Whether the environment is not the file's default (the prompt and a recording name it).
    var isOtherEnvironment: Bool { environment.name != document.defaultEnvironment }

    /// Reads the profile file `path` and picks the environment `name` (its
    /// default when nil); secrets come from the environment's own
    /// `EXPLORER_SECRET_<ENVIRONMENT>_<NAME>` (`EXPLORER_SECRET_PRODUCTION_TOKEN`),
    /// else `EXPLORER_SECRET_NAME`, else `ask` when given (a terminal, whose
    /// prompt names the environment; an empty answer is none). Every problem is one line.
    static func resolve(_ path: String, environment name: String?, variables: [String: String],
                        ask: ((String) -> String?)? = nil) -> Result<ChosenProfile, Problem> {
        let document: ProfileFile
        do { document = try ProfileFile.read(path) } catch { return .failure(Problem(description: error.description)) }
        guard let chosen = document.environment(named: name) else {
            return .failure(Problem(description: "\(path): no environment '\(name ?? "")'; there are "
                                    + document.environments.map(\.name).joined(separator: ", "), isUnknownEnvironment: true))
        }
        var secrets: [String: String] = [:]
        let several = document.environments.count > 1
        var shared: [String] = [], sharedNames: [String] = []
        func fill(_ template: String) -> Result<String, SecretTemplate.Missing> {
            SecretTemplate.fill(template) { secret in
                // Asked once, whether the headers or the credential name it first.
                if let known = secrets[secret] { return known }
                let own = Self.variable(secret, environment: chosen.name), common = SecretResolver.environmentName(secret)
                var value = variables[own].flatMap { $0.isEmpty ? nil : $0 }
                if value == nil, let found = variables[common].flatMap({ $0.isEmpty ? nil : $0 }) {
                    value = found
                    if several { shared.append(common); sharedNames.append(secret) }
                }
                // An empty answer is none: it went out as `Authorization: Bearer ` (a variable set empty is refused too).
                if value == nil { value = ask?("\(secret) for \(document.displayName)" + (several ? " (\(chosen.name))" : "") + ": ").flatMap { $0.isEmpty ? nil : $0 } }
                secrets[secret] = value
                return value
            }
        }
        func missing(_ name: String, for what: String) -> Problem {
            let set = several ? "set \(Self.variable(name, environment: chosen.name)) (\(chosen.name)'s own) or \(SecretResolver.environmentName(name))"
                : "set \(SecretResolver.environmentName(name))"
            return Problem(description: "\(document.displayName) needs {{secret:\(name)}} for its \(what): " + set, isMissingSecret: true)
        }
        // The file's own headers (`headers:`), beside its auth (Supabase's `apikey` beside a login).
        var headers: [HTTPHeader] = []
        for header in document.headers {
            switch fill(header.value) {
            case let .success(value): headers.append(HTTPHeader(name: header.name, value: value))
            case let .failure(absent): return .failure(missing(absent.name, for: "\(header.name) header"))
            }
        }
        var queryName: String?
        let credentialName: String
        let template: String
        if let header = document.auth.header {
            (credentialName, template) = (header.name, header.template)
        } else if case let .query(name, value) = document.auth {
            (credentialName, template, queryName) = (name, value, name)
        } else {
            return .success(ChosenProfile(document: document, environment: chosen, credential: nil, headers: headers, secrets: secrets,
                                          sharedSecretVariables: shared, sharedSecrets: sharedNames))
        }
        switch fill(template) {
        case let .success(value):
            if let queryName {
                return .success(ChosenProfile(document: document, environment: chosen, credential: nil, headers: headers, parameter: (queryName, value),
                                              secrets: secrets, sharedSecretVariables: shared, sharedSecrets: sharedNames))
            }
            return .success(ChosenProfile(document: document, environment: chosen, credential: HTTPHeader(name: credentialName, value: value),
                                          headers: headers, secrets: secrets, sharedSecretVariables: shared, sharedSecrets: sharedNames))
        case let .failure(absent):
            return .failure(missing(absent.name, for: queryName == nil ? "\(credentialName) header" : "\(credentialName) query parameter"))
        }
    }

    /// `EXPLORER_SECRET_PRODUCTION_TOKEN`: an environment's own variable for a secret.
    static func variable(_ secret: String, environment: String) -> String {
        "EXPLORER_SECRET_" + String(environment.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" }) + "_" + secret.uppercased()
    }

    /// Puts the environment label and the credential on a session.
    func apply(to interpreter: Interpreter) async {
        await interpreter.setEnvironmentLabel(isOtherEnvironment ? environment.name : nil)
        // The session's credential, as `auth header` sets one: the next `auth` replaces it, `auth none` drops it.
        if let credential { _ = await interpreter.execute(.header(.credential((credential.name, credential.value)))) }
        if !headers.isEmpty { _ = await interpreter.execute(.header(.set(headers.map { ($0.name, $0.value) }))) }
        if let parameter { await interpreter.session.setSessionQuery(parameter.name, parameter.value) }
        // As the file writes them, for `--curl`: its `{{secret:NAME}}` as "$NAME", the text around them kept.
        let written = document.headers.map { (name: $0.name, template: $0.value) } + (document.auth.header.map { [$0] } ?? [])
        await interpreter.useProfileTemplates(written, secrets: secrets)
    }

    /// The catalog of the file's `spec:` document, the file's own endpoints
    /// kept beside it; nil when it names none. A replay and the mock take it
    /// as the REPL does: without it a replay sent what the REPL had refused
    /// (`quantity is an integer … not sent`).
    func catalog() throws(Problem) -> ImportedSpec? {
        guard let path = document.spec else { return nil }
        do { return try SpecLoader.load(path).adding(document.profile) } catch {
            throw Problem(description: "\(document.path): spec: \(error.description)")
        }
    }

    struct Problem: Error, CustomStringConvertible {
        let description: String
        /// A secret not set (the environment's business, exit 3), rather than
        /// a file or an environment that is not there (a mistake in what was named, exit 2).
        var isMissingSecret = false
        /// The environment named is not the file's: said where it was named (an `env:` line, `--env`).
        var isUnknownEnvironment = false
    }
}
