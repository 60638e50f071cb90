import CSQLite
import Foundation

/// The hooks observation installs on a database's writer connection while something observes.
/// None of them runs per statement: a write costs what it costs without observation, and the
/// observation work is done once per transaction.
///
/// - `sqlite3_commit_hook` (once per commit) collects what the transaction may have written:
///   the SQL texts of the writing statements that ran in it. While the hooks are installed,
///   `Statement.step()` puts its statement in the connection's ``StepLog`` (once per commit);
///   the hook looks at those statements only (O(statements run), not O(statements prepared)),
///   takes those that may write and ran (SQLite's `SQLITE_STMTSTATUS_RUN`, bumped by the
///   statement's first instruction), and resets their counters. A statement finalized inside the
///   transaction (`execute(sql:)`'s) reports itself from `Statement.deinit`. What each SQL text
///   writes (triggers and foreign-key actions included) was decided once, when the
///   ``ObservationCenter`` prepared it with an authorizer; never per run.
/// - `sqlite3_rollback_hook` discards what the rolled-back transaction collected.
/// - The commit is published once no transaction is open and the committing statement has
///   returned, so the commit is visible to readers: after `COMMIT` in
///   ``Connection/inTransaction(_:_:)``, and when a `read`/`write` closure ends (commits of
///   statements run outside a transaction; several fold into one publication).
/// - `sqlite3_total_changes64` tells whether the commits changed any row.
/// - For `changes(to:)` subscribers only, the preupdate hook (when this SQLite has it; it sees
///   rows deleted by `INSERT OR REPLACE`, `DELETE` without `WHERE` and WITHOUT ROWID tables) or
///   else the update hook reports each changed row with its primary key.
///
/// Every member is used on the writer's thread only: inside the writer's callbacks or inside
/// `writeWithoutTransaction`.
final class WriterHooks: @unchecked Sendable {
    let handle: OpaquePointer
    /// The writer connection's statements stepped since the last commit or rollback.
    private let stepLog: StepLog
    private weak var center: ObservationCenter?
    private weak var database: Database?
    /// SQL of the writing statements finalized inside the open transaction.
    private var finalizedSQL: Set<String> = []
    /// Row changes of the open transaction.
    private var pendingChanges: [DatabaseChange] = []
    /// What the commits not published yet wrote.
    private var committedSQL: Set<String> = []
    private var committedChanges: [DatabaseChange] = []
    private var hasCommitted = false
    /// A rollback followed an unpublished commit: whether that commit changed rows is unknown.
    private var committedRowsUnknown = false
    /// `sqlite3_total_changes64` at the last publication or rollback.
    private var totalChanges: Int64
    /// Subscribed tables (lowercased) → the column indexes of their primary key (empty: the
    /// rowid), whether that key is the rowid itself, and whether the table has a rowid.
    private var keyColumns: [String: KeyColumns] = [:]
    private var rowHookInstalled = false

    init(connection: Connection, center: ObservationCenter, database: Database? = nil) {
        handle = connection.handle
        stepLog = connection.stepLog
        self.center = center
        self.database = database
        totalChanges = sqlite3_total_changes64(connection.handle)
    }

