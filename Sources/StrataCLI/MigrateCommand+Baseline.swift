import ArgumentParser
import Foundation
import Strata
import StrataCompiler

extension StrataCommand.Migrate {
    /// `strata migrate <schema> --database <file> --baseline`: adopts an existing database.
    func runBaseline(_ migrations: [Migration], database: String) throws {
        guard FileManager.default.fileExists(atPath: database) else {
            printError("error: \(database) does not exist: --baseline adopts an existing database")
            throw ExitCode(1)
        }
        do {
            // The check runs read-only first: a refused baseline never opens the file for writing
            // (which would switch it to WAL mode).
            var readOnly = Database.Configuration.readOnly
            readOnly.immutable = !FileManager.default.fileExists(atPath: database + "-wal")
            let found = try Database(path: database, configuration: readOnly).read { conn -> [String] in
                guard let first = migrations.first, first.version == 1 else { return [] }
                return try MigrationBaseline.differences(conn, first: first)
            }
            if dryRun {
                if found.isEmpty {
                    print("dry run: \(database) is what 0001 creates; --baseline would record it as applied")
                } else {
                    print("dry run: \(database) is not what 0001 creates:")
                    for difference in found { print("  - \(difference)") }
                }
                return
            }
            if !found.isEmpty {
                throw StrataError(
                    kind: .migrationRefused,
                    message: "the database is not what \(migrations[0].fileName) creates:\n" + found.map { "  - \($0)" }.joined(separator: "\n"))
            }
            let db = try Database(path: database)
            let first = try MigrationBaseline.baseline(db, migrations: migrations)
            print("\(database) is at version 1: \(first.fileName) recorded as applied (baseline), nothing was run")
            let pending = migrations.filter { $0.version > first.version }
            if !pending.isEmpty {
                print("\(pending.count) later migration(s) pending: run 'strata migrate' without --baseline to apply them")
            }
        } catch let error as StrataError {
            printError("error: \(error.kind == .migrationRefused ? "baseline refused: " : "")\(error.message)")
            if error.kind == .migrationRefused { printError("nothing was changed") }
            throw ExitCode(1)
        }
    }
}
