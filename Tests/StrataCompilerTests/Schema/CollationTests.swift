import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataCompiler

/// `collate:` on columns, `options: { collations: }`, and index keys beyond plain columns
/// (`"name COLLATE NOCASE"`, `"due DESC"`, `expression:`): decoding, DDL, migrations (rebuilds
/// keep the collation), the structural comparison of the verifier and the baseline on an
/// Anki-shaped file, and `introspect → check → baseline` through the real CLI.
@Suite struct CollationTests {
    static let decks = """
        database: Anki
        options:
          strict: false
        tables:
          Deck:
            table: decks
            columns:
              id: { type: int, primaryKey: true }
              name: { type: text, collate: nocase }
              due: int
            indexes:
              - { name: idx_decks_name, columns: [name], unique: true }
        """

    func load(_ yaml: String) throws -> Schema {
        try SchemaLoader.load(contents: yaml, path: "Anki.schema.yml")
    }

    func diagnostics(_ yaml: String) -> [String] {
        do {
            _ = try SchemaLoader.load(contents: yaml, path: "Anki.schema.yml")
            return []
        } catch let error as DiagnosticsError {
            return error.diagnostics.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    // MARK: - Decoding and DDL

    @Test func aColumnCollationDecodesAndRendersInTheDDL() throws {
        let schema = try load(Self.decks)
        let deck = try #require(schema.table(named: "Deck"))
        #expect(deck.column(named: "name")?.collation == "nocase")
        #expect(deck.column(named: "due")?.collation == nil)
        let ddl = SQLRenderer.createTableSQL(deck, in: schema)
        #expect(ddl.contains("\"name\" TEXT NOT NULL COLLATE NOCASE"), "\(ddl)")
        #expect(SQLRenderer.createIndexSQL(deck.indexes[0], on: deck) == "CREATE UNIQUE INDEX \"idx_decks_name\" ON \"decks\" (\"name\")")

        let upper = try load(Self.decks.replacingOccurrences(of: "collate: nocase", with: "collate: RTRIM"))
        #expect(upper.table(named: "Deck")?.column(named: "name")?.collation == "rtrim")
    }

    @Test func anUnknownCollationIsAnErrorAtItsLineUnlessDeclared() throws {
        let misspelt = diagnostics(Self.decks.replacingOccurrences(of: "collate: nocase", with: "collate: nocse"))
        #expect(misspelt.count == 1)
        #expect(misspelt.first?.hasPrefix("Anki.schema.yml:9:") == true, "\(misspelt)")
        #expect(misspelt.first?.contains("column 'Deck.name' names the collation 'nocse'") == true, "\(misspelt)")
        #expect(misspelt.first?.contains("did you mean 'nocase'?") == true, "\(misspelt)")

        let custom = Self.decks.replacingOccurrences(of: "collate: nocase", with: "collate: unicase")
        let missing = diagnostics(custom)
        #expect(missing.count == 1)
        #expect(missing.first?.contains("'unicase', which is neither built in") == true, "\(missing)")
        #expect(missing.first?.contains("Database.Configuration(collations: [\"unicase\": …])") == true, "\(missing)")

        let declared = try load(custom.replacingOccurrences(of: "  strict: false", with: "  strict: false\n  collations: [unicase]"))
        let deck = try #require(declared.table(named: "Deck"))
        #expect(declared.options.collations == ["unicase"])
        #expect(deck.column(named: "name")?.collation == "unicase")
        #expect(SQLRenderer.createTableSQL(deck, in: declared).contains("\"name\" TEXT NOT NULL COLLATE unicase"))

        let builtIn = diagnostics(Self.decks.replacingOccurrences(of: "  strict: false", with: "  strict: false\n  collations: [nocase]"))
        #expect(builtIn.contains { $0.contains("'nocase' is one of SQLite's built-in collations") }, "\(builtIn)")
    }

    @Test func indexKeysCarryACollationOrAnOrderAndIndexesTakeAnExpression() throws {
        let yaml = """
            tables:
              Card:
                columns:
                  id: { type: int, primaryKey: true }
                  name: text
                  email: text
                  due: int
                indexes:
                  - { columns: ["name COLLATE NOCASE", "due DESC"] }
                  - { expression: "lower(email)", unique: true }
                  - { name: by_due, columns: ["due asc"], where: "due > 0" }
            """
        let schema = try load(yaml)
        let card = try #require(schema.table(named: "Card"))
        #expect(card.indexes.map(\.name) == ["Card_name_due", "Card_lower_email", "by_due"])
        #expect(card.indexes[0].columns == ["name", "due"])
        #expect(card.indexes[0].keyOptions == [.init(collation: "nocase"), .init(isDescending: true)])
        #expect(card.indexes[1].expression == "lower(email)")
        #expect(card.indexes[2].keyOptions == [])
        #expect(card.indexes.map { SQLRenderer.createIndexSQL($0, on: card) } == [
            "CREATE INDEX \"Card_name_due\" ON \"Card\" (\"name\" COLLATE NOCASE, \"due\" DESC)",
            "CREATE UNIQUE INDEX \"Card_lower_email\" ON \"Card\" (lower(email))",
            "CREATE INDEX \"by_due\" ON \"Card\" (\"due\") WHERE due > 0",
        ])

        let both = diagnostics(yaml.replacingOccurrences(of: "{ expression: \"lower(email)\", unique: true }", with: "{ columns: [email], expression: \"lower(email)\" }"))
        #expect(both.contains { $0.contains("has both 'columns' and 'expression'") }, "\(both)")
        let expressionAsKey = diagnostics(yaml.replacingOccurrences(of: "\"due asc\"", with: "\"lower(name)\""))
        #expect(expressionAsKey.contains { $0.contains("index key 'lower(name)'") && $0.contains("{ expression: \"lower(name)\" }") }, "\(expressionAsKey)")
        let unknown = diagnostics(yaml.replacingOccurrences(of: "\"due DESC\"", with: "\"dues DESC\""))
        #expect(unknown.contains { $0.contains(":9:") && $0.contains("index names unknown column 'dues'") && $0.contains("did you mean 'due'?") }, "\(unknown)")
        let badCollation = diagnostics(yaml.replacingOccurrences(of: "COLLATE NOCASE", with: "COLLATE unicase"))
        #expect(badCollation.contains { $0.contains("index key 'name COLLATE unicase' names the collation 'unicase'") }, "\(badCollation)")
        let badExpression = diagnostics(yaml.replacingOccurrences(of: "lower(email)", with: "lower(emial)"))
        #expect(badExpression.contains { $0.contains("SQLite rejects index 'Card_lower_emial'") }, "\(badExpression)")
    }

