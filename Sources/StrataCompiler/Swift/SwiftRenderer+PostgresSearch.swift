/// The search methods of the `<Record>PostgresDAO` of a table with `search:`:
/// `search(_:limit:)` and `searchWithSnippets(_:limit:)`, the SQLite DAO's, `async`
/// (``PostgresSearch`` has the SQL).
extension SwiftRenderer {
    /// Renders the two methods; returns their prepared statements.
    func renderPostgresSearch(_ table: Table, _ out: inout SwiftWriter) -> [PostgresStatement] {
        guard let search = table.search else { return [] }
        let record = SwiftNames.identifier(table.recordName)
        let columns = search.columns.map { "`\($0)`" }.joined(separator: ", ")
        let now = table.expires ? ", now: conn.now" : ""
        out.line("/// The records whose \(columns) contain every word of `text`, best match first (`ts_rank`,")
        out.line("/// ties by key), as `\(table.recordName)DAO.search(_:limit:)` finds them on SQLite.")
        out.line("///")
        out.line("/// `text` is a bound parameter read by `plainto_tsquery`: every word must match, and nothing")
        out.line("/// in it (quotes, `&`, `!`, `:`, `(`, `or`, `-`) is read as query syntax, so user input cannot")
        out.line("/// cause an error (a NUL character, which PostgreSQL's text cannot hold, is read as a space).")
        out.line("/// Text without words finds nothing.")
        out.line("///")
        out.line("/// - Parameters:")
        out.line("///   - text: What the user typed.")
        out.line("///   - limit: At most this many records; nil for all.")
        out.block("public func search(_ text: String, limit: Int? = nil) async throws -> [\(record)]") { out in
            out.line("try await conn.fetchAll(Search(text: text.replacingOccurrences(of: \"\\u{0}\", with: \" \"), limit: limit\(now)))")
        }
        out.line()
        out.line("/// Like `search(_:limit:)`, with a snippet of each record: about \(Self.snippetTokens) words of its best-matching")
        out.line("/// column around the matches (`ts_headline`), each match between `\(Self.snippetOpen)` and `\(Self.snippetClose)`.")
        out.line("///")
        out.line("/// - Parameters:")
        out.line("///   - text: What the user typed; every word is searched for as written.")
        out.line("///   - limit: At most this many results; nil for all.")
        out.block("public func searchWithSnippets(_ text: String, limit: Int? = nil) async throws -> [(record: \(record), snippet: String)]") { out in
            out.line("try await conn.fetchAll(SearchWithSnippets(text: text.replacingOccurrences(of: \"\\u{0}\", with: \" \"), limit: limit\(now)))")
        }
        var properties = [(name: "text", type: "String"), (name: "limit", type: "Int?")]
        var bindings: [(type: ColumnType, isOptional: Bool, value: String)] = [(.text, false, "text"), (.int, true, "limit")]
        if table.expires {
            properties.append((name: "now", type: "Date"))
            bindings.append((.date, false, "now"))
        }
        return [
            PostgresStatement(
                typeName: "Search", sql: PostgresSearch.searchSQL(table, snippet: false), properties: properties, bindings: bindings,
                rows: .records(table)),
            PostgresStatement(
                typeName: "SearchWithSnippets", sql: PostgresSearch.searchSQL(table, snippet: true), properties: properties,
                bindings: bindings, rows: .recordAndSnippet(table)),
        ]
    }
}
