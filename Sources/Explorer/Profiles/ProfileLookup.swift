import Core
import Foundation

/// Where profiles come from: built into the binary, a project's
/// `./.explorer/profiles/`, or the user's `$XDG_CONFIG_HOME/explorer/profiles/`
/// (found by name in that order: the project's own wins), or a file named
/// on the command line.
struct ProfileLookup {
    var environment: [String: String]
    var workingDirectory: String = FileManager.default.currentDirectoryPath

    static let extensions = ["yaml", "yml", "json"]

    /// The folders searched by name, with how `explorer profiles` names each.
    var folders: [(path: String, source: String)] {
        [((workingDirectory as NSString).appendingPathComponent(".explorer/profiles"), "project"),
         (XDG.configHome(environment).appendingPathComponent("explorer/profiles").path, "user")]
    }

    /// Whether `--profile` names a file rather than a profile.
    static func isPath(_ given: String) -> Bool {
        given.contains("/") || extensions.contains { given.hasSuffix("." + $0) }
    }

    /// The file `--profile NAME` means, if any (built-in names are not looked up).
    func file(named name: String) -> String? {
        if Self.isPath(name) { return name }
        for folder in folders {
            for ext in Self.extensions {
                let path = (folder.path as NSString).appendingPathComponent("\(name).\(ext)")
                if FileManager.default.fileExists(atPath: path), Self.looksLikeProfile(path) { return path }
            }
        }
        return nil
    }

    /// `NAME`'s profile file in the `.explorer/profiles/` of `folder` or of
    /// the nearest folder above it (a transcript's project, wherever the
    /// suite is run from: `explorer test work/ci` from elsewhere found no
    /// profile), then as `file(named:)` finds it.
    func file(named name: String, near folder: String) -> String? {
        guard !Self.isPath(name) else { return name }
        var current = FilePaths.normalized(folder.hasPrefix("/") ? folder : (workingDirectory as NSString).appendingPathComponent(folder.isEmpty ? "." : folder))
        while true {
            for ext in Self.extensions {
                let path = ((current as NSString).appendingPathComponent(".explorer/profiles") as NSString).appendingPathComponent("\(name).\(ext)")
                if FileManager.default.fileExists(atPath: path), Self.looksLikeProfile(path) { return path }
            }
            let parent = PathText.folder(of: current)
            if parent == current || parent.isEmpty { break }
            current = parent
        }
        return file(named: name)
    }

    /// The user's own profile file of that name, in `$XDG_CONFIG_HOME/explorer/profiles/`.
    func userFile(named name: String) -> String? {
        guard let folder = folders.last?.path else { return nil }
        for ext in Self.extensions {
            let path = (folder as NSString).appendingPathComponent("\(name).\(ext)")
            if FileManager.default.fileExists(atPath: path), Self.looksLikeProfile(path) { return path }
        }
        return nil
    }

    /// The origins a project's profile file that hides the user's own of
    /// the same name would take the user's secrets to, and the user's file
    /// names nowhere (its environments' base and socket URLs): a cloned
    /// repository's `.explorer/profiles/shop.yaml` got the user's
    /// `EXPLORER_SECRET_DEV_TOKEN` sent to the host it names. Empty when it
    /// goes nowhere new (a team's copy of the same profile).
    /// An environment the user's file also has must keep its origins (a
    /// project's `dev` on the user's production host got the dev token sent
    /// there); one it does not have may use any of the user's. Nil when a
    /// file does not read: nothing can be compared, and nothing is assumed
    /// (the failure says which and why). The default environment counts as
    /// one: a project's that makes another of the user's hosts the default
    /// sent a bare `--profile NAME` there.
    static func newOrigins(of project: String, hiding user: String) -> Result<[String], Unreadable> {
        let theirs: ProfileFile, own: ProfileFile
        do { theirs = try ProfileFile.read(project) } catch { return .failure(Unreadable(description: error.description)) }
        do { own = try ProfileFile.read(user) } catch { return .failure(Unreadable(description: error.description)) }
        func origins(_ environment: ProfileFile.Environment) -> [Origin] {
            [Origin(environment.baseURL), environment.webSocketURL.flatMap(Origin.init)].compactMap { $0 }
        }
        let known = Set(own.environments.flatMap(origins))
        var found: [String] = []
        for environment in theirs.environments {
            let allowed = own.environments.first { $0.name == environment.name }.map { Set(origins($0)) } ?? known
            for origin in origins(environment) where !allowed.contains(origin) {
                let shown = own.environments.contains { $0.name == environment.name } ? "\(origin) (as \(environment.name))" : origin.description
                if !found.contains(shown) { found.append(shown) }
            }
        }
        if let theirDefault = theirs.environment(named: nil), let ownDefault = own.environment(named: nil) {
            let allowed = Set(origins(ownDefault))
            for origin in origins(theirDefault) where !allowed.contains(origin) {
                let shown = "\(origin) (as the default environment, \(theirDefault.name), where yours is \(ownDefault.name))"
                if !found.contains(where: { $0.hasPrefix(origin.description + " ") || $0 == origin.description }) { found.append(shown) }
            }
        }
        return .success(found)
    }

    /// Why a profile file could not be compared: its problem, as reading it says it.
    struct Unreadable: Error, CustomStringConvertible { let description: String }

    /// A file `--profile NAME` would have meant, had it been a profile file.
    func notAProfile(named name: String) -> String? {
        guard !Self.isPath(name) else { return nil }
        for folder in folders {
            for ext in Self.extensions {
                let path = (folder.path as NSString).appendingPathComponent("\(name).\(ext)")
                if FileManager.default.fileExists(atPath: path), !Self.looksLikeProfile(path) { return path }
            }
        }
        return nil
    }

    /// Whether a file in a profiles folder is a profile file rather than
    /// something kept beside one (the OpenAPI or Swagger document its `spec:`
    /// names): a profile file says `explorer-profile` first, so a file that
    /// does not mention it in its first 4 KiB is left alone. A file that does
    /// and is broken is still found, and said to be broken.
    static func looksLikeProfile(_ path: String) -> Bool {
        // Not opened unless a regular file: a FIFO's open waits for a writer, for ever. Found, it is said to be none.
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return true }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        return String(decoding: head, as: UTF8.self).contains("explorer-profile")
    }

    /// Profile files a same-named file in an earlier folder hides.
    func shadowed() -> [(name: String, path: String)] {
        let found = files()
        var out: [(name: String, path: String)] = []
        for folder in folders.dropFirst() {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for entry in entries.sorted() {
                let name = (entry as NSString).deletingPathExtension
                let path = (folder.path as NSString).appendingPathComponent(entry)
                guard Self.extensions.contains((entry as NSString).pathExtension), Self.looksLikeProfile(path),
                      let winner = found.first(where: { $0.name == name }), winner.path != path else { continue }
                out.append((name, path))
            }
        }
        return out
    }

    /// Every profile file in the folders, by name; a name in an earlier folder hides a later one.
    func files() -> [(name: String, path: String, source: String)] {
        var found: [(name: String, path: String, source: String)] = []
        for folder in folders {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for entry in entries.sorted() {
                let ext = (entry as NSString).pathExtension
                let name = (entry as NSString).deletingPathExtension
                let path = (folder.path as NSString).appendingPathComponent(entry)
                guard Self.extensions.contains(ext), !found.contains(where: { $0.name == name }), Self.looksLikeProfile(path) else { continue }
                found.append((name, path, folder.source))
            }
        }
        return found
    }
}
