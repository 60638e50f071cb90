// SQLCipher builds leave out SQLite's session extension, so changesets exist only where the
// system SQLite is linked (docs/Encryption.md; plugin-driven builds enable both traits).
#if SystemSQLite || !SQLCipher
import Foundation
import Strata
import Testing

/// Full-text search (`search:` on `Article`, Articles.schema.yml) and changesets together
/// (issue 25): a changeset carries the declared table's rows, never the FTS5 shadow tables, and
/// applying it keeps the target's index consistent.
@Suite struct SearchSyncTests {
    /// A fresh directory for the two database files.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-search-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Two migrated file databases.
    static func pair(_ dir: URL) throws -> (Database, Database) {
        let source = try Database(path: dir.appendingPathComponent("source.sqlite").path)
        let replica = try Database(path: dir.appendingPathComponent("replica.sqlite").path)
        try Articles.migrate(source)
        try Articles.migrate(replica)
        return (source, replica)
    }

    /// Fails with the FTS5 index's own check when the index does not match its table.
    static func checkIndex(_ db: Database) throws {
        try db.write { conn in
            try conn.execute(sql: #"INSERT INTO "Article_fts"("Article_fts", rank) VALUES ('integrity-check', 1)"#)
            #expect(try conn.fetchValue(String.self, sql: "PRAGMA integrity_check") == "ok")
        }
    }

    /// The ids `search(word)` finds, sorted, and the ids a `LIKE` scan finds.
    static func searchAndScan(_ db: Database, _ word: String) throws -> ([Int], [Int]) {
        try db.read { conn in
            let found = try ArticleDAO(conn).search(word).map(\.id).sorted()
            let scanned = try conn.fetch(
                sql: #"SELECT id FROM "Article" WHERE title LIKE ?1 OR summary LIKE ?1 ORDER BY id"#,
                arguments: ["%\(word)%"]
            ).map { try $0.get(0, as: Int.self) }
            return (found, scanned)
        }
    }

    /// The bug of issue 25: before, the changeset carried the rows SQLite wrote to
    /// `Article_fts_data`, `Article_fts_idx` and `Article_fts_docsize` as well; applied, they
    /// came on top of what the target's triggers wrote, and the target's search threw
    /// `SQLite error 267: database disk image is malformed`.
    @Test func insertedArticleIsSearchableOnTheReplica() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (source, replica) = try Self.pair(dir)
        // The replica has an article of its own (the two indexes differ) …
        try replica.write { conn in
            _ = try ArticleDAO(conn).insert(Article(id: 100, title: "Local", summary: "written on the replica", stars: 1))
        }
        // … and receives the source's new articles, one changeset each.
        for (title, summary) in [("Changesets", "a changeset carries rows"), ("Search", "an index of words")] {
            let changes = try source.recordChanges { conn in
                _ = try ArticleDAO(conn).insert(Article(id: 0, title: title, summary: summary, stars: 3))
            }
            #expect(changes.tables == ["Article"])
            try replica.apply(try Changeset(data: changes.data), onConflict: .replace)
        }
        try Self.checkIndex(source)
        try Self.checkIndex(replica)
        #expect(try replica.read { try ArticleDAO($0).search("changeset") }.map(\.title) == ["Changesets"])
        #expect(try replica.read { try ArticleDAO($0).search("replica") }.map(\.title) == ["Local"])
        #expect(try replica.read { try ArticleDAO($0).search("words") }.map(\.title) == ["Search"])
    }

