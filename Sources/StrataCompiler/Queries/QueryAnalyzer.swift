import Strata

/// The query analysis stage: turns the top-level `queries:` of a validated ``Schema`` into
/// ``TypedQuery`` values, or diagnostics at the exact line and column of the offending token
/// inside each `sql:` scalar.
///
/// SQLite answers what it knows: each statement is prepared against the schema's DDL in an
/// in-memory database (errors and their offsets, result column names and origin columns,
/// parameter names, read-only or write). What SQLite does not say — nullability through outer
/// joins and the types of expressions — comes from ``QueryTyper``'s walk over the statement.
/// `strata check`, `strata generate` and the build plugin all run this stage through
/// ``SchemaLoader``.
///
/// ```swift
/// let (typed, diagnostics) = QueryAnalyzer.analyze(schema.queries, in: schema)
/// ```
package enum QueryAnalyzer {
    /// Types every query of `queries` against `schema`.
    /// The statements are prepared in `catalog`, the database the checks executed the schema's
    /// DDL in (a new one when it does not hold exactly that DDL).
    static func analyze(
        _ queries: [SQLQuery], in schema: Schema, catalog: ValidatedDatabase = ValidatedDatabase()
    ) -> (queries: [TypedQuery], diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let fileStart = SourceLocation(file: schema.sourcePath, line: 1, column: 1)
        let db: Database
        do {
            db = try SQLiteChecker.declaredDatabase(of: schema, catalog: catalog)
        } catch {
            return ([], [Diagnostic(at: fileStart, "cannot check the queries in SQLite: \(error)")])
        }
        diagnostics += checkNames(queries, in: schema)
        var typed: [TypedQuery] = []
        for query in queries {
            var analysis = Analysis(query: query, schema: schema)
            do {
                try db.writeWithoutTransaction { conn in analysis.run(conn) }
            } catch {
                analysis.error(at: 0, "cannot check the query in SQLite: \(error)")
            }
            diagnostics += analysis.diagnostics
            if let result = analysis.typed, analysis.diagnostics.isEmpty { typed.append(result) }
        }
        return (typed, diagnostics)
    }

    /// Query names that collide with something generated.
    static func checkNames(_ queries: [SQLQuery], in schema: Schema) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let fileStart = SourceLocation(file: schema.sourcePath, line: 1, column: 1)
        let structName = queriesTypeName(schema)
        let generatedTypes = Set(schema.tables.flatMap { [$0.recordName, SwiftNames.daoName($0.recordName)] } + [schema.name, structName + "SQL", structName + "Rows"])
        if let first = queries.first, generatedTypes.contains(structName) {
            diagnostics.append(Diagnostic(at: first.location ?? fileStart,
                                          "the queries type '\(structName)' (or its helpers '\(structName)SQL', '\(structName)Rows') has the name of a generated record or DAO",
                                          hint: "rename that table's record"))
        }
        var rowTypes: [String: String] = [:]
        var methods: Set<String> = []
        for query in queries {
            let location = query.location ?? fileStart
            if let problem = SwiftNames.queriesMethodProblem(query.name) {
                diagnostics.append(Diagnostic(at: location, "query '\(query.name)' cannot be a method of \(structName): \(problem)",
                                              hint: "rename the query"))
                continue
            }
            if let first = query.name.unicodeScalars.first, first.properties.isUppercase {
                diagnostics.append(Diagnostic(at: location, "query '\(query.name)' starts with an upper-case letter",
                                              hint: "name it in lowerCamelCase: a method named like a type would hide it inside '\(structName)'"))
                continue
            }
            if !methods.insert(query.name).inserted {
                diagnostics.append(Diagnostic(at: location, "query '\(query.name)' is declared twice"))
            }
            let rowType = rowTypeName(query.name)
            if let other = rowTypes[rowType], other != query.name {
                diagnostics.append(Diagnostic(at: location, "queries '\(other)' and '\(query.name)' both generate the row type '\(rowType)'",
                                              hint: "rename one of them"))
            }
            rowTypes[rowType] = rowTypes[rowType] ?? query.name
        }
        return diagnostics
    }

    /// `<Database>Queries`.
    static func queriesTypeName(_ schema: Schema) -> String { SwiftNames.queriesTypeName(schema.name) }

    /// `topArtists` → `TopArtistsRow`.
    static func rowTypeName(_ query: String) -> String { SwiftNames.rowTypeName(query) }
}

