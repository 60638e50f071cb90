import Foundation

/// Rendering of the typed queries (top-level `queries:`) into `<Database>Queries`.
extension SwiftRenderer {
    /// `public struct <Database>Queries` with one method per typed query, its row types, and
    /// file-private SQL and decoders.
    func renderQueries(_ out: inout SwiftWriter) {
        let queries = input.queries
        guard !queries.isEmpty else { return }
        let typeName = SwiftNames.identifier(QueryAnalyzer.queriesTypeName(schema))
        let sqlNamespace = "\(QueryAnalyzer.queriesTypeName(schema))SQL"
        out.line()
        out.line("// MARK: - Queries")
        out.line()
        out.doc("""
            The typed queries of \(input.sourceFileName): one method per entry of its `queries:`,
            each checked against the schema by every build.

            ```swift
            let rows = try db.read { conn in try \(typeName)(conn).\(queries[0].name)(\(Self.exampleArguments(queries[0]))) }
            ```

            Writes run on the connection they are given: call them inside `db.write { }`.

            \(remark("queries"))
            """)
        out.connectionStruct(
            typeName, connection: "Connection", connDoc: "The connection the queries run on.", initDoc: "Queries that run on `conn`."
        ) { out in
            for query in queries {
                if query.shape == .rows {
                    out.line()
                    renderRowType(query, &out)
                }
                out.line()
                renderQueryMethod(query, sqlNamespace: sqlNamespace, &out)
            }
        }
        out.line()
        out.line("/// The SQL of `\(typeName)`'s methods.")
        out.block("private enum \(sqlNamespace)") { out in
            for (index, query) in queries.enumerated() {
                if index > 0 { out.line() }
                renderSQLConstant(query, &out)
            }
        }
        let rowQueries = queries.filter { $0.shape == .rows }
        guard !rowQueries.isEmpty else { return }
        out.line()
        out.line("/// Reads the rows of `\(typeName)`'s methods, column by column.")
        out.block("private enum \(QueryAnalyzer.queriesTypeName(schema))Rows") { out in
            for (index, query) in rowQueries.enumerated() {
                if index > 0 { out.line() }
                let row = "\(typeName).\(QueryAnalyzer.rowTypeName(query.name))"
                out.line("@inline(__always)")
                out.block("static func \(SwiftNames.identifier(query.name))(_ statement: Statement) throws -> \(row)") { out in
                    out.line("return \(row)(")
                    for index in query.columns.indices {
                        let separator = index == query.columns.count - 1 ? "" : ","
                        out.line("    \(SwiftNames.argumentLabel(query.columns[index].propertyName)): \(readValue(query, index))\(separator)")
                    }
                    out.line(")")
                }
            }
        }
    }

    static func exampleArguments(_ query: TypedQuery) -> String {
        query.parameters.map { parameter in
            let value = parameter.isList ? "[]" : parameter.valueType.type.codec().exampleArgument
            return "\(SwiftNames.argumentLabel(parameter.label)): \(value)"
        }.joined(separator: ", ")
    }

    /// The Swift type of a value type.
    /// The record whose nested enums a value's type names, with those enums' columns only
    /// (the query reads as no particular table does).
    func typeScope(_ type: TypedQuery.ValueType) -> Table {
        var scope = Table(recordName: type.enumOwner ?? "")
        if let owner = type.enumOwner, let table = schema.table(named: owner) {
            scope.columns = table.columns.filter { $0.codec.nestedEnum != nil }
        }
        return scope
    }

    func swiftType(_ type: TypedQuery.ValueType) -> String {
        let base = Column(name: "", type: type.type).swiftBaseType(in: typeScope(type))
        return type.isOptional ? base + "?" : base
    }

    /// What one row is in Swift.
    func rowSwiftType(_ query: TypedQuery) -> String {
        switch query.shape {
        case .rows: "\(QueryAnalyzer.rowTypeName(query.name))"
        case .record(let record): SwiftNames.identifier(record)
        case .value: swiftType(query.columns[0].valueType)
        case .changes: "Int"
        }
    }

