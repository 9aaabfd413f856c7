import Foundation
import NIOCore
import SQLiteNIO

/// LinkU's seed data: a few rows of everything, with fixed timestamps so
/// every answer is the same from run to run. Activities are dated 2031
/// (upcoming) and 2024 (ended) so their derived status stays put for years.
enum LinkUSeed {
    static func insert(_ store: SandboxStore) async throws {
        func rows(_ table: String, _ columns: String, _ values: [[SQLiteData]]) async throws {
            let placeholders = "(" + columns.split(separator: ",").map { _ in "?" }.joined(separator: ", ") + ")"
            for row in values {
                try store.query("INSERT INTO \(table) (\(columns)) VALUES \(placeholders)", row)
            }
        }
        // carol has a bcrypt hash of a random password nobody kept: she is a
        // third author and expert for the lists, not a demo account.
        try await rows("users", "email, username, password_hash, phone, bio, city, created_at", [
            [.text(DemoAccounts.alice.email), .text(DemoAccounts.alice.name), .text(DemoAccounts.alice.passwordHash), .text("+447700900001"),
             .text("Student in Manchester; happy to run errands."), .text("Manchester"), .text("2025-01-05T09:00:00Z")],
            [.text(DemoAccounts.bob.email), .text(DemoAccounts.bob.name), .text(DemoAccounts.bob.passwordHash), .text("+447700900002"),
             .text("Dog person. Can lift heavy things."), .text("London"), .text("2025-01-06T10:30:00Z")],
            [.text("carol@example.com"), .text("carol"), .text("$2b$10$qwyJY/1WrEpLtHugl1ZoreNyEuLHBkNyle2T8jq4jvwY5wwq3nAU."), .null,
             .text("Maths PhD student; tutoring A-level and first-year maths."), .text("Manchester"), .text("2025-01-07T11:00:00Z")],
        ])
        try await rows("tasks", "title, description, category, city, price, status, poster_id, taker_id, created_at, updated_at", [
            task("Pick up a parcel", "Collect a parcel from the post office on Oxford Road before 5 pm.", "errand", "Manchester", 8, "open", 1, nil, "2025-02-01T08:15:00Z"),
            task("Assemble a bookshelf", "IKEA Billy, tools provided.", "home", "Manchester", 25, "open", 1, nil, "2025-02-02T12:00:00Z"),
            task("Walk a dog", "Friendly labrador, 45 minutes in the park.", "pets", "London", 12.5, "in_progress", 2, 1, "2025-02-03T07:45:00Z"),
            task("Proofread an essay", "2,000 words, economics, by Friday.", "tutoring", "London", 30, "open", 2, nil, "2025-02-04T18:20:00Z"),
            task("Move a sofa", "Two people needed, second floor, no lift.", "moving", "Birmingham", 40, "completed", 1, 2, "2025-02-05T15:10:00Z"),
        ])
        try await rows("task_applications", "task_id, applicant_id, message, status, created_at", [
            [.integer(1), .integer(2), .text("I pass that post office every day."), .text("pending"), .text("2025-02-06T09:00:00Z")],
            [.integer(3), .integer(1), .text("I love labradors."), .text("accepted"), .text("2025-02-03T08:00:00Z")],
            [.integer(5), .integer(2), .text("I can bring a friend."), .text("accepted"), .text("2025-02-05T16:00:00Z")],
        ])
        try await rows("notifications", "user_id, type, title, content, related_type, related_id, is_read, created_at", [
            [.integer(1), .text("application_accepted"), .text("Application accepted"), .text("bob accepted your application for \"Walk a dog\"."),
             .text("task"), .integer(3), .integer(1), .text("2025-02-03T09:00:00Z")],
            [.integer(1), .text("task_application"), .text("New application"), .text("bob applied for \"Pick up a parcel\"."),
             .text("task"), .integer(1), .integer(0), .text("2025-02-06T09:00:00Z")],
            [.integer(1), .text("task_completed"), .text("Task completed"), .text("bob marked \"Move a sofa\" completed; please confirm."),
             .text("task"), .integer(5), .integer(0), .text("2025-02-07T18:00:00Z")],
            [.integer(2), .text("item_sold"), .text("Item sold"), .text("alice bought \"Noise-cancelling headphones\" for 80."),
             .text("flea_market_item"), .integer(4), .integer(0), .text("2025-03-02T14:00:00Z")],
        ])
        try await rows("uploads", "name, owner_id, content_type, size, data, created_at", [
            image("banner-post-a-task.png", "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGNgqPoPRAAIWALzMctc4QAAAABJRU5ErkJggg=="),
            image("banner-flea-market.png", "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGMwOR4JRAAJCQKpbwcJfQAAAABJRU5ErkJggg=="),
        ])
        try await rows("banners", "title, image, link_url, sort_order", [
            [.text("Post your first task"), .text("banner-post-a-task.png"), .text("linku://tasks/new"), .integer(1)],
            [.text("Flea market spring sale"), .text("banner-flea-market.png"), .text("linku://flea-market"), .integer(2)],
        ])
        try await insertForum(rows)
        try await insertFleaMarket(rows)
        try await insertExpertsAndActivities(rows)
    }

