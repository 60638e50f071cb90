import Strata

/// Checks that need more than one table: names across the schema, foreign keys
/// (`SchemaDecoder+ForeignKeys.swift`), query parameters, and what SQLite itself says about
/// the DDL and the queries.
extension SchemaDecoder {
    mutating func tableError(_ table: Int, _ location: SourceLocation, _ message: String, hint: String? = nil) {
        error(location, message, hint: hint)
        sources[table].hasErrors = true
    }

    mutating func validate(_ schema: inout Schema) {
        checkNames(schema)
        checkRenameHints(schema)
        resolveForeignKeys(&schema)
        checkIndexNames(schema)
        let findings = checkWithSQLite(schema)
        inferParameters(&schema, sqlite: findings)
    }

    // MARK: - Names

    mutating func checkNames(_ schema: Schema) {
        var sqlNames: [SQLName.Key: String] = [:]
        let records = Set(schema.tables.map(\.recordName))
        for (index, table) in schema.tables.enumerated() {
            let location = sources[index].keyLocation
            let key = SQLName.key(table.sqlName)
            if let first = sqlNames[key] {
                tableError(index, location, "table '\(table.recordName)' has the same SQL name '\(table.sqlName)' as table '\(first)'",
                           hint: "SQL names are case-insensitive for ASCII letters; set a different 'table:'")
            } else {
                sqlNames[key] = table.recordName
            }
            if table.recordName.hasSuffix("DAO"), records.contains(String(table.recordName.dropLast(3))) {
                tableError(index, location, "record '\(table.recordName)' has the name of the DAO generated for '\(table.recordName.dropLast(3))'",
                           hint: "rename the record")
            }
            if table.recordName == schema.name {
                tableError(index, location, "record '\(table.recordName)' has the name of the database namespace",
                           hint: "rename the record or set 'database:'")
            }
            if SwiftNames.daoName(table.recordName) == schema.name {
                tableError(index, location, "the database namespace '\(schema.name)' has the name of the DAO generated for '\(table.recordName)'",
                           hint: "rename the record, or name the namespace differently with 'database:'")
            }
            if SwiftNames.typesUsedByGeneratedCode.contains(table.recordName) {
                tableError(index, location, "record '\(table.recordName)' would hide the type '\(table.recordName)' the generated code uses",
                           hint: "rename the record and keep the SQL name with 'table: \(table.sqlName)'")
            }
            checkJSONTypesAgainstEnums(table, index: index)
        }
    }

    /// A json column whose `swiftType` is exactly the name of an enum the record nests
    /// (`swiftType: Format` beside `format: { type: enum … }` → `Book.Format`) would bind to
    /// that enum instead of the app's type: an error at the json column naming both.
    /// A type that only uses the enum (`[Format]`) is the documented way to store several.
    mutating func checkJSONTypesAgainstEnums(_ table: Table, index: Int) {
        var enums: [String: Column] = [:]
        for column in table.columns {
            if case .enumeration(let swiftType, _) = column.type, enums[swiftType] == nil { enums[swiftType] = column }
        }
        guard !enums.isEmpty else { return }
        for column in table.columns {
            guard case .json(let swiftType) = column.type else { continue }
            var bare = swiftType.trimmingSpaces
            while bare.hasSuffix("?") { bare.removeLast() }
            guard let enumColumn = enums[bare] else { continue }
            tableError(index, column.location ?? sources[index].keyLocation,
                       "json column '\(column.name)' has swiftType '\(swiftType)', which names the enum Strata generates for column '\(enumColumn.name)' ('\(table.recordName).\(bare)'): the column would hold that enum, not a type of the app",
                       hint: "give the enum another name with swiftType on '\(enumColumn.name)', or qualify the app's type with its module ('App.\(bare)')")
        }
    }

    mutating func checkIndexNames(_ schema: Schema) {
        var seen: [SQLName.Key: String] = [:]
        for table in schema.tables { seen[SQLName.key(table.sqlName)] = "table '\(table.recordName)'" }
        for (tableIndex, table) in schema.tables.enumerated() {
            for (position, index) in table.indexes.enumerated() {
                let key = SQLName.key(index.name)
                let location = sources[tableIndex].indexes[position].name?.location ?? index.location
                if let first = seen[key] {
                    tableError(tableIndex, location ?? sources[tableIndex].keyLocation,
                               "index name '\(index.name)' is already used by \(first)",
                               hint: "set a different 'name:'")
                } else {
                    seen[key] = "an index of table '\(table.recordName)'"
                }
            }
        }
    }

