import Foundation
import Strata

/// A top-level query as `<Database>PostgresQueries` runs it: the SQLite-typed query (its
/// method name, argument labels and row type, which both dialects share) with the statement
/// `strata-postgres prepare` checked on a real server and wrote to `<Name>.prepared.json`.
package struct PostgresTypedQuery: Hashable, Sendable {
    /// The query as the SQLite analysis typed it: the method's name, parameters and rows.
    package var query: TypedQuery
    /// The statement PostgreSQL runs, `$1`, `$2` … in place of the `:name` parameters.
    package var sql: String
    /// For each `$n` in order, the index of its parameter in ``TypedQuery/parameters``.
    package var bindings: [Int]
    /// For each `$n` in order, its PostgreSQL type by `pg_type.typname` (`int8`, `_text` …).
    package var parameterTypes: [String]
    /// The PostgreSQL type of each result column, by `pg_type.typname`.
    package var columnTypes: [String]
}

/// The Check stage's PostgreSQL half of the typed queries (`dialects: [sqlite, postgres]`):
/// reads `<Name>.prepared.json` beside the schema (no server during a build) and reconciles
/// each entry with the query as SQLite typed it.
///
/// - The file is missing, has no entry for a query, the entry was written from another
///   declaration (``PreparedQueries/sourceFingerprint(of:)``) or against other PostgreSQL
///   migrations: an error at the query's line naming `strata-postgres prepare` and why.
/// - A malformed file or one of another format version: an error at the file.
/// - Every result column must have the same Swift type on both: PostgreSQL's type maps to the
///   schema type SQLite inferred (`int2`/`int4`/`int8` → `int`, `float4`/`float8` → `double`,
///   `text`/`varchar` → `text` or an enum …); `numeric` (PostgreSQL's `AVG`, `SUM` of
///   `bigint`, a decimal literal) is never read as a double or an int: the build fails with
///   both types and the cast that reconciles them. One row type, never two.
/// - Nullability: a column SQLite proves non-null that PostgreSQL reports nullable is an
///   error (declare it optional in `columns:` or use `coalesce`); a column optional on SQLite
///   and non-null on PostgreSQL is read as optional. A NULL is never read as a value.
/// - Parameters: the same names as the SQLite statement, each of a PostgreSQL type that fits
///   the Swift type the method takes (a list parameter is an array `_x`, bound as one value).
enum PostgresQueryCheck {
    /// The command that writes the file, for hints.
    static func command(_ schemaPath: String) -> String {
        "strata-postgres prepare \(schemaPath) --url postgres://…"
    }

