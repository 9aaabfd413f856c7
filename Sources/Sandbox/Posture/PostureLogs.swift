import Core
import Foundation
import Hummingbird
import NIOCore
import SQLiteNIO

/// `/api/v1/postures/logs` (seed 002 "网络请求规范"): the app uploads a JSON
/// array of logs with a bearer token and expects 200; the sandbox adds a
/// read-back, paged by page/page_size. Each user sees only their own logs.
enum PostureLogs {
    /// 1000 logs of a few hundred bytes each fit well under this.
    static let maxBody = 2 * 1024 * 1024

    static let schema = """
        CREATE TABLE posture_logs (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL,
            user_id INTEGER NOT NULL REFERENCES users(id),
            device_id TEXT NOT NULL,
            posture_type TEXT NOT NULL,
            duration REAL NOT NULL,
            timestamp REAL NOT NULL,
            UNIQUE (user_id, id))
        """

    static func register(on router: CatalogRouter, state: SandboxState) {
        router.post("/api/v1/postures/logs") { request, _ in try await upload(request, state) }
        router.get("/api/v1/postures/logs") { request, _ in try await read(request, state) }
    }

    /// 200 `{accepted, duplicates}`. A log whose `id` this user already sent
    /// (an upload retried after a lost answer) is not stored twice. One
    /// statement inserts them all, so an upload is stored whole or not at all.
    static func upload(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBody)
        } catch is NIOTooManyBytesError {
            throw APIFailure(status: .contentTooLarge, code: "PAYLOAD_TOO_LARGE", message: "the body is larger than \(maxBody / 1024 / 1024) MiB")
        }
        guard buffer.readableBytes > 0 else { throw APIFailure.badRequest("expected a JSON array of posture logs") }
        let body: JSONValue
        do { body = try JSONParser.parse(Array(buffer.readableBytesView)) } catch {
            throw APIFailure.badRequest("body is not valid JSON: \(error)")
        }
        let logs = try PostureLogInput.parseAll(body, now: state.now)
        var accepted = 0
        if !logs.isEmpty {
            let rows = Array(repeating: "(?, ?, ?, ?, ?, ?)", count: logs.count).joined(separator: ", ")
            let binds: [SQLiteData] = logs.flatMap { log in
                [.text(log.id), .integer(userID), .text(log.deviceId), .text(log.postureType), .float(log.duration), .float(log.timestamp)]
            }
            accepted = try state.store.query("""
                INSERT OR IGNORE INTO posture_logs (id, user_id, device_id, posture_type, duration, timestamp) VALUES \(rows) RETURNING seq
                """, binds).count
        }
        return JSONResponse.make(.ok, .object([("accepted", .int(accepted)), ("duplicates", .int(logs.count - accepted))]))
    }

    /// `?deviceId=&from=&to=&page=&page_size=` → `{logs, total, page, page_size}`,
    /// oldest first. `from` is inclusive and `to` exclusive, so back-to-back
    /// windows never count a log twice.
    static func read(_ request: Request, _ state: SandboxState) async throws -> Response {
        let userID = try Caller.number()
        let query = request.uri.queryParameters
        var problems: [(key: String, value: JSONValue)] = []
        var conditions = ["user_id = ?"]
        var binds: [SQLiteData] = [.integer(userID)]
        if let device = query.get("deviceId"), !device.isEmpty {
            conditions.append("device_id = ?")
            binds.append(.text(device))
        }
        var bounds: [String: Double] = [:]
        for (name, op) in [("from", ">="), ("to", "<")] {
            guard let text = query.get(name), !text.isEmpty else { continue }
            guard let seconds = PostureTime.parse(text) else {
                problems.append((name, .string("must be an ISO 8601 date-time such as 2025-03-10T08:00:00Z")))
                continue
            }
            bounds[name] = seconds
            conditions.append("timestamp \(op) ?")
            binds.append(.float(seconds))
        }
        if let from = bounds["from"], let to = bounds["to"], from > to { problems.append(("to", .string("must not be before from"))) }
        func integer(_ name: String, default value: Int, range: ClosedRange<Int>) -> Int {
            guard let text = query.get(name), !text.isEmpty else { return value }
            guard let n = Int(text), range.contains(n) else {
                problems.append((name, .string("must be an integer from \(range.lowerBound) to \(range.upperBound)")))
                return value
            }
            return n
        }
        let page = integer("page", default: 1, range: 1...1_000_000)
        let pageSize = integer("page_size", default: 100, range: 1...PostureLogInput.maxLogs)
        guard problems.isEmpty else { throw APIFailure.validation(problems) }
        let filter = conditions.joined(separator: " AND ")
        let total = try state.store.query("SELECT COUNT(*) AS n FROM posture_logs WHERE \(filter)", binds).first?.int("n") ?? 0
        let rows = try state.store.query("""
            SELECT id, device_id, posture_type, duration, timestamp FROM posture_logs WHERE \(filter)
            ORDER BY timestamp, seq LIMIT ? OFFSET ?
            """, binds + [.integer(pageSize), .integer((page - 1) * pageSize)])
        return JSONResponse.make(.ok, .object([
            ("logs", .array(rows.map { row in
                .object([
                    ("id", .string(row.text("id"))),
                    ("timestamp", .string(PostureTime.iso(row.double("timestamp")))),
                    ("postureType", .string(row.text("posture_type"))),
                    ("duration", jsonNumber(row.double("duration"))),
                    ("deviceId", .string(row.text("device_id"))),
                ])
            })),
            ("total", .int(total)),
            ("page", .int(page)),
            ("page_size", .int(pageSize)),
        ]))
    }
}
