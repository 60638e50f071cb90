import Foundation
import Strata
import StrataTestSupport
import Testing

/// Observation of generated DAO queries and change events named by generated record types.
@Suite struct ObservationIntegrationTests {
    /// Waits (generously) for `condition`: 6,000 checks 5 ms apart, counted rather than
    /// timed, so a stall of the whole test process does not use up the budget.
    func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<6_000 {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return condition()
    }

    @Test func observingANamedQueryDeliversAfterCommitsToItsTable() async throws {
        let fixture = try LibraryFixture()
        let (ann, _, _) = try fixture.seed()
        let db = fixture.db
        var titles = db.observe { conn in try BookDAO(conn).cheaperThan(max: 10).map(\.title) }.makeAsyncIterator()
        #expect(try await titles.next() == ["Ancillary Justice"])
        try await db.write { conn in
            _ = try MemberDAO(conn).insert(Member(fullName: "Not a book", email: "m@example.org"))
            _ = try BookDAO(conn).insert(Book(title: "Cheap", isbn: "1", price: 1, authorId: ann.id))
        }
        #expect(try await titles.next() == ["Cheap", "Ancillary Justice"])
        // Deleting the author cascades to its books.
        try await db.write { conn in _ = try AuthorDAO(conn).delete(ann) }
        #expect(try await titles.next() == [])
    }

    @Test func changesToRecordTypesReportKeys() async throws {
        let fixture = try LibraryFixture()
        let (ann, bob, books) = try fixture.seed()
        let db = fixture.db
        #expect(Book.databaseTableName == "books")
        #expect(Loan.databaseTableName == "loans")
        let received = Locked<[DatabaseChange]>([])
        let changes = db.changes(to: [Book.self, Loan.self])
        let consumer = Task {
            for try await change in changes { received.withLock { $0.append(change) } }
        }
        let loan = try await db.write { conn in
            let member = try MemberDAO(conn).insert(Member(fullName: "Reader", email: "r@example.org"))
            return try LoanDAO(conn).insert(Loan(bookId: books[2].id, memberId: member.id, dueAt: Date()))
        }
        try await db.write { conn in _ = try AuthorDAO(conn).delete(bob) }  // cascades: book 2, then its loan
        #expect(await eventually { received.withLock { $0.count } >= 3 })
        let seen = received.withLock { $0 }
        #expect(seen.first == DatabaseChange(table: "loans", kind: .insert, primaryKey: [.integer(Int64(loan.id))], rowID: Int64(loan.id)))
        #expect(seen.contains { $0.table == "books" && $0.kind == .delete && $0.primaryKey == [.text(books[2].id.uuidString)] })
        #expect(seen.contains { $0.table == "loans" && $0.kind == .delete })
        #expect(!seen.contains { $0.table == "authors" || $0.table == "members" })
        _ = ann
        consumer.cancel()
    }
}

