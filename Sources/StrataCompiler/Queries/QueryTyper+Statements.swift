import Strata

// Statements of the typing pass: WITH, SELECT (cores, UNION arms, ORDER BY, LIMIT) and result lists.
extension QueryTyper {
    // MARK: - Statements

    mutating func statement() {
        let scope = Scope(parent: nil)
        if isKeyword("WITH") { with(scope) }
        if isKeyword("SELECT") || isKeyword("VALUES") {
            let selected = select(scope)
            result.columns = selected.columns
            result.exactlyOneRow = selected.alwaysOneRow
        } else if isKeyword("INSERT") || isKeyword("REPLACE") {
            insert(scope)
        } else if isKeyword("UPDATE") {
            update(scope)
        } else if isKeyword("DELETE") {
            delete(scope)
        } else {
            result.yieldsRows = false
        }
    }

    mutating func with(_ scope: Scope) {
        position += 1
        _ = accept("RECURSIVE")
        while let cteName = name() {
            var columnNames: [String]?
            if acceptSymbol("(") {
                var names: [String] = []
                while let column = name() {
                    names.append(column)
                    if !acceptSymbol(",") { break }
                }
                _ = acceptSymbol(")")
                columnNames = names
            }
            _ = accept("AS")
            _ = accept("NOT")
            _ = accept("MATERIALIZED")
            guard acceptSymbol("(") else { return }
            let key = cteName.lowercased()
            let body = select(Scope(parent: scope), named: { columns in
                // A recursive CTE refers to itself: its first arm gives its types.
                scope.ctes[key] = Self.rename(columns, columnNames)
            })
            scope.ctes[key] = Self.rename(body.columns, columnNames)
            _ = acceptSymbol(")")
            if !acceptSymbol(",") { break }
        }
    }

    static func rename(_ columns: [ResultColumn], _ names: [String]?) -> [(name: String, type: ExprType)] {
        columns.enumerated().map { index, column in
            let name = names.flatMap { index < $0.count ? $0[index] : nil } ?? column.name ?? "column\(index + 1)"
            return (name, column.type)
        }
    }

    struct Selected {
        var columns: [ResultColumn]
        /// One core, an aggregate without GROUP BY: always exactly one row.
        var alwaysOneRow: Bool
    }

    /// `SELECT … [UNION …] [ORDER BY …] [LIMIT …]` or `VALUES …`; stops before a closing `)`.
    mutating func select(_ scope: Scope, named firstArm: (([ResultColumn]) -> Void)? = nil) -> Selected {
        if isKeyword("WITH") { with(scope) }
        var arms: [[ResultColumn]] = []
        var alwaysOneRow = false
        while true {
            let (columns, oneRow) = core(scope)
            if arms.isEmpty {
                firstArm?(columns)
                alwaysOneRow = oneRow
            } else {
                alwaysOneRow = false
            }
            arms.append(columns)
            if accept("UNION") {
                _ = accept("ALL")
            } else if !(accept("INTERSECT") || accept("EXCEPT")) {
                break
            }
        }
        if accept("ORDER") {
            _ = accept("BY")
            skipTyped(scope, until: ["LIMIT"])
        }
        if accept("LIMIT") {
            // `LIMIT n` with a literal n ≥ 1 (and no offset, or `OFFSET 0`) keeps the one row.
            let limitKeepsRow = isPositiveLiteral(current)
                && (peek(1) == nil || isSymbol(")", 1) || isSymbol(",", 1) || isSymbol(";", 1) || isKeyword("OFFSET", 1))
            var offsetIsZero = true
            limitExpression(scope)
            if accept("OFFSET") || acceptSymbol(",") {
                offsetIsZero = current?.kind == .number && Int(current?.value ?? "") == 0
                limitExpression(scope)
            }
            if !(limitKeepsRow && offsetIsZero) { alwaysOneRow = false }
        }
        guard var columns = arms.first else { return Selected(columns: [], alwaysOneRow: false) }
        for arm in arms.dropFirst() {
            for index in columns.indices where index < arm.count {
                columns[index].type = Self.common([columns[index].type, arm[index].type], typer: &self)
                columns[index].type.origin = nil
            }
        }
        return Selected(columns: columns, alwaysOneRow: alwaysOneRow)
    }

    func isPositiveLiteral(_ token: SQLToken?) -> Bool {
        guard let token, token.kind == .number, let value = Int(token.value) else { return false }
        return value >= 1
    }

    mutating func limitExpression(_ scope: Scope) {
        let start = position
        let type = expression(scope)
        if type.parameter != nil { use(type.parameter, type.parameterToken, as: .of(.int, optional: false)) }
        if position == start { position += 1 }
    }

    /// Types expressions separated by commas until a stop word, for their parameters.
    mutating func skipTyped(_ scope: Scope, until stops: Set<String>) {
        var parser = SQLExpressionParser(tokens: tokens, position: position)
        let terms = parser.terms(until: stops)
        position = parser.position
        for term in terms { _ = typeOf(term, scope) }
    }

    static let clauseWords: Set<String> = [
        "FROM", "WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT", "UNION", "INTERSECT", "EXCEPT", "RETURNING",
        "ON", "USING", "JOIN", "SET", "VALUES", "OFFSET",
    ]

