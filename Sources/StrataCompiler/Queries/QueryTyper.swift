import Strata
/// The structural pass of the query analysis: a small walk over the tokenized statement that
/// decides what SQLite's metadata does not say — the type and nullability of each result
/// expression (outer joins, aggregates, CASE, COALESCE, CAST, arithmetic, subqueries, UNION,
/// window functions) and the type of each `:name` parameter from where it is used.
///
/// A pure function of the SQL text and the schema: ``QueryTyper/type(_:schema:parameterTypes:)``.
/// It never reports errors itself; what it cannot type comes back with a reason, and the
/// analyzer decides what is an error.
struct QueryTyper {
    /// One token, as the typer sees it.
    struct Token {
        enum Kind: Equatable {
            case word, identifier, string, number, blob, symbol
            /// `:name`.
            case parameter(String)
            /// `?`, `?1`, `@x`, `$x`.
            case otherParameter
        }
        var kind: Kind
        /// The token as written (for words, the spelling; identifiers unquoted).
        var text: String
        /// Upper-cased text of a bare word, for keyword tests.
        var upper: String
        /// UTF-8 byte range in the SQL.
        var range: Range<Int>
    }

    /// The type of an expression.
    struct ExprType {
        /// The base type; nil when unknown or a NULL literal.
        var base: ColumnType?
        /// The record declaring an enum base.
        var owner: String?
        var optional: Bool
        /// A `NULL` literal.
        var isNull = false
        /// Why the type is unknown.
        var untyped: String?
        /// A bare `:name` parameter (its type, if known from `params:`, is in `base`).
        var parameter: String?
        /// Token index of the parameter.
        var parameterToken: Int?
        /// Contains an aggregate function call.
        var aggregate = false
        /// The table column it reads directly: (table SQL name, column SQL name).
        var origin: (table: String, column: String)?
        /// The `dateFormat:` of the date column it reads, when not the default.
        var dateFormat: DateStorage?

        static func of(_ base: ColumnType, optional: Bool, owner: String? = nil) -> ExprType {
            ExprType(base: base, owner: owner, optional: optional)
        }
        static func unknown(_ reason: String) -> ExprType {
            ExprType(base: nil, optional: true, untyped: reason)
        }
        static var null: ExprType { ExprType(base: nil, optional: true, isNull: true) }
        var isKnown: Bool { base != nil }
    }

    /// A result column of a SELECT or RETURNING.
    struct ResultColumn {
        var type: ExprType
        /// Token range of the expression (without the alias).
        var tokens: Range<Int>
        /// The alias, or the column name for a column reference, when the typer can tell.
        var name: String?
        /// The `AS` alias (or bare alias) as written, when there is one.
        var alias: String?
        /// The name an unaliased expression gives itself: a column (`col`, `t.col`, `-col`,
        /// `CAST(col AS …)`) its SQL name, `count(*)` `count`, `sum(x)` `sumX` (Swift
        /// spelling); nil for any other expression.
        var derived: String?
    }

    /// A table, CTE or subquery in FROM.
    struct Source {
        /// The name it is qualified by (alias or table name), lower-cased.
        var alias: String
        /// Columns and their types (nil: unknown source, any column is untyped).
        var columns: [(name: String, type: ExprType)]?
        /// On the optional side of an outer join.
        var nullable: Bool
        /// Columns a USING or NATURAL join hides from `*`.
        var hiddenFromStar: Set<String> = []
    }

    final class Scope {
        var sources: [Source] = []
        var ctes: [String: [(name: String, type: ExprType)]] = [:]
        var hasGroupBy = false
        let parent: Scope?
        init(parent: Scope?) { self.parent = parent }

        func cte(_ name: String) -> [(name: String, type: ExprType)]? {
            ctes[name.lowercased()] ?? parent?.cte(name)
        }
    }

    /// How a parameter was used somewhere.
    struct Use {
        var base: ColumnType
        var owner: String?
        var optional: Bool
        var token: Int
        /// The date format of the column it is compared with (nil: the default text).
        var dateFormat: DateStorage? = nil
    }

    /// What the pass found.
    struct Result {
        /// The result columns (empty for a write without RETURNING).
        var columns: [ResultColumn] = []
        /// Whether the statement yields rows.
        var yieldsRows = true
        /// The uses of each parameter.
        var uses: [String: [Use]] = [:]
        /// A SELECT that yields exactly one row whatever the data: no FROM and no WHERE, or
        /// an outermost aggregate without GROUP BY, HAVING, or a LIMIT/OFFSET that could
        /// remove the row; one arm only.
        var exactlyOneRow = false
    }

