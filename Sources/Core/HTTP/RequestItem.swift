/// One HTTPie request item, such as `title=Fix bike`, `price:=25`,
/// `Accept:text/plain`, `page==2` or `image@photo.png`.
///
/// The separator rule is HTTPie's: the separator that starts first wins, and
/// of those starting at the same place the longest (`:=` beats `:`). A
/// backslash makes a separator character literal (`a\=b=c` has the key
/// `a=b`); before any other character both stay, as in HTTPie, so that a
/// nested key can escape its brackets (`foo\[x\]=1`) or a backslash
/// (`x\\=1` has the key `x\`), as `NestedJSON` reads them.
public enum RequestItem: Sendable, Equatable {
    /// `Name:value`; an empty value (`Name:`) removes a default header.
    case header(name: String, value: String)
    /// `Name;`: a header sent with an empty value.
    case emptyHeader(name: String)
    /// `name==value`: a query parameter.
    case query(name: String, value: String)
    /// `name==@file`: a query parameter read from a file.
    case queryFromFile(name: String, path: String)
    /// `name=value`: a JSON string field (or a form field in multipart).
    case stringField(name: String, value: String)
    /// `name=@file`: a string field read from a file.
    case stringFieldFromFile(name: String, path: String)
    /// `name:=json`: a raw JSON field.
    case jsonField(name: String, value: JSONValue)
    /// `name:=@file`: a raw JSON field read from a file.
    case jsonFieldFromFile(name: String, path: String)
    /// `name@file` or `name@file;type=mime`: a multipart file upload.
    case file(name: String, path: String, contentType: String?)
    /// `Name:@file`: a header whose value is read from a file.
    case headerFromFile(name: String, path: String)

    /// Whether the item goes in the body (a field, a file, `@file` the whole body): what makes a bare
    /// `URL a=1` a POST, as HTTPie infers it.
    public var isData: Bool {
        switch self {
        case .stringField, .stringFieldFromFile, .jsonField, .jsonFieldFromFile, .file: true
        case .header, .emptyHeader, .query, .queryFromFile, .headerFromFile: false
        }
    }

