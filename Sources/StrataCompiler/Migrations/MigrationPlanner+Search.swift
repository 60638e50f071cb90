/// The steps for full-text search (`search:`): the FTS5 table `<table>_fts` and its sync
/// triggers are schema-owned objects.
///
/// A new or changed index is (re)created and filled from the table's rows
/// (`INSERT INTO fts(fts) VALUES('rebuild')`); an index no longer declared is dropped with its
/// triggers. When the table is rebuilt its triggers go with the old table: they are created
/// again after the rebuild and the index is rebuilt, since the rowids may have changed.
extension MigrationPlanner {
    struct SearchSteps {
        var drops: [String] = []
        var creates: [String] = []
        var changes: [String] = []
    }

    static func searchSteps(current: DatabaseSchema, declared: DatabaseSchema, rebuilt: Set<SQLName.Key>) -> SearchSteps {
        var steps = SearchSteps()
        func contentTable(of searchTable: String) -> String { String(searchTable.dropLast(FullTextSearch.tableSuffix.count)) }
        func same(_ a: String, _ b: String) -> Bool { SchemaDiff.definition(of: a) == SchemaDiff.definition(of: b) }

        var recreatedTables: Set<String> = []
        for old in current.searchTables {
            let new = declared.searchTables.first { SQLName.same($0.name, old.name) }
            if let new, same(new.sql, old.sql) { continue }
            steps.drops.append("DROP TABLE \(q(old.name))")
            if new == nil { steps.changes.append("drop full-text index \(old.name)") }
        }
        var rebuilds: [String] = []
        for new in declared.searchTables {
            let content = contentTable(of: new.name)
            let old = current.searchTables.first { SQLName.same($0.name, new.name) }
            let hasRows = current.table(named: content) != nil
            if let old, same(new.sql, old.sql) {
                if rebuilt.contains(SQLName.key(content)) {
                    rebuilds.append(SQLRenderer.rebuildSearchSQL(new.name))
                    steps.changes.append("rebuild full-text index \(new.name) after the rebuild of \(content)")
                }
                continue
            }
            recreatedTables.insert(SQLName.fold(new.name))
            steps.creates.append(new.sql)
            steps.changes.append("\(old == nil ? "create" : "recreate") full-text index \(new.name)")
            if hasRows { rebuilds.append(SQLRenderer.rebuildSearchSQL(new.name)) }
        }

        var triggerDrops: [String] = []
        for old in current.searchTriggers {
            let new = declared.searchTriggers.first { SQLName.same($0.name, old.name) }
            if let new, same(new.sql, old.sql), !rebuilt.contains(SQLName.key(old.table)) { continue }
            triggerDrops.append("DROP TRIGGER IF EXISTS \(q(old.name))")
        }
        for new in declared.searchTriggers {
            let old = current.searchTriggers.first { SQLName.same($0.name, new.name) }
            if let old, same(new.sql, old.sql), !rebuilt.contains(SQLName.key(old.table)) { continue }
            steps.creates.append(new.sql)
        }
        steps.drops = triggerDrops + steps.drops
        steps.creates += rebuilds
        return steps
    }
}
