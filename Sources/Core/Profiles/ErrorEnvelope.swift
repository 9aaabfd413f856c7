/// How a backend reports errors in a body, and how to say one in one line.
public enum ErrorEnvelope: Sendable {
    /// A backend we know nothing of: the shapes common frameworks use —
    /// RFC 9457 problem details (`title`, `detail`, `errors`), `{"message"}`
    /// (a list of them: NestJS), `{"error": "…"}` or `{"error": {"message"}}`,
    /// `{"detail"}` (FastAPI, Django REST framework), fields' messages
    /// (Django REST framework, Rails' and ASP.NET's `errors`), JSON:API's
    /// `{"errors": [{"detail", "source": {"pointer"}}]}`; a `code` in
    /// words beside the message is said too (`401 TOKEN_EXPIRED: …`).
    case generic
    /// A profile file's `errors`: where the message, code and details are,
    /// and friendly text for some codes.
    case fields(ErrorFields)

    /// One readable line for an error body, such as `403 FORBIDDEN: not your task`,
    /// or nil when the body is not this backend's envelope.
    public func describe(status: Int, body: JSONValue?) -> String? {
        guard let body else { return nil }
        switch self {
        case .generic:
            // A code in words beside the message (`{"code": "TOKEN_EXPIRED", "message": …}`, simplejwt's beside
            // `detail`), as a profile's envelope says it; a number or a sentence is not a code.
            // JSON:API's is its one error's (`{"errors": [{"code": "TYPE_CONFLICT", …}]}`).
            var oneError: JSONValue?
            if case let .array(errors)? = body["errors"], errors.count == 1 { oneError = errors[0] }
            let code = [body["code"], body["error_code"], body["error"]?["code"], oneError?["code"]].lazy.compactMap { $0?.stringValue }
                .first { !$0.isEmpty && !$0.contains(" ") && Int($0) == nil }
            // google.rpc.Status (grpc-gateway, Google's APIs): the code's name for its number, the field violations
            // beside the message (`400 INVALID_ARGUMENT: invalid project (project.display_name: must not be empty)`).
            // Google's REST APIs wrap it, the HTTP status its code and the name beside it: `{"error": {"code": 400,
            // "status": "INVALID_ARGUMENT", …}}`.
            let google = if case .object? = body["error"] { body["error"]! } else { body }
            if let number = google["code"]?.intValue, case let .array(details)? = google["details"],
               let name = google["status"]?.stringValue ?? Self.grpcCodes[number], let message = google["message"]?.stringValue, !message.isEmpty {
                let said = Self.googleDetails(details)
                return "\(status) \(Self.shown(name)): \(Self.shown(message))" + (said.isEmpty ? "" : " (" + Self.firstThree(said) + ")")
            }
            // OAuth 2's (RFC 6749 5.2): the code, and its description in words (`400 invalid_grant: bad username or password`).
            if let oauth = body["error"]?.stringValue, let description = body["error_description"]?.stringValue, !description.isEmpty {
                return "\(status) \(Self.shown(oauth)): \(Self.shown(description))"
            }
            let message: String?
            if let detail = body["detail"]?.stringValue.map(Self.shown) {
                // A title that is the detail again (ASP.NET's) is said once.
                message = body["title"]?.stringValue.map { $0 == detail ? detail : Self.joined(Self.shown($0), detail) } ?? detail
            } else if case let .array(problems)? = body["detail"], let said = Self.validationProblems(problems) {
                message = said
            } else if body["errors"] == nil, let said = Self.fieldMessages(body) {
                message = said
            } else {
                // NestJS's `message` is a list of messages.
                let candidates: [JSONValue?] = [body["message"], body["error"], body["error"]?["message"], body["title"]]
                message = candidates.lazy.compactMap { candidate -> String? in
                    if case let .array(items)? = candidate, !items.isEmpty, items.allSatisfy({ $0.stringValue?.isEmpty == false }) {
                        return Self.firstThree(items.map { Self.shown($0.plainText) })
                    }
                    guard let text = candidate?.stringValue, !text.isEmpty, text != code else { return nil }
                    return Self.shown(text)
                }.first
            }
            // The problems listed beside (RFC 9457's and ASP.NET's `errors`, JSON:API's, Rails'), or alone.
            // RFC 9457's example extension, `invalid-params` (`name`, `reason`), too.
            let listed = Self.listedErrors(body["errors"]) ?? Self.listedErrors(body["invalid-params"])
            let parts = [message, listed].compactMap { $0 }
            guard let first = parts.first else { return nil }
            let said = parts.dropFirst().reduce(first, Self.joined)
            return "\(status)\(code.map { " \(Self.shown($0))" } ?? ""): \(said)"
        case let .fields(fields):
            // A body not in the profile's envelope (a framework's own 422) still gets its line.
            return fields.describe(status: status, body: body) ?? ErrorEnvelope.generic.describe(status: status, body: body)
        }
    }

