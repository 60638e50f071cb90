import Foundation
import Strata

/// The PostgreSQL migrations of a schema with `dialects: [sqlite, postgres]`:
/// `<Name>.migrations/postgres/NNNN_name.sql`, one per SQLite migration, with the same number
/// and name.
///
/// They are planned from the same difference as the SQLite ones (the structure the SQLite
/// migrations build, and the declared schema), but PostgreSQL alters in place where SQLite
/// rebuilds a table: `ALTER TABLE … ADD/DROP/RENAME COLUMN`, `ALTER COLUMN … TYPE/SET NOT
/// NULL/SET DEFAULT`, `RENAME TO`, `ADD FOREIGN KEY`, `ADD UNIQUE`. What the planner cannot
/// write yet (a changed primary key or identity, a dropped foreign key or UNIQUE constraint, an
/// added or dropped CHECK of an existing column: PostgreSQL names constraints itself) is written
/// into the file as a `-- TODO(strata):` line that fails the build until a person replaces it.
///
/// No PostgreSQL server runs at build time, so the build checks (``verify(schema:schemaPath:sqliteMigrations:)``):
/// - every SQLite migration has its PostgreSQL file with the same version and name, and none more;
/// - no file still holds a `-- TODO(strata):` line;
/// - the newest file ends with the schema it was written for: its `-- strata-postgres-schema:`
///   line holds ``fingerprint(of:)`` of the declared schema's PostgreSQL DDL.
///
/// The integration tests apply the files to a real server.
package enum PostgresMigrations {
    /// The folder name inside `<Name>.migrations`.
    package static let folderName = "postgres"
    /// The marker of a line a person must replace with SQL.
    package static let todoMarker = "-- TODO(strata):"
    /// The marker of the line naming the schema a file brings PostgreSQL to.
    package static let fingerprintMarker = "-- strata-postgres-schema:"
    /// The dialect the statements are written in.
    static let dialect = PostgresDialect()

    /// `Shop.migrations/postgres` for `Shop.schema.yml`.
    package static func directory(forSchemaPath schemaPath: String) -> String {
        (MigrationFiles.directory(forSchemaPath: schemaPath) as NSString).appendingPathComponent(folderName)
    }

    /// The PostgreSQL migrations of the schema at `schemaPath`, in version order.
    package static func load(schemaPath: String) throws -> [Migration] {
        try MigrationFiles.load(directory: directory(forSchemaPath: schemaPath))
    }

    /// The fingerprint of the PostgreSQL DDL of `schema`: 16 hex digits of its SHA-256.
    package static func fingerprint(of schema: Schema) -> String {
        String(Migration.checksum(of: PostgresRenderer.ddl(for: schema).joined(separator: ";\n")).prefix(16))
    }

    // MARK: - Build-time checks

    /// The build-time checks of the PostgreSQL files against the SQLite ones and the schema.
    package static func verify(schema: Schema, schemaPath: String, sqliteMigrations: [Migration]) -> [Diagnostic] {
        let directory = directory(forSchemaPath: schemaPath)
        let postgres: [Migration]
        do {
            postgres = try load(schemaPath: schemaPath)
        } catch let error as DiagnosticsError {
            return error.diagnostics
        } catch {
            return [Diagnostic(at: SourceLocation(file: directory, line: 1, column: 1), "cannot read the PostgreSQL migrations: \(error)")]
        }
        return verify(schema: schema, schemaPath: schemaPath, sqliteMigrations: sqliteMigrations, postgresMigrations: postgres)
    }

    /// The checks on already loaded files.
    package static func verify(
        schema: Schema, schemaPath: String, sqliteMigrations: [Migration], postgresMigrations: [Migration]
    ) -> [Diagnostic] {
        let directory = directory(forSchemaPath: schemaPath)
        func location(_ migration: Migration) -> SourceLocation {
            SourceLocation(file: (directory as NSString).appendingPathComponent(migration.fileName), line: 1, column: 1)
        }
        var diagnostics: [Diagnostic] = []
        let command = "strata migration new \(schemaPath) --name <name>"
        for (offset, migration) in sqliteMigrations.enumerated() {
            guard offset < postgresMigrations.count else {
                diagnostics.append(
                    Diagnostic(
                        at: SourceLocation(file: schemaPath, line: 1, column: 1),
                        "SQLite migration \(migration.fileName) has no PostgreSQL counterpart \(folderName)/\(migration.fileName)",
                        hint: "with postgres in 'dialects' each migration has both files: '\(command)' writes them; for a history older than the dialect, write \(directory)/\(migration.fileName) by hand"))
                continue
            }
            let other = postgresMigrations[offset]
            if other.fileName != migration.fileName {
                diagnostics.append(
                    Diagnostic(
                        at: location(other), "PostgreSQL migration \(other.fileName) should pair with SQLite migration \(migration.fileName)",
                        hint: "the two folders hold the same versions and names"))
            }
        }
        for other in postgresMigrations.dropFirst(sqliteMigrations.count) {
            diagnostics.append(
                Diagnostic(
                    at: location(other), "PostgreSQL migration \(other.fileName) has no SQLite counterpart",
                    hint: "the two folders hold the same versions and names; remove it or add the SQLite migration"))
        }
        for migration in postgresMigrations {
            for (number, line) in migration.sql.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.hasPrefix(todoMarker) {
                diagnostics.append(
                    Diagnostic(
                        at: SourceLocation(file: location(migration).file, line: number + 1, column: 1),
                        "the PostgreSQL migration is not finished: \(String(line.dropFirst(todoMarker.count)).trimmingSpaces)",
                        hint: "replace this line with the SQL that does it"))
            }
        }
        if let last = postgresMigrations.last, diagnostics.isEmpty {
            let expected = fingerprint(of: schema)
            let written = last.sql.split(separator: "\n").first { $0.hasPrefix(fingerprintMarker) }
                .map { String($0.dropFirst(fingerprintMarker.count)).trimmingSpaces }
            if written != expected {
                diagnostics.append(
                    Diagnostic(
                        at: location(last),
                        written == nil
                            ? "PostgreSQL migration \(last.fileName) does not say which schema it brings PostgreSQL to"
                            : "the PostgreSQL migrations were planned for another version of the schema (\(written ?? "")), not the declared one (\(expected))",
                        hint: written == nil
                            ? "when you have checked that it does, add the line '\(fingerprintMarker) \(expected)'"
                            : "run '\(command)' (the SQLite migrations may already match: then write the PostgreSQL change by hand and update the line to '\(fingerprintMarker) \(expected)')"))
            }
        }
        return diagnostics
    }

    // MARK: - Planning

    /// The PostgreSQL migration that goes with the SQLite migration planned from `sqliteMigrations`
    /// to `schema`: the same changes, altering in place. `manual` lists what it leaves to a person.
    ///
    /// It also keeps the observation triggers (``PostgresNotifyTriggers``) on every table: when
    /// `postgresMigrations` (the existing PostgreSQL files) do not create `strata_notify()` yet
    /// (``PostgresNotifyTriggers/isInstalled(by:)``: a first migration, or a history written
    /// before the migrations installed it), the migration creates the function and the trigger
    /// of every table; otherwise it creates the trigger of each table it creates.
    package static func plan(
        schema: Schema, sqliteMigrations: [Migration], postgresMigrations: [Migration] = [], options: MigrationPlanner.Options = .init()
    ) throws -> (plan: MigrationPlan, manual: [String]) {
        var plan = MigrationPlan()
        if sqliteMigrations.isEmpty {
            plan.statements = PostgresRenderer.ddl(for: schema) + PostgresRenderer.notifySQL(for: schema)
            plan.changes = SQLRenderer.dependencyOrder(schema).map { "create table \($0.sqlName)" }
                + schema.tables.flatMap { table in
                    table.indexes.map { "create index \($0.name)" } + (table.search == nil ? [] : ["create full-text index \(table.searchTableName)"])
                }
                + ["create the observation triggers (strata_notify)"]
            return (plan, [])
        }
        let declared = try MigrationReplay.declaredStructure(of: schema)
        let db = try MigrationReplay.replay(sqliteMigrations)
        let (renames, renameChanges, refusals, current) = try db.writeWithoutTransaction { conn in
            try MigrationPlanner.renameStatements(
                schema: schema, declared: declared, conn: conn, history: MigrationPlanner.renameHistory(sqliteMigrations))
        }
        if !refusals.isEmpty { throw MigrationPlanningError(refusals.map(\.0), locations: refusals.map(\.1)) }
        // `ALTER TABLE … RENAME TO` and `RENAME COLUMN … TO` are the same text in both dialects.
        plan.statements = renames
        plan.changes = renameChanges
        var manual: [String] = []
        var tableSteps: [String] = []
        var columnDrops: [String] = []
        var views = (drops: [String](), creates: [String]())
        let droppedTables = current.tables.filter { declared.table(named: $0.name) == nil }
        if !droppedTables.isEmpty && !options.allowDestructive {
            throw MigrationPlanningError(droppedTables.map { "table \($0.name) is no longer declared: pass --allow-destructive to drop it" })
        }
        var createdTables: [Table] = []
        var search = (drops: [String](), creates: [String]())
        for table in SQLRenderer.dependencyOrder(schema) {
            guard let new = declared.table(named: table.sqlName) else { continue }
            guard let old = current.table(named: new.name) else {
                tableSteps.append(PostgresRenderer.createTableSQL(table, in: schema))
                if table.search != nil { search.creates.append(PostgresSearch.createIndexSQL(of: table)) }
                plan.changes.append("create table \(table.sqlName)")
                createdTables.append(table)
                continue
            }
            let outcome = alterTable(table, old: old, new: new, schema: schema)
            tableSteps += outcome.statements
            columnDrops += outcome.drops
            plan.changes += outcome.changes
            manual += outcome.manual
            let steps = searchSteps(table, current: current, declared: declared, altered: !(outcome.statements + outcome.drops).isEmpty)
            search.drops += steps.drops
            search.creates += steps.creates
            plan.changes += steps.changes
        }
        // Indexes: dropped or changed ones go first (before columns they use are dropped),
        // new or changed ones last.
        var dropIndexes: [String] = []
        var createIndexes: [String] = []
        for index in current.indexes where declared.table(named: index.table) != nil {
            if let kept = declared.index(named: index.name), kept.isStructurallyEqual(to: index) { continue }
            dropIndexes.append("DROP INDEX IF EXISTS \(SQLRenderer.quoteIdentifier(index.name))")
            if declared.index(named: index.name) == nil { plan.changes.append("drop index \(index.name)") }
        }
        for table in schema.tables {
            for index in table.indexes {
                if let existing = current.index(named: index.name), let wanted = declared.index(named: index.name),
                    existing.isStructurallyEqual(to: wanted)
                {
                    continue
                }
                createIndexes.append(PostgresRenderer.createIndexSQL(index, on: table))
                plan.changes.append("\(current.index(named: index.name) == nil ? "create" : "recreate") index \(index.name)")
            }
        }
        // Views: a changed or dropped view is dropped first (PostgreSQL refuses to change the
        // type of a column a view uses) and created again last.
        for view in current.views {
            let kept = schema.views.first { SQLName.same($0.name, view.name) }
            let wanted = declared.views.first { SQLName.same($0.name, view.name) }
            let unchanged = kept != nil && wanted?.sql == view.sql
            if unchanged { continue }
            views.drops.append("DROP VIEW IF EXISTS \(SQLRenderer.quoteIdentifier(view.name))")
            plan.changes.append("\(kept == nil ? "drop" : "recreate") view \(view.name)")
        }
        for view in schema.views {
            let existing = current.views.first { SQLName.same($0.name, view.name) }
            let wanted = declared.views.first { SQLName.same($0.name, view.name) }
            let unchanged = existing != nil && existing?.sql == wanted?.sql
            if unchanged { continue }
            views.creates.append(PostgresRenderer.createViewSQL(view, in: schema))
            if existing == nil { plan.changes.append("create view \(view.name)") }
        }
        for table in droppedTables { plan.changes.append("drop table \(table.name) (its rows are deleted)") }
        var notify: [String]
        if PostgresNotifyTriggers.isInstalled(by: postgresMigrations) {
            notify = createdTables.map { PostgresNotifyTriggers.createTriggerStatement(table: $0.sqlName) }
        } else {
            notify = PostgresNotifyTriggers.installStatements(tables: SQLRenderer.dependencyOrder(schema).map(\.sqlName))
            plan.changes.append("create the observation triggers (strata_notify) of every table")
        }
        plan.statements += views.drops + search.drops + dropIndexes + tableSteps + columnDrops
            + droppedTables.map { "DROP TABLE \(SQLRenderer.quoteIdentifier($0.name))" } + search.creates + createIndexes + views.creates
            + notify
        if plan.statements.contains(where: { $0.contains(PostgresRenderer.nocaseCollation) }) {
            plan.statements.insert(PostgresRenderer.nocaseCollationSQL, at: 0)
        }
        return (plan, manual)
    }

    /// The steps of the search vector of `table`, which exists before and after: dropped when
    /// `search:` was removed or changed (the columns, the tokenizer, the table's name), added
    /// (with its GIN index) when it is declared and new or changed. A table `altered` in other
    /// ways has its vector dropped first and added again last: PostgreSQL refuses to change the
    /// type of, or drop, a column a generated column uses. (Adding the stored column rewrites
    /// the table once.)
    static func searchSteps(
        _ table: Table, current: DatabaseSchema, declared: DatabaseSchema, altered: Bool
    ) -> (drops: [String], creates: [String], changes: [String]) {
        let oldNames = [table.sqlName] + (table.renamedFrom.map { [$0] } ?? [])
        let old = current.searchTables.first { index in
            oldNames.contains { SQLName.same(index.name, $0 + FullTextSearch.tableSuffix) }
        }
        let new = declared.searchTables.first { SQLName.same($0.name, table.searchTableName) }
        guard old != nil || new != nil else { return ([], [], []) }
        let unchanged = old.map { old in
            new.map { SQLName.same(old.name, $0.name) && SchemaDiff.definition(of: old.sql) == SchemaDiff.definition(of: $0.sql) } ?? false
        } ?? false
        if unchanged && !altered { return ([], [], []) }
        let name = SQLRenderer.quoteIdentifier(table.sqlName)
        var steps = (drops: [String](), creates: [String](), changes: [String]())
        if let old {
            steps.drops.append("DROP INDEX IF EXISTS \(SQLRenderer.quoteIdentifier(old.name))")
            steps.drops.append("ALTER TABLE \(name) DROP COLUMN IF EXISTS \(SQLRenderer.quoteIdentifier(PostgresSearch.columnName))")
        }
        if let search = table.search {
            steps.creates.append("ALTER TABLE \(name) ADD COLUMN \(PostgresSearch.columnDefinition(search, of: table))")
            steps.creates.append(PostgresSearch.createIndexSQL(of: table))
            if !unchanged { steps.changes.append("\(old == nil ? "create" : "recreate") full-text index \(table.searchTableName)") }
        } else {
            steps.changes.append("drop full-text index \(old?.name ?? table.searchTableName)")
        }
        return steps
    }

    struct AlterOutcome {
        var statements: [String] = []
        var drops: [String] = []
        var changes: [String] = []
        var manual: [String] = []
    }

    /// The in-place changes of one table that exists before and after: what the one
    /// structural comparison (``SchemaDiff``) finds, made with `ALTER TABLE` where PostgreSQL can.
    static func alterTable(_ table: Table, old: DatabaseTable, new: DatabaseTable, schema: Schema) -> AlterOutcome {
        var outcome = AlterOutcome()
        let name = SQLRenderer.quoteIdentifier(table.sqlName)
        func alter(_ action: String) { outcome.statements.append("ALTER TABLE \(name) \(action)") }
        let differences = SchemaDiff.compare(old, to: new)
        var columnChanges: [SQLName.Key: [SchemaDifference.ColumnChange]] = [:]
        for case .columnChanged(let column, let changes) in differences.map(\.change) { columnChanges[SQLName.key(column)] = changes }
        for column in table.columns {
            let quoted = SQLRenderer.quoteIdentifier(column.sqlName)
            guard let oldColumn = old.column(named: column.sqlName), let newColumn = new.column(named: column.sqlName) else {
                var definition = dialect.columnDefinition(column, in: table, checks: true)
                if let key = SQLRenderer.foreignKeySQL(column, in: schema, inline: true) { definition += " " + key }
                alter("ADD COLUMN \(definition)")
                outcome.changes.append("add column \(table.sqlName).\(column.sqlName)")
                continue
            }
            // Type, then default, then NULL: a column that becomes NOT NULL is filled first.
            let changes = columnChanges[SQLName.key(column.sqlName)] ?? []
            if changes.contains(where: { if case .type = $0 { true } else { false } }) {
                let type = column.codec.postgresType
                alter("ALTER COLUMN \(quoted) TYPE \(type) USING \(quoted)::\(type)")
                outcome.changes.append("change the type of \(table.sqlName).\(column.sqlName) to \(type)")
            }
            if changes.contains(where: { if case .collation = $0 { true } else { false } }) {
                let type = column.codec.postgresType
                let collation = column.collation.flatMap(dialect.collationSQL) ?? "\"default\""
                alter("ALTER COLUMN \(quoted) TYPE \(type) COLLATE \(collation)")
                outcome.changes.append("change the collation of \(table.sqlName).\(column.sqlName) to \(collation)")
            }
            if changes.contains(where: { if case .defaultValue = $0 { true } else { false } }) {
                if let value = column.defaultValue {
                    alter("ALTER COLUMN \(quoted) SET DEFAULT \(dialect.defaultSQL(value, codec: column.codec))")
                } else {
                    alter("ALTER COLUMN \(quoted) DROP DEFAULT")
                }
                outcome.changes.append("change the default of \(table.sqlName).\(column.sqlName)")
            }
            if changes.contains(.notNull(target: newColumn.isNotNull)), oldColumn.primaryKeyPosition == 0, newColumn.primaryKeyPosition == 0 {
                if newColumn.isNotNull {
                    if let value = column.defaultValue {
                        outcome.statements.append(
                            "UPDATE \(name) SET \(quoted) = \(dialect.defaultSQL(value, codec: column.codec)) WHERE \(quoted) IS NULL")
                    }
                    alter("ALTER COLUMN \(quoted) SET NOT NULL")
                    outcome.changes.append("\(table.sqlName).\(column.sqlName) becomes NOT NULL")
                } else {
                    alter("ALTER COLUMN \(quoted) DROP NOT NULL")
                    outcome.changes.append("\(table.sqlName).\(column.sqlName) becomes nullable")
                }
            }
        }
        for column in old.columns where new.column(named: column.name) == nil {
            outcome.drops.append("ALTER TABLE \(name) DROP COLUMN \(SQLRenderer.quoteIdentifier(column.name))")
            outcome.changes.append("drop column \(table.sqlName).\(column.name) (its values are deleted)")
        }
        // Constraints of existing tables: PostgreSQL names them itself, so dropping one needs
        // its name from the server; left to a person, with the build failing until done.
        // Adding a constraint needs no name. A constraint of only added or only dropped
        // columns comes and goes with them.
        let addedNames = Set(new.columns.filter { old.column(named: $0.name) == nil }.map { SQLName.key($0.name) })
        let droppedNames = Set(old.columns.filter { new.column(named: $0.name) == nil }.map { SQLName.key($0.name) })
        func touchesOnlyChangedColumns(_ columns: [String], _ side: SchemaDifference.Side) -> Bool {
            let names = side == .onlyInTarget ? addedNames : droppedNames
            return !columns.isEmpty && columns.allSatisfy { names.contains(SQLName.key($0)) }
        }
        let addedChecks = Set(new.columns.filter { addedNames.contains(SQLName.key($0.name)) }.flatMap(\.checks))
        let droppedChecks = Set(old.columns.filter { droppedNames.contains(SQLName.key($0.name)) }.flatMap(\.checks))
        var manual: (key: [String], foreignKeys: [String], unique: [String], addedChecks: [String], droppedChecks: [String], identity: [String])
        manual = ([], [], [], [], [], [])
        for difference in differences {
            switch difference.change {
            case .primaryKey(_, let key):
                manual.key.append("table \(table.sqlName): the primary key becomes (\(key.joined(separator: ", ")))")
            case .foreignKey(let key, let side) where !touchesOnlyChangedColumns(key.columns, side):
                if side == .onlyInCurrent {
                    manual.foreignKeys.append("table \(table.sqlName): drop foreign key \(key.summary)")
                    continue
                }
                var sql = "ADD FOREIGN KEY (\(key.columns.map(SQLRenderer.quoteIdentifier).joined(separator: ", "))) REFERENCES "
                    + "\(SQLRenderer.quoteIdentifier(key.parentTable)) (\(key.parentColumns.map(SQLRenderer.quoteIdentifier).joined(separator: ", ")))"
                if key.onDelete != "NO ACTION" { sql += " ON DELETE \(key.onDelete)" }
                if key.onUpdate != "NO ACTION" { sql += " ON UPDATE \(key.onUpdate)" }
                alter(sql)
                outcome.changes.append("add foreign key \(key.summary) to \(table.sqlName)")
            case .unique(let unique, let side) where !touchesOnlyChangedColumns(unique, side):
                if side == .onlyInCurrent {
                    manual.unique.append("table \(table.sqlName): drop UNIQUE (\(unique.joined(separator: ", ")))")
                    continue
                }
                alter("ADD UNIQUE (\(unique.map(SQLRenderer.quoteIdentifier).joined(separator: ", ")))")
                outcome.changes.append("add UNIQUE (\(unique.joined(separator: ", "))) to \(table.sqlName)")
            case .check(let check, let written, .onlyInTarget) where !addedChecks.contains(check):
                manual.addedChecks.append("table \(table.sqlName): add CHECK (\(written))")
            case .check(let check, let written, .onlyInCurrent) where !droppedChecks.contains(check):
                manual.droppedChecks.append("table \(table.sqlName): drop CHECK (\(written))")
            case .autoincrement(let flag):
                manual.identity.append("table \(table.sqlName): \(flag ? "add" : "drop") the identity of its key")
            default:
                break
            }
        }
        outcome.manual = manual.key + manual.foreignKeys + manual.unique + manual.addedChecks + manual.droppedChecks + manual.identity
        return outcome
    }

    /// The file text of a planned PostgreSQL migration: the SQLite file's header, the
    /// `-- TODO(strata):` lines of `manual`, the fingerprint line, then the statements.
    package static func render(
        _ plan: MigrationPlan, manual: [String], version: Int, name: String, schemaFile: String, schema: Schema
    ) -> String {
        var header = MigrationRenderer.render(MigrationPlan(changes: plan.changes), version: version, name: name, schemaFile: schemaFile)
        for item in manual { header += "\(todoMarker) \(MigrationRenderer.commentText(item))\n" }
        header += "\(fingerprintMarker) \(fingerprint(of: schema))\n"
        return header + plan.statements.map { "\n\($0);\n" }.joined()
    }
}
