import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// Both ends of a foreign key get one type that reads the values of both, each keeping its
/// declared type in `sqlType:`, so every foreign key of the file is declared and a baseline of
/// it passes (Sakila: `actor.actor_id numeric` referenced by `film_actor.actor_id INT`).
@Suite struct ForeignKeyTypeTests {
    /// Introspects `sql`; returns the YAML, the warnings, and the differences between the
    /// database and what the YAML's DDL creates (what a baseline checks).
    func adopt(_ sql: String) throws -> (yaml: String, warnings: [String], differences: [String]) {
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn in try conn.execute(sql: sql) }
        return try db.read { conn in
            let result = try DatabaseAdopter.introspect(conn, databaseName: "Adopted", sourceName: "test.sqlite")
            let schema = try SchemaLoader.load(contents: result.yaml, path: "Adopted.schema.yml")
            let differences = SchemaDiff.differences(from: try SchemaIntrospector.introspect(conn), to: try MigrationReplay.declaredStructure(of: schema))
            return (result.yaml, result.warnings, differences)
        }
    }

    @Test func aNumericKeyHoldingNothingReferencedByIntColumnsIsInt() throws {
        let (yaml, warnings, differences) = try adopt(
            """
            CREATE TABLE actor (actor_id numeric NOT NULL, name VARCHAR(45) NOT NULL, PRIMARY KEY (actor_id));
            CREATE TABLE film_actor (actor_id INT NOT NULL, film_id INT NOT NULL, PRIMARY KEY (actor_id, film_id),
              CONSTRAINT fk_film_actor_actor FOREIGN KEY (actor_id) REFERENCES actor (actor_id) ON DELETE NO ACTION ON UPDATE CASCADE);
            """)
        #expect(yaml.contains(#"actorId: { type: int, column: actor_id, primaryKey: true, sqlType: "NUMERIC" }"#), "\(yaml)")
        #expect(yaml.contains(#"actorId: { type: int, column: actor_id, references: Actor.actorId, onUpdate: cascade, sqlType: "INT" }"#), "\(yaml)")
        #expect(!yaml.contains("FOREIGN KEY"), "no foreign key is left as a comment")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(differences.isEmpty, "\(differences)")
    }

    @Test func aNumericKeyHoldingFractionsMakesBothDouble() throws {
        let (yaml, warnings, differences) = try adopt(
            """
            CREATE TABLE price (code NUMERIC PRIMARY KEY NOT NULL, label TEXT);
            CREATE TABLE quote (id INTEGER PRIMARY KEY, code INT REFERENCES price (code));
            INSERT INTO price VALUES (1.5, 'a'), (2, 'b');
            INSERT INTO quote VALUES (1, 2);
            """)
        #expect(yaml.contains(#"code: { type: double, primaryKey: true, sqlType: "NUMERIC" }"#), "\(yaml)")
        #expect(yaml.contains(#"code: { type: double?, references: Price.code, sqlType: "INT" }"#), "\(yaml)")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(differences.isEmpty, "\(differences)")
    }

    @Test func aChainSettlesOnOneType() throws {
        let (yaml, _, differences) = try adopt(
            """
            CREATE TABLE a (id NUMERIC PRIMARY KEY NOT NULL);
            CREATE TABLE b (id SMALLINT PRIMARY KEY NOT NULL REFERENCES a (id));
            CREATE TABLE c (id INTEGER PRIMARY KEY, b_id BIGINT REFERENCES b (id));
            """)
        #expect(yaml.contains(#"id: { type: int, primaryKey: true, sqlType: "NUMERIC" }"#), "\(yaml)")
        #expect(yaml.contains("references: A.id"), "\(yaml)")
        #expect(yaml.contains("references: B.id"), "\(yaml)")
        #expect(differences.isEmpty, "\(differences)")
    }

    @Test func valuesNoTypeReadsStayAWarningAndAComment() throws {
        let (yaml, warnings, _) = try adopt(
            """
            PRAGMA foreign_keys = OFF;
            CREATE TABLE tag (name TEXT PRIMARY KEY NOT NULL);
            CREATE TABLE item (id INTEGER PRIMARY KEY, tag INT REFERENCES tag (name));
            INSERT INTO tag VALUES ('x');
            INSERT INTO item VALUES (1, 7);
            """)
        #expect(warnings.contains { $0.contains("joins a int column to a text one") }, "\(warnings)")
        #expect(yaml.contains("# FOREIGN KEY"), "\(yaml)")
    }
}
