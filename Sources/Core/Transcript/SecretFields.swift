/// The body fields a profile marks secret (`Profile.secretFields`), such as
/// `access_token` or `tokens.access_token`. A recording hides a string at
/// such a field whatever it looks like, an opaque token as much as a JWT,
/// in addition to the name rule (`*token`, `password`, …) and the JWT shape.
public struct SecretFields: Sendable, Equatable {
    /// Each field as its keys: `tokens.access_token` is `["tokens", "access_token"]`.
    public var paths: [[String]]

    public init(_ fields: [String]) {
        paths = fields.map { $0.split(separator: ".").map(String.init) }.filter { !$0.isEmpty }
    }

    public static let none = SecretFields([])

    /// Whether the member reached by `keys` (the object keys from the body's
    /// root, array positions left out) is marked: its last keys are a field's.
    public func contains(_ keys: [String]) -> Bool {
        paths.contains { path in keys.count >= path.count && Array(keys.suffix(path.count)) == path }
    }

    /// A field's own name (its last key): what a request item or frame member is called.
    public func containsName(_ name: String) -> Bool {
        paths.contains { $0.last == name }
    }
}
