/// Parses ``SQLToken``s into ``SQLExpression`` trees, by SQLite's operator precedence
/// (``QueryTyper/precedence``, the table the typer types by). It never fails: what it cannot
/// read is a ``SQLExpression/Node/missing(_:)`` node that reads no token (the caller decides
/// what to skip) or, in ``sequence()``, an ``SQLExpression/Node/unread`` token.
struct SQLExpressionParser: SQLTokenCursor {
    let tokens: [SQLToken]
    var position: Int
    /// Where parsing stops (the end of a subquery's or a group's tokens).
    let end: Int

    init(tokens: [SQLToken], position: Int = 0, end: Int? = nil) {
        self.tokens = tokens
        self.position = position
        self.end = end ?? tokens.count
    }

    /// The group from here to its closing `)` (not consumed), read as a sequence.
    mutating func group() -> (Range<Int>, [SQLExpression]) {
        let start = position
        skip(until: [])
        var inner = SQLExpressionParser(tokens: tokens, position: start, end: position)
        return (start..<position, inner.sequence())
    }
    func node(_ node: SQLExpression.Node, from start: Int) -> SQLExpression {
        SQLExpression(node: node, tokens: start..<position)
    }

    // MARK: - Sequences

    /// Expressions until the end; a token no expression reads is an unread node.
    mutating func sequence() -> [SQLExpression] {
        terms(stoppingAt: { _ in false })
    }

    /// Expressions until `)`, a clause word, or one of `stops` (ORDER BY terms and the like).
    mutating func terms(until stops: Set<String>) -> [SQLExpression] {
        terms(stoppingAt: { token in
            token.kind == .symbol && token.value == ")"
                || token.kind == .word && (stops.contains(token.upper) || QueryTyper.clauseWords.contains(token.upper))
        })
    }

    /// Expressions until a token `stop` accepts; a token no expression reads is an unread node.
    mutating func terms(stoppingAt stop: (SQLToken) -> Bool) -> [SQLExpression] {
        var result: [SQLExpression] = []
        while let token = current, !stop(token) {
            let start = position
            let expression = expression()
            if position == start {
                position += 1
                result.append(node(.unread, from: start))
            } else {
                result.append(expression)
            }
        }
        return result
    }

    // MARK: - Operators

    /// An expression whose operators bind at least as tightly as `QueryTyper.precedence[level]`.
    mutating func expression(level: Int = 0) -> SQLExpression {
        guard level < QueryTyper.precedence.count else { return unary() }
        let start = position
        switch QueryTyper.precedence[level] {
        case .not:
            guard isKeyword("NOT") && !isKeyword("EXISTS", 1) else { return expression(level: level + 1) }
            position += 1
            let operand = expression(level: level)
            return node(.not(operand), from: start)
        case .predicates:
            return predicates(level: level)
        case .binary(let operators):
            var left = expression(level: level + 1)
            while let (op, combination, width) = binaryOperator(operators) {
                position += width
                let right = expression(level: level + 1)
                left = node(.binary(op, combination, left, right), from: start)
            }
            return left
        }
    }

    /// The operator at the current token among `operators`, how it types, and how many tokens
    /// it spans (the tokenizer reads `->` as `-` `>`).
    func binaryOperator(_ operators: [String: QueryTyper.Combination]) -> (String, QueryTyper.Combination, Int)? {
        guard let token = current else { return nil }
        switch token.kind {
        case .word:
            return operators[token.upper].map { (token.upper, $0, 1) }
        case .symbol:
            if token.value == "-", let next = peek(1), next.kind == .symbol, next.value == ">" || next.value == ">>",
               let json = operators["-" + next.value] {
                return ("-" + next.value, json, 2)
            }
            return operators[token.value].map { (token.value, $0, 1) }
        default:
            return nil
        }
    }

    /// The predicates of `precedence[level]`; their operands are of the next level.
    mutating func predicates(level: Int) -> SQLExpression {
        let first = position
        var left = expression(level: level + 1)
        while let token = current {
            let start = position
            var negated = false
            if token.kind == .word && token.upper == "NOT" {
                negated = true
                position += 1
            }
            guard let op = current else { break }
            if op.kind == .symbol, ["=", "==", "!=", "<>"].contains(op.value), !negated {
                position += 1
                let right = expression(level: level + 1)
                left = node(.equality(left, right), from: first)
            } else if op.kind == .word, op.upper == "IS", !negated {
                position += 1
                _ = accept("NOT")
                if accept("DISTINCT") { _ = accept("FROM") }
                let right = expression(level: level + 1)
                left = node(.isTest(left, right), from: first)
            } else if op.kind == .word, op.upper == "ISNULL" || op.upper == "NOTNULL" || op.upper == "NULL" && negated {
                position += 1
                left = node(.nullTest(left), from: first)
            } else if op.kind == .word, ["LIKE", "GLOB", "MATCH", "REGEXP"].contains(op.upper) {
                position += 1
                let right = expression(level: level + 1)
                let escape = accept("ESCAPE") ? expression(level: level + 1) : nil
                left = node(.match(left, right, escape: escape), from: first)
            } else if op.kind == .word, op.upper == "BETWEEN" {
                position += 1
                let low = expression(level: level + 1)
                _ = accept("AND")
                let high = expression(level: level + 1)
                left = node(.between(left, low, high), from: first)
            } else if op.kind == .word, op.upper == "IN" {
                position += 1
                left = inList(left, from: first)
            } else {
                position = start
                break
            }
        }
        return left
    }

