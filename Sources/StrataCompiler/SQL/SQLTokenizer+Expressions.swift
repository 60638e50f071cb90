extension SQLTokenizer {
    /// The tokens of the SQL expression (or statement) `sql`, without whitespace and comments,
    /// with numbers, blob literals and parameters recognized (see ``SQLToken``).
    static func expressionTokens(of sql: String) -> [SQLToken] {
        let raw = tokenize(sql)
        var result: [SQLToken] = []
        result.reserveCapacity(raw.count)
        var index = 0
        func adjacent(_ offset: Int) -> SQLToken? {
            let at = index + offset
            guard at < raw.count, raw[at].range.lowerBound == raw[at - 1].range.upperBound else { return nil }
            return raw[at]
        }
        func append(_ kind: SQLToken.Kind, through last: Int) {
            if last == index {
                var token = raw[index]
                token.kind = kind
                result.append(token)
            } else {
                let range = raw[index].range.lowerBound..<raw[last].range.upperBound
                let text = String(sql[range])
                result.append(SQLToken(kind: kind, text: text, value: text, range: range,
                                       offsets: raw[index].offsets.lowerBound..<raw[last].offsets.upperBound))
            }
            index = last + 1
        }
        while index < raw.count {
            let token = raw[index]
            switch token.kind {
            case .identifier, .string, .number, .blob, .parameter, .otherParameter:
                append(token.kind, through: index)
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
