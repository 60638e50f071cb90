import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// The planner introspects the declared database, the replayed one and the plan applied to it
/// through one ``IntrospectionCache``: a table whose SQL (and its indexes' SQL, and for a
/// foreign key that names no parent column, its parent's SQL) is unchanged is taken from the
/// cache. What the cache gives must be exactly what introspecting without it gives.
@Suite struct IntrospectionCacheTests {
    /// Tables of many kinds: keys naming no parent column, composite and unique constraints,
    /// expression, partial, collated and descending indexes, WITHOUT ROWID, STRICT, generated
    /// columns, AUTOINCREMENT, and two names that Swift's `==` takes for equal (`café`
    /// precomposed and decomposed) but SQLite does not.
    static let ddl = """
        CREATE TABLE parent (a INTEGER, b TEXT NOT NULL, c TEXT COLLATE NOCASE, PRIMARY KEY (a));
        CREATE TABLE child (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          parent_id INTEGER REFERENCES parent ON DELETE CASCADE,
          code TEXT NOT NULL UNIQUE,
          x INTEGER, y INTEGER,
          total INTEGER GENERATED ALWAYS AS (x + y) VIRTUAL,
          UNIQUE (x, y),
          CHECK (x >= 0)
        );
        CREATE INDEX child_code ON child (code COLLATE NOCASE DESC);
        CREATE INDEX child_sum ON child (x + y) WHERE y > 0;
        CREATE TABLE pairs (k TEXT, v BLOB, PRIMARY KEY (k, v)) WITHOUT ROWID;
        CREATE TABLE strict_one (n INTEGER NOT NULL, t TEXT, owner INTEGER REFERENCES parent (a)) STRICT;
        CREATE UNIQUE INDEX strict_t ON strict_one (t);
        CREATE TABLE "caf\u{E9}" (id INTEGER PRIMARY KEY, p REFERENCES parent);
        CREATE TABLE "cafe\u{301}" (id INTEGER PRIMARY KEY, q TEXT);
        CREATE INDEX "caf\u{E9}_p" ON "caf\u{E9}" (p);
        CREATE VIEW child_codes AS SELECT code FROM child;
        CREATE TRIGGER child_touch AFTER UPDATE ON child BEGIN UPDATE child SET x = x WHERE id = NEW.id; END;
        """

