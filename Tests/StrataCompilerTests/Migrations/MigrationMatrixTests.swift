import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// Each kind of schema change, from a v1 database with rows in a parent table and in a child
/// that references it with ON DELETE CASCADE: the generated migration is applied by the
/// runtime's Migrator to a real file, every row survives (or changes exactly as declared), the
/// database is clean and its structure equals the declared schema.
@Suite struct MigrationMatrixTests {
    typealias S = ShopSchema

    func customers(_ db: Database, _ columns: String = "id, name, email, note, score") throws -> [[DatabaseValue]] {
        try db.rows("SELECT \(columns) FROM customer ORDER BY id")
    }

    func purchases(_ db: Database) throws -> [[DatabaseValue]] {
        try db.rows("SELECT id, customerId, total, status FROM purchase ORDER BY id")
    }

    /// The next customer gets id 5: the AUTOINCREMENT counter survived.
    func expectCounterKept(_ db: Database, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        try db.execute("INSERT INTO customer (name) VALUES ('Eve')")
        let id = try db.read { try $0.fetchValue(Int.self, sql: "SELECT id FROM customer WHERE name = 'Eve'") }
        #expect(id == 5, sourceLocation: sourceLocation)
    }

    func expectRefused(_ yaml: String, allowDestructive: Bool = false, containing text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let (workspace, _) = try S.seeded()
        do {
            try workspace.evolve(to: yaml, name: "change", allowDestructive: allowDestructive)
            Issue.record("expected the planner to refuse", sourceLocation: sourceLocation)
        } catch let error as MigrationPlanningError {
            #expect(error.description.contains(text), "\(error)", sourceLocation: sourceLocation)
        }
        #expect(try MigrationFiles.load(schemaPath: workspace.schemaPath).count == 1, sourceLocation: sourceLocation)
    }

    @Test func firstMigrationIsTheFullDDLInDependencyOrder() throws {
        let workspace = try MigrationWorkspace()
        // The child is declared first; the parent must still be created first.
        let sql = try #require(try workspace.evolve(to: S.yaml(customer: S.purchase, purchase: S.customer), name: "initial"))
        #expect(sql.hasPrefix("-- 0001_initial: Shop.schema.yml\n--   create table customer\n--   create table purchase\n"))
        let customer = try #require(sql.range(of: "CREATE TABLE \"customer\""))
        let purchase = try #require(sql.range(of: "CREATE TABLE \"purchase\""))
        let index = try #require(sql.range(of: "CREATE INDEX"))
        #expect(customer.lowerBound < purchase.lowerBound && purchase.lowerBound < index.lowerBound)
        #expect(!sql.contains("PRAGMA") && !sql.contains("BEGIN") && !sql.contains("COMMIT"))
        let db = try workspace.open()
        try workspace.migrate(db)
        try workspace.expectClean(db)
    }

    @Test func unchangedSchemaPlansNothing() throws {
        let (workspace, _) = try S.seeded()
        #expect(try workspace.evolve(to: S.v1, name: "nothing") == nil)
    }

    @Test func addNullableColumn() throws {
        let (workspace, db) = try S.seeded()
        let sql = try #require(try workspace.evolve(to: S.yaml(customer: S.customer + "\n      phone: text?"), name: "add_phone"))
        #expect(sql.contains("--   add column customer.phone (TEXT)"))
        #expect(sql.contains("ALTER TABLE \"customer\" ADD COLUMN \"phone\" TEXT;"))
        try workspace.migrate(db)
        #expect(try customers(db, "id, name, email, note, score, phone") == S.customerRows.map { $0 + [.null] })
        #expect(try purchases(db) == S.purchaseRows)
        try workspace.expectClean(db)
    }

