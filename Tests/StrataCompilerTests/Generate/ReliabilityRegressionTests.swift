import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// Bugs found by the reliability tests (`Tests/StrataReliabilityTests`), each kept fixed here.
@Suite struct ReliabilityRegressionTests {
    /// A line break in a table name ended the `--` header comment of the migration file, and the
    /// rest of the name ran as SQL with the migration (`table: "x\nDROP TABLE victim; --"`).
    @Test func aLineBreakInANameStaysInsideTheMigrationHeaderComment() throws {
        let schema = try SchemaLoader.load(
            contents: """
                database: M
                tables:
                  Evil:
                    table: "evil\\nDROP TABLE victim; --"
                    columns:
                      id: { type: int, primaryKey: true }
                """,
            path: "M.schema.yml")
        let text = MigrationRenderer.render(
            try MigrationPlanner.plan(schema: schema, migrations: []), version: 1, name: "initial", schemaFile: "M\r\n.schema.yml")
        let header = text.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        #expect(header.count == 2 && header.allSatisfy { $0.hasPrefix("--") }, "\(text)")
        #expect(header.last == #"--   create table evil\nDROP TABLE victim; --"#)
        let db = try Database.inMemory()
        try db.write { try $0.execute(sql: "CREATE TABLE victim (id INTEGER)") }
        try Migrator(migrations: [Migration(version: 1, name: "initial", sql: text)]).migrate(db)
        #expect(try db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'victim'") } == 1)
    }

    /// A table whose only column is its autoincrement key generated `INSERT INTO t () VALUES ()`,
    /// which SQLite rejects, so `strata generate` refused a valid schema.
    @Test func aTableWithOnlyAnAutoincrementKeyInserts() throws {
        // Loading prepares every statement the DAO runs, so it threw while that SQL was wrong.
        let schema = try SchemaLoader.load(
            contents: "database: T\ntables:\n  Ticket:\n    columns:\n      id: { type: int, primaryKey: autoincrement }\n",
            path: "T.schema.yml")
        let plan = DAOPlan(table: schema.tables[0], schema: schema)
        #expect(plan.insertAssigningKeySQL == #"INSERT INTO "Ticket" DEFAULT VALUES"#)
    }

    /// Rendering the DAOs looked every foreign key of every table up in the whole schema for
    /// every table: cubic (8.7 s for `strata generate` of 400 tables in a debug build, 0.9 s now).
    @Test(.timeLimit(.minutes(10))) func manyTablesRenderInReasonableTime() throws {
        var text = "database: Many\ntables:\n"
        for i in 0..<500 {
            text += "  T\(i):\n    columns:\n      id: { type: int, primaryKey: true }\n      ref: { type: int?, references: T\(max(0, i - 1)).id }\n"
        }
        let compiled = try Compiler.compile(contents: text, path: "Many.schema.yml")
        // Bounded by the test's time limit (a hang guard), not by a wall-clock figure: speed is
        // measured in Benchmarks/. The output must hold every table.
        let output = Generator.render(compiled, migrations: [], schemaPath: "Many.schema.yml")
        #expect(output.contains("struct T499"))
    }

    /// `?`, `$x` and `@x` in `orderBy` passed the schema check (only `:x` was refused there),
    /// and the build failed later in `strata generate`: the generated code binds none of them.
    @Test func positionalParametersInOrderByAreDiagnosed() {
        for parameter in ["?", "$xname", "@x", "?2"] {
            let text = """
                tables:
                  Book:
                    columns:
                      id: { type: int, primaryKey: true }
                      title: text
                    queries:
                      byTitle: { where: "title = :title", orderBy: "\(parameter) DESC" }
                """
            let (schema, diagnostics) = SchemaLoader.check(bytes: Array(text.utf8), path: "B.schema.yml")
            #expect(schema == nil, "\(parameter)")
            #expect(diagnostics.contains { $0.message == "parameter '\(parameter)' is not supported" && $0.location.line == 7 }, "\(diagnostics)")
        }
    }
}