    /// Reconciles `typed` (the SQLite analysis of `schema.queries`) with the prepared file
    /// beside the schema.
    static func check(_ typed: [TypedQuery], in schema: Schema) -> (queries: [PostgresTypedQuery], diagnostics: [Diagnostic]) {
        let schemaPath = schema.sourcePath
        let path = PreparedQueries.path(forSchemaPath: schemaPath)
        let fileStart = SourceLocation(file: path, line: 1, column: 1)
        let command = command(schemaPath)
        let declared = Dictionary(schema.queries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func location(_ name: String) -> SourceLocation {
            declared[name]?.location ?? SourceLocation(file: schemaPath, line: 1, column: 1)
        }
        guard let bytes = FileReader.read(path) else {
            let diagnostics = typed.map { query in
                Diagnostic(
                    at: location(query.name),
                    "query '\(query.name)' has never been prepared for PostgreSQL: \(path) does not exist",
                    hint: "run `\(command)` against a PostgreSQL server and commit \((path as NSString).lastPathComponent) beside the schema")
            }
            return ([], diagnostics)
        }
        let file: PreparedQueries
        do {
            file = try PreparedQueries.decode(String(decoding: bytes, as: UTF8.self))
        } catch {
            return ([], [Diagnostic(at: fileStart, "cannot read the prepared PostgreSQL queries: \(describe(error))",
                                    hint: "write it again with `\(command)`; do not edit it by hand")])
        }
        guard file.formatVersion == PreparedQueries.currentFormatVersion else {
            return ([], [Diagnostic(at: fileStart,
                                    "the prepared PostgreSQL queries are in format \(file.formatVersion), this Strata reads format \(PreparedQueries.currentFormatVersion)",
                                    hint: "write it again with `\(command)` using this version of Strata")])
        }
        let migrations = (try? PostgresMigrations.load(schemaPath: schemaPath)) ?? []
        let migrationsChanged = file.migrationsFingerprint != PreparedQueries.migrationsFingerprint(migrations)
        var result: [PostgresTypedQuery] = []
        var diagnostics: [Diagnostic] = []
        for query in typed {
            guard let declaration = declared[query.name] else { continue }
            let at = location(query.name)
            guard let entry = file.query(named: query.name) else {
                diagnostics.append(Diagnostic(at: at, "query '\(query.name)' has never been prepared for PostgreSQL: \(path) has no entry for it",
                                              hint: "run `\(command)` and commit the file"))
                continue
            }
            if entry.sourceFingerprint != PreparedQueries.sourceFingerprint(of: declaration) {
                diagnostics.append(Diagnostic(at: at, "query '\(query.name)' changed since it was prepared for PostgreSQL (\(path) is stale)",
                                              hint: "run `\(command)` again and commit the file"))
                continue
            }
            if migrationsChanged {
                diagnostics.append(Diagnostic(at: at, "the PostgreSQL migrations changed since query '\(query.name)' was prepared (\(path) is stale)",
                                              hint: "run `\(command)` again, so the query is checked against the schema the migrations build"))
                continue
            }
            var reconciler = Reconciler(query: query, declaration: declaration, entry: entry, location: at)
            if let reconciled = reconciler.run() { result.append(reconciled) }
            diagnostics += reconciler.diagnostics
        }
        return (result, diagnostics)
    }

    /// A decoding error as one line.
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.keyNotFound(let key, _): return "key '\(key.stringValue)' is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "\(path.isEmpty ? "" : path + ": ")\(context.debugDescription)"
        default: return "\(error)"
        }
    }

    // MARK: - Types

    /// The PostgreSQL types (`pg_type.typname`) a value of `type` is read from or bound as.
    static func postgresTypes(of type: ColumnType) -> Set<String> {
        switch type {
        case .int: ["int2", "int4", "int8"]
        case .double: ["float4", "float8"]
        case .bool: ["bool"]
        case .text, .enumeration: ["text", "varchar", "bpchar", "name"]
        case .blob: ["bytea"]
        case .date: ["timestamptz", "timestamp"]
        case .uuid: ["uuid"]
        case .json: ["jsonb", "json"]
        }
    }

    /// The PostgreSQL type a cast to `type` names (`double precision`).
    static func castType(_ type: ColumnType) -> String {
        switch type {
        case .int: "bigint"
        case .double: "double precision"
        case .bool: "boolean"
        case .text, .enumeration: "text"
        case .blob: "bytea"
        case .date: "timestamptz"
        case .uuid: "uuid"
        case .json: "jsonb"
        }
    }

    /// How the generated code binds a value of `type` (the `PostgresDataType` member), so the
    /// server parses the statement with the same parameter types on every call (a nil bound
    /// first would otherwise let it infer another): the type the server inferred for an `int`
    /// (`int2`, `int4`, `int8`), the column type's own otherwise.
    static func bindingDataType(_ type: ColumnType, isList: Bool, postgresType: String) -> String {
        let base: String
        switch type {
        case .int:
            let element = postgresType.hasPrefix("_") ? String(postgresType.dropFirst()) : postgresType
            base = ["int2", "int4"].contains(element) ? element : "int8"
        case .double: base = "float8"
        case .bool: base = "bool"
        case .text, .enumeration: base = "text"
        case .blob: base = "bytea"
        case .date: base = "timestamptz"
        case .uuid: base = "uuid"
        case .json: base = "jsonb"
        }
        return isList ? base + "Array" : base
    }
}

/// The reconciliation of one query with its prepared entry.
private struct Reconciler {
    let query: TypedQuery
    let declaration: SQLQuery
    let entry: PreparedQuery
    let location: SourceLocation
    var diagnostics: [Diagnostic] = []

    init(query: TypedQuery, declaration: SQLQuery, entry: PreparedQuery, location: SourceLocation) {
        self.query = query
        self.declaration = declaration
        self.entry = entry
        self.location = location
    }

    mutating func error(_ message: String, hint: String? = nil) {
        diagnostics.append(Diagnostic(at: location, "query '\(query.name)': \(message)", hint: hint))
    }

    /// Where the user writes a PostgreSQL-only change.
    var variantAdvice: String {
        declaration.postgresSQL == nil
            ? "write the PostgreSQL statement apart, sql: { sqlite: \"…\", postgres: \"…\" }, with"
            : "in its postgres: variant, write"
    }

    mutating func run() -> PostgresTypedQuery? {
        let bindings = reconcileParameters()
        reconcileColumns()
        guard diagnostics.isEmpty, let bindings else { return nil }
        return PostgresTypedQuery(
            query: query, sql: entry.sql, bindings: bindings, parameterTypes: entry.parameters.map(\.type), columnTypes: entry.columns.map(\.type))
    }

