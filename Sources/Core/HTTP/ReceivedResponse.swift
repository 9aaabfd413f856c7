import Foundation

/// What came back for one request.
public struct ReceivedResponse: Sendable, Equatable {
    public var status: Int
    public var reason: String
    public var headers: [HTTPHeader]
    public var body: [UInt8] {
        didSet { parsed = ParsedJSON() }
    }
    /// The body parsed once, on first use, for every reader of every copy.
    private var parsed = ParsedJSON()

    public init(status: Int, reason: String = "", headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    public static func == (a: ReceivedResponse, b: ReceivedResponse) -> Bool {
        a.status == b.status && a.reason == b.reason && a.headers == b.headers && a.body == b.body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.hasName(name) }?.value
    }

    /// The media type without parameters, lower-cased (`application/json`).
    public var mediaType: String? {
        guard let value = header("Content-Type") else { return nil }
        // Over UTF-8: asked several times for every answer shown.
        let bytes = value.utf8
        var type = bytes[..<(bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex)]
        while let first = type.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { type = type.dropFirst() }
        while let last = type.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { type = type.dropLast() }
        return String(decoding: type.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Whether the server says the body is JSON (`application/json`, `+json`).
    public var claimsJSON: Bool {
        guard let type = mediaType else { return false }
        return type == "application/json" || type.hasSuffix("+json")
    }

    /// A `Content-Encoding` the transport does not decode (it decodes gzip
    /// and deflate), such as `br`: the body is still encoded. Nil otherwise.
    public var undecodedEncoding: String? {
        guard let value = header("Content-Encoding")?.trimmingCharacters(in: .whitespaces).lowercased(), !value.isEmpty else { return nil }
        let codings = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return codings.allSatisfy { ["gzip", "x-gzip", "deflate", "identity"].contains($0) } ? nil : value
    }

    /// The body parsed as JSON, or nil when it is not JSON. Parsed once: the
    /// interpreter, the renderer, the auth session and a recording all ask.
    public var json: JSONValue? { parsed.value(of: body) }
}

/// A response body's JSON, kept after the first parse.
private final class ParsedJSON: @unchecked Sendable {
    private let lock = NSLock()
    private var parsed: JSONValue??

    func value(of body: [UInt8]) -> JSONValue? {
        lock.withLock {
            if let parsed { return parsed }
            let value = try? JSONParser.parse(body)
            parsed = .some(value)
            return value
        }
    }
}
