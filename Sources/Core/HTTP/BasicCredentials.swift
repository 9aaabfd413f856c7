import Foundation

/// HTTP Basic credentials (RFC 7617): `user:password` as an Authorization value and back.
public struct BasicCredentials: Sendable, Equatable {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// `user:password` as typed (`curl -u`, `auth basic`): split at its first colon.
    public init?(pair: String) {
        guard let colon = pair.firstIndex(of: ":") else { return nil }
        self.init(user: String(pair[..<colon]), password: String(pair[pair.index(after: colon)...]))
    }

    /// The credentials of an Authorization value `Basic <base64>`, nil for any other.
    public init?(authorization value: String) {
        guard value.utf8.count > 6, value.prefix(6).lowercased() == "basic ",
              let data = Data(base64Encoded: value.dropFirst(6).trimmingCharacters(in: .whitespaces)),
              let pair = String(data: data, encoding: .utf8) else { return nil }
        self.init(pair: pair)
    }

    /// `Basic <base64 of user:password>`.
    public var authorization: String { "Basic " + Data("\(user):\(password)".utf8).base64EncodedString() }
}
