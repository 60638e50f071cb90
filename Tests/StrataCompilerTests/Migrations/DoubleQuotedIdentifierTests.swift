import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// Issue 14: SQLite's double-quoted-string compatibility mode is off on every connection
/// Strata opens, so a misspelled `"identifier"` is an error, never a string constant.
@Suite(.serialized) struct DoubleQuotedIdentifierTests {
    static func schema(where condition: String = "\"name\" = :name", check: String = "length(\"name\") > 0", indexWhere: String = "\"name\" IS NOT NULL") -> String {
        """
        database: Shop
        tables:
          Customer:
            table: customer
            columns:
              id:   { type: int, primaryKey: autoincrement }
              name: { type: text, check: '\(check)' }
            indexes:
              - { columns: [name], where: '\(indexWhere)' }
            queries:
              named: { where: '\(condition)' }
        """
    }

    @Test func aMisspelledQuotedIdentifierFailsStrataCheck() throws {
        let workspace = try MigrationWorkspace()
        try workspace.writeSchema(Self.schema())
        #expect(SchemaLoader.check(path: workspace.schemaPath).diagnostics.isEmpty, "the correct spelling is accepted")
        for yaml in [
            Self.schema(where: "\"nmae\" = :name"),
            Self.schema(check: "length(\"nmae\") > 0"),
            Self.schema(indexWhere: "\"nmae\" IS NOT NULL"),
        ] {
            try Data(yaml.utf8).write(to: URL(fileURLWithPath: workspace.schemaPath))
            let diagnostics = SchemaLoader.check(path: workspace.schemaPath).diagnostics
            #expect(diagnostics.contains { $0.description.contains("nmae") }, "\(yaml)\n→ \(diagnostics)")
            let cli = try StrataCLITests().strata("check", "Shop.schema.yml", in: workspace.url)
            #expect(cli.status == 1 && cli.stderr.contains("nmae"), "\(cli.stderr)")
        }
    }

    /// A table rebuild on a database whose column was renamed by hand used to copy the
    /// column's *name* into every row (`SELECT …, "note", …` read as the string 'note') and
    /// report success; now the rebuild fails and the database is as it was.
    @Test func aRebuildAfterAHandRenameFailsLoudly() throws {
        let (workspace, db) = try ShopSchema.seeded()
        try db.writeWithoutTransaction { conn in try conn.execute(sql: #"ALTER TABLE customer RENAME COLUMN note TO remark"#) }
        let rebuilt = ShopSchema.yaml(customer: ShopSchema.customer.replacingOccurrences(
            of: "score: { type: int, default: 0 }", with: "score: { type: int, default: 0, check: \"score >= 0\" }"))
        let text = try #require(try workspace.evolve(to: rebuilt, name: "score check"))
        #expect(text.contains("INSERT INTO"), "the change needs a table rebuild:\n\(text)")
        #expect(throws: StrataError.self) { try workspace.migrate(db) }
        #expect(try db.rows("SELECT id, name, email, remark, score FROM customer ORDER BY id") == ShopSchema.customerRows)
        #expect(try db.rows("SELECT count(*) FROM strata_migrations") == [[.integer(1)]])
    }
}
