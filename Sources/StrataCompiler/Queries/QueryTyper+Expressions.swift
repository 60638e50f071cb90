import Strata

// Expressions: the operators, by one precedence table (which ``SQLExpressionParser`` parses by and
// ``typeOf(_:_:)`` types the tree of), and the common type of several values.
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

    /// Parses the expression at the current token (``SQLExpressionParser``, by ``precedence``)
    /// and types its tree.
    mutating func expression(_ scope: Scope) -> ExprType {
        var parser = SQLExpressionParser(tokens: tokens, position: position)
        let tree = parser.expression()
        position = parser.position
        return typeOf(tree, scope)
    }

    /// The type of an expression tree; parameters' uses are recorded in source order.
    mutating func typeOf(_ expression: SQLExpression, _ scope: Scope) -> ExprType {
        switch expression.node {
        case .not(let operand):
            let operand = typeOf(operand, scope)
            var type = ExprType.of(.bool, optional: operand.optional && operand.parameter == nil)
            type.aggregate = operand.aggregate
            return type
        case .binary(_, let combination, let left, let right):
            let left = typeOf(left, scope)
            let right = typeOf(right, scope)
            return combine(combination, left, right)
        case .equality, .isTest, .nullTest, .match, .between, .inList, .inSelect, .inTable:
            return predicate(expression, scope)
        case .prefix(let op, let operand):
            var operand = typeOf(operand, scope)
            operand.origin = nil
            if operand.parameter != nil { return .unknown("a signed parameter") }
            if !Self.isNumeric(operand.base), !operand.isNull {
                return operand.untyped != nil ? operand : .unknown("a sign before a value that is not a number")
            }
            if operand.base == .bool { operand.base = .int }
            if op == "~" { operand.base = .int }
            return operand
        case .collate(let operand, _):
            return typeOf(operand, scope)
        default:
            return primary(expression, scope)
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

    /// A predicate of the `.predicates` level.
    mutating func predicate(_ expression: SQLExpression, _ scope: Scope) -> ExprType {
        switch expression.node {
        case .equality(let left, let right):
            let left = typeOf(left, scope)
            let right = typeOf(right, scope)
            return compare(left, right)
        case .isTest(let left, let right):
            let left = typeOf(left, scope)
            let right = typeOf(right, scope)
            inferEach(left, right, optional: true)
            return ExprType.of(.bool, optional: false)
        case .nullTest(let operand):
            _ = typeOf(operand, scope)
            return ExprType.of(.bool, optional: false)
        case .match(let left, let right, let escape):
            let left = typeOf(left, scope)
            let right = typeOf(right, scope)
            use(left.parameter, left.parameterToken, as: .of(.text, optional: false))
            use(right.parameter, right.parameterToken, as: .of(.text, optional: false))
            if let escape { _ = typeOf(escape, scope) }
            return ExprType.of(.bool, optional: (left.optional && left.parameter == nil) || (right.optional && right.parameter == nil))
        case .between(let value, let low, let high):
            let left = typeOf(value, scope)
            let low = typeOf(low, scope)
            let high = typeOf(high, scope)
            inferEach(left, low)
            inferEach(left, high)
            return ExprType.of(.bool, optional: [left, low, high].contains { $0.optional && $0.parameter == nil })
        case .inList(let left, let elements, _):
            let left = typeOf(left, scope)
            for element in elements { inferEach(left, typeOf(element, scope)) }
            return ExprType.of(.bool, optional: left.optional && left.parameter == nil)
        case .inSelect(let left, let subquery):
            let left = typeOf(left, scope)
            let selected = select(subquery, scope)
            if let first = selected.columns.first { inferEach(left, first.type) }
            return ExprType.of(.bool, optional: left.optional && left.parameter == nil)
        case .inTable(let left, _, _):
            let left = typeOf(left, scope)
            return ExprType.of(.bool, optional: left.optional && left.parameter == nil)
        default:
            return primary(expression, scope)
        }
    }

    /// Types the subquery `subquery` (in a scope inside `scope`) where it is in the tokens.
    mutating func select(_ subquery: SQLExpression.Subquery, _ scope: Scope) -> Selected {
        let saved = position
        position = subquery.tokens.lowerBound
        let selected = select(Scope(parent: scope))
        position = saved
        return selected
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
