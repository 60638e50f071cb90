import ArgumentParser
import Foundation
import Strata
import StrataCompiler

extension StrataCommand {
    /// `strata migrate <schema> --database <file>`.
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply the pending migrations of a schema to a database file.",
            discussion: HelpText.migrate + """
                Each migration runs in its own transaction: the database is left at the old version or the new \
                one, never between. Refuses, changing nothing, when an applied migration was edited (checksum \
                drift), when the database is newer than the migrations, or when there is a gap.
                """
        )

        @Argument(help: "The schema file (<Name>.schema.yml).")
        var schema: String

        @Option(name: .long, help: "The SQLite database file (created when missing).")
        var database: String

        @Option(name: .long, help: "Migrate up to this version instead of the latest.")
        var to: Int?

        @Flag(name: .long, help: "Print what would be applied, and change nothing.")
        var dryRun = false

        func run() throws {
            _ = try loadSchemaOrExit(schema)
            let migrations = try loadMigrationsOrExit(schema)
            let migrator = Migrator(migrations: migrations)
            if dryRun && !FileManager.default.fileExists(atPath: database) {
                // Do not create the file for a dry run: it would apply everything.
                let pending = migrations.filter { $0.version <= (to ?? migrator.latestVersion) }
                report(pending: pending, database: database, currentVersion: 0)
                return
            }
            do {
                let db = try Database(path: database)
                let status = try migrator.status(of: db)
                if !status.problems.isEmpty {
                    throw StrataError(kind: .migrationRefused, message: status.problems.joined(separator: "\n"))
                }
                if let to, to < status.currentVersion {
                    throw StrataError(
                        kind: .migrationRefused,
                        message: "the database is at version \(status.currentVersion); migrating down to \(to) is not supported")
                }
                if let to, to > migrator.latestVersion {
                    throw StrataError(
                        kind: .migrationRefused, message: "there is no migration \(to): the latest is \(migrator.latestVersion)")
                }
                if dryRun {
                    let pending = status.pending.filter { $0.version <= (to ?? migrator.latestVersion) }
                    report(pending: pending, database: database, currentVersion: status.currentVersion)
                    return
                }
                if status.pending.isEmpty {
                    print("\(database) is up to date at version \(status.currentVersion)")
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
                    applied = try migrator.migrate(db, upTo: to) { migration in
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
                let version = applied.last?.version ?? status.currentVersion
                FileHandle.standardOutput.write(Data("\(database) is at version \(version)\n".utf8))
            } catch let error as StrataError {
                printError("error: \(error.kind == .migrationRefused ? "migration refused: " : "")\(error.message)")
                if error.kind == .migrationRefused { printError("nothing was applied") }
                throw ExitCode(1)
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
