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

    /// `$EXPLORER_SESSIONS`, else the first of these that exists: `sessions`
    /// in the working directory, `share/explorer/sessions` beside the
    /// installed binary's `bin/`, `sessions` beside the binary, and the
    /// source checkout it was built from. So `tour` works from any working
    /// directory, not only the repository's root.
    init(environment: [String: String] = Surroundings.current.environment, executable: String? = Tours.executablePath,
         isFolder: (String) -> Bool = Tours.isFolder) {
        if let given = environment["EXPLORER_SESSIONS"] {
            // `…/sessions/` said "no tours under …/sessions//".
            var trimmed = given
            while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
            folder = trimmed
            return
        }
        var candidates = ["sessions"]
        if let executable {
            let bin = PathText.folder(of: (executable as NSString).resolvingSymlinksInPath)
            candidates += [(PathText.folder(of: bin) as NSString).appendingPathComponent("share/explorer/sessions"),
                           (bin as NSString).appendingPathComponent("sessions")]
        }
        candidates.append(Self.checkoutSessions)
        folder = candidates.first(where: isFolder) ?? "sessions"
    }

    /// `sessions/` of the checkout this file was compiled in.
    static let checkoutSessions: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // Tours.swift, Tour, Explorer, Sources
        return url.appendingPathComponent("sessions").path
    }()

    /// The running binary's path. On Linux read from `/proc/self/exe`, not
    /// `Bundle.main`, whose set-up (an info dictionary looked for on disk) was
    /// 4% of the REPL's start.
    static var executablePath: String? {
        #if os(Linux)
        var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &path, path.count - 1)
        if length > 0 { return String(decoding: path.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments.first
    }

    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Every tour under the folder, in name order, from each file's header
    /// and first comment (`TranscriptParser.prelude`): the welcome asks at
    /// every start, and parsing every step of every file took about a fifth
    /// of the REPL's start. Files whose header does not read are left out; a
    /// mistake in a step is reported when the tour is walked.
    var all: [Tour] {
        TranscriptSource.files(in: [folder]).files.compactMap { path in
            guard case let .success(text) = TranscriptSource.read(path),
                  let prelude = try? TranscriptParser.prelude(text) else { return nil }
            let relative = String(path.dropFirst(folder.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            let name = (relative as NSString).deletingPathExtension
            return Tour(name: name, path: path, profile: prelude.header.profile, summary: Self.summary(prelude.comments))
        }
    }

    /// The first sentence of a transcript's first comment, over as many
    /// lines as it takes (three at most): its first line alone cut
    /// `nova/newcomer`'s at "verifies the email,".
    static func summary(_ comments: [String]) -> String {
        var lines: [String] = []
        for comment in comments.drop(while: { !$0.trimmingBlanks().hasPrefix("#") }) {
            let text = comment.trimmingBlanks()
            guard text.hasPrefix("#") else { break }
            let line = text.dropFirst().trimmingBlanks()
            guard !line.isEmpty else { break }
            lines.append(line)
            if lines.count == 3 || [".", "!", "?", ":"].contains(where: line.hasSuffix) { break }
        }
        return lines.joined(separator: " ")
    }

    /// The tours for one backend profile.
    func tours(for profile: String) -> [Tour] { all.filter { $0.profile == profile } }

    /// The tour called `name`: its full name, or the last part of it when
    /// only one tour has that, or only one of `profile`'s (`tour errors` on
    /// Nova is nova/errors, though linku has an `errors` too).
    func find(_ name: String, profile: String? = nil) -> Tour? {
        let tours = all
        if let exact = tours.first(where: { $0.name == name }) { return exact }
        let short = tours.filter { $0.shortName == name }
        if short.count == 1 { return short[0] }
        let own = short.filter { $0.profile == profile }
        return own.count == 1 ? own[0] : nil
    }

    /// The tour `name` was likely meant as (`create` for `create-task`, `chta` for `chat`), this profile's first.
    func closest(to name: String, profile: String? = nil) -> String? {
        let tours = all.sorted { ($0.profile == profile ? 0 : 1) < ($1.profile == profile ? 0 : 1) }
        let lowered = name.lowercased()
        if let started = tours.first(where: { $0.shortName.lowercased().hasPrefix(lowered) }) {
            return started.profile == profile ? started.shortName : started.name
        }
        guard let near = Core.nearest(to: name, in: tours.map(\.shortName), ignoringCase: true, near: { distance, _ in distance <= 2 }) else {
            return nil
        }
        let tour = tours.first { $0.shortName == near }
        return tour?.profile == profile ? near : tour?.name
    }
}
