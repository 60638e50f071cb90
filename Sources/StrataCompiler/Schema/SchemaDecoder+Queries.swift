// Named table queries: where, orderBy, limit, returns and params.
extension SchemaDecoder {
    mutating func decodeQuery(key: YAMLNode, value: YAMLNode, table: Table) -> (Query, QuerySource)? {
        let name = key.scalarText ?? ""
        let context = "query '\(table.recordName).\(name)'"
        if !SwiftNames.isValidSwiftIdentifier(name) {
            error(key.location, "query name '\(name)' is not a valid Swift identifier")
        } else if let problem = SwiftNames.daoMethodProblem(name) {
            error(key.location, "query '\(name)' cannot be a method of \(table.recordName)DAO: \(problem)",
                  hint: "rename it, for example '\(name)By…'")
        }
        guard let fields = mapping(value, allowed: Self.queryKeys, in: context) else { return nil }
        var query = Query(name: name, location: key.location)
        var source = QuerySource(keyLocation: key.location, whereClause: fields["where"], orderBy: fields["orderBy"],
                                 limit: fields["limit"])
        query.whereClause = string(fields["where"], "'where'")
        query.orderBy = string(fields["orderBy"], "'orderBy'")
        for (field, text) in [("where", query.whereClause), ("orderBy", query.orderBy)] {
            if let text, SQLRenderer.swallowsWhatFollows(text) {
                error(fields[field]?.location ?? key.location, "'\(field)' ends inside a comment or a quoted text, which would hide the SQL after it",
                      hint: "close the /* comment with */, or the quote")
            }
        }
        query.doc = string(fields["doc"], "'doc'", allowEmpty: true)
        if let node = fields["returns"] {
            let all = Query.Returns.allCases.map(\.rawValue)
            if let text = node.string, let returns = Query.Returns(rawValue: text) {
                query.returns = returns
            } else {
                error(node.location, "'returns' must be one of \(all.joined(separator: ", ")), found \(node.kindDescription)",
                      hint: node.scalarText.flatMap { Suggestion.hint(for: $0, in: all) })
            }
        }
        if let node = fields["limit"] {
            if let number = node.int {
                if number < 0 {
                    error(node.location, "'limit' must not be negative")
                } else {
                    query.limit = .fixed(number)
                }
            } else if let text = node.string, text.hasPrefix(":"), SwiftNames.isValidSwiftIdentifier(String(text.dropFirst())) {
                query.limit = .parameter(String(text.dropFirst()))
            } else {
                error(node.location, "'limit' must be a number or a ':name' parameter, found \(node.kindDescription)")
            }
        }
        if let node = fields["params"], !node.isNull {
            source.params = decodeParameterTypes(node, lists: false).map { ($0.key, $0.type, $0.isOptional) }
        }
        return (query, source)
    }
}
