import Foundation
import Strata

/// The whole compile of one schema file: the front end and the checks (``Compiler``, the
/// stages `strata check` runs, which also prepare every statement the generated code runs in
/// a real SQLite), its migrations checked to build the declared schema, and Emit: the Swift
/// source rendered from the ``CompiledSchema`` (``render(_:migrations:postgresMigrations:schemaPath:postgresCode:)``
/// reports nothing; every problem was found before it).
///
/// ```swift
/// let swift = try Generator.generate(schemaPath: "Sources/App/Library.schema.yml")
/// ```
package enum Generator {
    /// The Swift source for the schema at `schemaPath`; throws ``DiagnosticsError`` with every
    /// problem found, each at its `path:line:column`.
    ///
    /// With `dialects: [sqlite, postgres]` the PostgreSQL migrations are loaded and checked too
    /// (``PostgresMigrations/verify(schema:schemaPath:sqliteMigrations:)``); `postgresCode: false`
    /// leaves the PostgreSQL DAOs out of the file (a target that does not depend on StrataPostgres).
    package static func generate(schemaPath: String, postgresCode: Bool = true) throws -> String {
        let compiled = try Compiler.compile(path: schemaPath)
        let schema = compiled.schema
        let migrations = try MigrationFiles.load(schemaPath: schemaPath)
        // The schema passed the one pipeline `check` runs too (Compiler); what `generate`
        // adds is that the migrations build exactly that schema.
        var diagnostics = MigrationVerifier.verify(compiled, schemaPath: schemaPath, migrations: migrations)
        var postgresMigrations: [Migration] = []
        if schema.targetsPostgres {
            diagnostics += PostgresMigrations.verify(schema: schema, schemaPath: schemaPath, sqliteMigrations: migrations)
            postgresMigrations = (try? PostgresMigrations.load(schemaPath: schemaPath)) ?? []
        }
        if diagnostics.contains(where: { $0.severity == .error }) {
            throw DiagnosticsError(diagnostics)
        }
        return render(
            compiled, migrations: migrations, postgresMigrations: postgresMigrations, schemaPath: schemaPath,
            postgresCode: postgresCode && schema.targetsPostgres)
    }

    /// Emit: renders a compiled schema with its migrations.
    package static func render(
        _ compiled: CompiledSchema, migrations: [Migration], postgresMigrations: [Migration] = [], schemaPath: String, postgresCode: Bool? = nil
    ) -> String {
        let schema = compiled.schema
        // One table order for SQL everywhere: a referenced table before the tables that
        // reference it, as in `SQLRenderer.ddl` and the first migration.
        let ordered = SQLRenderer.dependencyOrder(schema)
        let tables = ordered.map { SQLRenderer.createTableSQL($0, in: schema) }
        let indexes = ordered.flatMap { table in table.indexes.map { SQLRenderer.createIndexSQL($0, on: table) } }
        var input = SwiftRenderer.Input(
            schema: schema, queries: compiled.queries, sourceFileName: URL(fileURLWithPath: schemaPath).lastPathComponent,
            createTableSQL: tables, createIndexSQL: indexes, migrations: migrations, postgresMigrations: postgresMigrations,
            rendersPostgres: postgresCode)
        input.postgresQueries = compiled.postgresQueries
        return SwiftRenderer.render(input)
    }

    /// Writes `contents` to `path` only when the bytes differ, so an unchanged output keeps its
    /// modification time; returns whether it wrote.
    @discardableResult
    package static func writeIfChanged(_ contents: String, to path: String) throws -> Bool {
        let data = Data(contents.utf8)
        if let existing = FileManager.default.contents(atPath: path), existing == data { return false }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        return true
    }

    /// `Library` for `…/Library.schema.yml`.
    package static func schemaStem(of path: String) -> String {
        var name = URL(fileURLWithPath: path).lastPathComponent
        for suffix in [".schema.yml", ".schema.yaml", ".yml", ".yaml"] where name.hasSuffix(suffix) {
            name = String(name.dropLast(suffix.count))
            break
        }
        return name
    }
}
