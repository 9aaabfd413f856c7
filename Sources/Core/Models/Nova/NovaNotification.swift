import Foundation

extension Nova {
    public enum NotificationType: String, Codable, Sendable {
        case like, comment, follow, mention
    }

    /// `post` is null for a follow.
    public struct Notification: Codable, Sendable, Equatable {
        public var id: UUID
        public var type: NotificationType
        public var actorId: UUID
        public var postId: UUID?
        public var isRead: Bool
        public var createdAt: Date
        public var actor: User
        public var post: Post?
    }
}