    // MARK: - Query parameters

    /// Infers parameter types; a query SQLite rejected gets no "cannot infer" follow-on errors.
    ///
    /// The parameters end up in the order SQLite numbers them (first appearance in `where`,
    /// then `limit` when the query's SQL has one), which is the order generated code binds
    /// them by index; SQLite's own numbering of the prepared query confirms it.
    mutating func inferParameters(_ schema: inout Schema, sqlite: SQLiteFindings) {
        var inferred = schema.tables  // assigned once: setting the tables rebuilds the name lookups
        defer { schema.tables = inferred }
        for tableIndex in schema.tables.indices {
            let table = schema.tables[tableIndex]
            for queryIndex in table.queries.indices {
                let query = table.queries[queryIndex]
                let source = sources[tableIndex].queries[queryIndex]
                let whereLocation = source.whereClause?.location ?? source.keyLocation
                let declaredTypes = Dictionary(source.params.map { ($0.key.scalarText ?? "", $0.type) }, uniquingKeysWith: { first, _ in first })
                let found = TableQueryParameters.infer(query, table: table, schema: schema, declared: declaredTypes)
                for other in found.others {
                    tableError(tableIndex, whereLocation, "parameter '\(other)' is not supported",
                               hint: "name parameters ':name'")
                }
                var names = found.names
                // `count` and `exists` queries have no LIMIT in their SQL (SQLRenderer.selectSQL).
                if case .parameter(let name)? = query.limit, query.returns == .many || query.returns == .one, !names.contains(name) {
                    names.append(name)
                }
                // (`?`, `@x`, `$x` were reported above; comparing would only repeat that.)
                if found.others.isEmpty, let numbered = sqlite.parameterNames[[tableIndex, queryIndex]],
                    numbered != names.map({ ":" + $0 })
                {
                    tableError(tableIndex, whereLocation,
                               "SQLite numbers the parameters of query '\(query.name)' as \(numbered.joined(separator: ", ")) but Strata read \(names.map { ":" + $0 }.joined(separator: ", "))",
                               hint: "simplify the condition; the generated code binds parameters in SQLite's order")
                    continue
                }
                var parameters: [TypedQuery.Parameter] = []
                for name in names {
                    if !SwiftNames.isValidSwiftIdentifier(name) {
                        tableError(tableIndex, whereLocation, "parameter ':\(name)' is not a valid Swift identifier")
                        continue
                    }
                    if let declared = source.params.first(where: { $0.key.scalarText == name }) {
                        parameters.append(TypedQuery.Parameter(name: name, type: declared.type, isOptional: declared.isOptional))
                        continue
                    }
                    if case .parameter(name)? = query.limit, found.inferred[name] == nil {
                        parameters.append(TypedQuery.Parameter(name: name, type: .int))
                        continue
                    }
                    guard let inferences = found.inferred[name], let first = inferences.first else {
                        if sqlite.rejected.contains([tableIndex, queryIndex]) { continue }
                        tableError(tableIndex, whereLocation, "cannot infer the type of parameter ':\(name)'",
                                   hint: "compare it with a column, or declare it: params: { \(name): text }")
                        continue
                    }
                    if let other = inferences.first(where: { $0.type != first.type }) {
                        tableError(tableIndex, whereLocation,
                                   "parameter ':\(name)' is compared with columns of different types (\(first.type.keyword) and \(other.type.keyword))",
                                   hint: "use two parameters, or declare its type in 'params'")
                    }
                    // A date compared with a `dateFormat:` column is bound in that column's format.
                    let formats = inferences.map(\.dateFormat)
                    if first.type == .date, let other = formats.first(where: { $0 != formats[0] }) {
                        tableError(tableIndex, whereLocation,
                                   "parameter ':\(name)' is compared with date columns of different date formats (\(formats[0]?.rawValue ?? "iso8601") and \(other?.rawValue ?? "iso8601"))",
                                   hint: "use one parameter per column")
                    }
                    var parameter = TypedQuery.Parameter(name: name, type: first.type, isOptional: inferences.contains { $0.isOptional })
                    if first.type == .date { parameter.dateFormat = formats[0] }
                    parameters.append(parameter)
                }
                for declared in source.params where !names.contains(declared.key.scalarText ?? "") {
                    tableError(tableIndex, declared.key.location, "parameter '\(declared.key.scalarText ?? "")' does not appear in the query",
                               hint: "use ':\(declared.key.scalarText ?? "")' in 'where' or remove it")
                }
                inferred[tableIndex].queries[queryIndex].parameters = parameters
            }
        }
    }

