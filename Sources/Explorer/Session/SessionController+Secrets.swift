import Core
import Foundation

/// `{{secret:NAME}}` in a line typed at the prompt, run from a script or
/// replayed: one rule everywhere. The value comes as a replay's does
/// (`SecretResolver`: `EXPLORER_SECRET_NAME`, a demo account's password,
/// the session's own token, …); failing that the REPL asks for it without
/// echo, and a script stops the line saying which variable to set. The
/// parser never sees the placeholder, and a recording writes it back as typed.
extension SessionController {
    /// Why a line's secrets could not be filled in, in one line.
    struct MissingSecret: Error {
        let message: String
        /// A malformed line (a name no shell can set), not a value that could not be had.
        var malformed = false
    }

    /// The line with its secrets filled in, and each value by name (for the recorder).
    /// Nil when the user cancelled the question (Ctrl-C, Ctrl-D).
    func fillingSecrets(in line: String) throws(MissingSecret) -> (line: String, secrets: [(name: String, value: String)])? {
        var resolver = SecretResolver(environment: environment, demoAccounts: interpreter.session.profile.demoAccounts)
        resolver.demoPasswordsFirst = target == .sandbox
        resolver.variables = interpreter.allVariables
        if let token = runBlocking({ [interpreter] in await interpreter.session.tokens?.accessToken }) {
            resolver.session = ["access_token": token]
        }
        // `{{secret:}}` was told to set EXPLORER_SECRET_, and asked for at a prompt named ": "; `{{secret:api-key}}`
        // was asked for, then recorded in a transcript that no replay reads.
        if let problem = SecretResolver.nameProblem(in: line) { throw MissingSecret(message: problem.message, malformed: true) }
        while true {
            do {
                return try resolver.resolveNamed(line)
            } catch {
                guard terminal.isInteractive else {
                    throw MissingSecret(message: "no value for {{secret:\(error.name)}}: set \(SecretResolver.environmentName(error.name)) "
                                        + "in the environment, or type the line at the prompt, which asks for it")
                }
                guard let typed = terminal.readSecret(prompt: "\(error.name): ") else { return nil }
                resolver.environment[SecretResolver.environmentName(error.name)] = typed
            }
        }
    }
}
