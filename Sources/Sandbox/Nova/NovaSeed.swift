import Foundation
import NIOCore
import SQLiteNIO

/// Nova's demo data, with fixed ids and timestamps so saved transcripts replay:
/// alice follows bob; five posts with likes, comments and the notifications
/// those events make. Posts' images are a 1×1 PNG served at `image_url`.
enum NovaSeed {
    static let alice = "8d3e7a52-4a1c-4c43-9a51-0c2f8b7d1a01"
    static let bob = "5b1f0c9e-2d47-4f6a-8e3b-7a9c4d2e6b02"

    /// A valid 1×1 PNG (67 bytes).
    static let pixel = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!

    static let posts: [(id: String, user: String, caption: String?, at: String)] = [
        ("b0a1c2d3-0001-4000-8000-000000000001", bob, "Morning light over the harbour", "2025-02-01T08:00:00Z"),
        ("b0a1c2d3-0002-4000-8000-000000000002", alice, "First post on Nova!", "2025-02-02T12:30:00Z"),
        ("b0a1c2d3-0003-4000-8000-000000000003", bob, "Homemade ramen, twelve hours of broth", "2025-02-03T18:45:00Z"),
        ("b0a1c2d3-0004-4000-8000-000000000004", alice, "Weekend hike with @bob", "2025-02-05T09:15:00Z"),
        ("b0a1c2d3-0005-4000-8000-000000000005", bob, nil, "2025-02-06T20:00:00Z"),
    ]

    static let comments: [(id: String, post: Int, user: String, text: String, at: String)] = [
        ("c0a1c2d3-0001-4000-8000-000000000001", 1, bob, "Welcome to Nova!", "2025-02-02T13:10:00Z"),
        ("c0a1c2d3-0002-4000-8000-000000000002", 2, alice, "That looks amazing!", "2025-02-03T19:05:00Z"),
        ("c0a1c2d3-0003-4000-8000-000000000003", 2, bob, "Thanks @alice, recipe soon", "2025-02-03T19:30:00Z"),
    ]

    static func insert(_ store: SandboxStore) async throws {
        // Lists page newest first by insertion order, so notifications are
        // inserted at the end, sorted by time.
        var notifications: [(recipient: String, event: NovaNotifier.Event)] = []
        let users: [(DemoAccounts.Account, String, String, String)] = [
            (DemoAccounts.alice, alice, "Alice", "2025-01-05T09:00:00Z"),
            (DemoAccounts.bob, bob, "Bob", "2025-01-06T10:30:00Z"),
        ]
        for (account, id, display, created) in users {
            try store.query("""
                INSERT INTO users (id, username, email, password_hash, display_name, is_verified, created_at)
                VALUES (?, ?, ?, ?, ?, 1, ?)
                """, [.text(id), .text(account.name), .text(account.email), .text(account.passwordHash), .text(display), .text(created)])
        }
        try store.query("INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)",
                              [.text(alice), .text(bob), .float(NovaTime.seconds("2025-02-01T09:00:00Z"))])
        notifications.append((bob, .init(kind: .follow, actor: alice, at: NovaTime.seconds("2025-02-01T09:00:00Z"),
                                         id: "d0a1c2d3-0001-4000-8000-000000000001", isRead: true)))
        for (index, post) in posts.enumerated() {
            let key = String(format: "f0a1c2d3-%04d-4000-8000-000000000000", index + 1)
            let at = NovaTime.seconds(post.at)
            try store.query("INSERT INTO uploads (file_key, user_id, content_type, bytes, expires_at, created_at) VALUES (?, ?, 'image/png', ?, ?, ?)",
                                  [.text(key), .text(post.user), .blob(ByteBuffer(bytes: pixel)), .float(at), .float(at)])
            try store.query("INSERT INTO posts (id, user_id, file_key, caption, created_at) VALUES (?, ?, ?, ?, ?)",
                                  [.text(post.id), .text(post.user), .text(key), post.caption.map(SQLiteData.text) ?? .null, .float(at)])
        }
        // alice's caption mentions bob.
        notifications.append((bob, .init(kind: .mention, actor: alice, post: posts[3].id, at: NovaTime.seconds(posts[3].at),
                                         id: "d0a1c2d3-0002-4000-8000-000000000002")))
        let likes: [(post: Int, user: String, at: String, notification: String)] = [
            (1, bob, "2025-02-02T13:00:00Z", "d0a1c2d3-0003-4000-8000-000000000003"),
            (2, alice, "2025-02-03T19:00:00Z", "d0a1c2d3-0004-4000-8000-000000000004"),
        ]
        for like in likes {
            let post = posts[like.post]
            try store.query("INSERT INTO likes (post_id, user_id, created_at) VALUES (?, ?, ?)",
                                  [.text(post.id), .text(like.user), .float(NovaTime.seconds(like.at))])
            notifications.append((post.user, .init(kind: .like, actor: like.user, post: post.id, at: NovaTime.seconds(like.at),
                                                   id: like.notification, isRead: like.user == bob)))
        }
        for (index, comment) in comments.enumerated() {
            let post = posts[comment.post]
            let at = NovaTime.seconds(comment.at)
            try store.query("INSERT INTO comments (id, post_id, user_id, text, created_at) VALUES (?, ?, ?, ?, ?)",
                                  [.text(comment.id), .text(post.id), .text(comment.user), .text(comment.text), .float(at)])
            notifications.append((post.user, .init(kind: .comment, actor: comment.user, post: post.id, comment: comment.id, at: at,
                                                   id: String(format: "d0a1c2d3-%04d-4000-8000-000000000000", index + 5))))
        }
        // bob's reply mentions alice, on his own post.
        let reply = comments[2]
        notifications.append((alice, .init(kind: .mention, actor: bob, post: posts[reply.post].id, comment: reply.id,
                                           at: NovaTime.seconds(reply.at), id: "d0a1c2d3-0008-4000-8000-000000000008")))
        for (recipient, event) in notifications.sorted(by: { $0.event.at < $1.event.at }) {
            try await NovaNotifier.notify(recipient, event, store)
        }
    }
}
