import Core
import Foundation

/// One uploaded `PostureLog` (seed 002's model: timestamp, postureType,
/// duration, deviceId; `id` and `synced` as the app's model has them).
struct PostureLogInput {
    var id: String
    var timestamp: Double
    var postureType: String
    var duration: Double
    var deviceId: String

    /// 002's `PostureType` raw values.
    static let types = Profile.posture.values(of: "PostureType")
    static let maxLogs = 1000
    static let maxDuration = 86_400.0
    static let deviceIdMax = 64
    /// Device clocks drift: a timestamp up to 5 minutes ahead of the server is accepted.
    static let futureTolerance = 300.0
    /// A 422 names at most this many problems.
    static let maxProblems = 100

    /// Every element checked; one bad element rejects the whole upload, with
    /// details keyed `"<index>.<field>"` (or `"<index>"` for a non-object).
    static func parseAll(_ body: JSONValue, now: Double) throws -> [PostureLogInput] {
        guard case let .array(items) = body else {
            throw APIFailure.badRequest("expected a JSON array of posture logs, got \(body.kindName)")
        }
        guard items.count <= maxLogs else {
            throw APIFailure(status: .contentTooLarge, code: "TOO_MANY_LOGS",
                             message: "at most \(maxLogs) logs per request, got \(items.count); send them in batches")
        }
        var logs: [PostureLogInput] = []
        var problems: [(key: String, value: JSONValue)] = []
        for (index, item) in items.enumerated() {
            switch parse(item, now: now) {
            case let .success(log): logs.append(log)
            case let .failure(found): problems += found.list.map { ("\(index)\($0.field.isEmpty ? "" : ".")\($0.field)", .string($0.message)) }
            }
        }
        guard problems.isEmpty else {
            var failure = APIFailure.validation(Array(problems.prefix(maxProblems)))
            failure.message = problems.count > maxProblems ? "\(problems.count) problems; the first \(maxProblems) are listed" : "some logs are invalid; nothing was stored"
            throw failure
        }
        return logs
    }

    struct Problems: Error { var list: [(field: String, message: String)] }

    static func parse(_ item: JSONValue, now: Double) -> Result<PostureLogInput, Problems> {
        guard case .object = item else { return .failure(Problems(list: [("", "must be an object, got \(item.kindName)")])) }
        var list: [(field: String, message: String)] = []
        var log = PostureLogInput(id: UUID().uuidString.lowercased(), timestamp: 0, postureType: "", duration: 0, deviceId: "")
        if let value = item["id"], value != .null {
            if let text = value.stringValue, let uuid = UUID(uuidString: text) { log.id = uuid.uuidString.lowercased() } else { list.append(("id", "must be a UUID")) }
        }
        switch item["timestamp"] {
        case nil, .null?: list.append(("timestamp", "required"))
        case let .string(text)?:
            if let seconds = PostureTime.parse(text) {
                if seconds > now + futureTolerance { list.append(("timestamp", "is in the future")) }
                log.timestamp = seconds
            } else {
                list.append(("timestamp", "must be an ISO 8601 date-time such as 2025-03-10T08:00:00Z"))
            }
        case .number?:
            // JSONEncoder's default date strategy writes seconds since 2001-01-01.
            list.append(("timestamp", "must be an ISO 8601 string, not a number (set the encoder's dateEncodingStrategy to .iso8601)"))
        case let other?: list.append(("timestamp", "must be an ISO 8601 string, got \(other.kindName)"))
        }
        if let type = item["postureType"]?.stringValue, types.contains(type) {
            log.postureType = type
        } else {
            list.append(("postureType", item["postureType"] == nil ? "required" : "must be one of \(types.joined(separator: ", "))"))
        }
        if case let .number(text)? = item["duration"], let seconds = Double(text), seconds.isFinite, (0...maxDuration).contains(seconds) {
            log.duration = seconds
        } else {
            list.append(("duration", item["duration"] == nil ? "required" : "must be a number of seconds from 0 to \(Int(maxDuration))"))
        }
        let device = item["deviceId"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if device.isEmpty || device.count > deviceIdMax {
            list.append(("deviceId", item["deviceId"] == nil ? "required" : "must be a non-empty string of at most \(deviceIdMax) characters"))
        }
        log.deviceId = device
        return list.isEmpty ? .success(log) : .failure(Problems(list: list))
    }
}
