import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// `options: { dialects: }`: decoding, and what a schema may not use with PostgreSQL, each at
/// its line and column.
@Suite struct PostgresDialectTests {
    func diagnostics(_ text: String) -> [Diagnostic] {
        SchemaLoader.check(bytes: Array(text.utf8), path: "Shop.schema.yml").diagnostics
    }

    /// `line:column: message` of each diagnostic.
    func positions(_ text: String) -> [String] {
        diagnostics(text).map { "\($0.location.line):\($0.location.column): \($0.message)" }
    }

    @Test func dialectsDefaultToSQLite() throws {
        let schema = try SchemaLoader.load(contents: "tables:\n  Item:\n    columns:\n      id: { type: int, primaryKey: true }\n", path: "Shop.schema.yml")
        #expect(schema.options.dialects == [.sqlite])
        #expect(!schema.targetsPostgres)
    }

    @Test func decodesSQLiteAndPostgres() throws {
        let schema = try SchemaLoader.load(
            contents: "options: { dialects: [sqlite, postgres] }\ntables:\n  A:\n    columns:\n      id: { type: int, primaryKey: true }\n",
            path: "Shop.schema.yml")
        #expect(schema.options.dialects == [.sqlite, .postgres])
        #expect(schema.targetsPostgres)
    }

    @Test func unknownDuplicateAndMissingDialects() {
        let table = "tables:\n  Item:\n    columns:\n      id: { type: int, primaryKey: true }\n"
        let unknown = diagnostics("options: { dialects: [sqlite, postgress] }\n" + table)
        #expect(unknown.map { "\($0.location.line):\($0.location.column)" } == ["1:31"])
        #expect(unknown.first?.message == "unknown dialect 'postgress'")
        #expect(unknown.first?.hint?.contains("postgres") == true)
        #expect(positions("options: { dialects: [sqlite, sqlite] }\n" + table) == ["1:31: dialect 'sqlite' is listed twice"])
        #expect(positions("options: { dialects: [postgres] }\n" + table) == ["1:22: 'dialects' must include sqlite"])
        #expect(positions("options: { dialects: postgres }\n" + table) == ["1:22: 'dialects' must be a list of SQL dialects, found 'postgres'"])
    }

    @Test func whatPostgreSQLCannotExpressIsAnErrorAtItsLine() {
        let text = """
            options: { dialects: [sqlite, postgres] }
            tables:
              Note:
                withoutRowid: false
                columns:
                  id: { type: int, primaryKey: true }
                  body: text
                  stamp: { type: text, default: { sql: "strftime('%s', 'now')" } }
                  n: { type: int, check: "n == 1" }
                search:
                  columns: [body]
                  tokenizer: trigram
                queries:
                  recent: { where: "n > :n AND ifnull(n, 0) > 0" }
            triggers:
              touch: "CREATE TRIGGER touch AFTER INSERT ON Note BEGIN SELECT 1; END"
            queries:
              longest: { sql: "SELECT id FROM Note ORDER BY length(body) DESC" }
            """
        let found = positions(text)
        #expect(found.contains { $0.hasPrefix("12:18: tokenizer \"trigram\" of Note cannot be used on PostgreSQL: PostgreSQL's text search has no trigram tokenizer") }, "\(found)")
        #expect(found.contains("8:44: the default of Note.stamp uses strftime, which PostgreSQL does not have"), "\(found)")
        #expect(found.contains("9:30: the CHECK of Note.n uses '==', which PostgreSQL does not have"), "\(found)")
        #expect(found.contains("14:24: query Note.recent uses ifnull, which PostgreSQL does not have"), "\(found)")
        #expect(found.contains { $0.hasPrefix("16:3: trigger 'touch' is written in SQLite's SQL") }, "\(found)")
        // Top-level queries are typed for PostgreSQL by `strata prepare` (docs/Queries.md).
        #expect(found.count == 5, "\(found)")
    }

