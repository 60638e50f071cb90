/// What every generated `<Record>DAO` shares: fetching with an optional SQL condition,
/// ordering, limit and offset; counting; existence; update-all and delete-all; cursors.
///
/// Generated code supplies the table's SQL and a row decoder; the methods here build the
/// statement, bind the arguments (never spliced into the SQL) and decode by column index.
///
/// A condition is one SQL expression: it and the assignments of ``updateAll(set:where:_:)``
/// must make exactly one statement (a `;` and more SQL after it throw before anything runs),
/// and the arguments must match its parameters exactly, in number or by name.
///
/// On a table with `expires: true` (docs/Expiry.md) the reads (fetches, cursors, count,
/// exists) also leave out the rows whose `expiresAt` has passed: see ``expiresAtSQLName``.
///
/// ```swift
/// let recent = try BookDAO(conn).fetchAll(where: "publishedAt > ?", ["2020-01-01"], orderBy: "title", limit: 20)
/// let count = try BookDAO(conn).count(where: "price IS NULL")
/// ```
public protocol RecordDAO {
    /// The record type the table maps to.
    associatedtype Record

    /// The connection the DAO runs on.
    var conn: Connection { get }

    /// The quoted SQL name of the table.
    static var tableSQLName: String { get }

    /// `SELECT <every column, in record order> FROM <table>`.
    static var selectSQL: String { get }

    /// Reads one record from the current row of a statement made from ``selectSQL``.
    static func decode(_ statement: Statement) throws -> Record

    /// The quoted SQL name of the `expiresAt` column of a table with `expires: true`: the reads
    /// here (fetches, cursors, count, exists) leave out the rows whose `expiresAt` is not after
    /// the connection's clock (``Database/Configuration/now``). Nil, the default, for a table
    /// whose rows do not expire. `updateAll` and `deleteAll` see every row.
    static var expiresAtSQLName: String? { get }
}

extension RecordDAO {
    /// Nil: the table's rows do not expire. (Inlinable, so that the reads of such a table
    /// test a constant.)
    @inlinable
    public static var expiresAtSQLName: String? { nil }

    /// The SQL of a read: `base` with `condition`, and, for an expiring table, the condition
    /// that leaves expired rows out, whose `:strata_now` parameter `bindRead(_:to:)` binds.
    @usableFromInline
    static func readSQL(_ base: String, where condition: String?, orderBy: String?, limit: Int?, offset: Int?) -> String {
        guard let column = expiresAtSQLName else { return sql(base, where: condition, orderBy: orderBy, limit: limit, offset: offset) }
        var notExpired = "(\(column) IS NULL OR \(column) > \(Statement.nowParameter))"
        if let condition {
            // A `--` comment in the condition ends with it, not with the closing parenthesis.
            notExpired += " AND (" + condition + (condition.contains("--") ? "\n" : "") + ")"
        }
        return sql(base, where: notExpired, orderBy: orderBy, limit: limit, offset: offset)
    }

    /// Binds `arguments` to a statement made from `readSQL(_:where:orderBy:limit:offset:)`,
    /// and the connection's current time when the table expires.
    @inlinable
    func bindRead(_ arguments: StatementArguments, to statement: Statement) throws {
        if Self.expiresAtSQLName == nil {
            try statement.bind(arguments)
        } else {
            try statement.bind(arguments, now: conn.clock())
        }
    }

    @usableFromInline
    static func sql(_ base: String, where condition: String?, orderBy: String?, limit: Int?, offset: Int?) -> String {
        guard condition != nil || orderBy != nil || limit != nil || offset != nil else { return base }
        var sql = base
        if let condition {
            sql += " WHERE " + condition
            // A `--` comment in the condition ends with it, not with the rest of the statement.
            if condition.contains("--") { sql += "\n" }
        }
        if let orderBy {
            sql += " ORDER BY " + orderBy
            if orderBy.contains("--") { sql += "\n" }
        }
        if let limit {
            sql += " LIMIT \(limit)"
        } else if offset != nil {
            sql += " LIMIT -1"
        }
        if let offset { sql += " OFFSET \(offset)" }
        return sql
    }

