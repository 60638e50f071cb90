import CSQLite
import Foundation

/// One SQLite connection, handed to you inside ``Database/read(_:)-8qjgw`` and ``Database/write(_:)-4oj87``.
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
    /// Prepared statements of ``CachedSQL`` values, by their slot, each retained once by the
    /// connection (`Unmanaged`, so that ``withCachedStatement(_:_:)`` can lend one without a
    /// retain and release). Only this connection's closure touches it, so exclusivity is not
    /// checked at run time.
    @exclusivity(unchecked) @usableFromInline var slots: [Unmanaged<Statement>?] = []
    /// Slot statements that ``clearStatementCache()`` let go of, released when the closure
    /// ends (a `withCachedStatement` body may be using one while a hook clears the cache).
    var retiredSlots: [Unmanaged<Statement>] = []
    /// Prepared statements of `RecordDAO`'s conditional methods, found by comparing their
    /// parts (see `Connection+ConditionCache.swift`).
    @exclusivity(unchecked) @usableFromInline var conditionStatements: [ConditionStatement] = []
    /// Observation's hooks, while this is the writer connection of a ``Database`` something
    /// observes (Observation/WriterHooks.swift): told when a statement that ran is finalized and
    /// when a transaction ends, never per statement run.
    var observationHooks: WriterHooks?
    /// The statements stepped since the last commit, kept while ``observationHooks`` are
    /// installed: what observation's commit hook looks at.
    @usableFromInline let stepLog = StepLog()
    /// Depth of nested savepoints, for unique names.
    private var savepointDepth = 0
    /// True for a connection opened read-only.
    public let isReadOnly: Bool
    /// The clock of expiring rows: the ``Database/Configuration/now`` of the database that
    /// opened the connection.
    @usableFromInline var clock: @Sendable () -> Date = { Date() }

    /// Opens a connection. `path` is a file path or `:memory:`; `vfs` names a registered
    /// SQLite VFS (nil: the default one); `immutable` opens a read-only file with SQLite's
    /// `immutable=1` (no locks, no `-shm`: see ``Database/Configuration/readOnly``).
    init(path: String, readOnly: Bool, create: Bool, busyTimeout: TimeInterval, vfs: String? = nil, immutable: Bool = false) throws {
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create, !readOnly { flags |= SQLITE_OPEN_CREATE }
        if immutable { flags |= SQLITE_OPEN_URI }
        let code = sqlite3_open_v2(immutable ? Database.immutableURI(path) : path, &handle, flags, vfs)
        guard code == SQLITE_OK, let handle else {
            let error = StrataError(sqliteCode: code, db: handle)
            // The operating system's reason (no such directory, permission denied …), when known.
            let systemError = handle.map { sqlite3_system_errno($0) } ?? 0
            let reason = systemError != 0 ? " (\(String(cString: strerror(systemError))))" : ""
            sqlite3_close_v2(handle)
            throw StrataError(
                kind: .sqlite, resultCode: error.resultCode, extendedResultCode: error.extendedResultCode,
                message: "cannot open \(path): \(error.message)\(reason)")
        }
        self.handle = handle
        self.isReadOnly = readOnly
        sqlite3_busy_timeout(handle, Int32(clamping: Int((busyTimeout * 1000).rounded())))
        sqlite3_extended_result_codes(handle, 1)
        // Double-quoted text is an identifier, never a string literal: a misspelled
        // "column" is an error instead of a constant (https://www.sqlite.org/quirks.html#dblquote).
        for option in [SQLITE_DBCONFIG_DQS_DML, SQLITE_DBCONFIG_DQS_DDL] {
            let code = strata_db_config_int(handle, option, 0)
            guard code == SQLITE_OK else {
                throw StrataError(
                    kind: .sqlite, resultCode: code,
                    message: "cannot open \(path): this SQLite (\(String(cString: sqlite3_libversion()))) cannot turn double-quoted strings off; Strata needs SQLite 3.29 or later")
            }
        }
    }

    deinit {
        statementCache.removeAll()
        releaseSlots(now: true)
        conditionStatements.removeAll()
        access.generation &+= 1
        sqlite3_close_v2(handle)
    }

    // MARK: - Statements

    /// A new prepared statement for exactly one SQL statement; the caller owns it.
    ///
    /// Whitespace, comments and semicolons may follow the statement; anything else (a second
    /// statement) throws ``StrataError/Kind/misuse`` before anything runs. Run several
    /// statements with ``execute(sql:arguments:)``.
    public func makeStatement(sql: String) throws -> Statement {
        var statement: OpaquePointer?
        var trailing: String?
        let code = sql.withCString { text -> Int32 in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
            if code == SQLITE_OK, let tail { trailing = Self.trailingSQL(tail) }
            return code
        }
        guard code == SQLITE_OK else {
            sqlite3_finalize(statement)
            throw StrataError(sqliteCode: code, db: handle, sql: sql)
        }
        guard let statement else { throw StrataError.misuse("the SQL holds no statement", sql: sql) }
        if let trailing {
            sqlite3_finalize(statement)
            throw StrataError.misuse(
                "the SQL holds more than one statement (`\(trailing)` follows the first); nothing was run. Only execute(sql:) runs several statements",
                sql: sql)
        }
        return Statement(handle: statement, sql: sql, connection: self)
    }

    /// The SQL text at `tail` without leading whitespace, semicolons and comments, or nil when
    /// nothing else is left.
    static func trailingSQL(_ tail: UnsafePointer<CChar>) -> String? {
        trailingSQLStart(tail).map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// Where SQL other than whitespace, semicolons and comments starts at or after `tail`, or
    /// nil when nothing else is left. Reads only up to that point.
    static func trailingSQLStart(_ tail: UnsafePointer<CChar>) -> UnsafePointer<CChar>? {
        var position = tail
        func at(_ offset: Int) -> UInt8 { UInt8(bitPattern: position[offset]) }
        while true {
            switch at(0) {
            case 0:
                return nil
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C, UInt8(ascii: ";"):
                position += 1
            case UInt8(ascii: "-") where at(1) == UInt8(ascii: "-"):
                while at(0) != 0, at(0) != UInt8(ascii: "\n") { position += 1 }
            case UInt8(ascii: "/") where at(1) == UInt8(ascii: "*"):
                position += 2
                while at(0) != 0, !(at(0) == UInt8(ascii: "*") && at(1) == UInt8(ascii: "/")) { position += 1 }
                if at(0) != 0 { position += 2 }
            default:
                return position
            }
        }
    }

    /// Prepares the first statement of `sql` and returns it with the text that follows it
    /// (empty when `sql` holds one statement): for tools that must check that a fragment is
    /// exactly one statement.
    package func makeFirstStatement(sql: String) throws -> (statement: Statement, tail: String) {
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

    /// The connection's prepared statement for `sql` (exactly one statement), prepared once and
    /// reset for reuse with every parameter back to NULL. Bind every parameter before stepping.
    @inlinable
    public func cachedStatement(sql: String) throws -> Statement {
        if let statement = cached(sql) {
            statement.reset()
            statement.clearBindings()
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
    /// one closure refuses to step in another. A cursor keeps this object, not the connection,
    /// so that checking it is a load and a comparison, not a weak load.
    let access = AccessGeneration()

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
    ///
    /// Resets the statements stepped in the closure that are still stepping (``StepLog/stepped``):
    /// a walk of every prepared statement (``resetActiveStatements()``) cost each closure time in
    /// proportion to the statement cache (21,700 instructions per write with 500 cached
    /// statements). Every statement the connection prepares is a ``Statement`` stepped by
    /// ``Statement/step()``; `execute(sql:)`'s `sqlite3_exec` finalizes its own.
    func endAccess() {
        stepLog.resetStepped()
        if let observationHooks { observationHooks.publishCommits() }
        if !retiredSlots.isEmpty { releaseRetiredSlots() }
        access.generation &+= 1
    }

    /// Runs one or more SQL statements separated by semicolons, all of them, binding
    /// `arguments`: positional ones are consumed in order across the statements, named ones
    /// bind every statement's parameters of that name.
    ///
    /// This is the one method that runs several statements; every other one (``fetch(sql:arguments:)``,
    /// the DAO conditions …) takes exactly one and refuses trailing SQL. Each statement binds
    /// exactly the arguments it declares: when the arguments do not match, it throws
    /// ``StrataError/Kind/misuse`` before running the statement that would have received them
    /// (the statements before it have run: inside ``Database/write(_:)-4oj87`` the transaction rolls
    /// them back).
    public func execute(sql: String, arguments: StatementArguments = []) throws {
        var remainingPositional: [(any DatabaseValueConvertible)?]? = nil
        var named: [(key: String, value: (any DatabaseValueConvertible)?)] = []
        var usedNames: Set<String> = []
        switch arguments.storage {
        case .positional(let values): remainingPositional = values
        case .named(let values): named = values
        }
        var utf8 = Array(sql.utf8CString)
        try utf8.withUnsafeMutableBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return }
            var cursor: UnsafePointer<CChar>? = UnsafePointer(start)
            while let current = cursor, current.pointee != 0 {
                var statementHandle: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, current, -1, &statementHandle, &tail)
                // The rest of the text is copied only for an error: copying it for every
                // statement would make a long script quadratic.
                guard code == SQLITE_OK else { throw StrataError(sqliteCode: code, db: handle, sql: String(cString: current)) }
                cursor = tail
                guard let statementHandle else { continue }  // whitespace or a comment
                let statementSQL = sqlite3_sql(statementHandle).map { String(cString: $0) } ?? String(cString: current)
                let statement = Statement(handle: statementHandle, sql: statementSQL, connection: self)
                let needed = statement.parameterCount
                let isLast = cursor.map { Self.trailingSQLStart($0) == nil } ?? true
                if var values = remainingPositional {
                    guard values.count >= needed, !isLast || values.count == needed else {
                        // Refuse before running anything the arguments were not meant for.
                        throw StrataError.misuse(
                            "the statement has \(Statement.counted(needed, "parameter")) but \(Statement.counted(values.count, "argument")) \(values.count == 1 ? "is" : "are") left for it",
                            sql: statementSQL)
                    }
                    try statement.bind(StatementArguments(Array(values.prefix(needed))))
                    values.removeFirst(needed)
                    remainingPositional = values
                } else {
                    usedNames.formUnion(try statement.bindParameters(named: named))
                    if isLast, let extra = named.first(where: { !usedNames.contains(Statement.bareName($0.key)) }) {
                        throw StrataError.misuse(
                            "the named argument :\(Statement.bareName(extra.key)) matches no parameter of the SQL",
                            sql: sql)
                    }
                }
                try statement.run()
            }
        }
        if let remainingPositional, !remainingPositional.isEmpty {
            // Only reachable when the SQL holds no statement at all.
            throw StrataError.misuse("\(Statement.counted(remainingPositional.count, "argument")) were not used: the SQL holds no statement", sql: sql)
        }
        if remainingPositional == nil, let extra = named.first(where: { !usedNames.contains(Statement.bareName($0.key)) }) {
            throw StrataError.misuse("the named argument :\(Statement.bareName(extra.key)) matches no parameter of the SQL", sql: sql)
        }
    }

    /// Runs exactly one statement (trailing SQL throws before anything runs), binding exactly
    /// its parameters: what the DAO's `updateAll` and `deleteAll` use.
    func executeOne(sql: String, arguments: StatementArguments) throws {
        let statement = try cachedStatement(sql: sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        try statement.run()
    }

    /// Every row of a query: exactly one statement (trailing SQL throws before anything runs),
    /// with exactly one argument for each of its parameters.
    public func fetch(sql: String, arguments: StatementArguments = []) throws -> [Row] {
        let statement = try cachedStatement(sql: sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        var rows: [Row] = []
        // Read once, shared by every row, and after the first step: a cached statement whose
        // tables changed (a migration renamed or added a column) is prepared again by that
        // step, and its result columns are the new ones.
        var columnNames: [String]?
        while try statement.step() {
            let names = columnNames ?? statement.columnNames
            columnNames = names
            rows.append(Row(statement: statement, columnNames: names))
        }
        return rows
    }

    /// The first row of a query (exactly one statement, as for ``fetch(sql:arguments:)``), or nil.
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
        /// Takes no lock until the first read, and the write lock at the first write.
        case deferred = "DEFERRED"
        /// Takes the write lock at once: the default of ``Connection/inTransaction(_:_:)``.
        case immediate = "IMMEDIATE"
        /// Takes the write lock at once and, outside WAL mode, keeps readers out.
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
        if let observationHooks { observationHooks.publishCommits() }
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
            // A statement still stepping (an abandoned cursor) would make ROLLBACK fail after
            // an interrupt; reset them all first.
            resetActiveStatements()
            sqlite3_exec(handle, "ROLLBACK TRANSACTION", nil, nil, nil)
        }
    }

    /// Drops every cached statement (after a schema change, say; SQLite re-prepares on its own,
    /// so this only frees memory).
    public func clearStatementCache() {
        statementCache.removeAll()
        releaseSlots(now: false)
        conditionStatements.removeAll()
    }
}

