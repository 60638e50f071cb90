import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// `search:` through migrations on a table with rows: adding it creates and fills the index,
/// changing it recreates it, a table rebuild keeps it, removing it drops it; every row stays.
@Suite struct SearchMigrationTests {
    static let plain = """
        tables:
          Article:
            columns:
              id: { type: int, primaryKey: autoincrement }
              title: text
              summary: text?
              stars: int
        """
    static let searched = plain + "\n    search: { columns: [title, summary], tokenizer: \"unicode61 remove_diacritics 0\" }\n"
    static let tokenized = plain + "\n    search: { columns: [title, summary], tokenizer: \"unicode61 remove_diacritics 2\" }\n"
    static let rebuilt = """
        tables:
          Article:
            columns:
              id: { type: int, primaryKey: autoincrement }
              title: text
              summary: text?
              stars: { type: int, check: "stars >= 0" }
            search: { columns: [title, summary], tokenizer: "unicode61 remove_diacritics 2" }
        """

    static let rows: [(String, String?, Int)] = [
        ("Café culture", "Coffee houses in Vienna", 3),
        ("Swift concurrency", "Actors and tasks", 5),
        ("Rust ownership", nil, 4),
    ]

    func insertRows(_ db: Database) throws {
        try db.write { conn in
            for row in Self.rows {
                try conn.execute(sql: "INSERT INTO Article (title, summary, stars) VALUES (?, ?, ?)", arguments: [row.0, row.1, row.2])
            }
        }
    }

    func ids(_ db: Database, _ query: String) throws -> [Int] {
        try db.read { conn in
            try conn.fetch(sql: "SELECT rowid FROM Article_fts WHERE Article_fts MATCH ? ORDER BY rowid", arguments: [query]).map { try $0.get(0) }
        }
    }

