import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataCompiler

/// Runs the real `strata` executable (built beside the test bundle) against schema files and
/// database files in a temporary directory.
@Suite(.serialized) struct StrataCLITests {
    typealias Result = StrataExecutable.Result

    func strata(_ arguments: String..., in directory: URL) throws -> Result {
        try StrataExecutable.run(arguments, in: directory)
    }

    /// A workspace whose schema is v1 with `0001_initial.sql` written by the CLI.
    func initialized() throws -> MigrationWorkspace {
        let workspace = try MigrationWorkspace()
        try workspace.writeSchema(ShopSchema.v1)
        let result = try strata("migration", "new", "Shop.schema.yml", "--name", "Initial", in: workspace.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("wrote Shop.migrations/0001_initial.sql"))
        return workspace
    }

    var addPhone: String { ShopSchema.yaml(customer: ShopSchema.customer + "\n      phone: { type: text, default: \"\" }") }

    @Test func journey() throws {
        let workspace = try initialized()
        let dir = workspace.url
        var result = try strata("migration", "verify", "Shop.schema.yml", in: dir)
        #expect(result.status == 0 && result.stdout.contains("ok: 1 migration(s)"))

        result = try strata("migration", "new", "Shop.schema.yml", "--name", "again", in: dir)
        #expect(result.status == 0 && result.stdout.contains("nothing changed"))
        #expect(try MigrationFiles.load(schemaPath: workspace.schemaPath).count == 1)

        result = try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("applying 0001_initial … done ("))
        let db = try Database(path: dir.appendingPathComponent("shop.sqlite").path)
        try db.execute("INSERT INTO customer (name) VALUES ('Ann'); INSERT INTO purchase (customerId) VALUES (1)")

