import ArgumentParser
import Foundation
import Strata
import StrataCompiler

/// Writes `text` and a newline to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Loads and validates a schema file, or prints its diagnostics and exits with 1.
func loadSchemaOrExit(_ path: String) throws -> Schema {
    try compileOrExit(path).schema
}

/// Runs the compiler's front end and checks on a schema file (``Compiler``, as `check` and
/// `generate` do), or prints its diagnostics and exits with 1. These commands generate no
/// query code: `<Name>.prepared.json` is not read (a new migration makes it stale, and
/// `strata migration new` must run before `strata-postgres prepare` can).
func compileOrExit(_ path: String) throws -> CompiledSchema {
    do {
        return try Compiler.compile(path: path, preparedQueries: false)
    } catch let error as DiagnosticsError {
        error.diagnostics.forEach { printError($0.rendered) }
        throw ExitCode(1)
    }
}

/// Loads the migration files of a schema, or prints what is wrong with them and exits with 1.
func loadMigrationsOrExit(_ schemaPath: String) throws -> [Migration] {
    do {
        return try MigrationFiles.load(schemaPath: schemaPath)
    } catch let error as DiagnosticsError {
        error.diagnostics.forEach { printError($0.rendered) }
        throw ExitCode(1)
    }
}

extension StrataCommand {
    /// `strata migration new|verify`.
    struct MigrationGroup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migration",
            abstract: "Write and check the migration files of a schema.",
            discussion: HelpText.migration,
            subcommands: [New.self, Verify.self]
        )
    }
}

