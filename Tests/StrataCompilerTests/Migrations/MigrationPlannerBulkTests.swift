import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// `migration new` checks its plan by applying it to the replayed database; the tables the plan
/// creates (and their indexes) are entered into that database in bulk instead of executed one
/// by one, which would cost n² in SQLite for n new tables. The plan is the same either way.
@Suite struct MigrationPlannerBulkTests {
    /// The plan checked the usual way: every statement executed in a fresh replay.
    static func executedPlan(_ schema: Schema, migrations: [Migration]) throws -> MigrationPlan {
        try MigrationReplay.replay(migrations).writeWithoutTransaction { conn in
            try MigrationPlanner.plan(schema: schema, current: conn)
        }
    }

    @Test func aFirstMigrationExecutesNoCreateToCheckItself() throws {
        let workspace = try MigrationWorkspace(name: "Big")
        let schema = try workspace.writeSchema(ScalingTests.schema(tables: 40))
        // Compiled (its catalog made) before counting: `migration new` plans from the compiled schema.
        let compiled = try Compiler.compile(path: workspace.schemaPath)
        let work = CompileWork()
        let plan = try CompileWork.$current.withValue(work) { try MigrationPlanner.plan(compiled, migrations: []) }
        #expect(plan == (try Self.executedPlan(schema, migrations: [])))
        #expect(plan.statements.count == 2 * 40)
        #expect(work.ddlStatements == 0)
        #expect(work.migrationReplays == 1)
    }

    @Test func newTablesBesideChangedOnesAreEnteredInBulk() throws {
        let workspace = try MigrationWorkspace(name: "Big")
        try workspace.evolve(to: ScalingTests.schema(tables: 5), name: "initial")
        // Five new tables, a new column on table_1 (ALTER) and a new unique column on table_2
        // (a rebuild, which recreates its index).
        var yaml = ScalingTests.schema(tables: 10)
        yaml = yaml.replacingOccurrences(
            of: "  Table1:\n    table: table_1\n    columns:\n", with: "  Table1:\n    table: table_1\n    columns:\n      extra: text?\n")
        yaml = yaml.replacingOccurrences(
            of: "  Table2:\n    table: table_2\n    columns:\n",
            with: "  Table2:\n    table: table_2\n    columns:\n      code: { type: text?, unique: true }\n")
        let schema = try workspace.writeSchema(yaml)
        let migrations = try MigrationFiles.load(schemaPath: workspace.schemaPath)
        // Compiled (its catalog made) before counting: `migration new` plans from the compiled schema.
        let compiled = try Compiler.compile(path: workspace.schemaPath)
        let work = CompileWork()
        let plan = try CompileWork.$current.withValue(work) { try MigrationPlanner.plan(compiled, migrations: migrations) }
        #expect(plan == (try Self.executedPlan(schema, migrations: migrations)))
        #expect(plan.changes.contains("create table table_9"))
        #expect(plan.changes.contains { $0.hasPrefix("add column table_1.extra") })
        #expect(plan.changes.contains { $0.hasPrefix("rebuild table table_2") })
        // Executed: everything but the five CREATE TABLE and five CREATE INDEX of the new tables.
        #expect(work.ddlStatements == plan.statements.count - 10)
        #expect(work.migrationReplays == 1)
        // And the migration it writes brings a database to the declared structure.
        try workspace.evolve(to: yaml, name: "more")
        let db = try workspace.open()
        try workspace.migrate(db)
        try workspace.expectClean(db)
    }

