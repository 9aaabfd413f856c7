import Foundation

extension LinkU {
    public enum MessageType: String, Codable, Sendable {
        case text, image, file
    }

    /// A chat message, over REST and the WebSocket alike (docs/sandbox-chat.md).
    public struct Message: Codable, Sendable, Equatable {
        public var id: Int
        public var conversationId: Int
        public var senderId: Int
        public var receiverId: Int
        public var content: String
        public var type: MessageType
        public var clientMessageId: String?
        public var isRead: Bool
        public var readAt: Date?
        public var createdAt: Date
    }

    public struct Conversation: Codable, Sendable, Equatable {
        public var id: Int
        public var otherUser: UserSummary
        public var lastMessage: Message?
        public var unreadCount: Int
        public var updatedAt: Date
    }
}
