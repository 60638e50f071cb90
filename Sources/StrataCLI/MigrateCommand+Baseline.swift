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
            // The check runs read-only first: a refused baseline never opens the file for writing.
            var readOnly = Database.Configuration.readOnly
            readOnly.immutable = !FileManager.default.fileExists(atPath: database + "-wal")
            let refusals = try Database(path: database, configuration: readOnly).read { conn in
                try MigrationBaseline.refusals(conn, migrations: migrations)
            }
            if dryRun {
                if refusals.isEmpty {
                    print("dry run: \(database) is what 0001 creates; --baseline would record it as applied")
                    return
                }
                printError("error: dry run: --baseline would refuse \(database):")
                for refusal in refusals { printError("  - \(refusal)") }
                throw ExitCode(1)
            }
            if !refusals.isEmpty {
                throw StrataError(kind: .migrationRefused, message: refusals.count == 1 ? refusals[0] : "\n" + refusals.map { "  - \($0)" }.joined(separator: "\n"))
            }
            let first = try MigrationBaseline.baseline(fileAt: database, migrations: migrations, busyTimeout: max(0, busyTimeout))
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
