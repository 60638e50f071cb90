import CSQLite

/// A private in-memory SQLite database the compiler uses to check DDL and queries.
///
/// The only place in `StrataCompiler` that talks to the SQLite C API directly; it is meant to
/// move onto the `Strata` runtime's `Database` once that exists. Not `Sendable`: one check
/// run owns it.
final class SQLiteChecker {
    private var handle: OpaquePointer?

    /// What preparing a statement found.
    struct Prepared {
        /// The names of the statement's parameters, with their prefix (`:name`, `?`, `@x`).
        var parameterNames: [String]
        /// Whether text follows the first statement.
        var hasTrailingText: Bool
    }

    init?() {
        var db: OpaquePointer?
        guard sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            sqlite3_close(db)
            return nil
        }
        handle = db
    }

    deinit {
        sqlite3_close(handle)
    }

    private var message: String {
        sqlite3_errmsg(handle).map { String(cString: $0) } ?? "unknown SQLite error"
    }

    /// Runs `sql`; returns SQLite's error message, or nil on success.
    func execute(_ sql: String) -> String? {
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
            let text = error.map { String(cString: $0) } ?? message
            sqlite3_free(error)
            return text
        }
        return nil
    }

    /// Compiles `sql` without running it.
    func prepare(_ sql: String) -> Result<Prepared, SQLiteMessage> {
        var statement: OpaquePointer?
        var tail = false
        let code = sql.withCString { text -> Int32 in
            var rest: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(handle, text, -1, &statement, &rest)
            if let rest {
                tail = String(cString: rest).contains { !$0.isWhitespace && $0 != ";" }
            }
            return code
        }
        defer { sqlite3_finalize(statement) }
        guard code == SQLITE_OK else { return .failure(SQLiteMessage(text: message)) }
        var names: [String] = []
        let count = sqlite3_bind_parameter_count(statement)
        if count > 0 {
            for index in 1...count {
                names.append(sqlite3_bind_parameter_name(statement, index).map { String(cString: $0) } ?? "?")
            }
        }
        return .success(Prepared(parameterNames: names, hasTrailingText: tail))
    }
}

/// An error message from SQLite.
struct SQLiteMessage: Error {
    var text: String
}
