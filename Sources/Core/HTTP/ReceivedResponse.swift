import Foundation

/// What came back for one request.
public struct ReceivedResponse: Sendable, Equatable {
    public var status: Int
    public var reason: String
    public var headers: [HTTPHeader]
    public var body: [UInt8]

    public init(status: Int, reason: String = "", headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The media type without parameters, lower-cased (`application/json`).
    public var mediaType: String? {
        header("Content-Type").map { String($0.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// Whether the server says the body is JSON (`application/json`, `+json`).
    public var claimsJSON: Bool {
        guard let type = mediaType else { return false }
        return type == "application/json" || type.hasSuffix("+json")
    }

    /// The body parsed as JSON, or nil when it is not JSON.
    public var json: JSONValue? { try? JSONParser.parse(body) }
}
