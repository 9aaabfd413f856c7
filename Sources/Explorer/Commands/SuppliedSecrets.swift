import Core
import Foundation

/// The values a session filled in for `{{secret:NAME}}` (from
/// `EXPLORER_SECRET_*`, or typed without echo). Once supplied, a value is
/// the session's secret: hidden wherever an answer or a request shown
/// holds it (a captured copy sent again in another line included), and a
/// shell variable of its name in `--curl`.
struct SuppliedSecrets: Sendable, Equatable {
    struct Secret: Sendable, Equatable {
        let name: String
        let value: String
    }

    private(set) var named: [Secret] = []
    /// What the screen hides: each value of 3 characters or more, as typed,
    /// as a JSON string holds it (an echo of the JSON sent: `tok\"en`), as a
    /// URL or a form carries it (`a%20b`, `a+b`: an echo of the URL), as an
    /// HTML page writes it, and in base64 (`SecretScrubber.forms`).
    private(set) var shown: [String] = []

    var isEmpty: Bool { named.isEmpty }

    /// Adds the values not held yet; says whether any was new.
    mutating func add(_ secrets: [(name: String, value: String)]) -> Bool {
        var added = false
        for (name, value) in secrets where !value.isEmpty && !named.contains(where: { $0.value == value }) {
            named.append(Secret(name: name, value: value))
            added = true
            guard value.count >= 3 else { continue }
            // As the recorder finds them: typed, JSON-escaped, URL- and form-encoded, in HTML, in base64.
            for form in SecretScrubber.forms(of: value) where !shown.contains(form) { shown.append(form) }
        }
        return added
    }
}
