import Foundation

import Strata

/// Adopting an existing database: recording its first migration as applied without running it,
/// after checking that the database's structure is exactly what that migration creates (the
/// same structural comparison the migration verifier uses, ``SchemaDiff``).
///
/// ```swift
/// let db = try Database(path: "shop.sqlite")
/// try MigrationBaseline.baseline(db, migrations: try MigrationFiles.load(schemaPath: "Shop.schema.yml"))
/// ```
package enum MigrationBaseline {
    /// The differences between the database open on `conn` and what `first` creates, in a
    /// baseline's words (they are printed as they are); empty when they are equal.
    package static func differences(_ conn: Connection, first: Migration) throws -> [String] {
        let live = try SchemaIntrospector.introspect(conn)
        let expected = try MigrationReplay.structure(after: [first])
        return SchemaDiff.compare(from: live, to: expected).map { $0.sentence(.baseline) }
    }

    /// Why `--baseline` would refuse the database open on `conn` (read-only is enough), one
    /// sentence each; empty when a baseline would record 0001 as applied. The same checks as
    /// ``baseline(fileAt:migrations:busyTimeout:)``, so that a dry run says what the real run
    /// would do.
    package static func refusals(_ conn: Connection, migrations: [Migration]) throws -> [String] {
        let migrator = Migrator(migrations: migrations)
        guard let first = migrator.migrations.first, first.version == 1 else {
            return ["there is no migration 0001 to baseline; write it with 'strata migration new <schema> --name initial'"]
        }
        if let refusal = try migrator.baselineRefusal(conn) { return [refusal] }
        return try differences(conn, first: first).map { "the database is not what \(first.fileName) creates: \($0)" }
    }

    /// Records the first of `migrations` as applied to the database file at `path`, in one
    /// transaction with the check; throws a `migrationRefused` error listing the differences,
    /// and changes nothing, when the database is not what that migration creates.
    ///
    /// Nothing in the file changes but the history table: its journal mode, `user_version`,
    /// `application_id` and page size stay as they were (opening a ``Database`` would switch it
    /// to WAL).
    @discardableResult
    package static func baseline(fileAt path: String, migrations: [Migration], busyTimeout: TimeInterval = 10) throws -> Migration {
        try Migrator(migrations: migrations).baseline(fileAt: path, busyTimeout: busyTimeout) { conn in
            guard let first = migrations.min(by: { $0.version < $1.version }) else { return [] }
            return try differences(conn, first: first)
        }
    }

    /// Records the first of `migrations` as applied, in one transaction with the check; throws
    /// a `migrationRefused` error listing the differences, and changes nothing, when the
    /// database is not what that migration creates.
    @discardableResult
    package static func baseline(_ db: Database, migrations: [Migration]) throws -> Migration {
        let migrator = Migrator(migrations: migrations)
        guard let first = migrator.migrations.first, first.version == 1 else {
            throw StrataError(
                kind: .migrationRefused,
                message: "there is no migration 0001 to baseline; write it with 'strata migration new <schema> --name initial'")
        }
        return try db.writeWithoutTransaction { conn in
            try conn.inTransaction(.immediate) {
                let found = try differences(conn, first: first)
                guard found.isEmpty else {
                    throw StrataError(
                        kind: .migrationRefused,
                        message: "the database is not what \(first.fileName) creates:\n"
                            + found.map { "  - \($0)" }.joined(separator: "\n"))
                }
                try migrator.recordAsApplied(first, on: conn)
                return first
            }
        }
    }
}
