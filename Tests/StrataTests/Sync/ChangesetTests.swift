// SQLCipher builds leave out SQLite's session extension, so changesets exist only where the
// system SQLite is linked (docs/Encryption.md; plugin-driven builds enable both traits).
#if SystemSQLite || !SQLCipher
import Foundation
import Strata
import StrataTestSupport
import Testing

/// Changesets between two file databases with the same schema (issue 17).
@Suite struct ChangesetTests {
    static let schema = """
        CREATE TABLE book(id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER);
        CREATE TABLE tag(book_id INTEGER NOT NULL, name TEXT NOT NULL, PRIMARY KEY(book_id, name));
        """

    /// Two databases with the same schema and the same three books.
    func pair(_ dir: TemporaryDirectory) throws -> (Database, Database) {
        let a = try Database(path: dir.path("a.sqlite"))
        let b = try Database(path: dir.path("b.sqlite"))
        for db in [a, b] {
            try db.write { conn in
                try conn.execute(sql: Self.schema)
                try conn.execute(sql: "INSERT INTO book VALUES (1, 'Dune', 1965), (2, 'Emma', 1815), (3, 'Ulysses', 1922)")
            }
        }
        return (a, b)
    }

    func books(_ db: Database) throws -> [String] {
        try db.read { conn in
            try conn.fetch(sql: "SELECT id, title, year FROM book ORDER BY id").map { row in
                "\(try row.get(0, as: Int.self)):\(try row.get(1, as: String.self)):\(try row.get(2, as: Int?.self).map(String.init) ?? "nil")"
            }
        }
    }

    @Test func recordsAndAppliesBothWays() throws {
        let dir = try TemporaryDirectory()
        let (a, b) = try pair(dir)
        let fromA = try a.recordChanges { conn in
            try conn.execute(sql: "INSERT INTO book VALUES (4, 'Middlemarch', 1871)")
            try conn.execute(sql: "UPDATE book SET year = 1966 WHERE id = 1")
            try conn.execute(sql: "INSERT INTO tag VALUES (4, 'classic')")
        }
        #expect(Set(fromA.tables) == ["book", "tag"])
        #expect(fromA.changes.filter { $0.table == "book" }.map(\.operation).sorted { $0.rawValue < $1.rawValue } == [.insert, .update])
        #expect(fromA.changes.count == 3)
        let fromB = try b.recordChanges { conn in
            try conn.execute(sql: "DELETE FROM book WHERE id = 3")
            try conn.execute(sql: "INSERT INTO book VALUES (5, 'Beloved', 1987)")
        }
        #expect(fromB.changes.count == 2)

        // Across a serialisation round trip.
        let received = try Changeset(data: fromA.data)
        #expect(received == fromA)
        #expect(try b.apply(received, onConflict: .abort) == 0)
        #expect(try a.apply(try Changeset(data: fromB.data), onConflict: .abort) == 0)

        let expected = ["1:Dune:1966", "2:Emma:1815", "4:Middlemarch:1871", "5:Beloved:1987"]
        #expect(try books(a) == expected)
        #expect(try books(b) == expected)
        #expect(try b.read { try $0.fetchValue(String.self, sql: "SELECT name FROM tag WHERE book_id = 4") } == "classic")
    }

    /// Both sides update the same row (and insert the same key) before they exchange.
    func conflictingEdits(_ dir: TemporaryDirectory) throws -> (Database, Database, Changeset, Changeset) {
        let (a, b) = try pair(dir)
        let fromA = try a.recordChanges { conn in
            try conn.execute(sql: "UPDATE book SET title = 'Dune (A)' WHERE id = 1")
            try conn.execute(sql: "INSERT INTO book VALUES (9, 'Nine from A', 2001)")
            try conn.execute(sql: "UPDATE book SET year = 1816 WHERE id = 2")  // no conflict
        }
        let fromB = try b.recordChanges { conn in
            try conn.execute(sql: "UPDATE book SET title = 'Dune (B)' WHERE id = 1")
            try conn.execute(sql: "INSERT INTO book VALUES (9, 'Nine from B', 2002)")
            try conn.execute(sql: "DELETE FROM book WHERE id = 3")  // no conflict
        }
        return (a, b, fromA, fromB)
    }

