import Core
import Foundation
import Yams

/// What an OpenAPI document adds to a session: a catalog, the servers it
/// names, and one note per construct the import does not carry over.
struct ImportedSpec: Sendable {
    var endpoints: [Endpoint]
    /// Component schemas and the inline objects of bodies and answers.
    var models: [Model]
    var servers: [URL]
    /// Each server's `description` (`Production`), in `servers`' order; nil where it has none.
    var serverDescriptions: [String?] = []
    /// The document's `info.title`, nil when blank.
    var title: String?
    /// Where the API is on a host given by `--base-url` (`/api/v1`): see `SpecDocument.serverPath`.
    var serverPath: String?
    var notes: [String]
    /// For a request that matches no operation: the document's own `security`.
    var defaultAccess: SpecAccess
    /// The scheme a session's credential is sent by (`profile init` writes
    /// it as the auth); nil when none is needed or none can be sent.
    var credential: SpecScheme? = nil
    /// The file it was read from (a recording names it in its header).
    var source: String?

    /// Each model's fields (the catalog's and each body's) in the order the
    /// JSON document `data` writes its properties.
    mutating func inDocumentFieldOrder(_ data: Data) {
        let (orders, firstSeen) = SpecLoader.propertyOrders(data)
        guard !orders.isEmpty else { return }
        func ordered(_ model: Model) -> Model {
            var model = model
            if let order = orders[Set(model.fields.map(\.name))] {
                model.fields.sort { (order.firstIndex(of: $0.name) ?? .max) < (order.firstIndex(of: $1.name) ?? .max) }
            } else {
                // Merged from several objects: by each name's first place in the document, then by name.
                model.fields.sort { (firstSeen[$0.name] ?? .max, $0.name) < (firstSeen[$1.name] ?? .max, $1.name) }
            }
            return model
        }
        models = models.map(ordered)
        for index in endpoints.indices { endpoints[index].body = endpoints[index].body.map(ordered) }
    }

    /// This catalog with a profile file's own endpoints and models where the
    /// document has none of that method and path, or of that name.
    func adding(_ profile: Profile) -> ImportedSpec {
        var merged = self
        merged.endpoints += profile.endpoints.filter { own in !endpoints.contains { $0.method == own.method && $0.path == own.path } }
        merged.models += profile.models.filter { own in !models.contains { $0.name == own.name } }
        return merged
    }
}

/// A spec that cannot be used: the file, where in it (a JSON path), and why.
struct SpecError: Error, Equatable, CustomStringConvertible {
    let file: String
    let path: String
    let reason: String
    var description: String { "\(file): \(path.isEmpty ? "" : "at \(path): ")\(reason)" }
}

/// Reads an OpenAPI 3.0 or 3.1 document, JSON or YAML, and hands it to the
/// importer of its version (OpenAPIKit has one module per version); a
/// Swagger 2.0 document is converted to 3.0 first.
enum SpecLoader {
    private struct Version: Decodable { let openapi: String }

    static func load(_ file: String) throws(SpecError) -> ImportedSpec {
        let (data, isJSON) = try read(file)
        if !data.contains(where: { !" \n\r\t".utf8.contains($0) }) { throw SpecError(file: file, path: "", reason: "the file is empty") }
        do {
            let version = try self.version(data, isJSON: isJSON)
            if version.hasPrefix(swaggerMark) { return try swagger(data, isJSON: isJSON) }
            let parts = isJSON ? SpecSplit.parts(data) : [data]
            var spec: ImportedSpec
            if version.hasPrefix("3.1") {
                spec = try SpecImport31.load(parts, isJSON: isJSON)
            } else if version.hasPrefix("3.0") {
                spec = try SpecImport30.load(parts, isJSON: isJSON)
            } else {
                throw SpecError(file: file, path: "openapi", reason: "version \(version) is not 3.0 or 3.1")
            }
            if isJSON, let order = SpecSplit.operationOrder(data) { spec.endpoints = inDocumentOrder(spec.endpoints, order) }
            if isJSON { spec.inDocumentFieldOrder(data) }
            spec.source = file
            return spec
        } catch let error as SpecError {
            throw SpecError(file: file, path: error.path, reason: error.reason)
        } catch {
            if let syntax = syntaxProblem(error, in: data, isJSON: isJSON) { throw SpecError(file: file, path: "", reason: syntax) }
            // Comments alone are no document (OpenAPIKit: "Expected value to be parsable as Mapping").
            if !isJSON, Self.holdsNoDocument(data) { throw SpecError(file: file, path: "", reason: "the file holds no document (only comments)") }
            throw SpecError(file: file, path: SpecImport31.codingPath(of: error), reason: SpecImport31.reason(of: error))
        }
    }

    /// YAML that parses to nothing: comments and blank lines only.
    static func holdsNoDocument(_ data: Data) -> Bool {
        do { return try Yams.load(yaml: String(decoding: data, as: UTF8.self)) == nil } catch { return false }
    }

