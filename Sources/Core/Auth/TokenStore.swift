import Foundation

/// The tokens of one login.
public struct Tokens: Sendable, Equatable, Codable {
    public var accessToken: String
    public var refreshToken: String?
    /// The user object from the login answer, as compact JSON.
    public var userJSON: String?
    /// The email `login` was given, for an answer whose user has none
    /// (a recording's `login:` header names it).
    public var email: String?

    public init(accessToken: String, refreshToken: String?, userJSON: String?, email: String? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.userJSON = userJSON
        self.email = email
    }

    public var user: JSONValue? { userJSON.flatMap { try? JSONParser.parse($0) } }

    /// Who these tokens belong to, as the store files them: the user's
    /// email, username or id, whichever the login answer has, else the
    /// email the login was given.
    public var owner: String {
        for key in ["email", "username", "id"] {
            if let value = user?[key], value != .null { return value.plainText }
        }
        return email ?? ""
    }

    /// The email to log in as again: the user's, else the one the login was given.
    public var loginEmail: String? { user?["email"]?.stringValue ?? email }
}

/// Where tokens are kept between runs: by backend (`key`: profile and base
/// URL) and, within it, by user, so two sessions logged in as different
/// users against one backend keep each their own login. `load` gives the
/// login saved last.
public protocol TokenStore: Sendable {
    func load(key: String) -> Tokens?
    /// `owner`'s tokens as saved now (another process may have refreshed them).
    func load(key: String, owner: String) -> Tokens?
    /// Saves `owner`'s tokens, or forgets them (nil).
    func save(key: String, owner: String, tokens: Tokens?) throws
    /// The right to refresh `key`'s tokens, across processes, or nil while
    /// another holds it (never waits): see `RefreshLock`.
    func lockForRefresh(key: String) -> RefreshLock?
}

/// Held while one explorer refreshes a login, so that two whose tokens ran
/// out together send one refresh between them: the second waits, then takes
/// what the first saved. A single-use refresh token sent twice is, to a
/// server that detects reuse, a stolen one, and the whole login is revoked.
public final class RefreshLock: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()
    private var held = true

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// A lock that only this process knows (its tokens are nowhere else).
    public static var local: RefreshLock { RefreshLock(descriptor: -1) }

    public func release() {
        lock.withLock {
            guard held else { return }
            held = false
            if descriptor >= 0 {
                flock(descriptor, LOCK_UN)
                close(descriptor)
            }
        }
    }

    deinit { release() }
}

extension TokenStore {
    /// Saves tokens under their own owner.
    public func save(key: String, tokens: Tokens) throws { try save(key: key, owner: tokens.owner, tokens: tokens) }
}

/// Keeps tokens for this process only (the sandbox: its tokens die with it).
public final class MemoryTokenStore: TokenStore, @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: TokenShelf] = [:]
    public init() {}
    public func load(key: String) -> Tokens? { lock.withLock { entries[key]?.current } }
    public func load(key: String, owner: String) -> Tokens? { lock.withLock { entries[key]?.users[owner] } }
    public func lockForRefresh(key: String) -> RefreshLock? { .local }
    public func save(key: String, owner: String, tokens: Tokens?) throws {
        lock.withLock { entries[key, default: TokenShelf()].put(owner, tokens) }
    }
}

/// One backend's logins, by owner, and whose was saved last.
struct TokenShelf: Codable, Equatable {
    var users: [String: Tokens] = [:]
    var last: String?

    var current: Tokens? { last.flatMap { users[$0] } }

    mutating func put(_ owner: String, _ tokens: Tokens?) {
        users[owner] = tokens
        if tokens != nil {
            last = owner
        } else if last == owner {
            last = nil
        }
    }
}

/// A JSON file, mode 0600 in a 0700 directory, rewritten atomically; the
/// default is `$XDG_CONFIG_HOME/explorer/tokens.json`.
public final class FileTokenStore: TokenStore, @unchecked Sendable {
    public let url: URL
    private let lock = NSLock()

    /// Version 2: each backend's logins by owner. A version 1 file (one
    /// login per backend) is read as each backend's only, last login.
    private struct File: Codable {
        var version = 2
        var backends: [String: TokenShelf] = [:]
    }

    private struct FileV1: Codable {
        var version: Int
        var sessions: [String: Tokens]
    }

    public init(url: URL) { self.url = url }

