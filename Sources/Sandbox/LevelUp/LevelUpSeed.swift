/// Level Up Solo's demo data: the seed's demo account plus alice and bob,
/// each with a few tasks at fixed timestamps so transcripts replay.
enum LevelUpSeed {
    static let users: [(DemoAccounts.Account, String, String, String, Int)] = [
        (DemoAccounts.levelUpDemo, "user_demo", "Demo", "User", 1),
        (DemoAccounts.alice, "user_alice", "Alice", "Archer", 1),
        (DemoAccounts.bob, "user_bob", "Bob", "Builder", 0),
    ]

    static let tasks: [(user: String, title: String, description: String?, category: String, difficulty: String, completedAt: String?, createdAt: String)] = [
        ("user_demo", "Morning run", "5 km before breakfast", "daily", "medium", "2025-03-01T07:40:00Z", "2025-03-01T06:00:00Z"),
        ("user_demo", "Read 20 pages", nil, "habit", "easy", nil, "2025-03-01T06:05:00Z"),
        ("user_demo", "Finish the quarterly report", "Numbers from finance, draft by Friday", "todo", "hard", nil, "2025-03-02T09:00:00Z"),
        ("user_demo", "Meditate 10 minutes", nil, "habit", "easy", "2025-03-02T21:30:00Z", "2025-03-02T21:00:00Z"),
        ("user_alice", "Archery practice", "50 arrows at 30 m", "daily", "medium", nil, "2025-03-03T08:00:00Z"),
        ("user_alice", "Learn Swift concurrency", "Actors and task groups", "todo", "hard", nil, "2025-03-03T08:10:00Z"),
        ("user_bob", "Fix the garden fence", nil, "todo", "medium", "2025-03-04T16:00:00Z", "2025-03-04T10:00:00Z"),
        ("user_bob", "Drink 2 litres of water", nil, "habit", "easy", nil, "2025-03-04T10:05:00Z"),
    ]

    static func insert(_ store: SandboxStore) async throws {
        for (account, id, first, last, onboarded) in users {
            try store.query("""
                INSERT INTO users (id, email, password_hash, first_name, last_name, has_completed_onboarding) VALUES (?, ?, ?, ?, ?, ?)
                """, [.text(id), .text(account.email), .text(account.passwordHash), .text(first), .text(last), .integer(onboarded)])
        }
        for task in tasks {
            try store.query("""
                INSERT INTO tasks (user_id, title, description, category, difficulty, exp_reward, completed, completed_at, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(task.user), .text(task.title), task.description.map { .text($0) } ?? .null, .text(task.category),
                      .text(task.difficulty), .integer(LevelUpTaskModel.defaultReward[task.difficulty] ?? 25),
                      .integer(task.completedAt == nil ? 0 : 1), task.completedAt.map { .float(LevelUpTaskModel.seconds($0)) } ?? .null,
                      .float(LevelUpTaskModel.seconds(task.createdAt))])
        }
    }
}
