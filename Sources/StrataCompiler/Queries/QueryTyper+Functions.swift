import Strata

// Function calls: aggregates, window functions and the result types of SQLite's built-in functions.
extension QueryTyper {
    /// How a built-in function's result is typed from its arguments.
    enum FunctionRule {
        /// Always this type (`optional`: may be NULL whatever the arguments).
        case fixed(ColumnType, optional: Bool)
        /// This type, NULL when an argument that is not a parameter may be; `binds`: the first
        /// argument, when a parameter, is of that type.
        case ofArguments(ColumnType, binds: ColumnType?)
        /// `sum`, `min`, `max`: the argument's type (a sum of booleans is an integer); `min`/`max`
        /// of several arguments are scalar functions of their common type.
        case extremum
        /// An aggregate of this type, NULL over no rows unless grouped by a non-NULL value.
        case grouped(ColumnType)
        /// The first argument's type (`optional`: always optional).
        case firstArgument(optional: Bool)
        /// `coalesce`, `ifnull`: the common type, optional when every argument is.
        case coalesce
        /// `iif(c, a, b)`: the common type of `a` and `b`.
        case iif
        /// `abs`: the argument's numeric type.
        case abs
        /// `round`: a double, optional when an argument is.
        case round
    }

    /// SQLite's built-in functions whose result type the analysis knows (sqlite.org/lang_corefunc.html,
    /// lang_aggfunc.html, windowfunctions.html, lang_datefunc.html).
    static let functions: [String: FunctionRule] = {
        var table: [String: FunctionRule] = [:]
        func add(_ names: [String], _ rule: FunctionRule) { for name in names { table[name] = rule } }
        add(["COUNT", "ROW_NUMBER", "RANK", "DENSE_RANK", "NTILE", "RANDOM", "CHANGES", "LAST_INSERT_ROWID", "TOTAL_CHANGES"],
            .fixed(.int, optional: false))
        add(["TOTAL", "CUME_DIST", "PERCENT_RANK"], .fixed(.double, optional: false))
        add(["HEX", "QUOTE", "TYPEOF", "SQLITE_VERSION"], .fixed(.text, optional: false))
        add(["RANDOMBLOB", "ZEROBLOB"], .fixed(.blob, optional: false))
        add(["STRFTIME", "DATE", "TIME", "DATETIME"], .fixed(.text, optional: true))
        add(["JULIANDAY"], .fixed(.double, optional: true))
        add(["UNIXEPOCH"], .fixed(.int, optional: true))
        add(["SUM", "MIN", "MAX"], .extremum)
        add(["AVG"], .grouped(.double))
        add(["GROUP_CONCAT", "STRING_AGG"], .grouped(.text))
        add(["LAG", "LEAD", "NTH_VALUE", "NULLIF"], .firstArgument(optional: true))
        add(["FIRST_VALUE", "LAST_VALUE"], .firstArgument(optional: false))
        add(["COALESCE", "IFNULL"], .coalesce)
        add(["IIF"], .iif)
        add(["LOWER", "UPPER", "TRIM", "LTRIM", "RTRIM", "SUBSTR", "SUBSTRING", "REPLACE", "PRINTF", "FORMAT", "CHAR",
             "UNISTR", "SOUNDEX"], .ofArguments(.text, binds: .text))
        add(["LENGTH", "OCTET_LENGTH", "INSTR", "UNICODE"], .ofArguments(.int, binds: nil))
        add(["ABS"], .abs)
        add(["ROUND"], .round)
        return table
    }()

    /// Aggregate functions (outside a window, and `min`/`max` with one argument).
    static let aggregates: Set<String> = ["COUNT", "SUM", "TOTAL", "AVG", "MIN", "MAX", "GROUP_CONCAT", "STRING_AGG"]

    /// The type of a function call's tree: its arguments (and their `ORDER BY` terms) and
    /// `FILTER` condition typed in order, then the call by ``functions``.
    mutating func function(_ call: SQLExpression.Call, _ scope: Scope) -> ExprType {
        let function = call.function
        var arguments: [ExprType] = []
        for argument in call.arguments {
            arguments.append(typeOf(argument.value, scope))
            for term in argument.orderBy { _ = typeOf(term, scope) }
        }
        if let filter = call.filter { _ = typeOf(filter, scope) }
        let isWindow = call.window != nil
        var type = typeOfCall(function, arguments, star: call.star)
        type.origin = nil
        type.aggregate = Self.aggregates.contains(function) && !isWindow && !(["MIN", "MAX"].contains(function) && arguments.count > 1)
            || arguments.contains { $0.aggregate }
        return type
    }

    mutating func typeOfCall(_ function: String, _ arguments: [ExprType], star: Bool) -> ExprType {
        guard let rule = Self.functions[function] else {
            return .unknown("\(function.lowercased())(), whose result type is not known")
        }
        let first = arguments.first
        let unknownArgument = "\(function.lowercased())() of an unknown value"
        // NULL when an argument that is not a parameter may be.
        let nullableArgument = arguments.contains { ($0.optional || $0.isNull) && $0.parameter == nil }
        func grouped(_ base: ColumnType, owner: String? = nil) -> ExprType {
            .of(base, optional: !(groupByKnown && !(first?.optional ?? true)), owner: owner)
        }
        switch rule {
        case .fixed(let base, let optional):
            return .of(base, optional: optional)
        case .ofArguments(let base, let binds):
            if let binds {
                for argument in arguments.prefix(1) { use(argument.parameter, argument.parameterToken, as: .of(binds, optional: false)) }
            }
            return .of(base, optional: nullableArgument)
        case .extremum:
            if arguments.count > 1 && function != "SUM" {
                var type = Self.common(arguments, typer: &self)
                type.optional = arguments.contains { $0.optional || $0.isNull }
                return type
            }
            guard let first, let base = first.base else { return .unknown(first?.untyped ?? unknownArgument) }
            if function == "SUM" && !Self.isNumeric(base) { return .unknown("sum() of a value that is not a number") }
            var type = grouped(function == "SUM" && base == .bool ? .int : base, owner: first.owner)
            // min()/max() of a date column give one of its values, stored in its `dateFormat:`.
            if base == .date { type.dateFormat = first.dateFormat }
            return type
        case .grouped(let base):
            return grouped(base)
        case .firstArgument(let optional):
            guard let first, let base = first.base else { return .unknown(first?.untyped ?? unknownArgument) }
            var type = ExprType.of(base, optional: optional || first.optional, owner: first.owner)
            // A date keeps the format it is stored in (`dateFormat:`), or it reads wrong.
            if base == .date { type.dateFormat = first.dateFormat }
            return type
        case .coalesce:
            var type = Self.common(arguments, typer: &self)
            type.optional = !arguments.contains { !$0.optional && !$0.isNull }
            return type
        case .iif:
            var type = Self.common(Array(arguments.dropFirst()), typer: &self)
            if arguments.count < 3 { type.optional = true }
            return type
        case .abs:
            guard let first, Self.isNumeric(first.base) else { return .unknown("abs() of a value that is not a number") }
            return .of(first.base == .double ? .double : .int, optional: first.optional)
        case .round:
            return .of(.double, optional: arguments.contains { $0.optional || $0.isNull })
        }
    }
}
