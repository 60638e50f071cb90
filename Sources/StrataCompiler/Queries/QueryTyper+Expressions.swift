import Strata

// Expressions: the operators, by one precedence table, and the common type of several values.
extension QueryTyper {
    // MARK: - Operators

    /// How a binary operator types its result from its operands'.
    enum Combination {
        /// `AND`, `OR`: a boolean; parameters are booleans.
        case logical
        /// `<`, `<=`, `>`, `>=`: a boolean; a parameter takes the other side's type.
        case comparison
        /// `&`, `|`, `<<`, `>>`: an integer.
        case bitwise
        /// `+`, `-`, `*`: a number; a parameter beside a number is one.
        case arithmetic
        /// `/`, `%`: a number that is NULL on division by zero.
        case division
        /// `||`: text; parameters are text.
        case concatenation
        /// `->`, `->>`: JSON, whose type the analysis does not know.
        case json
    }

    /// One level of SQLite's operator precedence (sqlite.org/lang_expr.html#operators).
    enum PrecedenceLevel {
        /// Left-associative binary operators (keywords upper case), each with how it types its result.
        case binary([String: Combination])
        /// Prefix `NOT`.
        case not
        /// `=`, `==`, `!=`, `<>`, `IS [NOT] [DISTINCT FROM]`, `ISNULL`, `NOTNULL`, `NOT NULL`,
        /// `[NOT] LIKE|GLOB|MATCH|REGEXP … [ESCAPE …]`, `[NOT] BETWEEN … AND …`, `[NOT] IN …`.
        case predicates
    }

    /// The operator precedence, loosest first; below the last level come the unary operators.
    static let precedence: [PrecedenceLevel] = [
        .binary(["OR": .logical]),
        .binary(["AND": .logical]),
        .not,
        .predicates,
        .binary(["<": .comparison, "<=": .comparison, ">": .comparison, ">=": .comparison]),
        .binary(["&": .bitwise, "|": .bitwise, "<<": .bitwise, ">>": .bitwise]),
        .binary(["+": .arithmetic, "-": .arithmetic]),
        .binary(["*": .arithmetic, "/": .division, "%": .division]),
        .binary(["||": .concatenation, "->": .json, "->>": .json]),
    ]

    /// An expression whose operators bind at least as tightly as `precedence[level]`.
    mutating func expression(_ scope: Scope, level: Int = 0) -> ExprType {
        guard level < Self.precedence.count else { return unary(scope) }
        switch Self.precedence[level] {
        case .not:
            guard isKeyword("NOT") && !isKeyword("EXISTS", 1) else { return expression(scope, level: level + 1) }
            position += 1
            let operand = expression(scope, level: level)
            var type = ExprType.of(.bool, optional: operand.optional && operand.parameter == nil)
            type.aggregate = operand.aggregate
            return type
        case .predicates:
            return predicates(scope, level: level)
        case .binary(let operators):
            var left = expression(scope, level: level + 1)
            while let (combination, width) = binaryOperator(operators) {
                position += width
                let right = expression(scope, level: level + 1)
                left = combine(combination, left, right)
            }
            return left
        }
    }

    /// The operator at the current token among `operators`, and how many tokens it spans
    /// (the tokenizer reads `->` as `-` `>`).
    func binaryOperator(_ operators: [String: Combination]) -> (Combination, Int)? {
        guard let token = current else { return nil }
        switch token.kind {
        case .word:
            return operators[token.upper].map { ($0, 1) }
        case .symbol:
            if token.value == "-", let next = peek(1), next.kind == .symbol, next.value == ">" || next.value == ">>",
               let json = operators["-" + next.value] {
                return (json, 2)
            }
            return operators[token.value].map { ($0, 1) }
        default:
            return nil
        }
    }

    mutating func combine(_ combination: Combination, _ left: ExprType, _ right: ExprType) -> ExprType {
        switch combination {
        case .logical:
            return logical(left, right)
        case .comparison:
            return compare(left, right)
        case .bitwise:
            return arithmetic(left, right, forceInt: true)
        case .arithmetic:
            return arithmetic(left, right)
        case .division:
            var type = arithmetic(left, right)
            type.optional = true
            return type
        case .concatenation:
            use(left.parameter, left.parameterToken, as: .of(.text, optional: false))
            use(right.parameter, right.parameterToken, as: .of(.text, optional: false))
            var type = ExprType.of(.text, optional: left.optional || right.optional)
            type.aggregate = left.aggregate || right.aggregate
            return type
        case .json:
            return .unknown("the JSON operator ->")
        }
    }

