import Strata

// INSERT, UPDATE, DELETE: their parameters take the types of the columns they are written to.
extension QueryTyper {
    // MARK: - Writes

    /// The target of INSERT/UPDATE/DELETE as a source, with its record.
    mutating func target(_ scope: Scope) -> Table? {
        guard var tableName = name() else { return nil }
        if acceptSymbol("."), let second = name() { tableName = second }
        let table = schema.table(sqlNameLowercased: tableName)
        var alias = tableName.lowercased()
        if accept("AS"), let given = name() { alias = given.lowercased() }
        scope.sources.append(Source(alias: alias, columns: table.map(Self.columns(of:)), nullable: false))
        return table
    }

    /// A table's columns as a source: SQL name, type, nullability, and the column each reads.
    static func columns(of table: Table) -> [(name: String, type: ExprType)] {
        table.columns.map { column in
            (column.sqlName, ExprType(base: column.type, owner: table.recordName, optional: column.isOptional,
                                      origin: (table.sqlName, column.sqlName), dateFormat: column.dateFormat))
        }
    }

    mutating func insert(_ scope: Scope) {
        position += 1
        if accept("OR") { position += 1 }
        _ = accept("INTO")
        let table = target(scope)
        var targetColumns: [Column] = table?.columns ?? []
        if acceptSymbol("(") {
            var listed: [Column] = []
            while let column = name() {
                if let found = table?.columns.first(where: { $0.sqlName.lowercased() == column.lowercased() }) {
                    listed.append(found)
                }
                if !acceptSymbol(",") { break }
            }
            _ = acceptSymbol(")")
            targetColumns = listed
        }
        if accept("VALUES") {
            while acceptSymbol("(") {
                var index = 0
                repeat {
                    let type = expression(scope)
                    if index < targetColumns.count, let table {
                        let column = targetColumns[index]
                        use(type.parameter, type.parameterToken,
                            as: .of(column.type, optional: column.isOptional, owner: table.recordName), optional: column.isOptional)
                    }
                    index += 1
                } while acceptSymbol(",")
                _ = acceptSymbol(")")
                if !acceptSymbol(",") { break }
            }
        } else if accept("DEFAULT") {
            _ = accept("VALUES")
        } else if isKeyword("SELECT") || isKeyword("WITH") {
            _ = select(Scope(parent: scope))
        }
        while accept("ON") {
            _ = accept("CONFLICT")
            if acceptSymbol("(") {
                skip(until: [])
                _ = acceptSymbol(")")
            }
            if accept("WHERE") { _ = expression(scope) }
            _ = accept("DO")
            if accept("UPDATE") {
                _ = accept("SET")
                var excluded = scope.sources.last ?? Source(alias: "excluded", columns: nil, nullable: false)
                excluded.alias = "excluded"
                scope.sources.append(excluded)
                assignments(scope, table: table)
                if accept("WHERE") { _ = expression(scope) }
            } else {
                _ = accept("NOTHING")
            }
        }
        returning(scope)
    }

    mutating func update(_ scope: Scope) {
        position += 1
        if accept("OR") { position += 1 }
        let table = target(scope)
        if accept("INDEXED") {
            _ = accept("BY")
            _ = name()
        }
        _ = accept("SET")
        assignments(scope, table: table)
        if accept("FROM") { from(scope) }
        if accept("WHERE") { _ = expression(scope) }
        returning(scope)
    }

    mutating func delete(_ scope: Scope) {
        position += 1
        _ = accept("FROM")
        _ = target(scope)
        if accept("WHERE") { _ = expression(scope) }
        returning(scope)
    }

    /// `col = expr, …` and `(a, b) = (x, y)` of UPDATE and DO UPDATE.
    mutating func assignments(_ scope: Scope, table: Table?) {
        repeat {
            var names: [String] = []
            if acceptSymbol("(") {
                while let column = name() {
                    names.append(column)
                    if !acceptSymbol(",") { break }
                }
                _ = acceptSymbol(")")
            } else if let column = name() {
                names = [column]
            } else {
                return
            }
            _ = acceptSymbol("=")
            var values: [ExprType] = []
            if names.count > 1, isSymbol("("), !(isKeyword("SELECT", 1) || isKeyword("VALUES", 1) || isKeyword("WITH", 1)) {
                position += 1
                repeat { values.append(expression(scope)) } while acceptSymbol(",")
                _ = acceptSymbol(")")
            } else {
                values = [expression(scope)]
            }
            guard let table, names.count == values.count else { continue }
            for (columnName, type) in zip(names, values) {
                guard let column = table.columns.first(where: { $0.sqlName.lowercased() == columnName.lowercased() }) else { continue }
                use(type.parameter, type.parameterToken,
                    as: .of(column.type, optional: column.isOptional, owner: table.recordName), optional: column.isOptional)
            }
        } while acceptSymbol(",")
    }

    mutating func returning(_ scope: Scope) {
        guard accept("RETURNING") else {
            result.yieldsRows = false
            return
        }
        let start = position
        skip(until: [])
        var aggregate = false
        var columns: [ResultColumn] = []
        let end = position
        for element in elements(start..<end) { columns += resultColumns(element, scope, aggregate: &aggregate) }
        position = end
        result.columns = columns
    }
}
