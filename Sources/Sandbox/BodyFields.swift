import Core
import Foundation
import Hummingbird
import NIOCore

/// A JSON request body's fields, read and checked one by one with every
/// problem collected, so a single 422 names each bad field (seed 001's
/// `details`, Nova's field errors). Absent and `null` fields read as nil:
/// the caller decides whether that is a default or a problem. Every backend
/// reads bodies through this; LinkU adds its own kinds of field
/// (LinkUFields.swift).
struct BodyFields {
    let body: JSONValue
    private(set) var problems: [(key: String, value: JSONValue)] = []

    init(_ body: JSONValue) { self.body = body }

    /// `jsonObject` reads at most 1 MiB; past that, a 413 rather than a 500.
    static let tooLarge = APIFailure.bodyTooLarge

    /// The request's JSON object body (400 when it is not one).
    static func read(_ request: Request) async throws -> BodyFields {
        do { return BodyFields(try await jsonObject(request)) } catch is NIOTooManyBytesError { throw tooLarge }
    }

    /// For action endpoints whose body is optional (`POST …/apply` with or
    /// without a message): an empty body reads as `{}`.
    static func readOptional(_ request: Request) async throws -> BodyFields {
        var request = request
        let empty: Bool
        do { empty = try await request.collectBody(upTo: 1 << 20).readableBytes == 0 } catch is NIOTooManyBytesError { throw tooLarge }
        return empty ? BodyFields(.object([])) : try await read(request)
    }

    func value(_ name: String) -> JSONValue? {
        guard let value = body[name], value != .null else { return nil }
        return value
    }

    func has(_ name: String) -> Bool { value(name) != nil }

    /// Records a problem with a field; the first one recorded for a field
    /// is the one reported (a JSON object has one value per key).
    mutating func reject(_ name: String, _ problem: String) {
        if !problems.contains(where: { $0.key == name }) { problems.append((name, .string(problem))) }
    }

    /// Throws the collected problems as one 422.
    func check() throws {
        guard problems.isEmpty else { throw APIFailure.validation(problems) }
    }

    /// A string field, trimmed unless `trim` is false (passwords, captions).
    /// `required` rejects absent and blank values.
    mutating func text(_ name: String, required: Bool = false, min: Int = 0, max: Int? = nil, trim: Bool = true) -> String? {
        guard let value = value(name) else {
            if required { reject(name, "required") }
            return nil
        }
        guard let raw = value.stringValue else { reject(name, "must be a string, got \(value.kindName)"); return nil }
        let text = trim ? raw.trimmingCharacters(in: .whitespacesAndNewlines) : raw
        if text.isEmpty && required { reject(name, "required"); return nil }
        if text.count < min { reject(name, "at least \(min) characters, got \(text.count)"); return nil }
        if let max, text.count > max { reject(name, "at most \(max) characters, got \(text.count)"); return nil }
        return text
    }

    /// A required string field; "" when missing or bad (the problem is
    /// recorded, and `check()` throws before the value is used).
    mutating func required(_ name: String, max: Int? = nil, trim: Bool = true) -> String {
        text(name, required: true, max: max, trim: trim) ?? ""
    }
}