    /// Introspects `conn` through `cache` and without it, expects both to be equal, and returns
    /// how many tables the cached introspection asked SQLite for.
    static func introspectBothWays(
        _ conn: Connection, cache: IntrospectionCache, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> (schema: DatabaseSchema, misses: Int, hits: Int) {
        let work = CompileWork()
        let cached = try CompileWork.$current.withValue(work) { try SchemaIntrospector.introspect(conn, cache: cache) }
        let uncached = try SchemaIntrospector.introspect(conn)
        #expect(cached == uncached, sourceLocation: sourceLocation)
        return (cached, work.introspectedTables, work.reusedTables)
    }

    @Test func aSharedCacheGivesWhatIntrospectingWithoutOneGives() throws {
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn in
            try conn.execute(sql: Self.ddl)
            let cache = IntrospectionCache()
            let first = try Self.introspectBothWays(conn, cache: cache)
            #expect(first.schema.tables.count == 6)
            #expect(first.schema.indexes.count == 4)
            #expect((first.misses, first.hits) == (6, 0))
            #expect(first.schema.table(named: "child")?.foreignKeys.first?.parentColumns == ["a"])
            #expect(Set(first.schema.tables.map { Array($0.name.utf8) }).count == 6, "both cafés, apart")

            // Unchanged: everything from the cache, equal.
            let second = try Self.introspectBothWays(conn, cache: cache)
            #expect(second.schema == first.schema)
            #expect((second.misses, second.hits) == (0, 6))

            // A column added: that table is read again, and only it.
            try conn.execute(sql: "ALTER TABLE child ADD COLUMN note TEXT DEFAULT 'n'")
            let added = try Self.introspectBothWays(conn, cache: cache)
            #expect((added.misses, added.hits) == (1, 5))
            #expect(added.schema.table(named: "child")?.column(named: "note")?.defaultSQL == "'n'")

            // A new index on a table, then an index of another dropped.
            try conn.execute(sql: "CREATE INDEX pairs_v ON pairs (v)")
            let indexed = try Self.introspectBothWays(conn, cache: cache)
            #expect((indexed.misses, indexed.hits) == (1, 5))
            #expect(indexed.schema.index(named: "pairs_v")?.table == "pairs")
            try conn.execute(sql: "DROP INDEX child_sum")
            let dropped = try Self.introspectBothWays(conn, cache: cache)
            #expect((dropped.misses, dropped.hits) == (1, 5))
            #expect(dropped.schema.index(named: "child_sum") == nil)
            // An index's SQL changed under the same name.
            try conn.execute(sql: "DROP INDEX strict_t; CREATE INDEX strict_t ON strict_one (t DESC)")
            let changedIndex = try Self.introspectBothWays(conn, cache: cache)
            #expect((changedIndex.misses, changedIndex.hits) == (1, 5))
            #expect(changedIndex.schema.index(named: "strict_t")?.isUnique == false)

            // The parent's primary key changes: its children whose key names no parent column
            // (child, café) are read again; strict_one names its parent column and is reused.
            try conn.execute(sql: "PRAGMA foreign_keys = OFF")
            try conn.execute(sql: "DROP TABLE parent; CREATE TABLE parent (a INTEGER, b TEXT NOT NULL, c TEXT COLLATE NOCASE, PRIMARY KEY (b))")
            let rekeyed = try Self.introspectBothWays(conn, cache: cache)
            #expect((rekeyed.misses, rekeyed.hits) == (3, 3))
            #expect(rekeyed.schema.table(named: "child")?.foreignKeys.first?.parentColumns == ["b"])
            #expect(rekeyed.schema.table(named: "caf\u{E9}")?.foreignKeys.first?.parentColumns == ["b"])
            // The parent gone: no primary key to refer to.
            try conn.execute(sql: "DROP TABLE parent")
            let orphaned = try Self.introspectBothWays(conn, cache: cache)
            #expect((orphaned.misses, orphaned.hits) == (2, 3))
            #expect(orphaned.schema.table(named: "child")?.foreignKeys.first?.parentColumns == [])
            // And back as it was at first: the entries of then are right again.
            try conn.execute(sql: "CREATE TABLE parent (a INTEGER, b TEXT NOT NULL, c TEXT COLLATE NOCASE, PRIMARY KEY (a))")
            let restored = try Self.introspectBothWays(conn, cache: cache)
            #expect(restored.schema.table(named: "child")?.foreignKeys.first?.parentColumns == ["a"])
            #expect(restored.schema.table(named: "caf\u{E9}") == first.schema.table(named: "caf\u{E9}"))

            // A table renamed: its name is part of what its introspection gives.
            try conn.execute(sql: "ALTER TABLE pairs RENAME TO pairs2")
            let renamed = try Self.introspectBothWays(conn, cache: cache)
            #expect(renamed.misses >= 1)
            #expect(renamed.schema.table(named: "pairs2") != nil && renamed.schema.table(named: "pairs") == nil)
            #expect(renamed.schema.index(named: "pairs_v")?.table == "pairs2")
        }
    }

    @Test func aCacheIsSharedAcrossDatabases() throws {
        // The declared database and the replayed one are two databases: what one cached is
        // right for the other when the SQL is the same, and only then.
        let cache = IntrospectionCache()
        let one = try Database.inMemory()
        try one.writeWithoutTransaction { conn in try conn.execute(sql: Self.ddl) }
        let first = try one.read { conn in try Self.introspectBothWays(conn, cache: cache) }
        let other = try Database.inMemory()
        try other.writeWithoutTransaction { conn in
            try conn.execute(sql: Self.ddl.replacingOccurrences(of: "PRIMARY KEY (a));", with: "PRIMARY KEY (b));"))
        }
        let second = try other.read { conn in try Self.introspectBothWays(conn, cache: cache) }
        // parent changed, and child and café refer to its key: three read again.
        #expect((second.misses, second.hits) == (3, 3))
        #expect(second.schema != first.schema)
    }