    @Test func addNotNullColumnWithDefault() throws {
        let (workspace, db) = try S.seeded()
        let sql = try #require(
            try workspace.evolve(to: S.yaml(customer: S.customer + "\n      phone: { type: text, default: \"\" }"), name: "add_phone"))
        #expect(sql.contains("--   add column customer.phone (TEXT NOT NULL DEFAULT '')"))
        #expect(!sql.contains("new_customer"))
        try workspace.migrate(db)
        #expect(try customers(db, "id, name, email, note, score, phone") == S.customerRows.map { $0 + [.text("")] })
        #expect(try purchases(db) == S.purchaseRows)
        try workspace.expectClean(db)
    }

    @Test func addNotNullColumnWithoutDefaultIsRefused() throws {
        try expectRefused(S.yaml(customer: S.customer + "\n      phone: text"), containing: "customer.phone is new and NOT NULL without a default")
    }

    @Test func addColumnWithExpressionDefaultRebuilds() throws {
        let (workspace, db) = try S.seeded()
        let sql = try #require(
            try workspace.evolve(to: S.yaml(customer: S.customer + "\n      joinedAt: { type: date, default: now }"), name: "add_joined"))
        #expect(sql.contains("CREATE TABLE \"new_customer\""))
        try workspace.migrate(db)
        #expect(try customers(db) == S.customerRows)
        let dates = try db.rows("SELECT joinedAt FROM customer")
        #expect(dates.allSatisfy { if case .text(let text) = $0[0] { text.count == 23 } else { false } })
        // The rebuild of the parent did not cascade into the child.
        #expect(try purchases(db) == S.purchaseRows)
        try expectCounterKept(db)
        try workspace.expectClean(db)
    }

    @Test func addUniqueColumnRebuilds() throws {
        let (workspace, db) = try S.seeded()
        let sql = try #require(
            try workspace.evolve(to: S.yaml(customer: S.customer + "\n      code: { type: text?, unique: true }"), name: "add_code"))
        #expect(sql.contains("rebuild table customer"))
        try workspace.migrate(db)
        #expect(try customers(db) == S.customerRows)
        #expect(try purchases(db) == S.purchaseRows)
        try expectCounterKept(db)
        try workspace.expectClean(db)
    }

    @Test func addForeignKeyColumnUsesAlter() throws {
        let (workspace, db) = try S.seeded()
        let purchase = S.purchase.replacingOccurrences(
            of: "      status:", with: "      referrerId: { type: int?, references: Customer.id, onDelete: setNull }\n      status:")
        let sql = try #require(try workspace.evolve(to: S.yaml(purchase: purchase), name: "add_referrer"))
        #expect(sql.contains("ADD COLUMN \"referrerId\" INTEGER REFERENCES \"customer\" (\"id\") ON DELETE SET NULL"))
        try workspace.migrate(db)
        #expect(try purchases(db) == S.purchaseRows)
        try workspace.expectClean(db)
    }

    @Test func renameColumn() throws {
        let (workspace, db) = try S.seeded()
        let customer = S.customer.replacingOccurrences(of: "      note:  text?", with: "      remark: { type: text?, renamedFrom: note }")
        let sql = try #require(try workspace.evolve(to: S.yaml(customer: customer), name: "rename_note"))
        #expect(sql.contains("ALTER TABLE \"customer\" RENAME COLUMN \"note\" TO \"remark\";"))
        try workspace.migrate(db)
        #expect(try customers(db, "id, name, email, remark, score") == S.customerRows)
        try workspace.expectClean(db)
        // The hint stays in the schema; the next migration sees nothing to do.
        #expect(try workspace.evolve(to: S.yaml(customer: customer), name: "again") == nil)
    }

    @Test func renameTableKeepsChildForeignKeys() throws {
        let (workspace, db) = try S.seeded()
        let customer = S.customer.replacingOccurrences(of: "table: customer", with: "table: client\n    renamedFrom: customer")
        let sql = try #require(try workspace.evolve(to: S.yaml(customer: customer), name: "rename_customer"))
        #expect(sql.contains("ALTER TABLE \"customer\" RENAME TO \"client\";"))
        try workspace.migrate(db)
        #expect(try db.rows("SELECT id, name, email, note, score FROM client ORDER BY id") == S.customerRows)
        #expect(try purchases(db) == S.purchaseRows)
        try workspace.expectClean(db)
        try db.execute("DELETE FROM client WHERE id = 1")
        #expect(try purchases(db).count == 2)  // the cascade follows the renamed table
    }

    @Test func dropColumnNeedsTheFlag() throws {
        let customer = S.customer.replacingOccurrences(of: "      note:  text?\n", with: "")
        try expectRefused(S.yaml(customer: customer), containing: "pass --allow-destructive")
        let (workspace, db) = try S.seeded()
        let sql = try #require(try workspace.evolve(to: S.yaml(customer: customer), name: "drop_note", allowDestructive: true))
        #expect(sql.contains("ALTER TABLE \"customer\" DROP COLUMN \"note\";"))
        try workspace.migrate(db)
        #expect(try customers(db, "id, name, email, score") == S.customerRows.map { [$0[0], $0[1], $0[2], $0[4]] })
        #expect(try purchases(db) == S.purchaseRows)
        try workspace.expectClean(db)
    }

    @Test func dropIndexedColumnRebuilds() throws {
        let (workspace, db) = try S.seeded()
        let purchase = S.purchase.replacingOccurrences(of: "      total:      double?\n", with: "")
            .replacingOccurrences(of: "[customerId]", with: "[customerId, status]")
        let withIndex = S.yaml(purchase: S.purchase.replacingOccurrences(of: "[customerId]", with: "[customerId, total]"))
        try workspace.evolve(to: withIndex, name: "index_total")
        try workspace.migrate(db)
        let sql = try #require(try workspace.evolve(to: S.yaml(purchase: purchase), name: "drop_total", allowDestructive: true))
        #expect(sql.contains("rebuild table purchase"))
        try workspace.migrate(db)
        #expect(try db.rows("SELECT id, customerId, status FROM purchase ORDER BY id") == S.purchaseRows.map { [$0[0], $0[1], $0[3]] })
        try workspace.expectClean(db)
    }

    @Test func ambiguousDropAndAddIsAnError() throws {
        let customer = S.customer.replacingOccurrences(of: "      note:  text?", with: "      remark: text?")
        try expectRefused(S.yaml(customer: customer), containing: "add `renamedFrom: note` to remark")
    }

    @Test func dropTableNeedsTheFlag() throws {
        try expectRefused(
            "database: Shop\ntables:\n" + S.customer + "\n", containing: "table purchase is no longer declared")
        let (workspace, db) = try S.seeded()
        let sql = try #require(try workspace.evolve(to: "database: Shop\ntables:\n" + S.customer + "\n", name: "drop_purchase", allowDestructive: true))
        #expect(sql.contains("DROP TABLE \"purchase\";"))
        try workspace.migrate(db)
        #expect(try customers(db) == S.customerRows)
        try workspace.expectClean(db)
    }

    @Test func createTable() throws {
        let (workspace, db) = try S.seeded()
        let extra = """
              Tag:
                table: tag
                primaryKey: [customerId, label]
                columns:
                  customerId: { type: int, references: Customer.id, onDelete: cascade }
                  label: text
            """
        let sql = try #require(try workspace.evolve(to: S.yaml(extra: extra), name: "add_tag"))
        #expect(sql.contains("--   create table tag"))
        try workspace.migrate(db)
        #expect(try customers(db) == S.customerRows)
        try workspace.expectClean(db)
    }

    @Test func nullableToNotNullFillsWithTheDefault() throws {
        let (workspace, db) = try S.seeded()
        let customer = S.customer.replacingOccurrences(of: "      email: text?", with: "      email: { type: text, default: \"none\" }")
        let sql = try #require(try workspace.evolve(to: S.yaml(customer: customer), name: "require_email"))
        #expect(sql.contains("--   rebuild table customer: email becomes NOT NULL"))
        #expect(sql.contains("coalesce(\"email\", 'none')"))
        try workspace.migrate(db)
        #expect(try customers(db, "id, email") == [[.integer(1), .text("ann@x")], [.integer(2), .text("none")], [.integer(3), .text("cy@x")]])
        #expect(try customers(db, "id, name, note, score") == S.customerRows.map { [$0[0], $0[1], $0[3], $0[4]] })
        // The parent was rebuilt: no purchase was cascaded away.
        #expect(try purchases(db) == S.purchaseRows)
        try expectCounterKept(db)
        try workspace.expectClean(db)
    }

    @Test func nullableToNotNullWithoutDefaultIsRefused() throws {
        let customer = S.customer.replacingOccurrences(of: "      email: text?", with: "      email: text")
        try expectRefused(S.yaml(customer: customer), containing: "customer.email becomes NOT NULL but has no default")
    }

    @Test func typeChangeRebuilds() throws {
        let (workspace, db) = try S.seeded()
        let purchase = S.purchase.replacingOccurrences(of: "      total:      double?", with: "      total:      text?")
        let sql = try #require(try workspace.evolve(to: S.yaml(purchase: purchase), name: "total_text"))
        #expect(sql.contains("total changes type from REAL to TEXT"))
        try workspace.migrate(db)
        #expect(try db.rows("SELECT id, total FROM purchase ORDER BY id") == [[.integer(1), .text("10.5")], [.integer(2), .null], [.integer(3), .text("99.0")], [.integer(4), .text("1.25")]])
        try workspace.expectClean(db)
    }

    @Test func defaultChangeRebuilds() throws {
        let (workspace, db) = try S.seeded()
        let customer = S.customer.replacingOccurrences(of: "default: 0", with: "default: 10")
        let sql = try #require(try workspace.evolve(to: S.yaml(customer: customer), name: "score_default"))
        #expect(sql.contains("score changes default from 0 to 10"))
        try workspace.migrate(db)
        #expect(try customers(db) == S.customerRows)
        #expect(try purchases(db) == S.purchaseRows)
        try expectCounterKept(db)
        #expect(try db.rows("SELECT score FROM customer WHERE id = 5") == [[.integer(10)]])
        try workspace.expectClean(db)
    }

    @Test func uniqueAndCheckChangesRebuild() throws {
        let (workspace, db) = try S.seeded()
        let customer = S.customer.replacingOccurrences(of: "      email: text?", with: "      email: { type: text?, unique: true }")
            .replacingOccurrences(of: "      score: { type: int, default: 0 }", with: "      score: { type: int, default: 0, check: \"score >= 0\" }")
        let sql = try #require(try workspace.evolve(to: S.yaml(customer: customer), name: "constraints"))
        #expect(sql.contains("add UNIQUE (email)") && sql.contains("add CHECK (score >= 0)"))
        try workspace.migrate(db)
        #expect(try customers(db) == S.customerRows)
        #expect(try purchases(db) == S.purchaseRows)
        try workspace.expectClean(db)
        // And back: dropping the constraints also rebuilds.
        try workspace.evolve(to: S.v1, name: "relax")
        try workspace.migrate(db)
        #expect(try customers(db) == S.customerRows)
        try workspace.expectClean(db)
    }

    @Test func foreignKeyActionChangeRebuildsTheChild() throws {
        let (workspace, db) = try S.seeded()
        let purchase = S.purchase.replacingOccurrences(of: "onDelete: cascade", with: "onDelete: restrict")
        let sql = try #require(try workspace.evolve(to: S.yaml(purchase: purchase), name: "restrict"))
        #expect(sql.contains("rebuild table purchase"))
        try workspace.migrate(db)
        #expect(try purchases(db) == S.purchaseRows)
        try workspace.expectClean(db)
        #expect(throws: StrataError.self) { try db.execute("DELETE FROM customer WHERE id = 1") }
    }

    @Test func indexChanges() throws {
        let (workspace, db) = try S.seeded()
        let purchase = S.purchase.replacingOccurrences(
            of: "      - columns: [customerId]",
            with: "      - { columns: [customerId], where: \"total IS NOT NULL\" }\n      - { name: purchase_by_status, columns: [status, total], unique: false }")
        let sql = try #require(try workspace.evolve(to: S.yaml(purchase: purchase), name: "indexes"))
        #expect(sql.contains("DROP INDEX \"purchase_customerId\";"))
        #expect(sql.contains("CREATE INDEX \"purchase_customerId\" ON \"purchase\" (\"customerId\") WHERE total IS NOT NULL;"))
        #expect(sql.contains("CREATE INDEX \"purchase_by_status\""))
        #expect(!sql.contains("new_purchase"))
        try workspace.migrate(db)
        try workspace.expectClean(db)
        // Dropping every index.
        let none = S.purchase.replacingOccurrences(of: "    indexes:\n      - columns: [customerId]\n", with: "")
        let drop = try #require(try workspace.evolve(to: S.yaml(purchase: none), name: "no_indexes"))
        #expect(drop.contains("--   drop index purchase_by_status"))
        try workspace.migrate(db)
        #expect(try purchases(db) == S.purchaseRows)
        try workspace.expectClean(db)
    }

    @Test func rebuildKeepsTriggersViewsAndIndexes() throws {
        let (workspace, db) = try S.seeded()
        // A hand-written migration adds a view over the parent and a trigger on it.
        let directory = MigrationFiles.directory(forSchemaPath: workspace.schemaPath)
        try Data(
            """
            CREATE VIEW big_spenders AS SELECT c.name, sum(p.total) AS spent FROM customer c JOIN purchase p ON p.customerId = c.id GROUP BY c.id;
            CREATE TABLE audit (id INTEGER PRIMARY KEY, message TEXT NOT NULL) STRICT;
            CREATE TRIGGER customer_audit AFTER UPDATE ON customer BEGIN INSERT INTO audit (message) VALUES ('updated ' || new.name); END;
            """.utf8
        ).write(to: URL(fileURLWithPath: directory + "/0002_audit.sql"))
        try workspace.migrate(db)
        let extra = """
              Audit:
                table: audit
                columns:
                  id: { type: int, primaryKey: true }
                  message: text
            """
        let customer = S.customer.replacingOccurrences(of: "default: 0", with: "default: 1")
        let sql = try #require(try workspace.evolve(to: S.yaml(customer: customer, extra: extra), name: "score_default"))
        #expect(sql.contains("DROP VIEW \"big_spenders\";"))
        #expect(sql.contains("CREATE TRIGGER customer_audit"))
        try workspace.migrate(db)
        #expect(try db.rows("SELECT name, spent FROM big_spenders ORDER BY name") == [[.text("Ann"), .real(10.5)], [.text("Bob"), .real(99)], [.text("Cy"), .real(1.25)]])
        try db.execute("UPDATE customer SET score = 9 WHERE id = 1")
        #expect(try db.rows("SELECT message FROM audit") == [[.text("updated Ann")]])
        #expect(try purchases(db) == S.purchaseRows)
        try workspace.expectClean(db)
    }

    @Test func renamesAndARebuildInOneMigration() throws {
        let (workspace, db) = try S.seeded()
        let customer = S.customer.replacingOccurrences(of: "table: customer", with: "table: client\n    renamedFrom: customer")
            .replacingOccurrences(of: "      name:  text", with: "      fullName: { type: text, renamedFrom: name }")
        let purchase = S.purchase.replacingOccurrences(of: "values: [open, paid]", with: "values: [open, paid, refunded]")
        let sql = try #require(try workspace.evolve(to: S.yaml(customer: customer, purchase: purchase), name: "renames"))
        #expect(sql.contains("ALTER TABLE \"customer\" RENAME TO \"client\";"))
        #expect(sql.contains("ALTER TABLE \"client\" RENAME COLUMN \"name\" TO \"fullName\";"))
        #expect(sql.contains("rebuild table purchase"))
        try workspace.migrate(db)
        #expect(try db.rows("SELECT id, fullName, email, note, score FROM client ORDER BY id") == S.customerRows)
        #expect(try purchases(db) == S.purchaseRows)
        try db.execute("UPDATE purchase SET status = 'refunded' WHERE id = 1")
        try workspace.expectClean(db)
    }

    @Test func aMigrationThatBreaksOnTheDataLeavesTheDatabaseUnchanged() throws {
        let (workspace, db) = try S.seeded()
        try db.execute("UPDATE customer SET email = 'ann@x' WHERE id = 3")
        let customer = S.customer.replacingOccurrences(of: "      email: text?", with: "      email: { type: text?, unique: true }")
        try workspace.evolve(to: S.yaml(customer: customer), name: "unique_email")
        #expect(throws: StrataError.self) { try workspace.migrate(db) }
        #expect(try db.rows("SELECT max(version) FROM strata_migrations") == [[.integer(1)]])
        #expect(try customers(db, "id, name").count == 3)
        #expect(try purchases(db) == S.purchaseRows)
    }
}
