/// What the catalog knows is wrong with a request's body items before it is
/// sent: a number, boolean, array or object field given as `name=value` (a
/// JSON string), a string field given as `name:=json` with another kind of
/// value, an enum field given a value it does not list. One line each, with
/// the item that would fix it.
extension Endpoint {
    /// `models` finds the models a field's type names, for nested items
    /// (`dims[width]=3`, `tags[]:=5`): the field the path leads to is checked.
    /// `textFields`: the body is a form or multipart, where every field is
    /// text (`done=true` is how a form sends a boolean; `done:=true` is
    /// refused there), so only an enumeration's values are checked.
    public func bodyProblems(in items: [RequestItem], textFields: Bool = false, models: (String) -> Model? = { _ in nil }) -> [String] {
        let operation = "\(method) \(path)"
        guard let body else {
            // `get /api/tasks city=London`: a JSON body the server ignores, and the whole list back, where
            // `city==London` filters it (`=` and `==` are one key apart).
            return items.compactMap { item in
                guard case let .stringField(name, value) = item, query.contains(name) else { return nil }
                return "\(name) is a query parameter of \(operation), but \(name)=\(value) sends it in a JSON body: use \(name)==\(value)"
            }
        }
        if bodyIsList {
            // Fields make an object; this endpoint reads a list. Items whose paths start
            // with an index (`[0][type]=…`, `[]:=1`) make a list, as HTTPie's do.
            let named = items.compactMap { item -> String? in
                switch item {
                case let .stringField(name, _), let .jsonField(name, _), let .stringFieldFromFile(name, _), let .jsonFieldFromFile(name, _): name
                default: nil
                }
            }
            if let first = named.first(where: { !$0.hasPrefix("[") }) {
                return ["\(operation) takes a JSON list of \(body.name), but \(first)… makes an object: send the list with [0][name]=… items, "
                        + "--raw '[{…}]' or @file.json"]
            }
        }
        let fields = Dictionary(body.fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        /// The field an item's name leads to: itself, or down a nested path through models and lists
        /// (for a list body, from an element: `[0][timestamp]`).
        func field(_ name: String) -> Field? {
            if !bodyIsList, let plain = fields[name] { return plain }
            guard name.contains("["), var steps = try? NestedJSON.parse(name)[...] else { return nil }
            if bodyIsList {
                switch steps.first {
                case .index?, .append?: steps = steps.dropFirst()
                default: return nil
                }
            }
            guard case let .key(first)? = steps.first, var current = fields[first] else { return nil }
            for step in steps.dropFirst() {
                switch (step, current.type) {
                case let (.key(key), .model(model)):
                    guard let next = models(model)?.fields.first(where: { $0.name == key }) else { return nil }
                    current = next
                case let (.index, .array(element)), let (.append, .array(element)):
                    current = Field(name, element, required: true, nullable: false)
                default:
                    return nil
                }
            }
            return current
        }
        var problems: [String] = []
        for item in items {
            switch item {
            case let .stringField(name, value):
                guard let field = field(name) else { continue }
                switch field.type {
                case .integer, .number, .boolean, .array, .model:
                    if textFields { continue }
                    // `:=` only where it would send the right kind: `qty:=abc` is not JSON at all.
                    let hint = Self.fits(value, field.type) ? ": use \(name):=\(value)" : ", and \"\(value)\" is not one"
                    problems.append("\(name) is \(Self.article(field.type)) in \(operation), but \(name)=\(value) sends the string \"\(value)\"" + hint)
                case let .enumeration(_, values) where !values.contains(value):
                    problems.append("\(name) in \(operation) is one of \(values.joined(separator: "|")), not \"\(value)\"")
                default: continue
                }
            case let .jsonField(name, value):
                guard let field = field(name) else { continue }
                if case .null = value {
                    // Of any type (`price:=null` for a number was sent); `name=null` would send the string "null": no such advice.
                    if !field.nullable { problems.append("\(name) in \(operation) is \(Self.article(field.type)) the catalog does not say may be null") }
                    continue
                }
                if !field.type.isString {
                    // `expReward:=2.5` where the catalog says integer: sent, and refused by the server.
                    if !Self.isKind(value, field.type) {
                        problems.append("\(name) is \(Self.article(field.type)) in \(operation), but \(name):=\(JSONPrinter.compact(value)) sends \(Self.kindOf(value))")
                    } else if case let .array(element) = field.type, case let .array(elements) = value,
                              let wrong = elements.first(where: { !Self.isElement($0, element) }) {
                        // `tags:='[1]'` for a list of strings.
                        problems.append("\(name) is \(Self.article(field.type)) in \(operation), but \(name):=\(JSONPrinter.compact(value)) holds \(Self.kindOf(wrong))")
                    }
                    continue
                }
                if case .string = value { continue }
                problems.append("\(name) is a string in \(operation), but \(name):=\(JSONPrinter.compact(value)) sends \(value.kindName): use \(name)=\(value.plainText)")
            default: continue
            }
        }
        return problems
    }

    /// Whether a JSON value is of `type`, where the catalog says that much
    /// (an array's or an object's members are not looked into).
    private static func isKind(_ value: JSONValue, _ type: FieldType) -> Bool {
        switch (type, value) {
        case let (.integer, .number(text)): return isPlainInteger(text)
        case (.number, .number), (.boolean, .bool), (.array, .array), (.model, .object): return true
        case (.integer, _), (.number, _), (.boolean, _), (.array, _), (.model, _): return false
        default: return true
        }
    }

    /// Whether an element of an array is of the array's element type (a
    /// string for a string or an enumeration; null where the catalog says
    /// no more).
    private static func isElement(_ value: JSONValue, _ type: FieldType) -> Bool {
        if type.isString { if case .string = value { return true } else { return false } }
        if case .null = value { return false }
        return isKind(value, type)
    }

    /// `a number with a fraction`, `a boolean`: what a value is, said of one that does not fit.
    private static func kindOf(_ value: JSONValue) -> String {
        if case let .number(text) = value, !isPlainInteger(text) {
            // `2.0` and `1e2` are whole, but a server that reads an integer (Go's, Swift's Codable) refuses
            // them: both were said alike once, `2.0` as "not whole" and `1e2` let through.
            return ExactNumber(text)?.isInteger == true ? "a whole number written \(text) (write it in digits alone)" : "a number that is not whole"
        }
        return value.kindName
    }

    /// An integer as every server reads one: digits alone, of any length, maybe after a minus.
    private static func isPlainInteger(_ text: String) -> Bool {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Whether `text`, read as JSON, is a value of `type`.
    private static func fits(_ text: String, _ type: FieldType) -> Bool {
        guard let value = try? JSONParser.parse(text) else { return false }
        switch (type, value) {
        case (.integer, .number): return isPlainInteger(text.trimmingBlanks())
        case (.number, .number), (.boolean, .bool), (.array, .array), (.model, .object): return true
        default: return false
        }
    }

    private static func article(_ type: FieldType) -> String {
        switch type {
        case .integer: return "an integer"
        case .number: return "a number"
        case .boolean: return "a boolean"
        case .array: return "an array (\(type))"
        case let .model(name): return "an object (\(name))"
        case .string: return "a string"
        case let .enumeration(name, _): return "a \(name)"
        default: return "\(type)"
        }
    }
}