    func count(_ db: Database) throws -> Int {
        try db.read { conn in try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM Article") ?? -1 }
    }

    @Test func addChangeRebuildAndRemoveSearchKeepRows() throws {
        let workspace = try MigrationWorkspace()
        try workspace.evolve(to: Self.plain, name: "initial")
        let db = try workspace.open()
        try workspace.migrate(db)
        try insertRows(db)

        // Adding `search:` creates the index and fills it from the existing rows.
        let added = try #require(try workspace.evolve(to: Self.searched, name: "search"))
        #expect(added.contains("CREATE VIRTUAL TABLE \"Article_fts\" USING fts5"))
        #expect(added.contains("INSERT INTO \"Article_fts\" (\"Article_fts\") VALUES ('rebuild')"))
        try workspace.migrate(db)
        try workspace.expectClean(db)
        #expect(try count(db) == 3)
        #expect(try ids(db, "swift") == [2])
        #expect(try ids(db, "coffee OR rust") == [1, 3])
        #expect(try ids(db, "cafe") == [])  // remove_diacritics 0 keeps them

        // The triggers keep it in sync.
        try db.write { conn in
            try conn.execute(sql: "UPDATE Article SET summary = 'Espresso and tasks' WHERE id = 1")
            try conn.execute(sql: "DELETE FROM Article WHERE id = 3")
        }
        #expect(try ids(db, "tasks") == [1, 2])
        #expect(try ids(db, "coffee") == [])
        #expect(try ids(db, "rust") == [])
        try db.write { conn in
            try conn.execute(sql: "INSERT INTO Article (id, title, summary, stars) VALUES (3, 'Rust ownership', NULL, 4)")
        }

        // A new tokenizer recreates and refills the index.
        let changed = try #require(try workspace.evolve(to: Self.tokenized, name: "tokenizer"))
        #expect(changed.contains("DROP TABLE \"Article_fts\""))
        try workspace.migrate(db)
        try workspace.expectClean(db)
        #expect(try ids(db, "cafe") == [1])
        #expect(try count(db) == 3)

        // A table rebuild (a new CHECK) keeps the index and its triggers.
        let rebuiltText = try #require(try workspace.evolve(to: Self.rebuilt, name: "check"))
        #expect(rebuiltText.contains("new_Article"))
        #expect(!rebuiltText.contains("DROP TABLE \"Article_fts\""))
        try workspace.migrate(db)
        try workspace.expectClean(db)
        #expect(try count(db) == 3)
        #expect(try ids(db, "cafe") == [1])
        #expect(try ids(db, "rust") == [3])
        try db.write { conn in try conn.execute(sql: "INSERT INTO Article (title, stars) VALUES ('Swift macros', 1)") }
        #expect(try ids(db, "swift") == [2, 4])
        let integrity = try db.write { conn in
            try conn.execute(sql: "INSERT INTO Article_fts (Article_fts, rank) VALUES ('integrity-check', 1)")
            return true
        }
        #expect(integrity)

        // Removing `search:` drops the index, its shadow tables and triggers; rows stay.
        let removed = try #require(try workspace.evolve(to: Self.plain, name: "nosearch"))
        #expect(removed.contains("DROP TABLE \"Article_fts\""))
        try workspace.migrate(db)
        try workspace.expectClean(db)
        #expect(try count(db) == 4)
        let leftovers = try db.read { conn in
            try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE name LIKE 'Article_fts%'") ?? -1
        }
        #expect(leftovers == 0)
        #expect(try workspace.evolve(to: Self.plain, name: "again") == nil)
    }

    @Test func searchOnANewTableNeedsNoRebuild() throws {
        let workspace = try MigrationWorkspace()
        let text = try #require(try workspace.evolve(to: Self.searched, name: "initial"))
        #expect(text.contains("CREATE TRIGGER \"Article_fts_insert\""))
        let db = try workspace.open()
        try workspace.migrate(db)
        try workspace.expectClean(db)
        try insertRows(db)
        #expect(try ids(db, "vienna") == [1])
        #expect(try workspace.evolve(to: Self.searched, name: "again") == nil)
    }

    @Test func driftCheckAcceptsTheSearchObjects() throws {
        let workspace = try MigrationWorkspace()
        try workspace.evolve(to: Self.searched, name: "initial")
        let db = try workspace.open()
        let migrations = try workspace.migrate(db)
        let found = try db.read { conn in
            try SchemaDrift.differences(in: conn, migrations: try MigrationFiles.load(schemaPath: workspace.schemaPath), version: migrations.count)
        }
        #expect(found.isEmpty, "\(found)")
        try db.write { conn in try conn.execute(sql: "DROP TRIGGER Article_fts_update") }
        let drifted = try db.read { conn in
            try SchemaDrift.differences(in: conn, migrations: try MigrationFiles.load(schemaPath: workspace.schemaPath), version: 1)
        }
        #expect(drifted.contains { $0.contains("Article_fts_update") }, "\(drifted)")
        // In drift's words (the database and its migrations), not the schema verifier's.
        #expect(drifted.filter { $0.contains("Article_fts_update") } == ["full-text trigger Article_fts_update is missing (the migrations create it)"],
                "\(drifted)")
        #expect(!drifted.contains { $0.contains("declared") }, "\(drifted)")
    }

    @Test func renamedAndDroppedTablesTakeTheirIndexAlong() throws {
        let workspace = try MigrationWorkspace()
        try workspace.evolve(to: Self.searched, name: "initial")
        let db = try workspace.open()
        try workspace.migrate(db)
        try insertRows(db)
        let renamed = Self.searched.replacingOccurrences(of: "  Article:\n", with: "  Post:\n    renamedFrom: Article\n")
        let text = try #require(try workspace.evolve(to: renamed, name: "rename"))
        #expect(text.contains("CREATE VIRTUAL TABLE \"Post_fts\""))
        try workspace.migrate(db)
        try workspace.expectClean(db)
        let found = try db.read { conn in
            try conn.fetch(sql: "SELECT rowid FROM Post_fts WHERE Post_fts MATCH 'vienna'").map { try $0.get(0, as: Int.self) }
        }
        #expect(found == [1])
        #expect(try db.read { conn in try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM Post") } == 3)
        try db.write { conn in try conn.execute(sql: "DELETE FROM Post WHERE id = 1") }
        #expect(try db.read { conn in try conn.fetch(sql: "SELECT rowid FROM Post_fts WHERE Post_fts MATCH 'vienna'").count } == 0)

        let other = """
            tables:
              Tag:
                columns: { id: { type: int, primaryKey: autoincrement }, name: text }
            """
        try workspace.evolve(to: other, name: "drop", allowDestructive: true)
        try workspace.migrate(db)
        try workspace.expectClean(db)
        let leftovers = try db.read { conn in
            try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE name LIKE 'Post%' OR name LIKE 'Article%'") ?? -1
        }
        #expect(leftovers == 0)
    }
}
