import Foundation

/// Timestamps of posture logs. Accepted as ISO 8601 with or without
/// fractional seconds and with `Z` or an offset; stored as seconds since 1970;
/// sent back in UTC, with milliseconds only when the log had a fraction (so a
/// client using `.iso8601`, which writes and reads whole seconds, round-trips).
enum PostureTime {
    static func parse(_ text: String) -> Double? {
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        }
        return nil
    }

    static func iso(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        let whole = seconds == seconds.rounded(.down)
        formatter.formatOptions = whole ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
