import Strata

// Expressions: operators, primary expressions, CASE, CAST and the common type of several values.
extension QueryTyper {
    // MARK: - Expressions

    mutating func expression(_ scope: Scope) -> ExprType { or(scope) }

    mutating func or(_ scope: Scope) -> ExprType {
        var left = and(scope)
        while accept("OR") {
            let right = and(scope)
            left = logical(left, right)
        }
        return left
    }

    mutating func and(_ scope: Scope) -> ExprType {
        var left = not(scope)
        while accept("AND") {
            let right = not(scope)
            left = logical(left, right)
        }
        return left
    }

    mutating func logical(_ left: ExprType, _ right: ExprType) -> ExprType {
        use(left.parameter, left.parameterToken, as: .of(.bool, optional: false))
        use(right.parameter, right.parameterToken, as: .of(.bool, optional: false))
        var type = ExprType.of(.bool, optional: left.optional || right.optional)
        type.aggregate = left.aggregate || right.aggregate
        return type
    }

    mutating func not(_ scope: Scope) -> ExprType {
        if isKeyword("NOT") && !isKeyword("EXISTS", 1) {
            position += 1
            let operand = not(scope)
            var type = ExprType.of(.bool, optional: operand.optional && operand.parameter == nil)
            type.aggregate = operand.aggregate
            return type
        }
        return equality(scope)
    }

