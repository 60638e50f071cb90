/// One token of an SQL expression: a ``SQLToken`` with what an expression needs told apart —
/// numbers, blob literals and parameters — so that no one reads a name where there is none
/// (the `x` of `x'00'`, `@x` or `?x`, the `name` of `:name`).
struct SQLExpressionToken: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        /// A keyword or a bare identifier.
        case word
        /// `"name"`, `[name]` or `` `name` ``; `value` is the unquoted name.
        case identifier
        /// `'text'`.
        case string
        /// `42`, `1.5`, `1e-3`, `0x1F`.
        case number
        /// `x'00ff'`.
        case blob
        /// `:name` (the name without the colon).
        case parameter(String)
        /// `?`, `?1`, `@name`, `$name` or a lone `:`: parameters generated code cannot bind by name.
        case otherParameter
        /// Punctuation or an operator (`::`, PostgreSQL's cast, is one symbol).
        case symbol
    }

    var kind: Kind
    /// The token as written.
    var text: String
    /// For identifiers the unquoted name, otherwise `text`.
    var value: String
    /// Where the token is in the source.
    var range: Range<String.Index>

    /// True for the keyword `word` (upper case; not quoted).
    func isKeyword(_ word: String) -> Bool {
        kind == .word && text.uppercased() == word
    }

    /// True for a bare or quoted identifier spelled `name` (as SQLite compares names).
    func isName(_ name: String) -> Bool {
        (kind == .word || kind == .identifier) && SQLName.same(value, name)
    }

    /// True for a literal: a string, number or blob.
    var isLiteral: Bool { kind == .string || kind == .number || kind == .blob }
}

extension SQLTokenizer {
    /// The tokens of the SQL expression (or statement) `sql`, without whitespace and comments,
    /// with numbers, blob literals and parameters recognized.
    static func expressionTokens(of sql: String) -> [SQLExpressionToken] {
        let raw = tokenize(sql)
        var result: [SQLExpressionToken] = []
        result.reserveCapacity(raw.count)
        var index = 0
        func adjacent(_ offset: Int) -> SQLToken? {
            let at = index + offset
            guard at < raw.count, raw[at].range.lowerBound == raw[at - 1].range.upperBound else { return nil }
            return raw[at]
        }
        func append(_ kind: SQLExpressionToken.Kind, through last: Int, value: String? = nil) {
            let range = raw[index].range.lowerBound..<raw[last].range.upperBound
            let text = String(sql[range])
            result.append(SQLExpressionToken(kind: kind, text: text, value: value ?? text, range: range))
            index = last + 1
        }
        while index < raw.count {
            let token = raw[index]
            switch token.kind {
            case .quotedIdentifier:
                append(.identifier, through: index, value: token.value)
            case .string:
                append(.string, through: index)
            case .word:
                let first = token.text.unicodeScalars.first ?? " "
                if ("0"..."9").contains(first) {
                    // 1e-5, 1.5E+3: the sign of an exponent is part of the number.
                    let upper = token.text.uppercased()
                    if !upper.hasPrefix("0X"), upper.hasSuffix("E"), let sign = adjacent(1), sign.text == "-" || sign.text == "+",
                        let digits = adjacent(2), digits.kind == .word, digits.text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) })
                    {
                        append(.number, through: index + 2)
                    } else {
                        append(.number, through: index)
                    }
                } else if first == "$" {
                    append(.otherParameter, through: index)
                } else if token.text == "x" || token.text == "X", let next = adjacent(1), next.kind == .string {
                    append(.blob, through: index + 1)
                } else {
                    append(.word, through: index)
                }
            case .symbol:
                if token.text == ":", let next = adjacent(1), next.text == ":" {
                    append(.symbol, through: index + 1)
                } else if token.text == ":", let next = adjacent(1), next.kind == .word {
                    append(.parameter(next.text), through: index + 1)
                } else if token.text == ":" || token.text == "?" || token.text == "@" {
                    if let next = adjacent(1), next.kind == .word {
                        append(.otherParameter, through: index + 1)
                    } else {
                        append(.otherParameter, through: index)
                    }
                } else {
                    append(.symbol, through: index)
                }
            }
        }
        return result
    }
}
