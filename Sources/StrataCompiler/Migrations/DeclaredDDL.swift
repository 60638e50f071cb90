/// The DDL of a declared schema as the migrations use it: the shared ``SQLRenderer``'s
/// statements, tables in dependency order (a referenced table before the tables that
/// reference it), then indexes.
enum DeclaredDDL {
    /// The tables of `schema` ordered so that each comes after the tables it references
    /// (self references and cycles keep declaration order).
    static func dependencyOrder(_ schema: Schema) -> [Table] {
        var ordered: [Table] = []
        var placed: Set<String> = []
        var visiting: Set<String> = []
        func visit(_ table: Table) {
            guard !placed.contains(table.sqlName), !visiting.contains(table.sqlName) else { return }
            visiting.insert(table.sqlName)
            for column in table.columns {
                if let key = column.references, let parent = schema.table(named: key.table), parent.sqlName != table.sqlName {
                    visit(parent)
                }
            }
            visiting.remove(table.sqlName)
            placed.insert(table.sqlName)
            ordered.append(table)
        }
        schema.tables.forEach(visit)
        return ordered
    }

    /// CREATE TABLE statements in dependency order, then CREATE INDEX statements.
    static func statements(for schema: Schema) -> [String] {
        let tables = dependencyOrder(schema)
        return tables.map { SQLRenderer.createTableSQL($0, in: schema) }
            + tables.flatMap { table in table.indexes.map { SQLRenderer.createIndexSQL($0, on: table) } }
    }
}
