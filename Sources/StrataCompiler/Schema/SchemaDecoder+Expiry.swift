/// The `expires:` option of a table: `expires: true` adds the `expiresAt` column (see ``Expiry``).
extension SchemaDecoder {
    /// Reads `expires:` and, when true, appends the `expiresAt` column as the table's last one
    /// (its index is added after the declared indexes). A declared column that would clash
    /// with it is reported where it is written.
    mutating func addExpiry(_ node: YAMLNode, to table: inout Table, _ source: inout TableSource) {
        guard let expires = bool(node, "'expires'"), expires else { return }
        var ok = true
        for (column, columnSource) in zip(table.columns, source.columns)
        where column.name == Expiry.columnName || SQLName.same(column.sqlName, Expiry.columnName) {
            let what = column.name == Expiry.columnName ? "column '\(column.name)'" : "column '\(column.name)' (SQL name '\(column.sqlName)')"
            error(columnSource.keyLocation,
                  "\(what) of table '\(table.recordName)' clashes with the '\(Expiry.columnName)' column that 'expires: true' adds",
                  hint: "delete this column, since expires: true declares 'expiresAt: date?' itself, or rename it and set 'column:' to another SQL name")
            ok = false
        }
        guard ok else { return }
        table.expires = true
        table.columns.append(Expiry.column(location: node.location))
        source.columns.append(ColumnSource(keyLocation: node.location))
    }
}
