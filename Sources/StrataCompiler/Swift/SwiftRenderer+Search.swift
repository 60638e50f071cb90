/// The DAO methods of a table with `search:`: `search(_:limit:)`, `search(matching:limit:)`,
/// `searchWithSnippets(_:limit:)` and `searchWithSnippets(matching:limit:)`.
extension SwiftRenderer {
    /// The snippet markers and size of `searchWithSnippets`.
    static let snippetOpen = "<b>"
    static let snippetClose = "</b>"
    static let snippetEllipsis = "…"
    static let snippetTokens = 12

    /// `SELECT <the table's columns>[, snippet(…)] FROM T_fts JOIN T ON T.rowid = T_fts.rowid
    /// WHERE T_fts MATCH ?1 ORDER BY bm25(T_fts) LIMIT ?2`; an expiring table's also leaves out
    /// the rows whose `expiresAt` is not after `?3`.
    static func searchSQL(_ table: Table, snippet: Bool) -> String {
        let content = SQLRenderer.quoteIdentifier(table.sqlName)
        let fts = SQLRenderer.quoteIdentifier(table.searchTableName)
        var columns = table.columns.map { content + "." + SQLRenderer.quoteIdentifier($0.sqlName) }
        if snippet {
            let arguments = [
                SQLRenderer.quoteLiteral(snippetOpen), SQLRenderer.quoteLiteral(snippetClose), SQLRenderer.quoteLiteral(snippetEllipsis),
                String(snippetTokens),
            ]
            columns.append("snippet(\(fts), -1, \(arguments.joined(separator: ", ")))")
        }
        return "SELECT \(columns.joined(separator: ", ")) FROM \(fts) JOIN \(content) ON \(content).rowid = \(fts).rowid"
            + " WHERE \(fts) MATCH ?1" + (table.expires ? " AND " + Expiry.notExpiredCondition(now: "?3", qualifier: content) : "")
            + " ORDER BY bm25(\(fts)) LIMIT ?2"
    }

    /// `<name>(_ text:limit:)`, documented by `textDoc`, which quotes `text` (``FullTextQuery``)
    /// for `<name>(matching:limit:)`, documented by `queryDoc`, whose body `body` writes; both
    /// return `[<result>]`, at most `limit` of them (`limitNoun`). The plain and the snippet
    /// searches share this shape.
    private static func renderSearchMethods(
        _ name: String, returns result: String, limitNoun: String, textParameter: String, textDoc: String, queryDoc: String,
        _ out: inout SwiftWriter, body: (inout SwiftWriter) -> Void
    ) {
        let limit = "///   - limit: At most this many \(limitNoun); nil for all."
        out.doc(textDoc)
        out.line("///")
        out.line("/// - Parameters:")
        out.line("///   - text: " + textParameter)
        out.line(limit)
        out.block("public func \(name)(_ text: String, limit: Int? = nil) throws -> [\(result)]") { out in
            out.line("guard let query = FullTextQuery.quoting(text) else { return [] }")
            out.line("return try \(name)(matching: query, limit: limit)")
        }
        out.line()
        out.doc(queryDoc)
        out.line("///")
        out.line("/// - Parameters:")
        out.line("///   - query: An FTS5 query, used as written.")
        out.line(limit)
        out.block("public func \(name)(matching query: String, limit: Int? = nil) throws -> [\(result)]", body)
    }

    /// Renders the search methods; returns the SQL constants they use (base names).
    func renderSearch(_ search: FullTextSearch, table: Table, _ out: inout SwiftWriter) -> [(name: String, sql: String)] {
        let record = SwiftNames.identifier(table.recordName)
        let columns = search.columns.map { "`\($0)`" }.joined(separator: ", ")
        let searchConstant = "searchSQL"
        let snippetConstant = "searchWithSnippetsSQL"

        Self.renderSearchMethods(
            "search", returns: record, limitNoun: "records", textParameter: "What the user typed.",
            textDoc: """
                The records whose \(columns) contain every word of `text`, best match first (FTS5's bm25).

                Each word is searched for as written (see `FullTextQuery.quoting(_:)`): quotes, `*`, `-`,
                `OR`, `NEAR` … in `text` are never read as query syntax, so user input cannot cause a syntax
                error. Text without words finds nothing. For FTS5 query syntax on purpose use
                `search(matching:limit:)`.
                """,
            queryDoc: """
                The records matching the FTS5 query `query` (its full syntax: `swift OR rust`, `data*`,
                `NEAR(a b)`, `title: swift`), best match first (bm25). A query FTS5 cannot parse throws.
                """,
            &out
        ) { out in
            Self.renderSearchStatement(constant: searchConstant, table: table, &out)
            out.line("var records: [\(record)] = []")
            out.line("while try statement.step() { records.append(try Self.decode(statement)) }")
            out.line("return records")
        }
        out.line()
        let snippetRow = "(record: \(record), snippet: String)"
        Self.renderSearchMethods(
            "searchWithSnippets", returns: snippetRow, limitNoun: "results",
            textParameter: "What the user typed; every word is searched for as written.",
            textDoc: """
                Like `search(_:limit:)`, with a snippet of each record: about \(Self.snippetTokens) words of its best-matching
                column around the matches, each match between `\(Self.snippetOpen)` and `\(Self.snippetClose)`, `\(Self.snippetEllipsis)` where text is left out.
                """,
            queryDoc: """
                Like `search(matching:limit:)` (an FTS5 query, used as written), with a snippet of each
                record as `searchWithSnippets(_:limit:)` makes it.
                """,
            &out
        ) { out in
            Self.renderSearchStatement(constant: snippetConstant, table: table, &out)
            out.line("var results: [\(snippetRow)] = []")
            out.block("while try statement.step()") { out in
                out.line("results.append((try Self.decode(statement), statement.string(at: \(table.columns.count))))")
            }
            out.line("return results")
        }
        return [(searchConstant, Self.searchSQL(table, snippet: false)), (snippetConstant, Self.searchSQL(table, snippet: true))]
    }

    /// The cached statement `constant` (a ``searchSQL(_:snippet:)``) with `query`, `limit` and,
    /// for an expiring table, the database's clock bound: the start of both FTS5 methods.
    private static func renderSearchStatement(constant: String, table: Table, _ out: inout SwiftWriter) {
        out.line("let statement = try self.conn.cachedStatement(Self.\(constant))")
        out.line("defer { statement.reset() }")
        out.line("try statement.bind(query, at: 1)")
        out.line("try statement.bind(limit ?? -1, at: 2)")
        if table.expires { out.line("try statement.bind(self.conn.now, at: 3)") }
    }
}
