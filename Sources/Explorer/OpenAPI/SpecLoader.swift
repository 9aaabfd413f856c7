import Core
import Foundation
import Yams

/// What an OpenAPI document adds to a session: a catalog, the servers it
/// names, and one note per construct the import does not carry over.
struct ImportedSpec: Sendable {
    var endpoints: [Endpoint]
    var servers: [URL]
    var notes: [String]
}

/// A spec that cannot be used: the file, where in it (a JSON path), and why.
struct SpecError: Error, Equatable, CustomStringConvertible {
    let file: String
    let path: String
    let reason: String
    var description: String { "\(file): \(path.isEmpty ? "" : "at \(path): ")\(reason)" }
}

/// Reads an OpenAPI 3.0 or 3.1 document, JSON or YAML, and hands it to the
/// importer of its version (OpenAPIKit has one module per version).
enum SpecLoader {
    private struct Version: Decodable { let openapi: String }

    static func load(_ file: String) throws(SpecError) -> ImportedSpec {
        guard let data = FileManager.default.contents(atPath: file) else { throw SpecError(file: file, path: "", reason: "cannot read the file") }
        let isJSON = data.first(where: { !" \n\r\t".utf8.contains($0) }) == UInt8(ascii: "{")
        do {
            let version = try decode(Version.self, data, isJSON: isJSON).openapi
            if version.hasPrefix("3.1") { return try SpecImport31.load(data, decode: { try decode($0, data, isJSON: isJSON) }) }
            if version.hasPrefix("3.0") { return try SpecImport30.load(data, decode: { try decode($0, data, isJSON: isJSON) }) }
            throw SpecError(file: file, path: "openapi", reason: "version \(version) is not 3.0 or 3.1")
        } catch let error as SpecError {
            throw SpecError(file: file, path: error.path, reason: error.reason)
        } catch {
            throw SpecError(file: file, path: SpecImport31.codingPath(of: error), reason: SpecImport31.reason(of: error))
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ data: Data, isJSON: Bool) throws -> T {
        if isJSON { return try JSONDecoder().decode(type, from: data) }
        return try YAMLDecoder().decode(type, from: data)
    }

    /// A JSON path such as `.paths["/pets"].get.responses` from coding keys.
    static func jsonPath(_ keys: [CodingKey]) -> String {
        keys.map { key in
            if let index = key.intValue { return "[\(index)]" }
            let name = key.stringValue
            return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } ? ".\(name)" : "[\"\(name)\"]"
        }.joined()
    }
}
