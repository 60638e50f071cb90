import Strata

/// The PostgreSQL half of a generated file (schemas with `dialects: [sqlite, postgres]`): the
/// embedded PostgreSQL migrations, `<Database>.migrate(_ pg:)` and per table a
/// `<Record>PostgresDAO` with the SQLite DAO's method names and arguments, `async`.
///
/// All of it sits inside `#if canImport(StrataPostgres)`, so a target that does not depend on
/// `StrataPostgres` compiles none of it (the build plugin also leaves it out of such a target's
/// file, see `StrataPlugin`). Each statement is a `PostgresPreparedStatement` struct nested in its
/// DAO: parsed once per connection by the server, its values bound in binary, its rows decoded
/// by position straight into the record.
extension SwiftRenderer {
    func renderPostgres(_ out: inout SwiftWriter) {
        out.line()
        out.line("// MARK: - PostgreSQL")
        out.line()
        out.line("#if canImport(StrataPostgres)")
        out.line("import StrataPostgres")
        out.line()
        renderPostgresNamespace(&out)
        out.line()
        renderPostgresCells(&out)
        for table in schema.tables {
            out.line()
            renderPostgresDAO(table, &out)
        }
        renderPostgresQueries(&out)
        out.line("#endif")
    }

    /// The name of the file's decoding helpers (one per schema, so two schemas of one target
    /// do not clash).
    var postgresCells: String { SwiftNames.identifier(schema.name + "PostgresValues") }

    func renderPostgresNamespace(_ out: inout SwiftWriter) {
        let name = SwiftNames.identifier(schema.name)
        out.block("extension \(name)") { out in
            out.line("/// The PostgreSQL migrations of `\(schema.name).migrations/postgres/`, with their checksums.")
            renderMigrations("postgresMigrations", input.postgresMigrations, &out)
            out.line()
            renderMigrate(
                "migrate(_ pg: PostgresDatabase) async throws",
                doc: [
                    "Applies the pending PostgreSQL migrations to `pg`, each in its own transaction under an",
                    "advisory lock (two deploys cannot race), and returns the ones applied. Refuses, changing",
                    "nothing, when an applied migration was edited, the database is newer than this code, or",
                    "the history has a gap (see `PostgresMigrator`).",
                    "",
                    "```swift",
                    "try await \(schema.name).migrate(pg)",
                    "```",
                ],
                apply: ["try await PostgresMigrator.migrate(pg, migrations: postgresMigrations)"],
                purge: "try await purgeExpired(pg)", &out
            )
            renderPostgresPurgeExpired(&out)
        }
    }

    /// The helpers the DAOs decode and bind enums and JSON with.
    func renderPostgresCells(_ out: inout SwiftWriter) {
        out.line("/// Reads and writes the values PostgreSQL has no Swift type for: enums and JSON.")
        out.block("fileprivate enum \(postgresCells)") { out in
            out.line("/// The enum case a TEXT cell names.")
            out.block("static func enumeration<Value: RawRepresentable>(_ type: Value.Type, _ cell: PostgresCell) throws -> Value where Value.RawValue == String") { out in
                out.line("let raw = try cell.decode(String.self)")
                out.block("guard let value = Value(rawValue: raw) else") { out in
                    out.line("throw StrataError.decoding(\"column \\(cell.columnName) holds '\\(raw)', not a case of \\(Value.self)\")")
                }
                out.line("return value")
            }
            out.line()
            out.line("/// The value a JSONB cell holds.")
            out.block("static func json<Value: Decodable>(_ type: Value.Type, _ cell: PostgresCell) throws -> Value") { out in
                out.line("let text = try cell.decode(String.self)")
                out.line("do {")
                out.line("    return try JSONDecoder().decode(Value.self, from: Data(text.utf8))")
                out.line("} catch {")
                out.line("    throw StrataError.decoding(\"column \\(cell.columnName) holds JSON that is not a \\(Value.self): \\(error)\")")
                out.line("}")
            }
            out.line()
            out.line("/// `value` as JSON text (keys sorted, as the SQLite DAOs write it), bound as `$n::jsonb`.")
            out.block("static func jsonText<Value: Encodable>(_ value: Value) throws -> String") { out in
                out.line("let encoder = JSONEncoder()")
                out.line("encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]")
                out.line("return String(decoding: try encoder.encode(value), as: UTF8.self)")
            }
        }
    }