    @Test func replaceLetsTheChangesetWin() throws {
        let dir = try TemporaryDirectory()
        let (a, b, fromA, fromB) = try conflictingEdits(dir)
        // Each side takes the other's values for the rows both changed: the conflicting edits
        // swap, and the edits without conflict reach both sides.
        #expect(try b.apply(fromA, onConflict: .replace) == 2)
        #expect(try books(b) == ["1:Dune (A):1965", "2:Emma:1816", "9:Nine from A:2001"])
        #expect(try a.apply(fromB, onConflict: .replace) == 2)
        #expect(try books(a) == ["1:Dune (B):1965", "2:Emma:1816", "9:Nine from B:2002"])
    }

    @Test func ignoreLetsTheTargetWin() throws {
        let dir = try TemporaryDirectory()
        let (a, b, fromA, fromB) = try conflictingEdits(dir)
        #expect(try b.apply(fromA, onConflict: .ignore) == 2)
        #expect(try books(b) == ["1:Dune (B):1965", "2:Emma:1816", "9:Nine from B:2002"])
        #expect(try a.apply(fromB, onConflict: .ignore) == 2)
        #expect(try books(a) == ["1:Dune (A):1965", "2:Emma:1816", "9:Nine from A:2001"])
    }

    @Test func abortThrowsAndAppliesNothing() throws {
        let dir = try TemporaryDirectory()
        let (a, b, fromA, _) = try conflictingEdits(dir)
        let before = try books(b)
        let error = try #require(throws: StrataError.self) { try b.apply(fromA, onConflict: .abort) }
        #expect(error.kind == .sqlite)
        #expect(error.resultCode == 4)  // SQLITE_ABORT
        #expect(error.message.contains("not applied"))
        // Not even the change without a conflict (Emma's year) went in.
        #expect(try books(b) == before)
        _ = a
    }

    @Test func malformedDataIsATypedError() throws {
        #expect(throws: StrataError.self) { try Changeset(data: Data("not a changeset".utf8)) }
        // A table name without its terminator: SQLite's reader alone does not return on it.
        #expect(throws: StrataError.self) { try Changeset(data: Data([0x54, 0x03, 0x01, 0x00, 0xFF, 0xFF])) }
        // A real changeset cut short.
        let dir = try TemporaryDirectory()
        let (a, _) = try pair(dir)
        let whole = try a.recordChanges { conn in
            try conn.execute(sql: "UPDATE book SET title = 'a much longer title than before' WHERE id = 1")
            try conn.execute(sql: "INSERT INTO book VALUES (8, 'Eight', 8)")
        }
        #expect(throws: StrataError.self) { try Changeset(data: whole.data.prefix(whole.data.count - 4)) }
        #expect(try Changeset(data: whole.data) == whole)
        let empty = try Changeset(data: Data())
        #expect(empty.isEmpty && empty.changes.isEmpty)
        let db = try Database.inMemory()
        #expect(try db.apply(empty, onConflict: .abort) == 0)
    }

