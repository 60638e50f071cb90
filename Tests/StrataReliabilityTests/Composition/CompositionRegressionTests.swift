// SQLCipher builds leave out SQLite's session extension, so changesets exist only where the
// system SQLite is linked (docs/Encryption.md; plugin-driven builds enable both traits).
#if SystemSQLite || !SQLCipher
import CSQLite
import Foundation
import Strata
import StrataTestSupport
import Testing

/// What the combination test (CompositionTests) found, each as a named test on
/// `Compose.schema.yml`.
@Suite struct CompositionRegressionTests {
    static func pair(_ dir: TemporaryDirectory) throws -> (Database, Database) {
        let source = try Database(path: dir.path("source.sqlite"))
        let replica = try Database(path: dir.path("replica.sqlite"))
        for db in [source, replica] {
            try Compose.migrate(db)
            try db.write { conn in
                for id in 0...2 { try FolderDAO(conn).insert(Folder(id: id, name: "folder \(id)")) }
            }
        }
        return (source, replica)
    }

    static func rows(_ db: Database, _ sql: String) throws -> [String] {
        try db.read { conn in try conn.fetch(sql: sql).map { "\($0.values)" } }
    }

    /// Found at seed 25, step 1,091: a transaction upserted the same note twice (inserted into
    /// folder 1, then moved to folder 2) and the trigger `countNotes` counted it in folder 1.
    /// The changeset holds the note's net insert (folder 2) and folder 1's new count; applying
    /// it with triggers firing counted the note again, in folder 2, and folder 1's count met a
    /// conflict (skipped with `.ignore`): the replica's counters differed from the source's.
    /// Triggers are off while a changeset is applied now.
    @Test func aTriggersEffectsAreAppliedOnceFromTheChangeset() throws {
        let dir = try TemporaryDirectory()
        let (source, replica) = try Self.pair(dir)
        let changes = try source.recordChanges { conn in
            let notes = NoteDAO(conn)
            try notes.upsert(Note(id: 2, folderId: 1, title: "moved", body: nil, stars: 1))
            try notes.upsert(Note(id: 2, folderId: 2, title: "moved alpha", body: nil, stars: 1))
        }
        for policy in [Changeset.ConflictResolution.ignore, .abort, .replace] {
            let target = try Database(path: dir.path("replica-\(policy.rawValue).sqlite"))
            try Compose.migrate(target)
            try target.write { conn in
                for id in 0...2 { try FolderDAO(conn).insert(Folder(id: id, name: "folder \(id)")) }
            }
            #expect(try target.apply(changes, onConflict: policy) == 0)
            #expect(try Self.rows(target, "SELECT id, noteCount FROM Folder ORDER BY id") == Self.rows(source, "SELECT id, noteCount FROM Folder ORDER BY id"))
            #expect(try target.read { try NoteDAO($0).search("alpha") }.map(\.id) == [2])
        }
        _ = replica
    }

    /// A cascade on the replica deletes the child rows the changeset also deletes (recorded
    /// from the source's cascade): those are changes the replica already has, not conflicts,
    /// so `.abort` applies the changeset.
    @Test func aCascadeIsNotAConflict() throws {
        let dir = try TemporaryDirectory()
        let (source, replica) = try Self.pair(dir)
        let seed = try source.recordChanges { conn in
            try NoteDAO(conn).insert(Note(id: 1, folderId: 1, title: "parent", body: nil, stars: 1))
            try NoteDAO(conn).insert(Note(id: 3, folderId: 2, title: "in folder two", body: nil, stars: 1))
            try TagDAO(conn).insert(Tag(noteId: 1, name: "a", weight: nil))
            try TagDAO(conn).insert(Tag(noteId: 1, name: "b", weight: 2))
        }
        try replica.apply(seed, onConflict: .abort)
        let delete = try source.recordChanges { conn in _ = try NoteDAO(conn).deleteAll(where: "id = 1") }
        #expect(Set(delete.tables) == ["Note", "Tag"])
        // Folder 2's deletion sets note 3's folderId to NULL there and, applied, here (setNull).
        let folder = try source.recordChanges { conn in _ = try FolderDAO(conn).deleteAll(where: "id = 2") }
        #expect(try replica.apply(delete, onConflict: .abort) == 0)
        #expect(try replica.apply(folder, onConflict: .abort) == 0)
        #expect(try Self.rows(replica, "SELECT * FROM Tag") == [])
        #expect(try Self.rows(replica, "SELECT * FROM Folder ORDER BY id") == Self.rows(source, "SELECT * FROM Folder ORDER BY id"))
        #expect(try Self.rows(replica, "SELECT * FROM Note ORDER BY id") == Self.rows(source, "SELECT * FROM Note ORDER BY id"))
    }

