import Strata

/// Plans the migration that turns the database built by the existing migrations into the
/// declared schema, without losing data.
///
/// - Renames happen only through `renamedFrom` (tables and columns), as `ALTER TABLE … RENAME`.
/// - Added and dropped columns use `ALTER TABLE … ADD COLUMN` / `DROP COLUMN` when SQLite
///   allows it; every other change rebuilds the table with SQLite's 12-step procedure (create
///   `new_X`, copy with explicit column lists, drop `X`, rename, recreate indexes, triggers and
///   the views that use it), keeping its AUTOINCREMENT counter.
/// - Dropping a table or column is refused without `allowDestructive`; a new NOT NULL column
///   without a default, or a column that becomes NOT NULL without a default to fill its NULLs,
///   is refused always.
/// - The plan is checked before it is returned: applied to the replayed database it must
///   produce exactly the declared structure.
///
/// ```swift
/// let plan = try MigrationPlanner.plan(schema: schema, migrations: try MigrationFiles.load(schemaPath: path))
/// if !plan.isEmpty { print(MigrationRenderer.render(plan, version: 2, name: "add_phone", schemaFile: "Shop.schema.yml")) }
/// ```
package enum MigrationPlanner {
    /// What the planner may do.
    package struct Options: Hashable, Sendable {
        /// Allow dropping tables and columns (their data is deleted).
        package var allowDestructive: Bool

        /// Creates options.
        package init(allowDestructive: Bool = false) {
            self.allowDestructive = allowDestructive
        }
    }

    /// The migration from the database that `migrations` build to the compiled schema.
    package static func plan(_ compiled: CompiledSchema, migrations: [Migration], options: Options = Options()) throws -> MigrationPlan {
        try plan(schema: compiled.schema, migrations: migrations, options: options, catalog: compiled.catalog)
    }

    /// The migration from the database that `migrations` build to `schema`; `catalog` holds
    /// its DDL when the checks left one.
    static func plan(
        schema: Schema, migrations: [Migration], options: Options = Options(), catalog: ValidatedDatabase = ValidatedDatabase()
    ) throws -> MigrationPlan {
        let history = renameHistory(migrations)
        // The migrations are replayed in bulk (``BulkReplay``: linear in the tables they
        // create) and the check of the plan enters the new tables and their indexes in bulk
        // (linear in the schema's size). Should either refuse, or the check fail on that
        // database, the migrations are replayed again by the runtime's Migrator and the plan
        // checked by executing every statement: what that gives is the answer.
        func executingEveryStatement(enterNewTablesInBulk: Bool) throws -> MigrationPlan {
            let db = try MigrationReplay.replay(migrations)
            return try db.writeWithoutTransaction { conn in
                try plan(
                    schema: schema, current: conn, options: options, history: history, catalog: catalog,
                    enterNewTablesInBulk: enterNewTablesInBulk)
            }
        }
        if let replay = try? BulkReplay.replay(migrations, checked: catalog) {
            do {
                return try replay.db.writeWithoutTransaction { conn in
                    try plan(
                        schema: schema, current: conn, options: options, history: history, catalog: catalog, enterNewTablesInBulk: true,
                        replay: replay)
                }
            } catch let error as MigrationPlanningError {
                throw error  // the schema's problems, found before anything is executed
            } catch {
                return try executingEveryStatement(enterNewTablesInBulk: false)
            }
        }
        do {
            return try executingEveryStatement(enterNewTablesInBulk: true)
        } catch is BulkEntryRefused {
            return try executingEveryStatement(enterNewTablesInBulk: false)
        }
    }

    /// SQLite refused the bulk entry of the new tables (``SQLiteChecker/enter(_:into:)``), or
    /// the check of the plan failed on a database built in bulk: the plan is made again on
    /// the Migrator's replay, every statement executed.
    struct BulkEntryRefused: Error {}

    /// The migration from the database open on `conn` to `schema`. `conn` is a scratch
    /// database: the plan is applied to it to check it. Without the migrations that built it,
    /// hints that swap names (`renamedFrom` in a cycle) always count as still to do.
    package static func plan(schema: Schema, current conn: Connection, options: Options = Options()) throws -> MigrationPlan {
        try plan(schema: schema, current: conn, options: options, history: nil, enterNewTablesInBulk: false)
    }

    /// The renames still to do, in order, as statements (with their summary lines), for the
    /// database on `conn`. `history` holds the renames each existing migration performed.
    static func renameStatements(
        schema: Schema, declared: DatabaseSchema, conn: Connection, history: RenameHistory?, replay: BulkReplay? = nil,
        cache: IntrospectionCache? = nil
    ) throws -> (statements: [String], changes: [String], refusals: [(String, SourceLocation?)], after: DatabaseSchema) {
        let steps = try renameSteps(schema: schema, declared: declared, conn: conn, history: history, replay: replay, cache: cache)
        return (steps.statements, steps.pending.map(\.summary), steps.refusals, steps.after)
    }

    /// The renames still to do (typed, with their statements), the hints refused, and the
    /// structure after the renames; the statements are applied to the database on `conn`
    /// (through `replay` when it built that database). The database is introspected through
    /// `cache`, if given.
    static func renameSteps(
        schema: Schema, declared: DatabaseSchema, conn: Connection, history: RenameHistory?, replay: BulkReplay? = nil,
        cache: IntrospectionCache? = nil
    ) throws -> (statements: [String], pending: [PendingRename], refusals: [(String, SourceLocation?)], after: DatabaseSchema) {
        var statements: [String] = []
        var changes: [PendingRename] = []
        var refusals: [(String, SourceLocation?)] = []
        let before = try SchemaIntrospector.introspect(conn, cache: cache)
        var taken = takenTableNames(before, declared: declared, schema: schema)
        let tableHints = schema.tables.compactMap { table in table.renamedFrom.map { RenameHint(to: table.sqlName, from: $0) } }
        let pendingTables = pendingHints(tableHints, existing: before.tables.map(\.name), done: history?.tables)
        for table in schema.tables {
            guard let from = table.renamedFrom,
                let problem = ambiguousHint(
                    kind: "table", name: table.sqlName, target: table.sqlName, from: from, existing: before.tables.map(\.name),
                    declared: schema.tables.map(\.sqlName), pending: pendingTables)
            else { continue }
            refusals.append((problem, table.location))
        }
        for hint in pendingTables { changes.append(PendingRename(table: nil, from: hint.from, to: hint.to)) }
        for move in orderedMoves(pendingTables, direct: false, temporary: { freshName("strata_rename", avoiding: &taken) }) {
            statements.append("ALTER TABLE \(q(move.from)) RENAME TO \(q(move.to))")
        }
        func execute(_ sql: String) throws {
            if let replay { try replay.execute(sql, on: conn) } else { try conn.execute(sql: sql) }
        }
        try statements.forEach(execute)
        let renamed = statements.isEmpty ? before : try SchemaIntrospector.introspect(conn, cache: cache)
        let columnStart = statements.count
        for table in schema.tables {
            guard let old = renamed.table(named: table.sqlName) else { continue }
            let hints = table.columns.compactMap { column in column.renamedFrom.map { RenameHint(to: column.sqlName, from: $0) } }
            // The history knows the table by its name before this migration's table renames.
            let previousName = pendingTables.last(where: { SQLName.same($0.to, table.sqlName) })?.from ?? old.name
            let pending = pendingHints(hints, existing: old.columns.map(\.name), done: history?.columns(of: previousName))
            for column in table.columns {
                guard let from = column.renamedFrom,
                    let problem = ambiguousHint(
                        kind: "column", name: "\(old.name).\(column.sqlName)", target: column.sqlName, from: from, existing: old.columns.map(\.name),
                        declared: table.columns.map(\.sqlName), pending: pending)
                else { continue }
                refusals.append((problem, column.location))
            }
            var takenColumns = Set((old.columns.map(\.name) + table.columns.map(\.sqlName)).map(SQLName.key))
            for hint in pending { changes.append(PendingRename(table: old.name, from: hint.from, to: hint.to)) }
            for move in orderedMoves(pending, direct: true, temporary: { freshName("strata_rename", avoiding: &takenColumns) }) {
                statements.append("ALTER TABLE \(q(old.name)) RENAME COLUMN \(q(move.from)) TO \(q(move.to))")
            }
        }
        try statements[columnStart...].forEach(execute)
        let after = statements.count == columnStart ? renamed : try SchemaIntrospector.introspect(conn, cache: cache)
        return (statements, changes, refusals, after)
    }

    /// With `enterNewTablesInBulk`, the check of the plan (step 5) does not execute the
    /// `CREATE TABLE` and `CREATE INDEX` statements of the tables the plan creates: SQLite's
    /// cost of each `CREATE` grows with the objects already in the database, so executing
    /// a new schema of n tables costs n². Those statements are the declared database's own
    /// SQL, executed there already; they are entered into `conn`'s schema at once, where the
    /// plan would have created the last of them (``SQLiteChecker/enter(_:into:)``), and the
    /// database is introspected and compared as usual. Not when the plan creates full-text
    /// search tables, whose creation reads their content table's rows (an entered table has
    /// none to read). Throws ``BulkEntryRefused`` when SQLite refuses the entries: `conn` is
    /// then unusable. With `replay`, the ``BulkReplay`` that built the database on `conn`,
    /// every statement is executed through it, and a check that fails throws
    /// ``BulkEntryRefused`` too (or ``BulkReplay/Refused``), for the caller to plan again
    /// on the Migrator's replay. The declared database, the one on `conn` and the plan applied
    /// to it are introspected through one ``IntrospectionCache``: the tables the plan leaves
    /// alone are asked to SQLite once, not once per introspection.
    static func plan(
        schema: Schema, current conn: Connection, options: Options, history: RenameHistory?,
        catalog: ValidatedDatabase = ValidatedDatabase(), enterNewTablesInBulk: Bool = true, replay: BulkReplay? = nil
    ) throws -> MigrationPlan {
        let cache = IntrospectionCache()
        let declared = try MigrationReplay.declaredStructure(of: schema, catalog: catalog, cache: cache)
        var plan = MigrationPlan()
        var problems: [PlanningProblem] = []

        // 1. Renames, applied to the scratch database right away so that everything after
        //    compares by the new names.
        let (renames, renameChanges, refusals, current) = try renameStatements(
            schema: schema, declared: declared, conn: conn, history: history, replay: replay, cache: cache)
        if !refusals.isEmpty { throw MigrationPlanningError(refusals.map(\.0), locations: refusals.map(\.1)) }
        plan.changes += renameChanges
        var taken = takenTableNames(current, declared: declared, schema: schema)

        // 2. Tables.
        var tableSteps: [String] = []
        var dropTableSteps: [String] = []
        var rebuilt: Set<SQLName.Key> = []
        var created: Set<SQLName.Key> = []
        let newTables = declared.tables.filter { current.table(named: $0.name) == nil }
        let droppedTables = current.tables.filter { declared.table(named: $0.name) == nil }
        for table in droppedTables {
            if !options.allowDestructive {
                if let twin = newTables.first(where: { sameShape($0, table) }) {
                    // At the new table's line, where `renamedFrom:` would go.
                    problems.append(PlanningProblem(.table(twin.name),
                        "table \(table.name) is no longer declared and the new table \(twin.name) has the same columns: if \(twin.name) is \(table.name) renamed, add `renamedFrom: \(table.name)` to it; to drop \(table.name) and create \(twin.name), pass --allow-destructive"))
                } else {
                    problems.append(PlanningProblem(.table(table.name),
                        "table \(table.name) is no longer declared: dropping it deletes its rows; pass --allow-destructive to drop it, or add `renamedFrom: \(table.name)` to the table that replaces it"))
                }
            }
            dropTableSteps.append("DROP TABLE \(q(table.name))")
        }
        for table in SQLRenderer.dependencyOrder(schema) {
            guard let new = declared.table(named: table.sqlName) else { continue }
            guard let old = current.table(named: new.name) else {
                tableSteps.append(new.sql)
                created.insert(SQLName.key(new.name))
                plan.changes.append("create table \(new.name)")
                continue
            }
            let outcome = planTable(
                old: old, new: new, current: current, options: options, temporary: { freshName("new_\(new.name)", avoiding: &taken) })
            problems += outcome.problems
            tableSteps += outcome.statements
            plan.changes += outcome.changes
            if outcome.rebuilt { rebuilt.insert(SQLName.key(new.name)) }
        }
        for table in droppedTables {
            plan.changes.append("drop table \(table.name) (its rows are deleted)")
        }

        // 3. Indexes: a rebuilt or new table gets all of its indexes; elsewhere only the ones
        //    that are new or changed. Indexes go before columns are dropped and come back last.
        let goneWithTable = rebuilt.union(droppedTables.map { SQLName.key($0.name) })
        var dropIndexSteps: [String] = []
        var createIndexSteps: [String] = []
        for index in current.indexes where !goneWithTable.contains(SQLName.key(index.table)) {
            if let kept = declared.index(named: index.name), kept.isStructurallyEqual(to: index) { continue }
            dropIndexSteps.append("DROP INDEX \(q(index.name))")
            if declared.index(named: index.name) == nil { plan.changes.append("drop index \(index.name)") }
        }
        for index in declared.indexes {
            let table = SQLName.key(index.table)
            if !rebuilt.contains(table) && !created.contains(table), let existing = current.index(named: index.name),
                existing.isStructurallyEqual(to: index)
            {
                continue
            }
            createIndexSteps.append(index.sql)
            if !rebuilt.contains(table) {
                plan.changes.append("\(current.index(named: index.name) == nil ? "create" : "recreate") index \(index.name) (\(index.summary))")
            }
        }

        // 4. Views and triggers that use a rebuilt table — on any table, and through views
        //    that use it — are dropped before the rebuilds and created again after (SQLite
        //    checks every view and trigger when the rebuilt table is renamed into place);
        //    the schema's own views and triggers are created, changed and dropped.
        let objectSteps = viewAndTriggerSteps(current: current, declared: declared)
        let ftsSteps = searchSteps(current: current, declared: declared, rebuilt: rebuilt)
        let (dependentViews, dependentTriggers) = dependents(of: rebuilt, in: current)
        let viewsToKeep = dependentViews.filter { !objectSteps.dropped.contains(SQLName.fold($0.name)) }
        let triggersToKeep = dependentTriggers.filter { !objectSteps.dropped.contains(SQLName.fold($0.name)) }
        plan.changes += objectSteps.changes + ftsSteps.changes
        for view in viewsToKeep { plan.changes.append("recreate view \(view.name) around the rebuild") }
        for trigger in triggersToKeep { plan.changes.append("recreate trigger \(trigger.name) around the rebuild") }

        if !problems.isEmpty {
            let locator = SchemaLocator(schema: schema)
            throw MigrationPlanningError(problems.map(\.sentence), locations: problems.map { locator.locate($0.subject) })
        }

        var remaining: [String] = ftsSteps.drops
        remaining +=
            objectSteps.drops + dropIndexSteps + triggersToKeep.map { "DROP TRIGGER IF EXISTS \(q($0.name))" }
            + viewsToKeep.reversed().map { "DROP VIEW \(q($0.name))" } + tableSteps + dropTableSteps + createIndexSteps
        // Where the check enters the new tables in bulk: after the last index is created.
        let indexStepsEnd = remaining.count
        remaining += viewsToKeep.map(\.sql) + triggersToKeep.map(\.sql) + objectSteps.creates
        remaining += ftsSteps.creates
        plan.statements = renames + remaining

        // 5. Check: the plan applied to the replayed database gives the declared structure.
        if !remaining.isEmpty {
            try conn.execute(sql: "PRAGMA foreign_keys = OFF")
            // The new tables and their indexes, entered at once where the last new index
            // would be created (after the old tables are dropped, before views and triggers).
            // Entering makes SQLite read the whole schema again, so a few new tables beside many
            // existing ones (fewer than one for 16) are executed instead: each `CREATE` costs one
            // pass over `sqlite_master`, far less than reading every entry's SQL again.
            var entered: [String: SQLiteChecker.SchemaObject] = [:]
            if enterNewTablesInBulk && !created.isEmpty && ftsSteps.creates.isEmpty && created.count * 16 > current.tables.count {
                for table in declared.tables where created.contains(SQLName.key(table.name)) {
                    entered[table.sql] = SQLiteChecker.SchemaObject(type: "table", name: table.name, tableName: table.name, sql: table.sql)
                }
                for index in declared.indexes where created.contains(SQLName.key(index.table)) {
                    entered[index.sql] = SQLiteChecker.SchemaObject(type: "index", name: index.name, tableName: index.table, sql: index.sql)
                }
            }
            var pending: [SQLiteChecker.SchemaObject] = []
            do {
                for (position, statement) in remaining.enumerated() {
                    if position < indexStepsEnd, let object = entered[statement] {
                        pending.append(object)
                    } else {
                        CompileWork.countDDLStatement()
                        if let replay { try replay.execute(statement, on: conn) } else { try conn.execute(sql: statement) }
                    }
                    if position == indexStepsEnd - 1, !pending.isEmpty {
                        // Tables first, in the plan's order, then their indexes.
                        let objects = pending.filter { $0.type == "table" } + pending.filter { $0.type == "index" }
                        guard SQLiteChecker.enter(objects, into: conn) else { throw BulkEntryRefused() }
                        pending = []
                    }
                }
            } catch let error as BulkEntryRefused {
                throw error
            } catch let error as BulkReplay.Refused {
                throw error
            } catch {
                if replay != nil { throw BulkEntryRefused() }
                throw MigrationPlanningError(["the planned migration does not run (\(error)); this is a bug in Strata: write this migration by hand"])
            }
            if !pending.isEmpty { throw BulkEntryRefused() }
        }
        let after = try SchemaIntrospector.introspect(conn, cache: cache)
        var result = SchemaDiff.compare(from: after, to: declared).map { $0.sentence(.schema) }
        let droppedKeys = Set(droppedTables.map { SQLName.key($0.name) })
        // The schema's own views and triggers that this plan drops or changes are compared
        // with the declared ones by the diff above; every other one must come back unchanged.
        for view in current.views where !objectSteps.dropped.contains(SQLName.fold(view.name))
            && after.views.first(where: { SQLName.same($0.name, view.name) })?.sql != view.sql
        {
            result.append("view \(view.name) is lost or changed")
        }
        for trigger in current.triggers
        where !droppedKeys.contains(SQLName.key(trigger.table)) && !objectSteps.dropped.contains(SQLName.fold(trigger.name)) {
            if after.triggers.first(where: { SQLName.same($0.name, trigger.name) })?.sql != trigger.sql {
                result.append("trigger \(trigger.name) is lost or changed")
            }
        }
        if !result.isEmpty {
            if replay != nil { throw BulkEntryRefused() }
            throw MigrationPlanningError([
                "the planned migration does not produce the declared schema (\(result.joined(separator: "; "))); this is a bug in Strata: write this migration by hand"
            ])
        }
        return plan
    }

    struct TableOutcome {
        var statements: [String] = []
        var changes: [String] = []
        var problems: [PlanningProblem] = []
        var rebuilt = false
    }

    /// The steps for one table that exists on both sides (after renames).
    /// `temporary` names the rebuild's new table (a name no table, old or new, has).
    static func planTable(
        old: DatabaseTable, new: DatabaseTable, current: DatabaseSchema, options: Options, temporary: () -> String
    ) -> TableOutcome {
        var outcome = TableOutcome()
        let name = new.name
        let added = new.columns.filter { old.column(named: $0.name) == nil }
        let dropped = old.columns.filter { new.column(named: $0.name) == nil }
        let addedNames = Set(added.map { SQLName.key($0.name) })

        for column in dropped where !options.allowDestructive {
            let subject = SchemaSubject.column(table: name, column: column.name)  // not declared: its table's line
            if let twin = added.first(where: { $0.type == column.type }) {
                outcome.problems.append(PlanningProblem(subject,
                    "column \(name).\(column.name) is no longer declared and the new column \(name).\(twin.name) has the same type: if it is a rename, add `renamedFrom: \(column.name)` to \(twin.name); to drop \(column.name) and add \(twin.name), pass --allow-destructive"))
            } else {
                outcome.problems.append(PlanningProblem(subject,
                    "column \(name).\(column.name) is no longer declared: dropping it deletes its values; pass --allow-destructive to drop it, or add `renamedFrom: \(column.name)` to the column that replaces it"))
            }
        }
        for column in added where column.isNotNull && column.normalizedDefault == nil && !isRowidAlias(column, in: new) {
            outcome.problems.append(PlanningProblem(.column(table: name, column: column.name),
                "column \(name).\(column.name) is new and NOT NULL without a default, so the existing rows would have no value for it: add a `default:` (it fills the existing rows) or make it optional"))
        }

        // Why the table must be rebuilt: each difference of the one structural comparison
        // that ALTER TABLE cannot make. (ADD COLUMN adds a new column with its own CHECK, and
        // with its foreign key when it has no default.)
        var reasons: [String] = []
        let addedChecks = Set(added.flatMap(\.checks))
        for difference in SchemaDiff.compare(old, to: new) {
            switch difference.change {
            case .columnChanged(let column, let changes):
                reasons.append("\(column) \(SchemaDifference.phrases(changes).joined(separator: ", "))")
                if changes.contains(.notNull(target: true)), new.column(named: column)?.normalizedDefault == nil {
                    outcome.problems.append(PlanningProblem(.column(table: name, column: column),
                        "column \(name).\(column) becomes NOT NULL but has no default to fill the rows where it is NULL: add a `default:` (it is used as the fill value) or keep the column optional"))
                }
            case .primaryKey(_, let key):
                reasons.append("primary key becomes (\(key.joined(separator: ", ")))")
            case .strict(let flag):
                reasons.append(flag ? "becomes STRICT" : "stops being STRICT")
            case .withoutRowid:
                reasons.append("WITHOUT ROWID changes")
            case .autoincrement(let flag):
                reasons.append(flag ? "gains AUTOINCREMENT" : "loses AUTOINCREMENT")
            case .foreignKey(let key, .onlyInTarget):
                let onAddedColumn = key.columns.count == 1 && addedNames.contains(SQLName.key(key.columns[0]))
                    && new.column(named: key.columns[0])?.normalizedDefault == nil
                if !onAddedColumn { reasons.append("add foreign key \(key.summary)") }
            case .foreignKey(let key, .onlyInCurrent):
                reasons.append("drop foreign key \(key.summary)")
            case .unique(let columns, let side):
                reasons.append("\(side == .onlyInTarget ? "add" : "drop") UNIQUE (\(columns.joined(separator: ", ")))")
            case .check(let check, let written, .onlyInTarget):
                if !addedChecks.contains(check) { reasons.append("add CHECK (\(written))") }
            case .check(_, let written, .onlyInCurrent):
                reasons.append("drop CHECK (\(written))")
            case .column, .table, .index, .indexChanged, .object, .objectChanged:
                break  // added and dropped columns below; the rest is not of one table
            }
        }
        for column in added where column.primaryKeyPosition > 0 || column.hasNonConstantDefault {
            reasons.append("add column \(column.name) (\(column.primaryKeyPosition > 0 ? "a key column" : "a non-constant default") needs a rebuild)")
        }
        for column in dropped where !canDropWithAlter(column, from: old, current: current) {
            reasons.append("drop column \(column.name) (indexed, unique, key, checked or referenced)")
        }

        if reasons.isEmpty {
            for column in added {
                var definition = column.definition
                if let key = new.foreignKeys.first(where: { $0.columns.count == 1 && SQLName.same($0.columns[0], column.name) }) {
                    definition += " REFERENCES \(q(key.parentTable)) (\(key.parentColumns.map(q).joined(separator: ", ")))"
                    if key.onDelete != "NO ACTION" { definition += " ON DELETE \(key.onDelete)" }
                    if key.onUpdate != "NO ACTION" { definition += " ON UPDATE \(key.onUpdate)" }
                }
                outcome.statements.append("ALTER TABLE \(q(name)) ADD COLUMN \(q(column.name)) \(definition)")
                outcome.changes.append("add column \(name).\(column.name) (\(definition))")
            }
            for column in dropped {
                outcome.statements.append("ALTER TABLE \(q(name)) DROP COLUMN \(q(column.name))")
                outcome.changes.append("drop column \(name).\(column.name) (its values are deleted)")
            }
            return outcome
        }

        // The 12-step rebuild.
        outcome.rebuilt = true
        let summary = added.filter { column in !reasons.contains { $0.hasPrefix("add column \(column.name) ") } }.map { "add column \($0.name)" }
            + reasons + dropped.filter { column in !reasons.contains { $0.hasPrefix("drop column \(column.name) ") } }.map { "drop column \($0.name)" }
        outcome.changes.append("rebuild table \(name): \(summary.joined(separator: "; "))")
        let temporary = temporary()
        outcome.statements.append(SQLTokenizer.renamingCreateTable(new.sql, to: q(temporary)))
        let copied = new.columns.compactMap { column -> (String, String)? in
            guard let oldColumn = old.column(named: column.name) else { return nil }
            if !oldColumn.isNotNull, column.isNotNull, let fill = column.defaultSQL {
                return (q(column.name), "coalesce(\(q(oldColumn.name)), \(fill))")
            }
            return (q(column.name), q(oldColumn.name))
        }
        if !copied.isEmpty {
            outcome.statements.append(
                "INSERT INTO \(q(temporary)) (\(copied.map(\.0).joined(separator: ", ")))\n  SELECT \(copied.map(\.1).joined(separator: ", ")) FROM \(q(old.name))")
        }
        if old.isAutoincrement && new.isAutoincrement {
            // Keep the AUTOINCREMENT counter: hand X's sqlite_sequence row to new_X before X
            // is dropped (DROP TABLE deletes it); the rename carries it back to X. The row
            // holds X's name as the database spells it, which may differ in case from the
            // declared one (`name = ` compares exactly).
            outcome.statements.append("DELETE FROM sqlite_sequence WHERE name = \(literal(temporary))")
            outcome.statements.append("UPDATE sqlite_sequence SET name = \(literal(temporary)) WHERE name = \(literal(old.name))")
        }
        outcome.statements.append("DROP TABLE \(q(old.name))")
        outcome.statements.append("ALTER TABLE \(q(temporary)) RENAME TO \(q(name))")
        return outcome
    }
}
