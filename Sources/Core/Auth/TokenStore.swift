import Foundation

/// The tokens of one login.
public struct Tokens: Sendable, Equatable, Codable {
    public var accessToken: String
    public var refreshToken: String?
    /// The user object from the login answer, as compact JSON.
    public var userJSON: String?

    public init(accessToken: String, refreshToken: String?, userJSON: String?) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.userJSON = userJSON
    }

    public var user: JSONValue? { userJSON.flatMap { try? JSONParser.parse($0) } }
}

/// Where tokens are kept between runs, keyed by profile and base URL.
public protocol TokenStore: Sendable {
    func load(key: String) -> Tokens?
    func save(key: String, tokens: Tokens?) throws
}

/// Keeps tokens for this process only (the sandbox: its tokens die with it).
public final class MemoryTokenStore: TokenStore, @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: Tokens] = [:]
    public init() {}
    public func load(key: String) -> Tokens? { lock.withLock { entries[key] } }
    public func save(key: String, tokens: Tokens?) throws { lock.withLock { entries[key] = tokens } }
}

/// A JSON file, mode 0600 in a 0700 directory, rewritten atomically; the
/// default is `$XDG_CONFIG_HOME/explorer/tokens.json`.
public final class FileTokenStore: TokenStore, @unchecked Sendable {
    public let url: URL
    private let lock = NSLock()

    private struct File: Codable {
        var version = 1
        var sessions: [String: Tokens] = [:]
    }

    public init(url: URL) { self.url = url }

    /// `$XDG_CONFIG_HOME/explorer/tokens.json`, or `~/.config/explorer/tokens.json`.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDG.configHome(environment).appendingPathComponent("explorer").appendingPathComponent("tokens.json")
    }

    public func load(key: String) -> Tokens? {
        lock.withLock { read().sessions[key] }
    }

    public func save(key: String, tokens: Tokens?) throws {
        try lock.withLock {
            var file = read()
            file.sessions[key] = tokens
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(file)
            let directory = url.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            // A folder made before this rule (or by hand) may be open to others: close it.
            chmod(directory.path, 0o700)
            // Write a 0600 temporary file and rename it over the old one, so the
            // tokens are never readable by others, not even for a moment.
            let temporary = directory.appendingPathComponent(".tokens.\(getpid()).tmp")
            let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary.path]) }
            let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            fchmod(fd, 0o600)
            close(fd)
            guard written == data.count else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path]) }
            guard rename(temporary.path, url.path) == 0 else {
                unlink(temporary.path)
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
    }

    private func read() -> File {
        guard let data = FileManager.default.contents(atPath: url.path),
              let file = try? JSONDecoder().decode(File.self, from: data), file.version == 1 else { return File() }
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
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(fallback)
    }
}
