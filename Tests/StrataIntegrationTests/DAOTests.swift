import Foundation
import Strata
import Testing

/// Every DAO method of the generated code, on a real SQLite file migrated by `Library.migrate`.
@Suite struct DAOTests {
    @Test func migrateCreatesTheSchemaAndRunsOnce() throws {
        let fixture = try LibraryFixture()
        #expect(Library.version == Library.migrations.count)
        #expect(try Library.migrate(fixture.db).isEmpty, "a second run migrates nothing")
        let tables = try fixture.db.read { conn throws in
            try conn.fetch(sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { try $0.get(0, as: String.self) }
        }
        #expect(tables.contains("books") && tables.contains("book_tags") && tables.contains("strata_migrations"))
        let indexes = try fixture.db.read { conn throws in
            try conn.fetch(sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").map { try $0.get(0, as: String.self) }
        }
        #expect(Set(indexes) == ["book_by_author_date", "books_price", "books_title", "loans_memberId_returned", "loans_open_by_book"])
        // The generated DDL names exactly the tables and indexes the migrations created.
        func createdName(_ sql: String) -> String? {
            guard let open = sql.firstIndex(of: "\""), let close = sql[sql.index(after: open)...].firstIndex(of: "\"") else { return nil }
            return String(sql[sql.index(after: open)..<close])
        }
        #expect(Set(Library.indexes.compactMap(createdName)) == Set(indexes))
        #expect(Library.indexes.count == indexes.count)
        let userTables = Set(tables).subtracting(["strata_migrations", "sqlite_sequence"])
        #expect(Set(Library.tables.compactMap(createdName)) == userTables)
        #expect(Library.tables.count == userTables.count)
    }

    @Test func insertAssignsAutoincrementKeysAndKeepsGivenOnes() throws {
        let fixture = try LibraryFixture()
        try fixture.db.write { conn throws in
            let dao = AuthorDAO(conn)
            let first = try dao.insert(Author(name: "A"))
            let second = try dao.insert(Author(name: "B"))
            #expect(first.id > 0)
            #expect(second.id == first.id + 1)
            let explicit = try dao.insert(Author(id: 100, name: "C"))
            #expect(explicit.id == 100)
            #expect(try dao.find(id: 100)?.name == "C")
            let many = try dao.insert([Author(name: "D"), Author(name: "E")])
            #expect(many.map(\.id) == [101, 102])
        }
    }

    @Test func everyColumnTypeRoundTrips() throws {
        let fixture = try LibraryFixture()
        let seeded = try fixture.seed()
        try fixture.db.read { conn throws in
            let dao = BookDAO(conn)
            for book in seeded.books {
                #expect(try dao.find(id: book.id) == book)
            }
            let orbitsville = try #require(try dao.byIsbn(isbn: "978-0575045576"))
            #expect(orbitsville.cover == Data([0, 1, 2, 255]))
            #expect(orbitsville.price == nil)
            #expect(orbitsville.publishedAt == nil)
            #expect(orbitsville.tags == [])
            #expect(orbitsville.format == .ebook)
            #expect(try conn.fetchValue(String.self, sql: "SELECT tags FROM books WHERE isbn = '978-0316246620'") == #"["sf","space opera"]"#)
            #expect(try conn.fetchValue(String.self, sql: "SELECT format FROM books WHERE isbn = '978-0316246620'") == "paperback")
            #expect(try conn.fetchValue(String.self, sql: "SELECT id FROM books WHERE isbn = '978-0316246620'") == seeded.books[0].id.uuidString)
        }
        // Dates, bools, json maps, `column:` renames and defaults of another table.
        let member = try fixture.db.write { conn throws in
            try MemberDAO(conn).insert(Member(fullName: "Zoë \"Zed\" O'Brien", email: "z@example.com"))
        }
        #expect(member.active == true)
        #expect(member.settings == ["theme": "light"])
        #expect(abs(member.joinedAt.timeIntervalSinceNow) < 60)
        let stored = try fixture.db.read { conn in try MemberDAO(conn).find(id: member.id) }
        #expect(stored?.fullName == "Zoë \"Zed\" O'Brien")
        #expect(stored?.settings == ["theme": "light"])
        #expect(stored.map { abs($0.joinedAt.timeIntervalSince(member.joinedAt)) < 0.001 } == true, "dates keep milliseconds")
        #expect(try fixture.db.read { try $0.fetchValue(String.self, sql: "SELECT full_name FROM members") } == "Zoë \"Zed\" O'Brien")
    }

    @Test func updateUpsertAndDelete() throws {
        let fixture = try LibraryFixture()
        let seeded = try fixture.seed()
        try fixture.db.write { conn throws in
            let dao = BookDAO(conn)
            var book = seeded.books[0]
            book.price = nil
            book.tags = ["changed"]
            book.format = .hardcover
            #expect(try dao.update(book))
            #expect(try dao.find(id: book.id) == book)
            var missing = book
            missing.id = UUID()
            #expect(try dao.update(missing) == false)

            // Upsert inserts a new row, then replaces it.
            var fresh = Book(title: "New", isbn: "1", authorId: seeded.ann.id)
            try dao.upsert(fresh)
            fresh.title = "Newer"
            try dao.upsert(fresh)
            #expect(try dao.find(id: fresh.id)?.title == "Newer")
            #expect(try dao.count() == 4)

            // Upsert of a composite-key-only table does nothing on conflict.
            let tag = BookTag(bookId: fresh.id, tag: "x")
            try BookTagDAO(conn).upsert(tag)
            try BookTagDAO(conn).upsert(tag)
            #expect(try BookTagDAO(conn).count(where: "bookId = ?", [fresh.id]) == 1)

            #expect(try dao.delete(fresh))
            #expect(try dao.delete(fresh) == false)
            #expect(try dao.find(id: fresh.id) == nil)
            #expect(try BookTagDAO(conn).find(bookId: fresh.id, tag: "x") == nil, "ON DELETE CASCADE")
        }
    }

    @Test func compositeKeys() throws {
        let fixture = try LibraryFixture()
        let seeded = try fixture.seed()
        try fixture.db.write { conn throws in
            let dao = BookTagDAO(conn)
            let id = seeded.books[1].id
            try dao.insert(BookTag(bookId: id, tag: "award"))
            #expect(try dao.find(bookId: id, tag: "award") == BookTag(bookId: id, tag: "award"))
            #expect(try dao.forBook(bookId: id).map(\.tag) == ["award", "fiction"])
            let duplicate = #expect(throws: StrataError.self) { try dao.insert(BookTag(bookId: id, tag: "award")) }
            #expect(duplicate?.constraint == .primaryKey)
            #expect(try dao.delete(bookId: id, tag: "award"))
            #expect(try dao.find(bookId: id, tag: "award") == nil)
        }
    }

    @Test func fetchWithConditionsOrderingLimitAndOffset() throws {
        let fixture = try LibraryFixture()
        let seeded = try fixture.seed()
        try fixture.db.read { conn throws in
            let dao = BookDAO(conn)
            #expect(try dao.fetchAll().count == 3)
            #expect(try dao.fetchAll(orderBy: "title").map(\.title) == ["Ancillary Justice", "Ancillary Sword", "Orbitsville"])
            #expect(try dao.fetchAll(where: "authorId = ?", [seeded.ann.id], orderBy: "pages DESC").map(\.pages) == [386, 356])
            #expect(try dao.fetchAll(where: "title LIKE :prefix", ["prefix": "Anc%"], orderBy: "title", limit: 1, offset: 1).map(\.title) == ["Ancillary Sword"])
            #expect(try dao.fetchAll(orderBy: "title", offset: 2).map(\.title) == ["Orbitsville"])
            #expect(try dao.fetchOne(where: "pages < ?", [300])?.title == "Orbitsville")
            #expect(try dao.fetchOne(where: "pages > ?", [10_000]) == nil)
            #expect(try dao.count() == 3)
            #expect(try dao.count(where: "price IS NULL") == 1)
            #expect(try dao.exists(where: "isbn = ?", ["978-0316246651"]))
            #expect(try dao.exists(where: "isbn = ?", ["nope"]) == false)
            var titles: [String] = []
            let cursor = try dao.cursor(orderBy: "title DESC")
            while let book = try cursor.next() { titles.append(book.title) }
            #expect(titles == ["Orbitsville", "Ancillary Sword", "Ancillary Justice"])
        }
    }

    @Test func updateAllAndDeleteAll() throws {
        let fixture = try LibraryFixture()
        let seeded = try fixture.seed()
        try fixture.db.write { conn throws in
            let dao = BookDAO(conn)
            #expect(try dao.updateAll(set: "pages = pages + ?", where: "authorId = ?", [10, seeded.ann.id]) == 2)
            #expect(try dao.fetchAll(where: "authorId = ?", [seeded.ann.id], orderBy: "pages").map(\.pages) == [366, 396])
            #expect(try dao.deleteAll(where: "authorId = ?", [seeded.bob.id]) == 1)
            #expect(try dao.count() == 2)
            #expect(try dao.deleteAll() == 2)
            #expect(try BookTagDAO(conn).count() == 0, "cascaded")
        }
    }

    @Test func namedQueriesOfEveryReturnKind() throws {
        let fixture = try LibraryFixture()
        let seeded = try fixture.seed()
        try fixture.db.read { conn throws in
            let dao = BookDAO(conn)
            // one
            #expect(try dao.byIsbn(isbn: "978-0316246651")?.title == "Ancillary Sword")
            #expect(try dao.byIsbn(isbn: "missing") == nil)
            #expect(try AuthorDAO(conn).named(name: "Bob Shaw") == seeded.bob)
            // many, ordered
            #expect(try dao.byAuthor(authorId: seeded.ann.id).map(\.title) == ["Ancillary Sword", "Ancillary Justice"])
            #expect(try dao.cheaperThan(max: 12).map(\.title) == ["Ancillary Justice"])
            // enum and int parameters, a limit parameter
            #expect(try dao.inFormat(format: .hardcover, minPages: 300, maxPages: 400, limit: 10).map(\.title) == ["Ancillary Sword"])
            #expect(try dao.inFormat(format: .paperback, minPages: 0, maxPages: 100, limit: 10).isEmpty)
            // date parameter
            #expect(try dao.publishedSince(since: try #require(date("2014-01-01"))).map(\.title) == ["Ancillary Sword"])
            // count and exists
            #expect(try dao.countByAuthor(authorId: seeded.ann.id) == 2)
            #expect(try dao.countByAuthor(authorId: 9999) == 0)
            #expect(try dao.existsWithTitle(pattern: "Orbit%"))
            #expect(try dao.existsWithTitle(pattern: "Nothing%") == false)
        }
    }

    @Test func foreignKeyNavigationBothWays() throws {
        let fixture = try LibraryFixture()
        let seeded = try fixture.seed()
        try fixture.db.write { conn throws in
            let member = try MemberDAO(conn).insert(Member(fullName: "Mia", email: "mia@example.com"))
            let due = try #require(date("2020-01-01"))
            let loan = try LoanDAO(conn).insert(Loan(bookId: seeded.books[2].id, memberId: member.id, dueAt: due))
            let anonymous = try LoanDAO(conn).insert(Loan(bookId: seeded.books[0].id, memberId: nil, dueAt: due, note: "walk-in"))

            #expect(try BookDAO(conn).author(of: seeded.books[0]) == seeded.ann)
            #expect(try AuthorDAO(conn).books(of: seeded.ann).count == 2)
            #expect(try AuthorDAO(conn).books(of: seeded.bob).map(\.title) == ["Orbitsville"])
            #expect(try BookDAO(conn).bookTags(of: seeded.books[0]).map(\.tag) == ["fiction"])
            #expect(try BookTagDAO(conn).book(of: BookTag(bookId: seeded.books[1].id, tag: "fiction")) == seeded.books[1])
            #expect(try LoanDAO(conn).member(of: loan) == member)
            #expect(try LoanDAO(conn).member(of: anonymous) == nil, "a NULL foreign key has no parent")
            #expect(try LoanDAO(conn).book(of: loan) == seeded.books[2])
            #expect(try MemberDAO(conn).loans(of: member) == [loan])
            #expect(try BookDAO(conn).loans(of: seeded.books[0]) == [anonymous])
            // Named queries with an optional-column parameter and a date.
            #expect(try LoanDAO(conn).openForMember(memberId: member.id) == [loan])
            #expect(try LoanDAO(conn).overdue(now: Date()).count == 2)
            #expect(try LoanDAO(conn).hasOpenLoan(bookId: seeded.books[2].id))
            // ON DELETE SET NULL
            try MemberDAO(conn).delete(member)
            #expect(try LoanDAO(conn).find(id: loan.id)?.memberId == nil)
        }
    }

    @Test func constraintViolationsAreTypedErrors() throws {
        let fixture = try LibraryFixture()
        let seeded = try fixture.seed()
        try fixture.db.write { conn throws in
            let dao = BookDAO(conn)
            let duplicateISBN = #expect(throws: StrataError.self) {
                try dao.insert(Book(title: "Copy", isbn: "978-0316246620", authorId: seeded.ann.id))
            }
            #expect(duplicateISBN?.constraint == .unique)
            let emptyTitle = #expect(throws: StrataError.self) { try dao.insert(Book(title: "", isbn: "2", authorId: seeded.ann.id)) }
            #expect(emptyTitle?.constraint == .check)
            let orphan = #expect(throws: StrataError.self) { try dao.insert(Book(title: "Orphan", isbn: "3", authorId: 4242)) }
            #expect(orphan?.constraint == .foreignKey)
        }
    }

    @Test func badStoredValuesThrowInsteadOfCrashing() throws {
        let fixture = try LibraryFixture()
        let seeded = try fixture.seed()
        // Write values the generated types cannot represent, behind the DAO's back.
        try fixture.db.writeWithoutTransaction { conn in
            try conn.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try conn.execute(sql: "UPDATE books SET format = 'scroll' WHERE isbn = '978-0316246620'")
            try conn.execute(sql: "UPDATE books SET tags = 'not json' WHERE isbn = '978-0316246651'")
            try conn.execute(sql: "UPDATE books SET publishedAt = 'yesterday' WHERE isbn = '978-0575045576'")
            try conn.execute(sql: "PRAGMA ignore_check_constraints = OFF")
        }
        try fixture.db.read { conn throws in
            for book in seeded.books {
                let error = #expect(throws: StrataError.self) { try BookDAO(conn).find(id: book.id) }
                #expect(error?.kind == .decoding)
            }
        }
    }

    @Test func asyncAccessFromTasks() async throws {
        let fixture = try LibraryFixture()
        let db = fixture.db
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<10 {
                group.addTask {
                    _ = try await db.write { conn in try AuthorDAO(conn).insert(Author(name: "Author \(index)")) }
                }
            }
            try await group.waitForAll()
        }
        let count = try await db.read { conn in try AuthorDAO(conn).count() }
        #expect(count == 10)
    }
}
