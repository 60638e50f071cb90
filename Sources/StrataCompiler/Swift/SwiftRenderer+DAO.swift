import Strata

extension SwiftRenderer {
    /// `<Record>DAO`: the table's operations, its named queries, navigation and SQL.
    func renderDAO(_ table: Table, _ out: inout SwiftWriter) {
        let api = DAOSignatures(table: table, isAsync: false)
        let record = api.record
        let dao = SwiftNames.identifier(SwiftNames.daoName(table.recordName))
        let plan = DAOPlan(table: table, schema: schema)
        var sqlConstants: [(name: String, sql: String, isPublic: Bool)] = [
            ("tableSQLName", plan.tableName, true),
            ("selectSQL", plan.selectSQL, true),
        ]
        // Named queries and navigation get prefixed constants (`queryByIsbnSQL`), so they never
        // take a built-in constant's name; two names that differ only in their first letter's
        // case get a number.
        var usedConstants: Set<String> = SwiftNames.daoConstants
        func uniqueConstant(_ base: String) -> String {
            var candidate = base
            var counter = 2
            while usedConstants.contains(candidate) {
                candidate = String(base.dropLast(3)) + String(counter) + "SQL"
                counter += 1
            }
            usedConstants.insert(candidate)
            return candidate
        }

        let doc = "Reads and writes `\(table.recordName)` records in table \(plan.tableName).\n\n```swift\ntry db.write { conn in try \(table.recordName)DAO(conn).insert(record) }\n```\n\n\(remark("table \(table.recordName)"))"
        api.dao(dao, conformance: "RecordDAO", connection: "Connection", scopes: "`read`/`write`", doc: doc, &out) { out in
            renderDecode(api, &out)

            // Insert. Writes (insert, upsert, update, delete) reset their statement once per use:
            // `withCachedStatement` resets it before binding, and it runs to its end (SQLITE_DONE,
            // which leaves no read or write open) or `Statement.failure` resets it. A `defer`
            // reset on top would be a second one per row, which raw C code does not pay. They
            // take the statement with `withCachedStatement`, which lends it without the retain
            // and release of `cachedStatement` (work per row that raw C code does not do either).
            // `insert` is always inlined: its body is a few calls (the errors are thrown out of
            // line), and inlined into a loop it costs what raw C's loop costs — no call, and no
            // copy of a returned record nobody reads (1.006× raw C's instructions on 50,000
            // inserts, 1.013× when called; docs/Benchmarks.md).
            out.line()
            sqlConstants.append(("insertSQL", plan.insertSQL, false))
            if table.autoincrementColumn != nil { sqlConstants.append(("insertAssigningKeySQL", plan.insertAssigningKeySQL, false)) }
            api.insert(assigner: "SQLite", attributes: "@discardableResult @inline(__always)", &out) { out, auto in
                out.closure("try self.conn.withCachedStatement(Self.insertAssigningKeySQL)", parameter: "statement") { out in
                    bindLines(table.columns.filter { $0 != auto }, table: table, value: { "record.\($0.swiftName)" }, first: 1, &out)
                    out.line("try statement.run()")
                }
                out.line("var stored = record")
                out.line("stored.\(auto.swiftName) = self.conn.lastInsertedRowID")
                roundDates(table, &out)
                out.line("return stored")
            } body: { out in
                runWrite("insertSQL", &out) { out in out.line("try Self.bindColumns(of: record, to: statement)") }
                returnStored(table, &out)
            }
            out.line()
            out.line("/// Binds every column of `record`, in declaration order, to parameters 1…\(table.columns.count):")
            out.line("/// the values of `insertSQL` and `upsertSQL`.")
            out.line("@inline(__always)")
            out.block("static func bindColumns(of record: \(record), to statement: Statement) throws") { out in
                bindLines(table.columns, table: table, value: { "record.\($0.swiftName)" }, first: 1, &out)
            }
            out.line()
            api.insertSequence(&out) { out in out.line("try records.map { try insert($0) }") }

            // Upsert.
            out.line()
            sqlConstants.append(("upsertSQL", plan.upsertSQL, false))
            let upsertDoc = plan.nonKeyColumns.isEmpty
                ? ["Inserts `record` unless a row with its key is stored (`ON CONFLICT DO NOTHING`), and", "returns it as stored."]
                : [
                    "Inserts `record`, or updates the other columns of the stored row with the same key",
                    "(`ON CONFLICT DO UPDATE`: the row is not deleted, so no cascade or delete trigger", "runs), and returns it as stored.",
                ]
            api.upsert(doc: upsertDoc, &out) { out in
                runWrite("upsertSQL", &out) { out in out.line("try Self.bindColumns(of: record, to: statement)") }
                returnStored(table, &out)
            }

            if table.expires { renderExpiringWrites(table, &out) }

            // Update.
            if !plan.nonKeyColumns.isEmpty {
                out.line()
                sqlConstants.append(("updateSQL", plan.updateSQL, false))
                api.update(&out) { out in
                    runWrite("updateSQL", &out) { out in
                        bindLines(plan.nonKeyColumns + plan.keyColumns, table: table, value: { "record.\($0.swiftName)" }, first: 1, &out)
                    }
                    out.line("return self.conn.changes > 0")
                }
            }

            // Delete and find by key.
            let keyValues = Dictionary(uniqueKeysWithValues: zip(plan.keyColumns.map(\.name), api.keyNames.map(\.reference)))
            out.line()
            sqlConstants.append(("deleteSQL", plan.deleteSQL, false))
            api.deletes(&out) { out in
                if plan.keyColumns.count == 1, let key = plan.keyColumns.first, key.isOptional {
                    // An adopted table that is not STRICT may have a key that allows NULL: such a row has no key to name.
                    out.line("guard let key = record.\(key.swiftName) else { return false }")
                    out.line("return try delete(\(SwiftNames.argumentLabel(key.name)): key)")
                } else {
                    out.line("try delete(\(api.keyArguments))")
                }
            } key: { out in
                runWrite("deleteSQL", &out) { out in
                    bindLines(plan.keyColumns, table: table, value: { keyValues[$0.name] ?? $0.swiftName }, first: 1, &out)
                }
                out.line("return self.conn.changes > 0")
            }
            out.line()
            sqlConstants.append(("findSQL", plan.findSQL, false))
            api.find(table.expires ? "The record with this key, or nil (also when it has expired)." : "The record with this key, or nil.", &out) { out in
                out.line("let statement = try self.conn.cachedStatement(Self.findSQL)")
                out.line("defer { statement.reset() }")
                bindLines(plan.keyColumns, table: table, value: { keyValues[$0.name] ?? $0.swiftName }, first: 1, &out)
                if table.expires { out.line("try statement.bind(self.conn.now, at: \(plan.keyColumns.count + 1))") }
                out.line("return try statement.step() ? Self.decode(statement) : nil")
            }

            // Named queries.
            for query in table.queries {
                out.line()
                let constant = uniqueConstant("query" + SwiftNames.upperFirst(query.name) + "SQL")
                sqlConstants.append((constant, plan.querySQL(query), false))
                renderQuery(query, constant: constant, api: api, nowIndex: plan.queryNowIndex(query), &out)
            }

            // Navigation.
            for navigation in plan.navigations {
                out.line()
                let constant = uniqueConstant("navigation" + SwiftNames.upperFirst(navigation.methodName) + "SQL")
                sqlConstants.append((constant, navigation.sql, false))
                renderNavigation(navigation, constant: constant, api: api, &out)
            }

            // Full-text search.
            if let search = table.search {
                out.line()
                for constant in renderSearch(search, table: table, &out) {
                    sqlConstants.append((uniqueConstant(constant.name), constant.sql, false))
                }
            }

            out.line()
            out.line("// SQL")
            if table.expires {
                out.line()
                out.line("/// The expiry column: `fetchAll`, `fetchOne`, `count`, `exists` and `cursor` leave out")
                out.line("/// the rows whose `expiresAt` is not after the database's clock.")
                out.line("public static let expiresAtSQLName: String? = \(SwiftNames.stringLiteral(DAOPlan.quoted(Expiry.columnName)))")
            }
            for constant in sqlConstants {
                out.line()
                // The public constants are the `RecordDAO` requirements (text); the others are what
                // the methods run, `CachedSQL` so a connection finds their statements by slot.
                let type = constant.isPublic ? "" : ": CachedSQL"
                out.line("\(constant.isPublic ? "public " : "")static let \(constant.name)\(type) = \(SwiftNames.stringLiteral(constant.sql))")
            }
        }
    }

