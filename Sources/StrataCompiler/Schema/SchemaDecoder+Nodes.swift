// Reading YAML nodes as the values the schema language expects, reporting what does not fit.
extension SchemaDecoder {
    /// The pairs of a mapping node, reporting keys outside `allowed`.
    mutating func mapping(_ node: YAMLNode, allowed: [String], in context: String) -> [String: YAMLNode]? {
        guard let pairs = node.pairs else {
            error(node.location, "\(context) must be a mapping, found \(node.kindDescription)")
            return nil
        }
        var values: [String: YAMLNode] = [:]
        suggestedKeys = []
        for pair in pairs {
            let key = pair.key.scalarText ?? ""
            if allowed.contains(key) {
                values[key] = pair.value
            } else {
                if let suggestion = Suggestion.closest(to: key, in: allowed) { suggestedKeys.insert(suggestion) }
                let hint = Suggestion.hint(for: key, in: allowed)
                    ?? "expected one of: \(allowed.joined(separator: ", "))"
                error(pair.key.location, "unknown key '\(key)' in \(context)", hint: hint)
            }
        }
        return values
    }

    mutating func string(_ node: YAMLNode?, _ what: String, allowEmpty: Bool = false) -> String? {
        guard let node else { return nil }
        guard let text = node.scalarText, !node.isNull else {
            error(node.location, "\(what) must be text, found \(node.kindDescription)")
            return nil
        }
        if text.isEmpty && !allowEmpty {
            error(node.location, "\(what) must not be empty")
            return nil
        }
        return text
    }

    mutating func bool(_ node: YAMLNode?, _ what: String) -> Bool? {
        guard let node else { return nil }
        guard let value = node.bool else {
            error(node.location, "\(what) must be true or false, found \(node.kindDescription)")
            return nil
        }
        return value
    }

    /// `text`, `text?`, `date?` … (no `enum`/`json` details: the caller completes those).
    mutating func typeSpec(_ node: YAMLNode, _ what: String) -> (keyword: String, isOptional: Bool)? {
        guard let raw = node.string, !raw.isEmpty else {
            error(node.location, "\(what) must be a type name, found \(node.kindDescription)",
                  hint: "one of: \(ColumnType.keywords.joined(separator: ", "))")
            return nil
        }
        var keyword = raw.trimmingSpaces
        var isOptional = false
        if keyword.hasSuffix("?") {
            isOptional = true
            keyword = String(keyword.dropLast()).trimmingSpaces
        }
        guard ColumnType.keywords.contains(keyword) else {
            let hint = Suggestion.hint(for: keyword, in: ColumnType.keywords)
                ?? Self.typeSynonyms[keyword.lowercased()].map { "did you mean '\($0)'?" }
                ?? "one of: \(ColumnType.keywords.joined(separator: ", "))"
            error(node.location, "unknown type '\(keyword)'", hint: hint)
            return nil
        }
        return (keyword, isOptional)
    }

    static func simpleType(_ keyword: String) -> ColumnType? {
        switch keyword {
        case "int": .int
        case "double": .double
        case "bool": .bool
        case "text": .text
        case "blob": .blob
        case "date": .date
        case "uuid": .uuid
        default: nil
        }
    }
}
