import CSQLite
import Foundation

/// The hooks observation installs on a database's writer connection while something observes:
///
/// - `sqlite3_trace_v2` with `SQLITE_TRACE_STMT` records the SQL text of every statement of the
///   transaction that may write (cached statements included), and `SQLITE_TRACE_PROFILE` tells
///   when a statement ended: when that statement was a successful COMMIT, the transaction is
///   published, after COMMIT returned and the commit is visible to readers.
/// - `sqlite3_commit_hook` / `sqlite3_rollback_hook` tell a commit from a rollback; a rollback
///   discards what was recorded.
/// - `sqlite3_total_changes64` before and after tells whether the transaction changed any row.
/// - For `changes(to:)` subscribers, the preupdate hook (when this SQLite has it; it sees rows
///   deleted by `INSERT OR REPLACE`, `DELETE` without `WHERE` and WITHOUT ROWID tables) or else
///   the update hook reports each changed row with its primary key.
///
/// Every member is used on the writer's thread only: inside the writer's callbacks or inside
/// `writeWithoutTransaction`.
final class WriterHooks: @unchecked Sendable {
    let handle: OpaquePointer
    private weak var center: ObservationCenter?
    private weak var database: Database?
    private let recorder = StatementRecorder(includeReadOnly: false)
    private var committed = false
    private var totalChanges: Int64
    private var pendingChanges: [DatabaseChange] = []
    /// Subscribed tables (lowercased) → the column indexes of their primary key (empty: the
    /// rowid), whether that key is the rowid itself, and whether the table has a rowid.
    private var keyColumns: [String: (columns: [Int32], isRowID: Bool, hasRowID: Bool)] = [:]
    private var rowHookInstalled = false

    init(connection: Connection, center: ObservationCenter, database: Database? = nil) {
        handle = connection.handle
        self.center = center
        self.database = database
        totalChanges = sqlite3_total_changes64(connection.handle)
    }

    private var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    func install() {
        totalChanges = sqlite3_total_changes64(handle)
        installTrace()
        sqlite3_commit_hook(handle, writerCommitHook, context)
        sqlite3_rollback_hook(handle, writerRollbackHook, context)
    }

    /// (Re)installs the trace callback, which an observed fetch on this connection replaces
    /// for its duration.
    func installTrace() {
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE), writerTrace, context)
    }

    func uninstall() {
        sqlite3_trace_v2(handle, 0, nil, nil)
        sqlite3_commit_hook(handle, nil, nil)
        sqlite3_rollback_hook(handle, nil, nil)
        removeRowHook()
    }

    /// Reports row changes of `tables` (lowercased names) from now on; none when empty.
    func setChangeTables(_ tables: Set<String>, on conn: Connection) throws {
        var keys: [String: (columns: [Int32], isRowID: Bool, hasRowID: Bool)] = [:]
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

    fileprivate func statementStarted(_ statement: OpaquePointer) {
        recorder.record(statement)
    }

    fileprivate func statementEnded() {
        guard sqlite3_get_autocommit(handle) != 0 else { return }  // still in a transaction
        guard committed else {
            // A statement that wrote nothing, or a failed one that was rolled back.
            if !recorder.sql.isEmpty { recorder.clear() }
            if !pendingChanges.isEmpty { pendingChanges = [] }
            return
        }
        committed = false
        let total = sqlite3_total_changes64(handle)
        let rowsChanged = total - totalChanges
        totalChanges = total
        let sql = recorder.sql
        recorder.clear()
        let changes = pendingChanges
        pendingChanges = []
        center?.didCommit(database, sql: sql, rowsChanged: rowsChanged, changes: changes)
    }

    fileprivate func didCommit() {
        committed = true
    }

    fileprivate func didRollback() {
        committed = false
        recorder.clear()
        pendingChanges = []
        totalChanges = sqlite3_total_changes64(handle)
    }

    fileprivate func preupdate(_ op: Int32, table: UnsafePointer<CChar>, oldRowID: Int64, newRowID: Int64) {
        let name = String(cString: table)
        guard let key = keyColumns[name.lowercased()], let api = PreupdateAPI.shared else { return }
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
        let name = String(cString: table)
        guard let key = keyColumns[name.lowercased()] else { return }
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

private let writerTrace: @convention(c) (UInt32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32 = {
    mask, context, statement, _ in
    guard let hooks = hooks(context) else { return 0 }
    if mask == UInt32(SQLITE_TRACE_STMT) {
        if let statement { hooks.statementStarted(OpaquePointer(statement)) }
    } else if mask == UInt32(SQLITE_TRACE_PROFILE) {
        hooks.statementEnded()
    }
    return 0
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