    /// The parameter index of each `$n`; nil after an error.
    mutating func reconcileParameters() -> [Int]? {
        var bindings: [Int] = []
        var failed = false
        for prepared in entry.parameters {
            guard let index = query.parameters.firstIndex(where: { $0.name == prepared.name }) else {
                error("the PostgreSQL statement has parameter :\(prepared.name), which the SQLite statement does not have",
                      hint: "both statements take the same parameters: the generated methods of both dialects have one signature")
                failed = true
                continue
            }
            let parameter = query.parameters[index]
            if parameter.isList != prepared.isList {
                error(
                    parameter.isList
                        ? "parameter :\(prepared.name) is a list on SQLite (IN (:\(prepared.name))) but one value on PostgreSQL"
                        : "parameter :\(prepared.name) is one value on SQLite but a list on PostgreSQL",
                    hint: "write a list parameter as IN (:\(prepared.name)) in both (PostgreSQL runs it as = ANY($n), bound as one array)")
                failed = true
                continue
            }
            var type = prepared.type
            if prepared.isList {
                guard type.hasPrefix("_") else {
                    error("list parameter :\(prepared.name) is \(type) on PostgreSQL, not an array",
                          hint: "prepare the query again with `strata-postgres prepare`")
                    failed = true
                    continue
                }
                type.removeFirst()
            }
            let element = parameter.valueType.type
            if parameter.isList, [ColumnType.blob].contains(element) || element.keyword == "json" {
                error("list parameter :\(prepared.name) is a list of \(element.keyword), which cannot be bound as a PostgreSQL array",
                      hint: "pass the values one by one, or filter by another column")
                failed = true
                continue
            }
            // A parameter is bound as the server typed it: an Int fits int2/int4 (checked when
            // bound), a Double only float8 (a float4 would round it).
            guard PostgresQueryCheck.postgresTypes(of: element).subtracting(["float4"]).contains(type) else {
                let what = parameter.isList ? "a list of \(element.keyword)" : element.keyword
                error("parameter :\(prepared.name) is \(what) on SQLite but \(prepared.type) on PostgreSQL",
                      hint: "\(variantAdvice) CAST(:\(prepared.name) AS \(PostgresQueryCheck.castType(element))) where it is used")
                failed = true
                continue
            }
            bindings.append(index)
        }
        let used = Set(entry.parameters.map(\.name))
        for parameter in query.parameters where !used.contains(parameter.name) {
            error("the PostgreSQL statement does not use parameter :\(parameter.name), which the SQLite statement takes",
                  hint: "both statements take the same parameters: the generated methods of both dialects have one signature")
            failed = true
        }
        return failed ? nil : bindings
    }

    mutating func reconcileColumns() {
        let columns = query.columns
        guard columns.count == entry.columns.count else {
            if columns.isEmpty || entry.columns.isEmpty {
                error(columns.isEmpty
                        ? "the PostgreSQL statement returns rows (\(entry.columns.map(\.name).joined(separator: ", "))) but the SQLite one does not"
                        : "the SQLite statement returns rows but the PostgreSQL one does not",
                      hint: "both statements return the same columns (RETURNING on both, or on neither)")
            } else {
                error("the SQLite statement returns \(columns.count) columns (\(columns.map(\.name).joined(separator: ", "))) but the PostgreSQL one \(entry.columns.count) (\(entry.columns.map(\.name).joined(separator: ", ")))",
                      hint: "both statements return the same columns in the same order: the row type is shared")
            }
            return
        }
        for (index, (column, prepared)) in zip(columns, entry.columns).enumerated() {
            let number = "column \(index + 1) (\(column.name))"
            if Self.isPlainName(column.name), Self.isPlainName(prepared.name), column.name.lowercased() != prepared.name.lowercased() {
                error("\(number) is named \(prepared.name) on PostgreSQL",
                      hint: "both statements return the same columns in the same order: name it with AS \(column.name) in both")
                continue
            }
            let type = column.valueType.type
            if !PostgresQueryCheck.postgresTypes(of: type).contains(prepared.type) {
                let expression = column.name.contains("(") ? column.name : "…"
                let reason: String
                switch (prepared.type, type) {
                case ("numeric", .double): reason = " (PostgreSQL's AVG, a SUM of reals and decimal literals are numeric, which is not a Double)"
                case ("numeric", .int): reason = " (PostgreSQL's SUM of bigint, and arithmetic with numeric, is numeric, which is not an Int)"
                default: reason = ""
                }
                error("\(number) is \(type.keyword) on SQLite but \(prepared.type) on PostgreSQL\(reason)",
                      hint: "\(variantAdvice) CAST(\(expression) AS \(PostgresQueryCheck.castType(type))) AS \(Self.isPlainName(column.name) ? column.name : "name"), so both give a \(type.keyword)")
                continue
            }
            if prepared.nullable, !column.valueType.isOptional {
                let declared = "\(column.name): \(type.keyword)?"
                error("\(number) is never NULL on SQLite but may be NULL on PostgreSQL",
                      hint: "declare it optional, columns: { \(declared) }, or give both a value with coalesce(…, default)")
            }
        }
    }

    /// A name SQLite and PostgreSQL both report as written (an alias or a column), not an
    /// expression's text (`count(*)` on SQLite, `count` or `?column?` on PostgreSQL).
    static func isPlainName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || $0.properties.numericType != nil }
    }
}
