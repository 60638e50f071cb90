import Foundation

/// Turns what a user typed into a safe FTS5 query: the text the generated
/// `search(_:limit:)` methods of tables with `search:` pass to `MATCH`.
///
/// Every word (separated by whitespace; NUL characters separate words too, since FTS5
/// would end the query at one) becomes an FTS5 string (in double quotes, with `"`
/// doubled), so quotes, `*`, `-`, `:`, parentheses and the words `AND`, `OR`, `NOT`, `NEAR` are
/// searched for as text and never read as query syntax; the words are joined with spaces,
/// which FTS5 reads as AND: a row matches when it contains every word.
///
/// ```swift
/// FullTextQuery.quoting(#"swift "6" -beta"#)   // #""swift" """6""" "-beta""#
/// FullTextQuery.quoting("   ")                 // nil: nothing to search for
/// ```
///
/// To use FTS5 query syntax on purpose (`OR`, `NEAR`, prefix `*`, column filters), pass the
/// query to the generated `search(matching:limit:)` instead; a query SQLite cannot parse then
/// throws a ``StrataError``.
public enum FullTextQuery {
    /// `text`'s words, each quoted as an FTS5 string and joined with spaces; nil when `text`
    /// has no words.
    public static func quoting(_ text: String) -> String? {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(scalar == "\u{0}" ? " " : scalar) }
        let words = String(scalars).split(whereSeparator: \.isWhitespace)
        guard !words.isEmpty else { return nil }
        return words.map { SQLQuoting.identifier($0) }.joined(separator: " ")
    }
}
