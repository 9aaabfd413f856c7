import Core
import Foundation
import Hummingbird

/// Limits on guessing (003 maps 429 to "操作过于频繁"). After `max` failures
/// for one key within `window` seconds of `state.now`, the next attempts
/// answer 429 RATE_LIMITED with `Retry-After` (seconds until the oldest of
/// those failures leaves the window), without checking anything. Refused
/// attempts are not counted, so waiting is enough.
struct NovaFailureLimit {
    let key: String
    let max: Int
    let window: Double

    /// Failed logins per email: 5 a minute. Unknown emails count too, so the
    /// answer tells nothing about which accounts exist.
    static func login(_ email: String) -> NovaFailureLimit { .init(key: "login:\(email.lowercased())", max: 5, window: 60) }

    /// Wrong verification codes per user: 5 in a code's 10-minute life, so a
    /// 6-digit code cannot be guessed.
    static func verification(_ userID: String) -> NovaFailureLimit { .init(key: "verify:\(userID)", max: 5, window: 600) }

    /// Seconds to wait, or nil when an attempt may be made.
    func retryAfter(_ state: SandboxState) async throws -> Int? {
        let now = state.now
        try state.store.query("DELETE FROM failures WHERE key = ? AND at <= ?", [.text(key), .float(now - window)])
        let rows = try state.store.query("SELECT COUNT(*) AS n, MIN(at) AS oldest FROM failures WHERE key = ?", [.text(key)])
        guard let row = rows.first, row.int("n") >= max else { return nil }
        return Swift.max(1, Int((row.double("oldest") + window - now).rounded(.up)))
    }

    func recordFailure(_ state: SandboxState) async throws {
        try state.store.query("INSERT INTO failures (key, at) VALUES (?, ?)", [.text(key), .float(state.now)])
    }

    func clear(_ state: SandboxState) async throws {
        try state.store.query("DELETE FROM failures WHERE key = ?", [.text(key)])
    }

    static func tooMany(_ seconds: Int, _ what: String) -> APIFailure {
        .rateLimited(code: "RATE_LIMITED", "too many \(what); try again in \(seconds) s", retryAfter: seconds)
    }
}
