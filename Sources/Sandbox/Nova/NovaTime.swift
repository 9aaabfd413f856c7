import Foundation

/// Nova's dates. Stored as seconds since 1970 (REAL) so they compare and sort;
/// sent as ISO 8601 in UTC with whole seconds, the form that 003's
/// `JSONDecoder.dateDecodingStrategy = .iso8601` accepts (it rejects fractions).
enum NovaTime {
    static func iso(_ seconds: Double) -> String {
        iso8601(seconds.rounded(.down))
    }

    /// For the fixed timestamps of the seed data, which are known to be valid.
    static func seconds(_ iso: String) -> Double {
        guard let seconds = Sandbox.seconds(fromISO8601: iso) else { preconditionFailure("bad seed date \(iso)") }
        return seconds
    }
}

/// Nova's ids are UUID strings (003's models decode `id: UUID`). Swift's
/// `JSONEncoder` sends a UUID in upper case, so a client echoing an id back
/// may change its case: ids are stored lower case and normalised on the way in.
enum NovaID {
    static func new() -> String { UUID().uuidString.lowercased() }

    /// The id in storage form, or nil when the text is not a UUID.
    static func normalize(_ text: String?) -> String? {
        guard let text, let uuid = UUID(uuidString: text) else { return nil }
        return uuid.uuidString.lowercased()
    }
}
