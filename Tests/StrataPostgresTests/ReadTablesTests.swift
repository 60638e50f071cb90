import Testing

@testable import StrataPostgres

/// The names an observed fetch's SQL mentions (what its observation refetches on).
struct ReadTablesTests {
    @Test func unquotedNamesFoldToLowerCaseAndQuotedOnesKeepTheirCase() {
        let names = ReadTables.identifiers(in: #"SELECT b.Title FROM Book b JOIN "Loan" l ON l.book_id = b.id JOIN shop.author USING (id)"#)
        #expect(names.isSuperset(of: ["book", "Loan", "shop", "author", "title", "book_id"]))
        #expect(!names.contains("Book") && !names.contains("loan"))
    }

    @Test func stringsCommentsAndDollarQuotesAreNotNames() {
        let sql = """
            SELECT 'FROM secret' AS a, E'it\\'s hidden' AS b, $tag$ dollar_hidden $tag$, $$ also_hidden $$ -- comment_hidden
            /* block /* nested_hidden */ still_hidden */ FROM visible WHERE x = $1 AND "we""ird" = 'it''s'
            """
        let names = ReadTables.identifiers(in: sql)
        #expect(names.contains("visible"))
        #expect(names.contains(#"we"ird"#))
        for hidden in ["secret", "hidden", "dollar_hidden", "also_hidden", "comment_hidden", "nested_hidden", "still_hidden", "s"] {
            #expect(!names.contains(hidden), "\(hidden) was taken for a name")
        }
    }
}