    /// What `version` says of a Swagger 2.0 document.
    static let swaggerMark = "swagger "

    /// A Swagger 2.0 document: converted to OpenAPI 3.0 (Swagger2), read by
    /// the 3.0 importer, its notes joined by the conversion's.
    static func swagger(_ data: Data, isJSON: Bool) throws -> ImportedSpec {
        let (converted, notes) = try Swagger2.convert(data, isJSON: isJSON)
        var spec = try SpecImport30.load(Swagger2.node(converted))
        spec.notes = Array(Set(spec.notes).union(notes)).sorted()
        return spec
    }

    /// The endpoints in the order the document lists them (a stable sort:
    /// one the order does not name keeps its place among the others).
    /// The order of each `properties` object's members in a JSON document,
    /// read by our parser, which keeps it (Foundation's decoder does not: a
    /// model's fields came out in another order on every run). Keyed by the
    /// set of names, which is how a model is matched to the object it came from.
    static func propertyOrders(_ data: Data) -> (bySet: [Set<String>: [String]], firstSeen: [String: Int]) {
        guard let document = try? JSONParser.parse(Array(data)) else { return ([:], [:]) }
        var orders: [Set<String>: [String]] = [:]
        // Each name's first place in the document: the order of a model merged from several
        // objects (`allOf`), which no one `properties` holds whole.
        var firstSeen: [String: Int] = [:]
        func walk(_ value: JSONValue) {
            switch value {
            case let .object(members):
                for member in members {
                    if member.key == "properties", case let .object(properties) = member.value {
                        let names = properties.map(\.key)
                        orders[Set(names)] = orders[Set(names)] ?? names
                        for name in names where firstSeen[name] == nil { firstSeen[name] = firstSeen.count }
                    }
                    walk(member.value)
                }
            case let .array(items): items.forEach(walk)
            default: break
            }
        }
        walk(document)
        return (orders, firstSeen)
    }

