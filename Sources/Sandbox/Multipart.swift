import Foundation

/// A `multipart/form-data` body (RFC 7578) split into its parts, for
/// backends that take file uploads. Hummingbird has no multipart support and
/// the dependency list is kept short, hence this small parser.
struct MultipartForm {
    struct Part {
        /// The `name` of the part's Content-Disposition.
        var name: String
        /// The `filename`, present for file parts.
        var filename: String?
        /// The part's own Content-Type, as the client declared it.
        var contentType: String?
        var data: ArraySlice<UInt8>
    }

    /// Why a body is not usable multipart, worded for an API error message.
    struct Failure: Error, Equatable {
        let reason: String
    }

    let parts: [Part]

    /// The first part called `name`.
    func part(named name: String) -> Part? { parts.first { $0.name == name } }

    /// The boundary of a `multipart/form-data; boundary=…` Content-Type;
    /// nil when the media type is another one.
    static func boundary(contentType: String) throws(Failure) -> String? {
        let (mediaType, parameters) = splitParameters(contentType)
        guard mediaType.lowercased() == "multipart/form-data" else { return nil }
        guard let boundary = parameters["boundary"], !boundary.isEmpty else {
            throw Failure(reason: "multipart/form-data needs a boundary parameter in its Content-Type")
        }
        guard boundary.utf8.count <= 70 else { throw Failure(reason: "the multipart boundary is longer than 70 characters") }
        return boundary
    }

    /// Splits `body` at `--boundary` lines. A preamble before the first
    /// boundary and an epilogue after the closing `--boundary--` are ignored.
    init(_ body: [UInt8], boundary: String) throws(Failure) {
        let delimiter = Array("--\(boundary)".utf8)
        let crlf: [UInt8] = [13, 10]
        guard var cursor = Self.find(delimiter, in: body, from: 0) else {
            throw Failure(reason: "the body does not contain its multipart boundary")
        }
        var parts: [Part] = []
        while true {
            cursor += delimiter.count
            if body[cursor...].starts(with: [45, 45]) { break }   // "--": the closing delimiter
            guard body[cursor...].starts(with: crlf) else { throw Failure(reason: "a multipart boundary is not followed by a line break") }
            cursor += 2
            guard let headerEnd = Self.find(crlf + crlf, in: body, from: cursor) else {
                throw Failure(reason: "a multipart part has no blank line after its headers")
            }
            guard let contentEnd = Self.find(crlf + delimiter, in: body, from: headerEnd + 4) else {
                throw Failure(reason: "the multipart body has no closing boundary")
            }
            parts.append(try Self.part(headers: body[cursor..<headerEnd], data: body[(headerEnd + 4)..<contentEnd]))
            cursor = contentEnd + 2
        }
        self.parts = parts
    }

    private static func part(headers: ArraySlice<UInt8>, data: ArraySlice<UInt8>) throws(Failure) -> Part {
        guard let text = String(validating: headers, as: UTF8.self) else { throw Failure(reason: "multipart part headers are not UTF-8") }
        var disposition: [String: String]?
        var contentType: String?
        for line in text.components(separatedBy: "\r\n") where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw Failure(reason: "malformed multipart header line '\(line)'") }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-disposition" {
                let (kind, parameters) = splitParameters(value)
                guard kind.lowercased() == "form-data" else { throw Failure(reason: "a multipart part is not form-data") }
                disposition = parameters
            } else if name == "content-type" {
                contentType = value
            }
        }
        guard let disposition, let name = disposition["name"] else {
            throw Failure(reason: "a multipart part has no Content-Disposition name")
        }
        return Part(name: name, filename: disposition["filename"], contentType: contentType, data: data)
    }

    /// `type; a=1; b="x;y"` → ("type", [a: 1, b: x;y]); parameter names lower-cased, quotes and backslash escapes removed.
    static func splitParameters(_ header: String) -> (String, [String: String]) {
        var fields: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for c in header {
            if escaped { current.append(c); escaped = false; continue }
            switch c {
            case "\\" where quoted: escaped = true
            case "\"": quoted.toggle()
            case ";" where !quoted: fields.append(current); current = ""
            default: current.append(c)
            }
        }
        fields.append(current)
        var parameters: [String: String] = [:]
        for field in fields.dropFirst() {
            guard let equals = field.firstIndex(of: "=") else { continue }
            let key = field[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            parameters[key] = parameters[key] ?? field[field.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        return (fields[0].trimmingCharacters(in: .whitespaces), parameters)
    }

    /// The index where `pattern` first occurs in `bytes` at or after `start`.
    /// memchr finds candidates for the first byte, so a 5 MiB image is scanned quickly even in debug builds.
    static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.first, start <= bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            var position = start
            while position + pattern.count <= buffer.count {
                guard let hit = memchr(base + position, Int32(first), buffer.count - position) else { return nil }
                let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                guard index + pattern.count <= buffer.count else { return nil }
                if memcmp(base + index, pattern, pattern.count) == 0 { return index }
                position = index + 1
            }
            return nil
        }
    }
}
