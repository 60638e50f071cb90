import Foundation
import Strata
import StrataCompiler
import StrataPostgres
import StrataPostgresTestSupport
import StrataTestSupport
import Testing

/// The Shop schema (`dialects: [sqlite, postgres]`), compiled by the real build plugin, against
/// a throwaway PostgreSQL server: the generated PostgresDAOs' whole surface, their errors, the
/// migration history and `strata migrate --url` through the real CLI.
@Suite(.postgreSQLInstalled, .postgresServer)
struct ShopPostgresTests {
    /// A new database with the Shop migrations applied.
    func migratedDatabase() async throws -> PostgresDatabase {
        let pg = try await PostgresTestServer.current().makeDatabase()
        let applied = try await Shop.migrate(pg)
        #expect(applied.map(\.version) == Shop.postgresMigrations.map(\.version))
        return pg
    }

    @Test func theWholeDAOSurface() async throws {
        let pg = try await migratedDatabase()
        do {
            let ann = try await pg.write { conn in try await AuthorPostgresDAO(conn).insert(Author(name: "Ann", born: Date(timeIntervalSince1970: 0))) }
            #expect(ann.id > 0)
            let bob = try await pg.write { conn in try await AuthorPostgresDAO(conn).insert(Author(name: "Bob")) }
            #expect(bob.id == ann.id + 1)
            let published = Date(timeIntervalSince1970: 1_700_000_000.123456)
            let book = Book(
                title: "Swift", isbn: "978-1", pages: 300, price: 39.5, format: .hardcover, tags: ["code", "swift"],
                cover: Data([0, 1, 2, 255]), publishedAt: published, authorId: ann.id)
            let stored = try await pg.write { conn in try await BookPostgresDAO(conn).insert(book) }
            #expect(stored == book)
            let cheap = Book(title: "Cheap", isbn: "978-2", price: 5, authorId: ann.id)
            let inserted = try await pg.write { conn throws in
                try await BookPostgresDAO(conn).insert([cheap, Book(title: "Free", isbn: "978-3", format: .ebook, authorId: bob.id)])
            }
            #expect(inserted.map(\.title) == ["Cheap", "Free"])

            // find, fetchAll, named queries.
            try await pg.read { conn throws in
                let books = BookPostgresDAO(conn)
                #expect(try await books.find(id: book.id) == book)
                #expect(try await books.find(id: UUID()) == nil)
                #expect(try await books.fetchAll().count == 3)
                #expect(try await books.byIsbn(isbn: "978-2") == cheap)
                #expect(try await books.byAuthor(authorId: ann.id).map(\.title).sorted() == ["Cheap", "Swift"])
                #expect(try await books.cheaperThan(max: 10).map(\.title) == ["Cheap"])
                #expect(try await books.inFormat(format: .paperback, minPages: 0, maxPages: 10, limit: 5).map(\.title) == ["Cheap"])
                #expect(try await books.countByAuthor(authorId: ann.id) == 2)
                #expect(try await books.existsWithTitle(pattern: "Sw%"))
                #expect(try await !books.existsWithTitle(pattern: "Rust%"))
                #expect(try await books.publishedSince(since: published.addingTimeInterval(-1)).map(\.title) == ["Swift"])
                #expect(try await AuthorPostgresDAO(conn).named(name: "Bob") == bob)
                // Navigation both ways.
                #expect(try await books.author(of: book) == ann)
                #expect(try await AuthorPostgresDAO(conn).books(of: bob).map(\.title) == ["Free"])
            }

            // update, upsert, delete.
            var changed = stored
            changed.price = nil
            changed.tags = []
            try await pg.write { conn throws in
                let books = BookPostgresDAO(conn)
                #expect(try await books.update(changed))
                #expect(try await !books.update(Book(title: "Nope", isbn: "0", authorId: ann.id)))
                var renamed = bob
                renamed.name = "Robert"
                #expect(try await AuthorPostgresDAO(conn).upsert(renamed) == renamed)
                let new = try await AuthorPostgresDAO(conn).upsert(Author(name: "Cy"))
                #expect(new.id > bob.id)
            }
            try await pg.read { conn throws in
                #expect(try await BookPostgresDAO(conn).find(id: book.id) == changed)
                #expect(try await AuthorPostgresDAO(conn).find(id: bob.id)?.name == "Robert")
            }

            // Composite keys, enums, JSON, defaults filled by PostgreSQL.
            let member = try await pg.write { conn throws in
                try await MemberPostgresDAO(conn).insert(Member(fullName: "Dee", email: "dee@example.com", settings: ["theme": "dark"]))
            }
            try await pg.write { conn throws in
                try await BookTagPostgresDAO(conn).insert(BookTag(bookId: book.id, tag: "b"))
                try await BookTagPostgresDAO(conn).upsert(BookTag(bookId: book.id, tag: "a"))
                try await BookTagPostgresDAO(conn).upsert(BookTag(bookId: book.id, tag: "a"))
                let loan = try await LoanPostgresDAO(conn).insert(Loan(bookId: book.id, memberId: member.id))
                #expect(try await LoanPostgresDAO(conn).hasOpenLoan(bookId: book.id))
                #expect(try await LoanPostgresDAO(conn).openForMember(memberId: member.id) == [loan])
                #expect(try await LoanPostgresDAO(conn).member(of: loan) == member)
            }
            try await pg.read { conn throws in
                #expect(try await BookTagPostgresDAO(conn).forBook(bookId: book.id).map(\.tag) == ["a", "b"])
                #expect(try await BookTagPostgresDAO(conn).find(bookId: book.id, tag: "b") != nil)
                #expect(try await MemberPostgresDAO(conn).find(id: member.id)?.settings == ["theme": "dark"])
            }
            try await pg.write { conn throws in
                #expect(try await BookTagPostgresDAO(conn).delete(bookId: book.id, tag: "b"))
                #expect(try await BookPostgresDAO(conn).delete(cheap))
                #expect(try await !BookPostgresDAO(conn).delete(id: cheap.id))
                // ON DELETE CASCADE through the foreign keys.
                #expect(try await AuthorPostgresDAO(conn).delete(ann))
            }
            try await pg.read { conn throws in
                #expect(try await BookPostgresDAO(conn).fetchAll().map(\.title) == ["Free"])
                #expect(try await BookTagPostgresDAO(conn).fetchAll().isEmpty)
                #expect(try await LoanPostgresDAO(conn).fetchAll().isEmpty)
            }
            try await pg.close()
        } catch {
            try? await pg.close()
            throw error
        }
    }