    mutating func equality(_ scope: Scope) -> ExprType {
        var left = comparison(scope)
        while let token = current {
            let start = position
            var negated = false
            if token.kind == .word && token.upper == "NOT" {
                negated = true
                position += 1
            }
            guard let op = current else { break }
            if op.kind == .symbol, ["=", "==", "!=", "<>"].contains(op.text), !negated {
                position += 1
                let right = comparison(scope)
                left = compare(left, right)
            } else if op.kind == .word, op.upper == "IS", !negated {
                position += 1
                _ = accept("NOT")
                if accept("DISTINCT") { _ = accept("FROM") }
                let right = comparison(scope)
                inferEach(left, right, optional: true)
                left = ExprType.of(.bool, optional: false)
            } else if op.kind == .word, op.upper == "ISNULL" || op.upper == "NOTNULL" {
                position += 1
                left = ExprType.of(.bool, optional: false)
            } else if op.kind == .word, op.upper == "NULL", negated {
                position += 1
                left = ExprType.of(.bool, optional: false)
            } else if op.kind == .word, ["LIKE", "GLOB", "MATCH", "REGEXP"].contains(op.upper) {
                position += 1
                let right = comparison(scope)
                use(left.parameter, left.parameterToken, as: .of(.text, optional: false))
                use(right.parameter, right.parameterToken, as: .of(.text, optional: false))
                if accept("ESCAPE") { _ = comparison(scope) }
                left = ExprType.of(.bool, optional: (left.optional && left.parameter == nil) || (right.optional && right.parameter == nil))
            } else if op.kind == .word, op.upper == "BETWEEN" {
                position += 1
                let low = comparison(scope)
                _ = accept("AND")
                let high = comparison(scope)
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

    mutating func comparison(_ scope: Scope) -> ExprType {
        var left = bitwise(scope)
        while let op = current, op.kind == .symbol, ["<", "<=", ">", ">="].contains(op.text) {
            position += 1
            let right = bitwise(scope)
            left = compare(left, right)
        }
        return left
    }

    mutating func bitwise(_ scope: Scope) -> ExprType {
        var left = additive(scope)
        while let op = current, op.kind == .symbol, ["&", "|", "<<", ">>"].contains(op.text) {
            position += 1
            let right = additive(scope)
            left = arithmetic(left, right, forceInt: true)
        }
        return left
    }

    mutating func additive(_ scope: Scope) -> ExprType {
        var left = multiplicative(scope)
        while let op = current, op.kind == .symbol, op.text == "+" || op.text == "-" {
            position += 1
            let right = multiplicative(scope)
            left = arithmetic(left, right)
        }
        return left
    }

    mutating func multiplicative(_ scope: Scope) -> ExprType {
        var left = concatenation(scope)
        while let op = current, op.kind == .symbol, ["*", "/", "%"].contains(op.text) {
            position += 1
            let right = concatenation(scope)
            left = arithmetic(left, right)
            if op.text != "*" { left.optional = true }
        }
        return left
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

    mutating func concatenation(_ scope: Scope) -> ExprType {
        var left = unary(scope)
        while let op = current, op.kind == .symbol {
            if op.text == "||" {
                position += 1
                let right = unary(scope)
                use(left.parameter, left.parameterToken, as: .of(.text, optional: false))
                use(right.parameter, right.parameterToken, as: .of(.text, optional: false))
                var type = ExprType.of(.text, optional: left.optional || right.optional)
                type.aggregate = left.aggregate || right.aggregate
                left = type
            } else if op.text == "-", isSymbol(">", 1) || isSymbol(">>", 1) {
                position += 2
                _ = unary(scope)
                left = .unknown("the JSON operator ->")
            } else {
                break
            }
        }
        return left
    }

    mutating func unary(_ scope: Scope) -> ExprType {
        if let token = current, token.kind == .symbol, ["-", "+", "~"].contains(token.text) {
            position += 1
            var operand = unary(scope)
            operand.origin = nil
            if operand.parameter != nil { return .unknown("a signed parameter") }
            if !Self.isNumeric(operand.base), !operand.isNull {
                return operand.untyped != nil ? operand : .unknown("a sign before a value that is not a number")
            }
            if operand.base == .bool { operand.base = .int }
            if token.text == "~" { operand.base = .int }
            return operand
        }
        let type = primary(scope)
        while accept("COLLATE") { _ = name() }
        return type
    }

    // MARK: - Primary expressions

    mutating func primary(_ scope: Scope) -> ExprType {
        guard let token = current else { return .unknown("a missing expression") }
        let index = position
        switch token.kind {
        case .number:
            position += 1
            let text = token.upper
            let isReal = !text.hasPrefix("0X") && (text.contains(".") || text.contains("E"))
            return .of(isReal ? .double : .int, optional: false)
        case .string:
            position += 1
            return .of(.text, optional: false)
        case .blob:
            position += 1
            return .of(.blob, optional: false)
        case .parameter(let name):
            position += 1
            var type = ExprType(base: nil, optional: false, untyped: "the parameter :\(name)", parameter: name, parameterToken: index)
            if let declared = parameterTypes[name], !declared.isList {
                type.base = declared.type
                type.optional = declared.isOptional
                type.untyped = nil
            }
            return type
        case .otherParameter:
            position += 1
            return .unknown("a parameter that is not :name")
        case .symbol:
            if token.text == "(" {
                position += 1
                if isKeyword("SELECT") || isKeyword("WITH") || isKeyword("VALUES") {
                    let selected = select(Scope(parent: scope))
                    _ = acceptSymbol(")")
                    guard var type = selected.columns.first?.type else { return .unknown("an empty subquery") }
                    type.origin = nil
                    type.aggregate = false
                    if !selected.alwaysOneRow { type.optional = true }
                    return type
                }
                var type = expression(scope)
                if acceptSymbol(",") {
                    skip(until: [])
                    type = .unknown("a row value")
                }
                _ = acceptSymbol(")")
                return type
            }
            return .unknown("'\(token.text)'")
        case .identifier:
            return columnReference(scope)
        case .word:
            switch token.upper {
            case "NULL":
                position += 1
                return .null
            case "TRUE", "FALSE":
                position += 1
                return .of(.bool, optional: false)
            case "CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME":
                position += 1
                return .of(.text, optional: false)
            case "EXISTS":
                position += 1
                if acceptSymbol("(") {
                    _ = select(Scope(parent: scope))
                    _ = acceptSymbol(")")
                }
                return .of(.bool, optional: false)
            case "NOT" where isKeyword("EXISTS", 1):
                position += 2
                if acceptSymbol("(") {
                    _ = select(Scope(parent: scope))
                    _ = acceptSymbol(")")
                }
                return .of(.bool, optional: false)
            case "CASE":
                return caseExpression(scope)
            case "CAST":
                return cast(scope)
            case "RAISE":
                position += 1
                if acceptSymbol("(") {
                    skip(until: [])
                    _ = acceptSymbol(")")
                }
                return .null
            default:
                if isSymbol("(", 1) { return function(scope) }
                if Self.operatorWords.contains(token.upper) || Self.clauseWords.contains(token.upper) {
                    return .unknown("'\(token.text)'")
                }
                return columnReference(scope)
            }
        }
    }

    mutating func columnReference(_ scope: Scope) -> ExprType {
        guard let first = name() else { return .unknown("a missing expression") }
        var parts = [first]
        while isSymbol("."), let next = peek(1), next.kind == .word || next.kind == .identifier {
            position += 2
            parts.append(next.text)
        }
        let column = parts[parts.count - 1].lowercased()
        let qualifier = parts.count >= 2 ? parts[parts.count - 2].lowercased() : nil
        var searched: Scope? = scope
        while let current = searched {
            for source in current.sources where qualifier == nil || source.alias == qualifier {
                guard let columns = source.columns else {
                    if qualifier != nil { return .unknown("a column of '\(source.alias)', whose columns are not known") }
                    continue
                }
                if let found = columns.first(where: { $0.name.lowercased() == column }) {
                    var type = found.type
                    if source.nullable { type.optional = true }
                    return type
                }
            }
            searched = current.parent
        }
        if qualifier == nil, ["rowid", "oid", "_rowid_"].contains(column) { return .of(.int, optional: false) }
        return .unknown("'\(parts.joined(separator: "."))', which the analysis cannot resolve")
    }

    mutating func caseExpression(_ scope: Scope) -> ExprType {
        position += 1
        var base: ExprType?
        if !isKeyword("WHEN") { base = expression(scope) }
        var branches: [ExprType] = []
        var hasElse = false
        var aggregate = base?.aggregate ?? false
        while accept("WHEN") {
            let condition = expression(scope)
            if let base { inferEach(base, condition) }
            aggregate = aggregate || condition.aggregate
            _ = accept("THEN")
            branches.append(expression(scope))
        }
        if accept("ELSE") {
            hasElse = true
            branches.append(expression(scope))
        }
        _ = accept("END")
        var type = Self.common(branches, typer: &self)
        if !hasElse { type.optional = true }
        type.aggregate = aggregate || branches.contains { $0.aggregate }
        type.origin = nil
        return type
    }

    mutating func cast(_ scope: Scope) -> ExprType {
        position += 1
        guard acceptSymbol("(") else { return .unknown("CAST") }
        let operand = expression(scope)
        _ = accept("AS")
        var typeName = ""
        while let token = current, !(token.kind == .symbol && token.text == ")") {
            typeName += token.upper + " "
            position += 1
        }
        _ = acceptSymbol(")")
        // SQLite's affinity rules (sqlite.org/datatype3.html, 3.1).
        let base: ColumnType?
        if typeName.contains("INT") {
            base = .int
        } else if typeName.contains("CHAR") || typeName.contains("CLOB") || typeName.contains("TEXT") {
            base = .text
        } else if typeName.contains("BLOB") || typeName.trimmingSpaces.isEmpty {
            base = .blob
        } else if typeName.contains("REAL") || typeName.contains("FLOA") || typeName.contains("DOUB") {
            base = .double
        } else {
            base = nil
        }
        guard let base else { return .unknown("CAST to \(typeName.trimmingSpaces), which may give an integer or a real") }
        use(operand.parameter, operand.parameterToken, as: .of(base, optional: false))
        var type = ExprType.of(base, optional: operand.parameter == nil && (operand.optional || operand.isNull))
        type.aggregate = operand.aggregate
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
        for type in known.dropFirst() {
            guard let base = type.base else { continue }
            if base == result.base {
                if case .enumeration = base, type.owner != result.owner {
                    return .unknown("values of two enum types")
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
