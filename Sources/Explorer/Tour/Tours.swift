import Core
import Foundation

/// The tours a newcomer can walk with `tour NAME`: the transcripts under
/// `sessions/` (or `$EXPLORER_SESSIONS`), named by their path without the
/// extension (`linku/create-task`), each with its first comment as a summary.
struct Tours {
    struct Tour: Equatable {
        var name: String
        var path: String
        var profile: String
        var summary: String

        /// The name without its backend folder: `create-task`.
        var shortName: String { (name as NSString).lastPathComponent }
    }

    var folder: String

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        folder = environment["EXPLORER_SESSIONS"] ?? "sessions"
    }

    /// Every tour under the folder, in name order; files that do not parse are left out.
    var all: [Tour] {
        TranscriptSource.files(in: [folder]).files.compactMap { path in
            guard case let .success(text) = TranscriptSource.read(path),
                  let transcript = try? TranscriptParser.parse(text) else { return nil }
            let relative = String(path.dropFirst(folder.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            let name = (relative as NSString).deletingPathExtension
            let comment = transcript.steps.first?.comments.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#") } ?? ""
            let summary = comment.trimmingCharacters(in: .whitespaces).dropFirst().trimmingCharacters(in: .whitespaces)
            return Tour(name: name, path: path, profile: transcript.header.profile, summary: summary)
        }
    }

    /// The tours for one backend profile.
    func tours(for profile: String) -> [Tour] { all.filter { $0.profile == profile } }

    /// The tour called `name`: its full name, or the last part of it when only one tour has that.
    func find(_ name: String) -> Tour? {
        let tours = all
        if let exact = tours.first(where: { $0.name == name }) { return exact }
        let short = tours.filter { $0.shortName == name }
        return short.count == 1 ? short[0] : nil
    }
}
