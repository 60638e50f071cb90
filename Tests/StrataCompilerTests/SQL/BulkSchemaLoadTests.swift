import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// Validation executes each table and its indexes alone in a scratch database and enters what
/// SQLite stored into its database in bulk (`SQLiteChecker.load`), so that its cost grows
/// linearly with the number of tables. SQLite's errors keep their message and YAML location,
/// and the database describes exactly what executing the DDL builds.
@Suite struct BulkSchemaLoadTests {
    /// Tables of every kind (AUTOINCREMENT, WITHOUT ROWID, a partial index, a CHECK, full-text
    /// search, expiry), a view and a trigger over them.
    static let rich = """
        database: Shop
        tables:
          Customer:
            columns:
              id: { type: int, primaryKey: autoincrement }
              name: text
              email: { type: text, unique: true }
            indexes:
              - columns: [name]
          Purchase:
            withoutRowid: true
            columns:
              code: { type: text, primaryKey: true }
              customerId: { type: int, references: Customer.id, onDelete: cascade }
              total: { type: double, check: "total >= 0" }
            indexes:
              - columns: [customerId, total]
                where: "total > 0"
          Article:
            columns:
              id: { type: int, primaryKey: true }
              title: text
              body: text
            search: { columns: [title, body] }
          Session:
            expires: true
            columns:
              token: { type: text, primaryKey: true }
              customerId: { type: int, references: Customer.id }
          PriceChange:
            columns:
              id: { type: int, primaryKey: autoincrement }
              purchaseCode: text
              total: double
        views:
          big_purchase: "SELECT code, total FROM Purchase WHERE total > 100"
        triggers:
          purchase_total_log: |-
            CREATE TRIGGER purchase_total_log AFTER UPDATE OF total ON Purchase
            BEGIN
              INSERT INTO PriceChange (purchaseCode, total) VALUES (new.code, new.total);
            END

        """

    /// The structure of a new database in which `schema`'s DDL is executed statement by statement.
    static func executedStructure(of schema: Schema) throws -> DatabaseSchema {
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn in
            for sql in SQLRenderer.ddl(for: schema) { try conn.execute(sql: sql) }
        }
        return try db.read { conn in try SchemaIntrospector.introspect(conn) }
    }

    @Test func aSchemaWithViewsTriggersSearchAndExpiryValidatesAndDescribesTheExecutedDDL() throws {
        let (loaded, diagnostics) = Compiler.check(bytes: Array(Self.rich.utf8), path: "Shop.schema.yml")
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
        let compiled = try #require(loaded)
        let schema = compiled.schema
        let db = try #require(compiled.catalog.database(holding: SQLRenderer.ddl(for: schema)))
        // The tables were entered in bulk (no b-tree; an index on a made-up root page), the
        // search table, its shadow tables, the view and the trigger executed.
        let objects = try db.read { conn in
            try conn.fetch(sql: "SELECT name, rootpage FROM sqlite_master WHERE sql IS NOT NULL").map { row in
                (try row.get(0) as String, try row.get(1) as Int)
            }
        }
        let rootpages = Dictionary(objects, uniquingKeysWith: { first, _ in first })
        #expect(rootpages["Customer"] == 0)
        #expect(rootpages["Purchase"] == 0)
        #expect(rootpages["sqlite_sequence"] == 0)
        #expect(rootpages["Customer_name"] == 1)
        #expect(rootpages["Session_expiresAt"] == 1)
        #expect(rootpages["Article_fts"] == 0)  // a virtual table has no b-tree of its own
        #expect(objects.contains { $0.0.hasPrefix("Article_fts_") && $0.1 > 1 })  // its shadow tables do
        #expect(rootpages["big_purchase"] == 0)
        #expect(rootpages["purchase_total_log"] == 0)
        #expect(try MigrationReplay.declaredStructure(of: schema) == Self.executedStructure(of: schema))

        // It generates, and its first migration verifies against the bulk-loaded structure.
        let workspace = try MigrationWorkspace(name: "Shop")
        try workspace.evolve(to: Self.rich, name: "initial")
        let swift = try Generator.generate(schemaPath: workspace.schemaPath)
        #expect(swift.contains("struct Purchase"))
        #expect(swift.contains("func search("))
    }

    /// A table and an index SQLite rejects are reported at their YAML lines with SQLite's
    /// message; the tables SQLite accepts are still entered in bulk.
    @Test func sqliteErrorsKeepTheirLocations() throws {
        let yaml = """
            database: Shop
            tables:
              Customer:
                columns:
                  id: { type: int, primaryKey: autoincrement }
                  name: text
              Purchase:
                columns:
                  id: { type: int, primaryKey: true }
                  total: { type: double, check: "nosuch > 0" }
              Item:
                columns:
                  id: { type: int, primaryKey: true }
                  price: double
                indexes:
                  - columns: [price]
                    where: "cost > 0"

            """
        let (_, diagnostics) = SchemaLoader.check(bytes: Array(yaml.utf8), path: "Shop.schema.yml")
        #expect(diagnostics.map(\.description) == [
            "Shop.schema.yml:10:37: error: SQLite rejects table 'Purchase': no such column: nosuch",
            "Shop.schema.yml:17:16: error: SQLite rejects index 'Item_price': no such column: cost",
        ])
    }

    /// Many tables are checked in bulk with one DDL statement per table and index, and the
    /// database holds them all, described as the executed DDL describes them.
    @Test func manyTablesAreEnteredInBulk() throws {
        let work = CompileWork()
        let (loaded, diagnostics) = CompileWork.$current.withValue(work) {
            Compiler.check(bytes: Array(ScalingTests.schema(tables: 200).utf8), path: "Big.schema.yml")
        }
        #expect(diagnostics.isEmpty)
        let compiled = try #require(loaded)
        let schema = compiled.schema
        #expect(work.ddlStatements == 2 * 200)
        let db = try #require(compiled.catalog.database(holding: SQLRenderer.ddl(for: schema)))
        let tables = try db.read { conn in
            try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND rootpage = 0 AND name LIKE 'table\\_%' ESCAPE '\\'")
        }
        #expect(tables == 200)
        #expect(try MigrationReplay.declaredStructure(of: schema) == Self.executedStructure(of: schema))
    }

    /// A small schema whose table has more indexes than its database has pages cannot be
    /// entered in bulk (SQLite refuses a root page past the end of the file): its DDL is
    /// executed as before, with the same result.
    @Test func aRefusedBulkEntryFallsBackToExecutingTheDDL() throws {
        let yaml = """
            database: Shop
            tables:
              Item:
                columns:
                  id: { type: int, primaryKey: true }
                  a: int
                  b: int
                  c: int
                  d: int
                indexes:
                  - columns: [a]
                  - columns: [b]
                  - columns: [c]
                  - columns: [d]

            """
        let work = CompileWork()
        let (loaded, diagnostics) = CompileWork.$current.withValue(work) {
            Compiler.check(bytes: Array(yaml.utf8), path: "Shop.schema.yml")
        }
        #expect(diagnostics.isEmpty)
        let compiled = try #require(loaded)
        let schema = compiled.schema
        let db = try #require(compiled.catalog.database(holding: SQLRenderer.ddl(for: schema)))
        let emptyRootpages = try db.read { conn in
            try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE rootpage < 2")
        }
        #expect(emptyRootpages == 0)  // every table and index has its b-tree: executed
        // Executed in the scratch database, then again here.
        #expect(work.ddlStatements == 2 * 5)
        #expect(try MigrationReplay.declaredStructure(of: schema) == Self.executedStructure(of: schema))
    }
}
