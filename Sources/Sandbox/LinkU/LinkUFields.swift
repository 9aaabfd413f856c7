import Core
import Foundation
import Hummingbird
import NIOCore

/// A JSON request body's fields, read and checked one by one with every
/// problem collected, so a single 422 names each bad field (seed 001's
/// `details`). Absent and `null` fields read as nil: the caller decides
/// whether that is a default or a problem.
struct BodyFields {
    let body: JSONValue
    private(set) var problems: [(key: String, value: JSONValue)] = []

    /// Images per task, item or post: enough for a gallery, small enough to render.
    static let maxImages = 9

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

    private func value(_ name: String) -> JSONValue? {
        guard let value = body[name], value != .null else { return nil }
        return value
    }

    func has(_ name: String) -> Bool { value(name) != nil }

    mutating func reject(_ name: String, _ problem: String) {
        problems.append((name, .string(problem)))
    }

    /// Throws the collected problems as one 422.
    func check() throws {
        guard problems.isEmpty else { throw APIFailure.validation(problems) }
    }

    /// A string field, trimmed. `required` rejects absent and blank values.
    mutating func text(_ name: String, required: Bool = false, min: Int = 0, max: Int) -> String? {
        guard let value = value(name) else {
            if required { reject(name, "required") }
            return nil
        }
        guard let raw = value.stringValue else { reject(name, "must be a string"); return nil }
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty && required { reject(name, "required"); return nil }
        if text.count < min { reject(name, "at least \(min) characters"); return nil }
        if text.count > max { reject(name, "at most \(max) characters"); return nil }
        return text
    }

    /// A password or token: taken exactly as sent, never trimmed.
    mutating func secret(_ name: String, max: Int) -> String? {
        guard let value = value(name) else { reject(name, "required"); return nil }
        guard let text = value.stringValue else { reject(name, "must be a string"); return nil }
        if text.isEmpty { reject(name, "required"); return nil }
        if text.count > max { reject(name, "at most \(max) characters"); return nil }
        return text
    }

    /// A price: a number of at least 0 (a numeric string is accepted too,
    /// since HTTPie's `price=25` sends one).
    mutating func price(_ name: String = "price", required: Bool = false) -> Double? {
        guard let value = value(name) else {
            if required { reject(name, "required") }
            return nil
        }
        let number: Double?
        switch value {
        case let .number(n): number = Double(n)
        case let .string(s): number = Double(s.trimmingCharacters(in: .whitespaces))
        default: number = nil
        }
        guard let number, number.isFinite else { reject(name, "must be a number"); return nil }
        guard number >= 0 else { reject(name, "must not be negative"); return nil }
        guard number <= 1_000_000 else { reject(name, "must be at most 1000000"); return nil }
        return (number * 100).rounded() / 100
    }

    /// A positive integer id (a numeric string is accepted, as for prices).
    mutating func id(_ name: String, required: Bool = false) -> Int? {
        guard let value = value(name) else {
            if required { reject(name, "required") }
            return nil
        }
        guard let n = value.intValue ?? value.stringValue.flatMap({ Int($0) }), n > 0 else {
            reject(name, "must be a positive integer")
            return nil
        }
        return n
    }

    /// One of a fixed set of strings.
    mutating func choice(_ name: String, among values: [String], required: Bool = false) -> String? {
        guard let text = text(name, required: required, max: 50) else { return nil }
        guard values.contains(text) else { reject(name, "must be one of \(values.joined(separator: ", "))"); return nil }
        return text
    }

    /// A list of image URLs (what `POST /api/upload/image` returned).
    mutating func imageURLs(_ name: String = "images") -> [String]? {
        guard let value = value(name) else { return nil }
        guard case let .array(items) = value else { reject(name, "must be an array of image URLs"); return nil }
        let urls = items.compactMap(\.stringValue)
        guard urls.count == items.count, urls.allSatisfy(Self.isHTTPURL) else {
            reject(name, "each image must be an http or https URL string")
            return nil
        }
        guard urls.count <= Self.maxImages else { reject(name, "at most \(Self.maxImages) images"); return nil }
        return urls
    }

    /// A list of short labels (an expert's specialties).
    mutating func labels(_ name: String, required: Bool = false, maxCount: Int, maxLength: Int) -> [String]? {
        guard let value = value(name) else {
            if required { reject(name, "required") }
            return nil
        }
        guard case let .array(items) = value else { reject(name, "must be an array of strings"); return nil }
        let labels = items.compactMap { $0.stringValue?.trimmingCharacters(in: .whitespaces) }
        guard labels.count == items.count, labels.allSatisfy({ !$0.isEmpty && $0.count <= maxLength }) else {
            reject(name, "each entry must be a non-empty string of at most \(maxLength) characters")
            return nil
        }
        if required && labels.isEmpty { reject(name, "at least one entry"); return nil }
        guard labels.count <= maxCount else { reject(name, "at most \(maxCount) entries"); return nil }
        return labels
    }

    /// An email address, lower-cased (addresses are matched case-insensitively).
    mutating func email(_ name: String = "email", required: Bool = false) -> String? {
        guard let text = text(name, required: required, max: 254) else { return nil }
        guard Self.isEmail(text) else { reject(name, "must be an email address"); return nil }
        return text.lowercased()
    }

    /// A phone number in international form: `+` and 7 to 15 digits (spaces and dashes dropped).
    mutating func phone(_ name: String = "phone", required: Bool = false) -> String? {
        guard let text = text(name, required: required, max: 30) else { return nil }
        let compact = text.filter { $0 != " " && $0 != "-" }
        let digits = compact.dropFirst()
        guard compact.first == "+", (7...15).contains(digits.count), digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else {
            reject(name, "must be an international number such as +447700900123")
            return nil
        }
        return compact
    }

    static func isHTTPURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), url.host != nil else { return false }
        return scheme == "http" || scheme == "https"
    }

    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix(".") else {
            return false
        }
        return !text.contains(where: { $0.isWhitespace })
    }
}