    /// SQLite refuses a bulk entry with more indexes on one table than the database has
    /// pages (the replay keeps about 66 free pages for them); the planner then replays the
    /// migrations with the Migrator and executes every statement.
    @Test func aRefusedBulkEntryFallsBackToExecuting() throws {
        let workspace = try MigrationWorkspace(name: "Many")
        let columns = (0..<80).map { "      c\($0): int" }.joined(separator: "\n")
        let indexes = (0..<80).map { "      - columns: [c\($0)]" }.joined(separator: "\n")
        let schema = try workspace.writeSchema(
            """
            database: Many
            tables:
              Item:
                table: items
                columns:
                  id: { type: int, primaryKey: true }
            \(columns)
                indexes:
            \(indexes)
            """)
        // Compiled (its catalog made) before counting: `migration new` plans from the compiled schema.
        let compiled = try Compiler.compile(path: workspace.schemaPath)
        let work = CompileWork()
        let plan = try CompileWork.$current.withValue(work) { try MigrationPlanner.plan(compiled, migrations: []) }
        #expect(plan == (try Self.executedPlan(schema, migrations: [])))
        #expect(plan.statements.count == 81)
        #expect(work.migrationReplays == 2)
        #expect(work.ddlStatements == 81)
    }

    // MARK: - The replay of the existing migrations in bulk

    /// `sqlite_master` as SQLite holds it (every entry but SQLite's own, in order, with its
    /// SQL; not the root pages, which differ by construction) and the introspected structure.
    /// SQLite's own entries (`sqlite_sequence`, the automatic indexes of UNIQUE and PRIMARY
    /// KEY constraints) have other places: an entered table's automatic indexes have no
    /// entry until it is materialized; introspection does not read them.
    static func described(_ db: Database) throws -> (master: [String], structure: DatabaseSchema) {
        try db.read { conn in
            let master = try conn.fetch(sql: "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'strata\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid")
                .map { row in "\(try row.get(0, as: String.self)) \(try row.get(1, as: String.self)) \(try row.get(2, as: String.self)): \(try row.get(3, as: String?.self) ?? "-")" }
            return (master, try SchemaIntrospector.introspect(conn))
        }
    }

