// SQLCipher builds leave out SQLite's session extension, so changesets exist only where the
// system SQLite is linked (docs/Encryption.md; plugin-driven builds enable both traits).
#if SystemSQLite || !SQLCipher
import CSQLite
import Foundation

extension Database {
    /// Runs `body` in a write transaction, as ``write(_:)-4oj87`` does, and returns the
    /// changes it committed as a ``Changeset`` (SQLite's session extension,
    /// <https://www.sqlite.org/sessionintro.html>), stamped with the database's schema version
    /// (`PRAGMA user_version`, which ``Migrator`` sets to the last applied migration).
    ///
    /// Every table with a declared primary key is recorded, including tables `body` creates,
    /// except the tables the database derives or keeps for itself: the shadow tables of
    /// full-text indexes and other virtual tables (the target's own triggers keep its index),
    /// `strata_migrations` and SQLite's `sqlite_` tables. When `body` throws, nothing is
    /// committed and the error is rethrown. A row changed several times appears once, with its
    /// first old and last new values; a row inserted and then deleted does not appear.
    ///
    /// ```swift
    /// let changeset = try db.recordChanges { conn in
    ///     try conn.execute(sql: "INSERT INTO book(id, title) VALUES (?, ?)", arguments: [7, "Provenance"])
    /// }
    /// try replica.apply(changeset, onConflict: .replace)
    /// ```
    public func recordChanges(_ body: (Connection) throws -> Void) throws -> Changeset {
        try write { conn in
            let schemaVersion = try conn.fetchValue(Int.self, sql: "PRAGMA main.user_version") ?? 0
            let filter = TableFilter(leaveOut: try Self.unrecordedTables(conn))
            // A session installs its own preupdate hook and would take observation's (for
            // `changes(to:)`) for another session's: observation's is off while it records,
            // and the recorded transaction's row changes are reported from the changeset.
            let hooks = observationCenter.writerHooks(on: conn)
            let suspended = hooks?.suspendRowHook() ?? false
            defer { if suspended { hooks?.resumeRowHook() } }
            var session: OpaquePointer?
            var code = sqlite3session_create(conn.handle, "main", &session)
            guard code == SQLITE_OK, let session else {
                throw StrataError(sqliteCode: code, db: conn.handle)
            }
            defer { sqlite3session_delete(session) }
            // The filter runs inside SQLite's pre-update hook, where the connection must not
            // be used: it only looks the name up in the set read above.
            sqlite3session_table_filter(
                session,
                { pointer, name in
                    guard let pointer, let name else { return 0 }
                    return Unmanaged<TableFilter>.fromOpaque(pointer).takeUnretainedValue().includes(name)
                },
                Unmanaged.passUnretained(filter).toOpaque())
            code = sqlite3session_attach(session, nil)
            guard code == SQLITE_OK else { throw StrataError(sqliteCode: code, db: conn.handle) }
            try withExtendedLifetime(filter) { try body(conn) }
            var count: Int32 = 0
            var bytes: UnsafeMutableRawPointer?
            code = sqlite3session_changeset(session, &count, &bytes)
            defer { sqlite3_free(bytes) }
            guard code == SQLITE_OK else { throw StrataError(sqliteCode: code, db: conn.handle) }
            guard let bytes, count > 0 else { return Changeset(validData: Data(), schemaVersion: schemaVersion) }
            // A virtual table that `body` created has shadow tables the filter did not know.
            let recorded = Changeset.removingTables(
                try Self.unrecordedTables(conn), from: Data(bytes: bytes, count: Int(count)))
            if suspended, let hooks {
                try hooks.reportChanges(in: recorded) { table, columns, key in
                    try Self.rowID(conn, table: table, keyColumns: columns, key: key)
                }
            }
            return Changeset(validData: recorded, schemaVersion: schemaVersion)
        }
    }

    /// The rowid of the row of `table` whose key columns (by index) hold `key`.
    static func rowID(_ conn: Connection, table: String, keyColumns: [Int32], key: [DatabaseValue]) throws -> Int64? {
        var conditions: [String] = []
        for (position, column) in keyColumns.enumerated() {
            guard let name = try conn.fetchValue(
                String.self, sql: "SELECT name FROM pragma_table_info(?) WHERE cid = ?", arguments: [table, Int(column)])
            else { return nil }
            conditions.append("\(SQLQuoting.identifier(name)) IS ?\(position + 1)")
        }
        return try conn.fetchValue(
            Int64.self, sql: "SELECT rowid FROM main.\(SQLQuoting.identifier(table)) WHERE \(conditions.joined(separator: " AND "))",
            arguments: StatementArguments(key.map { $0 }))
    }

