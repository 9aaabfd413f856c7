import Foundation

/// Seconds since 1970 as ISO 8601 in UTC, whole seconds: the form every
/// backend sends (Swift's `JSONDecoder` `.iso8601` rejects fractions).
func iso8601(_ seconds: Double) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: Date(timeIntervalSince1970: seconds))
}

/// ISO 8601 (whole seconds) back to seconds since 1970.
func seconds(fromISO8601 text: String) -> Double? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)?.timeIntervalSince1970
}

/// Current time as ISO 8601 in UTC, second precision.
func isoNow() -> String {
    iso8601(Date().timeIntervalSince1970)
}
