import Foundation

extension LinkU {
    /// Seed 000's item status.
    public enum FleaMarketItemStatus: String, Codable, Sendable {
        case available, sold, removed
    }

    public struct FleaMarketItem: Codable, Sendable, Equatable {
        public var id: Int
        public var title: String
        public var description: String?
        public var category: String?
        public var city: String?
        public var price: Double
        public var images: [String]
        public var status: FleaMarketItemStatus
        public var sellerId: Int
        public var seller: UserSummary
        public var favoriteCount: Int
        public var isFavorited: Bool
        public var createdAt: Date
        public var updatedAt: Date
        public var refreshedAt: Date?
    }
}