    private var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    func install(on connection: Connection) {
        // Runs counted before observation started belong to no observed transaction: every
        // statement's counter is reset, once; from now on steps are logged.
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            sqlite3_stmt_status(current, SQLITE_STMTSTATUS_RUN, 1)
            statement = sqlite3_next_stmt(handle, current)
        }
        stepLog.drain { _ in }
        stepLog.isOn = true
        totalChanges = sqlite3_total_changes64(handle)
        sqlite3_commit_hook(handle, writerCommitHook, context)
        sqlite3_rollback_hook(handle, writerRollbackHook, context)
        connection.observationHooks = self
    }

    func uninstall(from connection: Connection) {
        sqlite3_commit_hook(handle, nil, nil)
        sqlite3_rollback_hook(handle, nil, nil)
        removeRowHook()
        stepLog.isOn = false
        stepLog.drain { _ in }
        connection.observationHooks = nil
    }

    /// Calls `body` with the SQL text of every statement stepped since the last call that may
    /// write and ran, and resets their run counters: the statements of the ``StepLog``.
    private func forEachRanStatement(_ body: (UnsafePointer<CChar>) -> Void) {
        stepLog.drain { current in
            if sqlite3_stmt_readonly(current) == 0, sqlite3_stmt_status(current, SQLITE_STMTSTATUS_RUN, 1) > 0,
               let text = sqlite3_sql(current)
            {
                body(text)
            }
        }
    }

    /// A statement of the connection is being finalized: when it may write and ran inside the
    /// open transaction, what it wrote is published with the transaction's commit.
    func statementFinalizing(_ statement: OpaquePointer) {
        guard sqlite3_stmt_readonly(statement) == 0, sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_RUN, 1) > 0,
              sqlite3_get_autocommit(handle) == 0, let text = sqlite3_sql(statement)
        else { return }
        finalizedSQL.insert(String(cString: text))
    }

    /// Publishes the commits made since the last publication, once no transaction is open.
    func publishCommits() {
        guard hasCommitted, sqlite3_get_autocommit(handle) != 0 else { return }
        hasCommitted = false
        let total = sqlite3_total_changes64(handle)
        var rowsChanged = total - totalChanges
        if committedRowsUnknown {
            rowsChanged = max(rowsChanged, 1)
            committedRowsUnknown = false
        }
        totalChanges = total
        let sql = committedSQL
        committedSQL.removeAll(keepingCapacity: true)
        let changes = committedChanges
        committedChanges = []
        center?.didCommit(database, sql: sql, rowsChanged: rowsChanged, changes: changes)
    }

    /// Reports row changes of `tables` (lowercased names) from now on; none when empty.
    func setChangeTables(_ tables: Set<String>, on conn: Connection) throws {
        var keys: [String: KeyColumns] = [:]
        for table in tables {
            let rows = try conn.fetch(sql: "SELECT cid, pk, type FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", arguments: [table])
            let columns = try rows.map { Int32(try $0.get(0) as Int) }
            // A WITHOUT ROWID table refuses `rowid` (unless a column has that name).
            let quoted = SQLQuoting.identifier(table)
            let hasRowID = (try? conn.makeStatement(sql: "SELECT rowid FROM \(quoted) LIMIT 0")) != nil
            let keyType = columns.count == 1 ? (try rows[0].get(2) as String).uppercased() : ""
            let isRowID = hasRowID && (columns.isEmpty || keyType == "INTEGER")
            keys[table] = (columns, isRowID, hasRowID)
        }
        keyColumns = keys
        lastTable = nil
        if keys.isEmpty {
            removeRowHook()
        } else if !rowHookInstalled {
            if let api = PreupdateAPI.shared {
                _ = api.hook(handle, writerPreupdateHook, context)
            } else {
                sqlite3_update_hook(handle, writerUpdateHook, context)
            }
            rowHookInstalled = true
        }
    }

    private func removeRowHook() {
        guard rowHookInstalled else { return }
        if let api = PreupdateAPI.shared {
            _ = api.hook(handle, nil, nil)
        } else {
            sqlite3_update_hook(handle, nil, nil)
        }
        rowHookInstalled = false
        pendingChanges = []
    }

    // MARK: - Changesets

    // SQLCipher builds leave out SQLite's session extension (Database+Changesets.swift).
    #if SystemSQLite || !SQLCipher
    /// Takes the row hook off while SQLite's session extension records on this connection
    /// (``Database/recordChanges(_:)``): a session installs its own preupdate hook, and takes
    /// the context of the hook it replaces for another session's. Returns whether it was on.
    func suspendRowHook() -> Bool {
        guard rowHookInstalled, let api = PreupdateAPI.shared else { return false }
        _ = api.hook(handle, nil, nil)
        return true
    }

    /// Puts the row hook back after ``suspendRowHook()``.
    func resumeRowHook() {
        guard rowHookInstalled, let api = PreupdateAPI.shared else { return }
        _ = api.hook(handle, writerPreupdateHook, context)
    }

    /// Reports the row changes of a changeset recorded while the row hook was off, for the
    /// subscribed tables: one change per row, grouped by table (a changeset holds each row's
    /// net change). `rowID` finds the rowid of a row of a table whose key is not the rowid,
    /// from the table's name and its key's column indexes and values.
    func reportChanges(in changeset: Data, rowID: (String, [Int32], [DatabaseValue]) throws -> Int64?) throws {
        guard !keyColumns.isEmpty, !changeset.isEmpty else { return }
        var found: [(table: String, kind: DatabaseChange.Kind, key: [DatabaseValue], columns: [Int32], isRowID: Bool, hasRowID: Bool)] = []
        try Changeset.walk(changeset) { row in
            guard let key = keyColumns[row.table.lowercased()], !key.columns.isEmpty else { return }
            let kind: DatabaseChange.Kind = row.operation == .insert ? .insert : row.operation == .delete ? .delete : .update
            found.append((row.table, kind, row.keyValues(key.columns), key.columns, key.isRowID, key.hasRowID))
        }
        for change in found {
            var id: Int64?
            if change.isRowID, case .integer(let value)? = change.key.first {
                id = value
            } else if change.hasRowID, change.kind != .delete {
                id = try rowID(change.table, change.columns, change.key)
            }
            pendingChanges.append(DatabaseChange(table: change.table, kind: change.kind, primaryKey: change.key, rowID: id))
        }
    }
    #endif

    // MARK: - Callbacks

    /// The commit hook: runs inside the committing statement, before the commit is visible.
    fileprivate func didCommit() {
        forEachRanStatement { committedSQL.insert(String(cString: $0)) }
        if !finalizedSQL.isEmpty {
            committedSQL.formUnion(finalizedSQL)
            finalizedSQL.removeAll(keepingCapacity: true)
        }
        if !pendingChanges.isEmpty {
            committedChanges.append(contentsOf: pendingChanges)
            pendingChanges = []
        }
        hasCommitted = true
    }

    fileprivate func didRollback() {
        forEachRanStatement { _ in }
        finalizedSQL.removeAll(keepingCapacity: true)
        pendingChanges = []
        if hasCommitted { committedRowsUnknown = true }
        totalChanges = sqlite3_total_changes64(handle)
    }

    /// The table of the last row change, its name and its key when subscribed: the rows of one
    /// statement are of one table, so a row of an unsubscribed table costs a comparison, not
    /// building and lowercasing its name.
    private var lastTable: (pointer: UnsafePointer<CChar>, name: String, key: KeyColumns?)?

    private typealias KeyColumns = (columns: [Int32], isRowID: Bool, hasRowID: Bool)

    /// The name and key of `table` when `changes(to:)` listens to it.
    private func subscribed(_ table: UnsafePointer<CChar>) -> (name: String, key: KeyColumns)? {
        // The same pointer may name another table after a schema change: compare the text too.
        if let last = lastTable, last.pointer == table, last.name.withCString({ strcmp($0, table) == 0 }) {
            return last.key.map { (last.name, $0) }
        }
        let name = String(cString: table)
        let key = keyColumns[name.lowercased()]
        lastTable = (table, name, key)
        return key.map { (name, $0) }
    }

    fileprivate func preupdate(_ op: Int32, table: UnsafePointer<CChar>, oldRowID: Int64, newRowID: Int64) {
        guard let (name, key) = subscribed(table), let api = PreupdateAPI.shared else { return }
        let kind: DatabaseChange.Kind
        switch op {
        case SQLITE_INSERT: kind = .insert
        case SQLITE_DELETE: kind = .delete
        default: kind = .update
        }
        let read = kind == .delete ? api.old : api.new
        var values: [DatabaseValue] = []
        if key.columns.isEmpty {
            values = [.integer(kind == .delete ? oldRowID : newRowID)]
        } else {
            for column in key.columns {
                var value: OpaquePointer?
                values.append(read(handle, column, &value) == SQLITE_OK ? DatabaseValue(sqliteValue: value) : .null)
            }
        }
        let rowID: Int64? = key.hasRowID ? (kind == .delete ? oldRowID : newRowID) : nil
        pendingChanges.append(DatabaseChange(table: name, kind: kind, primaryKey: values, rowID: rowID))
    }

    fileprivate func update(_ op: Int32, table: UnsafePointer<CChar>, rowID: Int64) {
        guard let (name, key) = subscribed(table) else { return }
        let kind: DatabaseChange.Kind = op == SQLITE_INSERT ? .insert : op == SQLITE_DELETE ? .delete : .update
        pendingChanges.append(DatabaseChange(table: name, kind: kind, primaryKey: key.isRowID ? [.integer(rowID)] : [], rowID: rowID))
    }
}

