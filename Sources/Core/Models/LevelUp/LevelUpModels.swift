/// Namespace of Level Up Solo's shared models (seed 004, camelCase keys).
public enum LevelUp {}

extension LevelUp {
    /// The login answer's `user` (`GET /api/auth/user` adds `hasCompletedOnboarding`).
    public struct User: Codable, Sendable, Equatable {
        public var id: String
        public var email: String
        public var firstName: String?
        public var lastName: String?
        public var hasCompletedOnboarding: Bool?
    }

    /// `POST /api/auth/simple-login`.
    public struct LoginResponse: Codable, Sendable, Equatable {
        public var message: String
        public var accessToken: String
        public var refreshToken: String
        public var user: User
    }
}
