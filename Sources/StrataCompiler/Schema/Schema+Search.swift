/// A table's `search:` option: an external-content FTS5 table over some of its text columns,
/// kept in sync by triggers.
///
/// ```yaml
/// Article:
///   columns: { id: int, title: text, summary: text }
///   search: { columns: [title, summary], tokenizer: "unicode61 remove_diacritics 2" }
/// ```
///
/// For table `T` Strata owns the virtual table `T_fts` and the triggers `T_fts_insert`,
/// `T_fts_delete` and `T_fts_update` on `T`; migrations create, change and drop them.
package struct FullTextSearch: Hashable, Sendable {
    /// The indexed columns (Swift names), in index order.
    package var columns: [String]
    /// The FTS5 `tokenize` option (`unicode61 remove_diacritics 2`); nil uses FTS5's default.
    package var tokenizer: String?
    /// Where `search:` is written.
    package var location: SourceLocation?

    /// Creates a search option.
    package init(columns: [String], tokenizer: String? = nil, location: SourceLocation? = nil) {
        self.columns = columns
        self.tokenizer = tokenizer
        self.location = location
    }

    /// The suffixes of the names of the objects Strata owns for a searched table `T`:
    /// `T_fts` and its three triggers.
    static let tableSuffix = "_fts"
    static let triggerSuffixes = ["_fts_insert", "_fts_delete", "_fts_update"]
}

extension Table {
    /// The SQL name of the table's FTS5 index: `<table>_fts`.
    package var searchTableName: String { sqlName + FullTextSearch.tableSuffix }
}
