import ArgumentParser
import Foundation
import Strata
import StrataCompiler

extension StrataCommand {
    /// `strata introspect <db.sqlite> --output <Name.schema.yml> [--database Name]`.
    struct Introspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a schema file that reproduces an existing SQLite database.",
            discussion: HelpText.introspect + """
                Opens the database read-only and never changes it (no journal, WAL or shared-memory file is \
                left behind). Types come from the declared types and a census of the stored values; what a \
                schema file cannot express is written as a comment and reported as a warning on standard error.
                """
        )

        @Argument(help: "The SQLite database file to read.")
        var databaseFile: String

        @Option(name: .long, help: "The schema file to write (<Name>.schema.yml).")
        var output: String

        @Option(name: .customLong("database"), help: "The Swift namespace ('database:'); default: the output file's name.")
        var databaseName: String?

        func run() throws {
            let name = databaseName ?? DatabaseAdopter.defaultDatabaseName(forSchemaPath: output)
            let result: DatabaseAdopter.Result
            do {
                result = try DatabaseAdopter.introspect(databasePath: databaseFile, databaseName: name)
            } catch let error as StrataError {
                printError("error: cannot introspect \(databaseFile): \(error.message)")
                throw ExitCode(1)
            }
            for warning in result.warnings {
                printError("warning: \(warning)")
            }
            do {
                try Generator.writeIfChanged(result.yaml, to: output)
            } catch {
                printError("error: cannot write \(output): \(error.localizedDescription)")
                throw ExitCode(1)
            }
            print("wrote \(output)")
        }
    }
}
