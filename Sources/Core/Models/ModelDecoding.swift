import Foundation

/// How the shared models decode: ISO 8601 dates (all four backends send them
/// to the second) and snake_case keys turned into Swift's camelCase, which
/// leaves Level Up's and the posture app's camelCase keys as they are.
public enum ModelDecoding {
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// Decodes a body into a shared model; the error says what Codable tripped on.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decoder().decode(type, from: Data(bytes))
    }
}

/// LinkU's error body (seed 001): `{"error": true, "message", "error_code", "status_code", "details"}`.
public struct LinkUErrorBody: Codable, Sendable, Equatable {
    public var error: Bool
    public var message: String
    public var errorCode: String
    public var statusCode: Int
    /// Any JSON: field messages (`{"title": "required"}`), but also the states
    /// a task may move to (409) or a size limit and a wait in seconds (413, 429).
    public var details: JSONValue?
}

/// Nova's `ErrorResponse` (seed 003), which Level Up and the posture sandbox share: `{"code", "message", "details"}`.
public struct CodeMessageErrorBody: Codable, Sendable, Equatable {
    public var code: String
    public var message: String
    /// Any JSON, as in `LinkUErrorBody.details`.
    public var details: JSONValue?
}
