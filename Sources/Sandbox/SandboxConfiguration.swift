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
    /// Seconds an access token lives (`EXPLORER_SANDBOX_TOKEN_TTL`); the
    /// `token_ttl` key of `PUT /__sandbox/faults` changes it at run time.
    public var accessTokenLifetime: Double = 900
    /// Seconds a refresh token lives.
    public var refreshTokenLifetime: Double = 30 * 24 * 3600
    /// Seconds since 1970; tests pass a clock they can move forward.
    public var clock: @Sendable () -> Double = { Date().timeIntervalSince1970 }
    /// Receives one line per request and notable events (never secrets).
    public var log: (@Sendable (String) -> Void)?
    /// Fault switches, all off by default; changeable at run time through
    /// `PUT /__sandbox/faults` (docs/sandbox-faults.md).
    public var faults = FaultSettings()
    /// Environment variables that were set but unusable; `validate()` reports them.
    public private(set) var environmentProblems: [String] = []

    public init() {}

    /// The environment variables each setting can come from.
    public enum Environment {
        public static let tokenTTL = "EXPLORER_SANDBOX_TOKEN_TTL"
        public static let latency = "EXPLORER_SANDBOX_LATENCY_MS"
        public static let errorRate = "EXPLORER_SANDBOX_ERROR_RATE"
        public static let cutBodyRate = "EXPLORER_SANDBOX_CUT_BODY_RATE"
        public static let webSocketDropAfter = "EXPLORER_SANDBOX_WS_DROP_AFTER"
        public static let faultSeed = "EXPLORER_SANDBOX_FAULT_SEED"
    }

    /// Reads the token lifetime and the fault switches from the environment
    /// (names in `Environment`). A variable that is set but unusable is kept
    /// in `environmentProblems` rather than silently ignored.
    public mutating func apply(environment: [String: String]) {
        func read<T>(_ name: String, _ parse: (String) -> T?, _ expected: String) -> T? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = parse(text.trimmingCharacters(in: .whitespaces)) else {
                environmentProblems.append("\(name)='\(text)': expected \(expected)")
                return nil
            }
            return value
        }
        let share = { (text: String) -> Double? in Double(text).flatMap { (0...1).contains($0) ? $0 : nil } }
        if let ttl = read(Environment.tokenTTL, { Double($0).flatMap { $0 > 0 && $0.isFinite ? $0 : nil } }, "a positive number of seconds") {
            accessTokenLifetime = ttl
        }
        if let ms = read(Environment.latency, { Int($0).flatMap { FaultSettings.latencyRange.contains($0) ? $0 : nil } },
                         "milliseconds from 0 to \(FaultSettings.latencyRange.upperBound)") {
            faults.latencyMilliseconds = ms
        }
        if let rate = read(Environment.errorRate, share, "a share from 0 to 1") { faults.errorRate = rate }
        if let rate = read(Environment.cutBodyRate, share, "a share from 0 to 1") { faults.cutBodyRate = rate }
        if let frames = read(Environment.webSocketDropAfter, { Int($0).flatMap { FaultSettings.dropRange.contains($0) ? $0 : nil } },
                             "a number of frames from 0 to \(FaultSettings.dropRange.upperBound)") {
            faults.webSocketDropAfterFrames = frames
        }
        if let seed = read(Environment.faultSeed, { UInt64($0) }, "an unsigned 64-bit integer") { faults.seed = seed }
    }

    public struct InvalidConfiguration: Error, Equatable, CustomStringConvertible {
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
        if let problem = environmentProblems.first { throw InvalidConfiguration(description: problem) }
        if let problem = faults.problems().first {
            throw InvalidConfiguration(description: "fault switch \(problem.key) \(problem.message)")
        }
    }
}
