import Strata

/// Renders the DDL of a ``Schema``: `CREATE TABLE` and `CREATE INDEX` statements.
///
/// Identifiers are always double-quoted (with `"` doubled inside) and string literals
/// single-quoted (with `'` doubled), so any SQL name the schema allows is safe.
///
/// ```swift
/// let statements = SQLRenderer.ddl(for: schema)   // tables in dependency order, then indexes
/// ```
package enum SQLRenderer {
    /// `name` as a quoted SQL identifier: `order` → `"order"`, `a"b` → `"a""b"`.
    package static func quoteIdentifier(_ name: String) -> String {
        SQLQuoting.identifier(name)
    }

    /// `text` as an SQL string literal: `it's` → `'it''s'`.
    package static func quoteLiteral(_ text: String) -> String {
        SQLQuoting.literal(text)
    }

    /// The SQL expression a default renders to (without the `DEFAULT` keyword).
    package static func defaultSQL(_ value: DefaultValue) -> String {
        switch value {
        case .integer(let number): String(number)
        case .real(let number): number.isFinite ? "\(number)" : "NULL"
        case .text(let text): quoteLiteral(text)
        case .bool(let flag): flag ? "1" : "0"
        case .now: "(strftime('%Y-%m-%d %H:%M:%f', 'now'))"
        case .sql(let expression): "(\(expression))"
        case .json(let text): quoteLiteral(text)
        }
    }

    /// The column definition inside `CREATE TABLE`.
    package static func columnDefinition(_ column: Column, in table: Table, checks: Bool = true) -> String {
        SQLiteDialect().columnDefinition(column, in: table, checks: checks)
    }

    /// The SQL names of `table`'s columns.
    static func columnNames(_ table: Table) -> [String] { table.columns.map(\.sqlName) }

    /// `CREATE TABLE` for `table`; foreign keys name the referenced table's SQL names.
    package static func createTableSQL(_ table: Table, in schema: Schema) -> String {
        createTableSQL(table, in: schema, name: table.sqlName, checks: true)
    }

    /// `CREATE TABLE "name"` for `table` in `dialect`: its columns, a key of several columns,
    /// the UNIQUE constraints, the foreign keys, the table's CHECKs (unless `checks` is false)
    /// and the dialect's table options. `extraColumns` follow the declared columns (PostgreSQL's
    /// generated search vector).
    static func createTableSQL(
        _ table: Table, in schema: Schema, name: String, checks: Bool, dialect: any SQLDialect = SQLiteDialect(), extraColumns: [String] = []
    ) -> String {
        var lines = table.columns.map { dialect.columnDefinition($0, in: table, checks: checks) } + extraColumns
        if table.primaryKey.count > 1 {
            let names = table.primaryKeyColumns.map { quoteIdentifier($0.sqlName) }
            lines.append("PRIMARY KEY (\(names.joined(separator: ", ")))")
        }
        for unique in table.uniqueConstraints {
            let names = unique.map { quoteIdentifier(table.column(named: $0)?.sqlName ?? $0) }
            lines.append("UNIQUE (\(names.joined(separator: ", ")))")
        }
        lines += table.columns.compactMap { foreignKeySQL($0, in: schema, inline: false) }
        if checks {
            lines += table.checks.map { "CHECK (\(dialect.fragment($0, names: columnNames(table))))" }
        }
        let sql = "CREATE TABLE \(quoteIdentifier(name)) (\n" + lines.map { "  " + $0 }.joined(separator: ",\n") + "\n)"
        return sql + dialect.tableOptions(table, in: schema)
    }

    /// `FOREIGN KEY ("a") REFERENCES "t" ("id") ON DELETE …` for a column with `references:`,
    /// or only its `REFERENCES …` part when `inline` (an added column's).
    static func foreignKeySQL(_ column: Column, in schema: Schema, inline: Bool) -> String? {
        guard let key = column.references else { return nil }
        let parent = schema.table(named: key.table)
        let parentTable = parent?.sqlName ?? key.table
        let parentColumn = parent?.column(named: key.column)?.sqlName ?? key.column
        var sql = inline ? "" : "FOREIGN KEY (\(quoteIdentifier(column.sqlName))) "
        sql += "REFERENCES \(quoteIdentifier(parentTable)) (\(quoteIdentifier(parentColumn)))"
        if let action = key.onDelete { sql += " ON DELETE \(action.sql)" }
        if let action = key.onUpdate { sql += " ON UPDATE \(action.sql)" }
        return sql
    }

    /// `CREATE [UNIQUE] INDEX … ON … (…) [WHERE …]` for an index of `table`.
    package static func createIndexSQL(_ index: Index, on table: Table, dialect: any SQLDialect = SQLiteDialect()) -> String {
        var columns = index.columns.enumerated().map { position, name in
            let options = index.keyOptions(at: position)
            var key = quoteIdentifier(table.column(named: name)?.sqlName ?? name)
            if let collation = options.collation { key += " COLLATE " + (dialect.collationSQL(collation) ?? collation) }
            if options.isDescending { key += " DESC" }
            return key
        }
        if let expression = index.expression { columns = [dialect.indexExpression(expression, in: table)] }
        var sql = "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(quoteIdentifier(index.name)) "
            + "ON \(quoteIdentifier(table.sqlName)) (\(columns.joined(separator: ", ")))"
        if let condition = index.whereClause { sql += " WHERE \(dialect.fragment(condition, names: columnNames(table)))" }
        return sql
    }

    /// Every statement that creates the schema: tables in dependency order (a referenced table
    /// before the tables that reference it; otherwise declaration order), then their indexes, the
    /// full-text search tables and their triggers (`search:`), the views and the triggers.
    /// The first migration, the migration verifier and the build-time checks all use it.
    package static func ddl(for schema: Schema) -> [String] {
        let tables = dependencyOrder(schema)
        var statements: [String] = tables.map { createTableSQL($0, in: schema) }
        statements += tables.flatMap { table in table.indexes.map { createIndexSQL($0, on: table) } }
        statements += searchDDL(for: schema)
        statements += schema.views.map(createViewSQL)
        statements += schema.triggers.map(\.sql)
        return statements
    }

    /// `CREATE VIEW "name" AS <select>` for a declared view; a view declared with a whole
    /// `CREATE VIEW` statement is taken as written.
    package static func createViewSQL(_ view: SQLObject) -> String {
        let first = SQLTokenizer.tokenize(view.sql).first?.text.uppercased()
        return first == "CREATE" ? view.sql : "CREATE VIEW \(quoteIdentifier(view.name)) AS \(view.sql)"
    }

    /// The tables of `schema` ordered so that each comes after the tables it references
    /// (self references and cycles keep declaration order).
    package static func dependencyOrder(_ schema: Schema) -> [Table] {
        var ordered: [Table] = []
        var placed: Set<String> = []
        var visiting: Set<String> = []
        func visit(_ table: Table) {
            guard !placed.contains(table.sqlName), !visiting.contains(table.sqlName) else { return }
            visiting.insert(table.sqlName)
            for column in table.columns {
                if let key = column.references, let parent = schema.table(named: key.table), parent.sqlName != table.sqlName {
                    visit(parent)
                }
            }
            visiting.remove(table.sqlName)
            placed.insert(table.sqlName)
            ordered.append(table)
        }
        schema.tables.forEach(visit)
        return ordered
    }

    /// The `SELECT` a named query runs, with an explicit column list.
    ///
    /// A `where` or `orderBy` that has a `--` line comment is followed by a line break, so the
    /// comment cannot swallow the `ORDER BY`, `LIMIT` or `)` after it.
    ///
    /// `notExpired` is a condition every row must also meet (an expiring table's, see
    /// ``Expiry``): it follows the query's own condition, so its parameters come after those.
    ///
    /// In another `dialect`, the fragments read as that database reads them and the parameters
    /// are its placeholders (`parameters` numbers them). `resultColumns` replaces the column
    /// list of a query that returns rows (the parameter inference types the rest only).
    package static func selectSQL(
        _ query: Query, on table: Table, notExpired: String? = nil, dialect: any SQLDialect = SQLiteDialect(),
        parameters: [String: ParameterSlot] = [:], resultColumns: String? = nil
    ) -> String {
        func fragment(_ text: String) -> String {
            endingLineComment(dialect.fragment(text, names: columnNames(table), parameters: parameters))
        }
        let from = " FROM \(quoteIdentifier(table.sqlName))"
        var condition = query.whereClause.map { " WHERE " + fragment($0) } ?? ""
        if let notExpired {
            condition = query.whereClause.map { " WHERE (" + fragment($0) + ") AND " + notExpired } ?? " WHERE " + notExpired
        }
        switch query.returns {
        case .count:
            return "SELECT count(*)" + from + condition
        case .exists:
            return "SELECT EXISTS (SELECT 1" + from + condition + ")"
        case .many, .one:
            var sql = "SELECT " + (resultColumns ?? table.columns.map { quoteIdentifier($0.sqlName) }.joined(separator: ", ")) + from + condition
            if let orderBy = query.orderBy { sql += " ORDER BY " + fragment(orderBy) }
            switch query.limit {
            case .fixed(let count)?: sql += " LIMIT \(count)"
            case .parameter(let name)?: sql += " LIMIT " + dialect.parameter(name, parameters)
            case nil: if query.returns == .one { sql += " LIMIT 1" }
            }
            return sql
        }
    }

    /// `text`, with a line break after it when it has a `--` (possibly a line comment that
    /// would otherwise run on over what follows).
    static func endingLineComment(_ text: String) -> String {
        // By bytes, as SQLite reads a comment (Foundation's `contains` compares characters).
        var afterDash = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "-") {
                if afterDash { return text + "\n" }
                afterDash = true
            } else {
                afterDash = false
            }
        }
        return text
    }

    /// Whether `fragment`, rendered as `selectSQL` renders it, would hide the SQL after it: it
    /// ends inside a `/* comment` (SQLite runs such a comment to the end of the text) or a
    /// quoted string or name.
    static func swallowsWhatFollows(_ fragment: String) -> Bool {
        let marker = "strata_end_of_fragment"
        return SQLTokenizer.tokenize(endingLineComment(fragment) + " " + marker).last?.text != marker
    }
}
