/// One lexical token of PostgreSQL text: its kind and where it stands, as indices into
/// ``PostgresTokenizer/scalars``.
struct PostgresToken: Equatable {
    /// What a token is.
    enum Kind: Equatable {
        /// A run of white space.
        case whitespace
        /// `-- …` up to (not including) the end of its line, or `/* … */` with nested ones inside.
        case comment
        /// `'…'` (a quote inside doubled: `''`), or `E'…'` (also backslash escapes), the `E`
        /// and the quotes included.
        case string
        /// `"…"` (a quote inside doubled), the quotes included.
        case quotedIdentifier
        /// `$$…$$` or `$tag$…$tag$`, both tags included.
        case dollarQuoted
        /// An unquoted name or keyword: a letter or `_`, then letters, digits, `_` and `$`.
        case identifier
        /// A number or a `$n` parameter: a digit or `$` and a digit, then what may follow in a
        /// name (so `$` after it opens no dollar quote).
        case number
        /// `;`, which ends a statement.
        case semicolon
        /// Any other character: an operator or punctuation.
        case symbol
    }

    /// What it is.
    var kind: Kind
    /// Where it stands in ``PostgresTokenizer/scalars``.
    var range: Range<Int>
}

/// Cuts PostgreSQL text into ``PostgresToken``s: the one lexer that the statement splitter
/// (``SQLStatements``) and observation's table-name scanner (``ReadTables``) walk, so that both
/// agree on where strings, quoted names, dollar quotes and comments begin and end.
///
/// It knows only as much of PostgreSQL's lexical rules as they need; an unterminated string,
/// quoted name, dollar quote or comment runs to the end of the text.
struct PostgresTokenizer: Sequence, IteratorProtocol {
    /// The text, as Unicode scalars (what token ranges index).
    let scalars: [Unicode.Scalar]
    private var position = 0

    /// A tokenizer at the start of `sql`.
    init(_ sql: String) {
        scalars = Array(sql.unicodeScalars)
    }

    /// The text of `token`, as written.
    func text(of token: PostgresToken) -> String {
        String(String.UnicodeScalarView(scalars[token.range]))
    }

    /// The name an ``PostgresToken/Kind/identifier`` or ``PostgresToken/Kind/quotedIdentifier``
    /// stands for, as PostgreSQL resolves it: an unquoted name folded to lower case, a quoted one
    /// as written, without its quotes and with `""` read as `"`. Nil for any other token.
    func name(of token: PostgresToken) -> String? {
        switch token.kind {
        case .identifier:
            return text(of: token).lowercased()
        case .quotedIdentifier:
            var name = String.UnicodeScalarView()
            var i = token.range.lowerBound + 1
            while i < token.range.upperBound {
                if scalars[i] == "\"" {
                    // The closing quote, or the first of a doubled one.
                    guard i + 1 < token.range.upperBound else { break }
                    i += 1
                }
                name.append(scalars[i])
                i += 1
            }
            return String(name)
        default:
            return nil
        }
    }

    /// The next token; nil at the end of the text.
    mutating func next() -> PostgresToken? {
        guard position < scalars.count else { return nil }
        let start = position
        let kind = kindAdvancing()
        return PostgresToken(kind: kind, range: start..<position)
    }

    private func at(_ index: Int) -> Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private static func isNameStart(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic }
    private static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
    /// What a dollar quote's tag holds after its first character.
    private static func isTagPart(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || isDigit(c) }
    private static func isNamePart(_ c: Unicode.Scalar) -> Bool { isTagPart(c) || c == "$" }

    /// Reads the token at `position`, moves past it and says what it was.
    private mutating func kindAdvancing() -> PostgresToken.Kind {
        let c = scalars[position]
        switch c {
        case _ where c.properties.isWhitespace:
            skip(while: { $0.properties.isWhitespace })
            return .whitespace
        case "-" where at(position + 1) == "-":
            skip(while: { $0 != "\n" })
            return .comment
        case "/" where at(position + 1) == "*":
            skipBlockComment()
            return .comment
        case "'":
            skipString(escapes: false)
            return .string
        case _ where (c == "E" || c == "e") && at(position + 1) == "'":
            position += 1
            skipString(escapes: true)
            return .string
        case "\"":
            skipQuotedIdentifier()
            return .quotedIdentifier
        case "$":
            if let end = dollarQuoteEnd() {
                position = end
                return .dollarQuoted
            }
            if let next = at(position + 1), Self.isDigit(next) {
                position += 1
                skip(while: Self.isNamePart)
                return .number
            }
            position += 1
            return .symbol
        case ";":
            position += 1
            return .semicolon
        case _ where Self.isNameStart(c):
            skip(while: Self.isNamePart)
            return .identifier
        case _ where Self.isDigit(c):
            skip(while: Self.isNamePart)
            return .number
        default:
            position += 1
            return .symbol
        }
    }

    private mutating func skip(while condition: (Unicode.Scalar) -> Bool) {
        while position < scalars.count, condition(scalars[position]) { position += 1 }
    }

    /// From `/*` past the `*/` that closes it, counting nested ones.
    private mutating func skipBlockComment() {
        var depth = 1
        position += 2
        while position < scalars.count, depth > 0 {
            if scalars[position] == "/", at(position + 1) == "*" {
                depth += 1
                position += 2
            } else if scalars[position] == "*", at(position + 1) == "/" {
                depth -= 1
                position += 2
            } else {
                position += 1
            }
        }
    }

    /// From the opening `'` past the closing one; `''` is a quote inside, and with `escapes`
    /// (an `E'…'` string) a backslash escapes the character after it.
    private mutating func skipString(escapes: Bool) {
        position += 1
        while position < scalars.count {
            if escapes, scalars[position] == "\\" {
                position = Swift.min(position + 2, scalars.count)
            } else if scalars[position] == "'" {
                position += 1
                guard at(position) == "'" else { return }
                position += 1
            } else {
                position += 1
            }
        }
    }

    /// From the opening `"` past the closing one; `""` is a quote inside.
    private mutating func skipQuotedIdentifier() {
        position += 1
        while position < scalars.count {
            position += 1
            if scalars[position - 1] == "\"" {
                guard at(position) == "\"" else { return }
                position += 1
            }
        }
    }

    /// When a dollar quote (`$$…$$`, `$tag$…$tag$`) opens at `position`, the index after its
    /// closing tag (the end of the text when it is not closed).
    private func dollarQuoteEnd() -> Int? {
        var j = position + 1
        while j < scalars.count, scalars[j] != "$" {
            let isTag = j == position + 1 ? Self.isNameStart(scalars[j]) : Self.isTagPart(scalars[j])
            guard isTag else { return nil }
            j += 1
        }
        guard j < scalars.count else { return nil }
        let tag = scalars[position...j]
        var k = j + 1
        while k + tag.count <= scalars.count {
            if scalars[k] == "$", scalars[k..<(k + tag.count)].elementsEqual(tag) { return k + tag.count }
            k += 1
        }
        return scalars.count
    }
}