    mutating func inList(_ left: SQLExpression, from first: Int) -> SQLExpression {
        guard acceptSymbol("(") else {
            // IN table-name or IN table-function(…)
            var name: Int?
            if let token = current, token.kind == .word || token.kind == .identifier || token.kind == .string {
                name = position
                position += 1
            }
            var arguments: [SQLExpression] = []
            if acceptSymbol("(") {
                arguments = group().1
                _ = acceptSymbol(")")
            }
            return node(.inTable(left, name: name, arguments: arguments), from: first)
        }
        if isKeyword("SELECT") || isKeyword("WITH") || isKeyword("VALUES") {
            let (range, body) = group()
            _ = acceptSymbol(")")
            return node(.inSelect(left, SQLExpression.Subquery(tokens: range, body: body)), from: first)
        }
        var elements: [SQLExpression] = []
        var skipped: [SQLExpression] = []
        while current != nil, !isSymbol(")") {
            let start = position
            elements.append(expression())
            if position == start {
                position += 1
                skipped.append(node(.unread, from: start))
            }
            if !acceptSymbol(",") { break }
        }
        _ = acceptSymbol(")")
        return node(.inList(left, elements, skipped: skipped), from: first)
    }

    mutating func unary() -> SQLExpression {
        let start = position
        if let token = current, token.kind == .symbol, ["-", "+", "~"].contains(token.value) {
            position += 1
            let operand = unary()
            return node(.prefix(token.value, operand), from: start)
        }
        var expression = primary()
        var collations: [Int] = []
        while accept("COLLATE") {
            if let token = current, token.kind == .word || token.kind == .identifier || token.kind == .string {
                collations.append(position)
                position += 1
            }
        }
        if position > expression.tokens.upperBound { expression = node(.collate(expression, collations), from: start) }
        return expression
    }

    // MARK: - Primary expressions

    mutating func primary() -> SQLExpression {
        guard let token = current else { return node(.missing("a missing expression"), from: position) }
        let start = position
        switch token.kind {
        case .number:
            position += 1
            let text = token.upper
            return node(.number(isReal: !text.hasPrefix("0X") && (text.utf8.contains(UInt8(ascii: ".")) || text.utf8.contains(UInt8(ascii: "E")))), from: start)
        case .string:
            position += 1
            return node(.string, from: start)
        case .blob:
            position += 1
            return node(.blob, from: start)
        case .parameter(let name):
            position += 1
            return node(.parameter(name), from: start)
        case .otherParameter:
            position += 1
            return node(.otherParameter, from: start)
        case .symbol:
            guard token.value == "(" else { return node(.missing("'\(token.value)'"), from: start) }
            position += 1
            if isKeyword("SELECT") || isKeyword("WITH") || isKeyword("VALUES") {
                let (range, body) = group()
                _ = acceptSymbol(")")
                return node(.subquery(SQLExpression.Subquery(tokens: range, body: body)), from: start)
            }
            let inner = expression()
            if acceptSymbol(",") {
                let rest = group().1
                _ = acceptSymbol(")")
                return node(.rowValue(inner, rest: rest), from: start)
            }
            _ = acceptSymbol(")")
            return node(.parenthesized(inner), from: start)
        case .identifier:
            return columnReference()
        case .word:
            switch token.upper {
            case "NULL":
                position += 1
                return node(.null, from: start)
            case "TRUE", "FALSE":
                position += 1
                return node(.boolean, from: start)
            case "CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME":
                position += 1
                return node(.currentTime, from: start)
            case "EXISTS":
                position += 1
                return node(.exists(existsBody()), from: start)
            case "NOT" where isKeyword("EXISTS", 1):
                position += 2
                return node(.exists(existsBody()), from: start)
            case "CASE":
                return caseExpression()
            case "CAST":
                return cast()
            case "RAISE":
                position += 1
                var body: [SQLExpression] = []
                if acceptSymbol("(") {
                    body = group().1
                    _ = acceptSymbol(")")
                }
                return node(.raise(body), from: start)
            default:
                if isSymbol("(", 1) { return function() }
                if QueryTyper.operatorWords.contains(token.upper) || QueryTyper.clauseWords.contains(token.upper) {
                    return node(.missing("'\(token.value)'"), from: start)
                }
                return columnReference()
            }
        }
    }

