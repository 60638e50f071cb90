import ArgumentParser

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
}
