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
        headers.first { $0.hasName(name) }?.value
    }

    /// The media type without parameters, lower-cased (`application/json`).
    public var mediaType: String? {
        guard let value = header("Content-Type") else { return nil }
        let type = value.prefix { $0 != ";" }.drop { $0 == " " || $0 == "\t" }
        return String(type.reversed().drop { $0 == " " || $0 == "\t" }.reversed()).lowercased()
    }

    /// Whether the server says the body is JSON (`application/json`, `+json`).
    public var claimsJSON: Bool {
        guard let type = mediaType else { return false }
        return type == "application/json" || type.hasSuffix("+json")
    }

    /// The body parsed as JSON, or nil when it is not JSON.
    public var json: JSONValue? { try? JSONParser.parse(body) }
}
