import Foundation
import Strata
import StrataTestSupport
import Testing

/// `Database.Configuration(collations:)`: the app's collations are registered on every
/// connection (the writer and each reader), and a file that uses a collation nobody registered
/// is refused at open with an error naming the collation and the column.
@Suite struct CollationTests {
    /// Case-insensitive, and `ß` sorts as `ss`: an order SQLite's NOCASE (ASCII only) does not give.
    static let unicase: Database.Collation = { lhs, rhs in
        lhs.replacingOccurrences(of: "ß", with: "ss").caseInsensitiveCompare(rhs.replacingOccurrences(of: "ß", with: "ss"))
    }

    @Test func aRegisteredCollationComparesSortsAndIndexesOnEveryConnection() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("collection.sqlite")
        let configuration = Database.Configuration(collations: ["unicase": Self.unicase])
        let db = try Database(path: path, configuration: configuration)
        try db.write { conn in
            try conn.execute(sql: """
                CREATE TABLE tags (tag TEXT NOT NULL PRIMARY KEY COLLATE unicase, n INTEGER NOT NULL) WITHOUT ROWID;
                INSERT INTO tags VALUES ('Straße', 1), ('apple', 2), ('Zebra', 3);
                """)
        }
        // The writer: the primary key refuses a tag equal under the collation.
        #expect(throws: StrataError.self) {
            try db.write { conn in try conn.execute(sql: "INSERT INTO tags VALUES ('STRASSE', 4)") }
        }
        // A reader connection (a file database reads on its own connections).
        let ordered = try db.read { conn in try conn.fetch(sql: "SELECT tag FROM tags ORDER BY tag").map { try $0.get(0, as: String.self) } }
        #expect(ordered == ["apple", "Straße", "Zebra"])
        let found = try db.read { conn in try conn.fetchValue(Int.self, sql: "SELECT n FROM tags WHERE tag = 'strasse'") }
        #expect(found == 1)
        let integrity = try db.read { conn in try conn.fetchValue(String.self, sql: "PRAGMA integrity_check") }
        #expect(integrity == "ok")
    }

    @Test func aMissingCollationIsAnErrorAtOpenNamingTheCollationAndTheColumn() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("collection.sqlite")
        do {
            let db = try Database(path: path, configuration: Database.Configuration(collations: ["unicase": Self.unicase]))
            try db.write { conn in
                try conn.execute(sql: """
                    CREATE TABLE decks (id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE nocase);
                    CREATE TABLE tags (id INTEGER PRIMARY KEY, tag TEXT NOT NULL COLLATE "unicase");
                    INSERT INTO tags VALUES (1, 'a');
                    """)
            }
        }
        for configuration in [Database.Configuration(), .readOnly] {
            do {
                _ = try Database(path: path, configuration: configuration)
                Issue.record("opened a file whose column collates with an unregistered collation")
            } catch let error as StrataError {
                #expect(error.kind == .misuse)
                #expect(error.message.hasPrefix("column tags.tag collates unicase, which is not registered"), "\(error)")
                #expect(error.message.contains("Database.Configuration(collations: [\"unicase\""), "\(error)")
            }
        }
        // An index key with the app's collation on a column without one.
        do {
            let db = try Database(path: path, configuration: Database.Configuration(collations: ["unicase": Self.unicase, "reverse": { rhs, lhs in lhs.compare(rhs) }]))
            try db.write { conn in
                try conn.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); CREATE INDEX notes_body ON notes (body COLLATE reverse);")
            }
        }
        do {
            _ = try Database(path: path, configuration: Database.Configuration(collations: ["unicase": Self.unicase]))
            Issue.record("opened a file whose index collates with an unregistered collation")
        } catch let error as StrataError {
            #expect(error.message.hasPrefix("index notes_body on notes (key body) collates reverse, which is not registered"), "\(error)")
        }
        // Built-in collations need nothing.
        let db = try Database(path: path, configuration: Database.Configuration(collations: ["unicase": Self.unicase, "reverse": { rhs, lhs in lhs.compare(rhs) }]))
        #expect(try db.read { conn in try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM decks WHERE name = 'X'") } == 0)
    }
}
