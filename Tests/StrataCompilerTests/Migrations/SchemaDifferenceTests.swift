import Strata
import Testing
@testable import StrataCompiler

/// The one structural comparison (`SchemaDiff.compare`), said in the words of the migration
/// verifier, drift and baselines, and read by the planner for its reasons to rebuild.
@Suite struct SchemaDifferenceTests {
    static func structure(_ sql: String) throws -> DatabaseSchema {
        let db = try Database.inMemory()
        return try db.writeWithoutTransaction { conn in
            try conn.execute(sql: sql)
            return try SchemaIntrospector.introspect(conn)
        }
    }

    /// What exists: the migrations' structure, or a live database.
    static let current = """
        CREATE TABLE parent (id INTEGER PRIMARY KEY);
        CREATE TABLE item (id INTEGER PRIMARY KEY, score INTEGER, note TEXT NOT NULL DEFAULT '', gone TEXT, UNIQUE (note));
        CREATE TABLE extra (id INTEGER PRIMARY KEY);
        CREATE INDEX item_score ON item (score);
        """
    /// What should: the declared schema, or what the migrations create.
    static let target = """
        CREATE TABLE parent (id INTEGER PRIMARY KEY);
        CREATE TABLE item (
          id INTEGER PRIMARY KEY, score REAL NOT NULL CHECK (score >= 0), note TEXT NOT NULL DEFAULT '-',
          parentId INTEGER REFERENCES parent (id)
        ) STRICT;
        CREATE TABLE fresh (id INTEGER PRIMARY KEY);
        CREATE UNIQUE INDEX item_score ON item (score);
        """

    @Test func oneComparisonInThreeWordings() throws {
        let differences = SchemaDiff.compare(from: try Self.structure(Self.current), to: try Self.structure(Self.target))
        #expect(differences.map { $0.sentence(.schema) } == [
            "column item.score changes type from INTEGER to REAL, becomes NOT NULL",
            "column item.note changes default from '' to '-'",
            "column item.parentId is declared but missing",
            "column item.gone exists but is not declared",
            "table item is STRICT in the schema but not STRICT in the migrations",
            "table item: foreign key (parentId) → parent(id) is declared but missing",
            "table item: UNIQUE (note) exists but is not declared",
            "table item: CHECK (score >= 0) is declared but missing",
            "table fresh is declared but the migrations do not create it",
            "table extra is created by the migrations but not declared",
            "index item_score is unique on item (score) in the schema but on item (score) in the migrations",
        ])
        #expect(differences.map { $0.sentence(.drift) } == [
            "column item.score has type INTEGER (the migrations give REAL), nullable (the migrations make it NOT NULL)",
            "column item.note has default '' (the migrations give '-')",
            "column item.parentId is missing (the migrations create it)",
            "column item.gone is in the database but no migration creates it",
            "table item is STRICT in the migrations but not STRICT in the database",
            "table item: foreign key (parentId) → parent(id) is missing (the migrations create it)",
            "table item: UNIQUE (note) is in the database but no migration creates it",
            "table item: CHECK (score >= 0) is missing (the migrations create it)",
            "table fresh is missing (the migrations create it)",
            "table extra is in the database but no migration creates it",
            "index item_score is unique on item (score) in the migrations but on item (score) in the database",
        ])
        let baseline = differences.map { $0.sentence(.baseline) }
        #expect(baseline[0] == "column item.score has type INTEGER (the migration gives REAL), nullable (the migration makes it NOT NULL)")
        #expect(baseline[2] == "column item.parentId is created by the migration but missing from the database")
        #expect(baseline[3] == "column item.gone is in the database but not created by the migration")
        #expect(baseline[10] == "index item_score is unique on item (score) in the migration but on item (score) in the database")
        // No sentence of the database's side speaks of a declared schema.
        #expect(!(differences.map { $0.sentence(.drift) } + baseline).contains { $0.contains("declared") || $0.contains("in the schema") })
    }

    @Test func equalStructuresHaveNoDifferences() throws {
        let spelledOtherwise = #"CREATE TABLE "PARENT" ("ID" integer primary key); CREATE TABLE Item (id INTEGER PRIMARY KEY, score REAL NOT NULL CHECK ( "score">=0 ), note text not null default '-', parentId INTEGER REFERENCES Parent(ID)) STRICT; CREATE TABLE fresh (id INTEGER PRIMARY KEY); CREATE UNIQUE INDEX item_score ON item (SCORE);"#
        #expect(SchemaDiff.compare(from: try Self.structure(spelledOtherwise), to: try Self.structure(Self.target)) == [])
    }

    /// Every difference has a typed subject, so the verifier's error points at its line; every
    /// sentence starts with that subject.
    @Test func differencesAreLocatedAtTheirColumnOrTable() throws {
        let schema = try SchemaLoader.load(
            contents: """
            tables:
              Item:
                table: item
                columns:
                  id: { type: int, primaryKey: true }
                  score: double
            """, path: "Shop.schema.yml")
        let table = try #require(schema.table(named: "Item"))
        let tableLine = try #require(table.location?.line)
        let scoreLine = try #require(table.column(named: "score")?.location?.line)
        #expect(scoreLine > tableLine)
        let locator = SchemaLocator(schema: schema)
        let differences = SchemaDiff.compare(from: try Self.structure(Self.current), to: try Self.structure(Self.target))
        let lines = differences.map { locator.locate($0.subject)?.line }
        #expect(lines[0] == scoreLine)  // column item.score
        #expect(lines[4] == tableLine)  // table item is STRICT …
        #expect(lines[8] == nil)  // table fresh: not in this schema
        for wording in [SchemaDifference.Wording.schema, .drift, .baseline] {
            for difference in differences {
                let start = switch difference.subject {
                case .column(let table, let column): "column \(table).\(column) "
                case .table(let table): "table \(table)"
                case .index(let index): "index \(index) "
                case .unlocated: ""
                }
                #expect(difference.sentence(wording).hasPrefix(start), "\(difference.sentence(wording))")
            }
        }
    }
}