    func renderRowType(_ query: TypedQuery, _ out: inout SwiftWriter) {
        let name = QueryAnalyzer.rowTypeName(query.name)
        out.line("/// A row of `\(query.name)`.")
        out.block("public struct \(name): Sendable, Hashable, Codable") { out in
            for column in query.columns {
                out.line("/// Result column `\(column.name)`.")
                out.line("public var \(SwiftNames.identifier(column.propertyName)): \(swiftType(column.valueType))")
            }
            out.line()
            out.line("/// Creates a row.")
            let names = SwiftNames.parameterNames(query.columns.map(\.propertyName), bodyNames: SwiftNames.initializerBodyNames)
            let arguments = zip(query.columns, names).map { "\($1.declaration): \(swiftType($0.valueType))" }
            out.block("public init(\(arguments.joined(separator: ", ")))") { out in
                for (column, name) in zip(query.columns, names) {
                    out.line("self.\(SwiftNames.identifier(column.propertyName)) = \(name.reference)")
                }
            }
        }
    }

    /// A query with a list parameter numbers its placeholders at run time: scalar parameters
    /// are `?1…?k`, list elements follow.
    func hasList(_ query: TypedQuery) -> Bool { query.parameters.contains { $0.isList } }

    func renderSQLConstant(_ query: TypedQuery, _ out: inout SwiftWriter) {
        let name = SwiftNames.identifier(query.name)
        guard hasList(query) else {
            out.multiline("static let \(name): CachedSQL = ", query.sql, "")
            return
        }
        let lists = query.parameters.enumerated().filter { $0.element.isList }
        let scalars = query.parameters.enumerated().filter { !$0.element.isList }
        var scalarNumber: [Int: Int] = [:]
        for (number, scalar) in scalars.enumerated() { scalarNumber[scalar.offset] = number + 1 }
        let arguments = lists.indices.map { "_ count\($0 + 1): Int" }.joined(separator: ", ")
        out.line("/// The SQL for lists of these lengths.")
        out.block("static func \(name)(\(arguments)) -> String") { out in
            // Where each list's placeholders start.
            var listNumber: [Int: Int] = [:]
            var start = "\(scalars.count + 1)"
            for (position, list) in lists.enumerated() {
                listNumber[list.offset] = position + 1
                out.line("let start\(position + 1) = \(start)")
                if position < lists.count - 1 { start = "start\(position + 1) + count\(position + 1)" }
            }
            var parts: [String] = []
            let bytes = Array(query.sql.utf8)
            var cursor = 0
            var literal = ""
            for occurrence in query.occurrences {
                literal += String(decoding: bytes[cursor..<occurrence.range.lowerBound], as: UTF8.self)
                let parameter = query.parameters[occurrence.parameter]
                if parameter.isList {
                    parts.append(SwiftNames.stringLiteral(literal))
                    literal = ""
                    let number = listNumber[occurrence.parameter] ?? 0
                    parts.append("SQLPlaceholders.list(from: start\(number), count: count\(number))")
                } else {
                    literal += "?\(scalarNumber[occurrence.parameter] ?? 0)"
                }
                cursor = occurrence.range.upperBound
            }
            literal += String(decoding: bytes[cursor...], as: UTF8.self)
            parts.append(SwiftNames.stringLiteral(literal))
            for (index, part) in parts.enumerated() {
                out.line(index == 0 ? "return " + part : "    + " + part)
            }
        }
    }