/// The analysis of one query.
private struct Analysis {
    let query: SQLQuery
    let schema: Schema
    var diagnostics: [Diagnostic] = []
    var typed: TypedQuery?
    let tokens: [SQLToken]

    init(query: SQLQuery, schema: Schema) {
        self.query = query
        self.schema = schema
        tokens = SQLTokenizer.expressionTokens(of: query.sql)
    }

    /// An error at a byte of the SQL: it quotes that one line of the file, with a caret.
    mutating func error(at offset: Int, _ message: String, hint: String? = nil) {
        let location = query.sqlSource.location(atUTF8Offset: offset)
        var diagnostic = Diagnostic(at: location, "query '\(query.name)': \(message)", hint: hint)
        diagnostic.sourceLine = query.sqlSource.sourceLine(location.line)
        diagnostics.append(diagnostic)
    }

    mutating func error(_ location: SourceLocation?, _ message: String, hint: String? = nil) {
        diagnostics.append(Diagnostic(at: location ?? query.sqlSource.start, "query '\(query.name)': \(message)", hint: hint))
    }

    /// The expression of `tokens` as written, on one line: whitespace runs become one space,
    /// and a long one is cut with `…`.
    func expressionText(_ range: Range<Int>) -> String {
        guard !range.isEmpty, range.upperBound <= tokens.count else { return "" }
        let bytes = Array(query.sql.utf8)[tokens[range.lowerBound].offsets.lowerBound..<tokens[range.upperBound - 1].offsets.upperBound]
        let text = String(decoding: bytes, as: UTF8.self)
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        let oneLine = words.joined(separator: " ")
        return oneLine.count > 60 ? String(oneLine.prefix(57)) + "…" : oneLine
    }

    mutating func run(_ conn: Connection) {
        // Parameters generated code cannot bind by name.
        for token in tokens where token.kind == .otherParameter {
            error(at: token.offsets.lowerBound, "'\(token.value)' is not a ':name' parameter",
                  hint: "name every parameter, for example :id")
        }
        if let first = tokens.first, !["SELECT", "WITH", "VALUES", "INSERT", "UPDATE", "DELETE", "REPLACE"].contains(first.upper) {
            error(at: first.offsets.lowerBound, "'\(first.value)' statements cannot be typed queries",
                  hint: "use SELECT, WITH … SELECT, INSERT, UPDATE, DELETE or REPLACE")
            return
        }
        let prepared: Statement
        let tailOffset: Int
        switch conn.prepareFirstStatementLocatingErrors(sql: query.sql) {
        case .failure(let failure):
            reportRejection(failure)
            return
        case .success(let (statement, tail)):
            prepared = statement
            tailOffset = tail
        }
        // One statement only: anything but `;` after it is a second one.
        var statementTokens = tokens
        if let extra = tokens.firstIndex(where: { $0.offsets.lowerBound >= tailOffset && $0.value != ";" }) {
            error(at: tokens[extra].offsets.lowerBound, "'sql' holds more than one statement", hint: "declare one query per statement")
            return
        }
        while let last = statementTokens.last, last.kind == .symbol, last.value == ";" { statementTokens.removeLast() }
        guard diagnostics.isEmpty else { return }

        var overrides: [String: SQLQuery.ParameterOverride] = [:]
        for override in query.parameterTypes { overrides[override.name] = overrides[override.name] ?? override }
        let facts = QueryTyper.type(statementTokens, schema: schema, parameterTypes: overrides)

        let parameters = typeParameters(prepared, facts: facts, overrides: overrides)
        let columns = facts.yieldsRows || prepared.columnCount > 0 ? typeColumns(prepared, facts: facts) : []
        guard diagnostics.isEmpty, let parameters, let columns else { return }

        let shape: TypedQuery.Shape
        if prepared.columnCount == 0 {
            shape = .changes
            if query.returns == .one {
                error(query.location, "'returns: one' needs rows, and this statement returns none", hint: "add RETURNING, or remove 'returns'")
                return
            }
        } else if columns.count == 1 {
            shape = .value
        } else if let record = recordShape(prepared, columns: columns, facts: facts) {
            shape = .record(record)
        } else {
            shape = .rows
        }
        var occurrences: [TypedQuery.Occurrence] = []
        for token in statementTokens {
            if case .parameter(let name) = token.kind, let index = parameters.firstIndex(where: { $0.name == name }) {
                occurrences.append(TypedQuery.Occurrence(range: token.offsets, parameter: index))
            }
        }
        // The statement without a trailing `;` or comment.
        let end = statementTokens.last?.offsets.upperBound ?? 0
        let sql = String(decoding: query.sql.utf8.prefix(end), as: UTF8.self)
        typed = TypedQuery(
            name: query.name, sql: sql, doc: query.doc, returns: query.returns, exactlyOneRow: facts.exactlyOneRow && prepared.columnCount > 0,
            columns: columns, parameters: parameters,
            shape: shape, isReadOnly: prepared.isReadOnly, occurrences: occurrences)
    }

