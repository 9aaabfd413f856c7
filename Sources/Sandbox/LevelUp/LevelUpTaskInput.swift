import Core
import Foundation

/// Reads and checks the members of a task body (create or update), naming
/// every bad member in one 422. Members the task does not have are refused,
/// so a misspelt `exp_reward` is an error rather than silently ignored.
struct LevelUpTaskInput {
    var title: String?
    var description: String??
    var category: String?
    var difficulty: String?
    var expReward: Int?
    var completed: Bool?
    var isEmpty: Bool { title == nil && description == nil && category == nil && difficulty == nil && expReward == nil && completed == nil }

    static let members: Set<String> = ["title", "description", "category", "difficulty", "expReward", "completed"]

    /// `creating` requires a title and refuses `completed`.
    init(_ body: JSONValue, creating: Bool) throws {
        var problems: [(key: String, value: JSONValue)] = []
        func fail(_ name: String, _ message: String) { problems.append((name, .string(message))) }
        guard case let .object(given) = body else { throw APIFailure.badRequest("expected a JSON object body") }
        for member in given where !Self.members.contains(member.key) || (creating && member.key == "completed") {
            fail(member.key, "unknown member; a task takes \(Self.members.sorted().joined(separator: ", "))")
        }
        func text(_ name: String, max: Int) -> String? {
            guard let value = body[name] else { return nil }
            guard let s = value.stringValue else { fail(name, "must be a string"); return nil }
            let trimmed = s.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.count > max { fail(name, "at most \(max) characters") }
            return trimmed
        }
        func choice(_ name: String, _ allowed: [String]) -> String? {
            guard let value = body[name] else { return nil }
            guard let s = value.stringValue, allowed.contains(s) else { fail(name, "must be one of \(allowed.joined(separator: ", "))"); return nil }
            return s
        }
        title = text("title", max: LevelUpTaskModel.titleMax)
        if title?.isEmpty == true || (creating && body["title"] == nil) { fail("title", "required") }
        if body["description"] == .null {
            description = .some(nil)
        } else if let d = text("description", max: LevelUpTaskModel.descriptionMax) {
            description = .some(d.isEmpty ? nil : d)
        }
        category = choice("category", LevelUpTaskModel.categories)
        difficulty = choice("difficulty", LevelUpTaskModel.difficulties)
        if let value = body["expReward"] {
            let range = LevelUpTaskModel.rewardRange
            if let n = value.intValue, case .number = value, range.contains(n) { expReward = n } else {
                fail("expReward", "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
        }
        if let value = body["completed"], !creating {
            if let b = value.boolValue { completed = b } else { fail("completed", "must be true or false") }
        }
        guard problems.isEmpty else { throw APIFailure.validation(problems) }
        if !creating && isEmpty {
            throw APIFailure.validation([("body", .string("name at least one of \(Self.members.sorted().joined(separator: ", "))"))])
        }
    }
}
