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

    /// Small numbers in a DATE/TIMESTAMP column, or in a column named like a date, outside a Core
    /// Data store: seconds since 1970 before 2001, or seconds since 2001 (Core Data's reference
    /// date) before 2033? The census cannot settle it: a warning with examples, both readings of
    /// the largest and the `dateFormat:` to write; the type stays what it was.
    @Test func smallNumbersInADateColumnAreAWarningWithExamples() throws {
        let result = try introspect(
            """
            CREATE TABLE note (id INTEGER PRIMARY KEY, created TIMESTAMP, modified_at INTEGER, updatedAt REAL, due INTEGER, recent DATETIME);
            INSERT INTO note VALUES (1, 754123500.5, 754123600, 754123600.25, 19700, 1709294400);
            INSERT INTO note VALUES (2, 754200000, 754200100, NULL, 19701, 1709294401);
            """)
        let created = try #require(result.warnings.first { $0.hasPrefix("note.created: ") }, "\(result.warnings)")
        #expect(created.contains("declared TIMESTAMP and holds numbers the census cannot settle (754123500.5, 754200000)"), "\(created)")
        #expect(created.contains("the largest, 754200000, is 1993-11-25 04:00:00"), "\(created)")
        #expect(created.contains("(`dateFormat: referenceDate`, Core Data's) it is 2024-11-25 04:00:00"), "\(created)")
        #expect(created.contains("write `dateFormat: referenceDate` if they count from 2001, `dateFormat: unixSeconds` if from 1970"), "\(created)")
        let modified = try #require(result.warnings.first { $0.hasPrefix("note.modified_at: ") }, "\(result.warnings)")
        #expect(modified.contains("named like a date and holds numbers the census cannot settle (754123600, 754200100)"), "\(modified)")
        #expect(modified.contains("typed int: if they are dates, declare it `{ type: date, dateFormat: unixSeconds }` or `{ type: date, dateFormat: referenceDate }`"), "\(modified)")
        #expect(result.warnings.contains { $0.hasPrefix("note.updatedAt: named like a date") && $0.contains("typed double") }, "\(result.warnings)")
        // Not named like a date, or numbers only 1970-seconds can be (after 2001-09): no guess.
        #expect(!result.warnings.contains { $0.hasPrefix("note.due") || $0.hasPrefix("note.recent") }, "\(result.warnings)")
        // The warning is beside the column in the YAML, and the types are what they were.
        #expect(result.yaml.contains("      # declared TIMESTAMP and holds numbers the census cannot settle (754123500.5, 754200000)"), "\(result.yaml)")
        #expect(result.yaml.contains(#"created: { type: date?, sqlType: "TIMESTAMP" }"#), "\(result.yaml)")
        #expect(result.yaml.contains(#"modifiedAt: { type: int?, column: modified_at }"#), "\(result.yaml)")
        #expect(result.yaml.contains(#"recent: { type: date?, sqlType: "DATETIME" }"#), "\(result.yaml)")
        // Writing what the warning says reads the values as the dates they are.
        let fixed = result.yaml.replacingOccurrences(
            of: #"created: { type: date?, sqlType: "TIMESTAMP" }"#, with: #"created: { type: date?, sqlType: "TIMESTAMP", dateFormat: referenceDate }"#)
        let schema = try SchemaLoader.load(contents: fixed, path: "Dates.schema.yml")
        #expect(schema.table(named: "note")?.column(named: "created")?.dateFormat == .referenceDate)
    }
}

/// What introspect keeps as a comment is not in what the first migration creates: each such
/// warning says a baseline refuses the database while it has it, and what to do; and the
/// baseline's check does refuse, naming it.
@Suite struct KeptAsACommentTests {
    @Test(arguments: [
        ("CREATE TABLE t (id INTEGER PRIMARY KEY, a INT, b INT GENERATED ALWAYS AS (a * 2));",
         "table t: generated column b", "make it an ordinary column", "column t.b is in the database"),
        ("CREATE TABLE p (a INT NOT NULL, b INT NOT NULL, PRIMARY KEY (a, b)); CREATE TABLE c (id INTEGER PRIMARY KEY, a INT, b INT, FOREIGN KEY (a, b) REFERENCES p (a, b));",
         "table c: foreign key (a, b) → p(a, b) has more than one column", "replace it with a single-column key", "table c: foreign key (a, b) → p(a, b)"),
        ("CREATE TABLE p (id INTEGER PRIMARY KEY, code TEXT); CREATE TABLE c (id INTEGER PRIMARY KEY, code TEXT REFERENCES p (code));",
         "refers to a column that is neither a primary key nor unique", "make the referenced column unique", "table c: foreign key (code) → p(code)"),
        ("PRAGMA foreign_keys = OFF; CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE c (id INTEGER PRIMARY KEY, pid TEXT REFERENCES p (id)); INSERT INTO p VALUES (1); INSERT INTO c VALUES (1, 'x');",
         "joins a text column to a int one", "make the values of both columns one type", "table c: foreign key (pid) → p(id)"),
        ("CREATE TABLE t (id INTEGER PRIMARY KEY); CREATE TABLE log (msg TEXT);",
         "table log has no primary key", "rebuild the table with one", "table log is in the database"),
        ("CREATE TABLE t (id INTEGER PRIMARY KEY); CREATE VIRTUAL TABLE box USING rtree(id, minX, maxX);",
         "virtual table box;", "keep it in another database file, or drop it", "table box is in the database"),
        ("CREATE TABLE k (a INT, b INT, PRIMARY KEY (a, b));",
         "k.a: a primary key column that allows NULL; the schema declares it NOT NULL", "rebuild the table with NOT NULL on it", "column k.a has nullable"),
    ])
    func theWarningSaysTheBaselineRefusesAndWhatToDo(_ sql: String, _ what: String, _ fix: String, _ refusal: String) throws {
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn in try conn.execute(sql: sql) }
        try db.read { conn in
            let result = try DatabaseAdopter.introspect(conn, databaseName: "Kept", sourceName: "kept.sqlite")
            let warning = try #require(result.warnings.first { $0.contains(what) }, "\(result.warnings)")
            #expect(warning.contains("`migrate --baseline` refuses the database"), "\(warning)")
            #expect(warning.contains(fix) && warning.hasSuffix("then introspect again"), "\(warning)")
            // The first migration `strata migration new` writes, and what the baseline's check says.
            let schema = try SchemaLoader.load(contents: result.yaml, path: "Kept.schema.yml")
            let plan = try MigrationPlanner.plan(schema: schema, migrations: [])
            let first = Migration(
                version: 1, name: "initial", sql: MigrationRenderer.render(plan, version: 1, name: "initial", schemaFile: "Kept.schema.yml"))
            let differences = try MigrationBaseline.differences(conn, first: first)
            #expect(differences.contains { $0.contains(refusal) }, "\(differences)")
        }
    }
}