    var firstTokenOffset: Int { tokens.first?.offsets.lowerBound ?? 0 }

    /// SQLite's refusal, at the token it is about; a double-quoted token that names no column
    /// is explained (SQLite's double-quoted strings are off in Strata).
    mutating func reportRejection(_ failure: Connection.PrepareFailure) {
        let message = failure.message
        let noColumn = "has no column named "
        if let range = message.range(of: noColumn) {
            // `INSERT INTO t (a, nme)`: at the column in the list, not at INSERT.
            let name = SQLName.fold(String(message[range.upperBound...]))
            let listStart = tokens.firstIndex { $0.kind == .symbol && $0.value == "(" } ?? 0
            let at = tokens[listStart...].first { ($0.kind == .word || $0.kind == .identifier) && SQLName.fold($0.value) == name }
            error(at: at?.offsets.lowerBound ?? firstTokenOffset, "SQLite rejects the statement: \(message)")
            return
        }
        let at = failure.offset ?? offset(named: message)
        if message.hasPrefix("no such column: ") {
            let name = String(message.dropFirst("no such column: ".count))
            let bytes = Array(query.sql.utf8)
            let quoted = tokens.filter { token in
                token.kind == .identifier && token.value == name && bytes.indices.contains(token.offsets.lowerBound)
                    && bytes[token.offsets.lowerBound] == UInt8(ascii: "\"")
            }
            if !name.contains("."), let token = quoted.first(where: { $0.offsets.lowerBound == failure.offset }) ?? quoted.first {
                let literal = "'" + name.replacingOccurrences(of: "'", with: "''") + "'"
                error(at: token.offsets.lowerBound,
                      "`\"\(name)\"` is an identifier here (SQLite's double-quoted strings are off in Strata); write \(literal) for a string")
                return
            }
        }
        error(at: at, "SQLite rejects the statement: \(message)")
    }

    /// Where the name an SQLite message ends with (`no such table: itme`) is written, for the
    /// messages that come without an offset; else the statement's start.
    func offset(named message: String) -> Int {
        guard let colon = message.lastIndex(of: ":") else { return firstTokenOffset }
        let tail = String(message[message.index(after: colon)...]).trimmingSpaces
        let parts = tail.split(separator: ".").map { SQLName.fold(String($0)) }
        let names = tokens.indices.filter { tokens[$0].kind == .word || tokens[$0].kind == .identifier }
        func matches(_ index: Int, _ part: String) -> Bool { SQLName.fold(tokens[index].value) == part }
        // A qualified name (`no such column: c.idd`): where `c . idd` is written, not the first `c`.
        if parts.count == 2 {
            for index in names where matches(index, parts[0]) && index + 2 < tokens.count
                && tokens[index + 1].kind == .symbol && tokens[index + 1].value == "."
                && (tokens[index + 2].kind == .word || tokens[index + 2].kind == .identifier) && matches(index + 2, parts[1]) {
                return tokens[index].offsets.lowerBound
            }
        }
        for part in parts.reversed() {
            if let index = names.first(where: { matches($0, part) }) { return tokens[index].offsets.lowerBound }
        }
        return firstTokenOffset
    }