extension DatabaseValue {
    /// The value of a `sqlite3_value`.
    init(sqliteValue value: OpaquePointer?) {
        guard let value else {
            self = .null
            return
        }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            let count = Int(sqlite3_value_bytes(value))
            if let text = sqlite3_value_text(value) {
                self = .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            } else {
                self = .text("")
            }
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            if let bytes = sqlite3_value_blob(value), count > 0 {
                self = .blob(Data(bytes: bytes, count: count))
            } else {
                self = .blob(Data())
            }
        default: self = .null
        }
    }
}

// MARK: - C callbacks

private func hooks(_ context: UnsafeMutableRawPointer?) -> WriterHooks? {
    context.map { Unmanaged<WriterHooks>.fromOpaque($0).takeUnretainedValue() }
}

private let writerCommitHook: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
    hooks(context)?.didCommit()
    return 0
}

private let writerRollbackHook: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    hooks(context)?.didRollback()
}

private let writerUpdateHook: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int64) -> Void = {
    context, op, _, table, rowID in
    guard let table else { return }
    hooks(context)?.update(op, table: table, rowID: rowID)
}

private let writerPreupdateHook: PreupdateAPI.Callback = { context, _, op, _, table, oldRowID, newRowID in
    guard let table else { return }
    hooks(context)?.preupdate(op, table: table, oldRowID: oldRowID, newRowID: newRowID)
}

/// SQLite's preupdate hook API, looked up at run time: it exists only when SQLite was built
/// with `SQLITE_ENABLE_PREUPDATE_HOOK` (Debian's and Ubuntu's libsqlite3 are), and its header
/// declarations are hidden otherwise. Without it, row changes come from the update hook, which
/// misses rows deleted by `INSERT OR REPLACE`, `DELETE` without `WHERE` and WITHOUT ROWID tables.
struct PreupdateAPI: @unchecked Sendable {
    typealias Callback = @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int64, Int64
    ) -> Void
    typealias Hook = @convention(c) (OpaquePointer?, Callback?, UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
    typealias Value = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32

    let hook: Hook
    let old: Value
    let new: Value

    static let shared: PreupdateAPI? = {
        guard let library = dlopen(nil, RTLD_NOW) else { return nil }
        guard let hook = dlsym(library, "sqlite3_preupdate_hook"),
              let old = dlsym(library, "sqlite3_preupdate_old"),
              let new = dlsym(library, "sqlite3_preupdate_new")
        else { return nil }
        return PreupdateAPI(
            hook: unsafeBitCast(hook, to: Hook.self), old: unsafeBitCast(old, to: Value.self), new: unsafeBitCast(new, to: Value.self))
    }()
}
