/// Quoting of SQL identifiers and string literals, the one way the runtime and the compiler
/// quote text into SQL.
///
/// Quotes are doubled by Unicode scalar, not by `Character`: a quote followed by a combining
/// mark (`'\u{301}`) is one `Character`, which `replacingOccurrences(of: "'", …)` does not match,
/// so it would end the literal early.
package enum SQLQuoting {
    /// `name` as a quoted SQL identifier (also an FTS5 string): `order` → `"order"`, `a"b` → `"a""b"`.
    package static func identifier<Text: StringProtocol>(_ name: Text) -> String {
        enclosing(name, in: UInt8(ascii: "\""))
    }

    /// `text` as an SQL string literal: `it's` → `'it''s'`.
    package static func literal<Text: StringProtocol>(_ text: Text) -> String {
        enclosing(text, in: UInt8(ascii: "'"))
    }

    /// `text` between two `quote`s, each `quote` in it doubled. Works on UTF-8 bytes, which is
    /// the same as by Unicode scalar: an ASCII byte is never part of a longer scalar's encoding,
    /// so the quote's byte is always the quote scalar, and doubling it keeps the text valid UTF-8.
    /// One allocation; the compiler quotes every name of every statement it writes through here.
    private static func enclosing<Text: StringProtocol>(_ text: Text, in quote: UInt8) -> String {
        let fast = text.utf8.withContiguousStorageIfAvailable { bytes in enclosing(bytes, in: quote) }
        if let fast { return fast }
        return enclosing(Array(text.utf8), in: quote)
    }

    private static func enclosing<Bytes: Collection<UInt8>>(_ bytes: Bytes, in quote: UInt8) -> String {
        var quotes = 0
        for byte in bytes where byte == quote { quotes += 1 }
        return String(unsafeUninitializedCapacity: bytes.count + quotes + 2) { buffer in
            var position = 0
            buffer[position] = quote
            position += 1
            for byte in bytes {
                buffer[position] = byte
                position += 1
                if byte == quote {
                    buffer[position] = quote
                    position += 1
                }
            }
            buffer[position] = quote
            return position + 1
        }
    }
}
