import Foundation

extension Nova {
    public struct Post: Codable, Sendable, Equatable {
        public var id: UUID
        public var userId: UUID
        public var imageUrl: String
        public var thumbnailUrl: String?
        public var caption: String?
        public var likeCount: Int
        public var commentCount: Int
        public var isLiked: Bool
        public var createdAt: Date
        public var user: User
    }

    public struct Comment: Codable, Sendable, Equatable {
        public var id: UUID
        public var postId: UUID
        public var userId: UUID
        public var text: String
        public var createdAt: Date
        public var user: User
    }

    /// A page of `GET /feed`: `next_cursor` is null on the last page.
    public struct FeedResponse: Codable, Sendable, Equatable {
        public var posts: [Post]
        public var nextCursor: String?
    }
}
