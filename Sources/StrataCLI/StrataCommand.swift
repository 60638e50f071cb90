import ArgumentParser

/// The `strata` command-line tool.
@main
struct StrataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Compile YAML schema files into typed SQLite persistence code.",
        subcommands: [Check.self, Generate.self, MigrationGroup.self, Migrate.self, Status.self, Introspect.self]
    )
}
