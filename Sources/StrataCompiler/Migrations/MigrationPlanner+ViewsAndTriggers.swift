/// The steps for the schema's declared views and triggers (top-level `views:` / `triggers:`).
///
/// When a schema declares views (or triggers), the migration makes the database's set equal to
/// the declared one: new ones are created last, changed ones dropped first and created again,
/// undeclared ones dropped. When it declares none, existing ones are left alone.
extension MigrationPlanner {
    struct ObjectSteps {
        var drops: [String] = []
        var creates: [String] = []
        var changes: [String] = []
        /// Names (ASCII case folded, as SQLite compares them) of the views and triggers this plan drops.
        var dropped: Set<String> = []
    }

    static func viewAndTriggerSteps(current: DatabaseSchema, declared: DatabaseSchema) -> ObjectSteps {
        var steps = ObjectSteps()
        func plan(kind: String, current: [(name: String, sql: String)], declared: [(name: String, sql: String)]) {
            for old in current {
                let new = declared.first { SQLName.fold($0.name) == SQLName.fold(old.name) }
                if let new, SchemaDiff.definition(of: new.sql) == SchemaDiff.definition(of: old.sql) { continue }
                steps.drops.append("DROP \(kind.uppercased()) \(q(old.name))")
                steps.dropped.insert(SQLName.fold(old.name))
                if new == nil { steps.changes.append("drop \(kind) \(old.name)") }
            }
            for new in declared {
                let old = current.first { SQLName.fold($0.name) == SQLName.fold(new.name) }
                if let old, SchemaDiff.definition(of: new.sql) == SchemaDiff.definition(of: old.sql) { continue }
                steps.creates.append(new.sql)
                steps.changes.append("\(old == nil ? "create" : "recreate") \(kind) \(new.name)")
            }
        }
        // Triggers are dropped before the views they may fire on, and created after them.
        if !declared.triggers.isEmpty {
            plan(kind: "trigger", current: current.triggers.map { ($0.name, $0.sql) }, declared: declared.triggers.map { ($0.name, $0.sql) })
        }
        let triggerCreates = steps.creates
        let triggerChanges = steps.changes
        steps.creates = []
        steps.changes = []
        if !declared.views.isEmpty {
            plan(kind: "view", current: current.views.map { ($0.name, $0.sql) }, declared: declared.views.map { ($0.name, $0.sql) })
        }
        steps.creates += triggerCreates
        steps.changes += triggerChanges
        return steps
    }
}
