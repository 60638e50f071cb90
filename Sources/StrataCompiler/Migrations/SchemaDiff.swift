/// The structural differences between two ``DatabaseSchema``s: what exists ("current": what
/// the migrations produce, or a live database) and what should ("target": what the schema
/// file declares, or what the migrations produce).
///
/// Tables, columns and indexes are matched by name as SQLite matches them (``SQLName``: ASCII case folded, nothing else); columns are compared
/// by type, NOT NULL, default, collation, and place in the primary key; tables by primary key, foreign
/// keys, UNIQUE and CHECK constraints, STRICT, WITHOUT ROWID and AUTOINCREMENT; indexes by
/// table, key columns, uniqueness and WHERE. Column order, quoting, case and whitespace do not
/// count. Views and triggers are compared when the schema declares some (see
/// `SchemaDiff+ViewsAndTriggers.swift`); otherwise migrations written by hand may add them.
///
/// This is the one structural comparison: the migration verifier, the planner's check of its
/// plan and its reasons to rebuild a table, drift (``SchemaDrift``) and baselines
/// (``MigrationBaseline``) all read `compare(from:to:viewsAndTriggers:)`: typed
/// ``SchemaDifference``s, said in each one's own words (`SchemaDifference.Wording`) only where
/// they are printed.
package enum SchemaDiff {
    /// The differences from `current` to `target`, in a stable order: tables (and in each its
    /// columns and constraints), indexes, views and triggers (when `viewsAndTriggers` and
    /// `target` declares some), full-text search objects.
    static func compare(from current: DatabaseSchema, to target: DatabaseSchema, viewsAndTriggers: Bool = true) -> [SchemaDifference] {
        var result: [SchemaDifference] = []
        for table in target.tables {
            guard let old = current.table(named: table.name) else {
                result.append(SchemaDifference(table.name, .table(.onlyInTarget)))
                continue
            }
            result += compare(old, to: table)
        }
        for table in current.tables where target.table(named: table.name) == nil {
            result.append(SchemaDifference(table.name, .table(.onlyInCurrent)))
        }
        for index in target.indexes {
            guard let old = current.index(named: index.name) else {
                result.append(SchemaDifference(index.name, .index(summary: index.summary, .onlyInTarget)))
                continue
            }
            if !old.isStructurallyEqual(to: index) {
                result.append(SchemaDifference(index.name, .indexChanged(current: old.summary, target: index.summary)))
            }
        }
        for index in current.indexes where target.index(named: index.name) == nil {
            result.append(SchemaDifference(index.name, .index(summary: index.summary, .onlyInCurrent)))
        }
        if viewsAndTriggers { result += viewAndTriggerDifferences(from: current, to: target) }
        result += searchDifferences(from: current, to: target)
        return result
    }

    /// The differences of two versions of one table: `old` (current) and `new` (target).
    static func compare(_ old: DatabaseTable, to new: DatabaseTable) -> [SchemaDifference] {
        // Equal tables (the common case: most of a schema does not change) have no difference;
        // saying so at once spares the comparisons below, the reading of the CHECK texts first.
        if old == new { return [] }
        var result: [SchemaDifference] = []
        let name = new.name
        for column in new.columns {
            guard let oldColumn = old.column(named: column.name) else {
                result.append(SchemaDifference(name, .column(column.name, .onlyInTarget)))
                continue
            }
            let changes = columnChanges(from: oldColumn, to: column)
            if !changes.isEmpty { result.append(SchemaDifference(name, .columnChanged(column.name, changes))) }
        }
        for column in old.columns where new.column(named: column.name) == nil {
            result.append(SchemaDifference(name, .column(column.name, .onlyInCurrent)))
        }
        if old.primaryKey.map(SQLName.key) != new.primaryKey.map(SQLName.key) {
            result.append(SchemaDifference(name, .primaryKey(current: old.primaryKey, target: new.primaryKey)))
        }
        if old.isStrict != new.isStrict { result.append(SchemaDifference(name, .strict(target: new.isStrict))) }
        if old.isWithoutRowid != new.isWithoutRowid { result.append(SchemaDifference(name, .withoutRowid(target: new.isWithoutRowid))) }
        if old.isAutoincrement != new.isAutoincrement { result.append(SchemaDifference(name, .autoincrement(target: new.isAutoincrement))) }
        let oldKeys = old.foreignKeyKeys
        let newKeys = new.foreignKeyKeys
        for key in new.foreignKeys where !oldKeys.contains(key.normalized) {
            result.append(SchemaDifference(name, .foreignKey(key, .onlyInTarget)))
        }
        for key in old.foreignKeys where !newKeys.contains(key.normalized) {
            result.append(SchemaDifference(name, .foreignKey(key, .onlyInCurrent)))
        }
        for unique in new.uniqueConstraints where !old.uniqueKeys.contains(unique.map(SQLName.key)) {
            result.append(SchemaDifference(name, .unique(unique, .onlyInTarget)))
        }
        for unique in old.uniqueConstraints where !new.uniqueKeys.contains(unique.map(SQLName.key)) {
            result.append(SchemaDifference(name, .unique(unique, .onlyInCurrent)))
        }
        let oldChecks = old.allChecks
        let newChecks = new.allChecks
        let added = newChecks.subtracting(oldChecks).sorted()
        let removed = oldChecks.subtracting(newChecks).sorted()
        guard !added.isEmpty || !removed.isEmpty else { return result }
        let written = WrittenChecks(old.sql, new.sql)  // only when a CHECK differs: it tokenizes both tables
        for check in added {
            result.append(SchemaDifference(name, .check(check, written: written[check], .onlyInTarget)))
        }
        for check in removed {
            result.append(SchemaDifference(name, .check(check, written: written[check], .onlyInCurrent)))
        }
        return result
    }

    /// What differs from `old` to `new` of one column.
    static func columnChanges(from old: DatabaseColumn, to new: DatabaseColumn) -> [SchemaDifference.ColumnChange] {
        var result: [SchemaDifference.ColumnChange] = []
        if old.type != new.type { result.append(.type(current: old.type, target: new.type)) }
        if old.isNotNull != new.isNotNull { result.append(.notNull(target: new.isNotNull)) }
        if old.normalizedDefault != new.normalizedDefault { result.append(.defaultValue(current: old.defaultSQL, target: new.defaultSQL)) }
        if old.primaryKeyPosition != new.primaryKeyPosition {
            result.append(.primaryKeyPosition(current: old.primaryKeyPosition, target: new.primaryKeyPosition))
        }
        if old.hidden != new.hidden { result.append(.generated) }
        if old.collationKey != new.collationKey { result.append(.collation(current: old.collation, target: new.collation)) }
        return result
    }
}