    /// The editor's JSON Schema takes the new spellings and still rejects a misspelt one.
    @Test(.enabled(if: JSONSchemaTests.validatorAvailable || ExternalTool.isCI, "python3 with jsonschema is not installed"))
    func theJSONSchemaTakesCollationsAndIndexKeys() throws {
        let valid = """
            {"options": {"collations": ["unicase"]}, "tables": {"Card": {"columns": {"id": {"type": "int", "primaryKey": true},
              "name": {"type": "text", "collate": "nocase"}, "tag": {"type": "text", "collate": "unicase"}, "due": "int"},
              "indexes": [{"columns": ["name COLLATE NOCASE", "due DESC"]}, {"expression": "lower(tag)", "unique": true}, {"columns": ["due asc"]}]}}}
            """
        let both = valid.replacingOccurrences(of: "{\"expression\": \"lower(tag)\"", with: "{\"columns\": [\"tag\"], \"expression\": \"lower(tag)\"")
        let misspelt = valid.replacingOccurrences(of: "\"collate\": \"nocase\"", with: "\"colate\": \"nocase\"")
        let results = try JSONSchemaTests.validate(["valid": valid, "both": both, "misspelt": misspelt])
        #expect(results["valid"] == [], "\(results)")
        #expect(results["both"]?.isEmpty == false, "\(results)")
        #expect(results["misspelt"]?.isEmpty == false, "\(results)")
        _ = try load("""
            options: { collations: [unicase] }
            tables:
              Card:
                columns:
                  id: { type: int, primaryKey: true }
                  name: { type: text, collate: nocase }
                  tag: { type: text, collate: unicase }
                  due: int
                indexes:
                  - { columns: ["name COLLATE NOCASE", "due DESC"] }
                  - { expression: "lower(tag)", unique: true }
                  - { columns: ["due asc"] }
            """)
    }

    // MARK: - The structural comparison

