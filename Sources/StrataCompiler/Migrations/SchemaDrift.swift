import Strata

/// Says how a live database differs from the structure its recorded version should have:
/// what `strata migrate` and `strata status` print under a drift refusal.
///
/// The runtime ``Migrator`` notices drift cheaply, by comparing ``SchemaFingerprint``s; it
/// cannot see what changed beyond the names of the objects. This replays the migrations up to
/// the database's version in an in-memory SQLite and compares the two structures object by
/// object: tables and indexes by structure (as ``SchemaIntrospector`` reads them, with
/// ``SchemaDiff``'s comparison), triggers and views by their SQL.
///
/// ```swift
/// let found = try db.read { try SchemaDrift.differences(in: $0, migrations: migrations, version: 2) }
/// // ["column customer.nickname is in the database but no migration creates it"]
/// ```
package enum SchemaDrift {
    /// The differences between the database of `conn` and the structure `migrations` up to
    /// `version` build, one sentence each; empty when they agree.
    package static func differences(in conn: Connection, migrations: [Migration], version: Int) throws -> [String] {
        let live = try SchemaIntrospector.introspect(conn)
        let liveObjects = try objects(conn)
        let replayed = try MigrationReplay.replay(migrations.filter { $0.version <= version })
        let (expected, expectedObjects) = try replayed.read { conn in (try SchemaIntrospector.introspect(conn), try objects(conn)) }
        // Tables, indexes and full-text search by structure; the other views and triggers by SQL.
        var result = SchemaDiff.compare(from: live, to: expected, viewsAndTriggers: false).map { $0.sentence(.drift) }
        let comparedByStructure = Set((expected.searchTriggers + live.searchTriggers).map { "trigger \($0.name)" })
        func bySQL(_ key: String) -> Bool { !key.hasPrefix("table ") && !key.hasPrefix("index ") && !comparedByStructure.contains(key) }
        for (key, sql) in expectedObjects.sorted(by: { $0.key < $1.key }) where bySQL(key) {
            if let liveSQL = liveObjects[key] {
                if liveSQL != sql { result.append("\(key) has SQL `\(oneLine(liveSQL))`, the migrations give `\(oneLine(sql))`") }
            } else {
                result.append("\(key) is missing (the migrations create it)")
            }
        }
        for key in liveObjects.keys.sorted() where expectedObjects[key] == nil && bySQL(key) {
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
