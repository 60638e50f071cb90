import Foundation
import Strata
import StrataCompiler
import StrataPostgres
import StrataPostgresTestSupport
import StrataTestSupport
import Synchronization
import Testing

/// The Notes schema (`dialects: [sqlite, postgres]`, compiled by the real build plugin): full-text
/// search and expiring rows, the same rows and calls on SQLite and on a throwaway PostgreSQL
/// server, and the observation triggers its migrations create.
@Suite(.postgreSQLInstalled, .postgresServer)
struct NotesPostgresTests {
    /// A clock the tests move.
    final class Clock: Sendable {
        private let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    /// The same notes on both sides; the bodies are of one length, so that only how often a word
    /// occurs orders them (bm25 and ts_rank agree on that by construction).
    static let notes = [
        Note(title: "first", body: "swift swift swift code", keep: false),
        Note(title: "second", body: "swift rust other code", keep: false),
        Note(title: "third", body: "python ruby other code", keep: false),
        Note(title: "fourth", body: nil, keep: true),
    ]

    func sqlite(_ clock: Clock? = nil) throws -> Database {
        var configuration = Notes.configuration
        if let clock { configuration.now = { clock.now } }
        let db = try Database.inMemory(configuration: configuration)
        try Notes.migrate(db)
        return db
    }

    func postgres(_ clock: Clock? = nil) async throws -> PostgresDatabase {
        let pg = try await PostgresTestServer.current().makeDatabase { configuration in
            if let clock { configuration.now = { clock.now } }
        }
        let applied = try await Notes.migrate(pg)
        #expect(applied.map(\.version) == [1, 2])
        return pg
    }

    @Test func searchRanksTheSameRowsTheSameWayOnBothDialects() async throws {
        let db = try sqlite()
        let pg = try await postgres()
        do {
            try await db.write { conn in _ = try NoteDAO(conn).insert(Self.notes) }
            _ = try await pg.write { conn in try await NotePostgresDAO(conn).insert(Self.notes) }
            // "swift" three times in the first note, once in the second: first, then second, on both.
            let onSQLite = try await db.read { conn in try NoteDAO(conn).search("swift").map(\.title) }
            let onPostgres = try await pg.read { conn in try await NotePostgresDAO(conn).search("swift").map(\.title) }
            #expect(onSQLite == ["first", "second"])
            #expect(onPostgres == onSQLite)
            // Every word must match; the limit; a word no note has.
            #expect(try await pg.read { conn in try await NotePostgresDAO(conn).search("swift rust").map(\.title) } == ["second"])
            #expect(try await db.read { conn in try NoteDAO(conn).search("swift rust").map(\.title) } == ["second"])
            #expect(try await pg.read { conn in try await NotePostgresDAO(conn).search("code", limit: 2).count } == 2)
            #expect(try await pg.read { conn in try await NotePostgresDAO(conn).search("haskell") }.isEmpty)
            // `porter` is PostgreSQL's `english`: a stem matches on both.
            #expect(try await pg.read { conn in try await NotePostgresDAO(conn).search("coding").count } == 3)
            #expect(try await db.read { conn in try NoteDAO(conn).search("coding").count } == 3)
            // Snippets: SQLite's markers, from the column that matched.
            let snippets = try await pg.read { conn in try await NotePostgresDAO(conn).searchWithSnippets("rust") }
            #expect(snippets.map(\.record.title) == ["second"])
            #expect(snippets.first?.snippet == "swift <b>rust</b> other code", "\(snippets)")
            let sqliteSnippets = try await db.read { conn in try NoteDAO(conn).searchWithSnippets("rust") }
            #expect(sqliteSnippets.first?.snippet == snippets.first?.snippet)
            let titles = try await pg.read { conn in try await NotePostgresDAO(conn).searchWithSnippets("third") }
            #expect(titles.map(\.snippet) == ["<b>third</b>"])
            // A row's vector follows its update.
            try await pg.write { conn in
                var third = try #require(try await NotePostgresDAO(conn).fetchAll().first { $0.title == "third" })
                third.body = "swift"
                #expect(try await NotePostgresDAO(conn).update(third))
            }
            #expect(try await pg.read { conn in try await NotePostgresDAO(conn).search("swift").map(\.title) }.sorted() == ["first", "second", "third"])
            try await pg.close()
        } catch {
            try? await pg.close()
            throw error
        }
    }