    /// Anki's shape: a NOCASE column with a plain unique index on it. SQLite reports that index's
    /// key as collating NOCASE (the column's collation), which must compare equal to the
    /// declared `columns: [name]`.
    @Test func anIndexOnANocaseColumnIsAPlainIndexOnIt() throws {
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn in
            try conn.execute(sql: """
                CREATE TABLE decks (id integer PRIMARY KEY, name text NOT NULL COLLATE nocase, due integer NOT NULL);
                CREATE UNIQUE INDEX idx_decks_name ON decks (name);
                """)
        }
        let live = try db.read { conn in try SchemaIntrospector.introspect(conn) }
        #expect(live.table(named: "decks")?.column(named: "name")?.collation == "nocase")
        #expect(live.index(named: "idx_decks_name")?.columns == ["name"])
        let declared = try MigrationReplay.declaredStructure(of: try load(Self.decks))
        #expect(SchemaDiff.compare(from: live, to: declared) == [])

        // `name COLLATE NOCASE` on the NOCASE column is the same index.
        let explicit = Self.decks.replacingOccurrences(of: "columns: [name]", with: "columns: [\"name COLLATE NOCASE\"]")
        #expect(SchemaDiff.compare(from: live, to: try MigrationReplay.declaredStructure(of: try load(explicit))) == [])

