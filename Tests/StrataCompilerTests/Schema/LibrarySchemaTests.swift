import Foundation
import Testing
@testable import StrataCompiler

enum Paths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let library = packageRoot.appendingPathComponent("schemas/Library.schema.yml").path
}

@Suite struct LibrarySchemaTests {
    let schema: Schema

    init() throws {
        schema = try SchemaLoader.load(path: Paths.library)
    }

    func table(_ name: String) throws -> Table { try #require(schema.table(named: name)) }

    @Test func checksWithoutDiagnostics() {
        let (checked, diagnostics) = SchemaLoader.check(path: Paths.library)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(checked != nil)
    }

    @Test func topLevel() {
        #expect(schema.name == "Library")
        #expect(schema.options == Schema.Options(strict: true, foreignKeys: true))
        #expect(schema.tables.map(\.recordName) == ["Author", "Book", "BookTag", "Member", "Loan"])
        #expect(schema.tables.map(\.sqlName) == ["authors", "books", "book_tags", "members", "loans"])
    }

    @Test func author() throws {
        let author = try table("Author")
        #expect(author.doc == "A person who writes books.")
        #expect(author.primaryKey == ["id"])
        #expect(author.autoincrementColumn?.name == "id")
        let born = try #require(author.column(named: "born"))
        #expect(born.type == .date && born.isOptional)
        let name = try #require(author.column(named: "name"))
        #expect(name.type == .text && !name.isOptional)
        #expect(author.location == SourceLocation(file: Paths.library, line: 8, column: 3))
    }

    @Test func bookColumns() throws {
        let book = try table("Book")
        #expect(book.columns.map(\.name) == ["id", "title", "isbn", "pages", "price", "format", "tags", "cover", "publishedAt", "authorId"])
        #expect(book.primaryKey == ["id"])
        #expect(book.column(named: "id")?.type == .uuid)
        #expect(book.column(named: "id")?.primaryKey == .plain)
        #expect(book.column(named: "title")?.check == "length(title) > 0")
        #expect(book.column(named: "title")?.doc == "The full title.")
        #expect(book.column(named: "isbn")?.isUnique == true)
        #expect(book.column(named: "pages")?.defaultValue == .integer(0))
        #expect(book.column(named: "price")?.type == .double)
        #expect(book.column(named: "price")?.isOptional == true)
        #expect(book.column(named: "format")?.type == .enumeration(swiftType: "Format", values: ["hardcover", "paperback", "ebook"]))
        #expect(book.column(named: "format")?.defaultValue == .text("paperback"))
        #expect(book.column(named: "tags")?.type == .json(swiftType: "[String]"))
        #expect(book.column(named: "tags")?.defaultValue == .json("[]"))
        #expect(book.column(named: "cover")?.type == .blob)
        #expect(book.column(named: "publishedAt")?.type == .date)
        #expect(book.column(named: "authorId")?.references == ForeignKey(table: "Author", column: "id", onDelete: .cascade))
    }

    @Test func bookIndexes() throws {
        let book = try table("Book")
        #expect(book.indexes.map(\.name) == ["books_title", "book_by_author_date", "books_price"])
        #expect(book.indexes[1].columns == ["authorId", "publishedAt"])
        #expect(book.indexes[2].whereClause == "price IS NOT NULL")
        #expect(book.indexes.allSatisfy { !$0.isUnique })
    }

    @Test func bookQueries() throws {
        let book = try table("Book")
        let queries = Dictionary(uniqueKeysWithValues: book.queries.map { ($0.name, $0) })
        #expect(queries["byIsbn"]?.returns == .one)
        #expect(queries["byIsbn"]?.parameters == [.init(name: "isbn", type: .text)])
        #expect(queries["byAuthor"]?.orderBy == "publishedAt DESC")
        #expect(queries["byAuthor"]?.parameters == [.init(name: "authorId", type: .int)])
        #expect(queries["cheaperThan"]?.limit == .fixed(50))
        #expect(queries["cheaperThan"]?.parameters == [.init(name: "max", type: .double)])
        #expect(queries["inFormat"]?.limit == .parameter("limit"))
        #expect(queries["inFormat"]?.parameters == [
            .init(name: "format", type: .enumeration(swiftType: "Format", values: ["hardcover", "paperback", "ebook"])),
            .init(name: "minPages", type: .int), .init(name: "maxPages", type: .int), .init(name: "limit", type: .int),
        ])
        #expect(queries["countByAuthor"]?.returns == .count)
        #expect(queries["existsWithTitle"]?.returns == .exists)
        #expect(queries["existsWithTitle"]?.parameters == [.init(name: "pattern", type: .text)])
        #expect(queries["existsWithTitle"]?.doc == "Whether a title matches a LIKE pattern.")
        #expect(queries["publishedSince"]?.parameters == [.init(name: "since", type: .date)])
    }

    @Test func compositeKey() throws {
        let tag = try table("BookTag")
        #expect(tag.primaryKey == ["bookId", "tag"])
        #expect(tag.columns.allSatisfy { $0.primaryKey == nil })
        #expect(tag.column(named: "bookId")?.references == ForeignKey(table: "Book", column: "id", onDelete: .cascade))
    }

    @Test func memberAndLoan() throws {
        let member = try table("Member")
        #expect(member.renamedFrom == "patrons")
        let fullName = try #require(member.column(named: "fullName"))
        #expect(fullName.sqlName == "full_name" && fullName.renamedFrom == "name")
        #expect(member.column(named: "active")?.defaultValue == .bool(true))
        #expect(member.column(named: "joinedAt")?.defaultValue == .now)
        #expect(member.column(named: "settings")?.defaultValue == .json(#"{"theme":"light"}"#))
        #expect(member.queries.first?.parameters == [.init(name: "active", type: .bool)])

        let loan = try table("Loan")
        // `references: books.id` names the SQL table; the model keeps the record name.
        #expect(loan.column(named: "bookId")?.references == ForeignKey(table: "Book", column: "id", onDelete: .cascade))
        #expect(loan.column(named: "memberId")?.references == ForeignKey(table: "Member", column: "id", onDelete: .setNull, onUpdate: .cascade))
        #expect(loan.column(named: "memberId")?.isOptional == true)
        #expect(loan.column(named: "dueAt")?.defaultValue == .sql("strftime('%Y-%m-%d %H:%M:%f', 'now', '+21 days')"))
        #expect(loan.column(named: "returned")?.defaultValue == .bool(false))
        #expect(loan.indexes.map(\.name) == ["loans_memberId_returned", "loans_open_by_book"])
        #expect(loan.indexes[1].isUnique && loan.indexes[1].whereClause == "returned = 0")
        let overdue = try #require(loan.queries.first { $0.name == "overdue" })
        #expect(overdue.parameters == [.init(name: "now", type: .date)])
    }

    @Test func ddl() throws {
        let statements = SQLRenderer.ddl(for: schema)
        #expect(statements.count == 5 + 5)
        #expect(statements[0] == """
            CREATE TABLE "authors" (
              "id" INTEGER PRIMARY KEY AUTOINCREMENT,
              "name" TEXT NOT NULL,
              "born" TEXT
            ) STRICT
            """)
        #expect(statements[1] == """
            CREATE TABLE "books" (
              "id" TEXT PRIMARY KEY NOT NULL,
              "title" TEXT NOT NULL CHECK (length(title) > 0),
              "isbn" TEXT NOT NULL UNIQUE,
              "pages" INTEGER NOT NULL DEFAULT 0 CHECK (pages >= 0),
              "price" REAL,
              "format" TEXT NOT NULL DEFAULT 'paperback' CHECK ("format" IN ('hardcover', 'paperback', 'ebook')),
              "tags" TEXT NOT NULL DEFAULT '[]',
              "cover" BLOB,
              "publishedAt" TEXT,
              "authorId" INTEGER NOT NULL,
              FOREIGN KEY ("authorId") REFERENCES "authors" ("id") ON DELETE CASCADE
            ) STRICT
            """)
        #expect(statements[2].contains(#"PRIMARY KEY ("bookId", "tag")"#))
        #expect(statements[3].contains(#""active" INTEGER NOT NULL DEFAULT 1 CHECK ("active" IN (0, 1))"#))
        #expect(statements[3].contains(#""joinedAt" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now'))"#))
        #expect(statements[3].contains(#""settings" TEXT NOT NULL DEFAULT '{"theme":"light"}'"#))
        #expect(statements[4].contains(#"FOREIGN KEY ("memberId") REFERENCES "members" ("id") ON DELETE SET NULL ON UPDATE CASCADE"#))
        #expect(statements[5] == #"CREATE INDEX "books_title" ON "books" ("title")"#)
        #expect(statements[7] == #"CREATE INDEX "books_price" ON "books" ("price") WHERE price IS NOT NULL"#)
        #expect(statements[9] == #"CREATE UNIQUE INDEX "loans_open_by_book" ON "loans" ("bookId") WHERE returned = 0"#)
    }
}

@Test func schemaExampleFromTheContractIsValid() throws {
    let contract = """
        tables:
          Author:
            table: authors
            columns:
              id:      { type: int, primaryKey: autoincrement }
              name:    text
              born:    date?
          Book:
            columns:
              id:          { type: uuid, primaryKey: true }
              authorId:    { type: int, references: Author.id, onDelete: cascade }
        """
    let schema = try SchemaLoader.load(contents: contract, path: "dir/My-library.schema.yaml")
    #expect(schema.name == "MyLibrary")
    #expect(schema.options.strict && schema.options.foreignKeys)
}