    @Test func searchTokenizersMapToTextSearchConfigurationsOrAreErrors() {
        func configuration(_ tokenizer: String?) -> String {
            switch PostgresSearch.configuration(forTokenizer: tokenizer) {
            case .success(let name): name
            case .failure(let problem): "error: " + problem.message
            }
        }
        #expect(configuration(nil) == "simple")
        #expect(configuration("unicode61") == "simple")
        #expect(configuration("unicode61 remove_diacritics 2") == "simple")
        #expect(configuration("ascii") == "simple")
        #expect(configuration("porter") == "english")
        #expect(configuration("'porter' 'unicode61' 'remove_diacritics' '1'") == "english")
        #expect(configuration("porter ascii") == "english")
        #expect(configuration("trigram").hasPrefix("error: PostgreSQL's text search has no trigram tokenizer"))
        #expect(configuration("unicode61 tokenchars '-_'") == "error: PostgreSQL's text search has no equivalent of the unicode61 option 'tokenchars'")
        #expect(configuration("porter unicode61 separators x") == "error: PostgreSQL's text search has no equivalent of the unicode61 option 'separators'")
        let table = { (search: String, column: String) in
            """
            options: { dialects: [sqlite, postgres] }
            tables:
              Note:
                columns:
                  id: { type: int, primaryKey: true }
                  body: text
                  \(column)
                search: \(search)
            """
        }
        #expect(positions(table("{ columns: [body], tokenizer: \"porter unicode61\" }", "title: text")) == [])
        #expect(positions(table("{ columns: [body], tokenizer: \"unicode61 categories 'L* N*'\" }", "title: text")).map { $0.prefix(38) } == ["8:43: tokenizer \"unicode61 categories "])
        #expect(positions(table("{ columns: [body] }", "strata_search: text")).first?.hasPrefix("7:7: column 'strata_search' of Note is named like the full-text search vector") == true)
    }