        // Without the column's collation it is a difference of the column, not of the index.
        let binary = Self.decks.replacingOccurrences(of: ", collate: nocase", with: "")
        let found = SchemaDiff.compare(from: live, to: try MigrationReplay.declaredStructure(of: try load(binary)))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.sentence(.schema).contains("name changes collation from NOCASE to BINARY") == true, "\(found)")

        // A DESC key or a different key collation is a different index.
        let descending = Self.decks.replacingOccurrences(of: "columns: [name]", with: "columns: [\"name DESC\"]")
        let changed = SchemaDiff.compare(from: live, to: try MigrationReplay.declaredStructure(of: try load(descending)))
        #expect(changed.count == 1 && changed[0].sentence(.schema).contains("idx_decks_name"), "\(changed)")
        let rtrim = Self.decks.replacingOccurrences(of: "columns: [name]", with: "columns: [\"name COLLATE RTRIM\"]")
        let other = SchemaDiff.compare(from: live, to: try MigrationReplay.declaredStructure(of: try load(rtrim)))
        #expect(other.count == 1 && other[0].sentence(.schema).contains("name COLLATE RTRIM"), "\(other)")
    }

    @Test func expressionIndexesCompareByTheirExpression() throws {
        let yaml = """
            tables:
              User:
                table: users
                columns:
                  id: { type: int, primaryKey: true }
                  email: text
                indexes:
                  - { name: users_email, expression: "lower(email)", unique: true }
            """
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn in
            try conn.execute(sql: """
                CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL) STRICT;
                CREATE UNIQUE INDEX users_email ON users (LOWER( "email" ));
                """)
        }
        let live = try db.read { conn in try SchemaIntrospector.introspect(conn) }
        #expect(live.index(named: "users_email")?.columns == ["(LOWER( \"email\" ))"])
        #expect(SchemaDiff.compare(from: live, to: try MigrationReplay.declaredStructure(of: try load(yaml))) == [])
        let upper = try MigrationReplay.declaredStructure(of: try load(yaml.replacingOccurrences(of: "lower(email)", with: "upper(email)")))
        #expect(SchemaDiff.compare(from: live, to: upper).count == 1)
        let literal = try MigrationReplay.declaredStructure(of: try load(yaml.replacingOccurrences(of: "lower(email)", with: "email || 'A'")))
        let literalLower = try MigrationReplay.declaredStructure(of: try load(yaml.replacingOccurrences(of: "lower(email)", with: "email || 'a'")))
        #expect(SchemaDiff.compare(from: literal, to: literalLower).count == 1, "string literals in an expression count exactly")
    }

    // MARK: - Migrations

    @Test func aCollationChangeRebuildsTheTableAndEveryRebuildKeepsIt() throws {
        let workspace = try MigrationWorkspace()
        let plain = """
            database: Shop
            tables:
              Tag:
                columns:
                  id: { type: int, primaryKey: true }
                  name: text
                indexes:
                  - { columns: [name], unique: true }
            """
        try workspace.evolve(to: plain, name: "initial")
        let db = try workspace.open()
        try workspace.migrate(db)
        try db.execute("INSERT INTO Tag VALUES (1, 'Swift'), (2, 'sqlite')")

        let nocase = plain.replacingOccurrences(of: "name: text", with: "name: { type: text, collate: nocase }")
        let second = try #require(try workspace.evolve(to: nocase, name: "nocase"))
        #expect(second.contains("rebuild table Tag: name changes collation from BINARY to NOCASE"), "\(second)")
        #expect(second.contains("\"name\" TEXT NOT NULL COLLATE NOCASE"), "\(second)")
        try workspace.migrate(db)
        try workspace.expectClean(db)
        #expect(try db.rows("SELECT id FROM Tag WHERE name = 'SWIFT'") == [[.integer(1)]])
        #expect(throws: StrataError.self) { try db.execute("INSERT INTO Tag VALUES (3, 'SQLite')") }

        // An unrelated change that rebuilds the table keeps NOCASE.
        let checked = nocase.replacingOccurrences(of: "collate: nocase }", with: "collate: nocase, check: \"length(name) > 0\" }")
        let third = try #require(try workspace.evolve(to: checked, name: "check"))
        #expect(third.contains("rebuild table Tag"), "\(third)")
        try workspace.migrate(db)
        try workspace.expectClean(db)
        #expect(try db.rows("SELECT id FROM Tag WHERE name = 'SQLITE'") == [[.integer(2)]])
        let sql = try db.read { conn in try conn.fetchValue(String.self, sql: "SELECT sql FROM sqlite_master WHERE name = 'Tag'") }
        #expect(sql?.contains("COLLATE NOCASE") == true, "\(sql ?? "")")

        // Index keys: a new DESC / expression index is created, a changed one recreated.
        let indexed = checked.replacingOccurrences(
            of: "      - { columns: [name], unique: true }",
            with: "      - { columns: [name], unique: true }\n      - { name: tag_desc, columns: [\"name COLLATE BINARY DESC\"] }\n      - { name: tag_len, expression: \"substr(name, 1, 2)\" }")
        let fourth = try #require(try workspace.evolve(to: indexed, name: "indexes"))
        #expect(fourth.contains("CREATE INDEX \"tag_desc\" ON \"Tag\" (\"name\" COLLATE BINARY DESC)"), "\(fourth)")
        #expect(fourth.contains("CREATE INDEX \"tag_len\" ON \"Tag\" (substr(name, 1, 2))"), "\(fourth)")
        try workspace.migrate(db)
        try workspace.expectClean(db)
        #expect(try workspace.evolve(to: indexed, name: "nothing") == nil)
        let changed = indexed.replacingOccurrences(of: "substr(name, 1, 2)", with: "substr(name, 1, 3)")
        let fifth = try #require(try workspace.evolve(to: changed, name: "changed"))
        #expect(fifth.contains("DROP INDEX \"tag_len\"") && fifth.contains("recreate index tag_len"), "\(fifth)")
        #expect(!fifth.contains("rebuild"), "\(fifth)")
        try workspace.migrate(db)
        try workspace.expectClean(db)
    }

    /// The verifier (schema vs migrations) and the drift check (migrations vs the file) see a
    /// collation that differs.
    @Test func theVerifierAndTheDriftCheckCompareCollations() throws {
        let workspace = try MigrationWorkspace()
        let nocase = """
            database: Shop
            tables:
              Tag:
                columns:
                  id: { type: int, primaryKey: true }
                  name: { type: text, collate: nocase }
            """
        try workspace.evolve(to: nocase, name: "initial")
        let db = try workspace.open()
        try workspace.migrate(db)
        try workspace.expectClean(db)

        // The schema file says RTRIM while the migrations create NOCASE.
        let rtrim = try workspace.writeSchema(nocase.replacingOccurrences(of: "collate: nocase", with: "collate: rtrim"))
        let verified = MigrationVerifier.verify(schema: rtrim, schemaPath: workspace.schemaPath).map(\.message)
        #expect(verified.contains { $0.contains("name changes collation from NOCASE to RTRIM") }, "\(verified)")

        // The file's column loses its NOCASE by hand: drift.
        try db.writeWithoutTransaction { conn in
            try conn.execute(sql: """
                PRAGMA writable_schema = ON;
                UPDATE sqlite_master SET sql = replace(sql, ' COLLATE NOCASE', '') WHERE name = 'Tag';
                PRAGMA writable_schema = OFF;
                """)
        }
        let reopened = try workspace.open()
        let drift = try reopened.read { conn in
            try SchemaDrift.differences(in: conn, migrations: try MigrationFiles.load(schemaPath: workspace.schemaPath), version: 1)
        }
        #expect(drift.contains { $0.contains("collation BINARY (the migrations give NOCASE)") }, "\(drift)")
    }

    @Test func postgresMigrationsAlterACollationInPlaceAndCreateNocaseFirst() throws {
        let workspace = try MigrationWorkspace()
        let plain = """
            database: Shop
            options: { dialects: [sqlite, postgres] }
            tables:
              Tag:
                columns:
                  id: { type: int, primaryKey: true }
                  name: text
            """
        try workspace.evolve(to: plain, name: "initial")
        let nocase = try workspace.writeSchema(plain.replacingOccurrences(of: "name: text", with: "name: { type: text, collate: nocase }"))
        // The PostgreSQL history already creates the observation triggers (as every one written
        // by `strata migration new` does): only the collation changes.
        let (plan, manual) = try PostgresMigrations.plan(
            schema: nocase, sqliteMigrations: try MigrationFiles.load(schemaPath: workspace.schemaPath),
            postgresMigrations: [Migration(version: 1, name: "initial", sql: PostgresNotifyTriggers.createFunctionSQL)])
        #expect(manual == [])
        #expect(plan.statements == [PostgresRenderer.nocaseCollationSQL, "ALTER TABLE \"Tag\" ALTER COLUMN \"name\" TYPE TEXT COLLATE strata_nocase"])
    }

    @Test func aMigrationThatNeedsAnUnregisteredCollationSaysHowToRegisterIt() throws {
        let db = try Database.inMemory()
        let migration = Migration(version: 1, name: "initial", sql: "CREATE TABLE tags (tag TEXT NOT NULL COLLATE unicase);")
        #expect {
            try Migrator(migrations: [migration]).migrate(db)
        } throws: { error in
            let message = (error as? StrataError)?.message ?? ""
            return message.contains("no such collation sequence: unicase") && message.contains("Database.Configuration(collations: [\"unicase\": …])")
        }
        let registered = try Database.inMemory(configuration: Database.Configuration(collations: ["unicase": { $0.caseInsensitiveCompare($1) }]))
        #expect(try Migrator(migrations: [migration]).migrate(registered).count == 1)
    }

    // MARK: - Adoption through the real CLI

    @Test func ankiShapedCollectionIntrospectsChecksAndBaselinesThroughTheCLI() throws {
        let workspace = try MigrationWorkspace(name: "Collection")
        let path = workspace.url.appendingPathComponent("collection.anki2").path
        let unicase = Database.Configuration(collations: ["unicase": { $0.caseInsensitiveCompare($1) }])
        do {
            let db = try Database(path: path, configuration: unicase)
            try db.writeWithoutTransaction { conn in
                try conn.execute(
                    sql: """
                        CREATE TABLE decks (id integer PRIMARY KEY NOT NULL, name text NOT NULL COLLATE nocase, mtime_secs integer NOT NULL, usn integer NOT NULL);
                        CREATE UNIQUE INDEX idx_decks_name ON decks (name);
                        CREATE TABLE tags (tag text NOT NULL PRIMARY KEY COLLATE unicase, usn integer NOT NULL, collapsed boolean NOT NULL) WITHOUT ROWID;
                        CREATE TABLE notes (id integer PRIMARY KEY, flds text NOT NULL, sfld integer NOT NULL, mod integer NOT NULL);
                        CREATE INDEX ix_notes_sfld ON notes (sfld DESC, mod);
                        CREATE INDEX ix_notes_lower ON notes (lower(flds) COLLATE rtrim) WHERE mod > 0;
                        INSERT INTO decks VALUES (1, 'Default', 0, 0), (2, 'Spanish', 0, 0);
                        INSERT INTO notes VALUES (1, 'hola', 1, 1);
                        PRAGMA journal_mode = DELETE;
                        """)
            }
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let introspect = try StrataExecutable.run(["introspect", "collection.anki2", "--output", "Collection.schema.yml"], in: workspace.url)
        #expect(introspect.status == 0, "\(introspect.stderr)")
        #expect(!introspect.stderr.contains("collat"), "\(introspect.stderr)")
        #expect(!introspect.stderr.contains("kept as a comment"), "\(introspect.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let yaml = try String(contentsOfFile: workspace.schemaPath, encoding: .utf8)
        for fragment in [
            "  collations: [unicase]\n", "name: { type: text, collate: nocase }", "collate: unicase",
            "- { name: idx_decks_name, columns: [name], unique: true }",
            "- { name: ix_notes_sfld, columns: [\"sfld DESC\", mod] }",
            "- { name: ix_notes_lower, expression: \"lower(flds) COLLATE rtrim\", where: \"mod > 0\" }",
        ] {
            #expect(yaml.contains(fragment), "\(fragment)\n\(yaml)")
        }
        #expect(!yaml.contains("Not expressible") && !yaml.contains("rebuild"), "\(yaml)")

        let check = try StrataExecutable.run(["check", "Collection.schema.yml"], in: workspace.url)
        #expect(check.status == 0, "\(check.stderr)")
        let new = try StrataExecutable.run(["migration", "new", "Collection.schema.yml", "--name", "initial"], in: workspace.url)
        #expect(new.status == 0, "\(new.stderr)")

        // The CLI cannot compare text with the app's `unicase`: migrate says so, naming the column.
        let refused = try StrataExecutable.run(["migrate", "Collection.schema.yml", "--database", "collection.anki2", "--baseline"], in: workspace.url)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("column tags.tag collates unicase, which is not registered"), "\(refused.stderr)")

        // With Anki's `unicase` replaced by NOCASE (as the issue's adoption did), the baseline goes through.
        do {
            let db = try Database(path: path, configuration: unicase)
            try db.writeWithoutTransaction { conn in
                try conn.execute(sql: """
                    PRAGMA writable_schema = ON;
                    UPDATE sqlite_master SET sql = replace(sql, 'COLLATE unicase', 'COLLATE nocase') WHERE name = 'tags';
                    PRAGMA writable_schema = OFF;
                    """)
            }
        }
        let nocaseYAML = yaml.replacingOccurrences(of: "collate: unicase", with: "collate: nocase")
            .replacingOccurrences(of: "  collations: [unicase]\n", with: "")
        try Data(nocaseYAML.utf8).write(to: URL(fileURLWithPath: workspace.schemaPath))
        try FileManager.default.removeItem(atPath: MigrationFiles.directory(forSchemaPath: workspace.schemaPath))
        #expect(try StrataExecutable.run(["migration", "new", "Collection.schema.yml", "--name", "initial"], in: workspace.url).status == 0)
        let baseline = try StrataExecutable.run(["migrate", "Collection.schema.yml", "--database", "collection.anki2", "--baseline"], in: workspace.url)
        #expect(baseline.status == 0, "\(baseline.stderr)")
        #expect(baseline.stdout.contains("recorded as applied (baseline)"), "\(baseline.stdout)")

        // Re-introspecting gives the YAML back.
        let again = try StrataExecutable.run(["introspect", "collection.anki2", "--output", "Again.schema.yml", "--database", "Collection"], in: workspace.url)
        #expect(again.status == 0, "\(again.stderr)")
        let againYAML = try String(contentsOf: workspace.url.appendingPathComponent("Again.schema.yml"), encoding: .utf8)
        #expect(againYAML == nocaseYAML)
    }

    // MARK: - PostgreSQL

    @Test func postgresMapsBinaryAndNocaseAndRefusesTheRest() throws {
        let yaml = Self.decks.replacingOccurrences(of: "  strict: false", with: "  strict: false\n  dialects: [sqlite, postgres]")
        let schema = try load(yaml)
        let ddl = PostgresRenderer.ddl(for: schema)
        #expect(ddl.first == PostgresRenderer.nocaseCollationSQL)
        #expect(ddl.contains { $0.contains("\"name\" TEXT COLLATE strata_nocase NOT NULL") }, "\(ddl)")
        let binary = try load(yaml.replacingOccurrences(of: "collate: nocase", with: "collate: binary"))
        let binaryDDL = PostgresRenderer.ddl(for: binary)
        #expect(!binaryDDL.contains(PostgresRenderer.nocaseCollationSQL))
        #expect(binaryDDL.contains { $0.contains("\"name\" TEXT COLLATE \"C\" NOT NULL") }, "\(binaryDDL)")

        let rtrim = diagnostics(yaml.replacingOccurrences(of: "collate: nocase", with: "collate: rtrim"))
        #expect(rtrim.count == 1 && rtrim[0].hasPrefix("Anki.schema.yml:10:"), "\(rtrim)")
        #expect(rtrim.first?.contains("column Deck.name collates rtrim, which PostgreSQL has no equivalent of") == true, "\(rtrim)")
        let custom = diagnostics(
            yaml.replacingOccurrences(of: "collate: nocase", with: "collate: unicase")
                .replacingOccurrences(of: "  strict: false\n", with: "  strict: false\n  collations: [unicase]\n"))
        #expect(custom.contains { $0.contains("collates unicase, which PostgreSQL has no equivalent of") }, "\(custom)")
        let key = diagnostics(yaml.replacingOccurrences(of: "columns: [name]", with: "columns: [\"name COLLATE RTRIM\"]"))
        #expect(key.contains { $0.contains("index key 'name COLLATE RTRIM' of Deck collates RTRIM") }, "\(key)")
    }
}
