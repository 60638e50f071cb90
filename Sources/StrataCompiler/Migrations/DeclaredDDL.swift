import Foundation

/// The DDL of a declared schema, as the migrations see it: its tables in dependency order
/// (a referenced table before the tables that reference it), then its indexes.
///
/// TEMPORARY: a private renderer until the shared one in `SQL/` lands; it renders exactly what
/// the shared one will (quoted identifiers, STRICT, constraints inside the table).
enum DeclaredDDL {
    /// The tables of `schema` ordered so that each comes after the tables it references
    /// (self references and cycles keep declaration order).
    static func dependencyOrder(_ schema: Schema) -> [Table] {
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

    /// CREATE TABLE statements in dependency order, then CREATE INDEX statements.
    static func statements(for schema: Schema) -> [String] {
        let tables = dependencyOrder(schema)
        return tables.map { createTableSQL($0, in: schema) } + tables.flatMap { table in table.indexes.map { createIndexSQL($0, on: table) } }
    }

    static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func quoteLiteral(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    static func defaultSQL(_ value: DefaultValue) -> String {
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

    static func columnDefinition(_ column: Column, in table: Table) -> String {
        var parts = [quoteIdentifier(column.sqlName), column.type.sqlType]
        let singleKey = table.primaryKey.count == 1 && table.primaryKey.first == column.name
        if singleKey {
            parts.append(column.primaryKey == .autoincrement ? "PRIMARY KEY AUTOINCREMENT" : "PRIMARY KEY")
        }
        if !column.isOptional && column.primaryKey != .autoincrement { parts.append("NOT NULL") }
        if column.isUnique && !singleKey { parts.append("UNIQUE") }
        if let value = column.defaultValue { parts.append("DEFAULT " + defaultSQL(value)) }
        let name = quoteIdentifier(column.sqlName)
        switch column.type {
        case .enumeration(_, let values):
            parts.append("CHECK (\(name) IN (\(values.map(quoteLiteral).joined(separator: ", "))))")
        case .bool:
            parts.append("CHECK (\(name) IN (0, 1))")
        default:
            break
        }
        if let check = column.check { parts.append("CHECK (\(check))") }
        return parts.joined(separator: " ")
    }

    static func createTableSQL(_ table: Table, in schema: Schema) -> String {
        var lines = table.columns.map { columnDefinition($0, in: table) }
        if table.primaryKey.count > 1 {
            let names = table.primaryKeyColumns.map { quoteIdentifier($0.sqlName) }
            lines.append("PRIMARY KEY (\(names.joined(separator: ", ")))")
        }
        for column in table.columns {
            guard let key = column.references else { continue }
            let parent = schema.table(named: key.table)
            let parentTable = parent?.sqlName ?? key.table
            let parentColumn = parent?.column(named: key.column)?.sqlName ?? key.column
            var line = "FOREIGN KEY (\(quoteIdentifier(column.sqlName))) REFERENCES "
                + "\(quoteIdentifier(parentTable)) (\(quoteIdentifier(parentColumn)))"
            if let action = key.onDelete { line += " ON DELETE \(action.sql)" }
            if let action = key.onUpdate { line += " ON UPDATE \(action.sql)" }
            lines.append(line)
        }
        var sql = "CREATE TABLE \(quoteIdentifier(table.sqlName)) (\n"
        sql += lines.map { "  " + $0 }.joined(separator: ",\n")
        sql += "\n)"
        if schema.options.strict { sql += " STRICT" }
        return sql
    }

    static func createIndexSQL(_ index: Index, on table: Table) -> String {
        let columns = index.columns.map { quoteIdentifier(table.column(named: $0)?.sqlName ?? $0) }
        var sql = "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(quoteIdentifier(index.name)) "
            + "ON \(quoteIdentifier(table.sqlName)) (\(columns.joined(separator: ", ")))"
        if let condition = index.whereClause { sql += " WHERE \(condition)" }
        return sql
    }
}
