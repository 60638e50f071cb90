import Strata

/// Says how a live database differs from the structure its recorded version should have:
/// what `strata migrate` and `strata status` print under a drift refusal.
///
/// The runtime ``Migrator`` notices drift cheaply, by comparing ``SchemaFingerprint``s; it
/// cannot see what changed beyond the names of the objects. This replays the migrations up to
/// the database's version in an in-memory SQLite and compares the two structures object by
/// object: tables and indexes by structure (as ``SchemaIntrospector`` reads them), triggers
/// and views by their SQL.
///
/// ```swift
/// let found = try db.read { try SchemaDrift.differences(in: $0, migrations: migrations, version: 2) }
/// // ["column customer.nickname is in the database but no migration creates it"]
/// ```
public enum SchemaDrift {
    /// The differences between the database of `conn` and the structure `migrations` up to
    /// `version` build, one sentence each; empty when they agree.
    public static func differences(in conn: Connection, migrations: [Migration], version: Int) throws -> [String] {
        let live = try SchemaIntrospector.introspect(conn)
        let liveObjects = try objects(conn)
        let replayed = try MigrationReplay.replay(migrations.filter { $0.version <= version })
        let (expected, expectedObjects) = try replayed.read { conn in (try SchemaIntrospector.introspect(conn), try objects(conn)) }
        var result = differences(expected: expected, live: live)
        for (key, sql) in expectedObjects.sorted(by: { $0.key < $1.key }) where !key.hasPrefix("table ") && !key.hasPrefix("index ") {
            if let liveSQL = liveObjects[key] {
                if liveSQL != sql { result.append("\(key) has SQL `\(oneLine(liveSQL))`, the migrations give `\(oneLine(sql))`") }
            } else {
                result.append("\(key) is missing (the migrations create it)")
            }
        }
        for key in liveObjects.keys.sorted() where expectedObjects[key] == nil && !key.hasPrefix("table ") && !key.hasPrefix("index ") {
            result.append("\(key) is in the database but no migration creates it")
        }
        if result.isEmpty {
            // Same structure, different stored SQL (a table dropped and created again by hand
            // with other spelling, say): name the objects.
            for (key, sql) in expectedObjects.sorted(by: { $0.key < $1.key }) where liveObjects[key] != sql {
                result.append("\(key) has other SQL than the migrations give (the same structure)")
            }
            for key in liveObjects.keys.sorted() where expectedObjects[key] == nil {
                result.append("\(key) is in the database but no migration creates it")
            }
        }
        return result
    }

    /// The differences of two structures: `expected` (replayed) and `live`.
    public static func differences(expected: DatabaseSchema, live: DatabaseSchema) -> [String] {
        var result: [String] = []
        for table in expected.tables {
            guard let found = live.table(named: table.name) else {
                result.append("table \(table.name) is missing (the migrations create it)")
                continue
            }
            result += differences(expected: table, live: found)
        }
        for table in live.tables where expected.table(named: table.name) == nil {
            result.append("table \(table.name) is in the database but no migration creates it")
        }
        for index in expected.indexes {
            guard let found = live.index(named: index.name) else {
                result.append("index \(index.name) (\(index.summary)) is missing (the migrations create it)")
                continue
            }
            if !found.isStructurallyEqual(to: index) {
                result.append("index \(index.name) is \(found.summary) in the database, \(index.summary) in the migrations")
            }
        }
        for index in live.indexes where expected.index(named: index.name) == nil {
            result.append("index \(index.name) (\(index.summary)) is in the database but no migration creates it")
        }
        result += SchemaDiff.searchDifferences(from: live, to: expected)
        return result
    }

    static func differences(expected: DatabaseTable, live: DatabaseTable) -> [String] {
        var result: [String] = []
        let name = expected.name
        for column in expected.columns {
            guard let found = live.column(named: column.name) else {
                result.append("column \(name).\(column.name) is missing (the migrations create it)")
                continue
            }
            var changes: [String] = []
            if found.type != column.type { changes.append("type \(found.type) (the migrations give \(column.type))") }
            if found.isNotNull != column.isNotNull {
                changes.append(found.isNotNull ? "NOT NULL (the migrations leave it nullable)" : "nullable (the migrations make it NOT NULL)")
            }
            if found.normalizedDefault != column.normalizedDefault {
                changes.append("default \(found.defaultSQL ?? "none") (the migrations give \(column.defaultSQL ?? "none"))")
            }
            if found.primaryKeyPosition != column.primaryKeyPosition { changes.append("a different place in the primary key") }
            if found.hidden != column.hidden { changes.append("a different generated-column kind") }
            if !changes.isEmpty { result.append("column \(name).\(column.name) has \(changes.joined(separator: ", "))") }
        }
        for column in live.columns where expected.column(named: column.name) == nil {
            result.append("column \(name).\(column.name) is in the database but no migration creates it")
        }
        if live.primaryKey.map(SQLName.key) != expected.primaryKey.map(SQLName.key) {
            result.append(
                "table \(name) has primary key (\(live.primaryKey.joined(separator: ", "))), the migrations give (\(expected.primaryKey.joined(separator: ", ")))")
        }
        for key in expected.foreignKeys where !live.foreignKeyKeys.contains(key.normalized) {
            result.append("table \(name): foreign key \(key.summary) is missing")
        }
        for key in live.foreignKeys where !expected.foreignKeyKeys.contains(key.normalized) {
            result.append("table \(name): foreign key \(key.summary) is in the database but not in the migrations")
        }
        for unique in expected.uniqueConstraints where !live.uniqueKeys.contains(unique.map(SQLName.key)) {
            result.append("table \(name): UNIQUE (\(unique.joined(separator: ", "))) is missing")
        }
        for unique in live.uniqueConstraints where !expected.uniqueKeys.contains(unique.map(SQLName.key)) {
            result.append("table \(name): UNIQUE (\(unique.joined(separator: ", "))) is in the database but not in the migrations")
        }
        for check in expected.allChecks.subtracting(live.allChecks).sorted() {
            result.append("table \(name): CHECK (\(check)) is missing")
        }
        for check in live.allChecks.subtracting(expected.allChecks).sorted() {
            result.append("table \(name): CHECK (\(check)) is in the database but not in the migrations")
        }
        if live.isStrict != expected.isStrict {
            result.append("table \(name) is \(live.isStrict ? "" : "not ")STRICT, the migrations make it \(expected.isStrict ? "" : "not ")STRICT")
        }
        if live.isWithoutRowid != expected.isWithoutRowid { result.append("table \(name) differs in WITHOUT ROWID") }
        if live.isAutoincrement != expected.isAutoincrement { result.append("table \(name) differs in AUTOINCREMENT") }
        return result
    }

    /// `type name` → stored SQL of every object Strata fingerprints.
    static func objects(_ conn: Connection) throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try conn.fetch(
            sql: """
                SELECT type, name, sql FROM sqlite_master
                WHERE name NOT IN ('sqlite_sequence', '\(Migrator.historyTable)') AND tbl_name <> '\(Migrator.historyTable)'
                  AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                """)
        {
            result["\(try row.get(0, as: String.self)) \(try row.get(1, as: String.self))"] = try row.get(2, as: String?.self) ?? ""
        }
        return result
    }

    static func oneLine(_ sql: String) -> String {
        let words = sql.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return words.count > 120 ? String(words.prefix(117)) + "…" : words
    }
}