    let tokens: [Token]
    let schema: Schema
    let parameterTypes: [String: SQLQuery.ParameterOverride]
    var position = 0
    var result = Result()

    // MARK: - Tokens

    /// The statement's tokens, from the project's SQL tokenizer (``SQLTokenizer/expressionTokens(of:)``).
    static func tokens(of sql: String) -> [Token] {
        func offset(_ index: String.Index) -> Int { sql.utf8.distance(from: sql.utf8.startIndex, to: index) }
        return SQLTokenizer.expressionTokens(of: sql).map { token in
            let range = offset(token.range.lowerBound)..<offset(token.range.upperBound)
            switch token.kind {
            case .word: return Token(kind: .word, text: token.text, upper: token.text.uppercased(), range: range)
            case .number: return Token(kind: .number, text: token.text, upper: token.text.uppercased(), range: range)
            case .identifier: return Token(kind: .identifier, text: token.value, upper: "", range: range)
            case .string: return Token(kind: .string, text: token.text, upper: "", range: range)
            case .blob: return Token(kind: .blob, text: token.text, upper: "", range: range)
            case .parameter(let name): return Token(kind: .parameter(name), text: token.text, upper: "", range: range)
            case .otherParameter: return Token(kind: .otherParameter, text: token.text, upper: "", range: range)
            case .symbol: return Token(kind: .symbol, text: token.text, upper: token.text, range: range)
            }
        }
    }

    // MARK: - Entry point

    /// Types the statement made of `tokens` (one statement, without a trailing `;`).
    static func type(_ tokens: [Token], schema: Schema, parameterTypes: [String: SQLQuery.ParameterOverride]) -> Result {
        var typer = QueryTyper(tokens: tokens, schema: schema, parameterTypes: parameterTypes)
        typer.statement()
        return typer.result
    }

    // MARK: - Helpers

    var current: Token? { position < tokens.count ? tokens[position] : nil }
    func peek(_ offset: Int = 0) -> Token? {
        let index = position + offset
        return index >= 0 && index < tokens.count ? tokens[index] : nil
    }
    func isKeyword(_ word: String, _ offset: Int = 0) -> Bool {
        guard let token = peek(offset) else { return false }
        return token.kind == .word && token.upper == word
    }
    func isSymbol(_ symbol: String, _ offset: Int = 0) -> Bool {
        guard let token = peek(offset) else { return false }
        return token.kind == .symbol && token.text == symbol
    }
    mutating func accept(_ word: String) -> Bool {
        if isKeyword(word) { position += 1; return true }
        return false
    }
    mutating func acceptSymbol(_ symbol: String) -> Bool {
        if isSymbol(symbol) { position += 1; return true }
        return false
    }
    /// A name: a bare word or a quoted identifier (also a string used as a name).
    mutating func name() -> String? {
        guard let token = current, token.kind == .word || token.kind == .identifier || token.kind == .string else { return nil }
        position += 1
        if token.kind == .string { return String(token.text.dropFirst().dropLast()) }
        return token.text
    }

    /// Skips to the end of a balanced group or to one of `stops` at depth 0.
    mutating func skip(until stops: Set<String>) {
        var depth = 0
        while let token = current {
            if token.kind == .symbol && token.text == "(" { depth += 1 }
            if token.kind == .symbol && token.text == ")" {
                if depth == 0 { return }
                depth -= 1
            }
            if depth == 0, token.kind == .word, stops.contains(token.upper) { return }
            if depth == 0, token.kind == .symbol, stops.contains(token.text) { return }
            position += 1
        }
    }

    mutating func use(_ parameter: String?, _ token: Int?, as type: ExprType, optional: Bool? = nil) {
        guard let parameter, let token, let base = type.base else { return }
        result.uses[parameter, default: []].append(
            Use(base: base, owner: type.owner, optional: optional ?? false, token: token, dateFormat: base == .date ? type.dateFormat : nil))
    }

    // MARK: - Statements