    @Test func conflictsDeletesAndUpdatesOfSearchedColumnsKeepBothIndexes() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (source, replica) = try Self.pair(dir)
        // Common history.
        let seed = try source.recordChanges { conn in
            let dao = ArticleDAO(conn)
            for (title, summary) in [("alpha one", "red"), ("beta two", "green"), ("gamma three", nil), ("delta four", "blue")] {
                _ = try dao.insert(Article(id: 0, title: title, summary: summary, stars: 1))
            }
        }
        try replica.apply(seed, onConflict: .abort)
        // Both sides edit the same rows (searched columns), delete and insert the same key.
        let fromSource = try source.recordChanges { conn in
            try conn.execute(sql: #"UPDATE "Article" SET title = 'alpha source' WHERE id = 1"#)
            try conn.execute(sql: #"UPDATE "Article" SET summary = 'violet' WHERE id = 2"#)
            try conn.execute(sql: #"DELETE FROM "Article" WHERE id = 3"#)
            try conn.execute(sql: #"INSERT INTO "Article"(id, title, summary, stars) VALUES (9, 'omega source', 'x', 1)"#)
        }
        let fromReplica = try replica.recordChanges { conn in
            try conn.execute(sql: #"UPDATE "Article" SET title = 'alpha replica' WHERE id = 1"#)
            try conn.execute(sql: #"DELETE FROM "Article" WHERE id = 2"#)
            try conn.execute(sql: #"UPDATE "Article" SET title = 'delta replica' WHERE id = 4"#)
            try conn.execute(sql: #"INSERT INTO "Article"(id, title, summary, stars) VALUES (9, 'omega replica', 'y', 1)"#)
        }
        #expect(Set(fromSource.tables) == ["Article"])
        // .abort: refused, nothing applied, the index intact.
        #expect(throws: StrataError.self) { try replica.apply(fromSource, onConflict: .abort) }
        try Self.checkIndex(replica)
        // The source wins on the replica, the replica's edits lose on the source.
        try replica.apply(fromSource, onConflict: .replace)
        try source.apply(fromReplica, onConflict: .ignore)
        for db in [source, replica] {
            try Self.checkIndex(db)
            for word in ["alpha", "source", "replica", "violet", "green", "gamma", "delta", "omega", "x", "y"] {
                let (found, scanned) = try Self.searchAndScan(db, word)
                #expect(found == scanned, "\(word)")
            }
        }
        #expect(try replica.read { try ArticleDAO($0).search("alpha source") }.map(\.id) == [1])
        #expect(try replica.read { try ArticleDAO($0).search("omega source") }.map(\.id) == [9])
        #expect(try source.read { try ArticleDAO($0).search("delta replica") }.map(\.id) == [4])
        #expect(try source.read { try ArticleDAO($0).search("omega replica") }.isEmpty)
        // And back: the inverse of the source's changes, applied to the replica.
        try replica.apply(try fromSource.inverted(), onConflict: .replace)
        try Self.checkIndex(replica)
    }

    /// Observers of the replica see what `apply` wrote.
    @Test func observersOfTheReplicaSeeTheAppliedRows() async throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (source, replica) = try Self.pair(dir)
        var found = replica.observe { conn in try ArticleDAO(conn).search("observed").map(\.title) }.makeAsyncIterator()
        #expect(try await found.next() == [])
        let changes = try source.recordChanges { conn in
            _ = try ArticleDAO(conn).insert(Article(id: 0, title: "observed", summary: nil, stars: 1))
        }
        try replica.apply(changes, onConflict: .abort)
        #expect(try await found.next() == ["observed"])
    }

    /// The schema version travels with the changeset: a database at another version refuses it.
    @Test func changesetFromAnotherSchemaVersionIsRefused() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (source, replica) = try Self.pair(dir)
        let changes = try source.recordChanges { conn in
            _ = try ArticleDAO(conn).insert(Article(id: 0, title: "versioned", summary: nil, stars: 1))
        }
        #expect(changes.schemaVersion == 1)
        try replica.write { conn in try conn.execute(sql: "PRAGMA user_version = 2") }
        let error = try #require(throws: StrataError.self) { try replica.apply(try Changeset(data: changes.data), onConflict: .replace) }
        #expect(error.kind == .schemaMismatch)
        #expect(error.message.contains("schema version 1"))
        #expect(error.message.contains("schema version 2"))
        #expect(try replica.read { try ArticleDAO($0).count() } == 0)
    }

    /// The program of docs/Sync.md's "Search and sync together".
    @Test func searchAndSyncExampleFromTheDocs() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let phone = try Database(path: dir.appendingPathComponent("phone.sqlite").path)
        let laptop = try Database(path: dir.appendingPathComponent("laptop.sqlite").path)
        try Articles.migrate(phone)
        try Articles.migrate(laptop)
        try laptop.write { conn in
            _ = try ArticleDAO(conn).insert(Article(id: 0, title: "Offline notes", summary: "written on the laptop", stars: 2))
        }
        let fromPhone = try phone.recordChanges { conn in
            let dao = ArticleDAO(conn)
            try dao.insert(Article(id: 10, title: "Sync", summary: "changesets carry rows", stars: 4))
            var search = try dao.insert(Article(id: 11, title: "Search", summary: "an index of words", stars: 5))
            search.summary = "an index of words, kept on each side"
            try dao.update(search)
        }
        #expect(fromPhone.tables == ["Article"])
        try laptop.apply(try Changeset(data: fromPhone.data), onConflict: .replace)
        let found = try laptop.read { conn in
            let dao = ArticleDAO(conn)
            return [try dao.search("changesets"), try dao.search("each side"), try dao.search("laptop")].map { $0.map(\.title) }
        }
        #expect(found == [["Sync"], ["Search"], ["Offline notes"]])
        try Self.checkIndex(laptop)
    }
}
#endif
