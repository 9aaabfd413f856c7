/// How a backend reports errors in a body, and how to say one in one line.
public enum ErrorEnvelope: Sendable {
    /// LinkU (001): `{"error": true, "message", "error_code", "status_code", "details"}`.
    case linku
    /// Nova (003's `ErrorResponse`): `{"code", "message"}`, optionally `details`.
    /// Level Up and posture use it too; their seeds leave the shape open.
    case codeMessage
    /// A backend we know nothing of: the shapes common frameworks use —
    /// RFC 9457 problem details (`title`, `detail`), `{"message"}`,
    /// `{"error": "…"}` or `{"error": {"message"}}`, `{"detail"}` (FastAPI,
    /// Django REST framework), `{"errors": [{"message"}]}`.
    case generic

    /// One readable line for an error body, such as `403 FORBIDDEN: not your task`,
    /// or nil when the body is not this backend's envelope.
    public func describe(status: Int, body: JSONValue?) -> String? {
        guard let body else { return nil }
        switch self {
        case .linku:
            guard body["error"]?.boolValue == true, let message = body["message"]?.stringValue else { return nil }
            let code = body["status_code"]?.intValue ?? status
            var line = "\(code)"
            if let errorCode = body["error_code"]?.stringValue, !errorCode.isEmpty { line += " \(errorCode)" }
            line += ": \(message)"
            if case let .object(details)? = body["details"], !details.isEmpty {
                let fields = details.map { "\($0.key): \($0.value.plainText)" }.joined(separator: "; ")
                line += " (\(fields))"
            }
            return line
        case .generic:
            if let detail = body["detail"]?.stringValue {
                let title = body["title"]?.stringValue
                return "\(status): " + (title.map { "\($0): \(detail)" } ?? detail)
            }
            let candidates: [JSONValue?] = [body["message"], body["error"], body["error"]?["message"], body["errors"]?[0]?["message"], body["title"]]
            for candidate in candidates {
                if let message = candidate?.stringValue, !message.isEmpty { return "\(status): \(message)" }
            }
            return nil
        case .codeMessage:
            guard let code = body["code"]?.stringValue, let message = body["message"]?.stringValue else { return nil }
            var line = "\(status) \(code): \(message)"
            if case let .object(details)? = body["details"], !details.isEmpty {
                line += " (" + details.map { "\($0.key): \($0.value.plainText)" }.joined(separator: "; ") + ")"
            }
            return line
        }
    }
}