    /// `$XDG_CONFIG_HOME/explorer/tokens.json`, or `~/.config/explorer/tokens.json`.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDG.configHome(environment).appendingPathComponent("explorer").appendingPathComponent("tokens.json")
    }

    public func load(key: String) -> Tokens? {
        lock.withLock { read()?.backends[key]?.current }
    }

    public func load(key: String, owner: String) -> Tokens? {
        lock.withLock { read()?.backends[key]?.users[owner] }
    }

    public func lockForRefresh(key: String) -> RefreshLock? {
        let directory = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // One lock file for every login: refreshes are rare, and a name made from the key would be a path.
        let descriptor = open(directory.appendingPathComponent(".refresh.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        // Unlockable (a read-only folder): refresh as before, unguarded.
        guard descriptor >= 0 else { return .local }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return RefreshLock(descriptor: descriptor)
    }

    /// Why the store could not be written, in a few words with its path.
    public struct WriteFailure: Error, CustomStringConvertible {
        public let description: String
    }

    public func save(key: String, owner: String, tokens: Tokens?) throws {
        try lock.withLock {
            let directory = url.deletingLastPathComponent()
            func failure(_ path: String, _ error: Int32 = errno) -> WriteFailure {
                WriteFailure(description: "cannot write \(path): \(String(cString: strerror(error)).lowercased())")
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw WriteFailure(description: "cannot write \(url.path): \(directory.path) is a file, not a folder")
            }
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw WriteFailure(description: "cannot make the folder \(directory.path) (is a folder above it a file, or not writable?)")
            }
            // Another process may save at the same moment: read, change and
            // write under an exclusive lock on a file beside it, or one of the
            // two saves would be lost.
            let lockFD = open(directory.appendingPathComponent(".tokens.lock").path, O_RDWR | O_CREAT, 0o600)
            if lockFD >= 0 { flock(lockFD, LOCK_EX) }
            defer { if lockFD >= 0 { flock(lockFD, LOCK_UN); close(lockFD) } }
            // A file not read as tokens (cut short, edited by hand, a later version's) holds
            // other backends' logins: written over with this one, they were lost without a word.
            guard var file = read() else {
                throw WriteFailure(description: "\(url.path) is not a tokens file explorer reads (left as it is; move it away to save logins again)")
            }
            file.backends[key, default: TokenShelf()].put(owner, tokens)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(file)
            // A folder made before this rule (or by hand) may be open to others: close it.
            chmod(directory.path, 0o700)
            // Write a 0600 temporary file and rename it over the old one, so the
            // tokens are never readable by others, not even for a moment.
            let temporary = directory.appendingPathComponent(".tokens.\(getpid()).tmp")
            let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard fd >= 0 else { throw failure(directory.path) }
            let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            let writeError = errno
            fchmod(fd, 0o600)
            close(fd)
            guard written == data.count else {
                unlink(temporary.path)
                throw failure(url.path, written < 0 ? writeError : ENOSPC)
            }
            guard rename(temporary.path, url.path) == 0 else {
                let renameError = errno
                unlink(temporary.path)
                throw failure(url.path, renameError)
            }
        }
    }

    /// The file's logins: none when there is no file, nil when there is one
    /// that does not read as tokens.
    private func read() -> File? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return File() }
        if let file = try? JSONDecoder().decode(File.self, from: data), file.version == 2 { return file }
        guard let old = try? JSONDecoder().decode(FileV1.self, from: data), old.version == 1 else { return nil }
        var file = File()
        for (key, tokens) in old.sessions { file.backends[key, default: TokenShelf()].put(tokens.owner, tokens) }
        return file
    }
}

/// XDG base directories.
public enum XDG {
    public static func configHome(_ environment: [String: String]) -> URL {
        directory(environment["XDG_CONFIG_HOME"], fallback: ".config", environment)
    }

    public static func stateHome(_ environment: [String: String]) -> URL {
        directory(environment["XDG_STATE_HOME"], fallback: ".local/state", environment)
    }

    private static func directory(_ value: String?, fallback: String, _ environment: [String: String]) -> URL {
        // The spec says relative paths are invalid and must be ignored.
        if let value, value.hasPrefix("/") { return URL(fileURLWithPath: value) }
        return URL(fileURLWithPath: home(environment)).appendingPathComponent(fallback)
    }

    /// `$HOME`, or the account's home when it is unset, empty or relative:
    /// `HOME=` put tokens.json under the working directory.
    public static func home(_ environment: [String: String]) -> String {
        if let home = environment["HOME"], home.hasPrefix("/") { return home }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir, directory.pointee != 0 { return String(cString: directory) }
        return NSHomeDirectory()
    }
}
