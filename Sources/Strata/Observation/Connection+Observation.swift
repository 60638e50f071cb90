import CSQLite
import Foundation

// What statements read and write, as SQLite's authorizer reports it: the fact observation is
// built on.
//
// SQLite calls the authorizer only while it prepares a statement, and a connection's cached
// statements are prepared once. So the runtime does not try to catch reads or writes as they
// happen. It learns what a SQL text reads or writes by preparing it once more with an
// authorizer (``Connection/analyzeAccess(sql:)``), remembering the answer per text until the
// schema changes (``ObservationCenter``). Which texts matter: during an observed fetch, the
// SQL text of every statement that *ran* on its reader connection (`SQLITE_TRACE_STMT`, which
// fires for cached statements too, installed only for the fetch); for a committed transaction,
// the writing statements that ran in it, from SQLite's per-statement run counters read once at
// commit (WriterHooks.swift), so the writer runs no observation code per statement.

/// The tables one SQL statement reads and writes, and whether it changes the schema.
struct StatementAccess: Sendable, Equatable {
    /// Lowercased names of the tables (and views) the statement reads, including the tables
    /// behind views.
    var reads: Set<String> = []
    /// Lowercased names of the tables the statement writes, including writes made by triggers
    /// and by foreign-key actions.
    var writes: Set<String> = []
    /// True for `CREATE`, `DROP` and `ALTER` statements and writes to `sqlite_schema`.
    var changesSchema = false
}

/// Collects authorizer reports while one statement is prepared.
private final class AccessRecorder {
    var access = StatementAccess()
}

/// `sqlite3_set_authorizer`'s callback: records, never refuses.
private let accessAuthorizer: @convention(c) (
    UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?
) -> Int32 = { context, action, first, second, _, _ in
    guard let context else { return SQLITE_OK }
    let recorder = Unmanaged<AccessRecorder>.fromOpaque(context).takeUnretainedValue()
    switch action {
    case SQLITE_READ:
        if let first { recorder.access.reads.insert(String(cString: first).lowercased()) }
    case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE:
        if let first {
            let table = String(cString: first).lowercased()
            if table == "sqlite_master" || table == "sqlite_schema" || table == "sqlite_temp_master" || table == "sqlite_temp_schema" {
                recorder.access.changesSchema = true
            } else {
                recorder.access.writes.insert(table)
            }
        }
    case SQLITE_ALTER_TABLE:
        recorder.access.changesSchema = true
        if let second { recorder.access.writes.insert(String(cString: second).lowercased()) }
    case SQLITE_CREATE_INDEX...SQLITE_CREATE_VIEW, SQLITE_DROP_INDEX...SQLITE_DROP_VIEW, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE:
        recorder.access.changesSchema = true
    default:
        break
    }
    return SQLITE_OK
}

extension Connection {
    /// What `sql` (one statement) reads and writes, found by preparing it with an authorizer
    /// and finalizing it without running it; nil when it does not prepare here (it uses a
    /// TEMP table of another connection, say), which callers treat as "could touch anything".
    ///
    /// Installing an authorizer makes SQLite re-prepare this connection's cached statements
    /// once, at their next step; callers remember answers per SQL text so this stays rare.
    func analyzeAccess(sql: String) -> StatementAccess? {
        let recorder = AccessRecorder()
        let context = Unmanaged.passRetained(recorder)
        sqlite3_set_authorizer(handle, accessAuthorizer, context.toOpaque())
        defer {
            sqlite3_set_authorizer(handle, nil, nil)
            context.release()
        }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, 0, &statement, nil)
        sqlite3_finalize(statement)
        guard code == SQLITE_OK else { return nil }
        return recorder.access
    }

    /// Runs `body` and returns its result with the SQL text of every statement that ran
    /// during it (cached or not, finalized or not), from `SQLITE_TRACE_STMT`: on the reader
    /// connection of an observed fetch (the writer's, for an in-memory database), only while
    /// the fetch runs.
    func recordingStatements<T>(_ body: () throws -> T) rethrows -> (T, Set<String>) {
        let recorder = StatementRecorder()
        let context = Unmanaged.passRetained(recorder)
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), statementTrace, context.toOpaque())
        defer {
            sqlite3_trace_v2(handle, 0, nil, nil)
            context.release()
        }
        let result = try body()
        return (result, recorder.sql)
    }
}

/// Collects the SQL texts of the statements that start running on a connection.
final class StatementRecorder {
    /// The SQL texts seen.
    var sql: Set<String> = []
    /// The last statement recorded, to skip the hashing when a loop runs it again.
    private var last: (statement: OpaquePointer, sql: String)?

    /// Records `statement`, which is starting to run.
    func record(_ statement: OpaquePointer) {
        guard let text = sqlite3_sql(statement) else { return }
        // The same statement run again in a loop: compare bytes, not only the pointer, since a
        // finalized statement's memory can be reused by a new one with other SQL.
        if let last, last.statement == statement, last.sql.withCString({ strcmp($0, text) == 0 }) {
            return
        }
        let string = String(cString: text)
        sql.insert(string)
        last = (statement, string)
    }

    /// Forgets what was recorded.
    func clear() {
        sql.removeAll(keepingCapacity: true)
        last = nil
    }
}

/// `sqlite3_trace_v2`'s callback for a ``StatementRecorder``.
let statementTrace: @convention(c) (UInt32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32 = {
    mask, context, statement, _ in
    guard mask == UInt32(SQLITE_TRACE_STMT), let context, let statement else { return 0 }
    Unmanaged<StatementRecorder>.fromOpaque(context).takeUnretainedValue().record(OpaquePointer(statement))
    return 0
}
