/// The CHECK expressions of `CREATE TABLE` statements as they are written, by the normalized
/// form the structural comparison uses: messages and migration headers print a CHECK the way
/// the schema spells it (`status IN ('open', 'paid')`), not re-tokenized
/// (`status in ( 'open' , 'paid' )`).
struct WrittenChecks {
    private var spelling: [String: String] = [:]

    /// The checks of each statement; the first spelling of a normalized form wins.
    init(_ statements: String...) {
        for sql in statements {
            let tokens = SQLTokenizer.tokenize(sql)
            var index = 0
            while index + 1 < tokens.count {
                if tokens[index].isKeyword("CHECK"), tokens[index + 1].text == "(",
                    let close = SQLTokenizer.matchingClose(in: tokens, from: index + 1), close > index + 2
                {
                    let body = tokens[(index + 2)..<close]
                    let normalized = SQLTokenizer.normalize(body)
                    if spelling[normalized] == nil, let first = body.first, let last = body.last {
                        spelling[normalized] = String(sql[first.range.lowerBound..<last.range.upperBound])
                    }
                    index = close + 1
                    continue
                }
                index += 1
            }
        }
    }

    /// `check` as written, or as given when no statement has it.
    subscript(_ check: String) -> String {
        spelling[check] ?? check
    }
}