    @Test func userInputIsNeverQuerySyntaxOnPostgreSQL() async throws {
        let pg = try await postgres()
        do {
            _ = try await pg.write { conn in try await NotePostgresDAO(conn).insert(Self.notes) }
            let hostile = [
                "'", "\"", ":", "&", "!", "(", ")", "|", "<->", "swift'", "\"swift", "swift & !rust", "(swift", "swift:*", "'; DROP TABLE notes; --",
                "or", "-swift", "\\", "", "   ", "&&&", "!!", "swift:a", "$1", "a:b", "rust)", "\u{0}", "swift\u{0}rust",
            ]
            for text in hostile {
                let found = try await pg.read { conn in try await NotePostgresDAO(conn).search(text).map(\.title) }
                let snippets = try await pg.read { conn in try await NotePostgresDAO(conn).searchWithSnippets(text).map(\.record.title) }
                #expect(found == snippets, "\(text)")
                // Punctuation is not a word and nothing is an operator: the words left must all match.
                let expected = text.contains("swift") ? (text.contains("rust") ? ["second"] : ["first", "second"]) : (text.contains("rust") ? ["second"] : [])
                #expect(found == expected, "\(text)")
            }
            #expect(try await pg.read { conn in try await NotePostgresDAO(conn).fetchAll().count } == Self.notes.count)
            try await pg.close()
        } catch {
            try? await pg.close()
            throw error
        }
    }