    /// Every record matching `condition` (all when nil), in `orderBy` order, at most `limit`
    /// of them after skipping `offset`.
    @inlinable
    public func fetchAll(
        where condition: String? = nil, _ arguments: StatementArguments = [], orderBy: String? = nil,
        limit: Int? = nil, offset: Int? = nil
    ) throws -> [Record] {
        let statement = try conn.conditionStatement(
            ObjectIdentifier(Self.self), .fetchAll, where: condition, orderBy: orderBy, limit: limit, offset: offset
        ) { Self.readSQL(Self.selectSQL, where: condition, orderBy: orderBy, limit: limit, offset: offset) }
        defer { statement.reset() }
        try bindRead(arguments, to: statement)
        var records: [Record] = []
        while try statement.step() {
            records.append(try Self.decode(statement))
        }
        return records
    }

    /// The first record matching `condition` in `orderBy` order, or nil.
    @inlinable
    public func fetchOne(where condition: String? = nil, _ arguments: StatementArguments = [], orderBy: String? = nil) throws -> Record? {
        let statement = try conn.conditionStatement(
            ObjectIdentifier(Self.self), .fetchOne, where: condition, orderBy: orderBy, limit: 1, offset: nil
        ) { Self.readSQL(Self.selectSQL, where: condition, orderBy: orderBy, limit: 1, offset: nil) }
        defer { statement.reset() }
        try bindRead(arguments, to: statement)
        return try statement.step() ? Self.decode(statement) : nil
    }

    /// A cursor over the records matching `condition`, read one at a time: for results too
    /// large to hold in memory.
    ///
    /// Inlinable, so that the cursor's decoder is the DAO's own `decode`, not a call through
    /// the protocol's witness table on every row.
    @inlinable
    public func cursor(where condition: String? = nil, _ arguments: StatementArguments = [], orderBy: String? = nil) throws -> Cursor<Record> {
        let statement = try conn.makeStatement(sql: Self.readSQL(Self.selectSQL, where: condition, orderBy: orderBy, limit: nil, offset: nil))
        try bindRead(arguments, to: statement)
        return Cursor(statement: statement, decode: Self.decode)
    }

    /// The number of records matching `condition` (all when nil). (Inlinable, as the fetches
    /// are: specialized for the DAO, with no generic calls per call.)
    @inlinable
    public func count(where condition: String? = nil, _ arguments: StatementArguments = []) throws -> Int {
        let statement = try conn.conditionStatement(ObjectIdentifier(Self.self), .count, where: condition, orderBy: nil, limit: nil, offset: nil) {
            Self.readSQL("SELECT count(*) FROM \(Self.tableSQLName)", where: condition, orderBy: nil, limit: nil, offset: nil)
        }
        defer { statement.reset() }
        try bindRead(arguments, to: statement)
        return try statement.step() ? statement.int(at: 0) : 0
    }

    /// True when at least one record matches `condition` (any record when nil). (Inlinable,
    /// as the fetches are.)
    @inlinable
    public func exists(where condition: String? = nil, _ arguments: StatementArguments = []) throws -> Bool {
        // `SELECT 1 … LIMIT 1`, not `SELECT EXISTS (…)`: a condition with trailing SQL must stay
        // the end of the statement, so that it is refused as trailing SQL before anything runs.
        let statement = try conn.conditionStatement(ObjectIdentifier(Self.self), .exists, where: condition, orderBy: nil, limit: 1, offset: nil) {
            Self.readSQL("SELECT 1 FROM \(Self.tableSQLName)", where: condition, orderBy: nil, limit: 1, offset: nil)
        }
        defer { statement.reset() }
        try bindRead(arguments, to: statement)
        return try statement.step()
    }

    /// Runs `UPDATE <table> SET <assignments> WHERE <condition>` and returns the number of
    /// rows changed. Arguments bind the `?`s of `assignments`, then those of `condition`.
    @discardableResult
    public func updateAll(set assignments: String, where condition: String? = nil, _ arguments: StatementArguments = []) throws -> Int {
        let sql = Self.sql("UPDATE \(Self.tableSQLName) SET \(assignments)", where: condition, orderBy: nil, limit: nil, offset: nil)
        try conn.executeOne(sql: sql, arguments: arguments)
        return conn.changes
    }

    /// Deletes the records matching `condition` (all when nil) and returns how many.
    @discardableResult
    public func deleteAll(where condition: String? = nil, _ arguments: StatementArguments = []) throws -> Int {
        let sql = Self.sql("DELETE FROM \(Self.tableSQLName)", where: condition, orderBy: nil, limit: nil, offset: nil)
        try conn.executeOne(sql: sql, arguments: arguments)
        return conn.changes
    }
}