    @Test func searchIsAGeneratedVectorWithAGINIndex() throws {
        let schema = try SchemaLoader.load(
            contents: """
                options: { dialects: [sqlite, postgres] }
                tables:
                  Note:
                    table: notes
                    columns:
                      id: { type: int, primaryKey: autoincrement }
                      title: text
                      body: text?
                    search: { columns: [title, body] }
                    expires: true
                """, path: "Notes.schema.yml")
        let ddl = PostgresRenderer.ddl(for: schema)
        #expect(ddl[0].contains(#"  "strata_search" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, coalesce("title", '') || ' ' || coalesce("body", ''))) STORED"#), "\(ddl[0])")
        #expect(ddl.contains(#"CREATE INDEX "notes_fts" ON "notes" USING GIN ("strata_search")"#), "\(ddl)")
        let table = try #require(schema.tables.first)
        #expect(PostgresSearch.searchSQL(table, snippet: false) == """
            SELECT "notes"."id", "notes"."title", "notes"."body", "notes"."expiresAt" FROM "notes", plainto_tsquery('simple'::regconfig, $1) AS "strata_query" \
            WHERE "notes"."strata_search" @@ "strata_query" AND ("notes"."expiresAt" IS NULL OR "notes"."expiresAt" > $3) \
            ORDER BY ts_rank("notes"."strata_search", "strata_query") DESC, "notes"."id" LIMIT $2
            """)
    }

    @Test func theSameSchemaWithoutPostgresIsAccepted() {
        let text = """
            tables:
              Note:
                columns:
                  id: { type: int, primaryKey: true }
                  body: text
                search:
                  columns: [body]
            queries:
              longest: { sql: "SELECT id FROM Note ORDER BY length(body) DESC" }
            """
        #expect(diagnostics(text).isEmpty)
    }

    // MARK: - DDL

    @Test func ddlPerType() throws {
        let schema = try SchemaLoader.load(
            contents: """
                options: { dialects: [sqlite, postgres] }
                tables:
                  Author:
                    columns:
                      id: { type: int, primaryKey: autoincrement }
                      name: { type: text, unique: true }
                  Book:
                    primaryKey: [isbn, edition]
                    unique: [[title, authorId]]
                    checks: ["pages > 0"]
                    columns:
                      isbn: text
                      edition: { type: int, default: 1 }
                      title: text
                      authorId: { type: int, references: Author.id, onDelete: cascade, onUpdate: restrict }
                      pages: int
                      price: { type: double, default: 9.5 }
                      inPrint: { type: bool, default: true }
                      cover: blob?
                      published: { type: date, default: now }
                      since: { type: date, default: "2024-01-02 03:04:05.678" }
                      ref: uuid?
                      format: { type: enum, values: [paper, ebook], default: paper }
                      meta: { type: json, swiftType: "[String: Int]", default: { a: 1 } }
                    indexes:
                      - { columns: [title], where: "inPrint" }
                      - { columns: [ref], unique: true }
                """, path: "Shop.schema.yml")
        let ddl = PostgresRenderer.ddl(for: schema)
        #expect(ddl[0] == """
            CREATE TABLE "Author" (
              "id" BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
              "name" TEXT NOT NULL UNIQUE
            )
            """)
        #expect(ddl[1] == """
            CREATE TABLE "Book" (
              "isbn" TEXT NOT NULL,
              "edition" BIGINT NOT NULL DEFAULT 1,
              "title" TEXT NOT NULL,
              "authorId" BIGINT NOT NULL,
              "pages" BIGINT NOT NULL,
              "price" DOUBLE PRECISION NOT NULL DEFAULT 9.5,
              "inPrint" BOOLEAN NOT NULL DEFAULT TRUE,
              "cover" BYTEA,
              "published" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
              "since" TIMESTAMPTZ NOT NULL DEFAULT '2024-01-02 03:04:05.678+00',
              "ref" UUID,
              "format" TEXT NOT NULL DEFAULT 'paper' CHECK ("format" IN ('paper', 'ebook')),
              "meta" JSONB NOT NULL DEFAULT '{"a":1}'::jsonb,
              PRIMARY KEY ("isbn", "edition"),
              UNIQUE ("title", "authorId"),
              FOREIGN KEY ("authorId") REFERENCES "Author" ("id") ON DELETE CASCADE ON UPDATE RESTRICT,
              CHECK ("pages" > 0)
            )
            """)
        #expect(ddl[2] == #"CREATE INDEX "Book_title" ON "Book" ("title") WHERE "inPrint""#)
        #expect(ddl[3] == #"CREATE UNIQUE INDEX "Book_ref" ON "Book" ("ref")"#)
    }

    // MARK: - Generated Swift

    @Test func generatedPostgresCodeIsBehindCanImportAndOnlyWithTheDialect() throws {
        let text = "tables:\n  Item:\n    columns:\n      id: { type: int, primaryKey: autoincrement }\n      name: text\n"
        let sqliteOnly = try Compiler.compile(contents: text, path: "Shop.schema.yml")
        #expect(!Generator.render(sqliteOnly, migrations: [], schemaPath: "Shop.schema.yml").contains("StrataPostgres"))
        let both = try Compiler.compile(contents: "options: { dialects: [sqlite, postgres] }\n" + text, path: "Shop.schema.yml")
        let swift = Generator.render(both, migrations: [], schemaPath: "Shop.schema.yml")
        #expect(swift.contains("#if canImport(StrataPostgres)\nimport StrataPostgres\n"))
        #expect(swift.hasSuffix("#endif\n"))
        #expect(swift.contains("public struct ItemPostgresDAO: Sendable"))
        #expect(swift.contains(##"static let sql = #"INSERT INTO "Item" ("name") VALUES ($1) RETURNING "id", "name""#"##))
        #expect(!Generator.render(both, migrations: [], schemaPath: "Shop.schema.yml", postgresCode: false).contains("StrataPostgres"))
    }

    @Test func namedQueriesAreNumberedForPostgreSQL() throws {
        let schema = try SchemaLoader.load(
            contents: """
                options: { dialects: [sqlite, postgres] }
                tables:
                  Item:
                    columns:
                      id: { type: int, primaryKey: true }
                      name: text
                      meta: { type: json, swiftType: "[Int]" }
                    queries:
                      search: { where: "name = :name OR name LIKE :name || '%' OR meta = :meta", orderBy: "name", limit: ":max" }
                """, path: "Shop.schema.yml")
        let table = try #require(schema.table(named: "Item"))
        let sql = DAOPlan(table: table, schema: schema, dialect: PostgresDialect()).querySQL(try #require(table.queries.first))
        #expect(sql == #"SELECT "id", "name", "meta" FROM "Item" WHERE "name" = $1 OR "name" LIKE $1 || '%' OR "meta" = $2::jsonb ORDER BY "name" LIMIT $3"#)
    }

    /// The PostgreSQL DAO's SQL is built from the plan in the dialect: `$n` placeholders in every
    /// statement, a navigation to an expiring table's included (which used to keep SQLite's `?`).
    @Test func everyPostgresStatementHasNumberedPlaceholders() throws {
        let schema = try SchemaLoader.load(
            contents: """
                options: { dialects: [sqlite, postgres] }
                tables:
                  Owner:
                    columns:
                      id: { type: int, primaryKey: true }
                  Device:
                    expires: true
                    columns:
                      id: { type: int, primaryKey: true }
                      ownerId: { type: int, references: Owner.id }
                      settings: { type: json, swiftType: "[String]" }
                """, path: "Shop.schema.yml")
        for table in schema.tables {
            let plan = DAOPlan(table: table, schema: schema, dialect: PostgresDialect())
            let statements = [plan.selectSQL, plan.fetchAllSQL, plan.insertSQL, plan.upsertSQL, plan.updateSQL, plan.deleteSQL, plan.findSQL, plan.purgeExpiredSQL]
                + plan.navigations.map(\.sql)
            for sql in statements { #expect(!sql.contains("?"), "\(sql)") }
        }
        let owner = try #require(schema.table(named: "Owner"))
        let devices = try #require(DAOPlan(table: owner, schema: schema, dialect: PostgresDialect()).navigations.first)
        // Expired devices are left out, as on SQLite: the current time is `$2`.
        #expect(devices.sql == #"SELECT "id", "ownerId", "settings", "expiresAt" FROM "Device" WHERE "ownerId" = $1 AND ("expiresAt" IS NULL OR "expiresAt" > $2)"#)
        let device = try #require(schema.table(named: "Device"))
        let devicePlan = DAOPlan(table: device, schema: schema, dialect: PostgresDialect())
        #expect(devicePlan.findSQL == #"SELECT "id", "ownerId", "settings", "expiresAt" FROM "Device" WHERE "id" = $1 AND ("expiresAt" IS NULL OR "expiresAt" > $2)"#)
        #expect(devicePlan.fetchAllSQL == #"SELECT "id", "ownerId", "settings", "expiresAt" FROM "Device" WHERE ("expiresAt" IS NULL OR "expiresAt" > $1)"#)
        #expect(devicePlan.purgeExpiredSQL == #"DELETE FROM "Device" WHERE "expiresAt" <= $1"#)
        #expect(DAOPlan(table: device, schema: schema, dialect: PostgresDialect()).updateSQL
            == #"UPDATE "Device" SET "ownerId" = $1, "settings" = $2::jsonb, "expiresAt" = $3 WHERE "id" = $4"#)
    }

    /// SQLite matches names without regard to case; PostgreSQL folds unquoted ones to lower case.
    @Test func mixedCaseNamesInSQLFragmentsAreQuotedAsDeclared() {
        #expect(PostgresRenderer.quotingNames("authorId = :authorId AND length(title) > 0 AND AUTHORID > 1", names: ["authorId", "title", "length"])
            == #""authorId" = :authorId AND length("title") > 0 AND "authorId" > 1"#)
    }

    /// A whole view statement is rewritten by the expression tree as the token rewriting did:
    /// the schema's names quoted as declared wherever they are names, keywords and calls kept.
    @Test func aViewsStatementQuotesTheSchemasNames() {
        let view = SQLObject(name: "AuthorBooks", sql: "SELECT authorId, count(*) AS books, max(createdAt) AS latest FROM Book WHERE title <> '' GROUP BY authorId ORDER BY authorId")
        let sql = PostgresRenderer.quotingNames(SQLRenderer.createViewSQL(view), names: ["Book", "authorId", "title", "createdAt"])
        #expect(sql == #"CREATE VIEW "AuthorBooks" AS SELECT "authorId", count(*) AS books, max("createdAt") AS latest FROM "Book" WHERE "title" <> '' GROUP BY "authorId" ORDER BY "authorId""#)
    }

    /// A column named `x` is not the `x` of a blob literal, nor the name of a parameter.
    @Test func namesInsideLiteralsAndParametersAreLeftAlone() {
        #expect(PostgresRenderer.quotingNames("X = x'00' AND x <> X'ff' AND x = @x AND x = ?x AND x = $x AND x = :x", names: ["X"])
            == #""X" = x'00' AND "X" <> X'ff' AND "X" = @x AND "X" = ?x AND "X" = $x AND "X" = :x"#)
        #expect(PostgresRenderer.quotingNames("-- x\nx = 'x' /* x */", names: ["X"]) == "-- x\n\"X\" = 'x' /* x */")
    }

    @Test func boolColumnsComparedWithNumbersAreErrors() {
        let text = """
            options: { dialects: [sqlite, postgres] }
            tables:
              Loan:
                columns:
                  id: { type: int, primaryKey: true }
                  returned: { type: bool, default: false }
                indexes:
                  - { columns: [id], where: "returned = 0" }
                queries:
                  open: { where: "returned = FALSE AND id > :id" }
            """
        #expect(positions(text) == ["8:33: an index condition of Loan compares the bool column returned with a number, which PostgreSQL does not allow"])
    }
}
