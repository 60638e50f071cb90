// SQLCipher builds leave out SQLite's session extension, so changesets exist only where the
// system SQLite is linked (docs/Encryption.md; plugin-driven builds enable both traits).
#if SystemSQLite || !SQLCipher
import CSQLite
import Foundation

extension Database {
    /// Runs `body` in a write transaction, as ``write(_:)-4oj87`` does, and returns the
    /// changes it committed as a ``Changeset`` (SQLite's session extension,
    /// <https://www.sqlite.org/sessionintro.html>).
    ///
    /// Every table with a declared primary key is recorded, including tables `body` creates.
    /// When `body` throws, nothing is committed and the error is rethrown. A row changed
    /// several times appears once, with its first old and last new values; a row inserted and
    /// then deleted does not appear.
    ///
    /// ```swift
    /// let changeset = try db.recordChanges { conn in
    ///     try conn.execute(sql: "INSERT INTO book(id, title) VALUES (?, ?)", arguments: [7, "Provenance"])
    /// }
    /// try replica.apply(changeset, onConflict: .replace)
    /// ```
    public func recordChanges(_ body: (Connection) throws -> Void) throws -> Changeset {
        try write { conn in
            var session: OpaquePointer?
            var code = sqlite3session_create(conn.handle, "main", &session)
            guard code == SQLITE_OK, let session else {
                throw StrataError(sqliteCode: code, db: conn.handle)
            }
            defer { sqlite3session_delete(session) }
            code = sqlite3session_attach(session, nil)
            guard code == SQLITE_OK else { throw StrataError(sqliteCode: code, db: conn.handle) }
            try body(conn)
            var count: Int32 = 0
            var bytes: UnsafeMutableRawPointer?
            code = sqlite3session_changeset(session, &count, &bytes)
            defer { sqlite3_free(bytes) }
            guard code == SQLITE_OK else { throw StrataError(sqliteCode: code, db: conn.handle) }
            guard let bytes, count > 0 else { return Changeset(validData: Data()) }
            return Changeset(validData: Data(bytes: bytes, count: Int(count)))
        }
    }

    /// Applies `changeset` to this database in one write transaction and returns how many
    /// conflicts were met; `onConflict` says how each is resolved.
    ///
    /// The database must have the changeset's tables with the same columns and primary keys
    /// (a table it lacks is skipped, as SQLite does). With ``Changeset/ConflictResolution/abort``,
    /// the first conflict throws a ``StrataError`` with result code `SQLITE_ABORT` (4) and the
    /// database is left exactly as it was; so does any other failure. Observers of this
    /// database see the applied changes as they see any write.
    ///
    /// ```swift
    /// let conflicts = try laptop.apply(changeset, onConflict: .ignore)
    /// ```
    @discardableResult
    public func apply(_ changeset: Changeset, onConflict resolution: Changeset.ConflictResolution) throws -> Int {
        guard !changeset.isEmpty else { return 0 }
        guard changeset.data.count <= Int(Int32.max) else {
            throw StrataError(kind: .sqlite, resultCode: SQLITE_TOOBIG, message: "the changeset is larger than 2 GB")
        }
        return try write { conn in
            let context = ApplyContext(resolution: resolution)
            var copy = changeset.data
            let code = withExtendedLifetime(context) {
                copy.withUnsafeMutableBytes { bytes in
                    sqlite3changeset_apply(
                        conn.handle, Int32(bytes.count), bytes.baseAddress, nil,
                        { pointer, kind, _ in
                            guard let pointer else { return SQLITE_CHANGESET_ABORT }
                            let context = Unmanaged<ApplyContext>.fromOpaque(pointer).takeUnretainedValue()
                            return context.resolve(kind)
                        },
                        Unmanaged.passUnretained(context).toOpaque())
                }
            }
            guard code == SQLITE_OK else {
                var error = StrataError(sqliteCode: code, db: conn.handle)
                if let conflict = context.abortedOn {
                    error.message = "the changeset was not applied: \(conflict) (onConflict: .\(resolution.rawValue))"
                }
                throw error
            }
            return context.conflicts
        }
    }
}

/// The state of one `sqlite3changeset_apply` call, handed to its conflict handler.
private final class ApplyContext {
    let resolution: Changeset.ConflictResolution
    var conflicts = 0
    var abortedOn: String?

    init(resolution: Changeset.ConflictResolution) {
        self.resolution = resolution
    }

    func resolve(_ kind: Int32) -> Int32 {
        conflicts += 1
        let description: String
        switch kind {
        case SQLITE_CHANGESET_DATA: description = "a changed row was changed in this database too"
        case SQLITE_CHANGESET_NOTFOUND: description = "a changed row is not in this database"
        case SQLITE_CHANGESET_CONFLICT: description = "an inserted primary key exists in this database"
        case SQLITE_CHANGESET_CONSTRAINT: description = "a change violates a constraint"
        case SQLITE_CHANGESET_FOREIGN_KEY: description = "the changes leave a foreign key violated"
        default: description = "conflict \(kind)"
        }
        let result: Int32
        switch (resolution, kind) {
        case (_, SQLITE_CHANGESET_FOREIGN_KEY), (.abort, _):
            result = SQLITE_CHANGESET_ABORT
        case (.replace, SQLITE_CHANGESET_DATA), (.replace, SQLITE_CHANGESET_CONFLICT):
            result = SQLITE_CHANGESET_REPLACE
        default:
            result = SQLITE_CHANGESET_OMIT
        }
        if result == SQLITE_CHANGESET_ABORT, abortedOn == nil { abortedOn = description }
        return result
    }
}
#endif
