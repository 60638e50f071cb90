import Foundation

/// Applies an ordered list of ``Migration``s to a database, safely.
///
/// - Each migration runs in its own transaction, with `foreign_keys` turned off before it
///   begins (a no-op inside a transaction) so table rebuilds do not fire `ON DELETE` actions,
///   and `PRAGMA foreign_key_check` before it commits; `foreign_keys` is restored afterwards
///   whatever happened.
/// - Each applied migration is recorded in `strata_migrations` (version, name, checksum,
///   applied at) and in `PRAGMA user_version`.
/// - Before anything runs, the history is checked: a changed checksum of an applied migration,
///   a database newer than the code, or a gap in either refuses with ``StrataError/Kind/migrationRefused``
///   and changes nothing. A migration whose SQL fails leaves the database exactly as it was
///   before that migration (``StrataError/Kind/migrationFailed``).
///
/// See <https://www.sqlite.org/lang_altertable.html#otheralter> for the rebuild procedure.
public struct Migrator: Sendable {
    /// One row of `strata_migrations`.
    public struct AppliedMigration: Sendable, Hashable {
        /// The version.
        public var version: Int
        /// The name.
        public var name: String
        /// The checksum recorded when it was applied.
        public var checksum: String
        /// When it was applied, in the date text format.
        public var appliedAt: String
    }

    /// Where a database stands relative to the migrations of the code.
    public struct Status: Sendable, Hashable {
        /// Migrations recorded in the database.
        public var applied: [AppliedMigration]
        /// `PRAGMA user_version`.
        public var userVersion: Int
        /// Migrations of the code not yet applied, in order.
        public var pending: [Migration]
        /// The latest version the code knows.
        public var latestVersion: Int
        /// Why migrating would be refused, if it would.
        public var problems: [String]

        /// The version the database is at.
        public var currentVersion: Int { applied.map(\.version).max() ?? 0 }
    }

    /// The name of the history table.
    public static let historyTable = "strata_migrations"

    /// The migrations, by version.
    public let migrations: [Migration]

