import Foundation
import SQLiteNIO

/// Creates notifications from real events (a like, a comment, a follow, an
/// @mention), so what a user sees in GET /notifications is what others did.
/// Nobody is notified of their own actions.
enum NovaNotifier {
    enum Kind: String { case like, comment, follow, mention }

    struct Event {
        var kind: Kind
        var actor: String
        var post: String? = nil
        var comment: String? = nil
        var at: Double
        /// Fixed for seed data; new events get a fresh UUID.
        var id: String = NovaID.new()
        var isRead = false
    }

    static func notify(_ recipient: String, _ event: Event, _ store: SandboxStore) async throws {
        guard recipient != event.actor else { return }
        try store.query("""
            INSERT INTO notifications (id, user_id, type, actor_id, post_id, comment_id, is_read, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(event.id), .text(recipient), .text(event.kind.rawValue), .text(event.actor),
                  event.post.map(SQLiteData.text) ?? .null, event.comment.map(SQLiteData.text) ?? .null,
                  .integer(event.isRead ? 1 : 0), .float(event.at)])
    }

    /// Notifies each user named as `@username` in `text` once, except those in `skip`
    /// (already told of the same event, such as the post's author of a comment).
    static func mentions(in text: String, _ event: Event, skip: Set<String>, _ store: SandboxStore) async throws {
        var told = skip
        for name in usernames(in: text) {
            guard let row = try store.query("SELECT id FROM users WHERE username = ?", [.text(name)]).first else { continue }
            let id = row.text("id")
            guard !told.contains(id) else { continue }
            told.insert(id)
            var mention = event
            mention.kind = .mention
            mention.id = NovaID.new()
            try await notify(id, mention, store)
        }
    }

    /// `@name` tokens: an `@` not preceded by a letter or digit (so an email
    /// address is no mention), then letters, digits, `.` and `_`, without a trailing period.
    static func usernames(in text: String) -> [String] {
        let chars = Array(text)
        func isName(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber || c == "." || c == "_") }
        var names: [String] = []
        var i = 0
        while i < chars.count {
            guard chars[i] == "@", i == 0 || !(chars[i - 1].isLetter || chars[i - 1].isNumber) else {
                i += 1
                continue
            }
            var end = i + 1
            while end < chars.count, isName(chars[end]) { end += 1 }
            var name = String(chars[(i + 1)..<end])
            while name.hasSuffix(".") { name.removeLast() }
            if !name.isEmpty { names.append(name) }
            i = end
        }
        return names
    }
}
