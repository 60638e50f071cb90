/// Decoding of the top-level `queries:` section (typed SQL). Typing the statements is the
/// query analysis stage's work (``QueryAnalyzer``); this only reads what is written.
extension SchemaDecoder {
    static let sqlQueryKeys = ["sql", "doc", "returns", "params", "columns"]
    /// The keys of `sql:` written per dialect.
    static let sqlDialectKeys = ["sqlite", "postgres"]

    mutating func decodeSQLQueries(_ node: YAMLNode) -> [SQLQuery] {
        if node.isNull { return [] }
        guard let pairs = node.pairs else {
            error(node.location, "'queries' must be a mapping of names to queries, found \(node.kindDescription)")
            return []
        }
        var queries: [SQLQuery] = []
        for pair in pairs {
            if let query = decodeSQLQuery(key: pair.key, value: pair.value) { queries.append(query) }
        }
        return queries
    }

    mutating func decodeSQLQuery(key: YAMLNode, value: YAMLNode) -> SQLQuery? {
        let name = key.scalarText ?? ""
        let context = "query '\(name)'"
        if !SwiftNames.isValidSwiftIdentifier(name) {
            error(key.location, "query name '\(name)' is not a valid Swift identifier",
                  hint: "use a lowerCamelCase name: it becomes the method name")
        }
        guard let fields = mapping(value, allowed: Self.sqlQueryKeys, in: context) else { return nil }
        guard let sqlNode = fields["sql"] else {
            if !suggestedKeys.contains("sql") {
                error(key.location, "\(context) has no 'sql:'", hint: "add sql: SELECT …")
            }
            return nil
        }
        var query: SQLQuery
        if sqlNode.pairs != nil {
            // `sql: { sqlite: "…", postgres: "…" }`: the statement per dialect.
            guard let variants = mapping(sqlNode, allowed: Self.sqlDialectKeys, in: "the 'sql' of \(context)") else { return nil }
            guard let sqliteNode = variants["sqlite"] else {
                error(sqlNode.location, "the 'sql' of \(context) has no 'sqlite:' variant",
                      hint: "SQLite is always a dialect: write sql: { sqlite: \"…\", postgres: \"…\" }, or one shared sql: \"…\"")
                return nil
            }
            guard let sql = string(sqliteNode, "'sql.sqlite'") else { return nil }
            query = SQLQuery(name: name, sql: sql, location: key.location)
            query.sqlSource = sqlSourceMap(for: sql, at: sqliteNode.location)
            if let postgresNode = variants["postgres"], let postgres = string(postgresNode, "'sql.postgres'") {
                query.postgresSQL = postgres
                query.postgresSQLSource = sqlSourceMap(for: postgres, at: postgresNode.location)
            }
        } else {
            guard let sql = string(sqlNode, "'sql'") else { return nil }
            query = SQLQuery(name: name, sql: sql, location: key.location)
            query.sqlSource = sqlSourceMap(for: sql, at: sqlNode.location)
        }
        query.doc = string(fields["doc"], "'doc'", allowEmpty: true)
        if let node = fields["returns"] {
            let all = SQLQuery.returnsValues.map(\.rawValue)
            if let text = node.string, let returns = Query.Returns(rawValue: text), SQLQuery.returnsValues.contains(returns) {
                query.returns = returns
            } else {
                error(node.location, "'returns' must be one of \(all.joined(separator: ", ")), found \(node.kindDescription)",
                      hint: node.scalarText.flatMap { Suggestion.hint(for: $0, in: all) })
            }
        }
        if let node = fields["params"], !node.isNull {
            query.parameterTypes = decodeParameterTypes(node, lists: true, hint: "for example params: { limit: int, ids: \"[int]\" }").map {
                SQLQuery.ParameterOverride(name: $0.key.scalarText ?? "", type: $0.type, isOptional: $0.isOptional, isList: $0.isList,
                                           location: $0.key.location)
            }
        }
        if let node = fields["columns"], !node.isNull {
            if let pairs = node.pairs {
                for pair in pairs {
                    let columnName = pair.key.scalarText ?? ""
                    guard let spec = typeSpec(pair.value, "the type of result column '\(columnName)'") else { continue }
                    guard let type = Self.simpleType(spec.keyword) else {
                        error(pair.value.location, "result column '\(columnName)' cannot be declared as \(spec.keyword)",
                              hint: "one of: int, double, bool, text, blob, date, uuid")
                        continue
                    }
                    query.columnTypes.append(
                        SQLQuery.ColumnOverride(name: columnName, type: type, isOptional: spec.isOptional, location: pair.key.location))
                }
            } else {
                error(node.location, "'columns' must be a mapping of result column names to types, found \(node.kindDescription)",
                      hint: "for example columns: { revenue: double }")
            }
        }
        return query
    }

    /// The entries of a query's `params:`: each parameter's type (`int?`: optional; with `lists`,
    /// `"[int]"` or `[int]`: a list), with the key it is written at.
    mutating func decodeParameterTypes(
        _ node: YAMLNode, lists: Bool, hint: String? = nil
    ) -> [(key: YAMLNode, type: ColumnType, isOptional: Bool, isList: Bool)] {
        guard let pairs = node.pairs else {
            error(node.location, "'params' must be a mapping of names to types, found \(node.kindDescription)", hint: hint)
            return []
        }
        var result: [(key: YAMLNode, type: ColumnType, isOptional: Bool, isList: Bool)] = []
        for pair in pairs {
            let paramName = pair.key.scalarText ?? ""
            var typeNode = pair.value
            var isList = false
            if lists, let text = typeNode.string?.trimmingSpaces, text.hasPrefix("["), text.hasSuffix("]") {
                isList = true
                typeNode = YAMLNode(.scalar(String(text.dropFirst().dropLast()).trimmingSpaces, .quoted), at: typeNode.location)
            } else if lists, let items = typeNode.items, items.count == 1 {
                isList = true
                typeNode = items[0]
            }
            guard let spec = typeSpec(typeNode, "the type of parameter '\(paramName)'") else { continue }
            guard let type = Self.simpleType(spec.keyword) else {
                error(pair.value.location, "parameter '\(paramName)' cannot be declared as \(spec.keyword)",
                      hint: "compare it with a column of that type to infer it")
                continue
            }
            if isList && spec.isOptional {
                error(pair.value.location, "the elements of list parameter '\(paramName)' cannot be optional")
                continue
            }
            result.append((pair.key, type, spec.isOptional, isList))
        }
        return result
    }

    /// Where each byte of a `sql:` scalar is written.
    mutating func sqlSourceMap(for sql: String, at location: SourceLocation) -> SQLSourceMap {
        guard !source.isEmpty else { return SQLSourceMap(start: location) }
        if lineStarts == nil {
            var starts = [0]
            for (offset, byte) in source.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
            lineStarts = starts
        }
        return SQLSourceMap(value: sql, start: location, source: source, lineStarts: lineStarts ?? [0])
    }
}
