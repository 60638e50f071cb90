import Strata

// FROM: tables, CTEs, subqueries and joins (which sides an outer join makes optional).
extension QueryTyper {
    // MARK: - FROM

    mutating func from(_ scope: Scope) {
        var pendingNullable = false
        var natural = false
        while current != nil {
            var source = tableOrSubquery(scope)
            source.nullable = source.nullable || pendingNullable
            if natural, let columns = source.columns {
                let existing = Set(scope.sources.flatMap { $0.columns ?? [] }.map { $0.name.lowercased() })
                source.hiddenFromStar = Set(columns.map { $0.name.lowercased() }).intersection(existing)
            }
            scope.sources.append(source)
            if accept("ON") {
                _ = expression(scope)
            } else if accept("USING") {
                if acceptSymbol("(") {
                    var names: Set<String> = []
                    while let column = name() {
                        names.insert(column.lowercased())
                        if !acceptSymbol(",") { break }
                    }
                    _ = acceptSymbol(")")
                    scope.sources[scope.sources.count - 1].hiddenFromStar.formUnion(names)
                }
            }
            // The next join operator.
            pendingNullable = false
            natural = false
            if acceptSymbol(",") { continue }
            natural = accept("NATURAL")
            if accept("LEFT") {
                _ = accept("OUTER")
                pendingNullable = true
            } else if accept("RIGHT") {
                _ = accept("OUTER")
                for index in scope.sources.indices { scope.sources[index].nullable = true }
            } else if accept("FULL") {
                _ = accept("OUTER")
                for index in scope.sources.indices { scope.sources[index].nullable = true }
                pendingNullable = true
            } else {
                _ = accept("INNER") || accept("CROSS")
            }
            if !accept("JOIN") { return }
        }
    }

    mutating func tableOrSubquery(_ scope: Scope) -> Source {
        var source = Source(alias: "", columns: nil, nullable: false)
        if acceptSymbol("(") {
            if isKeyword("SELECT") || isKeyword("WITH") || isKeyword("VALUES") {
                let selected = select(Scope(parent: scope))
                source.columns = Self.rename(selected.columns, nil)
                _ = acceptSymbol(")")
            } else {
                // A parenthesized join: its tables join this scope.
                let inner = Scope(parent: scope)
                from(inner)
                _ = acceptSymbol(")")
                scope.sources += inner.sources.dropLast()
                if let last = inner.sources.last { source = last }
            }
        } else if let tableName = name() {
            var resolved = tableName
            if acceptSymbol("."), let second = name() { resolved = second }
            source.alias = resolved.lowercased()
            if acceptSymbol("(") {
                // A table-valued function: its columns are not known.
                skip(until: [])
                _ = acceptSymbol(")")
            } else if let cte = scope.cte(resolved) {
                source.columns = cte
            } else if let table = schema.table(sqlNameLowercased: resolved) {
                source.columns = Self.columns(of: table)
            }
        }
        if accept("AS") {
            if let alias = name() { source.alias = alias.lowercased() }
        } else if let token = current, token.kind == .word || token.kind == .identifier,
                  token.kind == .identifier || !Self.joinWords.contains(token.upper) {
            position += 1
            source.alias = token.value.lowercased()
        }
        if accept("INDEXED") {
            _ = accept("BY")
            _ = name()
        } else if isKeyword("NOT") && isKeyword("INDEXED", 1) {
            position += 2
        }
        return source
    }

    static let joinWords: Set<String> = clauseWords.union([
        "NATURAL", "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "OUTER", "INDEXED", "NOT", "RETURNING",
    ])
}