    /// The replay in bulk builds what the Migrator builds: the same entries of `sqlite_master`
    /// in the same order, the same structure. Or it refuses, and the planner uses the Migrator.
    static func expectSameAsMigrator(_ sqls: [String], refused expectRefused: Bool = false, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let migrations = sqls.enumerated().map { Migration(version: $0.offset + 1, name: "m\($0.offset + 1)", sql: $0.element) }
        let reference = try described(MigrationReplay.replay(migrations))
        do {
            let replay = try BulkReplay.replay(migrations)
            #expect(!expectRefused, "the replay in bulk did not refuse", sourceLocation: sourceLocation)
            let bulk = try described(replay.db)
            #expect(bulk.master == reference.master, sourceLocation: sourceLocation)
            #expect(bulk.structure == reference.structure, sourceLocation: sourceLocation)
            // Every table materialized: the same database still, and a sound one (every
            // b-tree real, no entry on a made-up root page left).
            try replay.db.writeWithoutTransaction { conn in try replay.materializeEverything(on: conn) }
            #expect(!replay.hasEnteredTables, sourceLocation: sourceLocation)
            let materialized = try described(replay.db).master
            #expect(materialized == reference.master, sourceLocation: sourceLocation)
            let integrity = try replay.db.read { conn in
                try conn.fetch(sql: "PRAGMA integrity_check").map { try $0.get(0, as: String.self) }
            }
            #expect(integrity == ["ok"], sourceLocation: sourceLocation)
        } catch let error as BulkReplay.Refused {
            #expect(expectRefused, "refused: \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func aFirstMigrationIsEnteredWithoutExecutingItsCreates() throws {
        let sql = """
            -- 0001_initial
            CREATE TABLE "parent" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL UNIQUE, "code" TEXT) STRICT;

            CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent (id) ON DELETE CASCADE, note TEXT CHECK (length(note) < 10)) ;
            CREATE INDEX "child_parent" ON "child" ("parent_id");
            CREATE UNIQUE INDEX child_note ON child (note DESC) WHERE note IS NOT NULL;
            CREATE TABLE [odd name] (x INTEGER NOT NULL DEFAULT 0, y, PRIMARY KEY (x, y)) WITHOUT ROWID;
            CREATE INDEX "odd index" ON 'odd name' (y);
            CREATE INDEX parent_code ON parent (code)
            """
        try Self.expectSameAsMigrator([sql])
        let replay = try BulkReplay.replay([Migration(version: 1, name: "initial", sql: sql)])
        #expect(replay.materializedTables == 0)
        // Each table materialized under temporary names (expectSameAsMigrator compared the
        // result, b-trees and automatic indexes included, with the Migrator's).
        try replay.db.writeWithoutTransaction { conn in try replay.materializeEverything(on: conn) }
        #expect(replay.materializedTables == 3)
        #expect(replay.materializedUnderTemporaryNames == 3)
    }

    /// A table whose SQL names itself outside its name (a CHECK on `t.x`) cannot be executed
    /// under another name: it is materialized the slower way, with the same result.
    @Test func aTableThatNamesItselfIsMaterializedByRecreatingIt() throws {
        let sql = """
            CREATE TABLE t (x INTEGER PRIMARY KEY, y TEXT UNIQUE, CHECK (t.x > 0));
            CREATE INDEX t_y ON t (y DESC)
            """
        try Self.expectSameAsMigrator([sql])
        let replay = try BulkReplay.replay([Migration(version: 1, name: "initial", sql: sql)])
        try replay.db.writeWithoutTransaction { conn in try replay.materializeEverything(on: conn) }
        #expect(replay.materializedTables == 1)
        #expect(replay.materializedUnderTemporaryNames == 0)
    }

    @Test func laterMigrationsAreExecutedOnTheTablesTheyMention() throws {
        let first = """
            CREATE TABLE a (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL);
            CREATE INDEX a_name ON a (name);
            CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INTEGER REFERENCES a (id), code TEXT UNIQUE);
            CREATE INDEX b_a ON b (a_id);
            CREATE TABLE c (id INTEGER PRIMARY KEY, label TEXT);
            CREATE TABLE d (id INTEGER PRIMARY KEY, label TEXT)
            """
        // Every kind of later statement: ALTER (add, drop, rename column, rename table), a
        // rebuild with the AUTOINCREMENT counter handed on, DROP INDEX of an entered index,
        // an index on an entered table, views and triggers, a new table beside them.
        let second = """
            ALTER TABLE c ADD COLUMN extra TEXT;
            ALTER TABLE c RENAME COLUMN label TO title;
            ALTER TABLE d RENAME TO e;
            DROP INDEX b_a;
            CREATE INDEX b_code ON b (code);
            CREATE TABLE new_a (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, flag INTEGER NOT NULL DEFAULT 0);
            INSERT INTO new_a (id, name) SELECT id, name FROM a;
            DELETE FROM sqlite_sequence WHERE name = 'new_a';
            UPDATE sqlite_sequence SET name = 'new_a' WHERE name = 'a';
            DROP TABLE a;
            ALTER TABLE new_a RENAME TO a;
            CREATE INDEX a_name ON a (name);
            CREATE VIEW named AS SELECT a.name, b.code FROM a JOIN b ON b.a_id = a.id;
            CREATE TABLE f (id INTEGER PRIMARY KEY, v TEXT);
            CREATE INDEX f_v ON f (v)
            """
        let third = """
            CREATE TRIGGER b_touch AFTER UPDATE ON b BEGIN UPDATE c SET extra = CASE WHEN new.code IS NULL THEN 'x' ELSE new.code END; END;
            ALTER TABLE f ADD COLUMN w TEXT;
            ALTER TABLE f DROP COLUMN w;
            DROP VIEW named;
            CREATE TABLE g (id INTEGER PRIMARY KEY)
            """
        try Self.expectSameAsMigrator([first, second, third])
    }

    @Test func whatItCannotVouchForItRefuses() throws {
        let first = "CREATE TABLE a (id INTEGER PRIMARY KEY, name TEXT);\nCREATE TABLE b (id INTEGER PRIMARY KEY, a_id INTEGER REFERENCES a (id))"
        // Rows written (the Migrator's foreign-key check would read them), a statement on the
        // whole database, rows touched while a trigger exists, an error of the migrations.
        try Self.expectSameAsMigrator([first, "INSERT INTO a (name) VALUES ('x')"], refused: true)
        try Self.expectSameAsMigrator([first, "PRAGMA user_version = 7"], refused: true)
        try Self.expectSameAsMigrator(
            [first, "CREATE TRIGGER t AFTER INSERT ON a BEGIN DELETE FROM b; END;\nDELETE FROM b WHERE id = 0"], refused: true)
        #expect(throws: BulkReplay.Refused.self) {
            try BulkReplay.replay([Migration(version: 1, name: "m", sql: first + ";\nCREATE TABLE a (x)")])
        }
        #expect(throws: BulkReplay.Refused.self) {
            try BulkReplay.replay([Migration(version: 1, name: "m", sql: first + ";\nCREATE INDEX i ON missing (x)")])
        }
        // Statements that change no row are replayed in bulk.
        try Self.expectSameAsMigrator([first, "UPDATE a SET name = 'y'; DELETE FROM b"])
    }

    @Test func theStatementsOfAMigrationAreSplitAsSQLiteSplitsThem() {
        let sql = """
            CREATE TABLE t (x TEXT DEFAULT ';', "y;" INTEGER); -- a comment; with a semicolon
            /* another; */ CREATE TRIGGER tr AFTER INSERT ON t BEGIN
              UPDATE t SET x = CASE WHEN new.x = ';' THEN 'a' ELSE 'b' END;
              DELETE FROM t WHERE x = 'z';
            END;
            CREATE INDEX i ON t (x)
            """
        #expect(BulkReplay.statements(of: sql).map(\.text) == [
            "CREATE TABLE t (x TEXT DEFAULT ';', \"y;\" INTEGER)",
            "CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n  UPDATE t SET x = CASE WHEN new.x = ';' THEN 'a' ELSE 'b' END;\n  DELETE FROM t WHERE x = 'z';\nEND",
            "CREATE INDEX i ON t (x)",
        ])
    }

    /// A change after a first migration of many tables: the first is replayed in bulk, and
    /// only the table the change alters is materialized; the plan is the one the Migrator's
    /// replay gives.
    @Test func aChangeAfterAFirstMigrationMaterializesOnlyTheChangedTable() throws {
        let workspace = try MigrationWorkspace(name: "Big")
        try workspace.evolve(to: ScalingTests.schema(tables: 30), name: "initial")
        var yaml = ScalingTests.schema(tables: 31)
        yaml = yaml.replacingOccurrences(
            of: "  Table7:\n    table: table_7\n    columns:\n", with: "  Table7:\n    table: table_7\n    columns:\n      extra: text?\n")
        let schema = try workspace.writeSchema(yaml)
        let migrations = try MigrationFiles.load(schemaPath: workspace.schemaPath)
        let compiled = try Compiler.compile(path: workspace.schemaPath)
        let work = CompileWork()
        let plan = try CompileWork.$current.withValue(work) { try MigrationPlanner.plan(compiled, migrations: migrations) }
        #expect(plan == (try Self.executedPlan(schema, migrations: migrations)))
        #expect(plan.changes.contains("create table table_30"))
        #expect(plan.changes.contains { $0.hasPrefix("add column table_7.extra") })
        #expect(work.migrationReplays == 1)
        let replay = try BulkReplay.replay(migrations)
        #expect(replay.materializedTables == 0)
        _ = try replay.db.writeWithoutTransaction { conn in
            try MigrationPlanner.plan(
                schema: schema, current: conn, options: .init(), history: MigrationPlanner.renameHistory(migrations),
                catalog: compiled.catalog, replay: replay)
        }
        #expect(replay.materializedTables == 1)
        try workspace.evolve(to: yaml, name: "more")
        let db = try workspace.open()
        try workspace.migrate(db)
        try workspace.expectClean(db)
    }
}
