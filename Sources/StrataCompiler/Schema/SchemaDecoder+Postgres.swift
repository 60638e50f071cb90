// `options: { dialects: [...] }` and what a schema may not use when PostgreSQL is one of them.
//
// The rule: the PostgreSQL side is generated from the same YAML, so whatever the YAML says that
// PostgreSQL cannot express is an error at the line that says it, never a silent omission.
// - `triggers:` (SQLite's `CREATE TRIGGER … BEGIN … END`; PostgreSQL's call a function): errors.
//   Top-level `queries:` run on PostgreSQL as `strata-postgres prepare` checked them
//   (`<Name>.prepared.json`, see PostgresQueryCheck).
// - `search:` is a generated `tsvector` column there (``PostgresSearch``): a `tokenizer:` with no
//   text search configuration to map to, and a column named like the vector, are errors.
// - SQL fragments (`default: { sql: }`, `check:`, `checks:`, an index's `where:`, a table query's
//   `where:`/`orderBy:`, `views:`) are passed to PostgreSQL as written; the ones that use a
//   function or operator only SQLite has (`strftime`, `ifnull`, `==` …) are errors.
// - `collate:`: `binary` is `"C"`, `nocase` a nondeterministic ICU collation the migration
//   creates (`strata_nocase`); `rtrim` and the app's own collations are errors.
// - `withoutRowid:`, `strict:` and `sqlType:` describe SQLite storage: PostgreSQL tables have no
//   rowid and are always typed, and PostgreSQL columns get the type of the schema type.
extension SchemaDecoder {
    /// `dialects: [sqlite, postgres]`.
    mutating func dialects(_ node: YAMLNode) -> [Dialect] {
        let names = Dialect.allCases.map(\.rawValue)
        guard let items = node.items, !items.isEmpty else {
            error(node.location, "'dialects' must be a list of SQL dialects, found \(node.kindDescription)",
                  hint: "for example dialects: [sqlite, postgres]")
            return [.sqlite]
        }
        var result: [Dialect] = []
        for item in items {
            guard let name = string(item, "a dialect") else { continue }
            guard let dialect = Dialect(rawValue: name) else {
                error(item.location, "unknown dialect '\(name)'",
                      hint: Suggestion.hint(for: name, in: names) ?? "the dialects are \(names.joined(separator: " and "))")
                continue
            }
            if result.contains(dialect) {
                error(item.location, "dialect '\(name)' is listed twice")
                continue
            }
            result.append(dialect)
        }
        if !result.contains(.sqlite) {
            error(node.location, "'dialects' must include sqlite",
                  hint: "the SQLite migrations are the history the PostgreSQL ones are planned from: write dialects: [sqlite, postgres]")
            result.insert(.sqlite, at: 0)
        }
        return result
    }

    /// Reports what the schema uses that PostgreSQL cannot express, each at its line.
    mutating func checkPostgres(_ schema: Schema, tables: [YAMLNode.Pair]) {
        let fileStart = SourceLocation(file: file, line: 1, column: 1)
        for trigger in schema.triggers {
            error(trigger.location ?? fileStart, "trigger '\(trigger.name)' is written in SQLite's SQL, which PostgreSQL does not run (its triggers call a function)",
                  hint: "remove postgres from 'dialects', or do the trigger's work in Swift")
        }
        for view in schema.views {
            checkPortableSQL(view.sql, at: view.location ?? fileStart, what: "view '\(view.name)'")
        }
        for pair in tables {
            guard pair.value.pairs != nil else { continue }
            let table = pair.key.scalarText ?? ""
            let booleans = schema.table(named: table)?.columns.filter { $0.type == .bool }.map(\.sqlName) ?? []
            if let search = pair.value["search"], !search.isNull {
                checkPostgresSearch(search, table: schema.table(named: table), name: table)
            }
            if let checks = pair.value["checks"] {
                for item in checks.items ?? [checks] {
                    if let sql = item.scalarText { checkPortableSQL(sql, at: item.location, what: "a CHECK of \(table)", booleans: booleans) }
                }
            }
            for index in pair.value["indexes"]?.items ?? [] {
                for key in index["columns"]?.items ?? [] {
                    guard let text = key.scalarText else { continue }
                    let tokens = SQLTokenizer.tokenize(text)
                    if let collate = tokens.firstIndex(where: { $0.isKeyword("COLLATE") }), collate + 1 < tokens.count {
                        checkPostgresCollation(tokens[collate + 1].value, at: key.location, of: "index key '\(text)' of \(table)")
                    }
                }
                if let expression = index["expression"], let sql = expression.scalarText {
                    checkPortableSQL(sql, at: expression.location, what: "an index expression of \(table)", booleans: booleans)
                    let tokens = SQLTokenizer.tokenize(sql)
                    if tokens.contains(where: { $0.isKeyword("COLLATE") }) {
                        error(expression.location, "an index expression of \(table) names a collation, which PostgreSQL spells differently",
                              hint: "use 'columns: [\"name COLLATE NOCASE\"]' for a column key, which both dialects understand")
                    } else if Self.hasTopLevelComma(tokens) {
                        error(expression.location, "an index expression of \(table) lists several keys, which the PostgreSQL dialect does not render",
                              hint: "index one expression, or use 'columns:' for column keys")
                    }
                }
                if let condition = index["where"], let sql = condition.scalarText {
                    checkPortableSQL(sql, at: condition.location, what: "an index condition of \(table)", booleans: booleans)
                }
            }
            for query in pair.value["queries"]?.pairs ?? [] {
                for key in ["where", "orderBy"] {
                    if let node = query.value[key], let sql = node.scalarText {
                        checkPortableSQL(sql, at: node.location, what: "query \(table).\(query.key.scalarText ?? "")", booleans: booleans)
                    }
                }
            }
            for column in pair.value["columns"]?.pairs ?? [] {
                let name = "\(table).\(column.key.scalarText ?? "")"
                if let check = column.value["check"], let sql = check.scalarText {
                    checkPortableSQL(sql, at: check.location, what: "the CHECK of \(name)", booleans: booleans)
                }
                if let collate = column.value["collate"], let collation = collate.scalarText {
                    checkPostgresCollation(collation, at: collate.location, of: "column \(name)")
                }
                if let sql = column.value["default"]?["sql"], let text = sql.scalarText {
                    checkPortableSQL(text, at: sql.location, what: "the default of \(name)", booleans: booleans)
                }
            }
        }
    }

