/// Full-text search objects (`search:`) in the structural comparison.
///
/// Strata owns them: every FTS5 table named `<table>_fts` and its three sync triggers are
/// compared by SQL (after the object's name, token by token), whether or not the schema
/// declares any, so a `search:` removed from a table is a difference until its index is dropped.
extension SchemaDiff {
    /// The differences in full-text search tables and their triggers, as sentences.
    static func searchDifferences(from current: DatabaseSchema, to declared: DatabaseSchema) -> [String] {
        searchObjectDifferences(
            kind: "full-text index", current: current.searchTables.map { ($0.name, $0.sql) },
            declared: declared.searchTables.map { ($0.name, $0.sql) })
            + searchObjectDifferences(
                kind: "full-text trigger", current: current.searchTriggers.map { ($0.name, $0.sql) },
                declared: declared.searchTriggers.map { ($0.name, $0.sql) })
    }

    static func searchObjectDifferences(
        kind: String, current: [(name: String, sql: String)], declared: [(name: String, sql: String)]
    ) -> [String] {
        var result: [String] = []
        for object in declared {
            guard let old = current.first(where: { SQLName.same($0.name, object.name) }) else {
                result.append("\(kind) \(object.name) is declared but the migrations do not create it")
                continue
            }
            if searchDefinition(of: old.sql) != searchDefinition(of: object.sql) {
                result.append("\(kind) \(object.name) is defined differently in the schema and in the migrations")
            }
        }
        for object in current where !declared.contains(where: { SQLName.same($0.name, object.name) }) {
            result.append("\(kind) \(object.name) is created by the migrations but not declared")
        }
        return result
    }

    /// The normalized tokens of a `CREATE VIRTUAL TABLE` / `CREATE TRIGGER` statement after
    /// the object's name.
    static func searchDefinition(of sql: String) -> String {
        let tokens = SQLTokenizer.tokenize(sql)
        var index = 0
        let skipped: Set<String> = ["CREATE", "VIRTUAL", "TABLE", "TEMP", "TEMPORARY", "TRIGGER", "IF", "NOT", "EXISTS"]
        while index < tokens.count, tokens[index].kind == .word, skipped.contains(tokens[index].text.uppercased()) { index += 1 }
        index += 1  // the name
        if index + 1 < tokens.count, tokens[index].text == "." { index += 2 }  // schema.name
        return SQLTokenizer.normalize(tokens[min(index, tokens.count)...])
    }
}
