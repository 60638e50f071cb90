import Foundation
import PostgresNIO

/// Applies an ordered list of `Migration`s to a PostgreSQL database, safely.
///
/// ```swift
/// try await PostgresMigrator.migrate(pg, migrations: [
///     Migration(version: 1, name: "initial", sql: "CREATE TABLE customer (id BIGINT PRIMARY KEY, name TEXT NOT NULL);"),
/// ])
/// ```
///
/// - One connection holds the session advisory lock ``lockKey`` (`pg_advisory_lock`) for the
///   whole run: a second deploy migrating the same database waits for the first, then finds its
///   migrations applied; nothing is applied twice.
/// - Each migration runs in its own transaction (PostgreSQL's DDL is transactional) together
///   with its row in `strata_migrations` (version, name, checksum, applied_at): a migration whose
///   SQL fails leaves the database as it was before it (`StrataError.Kind.migrationFailed`).
/// - Before anything runs, the history is checked: a changed checksum of an applied migration,
///   a database newer than the code, or a gap in either refuses with
///   `StrataError.Kind.migrationRefused` and applies nothing.
public struct PostgresMigrator: Sendable {
    /// One row of `strata_migrations`.
    public struct AppliedMigration: Sendable, Hashable {
        /// The version.
        public var version: Int
        /// The name.
        public var name: String
        /// The checksum recorded when it was applied.
        public var checksum: String
        /// When it was applied.
        public var appliedAt: Date
    }

    /// Where a database stands relative to the migrations of the code.
    public struct Status: Sendable, Hashable {
        /// Migrations recorded in the database, by version.
        public var applied: [AppliedMigration]
        /// Migrations of the code not yet applied, in order.
        public var pending: [Migration]
        /// The latest version the code knows.
        public var latestVersion: Int
        /// Why migrating would be refused, if it would; empty when it would not.
        public var problems: [String]

        /// The version the database is at (0 when nothing is applied).
        public var currentVersion: Int { applied.last?.version ?? 0 }
    }

    /// The name of the history table.
    public static let historyTable = "strata_migrations"
    /// The key of the advisory lock a migration holds: `STRATA` in ASCII, the same for every
    /// Strata database, so two deploys of one app cannot migrate at once.
    public static let lockKey: Int64 = 0x5354_5241_5441

    /// The migrations, by version.
    public let migrations: [Migration]

