import ArgumentParser
import Foundation
import Strata
import StrataCompiler

/// What `strata migrate --url`, `strata status --url` and `strata prepare` need from PostgreSQL.
///
/// The `strata-postgres` executable implements it over StrataPostgres and passes it to
/// ``StrataCommand/main(postgres:)``. The `strata` executable and the plugins' copy of the command
/// (StrataPluginTool) have none, so building them builds nothing of SwiftNIO; given `--url` they
/// print the `swift run strata-postgres …` command that has it.
public protocol PostgresMigrationTool: Sendable {
    /// The migration status of the database at `url` for `migrations`.
    func status(url: String, migrations: [Migration]) async throws -> PostgresMigrationStatus
    /// Applies the pending `migrations` up to `target` (all when nil), each in its own
    /// transaction under the migrator's advisory lock; returns the ones this call applied.
    func migrate(url: String, migrations: [Migration], upTo target: Int?) async throws -> [Migration]
    /// Applies `migrations` to a scratch schema of the database at `url` (dropped afterwards,
    /// whatever happens), prepares each of `statements` there (without running it) and returns
    /// what the server said about each: `strata prepare`.
    func describe(url: String, migrations: [Migration], statements: [String]) async throws -> [PostgresStatementOutcome]
}

/// A PostgreSQL database's migration history, as `strata status --url` prints it.
public struct PostgresMigrationStatus: Sendable {
    /// One applied migration: version, name and when.
    public struct Applied: Sendable {
        /// The version.
        public var version: Int
        /// The name.
        public var name: String
        /// When it was applied.
        public var appliedAt: Date

        /// Creates a record.
        public init(version: Int, name: String, appliedAt: Date) {
            self.version = version
            self.name = name
            self.appliedAt = appliedAt
        }
    }

    /// The applied migrations, in version order.
    public var applied: [Applied]
    /// The migrations still to apply, in version order.
    public var pending: [Migration]
    /// Why `migrate` would refuse (checksum drift, a newer database, a gap); empty when it would not.
    public var problems: [String]

    /// Creates a status.
    public init(applied: [Applied], pending: [Migration], problems: [String]) {
        self.applied = applied
        self.pending = pending
        self.problems = problems
    }

    /// The version of the newest applied migration, 0 for none.
    public var currentVersion: Int { applied.last?.version ?? 0 }
}

extension StrataCommand {
    /// Runs the command line with PostgreSQL support (`--url postgres://…`).
    public static func main(postgres: any PostgresMigrationTool) {
        PostgresToolRegistry.shared.set(postgres)
        main()
    }
}

/// The tool `main(postgres:)` registered; set once before the command runs.
final class PostgresToolRegistry: @unchecked Sendable {
    static let shared = PostgresToolRegistry()
    private let lock = NSLock()
    private var tool: (any PostgresMigrationTool)?

    func set(_ tool: any PostgresMigrationTool) {
        lock.withLock { self.tool = tool }
    }

    var current: (any PostgresMigrationTool)? { lock.withLock { tool } }
}

/// The result of an async call, handed from its task to the waiting command.
private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    var result: Result<Value, any Error>?
}

/// Runs `body` to its end from a synchronous command (the commands are synchronous; only the
/// PostgreSQL client is async).
func runBlocking<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
    let box = ResultBox<Value>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    switch box.result {
    case .success(let value)?: return value
    case .failure(let error)?: throw error
    case nil: throw StrataError.misuse("the PostgreSQL call did not finish")
    }
}

/// The PostgreSQL side of `migrate` and `status`.
enum PostgresCommands {
    /// The registered tool, or an error that says this build has none and gives the command
    /// that has it.
    static func tool() throws -> any PostgresMigrationTool {
        guard let tool = PostgresToolRegistry.shared.current else {
            printError("error: this strata has no PostgreSQL support (so that building it builds no SwiftNIO); --url needs the strata-postgres command:")
            printError("  \(postgresCommand(CommandLine.arguments.dropFirst()))")
            throw ExitCode(1)
        }
        return tool
    }

    /// `swift run strata-postgres` with `arguments`, quoted for a POSIX shell, a URL's password
    /// shown as `***` (an error message ends up in logs).
    static func postgresCommand<Arguments: Sequence<String>>(_ arguments: Arguments) -> String {
        (["swift", "run", "strata-postgres"] + arguments.map { shellQuoted(display($0)) }).joined(separator: " ")
    }