    mutating func statement() {
        let scope = Scope(parent: nil)
        if isKeyword("WITH") { with(scope) }
        if isKeyword("SELECT") || isKeyword("VALUES") {
            let selected = select(scope)
            result.columns = selected.columns
            result.exactlyOneRow = selected.alwaysOneRow
        } else if isKeyword("INSERT") || isKeyword("REPLACE") {
            insert(scope)
        } else if isKeyword("UPDATE") {
            update(scope)
        } else if isKeyword("DELETE") {
            delete(scope)
        } else {
            result.yieldsRows = false
        }
    }

    mutating func with(_ scope: Scope) {
        position += 1
        _ = accept("RECURSIVE")
        while let cteName = name() {
            var columnNames: [String]?
            if acceptSymbol("(") {
                var names: [String] = []
                while let column = name() {
                    names.append(column)
                    if !acceptSymbol(",") { break }
                }
                _ = acceptSymbol(")")
                columnNames = names
            }
            _ = accept("AS")
            _ = accept("NOT")
            _ = accept("MATERIALIZED")
            guard acceptSymbol("(") else { return }
            let key = cteName.lowercased()
            let body = select(Scope(parent: scope), named: { columns in
                // A recursive CTE refers to itself: its first arm gives its types.
                scope.ctes[key] = Self.rename(columns, columnNames)
            })
            scope.ctes[key] = Self.rename(body.columns, columnNames)
            _ = acceptSymbol(")")
            if !acceptSymbol(",") { break }
        }
    }

    static func rename(_ columns: [ResultColumn], _ names: [String]?) -> [(name: String, type: ExprType)] {
        columns.enumerated().map { index, column in
            let name = names.flatMap { index < $0.count ? $0[index] : nil } ?? column.name ?? "column\(index + 1)"
            return (name, column.type)
        }
    }

    struct Selected {
        var columns: [ResultColumn]
        /// One core, an aggregate without GROUP BY: always exactly one row.
        var alwaysOneRow: Bool
    }

    /// `SELECT … [UNION …] [ORDER BY …] [LIMIT …]` or `VALUES …`; stops before a closing `)`.
    mutating func select(_ scope: Scope, named firstArm: (([ResultColumn]) -> Void)? = nil) -> Selected {
        if isKeyword("WITH") { with(scope) }
        var arms: [[ResultColumn]] = []
        var alwaysOneRow = false
        while true {
            let (columns, oneRow) = core(scope)
            if arms.isEmpty {
                firstArm?(columns)
                alwaysOneRow = oneRow
            } else {
                alwaysOneRow = false
            }
            arms.append(columns)
            if accept("UNION") {
                _ = accept("ALL")
            } else if !(accept("INTERSECT") || accept("EXCEPT")) {
                break
            }
        }
        if accept("ORDER") {
            _ = accept("BY")
            skipTyped(scope, until: ["LIMIT"])
        }
        if accept("LIMIT") {
            // `LIMIT n` with a literal n ≥ 1 (and no offset, or `OFFSET 0`) keeps the one row.
            let limitKeepsRow = isPositiveLiteral(current)
                && (peek(1) == nil || isSymbol(")", 1) || isSymbol(",", 1) || isSymbol(";", 1) || isKeyword("OFFSET", 1))
            var offsetIsZero = true
            limitExpression(scope)
            if accept("OFFSET") || acceptSymbol(",") {
                offsetIsZero = current?.kind == .number && Int(current?.text ?? "") == 0
                limitExpression(scope)
            }
            if !(limitKeepsRow && offsetIsZero) { alwaysOneRow = false }
        }
        guard var columns = arms.first else { return Selected(columns: [], alwaysOneRow: false) }
        for arm in arms.dropFirst() {
            for index in columns.indices where index < arm.count {
                columns[index].type = Self.common([columns[index].type, arm[index].type], typer: &self)
                columns[index].type.origin = nil
            }
        }
        return Selected(columns: columns, alwaysOneRow: alwaysOneRow)
    }

    func isPositiveLiteral(_ token: Token?) -> Bool {
        guard let token, token.kind == .number, let value = Int(token.text) else { return false }
        return value >= 1
    }

    mutating func limitExpression(_ scope: Scope) {
        let start = position
        let type = expression(scope)
        if type.parameter != nil { use(type.parameter, type.parameterToken, as: .of(.int, optional: false)) }
        if position == start { position += 1 }
    }

    /// Types expressions separated by commas until a stop word, for their parameters.
    mutating func skipTyped(_ scope: Scope, until stops: Set<String>) {
        while let token = current {
            if token.kind == .symbol && token.text == ")" { return }
            if token.kind == .word, stops.contains(token.upper) || Self.clauseWords.contains(token.upper) { return }
            let start = position
            _ = expression(scope)
            if position == start { position += 1 }
        }
    }

