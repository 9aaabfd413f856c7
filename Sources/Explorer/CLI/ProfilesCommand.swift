import ArgumentParser
import Core
import Foundation

/// `explorer profiles`: every profile `--profile` can name, and where each comes from.
struct ProfilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profiles",
        abstract: "List the profiles --profile can name: built in, and files in .explorer/profiles/ or $XDG_CONFIG_HOME/explorer/profiles/.",
        discussion: "A profile file describes a backend of your own: its environments, auth and error envelope (docs/profiles.md)."
    )

    @ParentCommand var root: ExplorerCommand

    func run() throws {
        try root.refuse("profiles")
        let lookup = ProfileLookup(environment: Surroundings.current.environment)
        var rows: [(name: String, what: String, source: String)] = []
        for name in Profile.names {
            let profile = Profile.named(name)!
            let deployments = profile.environments.isEmpty ? "" : ": sandbox*, " + profile.environments.map(\.name).joined(separator: ", ")
            rows.append((name, profile.displayName + deployments, name == Profile.generic.name ? "built in (any server)" : "built in (sandbox)"))
        }
        var broken = false
        for file in lookup.files() {
            switch Result(catching: { () throws(ProfileError) in try ProfileFile.read(file.path) }) {
            case let .success(document):
                let environments = document.environments.map { $0.name == document.defaultEnvironment ? "\($0.name)*" : $0.name }
                // --profile NAME finds a built-in profile first: such a file is reached by its path only.
                let hidden = Profile.builtIn(named: file.name) != nil ? " (hidden by the built-in one: --profile \(file.path))" : ""
                rows.append((file.name, "\(document.displayName): \(environments.joined(separator: ", "))", "\(file.source): \(file.path)\(hidden)"))
            case let .failure(error):
                broken = true
                let at = (error.line.map { "line \($0): " } ?? "") + (error.path.isEmpty ? "" : "at \(error.path): ")
                rows.append((file.name, "unusable: \(at)\(error.reason)", "\(file.source): \(file.path)"))
            }
        }
        let nameWidth = rows.map(\.name.columns).max() ?? 0
        let whatWidth = rows.map(\.what.columns).max() ?? 0
        var text = ""
        for row in rows {
            text += row.name.padded(to: nameWidth + 2)
                + row.what.padded(to: whatWidth + 2) + row.source + "\n"
        }
        if lookup.files().isEmpty {
            text += "No profile files: put NAME.yaml in \(lookup.folders.map(\.path).joined(separator: " or ")) (docs/profiles.md).\n"
        } else {
            text += "* the default environment (--env NAME picks another)\n"
        }
        // A user's file under the name of a project's is never found by name.
        for shadowed in lookup.shadowed() {
            text += "\(shadowed.path) is hidden by the project's \(shadowed.name) profile (--profile \(shadowed.path) reaches it)\n"
        }
        Console().out(text)
        if broken { throw ExitCode(ExitStatus.parse.rawValue) }
    }
}
