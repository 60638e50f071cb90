import Strata

/// What differs between the SQL databases Strata generates for: column definitions (types,
/// defaults, identity keys, CHECKs), how an SQL fragment written in the schema reads there,
/// placeholders, `RETURNING`, upserts and table options.
///
/// The DDL (``SQLRenderer/createTableSQL(_:in:name:checks:dialect:)``), the DAO plans
/// (``DAOPlan``) and the PostgreSQL migrations render with a dialect: the structure they share
/// is written once, and a dialect says only what is its own. What a dialect cannot express is
/// refused by the schema check at the line that says it (``PostgresDialect/unsupportedWords``).
///
/// ```swift
/// DAOPlan(table: book, schema: schema, dialect: PostgresDialect()).insertSQL
/// // INSERT INTO "Book" ("id", "title") VALUES ($1, $2) RETURNING "id", "title"
/// ```
package protocol SQLDialect: Sendable {
    /// The column definition inside `CREATE TABLE`; `checks: false` leaves out the CHECKs and
    /// the expression defaults (SQLite's probe tables).
    func columnDefinition(_ column: Column, in table: Table, checks: Bool) -> String
    /// The SQL expression a default of a value of `codec` renders to (without `DEFAULT`).
    func defaultSQL(_ value: DefaultValue, codec: any ValueCodec) -> String
    /// An SQL fragment of the schema (a CHECK, an index's `where:`, a table query's `where:` or
    /// `orderBy:`) as this database reads it: `names` are the table's column names as declared,
    /// `parameters` the numbered `:name` parameters of a named query.
    func fragment(_ sql: String, names: [String], parameters: [String: ParameterSlot]) -> String
    /// What follows the `)` of `CREATE TABLE` (SQLite's ` STRICT, WITHOUT ROWID`).
    func tableOptions(_ table: Table, in schema: Schema) -> String
    /// An index key that is an expression.
    func indexExpression(_ expression: String, in table: Table) -> String
    /// A collation of the schema as this database names it; nil when it has none.
    func collationSQL(_ name: String) -> String?
    /// The placeholder of the DAO statement's value `number` (one-based), a value of `codec`
    /// (nil for a key compared in a condition).
    func placeholder(_ number: Int, for codec: (any ValueCodec)?) -> String
    /// Whether ``placeholder(_:for:)`` depends on the codec (else callers pass nil rather than
    /// make one: a codec is costly to make).
    var placeholderUsesCodec: Bool { get }
    /// The placeholder of a named query's parameter `name` (SQLite's `:name`).
    func parameter(_ name: String, _ parameters: [String: ParameterSlot]) -> String
    /// The placeholder that names parameter `number` explicitly (`?3`, `$3`).
    func numberedPlaceholder(_ number: Int) -> String
    /// What follows a write that gives back the stored row: PostgreSQL's ` RETURNING …`.
    func returning(_ columns: String) -> String
    /// The `ON CONFLICT (…)` action of an upsert of a table that has only key columns; `key`
    /// is the first key column, quoted.
    func upsertOfKeyOnly(_ key: String) -> String
    /// Whether the DAO's reads of an expiring table leave the expired rows out (the current
    /// time is a parameter).
    var filtersExpiredRows: Bool { get }
}

/// A named query parameter's number (one-based) and its type's codec.
package struct ParameterSlot: Sendable {
    /// The number SQLite gives the parameter (the order of `query.parameters`).
    package var number: Int
    /// The codec of the parameter's type.
    package var codec: any ValueCodec
}

extension SQLDialect {
    /// `sql` as this database reads it, with no query parameters.
    package func fragment(_ sql: String, names: [String]) -> String { fragment(sql, names: names, parameters: [:]) }

}

// MARK: - SQLite

/// SQLite: the language the schema's SQL fragments are written in (they pass as written),
/// anonymous `?` placeholders, STRICT and WITHOUT ROWID tables, `dateFormat:` storage.
package struct SQLiteDialect: SQLDialect {
    /// The dialect.
    package init() {}

    package func columnDefinition(_ column: Column, in table: Table, checks: Bool) -> String {
        var parts = [SQLRenderer.quoteIdentifier(column.sqlName)]
        let sqlType = column.sqlType ?? column.storageSQLType
        if !sqlType.isEmpty { parts.append(sqlType) }
        let singleKey = table.primaryKey.count == 1 && table.primaryKey.first == column.name
        if singleKey {
            parts.append(column.primaryKey == .autoincrement ? "PRIMARY KEY AUTOINCREMENT" : "PRIMARY KEY")
        }
        if !column.isOptional && column.primaryKey != .autoincrement { parts.append("NOT NULL") }
        if column.isUnique && !singleKey { parts.append("UNIQUE") }
        if let collation = column.collation { parts.append("COLLATE " + Collation.sql(collation)) }
        if let value = column.defaultValue, checks || !value.isExpression {
            parts.append("DEFAULT " + defaultSQL(value, codec: column.codec))
        }
        if checks {
            if let check = column.codec.sqliteCheck(SQLRenderer.quoteIdentifier(column.sqlName), sqlType: column.sqlType) { parts.append(check) }
            if let check = column.check { parts.append("CHECK (\(check))") }
        }
        return parts.joined(separator: " ")
    }

    package func defaultSQL(_ value: DefaultValue, codec: any ValueCodec) -> String {
        codec.sqliteDefault(value) ?? SQLRenderer.defaultSQL(value)
    }

    package func fragment(_ sql: String, names: [String], parameters: [String: ParameterSlot]) -> String { sql }

    package func tableOptions(_ table: Table, in schema: Schema) -> String {
        var options: [String] = []
        if table.isStrict(in: schema) { options.append("STRICT") }
        if table.isWithoutRowid { options.append("WITHOUT ROWID") }
        return options.isEmpty ? "" : " " + options.joined(separator: ", ")
    }

    package func indexExpression(_ expression: String, in table: Table) -> String { expression }
    package func collationSQL(_ name: String) -> String? { Collation.sql(name) }
    package func placeholder(_ number: Int, for codec: (any ValueCodec)?) -> String { "?" }
    package var placeholderUsesCodec: Bool { false }
    package func parameter(_ name: String, _ parameters: [String: ParameterSlot]) -> String { ":" + name }
    package func numberedPlaceholder(_ number: Int) -> String { "?\(number)" }
    package func returning(_ columns: String) -> String { "" }
    package func upsertOfKeyOnly(_ key: String) -> String { "DO NOTHING" }
    package var filtersExpiredRows: Bool { true }
}

extension DefaultValue {
    /// Whether the default is an SQL expression (`{ sql: … }`).
    var isExpression: Bool {
        if case .sql = self { return true }
        return false
    }
}
