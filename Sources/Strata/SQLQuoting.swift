/// Quoting of SQL identifiers and string literals, the one way the runtime and the compiler
/// quote text into SQL.
///
/// Quotes are doubled by Unicode scalar, not by `Character`: a quote followed by a combining
/// mark (`'\u{301}`) is one `Character`, which `replacingOccurrences(of: "'", …)` does not match,
/// so it would end the literal early.
package enum SQLQuoting {
    /// `name` as a quoted SQL identifier (also an FTS5 string): `order` → `"order"`, `a"b` → `"a""b"`.
    package static func identifier<Text: StringProtocol>(_ name: Text) -> String {
        "\"" + doubling("\"", in: name) + "\""
    }

    /// `text` as an SQL string literal: `it's` → `'it''s'`.
    package static func literal<Text: StringProtocol>(_ text: Text) -> String {
        "'" + doubling("'", in: text) + "'"
    }

    /// Doubles every `quote` scalar of `text`.
    package static func doubling<Text: StringProtocol>(_ quote: Unicode.Scalar, in text: Text) -> String {
        // Most text has no quote: copied as it is, without the scalar-by-scalar rebuild.
        if quote.isASCII, !text.utf8.contains(UInt8(quote.value)) { return String(text) }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(scalar)
            if scalar == quote { result.append(scalar) }
        }
        return String(result)
    }
}
