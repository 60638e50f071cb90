// Column defaults: literals checked against the column type, now, and SQL expressions.
extension SchemaDecoder {
    static let dateFormatHint = "dates are text 'YYYY-MM-DD HH:MM:SS.SSS' in UTC, or now"

    mutating func decodeDefault(_ node: YAMLNode, type: ColumnType, keyword: String, context: String) -> DefaultValue? {
        if let pairs = node.pairs, pairs.count == 1, pairs[0].key.scalarText == "sql", keyword != "json" {
            return string(pairs[0].value, "'sql'").map { .sql($0) }
        }
        if node.isNull {
            error(node.location, "the default of \(context) is null", hint: "remove 'default'; optional columns default to NULL")
            return nil
        }
        func wrong(_ expected: String, hint: String? = nil) -> DefaultValue? {
            error(node.location, "the default of \(context) must be \(expected), found \(node.kindDescription)", hint: hint)
            return nil
        }
        switch type {
        case .int:
            if let value = node.int { return .integer(value) }
            return wrong("an integer")
        case .double:
            if let value = node.double { return .real(value) }
            return wrong("a number")
        case .bool:
            if let value = node.bool { return .bool(value) }
            return wrong("true or false")
        case .text:
            if let value = node.string { return .text(value) }
            if node.scalarText != nil { return wrong("text", hint: "quote it: \"\(node.scalarText ?? "")\"") }
            return wrong("text")
        case .blob:
            return wrong("{ sql: expression }", hint: "for example { sql: \"x''\" }")
        case .date:
            if let value = node.string {
                if value == "now" { return .now }
                if Self.isDateText(value) { return .text(value) }
            }
            return wrong("now or a date", hint: Self.dateFormatHint)
        case .uuid:
            if let value = node.string, Self.isUUID(value) { return .text(value.uppercased()) }
            return wrong("a UUID", hint: "for example \"3F2504E0-4F89-41D3-9A0C-0305E82C3301\"")
        case .enumeration(_, let values):
            if let value = node.scalarText, node.pairs == nil, node.items == nil {
                if values.contains(value) { return .text(value) }
                error(node.location, "the default '\(value)' of \(context) is not one of its values",
                      hint: Suggestion.hint(for: value, in: values) ?? "one of: \(values.joined(separator: ", "))")
                return nil
            }
            return wrong("one of its values")
        case .json:
            if let pairs = node.pairs, pairs.count == 1, pairs[0].key.scalarText == "sql" {
                return string(pairs[0].value, "'sql'").map { .sql($0) }
            }
            return .json(JSONText.render(node))
        }
    }

    /// `YYYY-MM-DD HH:MM:SS.SSS` (the fraction optional).
    static func isDateText(_ text: String) -> Bool {
        let chars = Array(text.utf8)
        guard chars.count == 19 || chars.count == 23 else { return false }
        let pattern = Array("dddd-dd-dd dd:dd:dd.ddd".utf8)
        for (index, char) in chars.enumerated() {
            if pattern[index] == UInt8(ascii: "d") {
                guard char >= UInt8(ascii: "0") && char <= UInt8(ascii: "9") else { return false }
            } else if char != pattern[index] {
                return false
            }
        }
        return true
    }

    static func isUUID(_ text: String) -> Bool {
        let chars = Array(text.utf8)
        guard chars.count == 36 else { return false }
        for (index, char) in chars.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard char == UInt8(ascii: "-") else { return false }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(char)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(char)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(char) else { return false }
            }
        }
        return true
    }
}
