import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataCompiler

/// `strata migrate` on a database that another tool made, through the real CLI: the dry run of
/// `--baseline` fails exactly when `--baseline` would, a plain `migrate` names `--baseline`,
/// and a baseline changes nothing in the file but the history table.
@Suite struct AdoptingTellsTheTruthTests {
    func strata(_ arguments: String..., in directory: URL) throws -> StrataExecutable.Result {
        try StrataExecutable.run(arguments, in: directory)
    }

    /// A legacy database (rollback journal, a user_version of 0, an application_id, 8 KiB
    /// pages), its introspected schema and first migration in `workspace`.
    func legacy(_ workspace: MigrationWorkspace) throws -> String {
        let path = workspace.url.appendingPathComponent("legacy.sqlite").path
        do {
            let db = try Database(path: path)
            try db.writeWithoutTransaction { conn in
                try conn.execute(sql: "PRAGMA journal_mode = DELETE")
                try conn.execute(sql: "PRAGMA page_size = 8192")
                try conn.execute(sql: "VACUUM")
                try conn.execute(sql: "PRAGMA application_id = 1196444487")
                try conn.execute(
                    sql: """
                        CREATE TABLE people (id INTEGER PRIMARY KEY AUTOINCREMENT, name VARCHAR(40) NOT NULL, active BOOLEAN DEFAULT 1);
                        INSERT INTO people (name, active) VALUES ('Ann', 1), ('Bob', 0);
                        """)
            }
        }
        #expect(try strata("introspect", "legacy.sqlite", "--output", "Legacy.schema.yml", in: workspace.url).status == 0)
        #expect(try strata("migration", "new", "Legacy.schema.yml", "--name", "initial", in: workspace.url).status == 0)
        return path
    }

    /// The settings a baseline must leave as they were.
    func pragmas(_ path: String) throws -> [String: String] {
        var configuration = Database.Configuration.readOnly
        configuration.immutable = true
        let db = try Database(path: path, configuration: configuration)
        return try db.read { conn in
            var result: [String: String] = [:]
            for name in ["journal_mode", "user_version", "application_id", "page_size", "auto_vacuum", "encoding"] {
                result[name] = try conn.fetchValue(String.self, sql: "PRAGMA \(name)")
            }
            return result
        }
    }

    @Test func aDryRunFailsExactlyWhenTheBaselineWould() throws {
        let workspace = try MigrationWorkspace(name: "Legacy")
        let path = try legacy(workspace)
        let other = workspace.url.appendingPathComponent("other.sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: other)
        do {
            let db = try Database(path: other)
            try db.writeWithoutTransaction { conn in try conn.execute(sql: "CREATE INDEX people_name ON people (name); PRAGMA journal_mode = DELETE;") }
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: other))

        let dryRefused = try strata("migrate", "Legacy.schema.yml", "--database", "other.sqlite", "--baseline", "--dry-run", in: workspace.url)
        #expect(dryRefused.status == 1, "\(dryRefused.stdout)\(dryRefused.stderr)")
        #expect(dryRefused.stderr.contains("--baseline would refuse"))
        #expect(dryRefused.stderr.contains("index people_name (on people (name)) is in the database but not created by the migration"))
        let refused = try strata("migrate", "Legacy.schema.yml", "--database", "other.sqlite", "--baseline", in: workspace.url)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("index people_name (on people (name)) is in the database but not created by the migration"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)

        let dryAccepted = try strata("migrate", "Legacy.schema.yml", "--database", "legacy.sqlite", "--baseline", "--dry-run", in: workspace.url)
        #expect(dryAccepted.status == 0, "\(dryAccepted.stderr)")
        #expect(dryAccepted.stdout.contains("--baseline would record it as applied"))
        let accepted = try strata("migrate", "Legacy.schema.yml", "--database", "legacy.sqlite", "--baseline", in: workspace.url)
        #expect(accepted.status == 0, "\(accepted.stderr)")

        // Once baselined, both refuse: the database has a history.
        let dryAgain = try strata("migrate", "Legacy.schema.yml", "--database", "legacy.sqlite", "--baseline", "--dry-run", in: workspace.url)
        #expect(dryAgain.status == 1)
        #expect(dryAgain.stderr.contains("already has a migration history"))
        let again = try strata("migrate", "Legacy.schema.yml", "--database", "legacy.sqlite", "--baseline", in: workspace.url)
        #expect(again.status == 1)
        #expect(again.stderr.contains("already has a migration history"))

        // Without migration 0001 both refuse too.
        try FileManager.default.removeItem(at: workspace.url.appendingPathComponent("Legacy.migrations"))
        try FileManager.default.createDirectory(at: workspace.url.appendingPathComponent("Legacy.migrations"), withIntermediateDirectories: true)
        for dryRun in [true, false] {
            let arguments = ["migrate", "Legacy.schema.yml", "--database", "other.sqlite", "--baseline"] + (dryRun ? ["--dry-run"] : [])
            let result = try StrataExecutable.run(arguments, in: workspace.url)
            #expect(result.status == 1, "dry run: \(dryRun)")
        }
    }

