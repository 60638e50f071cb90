import Strata

// The names result expressions give themselves, and the names suggested for those that give none.
extension QueryTyper {
    func columnName(_ range: Range<Int>) -> String? {
        guard [1, 3, 5].contains(range.count) else { return nil }
        for (offset, index) in range.enumerated() {
            let token = tokens[index]
            if offset % 2 == 1 {
                guard token.kind == .symbol, token.value == "." else { return nil }
            } else {
                guard token.kind == .identifier || token.kind == .word && !Self.nonColumnWords.contains(token.upper) else { return nil }
            }
        }
        return tokens[range.upperBound - 1].value
    }

    static let nonColumnWords: Set<String> = operatorWords.union(trailingWords).union(clauseWords).union(["CAST", "NOT"])

    /// The name an unaliased result expression gives itself (see ``ResultColumn/derived``).
    func derivedName(_ range: Range<Int>) -> String? {
        guard !range.isEmpty else { return nil }
        if let column = columnName(range) { return column }
        let first = tokens[range.lowerBound]
        if first.kind == .symbol, first.value == "-" || first.value == "+" {
            return columnName(range.lowerBound + 1..<range.upperBound)
        }
        guard first.kind == .word, range.count >= 3, tokens[range.lowerBound + 1].kind == .symbol,
              tokens[range.lowerBound + 1].value == "(", tokens[range.upperBound - 1].kind == .symbol,
              tokens[range.upperBound - 1].value == ")" else { return nil }
        var inner = range.lowerBound + 2..<range.upperBound - 1
        if first.upper == "CAST" {
            guard let asIndex = inner.first(where: { tokens[$0].kind == .word && tokens[$0].upper == "AS" }) else { return nil }
            return columnName(inner.lowerBound..<asIndex)
        }
        guard Self.namingAggregates.contains(first.upper) else { return nil }
        if let distinct = inner.first, tokens[distinct].kind == .word, tokens[distinct].upper == "DISTINCT" {
            inner = inner.lowerBound + 1..<inner.upperBound
        }
        let function = first.upper.lowercased()
        if first.upper == "COUNT", inner.isEmpty || inner.count == 1 && tokens[inner.lowerBound].kind == .symbol && tokens[inner.lowerBound].value == "*" {
            return function
        }
        guard let column = columnName(inner) else { return nil }
        return function + SwiftNames.upperFirst(SwiftNames.lowerCamelCase(column))
    }

    /// The aggregates whose call on a column names itself (`sum(price)` → `sumPrice`).
    static let namingAggregates: Set<String> = ["COUNT", "SUM", "MIN", "MAX", "AVG", "TOTAL"]

    /// A name to suggest for an unnamed result expression: `sum(a * b)` → `sumA`,
    /// `EXISTS (SELECT … FROM deck …)` → `hasDeck`, `CASE … x … END` → `x`; else `value`.
    func suggestedName(_ range: Range<Int>) -> String {
        guard !range.isEmpty else { return "value" }
        let first = tokens[range.lowerBound]
        func firstColumn(_ range: Range<Int>) -> String? {
            for index in range {
                let token = tokens[index]
                guard token.kind == .word && !Self.nonColumnWords.contains(token.upper) || token.kind == .identifier else { continue }
                if index + 1 < range.upperBound, tokens[index + 1].kind == .symbol, tokens[index + 1].value == "(" || tokens[index + 1].value == "." {
                    continue
                }
                if index > range.lowerBound, tokens[index - 1].kind == .word, tokens[index - 1].upper == "AS" { continue }
                let name = SwiftNames.lowerCamelCase(token.value)
                if SwiftNames.isValidSwiftIdentifier(name), !SwiftNames.keywords.contains(name) { return name }
            }
            return nil
        }
        var start = range.lowerBound
        var negated = false
        if first.kind == .word, first.upper == "NOT", range.count > 1, tokens[start + 1].upper == "EXISTS" {
            negated = true
            start += 1
        }
        if tokens[start].kind == .word, tokens[start].upper == "EXISTS" {
            if let from = (start..<range.upperBound).first(where: { tokens[$0].kind == .word && tokens[$0].upper == "FROM" }),
               from + 1 < range.upperBound, tokens[from + 1].kind == .word || tokens[from + 1].kind == .identifier {
                let table = SwiftNames.upperCamelCase(tokens[from + 1].value)
                if SwiftNames.isValidSwiftIdentifier(table) { return (negated ? "hasNo" : "has") + table }
            }
            return negated ? "isMissing" : "exists"
        }
        if first.kind == .word, range.count > 2, tokens[range.lowerBound + 1].value == "(" {
            let function = SwiftNames.lowerCamelCase(first.value.lowercased())
            let column = firstColumn(range.lowerBound + 2..<range.upperBound)
            if Self.aggregates.contains(first.upper) {
                return function + (column.map { SwiftNames.upperFirst($0) } ?? "")
            }
            return column ?? (SwiftNames.isValidSwiftIdentifier(function) && !SwiftNames.keywords.contains(function) ? function : "value")
        }
        return firstColumn(range) ?? "value"
    }

    static let operatorWords: Set<String> = [
        "AND", "OR", "NOT", "IS", "IN", "LIKE", "GLOB", "MATCH", "REGEXP", "BETWEEN", "ESCAPE", "COLLATE", "CASE",
        "WHEN", "THEN", "ELSE", "DISTINCT", "EXISTS", "SELECT",
    ]
    static let trailingWords: Set<String> = [
        "END", "NULL", "TRUE", "FALSE", "CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME", "NOTNULL", "ISNULL",
    ]
}
