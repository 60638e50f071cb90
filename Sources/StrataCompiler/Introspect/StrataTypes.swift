import Strata
/// What Strata's own DDL leaves in a database, read back as the schema types that wrote it, so
/// that introspecting a database Strata's migrations created gives back the schema's types:
/// `bool` and `enum` from the CHECK the DDL adds to them, `date` from the SQL of
/// `default: now`, and `expires: true` from its column and index.
///
/// SQLite keeps no trace of the other types when a table is empty: `date`, `uuid` and `json`
/// columns are `TEXT` like any text, so they come back as `text` unless their values or
/// default say more.
enum StrataTypes {
    /// A type a column's first CHECK implies.
    struct Implied: Hashable, Sendable {
        var keyword: String
        var values: [String] = []
    }

    /// `"x" IN (0, 1)` on a column declared `INTEGER` is a `bool` (the CHECK Strata adds to
    /// it); `"x" IN ('a', 'b')` on a text column is an `enum` with those values (when they make
    /// distinct Swift cases). nil for any other CHECK.
    static func implied(byCheck check: String, column: String, declared: String, keyword: String) -> Implied? {
        let tokens = SQLTokenizer.tokenize(check)
        guard tokens.count >= 5, tokens[0].isName(column), tokens[1].isKeyword("IN"), tokens[2].text == "(",
            tokens[tokens.count - 1].text == ")", SQLTokenizer.matchingClose(in: tokens, from: 2) == tokens.count - 1
        else { return nil }
        let inner = Array(tokens[3..<(tokens.count - 1)])
        guard inner.count % 2 == 1 else { return nil }
        var literals: [SQLToken] = []
        for (offset, token) in inner.enumerated() {
            if offset % 2 == 1 {
                guard token.text == "," else { return nil }
            } else {
                literals.append(token)
            }
        }
        if declared.uppercased() == "INTEGER", keyword == "int" || keyword == "bool",
            literals.allSatisfy({ $0.kind == .word }), literals.map(\.text) == ["0", "1"]
        {
            return Implied(keyword: "bool")
        }
        if keyword == "text", literals.allSatisfy({ $0.kind == .string }) {
            let values = literals.map { SQLTokenizer.unquotedString($0.text) }
            guard !values.contains(""), Set(values).count == values.count,
                Set(values.map(SwiftNames.enumCaseName)).count == values.count
            else { return nil }
            return Implied(keyword: "enum", values: values)
        }
        return nil
    }

    /// Whether `sql` (a column default as SQLite reports it) is the one `default: now` renders
    /// (``SQLRenderer``), compared token by token, with or without its parentheses.
    static func isNowDefault(_ sql: String) -> Bool {
        var tokens = SQLTokenizer.tokenize(sql).map(\.canonical)
        while tokens.first == "(", tokens.last == ")" { tokens = Array(tokens.dropFirst().dropLast()) }
        return tokens == SQLTokenizer.tokenize("strftime('%Y-%m-%d %H:%M:%f', 'now')").map(\.canonical)
    }

    /// The numeric date format whose `default: now` expression `sql` is (``DateStorage/nowSQL``).
    static func nowDefaultFormat(_ sql: String) -> DateStorage? {
        func canonical(_ text: String) -> [String] {
            var tokens = SQLTokenizer.tokenize(text).map(\.canonical)
            while tokens.first == "(", tokens.last == ")" { tokens = Array(tokens.dropFirst().dropLast()) }
            return tokens
        }
        let tokens = canonical(sql)
        return DateStorage.allCases.first { $0 != .iso8601 && canonical($0.nowSQL) == tokens }
    }

    /// Turns the `expiresAt` column and its `<table>_expiresAt` index that `expires: true` adds
    /// back into `expires: true`.
    static func recognizeExpiry(_ table: inout AdoptedTable) {
        guard let column = table.columns.last, column.sqlName == Expiry.columnName, column.name == Expiry.columnName,
            column.isOptional, column.type == "date" || column.type == "text", column.sqlType == nil, column.defaultYAML == nil,
            column.check == nil, column.references == nil, !column.isUnique, column.primaryKey == nil,
            let index = table.indexes.firstIndex(where: { $0.name == nil && $0.columns == [Expiry.columnName] && !$0.isUnique && $0.whereClause == nil })
        else { return }
        table.columns.removeLast()
        table.indexes.remove(at: index)
        table.expires = true
    }
}

extension StrataTypes {
    /// `search:` read back from the FTS5 table `<table>_fts` and the three triggers
    /// `<table>_fts_insert|delete|update`, when they are exactly what Strata's DDL creates
    /// (``SQLRenderer/createSearchTableSQL(_:of:)``, compared token by token) for some columns of
    /// the table. Returns the search and the names of the virtual table and triggers it stands for.
    static func recognizeSearch(of adopted: AdoptedTable, virtualTables: [DatabaseView], triggers: [DatabaseTrigger])
        -> (search: AdoptedSearch, objects: [String])?
    {
        let ftsName = adopted.sqlName + FullTextSearch.tableSuffix
        guard let fts = virtualTables.first(where: { SQLName.same($0.name, ftsName) }) else { return nil }
        let tokens = SQLTokenizer.tokenize(fts.sql)
        guard let using = tokens.firstIndex(where: { $0.isKeyword("USING") }), using + 2 < tokens.count, tokens[using + 1].isName("fts5"),
            tokens[using + 2].text == "("
        else { return nil }
        var sqlColumns: [String] = []
        var tokenizer: String?
        for element in SQLTokenizer.elements(of: tokens, open: using + 2) {
            let part = Array(tokens[element])
            if part.count == 1, part[0].kind == .word || part[0].kind == .identifier {
                sqlColumns.append(part[0].value)
            } else if part.count == 3, part[0].isName("tokenize"), part[1].text == "=", part[2].kind == .string {
                tokenizer = SQLTokenizer.unquotedString(part[2].text)
            }
        }
        let names = sqlColumns.map { sqlName in adopted.columns.first { SQLName.same($0.sqlName, sqlName) }?.name }
        guard !names.isEmpty, names.allSatisfy({ $0 != nil }) else { return nil }
        let table = Table(
            recordName: adopted.recordName, sqlName: adopted.sqlName,
            columns: adopted.columns.map { Column(name: $0.name, sqlName: $0.sqlName, type: .text) })
        let search = FullTextSearch(columns: names.compactMap { $0 }, tokenizer: tokenizer)
        func same(_ a: String, _ b: String) -> Bool {
            SQLTokenizer.tokenize(a).map(\.canonical) == SQLTokenizer.tokenize(b).map(\.canonical)
        }
        guard same(fts.sql, SQLRenderer.createSearchTableSQL(search, of: table)) else { return nil }
        var objects = [fts.name]
        for (suffix, expected) in zip(FullTextSearch.triggerSuffixes, SQLRenderer.searchTriggerSQL(search, of: table)) {
            guard let trigger = triggers.first(where: { SQLName.same($0.name, adopted.sqlName + suffix) }), same(trigger.sql, expected) else {
                return nil
            }
            objects.append(trigger.name)
        }
        return (AdoptedSearch(columns: search.columns, tokenizer: tokenizer), objects)
    }
}

extension SQLTokenizer {
    /// The text of a string literal token (`'it''s'` → `it's`), scalar by scalar: dropping the
    /// first `Character` would drop a combining mark that follows the quote with it.
    static func unquotedString(_ literal: String) -> String {
        var scalars = literal.unicodeScalars[...]
        if scalars.first == "'" { scalars = scalars.dropFirst() }
        if scalars.last == "'" { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars)).replacingOccurrences(of: "''", with: "'")
    }
}