    static let clauseWords: Set<String> = [
        "FROM", "WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT", "UNION", "INTERSECT", "EXCEPT", "RETURNING",
        "ON", "USING", "JOIN", "SET", "VALUES", "OFFSET",
    ]

    /// One `SELECT` core or `VALUES` list.
    mutating func core(_ outer: Scope) -> ([ResultColumn], Bool) {
        let scope = Scope(parent: outer)
        if accept("VALUES") {
            var rows: [[ResultColumn]] = []
            while acceptSymbol("(") {
                var row: [ResultColumn] = []
                repeat {
                    let start = position
                    let type = expression(scope)
                    let name = "column\(row.count + 1)"
                    row.append(ResultColumn(type: type, tokens: start..<position, name: name, derived: name))
                } while acceptSymbol(",")
                _ = acceptSymbol(")")
                rows.append(row)
                if !acceptSymbol(",") { break }
            }
            guard var columns = rows.first else { return ([], false) }
            for row in rows.dropFirst() {
                for index in columns.indices where index < row.count {
                    columns[index].type = Self.common([columns[index].type, row[index].type], typer: &self)
                }
            }
            return (columns, rows.count == 1)
        }
        guard accept("SELECT") else { return ([], false) }
        _ = accept("DISTINCT") || accept("ALL")
        // The result list is typed after FROM is known.
        let listStart = position
        skip(until: Self.clauseWords)
        let listEnd = position
        let hasFrom = accept("FROM")
        if hasFrom { from(scope) }
        let hasWhere = isKeyword("WHERE")
        if accept("WHERE") {
            let start = position
            _ = expression(scope)
            if position == start { skip(until: Self.clauseWords) }
        }
        if accept("GROUP") {
            _ = accept("BY")
            scope.hasGroupBy = true
            skipTyped(scope, until: ["HAVING"])
        }
        let hasHaving = accept("HAVING")
        if hasHaving { _ = expression(scope) }
        if accept("WINDOW") { skip(until: ["ORDER", "LIMIT", "UNION", "INTERSECT", "EXCEPT"]) }
        let after = position
        position = listStart
        var columns: [ResultColumn] = []
        var aggregate = false
        let outerGroupBy = groupByKnown
        groupByKnown = scope.hasGroupBy
        for element in elements(listStart..<listEnd) {
            columns += resultColumns(element, scope, aggregate: &aggregate)
        }
        groupByKnown = outerGroupBy
        position = after
        // An aggregate without GROUP BY gives one row even when WHERE matches none; HAVING
        // may remove it. Without FROM, only WHERE can.
        let oneRow = !scope.hasGroupBy && !hasHaving && (aggregate || !hasFrom && !hasWhere)
        return (columns, oneRow)
    }

