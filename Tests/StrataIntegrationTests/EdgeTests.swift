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
