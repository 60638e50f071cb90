/// `renamedFrom` hints: each old name can be renamed into one table (one column of a table)
/// only, or the planner could not tell which of them gets the data.
extension SchemaDecoder {
    mutating func checkRenameHints(_ schema: Schema) {
        var tableHints: [SQLName.Key: String] = [:]
        for (index, table) in schema.tables.enumerated() {
            if let from = table.renamedFrom {
                let location = sources[index].renamedFrom?.location ?? sources[index].keyLocation
                if let first = tableHints[SQLName.key(from)] {
                    tableError(
                        index, location, "table '\(table.recordName)' and table '\(first)' are both renamedFrom '\(from)'",
                        hint: "a table is renamed into one table only; remove one of the two 'renamedFrom'")
                } else {
                    tableHints[SQLName.key(from)] = table.recordName
                }
            }
            var columnHints: [SQLName.Key: String] = [:]
            for (column, source) in zip(table.columns, sources[index].columns) {
                guard let from = column.renamedFrom else { continue }
                if let first = columnHints[SQLName.key(from)] {
                    tableError(
                        index, source.renamedFrom?.location ?? source.keyLocation,
                        "column '\(column.name)' and column '\(first)' of table '\(table.recordName)' are both renamedFrom '\(from)'",
                        hint: "a column is renamed into one column only; remove one of the two 'renamedFrom'")
                } else {
                    columnHints[SQLName.key(from)] = column.name
                }
            }
        }
    }
}