    /// Creates a migrator; the migrations are sorted by version.
    public init(migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// The latest version.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Applies the pending `migrations` to `pg` (what generated `migrate(_:)` functions call)
    /// and returns the ones this call applied.
    @discardableResult
    public static func migrate(_ pg: PostgresDatabase, migrations: [Migration], upTo target: Int? = nil) async throws -> [Migration] {
        try await PostgresMigrator(migrations: migrations).migrate(pg, upTo: target)
    }

    /// Where `pg` stands: what is applied, what is pending, what would stop a migration.
    public func status(of pg: PostgresDatabase) async throws -> Status {
        try await pg.read { conn in try await status(conn) }
    }

    /// The migrations that ``migrate(_:upTo:willApply:)`` would apply now, in order, without applying
    /// anything (a dry run); throws `StrataError.Kind.migrationRefused` as `migrate` would.
    public func pendingMigrations(of pg: PostgresDatabase, upTo target: Int? = nil) async throws -> [Migration] {
        try check(target)
        let status = try await status(of: pg)
        try refuseIfNeeded(status, target: target)
        return status.pending.filter { $0.version <= target ?? latestVersion }
    }

    /// Applies the pending migrations up to `target` (default: the latest), each in its own
    /// transaction, while holding the advisory lock; returns the ones this call applied.
    /// `willApply` is called before each one runs (for progress output).
    @discardableResult
    public func migrate(
        _ pg: PostgresDatabase, upTo target: Int? = nil, willApply: @Sendable (Migration) -> Void = { _ in }
    ) async throws -> [Migration] {
        try check(target)
        return try await pg.withConnection { lent in
            // Not bounded by `queryTimeout`: a migration may take long, and a second deploy
            // waits here for the first one's lock.
            let conn = lent.unbounded
            try await conn.run(sql: "SET statement_timeout = 0")
            try await conn.run(sql: "SELECT pg_advisory_lock(\(Self.lockKey))")
            do {
                let applied = try await migrate(conn, upTo: target ?? latestVersion, willApply: willApply)
                try await conn.run(sql: "SELECT pg_advisory_unlock(\(Self.lockKey))")
                try await conn.run(sql: "RESET statement_timeout")
                return applied
            } catch {
                // Unlock unless the connection is gone (the server released the lock then).
                if (error as? StrataError)?.kind != .connection, !conn.underlying.isClosed {
                    _ = try? await conn.run(sql: "ROLLBACK")
                    _ = try? await conn.run(sql: "SELECT pg_advisory_unlock(\(Self.lockKey))")
                    _ = try? await conn.run(sql: "RESET statement_timeout")
                }
                throw error
            }
        }
    }

    private func migrate(
        _ conn: PostgresDatabase.Connection, upTo target: Int, willApply: @Sendable (Migration) -> Void
    ) async throws -> [Migration] {
        let status = try await status(conn)
        try refuseIfNeeded(status, target: target)
        var applied: [Migration] = []
        for migration in status.pending where migration.version <= target {
            willApply(migration)
            try await conn.run(sql: "BEGIN")
            do {
                try await conn.execute(
                    sql: """
                        CREATE TABLE IF NOT EXISTS \(Self.historyTable) (
                          version BIGINT PRIMARY KEY,
                          name TEXT NOT NULL,
                          checksum TEXT NOT NULL,
                          applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                        )
                        """)
                try await conn.execute(sql: migration.sql)
                var bindings = PostgresBindings()
                bindings.append(migration.version)
                bindings.append(migration.name)
                bindings.append(migration.checksum)
                _ = try await conn.query(
                    sql: "INSERT INTO \(Self.historyTable) (version, name, checksum) VALUES ($1, $2, $3)", bindings)
                try await conn.run(sql: "COMMIT")
            } catch var error as StrataError {
                if error.kind != .connection, !conn.underlying.isClosed { _ = try? await conn.run(sql: "ROLLBACK") }
                if error.kind == .postgres {
                    error.kind = .migrationFailed
                    error.message = "\(migration.fileName): \(error.message); the database is unchanged at version \(migration.version - 1)"
                }
                throw error
            }
            applied.append(migration)
        }
        return applied
    }

    private func check(_ target: Int?) throws {
        if let target, target > latestVersion {
            throw StrataError(kind: .migrationRefused, message: "there is no migration \(target): the latest is \(latestVersion)")
        }
    }

    private func refuseIfNeeded(_ status: Status, target: Int?) throws {
        var problems = status.problems
        if let target, target < status.currentVersion {
            problems.append("the database is at version \(status.currentVersion); migrating down to \(target) is not supported")
        }
        if !problems.isEmpty {
            throw StrataError(kind: .migrationRefused, message: problems.joined(separator: "\n"))
        }
    }

    /// The status read through an open connection.
    public func status(_ conn: PostgresDatabase.Connection) async throws -> Status {
        var applied: [AppliedMigration] = []
        let exists = try await conn.query(sql: "SELECT to_regclass('\(Self.historyTable)') IS NOT NULL")
        if try exists.first?.decode(Bool.self) == true {
            for row in try await conn.query(sql: "SELECT version, name, checksum, applied_at FROM \(Self.historyTable) ORDER BY version") {
                let (version, name, checksum, appliedAt) = try Self.decode(row)
                applied.append(AppliedMigration(version: version, name: name, checksum: checksum, appliedAt: appliedAt))
            }
        }
        let problems = Migration.historyProblems(
            code: migrations, applied: applied.map { ($0.version, $0.checksum) }, databaseVersion: applied.last?.version ?? 0)
        let appliedVersions = Set(applied.map(\.version))
        return Status(
            applied: applied, pending: migrations.filter { !appliedVersions.contains($0.version) }, latestVersion: latestVersion,
            problems: problems)
    }

    private static func decode(_ row: PostgresRow) throws -> (Int, String, String, Date) {
        do {
            return try row.decode((Int, String, String, Date).self)
        } catch {
            throw StrataError.fromPostgres(error, sql: "SELECT … FROM \(historyTable)")
        }
    }
}