    /// gRPC's status codes by number (google.rpc.Code).
    static let grpcCodes = [1: "CANCELLED", 2: "UNKNOWN", 3: "INVALID_ARGUMENT", 4: "DEADLINE_EXCEEDED", 5: "NOT_FOUND", 6: "ALREADY_EXISTS",
                            7: "PERMISSION_DENIED", 8: "RESOURCE_EXHAUSTED", 9: "FAILED_PRECONDITION", 10: "ABORTED", 11: "OUT_OF_RANGE",
                            12: "UNIMPLEMENTED", 13: "INTERNAL", 14: "UNAVAILABLE", 15: "DATA_LOSS", 16: "UNAUTHENTICATED"]

    /// What google.rpc's error details say in words: a BadRequest's field violations (`field: description`), a
    /// PreconditionFailure's or QuotaFailure's violations, an ErrorInfo's reason; nothing of the others (RequestInfo).
    static func googleDetails(_ details: [JSONValue]) -> [String] {
        details.flatMap { detail -> [String] in
            let violations: [JSONValue] = if case let .array(found)? = detail["fieldViolations"] ?? detail["field_violations"] ?? detail["violations"] {
                found
            } else { [] }
            let said = violations.compactMap { violation -> String? in
                guard let description = violation["description"]?.stringValue, !description.isEmpty else { return nil }
                let field = violation["field"]?.stringValue ?? violation["subject"]?.stringValue
                return field.map { "\(shown($0)): \(shown(description))" } ?? shown(description)
            }
            if !said.isEmpty { return said }
            return detail["reason"]?.stringValue.map { [shown($0)] } ?? []
        }
    }

    /// Django REST framework's validation errors, `{"email": ["Enter a valid
    /// email address."], "non_field_errors": […]}`, nested ones as
    /// `address.zip: …`: every message (three at most, then how many more);
    /// nil unless every member is a list of strings or such an object.
    static func fieldMessages(_ body: JSONValue) -> String? {
        fieldMessageList(body, under: nil).map(firstThree)
    }

    private static func fieldMessageList(_ body: JSONValue, under place: String?) -> [String]? {
        guard case let .object(members) = body, !members.isEmpty else { return nil }
        var said: [String] = []
        for member in members {
            let key = member.key == "non_field_errors" ? nil : place.map { "\($0).\(member.key)" } ?? member.key
            if case let .array(messages) = member.value, !messages.isEmpty, messages.allSatisfy({ $0.stringValue != nil }) {
                // A secret's field holds a message (`"password": ["This password is too short."]`), unless it is
                // the credential itself, echoed: that is not said (the error line showed it in clear).
                said += messages.map { message in
                    let text = Self.shown(message.plainText, as: member.key)
                    return key.map { "\($0): \(text)" } ?? text
                }
            } else if let nested = fieldMessageList(member.value, under: key) {
                said += nested
            } else {
                return nil
            }
        }
        return said
    }

    /// An `errors` member's problems: a list of messages (Rails), of objects
    /// with a message and its place (JSON:API's `detail` and
    /// `source.pointer`, RFC 9457's `pointer`), or fields' messages
    /// (Rails, ASP.NET); nil when it is none of these.
    static func listedErrors(_ errors: JSONValue?) -> String? {
        switch errors {
        case let .array(items)? where !items.isEmpty:
            let said = items.compactMap { item -> String? in
                if let text = item.stringValue { return text.isEmpty ? nil : shown(text) }
                guard let text = [item["detail"], item["message"], item["msg"], item["title"], item["reason"]].lazy.compactMap({ $0?.stringValue })
                    .first(where: { !$0.isEmpty })
                else { return nil }
                let place = [item["source"]?["pointer"], item["source"]?["parameter"], item["pointer"], item["field"], item["path"], item["name"]]
                    .lazy.compactMap { $0?.stringValue }.first { !$0.isEmpty }
                return (place.map { "\($0): " } ?? "") + shown(text)
            }
            return said.isEmpty ? nil : firstThree(said)
        case let .object(fields)?:
            // Rails' one message a field, as a string rather than a list of them.
            return fieldMessages(.object(fields.map { field in
                if case .string = field.value { (field.key, .array([field.value])) } else { field }
            }))
        default:
            return nil
        }
    }

    /// Two parts of a message: `Not Found: no task 7`, or after a sentence's
    /// own stop, `Your request is not valid. The body failed validation.`
    private static func joined(_ first: String, _ second: String) -> String {
        first.last.map { ".!?:;".contains($0) } == true ? "\(first) \(second)" : "\(first): \(second)"
    }

