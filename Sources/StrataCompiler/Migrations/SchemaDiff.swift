/// The structural differences between two ``DatabaseSchema``s: what the migrations produce
/// ("current") and what the schema file declares ("declared").
///
/// Tables, columns and indexes are matched by name as SQLite matches them (``SQLName``: ASCII case folded, nothing else); columns are compared
/// by type, NOT NULL, default, and place in the primary key; tables by primary key, foreign
/// keys, UNIQUE and CHECK constraints, STRICT, WITHOUT ROWID and AUTOINCREMENT; indexes by
/// table, key columns, uniqueness and WHERE. Column order, quoting, case and whitespace do not
/// count. Views and triggers are compared when the schema declares some (see
/// `SchemaDiff+ViewsAndTriggers.swift`); otherwise migrations written by hand may add them.
public enum SchemaDiff {
    /// One sentence per difference, in a stable order; empty when the structures are equal.
    public static func differences(from current: DatabaseSchema, to declared: DatabaseSchema) -> [String] {
        var result: [String] = []
        for table in declared.tables {
            guard let old = current.table(named: table.name) else {
                result.append("table \(table.name) is declared but the migrations do not create it")
                continue
            }
            result += differences(of: old, and: table)
        }
        for table in current.tables where declared.table(named: table.name) == nil {
            result.append("table \(table.name) is created by the migrations but not declared")
        }
        for index in declared.indexes {
            guard let old = current.index(named: index.name) else {
                result.append("index \(index.name) (\(index.summary)) is declared but the migrations do not create it")
                continue
            }
            if !old.isStructurallyEqual(to: index) {
                result.append("index \(index.name) is \(index.summary) in the schema but \(old.summary) in the migrations")
            }
        }
        for index in current.indexes where declared.index(named: index.name) == nil {
            result.append("index \(index.name) (\(index.summary)) is created by the migrations but not declared")
        }
        result += viewAndTriggerDifferences(from: current, to: declared)
        result += searchDifferences(from: current, to: declared)
        return result
    }

    /// The differences of two versions of one table.
    static func differences(of old: DatabaseTable, and new: DatabaseTable) -> [String] {
        var result: [String] = []
        let name = new.name
        for column in new.columns {
            guard let oldColumn = old.column(named: column.name) else {
                result.append("column \(name).\(column.name) is declared but missing")
                continue
            }
            result += columnChanges(from: oldColumn, to: column).map { "column \(name).\(column.name) \($0)" }
        }
        for column in old.columns where new.column(named: column.name) == nil {
            result.append("column \(name).\(column.name) exists but is not declared")
        }
        if old.primaryKey.map(SQLName.key) != new.primaryKey.map(SQLName.key) {
            result.append(
                "table \(name) has primary key (\(new.primaryKey.joined(separator: ", "))) in the schema but (\(old.primaryKey.joined(separator: ", "))) in the migrations")
        }
        let oldKeys = old.foreignKeyKeys
        let newKeys = new.foreignKeyKeys
        for key in new.foreignKeys where !oldKeys.contains(key.normalized) {
            result.append("table \(name): foreign key \(key.summary) is declared but missing")
        }
        for key in old.foreignKeys where !newKeys.contains(key.normalized) {
            result.append("table \(name): foreign key \(key.summary) exists but is not declared")
        }
        for unique in new.uniqueConstraints where !old.uniqueKeys.contains(unique.map(SQLName.key)) {
            result.append("table \(name): UNIQUE (\(unique.joined(separator: ", "))) is declared but missing")
        }
        for unique in old.uniqueConstraints where !new.uniqueKeys.contains(unique.map(SQLName.key)) {
            result.append("table \(name): UNIQUE (\(unique.joined(separator: ", "))) exists but is not declared")
        }
        let oldChecks = old.allChecks
        let newChecks = new.allChecks
        let written = WrittenChecks(old.sql, new.sql)
        for check in newChecks.subtracting(oldChecks).sorted() {
            result.append("table \(name): CHECK (\(written[check])) is declared but missing")
        }
        for check in oldChecks.subtracting(newChecks).sorted() {
            result.append("table \(name): CHECK (\(written[check])) exists but is not declared")
        }
        if old.isStrict != new.isStrict {
            result.append("table \(name) is \(new.isStrict ? "" : "not ")STRICT in the schema but \(old.isStrict ? "" : "not ")STRICT in the migrations")
        }
        if old.isWithoutRowid != new.isWithoutRowid {
            result.append("table \(name) differs in WITHOUT ROWID")
        }
        if old.isAutoincrement != new.isAutoincrement {
            result.append(
                "table \(name) \(new.isAutoincrement ? "uses" : "does not use") AUTOINCREMENT in the schema but \(old.isAutoincrement ? "does" : "does not") in the migrations")
        }
        return result
    }

    /// What changes from `old` to `new` of one column, as phrases (`becomes NOT NULL` …).
    static func columnChanges(from old: DatabaseColumn, to new: DatabaseColumn) -> [String] {
        var result: [String] = []
        if old.type != new.type { result.append("changes type from \(old.type) to \(new.type)") }
        if old.isNotNull != new.isNotNull { result.append(new.isNotNull ? "becomes NOT NULL" : "becomes nullable") }
        if old.normalizedDefault != new.normalizedDefault {
            result.append("changes default from \(old.defaultSQL ?? "none") to \(new.defaultSQL ?? "none")")
        }
        if old.primaryKeyPosition != new.primaryKeyPosition {
            result.append(new.primaryKeyPosition > 0 ? "joins the primary key" : "leaves the primary key")
        }
        if old.hidden != new.hidden { result.append("changes whether it is generated") }
        return result
    }
}