    static func inDocumentOrder(_ endpoints: [Endpoint], _ order: [String: Int]) -> [Endpoint] {
        endpoints.enumerated().sorted { a, b in
            let x = order["\(a.element.method) \(a.element.path)"] ?? Int.max
            let y = order["\(b.element.method) \(b.element.path)"] ?? Int.max
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }

    /// A document that is not JSON or YAML at all, said with where the parser
    /// stopped ("not valid YAML: line 9, column 3: did not find expected node
    /// content"), not OpenAPIKit's "Problem encountered when parsing
    /// `[unknown object]`: The given data was not valid YAML.".
    static func syntaxProblem(_ error: any Error, in data: Data, isJSON: Bool) -> String? {
        guard case let .dataCorrupted(context) = error as? DecodingError, context.codingPath.isEmpty else { return nil }
        let format = isJSON ? "JSON" : "YAML"
        switch context.underlyingError {
        case let .scanner(_, problem, mark, _)? as YamlError?, let .parser(_, problem, mark, _)? as YamlError?,
             let .composer(_, problem, mark, _)? as YamlError?:
            return "not valid YAML: line \(mark.line), column \(mark.column): \(problem)"
        case let .reader(problem, _, _, _)? as YamlError?:
            return "not valid YAML: \(problem)"
        case let .duplicatedKeysInMapping(duplicates, _)? as YamlError?:
            return "not valid YAML: a key appears twice in one mapping (\(duplicates.joined(separator: ", ")))"
        default:
            // Foundation's JSON errors say nothing of where (on Linux): the
            // project's own parser, run again on this failure only, does.
            // YAML that parses was decoded wrong (a member missing): not a syntax problem. Comments alone are no document.
            guard isJSON else {
                do { return try Yams.load(yaml: String(decoding: data, as: UTF8.self)) == nil ? "the file holds no document (only comments)" : nil } catch {
                    return "not valid \(format)"
                }
            }
            do { _ = try JSONParser.parse(Array(data)) } catch { return "not valid JSON: \(error)" }
            return "not valid JSON"
        }
    }

    /// The file's bytes and whether they are JSON (else YAML).
    static func read(_ file: String) throws(SpecError) -> (Data, isJSON: Bool) {
        guard let data = FileManager.default.contents(atPath: file) else { throw SpecError(file: file, path: "", reason: unreadable(file)) }
        // Bytes that are no text (an image, a zip) got the YAML library's "Yams.YamlError error 7".
        if let bad = data.firstIndex(of: 0) ?? (String(validating: data, as: UTF8.self) == nil ? firstInvalidUTF8(data) : nil) {
            throw SpecError(file: file, path: "", reason: "not JSON or YAML: not UTF-8 text (byte \(bad) is \(data[bad] == 0 ? "NUL" : "not UTF-8"))")
        }
        return (data, data.first(where: { !" \n\r\t".utf8.contains($0) }) == UInt8(ascii: "{"))
    }

    /// Why a spec's path gave no bytes, in the user's terms.
    private static func unreadable(_ file: String) -> String {
        if file.contains("://") { return "a URL: explorer reads a spec from a file (curl -o spec.json URL, then give spec.json)" }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else { return "no such file" }
        return isFolder.boolValue ? "a folder, not a file" : "cannot read the file"
    }

    /// Where UTF-8 decoding of `data` first fails.
    private static func firstInvalidUTF8(_ data: Data) -> Int {
        var good = 0
        var iterator = data.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case let .scalarValue(scalar): good += UTF8.width(scalar)
            case .emptyInput: return good
            case .error: return good
            }
        }
    }

    /// The document's `openapi` member. In YAML it is read off its top-level
    /// line: decoding it parses the whole document, a tenth of a large YAML
    /// spec's load time.
    static func version(_ data: Data, isJSON: Bool) throws -> String {
        if !isJSON, let found = topLevelYAMLVersion(data) { return found }
        do {
            return try decode(Version.self, data, isJSON: isJSON).openapi
        } catch DecodingError.keyNotFound(let key, _) where key.stringValue == "openapi" {
            if let swagger = swaggerVersion(data, isJSON: isJSON), swagger.hasPrefix("2.") { return swaggerMark + swagger }
            throw SpecError(file: "", path: "", reason: notOpenAPI(data, isJSON: isJSON))
        }
    }

    /// The top-level `swagger` member, if there is one.
    static func swaggerVersion(_ data: Data, isJSON: Bool) -> String? {
        isJSON ? (try? decode(SwaggerVersion.self, data, isJSON: true))?.swagger
            : topLevelYAMLVersion(data, key: "swagger:") ?? (try? decode(SwaggerVersion.self, data, isJSON: false))?.swagger
    }

    private struct SwaggerVersion: Decodable { let swagger: String }

    /// Why a document without `openapi` is not read: a Swagger 2.0 document
    /// (OpenAPI's former name and version) is named as such, with what to do.
    static func notOpenAPI(_ data: Data, isJSON: Bool) -> String {
        guard let swagger = swaggerVersion(data, isJSON: isJSON) else {
            return "no top-level 'openapi' version: not an OpenAPI document (explorer reads OpenAPI 3.0 and 3.1, and Swagger 2.0)"
        }
        return "this is a Swagger \(swagger) document; explorer reads Swagger 2.0 and OpenAPI 3.0 and 3.1"
    }

    /// `openapi: 3.1.0` at the start of a line (only a top-level key starts there), quotes and comment dropped.
    static func topLevelYAMLVersion(_ data: Data, key name: String = "openapi:") -> String? {
        let key = Array(name.utf8)
        var lineStart = data.startIndex
        while lineStart < data.endIndex {
            let lineEnd = data[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
            let line = data[lineStart..<lineEnd]
            if line.starts(with: key) {
                var value = String(decoding: line.dropFirst(key.count), as: UTF8.self)
                if let comment = value.range(of: " #") { value = String(value[..<comment.lowerBound]) }
                value = value.trimmingCharacters(in: CharacterSet(charactersIn: " \t\r\"'"))
                return value.isEmpty ? nil : value
            }
            lineStart = lineEnd < data.endIndex ? data.index(after: lineEnd) : data.endIndex
        }
        return nil
    }

    /// OpenAPIKit's vendor extensions (`x-…`) are not used, and reading them
    /// decodes every schema's whole subtree once more, at every level: off.
    static let withoutExtensions: [CodingUserInfoKey: any Sendable] = [
        CodingUserInfoKey(rawValue: "vendor-extensions-enabled")!: false,
    ]

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data, isJSON: Bool, vendorExtensions: Bool = false) throws -> T {
        let userInfo = vendorExtensions ? [:] : withoutExtensions
        if isJSON {
            let decoder = JSONDecoder()
            decoder.userInfo = userInfo
            return try decoder.decode(type, from: data)
        }
        return try YAMLDecoder().decode(type, from: data, userInfo: userInfo)
    }

    /// `body` on every part at once (the calling thread takes one), results
    /// in order; the first part's error wins.
    static func concurrently<T>(_ parts: [Data], _ body: @escaping @Sendable (Data) throws -> T) throws -> [T] {
        if parts.count == 1 { return [try body(parts[0])] }
        let results = Results<T>(parts.count)
        DispatchQueue.concurrentPerform(iterations: parts.count) { index in
            results.set(index, Result { try body(parts[index]) })
        }
        return try results.all.map { try $0.get() }
    }

    private final class Results<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Result<T, any Error>?]
        init(_ count: Int) { values = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ value: Result<T, any Error>) { lock.withLock { values[index] = value } }
        var all: [Result<T, any Error>] { lock.withLock { values.compactMap { $0 } } }
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

extension ImportedSpec {
    /// `url` (a `--base-url` with no path of its own) with the path the
    /// document's servers give (`/api/v1`); any other URL as it is.
    func placing(_ url: URL) -> URL {
        guard let serverPath, url.path.isEmpty || url.path == "/" else { return url }
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + serverPath) ?? url
    }
}
