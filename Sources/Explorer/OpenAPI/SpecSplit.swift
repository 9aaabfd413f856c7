import Foundation

/// Cuts a large JSON document in two for decoding on two cores at once:
/// the first part is the document with its `paths` cut short, the second a
/// minimal document (`openapi`, an empty `info`, the security schemes, which
/// OpenAPIKit checks operations' `security` against) with the remaining paths.
/// OpenAPIKit's decoding is most of a large spec's load time and its paths
/// are most of that; the parts' operations, in order, are the document's.
/// A scan of the bytes (strings and nesting only), not a parse: anything it
/// does not follow gives one part, the whole document, and the decoder
/// reports what is wrong with it as usual.
enum SpecSplit {
    static func parts(_ data: Data, above threshold: Int = 256 * 1024) -> [Data] {
        guard data.count > threshold else { return [data] }
        return data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var scanner = Scanner(bytes: bytes)
            return scanner.split() ?? [data]
        }
    }

    /// Each operation's place in the document (`"GET /pets"` → 0, …): the
    /// order of `paths` and of each path's methods as written. Foundation's
    /// decoder hands OpenAPIKit a JSON object's members in no fixed order,
    /// so a JSON spec's catalog came out differently from run to run; the
    /// loader sorts by this. Nil when the document does not scan.
    static func operationOrder(_ data: Data) -> [String: Int]? {
        data.withUnsafeBytes { raw in
            var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self))
            return scanner.operationOrder()
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func operationOrder() -> [String: Int]? {
            var paths: Range<Int>?
            guard forEachMember({ name, value in
                if name == "paths" { paths = value }
                return paths == nil
            }), let paths else { return nil }
            i = paths.lowerBound
            var items: [(String, Range<Int>)] = []
            guard forEachMember({ name, value in items.append((name, value)); return true }) else { return nil }
            var order: [String: Int] = [:]
            for (written, item) in items {
                // `"\/pets"` is `/pets` (some generators escape the slash).
                let path = written.replacingOccurrences(of: "\\/", with: "/")
                i = item.lowerBound
                guard forEachMember({ method, _ in
                    order["\(method.uppercased()) \(path)"] = order.count
                    return true
                }) else { return nil }
            }
            return order
        }

        mutating func split() -> [Data]? {
            var paths: Range<Int>?
            var version: Range<Int>?
            var components: Range<Int>?
            // The top level's members: find `paths`, `openapi` and `components`.
            let scanned = forEachMember { name, value in
                switch name {
                case "paths": paths = value
                case "openapi": version = value
                case "components": components = value
                default: break
                }
                return true
            }
            guard scanned, let paths, let version else { return nil }
            var schemes: Range<Int>?
            if let components {
                i = components.lowerBound
                guard let found = member("securitySchemes") else { return nil }
                schemes = found
            }
            // The members of `paths`, each from its key to the end of its value.
            i = paths.lowerBound
            guard take(UInt8(ascii: "{")) else { return nil }
            var members: [Range<Int>] = []
            while true {
                skipSpace()
                if take(UInt8(ascii: "}")) { break }
                let start = i
                guard string() != nil else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                guard value() else { return nil }
                members.append(start..<i)
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                break
            }
            guard members.count >= 2 else { return nil }
            // The second part takes the last paths, about half the document's bytes
            // (the first also decodes the components and the rest).
            var cut = members.count - 1
            var tail = members[cut].count
            while cut > 1, tail + members[cut - 1].count <= bytes.count / 2 {
                cut -= 1
                tail += members[cut].count
            }
            var first = Data(bytes[..<paths.lowerBound])
            first.append(UInt8(ascii: "{"))
            first.append(contentsOf: bytes[members[0].lowerBound..<members[cut - 1].upperBound])
            first.append(UInt8(ascii: "}"))
            first.append(contentsOf: bytes[paths.upperBound...])
            var second = Data(#"{"openapi":"#.utf8)
            second.append(contentsOf: bytes[version])
            second.append(contentsOf: #","info":{"title":"","version":""},"#.utf8)
            if let schemes {
                second.append(contentsOf: #""components":{"securitySchemes":"#.utf8)
                second.append(contentsOf: bytes[schemes])
                second.append(contentsOf: "},".utf8)
            }
            second.append(contentsOf: #""paths":{"#.utf8)
            second.append(contentsOf: bytes[members[cut].lowerBound..<members[members.count - 1].upperBound])
            second.append(contentsOf: "}}".utf8)
            return [first, second]
        }

        /// In the object starting at `i`: where member `name`'s value is
        /// (`.some(nil)` when there is no such member; nil when the object does not scan).
        mutating func member(_ name: String) -> Range<Int>?? {
            var found: Range<Int>?
            let scanned = forEachMember { key, value in
                if key == name { found = value }
                return found == nil
            }
            return scanned ? .some(found) : nil
        }

        /// Scans the object starting at `i` (after any space), calling `each`
        /// with every member's name and where its value is, until `each`
        /// returns false. False when the object does not scan.
        mutating func forEachMember(_ each: (String, Range<Int>) -> Bool) -> Bool {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return false }
            while true {
                skipSpace()
                if take(UInt8(ascii: "}")) { return true }
                guard let key = string() else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
                let start = i
                guard value() else { return false }
                guard each(String(decoding: bytes[key], as: UTF8.self), start..<i) else { return true }
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "}"))
            }
        }

        mutating func skipSpace() {
            while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
        }

        static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }

        /// A string; returns its contents' range (escapes left as they are).
        mutating func string() -> Range<Int>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = i
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\\"): i += 2
                case UInt8(ascii: "\""):
                    i += 1
                    return start..<(i - 1)
                default: i += 1
                }
            }
            return nil
        }

        /// Any value: a string, or everything up to its closing bracket, or a literal.
        mutating func value() -> Bool {
            guard i < bytes.count else { return false }
            switch bytes[i] {
            case UInt8(ascii: "\""): return string() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while i < bytes.count {
                    switch bytes[i] {
                    case UInt8(ascii: "\""):
                        guard string() != nil else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            i += 1
                            return true
                        }
                    default: break
                    }
                    i += 1
                }
                return false
            default:
                let start = i
                while i < bytes.count, !Self.isSpace(bytes[i]), bytes[i] != UInt8(ascii: ","), bytes[i] != UInt8(ascii: "}"),
                      bytes[i] != UInt8(ascii: "]") { i += 1 }
                return i > start
            }
        }
    }
}