    // MARK: - The DAO

    /// One prepared statement of a DAO: its struct name, SQL, stored values and rows.
    struct PostgresStatement {
        enum Rows {
            /// No rows: run with `execute`, which returns the rows affected.
            case none
            /// Records of a table, decoded by its DAO.
            case records(Table)
            /// One `BIGINT` (`count(*)`).
            case count
            /// One `BOOLEAN` (`EXISTS`).
            case exists
            /// A record of a table, then a `TEXT` snippet (`searchWithSnippets`).
            case recordAndSnippet(Table)
        }

        var typeName: String
        var sql: String
        /// The stored values: the property (and memberwise argument) and its Swift type.
        var properties: [(name: String, type: String)]
        /// What each `$n` binds, in order: a column or parameter type and the Swift expression.
        var bindings: [(type: ColumnType, isOptional: Bool, value: String)]
        var rows: Rows
    }

    func renderPostgresDAO(_ table: Table, _ out: inout SwiftWriter) {
        let api = DAOSignatures(table: table, isAsync: true)
        let record = api.record
        let dao = SwiftNames.identifier(table.recordName + "PostgresDAO")
        let plan = DAOPlan(table: table, schema: schema, dialect: PostgresDialect())
        var statements: [PostgresStatement] = []
        func recordBindings(_ columns: [Column]) -> [(type: ColumnType, isOptional: Bool, value: String)] {
            columns.map { ($0.type, $0.isOptional, "record.\($0.swiftName)") }
        }
        let keyNames = api.keyNames
        let keyProperties = zip(plan.keyColumns, keyNames).map { (name: $1.reference, type: $0.swiftBaseType(in: table)) }
        let keyBindings = zip(plan.keyColumns, keyNames).map { (type: $0.type, isOptional: false, value: $1.reference) }
        // An expiring table's reads bind the current time last (`conn.now`, the database's clock).
        let nowProperty = table.expires ? [(name: "now", type: "Date")] : []
        let nowBinding = table.expires ? [(type: ColumnType.date, isOptional: false, value: "now")] : []
        let nowArgument = table.expires ? "now: conn.now" : ""
        func arguments(_ list: String...) -> String { list.filter { !$0.isEmpty }.joined(separator: ", ") }

        let doc =
            "Reads and writes `\(table.recordName)` records in table \(plan.tableName) on PostgreSQL: the methods of `\(table.recordName)DAO`, `async`.\n\n```swift\nlet stored = try await pg.write { conn in try await \(table.recordName)PostgresDAO(conn).insert(record) }\n```\n\n\(remark("table \(table.recordName)"))"
        api.dao(dao, conformance: "Sendable", connection: "PostgresDatabase.Connection", scopes: "`pg.read`/`pg.write`", doc: doc, &out) { out in
            renderPostgresDecode(api, &out)

            // Insert.
            out.line()
            statements.append(
                PostgresStatement(
                    typeName: "Insert", sql: plan.insertSQL, properties: [("record", record)], bindings: recordBindings(table.columns),
                    rows: .records(table)))
            if let auto = table.autoincrementColumn {
                statements.append(
                    PostgresStatement(
                        typeName: "InsertAssigningKey", sql: plan.insertAssigningKeySQL, properties: [("record", record)],
                        bindings: recordBindings(table.columns.filter { $0 != auto }), rows: .records(table)))
            }
            api.insert(assigner: "PostgreSQL", attributes: "@discardableResult", &out) { out, _ in
                out.line("return try await stored(conn.fetchOne(InsertAssigningKey(record: record)))")
            } body: { out in
                out.line((table.autoincrementColumn == nil ? "" : "return ") + "try await stored(conn.fetchOne(Insert(record: record)))")
            }
            out.line()
            api.insertSequence(&out) { out in
                out.line("var result: [\(record)] = []")
                out.line("for record in records { result.append(try await insert(record)) }")
                out.line("return result")
            }

            // Upsert.
            out.line()
            statements.append(
                PostgresStatement(
                    typeName: "Upsert", sql: plan.upsertSQL, properties: [("record", record)], bindings: recordBindings(table.columns),
                    rows: .records(table)))
            let upsertDoc = ["Inserts `record`, or updates the other columns of the stored row with the same key", "(`ON CONFLICT DO UPDATE`), and returns it as stored."]
            api.upsert(doc: upsertDoc, &out) { out in
                out.line((table.autoincrementColumn == nil ? "" : "return ") + "try await stored(conn.fetchOne(Upsert(record: record)))")
            }
            out.line()
            out.line("/// The row a `RETURNING` statement gave back.")
            out.block("private func stored(_ row: \(record)?) throws -> \(record)") { out in
                out.block("guard let row else") { out in
                    out.line("throw StrataError.decoding(\"PostgreSQL returned no row for a write of a \(table.recordName)\")")
                }
                out.line("return row")
            }
            if table.expires { renderExpiringWrites(table, isAsync: true, &out) }

            // Update.
            if !plan.nonKeyColumns.isEmpty {
                out.line()
                statements.append(
                    PostgresStatement(
                        typeName: "Update", sql: plan.updateSQL, properties: [("record", record)],
                        bindings: recordBindings(plan.nonKeyColumns + plan.keyColumns), rows: .none))
                api.update(&out) { out in
                    out.line("try await conn.execute(Update(record: record)) > 0")
                }
            }

            // Delete and find by key.
            let keyValues = zip(keyNames, keyProperties).map { "\(SwiftNames.argumentLabel($1.name)): \($0.reference)" }.joined(separator: ", ")
            out.line()
            statements.append(PostgresStatement(typeName: "Delete", sql: plan.deleteSQL, properties: keyProperties, bindings: keyBindings, rows: .none))
            api.deletes(&out) { out in
                out.line("try await delete(\(api.keyArguments))")
            } key: { out in
                out.line("try await conn.execute(Delete(\(keyValues))) > 0")
            }
            out.line()
            statements.append(
                PostgresStatement(
                    typeName: "Find", sql: plan.findSQL, properties: keyProperties + nowProperty, bindings: keyBindings + nowBinding,
                    rows: .records(table)))
            api.find(table.expires ? "The record with this key, or nil (also when it has expired)." : "The record with this key, or nil.", &out) { out in
                out.line("try await conn.fetchOne(Find(\(arguments(keyValues, nowArgument))))")
            }
            out.line()
            statements.append(
                PostgresStatement(typeName: "FetchAll", sql: plan.fetchAllSQL, properties: nowProperty, bindings: nowBinding, rows: .records(table)))
            out.line(table.expires ? "/// Every record of the table that has not expired, in no particular order." : "/// Every record of the table, in no particular order.")
            out.block("public func fetchAll() async throws -> [\(record)]") { out in
                out.line("try await conn.fetchAll(FetchAll(\(nowArgument)))")
            }

            // Named queries.
            var usedTypes = Set(statements.map(\.typeName))
            func uniqueType(_ base: String) -> String { SwiftNames.unique(base, among: &usedTypes) }
            for query in table.queries {
                out.line()
                let typeName = uniqueType("Query" + SwiftNames.upperFirst(query.name))
                statements.append(renderPostgresQuery(query, typeName: typeName, api: api, plan: plan, &out))
            }

            // Navigation.
            for navigation in plan.navigations {
                out.line()
                let typeName = uniqueType("Navigation" + SwiftNames.upperFirst(navigation.methodName))
                statements.append(renderPostgresNavigation(navigation, typeName: typeName, api: api, &out))
            }

            // Full-text search.
            if table.search != nil {
                out.line()
                statements += renderPostgresSearch(table, &out)
            }

            // Expired rows.
            if table.expires {
                statements.append(
                    PostgresStatement(
                        typeName: "PurgeExpired", sql: plan.purgeExpiredSQL, properties: [(name: "now", type: "Date")],
                        bindings: [(type: .date, isOptional: false, value: "now")], rows: .none))
            }

            out.line()
            out.line("// Statements")
            for statement in statements {
                out.line()
                renderPreparedStatement(statement, dao: dao, &out)
            }
        }
    }

