import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// The compiler's work grows linearly with the number of tables. It is asserted with counts of
/// work (DDL statements executed, name lookup tables built), never with a clock: the timings
/// live in Benchmarks/ (docs/Benchmarks.md, "The generator").
@Suite struct ScalingTests {
    /// A schema of `count` tables shaped like `Benchmarks/Scripts/make_schema.py`'s: eight
    /// columns of the common types, a foreign key to the table before, an index and two queries.
    static func schema(tables count: Int) -> String {
        var lines = ["database: Big", "tables:"]
        for i in 0..<count {
            lines += [
                "  Table\(i):",
                "    table: table_\(i)",
                "    columns:",
                "      id:        { type: int, primaryKey: autoincrement }",
                "      name:      text",
                "      note:      text?",
                "      amount:    { type: double, default: 0 }",
                "      active:    { type: bool, default: true }",
                "      createdAt: { type: date, default: now }",
                "      token:     uuid",
                "      kind:      { type: enum, values: [small, medium, large], default: small }",
            ]
            if i > 0 { lines.append("      parentId:  { type: int?, references: Table\(i - 1).id, onDelete: setNull }") }
            lines += [
                "    indexes:",
                "      - columns: [name]",
                "    queries:",
                "      byName: { where: \"name = :name\", returns: one }",
                "      activeSince: { where: \"active = :active AND createdAt >= :since\", orderBy: createdAt, limit: 100 }",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The work of `migration new` (load and plan, as the command does) for a schema of
    /// `count` tables, then of `generate` with that first migration.
    static func work(tables count: Int) throws -> (planning: CompileWork, generating: CompileWork, swift: String) {
        let workspace = try MigrationWorkspace(name: "Big")
        let planning = CompileWork()
        try CompileWork.$current.withValue(planning) { _ = try workspace.evolve(to: schema(tables: count), name: "initial") }
        let generating = CompileWork()
        let swift = try CompileWork.$current.withValue(generating) { try Generator.generate(schemaPath: workspace.schemaPath) }
        return (planning, generating, swift)
    }

    /// The schema's DDL (a table and an index per table) is executed once per `generate` and
    /// per `migration new`, in validation's database, which the query check, the generator's
    /// statement check, the migration verifier and the planner reuse (`generate` used to
    /// execute it four times); and each name lookup table is built a fixed number of times,
    /// whatever the number of tables (building one per foreign key made the foreign key pass
    /// quadratic).
    @Test func theDDLIsExecutedOnceAndLookupTablesAreBuiltOnce() throws {
        let small = try Self.work(tables: 30)
        let large = try Self.work(tables: 120)
        #expect(small.generating.ddlStatements == 2 * 30)
        #expect(large.generating.ddlStatements == 2 * 120)
        #expect(small.planning.ddlStatements == 2 * 30)
        #expect(large.planning.ddlStatements == 2 * 120)
        #expect(small.generating.lookupTablesBuilt > 0)
        #expect(large.generating.lookupTablesBuilt == small.generating.lookupTablesBuilt)
        #expect(large.planning.lookupTablesBuilt == small.planning.lookupTablesBuilt)
        #expect(large.swift.contains("struct Table119"))
        // Migrations that are exactly the schema's DDL are not replayed (`migration new`
        // replays the empty history once).
        #expect(large.generating.migrationReplays == 0)
        #expect(large.planning.migrationReplays == 1)
    }

    /// The tables of a large schema render on every core: the parts come back in the tables'
    /// order, and the work counter of the compile sees what the threads do.
    @Test func renderingOnEveryCoreKeepsTheOrderAndTheCounter() {
        let work = CompileWork()
        let texts = CompileWork.$current.withValue(work) {
            concurrentMap(Array(0..<1_000)) { number in
                CompileWork.countReplay()
                return "part \(number)\n"
            }
        }
        #expect(texts == (0..<1_000).map { "part \($0)\n" })
        #expect(work.migrationReplays == 1_000)
    }

    /// Migrations that differ from the DDL in any way are replayed and compared: spacing
    /// changed by hand still agrees, a missing index is reported.
    @Test func migrationsOtherThanTheDDLAreReplayed() throws {
        let workspace = try MigrationWorkspace(name: "Big")
        try workspace.evolve(to: Self.schema(tables: 3), name: "initial")
        let file = try #require(try MigrationFiles.filePaths(directory: MigrationFiles.directory(forSchemaPath: workspace.schemaPath)).first)
        let original = try String(contentsOfFile: file, encoding: .utf8)

        try original.replacingOccurrences(of: ");\n", with: ") ;\n").write(toFile: file, atomically: true, encoding: .utf8)
        let respaced = CompileWork()
        _ = try CompileWork.$current.withValue(respaced) { try Generator.generate(schemaPath: workspace.schemaPath) }
        #expect(respaced.migrationReplays == 1)

        let lastIndex = try #require(original.range(of: "\nCREATE INDEX", options: .backwards))
        try String(original[..<lastIndex.lowerBound]).write(toFile: file, atomically: true, encoding: .utf8)
        let error = #expect(throws: DiagnosticsError.self) { try Generator.generate(schemaPath: workspace.schemaPath) }
        #expect(error?.diagnostics.first?.message.contains("is declared but the migrations do not create it") == true)
    }

    /// `check` of 2,000 tables finishes (the time limit is a hang guard, not a measurement: it
    /// used to take minutes at this size with the migration check).
    @Test(.timeLimit(.minutes(5))) func twoThousandTablesCheck() throws {
        let work = CompileWork()
        let (schema, diagnostics) = CompileWork.$current.withValue(work) {
            SchemaLoader.check(bytes: Array(Self.schema(tables: 2_000).utf8), path: "Big.schema.yml")
        }
        #expect(diagnostics.isEmpty)
        #expect(schema?.tables.count == 2_000)
        #expect(work.ddlStatements == 2 * 2_000)
    }

    /// A file over the size limit is refused before it is read, at its first line.
    @Test func aFileOverTheSizeLimitIsRefusedAtOnce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-scaling-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Huge.schema.yml").path
        var text = Self.schema(tables: 1)
        let comment = "# " + String(repeating: "x", count: 1_000) + "\n"
        text += String(repeating: comment, count: SchemaLoader.maximumFileSize / comment.utf8.count + 1)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let (schema, diagnostics) = SchemaLoader.check(path: path)
        #expect(schema == nil)
        #expect(diagnostics.map(\.description) == [
            "\(path):1:1: error: the schema file is 16.0 MiB; Strata reads schema files of at most 16.0 MiB (split the database into several schema files, each with its own tables)"
        ])
        let fromBytes = SchemaLoader.check(bytes: Array(text.utf8), path: "Huge.schema.yml")
        #expect(fromBytes.diagnostics.first?.message.hasPrefix("the schema file is 16.0 MiB") == true)
        // One byte under the limit is read (and here decoded: the comments are ignored).
        let under = Array(text.utf8.prefix(SchemaLoader.maximumFileSize))
        #expect(SchemaLoader.check(bytes: under, path: "Under.schema.yml").diagnostics.allSatisfy { !$0.message.hasPrefix("the schema file is") })
    }
}
