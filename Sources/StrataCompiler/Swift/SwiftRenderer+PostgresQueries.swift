import Strata

/// `<Database>PostgresQueries`: the typed queries of `<Database>Queries` on PostgreSQL, with the
/// same method names, argument labels and row types (the row structs of `<Database>Queries`,
/// shared), `async`. Each method runs the statement `strata-postgres prepare` checked on a real
/// server (``PostgresTypedQuery/sql``, from `<Name>.prepared.json`) as a
/// `PostgresPreparedStatement`: its values bound in `$n` order (a list as one array), with
/// fixed binding types so that the server parses it the same way on every call, and its
/// columns read with the PostgreSQL codecs (``ValueCodec/postgresRead(_:isOptional:in:helpers:)``).
extension SwiftRenderer {
    /// `<Database>PostgresQueries`.
    var postgresQueriesTypeName: String { SwiftNames.identifier(schema.name + "PostgresQueries") }

    func renderPostgresQueries(_ out: inout SwiftWriter) {
        let queries = input.postgresQueries
        guard !queries.isEmpty else { return }
        let typeName = postgresQueriesTypeName
        let sqliteType = SwiftNames.identifier(QueryAnalyzer.queriesTypeName(schema))
        let first = queries[0].query
        out.line()
        out.doc("""
            The typed queries of \(input.sourceFileName) on PostgreSQL: the methods of `\(sqliteType)`, with its
            argument labels and row types, `async`. Each runs the statement `strata-postgres prepare`
            checked on a server (\(PreparedQueries.path(forSchemaPath: input.sourceFileName))).

            ```swift
            let rows = try await pg.read { conn in try await \(typeName)(conn).\(first.name)(\(Self.exampleArguments(first))) }
            ```

            Writes run on the connection they are given: call them inside `pg.write { }`.

            \(remark("queries"))
            """)
        out.connectionStruct(
            "\(typeName): Sendable", connection: "PostgresDatabase.Connection", connDoc: "The connection the queries run on.",
            initDoc: "Queries that run on `conn`; cheap to create, use it inside `pg.read`/`pg.write`."
        ) { out in
            var used: Set<String> = []
            let statementNames = queries.map { SwiftNames.unique(SwiftNames.upperFirst($0.query.name) + "Statement", among: &used) }
            for (query, statementName) in zip(queries, statementNames) {
                out.line()
                renderPostgresQueryMethod(query, statementName: statementName, &out)
            }
            out.line()
            out.line("// Statements")
            for (query, statementName) in zip(queries, statementNames) {
                out.line()
                renderPostgresQueryStatement(query, statementName: statementName, &out)
            }
        }
    }

    /// What one row of `query` is in Swift, the row structs named in `<Database>Queries`.
    func postgresRowType(_ query: TypedQuery) -> String {
        if query.shape == .rows {
            return SwiftNames.identifier(QueryAnalyzer.queriesTypeName(schema)) + "." + QueryAnalyzer.rowTypeName(query.name)
        }
        return rowSwiftType(query)
    }

    func renderPostgresQueryMethod(_ typed: PostgresTypedQuery, statementName: String, _ out: inout SwiftWriter) {
        let query = typed.query
        let names = SwiftNames.parameterNames(query.parameters.map(\.label))
        let signature = zip(query.parameters, names).map { parameter, names in
            let type = swiftType(parameter.valueType)
            return "\(names.declaration): \(parameter.isList ? "[\(type)]" : type)"
        }.joined(separator: ", ")
        let arguments = zip(query.parameters, names).map { parameter, names in
            "\(SwiftNames.argumentLabel(parameter.label)): \(names.reference)"
        }.joined(separator: ", ")
        let call = "\(statementName)(\(arguments))"
        let row = postgresRowType(query)
        var doc = query.doc.map { $0 + "\n\n" } ?? ""
        doc += "Typed query `\(query.name)` on PostgreSQL (see `\(SwiftNames.queriesTypeName(schema.name)).\(query.name)`):\n\n"
        var sql = typed.sql
        while sql.last?.isWhitespace == true { sql.removeLast() }
        doc += "```sql\n\(sql)\n```\n\n"
        if query.shape == .changes { doc += "- Returns: the number of rows changed.\n" }
        if !query.isReadOnly { doc += "- Note: a write: call it inside `pg.write { }`.\n" }
        doc += remark("query \(query.name)")
        out.doc(doc)
        if query.shape == .changes { out.line("@discardableResult") }
        let name = SwiftNames.identifier(query.name)
        switch (query.shape, query.returns) {
        case (.changes, _):
            out.block("public func \(name)(\(signature)) async throws -> Int") { out in
                out.line("try await self.conn.execute(\(call))")
            }
        case (_, .one) where query.exactlyOneRow:
            out.block("public func \(name)(\(signature)) async throws -> \(row)") { out in
                out.block("guard let row = try await self.conn.fetchOne(\(call)) else") { out in
                    out.line("throw StrataError.missingRow(query: \(SwiftNames.stringLiteral(query.name)))")
                }
                out.line("return row")
            }
        case (_, .one):
            let optional = row.hasSuffix("?")
            out.block("public func \(name)(\(signature)) async throws -> \(optional ? row : row + "?")") { out in
                out.line("try await self.conn.fetchOne(\(call))" + (optional ? " ?? nil" : ""))
            }
        case (_, .many), (_, .count), (_, .exists):
            out.block("public func \(name)(\(signature)) async throws -> [\(row)]") { out in
                out.line("try await self.conn.fetchAll(\(call))")
            }
        }
    }

