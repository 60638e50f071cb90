import Foundation
import Strata

/// The whole compile of one schema file: load and validate the YAML, load its migrations and
/// check that replaying them gives the declared schema, check the generated SQL against a real
/// SQLite, and render the Swift source.
///
/// ```swift
/// let swift = try Generator.generate(schemaPath: "Sources/App/Library.schema.yml")
/// ```
public enum Generator {
    /// The Swift source for the schema at `schemaPath`; throws ``DiagnosticsError`` with every
    /// problem found, each at its `path:line:column`.
    public static func generate(schemaPath: String) throws -> String {
        // The schema's DDL is executed once, by validation; its database serves the checks below.
        let schema = try SchemaLoader.load(path: schemaPath)
        let migrations = try MigrationFiles.load(schemaPath: schemaPath)
        let diagnostics = check(schema, migrations: migrations, schemaPath: schemaPath)
            + MigrationVerifier.verify(schema: schema, schemaPath: schemaPath, migrations: migrations)
        if diagnostics.contains(where: { $0.severity == .error }) {
            throw DiagnosticsError(diagnostics)
        }
        return render(schema, migrations: migrations, schemaPath: schemaPath)
    }

    /// Renders a validated schema with its migrations.
    public static func render(_ schema: Schema, migrations: [Migration], schemaPath: String) -> String {
        let tables = schema.tables.map { SQLRenderer.createTableSQL($0, in: schema) }
        let indexes = schema.tables.flatMap { table in table.indexes.map { SQLRenderer.createIndexSQL($0, on: table) } }
        return SwiftRenderer.render(
            SwiftRenderer.Input(
                schema: schema, sourceFileName: URL(fileURLWithPath: schemaPath).lastPathComponent,
                createTableSQL: tables, createIndexSQL: indexes, migrations: migrations))
    }

    /// Prepares the statements the generated code adds to the schema's (insert, upsert,
    /// update, delete, find, navigation) against its DDL in an in-memory SQLite. Named queries
    /// were prepared, and their parameters numbered, by the front end.
    public static func check(_ schema: Schema, migrations: [Migration], schemaPath: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let fileStart = SourceLocation(file: schemaPath, line: 1, column: 1)
        for table in schema.tables {
            for column in table.columns {
                guard case .enumeration(_, let values) = column.type else { continue }
                var seen: [String: String] = [:]
                for value in values {
                    let caseName = SwiftNames.enumCase(value)
                    if let earlier = seen[caseName] {
                        diagnostics.append(
                            Diagnostic(
                                at: column.location ?? table.location ?? fileStart,
                                "enum values '\(earlier)' and '\(value)' of \(table.recordName).\(column.name) both become the Swift case '\(caseName)'",
                                hint: "rename one of the values"))
                    }
                    seen[caseName] = seen[caseName] ?? value
                }
            }
        }
        do {
            let db = try SQLiteChecker.declaredDatabase(of: schema)
            try db.writeWithoutTransaction { conn in
                for table in schema.tables {
                    let plan = DAOPlan(table: table, schema: schema)
                    let location = table.location ?? fileStart
                    var statements = [plan.selectSQL, plan.insertSQL, plan.upsertSQL, plan.deleteSQL, plan.findSQL]
                    if !plan.nonKeyColumns.isEmpty { statements.append(plan.updateSQL) }
                    if table.autoincrementColumn != nil { statements.append(plan.insertAssigningKeySQL) }
                    statements += plan.navigations.map(\.sql)
                    for sql in statements {
                        do {
                            _ = try conn.makeStatement(sql: sql)
                        } catch let error as StrataError {
                            diagnostics.append(Diagnostic(at: location, "generated SQL is rejected by SQLite: \(error.message)", hint: sql))
                        }
                    }
                }
            }
        } catch {
            diagnostics.append(Diagnostic(at: fileStart, "cannot check the schema in SQLite: \(error)"))
        }
        return diagnostics
    }

    /// Writes `contents` to `path` only when the bytes differ, so an unchanged output keeps its
    /// modification time; returns whether it wrote.
    @discardableResult
    public static func writeIfChanged(_ contents: String, to path: String) throws -> Bool {
        let data = Data(contents.utf8)
        if let existing = FileManager.default.contents(atPath: path), existing == data { return false }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        return true
    }

    /// `Library` for `…/Library.schema.yml`.
    public static func schemaStem(of path: String) -> String {
        var name = URL(fileURLWithPath: path).lastPathComponent
        for suffix in [".schema.yml", ".schema.yaml", ".yml", ".yaml"] where name.hasSuffix(suffix) {
            name = String(name.dropLast(suffix.count))
            break
        }
        return name
    }
}