    @Test func throwingBodyRecordsAndCommitsNothing() throws {
        let dir = try TemporaryDirectory()
        let (a, _) = try pair(dir)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            _ = try a.recordChanges { conn in
                try conn.execute(sql: "DELETE FROM book")
                throw Stop()
            }
        }
        #expect(try books(a).count == 3)
        // Writes with no net change give an empty changeset.
        let none = try a.recordChanges { conn in
            try conn.execute(sql: "INSERT INTO book VALUES (10, 'x', 1)")
            try conn.execute(sql: "DELETE FROM book WHERE id = 10")
        }
        #expect(none.isEmpty)
    }

    @Test func invertedUndoes() throws {
        let dir = try TemporaryDirectory()
        let (a, _) = try pair(dir)
        let before = try books(a)
        let changes = try a.recordChanges { conn in
            try conn.execute(sql: "UPDATE book SET title = 'changed'")
            try conn.execute(sql: "DELETE FROM book WHERE id = 2")
        }
        #expect(try books(a) != before)
        try a.apply(try changes.inverted(), onConflict: .abort)
        #expect(try books(a) == before)
    }

    /// The program of docs/Sync.md: two databases kept in sync both ways, the phone winning.
    @Test func syncExampleFromTheDocs() throws {
        let dir = try TemporaryDirectory()
        let schema = "CREATE TABLE book(id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER)"
        let phone = try Database(path: dir.path("phone.sqlite"))
        let laptop = try Database(path: dir.path("laptop.sqlite"))
        for db in [phone, laptop] {
            try db.write { conn in
                try conn.execute(sql: "DROP TABLE IF EXISTS book; " + schema)
                try conn.execute(sql: "INSERT INTO book VALUES (1, 'Dune', 1965), (2, 'Emma', 1815)")
            }
        }
        var phoneOutbox: [Data] = []
        var laptopOutbox: [Data] = []
        phoneOutbox.append(try phone.recordChanges { conn in
            try conn.execute(sql: "UPDATE book SET title = 'Dune (1st ed.)' WHERE id = 1")
            try conn.execute(sql: "INSERT INTO book VALUES (3, 'Kindred', 1979)")
        }.data)
        laptopOutbox.append(try laptop.recordChanges { conn in
            try conn.execute(sql: "UPDATE book SET title = 'DUNE' WHERE id = 1")
            try conn.execute(sql: "UPDATE book SET year = 1816 WHERE id = 2")
        }.data)
        for bytes in phoneOutbox { try laptop.apply(try Changeset(data: bytes), onConflict: .replace) }
        for bytes in laptopOutbox { try phone.apply(try Changeset(data: bytes), onConflict: .ignore) }
        let expected = ["1:Dune (1st ed.):1965", "2:Emma:1816", "3:Kindred:1979"]
        #expect(try books(phone) == expected)
        #expect(try books(laptop) == expected)
    }

    /// Observers of the target see the rows an applied changeset changed.
    @Test func applyIsSeenByChangeEvents() async throws {
        let dir = try TemporaryDirectory()
        let (a, b) = try pair(dir)
        let changes = try a.recordChanges { conn in
            try conn.execute(sql: "UPDATE book SET year = 2000 WHERE id = 2")
            try conn.execute(sql: "DELETE FROM book WHERE id = 3")
        }
        let events = b.changes(toTables: ["book"])
        try b.apply(changes, onConflict: .abort)
        var iterator = events.makeAsyncIterator()
        var seen: [String] = []
        for _ in 0..<2 {
            if let change = try await iterator.next() { seen.append("\(change.kind.rawValue) \(change.primaryKey)") }
        }
        #expect(seen.sorted() == ["delete [\(DatabaseValue.integer(3))]", "update [\(DatabaseValue.integer(2))]"])
    }

    /// Issue 25: a `changes(to:)` subscriber on the database that records. SQLite's session
    /// extension installs its own preupdate hook and took observation's for one of its
    /// sessions; the subscriber's events must cover the recorded transaction and later ones.
    @Test func recordingWhileSomeoneListensToChangeEvents() async throws {
        let dir = try TemporaryDirectory()
        let (a, b) = try pair(dir)
        let events = a.changes(toTables: ["book", "tag"])
        var iterator = events.makeAsyncIterator()
        let changes = try a.recordChanges { conn in
            try conn.execute(sql: "UPDATE book SET year = 2000 WHERE id = 2")
            try conn.execute(sql: "INSERT INTO tag VALUES (1, 'sf')")
        }
        try await a.write { conn in try conn.execute(sql: "DELETE FROM book WHERE id = 3") }
        let again = try a.recordChanges { conn in try conn.execute(sql: "INSERT INTO book VALUES (7, 'Seven', 7)") }
        var seen: [String] = []
        for _ in 0..<4 {
            if let change = try await iterator.next() { seen.append("\(change.table) \(change.kind.rawValue) \(change.primaryKey)") }
        }
        #expect(seen == [
            "book update [\(DatabaseValue.integer(2))]", "tag insert [\(DatabaseValue.integer(1)), \(DatabaseValue.text("sf"))]",
            "book delete [\(DatabaseValue.integer(3))]", "book insert [\(DatabaseValue.integer(7))]",
        ])
        try b.apply(changes, onConflict: .abort)
        try b.apply(again, onConflict: .abort)
        #expect(try books(b).contains("7:Seven:7"))
    }
}
#endif