    /// `public static func decode(_ row: PostgresRow) throws -> Record`.
    func renderPostgresDecode(_ api: DAOSignatures, _ out: inout SwiftWriter) {
        out.line("/// Reads a record from a row of the table's columns in declaration order, by position.")
        out.block("public static func decode(_ row: PostgresRow) throws -> \(api.record)") { out in
            out.line("let cells = row.makeRandomAccess()")
            api.initializer(&out) { column, index in postgresReadExpression(column, at: index, table: api.table) }
        }
    }

    /// The expression that decodes `column` from cell `index`.
    func postgresReadExpression(_ column: Column, at index: Int, table: Table) -> String {
        column.codec.postgresRead("cells[\(index)]", isOptional: column.isOptional, in: table, helpers: postgresCells)
    }

    /// A named query's method; the statement's properties are the query's parameters.
    func renderPostgresQuery(_ query: Query, typeName: String, api: DAOSignatures, plan: DAOPlan, _ out: inout SwiftWriter) -> PostgresStatement {
        let table = api.table
        let rows: PostgresStatement.Rows
        switch query.returns {
        case .many, .one: rows = .records(table)
        case .count: rows = .count
        case .exists: rows = .exists
        }
        var summary = query.doc.map { $0 + "\n\n" } ?? ""
        summary += "Named query `\(query.name)` on PostgreSQL (see `\(table.recordName)DAO.\(query.name)`)."
        var statement = PostgresStatement(typeName: typeName, sql: plan.querySQL(query), properties: [], bindings: [], rows: rows)
        var usedNames = Set(query.parameters.map(\.name))
        api.query(query, doc: summary + "\n\n\(remark("table \(table.recordName), query \(query.name)"))", &out) { out, names in
            statement.properties = zip(query.parameters, names).map { parameter, names in
                (name: names.reference, type: parameter.type.swiftType(in: table) + (parameter.isOptional ? "?" : ""))
            }
            statement.bindings = zip(query.parameters, names).map { (type: $0.type, isOptional: $0.isOptional, value: $1.reference) }
            var arguments = statement.properties.map { "\(SwiftNames.argumentLabel($0.name)): \($0.name)" }.joined(separator: ", ")
            if plan.nowNumber(query) != nil {
                // After every parameter: `$<count + 1>` in `plan.querySQL`.
                let now = SwiftNames.unique("now", among: &usedNames)
                statement.properties.append((name: now, type: "Date"))
                statement.bindings.append((type: .date, isOptional: false, value: now))
                arguments += (arguments.isEmpty ? "" : ", ") + "\(now): conn.now"
            }
            let call = "\(typeName)(\(arguments))"
            switch query.returns {
            case .many: out.line("try await conn.fetchAll(\(call))")
            case .one: out.line("try await conn.fetchOne(\(call))")
            case .count: out.line("try await conn.fetchOne(\(call)) ?? 0")
            case .exists: out.line("try await conn.fetchOne(\(call)) ?? false")
            }
        }
        return statement
    }