    // MARK: - Parameters

    mutating func typeParameters(
        _ statement: Statement, facts: QueryTyper.Result, overrides: [String: SQLQuery.ParameterOverride]
    ) -> [TypedQuery.Parameter]? {
        var names: [String] = []
        for index in 0..<Int32(statement.parameterCount) {
            guard let name = statement.parameterName(at: index + 1), name.hasPrefix(":") else { return nil }
            names.append(String(name.dropFirst()))
        }
        for override in query.parameterTypes where !names.contains(override.name) {
            error(override.location, "'params' names '\(override.name)', which the statement does not use",
                  hint: Suggestion.hint(for: override.name, in: names) ?? (names.isEmpty ? "the statement has no parameters" : "its parameters: \(names.joined(separator: ", "))"))
        }
        var parameters: [TypedQuery.Parameter] = []
        var labels: [String: String] = [:]
        for name in names {
            let occurrences = tokens.indices.filter { tokens[$0].kind == .parameter(name) }
            let firstOffset = occurrences.first.map { tokens[$0].offsets.lowerBound } ?? firstTokenOffset
            // One rule for every name made from SQL: `:new_queue` → `newQueue:`, as result
            // columns' properties.
            let label = SwiftNames.lowerCamelCase(name)
            guard SwiftNames.isValidSwiftIdentifier(label) else {
                error(at: firstOffset, "parameter ':\(name)' is not a valid Swift identifier", hint: "it becomes the argument label")
                continue
            }
            if let other = labels[label] {
                error(at: firstOffset, "parameters ':\(other)' and ':\(name)' are both '\(label)' in Swift",
                      hint: "rename one of them: each parameter becomes an argument label")
                continue
            }
            labels[label] = name
            if let override = overrides[name] {
                if override.isList {
                    for index in occurrences where !isSoleInElement(index) {
                        error(at: tokens[index].offsets.lowerBound, "list parameter ':\(name)' is used outside 'IN (:\(name))'",
                              hint: "a list parameter must be the only element of IN ( … )")
                    }
                }
                parameters.append(TypedQuery.Parameter(
                    name: name, label: label, valueType: TypedQuery.ValueType(type: override.type, isOptional: override.isOptional),
                    isList: override.isList))
                continue
            }
            let uses = (facts.uses[name] ?? []).sorted { $0.token < $1.token }
            guard var first = uses.first else {
                error(at: firstOffset, "the type of parameter ':\(name)' cannot be inferred",
                      hint: "declare it: params: { \(name): int }")
                continue
            }
            // A number used both as Int and as Double is a Double.
            if uses.allSatisfy({ $0.base == .int || $0.base == .double }), uses.contains(where: { $0.base == .double }) {
                first = uses.first { $0.base == .double } ?? first
            } else if let conflict = uses.first(where: { !Self.sameType($0, first) }) {
                error(at: tokens[conflict.token].offsets.lowerBound,
                      "parameter ':\(name)' is used as \(Self.describe(first)) and as \(Self.describe(conflict))",
                      hint: "use two parameters, or declare its type in 'params:'")
                continue
            }
            var valueType = TypedQuery.ValueType(type: first.base, enumOwner: Self.hasOwner(first.base) ? first.owner : nil,
                                                 isOptional: uses.contains { $0.optional })
            if first.base == .date {
                if let other = uses.first(where: { $0.dateFormat != first.dateFormat }) {
                    error(at: tokens[other.token].offsets.lowerBound,
                          "parameter ':\(name)' is compared with dates stored as \(first.dateFormat?.rawValue ?? "iso8601") and as \(other.dateFormat?.rawValue ?? "iso8601")",
                          hint: "use two parameters")
                    continue
                }
                valueType.dateFormat = first.dateFormat
            }
            parameters.append(TypedQuery.Parameter(name: name, label: label, valueType: valueType, isList: false))
        }
        return parameters
    }

