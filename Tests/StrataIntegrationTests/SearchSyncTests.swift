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
}
#endif