    /// A navigation method along a foreign key.
    func renderPostgresNavigation(_ navigation: DAOPlan.Navigation, typeName: String, api: DAOSignatures, _ out: inout SwiftWriter) -> PostgresStatement {
        let column = navigation.boundColumn
        let valueType = column.swiftBaseType(in: api.table) + (column.isOptional ? "?" : "")
        let expires = navigation.target.expires
        api.navigation(navigation, &out) { out in
            let now = expires ? ", now: conn.now" : ""
            out.line("try await conn.\(navigation.isToParent ? "fetchOne" : "fetchAll")(\(typeName)(value: record.\(column.swiftName)\(now)))")
        }
        // An expiring target's rows that have expired are left out: the current time is `$2`.
        return PostgresStatement(
            typeName: typeName, sql: navigation.sql, properties: [("value", valueType)] + (expires ? [("now", "Date")] : []),
            bindings: [(column.type, column.isOptional, "value")] + (expires ? [(ColumnType.date, false, "now")] : []), rows: .records(navigation.target))
    }

    /// `struct Insert: PostgresPreparedStatement { … }`.
    func renderPreparedStatement(_ statement: PostgresStatement, dao: String, _ out: inout SwiftWriter) {
        let bindLines = statement.bindings.map { postgresBindLine($0.type, isOptional: $0.isOptional, value: $0.value) }
        renderPostgresStatement(
            statement.typeName, sql: statement.sql, summary: statement.sql.replacingOccurrences(of: "\n", with: " "), bindLines: bindLines, &out
        ) { out in
            switch statement.rows {
            case .none: out.line("typealias Row = Void")
            case .records(let table): out.line("typealias Row = \(SwiftNames.identifier(table.recordName))")
            case .recordAndSnippet(let table): out.line("typealias Row = (record: \(SwiftNames.identifier(table.recordName)), snippet: String)")
            case .count: out.line("typealias Row = Int")
            case .exists: out.line("typealias Row = Bool")
            }
            if !statement.properties.isEmpty { out.line() }
            for property in statement.properties {
                out.line("var \(SwiftNames.identifier(property.name)): \(property.type)")
            }
        } decoding: { out in
            switch statement.rows {
            case .none:
                out.line("func decodeRow(_ row: PostgresRow) throws {}")
            case .records(let table):
                let targetDAO = SwiftNames.identifier(table.recordName + "PostgresDAO")
                out.block("func decodeRow(_ row: PostgresRow) throws -> Row") { out in
                    out.line("try \(targetDAO).decode(row)")
                }
            case .count:
                out.block("func decodeRow(_ row: PostgresRow) throws -> Row") { out in
                    out.line("try row.makeRandomAccess()[0].decode(Int.self)")
                }
            case .exists:
                out.block("func decodeRow(_ row: PostgresRow) throws -> Row") { out in
                    out.line("try row.makeRandomAccess()[0].decode(Bool.self)")
                }
            case .recordAndSnippet(let table):
                let targetDAO = SwiftNames.identifier(table.recordName + "PostgresDAO")
                out.block("func decodeRow(_ row: PostgresRow) throws -> Row") { out in
                    out.line("(try \(targetDAO).decode(row), try row.makeRandomAccess()[\(table.columns.count)].decode(String.self))")
                }
            }
        }
    }

