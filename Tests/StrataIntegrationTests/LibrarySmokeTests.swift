import Foundation
import Strata
import Testing

@Suite struct LibrarySmokeTests {
    @Test func insertAndReadBack() throws {
        let db = try Database.inMemory()
        try Library.migrate(db)
        let author = try db.write { conn in try AuthorDAO(conn).insert(Author(name: "Ann Leckie")) }
        #expect(author.id > 0)
    }
}