        // Evolve: the build check fails and names the command.
        try workspace.writeSchema(addPhone)
        result = try strata("migration", "verify", "Shop.schema.yml", in: dir)
        #expect(result.status == 1)
        #expect(result.stderr.contains(
            "Shop.schema.yml:11:7: error: the schema differs from its migrations: column customer.phone is declared but missing (run 'swift run strata migration new Shop.schema.yml --name <name>')"))

        result = try strata("migration", "new", "Shop.schema.yml", "--name", "add phone", "--dry-run", in: dir)
        #expect(result.status == 0 && result.stdout.contains("ALTER TABLE \"customer\" ADD COLUMN \"phone\" TEXT NOT NULL DEFAULT '';"))
        #expect(try MigrationFiles.load(schemaPath: workspace.schemaPath).count == 1)
        result = try strata("migration", "new", "Shop.schema.yml", "--name", "add phone", in: dir)
        #expect(result.status == 0 && result.stdout.contains("wrote Shop.migrations/0002_add_phone.sql"))
        #expect(result.stdout.contains("add column customer.phone (TEXT NOT NULL DEFAULT '')"))

        result = try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", "--dry-run", in: dir)
        #expect(result.status == 0 && result.stdout.contains("would apply:") && result.stdout.contains("0002_add_phone"))
        #expect(try db.rows("SELECT version FROM strata_migrations") == [[.integer(1)]])

        result = try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", in: dir)
        #expect(result.status == 0 && result.stdout.contains("applying 0002_add_phone … done ("), "\(result.stderr)")
        #expect(try db.rows("SELECT name, phone FROM customer") == [[.text("Ann"), .text("")]])

        result = try strata("status", "Shop.schema.yml", "--database", "shop.sqlite", in: dir)
        #expect(result.status == 0)
        #expect(result.stdout.contains("version: 2 (latest: 2)") && result.stdout.contains("0002_add_phone  20"))
        #expect(result.stdout.contains("pending:\n  (none)"))

        result = try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", in: dir)
        #expect(result.status == 0 && result.stdout.contains("up to date at version 2"))
    }

    @Test func migrateToAVersionAndStatusShowsPending() throws {
        let workspace = try initialized()
        try workspace.writeSchema(addPhone)
        _ = try strata("migration", "new", "Shop.schema.yml", "--name", "add_phone", in: workspace.url)
        var result = try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", "--to", "1", in: workspace.url)
        #expect(result.status == 0 && !result.stdout.contains("0002"))
        result = try strata("status", "Shop.schema.yml", "--database", "shop.sqlite", in: workspace.url)
        #expect(result.stdout.contains("version: 1 (latest: 2)") && result.stdout.contains("pending:\n  0002_add_phone"))
    }

    @Test func refusesChecksumDrift() throws {
        let workspace = try initialized()
        #expect(try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", in: workspace.url).status == 0)
        let file = workspace.url.appendingPathComponent("Shop.migrations/0001_initial.sql")
        try Data((try String(contentsOf: file, encoding: .utf8) + "\n-- edited\n").utf8).write(to: file)
        let result = try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", in: workspace.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("migration 0001_initial.sql was changed after it was applied"))
        #expect(result.stderr.contains("nothing was applied"))
    }

    @Test func refusesANewerDatabase() throws {
        let workspace = try initialized()
        try workspace.writeSchema(addPhone)
        _ = try strata("migration", "new", "Shop.schema.yml", "--name", "add_phone", in: workspace.url)
        #expect(try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", in: workspace.url).status == 0)
        // The code goes back to v1: the database is newer.
        try FileManager.default.removeItem(at: workspace.url.appendingPathComponent("Shop.migrations/0002_add_phone.sql"))
        try workspace.writeSchema(ShopSchema.v1)
        let result = try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", in: workspace.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("the database is at version 2, newer than this code's latest migration 1"))
        let status = try strata("status", "Shop.schema.yml", "--database", "shop.sqlite", in: workspace.url)
        #expect(status.status == 1 && status.stderr.contains("newer"))
    }

    @Test func refusesAGapInTheFiles() throws {
        let workspace = try initialized()
        try FileManager.default.moveItem(
            at: workspace.url.appendingPathComponent("Shop.migrations/0001_initial.sql"),
            to: workspace.url.appendingPathComponent("Shop.migrations/0002_initial.sql"))
        let result = try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", in: workspace.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("0002_initial.sql:1:1: error: migration 0002_initial.sql should be version 1"))
        #expect(!FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("shop.sqlite").path))
    }

    @Test func refusesAGapInTheDatabaseHistory() throws {
        let workspace = try initialized()
        try workspace.writeSchema(addPhone)
        _ = try strata("migration", "new", "Shop.schema.yml", "--name", "add_phone", in: workspace.url)
        #expect(try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", in: workspace.url).status == 0)
        let db = try Database(path: workspace.url.appendingPathComponent("shop.sqlite").path)
        try db.execute("DELETE FROM strata_migrations WHERE version = 1")
        let result = try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", in: workspace.url)
        #expect(result.status == 1 && result.stderr.contains("history has a gap"))
    }

    @Test func refusesDestructiveChangesWithoutTheFlag() throws {
        let workspace = try initialized()
        let withoutNote = ShopSchema.yaml(customer: ShopSchema.customer.replacingOccurrences(of: "      note:  text?\n", with: ""))
        try workspace.writeSchema(withoutNote)
        var result = try strata("migration", "new", "Shop.schema.yml", "--name", "drop_note", in: workspace.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Shop.schema.yml:3:3: error: column customer.note is no longer declared: dropping it deletes its values; pass --allow-destructive"))
        #expect(try MigrationFiles.load(schemaPath: workspace.schemaPath).count == 1)
        result = try strata("migration", "new", "Shop.schema.yml", "--name", "drop_note", "--allow-destructive", in: workspace.url)
        #expect(result.status == 0 && result.stdout.contains("drop column customer.note"))
        #expect(try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", in: workspace.url).status == 0)
    }

    @Test func refusesAnInvalidSchema() throws {
        let workspace = try MigrationWorkspace()
        try Data("database: Shop\ntables:\n  A:\n    columns:\n      id: { type: integer, primaryKey: true }\n".utf8)
            .write(to: URL(fileURLWithPath: workspace.schemaPath))
        let result = try strata("migration", "new", "Shop.schema.yml", "--name", "initial", in: workspace.url)
        #expect(result.status == 1 && result.stderr.contains("Shop.schema.yml:5:"))
    }
}