    /// FastAPI's and pydantic's validation errors, `[{"loc": ["body", "quantity"],
    /// "msg": "Field required"}, …]`, as `body.quantity: Field required; …`
    /// (three at most, then how many more); nil when they are not that shape.
    static func validationProblems(_ problems: [JSONValue]) -> String? {
        let said = problems.compactMap { problem -> String? in
            guard let message = (problem["msg"]?.stringValue ?? problem["message"]?.stringValue).map(shown) else { return nil }
            guard case let .array(place)? = problem["loc"], !place.isEmpty else { return message }
            return place.map(\.plainText).joined(separator: ".") + ": " + message
        }
        guard !said.isEmpty else { return nil }
        return firstThree(said)
    }

    /// A server's message as an error line says it: a credential it repeats
    /// (`invalid token Bearer X`, `token=X rejected`) hidden, as the body
    /// above the line hides it (the line showed it in clear).
    static func shown(_ message: String) -> String { Redactor.hidingCredentials(inText: message) }

    /// A member's message, the credential itself when a secret's member
    /// holds one (`"password": ["hunter2 is too common"]` is a message;
    /// `"token": ["tok_8Yx…"]` an echo).
    static func shown(_ message: String, as key: String) -> String {
        Redactor.isSecretName(key) && !ExpectedValue.readsAsAMessage(message) ? Redactor.hidden(message) : shown(message)
    }

    /// `a; b; c (and 2 more)`: a list of problems on one line.
    private static func firstThree(_ said: [String]) -> String {
        said.prefix(3).joined(separator: "; ") + (said.count > 3 ? " (and \(said.count - 3) more)" : "")
    }
}

/// Where a backend's error body keeps its parts (`errors` in a profile file).
public struct ErrorFields: Sendable, Equatable {
    public var message: JSONPath
    public var code: JSONPath?
    public var details: JSONPath?
    /// Friendly text by code, shown instead of the body's message.
    public var codes: [String: String]

    /// Where the body repeats the HTTP status (LinkU's `status_code`): the
    /// number said, when the body has one.
    public var status: JSONPath?
    /// An object of the members every error body has, with these values
    /// (LinkU's `{"error": true}`): a body without them is not this envelope,
    /// and a made-up one starts from them. A value, so equality stays derived.
    public var fixed: JSONValue

    public init(message: JSONPath, code: JSONPath? = nil, details: JSONPath? = nil, status: JSONPath? = nil,
                fixed: [(key: String, value: JSONValue)] = [], codes: [String: String] = [:]) {
        self.message = message
        self.code = code
        self.details = details
        self.status = status
        self.fixed = .object(fixed)
        self.codes = codes
    }

    /// `404 NOT_FOUND: no such repository (name: x)`; nil when the body has no message there.
    func describe(status: Int, body: JSONValue) -> String? {
        func value(_ path: JSONPath?) -> JSONValue? {
            guard let path, case let .success(found) = path.evaluate(body), found != .null else { return nil }
            return found
        }
        if case let .object(members) = fixed, !members.allSatisfy({ body[$0.key] == $0.value }) { return nil }
        let code = value(code).map(\.plainText).flatMap { $0.isEmpty ? nil : $0 }
        // `message: .detail` of FastAPI: a list of validation problems is said as such, not as its JSON.
        let read = value(message).map { found -> String in
            if case let .array(problems) = found, let said = ErrorEnvelope.validationProblems(problems) { return said }
            return ErrorEnvelope.shown(found.plainText)
        }
        guard let message = code.flatMap({ codes[$0] }) ?? read, !message.isEmpty else { return nil }
        let said = value(self.status)?.intValue ?? status
        var line = "\(said)" + (code.map { " \($0)" } ?? "") + ": \(message)"
        switch value(details) {
        case let .object(members)? where !members.isEmpty:
            line += " (" + members.map { "\($0.key): \(ErrorEnvelope.shown($0.value.plainText, as: $0.key))" }.joined(separator: "; ") + ")"
        case let .array(items)? where !items.isEmpty:
            // google.rpc's details in words (their JSON was shown); others as they are.
            let google = ErrorEnvelope.googleDetails(items)
            line += " (" + (google.isEmpty ? items.map { ErrorEnvelope.shown($0.plainText) } : google).joined(separator: "; ") + ")"
        case let .string(text)? where !text.isEmpty:
            line += " (\(ErrorEnvelope.shown(text)))"
        default:
            break
        }
        return line
    }
}

extension ErrorEnvelope {
    /// An error body in this envelope, for answers a server of ours makes up
    /// (`explorer mock`): `describe` reads it back as `status code: message`.
    public func body(status: Int, code: String, message: String) -> JSONValue {
        switch self {
        case .generic:
            return .object([("error", .string(code)), ("message", .string(message))])
        case let .fields(fields):
            var body = fields.fixed
            if let path = fields.code { body = body.setting(path, to: .string(code)) }
            if let path = fields.status { body = body.setting(path, to: .int(status)) }
            return body.setting(fields.message, to: .string(message))
        }
    }
}