extension StrataCommand.MigrationGroup {
    /// `strata migration new <schema> --name <name>`.
    struct New: ParsableCommand, SchemaFileCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the next migration: the SQL that turns the schema built by the existing migrations into the declared one.",
            discussion: HelpText.migrationNew + """
                The file is <Name>.migrations/NNNN_<name>.sql beside the schema file. Renames need `renamedFrom:` \
                in the schema; dropping a table or a column needs --allow-destructive. Prints nothing to write \
                (and exits 0) when the schema did not change.
                """
        )

        @OptionGroup var schemaFile: SchemaFileArgument

        @Option(name: .long, help: "The migration's name; converted to snake_case (add_phone).")
        var name: String

        @Flag(name: .long, help: "Print the SQL instead of writing the file.")
        var dryRun = false

        @Flag(name: .long, help: "Allow dropping tables and columns (their data is deleted).")
        var allowDestructive = false

        func run() throws {
            let compiled = try compileOrExit(schema)
            let declared = compiled.schema
            let migrations = try loadMigrationsOrExit(schema)
            let snake = MigrationFiles.snakeCase(name)
            guard !snake.isEmpty else {
                printError("error: the name '\(name)' has no letters or digits; give a name like add_phone")
                throw ExitCode(1)
            }
            var plan: MigrationPlan
            do {
                plan = try MigrationPlanner.plan(compiled, migrations: migrations, options: .init(allowDestructive: allowDestructive))
            } catch let error as MigrationPlanningError {
                for (problem, location) in zip(error.problems, error.locations) {
                    printError("\(location.map { "\($0)" } ?? "\(schema):1:1"): error: \(problem)")
                }
                throw ExitCode(1)
            } catch let error as StrataError {
                printError("\(schema):1:1: error: the existing migrations do not run: \(error.message)")
                throw ExitCode(1)
            }
            // A PostgreSQL history written before the migrations created the observation
            // triggers gets them in the next migration, even one that changes nothing else.
            let installsObservation = declared.targetsPostgres && !migrations.isEmpty
                && !PostgresNotifyTriggers.isInstalled(by: (try? PostgresMigrations.load(schemaPath: schema)) ?? [])
            if plan.isEmpty && !installsObservation {
                print("nothing changed: the migrations already produce \(schema); no file written")
                return
            }
            if plan.isEmpty { plan.changes = ["nothing on SQLite (the PostgreSQL migration creates the observation triggers)"] }
            let version = (migrations.last?.version ?? 0) + 1
            let schemaFile = URL(fileURLWithPath: schema).lastPathComponent
            var files = [
                (
                    directory: MigrationFiles.directory(forSchemaPath: schema),
                    text: MigrationRenderer.render(plan, version: version, name: snake, schemaFile: schemaFile), changes: plan.changes
                )
            ]
            if declared.targetsPostgres {
                files.append(try postgresFile(declared, migrations: migrations, version: version, name: snake, schemaFile: schemaFile))
            }
            for file in files {
                let path = (file.directory as NSString).appendingPathComponent(Migration(version: version, name: snake, sql: "").fileName)
                if dryRun {
                    print("-- dry run: would write \(path)")
                    print(file.text, terminator: "")
                    continue
                }
                try writeOrExit({ try FileManager.default.createDirectory(atPath: file.directory, withIntermediateDirectories: true) }, path: file.directory)
                try writeOrExit({ try Data(file.text.utf8).write(to: URL(fileURLWithPath: path)) }, path: path)
                print("wrote \(path)")
                for change in file.changes { print("  \(change)") }
            }
        }

        /// The PostgreSQL migration with the same number and name: planned from the same
        /// difference, altering in place.
        func postgresFile(
            _ declared: Schema, migrations: [Migration], version: Int, name: String, schemaFile: String
        ) throws -> (directory: String, text: String, changes: [String]) {
            let postgres: [Migration]
            do {
                postgres = try PostgresMigrations.load(schemaPath: schema)
            } catch let error as DiagnosticsError {
                error.diagnostics.forEach { printError($0.rendered) }
                throw ExitCode(1)
            }
            guard postgres.count == migrations.count else {
                printError(
                    "\(PostgresMigrations.directory(forSchemaPath: schema)):1:1: error: the PostgreSQL migrations (\(postgres.count)) do not pair with the SQLite ones (\(migrations.count)); write the missing ones by hand first (see docs/PostgreSQL.md)")
                throw ExitCode(1)
            }
            do {
                let (plan, manual) = try PostgresMigrations.plan(
                    schema: declared, sqliteMigrations: migrations, postgresMigrations: postgres, options: .init(allowDestructive: allowDestructive))
                let text = PostgresMigrations.render(plan, manual: manual, version: version, name: name, schemaFile: schemaFile, schema: declared)
                return (PostgresMigrations.directory(forSchemaPath: schema), text, plan.changes + manual.map { "to write by hand: \($0)" })
            } catch let error as MigrationPlanningError {
                for (problem, location) in zip(error.problems, error.locations) {
                    printError("\(location.map { "\($0)" } ?? "\(schema):1:1"): error: PostgreSQL: \(problem)")
                }
                throw ExitCode(1)
            }
        }
    }

    /// `strata migration verify <schema>`.
    struct Verify: ParsableCommand, SchemaFileCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that replaying the migrations produces exactly the declared schema.",
            discussion: HelpText.migrationVerify + "Exits with 1 and lists every difference when they disagree."
        )

        @OptionGroup var schemaFile: SchemaFileArgument

        func run() throws {
            let compiled = try compileOrExit(schema)
            let declared = compiled.schema
            var diagnostics = MigrationVerifier.verify(compiled, schemaPath: schema)
            if declared.targetsPostgres, diagnostics.isEmpty {
                let sqlite = (try? MigrationFiles.load(schemaPath: schema)) ?? []
                diagnostics += PostgresMigrations.verify(schema: declared, schemaPath: schema, sqliteMigrations: sqlite)
            }
            if diagnostics.isEmpty {
                let count = (try? MigrationFiles.load(schemaPath: schema).count) ?? 0
                print("ok: \(count) migration(s) produce \(schema)" + (declared.targetsPostgres ? "; their PostgreSQL twins pass the build-time checks" : ""))
                return
            }
            diagnostics.forEach { printError($0.description) }
            throw ExitCode(1)
        }
    }
}
