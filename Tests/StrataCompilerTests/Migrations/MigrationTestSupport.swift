import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// A schema file with its migrations folder and a database file in a fresh temporary
/// directory, removed when released. Each `evolve` writes the schema text, plans the next
/// migration as `strata migration new` does, and writes its file.
final class MigrationWorkspace: @unchecked Sendable {
    let url: URL
    let schemaPath: String
    let databasePath: String

    init(name: String = "Shop") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        schemaPath = url.appendingPathComponent("\(name).schema.yml").path
        databasePath = url.appendingPathComponent("\(name).sqlite").path
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `yaml` as the schema and loads it.
    @discardableResult
    func writeSchema(_ yaml: String) throws -> Schema {
        try Data(yaml.utf8).write(to: URL(fileURLWithPath: schemaPath))
        return try SchemaLoader.load(path: schemaPath)
    }

    /// Writes `yaml`, plans the next migration and writes its file; returns the file's text
    /// (nil when nothing changed).
    @discardableResult
    func evolve(to yaml: String, name: String, allowDestructive: Bool = false) throws -> String? {
        try Data(yaml.utf8).write(to: URL(fileURLWithPath: schemaPath))
        let plan = try MigrationPlanner.plan(
            try Compiler.compile(path: schemaPath), migrations: try MigrationFiles.load(schemaPath: schemaPath),
            options: .init(allowDestructive: allowDestructive))
        guard !plan.isEmpty else { return nil }
        let next = try MigrationFiles.nextFile(schemaPath: schemaPath, name: name)
        let text = MigrationRenderer.render(plan, version: next.version, name: next.name, schemaFile: "Shop.schema.yml")
        try FileManager.default.createDirectory(
            atPath: MigrationFiles.directory(forSchemaPath: schemaPath), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: next.path))
        return text
    }

    /// Opens the database file.
    func open() throws -> Database { try Database(path: databasePath) }

    /// Applies the pending migrations to the database file through the runtime's Migrator.
    @discardableResult
    func migrate(_ db: Database, upTo version: Int? = nil) throws -> [Migration] {
        try Migrator(migrations: try MigrationFiles.load(schemaPath: schemaPath)).migrate(db, upTo: version)
    }

    /// Expects a clean database whose structure equals the declared schema.
    func expectClean(_ db: Database, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let (integrity, violations, structure) = try db.read { conn in
            (
                try conn.fetchValue(String.self, sql: "PRAGMA integrity_check"),
                try conn.fetch(sql: "PRAGMA foreign_key_check").count,
                try SchemaIntrospector.introspect(conn)
            )
        }
        #expect(integrity == "ok", sourceLocation: sourceLocation)
        #expect(violations == 0, sourceLocation: sourceLocation)
        let declared = try MigrationReplay.declaredStructure(of: try SchemaLoader.load(path: schemaPath))
        let differences = SchemaDiff.compare(from: structure, to: declared)
        #expect(differences.isEmpty, "\(differences)", sourceLocation: sourceLocation)
        let verified = MigrationVerifier.verify(try Compiler.compile(path: schemaPath), schemaPath: schemaPath)
        #expect(verified.isEmpty, "\(verified)", sourceLocation: sourceLocation)
    }
}

extension Database {
    /// Every row of `sql` as arrays of values.
    func rows(_ sql: String) throws -> [[DatabaseValue]] {
        try read { conn in try conn.fetch(sql: sql).map(\.values) }
    }

    func execute(_ sql: String) throws {
        try write { conn in try conn.execute(sql: sql) }
    }
}

/// The v1 schema of the matrix: a parent table with AUTOINCREMENT, a child that references it
/// with ON DELETE CASCADE, an index.
enum ShopSchema {
    static let customer = """
          Customer:
            table: customer
            columns:
              id:    { type: int, primaryKey: autoincrement }
              name:  text
              email: text?
              note:  text?
              score: { type: int, default: 0 }
        """
    static let purchase = """
          Purchase:
            table: purchase
            columns:
              id:         { type: int, primaryKey: autoincrement }
              customerId: { type: int, references: Customer.id, onDelete: cascade }
              total:      double?
              status:     { type: enum, values: [open, paid], default: open }
            indexes:
              - columns: [customerId]
        """

    static func yaml(customer: String = customer, purchase: String = purchase, extra: String = "") -> String {
        "database: Shop\ntables:\n" + customer + "\n" + purchase + "\n" + extra
    }

    static let v1 = yaml()

    /// A workspace at v1 with its first migration applied and rows in both tables; the
    /// customer counter stands at 4 (customer 4 was deleted).
    static func seeded() throws -> (MigrationWorkspace, Database) {
        let workspace = try MigrationWorkspace()
        try workspace.evolve(to: v1, name: "initial")
        let db = try workspace.open()
        try workspace.migrate(db)
        try db.execute(
            """
            INSERT INTO customer (name, email, note, score) VALUES ('Ann', 'ann@x', NULL, 5), ('Bob', NULL, 'vip', 7), ('Cy', 'cy@x', NULL, 0), ('Dee', NULL, NULL, 1);
            DELETE FROM customer WHERE name = 'Dee';
            INSERT INTO purchase (customerId, total, status) VALUES (1, 10.5, 'paid'), (1, NULL, 'open'), (2, 99.0, 'paid'), (3, 1.25, 'open');
            """)
        return (workspace, db)
    }

    static let customerRows: [[DatabaseValue]] = [
        [.integer(1), .text("Ann"), .text("ann@x"), .null, .integer(5)],
        [.integer(2), .text("Bob"), .null, .text("vip"), .integer(7)],
        [.integer(3), .text("Cy"), .text("cy@x"), .null, .integer(0)],
    ]
    static let purchaseRows: [[DatabaseValue]] = [
        [.integer(1), .integer(1), .real(10.5), .text("paid")],
        [.integer(2), .integer(1), .null, .text("open")],
        [.integer(3), .integer(2), .real(99.0), .text("paid")],
        [.integer(4), .integer(3), .real(1.25), .text("open")],
    ]
}
