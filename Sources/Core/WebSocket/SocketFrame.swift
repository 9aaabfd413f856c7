/// One WebSocket data frame (a whole message), as the client sees it.
/// Named apart from NIO's `WebSocketFrame`, which is a wire-level frame.
public enum SocketFrame: Sendable, Equatable {
    case text(String)
    case binary([UInt8])

    /// The frame as JSON, when it is a text frame holding JSON.
    public var json: JSONValue? {
        guard case let .text(text) = self else { return nil }
        return try? JSONParser.parse(text)
    }

    /// Bytes on the wire (UTF-8 for text).
    public var byteCount: Int {
        switch self {
        case let .text(text): return text.utf8.count
        case let .binary(bytes): return bytes.count
        }
    }
}
