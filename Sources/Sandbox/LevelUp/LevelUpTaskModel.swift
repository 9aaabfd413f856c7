import Core
import Foundation
import SQLiteNIO

/// Level Up Solo's task. Seed 004 only shows the client decoding `[Task]`
/// from GET /api/tasks, so the shape is the sandbox's design, in the seed's
/// camelCase: `{id, title, description, category, difficulty, expReward,
/// completed, completedAt, createdAt}` (docs/sandbox-levelup.md).
enum LevelUpTaskModel {
    static let categories = Profile.levelup.values(of: "TaskCategory")
    static let difficulties = Profile.levelup.values(of: "Difficulty")
    /// Experience a task gives when the client names none.
    static let defaultReward = ["easy": 10, "medium": 25, "hard": 50]
    static let rewardRange = 1...1000
    static let titleMax = 100
    static let descriptionMax = 1000

    static let columns = "id, user_id, title, description, category, difficulty, exp_reward, completed, completed_at, created_at"

    static let schema = """
        CREATE TABLE tasks (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id TEXT NOT NULL REFERENCES users(id),
            title TEXT NOT NULL,
            description TEXT,
            category TEXT NOT NULL,
            difficulty TEXT NOT NULL,
            exp_reward INTEGER NOT NULL,
            completed INTEGER NOT NULL DEFAULT 0,
            completed_at REAL,
            created_at REAL NOT NULL)
        """

    static func json(_ row: StoreRow) -> JSONValue {
        .object([
            ("id", .int(row.int("id"))),
            ("title", .string(row.text("title"))),
            ("description", row.optionalText("description").map(JSONValue.string) ?? .null),
            ("category", .string(row.text("category"))),
            ("difficulty", .string(row.text("difficulty"))),
            ("expReward", .int(row.int("exp_reward"))),
            ("completed", .bool(row.int("completed") != 0)),
            ("completedAt", row.column("completed_at").flatMap { $0.isNull ? nil : $0.double }.map { .string(iso($0)) } ?? .null),
            ("createdAt", .string(iso(row.double("created_at")))),
        ])
    }

    /// ISO 8601 in UTC, whole seconds (what `JSONDecoder`'s `.iso8601` accepts).
    static func iso(_ seconds: Double) -> String {
        iso8601(seconds.rounded(.down))
    }

    static func seconds(_ iso: String) -> Double {
        guard let seconds = Sandbox.seconds(fromISO8601: iso) else { preconditionFailure("bad seed date \(iso)") }
        return seconds
    }
}
