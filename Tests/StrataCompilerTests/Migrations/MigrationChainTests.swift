import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// Five successive versions of a Library schema: migrated one step at a time and all at once
/// give the same structure, the same SQL in sqlite_master and the same rows.
@Suite struct MigrationChainTests {
    static let versions: [String] = [
        """
        database: Library
        tables:
          Author:
            table: author
            columns:
              id:   { type: int, primaryKey: autoincrement }
              name: text
          Book:
            table: book
            columns:
              id:       { type: int, primaryKey: autoincrement }
              title:    text
              price:    double?
              authorId: { type: int, references: Author.id, onDelete: cascade }
            indexes:
              - columns: [authorId]
        """,
        // v2: a nullable column, a NOT NULL column with a default, an index.
        """
        database: Library
        tables:
          Author:
            table: author
            columns:
              id:   { type: int, primaryKey: autoincrement }
              name: text
              born: date?
          Book:
            table: book
            columns:
              id:       { type: int, primaryKey: autoincrement }
              title:    text
              price:    double?
              pages:    { type: int, default: 0 }
              authorId: { type: int, references: Author.id, onDelete: cascade }
            indexes:
              - columns: [authorId]
              - columns: [title]
        """,
        // v3: renames (a column and a table), a new table.
        """
        database: Library
        tables:
          Author:
            table: writer
            renamedFrom: author
            columns:
              id:       { type: int, primaryKey: autoincrement }
              fullName: { type: text, renamedFrom: name }
              born:     date?
          Book:
            table: book
            columns:
              id:       { type: int, primaryKey: autoincrement }
              title:    text
              price:    double?
              pages:    { type: int, default: 0 }
              authorId: { type: int, references: Author.id, onDelete: cascade }
            indexes:
              - columns: [authorId]
              - columns: [title]
          Member:
            table: member
            columns:
              id:    { type: int, primaryKey: autoincrement }
              email: { type: text, unique: true }
        """,
        // v4: rebuilds: price becomes NOT NULL with a default, a check, an enum.
        """
        database: Library
        tables:
          Author:
            table: writer
            renamedFrom: author
            columns:
              id:       { type: int, primaryKey: autoincrement }
              fullName: { type: text, renamedFrom: name, check: "length(fullName) > 0" }
              born:     date?
          Book:
            table: book
            columns:
              id:       { type: int, primaryKey: autoincrement }
              title:    text
              price:    { type: double, default: 0 }
              pages:    { type: int, default: 0 }
              format:   { type: enum, values: [paper, ebook], default: paper }
              authorId: { type: int, references: Author.id, onDelete: cascade }
            indexes:
              - columns: [authorId]
              - { columns: [title], where: "pages > 0" }
          Member:
            table: member
            columns:
              id:    { type: int, primaryKey: autoincrement }
              email: { type: text, unique: true }
        """,
        // v5: a loan table between member and book, an added foreign key column.
        """
        database: Library
        tables:
          Author:
            table: writer
            renamedFrom: author
            columns:
              id:       { type: int, primaryKey: autoincrement }
              fullName: { type: text, renamedFrom: name, check: "length(fullName) > 0" }
              born:     date?
          Book:
            table: book
            columns:
              id:       { type: int, primaryKey: autoincrement }
              title:    text
              price:    { type: double, default: 0 }
              pages:    { type: int, default: 0 }
              format:   { type: enum, values: [paper, ebook], default: paper }
              authorId: { type: int, references: Author.id, onDelete: cascade }
              editorId: { type: int?, references: Author.id, onDelete: setNull }
            indexes:
              - columns: [authorId]
              - { columns: [title], where: "pages > 0" }
          Member:
            table: member
            columns:
              id:    { type: int, primaryKey: autoincrement }
              email: { type: text, unique: true }
          Loan:
            table: loan
            primaryKey: [bookId, memberId]
            columns:
              bookId:   { type: int, references: Book.id, onDelete: cascade }
              memberId: { type: int, references: Member.id, onDelete: cascade }
              returned: { type: bool, default: false }
        """,
    ]

    static let seed = """
        INSERT INTO author (name) VALUES ('Ann'), ('Bob'), ('Cy');
        DELETE FROM author WHERE name = 'Cy';
        INSERT INTO book (title, price, authorId) VALUES ('A', 10, 1), ('B', NULL, 1), ('C', 3.5, 2);
        """

    func snapshot(_ db: Database) throws -> (DatabaseSchema, [[DatabaseValue]], [String: [[DatabaseValue]]]) {
        try db.read { conn in
            let structure = try SchemaIntrospector.introspect(conn)
            let master = try conn.fetch(sql: "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name != 'strata_migrations' ORDER BY name").map(\.values)
            var rows: [String: [[DatabaseValue]]] = [:]
            for table in structure.tables.map(\.name) + ["sqlite_sequence"] {
                rows[table] = try conn.fetch(sql: "SELECT * FROM \"\(table)\" ORDER BY 1, 2").map(\.values)
            }
            return (structure, master, rows)
        }
    }

    @Test func stepByStepEqualsAllAtOnce() throws {
        let workspace = try MigrationWorkspace(name: "Library")
        let stepwise = try Database(path: workspace.url.appendingPathComponent("stepwise.sqlite").path)
        for (offset, yaml) in Self.versions.enumerated() {
            try #require(try workspace.evolve(to: yaml, name: "v\(offset + 1)") != nil)
            try workspace.migrate(stepwise)
            if offset == 0 { try stepwise.execute(Self.seed) }
        }
        #expect(try MigrationFiles.load(schemaPath: workspace.schemaPath).map(\.version) == [1, 2, 3, 4, 5])
        try workspace.expectClean(stepwise)

        let atOnce = try Database(path: workspace.url.appendingPathComponent("at-once.sqlite").path)
        try workspace.migrate(atOnce, upTo: 1)
        try atOnce.execute(Self.seed)
        #expect(try workspace.migrate(atOnce).map(\.version) == [2, 3, 4, 5])
        try workspace.expectClean(atOnce)

        let fresh = try Database(path: workspace.url.appendingPathComponent("fresh.sqlite").path)
        #expect(try workspace.migrate(fresh).count == 5)
        try workspace.expectClean(fresh)

        let (structureA, masterA, rowsA) = try snapshot(stepwise)
        let (structureB, masterB, rowsB) = try snapshot(atOnce)
        #expect(structureA == structureB)
        #expect(masterA == masterB)
        #expect(rowsA == rowsB)
        #expect(try snapshot(fresh).0 == structureA)
        // The data went through every step.
        #expect(try stepwise.rows("SELECT id, fullName FROM writer ORDER BY id") == [[.integer(1), .text("Ann")], [.integer(2), .text("Bob")]])
        #expect(try stepwise.rows("SELECT title, price, pages, format, editorId FROM book ORDER BY id") == [
            [.text("A"), .real(10), .integer(0), .text("paper"), .null],
            [.text("B"), .real(0), .integer(0), .text("paper"), .null],
            [.text("C"), .real(3.5), .integer(0), .text("paper"), .null],
        ])
        #expect(try stepwise.rows("SELECT seq FROM sqlite_sequence WHERE name = 'writer'") == [[.integer(3)]])
    }
}
