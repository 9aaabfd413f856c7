import Core
import Foundation

/// LinkU's kinds of body field, on top of the shared reader (BodyFields.swift).
extension BodyFields {
    /// Images per task, item or post: enough for a gallery, small enough to render.
    static let maxImages = 9

    /// A password or token: required, taken exactly as sent, never trimmed.
    mutating func secret(_ name: String, max: Int) -> String? {
        text(name, required: true, max: max, trim: false)
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
