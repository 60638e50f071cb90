import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataCompiler

/// `strata introspect` as a stage (database → YAML) and through the real CLI, and the schema
/// features adoption brought: views, triggers, per-table `strict`, `withoutRowid`, `checks`,
/// `sqlType`.
@Suite struct IntrospectTests {
    /// The YAML for a database built by `sql` in memory, and that database's structure.
    func introspect(_ sql: String, name: String = "Adopted") throws -> (DatabaseAdopter.Result, DatabaseSchema) {
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn in try conn.execute(sql: sql) }
        return try db.read { conn in
            (try DatabaseAdopter.introspect(conn, databaseName: name, sourceName: "test.sqlite"), try SchemaIntrospector.introspect(conn))
        }
    }

    /// Introspects, loads the YAML with every check, and expects what its DDL creates to equal
    /// the database: the condition a baseline checks.
    @discardableResult
    func roundTrip(_ sql: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> (DatabaseAdopter.Result, Schema) {
        let (result, live) = try introspect(sql)
        #expect(!result.yaml.contains("UNIQUE ("), "composite UNIQUE constraints are declared, not comments", sourceLocation: sourceLocation)
        let schema: Schema
        do {
            schema = try SchemaLoader.load(contents: result.yaml, path: "Adopted.schema.yml")
        } catch {
            Issue.record("the introspected YAML does not load: \(error)\n\(result.yaml)", sourceLocation: sourceLocation)
            throw error
        }
        let declared = try MigrationReplay.declaredStructure(of: schema)
        #expect(SchemaDiff.compare(from: live, to: declared) == [], "\(result.yaml)", sourceLocation: sourceLocation)
        let (again, _) = try introspect(sql)
        #expect(again == result, "introspecting again gives the same YAML", sourceLocation: sourceLocation)
        return (result, schema)
    }

    @Test func namesFollowTheGeneratorsRules() {
        #expect(SwiftNames.recordName(forTable: "invoice_items") == "InvoiceItems")
        #expect(SwiftNames.recordName(forTable: "Artist") == "Artist")
        #expect(SwiftNames.recordName(forTable: "my table") == "MyTable")
        #expect(SwiftNames.recordName(forTable: "2fa_codes") == "_2faCodes")
        #expect(SwiftNames.propertyName(forColumn: "ArtistId") == "artistId")
        #expect(SwiftNames.propertyName(forColumn: "first_name") == "firstName")
        #expect(SwiftNames.propertyName(forColumn: "FIRST_NAME") == "firstName")
        #expect(SwiftNames.propertyName(forColumn: "ID") == "id")
        #expect(SwiftNames.propertyName(forColumn: "URLPath") == "urlPath")
        #expect(SwiftNames.propertyName(forColumn: "default") == "default")
        var names = RecordNames(databaseName: "Shop")
        #expect(names.make(for: "Data") == "DataRecord")
        #expect(names.make(for: "shop") == "ShopRecord")
        #expect(names.make(for: "class") == "Class")
        #expect(names.make(for: "CLASS_") == "Class2", "FIRST_NAME-style capitals read as a word; the collision gets a number")
        #expect(names.make(for: "Type") == "TypeRecord")
        #expect(names.make(for: "orders") == "Orders")
        #expect(names.make(for: "Orders") == "Orders2")
    }

    @Test func hostileNamesRoundTrip() throws {
        let (result, schema) = try roundTrip(
            #"""
            CREATE TABLE "Data" ("ID" INTEGER PRIMARY KEY, "first name" TEXT, "first_name" TEXT, "firstName" TEXT, "default" INT NOT NULL DEFAULT -1, "null" TEXT DEFAULT 'it''s', "a""b" REAL);
            CREATE TABLE "my table" (k TEXT PRIMARY KEY NOT NULL, "2fa" BLOB, ref INTEGER REFERENCES "Data"("ID") ON DELETE SET NULL ON UPDATE CASCADE);
            CREATE TABLE "order" ("class" TEXT NOT NULL, "Type" INTEGER NOT NULL, PRIMARY KEY ("class", "Type")) WITHOUT ROWID;
            """#)
        #expect(schema.tables.map(\.recordName) == ["DataRecord", "MyTable", "Order"])
        #expect(schema.tables[0].columns.map(\.name) == ["id", "firstName", "firstName2", "firstName3", "default", "null", "aB"])
        #expect(schema.tables[1].columns.map(\.name) == ["k", "_2fa", "ref"])
        #expect(schema.tables[1].columns[2].references == ForeignKey(table: "DataRecord", column: "id", onDelete: .setNull, onUpdate: .cascade))
        #expect(schema.tables[2].isWithoutRowid)
        #expect(schema.tables[2].primaryKey == ["class", "type"])
        #expect(result.warnings.isEmpty, "\(result.warnings)")
    }

    @Test func typesComeFromTheDeclaredTypeAndTheValues() throws {
        let (result, schema) = try roundTrip(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, a BIGINT, b NVARCHAR(20), c CLOB, d BLOB, e, f REAL, g FLOAT, h DOUBLE PRECISION,
              i NUMERIC, j DECIMAL(10, 2), k BOOLEAN, l BOOL, m DATE, n DATETIME, o TIMESTAMP, p UUID, q GUID,
              bad_date DATETIME, bad_bool BOOLEAN, big_bool BOOLEAN, anything, numbers);
            INSERT INTO t VALUES (1, 1, 'x', 'y', x'00', x'01', 1.5, 2, 3, 4, 5.25, 1, 0, '2024-01-01', '2024-01-01 10:00:00', 1700000000,
              'E621E1F8-C36C-495A-93FC-0C247A3E6E5F', NULL, 'soon', 'yes', 2, 'text', 1);
            INSERT INTO t VALUES (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
              NULL, NULL, '2024-01-01', 1, 0, 3, 2.5);
            """)
        let types = Dictionary(uniqueKeysWithValues: schema.tables[0].columns.map { ($0.sqlName, $0.type.keyword) })
        #expect(types["a"] == "int")
        #expect(types["b"] == "text" && types["c"] == "text")
        #expect(types["d"] == "blob" && types["e"] == "blob")
        #expect(types["f"] == "double" && types["g"] == "double" && types["h"] == "double")
        #expect(types["i"] == "double" && types["j"] == "double")
        #expect(types["k"] == "bool" && types["l"] == "bool")
        #expect(types["m"] == "date" && types["n"] == "date" && types["o"] == "date")
        #expect(types["p"] == "uuid" && types["q"] == "uuid")
        #expect(types["bad_date"] == "text")
        #expect(types["bad_bool"] == "text")
        #expect(types["big_bool"] == "int")
        #expect(types["anything"] == "text")
        #expect(types["numbers"] == "double")
        #expect(result.warnings.contains { $0.contains("t.bad_date") && $0.contains("'soon'") })
        #expect(result.warnings.contains { $0.contains("t.bad_bool") && $0.contains("'yes'") })
        #expect(result.warnings.contains { $0.contains("t.big_bool") && $0.contains("2") })
        #expect(result.yaml.contains(#"j: { type: double?, sqlType: "DECIMAL(10, 2)" }"#))
    }

    @Test func constraintsIndexesViewsAndTriggersRoundTrip() throws {
        let (result, schema) = try roundTrip(
            """
            CREATE TABLE parent (id INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT NOT NULL UNIQUE CHECK (length(code) = 3),
              created TEXT DEFAULT CURRENT_TIMESTAMP, qty INTEGER DEFAULT (1 + 1), lo INT, hi INT, CHECK (lo <= hi), CHECK (hi < 100), UNIQUE (lo, hi)) STRICT;
            CREATE TABLE child (parent_code TEXT NOT NULL REFERENCES parent(code) ON DELETE CASCADE, n INTEGER NOT NULL, note TEXT,
              PRIMARY KEY (parent_code, n));
            CREATE INDEX child_note ON child (note) WHERE note IS NOT NULL AND n > 0;
            CREATE UNIQUE INDEX child_n ON child (n, note);
            CREATE VIEW "parent codes" AS SELECT code FROM parent;
            CREATE VIEW counted (code, total) AS SELECT parent_code, count(*) FROM child GROUP BY 1;
            CREATE TRIGGER child_touch AFTER INSERT ON child BEGIN UPDATE parent SET qty = qty + 1 WHERE code = NEW.parent_code; END;
            """)
        #expect(schema.options.strict == false)
        #expect(schema.tables[0].strict == true)
        #expect(schema.tables[0].checks == ["lo <= hi", "hi < 100"])
        #expect(schema.tables[0].uniqueConstraints == [["lo", "hi"]])
        #expect(result.yaml.contains("    unique: [[lo, hi]]\n"))
        #expect(schema.tables[0].columns[1].check == "length(code) = 3")
        #expect(schema.tables[0].columns[1].isUnique)
        #expect(schema.tables[1].indexes.map(\.whereClause) == [nil, "note IS NOT NULL AND n > 0"])
        #expect(schema.views.map(\.name) == ["parent codes", "counted"])
        #expect(schema.views[0].sql == "SELECT code FROM parent")
        #expect(schema.views[1].sql.hasPrefix("CREATE VIEW counted (code, total)"))
        #expect(schema.triggers.map(\.name) == ["child_touch"])
        #expect(result.warnings.isEmpty, "\(result.warnings)")
    }

    @Test func whatASchemaCannotExpressIsACommentAndAWarning() throws {
        let (result, _) = try introspect(
            """
            CREATE TABLE a (x INTEGER, y INTEGER, PRIMARY KEY (x, y));
            CREATE TABLE b (id INTEGER PRIMARY KEY, x INTEGER, y INTEGER, name TEXT COLLATE NOCASE, twice INTEGER GENERATED ALWAYS AS (x * 2),
              FOREIGN KEY (x, y) REFERENCES a (x, y), UNIQUE (x, y));
            CREATE INDEX b_lower ON b (lower(name));
            CREATE INDEX b_desc ON b (x DESC);
            CREATE TABLE c (v TEXT);
            CREATE VIRTUAL TABLE docs USING fts5(body);
            """)
        for fragment in ["generated column twice", "FOREIGN KEY (x, y) → a(x, y)", "CREATE TABLE c (v TEXT);", "CREATE VIRTUAL TABLE docs USING fts5(body);"] {
            #expect(result.yaml.contains("# " + fragment) || result.yaml.contains(fragment), "\(fragment)\n\(result.yaml)")
        }
        for fragment in ["generated column twice", "more than one column", "table c has no primary key", "virtual table docs", "shadow table"] {
            #expect(result.warnings.contains { $0.contains(fragment) }, "\(fragment): \(result.warnings)")
        }
        // Collations, sort orders and expressions are declared (CollationTests has more).
        #expect(!result.warnings.contains { $0.contains("collat") || $0.contains("b_lower") || $0.contains("b_desc") }, "\(result.warnings)")
        for fragment in ["name: { type: text?, collate: nocase }", "- { name: b_lower, expression: \"lower(name)\" }", "- { name: b_desc, columns: [\"x DESC\"] }"] {
            #expect(result.yaml.contains(fragment), "\(fragment)\n\(result.yaml)")
        }
        // What remains still loads.
        _ = try SchemaLoader.load(contents: result.yaml, path: "Adopted.schema.yml")
    }

    @Test func declaredViewsAndTriggersAreVerifiedAndMigrated() throws {
        let workspace = try MigrationWorkspace()
        let base = """
            database: Shop
            tables:
              Item:
                columns:
                  id: { type: int, primaryKey: true }
                  price: double
            """
        try workspace.evolve(to: base + "\nviews:\n  cheap: \"SELECT id FROM Item WHERE price < 10\"\n", name: "initial")
        let db = try workspace.open()
        try workspace.migrate(db)
        try db.execute("INSERT INTO Item VALUES (1, 5), (2, 50)")
        #expect(try db.rows("SELECT count(*) FROM cheap") == [[.integer(1)]])

        // A changed view and a new trigger: the migration drops and recreates the view.
        let second = base + """

            views:
              cheap: "SELECT id FROM Item WHERE price < 100"
            triggers:
              item_guard: "CREATE TRIGGER item_guard BEFORE INSERT ON Item WHEN NEW.price < 0 BEGIN SELECT RAISE(ABORT, 'negative'); END"
            """
        let text = try #require(try workspace.evolve(to: second, name: "views"))
        #expect(text.contains("DROP VIEW \"cheap\""))
        #expect(text.contains("CREATE TRIGGER item_guard"))
        try workspace.migrate(db)
        #expect(try db.rows("SELECT count(*) FROM cheap") == [[.integer(2)]])
        #expect(throws: StrataError.self) { try db.execute("INSERT INTO Item VALUES (3, -1)") }
        try workspace.expectClean(db)

        // The verifier compares them: a view the migrations lack is a difference …
        let third = second.replacingOccurrences(of: "views:\n", with: "views:\n  extra: \"SELECT 1\"\n")
        let schema = try SchemaLoader.load(contents: third, path: workspace.schemaPath)
        let differences = try MigrationVerifier.differences(schema: schema, migrations: try MigrationFiles.load(schemaPath: workspace.schemaPath))
        #expect(differences.map(\.description) == ["view extra is declared but the migrations do not create it"])
        // … and a schema that declares none leaves the migrations' views alone.
        let plain = try SchemaLoader.load(contents: base, path: workspace.schemaPath)
        #expect(try MigrationVerifier.differences(schema: plain, migrations: try MigrationFiles.load(schemaPath: workspace.schemaPath)) == [])
    }

    @Test func viewsAndTriggersAreCheckedAgainstTheTables() throws {
        let yaml = """
            tables:
              Item:
                columns:
                  id: { type: int, primaryKey: true }
            views:
              bad: "SELECT nope FROM Item"
            triggers:
              loose: "DELETE FROM Item"
              wrong: "CREATE TRIGGER wrong AFTER INSERT ON Missing BEGIN SELECT 1; END"
            """
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-views-\(UUID().uuidString).schema.yml")
        try Data(yaml.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let messages = SchemaLoader.check(path: url.path).diagnostics.map { "\($0.location.line): \($0.message)" }
        #expect(messages.contains { $0.hasPrefix("6: SQLite rejects view 'bad'") && $0.contains("no such column: nope") }, "\(messages)")
        #expect(messages.contains("8: trigger 'loose' must be a CREATE TRIGGER statement"), "\(messages)")
        #expect(messages.contains { $0.hasPrefix("9: SQLite rejects trigger 'wrong'") && $0.contains("Missing") }, "\(messages)")
    }

    @Test func aWideTableIsCountedInChunks() throws {
        let columns = (1...450).map { "c\($0) INTEGER" }.joined(separator: ", ")
        let (result, schema) = try roundTrip("CREATE TABLE wide (id INTEGER PRIMARY KEY, \(columns)); INSERT INTO wide (id, c450) VALUES (1, 2);")
        #expect(schema.tables[0].columns.count == 451)
        #expect(result.warnings.isEmpty)
    }

    @Test func canonicallyEquivalentNamesAreTwoTables() throws {
        // `café` with a precomposed `é` and with `e` and a combining accent: two tables to
        // SQLite, equal to Swift's `==`. The pragmas read for every table at once must not
        // pour one's columns, keys and options into the other.
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn in
            try conn.execute(sql: """
                CREATE TABLE "caf\u{E9}" (id INTEGER PRIMARY KEY, p TEXT REFERENCES other) STRICT;
                CREATE TABLE "cafe\u{301}" (id TEXT PRIMARY KEY, q TEXT UNIQUE) WITHOUT ROWID;
                CREATE TABLE other (k INTEGER PRIMARY KEY);
                CREATE INDEX "cafe\u{301}_q" ON "cafe\u{301}" (q DESC);
                """)
        }
        let structure = try db.read { conn in try SchemaIntrospector.introspect(conn) }
        let precomposed = try #require(structure.table(named: "caf\u{E9}"))
        let combining = try #require(structure.table(named: "cafe\u{301}"))
        #expect(SQLName.identical(precomposed.name, "caf\u{E9}") && SQLName.identical(combining.name, "cafe\u{301}"))
        #expect(precomposed.columns.map(\.name) == ["id", "p"])
        #expect(precomposed.primaryKey == ["id"] && precomposed.columns[0].isNotNull)
        #expect(precomposed.isStrict && !precomposed.isWithoutRowid)
        #expect(precomposed.foreignKeys.map(\.parentColumns) == [["k"]] && precomposed.uniqueConstraints.isEmpty)
        #expect(combining.columns.map(\.name) == ["id", "q"])
        #expect(combining.isWithoutRowid && !combining.isStrict)
        #expect(combining.foreignKeys.isEmpty && combining.uniqueConstraints == [["q"]])
        #expect(structure.indexes.map(\.columns) == [["q DESC"]])
        #expect(SQLName.identical(structure.indexes[0].table, "cafe\u{301}"))
    }

    @Test func aDatabaseWithNothingToDescribeIsAnError() throws {
        #expect {
            try introspect("CREATE TABLE loose (v TEXT)")
        } throws: { error in
            "\(error)".contains("no table a schema file can describe") && "\(error)".contains("table loose has no primary key")
        }
        #expect(throws: StrataError.self) {
            try DatabaseAdopter.introspect(databasePath: "/nonexistent/strata.sqlite", databaseName: "X")
        }
    }

    @Test func tableOptionsRenderInTheDDL() throws {
        let schema = try SchemaLoader.load(
            contents: """
                options: { strict: false }
                tables:
                  A:
                    strict: true
                    withoutRowid: true
                    checks: ["a <> b"]
                    primaryKey: [a, b]
                    columns:
                      a: int
                      b: { type: int, sqlType: "INT" }
                  B:
                    unique: [flag, raw]
                    columns:
                      id: { type: int, primaryKey: true }
                      flag: { type: bool, sqlType: "BOOLEAN" }
                      raw: { type: blob?, sqlType: "" }
                """, path: "Options.schema.yml")
        let ddl = SQLRenderer.ddl(for: schema)
        #expect(ddl[0].hasSuffix(") STRICT, WITHOUT ROWID"))
        #expect(ddl[0].contains("CHECK (a <> b)"))
        #expect(ddl[0].contains(#""b" INT NOT NULL"#))
        #expect(ddl[1].hasSuffix(")"))
        #expect(ddl[1].contains(#""flag" BOOLEAN NOT NULL,"#), "no CHECK of Strata's own with a sqlType")
        #expect(ddl[1].contains(#""raw""#) && !ddl[1].contains(#""raw" BLOB"#))
        #expect(ddl[1].contains(#"UNIQUE ("flag", "raw")"#))
        #expect(throws: DiagnosticsError.self) {
            try SchemaLoader.load(contents: "tables:\n  T:\n    unique: [[id, nope]]\n    columns:\n      id: { type: int, primaryKey: true }\n", path: "U.schema.yml")
        }
    }

    // MARK: - The real CLI

    func strata(_ arguments: String..., in directory: URL) throws -> StrataExecutable.Result {
        try StrataExecutable.run(arguments, in: directory)
    }

    @Test func introspectCheckBaselineThroughTheCLI() throws {
        let workspace = try MigrationWorkspace(name: "Legacy")
        let path = workspace.url.appendingPathComponent("legacy.sqlite").path
        do {
            let db = try Database(path: path)
            try db.writeWithoutTransaction { conn in
                try conn.execute(
                    sql: """
                        CREATE TABLE people (id INTEGER PRIMARY KEY AUTOINCREMENT, name VARCHAR(40) NOT NULL, born DATE, active BOOLEAN DEFAULT 1);
                        INSERT INTO people (name, born, active) VALUES ('Ann', '1966-03-02', 1), ('Bob', 'unknown', 0);
                        PRAGMA journal_mode = DELETE;
                        """)
            }
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let introspect = try strata("introspect", "legacy.sqlite", "--output", "Legacy.schema.yml", in: workspace.url)
        #expect(introspect.status == 0, "\(introspect.stderr)")
        #expect(introspect.stdout.contains("wrote Legacy.schema.yml"))
        #expect(introspect.stderr.contains("warning: people.born: declared DATE but holds 1 value(s) Strata cannot read as dates ('unknown')"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.url.path).sorted() == ["Legacy.schema.yml", "legacy.sqlite"])
        let yaml = try String(contentsOfFile: workspace.schemaPath, encoding: .utf8)
        #expect(yaml.contains("database: Legacy\n"))
        #expect(yaml.contains("  People:\n    table: people\n"))

        #expect(try strata("check", "Legacy.schema.yml", in: workspace.url).status == 0)
        #expect(try strata("migration", "new", "Legacy.schema.yml", "--name", "initial", in: workspace.url).status == 0)

        // A database that differs is refused, and left as it was.
        let other = workspace.url.appendingPathComponent("other.sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: other)
        do {
            let db = try Database(path: other)
            try db.writeWithoutTransaction { conn in
                try conn.execute(sql: "CREATE INDEX people_name ON people (name); PRAGMA journal_mode = DELETE;")
            }
        }
        let otherBefore = try Data(contentsOf: URL(fileURLWithPath: other))
        let refused = try strata("migrate", "Legacy.schema.yml", "--database", "other.sqlite", "--baseline", in: workspace.url)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("baseline refused"))
        #expect(refused.stderr.contains("index people_name (on people (name)) is in the database but not created by the migration"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == otherBefore)

        let baseline = try strata("migrate", "Legacy.schema.yml", "--database", "legacy.sqlite", "--baseline", in: workspace.url)
        #expect(baseline.status == 0, "\(baseline.stderr)")
        #expect(baseline.stdout.contains("recorded as applied (baseline)"))
        let status = try strata("status", "Legacy.schema.yml", "--database", "legacy.sqlite", in: workspace.url)
        #expect(status.stdout.contains("version: 1 (latest: 1)"))
        let again = try strata("migrate", "Legacy.schema.yml", "--database", "legacy.sqlite", "--baseline", in: workspace.url)
        #expect(again.status == 1)
        #expect(again.stderr.contains("already has a migration history"))

        // Re-introspecting the adopted database gives the same YAML.
        #expect(try strata("introspect", "legacy.sqlite", "--output", "Again.schema.yml", "--database", "Legacy", in: workspace.url).status == 0)
        let againYAML = try String(contentsOf: workspace.url.appendingPathComponent("Again.schema.yml"), encoding: .utf8)
        #expect(againYAML == yaml)
    }
}
