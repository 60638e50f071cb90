import Foundation

/// Full-text search (`search:`) on PostgreSQL: a `tsvector` column the server computes from
/// the searched columns (`GENERATED ALWAYS AS (to_tsvector(…)) STORED`) and a GIN index on it,
/// where SQLite has an FTS5 table and triggers.
///
/// ```sql
/// "strata_search" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig,
///     coalesce("title", '') || ' ' || coalesce("body", ''))) STORED
/// CREATE INDEX "articles_fts" ON "articles" USING GIN ("strata_search")
/// ```
///
/// The FTS5 `tokenizer:` maps to a text search configuration (``configuration(forTokenizer:)``):
/// `unicode61` (FTS5's default) and `ascii` to `simple` (words lower-cased, no stemming),
/// `porter …` to `english` (stemmed, English stop words left out); `trigram`, and the
/// `tokenchars`, `separators` and `categories` options, have no equivalent and are errors at the
/// tokenizer's line. The user's text is a bound parameter read by `plainto_tsquery`: every word
/// must match, none is read as query syntax (what SQLite's `search(_:limit:)` does with
/// `FullTextQuery.quoting`), and no input is a syntax error.
package enum PostgresSearch {
    /// The name of the generated `tsvector` column of a searched table.
    package static let columnName = "strata_search"
    /// The alias of the parsed query inside the search statements.
    static let queryAlias = "strata_query"

    /// The text search configuration of an FTS5 `tokenize` option (nil: FTS5's default), or
    /// why PostgreSQL has none.
    package static func configuration(forTokenizer tokenizer: String?) -> Result<String, TokenizerProblem> {
        guard let tokenizer else { return .success("simple") }
        let words = tokenizer.split(whereSeparator: { $0 == " " || $0 == "\t" })
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "'\"")) }
            .filter { !$0.isEmpty }
        return configuration(words)
    }

    /// Why a tokenizer has no PostgreSQL equivalent.
    package struct TokenizerProblem: Error, Sendable {
        /// What PostgreSQL lacks.
        package var message: String
    }

    private static func configuration(_ words: [String]) -> Result<String, TokenizerProblem> {
        guard let name = words.first?.lowercased() else { return .success("simple") }
        switch name {
        case "porter":
            if words.count > 1, case .failure(let problem) = configuration(Array(words.dropFirst())) { return .failure(problem) }
            return .success("english")
        case "unicode61", "ascii":
            var options = words.dropFirst()
            while let option = options.first {
                options = options.dropFirst(2)
                if SQLName.same(option, "remove_diacritics") { continue }
                return .failure(TokenizerProblem(message: "PostgreSQL's text search has no equivalent of the \(name) option '\(option)'"))
            }
            return .success("simple")
        case "trigram":
            return .failure(TokenizerProblem(message: "PostgreSQL's text search has no trigram tokenizer (pg_trgm is an extension with other operators)"))
        default:
            return .failure(TokenizerProblem(message: "PostgreSQL's text search has no equivalent of the tokenizer '\(name)'"))
        }
    }

    /// `'simple'::regconfig`: the configuration of `search`, as an SQL literal.
    static func configurationSQL(_ search: FullTextSearch) -> String {
        let name = (try? configuration(forTokenizer: search.tokenizer).get()) ?? "simple"
        return SQLRenderer.quoteLiteral(name) + "::regconfig"
    }

    /// `coalesce("a", '') || ' ' || coalesce("b", '')`: the searched text of a row.
    static func documentSQL(_ search: FullTextSearch, of table: Table) -> String {
        SQLRenderer.searchColumnNames(search, of: table).map { "coalesce(\(SQLRenderer.quoteIdentifier($0)), '')" }
            .joined(separator: " || ' ' || ")
    }

    /// The generated column's definition inside `CREATE TABLE` or `ADD COLUMN`.
    package static func columnDefinition(_ search: FullTextSearch, of table: Table) -> String {
        "\(SQLRenderer.quoteIdentifier(columnName)) tsvector GENERATED ALWAYS AS "
            + "(to_tsvector(\(configurationSQL(search)), \(documentSQL(search, of: table)))) STORED"
    }

    /// The GIN index's name: `<table>_fts`, the name SQLite's FTS5 table has.
    static func indexName(of table: Table) -> String { table.searchTableName }

    /// `CREATE INDEX "<table>_fts" ON "<table>" USING GIN ("strata_search")`.
    package static func createIndexSQL(of table: Table) -> String {
        "CREATE INDEX \(SQLRenderer.quoteIdentifier(indexName(of: table))) ON \(SQLRenderer.quoteIdentifier(table.sqlName))"
            + " USING GIN (\(SQLRenderer.quoteIdentifier(columnName)))"
    }

    /// The `ts_headline` options of the snippets: SQLite's markers and about as many words.
    static var headlineOptions: String {
        "StartSel=\"\(SwiftRenderer.snippetOpen)\", StopSel=\"\(SwiftRenderer.snippetClose)\", "
            + "MaxWords=\(SwiftRenderer.snippetTokens), MinWords=\(SwiftRenderer.snippetTokens / 2), ShortWord=0"
    }

    /// The search statement of `table` (`$1` the user's text, `$2` the limit or NULL for all,
    /// `$3` the current time of an expiring table): the rows whose vector matches
    /// `plainto_tsquery`, best first by `ts_rank`, ties by key; with `snippet`, one more
    /// column: `ts_headline` of the searched column that ranks best for the query.
    package static func searchSQL(_ table: Table, snippet: Bool) -> String {
        guard let search = table.search else { return "" }
        let content = SQLRenderer.quoteIdentifier(table.sqlName)
        let vector = content + "." + SQLRenderer.quoteIdentifier(columnName)
        let query = SQLRenderer.quoteIdentifier(queryAlias)
        let configuration = configurationSQL(search)
        var columns = table.columns.map { content + "." + SQLRenderer.quoteIdentifier($0.sqlName) }
        if snippet {
            let values = SQLRenderer.searchColumnNames(search, of: table).enumerated()
                .map { "(\($0.offset), \(content).\(SQLRenderer.quoteIdentifier($0.element)))" }.joined(separator: ", ")
            columns.append(
                "coalesce((SELECT ts_headline(\(configuration), \"strata_text\", \(query), \(SQLRenderer.quoteLiteral(headlineOptions)))"
                    + " FROM (VALUES \(values)) AS \"strata_columns\" (\"strata_position\", \"strata_text\")"
                    + " ORDER BY ts_rank(to_tsvector(\(configuration), coalesce(\"strata_text\", '')), \(query)) DESC, \"strata_position\" LIMIT 1), '')")
        }
        let key = table.primaryKeyColumns.map { content + "." + SQLRenderer.quoteIdentifier($0.sqlName) }
        return "SELECT \(columns.joined(separator: ", ")) FROM \(content), plainto_tsquery(\(configuration), $1) AS \(query)"
            + " WHERE \(vector) @@ \(query)"
            + (table.expires ? " AND " + Expiry.notExpiredCondition(now: "$3", qualifier: content) : "")
            + " ORDER BY " + (["ts_rank(\(vector), \(query)) DESC"] + key).joined(separator: ", ") + " LIMIT $2"
    }
}