/// How many `read`/`write` closures a connection has finished (see ``Cursor``).
@usableFromInline
final class AccessGeneration {
    /// Only the connection's closures touch it (a cursor reads it in the closure that made it),
    /// so exclusivity is not checked at run time: the check (`swift_beginAccess`) cost about 75
    /// instructions per row of a cursor, half of what the cursor added to raw C's loop.
    @exclusivity(unchecked) @usableFromInline var generation = 0
}

/// The statements of a connection that ran recently, in two lists of one kind
/// (``StatementList``): those stepped in the current `read`/`write` closure (``stepped``, which
/// the end of the closure resets), and, while observation's hooks are installed on it
/// (``isOn``), those stepped since the last commit or rollback (``statements``, which the commit
/// hook looks at instead of every statement the connection has prepared: a walk of
/// `sqlite3_next_stmt` cost a commit time in proportion to the statement cache).
///
/// ``Statement/step()`` adds its statement to each list once (the first step in the closure,
/// the first step after a commit); a statement leaves both lists when it is finalized. Only the
/// connection's thread touches it (its closures and SQLite's hooks, which run inside them), so
/// exclusivity is not checked at run time.
@usableFromInline
final class StepLog {
    /// True while observation's hooks are installed.
    @exclusivity(unchecked) @usableFromInline var isOn = false
    /// Counts the `read`/`write` closures that have ended (``resetStepped()``): a statement
    /// whose ``Statement/steppedAccess`` differs has not been stepped in the current one.
    @exclusivity(unchecked) @usableFromInline var access = 0
    /// The statements stepped in the current `read`/`write` closure.
    @exclusivity(unchecked) var stepped = StatementList()
    /// The statements stepped since the last ``drain(_:)``.
    @exclusivity(unchecked) var statements = StatementList()

