import ArgumentParser
import Foundation
import Strata
import StrataCompiler

extension StrataCommand.Migrate {
    /// `strata migrate <schema> --database <file> --baseline`: adopts an existing database.
    func runBaseline(_ migrations: [Migration]) throws {
        guard FileManager.default.fileExists(atPath: database) else {
            printError("error: \(database) does not exist: --baseline adopts an existing database")
            throw ExitCode(1)
        }
        do {
            let db = try Database(path: database, configuration: dryRun ? .readOnly : Database.Configuration())
            if dryRun {
                let found = try db.read { conn -> [String] in
                    guard let first = migrations.first else { return ["there is no migration 0001"] }
                    return try MigrationBaseline.differences(conn, first: first)
                }
                if found.isEmpty {
                    print("dry run: \(database) is what 0001 creates; --baseline would record it as applied")
                } else {
                    print("dry run: \(database) is not what 0001 creates:")
                    for difference in found { print("  - \(difference)") }
                }
                return
            }
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
