import Foundation
import Strata
import Testing

/// The generated full-text search of `Articles.schema.yml` (`search:` on `Article`): ranking by
/// bm25, snippets, safe quoting of user input and raw FTS5 queries.
@Suite struct SearchTests {
    static func database() throws -> Database {
        let db = try Database.inMemory()
        try Articles.migrate(db)
        try db.write { conn in
            let dao = ArticleDAO(conn)
            // Known ranking for "swift": bm25 favours more occurrences in shorter text.
            try dao.insert(Article(id: 0, title: "Swift", summary: "Swift, swift, swift: the language", stars: 5))  // 1
            try dao.insert(Article(id: 0, title: "Cooking pasta", summary: "Water, salt and a long wait for dinner tonight", stars: 1))  // 2
            try dao.insert(Article(id: 0, title: "A long history of programming languages, from Fortran to Swift", summary: nil, stars: 3))  // 3
            try dao.insert(Article(id: 0, title: "Café society", summary: "Crème brûlée and espresso in Vienna", stars: 4))  // 4
            try dao.insert(Article(id: 0, title: "Notes", summary: "He said \"hello\" -- then OR NEAR(a b) * left: 100%", stars: 2))  // 5
        }
        return db
    }

    @Test func rankedByBM25() throws {
        let db = try Self.database()
        let found = try db.read { conn in try ArticleDAO(conn).search("swift") }
        #expect(found.map(\.id) == [1, 3])
        let limited = try db.read { conn in try ArticleDAO(conn).search("swift", limit: 1) }
        #expect(limited.map(\.id) == [1])
        // Every word must match (AND).
        #expect(try db.read { conn in try ArticleDAO(conn).search("long swift") }.map(\.id) == [3])
        #expect(try db.read { conn in try ArticleDAO(conn).search("long") }.count == 2)
        #expect(try db.read { conn in try ArticleDAO(conn).search("kotlin") }.isEmpty)
        #expect(try db.read { conn in try ArticleDAO(conn).search("   ") }.isEmpty)
    }

    @Test func diacriticsAreRemovedByTheTokenizer() throws {
        let db = try Self.database()
        #expect(try db.read { conn in try ArticleDAO(conn).search("cafe creme brulee") }.map(\.id) == [4])
        #expect(try db.read { conn in try ArticleDAO(conn).search("CAFÉ") }.map(\.id) == [4])
    }

    @Test func snippetsHighlightTheMatches() throws {
        let db = try Self.database()
        let results = try db.read { conn in try ArticleDAO(conn).searchWithSnippets("espresso vienna") }
        #expect(results.map(\.record.id) == [4])
        #expect(results.first?.snippet == "Crème brûlée and <b>espresso</b> in <b>Vienna</b>")
        let long = try db.read { conn in try ArticleDAO(conn).searchWithSnippets("fortran", limit: 5) }
        #expect(long.first?.snippet == "A long history of programming languages, from <b>Fortran</b> to Swift")
        let raw = try db.read { conn in try ArticleDAO(conn).searchWithSnippets(matching: "dinn*") }
        #expect(raw.first?.snippet.contains("<b>dinner</b>") == true)
    }

    @Test func userInputWithQuerySyntaxNeverThrows() throws {
        let db = try Self.database()
        let inputs = [
            "\"hello\"", "\"unbalanced", "OR", "NEAR(a b)", "a AND", "*", "left:", "100%", "--", "(", "title: swift", "^swift", "-",
            "NOT", "'", "\u{0}", "a\u{0}\u{301}b", "\u{0}\"", "swift\"", "\"\"", "\"\u{301}", "a\"\u{301}b",
        ]
        for input in inputs {
            #expect(throws: Never.self, "\(input)") { try db.read { conn in try ArticleDAO(conn).search(input) } }
            #expect(throws: Never.self, "\(input)") { try db.read { conn in try ArticleDAO(conn).searchWithSnippets(input) } }
        }
        #expect(try db.read { conn in try ArticleDAO(conn).search("\"hello\"") }.map(\.id) == [5])
        #expect(try db.read { conn in try ArticleDAO(conn).search("OR NEAR") }.map(\.id) == [5])
    }

    @Test func rawQueriesUseFTS5Syntax() throws {
        let db = try Self.database()
        #expect(try db.read { conn in try ArticleDAO(conn).search(matching: "pasta OR fortran") }.map(\.id).sorted() == [2, 3])
        #expect(try db.read { conn in try ArticleDAO(conn).search(matching: "title: swift") }.map(\.id) == [1, 3])
        #expect(try db.read { conn in try ArticleDAO(conn).search(matching: "summary: swift") }.map(\.id) == [1])
        #expect(try db.read { conn in try ArticleDAO(conn).search(matching: "lang*") }.map(\.id).sorted() == [1, 3])
        #expect(throws: StrataError.self) { try db.read { conn in try ArticleDAO(conn).search(matching: "\"unbalanced") } }
    }

    @Test func writesThroughTheDAOKeepTheIndexInSync() throws {
        let db = try Self.database()
        try db.write { conn in
            let dao = ArticleDAO(conn)
            var pasta = try #require(try dao.find(id: 2))
            pasta.summary = "Risotto instead"
            try dao.update(pasta)
            try dao.delete(id: 1)
            try dao.upsert(Article(id: 3, title: "Fortran forever", summary: nil, stars: 3))
        }
        #expect(try db.read { conn in try ArticleDAO(conn).search("dinner") }.isEmpty)
        #expect(try db.read { conn in try ArticleDAO(conn).search("risotto") }.map(\.id) == [2])
        #expect(try db.read { conn in try ArticleDAO(conn).search("swift") }.isEmpty)
        #expect(try db.read { conn in try ArticleDAO(conn).search("fortran") }.map(\.id) == [3])
    }
}
