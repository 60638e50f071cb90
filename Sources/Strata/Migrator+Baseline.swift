import Foundation

extension Migrator {
    /// Records `migration` as applied without running it: what adopting an existing database
    /// needs for its first migration, whose tables already exist (`strata migrate --baseline`).
    ///
    /// Call it inside a write transaction, after checking that the database's structure is the
    /// one `migration` creates (the compiler's `MigrationBaseline` does both). It refuses when
    /// the database already has a migration history or a `user_version`.
    public func recordAsApplied(_ migration: Migration, on conn: Connection) throws {
        let status = try status(conn)
        guard status.applied.isEmpty, status.userVersion == 0 else {
            throw StrataError(
                kind: .migrationRefused,
                message: "the database already has a migration history (version \(max(status.currentVersion, status.userVersion))): baseline only a database no migration was applied to")
        }
        try conn.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS \(Self.historyTable) (
                  version INTEGER PRIMARY KEY NOT NULL,
                  name TEXT NOT NULL,
                  checksum TEXT NOT NULL,
                  applied_at TEXT NOT NULL
                )
                """)
        try conn.execute(
            sql: "INSERT INTO \(Self.historyTable) (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
            arguments: [migration.version, migration.name, migration.checksum, DateFormat.string(from: Date())])
        try conn.execute(sql: "PRAGMA user_version = \(migration.version)")
    }
}