    /// The comma-separated ranges of `range` at depth 0.
    func elements(_ range: Range<Int>) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var depth = 0
        var start = range.lowerBound
        for index in range {
            let token = tokens[index]
            guard token.kind == .symbol else { continue }
            if token.text == "(" { depth += 1 }
            if token.text == ")" { depth -= 1 }
            if token.text == ",", depth == 0 {
                parts.append(start..<index)
                start = index + 1
            }
        }
        if start < range.upperBound { parts.append(start..<range.upperBound) }
        return parts
    }

    /// One element of a result list: `*`, `t.*` or `expr [[AS] alias]`.
    mutating func resultColumns(_ range: Range<Int>, _ scope: Scope, aggregate: inout Bool) -> [ResultColumn] {
        guard !range.isEmpty else { return [] }
        let first = tokens[range.lowerBound]
        if range.count == 1, first.kind == .symbol, first.text == "*" {
            return scope.sources.flatMap { star($0, range) }
        }
        if range.count == 3, tokens[range.lowerBound + 1].text == ".", tokens[range.lowerBound + 2].text == "*" {
            let alias = first.text.lowercased()
            return scope.sources.filter { $0.alias == alias }.flatMap { star($0, range) }
        }
        var end = range.upperBound
        var alias: String?
        if range.count >= 2 {
            let last = tokens[end - 1]
            let before = tokens[end - 2]
            if last.kind == .word || last.kind == .identifier || last.kind == .string {
                if before.kind == .word && before.upper == "AS" {
                    alias = last.kind == .string ? String(last.text.dropFirst().dropLast()) : last.text
                    end -= 2
                } else if last.kind != .string, before.kind != .symbol || before.text == ")",
                          !(before.kind == .word && Self.operatorWords.contains(before.upper)),
                          !(last.kind == .word && Self.trailingWords.contains(last.upper)) {
                    alias = last.text
                    end -= 1
                }
            }
        }
        position = range.lowerBound
        var type = expression(scope)
        if position != end {
            type = .unknown("an expression the analysis does not follow")
        }
        aggregate = aggregate || type.aggregate
        var name = alias
        if name == nil, type.origin != nil, tokens[end - 1].kind == .word || tokens[end - 1].kind == .identifier {
            name = tokens[end - 1].text
        }
        let derived = alias == nil ? derivedName(range.lowerBound..<end) : nil
        return [ResultColumn(type: type, tokens: range.lowerBound..<end, name: name, alias: alias, derived: derived)]
    }

    /// `col`, `t.col`, `main.t.col`: the column's name.
    func columnName(_ range: Range<Int>) -> String? {
        guard [1, 3, 5].contains(range.count) else { return nil }
        for (offset, index) in range.enumerated() {
            let token = tokens[index]
            if offset % 2 == 1 {
                guard token.kind == .symbol, token.text == "." else { return nil }
            } else {
                guard token.kind == .identifier || token.kind == .word && !Self.nonColumnWords.contains(token.upper) else { return nil }
            }
        }
        return tokens[range.upperBound - 1].text
    }

    static let nonColumnWords: Set<String> = operatorWords.union(trailingWords).union(clauseWords).union(["CAST", "NOT"])

    /// The name an unaliased result expression gives itself (see ``ResultColumn/derived``).
    func derivedName(_ range: Range<Int>) -> String? {
        guard !range.isEmpty else { return nil }
        if let column = columnName(range) { return column }
        let first = tokens[range.lowerBound]
        if first.kind == .symbol, first.text == "-" || first.text == "+" {
            return columnName(range.lowerBound + 1..<range.upperBound)
        }
        guard first.kind == .word, range.count >= 3, tokens[range.lowerBound + 1].kind == .symbol,
              tokens[range.lowerBound + 1].text == "(", tokens[range.upperBound - 1].kind == .symbol,
              tokens[range.upperBound - 1].text == ")" else { return nil }
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
        if first.upper == "COUNT", inner.isEmpty || inner.count == 1 && tokens[inner.lowerBound].kind == .symbol && tokens[inner.lowerBound].text == "*" {
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
                if index + 1 < range.upperBound, tokens[index + 1].kind == .symbol, tokens[index + 1].text == "(" || tokens[index + 1].text == "." {
                    continue
                }
                if index > range.lowerBound, tokens[index - 1].kind == .word, tokens[index - 1].upper == "AS" { continue }
                let name = SwiftNames.lowerCamelCase(token.text)
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
                let table = SwiftNames.upperCamelCase(tokens[from + 1].text)
                if SwiftNames.isValidSwiftIdentifier(table) { return (negated ? "hasNo" : "has") + table }
            }
            return negated ? "isMissing" : "exists"
        }
        if first.kind == .word, range.count > 2, tokens[range.lowerBound + 1].text == "(" {
            let function = SwiftNames.lowerCamelCase(first.text.lowercased())
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

    func star(_ source: Source, _ range: Range<Int>) -> [ResultColumn] {
        guard let columns = source.columns else {
            return [ResultColumn(type: .unknown("the columns of '\(source.alias)' are not known"), tokens: range, name: nil)]
        }
        return columns.filter { !source.hiddenFromStar.contains($0.name.lowercased()) }.map { column in
            var type = column.type
            if source.nullable { type.optional = true }
            return ResultColumn(type: type, tokens: range, name: column.name, derived: column.name)
        }
    }

    // MARK: - FROM

    mutating func from(_ scope: Scope) {
        var pendingNullable = false
        var natural = false
        while current != nil {
            var source = tableOrSubquery(scope)
            source.nullable = source.nullable || pendingNullable
            if natural, let columns = source.columns {
                let existing = Set(scope.sources.flatMap { $0.columns ?? [] }.map { $0.name.lowercased() })
                source.hiddenFromStar = Set(columns.map { $0.name.lowercased() }).intersection(existing)
            }
            scope.sources.append(source)
            if accept("ON") {
                _ = expression(scope)
            } else if accept("USING") {
                if acceptSymbol("(") {
                    var names: Set<String> = []
                    while let column = name() {
                        names.insert(column.lowercased())
                        if !acceptSymbol(",") { break }
                    }
                    _ = acceptSymbol(")")
                    scope.sources[scope.sources.count - 1].hiddenFromStar.formUnion(names)
                }
            }
            // The next join operator.
            pendingNullable = false
            natural = false
            if acceptSymbol(",") { continue }
            natural = accept("NATURAL")
            if accept("LEFT") {
                _ = accept("OUTER")
                pendingNullable = true
            } else if accept("RIGHT") {
                _ = accept("OUTER")
                for index in scope.sources.indices { scope.sources[index].nullable = true }
            } else if accept("FULL") {
                _ = accept("OUTER")
                for index in scope.sources.indices { scope.sources[index].nullable = true }
                pendingNullable = true
            } else {
                _ = accept("INNER") || accept("CROSS")
            }
            if !accept("JOIN") { return }
        }
    }

    mutating func tableOrSubquery(_ scope: Scope) -> Source {
        var source = Source(alias: "", columns: nil, nullable: false)
        if acceptSymbol("(") {
            if isKeyword("SELECT") || isKeyword("WITH") || isKeyword("VALUES") {
                let selected = select(Scope(parent: scope))
                source.columns = Self.rename(selected.columns, nil)
                _ = acceptSymbol(")")
            } else {
                // A parenthesized join: its tables join this scope.
                let inner = Scope(parent: scope)
                from(inner)
                _ = acceptSymbol(")")
                scope.sources += inner.sources.dropLast()
                if let last = inner.sources.last { source = last }
            }
        } else if let tableName = name() {
            var resolved = tableName
            if acceptSymbol("."), let second = name() { resolved = second }
            source.alias = resolved.lowercased()
            if acceptSymbol("(") {
                // A table-valued function: its columns are not known.
                skip(until: [])
                _ = acceptSymbol(")")
            } else if let cte = scope.cte(resolved) {
                source.columns = cte
            } else if let table = schema.tables.first(where: { $0.sqlName.lowercased() == resolved.lowercased() }) {
                source.columns = table.columns.map { column in
                    (column.sqlName, ExprType(base: column.type, owner: table.recordName, optional: column.isOptional,
                                              origin: (table.sqlName, column.sqlName), dateFormat: column.dateFormat))
                }
            }
        }
        if accept("AS") {
            if let alias = name() { source.alias = alias.lowercased() }
        } else if let token = current, token.kind == .word || token.kind == .identifier,
                  token.kind == .identifier || !Self.joinWords.contains(token.upper) {
            position += 1
            source.alias = token.text.lowercased()
        }
        if accept("INDEXED") {
            _ = accept("BY")
            _ = name()
        } else if isKeyword("NOT") && isKeyword("INDEXED", 1) {
            position += 2
        }
        return source
    }

    static let joinWords: Set<String> = clauseWords.union([
        "NATURAL", "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "OUTER", "INDEXED", "NOT", "RETURNING",
    ])

    // MARK: - Writes

    /// The target of INSERT/UPDATE/DELETE as a source, with its record.
    mutating func target(_ scope: Scope) -> Table? {
        guard var tableName = name() else { return nil }
        if acceptSymbol("."), let second = name() { tableName = second }
        let table = schema.tables.first { $0.sqlName.lowercased() == tableName.lowercased() }
        var alias = tableName.lowercased()
        if accept("AS"), let given = name() { alias = given.lowercased() }
        scope.sources.append(Source(alias: alias, columns: table.map(Self.columns(of:)), nullable: false))
        return table
    }

    static func columns(of table: Table) -> [(name: String, type: ExprType)] {
        table.columns.map { column in
            (column.sqlName, ExprType(base: column.type, owner: table.recordName, optional: column.isOptional,
                                      origin: (table.sqlName, column.sqlName), dateFormat: column.dateFormat))
        }
    }

    mutating func insert(_ scope: Scope) {
        position += 1
        if accept("OR") { position += 1 }
        _ = accept("INTO")
        let table = target(scope)
        var targetColumns: [Column] = table?.columns ?? []
        if acceptSymbol("(") {
            var listed: [Column] = []
            while let column = name() {
                if let found = table?.columns.first(where: { $0.sqlName.lowercased() == column.lowercased() }) {
                    listed.append(found)
                }
                if !acceptSymbol(",") { break }
            }
            _ = acceptSymbol(")")
            targetColumns = listed
        }
        if accept("VALUES") {
            while acceptSymbol("(") {
                var index = 0
                repeat {
                    let type = expression(scope)
                    if index < targetColumns.count, let table {
                        let column = targetColumns[index]
                        use(type.parameter, type.parameterToken,
                            as: .of(column.type, optional: column.isOptional, owner: table.recordName), optional: column.isOptional)
                    }
                    index += 1
                } while acceptSymbol(",")
                _ = acceptSymbol(")")
                if !acceptSymbol(",") { break }
            }
        } else if accept("DEFAULT") {
            _ = accept("VALUES")
        } else if isKeyword("SELECT") || isKeyword("WITH") {
            _ = select(Scope(parent: scope))
        }
        while accept("ON") {
            _ = accept("CONFLICT")
            if acceptSymbol("(") {
                skip(until: [])
                _ = acceptSymbol(")")
            }
            if accept("WHERE") { _ = expression(scope) }
            _ = accept("DO")
            if accept("UPDATE") {
                _ = accept("SET")
                var excluded = scope.sources.last ?? Source(alias: "excluded", columns: nil, nullable: false)
                excluded.alias = "excluded"
                scope.sources.append(excluded)
                assignments(scope, table: table)
                if accept("WHERE") { _ = expression(scope) }
            } else {
                _ = accept("NOTHING")
            }
        }
        returning(scope)
    }

    mutating func update(_ scope: Scope) {
        position += 1
        if accept("OR") { position += 1 }
        let table = target(scope)
        if accept("INDEXED") {
            _ = accept("BY")
            _ = name()
        }
        _ = accept("SET")
        assignments(scope, table: table)
        if accept("FROM") { from(scope) }
        if accept("WHERE") { _ = expression(scope) }
        returning(scope)
    }

    mutating func delete(_ scope: Scope) {
        position += 1
        _ = accept("FROM")
        _ = target(scope)
        if accept("WHERE") { _ = expression(scope) }
        returning(scope)
    }

    /// `col = expr, …` and `(a, b) = (x, y)` of UPDATE and DO UPDATE.
    mutating func assignments(_ scope: Scope, table: Table?) {
        repeat {
            var names: [String] = []
            if acceptSymbol("(") {
                while let column = name() {
                    names.append(column)
                    if !acceptSymbol(",") { break }
                }
                _ = acceptSymbol(")")
            } else if let column = name() {
                names = [column]
            } else {
                return
            }
            _ = acceptSymbol("=")
            var values: [ExprType] = []
            if names.count > 1, isSymbol("("), !(isKeyword("SELECT", 1) || isKeyword("VALUES", 1) || isKeyword("WITH", 1)) {
                position += 1
                repeat { values.append(expression(scope)) } while acceptSymbol(",")
                _ = acceptSymbol(")")
            } else {
                values = [expression(scope)]
            }
            guard let table, names.count == values.count else { continue }
            for (columnName, type) in zip(names, values) {
                guard let column = table.columns.first(where: { $0.sqlName.lowercased() == columnName.lowercased() }) else { continue }
                use(type.parameter, type.parameterToken,
                    as: .of(column.type, optional: column.isOptional, owner: table.recordName), optional: column.isOptional)
            }
        } while acceptSymbol(",")
    }

    mutating func returning(_ scope: Scope) {
        guard accept("RETURNING") else {
            result.yieldsRows = false
            return
        }
        let start = position
        skip(until: [])
        var aggregate = false
        var columns: [ResultColumn] = []
        let end = position
        for element in elements(start..<end) { columns += resultColumns(element, scope, aggregate: &aggregate) }
        position = end
        result.columns = columns
    }

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
            var type = ExprType.of(base, optional: first.optional, owner: first.owner)
            // A date keeps the format it is stored in (`dateFormat:`), or it reads wrong.
            if base == .date { type.dateFormat = first.dateFormat }
            return type
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
            var type = grouped(function == "SUM" && base == .bool ? .int : base, owner: first.owner)
            // min()/max() of a date column give one of its values, stored in its `dateFormat:`.
            if base == .date { type.dateFormat = first.dateFormat }
            return type
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

    /// Set while typing a core's result list: whether that core has GROUP BY.
    var groupByKnown = false

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
