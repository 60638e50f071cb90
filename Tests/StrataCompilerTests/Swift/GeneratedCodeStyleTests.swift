import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// Generated code as a careful person writes it: no trailing spaces, migration SQL indented
/// one level under the `sql:` that opens it, doc comments true to the SQL, one table order,
/// CHECKs in migration headers as the schema writes them.
@Suite struct GeneratedCodeStyleTests {
    static let schemaText = """
        database: Shop
        tables:
          Purchase:
            columns:
              id:         { type: int, primaryKey: true }
              customerId: { type: int, references: Customer.id }
              status:     { type: enum, values: [open, paid], default: open }
          Customer:
            columns:
              id:   { type: int, primaryKey: true }
              name: text
          Tag:
            columns:
              name: { type: text, primaryKey: true }
        """

    static func generated() throws -> String {
        let compiled = try Compiler.compile(contents: schemaText, path: "Shop.schema.yml")
        let plan = try MigrationPlanner.plan(compiled, migrations: [])
        let sql = MigrationRenderer.render(plan, version: 1, name: "initial", schemaFile: "Shop.schema.yml")
        return Generator.render(compiled, migrations: [Migration(version: 1, name: "initial", sql: sql)], schemaPath: "Shop.schema.yml")
    }

    @Test func noLineEndsInASpace() throws {
        let lines = try Self.generated().components(separatedBy: "\n")
        #expect(lines.filter { $0.hasSuffix(" ") || $0.hasSuffix("\t") }.isEmpty)
        #expect(lines.contains(""), "the embedded migration has blank lines, and they stay empty")
    }

    @Test func migrationSQLIsOneLevelUnderTheLineThatOpensIt() throws {
        let swift = try Self.generated()
        let sql = String(repeating: " ", count: 12) + "sql: #\"\"\"\n"
        let body = String(repeating: " ", count: 16)
        #expect(swift.contains(sql + body + "-- 0001_initial: Shop.schema.yml\n"))
        #expect(swift.contains("\n" + body + ") STRICT;\n\n" + body + "\"\"\"#,\n"))
    }

    @Test func upsertSaysWhatItsSQLDoes() throws {
        let swift = try Self.generated()
        let schema = try SchemaLoader.load(contents: Self.schemaText, path: "Shop.schema.yml")
        let purchase = try #require(schema.table(named: "Purchase"))
        #expect(DAOPlan(table: purchase, schema: schema).upsertSQL.contains("ON CONFLICT (\"id\") DO UPDATE SET"))
        #expect(swift.contains("/// Inserts `record`, or updates the other columns of the stored row with the same key"))
        #expect(!swift.contains("replaces the stored row"))
        // A table with only key columns does nothing on conflict, and says so.
        let tag = try #require(schema.table(named: "Tag"))
        #expect(DAOPlan(table: tag, schema: schema).upsertSQL.hasSuffix("DO NOTHING"))
        #expect(swift.contains("/// Inserts `record` unless a row with its key is stored (`ON CONFLICT DO NOTHING`)"))
        // An expiring table's upsert(_:expiresIn:) and upsert(_:expiresAt:) say the same.
        let tokens = try Compiler.compile(
            contents: "database: Tokens\ntables:\n  Token:\n    expires: true\n    columns:\n      id: { type: int, primaryKey: true }\n      value: text\n",
            path: "Tokens.schema.yml")
        let expiring = Generator.render(tokens, migrations: [], schemaPath: "Tokens.schema.yml")
        #expect(expiring.contains("/// Inserts or updates (`ON CONFLICT DO UPDATE`) `record` to expire `duration` from now"))
        #expect(!expiring.contains("Inserts or replaces"))
    }

    /// The namespace's `tables`, `SQLRenderer.ddl` and the first migration list the tables in
    /// one order: a referenced table first.
    @Test func oneTableOrderEverywhere() throws {
        let schema = try SchemaLoader.load(contents: Self.schemaText, path: "Shop.schema.yml")
        let swift = try Self.generated()
        func positions(_ text: String) -> [String.Index] {
            ["CREATE TABLE \"Customer\"", "CREATE TABLE \"Purchase\"", "CREATE TABLE \"Tag\""].compactMap { text.range(of: $0)?.lowerBound }
        }
        let namespace = String(swift[..<(swift.range(of: "public static let migrations")?.lowerBound ?? swift.endIndex)])
        let migration = String(swift[(swift.range(of: "public static let migrations")?.lowerBound ?? swift.endIndex)...])
        for text in [namespace, migration, SQLRenderer.ddl(for: schema).joined(separator: "\n")] {
            let found = positions(text)
            #expect(found.count == 3 && found == found.sorted(), "\(text.prefix(300))")
        }
    }

    @Test func migrationHeadersPrintChecksAsWritten() throws {
        let old = DatabaseTable(name: "t", sql: #"CREATE TABLE "t" ("status" TEXT CHECK ("status" IN ('open', 'paid')))"#)
        let written = WrittenChecks(old.sql)
        #expect(written[SQLTokenizer.normalize(#""status" IN ('open', 'paid')"#)] == #""status" IN ('open', 'paid')"#)
        #expect(written["unknown"] == "unknown")
    }
}
