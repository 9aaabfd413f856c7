import NIOWebSocket

/// Something a server sent that RFC 6455 says fails the connection, with
/// the close code this side sends and a line saying why. The WebSocket
/// library closes with the right code but keeps the reason to itself (its
/// error type is internal): this recovers both from the error it throws.
struct ProtocolBreach: Sendable, Equatable {
    let code: Int
    let reason: String

    init(code: Int, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// Nil for an error that is not a breach (a dropped connection, a cancel).
    init?(_ error: any Error, maximumMessageBytes: Int) {
        let closeCode: WebSocketErrorCode
        if let decoding = error as? NIOWebSocketError {
            switch decoding {
            case .invalidFrameLength: closeCode = .messageTooLarge
            case .fragmentedControlFrame, .multiByteControlFrameLength: closeCode = .protocolError
            }
        } else if let carried = Mirror(reflecting: error).children.first?.value as? WebSocketErrorCode {
            // WSCore's `InternalError.close(code)`.
            closeCode = carried
        } else {
            return nil
        }
        switch closeCode {
        case .messageTooLarge:
            self = .tooBig(maximumMessageBytes)
        case .dataInconsistentWithMessage:
            self.init(code: 1007, reason: "the server sent a text frame that is not valid UTF-8")
        case .protocolError:
            self.init(code: 1002, reason: "the server sent bytes that are not a valid WebSocket frame")
        default:
            return nil
        }
    }

    /// A message over the limit (1009).
    static func tooBig(_ maximumMessageBytes: Int) -> ProtocolBreach {
        ProtocolBreach(code: 1009, reason: "the server sent a message over \(size(maximumMessageBytes)), the most one may be")
    }

    private static func size(_ bytes: Int) -> String {
        bytes % (1024 * 1024) == 0 ? "\(bytes / (1024 * 1024)) MB" : bytes % 1024 == 0 ? "\(bytes / 1024) KB" : "\(bytes) bytes"
    }
}
