/// A table's `expires: true` option: an optional `expiresAt` date column, the record's last
/// member, with an index on it. Generated reads of the table leave out the rows whose
/// `expiresAt` has passed, and `<Database>.purgeExpired(_:)` deletes them.
///
/// ```yaml
/// Session:
///   columns: { token: { type: text, primaryKey: true }, userId: int }
///   expires: true
/// ```
///
/// The column and the index are ordinary parts of the table once decoded: DDL, migrations and
/// the record struct treat them like any declared column and index.
package enum Expiry {
    /// The Swift and SQL name of the column `expires: true` adds.
    package static let columnName = "expiresAt"

    /// The column `expires: true` adds: `expiresAt: Date?`, NULL for a row that never expires.
    static func column(location: SourceLocation?) -> Column {
        Column(
            name: columnName, type: .date, isOptional: true,
            doc: "When the row expires (`expires: true`); nil for a row that never expires. Reads leave out expired rows.",
            location: location)
    }

    /// The index on the column: `<table>_expiresAt`, which reads and `purgeExpired` use.
    static func index(on table: Table, location: SourceLocation?) -> Index {
        Index(name: indexName(of: table), columns: [columnName], location: location)
    }

    /// `<table>_expiresAt`.
    static func indexName(of table: Table) -> String { table.sqlName + "_" + columnName }

    /// `("expiresAt" IS NULL OR "expiresAt" > <now>)`: the condition a row that has not expired
    /// meets, with `now` the SQL of the current time's parameter (dates compare as their text).
    package static func notExpiredCondition(now: String, qualifier: String? = nil) -> String {
        let column = (qualifier.map { $0 + "." } ?? "") + SQLRenderer.quoteIdentifier(columnName)
        return "(\(column) IS NULL OR \(column) > \(now))"
    }
}

extension Table {
    /// The `expiresAt` column of a table with `expires: true`.
    package var expiresAtColumn: Column? { expires ? column(named: Expiry.columnName) : nil }
}
