import Foundation

extension Migrator {
    /// Records `migration` as applied without running it: what adopting an existing database
    /// needs for its first migration, whose tables already exist (`strata migrate --baseline`).
    ///
    /// Call it inside a write transaction, after checking that the database's structure is the
    /// one `migration` creates (the compiler's `MigrationBaseline` does both). It refuses when
    /// the database already has a migration history or a `user_version`.
    ///
    /// It creates the history table and adds one row to it, and changes nothing else: unlike a
    /// migration it leaves `PRAGMA user_version` as it was (the history table is the record).
    package func recordAsApplied(_ migration: Migration, on conn: Connection) throws {
        if let refusal = try baselineRefusal(conn) {
            throw StrataError(kind: .migrationRefused, message: refusal)
        }
        // The one history-table definition (with its fingerprint columns, left NULL: the next
        // `migrate` records the live structure as the reference, as for an older Strata's row).
        try upgradeHistoryTable(conn)
        try conn.execute(
            sql: "INSERT INTO \(Self.historyTable) (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
            arguments: [migration.version, migration.name, migration.checksum, DateFormat.string(from: Date())])
    }

    /// Why a baseline of the database open on `conn` would be refused before its structure is
    /// compared: it already has a migration history, or a `user_version` another tool set.
    /// nil when nothing stands in the way.
    package func baselineRefusal(_ conn: Connection) throws -> String? {
        let status = try status(conn)
        if !status.applied.isEmpty {
            return "the database already has a migration history (version \(status.currentVersion)): baseline only a database no migration was applied to"
        }
        if status.userVersion != 0 {
            return "the database has user_version \(status.userVersion), set by the tool that made it; Strata keeps its version there too, so set it to 0 first (PRAGMA user_version = 0) if nothing else reads it"
        }
        return nil
    }

    /// Adopts the database file at `path`: on one connection, inside a `BEGIN IMMEDIATE`
    /// transaction, runs `check` (which returns the differences between the file and what the
    /// first migration creates) and, when it finds none, records the first migration as applied
    /// (``recordAsApplied(_:on:)``). Returns that migration.
    ///
    /// Unlike opening a ``Database``, this does not switch the file to WAL: a baseline changes
    /// nothing in the file but the history table (journal mode, `user_version`,
    /// `application_id` and page size stay as they were). Throws a `migrationRefused` error,
    /// changing nothing, when there is no migration 0001, when ``baselineRefusal(_:)`` refuses,
    /// or when `check` finds differences.
    package func baseline(
        fileAt path: String, busyTimeout: TimeInterval = 10, check: (Connection) throws -> [String]
    ) throws -> Migration {
        guard let first = migrations.first, first.version == 1 else {
            throw StrataError(
                kind: .migrationRefused,
                message: "there is no migration 0001 to baseline; write it with 'strata migration new <schema> --name initial'")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw StrataError(kind: .misuse, message: "\(path) does not exist: a baseline adopts an existing database")
        }
        let conn = try Connection(path: path, readOnly: false, create: false, busyTimeout: busyTimeout)
        return try conn.inTransaction(.immediate) {
            let found = try check(conn)
            guard found.isEmpty else {
                throw StrataError(
                    kind: .migrationRefused,
                    message: "the database is not what \(first.fileName) creates:\n" + found.map { "  - \($0)" }.joined(separator: "\n"))
            }
            try recordAsApplied(first, on: conn)
            return first
        }
    }
}
