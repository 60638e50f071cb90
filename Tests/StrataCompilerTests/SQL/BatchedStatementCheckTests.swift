import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// Validation prepares each table's generated DAO statements in the small scratch database of
/// its batch, with the tables along its foreign keys created there too, instead of in the
/// database holding the whole schema (where each name lookup walks the whole schema); only
/// tables whose statements may reach further (a schema with triggers or search, an expiring
/// table, a table with more than 64 neighbours) or that SQLite rejects there are prepared in
/// the full database, which gives the error.
@Suite struct BatchedStatementCheckTests {
    static func check(_ yaml: String) -> (schema: Schema?, diagnostics: [Diagnostic], work: CompileWork) {
        let work = CompileWork()
        let (schema, diagnostics) = CompileWork.$current.withValue(work) {
            SchemaLoader.check(bytes: Array(yaml.utf8), path: "Shop.schema.yml")
        }
        return (schema, diagnostics, work)
    }

    static func statementCount(_ tables: [Table], in schema: Schema) -> Int {
        let byRecordName = SchemaDecoder.tablesByRecordName(schema)
        return tables.map { SchemaDecoder.daoStatements(of: $0, byRecordName: byRecordName, in: schema).count }.reduce(0, +)
    }

    /// Foreign keys of every action, a self-reference, a UNIQUE NOCASE parent column, WITHOUT
    /// ROWID, a composite key, checks, a partial index, a tab in a query: no trigger, no search.
    static let mixed = """
        database: Shop
        tables:
          Customer:
            columns:
              id: { type: int, primaryKey: autoincrement }
              email: { type: text, unique: true, collate: nocase }
              referrerId: { type: int?, references: Customer.id, onDelete: setNull }
            indexes:
              - columns: [email]
          Purchase:
            withoutRowid: true
            columns:
              code: { type: text, primaryKey: true }
              customerEmail: { type: text, references: Customer.email, onDelete: cascade, onUpdate: cascade }
              total: { type: double, check: "total >= 0" }
            indexes:
              - columns: [customerEmail, total]
                where: "total > 0"
          Line:
            primaryKey: [purchaseCode, position]
            columns:
              purchaseCode: { type: text, references: Purchase.code, onDelete: cascade }
              position: int
              quantity: { type: int, default: 1 }
            queries:
              ofPurchase: { where: "purchaseCode = :code\tAND quantity > 0", orderBy: position }
          Refund:
            columns:
              id: { type: int, primaryKey: true }
              purchaseCode: { type: text?, references: Purchase.code, onDelete: restrict }
              customerId: { type: int, references: Customer.id }

        """

    @Test func aChainOfTablesPreparesNoDAOStatementInTheFullDatabase() throws {
        let (schema, diagnostics, work) = Self.check(ScalingTests.schema(tables: 100))
        #expect(diagnostics.isEmpty)
        #expect(schema?.tables.count == 100)
        #expect(work.daoStatementsPreparedInFull == 0)
    }

    /// What the batches accepted, the full database accepts too (they must never accept
    /// what it would reject).
    @Test func whatTheBatchesAcceptTheFullDatabaseAccepts() throws {
        let (checked, diagnostics, work) = Self.check(Self.mixed)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let schema = try #require(checked)
        #expect(work.daoStatementsPreparedInFull == 0)
        let db = try SQLiteChecker.declaredDatabase(of: schema)
        let byRecordName = SchemaDecoder.tablesByRecordName(schema)
        try db.writeWithoutTransaction { conn in
            for table in schema.tables {
                for sql in SchemaDecoder.daoStatements(of: table, byRecordName: byRecordName, in: schema) {
                    _ = try conn.makeFirstStatement(sql: sql)
                }
            }
        }
    }

