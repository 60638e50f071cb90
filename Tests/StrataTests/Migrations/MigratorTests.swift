import Foundation
import Strata
import StrataTestSupport
import Testing

@Suite struct MigratorTests {
    static let v1 = Migration(
        version: 1, name: "initial",
        sql: """
            CREATE TABLE author (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL) STRICT;
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL, author_id INTEGER NOT NULL REFERENCES author(id) ON DELETE CASCADE) STRICT;
            """)
    static let v2 = Migration(version: 2, name: "add_born", sql: "ALTER TABLE author ADD COLUMN born TEXT;")
    /// Rebuilds the parent table: with foreign keys on, DROP TABLE author would cascade into book.
    static let v3 = Migration(
        version: 3, name: "rebuild_author",
        sql: """
            CREATE TABLE new_author (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL CHECK (length(name) > 0), born TEXT) STRICT;
            INSERT INTO new_author (id, name, born) SELECT id, name, born FROM author;
            DROP TABLE author;
            ALTER TABLE new_author RENAME TO author;
            """)

    func seed(_ db: Database) throws {
        try db.write { conn in
            try conn.execute(sql: "INSERT INTO author(name) VALUES ('Ann'), ('Bob')")
            try conn.execute(sql: "INSERT INTO book(id, title, author_id) VALUES (1, 'A', 1), (2, 'B', 1), (3, 'C', 2)")
        }
    }

    func count(_ db: Database, _ table: String) throws -> Int {
        try db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM \(table)") ?? -1 }
    }

    @Test func freshDatabaseToLatest() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("m.sqlite"))
        var announced: [Int] = []
        let applied = try Migrator(migrations: [Self.v2, Self.v1, Self.v3]).migrate(db) { announced.append($0.version) }
        #expect(applied.map(\.version) == [1, 2, 3])
        #expect(announced == [1, 2, 3])
        let status = try Migrator(migrations: [Self.v1, Self.v2, Self.v3]).status(of: db)
        #expect(status.currentVersion == 3)
        #expect(status.userVersion == 3)
        #expect(status.pending.isEmpty)
        #expect(status.applied.map(\.checksum) == [Self.v1.checksum, Self.v2.checksum, Self.v3.checksum])
        // Running again applies nothing.
        #expect(try Migrator(migrations: [Self.v1, Self.v2, Self.v3]).migrate(db).isEmpty)
    }

    @Test func partiallyMigratedToLatestKeepsChildRowsThroughARebuild() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("m.sqlite"))
        try Migrator(migrations: [Self.v1]).migrate(db)
        try seed(db)
        let applied = try Migrator(migrations: [Self.v1, Self.v2, Self.v3]).migrate(db)
        #expect(applied.map(\.version) == [2, 3])
        #expect(try count(db, "author") == 2)
        #expect(try count(db, "book") == 3, "rebuilding the parent must not cascade into the children")
        #expect(try db.read { try $0.fetchValue(String.self, sql: "PRAGMA integrity_check") } == "ok")
        #expect(try db.read { try $0.fetch(sql: "PRAGMA foreign_key_check") }.isEmpty)
        #expect(try db.read { try $0.fetchValue(Int.self, sql: "PRAGMA foreign_keys") } == 1, "foreign keys are restored")
        // The AUTOINCREMENT counter survived.
        try db.write { try $0.execute(sql: "INSERT INTO author(name) VALUES ('Cy')") }
        #expect(try db.read { try $0.fetchValue(Int.self, sql: "SELECT max(id) FROM author") } == 3)
    }

    @Test func failingMigrationLeavesDataAndVersionUntouched() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("m.sqlite")
        let db = try Database(path: path)
        try Migrator(migrations: [Self.v1]).migrate(db)
        try seed(db)
        let schemaBefore = try db.read { try $0.fetch(sql: "SELECT type, name, sql FROM sqlite_master ORDER BY name") }
        let broken = Migration(
            version: 2, name: "broken",
            sql: """
                ALTER TABLE author ADD COLUMN born TEXT;
                DELETE FROM book;
                CREATE TABLE extra(x);
                INSERT INTO nowhere VALUES (1);
                """)
        let error = #expect(throws: StrataError.self) { try Migrator(migrations: [Self.v1, broken]).migrate(db) }
        #expect(error?.kind == .migrationFailed)
        #expect(error?.message.contains("0002_broken.sql") == true)
        #expect(error?.message.contains("no such table: nowhere") == true)
        #expect(try db.read { try $0.fetch(sql: "SELECT type, name, sql FROM sqlite_master ORDER BY name") } == schemaBefore)
        #expect(try count(db, "book") == 3)
        #expect(try Migrator(migrations: [Self.v1]).status(of: db).userVersion == 1)
        #expect(try db.read { try $0.fetchValue(Int.self, sql: "PRAGMA foreign_keys") } == 1)
    }

    @Test func migrationThatOrphansRowsIsRolledBack() throws {
        let db = try Database.inMemory()
        try Migrator(migrations: [Self.v1]).migrate(db)
        try seed(db)
        let orphaning = Migration(version: 2, name: "orphan", sql: "DELETE FROM author WHERE id = 2;")
        let error = #expect(throws: StrataError.self) { try Migrator(migrations: [Self.v1, orphaning]).migrate(db) }
        #expect(error?.kind == .migrationFailed)
        #expect(try count(db, "author") == 2)
    }

    @Test func checksumDriftIsRefused() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("m.sqlite"))
        try Migrator(migrations: [Self.v1]).migrate(db)
        var edited = Self.v1
        edited.sql += "\n-- edited later\n"
        edited.checksum = Migration.checksum(of: edited.sql)
        let error = #expect(throws: StrataError.self) { try Migrator(migrations: [edited, Self.v2]).migrate(db) }
        #expect(error?.kind == .migrationRefused)
        #expect(error?.message.contains("0001_initial.sql was changed after it was applied") == true)
        #expect(error?.message.contains("put the change in a new migration") == true)
        #expect(try Migrator(migrations: [Self.v1]).status(of: db).currentVersion == 1, "nothing applied")
    }

    @Test func newerDatabaseIsRefused() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("m.sqlite"))
        try Migrator(migrations: [Self.v1, Self.v2]).migrate(db)
        let error = #expect(throws: StrataError.self) { try Migrator(migrations: [Self.v1]).migrate(db) }
        #expect(error?.kind == .migrationRefused)
        #expect(error?.message.contains("newer than this code") == true)
    }

    @Test func gapsAreRefused() throws {
        let db = try Database.inMemory()
        let error = #expect(throws: StrataError.self) { try Migrator(migrations: [Self.v1, Self.v3]).migrate(db) }
        #expect(error?.kind == .migrationRefused)
        #expect(error?.message.contains("gap") == true)
        #expect(try db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_master") } == 0, "nothing applied")
        // A gap in the database's own history.
        try Migrator(migrations: [Self.v1, Self.v2]).migrate(db)
        try db.write { try $0.execute(sql: "DELETE FROM strata_migrations WHERE version = 1") }
        let historyGap = #expect(throws: StrataError.self) { try Migrator(migrations: [Self.v1, Self.v2, Self.v3]).migrate(db) }
        #expect(historyGap?.message.contains("history has a gap") == true)
    }

    @Test func migrateUpToAVersion() throws {
        let db = try Database.inMemory()
        let migrator = Migrator(migrations: [Self.v1, Self.v2, Self.v3])
        #expect(try migrator.migrate(db, upTo: 2).map(\.version) == [1, 2])
        #expect(try migrator.status(of: db).pending.map(\.version) == [3])
        #expect(throws: StrataError.self) { try migrator.migrate(db, upTo: 1) }
    }

    @Test func sha256MatchesKnownVectors() {
        #expect(SHA256.hex(of: Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Migration.checksum(of: "a\r\nb") == Migration.checksum(of: "a\nb"))
    }
}

