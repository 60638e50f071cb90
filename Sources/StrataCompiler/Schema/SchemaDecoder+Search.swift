import Strata

/// The `search:` option of a table: `{ columns: [title, summary], tokenizer: "…" }`.
extension SchemaDecoder {
    mutating func decodeSearch(_ node: YAMLNode, table: Table) -> FullTextSearch? {
        let context = "'search' of table '\(table.recordName)'"
        guard let fields = mapping(node, allowed: Self.searchKeys, in: context) else { return nil }
        var search = FullTextSearch(columns: [], location: node.location)
        var ok = true
        if table.isWithoutRowid {
            error(node.location, "\(context): full-text search needs a rowid table, and table '\(table.recordName)' is WITHOUT ROWID",
                  hint: "remove 'withoutRowid: true' or 'search:'")
            ok = false
        }
        for query in table.queries where SwiftNames.searchMembers.contains(query.name) {
            error(node.location, "\(context): the DAO's '\(query.name)' methods would clash with the named query '\(query.name)'",
                  hint: "rename the query")
            ok = false
        }
        if let columnsNode = fields["columns"], !columnsNode.isNull {
            let items = columnsNode.items ?? [columnsNode]
            if items.isEmpty {
                error(columnsNode.location, "\(context) lists no columns", hint: "name the text columns to index: columns: [title, summary]")
                ok = false
            }
            var seen: Set<String> = []
            for item in items {
                guard let name = string(item, "a search column") else { ok = false; continue }
                guard let column = Self.column(name, in: table) else {
                    error(item.location, "search names unknown column '\(name)' of table '\(table.recordName)'",
                          hint: Suggestion.hint(for: name, in: table.columns.map(\.name)))
                    ok = false
                    continue
                }
                guard column.type == .text else {
                    error(item.location, "search column '\(name)' is \(column.type.keyword), not text",
                          hint: "full-text search indexes text columns only")
                    ok = false
                    continue
                }
                if ["rank", "rowid", SQLName.fold(table.searchTableName)].contains(SQLName.fold(column.sqlName)) {
                    error(item.location, "search column '\(name)' has SQL name '\(column.sqlName)', which FTS5 reserves",
                          hint: "give the column another SQL name with 'column:'")
                    ok = false
                    continue
                }
                if !seen.insert(column.name).inserted {
                    error(item.location, "search lists column '\(name)' twice")
                    ok = false
                    continue
                }
                search.columns.append(column.name)
            }
        } else {
            error(node.location, "\(context) has no 'columns:'", hint: "name the text columns to index: columns: [title, summary]")
            ok = false
        }
        if let tokenizerNode = fields["tokenizer"] {
            if let tokenizer = string(tokenizerNode, "'tokenizer'") {
                if let problem = Self.tokenizerProblem(tokenizer) {
                    error(tokenizerNode.location, "bad tokenizer \"\(tokenizer)\": \(problem)",
                          hint: "FTS5's tokenizers are unicode61, ascii, porter and trigram, with options: \"unicode61 remove_diacritics 2\"")
                    ok = false
                }
                search.tokenizer = tokenizer
            } else {
                ok = false
            }
        }
        return ok ? search : nil
    }

    /// Why SQLite's FTS5 refuses `tokenizer`, or nil when it takes it.
    static func tokenizerProblem(_ tokenizer: String) -> String? {
        do {
            let db = try Database.inMemory(configuration: .compilerChecks)
            try db.writeWithoutTransaction { conn in
                try conn.execute(sql: "CREATE VIRTUAL TABLE strata_tokenizer_check USING fts5(x, tokenize=\(SQLRenderer.quoteLiteral(tokenizer)))")
            }
            return nil
        } catch let error as StrataError {
            return error.message
        } catch {
            return "\(error)"
        }
    }
}