    /// One `SELECT` core or `VALUES` list.
    mutating func core(_ outer: Scope) -> ([ResultColumn], Bool) {
        let scope = Scope(parent: outer)
        if accept("VALUES") {
            var rows: [[ResultColumn]] = []
            while acceptSymbol("(") {
                var row: [ResultColumn] = []
                repeat {
                    let start = position
                    let type = expression(scope)
                    let name = "column\(row.count + 1)"
                    row.append(ResultColumn(type: type, tokens: start..<position, name: name, derived: name))
                } while acceptSymbol(",")
                _ = acceptSymbol(")")
                rows.append(row)
                if !acceptSymbol(",") { break }
            }
            guard var columns = rows.first else { return ([], false) }
            for row in rows.dropFirst() {
                for index in columns.indices where index < row.count {
                    columns[index].type = Self.common([columns[index].type, row[index].type], typer: &self)
                }
            }
            return (columns, rows.count == 1)
        }
        guard accept("SELECT") else { return ([], false) }
        _ = accept("DISTINCT") || accept("ALL")
        // The result list is typed after FROM is known.
        let listStart = position
        skip(until: Self.clauseWords)
        let listEnd = position
        let hasFrom = accept("FROM")
        if hasFrom { from(scope) }
        let hasWhere = isKeyword("WHERE")
        if accept("WHERE") {
            let start = position
            _ = expression(scope)
            if position == start { skip(until: Self.clauseWords) }
        }
        if accept("GROUP") {
            _ = accept("BY")
            scope.hasGroupBy = true
            skipTyped(scope, until: ["HAVING"])
        }
        let hasHaving = accept("HAVING")
        if hasHaving { _ = expression(scope) }
        if accept("WINDOW") { skip(until: ["ORDER", "LIMIT", "UNION", "INTERSECT", "EXCEPT"]) }
        let after = position
        position = listStart
        var columns: [ResultColumn] = []
        var aggregate = false
        let outerGroupBy = groupByKnown
        groupByKnown = scope.hasGroupBy
        for element in elements(listStart..<listEnd) {
            columns += resultColumns(element, scope, aggregate: &aggregate)
        }
        groupByKnown = outerGroupBy
        position = after
        // An aggregate without GROUP BY gives one row even when WHERE matches none; HAVING
        // may remove it. Without FROM, only WHERE can.
        let oneRow = !scope.hasGroupBy && !hasHaving && (aggregate || !hasFrom && !hasWhere)
        return (columns, oneRow)
    }

    /// The comma-separated ranges of `range` at depth 0.
    func elements(_ range: Range<Int>) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var depth = 0
        var start = range.lowerBound
        for index in range {
            let token = tokens[index]
            guard token.kind == .symbol else { continue }
            if token.value == "(" { depth += 1 }
            if token.value == ")" { depth -= 1 }
            if token.value == ",", depth == 0 {
                parts.append(start..<index)
                start = index + 1
            }
        }
        if start < range.upperBound { parts.append(start..<range.upperBound) }
        return parts
    }

    /// One element of a result list: `*`, `t.*` or `expr [[AS] alias]`.
    mutating func resultColumns(_ range: Range<Int>, _ scope: Scope, aggregate: inout Bool) -> [ResultColumn] {
        guard !range.isEmpty else { return [] }
        let first = tokens[range.lowerBound]
        if range.count == 1, first.kind == .symbol, first.value == "*" {
            return scope.sources.flatMap { star($0, range) }
        }
        if range.count == 3, tokens[range.lowerBound + 1].value == ".", tokens[range.lowerBound + 2].value == "*" {
            let alias = first.value.lowercased()
            return scope.sources.filter { $0.alias == alias }.flatMap { star($0, range) }
        }
        var end = range.upperBound
        var alias: String?
        if range.count >= 2 {
            let last = tokens[end - 1]
            let before = tokens[end - 2]
            if last.kind == .word || last.kind == .identifier || last.kind == .string {
                if before.kind == .word && before.upper == "AS" {
                    alias = last.kind == .string ? String(last.value.dropFirst().dropLast()) : last.value
                    end -= 2
                } else if last.kind != .string, before.kind != .symbol || before.value == ")",
                          !(before.kind == .word && Self.operatorWords.contains(before.upper)),
                          !(last.kind == .word && Self.trailingWords.contains(last.upper)) {
                    alias = last.value
                    end -= 1
                }
            }
        }
        position = range.lowerBound
        var type = expression(scope)
        if position != end {
            type = .unknown("an expression the analysis does not follow")
        }
        aggregate = aggregate || type.aggregate
        var name = alias
        if name == nil, type.origin != nil, tokens[end - 1].kind == .word || tokens[end - 1].kind == .identifier {
            name = tokens[end - 1].value
        }
        let derived = alias == nil ? derivedName(range.lowerBound..<end) : nil
        return [ResultColumn(type: type, tokens: range.lowerBound..<end, name: name, alias: alias, derived: derived)]
    }

    /// `col`, `t.col`, `main.t.col`: the column's name.

    func star(_ source: Source, _ range: Range<Int>) -> [ResultColumn] {
        guard let columns = source.columns else {
            return [ResultColumn(type: .unknown("the columns of '\(source.alias)' are not known"), tokens: range, name: nil)]
        }
        return columns.filter { !source.hiddenFromStar.contains($0.name.lowercased()) }.map { column in
            var type = column.type
            if source.nullable { type.optional = true }
            return ResultColumn(type: type, tokens: range, name: column.name, derived: column.name)
        }
    }
}