    @Test func manyTablesMissingAreReadInBulkAndAFewOneByOne() throws {
        // Above IntrospectionCache.bulkThreshold missing tables the pragmas are read for all
        // tables at once; below it, table by table. Both give what no cache gives.
        let count = IntrospectionCache.bulkThreshold + 10
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn in
            for i in 0..<count {
                let parent = i > 0 ? ", parent INTEGER REFERENCES t\(i - 1)" : ""
                try conn.execute(sql: "CREATE TABLE t\(i) (id INTEGER PRIMARY KEY, name TEXT UNIQUE\(parent)); CREATE INDEX t\(i)_name ON t\(i) (name DESC)")
            }
            let cache = IntrospectionCache()
            let all = try Self.introspectBothWays(conn, cache: cache)
            #expect((all.misses, all.hits) == (count, 0))
            for i in stride(from: 0, to: count, by: 10) { try conn.execute(sql: "ALTER TABLE t\(i) ADD COLUMN extra TEXT") }
            let few = try Self.introspectBothWays(conn, cache: cache)
            let altered = (count + 9) / 10
            // t(i+1) refers to t(i)'s key without naming it: read again with it.
            #expect(few.misses == 2 * altered - (count % 10 == 1 ? 1 : 0))
            #expect(few.hits == count - few.misses)
        }
    }

    @Test func thePlannerReadsAnUnchangedTableOnce() throws {
        // A change to one table of forty and a new table: the declared database's tables are
        // read (41), the replayed database's and the plan's result only where their SQL differs.
        let workspace = try MigrationWorkspace(name: "Big")
        try workspace.evolve(to: ScalingTests.schema(tables: 40), name: "initial")
        let yaml = ScalingTests.schema(tables: 41).replacingOccurrences(
            of: "  Table1:\n    table: table_1\n    columns:\n", with: "  Table1:\n    table: table_1\n    columns:\n      extra: text?\n")
        let schema = try workspace.writeSchema(yaml)
        let migrations = try MigrationFiles.load(schemaPath: workspace.schemaPath)
        let compiled = try Compiler.compile(path: workspace.schemaPath)
        let work = CompileWork()
        let plan = try CompileWork.$current.withValue(work) { try MigrationPlanner.plan(compiled, migrations: migrations) }
        #expect(plan == (try MigrationPlannerBulkTests.executedPlan(schema, migrations: migrations)))
        #expect(plan.changes.contains("create table table_40"))
        // 41 declared; table_1 in the replay (its SQL has no `extra`); table_1 after the plan
        // (ADD COLUMN writes its own SQL). Every other table of the replay and of the plan's
        // result is the declared one's SQL.
        #expect(work.introspectedTables == 41 + 1 + 1)
        #expect(work.reusedTables == 39 + 40)
    }

    @Test func theVerifierReadsAnUnchangedTableOnce() throws {
        // strata check replays two migrations and compares: the declared database's 41 tables
        // are read; of the replayed database only table_1 (its ADD COLUMN rewrote its SQL),
        // once for the comparison and reused by the rename check.
        let workspace = try MigrationWorkspace(name: "Big")
        try workspace.evolve(to: ScalingTests.schema(tables: 40), name: "initial")
        let yaml = ScalingTests.schema(tables: 41).replacingOccurrences(
            of: "  Table1:\n    table: table_1\n    columns:\n", with: "  Table1:\n    table: table_1\n    columns:\n      extra: text?\n")
        try workspace.evolve(to: yaml, name: "more")
        let schema = try SchemaLoader.load(path: workspace.schemaPath)
        let migrations = try MigrationFiles.load(schemaPath: workspace.schemaPath)
        let work = CompileWork()
        let differences = try CompileWork.$current.withValue(work) { try MigrationVerifier.differences(schema: schema, migrations: migrations) }
        #expect(differences.isEmpty)
        #expect(work.introspectedTables == 41 + 1)
        #expect(work.reusedTables == 40 + 41)
        // A column the migrations do not add is still found.
        let ahead = try SchemaLoader.load(
            contents: yaml.replacingOccurrences(of: "      extra: text?\n", with: "      extra: text?\n      more: text?\n"), path: workspace.schemaPath)
        #expect(try MigrationVerifier.differences(schema: ahead, migrations: migrations).map(\.description).contains { $0.contains("more") })
    }
}
