/// Reads for tables that are not STRICT: a column may hold another storage class than its
/// type's, so generated code converts as SQLite would or throws (`Statement+Affinity.swift`).
extension SwiftRenderer {
    /// The converting read of `column` at `index`, or nil when the plain read already checks.
    func convertedRead(_ column: Column, at index: Int, table: Table) -> String? {
        guard let method = column.codec.convertedReader else { return nil }
        // The key's positions in the record's columns (the select lists them in that order).
        let key = table.primaryKey.compactMap { name in table.columns.firstIndex { $0.name == name } }.filter { $0 < 64 }.map { "1 << \($0)" }
        let keyArgument = key.isEmpty ? "" : ", key: " + key.joined(separator: " | ")
        return "statement.\(method)(at: \(index), table: \(SwiftNames.stringLiteral(table.sqlName)), column: \(SwiftNames.stringLiteral(column.sqlName))\(keyArgument))"
    }
}
