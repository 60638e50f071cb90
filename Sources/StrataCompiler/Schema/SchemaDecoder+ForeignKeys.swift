import Strata

/// Foreign keys: each `references: Table.column` resolved to its table's record name and its
/// column, and checked (types, keys, actions, expiring parents).
extension SchemaDecoder {
    mutating func resolveForeignKeys(_ schema: inout Schema) {
        // Names are looked up in the schema as it was before this pass; the resolved keys are
        // written to a copy of the tables, assigned once at the end (only `references` changes).
        let unresolved = schema
        let tables = schema.tables
        var resolved = tables
        defer { schema.tables = resolved }
        for tableIndex in tables.indices {
            for columnIndex in tables[tableIndex].columns.indices {
                let column = tables[tableIndex].columns[columnIndex]
                guard var key = column.references else { continue }
                let source = sources[tableIndex].columns[columnIndex]
                let location = source.references?.location ?? source.keyLocation
                let raw = key.table
                let candidates = raw.indices.filter { raw[$0] == "." }
                guard !candidates.isEmpty else {
                    tableError(tableIndex, location, "'references' must be 'Table.column', found '\(raw)'")
                    resolved[tableIndex].columns[columnIndex].references = nil
                    continue
                }
                var target: (Table, Column)?
                var knownTable: Table?
                for dot in candidates {
                    let tableName = String(raw[..<dot])
                    let columnName = String(raw[raw.index(after: dot)...])
                    guard let parent = unresolved.table(named: tableName) else { continue }
                    knownTable = knownTable ?? parent
                    if let parentColumn = Self.column(columnName, in: parent) {
                        target = (parent, parentColumn)
                        break
                    }
                }
                guard let (parent, parentColumn) = target else {
                    resolved[tableIndex].columns[columnIndex].references = nil
                    if let knownTable {
                        let columnName = String(raw[raw.index(after: candidates.last ?? raw.startIndex)...])
                        tableError(tableIndex, location, "foreign key references unknown column '\(knownTable.recordName).\(columnName)'",
                                   hint: Suggestion.hint(for: columnName, in: knownTable.columns.map(\.name)))
                    } else {
                        let tableName = String(raw[..<(candidates.first ?? raw.endIndex)])
                        tableError(tableIndex, location, "foreign key references unknown table '\(tableName)'",
                                   hint: Suggestion.hint(for: tableName, in: tables.map(\.recordName)))
                    }
                    continue
                }
                key.table = parent.recordName
                key.column = parentColumn.name
                resolved[tableIndex].columns[columnIndex].references = key
                if column.type.keyword != parentColumn.type.keyword {
                    tableError(tableIndex, location,
                               "foreign key column '\(column.name)' is \(column.type.keyword) but '\(parent.recordName).\(parentColumn.name)' is \(parentColumn.type.keyword)",
                               hint: "give both columns the same type")
                } else if (parent.primaryKey != [parentColumn.name]) && !parentColumn.isUnique {
                    tableError(tableIndex, location,
                               "foreign key must reference a primary key or unique column; '\(parent.recordName).\(parentColumn.name)' is neither",
                               hint: "mark '\(parentColumn.name)' unique: true")
                }
                if key.onDelete == .setNull || key.onUpdate == .setNull, !column.isOptional {
                    let node = key.onDelete == .setNull ? source.onDelete : source.onUpdate
                    tableError(tableIndex, node?.location ?? location, "setNull needs an optional column; '\(column.name)' is not optional",
                               hint: "make it '\(column.type.keyword)?' or use another action")
                }
                if key.onDelete == .setDefault || key.onUpdate == .setDefault, column.defaultValue == nil {
                    let node = key.onDelete == .setDefault ? source.onDelete : source.onUpdate
                    tableError(tableIndex, node?.location ?? location, "setDefault needs a default; '\(column.name)' has none")
                }
                // `purgeExpired` (and `migrate`, which runs it) deletes expired parent rows: an
                // action that forbids deleting a referenced parent would make it fail.
                if parent.expires, key.onDelete == nil || key.onDelete == .restrict || key.onDelete == .noAction {
                    let action = key.onDelete.map { "onDelete: \($0.rawValue)" } ?? "no onDelete (SQLite's default, noAction)"
                    tableError(tableIndex, source.onDelete?.location ?? location,
                               "foreign key '\(column.name)' references '\(parent.recordName)', whose rows expire (expires: true), with \(action): purgeExpired could not delete an expired '\(parent.recordName)' while a row refers to it",
                               hint: "add 'onDelete: cascade' (or setNull or setDefault) to '\(column.name)'")
                }
            }
        }
    }
}