    init() {}

    /// Adds `statement`, which is not in ``statements``.
    @usableFromInline
    func append(_ statement: Statement) {
        statement.stepLogIndex = statements.append(statement)
    }

    /// Adds `statement`, stepped for the first time in the current closure, to ``stepped``.
    func appendStepped(_ statement: Statement) {
        statement.steppedAccess = access
        statement.steppedIndex = stepped.append(statement)
    }

    /// A statement being finalized leaves ``stepped``.
    func removeStepped(at index: Int) {
        stepped.remove(at: index)
    }

    /// Resets the statements of ``stepped`` that are still stepping (a fetch abandoned when
    /// decoding threw, a cursor not read to its end), so that none keeps an old read snapshot
    /// open after its closure ends, and starts a new closure's list.
    func resetStepped() {
        stepped.drain { statement in
            if sqlite3_stmt_busy(statement.handle) != 0 { sqlite3_reset(statement.handle) }
        }
        access &+= 1
    }

    /// A statement being finalized leaves ``statements``.
    func remove(at index: Int) {
        statements.remove(at: index)
    }

    /// Calls `body` with the handle of every statement of ``statements`` and empties it.
    func drain(_ body: (OpaquePointer) -> Void) {
        statements.drain { statement in
            statement.stepLogIndex = -1
            body(statement.handle)
        }
    }
}

/// Statements entered once each, by position, without retaining them: a finalized statement
/// (whose `deinit` runs on the connection's thread) leaves a hole, so the positions handed out
/// stay valid until the list is drained.
struct StatementList {
    private var entries: [Unmanaged<Statement>?] = []

    /// Adds `statement` and returns its position.
    mutating func append(_ statement: Statement) -> Int {
        entries.append(.passUnretained(statement))
        return entries.count - 1
    }

    /// The statement at `index` leaves the list (it is being finalized).
    mutating func remove(at index: Int) {
        if index < entries.count { entries[index] = nil }
    }

    /// Calls `body` with every statement still in the list, then empties it (keeping its
    /// capacity: the lists are refilled at every closure or commit). `body` must not add or
    /// finalize statements (no retain or release happens here, so no `deinit` can run).
    mutating func drain(_ body: (Statement) -> Void) {
        for entry in entries {
            guard let entry else { continue }
            entry._withUnsafeGuaranteedRef(body)
        }
        entries.removeAll(keepingCapacity: true)
    }
}
