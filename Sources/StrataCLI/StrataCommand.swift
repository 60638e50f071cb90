import ArgumentParser
import Strata

/// The `strata` command-line tool (run by the `strata` executable and the plugins' tool).
public struct StrataCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Compile YAML schema files into typed SQLite persistence code.",
        discussion: StrataCommand.overview,
        subcommands: [Check.self, Generate.self, MigrationGroup.self, Migrate.self, Status.self, Prepare.self, Introspect.self, Diagram.self]
    )

    /// Creates the command (ArgumentParser fills in the options).
    public init() {}

    /// Runs the command for the process's arguments, SQLite's memory statistics off first
    /// (the compiler's checks prepare many thousands of statements; each allocation of SQLite's
    /// would take a mutex for them).
    public static func main() {
        SQLiteLibrary.disableMemoryStatistics()
        main(nil)
    }
}
