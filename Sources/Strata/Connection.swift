import CSQLite
import Foundation

/// One SQLite connection, handed to you inside ``Database/read(_:)`` and ``Database/write(_:)``.
///
/// Run raw SQL with ``execute(sql:arguments:)``, read ad-hoc rows with ``fetch(sql:arguments:)``,
/// and prepare statements for the typed fast path with ``cachedStatement(sql:)``. Generated DAOs
/// take a connection: `try BookDAO(conn).insert(book)`.
///
/// A connection is deliberately not `Sendable`: it is valid only inside the closure that
/// received it, which has it to itself.
public final class Connection {
    /// The `sqlite3` handle.
    @usableFromInline let handle: OpaquePointer
    /// Prepared statements by SQL text.
    private var statementCache: [String: Statement] = [:]
    /// Prepared statements of ``CachedSQL`` values, by their slot. Only this connection's
    /// closure touches it, so exclusivity is not checked at run time.
    @exclusivity(unchecked) @usableFromInline var slots: [Statement?] = []
    /// Prepared statements of `RecordDAO`'s conditional methods, found by comparing their
    /// parts (see `Connection+ConditionCache.swift`).
    @exclusivity(unchecked) @usableFromInline var conditionStatements: [ConditionStatement] = []
    /// Depth of nested savepoints, for unique names.
    private var savepointDepth = 0
    /// True for a connection opened read-only.
    public let isReadOnly: Bool