    func renderQueryMethod(_ query: TypedQuery, sqlNamespace: String, _ out: inout SwiftWriter) {
        let names = SwiftNames.parameterNames(query.parameters.map(\.label))
        let signature = zip(query.parameters, names).map { parameter, names in
            let type = swiftType(parameter.valueType)
            return "\(names.declaration): \(parameter.isList ? "[\(type)]" : type)"
        }.joined(separator: ", ")
        let row = rowSwiftType(query)
        let returnType: String
        switch (query.shape, query.returns) {
        case (.changes, _): returnType = "Int"
        case (_, .one) where query.exactlyOneRow: returnType = row
        case (_, .one): returnType = row.hasSuffix("?") ? row : row + "?"
        // (A typed query's `returns:` is `many` or `one`: ``SQLQuery/returnsValues``.)
        case (_, .many), (_, .count), (_, .exists): returnType = "[\(row)]"
        }
        var doc = query.doc.map { $0 + "\n\n" } ?? ""
        doc += "```sql\n\(query.sql)\n```\n\n"
        if query.shape == .changes {
            doc += "- Returns: the number of rows changed.\n"
        }
        if !query.isReadOnly { doc += "- Note: a write: call it inside `db.write { }`.\n" }
        doc += remark("query \(query.name)")
        out.doc(doc)
        if query.shape == .changes { out.line("@discardableResult") }
        let name = SwiftNames.identifier(query.name)
        out.block("public func \(name)(\(signature)) throws -> \(returnType)") { out in
            if hasList(query) {
                let counts = query.parameters.enumerated().filter { $0.element.isList }
                    .map { "\(names[$0.offset].reference).count" }.joined(separator: ", ")
                out.line("let statement = try self.conn.cachedStatement(sql: \(sqlNamespace).\(name)(\(counts)))")
            } else {
                out.line("let statement = try self.conn.cachedStatement(\(sqlNamespace).\(name))")
            }
            out.line("defer { statement.reset() }")
            var number = 1
            for (index, parameter) in query.parameters.enumerated() where !parameter.isList {
                out.line(bindStatement(type: parameter.valueType.type, isOptional: parameter.valueType.isOptional,
                                       value: names[index].reference, index: number, dateFormat: parameter.valueType.dateFormat))
                number += 1
            }
            let lists = query.parameters.enumerated().filter { $0.element.isList }
            if !lists.isEmpty {
                out.line("var stored: Int32 = \(number)")
                for list in lists {
                    out.block("for value in \(names[list.offset].reference)") { out in
                        out.line(bindStatement(type: list.element.valueType.type, isOptional: false, value: "value", index: 0, dateFormat: list.element.valueType.dateFormat)
                            .replacingOccurrences(of: "at: 0)", with: "at: stored)"))
                        out.line("stored += 1")
                    }
                }
            }
            switch (query.shape, query.returns) {
            case (.changes, _):
                out.line("try statement.run()")
                out.line("return self.conn.changes")
            case (_, .one) where query.exactlyOneRow:
                out.line("guard try statement.step() else { throw StrataError.missingRow(query: \(SwiftNames.stringLiteral(query.name))) }")
                out.line("return \(decodeExpression(query))")
            case (_, .one):
                out.line("return try statement.step() ? \(decodeExpression(query)) : nil")
            case (_, .many), (_, .count), (_, .exists):
                out.line("var records: [\(row)] = []")
                out.line("while try statement.step() { records.append(\(decodeExpression(query))) }")
                out.line("return records")
            }
        }
    }

    /// The expression that reads the current row of `statement`.
    func decodeExpression(_ query: TypedQuery) -> String {
        switch query.shape {
        case .record(let record):
            return "try \(SwiftNames.identifier(SwiftNames.daoName(record))).decode(statement)"
        case .value:
            return readValue(query, 0)
        case .rows:
            return "try \(QueryAnalyzer.queriesTypeName(schema))Rows.\(SwiftNames.identifier(query.name))(statement)"
        case .changes:
            return "0"
        }
    }

    /// Reads result column `index`; a NULL in a non-optional column throws, naming the query
    /// and the column.
    func readValue(_ query: TypedQuery, _ index: Int) -> String {
        let column = query.columns[index]
        let type = column.valueType
        var readColumn = Column(name: column.propertyName, type: type.type, isOptional: type.isOptional)
        readColumn.dateFormat = type.dateFormat
        let read = readExpression(readColumn, at: index, table: typeScope(type))
        if type.isOptional { return query.shape == .rows ? read : "(\(read))" }
        let names = "query: \(SwiftNames.stringLiteral(query.name)), column: \(SwiftNames.stringLiteral(column.name))"
        // An integer, double or string is read first, and its type asked only when it reads as
        // NULL does (0, 0.0, no text): one SQLite call per column instead of two.
        for reader in ["int", "double", "string"] where read == "statement.\(reader)(at: \(index))" {
            return "try statement.\(reader)(at: \(index), \(names))"
        }
        let check = "statement.checkedNotNull(at: \(index), query: \(SwiftNames.stringLiteral(query.name)), column: \(SwiftNames.stringLiteral(column.name)))"
        let checked = read.replacingOccurrences(of: "statement.", with: "\(check).", options: [], range: read.range(of: "statement."))
        return read.hasPrefix("try ") ? checked : "try " + checked
    }
}
