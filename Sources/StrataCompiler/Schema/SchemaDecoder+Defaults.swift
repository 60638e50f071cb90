// Column defaults: literals checked against the column type, now, and SQL expressions.
extension SchemaDecoder {
    static let dateFormatHint = "dates are text 'YYYY-MM-DD HH:MM:SS.SSS' in UTC, or now"

    mutating func decodeDefault(_ node: YAMLNode, type: ColumnType, keyword: String, context: String) -> DefaultValue? {
        if let pairs = node.pairs, pairs.count == 1, pairs[0].key.scalarText == "sql" {
            return string(pairs[0].value, "'sql'").map { .sql($0) }
        }
        if node.isNull {
            error(node.location, "the default of \(context) is null", hint: "remove 'default'; optional columns default to NULL")
            return nil
        }
        switch type.codec().decodeDefault(node) {
        case .value(let value):
            return value
        case .expected(let expected, let hint):
            error(node.location, "the default of \(context) must be \(expected), found \(node.kindDescription)", hint: hint)
            return nil
        case .notOneOf(let value, let values):
            error(node.location, "the default '\(value)' of \(context) is not one of its values",
                  hint: Suggestion.hint(for: value, in: values) ?? "one of: \(values.joined(separator: ", "))")
            return nil
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
