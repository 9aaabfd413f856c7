/// When to reconnect after an unexpected close: exponential backoff from
/// `initialDelay`, doubling, for `attempts` tries (seed 000: 1, 2, 4, 8, 16 s),
/// each wait at most `longestDelay` (or the first, when that is longer).
public struct ReconnectPolicy: Sendable, Equatable {
    public var initialDelay: Duration
    public var attempts: Int

    public init(initialDelay: Duration = .seconds(1), attempts: Int = 5) {
        self.initialDelay = initialDelay
        self.attempts = attempts
    }

    /// The seed's schedule.
    public static let standard = ReconnectPolicy()
    /// Never reconnect.
    public static let never = ReconnectPolicy(attempts: 0)

    /// The longest wait between tries: doubling with no ceiling, `--retries 30` waited six days before
    /// its 20th try, while `ws status` said it was retrying.
    public static let longestDelay = Duration.seconds(30)

    /// The delay before retry `attempt` (1-based), or nil when the tries are used up.
    public func delay(beforeAttempt attempt: Int) -> Duration? {
        guard attempt >= 1, attempt <= attempts else { return nil }
        return min(initialDelay * (1 << min(attempt - 1, 30)), max(initialDelay, Self.longestDelay))
    }

    /// The whole schedule, for messages and tests.
    public var schedule: [Duration] { (0..<attempts).compactMap { delay(beforeAttempt: $0 + 1) } }
}