    static func sameType(_ a: QueryTyper.Use, _ b: QueryTyper.Use) -> Bool {
        a.base == b.base && (a.owner == b.owner || !Self.isEnum(a.base))
    }

    /// Whether a value of this type names types of its record: an enum, or json whose
    /// `swiftType` may use the record's enums.
    /// Whether a value of `type` is a Swift type its table names (an `enum` nested in the record,
    /// a `json` column's `swiftType`), so a query's value needs the table it came from.
    static func hasOwner(_ type: ColumnType) -> Bool {
        type.codec().declaredSwiftType != nil
    }

    static func isEnum(_ type: ColumnType) -> Bool {
        type.codec().nestedEnum != nil
    }

    static func describe(_ use: QueryTyper.Use) -> String {
        Column(name: "", type: use.base).swiftBaseType(in: Table(recordName: use.owner ?? ""))
    }

    /// `IN ( :ids )`: the token at `index` is the only element.
    func isSoleInElement(_ index: Int) -> Bool {
        guard index >= 2, index + 1 < tokens.count else { return false }
        return tokens[index - 1].value == "(" && tokens[index - 1].kind == .symbol
            && tokens[index - 2].kind == .word && tokens[index - 2].upper == "IN"
            && tokens[index + 1].value == ")" && tokens[index + 1].kind == .symbol
    }

    // MARK: - Result columns