    typealias Rows = (String, String, [[SQLiteData]]) async throws -> Void

    static func insertForum(_ rows: Rows) async throws {
        try await rows("forum_categories", "name, description, sort_order, is_visible", [
            [.text("General"), .text("Chat about anything."), .integer(1), .integer(1)],
            [.text("Housing"), .text("Flats, flatmates and landlords."), .integer(2), .integer(1)],
            [.text("Study"), .text("Courses, study groups and libraries."), .integer(3), .integer(1)],
            [.text("Moderators"), .text("Hidden: staff notes."), .integer(4), .integer(0)],
        ])
        try await rows("forum_posts", "category_id, author_id, title, content, view_count, created_at", [
            [.integer(2), .integer(1), .text("Looking for a flatmate in Fallowfield"), .text("Double room, bills included, from March."), .integer(12), .text("2025-02-10T10:00:00Z")],
            [.integer(3), .integer(2), .text("Best quiet study spots in London?"), .text("Somewhere open late, ideally free."), .integer(30), .text("2025-02-11T09:30:00Z")],
            [.integer(1), .integer(3), .text("Welcome thread: introduce yourself"), .text("New here? Say hello."), .integer(5), .text("2025-02-12T08:00:00Z")],
            [.integer(3), .integer(1), .text("Economics study group, Thursdays"), .text("Room 2.14, 6 pm, everyone welcome."), .integer(0), .text("2025-02-13T17:45:00Z")],
        ])
        try await rows("forum_replies", "post_id, author_id, parent_reply_id, content, created_at", [
            [.integer(2), .integer(1), .null, .text("The British Library reading rooms."), .text("2025-02-11T12:00:00Z")],
            [.integer(2), .integer(2), .integer(1), .text("Thanks! Do I need a reader pass?"), .text("2025-02-11T12:30:00Z")],
            [.integer(1), .integer(2), .null, .text("Is the room still available?"), .text("2025-02-14T20:10:00Z")],
        ])
        try await rows("forum_likes", "user_id, target_type, target_id, created_at", [
            [.integer(2), .text("post"), .integer(1), .text("2025-02-10T11:00:00Z")],
            [.integer(1), .text("post"), .integer(2), .text("2025-02-11T12:01:00Z")],
            [.integer(3), .text("post"), .integer(2), .text("2025-02-12T08:05:00Z")],
            [.integer(2), .text("reply"), .integer(1), .text("2025-02-11T12:29:00Z")],
        ])
        try await rows("forum_favorites", "user_id, post_id, created_at", [
            [.integer(1), .integer(2), .text("2025-02-11T12:02:00Z")],
        ])
    }

    static func insertFleaMarket(_ rows: Rows) async throws {
        try await rows("flea_market_categories", "id, name, sort_order", [
            ("electronics", "Electronics"), ("furniture", "Furniture"), ("books", "Books"),
            ("clothing", "Clothing"), ("sports", "Sports"), ("other", "Other"),
        ].enumerated().map { [.text($1.0), .text($1.1), .integer($0 + 1)] })
        try await rows("flea_market_items", "seller_id, title, description, category, city, price, status, created_at, updated_at, refreshed_at", [
            item(1, "Desk lamp", "Warm white LED, works perfectly.", "furniture", "Manchester", 15, "available", "2025-03-01T10:00:00Z"),
            item(2, "Economics textbook (4th ed.)", "Mankiw, a few pencil notes.", "books", "London", 20, "available", "2025-03-01T12:00:00Z"),
            item(1, "Road bike", "54 cm frame, new tyres.", "sports", "Manchester", 120, "available", "2025-03-03T09:00:00Z"),
            item(2, "Noise-cancelling headphones", "Two years old, with case.", "electronics", "London", 80, "sold", "2025-02-28T16:00:00Z"),
            item(1, "Winter coat", "Size M, navy.", "clothing", "Manchester", 25, "removed", "2025-02-20T08:30:00Z"),
        ])
        try await rows("flea_market_purchases", "item_id, buyer_id, seller_id, price, created_at", [
            [.integer(4), .integer(1), .integer(2), .float(80), .text("2025-03-02T14:00:00Z")],
        ])
        try await rows("flea_market_favorites", "user_id, item_id, created_at", [
            [.integer(1), .integer(2), .text("2025-03-01T13:00:00Z")],
            [.integer(2), .integer(3), .text("2025-03-03T10:00:00Z")],
        ])
    }

