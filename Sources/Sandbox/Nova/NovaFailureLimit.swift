import Core
import Foundation
import Hummingbird

/// Failed-login limit (003 maps 429 to "操作过于频繁"): after 5 failed logins
/// for one email within 60 s of `state.now`, every login for that email answers
/// 429 RATE_LIMITED with `Retry-After` (seconds until the oldest of those
/// failures is a minute old), without checking the password. Unknown emails
/// count too, so the answer tells nothing about which accounts exist. Refused
/// attempts are not counted (waiting is enough); a successful login clears the count.
enum NovaLoginLimit {
    static let maxFailures = 5
    static let window = 60.0

    /// Seconds to wait, or nil when a login may be tried.
    static func retryAfter(email: String, _ state: SandboxState) async throws -> Int? {
        let now = state.now
        try await state.store.query("DELETE FROM login_failures WHERE at <= ?", [.float(now - window)])
        let rows = try await state.store.query("SELECT COUNT(*) AS n, MIN(at) AS oldest FROM login_failures WHERE email = ?", [.text(email)])
        guard let row = rows.first, row.int("n") >= maxFailures else { return nil }
        return max(1, Int((row.double("oldest") + window - now).rounded(.up)))
    }

    static func recordFailure(email: String, _ state: SandboxState) async throws {
        try await state.store.query("INSERT INTO login_failures (email, at) VALUES (?, ?)", [.text(email), .float(state.now)])
    }

    static func clear(email: String, _ state: SandboxState) async throws {
        try await state.store.query("DELETE FROM login_failures WHERE email = ?", [.text(email)])
    }

    static func tooMany(_ seconds: Int) -> Response {
        let failure = APIFailure(status: .tooManyRequests, code: "RATE_LIMITED",
                                 message: "too many failed logins; try again in \(seconds) s",
                                 details: [("retry_after", .int(seconds))])
        var response = JSONResponse.make(failure.status, failure.body(.codeMessage))
        response.headers[.retryAfter] = String(seconds)
        return response
    }
}
