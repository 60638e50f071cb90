import Strata

// Primary expressions: literals, parameters, subqueries, column references, CASE and CAST.
extension QueryTyper {
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
            if token.value == "(" {
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
            return .unknown("'\(token.value)'")
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
                    return .unknown("'\(token.value)'")
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
            parts.append(next.value)
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
        while let token = current, !(token.kind == .symbol && token.value == ")") {
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
}