    /// A changeset recorded without leaving out the FTS5 shadow tables (as Strata did before
    /// issue 25; made here with SQLite's session API directly) applies cleanly: the shadow
    /// tables' rows are skipped and the replica's own index takes the applied rows.
    @Test func aChangesetWithShadowTableRowsStillApplies() throws {
        let dir = try TemporaryDirectory()
        let (source, replica) = try Self.pair(dir)
        try replica.write { conn in _ = try PageDAO(conn).insert(Page(slug: "local", content: "only on the replica")) }
        let path = dir.path("source.sqlite")
        var handle: OpaquePointer?
        #expect(sqlite3_open(path, &handle) == SQLITE_OK)
        defer { sqlite3_close(handle) }
        var session: OpaquePointer?
        #expect(sqlite3session_create(handle, "main", &session) == SQLITE_OK)
        #expect(sqlite3session_attach(session, nil) == SQLITE_OK)
        #expect(sqlite3_exec(handle, "INSERT INTO Page(slug, content) VALUES ('legacy', 'legacy bytes')", nil, nil, nil) == SQLITE_OK)
        var count: Int32 = 0
        var bytes: UnsafeMutableRawPointer?
        #expect(sqlite3session_changeset(session, &count, &bytes) == SQLITE_OK)
        let data = Data(bytes: try #require(bytes), count: Int(count))
        sqlite3_free(bytes)
        sqlite3session_delete(session)
        let legacy = try Changeset(data: data)
        #expect(legacy.schemaVersion == nil)
        #expect(legacy.tables.contains("Page_fts_data"))
        try replica.apply(legacy, onConflict: .replace)
        try replica.write { conn in try conn.execute(sql: "INSERT INTO Page_fts(Page_fts, rank) VALUES ('integrity-check', 1)") }
        #expect(try replica.read { try PageDAO($0).search("legacy") }.map(\.slug) == ["legacy"])
        #expect(try replica.read { try PageDAO($0).search("replica") }.map(\.slug) == ["local"])
        _ = source
    }

    /// Found by the migration in the middle of CompositionTests (seed 25): `fetch` read a
    /// cached statement's column names before its first step, so the first `SELECT *` after a
    /// migration renamed a column (on a connection that had run it before) labelled the rows
    /// with the old names. SQLite prepares the statement again in that step; the names are
    /// read after it now.
    @Test func aCachedSelectSeesTheColumnsOfAMigratedTable() throws {
        let db = try Database.inMemory()
        try db.write { conn in
            try conn.execute(sql: "CREATE TABLE memo(id INTEGER PRIMARY KEY, label TEXT); INSERT INTO memo VALUES (1, 'a')")
        }
        let sql = "SELECT * FROM memo ORDER BY id"
        #expect(try db.read { try $0.fetch(sql: sql) }.first?.columnNames == ["id", "label"])
        try db.writeWithoutTransaction { conn in
            try conn.execute(sql: "ALTER TABLE memo RENAME COLUMN label TO caption")
            try conn.execute(sql: "ALTER TABLE memo ADD COLUMN size REAL")
        }
        let row = try #require(try db.read { try $0.fetch(sql: sql) }.first)
        #expect(row.columnNames == ["id", "caption", "size"])
        #expect(row.values == [.integer(1), .text("a"), .null])
    }
}
#endif