    /// The result columns' names and types. A column is named by its alias, else by the name
    /// its expression gives itself (``QueryTyper/ResultColumn/derived``); any other unnamed
    /// expression needs `AS`, except as the only column (its value is the result).
    mutating func typeColumns(_ statement: Statement, facts: QueryTyper.Result) -> [TypedQuery.ResultColumn]? {
        let count = statement.columnCount
        let sqliteNames = (0..<Int32(count)).map { statement.columnName(at: $0) }
        let matched = facts.columns.count == count
        // The name of each column: alias, derived, or (single column) the expression itself.
        var names: [String] = []
        var unnamed: Set<Int> = []
        for index in 0..<count {
            guard matched else {
                names.append(sqliteNames[index])
                continue
            }
            let fact = facts.columns[index]
            if fact.alias != nil {
                names.append(sqliteNames[index])
            } else if let derived = fact.derived {
                names.append(derived)
            } else {
                names.append(count == 1 ? expressionText(fact.tokens) : sqliteNames[index])
                unnamed.insert(index)
            }
        }
        var overrides: [Int: SQLQuery.ColumnOverride] = [:]
        for override in query.columnTypes {
            if let index = names.firstIndex(of: override.name) ?? sqliteNames.firstIndex(of: override.name) {
                overrides[index] = override
            } else {
                error(override.location, "'columns' names '\(override.name)', which is not a result column",
                      hint: Suggestion.hint(for: override.name, in: names) ?? "the result columns: \(names.joined(separator: ", "))")
            }
        }
        var columns: [TypedQuery.ResultColumn] = []
        var seen: [String: Int] = [:]
        for index in 0..<count {
            let name = names[index]
            let fact = matched ? facts.columns[index] : nil
            let offset = fact.map { tokens[min($0.tokens.lowerBound, tokens.count - 1)].offsets.lowerBound } ?? firstTokenOffset
            let property: String
            if count == 1 {
                // The bare value: no property, whatever the expression.
                let camel = SwiftNames.lowerCamelCase(name)
                property = SwiftNames.isValidSwiftIdentifier(camel) ? camel : "value"
            } else if unnamed.contains(index), let fact {
                let expression = expressionText(fact.tokens)
                let suggestion = Self.uniqueSuggestion(QueryTyper(tokens: tokens, schema: schema, parameterTypes: [:]).suggestedName(fact.tokens), taken: Set(names.map(SwiftNames.lowerCamelCase)))
                error(at: offset, "result column `\(expression)` needs a name to be a property of the row",
                      hint: "add AS, for example `\(expression) AS \(suggestion)`")
                continue
            } else {
                property = SwiftNames.lowerCamelCase(name)
                guard SwiftNames.isValidSwiftIdentifier(property) else {
                    error(at: offset, "result column '\(name)' has no name that can be a Swift property", hint: "add AS name")
                    continue
                }
                if let problem = SwiftNames.propertyNameProblem(property) {
                    error(at: offset, "result column '\(name)' cannot be a row property: \(problem)",
                          hint: "add AS to give it another name")
                    continue
                }
                if let earlier = seen[property] {
                    let earlierName = names[earlier]
                    let what = earlierName == name ? "'\(name)'" : "'\(earlierName)' and '\(name)' (both '\(property)' in Swift)"
                    var message = "two result columns are named \(what)"
                    if let fact, let earlierFact = facts.columns.indices.contains(earlier) ? facts.columns[earlier] : nil,
                       fact.alias == nil || earlierFact.alias == nil {
                        let first = expressionText(earlierFact.tokens)
                        let second = expressionText(fact.tokens)
                        if first != second || first != name { message += ": `\(first)` and `\(second)`" }
                    }
                    error(at: offset, message, hint: "add AS to give one another name")
                    continue
                }
                seen[property] = index
            }
            let valueType: TypedQuery.ValueType
            if let override = overrides[index] {
                valueType = TypedQuery.ValueType(type: override.type, isOptional: override.isOptional)
            } else if let fact, let base = fact.type.base {
                var typed = TypedQuery.ValueType(type: base, enumOwner: Self.hasOwner(base) ? fact.type.owner : nil, isOptional: fact.type.optional)
                if base == .date { typed.dateFormat = fact.type.dateFormat }
                valueType = typed
            } else {
                let reason = fact?.type.untyped ?? "the analysis cannot follow this statement's result columns"
                let declared = SwiftNames.isValidSwiftIdentifier(name) ? name : "name"
                error(at: offset, "the type of result column '\(name)' cannot be inferred: \(fact?.type.isNull == true ? "it is always NULL" : reason)",
                      hint: declared == name ? "declare it: columns: { \(name): text }" : "name it with AS and declare it: columns: { name: text }")
                continue
            }
            columns.append(TypedQuery.ResultColumn(name: name, propertyName: property, valueType: valueType))
        }
        return diagnostics.isEmpty ? columns : nil
    }

    /// `name`, or `name2`, `name3` … when another result column already has it.
    static func uniqueSuggestion(_ name: String, taken: Set<String>) -> String {
        var used = taken
        return SwiftNames.unique(name, among: &used)
    }

    /// The record whose columns the result is, all of them in order, with their declared types.
    func recordShape(_ statement: Statement, columns: [TypedQuery.ResultColumn], facts: QueryTyper.Result) -> String? {
        guard facts.columns.count == columns.count else { return nil }
        var table: Table?
        for (index, column) in columns.enumerated() {
            let fact = facts.columns[index]
            let origin = fact.type.origin
                ?? statement.columnTableName(at: Int32(index)).flatMap { t in statement.columnOriginName(at: Int32(index)).map { (t, $0) } }
            guard let origin, query.columnTypes.allSatisfy({ $0.name != column.name }) else { return nil }
            if table == nil { table = schema.table(sqlNameLowercased: origin.0) }
            guard let table, table.sqlName.lowercased() == origin.0.lowercased(), index < table.columns.count else { return nil }
            let declared = table.columns[index]
            guard declared.sqlName.lowercased() == origin.1.lowercased(), declared.type == column.valueType.type,
                  declared.isOptional == column.valueType.isOptional else { return nil }
        }
        guard let table, table.columns.count == columns.count else { return nil }
        return table.recordName
    }
}