    /// Why an argument is not a request item, with the offset of the problem.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public let item: String
        public let offset: Int
        public let reason: String
        public var description: String { reason }
    }

    /// What a backslash can make literal: the characters separators are made of.
    private static let separatorCharacters: Set<Character> = [":", "=", "@", ";"]

    // Longest first, so that at equal positions the longer separator wins.
    private static let separators = [":=@", "==@", "=@", ":@", ":=", "==", "=", ":", ";", "@"]

    /// Parses one argument. Fails when it has no separator, an empty name, or
    /// invalid JSON after `:=` (the error says where).
    public static func parse(_ text: String) throws(ParseError) -> RequestItem {
        // An item quoted in an error without its secrets (`'{"password": "x", }'` typed where an item goes);
        // made only for an error (a megabyte item is read once).
        var shown: String {
            let hidden = Redactor.hidingCredentials(inText: text)
            // JSON typed unquoted (`{password:x}`: its quotes are gone once the line is split) shows no member to hide.
            guard hidden == text, text.first == "{" || text.first == "[", Redactor.mayNameASecret(text) else { return hidden }
            return String(text.prefix(1)) + "…"
        }
        // Unescape, remembering which characters were escaped.
        var chars: [(Character, escaped: Bool)] = []
        // Where each unescaped character was typed, for the caret.
        var typedAt: [Int] = []
        let typed = Array(text)
        var index = 0
        while index < typed.count {
            if typed[index] == "\\", index + 1 < typed.count, Self.separatorCharacters.contains(typed[index + 1]) {
                chars.append((typed[index + 1], true))
                typedAt.append(index + 1)
                index += 2
            } else if typed[index] == "\\", index + 1 < typed.count {
                // Any other pair stays as typed, but as one: in `x\\=1` the
                // second backslash does not escape the `=` (HTTPie's reading).
                chars.append((typed[index], false))
                chars.append((typed[index + 1], false))
                typedAt.append(index)
                typedAt.append(index + 1)
                index += 2
            } else {
                chars.append((typed[index], false))
                typedAt.append(index)
                index += 1
            }
        }
        var best: (position: Int, separator: String)?
        for separator in separators {
            let sep = Array(separator)
            guard chars.count >= sep.count else { continue }
            for start in 0...(chars.count - sep.count) {
                let matches = (0..<sep.count).allSatisfy { !chars[start + $0].escaped && chars[start + $0].0 == sep[$0] }
                if matches {
                    if best == nil || start < best!.position { best = (start, separator) }
                    break
                }
            }
        }
        guard let (position, separator) = best else {
            throw ParseError(item: text, offset: 0,
                             reason: "'\(shown)' is not a request item: use name=value, name:=json, Header:value, name==query or name@file")
        }
        let name = String(chars[..<position].map(\.0))
        let value = String(chars[(position + separator.count)...].map(\.0))
        if name.isEmpty && separator != "@" {
            throw ParseError(item: text, offset: 0, reason: "'\(shown)': missing name before '\(separator)'")
        }
        if [":", ";", ":@"].contains(separator), let bad = HTTPHeader.invalidNameOffset(name) {
            throw ParseError(item: text, offset: typedAt[bad],
                             reason: "'\(shown)': \(HTTPHeader.describeCharacter(at: bad, of: name)) cannot be in a header name (letters, digits and !#$%&'*+-.^_`|~ can)")
        }
        if separator == ":", let bad = HTTPHeader.invalidValueOffset(value) {
            // A credential is not shown back in the error (`Authorization:Bearer tok⏎…` was).
            let shown = Redactor.redact(header: HTTPHeader(name: name, value: value)).value
            throw ParseError(item: text, offset: typedAt[position + separator.count + bad],
                             reason: "'\(name):\(shown)': \(HTTPHeader.describeCharacter(at: bad, of: value)) cannot be in a header value")
        }
        if ["=", "=@", ":=", ":=@"].contains(separator) {
            // A data field's name is a nested JSON path: its syntax is checked here, with a caret.
            do { _ = try NestedJSON.parse(name) } catch {
                throw ParseError(item: text, offset: typedAt[min(error.offset, typedAt.count - 1)], reason: error.reason)
            }
        }
        switch separator {
        case ":": return .header(name: name, value: value)
        case ";":
            guard value.isEmpty else {
                throw ParseError(item: text, offset: position, reason: "'\(shown)': 'Name;' sends an empty header and takes no value")
            }
            return .emptyHeader(name: name)
        case ":@": return .headerFromFile(name: name, path: value)
        case "==": return .query(name: name, value: value)
        case "==@": return .queryFromFile(name: name, path: value)
        case "=": return .stringField(name: name, value: value)
        case "=@": return .stringFieldFromFile(name: name, path: value)
        case ":=@": return .jsonFieldFromFile(name: name, path: value)
        case ":=":
            do {
                return .jsonField(name: name, value: try JSONParser.parse(value))
            } catch {
                let column = position + separator.count + error.offset
                // A secret-named field's value is not said back (`token:=S3cr3t` was, on screen and in a recording).
                let shown = Redactor.isSecretName(Redactor.leaf(of: name)) ? "\(name):=\(Redactor.hidden(value))" : text
                throw ParseError(item: text, offset: column,
                                 reason: "'\(shown)': invalid JSON after ':=' (\(error.reason) at character \(error.offset + 1) of the value)")
            }
        case "@":
            var path = value
            var contentType: String?
            if let range = value.range(of: ";type=") {
                path = String(value[..<range.lowerBound])
                contentType = String(value[range.upperBound...])
            }
            if path.isEmpty {
                throw ParseError(item: text, offset: position + 1, reason: "'\(shown)': missing file path after '@'")
            }
            return .file(name: name, path: path, contentType: contentType)
        default:
            fatalError("unhandled separator \(separator)")
        }
    }
}