    @Test func constraintViolationsAreStrataErrorsWithTheirSQLState() async throws {
        let pg = try await migratedDatabase()
        do {
            let author = try await pg.write { conn in try await AuthorPostgresDAO(conn).insert(Author(name: "Ann")) }
            try await pg.write { conn in _ = try await BookPostgresDAO(conn).insert(Book(title: "A", isbn: "1", authorId: author.id)) }
            let cases: [(String, StrataError.ConstraintKind, Book)] = [
                ("23505", .unique, Book(title: "B", isbn: "1", authorId: author.id)),
                ("23503", .foreignKey, Book(title: "C", isbn: "2", authorId: author.id + 100)),
                ("23514", .check, Book(title: "", isbn: "3", authorId: author.id)),
            ]
            for (sqlState, kind, book) in cases {
                let error = await #expect(throws: StrataError.self) {
                    try await pg.write { conn in _ = try await BookPostgresDAO(conn).insert(book) }
                }
                #expect(error?.sqlState == sqlState)
                #expect(error?.constraint == kind)
            }
            // The failed transactions left nothing behind.
            #expect(try await pg.read { conn in try await BookPostgresDAO(conn).fetchAll().count } == 1)
            try await pg.close()
        } catch {
            try? await pg.close()
            throw error
        }
    }

    /// The structure of a database: columns, indexes and constraints as PostgreSQL describes
    /// them (primary-key index names left out: PostgreSQL keeps the name a renamed table had).
    func structure(_ pg: PostgresDatabase) async throws -> [String] {
        try await pg.read { conn throws in
            var lines: [String] = []
            let columns = try await conn.query(sql: """
                SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '-') || ' ' || is_identity
                FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'strata_migrations'
                """)
            for row in columns { lines.append("column " + (try row.decode(String.self))) }
            let indexes = try await conn.query(sql: """
                SELECT regexp_replace(indexdef, 'INDEX \\S+_pkey ON', 'INDEX <pkey> ON') FROM pg_indexes
                WHERE schemaname = 'public' AND tablename <> 'strata_migrations'
                """)
            for row in indexes { lines.append("index " + (try row.decode(String.self))) }
            let constraints = try await conn.query(sql: """
                SELECT conrelid::regclass::text || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
                WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> 'strata_migrations'
                """)
            for row in constraints { lines.append("constraint " + (try row.decode(String.self))) }
            let triggers = try await conn.query(sql: """
                SELECT tgrelid::regclass::text || ' ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
                """)
            for row in triggers { lines.append("trigger " + (try row.decode(String.self))) }
            return lines.sorted()
        }
    }

    @Test func theHistoryAppliesFromEmptyAndFromEveryVersion() async throws {
        let server = try PostgresTestServer.current()
        let latest = Shop.postgresMigrations.count
        var structures: [[String]] = []
        for start in 0...latest {
            let pg = try await server.makeDatabase()
            do {
                if start > 0 {
                    #expect(try await PostgresMigrator.migrate(pg, migrations: Shop.postgresMigrations, upTo: start).count == start)
                }
                #expect(try await PostgresMigrator.migrate(pg, migrations: Shop.postgresMigrations).count == latest - start)
                #expect(try await PostgresMigrator.migrate(pg, migrations: Shop.postgresMigrations).isEmpty)
                structures.append(try await structure(pg))
                try await pg.close()
            } catch {
                try? await pg.close()
                throw error
            }
        }
        let expected = structures[0]
        #expect(!expected.isEmpty)
        for (start, found) in structures.enumerated() {
            #expect(found == expected, "from version \(start)")
        }
        // Every table has its observation trigger, from every starting point: migration 4 was
        // written by `strata migration new` for this history, whose files did not create them.
        #expect(expected.filter { $0.hasPrefix("trigger ") }.count == 5, "\(expected)")
        // The history ends where the declared schema's own DDL (and the observation triggers of
        // a new database) does: what the build-time check (the fingerprint of that DDL in the
        // newest file) stands for.
        let declared = try await server.makeDatabase()
        do {
            let schema = try SchemaLoader.load(path: Self.fixtures.appendingPathComponent("Shop.schema.yml").path)
            try await declared.write { conn in
                for statement in PostgresRenderer.ddl(for: schema) + PostgresRenderer.notifySQL(for: schema) { try await conn.execute(sql: statement) }
            }
            #expect(try await structure(declared) == expected)
            try await declared.close()
        } catch {
            try? await declared.close()
            throw error
        }
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// A new empty database on `server` and its URL.
    func emptyDatabaseURL(_ server: PostgresTestServer) async throws -> String {
        let name = "cli_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        let admin = try await PostgresDatabase(url: server.url())
        do {
            try await admin.withConnection { conn in try await conn.execute(sql: "CREATE DATABASE \(name)") }
            try await admin.close()
        } catch {
            try? await admin.close()
            throw error
        }
        return server.url(database: String(name))
    }

    @Test func strataMigrateURLThroughTheRealCLI() async throws {
        let url = try await emptyDatabaseURL(try PostgresTestServer.current())
        let schema = Self.fixtures.appendingPathComponent("Shop.schema.yml").path
        let dryRun = try StrataCLI.run(["migrate", schema, "--url", url, "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.error)")
        #expect(dryRun.output.contains("would apply:\n  0001_initial"))
        let first = try StrataCLI.run(["migrate", schema, "--url", url, "--to", "2"])
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output.contains("applied 0002_members_and_loans"))
        let status = try StrataCLI.run(["status", schema, "--url", url])
        #expect(status.output.contains("version: 2 (latest: 4)"))
        #expect(status.output.contains("pending:\n  0003_tags_ratings_settings\n  0004_observation"))
        let rest = try StrataCLI.run(["migrate", schema, "--url", url])
        #expect(rest.status == 0, "\(rest.error)")
        #expect(rest.output.contains("is at version 4"))
        let again = try StrataCLI.run(["migrate", schema, "--url", url])
        #expect(again.output.contains("is up to date at version 4"))
    }

    /// `strata` builds no SwiftNIO, so it has no `--url`: it refuses, touches nothing, and prints
    /// the `strata-postgres` command that has it (the password masked); that command works.
    @Test func strataWithoutPostgresNamesTheCommandThatHasIt() async throws {
        let server = try PostgresTestServer.current()
        let url = try await emptyDatabaseURL(server)
        let schema = Self.fixtures.appendingPathComponent("Shop.schema.yml").path
        for arguments in [["migrate", schema, "--url", url, "--to", "1"], ["status", schema, "--url", url]] {
            let plain = try StrataExecutable.run(arguments)
            #expect(plain.status == 1, "\(plain.stdout)\n\(plain.stderr)")
            #expect(plain.stdout.isEmpty, "\(plain.stdout)")
            let lines = plain.stderr.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("error: this strata has no PostgreSQL support") == true, "\(plain.stderr)")
            let masked = PostgresCommandsDisplay.masked(url)
            #expect(lines.last == "  swift run strata-postgres \(arguments.map { $0 == url ? masked : $0 }.joined(separator: " "))",
                    "\(plain.stderr)")
        }
        // Nothing was applied: the command it named applies all of migration 1, from version 0.
        let named = try StrataCLI.run(["migrate", schema, "--url", url, "--to", "1"])
        #expect(named.status == 0, "\(named.error)")
        #expect(named.output.contains("applied 0001_initial"), "\(named.output)")
    }
}

/// A URL as the CLI's messages show it: the password as `***`.
enum PostgresCommandsDisplay {
    static func masked(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}

/// The `strata-postgres` executable the package built, beside this test bundle (plain
/// `swift build --build-tests` builds it with every other product, so this runs under plain
/// `swift test` with no trait and no second build).
enum StrataCLI {
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let result = try StrataExecutable.run(arguments, postgres: true)
        return (result.status, result.stdout, result.stderr)
    }
}
