import Foundation
import Strata
import Testing

/// Generated writes reset their cached statement once per use (before binding, in
/// `cachedStatement`), not again after it: a statement that ran to its end is left as SQLite
/// leaves it. These tests check that nothing depends on the second reset.
@Suite struct StatementReuseTests {
    @Test func writesRunBackToBackAndAfterFailures() throws {
        let fixture = try LibraryFixture()
        let seeded = try fixture.seed()
        try fixture.db.write { conn in
            let books = BookDAO(conn)
            // A failing insert (unique isbn) leaves the statement usable for the next one.
            let duplicate = Book(title: "Copy", isbn: seeded.books[0].isbn, authorId: seeded.ann.id)
            #expect(throws: StrataError.self) { try books.insert(duplicate) }
            let fresh = try books.insert(Book(title: "Fresh", isbn: "isbn-fresh", authorId: seeded.ann.id))
            #expect(try books.find(id: fresh.id)?.title == "Fresh")
            // Many writes in a row, each through its own cached statement.
            for index in 0..<50 {
                var book = try books.insert(Book(title: "B\(index)", isbn: "isbn-\(index)", authorId: seeded.bob.id))
                book.pages = index
                #expect(try books.update(book))
                try books.upsert(book)
                if index % 2 == 0 { #expect(try books.delete(book)) }
            }
            #expect(try books.count(where: "authorId = ?", [seeded.bob.id]) == 1 + 25)
            // Statements that ran to their end hold no lock: the schema can change in the same
            // transaction, which SQLite refuses while a statement is still running.
            try conn.execute(sql: "CREATE TABLE scratch (x)")
            try conn.execute(sql: "DROP TABLE scratch")
        }
        #expect(try fixture.db.read { conn in try BookDAO(conn).count() } == 3 + 1 + 25)
    }
}