    /// Opens a connection. `path` is a file path or `:memory:`.
    init(path: String, readOnly: Bool, create: Bool, busyTimeout: TimeInterval) throws {
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create, !readOnly { flags |= SQLITE_OPEN_CREATE }
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = StrataError(sqliteCode: code, db: handle)
            sqlite3_close_v2(handle)
            throw StrataError(
                kind: .sqlite, resultCode: error.resultCode, extendedResultCode: error.extendedResultCode,
                message: "cannot open \(path): \(error.message)")
        }
        self.handle = handle
        self.isReadOnly = readOnly
        sqlite3_busy_timeout(handle, Int32(clamping: Int((busyTimeout * 1000).rounded())))
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        statementCache.removeAll()
        slots.removeAll()
        conditionStatements.removeAll()
        sqlite3_close_v2(handle)
    }

    // MARK: - Statements

    /// A new prepared statement for one SQL statement; the caller owns it.
    public func makeStatement(sql: String) throws -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK else { throw StrataError(sqliteCode: code, db: handle, sql: sql) }
        guard let statement else { throw StrataError.misuse("the SQL holds no statement", sql: sql) }
        return Statement(handle: statement, sql: sql, connection: self)
    }

    /// Prepares the first statement of `sql` and returns it with the text that follows it
    /// (empty when `sql` holds one statement): for tools that must check that a fragment is
    /// exactly one statement.
    public func makeFirstStatement(sql: String) throws -> (statement: Statement, tail: String) {
        var statement: OpaquePointer?
        var tailText = ""
        let code = sql.withCString { text -> Int32 in
            var rest: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(handle, text, -1, &statement, &rest)
            if let rest { tailText = String(cString: rest) }
            return code
        }
        guard code == SQLITE_OK else {
            sqlite3_finalize(statement)
            throw StrataError(sqliteCode: code, db: handle, sql: sql)
        }
        guard let statement else { throw StrataError.misuse("the SQL holds no statement", sql: sql) }
        return (Statement(handle: statement, sql: sql, connection: self), tailText)
    }

    /// The connection's prepared statement for `sql`, prepared once and reset for reuse: the
    /// fast path generated code uses. Bind every parameter before stepping.
    @inlinable
    public func cachedStatement(sql: String) throws -> Statement {
        if let statement = cached(sql) {
            statement.reset()
            return statement
        }
        return try prepareAndCache(sql)
    }

    @usableFromInline
    func cached(_ sql: String) -> Statement? {
        statementCache[sql]
    }

    /// How many statements a connection keeps prepared; past that the cache starts over, so
    /// SQL built at run time (conditions with literals in them) cannot grow it without bound.
    public static let statementCacheLimit = 512

    @usableFromInline
    func prepareAndCache(_ sql: String) throws -> Statement {
        let statement = try makeStatement(sql: sql)
        if statementCache.count >= Self.statementCacheLimit { statementCache.removeAll(keepingCapacity: true) }
        statementCache[sql] = statement
        return statement
    }

    /// Counts the `read`/`write` closures this connection has finished: a ``Cursor`` made in
    /// one closure refuses to step in another.
    public internal(set) var accessGeneration = 0

    /// Resets every statement of the connection that is still stepping (a fetch abandoned when
    /// decoding threw, a cursor not read to its end), so no statement keeps an old read
    /// snapshot open after its closure ends.
    func resetActiveStatements() {
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { sqlite3_reset(current) }
            statement = sqlite3_next_stmt(handle, current)
        }
    }

    /// Ends one `read`/`write` closure's use of the connection.
    func endAccess() {
        resetActiveStatements()
        accessGeneration &+= 1
    }

    /// Runs one or more SQL statements separated by semicolons, all of them, binding
    /// `arguments` (positional ones are consumed in order across statements; named ones by
    /// name).
    public func execute(sql: String, arguments: StatementArguments = []) throws {
        var remainingPositional: [(any DatabaseValueConvertible)?]? = nil
        if case .positional(let values) = arguments.storage { remainingPositional = values }
        var utf8 = Array(sql.utf8CString)
        try utf8.withUnsafeMutableBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return }
            var cursor: UnsafePointer<CChar>? = UnsafePointer(start)
            while let current = cursor, current.pointee != 0 {
                var statementHandle: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, current, -1, &statementHandle, &tail)
                let text = String(cString: current)
                guard code == SQLITE_OK else { throw StrataError(sqliteCode: code, db: handle, sql: text) }
                cursor = tail
                guard let statementHandle else { continue }  // whitespace or a comment
                let statementSQL = sqlite3_sql(statementHandle).map { String(cString: $0) } ?? text
                let statement = Statement(handle: statementHandle, sql: statementSQL, connection: self)
                let needed = statement.parameterCount
                let isLast = cursor.map { String(cString: $0).allSatisfy { $0.isWhitespace || $0 == ";" } } ?? true
                if isLast, let values = remainingPositional, values.count != needed {
                    // Refuse before running anything the arguments were not meant for.
                    throw StrataError.misuse(
                        "the statement has \(needed) parameters but \(values.count) arguments are left for it", sql: statementSQL)
                }
                if needed > 0 {
                    if var values = remainingPositional {
                        guard values.count >= needed else {
                            throw StrataError.misuse("not enough arguments for the statement's \(needed) parameters", sql: statementSQL)
                        }
                        try statement.bind(StatementArguments(Array(values.prefix(needed))))
                        values.removeFirst(needed)
                        remainingPositional = values
                    } else {
                        try statement.bind(arguments)
                    }
                }
                try statement.run()
            }
        }
        if let remainingPositional, !remainingPositional.isEmpty {
            // Only reachable when the SQL ends in a comment after its last statement.
            throw StrataError.misuse("\(remainingPositional.count) arguments were not used", sql: sql)
        }
    }

    /// Every row of a query.
    public func fetch(sql: String, arguments: StatementArguments = []) throws -> [Row] {
        let statement = try cachedStatement(sql: sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        var rows: [Row] = []
        let columnNames = statement.columnNames  // once, shared by every row
        while try statement.step() {
            rows.append(Row(statement: statement, columnNames: columnNames))
        }
        return rows
    }

    /// The first row of a query, or nil.
    public func fetchOne(sql: String, arguments: StatementArguments = []) throws -> Row? {
        let statement = try cachedStatement(sql: sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        return try statement.step() ? Row(statement: statement) : nil
    }

    /// The first column of the first row decoded as `Value`, or nil when there is no row.
    public func fetchValue<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self, sql: String, arguments: StatementArguments = []
    ) throws -> Value? {
        try fetchOne(sql: sql, arguments: arguments).map { try $0.get(0) }
    }

    // MARK: - State

    /// The rowid of the most recent successful INSERT on this connection
    /// (<https://www.sqlite.org/c3ref/last_insert_rowid.html>).
    @inlinable
    public var lastInsertedRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE (<https://www.sqlite.org/c3ref/changes.html>).
    @inlinable
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// True while a transaction is open.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: - Transactions

    /// The kinds of SQLite transaction (<https://www.sqlite.org/lang_transaction.html>).
    public enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        case immediate = "IMMEDIATE"
        case exclusive = "EXCLUSIVE"
    }

    /// Runs `body` in a transaction that commits when it returns and rolls back when it throws.
    public func inTransaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        guard !isInTransaction else {
            throw StrataError.misuse("a transaction is already open on this connection; use savepoint { } to nest")
        }
        try execute(sql: "BEGIN \(kind.rawValue) TRANSACTION")
        let result: T
        do {
            result = try body()
        } catch {
            rollbackQuietly()
            throw error
        }
        do {
            try execute(sql: "COMMIT TRANSACTION")
        } catch {
            rollbackQuietly()
            throw error
        }
        return result
    }

    /// Runs `body` inside a savepoint: when it throws, only its own changes are rolled back and
    /// the enclosing transaction goes on. Savepoints nest. Outside a transaction it behaves
    /// like one (<https://www.sqlite.org/lang_savepoint.html>).
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "strata_savepoint_\(savepointDepth)"
        try execute(sql: "SAVEPOINT \(name)")
        let result: T
        do {
            result = try body()
        } catch {
            try? execute(sql: "ROLLBACK TO SAVEPOINT \(name)")
            try? execute(sql: "RELEASE SAVEPOINT \(name)")
            throw error
        }
        try execute(sql: "RELEASE SAVEPOINT \(name)")
        return result
    }

    func rollbackQuietly() {
        if isInTransaction {
            sqlite3_exec(handle, "ROLLBACK TRANSACTION", nil, nil, nil)
        }
    }

    /// Drops every cached statement (after a schema change, say; SQLite re-prepares on its own,
    /// so this only frees memory).
    public func clearStatementCache() {
        statementCache.removeAll()
        slots.removeAll()
        conditionStatements.removeAll()
    }
}