    /// `return record`, with its dates at the millisecond they are stored with.
    func returnStored(_ table: Table, _ out: inout SwiftWriter) {
        guard table.columns.contains(where: { $0.codec.rounding != nil }) else {
            out.line("return record")
            return
        }
        out.line("var stored = record")
        roundDates(table, &out)
        out.line("return stored")
    }

    /// `stored.<date> = DateFormat.rounded(...)` for each date column.
    func roundDates(_ table: Table, _ out: inout SwiftWriter) {
        for column in table.columns {
            guard let rounding = column.codec.rounding else { continue }
            let member = "stored.\(column.swiftName)"
            out.line(column.isOptional ? "\(member) = \(member).map(\(rounding))" : "\(member) = \(rounding)(\(member))")
        }
    }

    /// `public static func decode(_ statement: Statement) throws -> Record`.
    func renderDecode(_ api: DAOSignatures, _ out: inout SwiftWriter) {
        out.line("/// Reads a record from a row of `selectSQL`'s columns, by position.")
        out.line("@inlinable")
        out.block("public static func decode(_ statement: Statement) throws -> \(api.record)") { out in
            api.initializer(&out) { column, index in readExpression(column, at: index, table: api.table) }
        }
    }

    /// The expression that reads `column` at result position `index`.
    ///
    /// A STRICT table's column holds only its declared type (or NULL, for an optional one), so
    /// numbers, booleans, text and blobs are read unchecked, one `sqlite3_column_*` call each.
    /// A table that is not STRICT can hold anything anywhere: there each is read with a
    /// `converted…` reader, which converts as SQLite would or throws naming the table, the
    /// column, the value (NULL included) and the row. Dates, UUIDs, enums and JSON are
    /// validated in both cases.
    func readExpression(_ column: Column, at index: Int, table: Table) -> String {
        let names = "table: \(SwiftNames.stringLiteral(table.sqlName)), column: \(SwiftNames.stringLiteral(column.sqlName))"
        var (call, throwing) = column.codec.sqliteRead(at: index, names: names, in: table)
        if !table.isStrict(in: schema), let converted = convertedRead(column, at: index, table: table) {
            (call, throwing) = (converted, true)
        }
        let expression = column.isOptional ? "statement.isNull(at: \(index)) ? nil : \(call)" : call
        return throwing ? "try " + expression : expression
    }

