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
    func adopt(_ sql: String) throws -> (yaml: String, warnings: [String], differences: [SchemaDifference]) {
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn in try conn.execute(sql: sql) }
        return try db.read { conn in
            let result = try DatabaseAdopter.introspect(conn, databaseName: "Adopted", sourceName: "test.sqlite")
            let schema = try SchemaLoader.load(contents: result.yaml, path: "Adopted.schema.yml")
            let differences = SchemaDiff.compare(from: try SchemaIntrospector.introspect(conn), to: try MigrationReplay.declaredStructure(of: schema))
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

/// Dates other tools wrote as numbers that are not Unix seconds are typed `date` with the
/// `dateFormat:` the census settles (a Core Data store's marker tables settle `referenceDate`);
/// numbers of such a format beside text dates are typed `double` with a warning that names them.
@Suite struct NumericDateTests {
    func introspect(_ sql: String) throws -> DatabaseAdopter.Result {
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn in try conn.execute(sql: sql) }
        return try db.read { conn in try DatabaseAdopter.introspect(conn, databaseName: "Dates", sourceName: "dates.sqlite") }
    }

    @Test func julianDaysAndMillisecondsAreNotReadAsUnixSeconds() throws {
        let result = try introspect(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, julian DATE, millis DATETIME, unix DATETIME, iso DATETIME);
            INSERT INTO t VALUES (1, 2460400.5, 1711972800000, 1711972800, '2024-04-01 12:00:00');
            INSERT INTO t VALUES (2, 2460401.25, 1711972800123, 1711972801, NULL);
            """)
        #expect(result.yaml.contains(#"julian: { type: date?, sqlType: "DATE", dateFormat: julianDay }"#), "\(result.yaml)")
        #expect(result.yaml.contains(#"millis: { type: date?, sqlType: "DATETIME", dateFormat: unixMilliseconds }"#), "\(result.yaml)")
        #expect(result.yaml.contains(#"unix: { type: date?, sqlType: "DATETIME" }"#), "\(result.yaml)")
        #expect(result.yaml.contains(#"iso: { type: date?, sqlType: "DATETIME" }"#), "\(result.yaml)")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        // The YAML compiles, and its DDL is the database's.
        let schema = try SchemaLoader.load(contents: result.yaml, path: "Dates.schema.yml")
        let table = try #require(schema.table(named: "t"))
        #expect(table.column(named: "julian")?.dateFormat == .julianDay)
        #expect(table.column(named: "millis")?.dateFormat == .unixMilliseconds)
    }

    @Test func numbersOfAFormatBesideTextDatesStayAWarning() throws {
        let result = try introspect(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, mixed DATETIME);
            INSERT INTO t VALUES (1, 2460400.5), (2, '2024-04-01 12:00:00');
            """)
        #expect(result.yaml.contains(#"mixed: { type: double?, sqlType: "DATETIME" }"#), "\(result.yaml)")
        #expect(result.warnings.contains { $0.contains("t.mixed") && $0.contains("Julian day numbers") && $0.contains("2460400.5") && $0.contains("1 text") },
                "\(result.warnings)")
    }

    @Test func aCoreDataStoresDatesAreItsSeconds() throws {
        let result = try introspect(
            """
            CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATIONDATE TIMESTAMP, ZTITLE VARCHAR);
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO ZNOTE VALUES (1, 1, 1, 754123500.5, 'Milk');
            """)
        #expect(result.yaml.contains(#"zcreationdate: { type: date?, column: ZCREATIONDATE, sqlType: "TIMESTAMP", dateFormat: referenceDate }"#), "\(result.yaml)")
        #expect(!result.warnings.contains { $0.contains("ZCREATIONDATE") }, "\(result.warnings)")
    }
}