    /// Creates a migrator; the migrations are sorted by version.
    public init(migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// The latest version.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Where `db` stands: what is applied, what is pending, and what would stop a migration.
    public func status(of db: Database) throws -> Status {
        try db.read { conn in try status(conn) }
    }

    /// The status read through an open connection.
    public func status(_ conn: Connection) throws -> Status {
        var problems: [String] = []
        for (offset, migration) in migrations.enumerated() where migration.version != offset + 1 {
            problems.append(
                "the migrations of the code have a gap: expected version \(offset + 1) but found \(migration.fileName); number the files from 0001 without gaps")
            break
        }
        let hasHistory = try conn.fetchValue(
            Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
            arguments: [Self.historyTable]) ?? 0 > 0
        let userVersion = try conn.fetchValue(Int.self, sql: "PRAGMA user_version") ?? 0
        var applied: [AppliedMigration] = []
        if hasHistory {
            for row in try conn.fetch(sql: "SELECT version, name, checksum, applied_at FROM \(Self.historyTable) ORDER BY version") {
                applied.append(
                    AppliedMigration(version: try row.get(0), name: try row.get(1), checksum: try row.get(2), appliedAt: try row.get(3)))
            }
        }
        let byVersion = Dictionary(migrations.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        for (offset, record) in applied.enumerated() where record.version != offset + 1 {
            problems.append(
                "the database's migration history has a gap: expected version \(offset + 1) but found \(record.version); restore the database from a backup")
            break
        }
        let databaseVersion = max(applied.last?.version ?? 0, userVersion)
        if databaseVersion > latestVersion {
            problems.append(
                "the database is at version \(databaseVersion), newer than this code's latest migration \(latestVersion); run a newer build of the app or restore an older database")
        }
        if !hasHistory && userVersion > 0 {
            problems.append(
                "the database has user_version \(userVersion) but no \(Self.historyTable) table: it was not created by Strata's migrator")
        }
        for record in applied {
            guard let migration = byVersion[record.version] else { continue }
            if migration.checksum != record.checksum {
                problems.append(
                    "migration \(migration.fileName) was changed after it was applied (checksum \(record.checksum.prefix(12)) in the database, \(migration.checksum.prefix(12)) in the code); restore the file as it was and put the change in a new migration")
            }
        }
        let appliedVersions = Set(applied.map(\.version))
        let pending = migrations.filter { !appliedVersions.contains($0.version) }
        return Status(applied: applied, userVersion: userVersion, pending: pending, latestVersion: latestVersion, problems: problems)
    }

    /// Applies the pending migrations up to `target` (default: the latest) and returns the ones
    /// applied. `willApply` is called before each one runs (for progress output).
    @discardableResult
    public func migrate(
        _ db: Database, upTo target: Int? = nil, willApply: (Migration) -> Void = { _ in }
    ) throws -> [Migration] {
        try db.writeWithoutTransaction { conn in
            try migrate(conn, upTo: target, foreignKeys: db.configuration.foreignKeys, willApply: willApply)
        }
    }

    /// Applies pending migrations through a connection that is not in a transaction.
    @discardableResult
    public func migrate(
        _ conn: Connection, upTo target: Int? = nil, foreignKeys: Bool = true, willApply: (Migration) -> Void = { _ in }
    ) throws -> [Migration] {
        let status = try status(conn)
        if !status.problems.isEmpty {
            throw StrataError(kind: .migrationRefused, message: status.problems.joined(separator: "\n"))
        }
        let target = target ?? latestVersion
        if target < status.currentVersion {
            throw StrataError(
                kind: .migrationRefused,
                message: "the database is at version \(status.currentVersion); migrating down to \(target) is not supported")
        }
        var applied: [Migration] = []
        for migration in status.pending where migration.version <= target {
            willApply(migration)
            if try apply(migration, on: conn, foreignKeys: foreignKeys) {
                applied.append(migration)
            }
        }
        return applied
    }

    /// Applies one migration; false when another connection (another process sharing the
    /// file) applied it between the status check and this migration's transaction.
    private func apply(_ migration: Migration, on conn: Connection, foreignKeys: Bool) throws -> Bool {
        try conn.execute(sql: "PRAGMA foreign_keys = OFF")
        defer { try? conn.execute(sql: "PRAGMA foreign_keys = \(foreignKeys ? "ON" : "OFF")") }
        let applied: Bool
        do {
            applied = try conn.inTransaction(.immediate) { () throws -> Bool in
                try conn.execute(
                    sql: """
                        CREATE TABLE IF NOT EXISTS \(Self.historyTable) (
                          version INTEGER PRIMARY KEY NOT NULL,
                          name TEXT NOT NULL,
                          checksum TEXT NOT NULL,
                          applied_at TEXT NOT NULL
                        )
                        """)
                // Checked again inside the write transaction: the status was read before it.
                if let recorded = try conn.fetchValue(
                    String.self, sql: "SELECT checksum FROM \(Self.historyTable) WHERE version = ?", arguments: [migration.version])
                {
                    guard recorded == migration.checksum else {
                        throw StrataError(
                            kind: .migrationRefused,
                            message: "migration \(migration.fileName) was applied by another connection with checksum \(recorded.prefix(12)), not \(migration.checksum.prefix(12))")
                    }
                    return false
                }
                try conn.execute(sql: migration.sql)
                try conn.execute(
                    sql: "INSERT INTO \(Self.historyTable) (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                    arguments: [migration.version, migration.name, migration.checksum, DateFormat.string(from: Date())])
                try conn.execute(sql: "PRAGMA user_version = \(migration.version)")
                // A schema that turns foreign keys off may hold dangling references on purpose.
                let violations = foreignKeys ? try conn.fetch(sql: "PRAGMA foreign_key_check") : []
                if let first = violations.first {
                    let table = (try? first.get(0, as: String.self)) ?? "?"
                    let parent = (try? first.get(2, as: String.self)) ?? "?"
                    throw StrataError(
                        kind: .migrationFailed,
                        message: "\(violations.count) row(s) of \(table) reference missing rows of \(parent) after the migration")
                }
                return true
            }
        } catch let error as StrataError where error.kind != .migrationFailed && error.kind != .migrationRefused {
            var failure = error
            failure.kind = .migrationFailed
            failure.message = "\(migration.fileName): \(error.message); the database is unchanged at version \(migration.version - 1)"
            throw failure
        }
        conn.clearStatementCache()
        return applied
    }
}
