import Foundation

/// Namespace of Nova's shared models (seed 003's Codable types).
public enum Nova {}

extension Nova {
    public struct User: Codable, Sendable, Equatable {
        public var id: UUID
        public var username: String
        public var email: String
        public var displayName: String?
        public var bio: String?
        public var avatarUrl: String?
        public var isVerified: Bool
        public var createdAt: Date
    }

    public struct UserStats: Codable, Sendable, Equatable {
        public var postCount: Int
        public var followerCount: Int
        public var followingCount: Int
        public var isFollowing: Bool
    }

    /// `{user, tokens}` from register and login; refresh answers only a new access token.
    public struct AuthTokens: Codable, Sendable, Equatable {
        public var accessToken: String
        public var refreshToken: String
        public var expiresIn: Int
        public var tokenType: String
    }
}