    // MARK: - SQLite

    /// What SQLite said about the queries, by `[table, query]` position.
    struct SQLiteFindings {
        /// The queries SQLite rejected.
        var rejected = Set<[Int]>()
        /// The parameter names (`:name`) of each accepted query, in SQLite's numbering order.
        var parameterNames: [[Int]: [String]] = [:]
    }

    /// Creates the tables and indexes in an in-memory SQLite and prepares every query;
    /// tables that already have problems are skipped to avoid follow-on errors.
    ///
    /// The DDL runs in the order of ``SQLRenderer/ddl(for:)`` (tables in dependency order, their
    /// indexes, the search tables, views, triggers), so that for a valid schema the database
    /// ends up holding exactly that DDL and the later stages reuse it (``SQLiteChecker``).
    /// The tables and their indexes are executed one table at a time in a scratch database and
    /// entered into this one in bulk (``createTablesInBulk(_:in:into:)``); the rest is executed here.
    mutating func checkWithSQLite(_ schema: Schema) -> SQLiteFindings {
        var findings = SQLiteFindings()
        let positions = firstPositions(of: schema.tables, key: \.recordName)
        let ordered = SQLRenderer.dependencyOrder(schema).compactMap { table in positions[table.recordName].map { ($0, table) } }
        guard var sqlite = SQLiteChecker() else { return findings }
        let created: [(Int, Table)]
        // The tables whose DAO statements were prepared in their batch's scratch database.
        var statementsChecked: Set<Int> = []
        if let bulk = createTablesInBulk(ordered, in: schema, into: sqlite) {
            for problem in bulk.problems { tableError(problem.table, problem.location, problem.message) }
            created = bulk.created
            statementsChecked = bulk.statementsChecked
        } else {
            guard let fresh = SQLiteChecker() else { return findings }
            sqlite = fresh
            created = createTablesOneByOne(ordered, in: schema, sqlite: sqlite)
        }
        self.sqlite = sqlite
        // The search tables and their triggers were checked where `search:` is decoded; they
        // are created here so that views, triggers and queries see them as in the real database.
        if created.count == schema.tables.count {
            for sql in SQLRenderer.searchDDL(for: schema) where sqlite.executeDDL(sql) != nil { break }
        }
        checkViewsAndTriggers(schema, sqlite: sqlite)
        // The statements the generated DAOs run (the named queries are prepared below, where
        // a rejection can point at their `where` or `orderBy`), and both navigation methods of
        // each foreign key, once per key (the schema's other tables are not walked per table).
        // Navigation reads other tables: only when every table was created.
        // Tables whose statements their batch already prepared (with every table they touch)
        // are not prepared again here, where each name lookup walks the whole schema.
        let everyTableCreated = !sources.contains(where: \.hasErrors)
        let byRecordName = Self.tablesByRecordName(schema)
        for (tableIndex, table) in schema.tables.enumerated() where everyTableCreated && !statementsChecked.contains(tableIndex) {
            for sql in Self.daoStatements(of: table, byRecordName: byRecordName, in: schema) {
                CompileWork.countDAOStatementPreparedInFull()
                if case .failure(let message) = sqlite.prepare(sql) {
                    tableError(tableIndex, sources[tableIndex].keyLocation, "SQLite rejects the generated SQL of table '\(table.recordName)': \(message.text)",
                               hint: sql)
                }
            }
        }
        for (tableIndex, table) in schema.tables.enumerated() where !sources[tableIndex].hasErrors {
            for (position, query) in table.queries.enumerated() {
                switch checkQuery(query, source: sources[tableIndex].queries[position], table: table,
                                  tableIndex: tableIndex, sqlite: sqlite) {
                case .rejected:
                    findings.rejected.insert([tableIndex, position])
                case .accepted(let numbered):
                    findings.parameterNames[[tableIndex, position]] = numbered
                }
            }
        }
        return findings
    }

