import Foundation
import Strata

/// Checks that a schema's migrations produce exactly the schema it declares.
///
/// The build plugin and the generator call ``verify(schema:schemaPath:)``: each difference
/// becomes an error at the line of the table, column or index it is about (the file's first
/// line when it has none, as for a table only the migrations create), with the command to run.
///
/// ```swift
/// let diagnostics = MigrationVerifier.verify(schema: schema, schemaPath: "Sources/App/Shop.schema.yml")
/// // Sources/App/Shop.schema.yml:9:7: error: the schema differs from its migrations: column customer.phone is declared but missing (run '…')
/// ```
package enum MigrationVerifier {
    /// The differences between the structure the migrations build and the declared one, and
    /// the `renamedFrom` renames the migrations have not done yet (a case-only rename or a
    /// swap of names leaves the same names, compared as SQLite compares them, so only the
    /// planner's view of the hints tells).
    package static func differences(schema: Schema, migrations: [Migration]) throws -> [String] {
        if MigrationReplay.areExactlyTheDDL(migrations, of: schema) { return [] }
        let declared = try MigrationReplay.declaredStructure(of: schema)
        let db = try MigrationReplay.replay(migrations)
        return try db.writeWithoutTransaction { conn in
            var result = SchemaDiff.differences(from: try SchemaIntrospector.introspect(conn), to: declared)
            let renames = try? MigrationPlanner.renameStatements(
                schema: schema, declared: declared, conn: conn, history: MigrationPlanner.renameHistory(migrations))
            result += (renames?.changes ?? []).map { "\($0) (renamedFrom) is not done by the migrations" }
            return result
        }
    }

    /// Diagnostics for the schema at `schemaPath` and the migrations beside it; empty when they agree.
    package static func verify(schema: Schema, schemaPath: String) -> [Diagnostic] {
        let location = SourceLocation(file: schemaPath, line: 1, column: 1)
        let migrations: [Migration]
        do {
            migrations = try MigrationFiles.load(schemaPath: schemaPath)
        } catch let error as DiagnosticsError {
            return error.diagnostics
        } catch {
            return [Diagnostic(at: location, "cannot read the migrations: \(error)")]
        }
        return verify(schema: schema, schemaPath: schemaPath, migrations: migrations)
    }

    /// Diagnostics for `schema` against `migrations`.
    package static func verify(schema: Schema, schemaPath: String, migrations: [Migration]) -> [Diagnostic] {
        let location = SourceLocation(file: schemaPath, line: 1, column: 1)
        let command = "run 'swift run strata migration new \(commandPath(schemaPath)) --name <name>'"
        let found: [String]
        do {
            found = try differences(schema: schema, migrations: migrations)
        } catch let error as StrataError {
            return [Diagnostic(at: location, "the migrations of this schema do not run: \(error.message)")]
        } catch {
            return [Diagnostic(at: location, "the migrations of this schema do not run: \(error)")]
        }
        // One error per difference, at the line of the table, column or index it is about.
        let locator = SchemaLocator(schema: schema)
        return found.map { difference in
            Diagnostic(at: locator.locate(difference) ?? location, "the schema differs from its migrations: \(difference)", hint: command)
        }
    }

    /// `schemaPath` relative to the current directory when it lies below it (the build plugin
    /// passes absolute paths; a user types relative ones), so the suggested command is short.
    static func commandPath(_ schemaPath: String) -> String {
        let current = FileManager.default.currentDirectoryPath
        guard schemaPath.hasPrefix("/"), schemaPath.hasPrefix(current + "/") else { return schemaPath }
        return String(schemaPath.dropFirst(current.count + 1))
    }
}
