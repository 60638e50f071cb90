import Strata

// Function calls: aggregates, window functions and the result types of SQLite's built-in functions.
extension QueryTyper {
    static let aggregates: Set<String> = ["COUNT", "SUM", "TOTAL", "AVG", "MIN", "MAX", "GROUP_CONCAT", "STRING_AGG"]

    mutating func function(_ scope: Scope) -> ExprType {
        guard let nameToken = current else { return .unknown("a function") }
        let function = nameToken.upper
        position += 2
        var arguments: [ExprType] = []
        var star = false
        _ = accept("DISTINCT")
        if acceptSymbol("*") { star = true }
        while current != nil, !isSymbol(")") {
            let start = position
            arguments.append(expression(scope))
            if accept("ORDER") {
                _ = accept("BY")
                skipTyped(scope, until: [])
            }
            if position == start { position += 1 }
            if !acceptSymbol(",") { break }
        }
        _ = acceptSymbol(")")
        if accept("FILTER") {
            if acceptSymbol("(") {
                _ = accept("WHERE")
                _ = expression(scope)
                _ = acceptSymbol(")")
            }
        }
        var isWindow = false
        if accept("OVER") {
            isWindow = true
            if acceptSymbol("(") {
                skip(until: [])
                _ = acceptSymbol(")")
            } else {
                _ = name()
            }
        }
        var type = typeOfCall(function, arguments, star: star)
        type.origin = nil
        type.aggregate = Self.aggregates.contains(function) && !isWindow && !(["MIN", "MAX"].contains(function) && arguments.count > 1)
            || arguments.contains { $0.aggregate }
        return type
    }

    mutating func typeOfCall(_ function: String, _ arguments: [ExprType], star: Bool) -> ExprType {
        let first = arguments.first
        let anyOptional = arguments.contains { $0.optional || $0.isNull }
        func grouped(_ base: ColumnType, owner: String? = nil) -> ExprType {
            .of(base, optional: !(groupByKnown && !(first?.optional ?? true)), owner: owner)
        }
        func argumentType(_ fallback: String) -> ExprType {
            guard let first, let base = first.base else { return .unknown(first?.untyped ?? fallback) }
            return .of(base, optional: first.optional, owner: first.owner)
        }
        switch function {
        case "COUNT":
            return .of(.int, optional: false)
        case "TOTAL":
            return .of(.double, optional: false)
        case "ROW_NUMBER", "RANK", "DENSE_RANK", "NTILE":
            return .of(.int, optional: false)
        case "CUME_DIST", "PERCENT_RANK":
            return .of(.double, optional: false)
        case "SUM", "MIN", "MAX":
            if arguments.count > 1 && function != "SUM" {
                var type = Self.common(arguments, typer: &self)
                type.optional = anyOptional
                return type
            }
            guard let first, let base = first.base else { return .unknown(first?.untyped ?? "\(function.lowercased())() of an unknown value") }
            if function == "SUM" && !Self.isNumeric(base) { return .unknown("sum() of a value that is not a number") }
            return grouped(function == "SUM" && base == .bool ? .int : base, owner: first.owner)
        case "AVG":
            return grouped(.double)
        case "GROUP_CONCAT", "STRING_AGG":
            return grouped(.text)
        case "LAG", "LEAD", "NTH_VALUE":
            var type = argumentType("\(function.lowercased())() of an unknown value")
            type.optional = true
            return type
        case "FIRST_VALUE", "LAST_VALUE":
            return argumentType("\(function.lowercased())() of an unknown value")
        case "COALESCE", "IFNULL":
            var type = Self.common(arguments, typer: &self)
            type.optional = !arguments.contains { !$0.optional && !$0.isNull }
            return type
        case "NULLIF":
            var type = argumentType("nullif() of an unknown value")
            type.optional = true
            return type
        case "IIF":
            var type = Self.common(Array(arguments.dropFirst()), typer: &self)
            if arguments.count < 3 { type.optional = true }
            return type
        case "LOWER", "UPPER", "TRIM", "LTRIM", "RTRIM", "SUBSTR", "SUBSTRING", "REPLACE", "PRINTF", "FORMAT", "CHAR",
             "UNISTR", "SOUNDEX":
            for argument in arguments.prefix(1) { use(argument.parameter, argument.parameterToken, as: .of(.text, optional: false)) }
            return .of(.text, optional: arguments.contains { ($0.optional || $0.isNull) && $0.parameter == nil })
        case "HEX", "QUOTE", "TYPEOF", "SQLITE_VERSION":
            return .of(.text, optional: false)
        case "STRFTIME", "DATE", "TIME", "DATETIME":
            return .of(.text, optional: true)
        case "JULIANDAY":
            return .of(.double, optional: true)
        case "UNIXEPOCH":
            return .of(.int, optional: true)
        case "LENGTH", "OCTET_LENGTH", "INSTR", "UNICODE":
            return .of(.int, optional: arguments.contains { ($0.optional || $0.isNull) && $0.parameter == nil })
        case "ABS":
            guard let first, Self.isNumeric(first.base) else { return .unknown("abs() of a value that is not a number") }
            return .of(first.base == .double ? .double : .int, optional: first.optional)
        case "ROUND":
            return .of(.double, optional: anyOptional)
        case "RANDOM", "CHANGES", "LAST_INSERT_ROWID", "TOTAL_CHANGES":
            return .of(.int, optional: false)
        case "RANDOMBLOB", "ZEROBLOB":
            return .of(.blob, optional: false)
        default:
            return .unknown("\(function.lowercased())(), whose result type is not known")
        }
    }
}
