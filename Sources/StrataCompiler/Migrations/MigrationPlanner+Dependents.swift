import Strata

/// What the planner asks about the current schema: which columns `ALTER TABLE DROP COLUMN`
/// can drop, which views and triggers a rebuild must drop and create again, and small
/// questions about a table's shape.
extension MigrationPlanner {
    /// Whether `ALTER TABLE DROP COLUMN` can drop `column`: it is not part of a key, a UNIQUE
    /// constraint, an index, a CHECK, a foreign key (either side), a trigger or a view.
    static func canDropWithAlter(_ column: DatabaseColumn, from table: DatabaseTable, current: DatabaseSchema) -> Bool {
        let name = column.name
        if column.primaryKeyPosition > 0 { return false }
        if table.uniqueKeys.contains(where: { $0.contains(SQLName.key(name)) }) { return false }
        for index in current.indexes(on: table.name) {
            if index.keys.isEmpty, index.columns.contains(where: { SQLName.same($0, name) }) { return false }
            if index.keys.contains(where: { key in key.column.map { SQLName.same($0, name) } ?? true }) { return false }
            if let condition = index.whereClause, SQLTokenizer.mentions(condition, name: name) { return false }
        }
        if table.allChecks.contains(where: { SQLTokenizer.mentions($0, name: name) }) { return false }
        if table.foreignKeys.contains(where: { $0.columns.contains { SQLName.same($0, name) } }) { return false }
        for other in current.tables {
            for key in other.foreignKeys where SQLName.same(key.parentTable, table.name) {
                if key.parentColumns.contains(where: { SQLName.same($0, name) }) { return false }
            }
        }
        let sqlOfOthers = current.triggers.map(\.sql) + current.views.map(\.sql)
        if sqlOfOthers.contains(where: { SQLTokenizer.mentions($0, name: name) }) { return false }
        return true
    }

    /// The views and triggers to drop before rebuilding the tables `rebuilt` and to create
    /// again after, in `sqlite_master` order: every view that mentions a rebuilt table or such
    /// a view, and every trigger on, or mentioning, any of them.
    static func dependents(of rebuilt: Set<SQLName.Key>, in current: DatabaseSchema) -> (views: [DatabaseView], triggers: [DatabaseTrigger]) {
        guard !rebuilt.isEmpty else { return ([], []) }
        var names = rebuilt
        var views: Set<SQLName.Key> = []
        var changed = true
        func mentionsAny(_ sql: String) -> Bool {
            SQLExpressionTree(parsing: sql).mentionedNames.contains { names.contains(SQLName.key($0)) }
        }
        while changed {
            changed = false
            for view in current.views where !views.contains(SQLName.key(view.name)) && mentionsAny(view.sql) {
                views.insert(SQLName.key(view.name))
                names.insert(SQLName.key(view.name))
                changed = true
            }
        }
        let keptViews = current.views.filter { views.contains(SQLName.key($0.name)) }
        let keptTriggers = current.triggers.filter { names.contains(SQLName.key($0.table)) || mentionsAny($0.sql) }
        return (keptViews, keptTriggers)
    }

    /// An `INTEGER PRIMARY KEY` of a rowid table: SQLite fills it by itself.
    static func isRowidAlias(_ column: DatabaseColumn, in table: DatabaseTable) -> Bool {
        table.primaryKey.count == 1 && column.primaryKeyPosition == 1 && column.type == "INTEGER" && !table.isWithoutRowid
    }

    /// Two tables with the same column names and types.
    static func sameShape(_ a: DatabaseTable, _ b: DatabaseTable) -> Bool {
        Set(a.columns.map { "\(SQLName.fold($0.name)) \($0.type)" }) == Set(b.columns.map { "\(SQLName.fold($0.name)) \($0.type)" })
    }

    static func q(_ name: String) -> String { SQLRenderer.quoteIdentifier(name) }
    static func literal(_ text: String) -> String { SQLRenderer.quoteLiteral(text) }
}
