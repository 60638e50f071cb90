/// Splits PostgreSQL text into its statements, at the semicolons that are outside string
/// literals (`'…'`, `E'…'`), quoted identifiers (`"…"`), dollar-quoted bodies (`$tag$…$tag$`) and
/// comments (`-- …`, nested `/* … */`), as ``PostgresTokenizer`` finds them. postgres-nio speaks
/// the extended query protocol, which runs one statement per message.
enum SQLStatements {
    static func split(_ sql: String) -> [String] {
        var tokens = PostgresTokenizer(sql)
        var statements: [String] = []
        var start = 0
        var hasCode = false

        func flush(upTo end: Int) {
            if hasCode {
                var text = String(String.UnicodeScalarView(tokens.scalars[start..<end]))
                while let last = text.unicodeScalars.last, last.properties.isWhitespace { text.unicodeScalars.removeLast() }
                while let first = text.unicodeScalars.first, first.properties.isWhitespace { text.unicodeScalars.removeFirst() }
                statements.append(text)
            }
            hasCode = false
        }

        while let token = tokens.next() {
            switch token.kind {
            case .semicolon:
                flush(upTo: token.range.lowerBound)
                start = token.range.upperBound
            case .whitespace, .comment:
                break
            case .string, .quotedIdentifier, .dollarQuoted, .identifier, .number, .symbol:
                hasCode = true
            }
        }
        flush(upTo: tokens.scalars.count)
        return statements
    }
}