    /// Lines binding `columns` to parameters `first`, `first + 1`, … of `statement`.
    /// Runs the write statement of `constant` with the parameters `bind` binds, in
    /// `withCachedStatement`.
    func runWrite(_ constant: String, _ out: inout SwiftWriter, bind: (inout SwiftWriter) -> Void) {
        out.closure("try self.conn.withCachedStatement(Self.\(constant))", parameter: "statement") { out in
            bind(&out)
            out.line("try statement.run()")
        }
    }

    func bindLines(_ columns: [Column], table: Table, value: (Column) -> String, first: Int, _ out: inout SwiftWriter) {
        for (offset, column) in columns.enumerated() {
            out.line(bindStatement(type: column.type, isOptional: column.isOptional, value: value(column), index: first + offset, dateFormat: column.dateFormat))
        }
    }

    /// One line binding `value` of a schema type at parameter `index`.
    func bindStatement(type: ColumnType, isOptional: Bool, value: String, index: Int, dateFormat: DateStorage? = nil) -> String {
        type.codec(dateFormat: dateFormat).sqliteBind(value, isOptional: isOptional, at: index)
    }

    /// A named query's method; `query.parameters` are in the order SQLite numbers them.
    ///
    /// `nowIndex` is the parameter of the current time in an expiring table's query: the
    /// parameters from there on bind one later.
    func renderQuery(_ query: Query, constant: String, api: DAOSignatures, nowIndex: Int?, _ out: inout SwiftWriter) {
        let (table, record, parameters) = (api.table, api.record, query.parameters)
        var summary = query.doc.map { $0 + "\n\n" } ?? ""
        summary += "Named query `\(query.name)`"
        if let condition = query.whereClause { summary += ": `\(condition)`" }
        if let order = query.orderBy { summary += ", ordered by `\(order)`" }
        switch query.limit {
        case .fixed(let count): summary += ", at most \(count)"
        case .parameter(let name): summary += ", at most `\(name)`"
        case nil: break
        }
        if nowIndex != nil { summary += ". Expired rows are left out" }
        api.query(query, doc: summary + ".\n\n\(remark("table \(table.recordName), query \(query.name)"))", &out) { out, names in
            out.line("let statement = try self.conn.cachedStatement(Self.\(constant))")
            out.line("defer { statement.reset() }")
            // In SQLite's numbering the current time of an expiring table's query comes after the
            // parameters of `where`, before a `limit` parameter.
            let bindNow = nowIndex.map { "try statement.bind(self.conn.now, at: \($0))" }
            for (offset, (parameter, names)) in zip(parameters, names).enumerated() {
                var index = offset + 1
                if let nowIndex, let bindNow, index >= nowIndex {
                    if index == nowIndex { out.line(bindNow) }
                    index += 1
                }
                out.line(bindStatement(type: parameter.type, isOptional: parameter.isOptional, value: names.reference, index: index, dateFormat: parameter.dateFormat))
            }
            if let nowIndex, let bindNow, nowIndex > parameters.count { out.line(bindNow) }
            switch query.returns {
            case .many:
                out.line("var records: [\(record)] = []")
                out.line("while try statement.step() { records.append(try Self.decode(statement)) }")
                out.line("return records")
            case .one:
                out.line("return try statement.step() ? Self.decode(statement) : nil")
            case .count:
                out.line("return try statement.step() ? statement.int(at: 0) : 0")
            case .exists:
                out.line("return try statement.step() && statement.bool(at: 0)")
            }
        }
    }

    /// A navigation method along a foreign key.
    func renderNavigation(_ navigation: DAOPlan.Navigation, constant: String, api: DAOSignatures, _ out: inout SwiftWriter) {
        let target = SwiftNames.identifier(navigation.target.recordName)
        let targetDAO = SwiftNames.identifier(SwiftNames.daoName(navigation.target.recordName))
        let column = navigation.boundColumn
        api.navigation(navigation, &out) { out in
            out.line("let statement = try self.conn.cachedStatement(Self.\(constant))")
            out.line("defer { statement.reset() }")
            out.line(bindStatement(type: column.type, isOptional: column.isOptional, value: "record.\(column.swiftName)", index: 1, dateFormat: column.dateFormat))
            if navigation.target.expires { out.line("try statement.bind(self.conn.now, at: 2)") }
            if navigation.isToParent {
                out.line("return try statement.step() ? \(targetDAO).decode(statement) : nil")
            } else {
                out.line("var records: [\(target)] = []")
                out.line("while try statement.step() { records.append(try \(targetDAO).decode(statement)) }")
                out.line("return records")
            }
        }
    }
}
