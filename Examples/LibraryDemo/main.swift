// A tour of the code Strata generates from schemas/Library.schema.yml.
// Run it with `swift run LibraryDemo [database-path]`; run it twice to see that the second
// run migrates nothing and keeps the rows of the first.
import Foundation
import Strata

let path = CommandLine.arguments.dropFirst().first ?? "library-demo.sqlite"
let db = try Database(path: path, configuration: Library.configuration)

let applied = try Library.migrate(db)
print(applied.isEmpty
    ? "\(path) is at version \(Library.version); nothing to migrate"
    : "migrated \(path) to version \(Library.version): \(applied.map(\.fileName).joined(separator: ", "))")

let (author, book) = try db.write { conn -> (Author, Book) in
    let author = try AuthorDAO(conn).insert(Author(name: "Ann Leckie", born: DateFormat.date(from: "1966-03-02")))
    let book = try BookDAO(conn).insert(
        Book(title: "Ancillary Justice", isbn: "978-0316246620-\(author.id)", pages: 386, price: 9.99,
             tags: ["sf", "space opera"], publishedAt: DateFormat.date(from: "2013-10-01"), authorId: author.id))
    try BookTagDAO(conn).insert(BookTag(bookId: book.id, tag: "award winner"))
    return (author, book)
}
print("inserted author #\(author.id) \(author.name) and book \(book.id) \(book.title)")

try db.read { conn in
    let books = BookDAO(conn)
    print("books in the database: \(try books.count())")
    print("cheaper than 10: \(try books.cheaperThan(max: 10).map(\.title))")
    if let found = try books.byIsbn(isbn: book.isbn) {
        print("byIsbn found \(found.title), \(found.pages) pages, \(found.format.rawValue), tags \(found.tags)")
        print("its author: \(try books.author(of: found)?.name ?? "?"); its tags: \(try books.bookTags(of: found).map(\.tag))")
    }
    print("books by \(author.name): \(try AuthorDAO(conn).books(of: author).count)")
}

// Typed SQL from the schema's `queries:`: joins and aggregates with checked, typed results.
try db.read { conn in
    let queries = LibraryQueries(conn)
    for row in try queries.booksPerAuthor() {
        print("\(row.author): \(row.books) book(s), average price \(row.averagePrice.map { String($0) } ?? "-")")
    }
    print("tagged 'award winner': \(try queries.taggedBooks(tag: "award winner").map(\.title))")
    print("titles for two ISBNs: \(try queries.titlesForIsbns(isbns: [book.isbn, "unknown"]))")
    print("highest price: \(try queries.highestPrice().map { String($0) } ?? "none")")
    print("books: \(try queries.bookCount()), overdue loans: \(try queries.hasOverdueLoans(now: Date()))")
}
let returned = try db.write { conn in try LibraryQueries(conn).returnBook(bookId: book.id) }
print("loans returned: \(returned)")

// Observation: a live count of books, fetched now and again after each commit that touches
// `books`; a commit that touches only other tables causes no fetch (docs/Observation.md).
func showLiveCount(of db: Database, author: Author) async throws {
    var liveCount = db.observe { conn in try BookDAO(conn).count() }.makeAsyncIterator()
    print("live count of books: \(try await liveCount.next() ?? -1)")
    try await db.write { conn in
        _ = try MemberDAO(conn).insert(Member(fullName: "Ursula", email: "ursula-\(UUID().uuidString)@example.org"))
        _ = try BookDAO(conn).insert(Book(title: "The Left Hand of Darkness", isbn: "978-0441478125-\(UUID().uuidString)", authorId: author.id))
    }
    print("live count of books after a commit: \(try await liveCount.next() ?? -1)")
}
try await showLiveCount(of: db, author: author)
