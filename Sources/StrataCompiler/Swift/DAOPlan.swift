/// The SQL and names of one table's DAO, computed once: what the Swift renderer prints and what
/// tests and the query checker can inspect.
///
/// The statements are built in a ``SQLDialect``: SQLite's with `?` placeholders; PostgreSQL's
/// with `$1, $2, …` (`$n::jsonb` for JSON values), `RETURNING` the stored row on writes.
package struct DAOPlan {
    /// A navigation method along a foreign key.
    package struct Navigation: Hashable, Sendable {
        /// The method name (`author`, `books`).
        package var methodName: String
        /// The table the method returns records of.
        package var target: Table
        /// True for child → parent (`book.author`), false for parent → children.
        package var isToParent: Bool
        /// The column of this DAO's record whose value is bound.
        package var boundColumn: Column
        /// The foreign-key column (in the child table).
        package var foreignKeyColumn: Column
        /// The SQL.
        package var sql: String
    }

    let table: Table
    let schema: Schema
    /// The database the SQL is written for.
    let dialect: any SQLDialect

    /// Plans the DAO of `table` in `schema`, its SQL in `dialect`.
    package init(table: Table, schema: Schema, dialect: any SQLDialect = SQLiteDialect()) {
        self.table = table
        self.schema = schema
        self.dialect = dialect
    }

    static func quoted(_ name: String) -> String { SQLRenderer.quoteIdentifier(name) }

    /// The quoted table name.
    package var tableName: String { Self.quoted(table.sqlName) }
    /// The key columns, in key order.
    package var keyColumns: [Column] { table.primaryKeyColumns }
    /// The columns outside the key, in declaration order.
    package var nonKeyColumns: [Column] { table.columns.filter { !table.primaryKey.contains($0.name) } }

    func columnList(_ table: Table) -> String {
        table.columns.map { Self.quoted($0.sqlName) }.joined(separator: ", ")
    }

    /// `"a" = ? AND "b" = ?` for the key, its values numbered from `first`.
    func keyCondition(from first: Int) -> String {
        keyColumns.enumerated().map { "\(Self.quoted($0.element.sqlName)) = \(dialect.placeholder(first + $0.offset, for: nil))" }
            .joined(separator: " AND ")
    }

    /// The placeholders of the values of `columns`, numbered from `first`.
    func placeholders(_ columns: [Column], from first: Int) -> [String] {
        guard dialect.placeholderUsesCodec else { return (0..<columns.count).map { dialect.placeholder(first + $0, for: nil) } }
        return columns.enumerated().map { dialect.placeholder(first + $0.offset, for: $0.element.codec) }
    }

    /// What follows a write that gives back the stored row (PostgreSQL's `RETURNING`).
    var returningRow: String { dialect.returning(columnList(table)) }

    /// `SELECT <columns> FROM <table>`.
    package var selectSQL: String { "SELECT \(columnList(table)) FROM \(tableName)" }

    /// `INSERT INTO t (a, b) VALUES (?, ?)`, or `INSERT INTO t DEFAULT VALUES` without columns
    /// (a table whose only column is its autoincrement key).
    func insert(_ columns: [Column]) -> String {
        // A table whose only column is its autoincrement key: `()` is not valid SQL.
        if columns.isEmpty { return "INSERT INTO \(tableName) DEFAULT VALUES" }
        let names = columns.map { Self.quoted($0.sqlName) }.joined(separator: ", ")
        return "INSERT INTO \(tableName) (\(names)) VALUES (\(placeholders(columns, from: 1).joined(separator: ", ")))"
    }

    /// Inserts every column.
    package var insertSQL: String { insert(table.columns) + returningRow }
    /// Inserts every column but the autoincrement key.
    package var insertAssigningKeySQL: String { insert(table.columns.filter { $0.primaryKey != .autoincrement }) + returningRow }

    /// Inserts, or updates every non-key column of the row with the same key.
    package var upsertSQL: String {
        let conflict = keyColumns.map { Self.quoted($0.sqlName) }.joined(separator: ", ")
        var action = ""
        for column in nonKeyColumns {
            let name = Self.quoted(column.sqlName)
            action += action.isEmpty ? "DO UPDATE SET " : ", "
            action += name
            action += " = excluded."
            action += name
        }
        if action.isEmpty { action = dialect.upsertOfKeyOnly(keyColumns.first.map { Self.quoted($0.sqlName) } ?? "") }
        return insert(table.columns) + " ON CONFLICT (" + conflict + ") " + action + returningRow
    }

    /// Updates the non-key columns of the row with a key.
    package var updateSQL: String {
        let assignments = zip(nonKeyColumns, placeholders(nonKeyColumns, from: 1)).map { "\(Self.quoted($0.sqlName)) = \($1)" }
        return "UPDATE \(tableName) SET \(assignments.joined(separator: ", ")) WHERE \(keyCondition(from: nonKeyColumns.count + 1))"
    }

    /// Deletes the row with a key.
    package var deleteSQL: String { "DELETE FROM \(tableName) WHERE \(keyCondition(from: 1))" }

    /// Selects the row with a key (one that has not expired, when the table expires: the
    /// current time is parameter `keyColumns.count + 1`).
    package var findSQL: String {
        let sql = selectSQL + " WHERE \(keyCondition(from: 1))"
        guard table.expires, dialect.filtersExpiredRows else { return sql }
        return sql + " AND " + Expiry.notExpiredCondition(now: dialect.placeholder(keyColumns.count + 1, for: nil))
    }

    /// The SQL of a named query: the text the front end prepared in SQLite, whose parameters it
    /// numbered in `query.parameters` order. On an expiring table the condition that leaves
    /// expired rows out follows the query's own, its current time numbered
    /// ``queryNowIndex(_:)``. In another dialect the fragments read as it reads them and the
    /// parameters are its placeholders, numbered in `query.parameters` order.
    package func querySQL(_ query: Query) -> String {
        let slots = query.parameters.enumerated().map {
            ($0.element.name, ParameterSlot(number: $0.offset + 1, codec: $0.element.type.codec(dateFormat: $0.element.dateFormat)))
        }
        let parameters = Dictionary(slots, uniquingKeysWith: { first, _ in first })
        let notExpired = dialect.filtersExpiredRows ? nowNumber(query).map { Expiry.notExpiredCondition(now: dialect.numberedPlaceholder($0)) } : nil
        return SQLRenderer.selectSQL(query, on: table, notExpired: notExpired, dialect: dialect, parameters: parameters)
    }

    /// The parameter number of the current time in a named query of an expiring table (nil for
    /// other tables): after the parameters of `where`, before a `limit` parameter.
    package func queryNowIndex(_ query: Query) -> Int? {
        guard table.expires else { return nil }
        return query.parameters.count - (hasLimitOnlyParameter(query) ? 1 : 0) + 1
    }

    /// The number of the current time's parameter in `querySQL(query)` of an expiring table:
    /// ``queryNowIndex(_:)`` in SQLite; after every parameter of the query in a dialect whose
    /// placeholders are numbered as the parameters are listed (PostgreSQL's `$n`).
    package func nowNumber(_ query: Query) -> Int? {
        guard table.expires else { return nil }
        return dialect is SQLiteDialect ? queryNowIndex(query) : query.parameters.count + 1
    }

    /// Selects every row (every row that has not expired, when the table expires: the current
    /// time is parameter 1).
    package var fetchAllSQL: String {
        guard table.expires, dialect.filtersExpiredRows else { return selectSQL }
        return selectSQL + " WHERE " + Expiry.notExpiredCondition(now: dialect.placeholder(1, for: nil))
    }

    /// Whether the last of `query.parameters` is its `limit:` and does not appear in `where`.
    func hasLimitOnlyParameter(_ query: Query) -> Bool {
        guard case .parameter(let name)? = query.limit, query.returns == .many || query.returns == .one,
            query.parameters.last?.name == name
        else { return false }
        return !TableQueryParameters.names(in: query.whereClause ?? "").names.contains(name)
    }

    /// Deletes the rows of an expiring table whose `expiresAt` is not after parameter 1.
    package var purgeExpiredSQL: String {
        "DELETE FROM \(tableName) WHERE \(Self.quoted(Expiry.columnName)) <= \(dialect.placeholder(1, for: nil))"
    }

    /// The statements the generated DAO runs on its own table: select, insert, upsert, update,
    /// delete and find (not navigation; the named queries only on an expiring table, whose
    /// added condition the front end did not prepare). The validation stage prepares each.
    package var statements: [String] { statements(leavingOutImplied: false) }

    /// ``statements``; with `leavingOutImplied`, without the two that another one contains, so
    /// that SQLite compiles them whenever it compiles that one: the `SELECT` of every row
    /// (`find`'s statement is it followed by a `WHERE`) and, when nothing follows the written
    /// row (no `RETURNING`), the `INSERT` (the upsert's is it followed by `ON CONFLICT`).
    package func statements(leavingOutImplied: Bool) -> [String] {
        var statements: [String]
        if !leavingOutImplied {
            statements = [selectSQL, insertSQL, upsertSQL, deleteSQL, findSQL]
        } else if returningRow.isEmpty {
            statements = [upsertSQL, deleteSQL, findSQL]
        } else {
            statements = [insertSQL, upsertSQL, deleteSQL, findSQL]
        }
        if !nonKeyColumns.isEmpty { statements.append(updateSQL) }
        if table.autoincrementColumn != nil { statements.append(insertAssigningKeySQL) }
        if table.expires { statements += table.queries.map(querySQL) }
        return statements
    }

    /// The SQL of a navigation method: the rows of `table` whose `column` is the bound value.
    static func navigationSQL(from table: Table, where column: Column, dialect: any SQLDialect = SQLiteDialect()) -> String {
        let columns = table.columns.map { quoted($0.sqlName) }.joined(separator: ", ")
        let sql = "SELECT \(columns) FROM \(quoted(table.sqlName)) WHERE \(quoted(column.sqlName)) = \(dialect.placeholder(1, for: nil))"
        // An expiring table's rows that have expired are left out: the current time is parameter 2.
        guard table.expires, dialect.filtersExpiredRows else { return sql }
        return sql + " AND " + Expiry.notExpiredCondition(now: dialect.placeholder(2, for: nil))
    }

    /// The navigation methods: to the parent along each foreign key of this table, then to the
    /// children along each foreign key of any table that refers to this one.
    package var navigations: [Navigation] {
        var used = SwiftNames.daoMembers.union(SwiftNames.forbiddenMethodNames).union(table.queries.map(\.name))
        if table.search != nil { used.formUnion(SwiftNames.searchMembers) }
        func unique(_ name: String) -> String { SwiftNames.unique(name, among: &used) }
        var result: [Navigation] = []
        for column in table.columns {
            guard let reference = column.references, let parent = schema.table(named: reference.table),
                let parentColumn = parent.column(named: reference.column)
            else { continue }
            var name = column.name
            for suffix in ["Id", "ID", "_id"] where name.hasSuffix(suffix) && name.count > suffix.count {
                name = String(name.dropLast(suffix.count))
                break
            }
            if name == column.name { name = SwiftNames.lowerFirst(parent.recordName) }
            let sql = Self.navigationSQL(from: parent, where: parentColumn, dialect: dialect)
            result.append(
                Navigation(methodName: unique(name), target: parent, isToParent: true, boundColumn: column, foreignKeyColumn: column, sql: sql))
        }
        // The tables that refer to this one come from the schema's index of references (built
        // once per schema): scanning every table for each table made this quadratic.
        func refersToThisTable(_ column: Column) -> Bool {
            guard let reference = column.references else { return false }
            return schema.table(named: reference.table)?.recordName == table.recordName
        }
        for childIndex in schema.positionsOfTables(referencing: table) {
            let child = schema.tables[childIndex]
            let references = child.columns.filter(refersToThisTable)
            for column in references {
                guard let reference = column.references, let parentColumn = table.column(named: reference.column) else { continue }
                var name = SwiftNames.plural(SwiftNames.lowerFirst(child.recordName))
                if references.count > 1 { name += "By" + SwiftNames.upperFirst(column.name) }
                let sql = Self.navigationSQL(from: child, where: column, dialect: dialect)
                result.append(
                    Navigation(methodName: unique(name), target: child, isToParent: false, boundColumn: parentColumn, foreignKeyColumn: column, sql: sql))
            }
        }
        return result
    }
}
