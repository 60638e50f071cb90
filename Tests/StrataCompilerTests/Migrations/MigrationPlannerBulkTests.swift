import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// `migration new` checks its plan by applying it to the replayed database; the tables the plan
/// creates (and their indexes) are entered into that database in bulk instead of executed one
/// by one, which would cost n² in SQLite for n new tables. The plan is the same either way.
@Suite struct MigrationPlannerBulkTests {
    /// The plan checked the usual way: every statement executed in a fresh replay.
    static func executedPlan(_ schema: Schema, migrations: [Migration]) throws -> MigrationPlan {
        try MigrationReplay.replay(migrations).writeWithoutTransaction { conn in
            try MigrationPlanner.plan(schema: schema, current: conn)
        }
    }

    @Test func aFirstMigrationExecutesNoCreateToCheckItself() throws {
        let workspace = try MigrationWorkspace(name: "Big")
        let schema = try workspace.writeSchema(ScalingTests.schema(tables: 40))
        // Compiled (its catalog made) before counting: `migration new` plans from the compiled schema.
        let compiled = try Compiler.compile(path: workspace.schemaPath)
        let work = CompileWork()
        let plan = try CompileWork.$current.withValue(work) { try MigrationPlanner.plan(compiled, migrations: []) }
        #expect(plan == (try Self.executedPlan(schema, migrations: [])))
        #expect(plan.statements.count == 2 * 40)
        #expect(work.ddlStatements == 0)
        #expect(work.migrationReplays == 1)
    }

    @Test func newTablesBesideChangedOnesAreEnteredInBulk() throws {
        let workspace = try MigrationWorkspace(name: "Big")
        try workspace.evolve(to: ScalingTests.schema(tables: 5), name: "initial")
        // Five new tables, a new column on table_1 (ALTER) and a new unique column on table_2
        // (a rebuild, which recreates its index).
        var yaml = ScalingTests.schema(tables: 10)
        yaml = yaml.replacingOccurrences(
            of: "  Table1:\n    table: table_1\n    columns:\n", with: "  Table1:\n    table: table_1\n    columns:\n      extra: text?\n")
        yaml = yaml.replacingOccurrences(
            of: "  Table2:\n    table: table_2\n    columns:\n",
            with: "  Table2:\n    table: table_2\n    columns:\n      code: { type: text?, unique: true }\n")
        let schema = try workspace.writeSchema(yaml)
        let migrations = try MigrationFiles.load(schemaPath: workspace.schemaPath)
        // Compiled (its catalog made) before counting: `migration new` plans from the compiled schema.
        let compiled = try Compiler.compile(path: workspace.schemaPath)
        let work = CompileWork()
        let plan = try CompileWork.$current.withValue(work) { try MigrationPlanner.plan(compiled, migrations: migrations) }
        #expect(plan == (try Self.executedPlan(schema, migrations: migrations)))
        #expect(plan.changes.contains("create table table_9"))
        #expect(plan.changes.contains { $0.hasPrefix("add column table_1.extra") })
        #expect(plan.changes.contains { $0.hasPrefix("rebuild table table_2") })
        // Executed: everything but the five CREATE TABLE and five CREATE INDEX of the new tables.
        #expect(work.ddlStatements == plan.statements.count - 10)
        #expect(work.migrationReplays == 1)
        // And the migration it writes brings a database to the declared structure.
        try workspace.evolve(to: yaml, name: "more")
        let db = try workspace.open()
        try workspace.migrate(db)
        try workspace.expectClean(db)
    }

    /// SQLite refuses a bulk entry with more indexes on one table than the (nearly empty)
    /// database has pages; the planner then replays the migrations again and executes
    /// every statement.
    @Test func aRefusedBulkEntryFallsBackToExecuting() throws {
        let workspace = try MigrationWorkspace(name: "Many")
        let schema = try workspace.writeSchema(
            """
            database: Many
            tables:
              Item:
                table: items
                columns:
                  id: { type: int, primaryKey: true }
                  a: int
                  b: int
                  c: int
                  d: int
                indexes:
                  - columns: [a]
                  - columns: [b]
                  - columns: [c]
                  - columns: [d]
            """)
        // Compiled (its catalog made) before counting: `migration new` plans from the compiled schema.
        let compiled = try Compiler.compile(path: workspace.schemaPath)
        let work = CompileWork()
        let plan = try CompileWork.$current.withValue(work) { try MigrationPlanner.plan(compiled, migrations: []) }
        #expect(plan == (try Self.executedPlan(schema, migrations: [])))
        #expect(plan.statements.count == 5)
        #expect(work.migrationReplays == 2)
        #expect(work.ddlStatements == 5)
    }
}
