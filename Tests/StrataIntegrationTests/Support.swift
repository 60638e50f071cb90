import Foundation
import Strata

/// A migrated Library database in a fresh temporary directory, removed when released.
final class LibraryFixture: @unchecked Sendable {
    let directory: URL
    let db: Database

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-integration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        db = try Database(path: directory.appendingPathComponent("library.sqlite").path)
        try Library.migrate(db)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Two authors, three books, tags.
    @discardableResult
    func seed() throws -> (ann: Author, bob: Author, books: [Book]) {
        try db.write { conn in
            let ann = try AuthorDAO(conn).insert(Author(name: "Ann Leckie", born: date("1966-03-02")))
            let bob = try AuthorDAO(conn).insert(Author(name: "Bob Shaw"))
            let books = try BookDAO(conn).insert([
                Book(title: "Ancillary Justice", isbn: "978-0316246620", pages: 386, price: 9.99, format: .paperback,
                     tags: ["sf", "space opera"], publishedAt: date("2013-10-01"), authorId: ann.id),
                Book(title: "Ancillary Sword", isbn: "978-0316246651", pages: 356, price: 14.5, format: .hardcover,
                     publishedAt: date("2014-10-07"), authorId: ann.id),
                Book(title: "Orbitsville", isbn: "978-0575045576", pages: 224, format: .ebook, cover: Data([0, 1, 2, 255]), authorId: bob.id),
            ])
            for book in books {
                try BookTagDAO(conn).insert(BookTag(bookId: book.id, tag: "fiction"))
            }
            return (ann, bob, books)
        }
    }
}

func date(_ text: String) -> Date? { DateFormat.date(from: text) }
