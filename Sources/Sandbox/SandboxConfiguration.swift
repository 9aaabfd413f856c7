import Foundation

/// How a sandbox runs. Every field has a flag in `explorer sandbox` and an
/// environment variable, so tests and newcomers can both reach it.
public struct SandboxConfiguration: Sendable {
    /// Only loopback addresses are accepted (see `validate()`).
    public var host = "127.0.0.1"
    /// 0 picks a free port.
    public var port = 0
    /// Which backend to serve: linku, nova, levelup or posture.
    public var profile = "linku"
    /// SQLite file that survives restarts; nil keeps everything in memory.
    public var databasePath: String?
    /// Seconds an access token lives (`EXPLORER_SANDBOX_TOKEN_TTL`).
    public var accessTokenLifetime: Double = 900
    /// Seconds a refresh token lives.
    public var refreshTokenLifetime: Double = 30 * 24 * 3600
    /// Seconds since 1970; tests pass a clock they can move forward.
    public var clock: @Sendable () -> Double = { Date().timeIntervalSince1970 }
    /// Receives one line per request and notable events (never secrets).
    public var log: (@Sendable (String) -> Void)?

    public init() {}

    /// Reads `EXPLORER_SANDBOX_TOKEN_TTL` (seconds) when set.
    public mutating func apply(environment: [String: String]) {
        if let ttl = environment["EXPLORER_SANDBOX_TOKEN_TTL"].flatMap(Double.init), ttl > 0 {
            accessTokenLifetime = ttl
        }
    }

    public struct InvalidConfiguration: Error, CustomStringConvertible {
        public let description: String
    }

    /// The sandbox serves loopback only: it is a teaching and test server.
    public func validate() throws {
        let loopback = host == "localhost" || host == "::1" || host.hasPrefix("127.")
        guard loopback else {
            throw InvalidConfiguration(description: "the sandbox listens on loopback only (127.0.0.1, ::1 or localhost), not \(host)")
        }
        guard (0...65535).contains(port) else { throw InvalidConfiguration(description: "port \(port) is out of range") }
        guard SandboxBackends.named(profile) != nil else {
            throw InvalidConfiguration(description: "no sandbox for profile '\(profile)'; known: \(SandboxBackends.names.joined(separator: ", "))")
        }
        guard accessTokenLifetime > 0 else { throw InvalidConfiguration(description: "token lifetime must be positive") }
    }
}
