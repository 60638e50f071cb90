/// Full-text search objects (`search:`) in the structural comparison.
///
/// Strata owns them: every FTS5 table named `<table>_fts` and its three sync triggers are
/// compared by SQL (after the object's name, token by token), whether or not the schema
/// declares any, so a `search:` removed from a table is a difference until its index is dropped.
extension SchemaDiff {
    /// The differences in full-text search tables and their triggers.
    static func searchDifferences(from current: DatabaseSchema, to declared: DatabaseSchema) -> [SchemaDifference] {
        objectDifferences(
            kind: "full-text index", current: current.searchTables.map { ($0.name, $0.sql) },
            declared: declared.searchTables.map { ($0.name, $0.sql) })
            + objectDifferences(
                kind: "full-text trigger", current: current.searchTriggers.map { ($0.name, $0.sql) },
                declared: declared.searchTriggers.map { ($0.name, $0.sql) })
    }
}