    mutating func logical(_ left: ExprType, _ right: ExprType) -> ExprType {
        use(left.parameter, left.parameterToken, as: .of(.bool, optional: false))
        use(right.parameter, right.parameterToken, as: .of(.bool, optional: false))
        var type = ExprType.of(.bool, optional: left.optional || right.optional)
        type.aggregate = left.aggregate || right.aggregate
        return type
    }

    /// The predicates of `precedence[level]`; their operands are of the next level.
    mutating func predicates(_ scope: Scope, level: Int) -> ExprType {
        var left = expression(scope, level: level + 1)
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
                let right = expression(scope, level: level + 1)
                left = compare(left, right)
            } else if op.kind == .word, op.upper == "IS", !negated {
                position += 1
                _ = accept("NOT")
                if accept("DISTINCT") { _ = accept("FROM") }
                let right = expression(scope, level: level + 1)
                inferEach(left, right, optional: true)
                left = ExprType.of(.bool, optional: false)
            } else if op.kind == .word, op.upper == "ISNULL" || op.upper == "NOTNULL" || op.upper == "NULL" && negated {
                position += 1
                left = ExprType.of(.bool, optional: false)
            } else if op.kind == .word, ["LIKE", "GLOB", "MATCH", "REGEXP"].contains(op.upper) {
                position += 1
                let right = expression(scope, level: level + 1)
                use(left.parameter, left.parameterToken, as: .of(.text, optional: false))
                use(right.parameter, right.parameterToken, as: .of(.text, optional: false))
                if accept("ESCAPE") { _ = expression(scope, level: level + 1) }
                left = ExprType.of(.bool, optional: (left.optional && left.parameter == nil) || (right.optional && right.parameter == nil))
            } else if op.kind == .word, op.upper == "BETWEEN" {
                position += 1
                let low = expression(scope, level: level + 1)
                _ = accept("AND")
                let high = expression(scope, level: level + 1)
                inferEach(left, low)
                inferEach(left, high)
                left = ExprType.of(.bool, optional: [left, low, high].contains { $0.optional && $0.parameter == nil })
            } else if op.kind == .word, op.upper == "IN" {
                position += 1
                left = inList(left, scope)
            } else {
                position = start
                break
            }
        }
        return left
    }

    mutating func inList(_ left: ExprType, _ scope: Scope) -> ExprType {
        guard acceptSymbol("(") else {
            // IN table-name or IN table-function(…)
            _ = name()
            if acceptSymbol("(") {
                skip(until: [])
                _ = acceptSymbol(")")
            }
            return ExprType.of(.bool, optional: left.optional && left.parameter == nil)
        }
        if isKeyword("SELECT") || isKeyword("WITH") || isKeyword("VALUES") {
            let selected = select(Scope(parent: scope))
            _ = acceptSymbol(")")
            if let first = selected.columns.first { inferEach(left, first.type) }
            return ExprType.of(.bool, optional: left.optional && left.parameter == nil)
        }
        while current != nil, !isSymbol(")") {
            let start = position
            let element = expression(scope)
            inferEach(left, element)
            if position == start { position += 1 }
            if !acceptSymbol(",") { break }
        }
        _ = acceptSymbol(")")
        return ExprType.of(.bool, optional: left.optional && left.parameter == nil)
    }

    /// A parameter on one side takes the other side's type.
    mutating func inferEach(_ left: ExprType, _ right: ExprType, optional: Bool = false) {
        if left.parameter != nil, right.parameter == nil { use(left.parameter, left.parameterToken, as: right, optional: optional) }
        if right.parameter != nil, left.parameter == nil { use(right.parameter, right.parameterToken, as: left, optional: optional) }
    }

    mutating func compare(_ left: ExprType, _ right: ExprType) -> ExprType {
        inferEach(left, right)
        var type = ExprType.of(.bool, optional: (left.optional && left.parameter == nil) || (right.optional && right.parameter == nil)
                               || left.isNull || right.isNull)
        type.aggregate = left.aggregate || right.aggregate
        return type
    }

    static func isNumeric(_ type: ColumnType?) -> Bool {
        type == .int || type == .double || type == .bool
    }

    mutating func arithmetic(_ left: ExprType, _ right: ExprType, forceInt: Bool = false) -> ExprType {
        var left = left
        var right = right
        if left.parameter != nil && !left.isKnown, Self.isNumeric(right.base) {
            let base: ColumnType = right.base == .double && !forceInt ? .double : .int
            use(left.parameter, left.parameterToken, as: .of(base, optional: false))
            left = .of(base, optional: false)
        }
        if right.parameter != nil && !right.isKnown, Self.isNumeric(left.base) {
            let base: ColumnType = left.base == .double && !forceInt ? .double : .int
            use(right.parameter, right.parameterToken, as: .of(base, optional: false))
            right = .of(base, optional: false)
        }
        let optional = left.optional || right.optional
        var type: ExprType
        if left.isNull || right.isNull {
            type = .null
        } else if let untyped = left.untyped ?? right.untyped {
            type = .unknown(untyped)
        } else if !Self.isNumeric(left.base) || !Self.isNumeric(right.base) {
            type = .unknown("arithmetic on a value that is not a number")
        } else if forceInt || (left.base != .double && right.base != .double) {
            type = .of(.int, optional: optional)
        } else {
            type = .of(.double, optional: optional)
        }
        type.aggregate = left.aggregate || right.aggregate
        return type
    }

    mutating func unary(_ scope: Scope) -> ExprType {
        if let token = current, token.kind == .symbol, ["-", "+", "~"].contains(token.value) {
            position += 1
            var operand = unary(scope)
            operand.origin = nil
            if operand.parameter != nil { return .unknown("a signed parameter") }
            if !Self.isNumeric(operand.base), !operand.isNull {
                return operand.untyped != nil ? operand : .unknown("a sign before a value that is not a number")
            }
            if operand.base == .bool { operand.base = .int }
            if token.value == "~" { operand.base = .int }
            return operand
        }
        let type = primary(scope)
        while accept("COLLATE") { _ = name() }
        return type
    }

    /// The common type of several expressions (CASE branches, COALESCE arguments, UNION arms).
    static func common(_ types: [ExprType], typer: inout QueryTyper) -> ExprType {
        let known = types.filter { !$0.isNull && $0.parameter == nil || $0.parameter != nil && $0.isKnown }
        let optional = types.contains { $0.optional || $0.isNull }
        if let untyped = known.first(where: { !$0.isKnown }) { return .unknown(untyped.untyped ?? "an unknown value") }
        guard let first = known.first, let firstBase = first.base else {
            return .unknown(types.contains { $0.parameter != nil } ? "only parameters" : "only NULL")
        }
        var result = ExprType.of(firstBase, optional: optional, owner: first.owner)
        if firstBase == .date { result.dateFormat = first.dateFormat }
        for type in known.dropFirst() {
            guard let base = type.base else { continue }
            if base == result.base {
                if case .enumeration = base, type.owner != result.owner {
                    return .unknown("values of two enum types")
                }
                // Dates of two storage formats: no one reading gives both right.
                if base == .date, (type.dateFormat ?? .iso8601) != (result.dateFormat ?? .iso8601) {
                    return .unknown(
                        "dates stored in two formats (dateFormat \((result.dateFormat ?? .iso8601).rawValue) and \((type.dateFormat ?? .iso8601).rawValue)); convert one in SQL and CAST the result, or select them as separate columns")
                }
                continue
            }
            if isNumeric(base) && isNumeric(result.base) {
                result.base = base == .double || result.base == .double ? .double : .int
                result.owner = nil
                continue
            }
            return .unknown("values of different types (\(result.base?.keyword ?? "?") and \(base.keyword))")
        }
        if known.count == types.filter({ !$0.isNull }).count, known.count == 1 { result.origin = first.origin }
        for type in types where type.parameter != nil && !type.isKnown {
            typer.use(type.parameter, type.parameterToken, as: result)
        }
        return result
    }
}