    /// `struct <typeName>: PostgresPreparedStatement`, documented by `summary` (its SQL on one
    /// line): its `name` (`strata_` and the start of the checksum of `sql`) and `sql`, what
    /// `declarations` writes (its `Row` and properties), a `makeBindings()` appending
    /// `bindLines`, then the `decodeRow` that `decoding` writes. The DAOs' statements and the
    /// typed queries' share this shape.
    func renderPostgresStatement(
        _ typeName: String, sql: String, summary: String, bindLines: [String], _ out: inout SwiftWriter,
        declarations: (inout SwiftWriter) -> Void, decoding: (inout SwiftWriter) -> Void
    ) {
        out.line("/// `\(summary)`")
        out.block("struct \(typeName): PostgresPreparedStatement") { out in
            out.line("static let name = \(SwiftNames.stringLiteral("strata_" + Migration.checksum(of: sql).prefix(24)))")
            out.line("static let sql = \(SwiftNames.stringLiteral(sql))")
            declarations(&out)
            out.line()
            out.block("func makeBindings() throws -> PostgresBindings") { out in
                if bindLines.isEmpty {
                    out.line("PostgresBindings()")
                    return
                }
                out.line("var bindings = PostgresBindings(capacity: \(bindLines.count))")
                for line in bindLines { out.line(line) }
                out.line("return bindings")
            }
            out.line()
            decoding(&out)
        }
    }

    /// One line appending `value` of a schema type to `bindings`.
    func postgresBindLine(_ type: ColumnType, isOptional: Bool, value: String) -> String {
        type.codec().postgresBind(value, isOptional: isOptional, helpers: postgresCells)
    }
}