@Suite struct MigratorForeignKeysOffTests {
    @Test func withForeignKeysOffDanglingReferencesDoNotStopAMigration() throws {
        let db = try Database.inMemory()
        let v1 = Migration(version: 1, name: "initial", sql: "CREATE TABLE p(id INTEGER PRIMARY KEY); CREATE TABLE c(pid INTEGER REFERENCES p(id));")
        let v2 = Migration(version: 2, name: "orphan", sql: "INSERT INTO c VALUES (42);")
        let applied = try db.writeWithoutTransaction { conn in try Migrator(migrations: [v1, v2]).migrate(conn, foreignKeys: false) }
        #expect(applied.count == 2)
        let strict = try Database.inMemory()
        try Migrator(migrations: [v1]).migrate(strict)
        #expect(throws: StrataError.self) { try Migrator(migrations: [v1, v2]).migrate(strict) }
    }

    /// A baseline records its migration in the one history table the migrator creates, with
    /// the fingerprint columns; the next migrate fills the fingerprint in and applies the rest.
    @Test func aBaselineCreatesTheSameHistoryTableAsAMigration() throws {
        let dir = try TemporaryDirectory()
        let migrated = try Database(path: dir.path("migrated.sqlite"))
        try Migrator(migrations: [MigratorTests.v1]).migrate(migrated)
        let adopted = try Database(path: dir.path("adopted.sqlite"))
        try adopted.writeWithoutTransaction { conn in
            try conn.execute(sql: MigratorTests.v1.sql)
            try conn.inTransaction(.immediate) { try Migrator(migrations: [MigratorTests.v1]).recordAsApplied(MigratorTests.v1, on: conn) }
        }
        func history(_ db: Database) throws -> [[DatabaseValue]] {
            try db.read { conn in
                try conn.fetch(sql: "SELECT name, type, \"notnull\", pk FROM pragma_table_info('strata_migrations') ORDER BY cid").map(\.values)
            }
        }
        #expect(try history(adopted) == (try history(migrated)))
        #expect(try history(adopted).map { $0[0] } == ["version", "name", "checksum", "applied_at", "schema_fingerprint", "schema_objects", "schema_version"].map(DatabaseValue.text))
        #expect(try Migrator(migrations: [MigratorTests.v1, MigratorTests.v2]).migrate(adopted).map(\.version) == [2])
        #expect(try Migrator(migrations: [MigratorTests.v1, MigratorTests.v2]).status(of: adopted).problems.isEmpty)
    }
}