    /// An error about a table found before it is reported.
    struct TableProblem {
        var table: Int
        var location: SourceLocation
        var message: String
    }

    /// The schema's tables by record name (the first of equal names).
    static func tablesByRecordName(_ schema: Schema) -> [String: Table] {
        Dictionary(schema.tables.map { ($0.recordName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The statements of `table`'s generated DAO that validation prepares: ``DAOPlan/statements``
    /// (with `leavingOutImplied`, ``DAOPlan/statements(leavingOutImplied:)``) and both
    /// navigation methods of each of its foreign keys.
    static func daoStatements(of table: Table, byRecordName: [String: Table], in schema: Schema, leavingOutImplied: Bool = false) -> [String] {
        var statements = DAOPlan(table: table, schema: schema).statements(leavingOutImplied: leavingOutImplied)
        for column in table.columns {
            guard let key = column.references, let parent = byRecordName[key.table],
                let parentColumn = parent.column(named: key.column)
            else { continue }
            statements.append(DAOPlan.navigationSQL(from: parent, where: parentColumn))
            statements.append(DAOPlan.navigationSQL(from: table, where: column))
        }
        return statements
    }

    /// The positions (in `schema.tables`) of the tables whose DAO statements touch only the
    /// table itself and its neighbours along foreign keys, each with those neighbours (the
    /// tables it refers to and the tables that refer to it; at most 64): ``createTablesInBulk(_:in:into:)``
    /// prepares their statements in its small scratch databases. SQLite compiles an `INSERT`,
    /// `UPDATE` or `DELETE` with the foreign-key checks and actions of the table's own keys and
    /// of the keys that refer to it, which need the neighbours (a parent key is always a
    /// primary key or a `UNIQUE` column, so it is found in the parent's own `CREATE TABLE`);
    /// an action's statement on a child compiles that child's keys in turn, which can fail
    /// only by a mismatch (impossible for such parent keys) or in a trigger. So none when the
    /// schema has triggers or full-text search (whose triggers fire), and no table that
    /// expires (its DAO runs its named queries, which may read any table).
    static func neighbourhoods(of schema: Schema) -> [Int: [Int]] {
        guard schema.triggers.isEmpty, !schema.tables.contains(where: { $0.search != nil }) else { return [:] }
        var position: [String: Int] = [:]
        for (index, table) in schema.tables.enumerated() where position[table.recordName] == nil { position[table.recordName] = index }
        var neighbours = Array(repeating: Set<Int>(), count: schema.tables.count)
        for (child, table) in schema.tables.enumerated() {
            for column in table.columns {
                guard let parentName = column.references?.table, let parent = position[parentName] else { continue }
                neighbours[child].insert(parent)
                neighbours[parent].insert(child)
            }
        }
        var result: [Int: [Int]] = [:]
        for (index, table) in schema.tables.enumerated() where !table.expires {
            var around = neighbours[index]
            around.remove(index)
            if around.count <= 64 { result[index] = around.sorted() }
        }
        return result
    }

    /// Creates the tables of `ordered` (position in `schema.tables`, table) and then their
    /// indexes by executing them in `sqlite`, reporting what SQLite rejects; returns the
    /// tables created.
    mutating func createTablesOneByOne(_ ordered: [(Int, Table)], in schema: Schema, sqlite: SQLiteChecker) -> [(Int, Table)] {
        var created: [(Int, Table)] = []
        for (tableIndex, table) in ordered where !sources[tableIndex].hasErrors {
            let sql = SQLRenderer.createTableSQL(table, in: schema)
            if let message = sqlite.executeDDL(sql) {
                let location = locateTableProblem(table, tableIndex: tableIndex, in: schema, sqlite: sqlite)
                tableError(tableIndex, location, "SQLite rejects table '\(table.recordName)': \(message)")
                continue
            }
            created.append((tableIndex, table))
        }
        for (tableIndex, table) in created {
            for (position, index) in table.indexes.enumerated() {
                if let message = sqlite.executeDDL(SQLRenderer.createIndexSQL(index, on: table)) {
                    tableError(tableIndex, indexLocation(tableIndex, position, index), "SQLite rejects index '\(index.name)': \(message)")
                }
            }
        }
        return created
    }

    /// Where an index SQLite rejects is reported.
    func indexLocation(_ tableIndex: Int, _ position: Int, _ index: Index) -> SourceLocation {
        let source = sources[tableIndex].indexes[position]
        return source.whereClause?.location ?? index.location ?? sources[tableIndex].keyLocation
    }

    /// What ``createTablesOneByOne(_:in:sqlite:)`` does, in linear time: each table and its
    /// indexes are executed in a scratch database that holds only them and the other tables
    /// of a small batch (a fresh scratch database per batch), so SQLite checks them exactly
    /// as it would in the full database and each `CREATE` costs the same, and what SQLite stored for them is then entered into
    /// `sqlite` at once (``SQLiteChecker/load(_:recording:)``), in the order
    /// ``createTablesOneByOne(_:in:sqlite:)`` would create them. A `CREATE` depends on the
    /// objects already in the database only through their names, so names that coincide
    /// (ASCII case folded, as SQLite compares them) are left to that function.
    ///
    /// Returns the problems, not yet reported, and the tables created; nil, with nothing
    /// reported, when the caller must run ``createTablesOneByOne(_:in:sqlite:)`` in a new
    /// database instead (names that coincide, or SQLite refused the entries).
    ///
    /// Once a batch is complete, the DAO statements of its tables that ``neighbourhoods(of:)``
    /// allows are prepared in its scratch database, their neighbours outside the batch created
    /// there too (after the batch's entries were read): each lookup of a name then walks a few
    /// dozen names instead of the whole schema (SQLite 3.40's schema hash tables stop growing at
    /// 64 buckets). The tables whose statements all prepared are returned in
    /// `statementsChecked`; any other (a statement SQLite rejects there, a problem in the batch)
    /// is prepared in the full database as before, which gives the error.
    func createTablesInBulk(
        _ ordered: [(Int, Table)], in schema: Schema, into sqlite: SQLiteChecker
    ) -> (problems: [TableProblem], created: [(Int, Table)], statementsChecked: Set<Int>)? {
        guard var scratch = SQLiteChecker() else { return nil }
        var problems: [TableProblem] = []
        var indexProblems: [TableProblem] = []
        var created: [(Int, Table)] = []
        var tableObjects: [SQLiteChecker.SchemaObject] = []
        var indexObjects: [SQLiteChecker.SchemaObject] = []
        var tableDDL: [String] = []
        var indexDDL: [String] = []
        var sequenceLoaded = false
        // The scratch database holds a batch of tables at a time, not one: a fresh one per
        // batch instead of a DROP TABLE and a read of sqlite_master per table. A `CREATE`
        // depends on the other objects only through their names, so a table whose name, an
        // index's name or its probe name (``locateTableProblem(_:tableIndex:in:sqlite:)``)
        // is already in the batch starts a new one.
        let batchSize = 32
        var batchNames: Set<SQLName.Key> = []
        var batchCount = 0
        let neighbourhoods = Self.neighbourhoods(of: schema)
        let byRecordName = Self.tablesByRecordName(schema)
        var statementsChecked: Set<Int> = []
        // The statements SQLite compiled in a batch, with every table they touch: it compiles
        // them in the full database too.
        var accepted: Set<String> = []
        // The batch's created tables, and whether SQLite accepted all of its DDL.
        var batchTables: [(Int, Table)] = []
        var batchClean = true
        func checkBatchStatements() {
            defer {
                batchTables = []
                batchClean = true
            }
            guard batchClean else { return }
            let members = Set(batchTables.map(\.0))
            let checked = batchTables.filter { neighbourhoods[$0.0] != nil }
            var outside: Set<Int> = []
            for (tableIndex, _) in checked { outside.formUnion(neighbourhoods[tableIndex] ?? []) }
            outside.subtract(members)
            for neighbour in outside.sorted() {
                let table = schema.tables[neighbour]
                guard scratch.execute(SQLRenderer.createTableSQL(table, in: schema)) == nil else { return }
                for index in table.indexes where scratch.execute(SQLRenderer.createIndexSQL(index, on: table)) != nil { return }
            }
            for (tableIndex, table) in checked {
                // A statement SQLite compiled in an earlier batch compiles here too (a
                // navigation method's is often another table's `find`).
                let statements = Self.daoStatements(of: table, byRecordName: byRecordName, in: schema, leavingOutImplied: true)
                    .filter { !accepted.contains($0) }
                if scratch.preparesAll(statements) {
                    statementsChecked.insert(tableIndex)
                    accepted.formUnion(statements)
                }
            }
        }
        func harvest() -> Bool {
            guard let objects = scratch.schemaObjects() else { return false }
            for object in objects {
                if object.type == "index" {
                    indexObjects.append(object)
                } else if object.name == "sqlite_sequence" {
                    // AUTOINCREMENT's table, created with the first table that has it (in
                    // each batch that has one).
                    if !sequenceLoaded { tableObjects.append(object) }
                    sequenceLoaded = true
                } else {
                    tableObjects.append(object)
                }
            }
            return true
        }
        for (tableIndex, table) in ordered where !sources[tableIndex].hasErrors {
            let names = ([table.sqlName, "strata_probe_\(tableIndex)"] + table.indexes.map(\.name)).map(SQLName.key)
            if batchCount == batchSize || names.contains(where: batchNames.contains) {
                guard harvest() else { return nil }
                checkBatchStatements()
                guard let fresh = SQLiteChecker() else { return nil }
                scratch = fresh
                batchNames = []
                batchCount = 0
            }
            batchNames.formUnion(names)
            batchCount += 1
            let sql = SQLRenderer.createTableSQL(table, in: schema)
            if let message = scratch.executeDDL(sql) {
                let location = locateTableProblem(table, tableIndex: tableIndex, in: schema, sqlite: scratch)
                problems.append(TableProblem(table: tableIndex, location: location, message: "SQLite rejects table '\(table.recordName)': \(message)"))
                batchClean = false
                continue
            }
            created.append((tableIndex, table))
            batchTables.append((tableIndex, table))
            tableDDL.append(sql)
            for (position, index) in table.indexes.enumerated() {
                let indexSQL = SQLRenderer.createIndexSQL(index, on: table)
                if let message = scratch.executeDDL(indexSQL) {
                    indexProblems.append(TableProblem(table: tableIndex, location: indexLocation(tableIndex, position, index),
                                                      message: "SQLite rejects index '\(index.name)': \(message)"))
                    batchClean = false
                } else {
                    indexDDL.append(indexSQL)
                }
            }
        }
        guard harvest() else { return nil }
        checkBatchStatements()
        var names = Set<SQLName.Key>()
        for object in tableObjects + indexObjects where !names.insert(SQLName.key(object.name)).inserted { return nil }
        guard sqlite.load(tableObjects + indexObjects, recording: tableDDL + indexDDL) else { return nil }
        return (problems + indexProblems, created, statementsChecked)
    }

    /// What preparing a query found.
    enum QueryCheck {
        case rejected
        /// SQLite accepted it; its parameter names in SQLite's numbering, nil when some were
        /// reported as misplaced.
        case accepted(numbered: [String]?)
    }

    /// Prepares the query's `SELECT`.
    mutating func checkQuery(_ query: Query, source: QuerySource, table: Table, tableIndex: Int, sqlite: SQLiteChecker) -> QueryCheck {
        // The whole query first: when SQLite accepts it and the `where` closes every bracket it
        // opens, the `where` alone is accepted too (the same condition on the same table; the
        // `ORDER BY` that follows cannot continue an expression), so one prepare suffices. A
        // `where` that leaves a bracket open can be completed by the `orderBy` (`id IN (SELECT
        // id FROM t` + `id)`): it is prepared alone, as below, and rejected there.
        if query.orderBy == nil || Self.closesItsBrackets(query.whereClause ?? ""),
            case .success(let prepared) = sqlite.prepare(SQLRenderer.selectSQL(query, on: table)), !prepared.hasTrailingText
        {
            return .accepted(numbered: checkedParameterNames(prepared, query: query, source: source, tableIndex: tableIndex))
        }
        var numbered: [String]?
        // Where first, then with the ordering, so the message points at the part SQLite rejects.
        var partial = query
        partial.orderBy = nil
        partial.limit = nil
        partial.returns = .many
        let stages: [(Query, YAMLNode?)] = [(partial, source.whereClause), (query, source.orderBy ?? source.whereClause)]
        for (stage, (candidate, node)) in stages.enumerated() {
            switch sqlite.prepare(SQLRenderer.selectSQL(candidate, on: table)) {
            case .failure(let message):
                tableError(tableIndex, node?.location ?? source.keyLocation,
                           "SQLite rejects query '\(query.name)': \(message.text)",
                           hint: Self.hint(forSQLiteMessage: message.text, table: table))
                return .rejected
            case .success(let prepared):
                if prepared.hasTrailingText {
                    tableError(tableIndex, node?.location ?? source.keyLocation,
                               "query '\(query.name)' must be a single SQL expression")
                    return .rejected
                }
                if stage == 1 {
                    numbered = checkedParameterNames(prepared, query: query, source: source, tableIndex: tableIndex)
                }
            }
        }
        return .accepted(numbered: numbered)
    }

    /// Whether every `(` of `sql` is closed in it, and no `)` closes what it did not open.
    static func closesItsBrackets(_ sql: String) -> Bool {
        var depth = 0
        for token in SQLTokenizer.tokenize(sql) where token.kind == .symbol {
            if token.text == "(" { depth += 1 }
            if token.text == ")" {
                depth -= 1
                if depth < 0 { return false }
            }
        }
        return depth == 0
    }

    /// The parameter names of the accepted query in SQLite's numbering; nil, with the
    /// parameters outside `where` and `limit` (in `orderBy`, which would never be bound) reported.
    mutating func checkedParameterNames(_ prepared: SQLiteChecker.Prepared, query: Query, source: QuerySource, tableIndex: Int) -> [String]? {
        var numbered: [String]? = prepared.parameterNames
        let inWhere = TableQueryParameters.names(in: query.whereClause ?? "")
        var known = Set(inWhere.names.map { ":" + $0 })
        if case .parameter(let name)? = query.limit { known.insert(":" + name) }
        // Other styles in `where` are reported there already.
        known.formUnion(inWhere.others)
        for name in prepared.parameterNames where !known.contains(name) {
            numbered = nil
            if name.hasPrefix(":") {
                tableError(tableIndex, source.orderBy?.location ?? source.keyLocation,
                           "parameter '\(name)' is only allowed in 'where' and 'limit'")
            } else {
                // `?`, `$x`, `@x` in `orderBy`: the generated code binds none of them.
                tableError(tableIndex, source.orderBy?.location ?? source.keyLocation,
                           "parameter '\(name)' is not supported", hint: "name parameters ':name', in 'where' or 'limit'")
            }
        }
        return numbered
    }

    /// For "no such column: x": the SQL name when `x` is a Swift name, else a close SQL name.
    static func hint(forSQLiteMessage message: String, table: Table) -> String? {
        let prefix = "no such column: "
        guard message.hasPrefix(prefix) else { return nil }
        let name = String(message.dropFirst(prefix.count))
        if let column = table.columns.first(where: { $0.name == name && $0.sqlName != name }) {
            return "queries use SQL column names: write \(SQLRenderer.quoteIdentifier(column.sqlName))"
        }
        return Suggestion.hint(for: name, in: table.columns.map(\.sqlName))
    }

    /// Where a table's DDL goes wrong: a `check` or `{ sql: }` default if one alone fails, else the table.
    func locateTableProblem(_ table: Table, tableIndex: Int, in schema: Schema, sqlite: SQLiteChecker) -> SourceLocation {
        let fallback = sources[tableIndex].keyLocation
        let probe = "strata_probe_\(tableIndex)"
        guard sqlite.execute(SQLRenderer.createTableSQL(table, in: schema, name: probe, checks: false)) == nil else {
            return fallback
        }
        _ = sqlite.execute("DROP TABLE \(SQLRenderer.quoteIdentifier(probe))")
        for (position, column) in table.columns.enumerated() {
            var single = table
            single.columns = table.columns.map { other in
                var other = other
                if other.name != column.name {
                    other.check = nil
                    if case .sql? = other.defaultValue { other.defaultValue = nil }
                }
                return other
            }
            if sqlite.execute(SQLRenderer.createTableSQL(single, in: schema, name: probe, checks: true)) != nil {
                let source = sources[tableIndex].columns[position]
                return source.check?.location ?? source.defaultValue?.location ?? source.keyLocation
            }
            _ = sqlite.execute("DROP TABLE \(SQLRenderer.quoteIdentifier(probe))")
        }
        return fallback
    }
}
