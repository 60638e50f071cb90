import ArgumentParser
import Foundation
import Strata
import StrataCompiler

extension StrataCommand {
    /// `strata status <schema> --database <file>`.
    struct Status: ParsableCommand, SchemaFileCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a database's version, its applied migrations and the pending ones.",
            discussion: HelpText.status + """
                Opens the file read-only (it works on a file you may not write). Also says whether the structure is \
                still the one the last applied migration left; when it was altered by hand it lists the differences \
                and exits with 1, as it does for anything that would make 'strata migrate' refuse.
                """
        )

        @OptionGroup var schemaFile: SchemaFileArgument

        @Option(name: .long, help: "The SQLite database file.")
        var database: String?

        @Option(name: .long, help: "A PostgreSQL URL (postgres://user@host:port/db): show its PostgreSQL migration status (strata-postgres only).")
        var url: String?

        func validate() throws {
            if (database == nil) == (url == nil) {
                throw ValidationError("pass exactly one of --database <file> and --url postgres://…")
            }
        }

        func run() throws {
            if let url { return try PostgresCommands.status(schemaPath: schema, url: url) }
            guard let database else { throw ExitCode(1) }
            let migrations = try loadMigrationsOrExit(schema)
            guard FileManager.default.fileExists(atPath: database) else {
                printError("error: \(database) does not exist; 'strata migrate \(schema) --database \(database)' creates it")
                throw ExitCode(1)
            }
            do {
                let db = try Database(path: database, configuration: .readOnly)
                let status = try Migrator(migrations: migrations).status(of: db)
                print("database: \(database)")
                print("version: \(status.currentVersion) (latest: \(status.latestVersion))")
                printMigrationLists(applied: status.applied.map { ($0.version, $0.name, $0.appliedAt) }, pending: status.pending)
                if let applied = status.applied.last {
                    if status.drift != nil {
                        print("structure: altered outside the migrations since version \(applied.version)")
                    } else if applied.fingerprint == nil {
                        print("structure: not fingerprinted yet (the next 'strata migrate' records it)")
                    } else {
                        print("structure: as version \(applied.version) left it")
                    }
                }
                if !status.problems.isEmpty {
                    for problem in status.problems { printError("error: \(problem)") }
                    printDriftDetails(db, migrations: migrations, status: status)
                    throw ExitCode(1)
                }
            } catch let error as StrataError {
                printError("error: \(error.message)")
                throw ExitCode(1)
            }
        }
    }
}
