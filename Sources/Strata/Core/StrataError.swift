import CSQLite

/// The one error type of the Strata runtime.
///
/// SQLite failures carry the primary and extended result codes, SQLite's message, the SQL that
/// failed and, for constraint violations, which kind of constraint it was. Failures found by
/// Strata itself (a value that does not decode, a refused migration, misuse of the API) carry a
/// ``Kind`` that says so.
///
/// ```swift
/// do {
///     try db.write { conn in try conn.execute(sql: "INSERT INTO t(id) VALUES (1)") }
/// } catch let error as StrataError where error.constraint == .unique {
///     // the row exists already
/// }
/// ```
///
/// PostgreSQL failures (the `StrataPostgres` product) have the kind ``Kind/postgres`` and carry the
/// server's ``sqlState`` (`23505` …), its message, the SQL and the constraint kind; a lost or
/// refused connection has the kind ``Kind/connection``, and a connection lost while a `COMMIT`
/// was in flight ``Kind/commitOutcomeUnknown``.
///
/// See <https://www.sqlite.org/rescode.html> for the result codes and
/// <https://www.postgresql.org/docs/current/errcodes-appendix.html> for the SQLSTATE codes.
public struct StrataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, at the coarsest level.
    public enum Kind: String, Sendable, Hashable {
        /// SQLite returned an error; ``StrataError/resultCode`` says which.
        case sqlite
        /// A stored value could not be decoded into the requested Swift type (or was NULL for a
        /// non-optional one).
        case decoding
        /// A value cannot be stored as its type's SQLite form (a date outside the years
        /// 0000–9999, say); nothing was written.
        case invalidValue
        /// The migrator refused to run: checksum drift, a database newer than the code, a gap.
        case migrationRefused
        /// A migration's SQL failed; the database is as it was before that migration.
        case migrationFailed
        /// The API was used in a way it does not support (a nested `write`, a write on a
        /// read-only database, a wrong number of arguments).
        case misuse
        /// A PostgreSQL server returned an error; ``StrataError/sqlState`` says which.
        case postgres
        /// The database server could not be reached, refused the connection, or the connection
        /// was lost, or the server did not answer in time. A write that fails with this kind
        /// did not commit: it failed before its `COMMIT` was sent (see ``commitOutcomeUnknown``).
        case connection
        /// Data made for one schema met a database at another: a ``Changeset`` recorded at
        /// another schema version (`PRAGMA user_version`) than the database it was applied to.
        /// Nothing was written.
        case schemaMismatch
        /// The connection was lost (or the server stopped answering) after a write's `COMMIT`
        /// was sent and before its answer came: the transaction may or may not have committed,
        /// all of it or none of it. Check the data before running the write again, or make the
        /// write safe to repeat (`INSERT … ON CONFLICT DO NOTHING`).
        case commitOutcomeUnknown
    }

    /// The kind of constraint whose violation made a statement fail.
    public enum ConstraintKind: String, Sendable, Hashable {
        /// A `UNIQUE` constraint or unique index (`SQLITE_CONSTRAINT_UNIQUE`; PostgreSQL's
        /// `23505`, which also covers primary keys).
        case unique
        /// A primary key that already exists (`SQLITE_CONSTRAINT_PRIMARYKEY`).
        case primaryKey
        /// A foreign key whose parent row is missing, or still referenced (`SQLITE_CONSTRAINT_FOREIGNKEY`;
        /// PostgreSQL's `23503`).
        case foreignKey
        /// A `CHECK` constraint (`SQLITE_CONSTRAINT_CHECK`; PostgreSQL's `23514`).
        case check
        /// A NULL in a `NOT NULL` column (`SQLITE_CONSTRAINT_NOTNULL`; PostgreSQL's `23502`).
        case notNull
        /// Another constraint (a trigger's `RAISE`, a datatype mismatch in a STRICT table,
        /// PostgreSQL's exclusion constraints `23P01` …).
        case other
    }

    /// What went wrong.
    public var kind: Kind
    /// SQLite's primary result code (`SQLITE_CONSTRAINT` = 19 …), or `SQLITE_ERROR` (1) when
    /// the error did not come from SQLite.
    public var resultCode: Int32
    /// SQLite's extended result code (`SQLITE_CONSTRAINT_UNIQUE` = 2067 …).
    public var extendedResultCode: Int32
    /// A human-readable explanation.
    public var message: String
    /// The SQL that failed, if any.
    public var sql: String?
    /// The constraint that failed, for `SQLITE_CONSTRAINT` errors and PostgreSQL's class 23.
    public var constraint: ConstraintKind?
    /// PostgreSQL's five-character SQLSTATE (`23505` …) for ``Kind/postgres`` errors; nil for
    /// SQLite and for errors that did not come from a PostgreSQL server.
    public var sqlState: String?

    /// Creates an error. Generated code and the runtime use the static factories instead.
    public init(
        kind: Kind, resultCode: Int32 = SQLITE_ERROR, extendedResultCode: Int32? = nil, message: String,
        sql: String? = nil, constraint: ConstraintKind? = nil, sqlState: String? = nil
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.resultCode = resultCode
        self.extendedResultCode = extendedResultCode ?? resultCode
        self.message = message
        self.sql = sql
        self.constraint = constraint
    }

    /// The error SQLite reports for `code` on `db`, with its message and extended code.
    public init(sqliteCode code: Int32, db: OpaquePointer?, sql: String? = nil) {
        let extended = db.map { sqlite3_extended_errcode($0) } ?? code
        let text: String
        if let db, let raw = sqlite3_errmsg(db) {
            text = String(cString: raw)
        } else {
            text = String(cString: sqlite3_errstr(code))
        }
        self.init(
            kind: .sqlite, resultCode: code & SQLiteResultCode.primaryMask, extendedResultCode: extended, message: text, sql: sql,
            constraint: Self.constraintKind(extendedCode: extended)
        )
    }

    /// A stored value that could not be decoded.
    public static func decoding(_ message: String, sql: String? = nil) -> StrataError {
        StrataError(kind: .decoding, resultCode: SQLITE_MISMATCH, message: message, sql: sql)
    }

    /// A NULL read from a column that the record declares non-optional.
    public static func unexpectedNull(table: String, column: String) -> StrataError {
        .decoding("\(table).\(column) is NULL but the record declares it non-optional")
    }

    /// An API misuse.
    public static func misuse(_ message: String, sql: String? = nil) -> StrataError {
        StrataError(kind: .misuse, resultCode: SQLITE_MISUSE, message: message, sql: sql)
    }

    static func constraintKind(extendedCode: Int32) -> ConstraintKind? {
        guard extendedCode & 0xFF == SQLITE_CONSTRAINT else { return nil }
        switch extendedCode {
        case 2067: return .unique  // SQLITE_CONSTRAINT_UNIQUE
        case 1555: return .primaryKey  // SQLITE_CONSTRAINT_PRIMARYKEY
        case 787: return .foreignKey  // SQLITE_CONSTRAINT_FOREIGNKEY
        case 275: return .check  // SQLITE_CONSTRAINT_CHECK
        case 1299: return .notNull  // SQLITE_CONSTRAINT_NOTNULL
        default: return .other
        }
    }

    public var description: String {
        var text: String
        switch kind {
        case .sqlite:
            text = "SQLite error \(extendedResultCode): \(message)"
        case .decoding:
            text = "decoding error: \(message)"
        case .invalidValue:
            text = "invalid value: \(message)"
        case .migrationRefused:
            text = "migration refused: \(message)"
        case .migrationFailed:
            text = "migration failed: \(message)"
        case .misuse:
            text = "misuse: \(message)"
        case .postgres:
            text = "PostgreSQL error \(sqlState ?? "?"): \(message)"
        case .connection:
            text = "connection error: \(message)"
        case .schemaMismatch:
            text = "schema mismatch: \(message)"
        case .commitOutcomeUnknown:
            text = "commit outcome unknown: \(message)"
        }
        if let sql { text += " — while executing `\(sql)`" }
        return text
    }
}

/// SQLite's result codes that Strata raises itself, by their SQLite names, for the modules of
/// this package that do not import SQLite's C API.
package enum SQLiteResultCode {
    /// `SQLITE_ERROR`: a generic error.
    package static let error = SQLITE_ERROR
    /// `SQLITE_BUSY`: another connection holds the lock.
    package static let busy = SQLITE_BUSY
    /// `SQLITE_READONLY`: an attempt to write a read-only database.
    package static let readOnly = SQLITE_READONLY
    /// `SQLITE_CANTOPEN`: the database file cannot be opened.
    package static let cantOpen = SQLITE_CANTOPEN
    /// `SQLITE_MISMATCH`: a value of the wrong type.
    package static let mismatch = SQLITE_MISMATCH
    /// The bits of an extended result code that hold its primary result code.
    package static let primaryMask: Int32 = 0xFF
}
