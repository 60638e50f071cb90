import ArgumentParser
import Foundation
import Strata
import StrataCompiler

extension StrataCommand {
    /// `strata status <schema> --database <file>`.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a database's version, its applied migrations and the pending ones.",
            discussion: HelpText.status
        )

        @Argument(help: "The schema file (<Name>.schema.yml).")
        var schema: String

        @Option(name: .long, help: "The SQLite database file.")
        var database: String

        func run() throws {
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
                print("applied:")
                if status.applied.isEmpty { print("  (none)") }
                for record in status.applied {
                    print("  \(Migration(version: record.version, name: record.name, sql: "").fileName.dropLast(4))  \(record.appliedAt)")
                }
                print("pending:")
                if status.pending.isEmpty { print("  (none)") }
                for migration in status.pending { print("  \(migration.fileName.dropLast(4))") }
                if !status.problems.isEmpty {
                    for problem in status.problems { printError("error: \(problem)") }
                    throw ExitCode(1)
                }
            } catch let error as StrataError {
                printError("error: \(error.message)")
                throw ExitCode(1)
            }
        }
    }
}
