import Foundation
import Strata

/// Checks that a schema's migrations produce exactly the schema it declares.
///
/// The build plugin and the generator call ``verify(_:schemaPath:)``: each difference
/// becomes an error at the line of the table, column or index it is about (the file's first
/// line when it has none, as for a table only the migrations create), with the command to run.
///
/// ```swift
/// let diagnostics = MigrationVerifier.verify(try Compiler.compile(path: path), schemaPath: path)
/// // Sources/App/Shop.schema.yml:9:7: error: the schema differs from its migrations: column customer.phone is declared but missing (run '…')
/// ```
package enum MigrationVerifier {
    /// One way the structure the migrations build differs from the declared one: typed, made
    /// into a sentence only when it is reported.
    enum Mismatch: Hashable, Sendable, CustomStringConvertible {
        /// A structural difference (current: the migrations, target: the schema).
        case structure(SchemaDifference)
        /// A `renamedFrom` rename the migrations have not done.
        case renameNotDone(PendingRename)

        /// What it is about, for the line of its error.
        var subject: SchemaSubject {
            switch self {
            case .structure(let difference): difference.subject
            case .renameNotDone(let rename): rename.subject
            }
        }

        /// The sentence of its error.
        var description: String {
            switch self {
            case .structure(let difference): difference.sentence(.schema)
            case .renameNotDone(let rename): "\(rename.summary) (renamedFrom) is not done by the migrations"
            }
        }
    }

    /// The differences between the structure the migrations build and the declared one, and
    /// the `renamedFrom` renames the migrations have not done yet (a case-only rename or a
    /// swap of names leaves the same names, compared as SQLite compares them, so only the
    /// planner's view of the hints tells). The declared database and the replayed one are
    /// introspected through one ``IntrospectionCache``, as the planner does.
    static func differences(schema: Schema, migrations: [Migration], catalog: ValidatedDatabase = ValidatedDatabase()) throws -> [Mismatch] {
        if MigrationReplay.areExactlyTheDDL(migrations, of: schema) { return [] }
        let cache = IntrospectionCache()
        let declared = try MigrationReplay.declaredStructure(of: schema, catalog: catalog, cache: cache)
        let db = try MigrationReplay.replay(migrations)
        return try db.writeWithoutTransaction { conn in
            var result = SchemaDiff.compare(from: try SchemaIntrospector.introspect(conn, cache: cache), to: declared).map(Mismatch.structure)
            let renames = try? MigrationPlanner.renameSteps(
                schema: schema, declared: declared, conn: conn, history: MigrationPlanner.renameHistory(migrations), cache: cache)
            result += (renames?.pending ?? []).map(Mismatch.renameNotDone)
            return result
        }
    }

    /// Diagnostics for the compiled schema at `schemaPath` and the migrations beside it; empty
    /// when they agree.
    package static func verify(_ compiled: CompiledSchema, schemaPath: String) -> [Diagnostic] {
        verify(schema: compiled.schema, schemaPath: schemaPath, catalog: compiled.catalog)
    }

    /// Diagnostics for `schema` and the migrations beside it; `catalog` holds its DDL when the
    /// checks left one.
    static func verify(schema: Schema, schemaPath: String, catalog: ValidatedDatabase = ValidatedDatabase()) -> [Diagnostic] {
        let location = SourceLocation(file: schemaPath, line: 1, column: 1)
        let migrations: [Migration]
        do {
            migrations = try MigrationFiles.load(schemaPath: schemaPath)
        } catch let error as DiagnosticsError {
            return error.diagnostics
        } catch {
            return [Diagnostic(at: location, "cannot read the migrations: \(error)")]
        }
        return verify(schema: schema, schemaPath: schemaPath, migrations: migrations, catalog: catalog)
    }

    /// Diagnostics for the compiled schema against `migrations`.
    package static func verify(_ compiled: CompiledSchema, schemaPath: String, migrations: [Migration]) -> [Diagnostic] {
        verify(schema: compiled.schema, schemaPath: schemaPath, migrations: migrations, catalog: compiled.catalog)
    }

    /// Diagnostics for `schema` against `migrations`; `catalog` holds its DDL when the checks
    /// left one.
    static func verify(
        schema: Schema, schemaPath: String, migrations: [Migration], catalog: ValidatedDatabase = ValidatedDatabase()
    ) -> [Diagnostic] {
        let location = SourceLocation(file: schemaPath, line: 1, column: 1)
        let command = "run 'swift run strata migration new \(commandPath(schemaPath)) --name <name>'"
        let found: [Mismatch]
        do {
            found = try differences(schema: schema, migrations: migrations, catalog: catalog)
        } catch let error as StrataError {
            return [Diagnostic(at: location, "the migrations of this schema do not run: \(error.message)")]
        } catch {
            return [Diagnostic(at: location, "the migrations of this schema do not run: \(error)")]
        }
        // One error per difference, at the line of the table, column or index it is about.
        let locator = SchemaLocator(schema: schema)
        return found.map { mismatch in
            Diagnostic(at: locator.locate(mismatch.subject) ?? location, "the schema differs from its migrations: \(mismatch)", hint: command)
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