    mutating func existsBody() -> SQLExpression.Subquery? {
        guard acceptSymbol("(") else { return nil }
        let (range, body) = group()
        _ = acceptSymbol(")")
        return SQLExpression.Subquery(tokens: range, body: body)
    }

    /// `name(.name)*` (the caller has seen a word or quoted identifier).
    mutating func columnReference() -> SQLExpression {
        let start = position
        var parts = [position]
        position += 1
        while isSymbol("."), let next = peek(1), next.kind == .word || next.kind == .identifier {
            parts.append(position + 1)
            position += 2
        }
        return node(.column(parts), from: start)
    }

    mutating func caseExpression() -> SQLExpression {
        let start = position
        position += 1
        var base: SQLExpression?
        if !isKeyword("WHEN") { base = expression() }
        var branches: [(condition: SQLExpression, value: SQLExpression)] = []
        while accept("WHEN") {
            let condition = expression()
            _ = accept("THEN")
            branches.append((condition, expression()))
        }
        let otherwise = accept("ELSE") ? expression() : nil
        _ = accept("END")
        return node(.caseWhen(base: base, branches: branches, otherwise: otherwise), from: start)
    }

    mutating func cast() -> SQLExpression {
        let start = position
        position += 1
        guard acceptSymbol("(") else { return node(.missing("CAST"), from: start) }
        let operand = expression()
        _ = accept("AS")
        var typeName = ""
        let typeStart = position
        while let token = current, !(token.kind == .symbol && token.value == ")") {
            typeName += token.upper + " "
            position += 1
        }
        let typeTokens = typeStart..<position
        _ = acceptSymbol(")")
        return node(.cast(operand, typeName: typeName, typeTokens: typeTokens), from: start)
    }

    /// `name(…) [FILTER (WHERE …)] [OVER …]` (the caller has seen the name and `(`).
    mutating func function() -> SQLExpression {
        let start = position
        var call = SQLExpression.Call(name: position, function: tokens[position].upper, star: false, arguments: [], skipped: [])
        position += 2
        _ = accept("DISTINCT")
        if acceptSymbol("*") { call.star = true }
        while current != nil, !isSymbol(")") {
            let argumentStart = position
            let value = expression()
            var orderBy: [SQLExpression] = []
            if accept("ORDER") {
                _ = accept("BY")
                orderBy = terms(until: [])
            }
            call.arguments.append((value, orderBy))
            if position == argumentStart {
                position += 1
                call.skipped.append(node(.unread, from: argumentStart))
            }
            if !acceptSymbol(",") { break }
        }
        _ = acceptSymbol(")")
        if accept("FILTER") {
            if acceptSymbol("(") {
                _ = accept("WHERE")
                call.filter = expression()
                _ = acceptSymbol(")")
            }
        }
        if accept("OVER") {
            if acceptSymbol("(") {
                call.window = .definition(group().1)
                _ = acceptSymbol(")")
            } else if let token = current, token.kind == .word || token.kind == .identifier || token.kind == .string {
                call.window = .name(position)
                position += 1
            } else {
                call.window = .name(nil)
            }
        }
        return node(.function(call), from: start)
    }
}

/// A position in SQL tokens: what the typer's statements and the expression parser read by.
protocol SQLTokenCursor {
    var tokens: [SQLToken] { get }
    var position: Int { get set }
    /// Where reading stops.
    var end: Int { get }
}

extension SQLTokenCursor {
    var current: SQLToken? { position < end ? tokens[position] : nil }
    func peek(_ offset: Int = 0) -> SQLToken? {
        let index = position + offset
        return index >= 0 && index < end ? tokens[index] : nil
    }
    func isKeyword(_ word: String, _ offset: Int = 0) -> Bool {
        guard let token = peek(offset) else { return false }
        return token.kind == .word && token.upper == word
    }
    func isSymbol(_ symbol: String, _ offset: Int = 0) -> Bool {
        guard let token = peek(offset) else { return false }
        return token.kind == .symbol && token.value == symbol
    }
    mutating func accept(_ word: String) -> Bool {
        if isKeyword(word) { position += 1; return true }
        return false
    }
    mutating func acceptSymbol(_ symbol: String) -> Bool {
        if isSymbol(symbol) { position += 1; return true }
        return false
    }

    /// Skips to the end of a balanced group (its `)`, not consumed) or to one of `stops` at depth 0.
    mutating func skip(until stops: Set<String>) {
        var depth = 0
        while let token = current {
            if token.kind == .symbol && token.value == "(" { depth += 1 }
            if token.kind == .symbol && token.value == ")" {
                if depth == 0 { return }
                depth -= 1
            }
            if depth == 0, token.kind == .word, stops.contains(token.upper) { return }
            if depth == 0, token.kind == .symbol, stops.contains(token.value) { return }
            position += 1
        }
    }
}