    /// `text` as one word of a POSIX shell command line.
    static func shellQuoted(_ text: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@%+,")
        if !text.isEmpty, text.allSatisfy(plain.contains) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The PostgreSQL migrations of a schema whose `dialects` include postgres, or exits with 1.
    static func migrations(schemaPath: String) throws -> [Migration] {
        let schema = try loadSchemaOrExit(schemaPath)
        guard schema.targetsPostgres else {
            printError("error: \(schemaPath) does not list postgres in 'options: { dialects: }', so it has no PostgreSQL migrations")
            throw ExitCode(1)
        }
        let sqlite = try loadMigrationsOrExit(schemaPath)
        let diagnostics = PostgresMigrations.verify(schema: schema, schemaPath: schemaPath, sqliteMigrations: sqlite)
        if !diagnostics.isEmpty {
            diagnostics.forEach { printError($0.description) }
            throw ExitCode(1)
        }
        do {
            return try PostgresMigrations.load(schemaPath: schemaPath)
        } catch let error as DiagnosticsError {
            error.diagnostics.forEach { printError($0.description) }
            throw ExitCode(1)
        }
    }

    /// `url` without its password, for messages.
    static func display(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }

    /// `strata migrate <schema> --url …`.
    static func migrate(schemaPath: String, url: String, upTo target: Int?, dryRun: Bool) throws {
        let tool = try tool()
        let migrations = try migrations(schemaPath: schemaPath)
        let name = display(url)
        let latest = migrations.last?.version ?? 0
        if let target, target > latest {
            printError("error: migration refused: there is no migration \(target): the latest is \(latest)")
            printError("nothing was applied")
            throw ExitCode(1)
        }
        do {
            let before = try runBlocking { try await tool.status(url: url, migrations: migrations) }
            if !before.problems.isEmpty {
                before.problems.forEach { printError("error: migration refused: \($0)") }
                printError("nothing was applied")
                throw ExitCode(1)
            }
            let wanted = before.pending.filter { $0.version <= (target ?? latest) }
            if dryRun {
                if wanted.isEmpty {
                    print("dry run: \(name) is up to date at version \(before.currentVersion); nothing would be applied")
                    return
                }
                print("dry run: \(name) is at version \(before.currentVersion); would apply:")
                for migration in wanted {
                    print("  \(migration.fileName.dropLast(4))")
                    for line in migration.sql.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                        print("    \(line)")
                    }
                }
                return
            }
            let applied = try runBlocking { try await tool.migrate(url: url, migrations: migrations, upTo: target) }
            for migration in applied { print("applied \(migration.fileName.dropLast(4))") }
            let after = try runBlocking { try await tool.status(url: url, migrations: migrations) }
            let appliedVersions = Set(applied.map(\.version))
            let byOthers = wanted.filter { !appliedVersions.contains($0.version) && $0.version <= after.currentVersion }
            if !byOthers.isEmpty {
                let names = byOthers.map { String($0.fileName.dropLast(4)) }.joined(separator: ", ")
                print("another process applied \(names) while this one waited; this one applied \(applied.isEmpty ? "nothing" : "the rest")")
            }
            print(applied.isEmpty && byOthers.isEmpty ? "\(name) is up to date at version \(after.currentVersion)" : "\(name) is at version \(after.currentVersion)")
        } catch let error as StrataError {
            printError(error.kind == .migrationRefused ? "error: migration refused: \(error.message)" : "error: \(error.message)")
            if error.kind == .migrationRefused { printError("nothing was applied") }
            throw ExitCode(1)
        }
    }

    /// `strata status <schema> --url …`.
    static func status(schemaPath: String, url: String) throws {
        let tool = try tool()
        let migrations = try migrations(schemaPath: schemaPath)
        do {
            let status = try runBlocking { try await tool.status(url: url, migrations: migrations) }
            print("database: \(display(url))")
            print("version: \(status.currentVersion) (latest: \(migrations.last?.version ?? 0))")
            printMigrationLists(applied: status.applied.map { ($0.version, $0.name, "\($0.appliedAt)") }, pending: status.pending)
            if !status.problems.isEmpty {
                status.problems.forEach { printError("error: \($0)") }
                throw ExitCode(1)
            }
        } catch let error as StrataError {
            printError("error: \(error.message)")
            throw ExitCode(1)
        }
    }
}
