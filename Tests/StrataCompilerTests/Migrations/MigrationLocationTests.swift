import Foundation
import Testing
@testable import StrataCompiler

/// Schema-difference and migration-planning errors point at the line and column of the table
/// or column they are about, not at the file's first line.
@Suite struct MigrationLocationTests {
    /// Shop's customer table with `columns` instead of its own (line 3 is `Customer:`, line 6
    /// the first column).
    static func shop(customer columns: String) -> String {
        ShopSchema.yaml(customer: "  Customer:\n    table: customer\n    columns:\n" + columns)
    }

    @Test func verifierDifferencesPointAtTheirColumn() throws {
        let (workspace, _) = try ShopSchema.seeded()
        // `email` becomes NOT NULL (line 8), `score` changes type (line 9), `phone` is new
        // (line 10), `note` is gone (its table, line 3).
        let columns = """
                  id:    { type: int, primaryKey: autoincrement }
                  name:  text
                  email: { type: text, default: "" }
                  score: { type: double, default: 0 }
                  phone: text?
            """
        let schema = try workspace.writeSchema(Self.shop(customer: columns))
        let diagnostics = MigrationVerifier.verify(schema: schema, schemaPath: workspace.schemaPath)
        let positions = diagnostics.map { "\($0.location.line):\($0.location.column) \($0.message)" }
        #expect(positions.contains { $0.hasPrefix("8:7 the schema differs from its migrations: column customer.email becomes NOT NULL") }, "\(positions)")
        #expect(positions.contains { $0.hasPrefix("9:7 the schema differs from its migrations: column customer.score changes type from INTEGER to REAL") }, "\(positions)")
        #expect(positions.contains("10:7 the schema differs from its migrations: column customer.phone is declared but missing"), "\(positions)")
        #expect(positions.contains("3:3 the schema differs from its migrations: column customer.note exists but is not declared"), "\(positions)")
        #expect(!diagnostics.contains { $0.location.line == 1 }, "\(positions)")
    }

    @Test func plannerRefusalsPointAtTheirColumnOrTable() throws {
        let (workspace, _) = try ShopSchema.seeded()
        let columns = """
                  id:    { type: int, primaryKey: autoincrement }
                  name:  text
                  email: text
                  score: { type: int, default: 0 }
                  code:  text
            """
        let schema = try workspace.writeSchema(Self.shop(customer: columns))
        let error = #expect(throws: MigrationPlanningError.self) {
            try MigrationPlanner.plan(schema: schema, migrations: try MigrationFiles.load(schemaPath: workspace.schemaPath))
        }
        let located = zip(error?.problems ?? [], error?.locations ?? []).map { problem, location in
            "\(location.map { "\($0.line):\($0.column)" } ?? "none") \(problem.prefix(40))"
        }
        #expect(located.sorted() == [
            "10:7 column customer.code is new and NOT NULL",
            "3:3 column customer.note is no longer declar",
            "8:7 column customer.email becomes NOT NULL b",
        ], "\(located)")
    }
}

/// A dropped table whose twin is new: the refusal points at the new table, where
/// `renamedFrom:` would go, not at the file's first line.
@Test func aDroppedTableWithANewTwinPointsAtTheNewTable() throws {
    let (workspace, _) = try ShopSchema.seeded()
    let sale = ShopSchema.purchase.replacingOccurrences(of: "Purchase:", with: "Sale:")
        .replacingOccurrences(of: "table: purchase", with: "table: sale")
    let schema = try workspace.writeSchema(ShopSchema.yaml(purchase: sale))
    let error = #expect(throws: MigrationPlanningError.self) {
        try MigrationPlanner.plan(schema: schema, migrations: try MigrationFiles.load(schemaPath: workspace.schemaPath))
    }
    let problems = error?.problems ?? []
    let index = try #require(problems.firstIndex { $0.hasPrefix("table purchase is no longer declared and the new table sale has the same columns") },
                             "\(problems)")
    let location = try #require(error?.locations[index])
    #expect("\(location.line):\(location.column)" == "11:3", "Sale: is written at line 11")
}