    @Test func expiredRowsAreLeftOutAndPurgedAsOnSQLite() async throws {
        let clock = Clock()
        let db = try sqlite(clock)
        let pg = try await postgres(clock)
        do {
            let user = try await db.write { conn in try UserDAO(conn).insert(User(name: "Ann")) }
            let pgUser = try await pg.write { conn in try await UserPostgresDAO(conn).insert(User(name: "Ann")) }
            #expect(pgUser.id == user.id)
            try await db.write { conn in
                let sessions = SessionDAO(conn)
                try sessions.insert(Session(token: "a", userId: user.id, device: "phone"), expiresIn: .seconds(10))
                try sessions.insert(Session(token: "b", userId: user.id, device: "laptop"), expiresIn: .seconds(3600))
                try sessions.insert(Session(token: "c", userId: user.id, device: "phone"))
                try sessions.upsert(Session(token: "d", userId: user.id, device: "phone"), expiresAt: clock.now.addingTimeInterval(20))
            }
            try await pg.write { conn in
                let sessions = SessionPostgresDAO(conn)
                try await sessions.insert(Session(token: "a", userId: user.id, device: "phone"), expiresIn: .seconds(10))
                try await sessions.insert(Session(token: "b", userId: user.id, device: "laptop"), expiresIn: .seconds(3600))
                try await sessions.insert(Session(token: "c", userId: user.id, device: "phone"))
                try await sessions.upsert(Session(token: "d", userId: user.id, device: "phone"), expiresAt: clock.now.addingTimeInterval(20))
            }
            struct Reads: Equatable {
                var all: [String], a: Bool, phone: [String], first: [String], count: Int, any: Bool, ofUser: [String]
            }
            func readSQLite() throws -> Reads {
                try db.read { conn in
                    let sessions = SessionDAO(conn)
                    return Reads(
                        all: try sessions.fetchAll().map(\.token).sorted(), a: try sessions.find(token: "a") != nil,
                        phone: try sessions.forDevice(device: "phone").map(\.token), first: try sessions.firstForDevice(device: "phone", limit: 1).map(\.token),
                        count: try sessions.countForDevice(device: "phone"), any: try sessions.anyForDevice(device: "phone"),
                        ofUser: try UserDAO(conn).sessions(of: user).map(\.token).sorted())
                }
            }
            func readPostgres() async throws -> Reads {
                try await pg.read { conn in
                    let sessions = SessionPostgresDAO(conn)
                    return Reads(
                        all: try await sessions.fetchAll().map(\.token).sorted(), a: try await sessions.find(token: "a") != nil,
                        phone: try await sessions.forDevice(device: "phone").map(\.token),
                        first: try await sessions.firstForDevice(device: "phone", limit: 1).map(\.token),
                        count: try await sessions.countForDevice(device: "phone"), any: try await sessions.anyForDevice(device: "phone"),
                        ofUser: try await UserPostgresDAO(conn).sessions(of: pgUser).map(\.token).sorted())
                }
            }
            let fresh = Reads(all: ["a", "b", "c", "d"], a: true, phone: ["a", "c", "d"], first: ["a"], count: 3, any: true, ofUser: ["a", "b", "c", "d"])
            #expect(try readSQLite() == fresh)
            #expect(try await readPostgres() == fresh)
            clock.advance(10)  // "a" expires at exactly now: expired.
            let later = Reads(all: ["b", "c", "d"], a: false, phone: ["c", "d"], first: ["c"], count: 2, any: true, ofUser: ["b", "c", "d"])
            #expect(try readSQLite() == later)
            #expect(try await readPostgres() == later)
            clock.advance(3600)
            #expect(try await readPostgres() == Reads(all: ["c"], a: false, phone: ["c"], first: ["c"], count: 1, any: true, ofUser: ["c"]))
            #expect(try Notes.purgeExpired(db) == 3)
            #expect(try await Notes.purgeExpired(pg) == 3)
            #expect(try await Notes.purgeExpired(pg) == 0)
            let left = try await pg.read { conn in try await conn.query(sql: "SELECT token FROM sessions").map { try $0.decode(String.self) } }
            #expect(left == ["c"])
            try await pg.close()
        } catch {
            try? await pg.close()
            throw error
        }
    }

    @Test func theMigrationsCreateTheObservationTriggersAndSearchOnAnExistingTable() async throws {
        let pg = try await PostgresTestServer.current().makeDatabase()
        do {
            // Migration 1 creates the tables (each with its trigger), 2 adds `search:` to notes.
            try await PostgresMigrator.migrate(pg, migrations: Notes.postgresMigrations, upTo: 1)
            _ = try await pg.write { conn in try await conn.query(sql: "INSERT INTO notes (title, body) VALUES ('old', 'swift before search')") }
            try await PostgresMigrator.migrate(pg, migrations: Notes.postgresMigrations)
            #expect(try await pg.read { conn in try await NotePostgresDAO(conn).search("swift").map(\.title) } == ["old"])
            let triggers = try await pg.read { conn in
                try await conn.query(sql: "SELECT tgrelid::regclass::text || ' ' || tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1")
                    .map { try $0.decode(String.self) }
            }
            #expect(triggers == ["notes strata_notify", "sessions strata_notify", "users strata_notify"])
            let received = Mutex<[String]>([])
            let observation = pg.observe { conn in try await NotePostgresDAO(conn).search("swift").map(\.title) }
            let task = Task {
                for try await titles in observation {
                    received.withLock { $0.append(titles.joined(separator: ",")) }
                    if titles.count == 2 { return }
                }
            }
            try await eventually("the first value") { received.withLock { $0.count } == 1 }
            _ = try await pg.write { conn in try await NotePostgresDAO(conn).insert(Note(title: "new", body: "swift swift")) }
            try await task.value
            #expect(received.withLock { $0 } == ["old", "new,old"])
            try await pg.close()
        } catch {
            try? await pg.close()
            throw error
        }
    }
}
