import Core
import Foundation

/// Reads typed fields of a JSON body and collects every problem, so one 422
/// names all the bad fields at once (the client can mark each input).
struct NovaFields {
    let body: JSONValue
    var problems: [(key: String, value: JSONValue)] = []

    init(_ body: JSONValue) { self.body = body }

    /// A string member, trimmed unless `trim` is false; nil when absent,
    /// null or invalid (the problem is recorded).
    mutating func string(_ name: String, required: Bool = false, max: Int? = nil, trim: Bool = true) -> String? {
        guard let value = body[name], value != .null else {
            if required { fail(name, "required") }
            return nil
        }
        guard let raw = value.stringValue else {
            fail(name, "must be a string, got \(value.kindName)")
            return nil
        }
        let text = trim ? raw.trimmingCharacters(in: .whitespacesAndNewlines) : raw
        if required && text.isEmpty {
            fail(name, "required")
            return nil
        }
        if let max, text.count > max {
            fail(name, "at most \(max) characters, got \(text.count)")
            return nil
        }
        return text
    }

    /// A required string member; "" when missing or bad (the problem is
    /// recorded, and `check()` throws before the value is used).
    mutating func required(_ name: String, max: Int? = nil, trim: Bool = true) -> String {
        string(name, required: true, max: max, trim: trim) ?? ""
    }

    mutating func fail(_ name: String, _ message: String) {
        if !problems.contains(where: { $0.key == name }) { problems.append((name, .string(message))) }
    }

    /// Throws the 422 when any field was bad.
    func check() throws {
        guard problems.isEmpty else { throw APIFailure.validation(problems) }
    }
}