    /// Reports what PostgreSQL's full-text search cannot do of a table's `search:`: a tokenizer
    /// with no text search configuration (``PostgresSearch/configuration(forTokenizer:)``), at
    /// its line, and a column whose SQL name is the generated vector's.
    mutating func checkPostgresSearch(_ node: YAMLNode, table: Table?, name: String) {
        if let tokenizerNode = node["tokenizer"], let tokenizer = tokenizerNode.scalarText,
            case .failure(let problem) = PostgresSearch.configuration(forTokenizer: tokenizer)
        {
            error(tokenizerNode.location, "tokenizer \"\(tokenizer)\" of \(name) cannot be used on PostgreSQL: \(problem.message)",
                  hint: "use unicode61 or ascii (PostgreSQL's 'simple' configuration) or porter (its 'english' one), or remove postgres from 'dialects'")
        }
        if let column = table?.columns.first(where: { SQLName.same($0.sqlName, PostgresSearch.columnName) }) {
            error(column.location ?? node.location, "column '\(column.name)' of \(name) is named like the full-text search vector PostgreSQL keeps in the table ('\(PostgresSearch.columnName)')",
                  hint: "give the column another SQL name with 'column:'")
        }
    }

    /// Whether `tokens` hold a comma outside parentheses (several index keys).
    static func hasTopLevelComma(_ tokens: [SQLToken]) -> Bool {
        var depth = 0
        for token in tokens {
            if token.text == "(" { depth += 1 }
            if token.text == ")" { depth -= 1 }
            if token.text == ",", depth == 0 { return true }
        }
        return false
    }

    /// Reports a collation PostgreSQL has no equivalent of: `binary` is `"C"` there and `nocase`
    /// a nondeterministic ICU collation (``PostgresRenderer/nocaseCollation``); `rtrim` and
    /// the app's own collations have none, and are never dropped silently.
    mutating func checkPostgresCollation(_ name: String, at location: SourceLocation, of what: String) {
        guard PostgresRenderer.collationSQL(name) == nil else { return }
        let rtrim = SQLName.same(name, "rtrim")
        error(location, "\(what) collates \(name), which PostgreSQL has no equivalent of",
              hint: rtrim
                ? "remove postgres from 'dialects', or drop 'collate: rtrim' and trim the text in Swift"
                : "remove postgres from 'dialects', or use 'collate: nocase' (a case-insensitive ICU collation on PostgreSQL)")
    }

    /// The location of the key `key` of a mapping node.
    func keyLocation(_ key: String, in node: YAMLNode) -> SourceLocation? {
        node.pairs?.first { $0.key.scalarText == key }?.key.location
    }

    /// Reports a function or operator of `sql` that only SQLite has, and a `bool` column of
    /// `booleans` compared with 0 or 1 (PostgreSQL has no `boolean = integer`).
    mutating func checkPortableSQL(_ sql: String, at location: SourceLocation, what: String, booleans: [String] = []) {
        let tokens = SQLTokenizer.tokenize(sql)
        for (offset, token) in tokens.enumerated() {
            if ["=", "==", "<>", "!="].contains(token.text), offset > 0, offset + 1 < tokens.count {
                let sides = [tokens[offset - 1], tokens[offset + 1]]
                if let column = sides.first(where: { side in booleans.contains { side.isName($0) } }),
                    sides.contains(where: { $0.kind == .word && ($0.text == "0" || $0.text == "1") })
                {
                    error(location, "\(what) compares the bool column \(column.value) with a number, which PostgreSQL does not allow",
                          hint: "compare with TRUE or FALSE, which works in both")
                    return
                }
            }
            if token.kind == .symbol && token.text == "==" {
                error(location, "\(what) uses '==', which PostgreSQL does not have", hint: "write '=', which works in both")
                return
            }
            guard token.kind == .word, let advice = PostgresDialect.unsupportedWords[token.text.lowercased()] else { continue }
            let isCall = offset + 1 < tokens.count && tokens[offset + 1].text == "("
            if isCall || token.text.lowercased() == "glob" {
                error(location, "\(what) uses \(token.text), which PostgreSQL does not have", hint: advice)
                return
            }
        }
    }
}
