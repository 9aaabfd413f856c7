import Foundation

/// Seed 002's raw values.
public enum PostureType: String, Codable, Sendable {
    case normal, hunched, leanLeft = "lean_left", leanRight = "lean_right"
}

/// One log as uploaded and read back (`synced` is the app's own flag, not sent back).
public struct PostureLog: Codable, Sendable, Equatable {
    public var id: UUID
    public var timestamp: Date
    public var postureType: PostureType
    public var duration: Double
    public var deviceId: String
}
