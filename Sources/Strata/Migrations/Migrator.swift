import CSQLite
import Foundation

/// Applies an ordered list of ``Migration``s to a database, safely.
///
/// - Each migration runs in its own `BEGIN IMMEDIATE` transaction, with `foreign_keys` turned
///   off before it begins (a no-op inside a transaction) so table rebuilds do not fire
///   `ON DELETE` actions, and `PRAGMA foreign_key_check` before it commits; `foreign_keys` is
///   restored afterwards whatever happened.
/// - Each applied migration is recorded in `strata_migrations` (version, name, checksum,
///   applied at, the ``SchemaFingerprint`` of the structure it left and the schema cookie,
///   `PRAGMA schema_version`, it left) and in `PRAGMA user_version`.
/// - Before anything runs, the history is checked: a changed checksum of an applied migration,
///   a database newer than the code, a gap in either, or a structure that no longer matches the
///   fingerprint recorded with the last applied migration (someone altered the file: drift)
///   refuses with ``StrataError/Kind/migrationRefused`` and changes nothing. (SQLite changes
///   the schema cookie with every statement that changes the structure: while the file's
///   cookie is the one recorded, the structure is taken to be the recorded one and is not
///   fingerprinted again, which keeps the check off the cost of a launch. Not seen that way:
///   `sqlite_master` edited under `PRAGMA writable_schema` without moving the cookie, or a
///   file rebuilt from an edited dump that ends, by chance, with the recorded cookie.) A
///   cookie that moved without a change of the structure (`VACUUM`, the first `ANALYZE`) is
///   recorded again by the next ``migrate(_:upTo:willApply:)``. A migration whose
///   SQL fails leaves the database exactly as it was before that migration
///   (``StrataError/Kind/migrationFailed``).
/// - The checks and each migration run while holding the write lock: a second process
///   migrating the same file waits for the first (up to the busy timeout) and then finds the
///   migrations applied; nothing is applied twice.
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
        /// The structure the database had right after this migration; nil for a migration
        /// applied by a Strata version that did not record it (the next `migrate` records the
        /// live one).
        public var fingerprint: SchemaFingerprint?
        /// The file's schema cookie (`PRAGMA schema_version`) right after this migration; nil
        /// when it was not recorded (an older Strata, a baseline). While the live cookie is
        /// this one, the live structure is ``fingerprint``: SQLite changes the cookie with
        /// every change of a table, index, view or trigger.
        public var schemaVersion: Int?
    }

    /// The live structure differs from the one recorded with the last applied migration.
    public struct Drift: Sendable, Hashable {
        /// The version whose recorded structure the file no longer has.
        public var version: Int
        /// The digest recorded with `version`.
        public var recordedDigest: String
        /// The digest of the live file.
        public var liveDigest: String
        /// The objects that differ, as `table customer was changed`, `index x was added` …
        public var changes: [String]
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
        /// How the live structure differs from the one recorded with the last applied
        /// migration; nil when it matches (or nothing was recorded yet). Also in `problems`.
        public var drift: Drift?
        /// The structure of the live file. While the file's schema cookie is the one recorded
        /// with the last applied migration (``liveSchemaVersion``), this is the fingerprint
        /// recorded with it, not hashed again: the structure cannot have changed.
        public var liveFingerprint: SchemaFingerprint
        /// The file's schema cookie, `PRAGMA schema_version`.
        public var liveSchemaVersion: Int

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
    /// Works on a read-only database.
    public func status(of db: Database) throws -> Status {
        try db.read { conn in try status(conn) }
    }

    /// The status read through an open connection.
    public func status(_ conn: Connection) throws -> Status {
        let historyColumns = try Self.historyColumns(conn)
        let hasHistory = !historyColumns.isEmpty
        let hasFingerprints = historyColumns.contains("schema_fingerprint") && historyColumns.contains("schema_objects")
        let hasSchemaVersions = historyColumns.contains("schema_version")
        let userVersion = try conn.fetchValue(Int.self, sql: "PRAGMA user_version") ?? 0
        var applied: [AppliedMigration] = []
        if hasHistory {
            let fingerprintColumns = hasFingerprints ? "schema_fingerprint, schema_objects" : "NULL, NULL"
            let schemaVersionColumn = hasSchemaVersions ? "schema_version" : "NULL"
            for row in try conn.fetch(
                sql: "SELECT version, name, checksum, applied_at, \(fingerprintColumns), \(schemaVersionColumn) FROM \(Self.historyTable) ORDER BY version")
            {
                let digest: String? = try row.get(4)
                let objects: String? = try row.get(5)
                applied.append(
                    AppliedMigration(
                        version: try row.get(0), name: try row.get(1), checksum: try row.get(2), appliedAt: try row.get(3),
                        fingerprint: digest.map { SchemaFingerprint(digest: $0, manifest: objects ?? "") }, schemaVersion: try row.get(6)))
            }
        }
        var problems = Migration.historyProblems(
            code: migrations, applied: applied.map { ($0.version, $0.checksum) },
            databaseVersion: max(applied.last?.version ?? 0, userVersion))
        if !hasHistory && userVersion > 0 {
            problems.append(
                "the database has user_version \(userVersion) but no \(Self.historyTable) table: it was not created by Strata's migrator")
        }
        let liveSchemaVersion = try Self.schemaVersion(conn)
        let live: SchemaFingerprint
        if let last = applied.last, let recorded = last.fingerprint, last.schemaVersion == liveSchemaVersion {
            // The structure has not changed since it was fingerprinted (SQLite changes the
            // cookie with every change of it): no need to read and hash it again.
            live = recorded
        } else {
            live = try SchemaFingerprint(conn)
        }
        var drift: Drift?
        if let last = applied.last {
            if let recorded = last.fingerprint, recorded.digest != live.digest {
                drift = Drift(version: last.version, recordedDigest: recorded.digest, liveDigest: live.digest, changes: recorded.changes(to: live))
            }
        }
        if let drift {
            let summary = drift.changes.isEmpty ? "its structure differs" : drift.changes.joined(separator: ", ")
            problems.append(
                "the database was altered outside its migrations since version \(drift.version) was applied: \(summary); undo the change or restore a backup, and make schema changes through a new migration")
        }
        let appliedVersions = Set(applied.map(\.version))
        let pending = migrations.filter { !appliedVersions.contains($0.version) }
        return Status(
            applied: applied, userVersion: userVersion, pending: pending, latestVersion: latestVersion, problems: problems,
            drift: drift, liveFingerprint: live, liveSchemaVersion: liveSchemaVersion)
    }

    /// The schema cookie of the `main` database of `conn`: SQLite changes it with every change
    /// of the structure (<https://www.sqlite.org/pragma.html#pragma_schema_version>).
    static func schemaVersion(_ conn: Connection) throws -> Int {
        try conn.fetchValue(Int.self, sql: "PRAGMA main.schema_version") ?? 0
    }

    /// The columns of the history table; empty when there is none.
    static func historyColumns(_ conn: Connection) throws -> Set<String> {
        Set(try conn.fetch(sql: "SELECT name FROM pragma_table_info(?)", arguments: [historyTable]).map { try $0.get(0, as: String.self) })
    }

    /// Applies the pending migrations up to `target` (default: the latest) and returns the ones
    /// applied. `willApply` is called before each one runs (for progress output), while the
    /// write lock is held: a migration another process applied meanwhile is not announced.
    @discardableResult
    public func migrate(
        _ db: Database, upTo target: Int? = nil, willApply: (Migration) -> Void = { _ in }
    ) throws -> [Migration] {
        try db.writeWithoutTransaction { conn in
            try migrate(conn, upTo: target, foreignKeys: db.configuration.foreignKeys, willApply: willApply)
        }
    }

    /// Applies pending migrations through a connection that is not in a transaction.
    ///
    /// Every step takes the write lock first (`BEGIN IMMEDIATE`, waiting up to the busy
    /// timeout for another writer), then reads and checks the history and the structure, then
    /// applies the next pending migration and commits. A migration that another connection
    /// applied while this one waited is skipped, not applied twice; the result lists only the
    /// migrations this call applied.
    @discardableResult
    public func migrate(
        _ conn: Connection, upTo target: Int? = nil, foreignKeys: Bool = true, willApply: (Migration) -> Void = { _ in }
    ) throws -> [Migration] {
        guard !conn.isInTransaction else {
            throw StrataError.misuse("migrate was called inside a transaction; call it outside any transaction")
        }
        if let target, target > latestVersion {
            throw StrataError(kind: .migrationRefused, message: "there is no migration \(target): the latest is \(latestVersion)")
        }
        // The common case, nothing to do, needs no write lock: a consistent snapshot says so.
        let snapshot = try conn.inTransaction(.deferred) { try status(conn) }
        if !snapshot.problems.isEmpty {
            throw StrataError(kind: .migrationRefused, message: snapshot.problems.joined(separator: "\n"))
        }
        let target = target ?? latestVersion
        let hasPending = snapshot.pending.contains { $0.version <= target }
        // A history without a fingerprint (an older Strata, a baseline), or whose cookie is no
        // longer the file's (`VACUUM`, the first `ANALYZE`, a migration of an older Strata):
        // recorded once, so that later launches compare the cookie instead of hashing.
        let needsRecord = snapshot.applied.last.map { $0.fingerprint == nil || $0.schemaVersion != snapshot.liveSchemaVersion } ?? false
        if !hasPending && !needsRecord && target >= snapshot.currentVersion {
            return []
        }
        var applied: [Migration] = []
        while let migration = try applyNext(on: conn, upTo: target, foreignKeys: foreignKeys, willApply: willApply) {
            applied.append(migration)
        }
        return applied
    }

    /// Checks the database and applies the next pending migration up to `target` in one
    /// write transaction; nil when there is none.
    private func applyNext(
        on conn: Connection, upTo target: Int, foreignKeys: Bool, willApply: (Migration) -> Void
    ) throws -> Migration? {
        try conn.execute(sql: "PRAGMA foreign_keys = OFF")
        defer { try? conn.execute(sql: "PRAGMA foreign_keys = \(foreignKeys ? "ON" : "OFF")") }
        var running: Migration?
        var committing = false
        do {
            let next = try conn.inTransaction(.immediate) { () throws -> Migration? in
                let status = try status(conn)
                if !status.problems.isEmpty {
                    throw StrataError(kind: .migrationRefused, message: status.problems.joined(separator: "\n"))
                }
                if target < status.currentVersion {
                    throw StrataError(
                        kind: .migrationRefused,
                        message: "the database is at version \(status.currentVersion); migrating down to \(target) is not supported")
                }
                if let last = status.applied.last, last.fingerprint == nil || last.schemaVersion != status.liveSchemaVersion {
                    // Applied by a Strata that recorded no fingerprint (or no cookie), or the
                    // cookie moved without a change of the structure (no drift: checked above):
                    // the live structure and cookie become the reference. The cookie is read
                    // after the history table's own upgrade, which moves it.
                    try upgradeHistoryTable(conn)
                    try conn.execute(
                        sql: "UPDATE \(Self.historyTable) SET schema_fingerprint = ?, schema_objects = ?, schema_version = ? WHERE version = ?",
                        arguments: [
                            status.liveFingerprint.digest, status.liveFingerprint.manifest, try Self.schemaVersion(conn), last.version,
                        ])
                }
                guard let migration = status.pending.first, migration.version <= target else { return nil }
                running = migration
                willApply(migration)
                try upgradeHistoryTable(conn)
                try conn.execute(sql: migration.sql)
                let fingerprint = try SchemaFingerprint(conn)
                // Read after the last change of the structure in this transaction (the
                // migration's, the history table's): the insert and `user_version` below do
                // not change the cookie.
                let schemaVersion = try Self.schemaVersion(conn)
                try conn.execute(
                    sql: """
                        INSERT INTO \(Self.historyTable) (version, name, checksum, applied_at, schema_fingerprint, schema_objects, schema_version)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        migration.version, migration.name, migration.checksum, DateFormat.string(from: Date()), fingerprint.digest,
                        fingerprint.manifest, schemaVersion,
                    ])
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
                committing = true
                return migration
            }
            if next != nil { conn.clearStatementCache() }
            return next
        } catch var error as StrataError where error.kind != .migrationRefused {
            conn.clearStatementCache()
            guard let migration = running else { throw error }
            error.kind = .migrationFailed
            if let collation = Database.missingCollation(in: error) {
                error.message += " (the app registers its own collations with Database.Configuration(collations: [\"\(collation)\": …]))"
            }
            error.message = "\(migration.fileName): \(error.message); \(Self.outcome(of: error, migration: migration, committing: committing))"
            throw error
        }
    }

    /// What a failed migration left, as far as this connection can tell.
    static func outcome(of error: StrataError, migration: Migration, committing: Bool) -> String {
        // An I/O failure while committing may leave a complete commit in the WAL, which
        // recovery replays when the file is next opened.
        if committing, error.resultCode == SQLITE_IOERR || error.resultCode == SQLITE_FULL {
            return "it was rolled back; the database is at version \(migration.version - 1), or at \(migration.version) if the failure hit after the commit was written; run migrate again, it applies only what is missing"
        }
        return "the database is unchanged at version \(migration.version - 1)"
    }

    /// Creates the history table (its one definition, which a baseline uses too), or adds the
    /// fingerprint and schema-cookie columns to one made by an older Strata; inside the
    /// caller's transaction.
    func upgradeHistoryTable(_ conn: Connection) throws {
        try conn.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS \(Self.historyTable) (
                  version INTEGER PRIMARY KEY NOT NULL,
                  name TEXT NOT NULL,
                  checksum TEXT NOT NULL,
                  applied_at TEXT NOT NULL,
                  schema_fingerprint TEXT,
                  schema_objects TEXT,
                  schema_version INTEGER
                )
                """)
        let columns = try Self.historyColumns(conn)
        for (column, type) in [("schema_fingerprint", "TEXT"), ("schema_objects", "TEXT"), ("schema_version", "INTEGER")]
        where !columns.contains(column) {
            try conn.execute(sql: "ALTER TABLE \(Self.historyTable) ADD COLUMN \(column) \(type)")
        }
    }
}
