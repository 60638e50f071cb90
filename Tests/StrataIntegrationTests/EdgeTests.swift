import Foundation
import Strata
import Testing

/// The generated code of `Edge.schema.yml`: keywords as Swift names, SQL names with spaces, a
/// table that is not STRICT, a self-referencing foreign key, text keys, odd enum values.
@Suite struct EdgeTests {
    @Test func keywordsSpacesAndSelfReferences() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-edge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try Database(path: dir.appendingPathComponent("edge.sqlite").path)
        try Edge.migrate(db)
        try db.write { conn throws in
            let nodes = NodeDAO(conn)
            let root = try nodes.insert(Node(default: "root", kind: .eBook, extra: ["a": 1]))
            let child = try nodes.insert(Node(default: "child'; DROP TABLE \"node table\"; --", protocol: "p", order: 2, parentId: root.id, kind: ._2nd))
            let sibling = try nodes.insert(Node(default: "sibling", order: 1, parentId: root.id))
            #expect(try nodes.children(parent: root.id) == [sibling, child])
            #expect(try nodes.withKind(kind: ._2nd) == 1)
            #expect(try nodes.parent(of: child) == root)
            #expect(try nodes.nodes(of: root).count == 2)
            #expect(try nodes.find(id: child.id)?.default == child.default)
            #expect(try conn.fetchValue(String.self, sql: #"SELECT kind FROM "node table" WHERE id = ?"#, arguments: [root.id]) == "e-book")
            // ON DELETE SET NULL on the same table.
            try nodes.delete(root)
            #expect(try nodes.find(id: child.id)?.parentId == nil)

            let settings = SettingDAO(conn)
            try settings.insert(Setting(key: "theme", value: "dark"))
            #expect(try settings.find(key: "theme")?.value == "dark")
            #expect(try settings.upsert(Setting(key: "theme", value: "light", flag: true)).flag)
            #expect(try settings.find(key: "theme") == Setting(key: "theme", value: "light", flag: true))
            #expect(Setting(key: "k", value: "v").id == "k", "Identifiable by its text key")
        }
    }

    @Test func bodyNamesEnumNamesConstantsAndComments() throws {
        let db = try Database.inMemory(configuration: Edge.configuration)
        try Edge.migrate(db)
        try db.write { conn in
            // A table whose only column is its autoincrement key: INSERT … DEFAULT VALUES.
            let ticks = TickDAO(conn)
            let first = try ticks.insert(Tick())
            let second = try ticks.insert(Tick())
            #expect(second.id == first.id + 1)
            // Queries named like the DAO's SQL constants.
            #expect(try ticks.select(after: first.id) == [second])
            #expect(try ticks.insertAssigningKey(after: 0) == 2)
            #expect(try ticks.tableSQLName(id: second.id))

            let entries = EntryDAO(conn)
            let entry = Entry(statement: 1, record: "a", selectId: first.id, prefs: Prefs(theme: "light"))
            #expect(entry.type == Entry.TypeValue.none, "the default is the enum case, not nil")
            #expect(entry.date == .today)
            try entries.insert(entry)
            try entries.insert(Entry(statement: 1, record: "b", type: .some, date: .later, prefs: Prefs(theme: "dark")))
            try entries.insert(Entry(statement: 1, record: "c", type: nil, prefs: Prefs(theme: "dark")))
            try entries.insert(Entry(statement: 2, record: "a", prefs: Prefs(theme: "dark")))
            // Key columns and parameters named like the generated bodies' locals.
            #expect(try entries.find(statement: 1, record: "a")?.type == Entry.TypeValue.none)
            #expect(try entries.find(statement: 1, record: "c")?.type == nil)
            #expect(try entries.matching(conn: 1, records: "a", record: "b", stored: "x", value: "y") == 2)
            // `--` comments in where and orderBy do not swallow ORDER BY and LIMIT.
            #expect(try entries.names(statement: 1).map(\.record) == ["c", "b"])
            // Navigation named `select`, and back.
            #expect(try entries.select(of: entry) == first)
            #expect(try ticks.entries(of: first).map(\.record) == ["a"])
            #expect(try entries.delete(statement: 2, record: "a"))
            // The json default is the column's SQL default.
            try conn.execute(sql: #"INSERT INTO "Entry" ("statement", "record") VALUES (3, 'z')"#)
            #expect(try entries.find(statement: 3, record: "z")?.prefs == Prefs(theme: "light"))
        }
    }

    @Test func aDecodingErrorLeavesNoStatementRunning() throws {
        let db = try Database.inMemory(configuration: Edge.configuration)
        try Edge.migrate(db)
        try db.writeWithoutTransaction { conn in
            let tick = try TickDAO(conn).insert(Tick())
            // "Entry" is not STRICT: a row can hold text that is not JSON.
            try conn.execute(sql: #"INSERT INTO "Entry" ("statement", "record", "selectId", "prefs") VALUES (1, 'a', ?, 'not json')"#, arguments: [tick.id])
            #expect(throws: StrataError.self) { try EntryDAO(conn).names(statement: 1) }
            #expect(throws: StrataError.self) { try TickDAO(conn).entries(of: tick) }
            // A statement left stepping would lock the table.
            try conn.execute(sql: #"DROP TABLE "Entry""#)
        }
    }

    @Test func nullInANotNullColumnOfANonStrictTableIsATypedError() throws {
        let db = try Database.inMemory()
        try Edge.migrate(db)
        try db.writeWithoutTransaction { conn in
            // Rebuild the table without its NOT NULL constraint, as a drifted database might be.
            try conn.execute(sql: "PRAGMA foreign_keys = OFF")
            try conn.execute(sql: #"CREATE TABLE "Setting2" ("key" TEXT PRIMARY KEY, "value" TEXT, "flag" INTEGER); DROP TABLE "Setting"; ALTER TABLE "Setting2" RENAME TO "Setting"; INSERT INTO "Setting" VALUES ('k', NULL, 0)"#)
        }
        let error = #expect(throws: StrataError.self) { try db.read { conn in try SettingDAO(conn).find(key: "k") } }
        #expect(error?.kind == .decoding)
        #expect(error?.message.contains("Setting.value is NULL") == true)
    }
}

/// The `swiftType` of `Entry.prefs`: a json column's type is `Codable & Sendable & Hashable`.
public struct Prefs: Codable, Sendable, Hashable {
    public var theme: String
    public init(theme: String) { self.theme = theme }
}
