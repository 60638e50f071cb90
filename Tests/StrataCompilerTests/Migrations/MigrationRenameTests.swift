import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// The defects of issue 21, each reproduced first: renames that reuse names, swaps and chains,
/// case-only and non-ASCII renames, AUTOINCREMENT counters across case changes, the rebuild's
/// temporary name, triggers on other tables, duplicate hints and the smallest integer default.
@Suite struct MigrationRenameTests {
    static func person(_ columns: String, table: String = "person", extra: String = "") -> String {
        """
        database: Shop
        tables:
          Person:
            table: \(table)
        \(extra)    columns:
              id: { type: int, primaryKey: autoincrement }
        \(columns)
        """
    }

    /// A workspace at v1 (`columns` of `person`) with `rows` inserted.
    func seeded(_ yaml: String, rows: String) throws -> (MigrationWorkspace, Database) {
        let workspace = try MigrationWorkspace()
        try workspace.evolve(to: yaml, name: "initial")
        let db = try workspace.open()
        try workspace.migrate(db)
        try db.execute(rows)
        return (workspace, db)
    }

    /// Evolves to `yaml`, migrates, expects a clean database, and expects that planning the same
    /// schema again changes nothing (the hints are remembered as done).
    @discardableResult
    func step(_ workspace: MigrationWorkspace, _ db: Database, to yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
        let sql = try #require(try workspace.evolve(to: yaml, name: "change"), sourceLocation: sourceLocation)
        try workspace.migrate(db)
        try workspace.expectClean(db, sourceLocation: sourceLocation)
        #expect(try workspace.evolve(to: yaml, name: "again") == nil, "planned twice", sourceLocation: sourceLocation)
        return sql
    }

    // 1. A rename whose old name is reused moves the values to the renamed column.
    @Test func renameWhoseOldNameIsReused() throws {
        let (workspace, db) = try seeded(Self.person("      name: text?"), rows: "INSERT INTO person (name) VALUES ('Ann'), ('Bob'), (NULL)")
        try step(workspace, db, to: Self.person("      fullName: { type: text?, renamedFrom: name }\n      name: text?"))
        #expect(try db.rows("SELECT fullName, name FROM person ORDER BY id") == [[.text("Ann"), .null], [.text("Bob"), .null], [.null, .null]])
    }

    @Test func renameWhoseOldNameIsReusedWithAnotherType() throws {
        let (workspace, db) = try seeded(Self.person("      name: text?"), rows: "INSERT INTO person (name) VALUES ('Ann'), ('Bob')")
        try step(workspace, db, to: Self.person("      fullName: { type: text?, renamedFrom: name }\n      name: { type: int, default: 7 }"))
        #expect(try db.rows("SELECT fullName, name FROM person ORDER BY id") == [[.text("Ann"), .integer(7)], [.text("Bob"), .integer(7)]])
    }

    @Test func swapOfTwoNames() throws {
        let (workspace, db) = try seeded(
            Self.person("      first: text\n      last: text"), rows: "INSERT INTO person (first, last) VALUES ('Ann', 'Lee'), ('Bob', 'Ray')")
        let sql = try step(workspace, db, to: Self.person("      first: { type: text, renamedFrom: last }\n      last: { type: text, renamedFrom: first }"))
        #expect(sql.contains("strata_rename"), "through a temporary name")
        #expect(try db.rows("SELECT first, last FROM person ORDER BY id") == [[.text("Lee"), .text("Ann")], [.text("Ray"), .text("Bob")]])
    }

    @Test func renameChain() throws {
        let (workspace, db) = try seeded(
            Self.person("      a: text\n      b: int?"), rows: "INSERT INTO person (a, b) VALUES ('x', 1), ('y', NULL)")
        try step(workspace, db, to: Self.person("      b: { type: text, renamedFrom: a }\n      c: { type: int?, renamedFrom: b }"))
        #expect(try db.rows("SELECT b, c FROM person ORDER BY id") == [[.text("x"), .integer(1)], [.text("y"), .null]])
    }

    @Test func threeWayRotationOfTables() throws {
        let yaml = { (a: String, b: String, c: String, hints: Bool) in
            """
            database: Shop
            tables:
              A:
                table: \(a)\(hints ? "\n    renamedFrom: ta" : "")
                columns: { id: { type: int, primaryKey: autoincrement }, v: text }
              B:
                table: \(b)\(hints ? "\n    renamedFrom: tb" : "")
                columns: { id: { type: int, primaryKey: autoincrement }, v: text }
              C:
                table: \(c)\(hints ? "\n    renamedFrom: tc" : "")
                columns: { id: { type: int, primaryKey: autoincrement }, v: text }
            """
        }
        let (workspace, db) = try seeded(
            yaml("ta", "tb", "tc", false),
            rows: "INSERT INTO ta (v) VALUES ('a'); INSERT INTO tb (v) VALUES ('b'); INSERT INTO tc (v) VALUES ('c')")
        try step(workspace, db, to: yaml("tb", "tc", "ta", true))
        #expect(try db.rows("SELECT v FROM tb") == [[.text("a")]])
        #expect(try db.rows("SELECT v FROM tc") == [[.text("b")]])
        #expect(try db.rows("SELECT v FROM ta") == [[.text("c")]])
    }