    static func insertExpertsAndActivities(_ rows: Rows) async throws {
        try await rows("task_experts", "user_id, bio, specialties, city, rating, completed_tasks, created_at", [
            [.integer(2), .text("Five years of weekend moving and assembly jobs."), .text(#"["moving","furniture assembly"]"#),
             .text("London"), .float(4.8), .integer(23), .text("2025-01-20T10:00:00Z")],
            [.integer(3), .text("Tutoring A-level and first-year university maths."), .text(#"["tutoring","maths"]"#),
             .text("Manchester"), .float(4.9), .integer(41), .text("2025-01-21T10:00:00Z")],
        ])
        try await rows("expert_services", "expert_id, title, description, price, created_at", [
            [.integer(1), .text("Furniture assembly"), .text("Flat-pack furniture, tools included."), .float(30), .text("2025-01-20T11:00:00Z")],
            [.integer(1), .text("Help moving house (per hour)"), .text("Van not included."), .float(20), .text("2025-01-20T11:05:00Z")],
            [.integer(2), .text("One-hour maths tutoring"), .text("Online or on campus."), .float(25), .text("2025-01-21T11:00:00Z")],
        ])
        try await rows("service_applications", "service_id, applicant_id, message, created_at", [
            [.integer(3), .integer(1), .text("Help with statistics before my exam, please."), .text("2025-02-15T09:00:00Z")],
        ])
        try await rows("activities", "title, description, city, location, starts_at, ends_at, capacity, created_at", [
            [.text("Campus clean-up day"), .text("Gloves and bags provided; lunch afterwards."), .text("Manchester"), .text("Oxford Road entrance"),
             .text("2031-04-12T09:00:00Z"), .text("2031-04-12T13:00:00Z"), .integer(30), .text("2025-02-01T09:00:00Z")],
            [.text("Board games night"), .text("Small table, two seats only."), .text("London"), .text("Student Union, room 2"),
             .text("2031-05-02T18:00:00Z"), .text("2031-05-02T22:00:00Z"), .integer(2), .text("2025-02-02T09:00:00Z")],
            [.text("Freshers' welcome fair"), .text("Meet the societies."), .text("Birmingham"), .text("Main hall"),
             .text("2024-09-20T10:00:00Z"), .text("2024-09-20T16:00:00Z"), .integer(200), .text("2024-08-01T09:00:00Z")],
        ])
        try await rows("activity_participants", "activity_id, user_id, created_at", [
            [.integer(1), .integer(2), .text("2025-02-03T10:00:00Z")],
            [.integer(2), .integer(2), .text("2025-02-03T10:05:00Z")],
            [.integer(2), .integer(3), .text("2025-02-04T10:00:00Z")],
            [.integer(3), .integer(1), .text("2024-09-01T10:00:00Z")],
        ])
        try await rows("activity_favorites", "activity_id, user_id, created_at", [
            [.integer(1), .integer(1), .text("2025-02-03T11:00:00Z")],
        ])
    }

    private static func task(_ title: String, _ description: String, _ category: String, _ city: String, _ price: Double,
                             _ status: String, _ poster: Int, _ taker: Int?, _ created: String) -> [SQLiteData] {
        [.text(title), .text(description), .text(category), .text(city), .float(price), .text(status),
         .integer(poster), taker.map { .integer($0) } ?? .null, .text(created), .text(created)]
    }

    private static func item(_ seller: Int, _ title: String, _ description: String, _ category: String, _ city: String,
                             _ price: Double, _ status: String, _ created: String) -> [SQLiteData] {
        [.integer(seller), .text(title), .text(description), .text(category), .text(city), .float(price), .text(status),
         .text(created), .text(created), .text(created)]
    }

    private static func image(_ name: String, _ base64: String) -> [SQLiteData] {
        let bytes = [UInt8](Data(base64Encoded: base64) ?? Data())
        return [.text(name), .null, .text("image/png"), .integer(bytes.count), .blob(ByteBuffer(bytes: bytes)), .text("2025-01-01T00:00:00Z")]
    }
}