    @Test func migrateOnAnAdoptedDatabaseNamesBaseline() throws {
        let workspace = try MigrationWorkspace(name: "Legacy")
        let path = try legacy(workspace)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for dryRun in [false, true] {
            let arguments = ["migrate", "Legacy.schema.yml", "--database", "legacy.sqlite"] + (dryRun ? ["--dry-run"] : [])
            let result = try StrataExecutable.run(arguments, in: workspace.url)
            #expect(result.status == 1, "dry run: \(dryRun)")
            #expect(result.stderr.contains("legacy.sqlite has tables (\"people\") but no migration history"), "\(result.stderr)")
            #expect(result.stderr.contains("strata migrate Legacy.schema.yml --database legacy.sqlite --baseline"), "\(result.stderr)")
            #expect(!result.stderr.contains("already exists"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        // An empty file is migrated as before.
        let empty = try strata("migrate", "Legacy.schema.yml", "--database", "fresh.sqlite", in: workspace.url)
        #expect(empty.status == 0, "\(empty.stderr)")
    }

    @Test func aBaselineChangesNothingButTheHistoryTable() throws {
        let workspace = try MigrationWorkspace(name: "Legacy")
        let path = try legacy(workspace)
        let settings = try pragmas(path)
        #expect(settings["journal_mode"] == "delete")
        #expect(settings["page_size"] == "8192")
        #expect(settings["application_id"] == "1196444487")
        let rows = { (path: String) throws -> [String] in
            var configuration = Database.Configuration.readOnly
            configuration.immutable = true
            return try Database(path: path, configuration: configuration).read { conn in
                try conn.fetch(sql: "SELECT name, sql FROM sqlite_schema WHERE name NOT LIKE 'strata%' ORDER BY name").map { "\(try $0.get(0, as: String.self)): \(try $0.get(1, as: String?.self) ?? "")" }
                    + conn.fetch(sql: "SELECT id, name, active FROM people ORDER BY id").map { "\(try $0.get(0, as: Int.self)) \(try $0.get(1, as: String.self)) \(try $0.get(2, as: Int.self))" }
            }
        }
        let before = try rows(path)

        let baseline = try strata("migrate", "Legacy.schema.yml", "--database", "legacy.sqlite", "--baseline", in: workspace.url)
        #expect(baseline.status == 0, "\(baseline.stderr)")
        #expect(try pragmas(path) == settings)
        #expect(try rows(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.url.path).filter { $0.hasPrefix("legacy.sqlite") } == ["legacy.sqlite"])
        let status = try strata("status", "Legacy.schema.yml", "--database", "legacy.sqlite", in: workspace.url)
        #expect(status.stdout.contains("version: 1 (latest: 1)"), "\(status.stdout)\(status.stderr)")
        let migrate = try strata("migrate", "Legacy.schema.yml", "--database", "legacy.sqlite", in: workspace.url)
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(migrate.stdout.contains("up to date at version 1"))
    }
}