    @Test func tableRenameWhoseOldNameIsReused() throws {
        let v1 = "database: Shop\ntables:\n  Old:\n    table: item\n    columns: { id: { type: int, primaryKey: autoincrement }, v: text }\n"
        let v2 = """
            database: Shop
            tables:
              Old:
                table: archived
                renamedFrom: item
                columns: { id: { type: int, primaryKey: autoincrement }, v: text }
              Item:
                table: item
                columns: { id: { type: int, primaryKey: autoincrement }, w: int? }
            """
        let (workspace, db) = try seeded(v1, rows: "INSERT INTO item (v) VALUES ('kept')")
        try step(workspace, db, to: v2)
        #expect(try db.rows("SELECT v FROM archived") == [[.text("kept")]])
        #expect(try db.rows("SELECT count(*) FROM item") == [[.integer(0)]])
    }

    // 2. A case-only change of `table:` keeps the AUTOINCREMENT counter at the next rebuild.
    @Test func caseOnlyTableChangeKeepsTheCounter() throws {
        let (workspace, db) = try seeded(
            Self.person("      name: text", table: "Items"), rows: "INSERT INTO Items (name) VALUES ('a'), ('b'), ('c'); DELETE FROM Items WHERE id = 3")
        // Without a hint the name is the same to SQLite: nothing to do.
        #expect(try workspace.evolve(to: Self.person("      name: text", table: "items"), name: "lower") == nil)
        // The next rebuild keeps the counter although the database spells the table `Items`.
        try step(workspace, db, to: Self.person("      name: { type: text, check: \"length(name) > 0\" }", table: "items"))
        try db.execute("INSERT INTO items (name) VALUES ('d')")
        #expect(try db.rows("SELECT id FROM items WHERE name = 'd'") == [[.integer(4)]])
    }

    @Test func caseOnlyTableRenameIsARename() throws {
        let (workspace, db) = try seeded(
            Self.person("      name: text", table: "Items"), rows: "INSERT INTO Items (name) VALUES ('a'), ('b'), ('c'); DELETE FROM Items WHERE id = 3")
        try step(workspace, db, to: Self.person("      name: text", table: "items", extra: "    renamedFrom: Items\n"))
        #expect(try db.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'items'") == [[.text("items")]])
        #expect(try db.rows("SELECT name, seq FROM sqlite_sequence") == [[.text("items"), .integer(3)]])
        // and then a rebuild
        try step(workspace, db, to: Self.person("      name: { type: text, check: \"length(name) > 0\" }", table: "items", extra: "    renamedFrom: Items\n"))
        try db.execute("INSERT INTO items (name) VALUES ('d')")
        #expect(try db.rows("SELECT id FROM items WHERE name = 'd'") == [[.integer(4)]])
    }

    // 3. Non-ASCII case-only renames are renames: SQLite folds ASCII only.
    @Test func nonASCIICaseOnlyColumnRename() throws {
        let (workspace, db) = try seeded(Self.person("      cafe: { type: text, column: \"café\" }"), rows: "INSERT INTO person (\"café\") VALUES ('x'), ('y')")
        let v2 = Self.person("      cafe: { type: text, column: \"CAFÉ\", renamedFrom: \"café\" }")
        let schema = try workspace.writeSchema(v2)
        let pending = MigrationVerifier.verify(schema: schema, schemaPath: workspace.schemaPath)
        #expect(pending.contains { $0.message.contains("rename column person.café to CAFÉ") }, "\(pending)")
        // Each difference at the line of its column: the renamed one, or (gone) its table.
        #expect(pending.map { "\($0.location.line):\($0.location.column)" }.sorted() == ["3:3", "7:7", "7:7"], "\(pending)")
        try step(workspace, db, to: v2)
        #expect(try db.rows("SELECT \"CAFÉ\" FROM person ORDER BY id") == [[.text("x")], [.text("y")]])
    }

