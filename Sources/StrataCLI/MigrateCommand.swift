import ArgumentParser
import Foundation
import Strata
import StrataCompiler

extension StrataCommand {
    /// `strata migrate <schema> --database <file>`.
    struct Migrate: ParsableCommand, SchemaFileCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply the pending migrations of a schema to a database file.",
            discussion: HelpText.migrate + """
                Each migration runs in its own transaction: the database is left at the old version or the new \
                one, never between. Refuses, changing nothing, when an applied migration was edited (checksum \
                drift), when the database is newer than the migrations, when there is a gap, or when the file's \
                structure was altered outside the migrations (it lists the differences). Another process \
                migrating the same file is waited for; what it applied is reported, not applied again.
                """
        )

        @OptionGroup var schemaFile: SchemaFileArgument

        @Option(name: .long, help: "The SQLite database file (created when missing).")
        var database: String?

        @Option(name: .long, help: "A PostgreSQL URL (postgres://user@host:port/db, several hosts for failover): apply the schema's PostgreSQL migrations there (strata-postgres only).")
        var url: String?

        @Option(name: .long, help: "Migrate up to this version instead of the latest.")
        var to: Int?

        @Flag(name: .long, help: "Print what would be applied, and change nothing.")
        var dryRun = false

        @Option(name: .long, help: "Seconds to wait for another process that holds the database's write lock.")
        var busyTimeout: Double = migrateBusyTimeout

        @Flag(name: .long, help: "Record 0001 as applied without running it, after checking the database is what it creates.")
        var baseline = false

        func validate() throws {
            if (database == nil) == (url == nil) {
                throw ValidationError("pass exactly one of --database <file> and --url postgres://…")
            }
            if url != nil && baseline {
                throw ValidationError("--baseline is for SQLite files; PostgreSQL databases are migrated from empty")
            }
        }

        func run() throws {
            if let url {
                return try PostgresCommands.migrate(schemaPath: schema, url: url, upTo: to, dryRun: dryRun)
            }
            guard let database else { throw ExitCode(1) }
            _ = try loadSchemaOrExit(schema)
            let migrations = try loadMigrationsOrExit(schema)
            if baseline { return try runBaseline(migrations, database: database) }
            let migrator = Migrator(migrations: migrations)
            if let to, to > migrator.latestVersion {
                printError("error: migration refused: there is no migration \(to): the latest is \(migrator.latestVersion)")
                printError("nothing was applied")
                throw ExitCode(1)
            }
            if dryRun && !FileManager.default.fileExists(atPath: database) {
                // Do not create the file for a dry run: it would apply everything.
                let pending = migrations.filter { $0.version <= (to ?? migrator.latestVersion) }
                report(pending: pending, database: database, currentVersion: 0)
                return
            }
            var db: Database?
            do {
                // Read-only first: opening the file for writing would switch it to WAL.
                if let refusal = try unadoptedTables(migrator) { throw StrataError(kind: .migrationRefused, message: refusal) }
                var configuration = Database.Configuration()
                configuration.readOnly = dryRun
                configuration.busyTimeout = max(0, busyTimeout)
                let opened = try Database(path: database, configuration: configuration)
                db = opened
                let before = try migrator.status(of: opened)
                if !before.problems.isEmpty {
                    throw StrataError(kind: .migrationRefused, message: before.problems.joined(separator: "\n"))
                }
                if let to, to < before.currentVersion {
                    throw StrataError(
                        kind: .migrationRefused,
                        message: "the database is at version \(before.currentVersion); migrating down to \(to) is not supported")
                }
                let wanted = before.pending.filter { $0.version <= (to ?? migrator.latestVersion) }
                if dryRun {
                    report(pending: wanted, database: database, currentVersion: before.currentVersion)
                    return
                }
                var started = Date()
                var running = false
                func finish() {
                    // One unbuffered stream for the whole progress line, so its parts stay in order.
                    if running { FileHandle.standardOutput.write(Data("done (\(Int(Date().timeIntervalSince(started) * 1000)) ms)\n".utf8)) }
                    running = false
                }
                let applied: [Migration]
                do {
                    // The migrator checks everything again under the write lock, and announces a
                    // migration only once it holds the lock and the migration is still pending.
                    applied = try migrator.migrate(opened, upTo: to) { migration in
                        finish()
                        FileHandle.standardOutput.write(Data("applying \(migration.fileName.dropLast(4)) … ".utf8))
                        started = Date()
                        running = true
                    }
                } catch {
                    if running { FileHandle.standardOutput.write(Data("failed\n".utf8)) }
                    throw error
                }
                finish()
                let after = try migrator.status(of: opened)
                let appliedVersions = Set(applied.map(\.version))
                let byOthers = wanted.filter { !appliedVersions.contains($0.version) && $0.version <= after.currentVersion }
                if !byOthers.isEmpty {
                    let names = byOthers.map { String($0.fileName.dropLast(4)) }.joined(separator: ", ")
                    print("another process applied \(names) while this one waited; this one applied \(applied.isEmpty ? "nothing" : "the rest")")
                }
                if applied.isEmpty && byOthers.isEmpty {
                    print("\(database) is up to date at version \(after.currentVersion)")
                } else {
                    print("\(database) is at version \(after.currentVersion)")
                }
            } catch let error as StrataError {
                if error.kind == .migrationRefused {
                    printError("error: migration refused: \(error.message)")
                    if let db, let status = try? migrator.status(of: db) { printDriftDetails(db, migrations: migrations, status: status) }
                    printError("nothing was applied")
                } else if error.resultCode == SQLiteResultCode.busy {
                    printError(
                        "error: \(database) is locked by another process (another 'strata migrate', or the app) and stayed locked for \(busyTimeout == busyTimeout.rounded() ? String(Int(busyTimeout)) : String(busyTimeout)) s; nothing was applied; try again when it is done, or wait longer with --busy-timeout")
                } else {
                    printError("error: \(error.message)")
                }
                throw ExitCode(1)
            }
        }

        /// Why migrating would refuse a database that has tables but no migration history: 0001
        /// would create them again, and `--baseline` is what adopts it. nil otherwise.
        func unadoptedTables(_ migrator: Migrator) throws -> String? {
            guard let database, FileManager.default.fileExists(atPath: database), migrator.migrations.first?.version == 1 else { return nil }
            var configuration = Database.Configuration.readOnly
            // A `-journal` may be hot (to roll back first): then the plain read-only open refuses.
            configuration.immutable = !FileManager.default.fileExists(atPath: database + "-wal") && !FileManager.default.fileExists(atPath: database + "-journal")
            configuration.busyTimeout = max(0, busyTimeout)
            return try Database(path: database, configuration: configuration).read { conn -> String? in
                let status = try migrator.status(conn)
                guard status.applied.isEmpty, status.userVersion == 0 else { return nil }
                let tables = try conn.fetch(
                    sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> ? ORDER BY rowid",
                    arguments: [Migrator.historyTable]
                ).map { try $0.get(0, as: String.self) }
                guard !tables.isEmpty else { return nil }
                let shown = tables.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ") + (tables.count > 5 ? " and \(tables.count - 5) more" : "")
                return "\(database) has tables (\(shown)) but no migration history, so 0001 would create them again; if it is a database to adopt, check it is what 0001 creates and record that as applied: strata migrate \(schema) --database \(database) --baseline (add --dry-run to only check)"
            }
        }

        func report(pending: [Migration], database: String, currentVersion: Int) {
            if pending.isEmpty {
                print("dry run: \(database) is up to date at version \(currentVersion); nothing would be applied")
                return
            }
            print("dry run: \(database) is at version \(currentVersion); would apply:")
            for migration in pending {
                print("  \(String(migration.fileName.dropLast(4)))")
                let lines = migration.sql.split(separator: "\n", omittingEmptySubsequences: false)
                for line in lines where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                    print("    \(line)")
                }
            }
        }
    }
}
