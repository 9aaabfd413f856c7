/// A morning of logs from alice's sensor and a few from bob's, at fixed
/// times and ids so transcripts replay.
enum PostureSeed {
    static let logs: [(id: String, user: Int, device: String, type: String, duration: Double, at: String)] = [
        ("7a1e0000-0001-4000-8000-000000000001", 1, "PC-7F3A", "normal", 1200, "2025-03-10T08:00:00Z"),
        ("7a1e0000-0002-4000-8000-000000000002", 1, "PC-7F3A", "hunched", 180, "2025-03-10T08:20:00Z"),
        ("7a1e0000-0003-4000-8000-000000000003", 1, "PC-7F3A", "normal", 900, "2025-03-10T08:23:00Z"),
        ("7a1e0000-0004-4000-8000-000000000004", 1, "PC-7F3A", "lean_left", 60, "2025-03-10T08:38:00Z"),
        ("7a1e0000-0005-4000-8000-000000000005", 1, "PC-7F3A", "normal", 1500, "2025-03-10T08:39:00Z"),
        ("7a1e0000-0006-4000-8000-000000000006", 1, "PC-7F3A", "lean_right", 45.5, "2025-03-10T09:04:00Z"),
        ("7a1e0000-0007-4000-8000-000000000007", 2, "PC-19B2", "normal", 600, "2025-03-11T14:00:00Z"),
        ("7a1e0000-0008-4000-8000-000000000008", 2, "PC-19B2", "hunched", 240, "2025-03-11T14:10:00Z"),
    ]

    static func insert(_ store: SandboxStore) async throws {
        for log in logs {
            try store.query("""
                INSERT INTO posture_logs (id, user_id, device_id, posture_type, duration, timestamp) VALUES (?, ?, ?, ?, ?, ?)
                """, [.text(log.id), .integer(log.user), .text(log.device), .text(log.type), .float(log.duration),
                      .float(PostureTime.parse(log.at) ?? 0)])
        }
    }
}