    @Test func checkAcceptsNamesThatDifferInNonASCIICase() throws {
        let workspace = try MigrationWorkspace()
        let schema = try workspace.writeSchema(
            """
            database: Shop
            tables:
              Lower:
                table: "é"
                columns: { id: { type: int, primaryKey: true }, "a": { type: text, column: "é" }, "b": { type: text, column: "É" } }
              Upper:
                table: "É"
                columns: { id: { type: int, primaryKey: true } }
            """)
        #expect(schema.tables.count == 2)
        do {
            try workspace.writeSchema(
                "database: Shop\ntables:\n  A:\n    table: Abc\n    columns: { id: { type: int, primaryKey: true } }\n  B:\n    table: aBC\n    columns: { id: { type: int, primaryKey: true } }\n")
            Issue.record("ASCII case-only duplicates must be refused")
        } catch let error as DiagnosticsError {
            #expect(error.diagnostics.contains { $0.message.contains("same SQL name") })
        }
        #expect(SQLName.same("Items", "iTEMS") && !SQLName.same("café", "CAFÉ") && !SQLName.same("e\u{301}", "\u{e9}"))
    }

    // 4. A declared table named new_<T>, created in the migration that rebuilds T, does not
    //    collide with T's temporary table.
    @Test func rebuildTemporaryNameAvoidsDeclaredTables() throws {
        let item = { (check: Bool) in
            """
            database: Shop
            tables:
              Item:
                table: item
                columns: { id: { type: int, primaryKey: autoincrement }, v: \(check ? "{ type: int, check: \"v >= 0\" }" : "int") }

            """
        }
        let (workspace, db) = try seeded(item(false), rows: "INSERT INTO item (v) VALUES (1), (2); DELETE FROM item WHERE id = 2")
        let v2 = item(true) + "  NewItem:\n    table: new_item\n    columns: { id: { type: int, primaryKey: true }, w: text }\n"
        let sql = try step(workspace, db, to: v2)
        #expect(sql.contains("CREATE TABLE \"new_item_2\""), "\(sql)")
        try db.execute("INSERT INTO new_item VALUES (1, 'w')")
        try db.execute("INSERT INTO item (v) VALUES (5)")
        #expect(try db.rows("SELECT id, v FROM item ORDER BY id") == [[.integer(1), .integer(1)], [.integer(3), .integer(5)]])
    }

    // 5. Duplicate renamedFrom hints are an error at their line.
    @Test func duplicateRenameHintsAreAnError() throws {
        let workspace = try MigrationWorkspace()
        do {
            try workspace.writeSchema(Self.person("      a: { type: text, renamedFrom: name }\n      b:\n        type: text\n        renamedFrom: NAME"))
            Issue.record("duplicate hints must be refused")
        } catch let error as DiagnosticsError {
            let diagnostic = try #require(error.diagnostics.first)
            #expect(diagnostic.message.contains("both renamedFrom"), "\(diagnostic)")
            #expect(diagnostic.location.line == 10, "\(diagnostic)")
        }
        do {
            try workspace.writeSchema(
                "database: Shop\ntables:\n  A:\n    table: a\n    renamedFrom: old\n    columns: { id: { type: int, primaryKey: true } }\n  B:\n    table: b\n    renamedFrom: old\n    columns: { id: { type: int, primaryKey: true } }\n")
            Issue.record("duplicate table hints must be refused")
        } catch let error as DiagnosticsError {
            #expect(error.diagnostics.first?.location.line == 9, "\(error.diagnostics)")
        }
    }

    // 6. A trigger on another table that writes into a rebuilt table survives the rebuild.
    @Test func triggerOnAnotherTableSurvivesTheRebuild() throws {
        let yaml = { (strict: Bool) in
            """
            database: Shop
            tables:
              Item:
                table: item
                columns: { id: { type: int, primaryKey: autoincrement }, name: text }
              Log:
                table: Log
                columns: { id: { type: int, primaryKey: autoincrement }, what: \(strict ? "{ type: text, check: \"length(what) > 0\" }" : "text") }
            """
        }
        let (workspace, db) = try seeded(yaml(false), rows: "INSERT INTO item (name) VALUES ('a')")
        // A hand-written migration adds a trigger on item that writes into Log, and a view of Log.
        let directory = MigrationFiles.directory(forSchemaPath: workspace.schemaPath)
        try Data(
            """
            CREATE TRIGGER item_audit AFTER INSERT ON item BEGIN INSERT INTO Log (what) VALUES (new.name); END;
            CREATE VIEW log_view AS SELECT what FROM Log;
            CREATE VIEW log_view_count AS SELECT count(*) AS n FROM log_view;
            """.utf8
        ).write(to: URL(fileURLWithPath: directory + "/0002_audit.sql"))
        try workspace.migrate(db)
        try db.execute("INSERT INTO item (name) VALUES ('b')")
        let sql = try step(workspace, db, to: yaml(true))
        #expect(sql.contains("DROP TRIGGER IF EXISTS \"item_audit\""))
        try db.execute("INSERT INTO item (name) VALUES ('c')")
        #expect(try db.rows("SELECT what FROM log_view ORDER BY what") == [[.text("b")], [.text("c")]])
        #expect(try db.rows("SELECT n FROM log_view_count") == [[.integer(2)]])
    }

