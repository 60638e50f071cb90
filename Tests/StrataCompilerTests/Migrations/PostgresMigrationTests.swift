import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataCompiler

/// PostgreSQL migrations: planned from the same difference as SQLite's, altering in place; the
/// build-time checks of the `postgres` folder.
@Suite struct PostgresMigrationTests {
    static let header = "options: { dialects: [sqlite, postgres] }\n"

    /// Writes `yaml`, plans the SQLite and the PostgreSQL migration as `strata migration new`
    /// does and writes both; returns the PostgreSQL file's statements (without comments).
    @discardableResult
    func evolve(_ workspace: MigrationWorkspace, to yaml: String, name: String, allowDestructive: Bool = false) throws -> [String] {
        let schema = try workspace.writeSchema(Self.header + yaml)
        let before = try MigrationFiles.load(schemaPath: workspace.schemaPath)
        let postgres = before.isEmpty ? [] : try PostgresMigrations.load(schemaPath: workspace.schemaPath)
        let (plan, manual) = try PostgresMigrations.plan(
            schema: schema, sqliteMigrations: before, postgresMigrations: postgres, options: .init(allowDestructive: allowDestructive))
        try #require(try workspace.evolve(to: Self.header + yaml, name: name, allowDestructive: allowDestructive) != nil)
        let version = before.count + 1
        let text = PostgresMigrations.render(plan, manual: manual, version: version, name: name, schemaFile: "Shop.schema.yml", schema: schema)
        let directory = PostgresMigrations.directory(forSchemaPath: workspace.schemaPath)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + Migration(version: version, name: name, sql: "").fileName))
        return plan.statements + manual.map { "TODO: " + $0 }
    }

    func verify(_ workspace: MigrationWorkspace) throws -> [String] {
        let schema = try SchemaLoader.load(path: workspace.schemaPath)
        return PostgresMigrations.verify(
            schema: schema, schemaPath: workspace.schemaPath, sqliteMigrations: try MigrationFiles.load(schemaPath: workspace.schemaPath)
        ).map(\.message)
    }

    static let v1 = """
        tables:
          Customer:
            columns:
              id: { type: int, primaryKey: autoincrement }
              name: text
              score: int
              note: text?
            indexes:
              - { columns: [name] }
          Order:
            table: orders
            columns:
              id: { type: int, primaryKey: autoincrement }
              customerId: { type: int, references: Customer.id }
        """

    @Test func theFirstMigrationIsTheDDL() throws {
        let workspace = try MigrationWorkspace()
        let statements = try evolve(workspace, to: Self.v1, name: "initial")
        let schema = try SchemaLoader.load(path: workspace.schemaPath)
        #expect(statements == PostgresRenderer.ddl(for: schema) + PostgresRenderer.notifySQL(for: schema))
        #expect(statements.suffix(3) == [
            PostgresNotifyTriggers.createFunctionStatement,
            #"CREATE TRIGGER strata_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Customer" FOR EACH STATEMENT EXECUTE FUNCTION strata_notify()"#,
            #"CREATE TRIGGER strata_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "orders" FOR EACH STATEMENT EXECUTE FUNCTION strata_notify()"#,
        ])
        #expect(try verify(workspace) == [])
    }

    @Test func aTableAddedLaterGetsItsTriggerAndAHistoryWithoutThemGetsThemAll() throws {
        let workspace = try MigrationWorkspace()
        try evolve(workspace, to: Self.v1, name: "initial")
        let v2 = Self.v1 + "\n  Tag:\n    columns:\n      id: { type: int, primaryKey: true }\n"
        #expect(try evolve(workspace, to: v2, name: "tags") == [
            "CREATE TABLE \"Tag\" (\n  \"id\" BIGINT PRIMARY KEY\n)",
            #"CREATE TRIGGER strata_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Tag" FOR EACH STATEMENT EXECUTE FUNCTION strata_notify()"#,
        ])
        // A renamed table keeps its trigger: nothing more than the rename.
        let v3 = v2.replacingOccurrences(of: "  Tag:\n", with: "  Label:\n    renamedFrom: Tag\n")
        #expect(try evolve(workspace, to: v3, name: "labels") == [#"ALTER TABLE "Tag" RENAME TO "Label""#])
        // A history whose PostgreSQL files do not create the function (written before the
        // migrations did) gets the function and every table's trigger in its next migration.
        let schema = try SchemaLoader.load(path: workspace.schemaPath)
        let sqlite = try MigrationFiles.load(schemaPath: workspace.schemaPath)
        let withoutTriggers = try PostgresMigrations.load(schemaPath: workspace.schemaPath).map {
            Migration(version: $0.version, name: $0.name, sql: $0.sql.replacingOccurrences(of: "FUNCTION strata_notify()", with: "FUNCTION x()"))
        }
        #expect(!PostgresNotifyTriggers.isInstalled(by: withoutTriggers))
        let (plan, _) = try PostgresMigrations.plan(schema: schema, sqliteMigrations: sqlite, postgresMigrations: withoutTriggers)
        #expect(plan.statements == PostgresNotifyTriggers.installStatements(tables: ["Customer", "orders", "Label"]))
        #expect(plan.statements[1...2] == [
            #"DROP TRIGGER IF EXISTS strata_notify ON "Customer""#,
            #"CREATE TRIGGER strata_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Customer" FOR EACH STATEMENT EXECUTE FUNCTION strata_notify()"#,
        ])
    }

    @Test func searchIsAddedChangedAndDroppedInPlace() throws {
        let workspace = try MigrationWorkspace()
        try evolve(workspace, to: Self.v1, name: "initial")
        let vector = #"ALTER TABLE "Customer" ADD COLUMN "strata_search" tsvector GENERATED ALWAYS AS "#
        let v2 = Self.v1.replacingOccurrences(of: "    indexes:\n      - { columns: [name] }\n", with: "    indexes:\n      - { columns: [name] }\n    search: { columns: [name] }\n")
        #expect(try evolve(workspace, to: v2, name: "search") == [
            vector + #"(to_tsvector('simple'::regconfig, coalesce("name", ''))) STORED"#,
            #"CREATE INDEX "Customer_fts" ON "Customer" USING GIN ("strata_search")"#,
        ])
        #expect(try verify(workspace) == [])
        // Another tokenizer and a column more: the vector is made again.
        let v3 = v2.replacingOccurrences(of: "search: { columns: [name] }", with: "search: { columns: [name, note], tokenizer: porter }")
        #expect(try evolve(workspace, to: v3, name: "stemmed") == [
            #"DROP INDEX IF EXISTS "Customer_fts""#,
            #"ALTER TABLE "Customer" DROP COLUMN IF EXISTS "strata_search""#,
            vector + #"(to_tsvector('english'::regconfig, coalesce("name", '') || ' ' || coalesce("note", ''))) STORED"#,
            #"CREATE INDEX "Customer_fts" ON "Customer" USING GIN ("strata_search")"#,
        ])
        // A searched column's type changes: the vector is dropped before and made again after.
        let v4 = v3.replacingOccurrences(of: "      note: text?\n", with: "      note: { type: text, default: \"\" }\n")
        let changed = try evolve(workspace, to: v4, name: "note_default")
        #expect(changed.first == #"DROP INDEX IF EXISTS "Customer_fts""#, "\(changed)")
        #expect(changed.last == #"CREATE INDEX "Customer_fts" ON "Customer" USING GIN ("strata_search")"#, "\(changed)")
        // The table renamed: its vector and index are made again under the new name.
        let renamed = v4.replacingOccurrences(of: "  Customer:\n", with: "  Client:\n    table: clients\n    renamedFrom: Customer\n")
            .replacingOccurrences(of: "Customer.id", with: "Client.id")
        let steps = try evolve(workspace, to: renamed, name: "clients")
        #expect(steps == [
            #"ALTER TABLE "Customer" RENAME TO "clients""#,
            #"DROP INDEX IF EXISTS "Customer_fts""#,
            #"ALTER TABLE "clients" DROP COLUMN IF EXISTS "strata_search""#,
            #"DROP INDEX IF EXISTS "Customer_name""#,
            #"ALTER TABLE "clients" ADD COLUMN "strata_search" tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce("name", '') || ' ' || coalesce("note", ''))) STORED"#,
            #"CREATE INDEX "clients_fts" ON "clients" USING GIN ("strata_search")"#,
            #"CREATE INDEX "clients_name" ON "clients" ("name")"#,
        ], "\(steps)")
        #expect(try verify(workspace) == [])
        _ = try evolve(workspace, to: v4.replacingOccurrences(of: "  Customer:\n", with: "  Customer:\n    renamedFrom: clients\n"), name: "back")
        // `search:` removed.
        let v5 = v4.replacingOccurrences(of: "    search: { columns: [name, note], tokenizer: porter }\n", with: "")
        #expect(try evolve(workspace, to: v5, name: "no_search") == [
            #"DROP INDEX IF EXISTS "Customer_fts""#,
            #"ALTER TABLE "Customer" DROP COLUMN IF EXISTS "strata_search""#,
        ])
        #expect(try verify(workspace) == [])
    }

    @Test func columnsAreAddedDroppedRenamedAndChangedInPlace() throws {
        let workspace = try MigrationWorkspace()
        try evolve(workspace, to: Self.v1, name: "initial")
        let v2 = Self.v1
            .replacingOccurrences(of: "      name: text\n", with: "      fullName: { type: text, renamedFrom: name }\n      phone: { type: text, default: \"\" }\n")
            .replacingOccurrences(of: "      score: int\n", with: "      score: double\n")
            .replacingOccurrences(of: "      note: text?\n", with: "      note: { type: text, default: \"-\" }\n")
            .replacingOccurrences(of: "- { columns: [name] }", with: "- { columns: [fullName, phone] }")
            .replacingOccurrences(of: "    table: orders\n", with: "    table: purchases\n    renamedFrom: orders\n")
            + "\n      rating: { type: int, references: Customer.id, optional: true }\n"
        let statements = try evolve(workspace, to: v2, name: "reshape")
        #expect(statements == [
            #"ALTER TABLE "orders" RENAME TO "purchases""#,
            #"ALTER TABLE "Customer" RENAME COLUMN "name" TO "fullName""#,
            #"DROP INDEX IF EXISTS "Customer_name""#,
            #"ALTER TABLE "Customer" ADD COLUMN "phone" TEXT NOT NULL DEFAULT ''"#,
            #"ALTER TABLE "Customer" ALTER COLUMN "score" TYPE DOUBLE PRECISION USING "score"::DOUBLE PRECISION"#,
            #"ALTER TABLE "Customer" ALTER COLUMN "note" SET DEFAULT '-'"#,
            #"UPDATE "Customer" SET "note" = '-' WHERE "note" IS NULL"#,
            #"ALTER TABLE "Customer" ALTER COLUMN "note" SET NOT NULL"#,
            #"ALTER TABLE "purchases" ADD COLUMN "rating" BIGINT REFERENCES "Customer" ("id")"#,
            #"CREATE INDEX "Customer_fullName_phone" ON "Customer" ("fullName", "phone")"#,
        ], "\(statements)")
        #expect(try verify(workspace) == [])

        let v3 = v2.replacingOccurrences(of: "      phone: { type: text, default: \"\" }\n", with: "")
            .replacingOccurrences(of: "- { columns: [fullName, phone] }", with: "- { columns: [fullName], unique: true }")
            .replacingOccurrences(of: "      note: { type: text, default: \"-\" }\n", with: "      note: text?\n")
        #expect(try evolve(workspace, to: v3, name: "drop_phone", allowDestructive: true) == [
            #"DROP INDEX IF EXISTS "Customer_fullName_phone""#,
            #"ALTER TABLE "Customer" ALTER COLUMN "note" DROP DEFAULT"#,
            #"ALTER TABLE "Customer" ALTER COLUMN "note" DROP NOT NULL"#,
            #"ALTER TABLE "Customer" DROP COLUMN "phone""#,
            #"CREATE UNIQUE INDEX "Customer_fullName" ON "Customer" ("fullName")"#,
        ])
        #expect(try verify(workspace) == [])
    }

    @Test func constraintChangesAreLeftToAPersonAndFailTheBuild() throws {
        let workspace = try MigrationWorkspace()
        try evolve(workspace, to: Self.v1, name: "initial")
        let v2 = Self.v1.replacingOccurrences(of: "      score: int\n", with: "      score: { type: int, check: \"score >= 0\" }\n")
        let statements = try evolve(workspace, to: v2, name: "check_score")
        #expect(statements == ["TODO: table Customer: add CHECK (score >= 0)"])
        let problems = try verify(workspace)
        #expect(problems == ["the PostgreSQL migration is not finished: table Customer: add CHECK (score >= 0)"])
    }

    @Test func theBuildChecksPairingAndTheSchemaTheFilesEndWith() throws {
        let workspace = try MigrationWorkspace()
        try evolve(workspace, to: Self.v1, name: "initial")
        // A SQLite migration without its PostgreSQL twin.
        let v2 = Self.v1.replacingOccurrences(of: "      note: text?\n", with: "      note: text?\n      extra: int?\n")
        let schema = try workspace.writeSchema(Self.header + v2)
        try workspace.evolve(to: Self.header + v2, name: "extra")
        #expect(try verify(workspace) == ["SQLite migration 0002_extra.sql has no PostgreSQL counterpart postgres/0002_extra.sql"])
        // A twin written by hand without the fingerprint line.
        let directory = PostgresMigrations.directory(forSchemaPath: workspace.schemaPath)
        try Data(#"ALTER TABLE "Customer" ADD COLUMN "extra" BIGINT;"#.utf8).write(to: URL(fileURLWithPath: directory + "/0002_extra.sql"))
        #expect(try verify(workspace) == ["PostgreSQL migration 0002_extra.sql does not say which schema it brings PostgreSQL to"])
        // With the line it passes; a schema changed afterwards does not.
        let line = "\(PostgresMigrations.fingerprintMarker) \(PostgresMigrations.fingerprint(of: schema))\n"
        try Data((line + #"ALTER TABLE "Customer" ADD COLUMN "extra" BIGINT;"#).utf8).write(to: URL(fileURLWithPath: directory + "/0002_extra.sql"))
        #expect(try verify(workspace) == [])
        try workspace.writeSchema(Self.header + v2.replacingOccurrences(of: "extra: int?", with: "extra: text?"))
        #expect(try verify(workspace).first?.hasPrefix("the PostgreSQL migrations were planned for another version of the schema") == true)
        // A PostgreSQL file more.
        try Data(line.utf8).write(to: URL(fileURLWithPath: directory + "/0003_more.sql"))
        #expect(try verify(workspace).contains("PostgreSQL migration 0003_more.sql has no SQLite counterpart"))
    }
}

/// The real `strata` executable with a `dialects: [sqlite, postgres]` schema.
@Suite struct PostgresCLITests {
    @Test func migrationNewWritesBothFilesAndTheBuildChecksThem() throws {
        let cli = StrataCLITests()
        let workspace = try MigrationWorkspace()
        try workspace.writeSchema(PostgresMigrationTests.header + PostgresMigrationTests.v1)
        let first = try cli.strata("migration", "new", "Shop.schema.yml", "--name", "initial", in: workspace.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("wrote Shop.migrations/0001_initial.sql"))
        #expect(first.stdout.contains("wrote Shop.migrations/postgres/0001_initial.sql"))
        let pg = try String(contentsOf: workspace.url.appendingPathComponent("Shop.migrations/postgres/0001_initial.sql"), encoding: .utf8)
        #expect(pg.contains(#""id" BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"#))
        let verify = try cli.strata("migration", "verify", "Shop.schema.yml", in: workspace.url)
        #expect(verify.status == 0, "\(verify.stderr)")

        // A schema changed without a new migration fails on both sides.
        try workspace.writeSchema(PostgresMigrationTests.header + PostgresMigrationTests.v1.replacingOccurrences(of: "      note: text?\n", with: "      note: text?\n      extra: int?\n"))
        let generate = try cli.strata("generate", "Shop.schema.yml", "--output", "out", in: workspace.url)
        #expect(generate.status == 1)
        let dryRun = try cli.strata("migration", "new", "Shop.schema.yml", "--name", "extra", "--dry-run", in: workspace.url)
        #expect(dryRun.stdout.contains("would write Shop.migrations/postgres/0002_extra.sql"))
        #expect(dryRun.stdout.contains(#"ALTER TABLE "Customer" ADD COLUMN "extra" BIGINT;"#))
        let second = try cli.strata("migration", "new", "Shop.schema.yml", "--name", "extra", in: workspace.url)
        #expect(second.status == 0, "\(second.stderr)")
        let generated = try cli.strata("generate", "Shop.schema.yml", "--output", "out", in: workspace.url)
        #expect(generated.status == 0, "\(generated.stderr)")
        let swift = try String(contentsOf: workspace.url.appendingPathComponent("out/Shop.swift"), encoding: .utf8)
        #expect(swift.contains("public static let postgresMigrations: [Migration] = ["))
        #expect(swift.contains("version: 2, name: \"extra\""))
        let without = try cli.strata("generate", "Shop.schema.yml", "--output", "plain", "--no-postgres", in: workspace.url)
        #expect(without.status == 0)
        #expect(!(try String(contentsOf: workspace.url.appendingPathComponent("plain/Shop.swift"), encoding: .utf8)).contains("PostgresDAO"))
    }

    @Test func theURLNeedsAPostgresSchemaAndExcludesDatabase() throws {
        let cli = StrataCLITests()
        let workspace = try MigrationWorkspace()
        try workspace.writeSchema(PostgresMigrationTests.v1)
        _ = try cli.strata("migration", "new", "Shop.schema.yml", "--name", "initial", in: workspace.url)
        // The command with PostgreSQL support (the plain `strata` refuses every --url, tested in StrataCLIFailureTests).
        let sqliteOnly = try StrataExecutable.run(["migrate", "Shop.schema.yml", "--url", "postgres://app@127.0.0.1:1/shop"], in: workspace.url, postgres: true)
        #expect(sqliteOnly.status == 1)
        #expect(sqliteOnly.stderr.contains("does not list postgres in 'options: { dialects: }'"))
        let both = try StrataExecutable.run(["status", "Shop.schema.yml", "--database", "a.sqlite", "--url", "postgres://x@127.0.0.1:1/y"], in: workspace.url, postgres: true)
        #expect(both.status != 0)
        #expect(both.stderr.contains("pass exactly one of --database <file> and --url postgres://…"))
    }
}