    /// `struct <Name>Statement: PostgresPreparedStatement { … }`.
    func renderPostgresQueryStatement(_ typed: PostgresTypedQuery, statementName: String, _ out: inout SwiftWriter) {
        let query = typed.query
        let summary = typed.sql.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        let bindLines = zip(typed.bindings, typed.parameterTypes).map { index, postgresType in
            postgresQueryBindLine(query.parameters[index], postgresType: postgresType)
        }
        renderPostgresStatement(statementName, sql: typed.sql, summary: summary, bindLines: bindLines, &out) { out in
            let types = zip(typed.bindings, typed.parameterTypes).map { index, postgresType -> String in
                let parameter = query.parameters[index]
                return "." + PostgresQueryCheck.bindingDataType(parameter.valueType.type, isList: parameter.isList, postgresType: postgresType)
            }
            out.line("static let bindingDataTypes: [PostgresDataType] = [\(types.joined(separator: ", "))]")
            out.line("typealias Row = \(query.shape == .changes ? "Void" : postgresRowType(query))")
            if !query.parameters.isEmpty { out.line() }
            for parameter in query.parameters {
                let type = swiftType(parameter.valueType)
                out.line("var \(SwiftNames.identifier(parameter.label)): \(parameter.isList ? "[\(type)]" : type)")
            }
        } decoding: { out in
            switch query.shape {
            case .changes:
                out.line("func decodeRow(_ row: PostgresRow) throws {}")
            case .record(let record):
                out.block("func decodeRow(_ row: PostgresRow) throws -> Row") { out in
                    out.line("try \(SwiftNames.identifier(record + "PostgresDAO")).decode(row)")
                }
            case .value:
                out.block("func decodeRow(_ row: PostgresRow) throws -> Row") { out in
                    out.line("let cells = row.makeRandomAccess()")
                    out.line("return \(postgresQueryRead(query, 0))")
                }
            case .rows:
                out.block("func decodeRow(_ row: PostgresRow) throws -> Row") { out in
                    out.line("let cells = row.makeRandomAccess()")
                    out.line("return Row(")
                    for index in query.columns.indices {
                        let separator = index == query.columns.count - 1 ? "" : ","
                        out.line("    \(SwiftNames.argumentLabel(query.columns[index].propertyName)): \(postgresQueryRead(query, index))\(separator)")
                    }
                    out.line(")")
                }
            }
        }
    }

    /// Reads result column `index` from `cells` with its type's PostgreSQL codec.
    func postgresQueryRead(_ query: TypedQuery, _ index: Int) -> String {
        let type = query.columns[index].valueType
        return type.type.codec().postgresRead("cells[\(index)]", isOptional: type.isOptional, in: typeScope(type), helpers: postgresCells)
    }

    /// Appends a parameter's value (`self.<label>`) to `bindings`: a list as one array; an
    /// `Int` the server typed `int4` or `int2` narrowed, throwing when it does not fit.
    func postgresQueryBindLine(_ parameter: TypedQuery.Parameter, postgresType: String) -> String {
        let value = "self.\(SwiftNames.identifier(parameter.label))"
        let type = parameter.valueType.type
        let element = postgresType.hasPrefix("_") ? String(postgresType.dropFirst()) : postgresType
        if case .int = type, let narrow = ["int4": "int32", "int2": "int16"][element] {
            func convert(_ number: String) -> String {
                "PostgresQueryValues.\(narrow)(\(number), parameter: \(SwiftNames.stringLiteral(parameter.name)))"
            }
            if parameter.isList || parameter.isOptional {
                return "bindings.append(try \(value).map { try \(convert("$0")) })"
            }
            return "bindings.append(try \(convert(value)))"
        }
        guard parameter.isList else {
            if case .json = type {
                return parameter.isOptional
                    ? "if let value = \(value) { bindings.append(PostgresJSON(value)) } else { bindings.appendNull() }"
                    : "bindings.append(PostgresJSON(\(value)))"
            }
            return postgresBindLine(type, isOptional: parameter.isOptional, value: value)
        }
        // (A list of blob or json is refused by PostgresQueryCheck: postgres-nio has no array of them.)
        if case .enumeration = type { return "bindings.append(\(value).map(\\.rawValue))" }
        return "bindings.append(\(value))"
    }
}
