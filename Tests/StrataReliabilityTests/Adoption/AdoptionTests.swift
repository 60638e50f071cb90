import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// Adopting databases made by other tools: `strata introspect` writes the schema files beside
/// this file (checked in, compiled by the build plugin into this test target), the databases
/// are baselined, and every row is read through the generated DAOs.
@Suite struct AdoptionTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// A fresh directory holding the style's database (`<style>.sqlite`), built by running its
    /// SQL; `wal` leaves it in WAL mode, otherwise it uses a rollback journal.
    static func makeDatabase(_ style: AdoptionStyle, wal: Bool = false) throws -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-adopt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("\(style.rawValue).sqlite").path
        let db = try Database(path: path)
        try db.writeWithoutTransaction { conn in
            try conn.execute(sql: style.sql)
            if !wal { try conn.execute(sql: "PRAGMA journal_mode = DELETE") }
        }
        return (directory, path)
    }

    static func sha256(_ path: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return SHA256.hex(of: data)
    }

    static func files(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test(arguments: AdoptionStyle.allCases)
    func introspectWritesTheCheckedInSchemaAndLeavesTheFileAlone(_ style: AdoptionStyle) throws {
        let (directory, path) = try Self.makeDatabase(style, wal: style == .rails)
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try Self.sha256(path)
        let filesBefore = try Self.files(in: directory)
        #expect(filesBefore == ["\(style.rawValue).sqlite"])

        let result = try DatabaseAdopter.introspect(databasePath: path, databaseName: style.schemaName)

        #expect(try Self.sha256(path) == before, "introspect changed the database file")
        #expect(try Self.files(in: directory) == filesBefore, "introspect left a journal, WAL or shm file")
        let schemaURL = Self.directory.appendingPathComponent("\(style.schemaName).schema.yml")
        if ProcessInfo.processInfo.environment["STRATA_UPDATE_FIXTURES"] == "1" {
            try result.yaml.write(to: schemaURL, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: schemaURL, encoding: .utf8)
        #expect(result.yaml == expected)

        // The file passes `strata check` and reproduces the database.
        let check = SchemaLoader.check(path: schemaURL.path)
        #expect(check.diagnostics.filter { $0.severity == .error }.isEmpty, "\(check.diagnostics)")
        // Introspecting again gives the same YAML.
        #expect(try DatabaseAdopter.introspect(databasePath: path, databaseName: style.schemaName) == result)
    }

    /// A database that Strata creates from the schema's migrations introspects to the same
    /// schema (for styles whose values did not change a type: an empty table has no census).
    @Test(arguments: [AdoptionStyle.rails, .catalog])
    func aDatabaseMadeFromTheMigrationsIntrospectsToTheSameSchema(_ style: AdoptionStyle) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-adopt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("\(style.rawValue).sqlite").path
        let schemaPath = Self.directory.appendingPathComponent("\(style.schemaName).schema.yml").path
        let migrations = try MigrationFiles.load(schemaPath: schemaPath)
        do {
            let db = try Database(path: path)
            try Migrator(migrations: migrations).migrate(db)
        }
        let result = try DatabaseAdopter.introspect(databasePath: path, databaseName: style.schemaName)
        let expected = try String(contentsOfFile: schemaPath, encoding: .utf8)
        func withoutWarnings(_ yaml: String) -> String {
            yaml.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }.joined(separator: "\n")
        }
        #expect(withoutWarnings(result.yaml) == withoutWarnings(expected))
    }

    @Test func introspectLeavesNoFilesBesideAWALDatabaseWithACheckpointedLog() throws {
        let (directory, path) = try Self.makeDatabase(.mobile, wal: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(20)
        #expect(header[18] == 2 && header[19] == 2, "the database is in WAL mode")
        let before = try Self.sha256(path)
        _ = try DatabaseAdopter.introspect(databasePath: path, databaseName: "MobileNotes")
        #expect(try Self.files(in: directory) == ["mobile.sqlite"])
        #expect(try Self.sha256(path) == before)
    }

    @Test func warningsNameWhatTheSchemaCannotReadOrExpress() throws {
        let (directory, path) = try Self.makeDatabase(.django)
        defer { try? FileManager.default.removeItem(at: directory) }
        let django = try DatabaseAdopter.introspect(databasePath: path, databaseName: "DjangoBlog")
        #expect(django.warnings.contains { $0.contains("blog_entry.flag") && $0.contains("'yes'") && $0.contains("typed text") })

        let (catalogDirectory, catalogPath) = try Self.makeDatabase(.catalog)
        defer { try? FileManager.default.removeItem(at: catalogDirectory) }
        let catalog = try DatabaseAdopter.introspect(databasePath: catalogPath, databaseName: "Catalog")
        // The NOCASE column and the expression index are declared, not warned about.
        #expect(catalog.warnings.isEmpty, "\(catalog.warnings)")
        #expect(catalog.yaml.contains("name: { type: text, collate: nocase }"))
        #expect(catalog.yaml.contains("- { expression: \"lower(name)\" }"))
    }

    /// Baselines `style`'s database (a copy) with the checked-in first migration.
    static func adopted(_ style: AdoptionStyle) throws -> (directory: URL, db: Database) {
        let (directory, path) = try makeDatabase(style)
        let schemaPath = Self.directory.appendingPathComponent("\(style.schemaName).schema.yml").path
        let db = try Database(path: path)
        try MigrationBaseline.baseline(db, migrations: try MigrationFiles.load(schemaPath: schemaPath))
        return (directory, db)
    }

    @Test func railsRowsReadThroughTheGeneratedDAOs() throws {
        let (directory, db) = try Self.adopted(.rails)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try RailsShop.migrate(db).isEmpty, "the baselined database is up to date")
        try db.read { conn in
            let users = try UsersDAO(conn).fetchAll()
            #expect(users.map(\.email) == ["ann@example.com", "bob@example.com"])
            #expect(users.map(\.admin) == [true, false])
            #expect(users[0].createdAt == DateFormat.date(from: "2024-01-02 10:00:00.123"))
            #expect(users[1].createdAt == DateFormat.date(from: "2024-02-03 04:05:06"))
            #expect(users[1].updatedAt == DateFormat.date(from: "2024-02-03 02:05:06"), "+02:00 is two hours ahead of UTC")
            let orders = try OrdersDAO(conn).fetchAll()
            #expect(orders.map(\.total) == [19.99, 5, 3])
            #expect(orders.map(\.status) == ["paid", "pending", nil])
            #expect(orders[2].shippedAt == Date(timeIntervalSince1970: 1_709_294_400), "epoch seconds")
            #expect(orders[0].shippedAt == DateFormat.date(from: "2024-03-01 12:00:00"))
            #expect(try SchemaMigrationsDAO(conn).fetchAll().map(\.version) == ["20240101000000"])
        }
        // New rows are written in Strata's canonical format.
        let carol = try db.write { conn in
            try UsersDAO(conn).insert(
                Users(id: 0, email: "carol@example.com", admin: false, createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0)))
        }
        let stored = try db.read { conn in
            try conn.fetchValue(String.self, sql: "SELECT created_at FROM users WHERE id = ?", arguments: [carol.id])
        }
        #expect(stored == "1970-01-01 00:00:00.000")
    }

    @Test func djangoRowsReadThroughTheGeneratedDAOs() throws {
        let (directory, db) = try Self.adopted(.django)
        defer { try? FileManager.default.removeItem(at: directory) }
        try db.read { conn in
            let authors = try BlogAuthorDAO(conn).fetchAll()
            #expect(authors.map(\.isActive) == [true, false])
            #expect(authors[0].joined == DateFormat.date(from: "2020-05-06"))
            let entries = try BlogEntryDAO(conn).fetchAll()
            #expect(entries.map(\.rating) == [4.5, 3])
            #expect(entries.map(\.flag) == ["1", "yes"])
            #expect(entries[0].ident == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
            #expect(entries[1].ident == nil)
            #expect(entries[1].pubDate == DateFormat.date(from: "2024-01-02 09:30:00.250"))
            #expect(try BlogEntryDAO(conn).fetchAll().count == 2)
        }
    }

    @Test func mobileRowsReadThroughTheGeneratedDAOs() throws {
        let (directory, db) = try Self.adopted(.mobile)
        defer { try? FileManager.default.removeItem(at: directory) }
        try db.read { conn in
            #expect(try NoteFoldersDAO(conn).fetchAll().map(\.folderId) == ["inbox", "work"])
            let notes = try NotesDAO(conn).fetchAll()
            #expect(notes.count == 3)
            #expect(notes.first { $0.folderId == "inbox" && $0.noteId == 2 }?.thumbnail == Data([0, 0xFF, 0x10]))
            #expect(Set(try SettingsDAO(conn).fetchAll().map(\.value)) == ["3", "dark"])
        }
        try db.write { conn in
            try NotesDAO(conn).insert(Notes(folderId: "work", noteId: 2, body: "New", pinned: 0, updatedAt: 1_700_000_300))
            #expect(try NotesDAO(conn).count() == 4)
        }
    }

    @Test func catalogBaselinesWithItsNocaseColumnAndExpressionIndexAndItsRowsRead() throws {
        let (directory, path) = try Self.makeDatabase(.catalog)
        defer { try? FileManager.default.removeItem(at: directory) }
        let schemaPath = Self.directory.appendingPathComponent("Catalog.schema.yml").path
        let migrations = try MigrationFiles.load(schemaPath: schemaPath)
        let db = try Database(path: path)
        try MigrationBaseline.baseline(db, migrations: migrations)
        #expect(try Migrator(migrations: migrations).status(of: db).applied.map(\.version) == [1])
        #expect(try db.read { conn in try conn.fetchValue(Int.self, sql: "SELECT id FROM product WHERE name = 'WIDGET'") } == 1)
        try db.read { conn in
            let products = try ProductDAO(conn).fetchAll()
            #expect(products.map(\.price) == [10, 20])
            let changes = try PriceChangeDAO(conn).fetchAll()
            #expect(changes.map(\.newPrice) == [10], "the trigger logged the price change")
            #expect(try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM active_product") == 1)
        }
        // The trigger and the view are part of the verified structure.
        try db.write { conn in
            _ = try ProductDAO(conn).updateAll(set: "price = 11", where: "id = 1")
        }
        #expect(try db.read { conn in try PriceChangeDAO(conn).count() } == 2)
    }

    @Test func baselineRefusesADatabaseThatDiffersAndChangesNothing() throws {
        let (directory, path) = try Self.makeDatabase(.rails)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let db = try Database(path: path)
            try db.writeWithoutTransaction { conn in
                try conn.execute(sql: "ALTER TABLE users ADD COLUMN nickname TEXT")
                try conn.execute(sql: "PRAGMA journal_mode = DELETE")
            }
        }
        let schemaPath = Self.directory.appendingPathComponent("RailsShop.schema.yml").path
        let migrations = try MigrationFiles.load(schemaPath: schemaPath)
        let differences = try Database(path: path, configuration: .readOnly).read { conn in
            try MigrationBaseline.differences(conn, first: migrations[0])
        }
        #expect(differences == ["column users.nickname is in the database but not created by the migration"])
        let db = try Database(path: path)
        #expect(throws: StrataError.self) { try MigrationBaseline.baseline(db, migrations: migrations) }
        #expect(try Migrator(migrations: migrations).status(of: db).applied.isEmpty)
        #expect(try db.read { conn in try conn.fetchValue(Int.self, sql: "PRAGMA user_version") } == 0)
    }

    @Test func laterMigrationsApplyToTheAdoptedDatabaseAndKeepItsRows() throws {
        let (directory, db) = try Self.adopted(.rails)
        defer { try? FileManager.default.removeItem(at: directory) }
        let schemaPath = Self.directory.appendingPathComponent("RailsShop.schema.yml").path
        let migrations = try MigrationFiles.load(schemaPath: schemaPath)
        // Add a column, and retype `total` (a rebuild of `orders`, whose rows reference `users`).
        var text = try String(contentsOf: URL(fileURLWithPath: schemaPath), encoding: .utf8)
        text = text.replacingOccurrences(
            of: "      updatedAt: { type: date, column: updated_at, sqlType: \"DATETIME(6)\" }",
            with: "      updatedAt: { type: date, column: updated_at, sqlType: \"DATETIME(6)\" }\n      phone: { type: text, default: \"\" }")
        text = text.replacingOccurrences(of: "total: { type: double?, sqlType: \"DECIMAL(10,2)\" }", with: "total: double?")
        let schema = try SchemaLoader.load(contents: text, path: schemaPath)
        let plan = try MigrationPlanner.plan(schema: schema, migrations: migrations)
        #expect(plan.changes.contains { $0.contains("phone") })
        #expect(plan.statements.contains { $0.contains("new_orders") || $0.contains("CREATE TABLE") }, "orders is rebuilt")
        let second = Migration(version: 2, name: "add_phone", sql: plan.statements.joined(separator: ";\n") + ";")
        try Migrator(migrations: migrations + [second]).migrate(db)
        try db.read { conn in
            #expect(try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM orders") == 3)
            #expect(try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM users WHERE phone = ''") == 2)
            #expect(try conn.fetchValue(Double.self, sql: "SELECT sum(total) FROM orders") == 27.99)
            let live = try SchemaIntrospector.introspect(conn)
            #expect(SchemaDiff.compare(from: live, to: try MigrationReplay.structure(after: migrations + [second])) == [])
        }
    }

    @Test func aValueTheGeneratedCodeCannotReadThrowsNamingTableAndColumn() throws {
        let (directory, db) = try Self.adopted(.rails)
        defer { try? FileManager.default.removeItem(at: directory) }
        try db.writeWithoutTransaction { conn in try conn.execute(sql: "UPDATE orders SET total = 'n/a' WHERE id = 2") }
        #expect {
            try db.read { conn in try OrdersDAO(conn).fetchAll() }
        } throws: { error in
            (error as? StrataError)?.kind == .decoding
                && (error as? StrataError)?.message == "column orders.total holds 'n/a', not a number (in the row where id = 2)"
        }
        // Text that SQLite would convert without loss reads as the number.
        try db.writeWithoutTransaction { conn in try conn.execute(sql: "UPDATE orders SET total = ' 42 ' WHERE id = 2") }
        #expect(try db.read { conn in try OrdersDAO(conn).find(id: 2)?.total } == 42)
    }
}
