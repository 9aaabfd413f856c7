import Foundation

extension LinkU {
    /// Seed 000's TaskStatus, with 001's `confirmed`.
    public enum TaskStatus: String, Codable, Sendable {
        case open, inProgress = "in_progress", completed, confirmed, cancelled
    }

    public struct Task: Codable, Sendable, Equatable {
        public var id: Int
        public var title: String
        public var description: String?
        public var category: String
        public var city: String?
        public var price: Double
        public var status: TaskStatus
        public var posterId: Int
        public var takerId: Int?
        public var images: [String]
        public var createdAt: Date
        public var updatedAt: Date
    }

    /// A page of `GET /api/tasks`.
    public struct TaskListResponse: Codable, Sendable, Equatable {
        public var tasks: [Task]
        public var total: Int
        public var page: Int
        public var pageSize: Int
    }
}
