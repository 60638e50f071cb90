import Foundation
import Strata

/// Foreign keys of an adopted database: one type for both ends of a key, and the `references:`
/// (with `onDelete:`/`onUpdate:`) each column gets, or the warning why it keeps none.
extension DatabaseAdopter {
    /// Gives both ends of every single-column foreign key the same type when their own choices
    /// differ (Sakila's `actor.actor_id numeric` referenced by `film_actor.actor_id INT`): the
    /// first type that reads the values of both, trying the referenced column's census and
    /// declared affinity first (a `NUMERIC` column holding only integers or nothing is `int`),
    /// then its type, then the referencing column's, then `double` for two numbers. Each side
    /// keeps its declared type in `sqlType:`, so the DDL stays what the file has.
    static func unifyForeignKeyTypes(_ tables: inout [AdoptedTable], adoptable: [DatabaseTable]) {
        func locate(_ table: String, _ column: String) -> (Int, Int)? {
            guard let t = adoptable.firstIndex(where: { SQLName.fold($0.name) == SQLName.fold(table) }),
                let c = tables[t].columns.firstIndex(where: { SQLName.fold($0.sqlName) == SQLName.fold(column) })
            else { return nil }
            return (t, c)
        }
        // Chains (a → b → c) settle in a few rounds; the bound guards against a cycle of choices.
        for _ in 0..<8 {
            var changed = false
            for (childTable, table) in adoptable.enumerated() {
                for key in table.foreignKeys where key.columns.count == 1 && key.parentColumns.count == 1 {
                    guard let (ct, cc) = locate(table.name, key.columns[0]), ct == childTable,
                        let (pt, pc) = locate(key.parentTable, key.parentColumns[0])
                    else { continue }
                    let child = tables[ct].columns[cc]
                    let parent = tables[pt].columns[pc]
                    guard child.type != parent.type else { continue }
                    var candidates: [String] = []
                    if parent.type == "double", isNumericAffinity(parent.declaredType),
                        parent.census.reals + parent.census.texts + parent.census.blobs == 0
                    {
                        candidates.append("int")
                    }
                    candidates += [parent.type, child.type]
                    if ["int", "double"].contains(parent.type) && ["int", "double"].contains(child.type) { candidates.append("double") }
                    guard let chosen = candidates.first(where: { reads($0, parent) && reads($0, child) }) else { continue }
                    retype(&tables[pt].columns[pc], to: chosen)
                    retype(&tables[ct].columns[cc], to: chosen)
                    changed = true
                }
            }
            if !changed { return }
        }
    }

    /// `NUMERIC`, `DECIMAL(10, 2)` …: numeric affinity, not a floating-point type.
    static func isNumericAffinity(_ declared: String) -> Bool {
        let type = declared.uppercased()
        return TypeChoice.tentative(declared: declared) == "double" && !type.contains("REAL") && !type.contains("FLOA") && !type.contains("DOUB")
    }

    /// Whether a column typed `keyword` reads every value of `column`.
    static func reads(_ keyword: String, _ column: AdoptedColumn) -> Bool {
        if keyword == column.type { return true }
        let census = column.census
        switch keyword {
        case "int": return ["int", "double", "bool"].contains(column.type) && census.texts + census.blobs + census.fractionalReals == 0
        case "double": return ["int", "double"].contains(column.type) && census.texts + census.blobs == 0
        case "text": return ["text", "date", "uuid"].contains(column.type) && census.integers + census.reals + census.blobs == 0
        default: return false
        }
    }

    /// Gives `column` the type `keyword`, keeping its declared type in `sqlType:` and its default.
    static func retype(_ column: inout AdoptedColumn, to keyword: String) {
        guard column.type != keyword else { return }
        column.type = keyword
        column.sqlType = column.declaredType != ColumnType.sqlType(ofKeyword: keyword) ? column.declaredType : nil
        if let sql = column.defaultSQL { column.defaultYAML = defaultYAML(sql, keyword: keyword) }
    }

    static func resolveForeignKeys(
        of adopted: inout AdoptedTable, table: DatabaseTable, tables: [AdoptedTable], adoptable: [DatabaseTable], warnings: inout [String]
    ) {
        for key in table.foreignKeys {
            func keep(_ reason: String, fix: String) {
                adopted.comments.append("FOREIGN KEY \(key.summary)")
                warnings.append("table \(table.name): foreign key \(key.summary) \(reason); it is kept as a comment" + AdoptedSchema.refusal(fix))
            }
            guard key.columns.count == 1, key.parentColumns.count == 1 else {
                keep(
                    "has more than one column, which a schema file cannot express",
                    fix: "replace it with a single-column key to a primary key or unique column, or drop it (a table rebuild)")
                continue
            }
            guard let index = adopted.columns.firstIndex(where: { SQLName.fold($0.sqlName) == SQLName.fold(key.columns[0]) }) else {
                keep("is on a column the schema cannot express", fix: "drop it, or make the column an ordinary one")
                continue
            }
            guard let parentIndex = adoptable.firstIndex(where: { SQLName.fold($0.name) == SQLName.fold(key.parentTable) }),
                let parentColumn = tables[parentIndex].columns.first(where: { SQLName.fold($0.sqlName) == SQLName.fold(key.parentColumns[0]) })
            else {
                keep("refers to a table or column the schema does not describe", fix: "adopt the table it refers to first (see its warning), or drop the key")
                continue
            }
            let parent = tables[parentIndex]
            let column = adopted.columns[index]
            let isKey = parentColumn.primaryKey != nil && parent.compositeKey.isEmpty
            guard isKey || parentColumn.isUnique else {
                keep(
                    "refers to a column that is neither a primary key nor unique",
                    fix: "make the referenced column unique (CREATE UNIQUE INDEX), or drop the key")
                continue
            }
            guard parentColumn.type == column.type else {
                keep(
                    "joins a \(column.type) column to a \(parentColumn.type) one",
                    fix: "make the values of both columns one type (an UPDATE with CAST, and the declared types)")
                continue
            }
            let onDelete = action(key.onDelete)
            let onUpdate = action(key.onUpdate)
            if (onDelete == "setNull" || onUpdate == "setNull") && !column.isOptional {
                keep("sets NULL on a NOT NULL column", fix: "allow NULL in the column or choose another action (a table rebuild)")
                continue
            }
            if (onDelete == "setDefault" || onUpdate == "setDefault") && column.defaultYAML == nil {
                keep("sets a default the column does not have", fix: "give the column a DEFAULT or choose another action (a table rebuild)")
                continue
            }
            adopted.columns[index].references = "\(parent.recordName).\(parentColumn.name)"
            adopted.columns[index].onDelete = onDelete
            adopted.columns[index].onUpdate = onUpdate
        }
    }

    /// `CASCADE` → `cascade`; `NO ACTION` (the default) → nil.
    static func action(_ sql: String) -> String? {
        switch sql.uppercased() {
        case "CASCADE": "cascade"
        case "SET NULL": "setNull"
        case "SET DEFAULT": "setDefault"
        case "RESTRICT": "restrict"
        default: nil
        }
    }
}