    /// The tables of `main` that changesets leave out, their names folded: the shadow tables of
    /// virtual tables (`PRAGMA table_list` types them `shadow`), `strata_migrations`, and
    /// SQLite's own `sqlite_` tables.
    static func unrecordedTables(_ conn: Connection) throws -> Set<String> {
        var names: Set<String> = [SQLNames.fold(Migrator.historyTable)]
        for row in try conn.fetch(sql: "SELECT name, type FROM pragma_table_list WHERE schema = 'main'") {
            let name: String = try row.get(0)
            let type: String = try row.get(1)
            let folded = SQLNames.fold(name)
            if type == "shadow" || folded.hasPrefix("sqlite_") { names.insert(folded) }
        }
        return names
    }

    /// Applies `changeset` to this database in one write transaction and returns how many
    /// conflicts were met; `onConflict` says how each is resolved.
    ///
    /// The database must be at the changeset's ``Changeset/schemaVersion`` (its
    /// `PRAGMA user_version`): a changeset recorded at another version throws a ``StrataError``
    /// of kind ``StrataError/Kind/schemaMismatch`` naming both versions, and nothing is
    /// applied. It must have the changeset's tables with the same columns and primary keys
    /// (a table it lacks is skipped, as SQLite does). Changes to the shadow tables of a
    /// full-text index, to `strata_migrations` or to `sqlite_` tables (in changesets made by
    /// Strata before it left them out) are skipped.
    ///
    /// Triggers do not fire while the changeset is applied: the changeset holds what the
    /// source's triggers and `ON DELETE` actions changed already. Each full-text index over a
    /// changed table is kept in step instead: the applied rows' entries are replaced with their
    /// new values. A change the database already has (a row deleted by its own cascade) is
    /// not a conflict. With
    /// ``Changeset/ConflictResolution/abort``, the first conflict throws a ``StrataError``
    /// with result code `SQLITE_ABORT` (4) and the database is left exactly as it was; so does
    /// any other failure. Observers of this database see the applied changes as they see any
    /// write.
    ///
    /// ```swift
    /// let conflicts = try laptop.apply(changeset, onConflict: .ignore)
    /// ```
    @discardableResult
    public func apply(_ changeset: Changeset, onConflict resolution: Changeset.ConflictResolution) throws -> Int {
        guard !changeset.isEmpty else { return 0 }
        guard changeset.sqliteChangeset.count <= Int(Int32.max) else {
            throw StrataError(kind: .sqlite, resultCode: SQLITE_TOOBIG, message: "the changeset is larger than 2 GB")
        }
        return try write { conn in
            if let recorded = changeset.schemaVersion {
                let current = try conn.fetchValue(Int.self, sql: "PRAGMA main.user_version") ?? 0
                guard current == recorded else {
                    throw StrataError(
                        kind: .schemaMismatch,
                        message: """
                            the changeset was recorded at schema version \(recorded), and this database is at schema \
                            version \(current): migrate both databases to the same version, then record and apply again
                            """)
                }
            }
            let context = ApplyContext(resolution: resolution, leaveOut: try Self.unrecordedTables(conn))
            // Triggers do not fire while a changeset is applied: what the source's triggers
            // did is in the changeset already (as indirect changes), and firing them again
            // would do it twice. Full-text indexes, which triggers keep, are kept here instead:
            // the applied rows' entries are taken out before and put back after.
            let reindex = try FullTextReindex(conn, changeset: changeset.sqliteChangeset)
            try reindex.removeEntries(conn)
            guard strata_db_config_int(conn.handle, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0) == SQLITE_OK else {
                throw StrataError(sqliteCode: SQLITE_ERROR, db: conn.handle)
            }
            defer { _ = strata_db_config_int(conn.handle, SQLITE_DBCONFIG_ENABLE_TRIGGER, 1) }
            var copy = changeset.sqliteChangeset
            let code = withExtendedLifetime(context) {
                copy.withUnsafeMutableBytes { bytes in
                    sqlite3changeset_apply(
                        conn.handle, Int32(bytes.count), bytes.baseAddress,
                        { pointer, name in
                            guard let pointer, let name else { return 0 }
                            return Unmanaged<ApplyContext>.fromOpaque(pointer).takeUnretainedValue().filter.includes(name)
                        },
                        { pointer, kind, iterator in
                            guard let pointer else { return SQLITE_CHANGESET_ABORT }
                            let context = Unmanaged<ApplyContext>.fromOpaque(pointer).takeUnretainedValue()
                            return context.resolve(kind, iterator)
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
            try reindex.addEntries(conn)
            return context.conflicts
        }
    }
}

/// The full-text indexes (FTS5 tables with `content=` another table) over the tables a
/// changeset changes, and the keys of the changed rows: ``Database/apply(_:onConflict:)`` takes
/// those rows' entries out of each index before it applies the changeset and puts the rows'
/// new values in after, with triggers off in between.
private struct FullTextReindex {
    struct Index {
        /// The FTS5 table, its indexed columns, and the content table's rowid column.
        var fts: String
        var columns: [String]
        var rowID: String
    }

    struct Rows {
        var table: String
        var indexes: [Index]
        /// The content table's key columns, and each changed row's key values.
        var keyColumns: [String]
        var keys: [[DatabaseValue]] = []
    }

    var rows: [Rows] = []

    init(_ conn: Connection, changeset: Data) throws {
        var indexes: [String: (table: String, indexes: [Index])] = [:]
        for row in try conn.fetch(
            sql: "SELECT name, sql FROM main.sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")
        {
            let name: String = try row.get(0)
            let sql: String = try row.get(1)
            guard sql.lowercased().contains("fts5"), let content = Self.option("content", in: sql), !content.isEmpty else { continue }
            let columns = try conn.fetch(sql: "SELECT name FROM pragma_table_info(?)", arguments: [name]).map { try $0.get(0, as: String.self) }
            let index = Index(fts: name, columns: columns, rowID: Self.option("content_rowid", in: sql).map { SQLQuoting.identifier($0) } ?? "rowid")
            indexes[SQLNames.fold(content), default: (content, [])].indexes.append(index)
        }
        guard !indexes.isEmpty, !changeset.isEmpty else { return }
        var byTable: [String: Int] = [:]
        try Changeset.walk(changeset) { row in
            guard let found = indexes[SQLNames.fold(row.table)] else { return }
            let keyColumns = try row.primaryKeyColumns()
            if byTable[SQLNames.fold(row.table)] == nil {
                let names = try conn.fetch(sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [found.table])
                    .map { try $0.get(0, as: String.self) }
                guard keyColumns.allSatisfy({ Int($0) < names.count }) else { return }
                byTable[SQLNames.fold(row.table)] = rows.count
                rows.append(Rows(table: found.table, indexes: found.indexes, keyColumns: keyColumns.map { names[Int($0)] }))
            }
            guard let position = byTable[SQLNames.fold(row.table)] else { return }
            rows[position].keys.append(row.keyValues(keyColumns))
        }
    }

    /// The value of `option` (`content`, `content_rowid`) in an FTS5 table's `CREATE VIRTUAL
    /// TABLE` statement, unquoted; nil when it is not there.
    static func option(_ option: String, in sql: String) -> String? {
        let pattern = #"(?i)[(,]\s*"# + option + #"\s*=\s*('(?:[^']|'')*'|"(?:[^"]|"")*"|[A-Za-z_][A-Za-z0-9_]*)"#
        guard let range = sql.range(of: pattern, options: .regularExpression) else { return nil }
        let match = sql[range]
        guard let equals = match.firstIndex(of: "=") else { return nil }
        let value = match[match.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard let quote = value.first, quote == "'" || quote == "\"", value.count >= 2 else { return value }
        return String(value.dropFirst().dropLast()).replacingOccurrences(of: "\(quote)\(quote)", with: "\(quote)")
    }

    /// Runs the statement `sql(index, table, keyCondition)` makes for each index, once per
    /// changed row with the row's key.
    private func each(_ conn: Connection, _ sql: (Index, String, String) -> String) throws {
        for changed in rows {
            let table = "main." + SQLQuoting.identifier(changed.table)
            let condition = changed.keyColumns.enumerated()
                .map { "\(SQLQuoting.identifier($0.element)) IS ?\($0.offset + 1)" }.joined(separator: " AND ")
            for index in changed.indexes {
                let statement = sql(index, table, condition)
                for key in changed.keys {
                    try conn.executeOne(sql: statement, arguments: StatementArguments(key.map { $0 }))
                }
            }
        }
    }

    /// Takes the changed rows' current entries out of their indexes (FTS5's 'delete' command).
    func removeEntries(_ conn: Connection) throws {
        try each(conn) { index, table, condition in
            let fts = SQLQuoting.identifier(index.fts)
            let columns = index.columns.map { SQLQuoting.identifier($0) }.joined(separator: ", ")
            return "INSERT INTO main.\(fts)(\(fts), rowid, \(columns)) SELECT 'delete', \(index.rowID), \(columns) FROM \(table) WHERE \(condition)"
        }
    }

    /// Puts the changed rows' new values in their indexes.
    func addEntries(_ conn: Connection) throws {
        try each(conn) { index, table, condition in
            let fts = SQLQuoting.identifier(index.fts)
            let columns = index.columns.map { SQLQuoting.identifier($0) }.joined(separator: ", ")
            return "INSERT INTO main.\(fts)(rowid, \(columns)) SELECT \(index.rowID), \(columns) FROM \(table) WHERE \(condition)"
        }
    }
}

/// The tables a session records or an apply writes: all but the ones named (folded) in
/// `leaveOut`.
private final class TableFilter {
    let leaveOut: Set<String>

    init(leaveOut: Set<String>) {
        self.leaveOut = leaveOut
    }

    /// 1 when the table named `name` is recorded or applied, 0 when it is left out.
    func includes(_ name: UnsafePointer<CChar>) -> Int32 {
        leaveOut.contains(SQLNames.fold(String(cString: name))) ? 0 : 1
    }
}

/// The state of one `sqlite3changeset_apply` call, handed to its filter and conflict handler.
private final class ApplyContext {
    let resolution: Changeset.ConflictResolution
    let filter: TableFilter
    var conflicts = 0
    var abortedOn: String?

    init(resolution: Changeset.ConflictResolution, leaveOut: Set<String>) {
        self.resolution = resolution
        self.filter = TableFilter(leaveOut: leaveOut)
    }

    /// Counts and resolves one conflict of `sqlite3changeset_apply`. A change the database
    /// already has is not a conflict and is skipped: a delete of a row that is gone, an update
    /// whose row already holds its new values, an insert of a row that is there with the same
    /// values. (This database's own `ON DELETE` actions and triggers, running while the
    /// changeset is applied, make the changes that the source's made and recorded.)
    func resolve(_ kind: Int32, _ iterator: OpaquePointer?) -> Int32 {
        if let iterator, Self.alreadyApplied(kind, iterator) { return SQLITE_CHANGESET_OMIT }
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

    /// True when the conflicting change is already in the database (see ``resolve(_:_:)``).
    static func alreadyApplied(_ kind: Int32, _ iterator: OpaquePointer) -> Bool {
        var table: UnsafePointer<CChar>?
        var columns: Int32 = 0
        var op: Int32 = 0
        var indirect: Int32 = 0
        guard sqlite3changeset_op(iterator, &table, &columns, &op, &indirect) == SQLITE_OK else { return false }
        switch (kind, op) {
        case (SQLITE_CHANGESET_NOTFOUND, SQLITE_DELETE):
            return true
        case (SQLITE_CHANGESET_DATA, SQLITE_UPDATE), (SQLITE_CHANGESET_CONFLICT, SQLITE_INSERT):
            for column in 0..<columns {
                var wanted: OpaquePointer?
                guard sqlite3changeset_new(iterator, column, &wanted) == SQLITE_OK else { return false }
                guard let wanted else { continue }  // an update leaves this column as it is
                var current: OpaquePointer?
                guard sqlite3changeset_conflict(iterator, column, &current) == SQLITE_OK, let current,
                    sameValue(current, wanted)
                else { return false }
            }
            return true
        default:
            return false
        }
    }

    /// True when two SQLite values have the same type and the same value.
    static func sameValue(_ a: OpaquePointer, _ b: OpaquePointer) -> Bool {
        let type = sqlite3_value_type(a)
        guard type == sqlite3_value_type(b) else { return false }
        switch type {
        case SQLITE_NULL:
            return true
        case SQLITE_INTEGER:
            return sqlite3_value_int64(a) == sqlite3_value_int64(b)
        case SQLITE_FLOAT:
            return sqlite3_value_double(a).bitPattern == sqlite3_value_double(b).bitPattern
        default:
            // The pointers first: asking for the text or blob can change what `bytes` reports.
            let pa = type == SQLITE_TEXT ? UnsafeRawPointer(sqlite3_value_text(a)) : sqlite3_value_blob(a)
            let pb = type == SQLITE_TEXT ? UnsafeRawPointer(sqlite3_value_text(b)) : sqlite3_value_blob(b)
            let count = sqlite3_value_bytes(a)
            guard count == sqlite3_value_bytes(b) else { return false }
            guard count > 0 else { return true }
            guard let pa, let pb else { return false }
            return memcmp(pa, pb, Int(count)) == 0
        }
    }
}
#endif