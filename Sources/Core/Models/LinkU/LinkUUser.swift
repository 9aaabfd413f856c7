import Foundation

/// Namespace of LinkU's shared models (seed 000), so `LinkU.User` and `Nova.User` can coexist.
public enum LinkU {}

extension LinkU {
    /// The private profile: `GET /api/users/profile/me` and a session's `user`.
    public struct User: Codable, Sendable, Equatable {
        public var id: Int
        public var email: String
        public var username: String
        public var phone: String?
        public var avatar: String?
        public var bio: String?
        public var city: String?
        public var createdAt: Date
    }

    /// `{id, username, avatar}` inside items and conversations.
    public struct UserSummary: Codable, Sendable, Equatable {
        public var id: Int
        public var username: String
        public var avatar: String?
    }
}