    /// The batches leave out the statements another one contains: the `SELECT` of every row
    /// (a prefix of `find`'s) and the `INSERT` (a prefix of the upsert's), which SQLite then
    /// compiles whenever it compiles the longer one. Pinned here for every kind of table.
    @Test func theStatementsLeftOutArePrefixesOfOnesPrepared() throws {
        let (checked, diagnostics, _) = Self.check(Self.mixed + "  Keyless:\n    expires: true\n    columns:\n      id: { type: int, primaryKey: autoincrement }\n")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let schema = try #require(checked)
        for table in schema.tables {
            let plan = DAOPlan(table: table, schema: schema)
            #expect(plan.findSQL.hasPrefix(plan.selectSQL + " "), "\(table.recordName)")
            #expect(plan.upsertSQL.hasPrefix(plan.insertSQL + " "), "\(table.recordName)")
            let all = plan.statements
            let kept = plan.statements(leavingOutImplied: true)
            #expect(Set(all).subtracting(kept) == [plan.selectSQL, plan.insertSQL], "\(table.recordName)")
            #expect(kept.allSatisfy(all.contains))
        }
    }

    /// A named query is prepared whole first; a `where` that leaves a bracket open, which its
    /// `orderBy` closes, is still prepared alone and rejected at the `where` (the whole query
    /// would prepare, with the ordering inside the subquery).
    @Test func aWhereCompletedByItsOrderByIsRejectedAtTheWhere() throws {
        let yaml = """
            database: Shop
            tables:
              T:
                columns:
                  id: { type: int, primaryKey: true }
                  x: int
                queries:
                  q: { where: "id IN (SELECT id FROM T", orderBy: "id)" }
                  fine: { where: "id IN (SELECT id FROM T WHERE x > :x)", orderBy: id }

            """
        let (_, diagnostics, _) = Self.check(yaml)
        #expect(diagnostics.count == 1, "\(diagnostics)")
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.message.hasPrefix("SQLite rejects query 'q'"), "\(diagnostic.message)")
        #expect(diagnostic.location.line == 8 && diagnostic.location.column == 19, "\(diagnostic.location)")
        #expect(SchemaDecoder.closesItsBrackets("id IN (SELECT id FROM T WHERE x > :x)"))
        #expect(!SchemaDecoder.closesItsBrackets("id IN (SELECT id FROM T"))
        #expect(!SchemaDecoder.closesItsBrackets("1) OR (1"))
        #expect(SchemaDecoder.closesItsBrackets("name = ')(' AND \"a(\" = 1"))
    }

    @Test func aSchemaWithATriggerOrSearchPreparesEveryStatementInTheFullDatabase() throws {
        for extra in [
            "triggers:\n  refund_log: \"CREATE TRIGGER refund_log AFTER DELETE ON Refund BEGIN SELECT 1; END\"\n",
            "  Note:\n    columns:\n      id: { type: int, primaryKey: true }\n      body: text\n    search: { columns: [body] }\n",
        ] {
            let (checked, diagnostics, work) = Self.check(Self.mixed + extra)
            #expect(diagnostics.isEmpty, "\(diagnostics)")
            let schema = try #require(checked)
            #expect(work.daoStatementsPreparedInFull == Self.statementCount(schema.tables, in: schema))
        }
    }

    @Test func anExpiringTableAndATableWithManyNeighboursArePreparedInTheFullDatabase() throws {
        var lines = ["database: Spokes", "tables:", "  Hub:", "    columns:", "      id: { type: int, primaryKey: true }",
                     "  Session:", "    expires: true", "    columns:", "      token: { type: text, primaryKey: true }",
                     "      hubId: { type: int, references: Hub.id, onDelete: cascade }"]
        for i in 0..<70 {
            lines += ["  Spoke\(i):", "    columns:", "      id: { type: int, primaryKey: true }",
                      "      hubId: { type: int?, references: Hub.id, onDelete: setNull }"]
        }
        let (checked, diagnostics, work) = Self.check(lines.joined(separator: "\n") + "\n")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let schema = try #require(checked)
        let full = schema.tables.filter { ["Hub", "Session"].contains($0.recordName) }
        #expect(full.count == 2)
        #expect(work.daoStatementsPreparedInFull == Self.statementCount(full, in: schema))
    }
}