    // 7. The smallest 64-bit integer is a valid default.
    @Test func smallestIntegerDefault() throws {
        let (workspace, db) = try seeded(Self.person("      name: text"), rows: "INSERT INTO person (name) VALUES ('a')")
        try step(workspace, db, to: Self.person("      name: text\n      low: { type: int, default: -9223372036854775808 }\n      high: { type: int, default: 9223372036854775807 }"))
        #expect(try db.rows("SELECT low, high FROM person") == [[.integer(Int64.min), .integer(Int64.max)]])
        do {
            try workspace.writeSchema(Self.person("      low: { type: int, default: -9223372036854775809 }"))
            Issue.record("out of range")
        } catch let error as DiagnosticsError {
            #expect(error.diagnostics.first?.message.contains("must be an integer") == true)
        }
    }
}

extension MigrationRenameTests {
    /// Both names in the database and the old one no longer declared: "drop b, rename a to b"
    /// and "a was renamed to b long ago, drop the old a" look the same, so the planner refuses
    /// at the hint's line instead of guessing.
    @Test func ambiguousHintIsRefusedAtItsLine() throws {
        let (workspace, db) = try seeded(
            Self.person("      a: text?\n      b: text?"), rows: "INSERT INTO person (a, b) VALUES ('from a', 'from b')")
        do {
            try workspace.evolve(to: Self.person("      b: { type: text?, renamedFrom: a }"), name: "change", allowDestructive: true)
            Issue.record("expected a refusal")
        } catch let error as MigrationPlanningError {
            #expect(error.problems.count == 1 && error.problems[0].contains("has both a and b"), "\(error)")
            #expect(error.locations.first??.line == 7, "\(error.locations)")
        }
        #expect(try db.rows("SELECT a, b FROM person") == [[.text("from a"), .text("from b")]])
    }
}

extension MigrationRenameTests {
    /// The example of docs/Migrations.md ("Renames"), statement for statement.
    @Test func documentedRenameExample() throws {
        let (workspace, db) = try seeded(
            Self.person("      name: text?\n      first: text\n      last: text"),
            rows: "INSERT INTO person (name, first, last) VALUES ('Ann Lee', 'Ann', 'Lee')")
        let sql = try step(
            workspace, db,
            to: Self.person(
                "      fullName: { type: text?, renamedFrom: name }\n      name: text?\n      first: { type: text, renamedFrom: last }\n      last: { type: text, renamedFrom: first }"))
        let statements = sql.split(separator: "\n").filter { $0.hasPrefix("ALTER") }
        #expect(
            statements == [
                "ALTER TABLE \"person\" RENAME COLUMN \"name\" TO \"fullName\";",
                "ALTER TABLE \"person\" RENAME COLUMN \"last\" TO \"strata_rename\";",
                "ALTER TABLE \"person\" RENAME COLUMN \"first\" TO \"last\";",
                "ALTER TABLE \"person\" RENAME COLUMN \"strata_rename\" TO \"first\";",
                "ALTER TABLE \"person\" ADD COLUMN \"name\" TEXT;",
            ], "\(sql)")
        #expect(try db.rows("SELECT fullName, name, first, last FROM person") == [[.text("Ann Lee"), .null, .text("Lee"), .text("Ann")]])
    }
}

extension StrataCLITests {
    /// `strata migration new` prints a refused hint at its own line of the schema file.
    @Test func ambiguousRenameIsRefusedAtItsLineByTheCLI() throws {
        let workspace = try initialized()
        let customer = ShopSchema.customer
            .replacingOccurrences(of: "      email: text?\n", with: "      email: { type: text?, renamedFrom: note }\n")
            .replacingOccurrences(of: "      note:  text?\n", with: "")
        try workspace.writeSchema(ShopSchema.yaml(customer: customer))
        let result = try strata("migration", "new", "Shop.schema.yml", "--name", "swap", "--allow-destructive", in: workspace.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Shop.schema.yml:8:7: error: column customer.email has `renamedFrom: note`"), "\(result.stderr)")
        #expect(try MigrationFiles.load(schemaPath: workspace.schemaPath).count == 1)
    }
}
