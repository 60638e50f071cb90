/// The DDL of a table's `search:` option: an external-content FTS5 table and the triggers
/// that keep it in sync (sqlite.org/fts5.html, "External Content Tables").
extension SQLRenderer {
    /// The indexed columns' SQL names.
    static func searchColumnNames(_ search: FullTextSearch, of table: Table) -> [String] {
        search.columns.map { table.column(named: $0)?.sqlName ?? $0 }
    }

    /// `CREATE VIRTUAL TABLE "T_fts" USING fts5("a", "b", content='T', tokenize='…')`.
    package static func createSearchTableSQL(_ search: FullTextSearch, of table: Table) -> String {
        var arguments = searchColumnNames(search, of: table).map(quoteIdentifier)
        arguments.append("content=\(quoteLiteral(table.sqlName))")
        if let tokenizer = search.tokenizer { arguments.append("tokenize=\(quoteLiteral(tokenizer))") }
        return "CREATE VIRTUAL TABLE \(quoteIdentifier(table.searchTableName)) USING fts5(\(arguments.joined(separator: ", ")))"
    }

    /// The three triggers (after insert, delete and update on the table) that keep the index
    /// in sync with the table.
    package static func searchTriggerSQL(_ search: FullTextSearch, of table: Table) -> [String] {
        let fts = quoteIdentifier(table.searchTableName)
        let names = searchColumnNames(search, of: table).map(quoteIdentifier)
        let columnList = (["rowid"] + names).joined(separator: ", ")
        func values(_ prefix: String) -> String { ([prefix + ".rowid"] + names.map { prefix + "." + $0 }).joined(separator: ", ") }
        let insert = "INSERT INTO \(fts) (\(columnList)) VALUES (\(values("new")));"
        let delete = "INSERT INTO \(fts) (\(fts), \(columnList)) VALUES ('delete', \(values("old")));"
        let content = quoteIdentifier(table.sqlName)
        func trigger(_ suffix: String, _ event: String, _ body: [String]) -> String {
            "CREATE TRIGGER \(quoteIdentifier(table.sqlName + suffix)) AFTER \(event) ON \(content) BEGIN\n"
                + body.map { "  " + $0 + "\n" }.joined() + "END"
        }
        return [
            trigger(FullTextSearch.triggerSuffixes[0], "INSERT", [insert]),
            trigger(FullTextSearch.triggerSuffixes[1], "DELETE", [delete]),
            trigger(FullTextSearch.triggerSuffixes[2], "UPDATE", [delete, insert]),
        ]
    }

    /// `INSERT INTO "T_fts" ("T_fts") VALUES ('rebuild')`: fills the index from the table's rows.
    package static func rebuildSearchSQL(_ searchTableName: String) -> String {
        let fts = quoteIdentifier(searchTableName)
        return "INSERT INTO \(fts) (\(fts)) VALUES ('rebuild')"
    }

    /// Every statement that creates the search objects of `schema`'s tables.
    package static func searchDDL(for schema: Schema) -> [String] {
        schema.tables.flatMap { table -> [String] in
            guard let search = table.search else { return [] }
            return [createSearchTableSQL(search, of: table)] + searchTriggerSQL(search, of: table)
        }
    }
}
