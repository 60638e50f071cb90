import Strata

// Primary expressions: literals, parameters, subqueries, column references, CASE and CAST,
// typed from their trees (``SQLExpression``).
extension QueryTyper {
    // MARK: - Primary expressions

    /// The type of a primary expression's tree (a literal, parameter, subquery, column reference,
    /// CASE, CAST or function call).
    mutating func primary(_ expression: SQLExpression, _ scope: Scope) -> ExprType {
        let index = expression.tokens.lowerBound
        switch expression.node {
        case .number(let isReal):
            return .of(isReal ? .double : .int, optional: false)
        case .string, .currentTime:
            return .of(.text, optional: false)
        case .blob:
            return .of(.blob, optional: false)
        case .boolean:
            return .of(.bool, optional: false)
        case .null, .raise:
            return .null
        case .parameter(let name):
            var type = ExprType(base: nil, optional: false, untyped: "the parameter :\(name)", parameter: name, parameterToken: index)
            if let declared = parameterTypes[name], !declared.isList {
                type.base = declared.type
                type.optional = declared.isOptional
                type.untyped = nil
            }
            return type
        case .otherParameter:
            return .unknown("a parameter that is not :name")
        case .subquery(let subquery):
            let selected = select(subquery, scope)
            guard var type = selected.columns.first?.type else { return .unknown("an empty subquery") }
            type.origin = nil
            type.aggregate = false
            if !selected.alwaysOneRow { type.optional = true }
            return type
        case .parenthesized(let inner):
            return typeOf(inner, scope)
        case .rowValue(let first, _):
            _ = typeOf(first, scope)
            return .unknown("a row value")
        case .exists(let subquery):
            if let subquery { _ = select(subquery, scope) }
            return .of(.bool, optional: false)
        case .column(let parts):
            return columnReference(parts.map { tokens[$0].value }, scope)
        case .caseWhen(let base, let branches, let otherwise):
            return caseExpression(base, branches, otherwise, scope)
        case .cast(let operand, let typeName, _):
            return cast(operand, typeName, scope)
        case .function(let call):
            return function(call, scope)
        case .missing(let reason):
            return .unknown(reason)
        case .unread:
            return .unknown("'\(tokens[index].value)'")
        case .not, .binary, .prefix, .collate, .equality, .isTest, .nullTest, .match, .between, .inList, .inSelect, .inTable:
            return typeOf(expression, scope)
        }
    }

    mutating func columnReference(_ parts: [String], _ scope: Scope) -> ExprType {
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

    mutating func caseExpression(_ base: SQLExpression?, _ branches: [(condition: SQLExpression, value: SQLExpression)],
                                 _ otherwise: SQLExpression?, _ scope: Scope) -> ExprType {
        let base = base.map { typeOf($0, scope) }
        var values: [ExprType] = []
        var aggregate = base?.aggregate ?? false
        for branch in branches {
            let condition = typeOf(branch.condition, scope)
            if let base { inferEach(base, condition) }
            aggregate = aggregate || condition.aggregate
            values.append(typeOf(branch.value, scope))
        }
        if let otherwise { values.append(typeOf(otherwise, scope)) }
        var type = Self.common(values, typer: &self)
        if otherwise == nil { type.optional = true }
        type.aggregate = aggregate || values.contains { $0.aggregate }
        type.origin = nil
        return type
    }

    mutating func cast(_ operand: SQLExpression, _ typeName: String, _ scope: Scope) -> ExprType {
        let operand = typeOf(operand, scope)
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
