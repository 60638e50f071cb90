import Foundation
import Strata
import StrataTestSupport
import Testing

/// A full disk (`PRAGMA max_page_count`, and a file size limit on the real `strata` process)
/// and a read-only database: writes and migrations fail with a typed error, roll back, leave
/// the data intact, and the database works again once there is room.
@Suite struct DiskFullTests {
    static let sums = ["sum(id)", "total(length(body))", "sum(n)"]

    static let initial = Migration(
        version: 1, name: "initial",
        sql: """
            CREATE TABLE doc (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL, n INTEGER);
            CREATE TABLE part (id INTEGER PRIMARY KEY, docId INTEGER NOT NULL REFERENCES doc (id) ON DELETE CASCADE);
            CREATE INDEX doc_n ON doc (n);
            """)

    /// A rebuild of `doc` (n becomes NOT NULL with a CHECK): it needs room for a second copy.
    static let rebuild = Migration(
        version: 2, name: "rebuild",
        sql: """
            CREATE TABLE new_doc (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL, n INTEGER NOT NULL DEFAULT 0 CHECK (n >= 0));
            INSERT INTO new_doc (id, body, n) SELECT id, body, coalesce(n, 0) FROM doc;
            DELETE FROM sqlite_sequence WHERE name = 'new_doc';
            UPDATE sqlite_sequence SET name = 'new_doc' WHERE name = 'doc';
            DROP TABLE doc;
            ALTER TABLE new_doc RENAME TO doc;
            CREATE INDEX doc_n ON doc (n);
            """)

    /// A migrated database with `rows` documents of about 200 bytes and a part for each.
    static func seeded(_ dir: TemporaryDirectory, rows: Int) throws -> (Database, Fingerprint) {
        let db = try Database(path: dir.path("full.sqlite"))
        try Migrator(migrations: [initial]).migrate(db)
        try db.write { conn throws in
            for i in 1...rows {
                try conn.execute(
                    sql: "INSERT INTO doc (body, n) VALUES (?, ?); INSERT INTO part (docId) VALUES (last_insert_rowid())",
                    arguments: [String(repeating: "body \(i) ", count: 20), i])
            }
        }
        return (db, try db.read { try Fingerprint($0, table: "doc", expressions: sums) })
    }

    /// Caps the writer connection at its current size plus `extra` pages; returns the cap.
    @discardableResult
    static func cap(_ db: Database, extraPages extra: Int) throws -> Int {
        try db.writeWithoutTransaction { conn throws in
            let pages = try conn.fetchValue(Int.self, sql: "PRAGMA page_count") ?? 0
            return try conn.fetchValue(Int.self, sql: "PRAGMA max_page_count = \(pages + extra)") ?? 0
        }
    }

    static func uncap(_ db: Database) throws {
        try db.writeWithoutTransaction { conn in try conn.execute(sql: "PRAGMA max_page_count = 1073741823") }
    }

    static func expectIntact(_ db: Database, _ expected: Fingerprint, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try db.read { conn throws in
            #expect(try conn.fetchValue(String.self, sql: "PRAGMA integrity_check") == "ok", sourceLocation: sourceLocation)
            #expect(try conn.fetch(sql: "PRAGMA foreign_key_check").isEmpty, sourceLocation: sourceLocation)
            #expect(try Fingerprint(conn, table: "doc", expressions: sums) == expected, sourceLocation: sourceLocation)
            #expect(try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM part") == expected.rows, sourceLocation: sourceLocation)
        }
    }

    @Test func writesFailWithSQLiteFullAndRollBack() throws {
        let dir = try TemporaryDirectory()
        let (db, before) = try Self.seeded(dir, rows: 500)
        try Self.cap(db, extraPages: 4)
        var failures = 0

        // A transaction that outgrows the cap: SQLITE_FULL, and none of its rows stay.
        do {
            try db.write { conn throws in
                for i in 0..<2_000 {
                    try conn.execute(sql: "INSERT INTO doc (body, n) VALUES (?, ?)", arguments: [String(repeating: "more \(i) ", count: 50), i])
                }
            }
            Issue.record("the write did not fail")
        } catch let error as StrataError {
            #expect(error.kind == .sqlite && error.resultCode == 13, "\(error)")
            failures += 1
        }
        try Self.expectIntact(db, before)

        // One statement outside a transaction.
        do {
            try db.writeWithoutTransaction { conn throws in
                try conn.execute(
                    sql: "INSERT INTO doc (body, n) SELECT body || body || body, n FROM doc")
            }
            Issue.record("the statement did not fail")
        } catch let error as StrataError {
            #expect(error.resultCode == 13, "\(error)")
            failures += 1
        }
        try Self.expectIntact(db, before)

        // A nested savepoint that fails inside a transaction that goes on: only its rows go.
        try db.write { conn throws in
            try conn.execute(sql: "INSERT INTO doc (body, n) VALUES ('small', 1)")
            do {
                try conn.savepoint {
                    try conn.execute(sql: "INSERT INTO doc (body, n) SELECT body || body, n FROM doc")
                }
                Issue.record("the savepoint did not fail")
            } catch let error as StrataError {
                #expect(error.resultCode == 13, "\(error)")
                failures += 1
            }
            try conn.execute(sql: "DELETE FROM doc WHERE body = 'small'")
        }
        try Self.expectIntact(db, before)

        // Room again: the same big write succeeds.
        try Self.uncap(db)
        try db.write { conn throws in
            for i in 0..<2_000 {
                try conn.execute(sql: "INSERT INTO doc (body, n) VALUES (?, ?)", arguments: [String(repeating: "more \(i) ", count: 50), i])
            }
        }
        #expect(try db.value(Int.self, "SELECT count(*) FROM doc") == before.rows + 2_000)
        #expect(try db.value(String.self, "PRAGMA integrity_check") == "ok")
        Reliability.figure("disk full: \(failures) writes failed with SQLITE_FULL (13) under max_page_count; rows lost 0; the same write succeeded after raising the cap")
    }

    @Test func aMigrationThatRunsOutOfSpaceLeavesTheOldVersion() throws {
        let dir = try TemporaryDirectory()
        let (db, before) = try Self.seeded(dir, rows: 2_000)
        let migrator = Migrator(migrations: [Self.initial, Self.rebuild])
        try Self.cap(db, extraPages: 20)
        do {
            try migrator.migrate(db)
            Issue.record("the migration did not fail")
        } catch let error as StrataError {
            #expect(error.kind == .migrationFailed && error.resultCode == 13, "\(error)")
            #expect(error.message.contains("0002_rebuild.sql") && error.message.contains("unchanged at version 1"), "\(error)")
        }
        try Self.expectIntact(db, before)
        let status = try migrator.status(of: db)
        #expect(status.currentVersion == 1 && status.userVersion == 1)
        #expect(try db.value(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = 'new_doc'") == 0)
        // foreign_keys is back on after the failed migration.
        #expect(try db.writeWithoutTransaction { try $0.fetchValue(Int.self, sql: "PRAGMA foreign_keys") } == 1)

        try Self.uncap(db)
        #expect(try migrator.migrate(db).map(\.version) == [2])
        try Self.expectIntact(db, before)
        #expect(try migrator.status(of: db).currentVersion == 2)
        Reliability.figure("disk full: a 12-step rebuild of 2,000 rows under max_page_count failed with SQLITE_FULL (13), left version 1 and every row; it applied after raising the cap")
    }

    /// The real `strata migrate` under a file size limit (`ulimit -f`, SIGXFSZ ignored so a
    /// write past the limit fails with EFBIG): SQLite reports an I/O error, the command exits 1,
    /// and the database is intact at the old version; without the limit it migrates.
    @Test func strataMigrateUnderAFileSizeLimit() throws {
        let dir = try TemporaryDirectory()
        let schema = """
            database: Sized
            tables:
              Doc:
                table: doc
                columns:
                  id:   { type: int, primaryKey: autoincrement }
                  body: text
                  n:    int?
            """
        try Data(schema.utf8).write(to: dir.url.appendingPathComponent("Sized.schema.yml"))
        #expect(try Reliability.strata("migration", "new", "Sized.schema.yml", "--name", "initial", in: dir.url).status == 0)
        #expect(try Reliability.strata("migrate", "Sized.schema.yml", "--database", "sized.sqlite", in: dir.url).status == 0)
        let path = dir.path("sized.sqlite")
        let before: Fingerprint
        do {
            let db = try Database(path: path)
            try db.write { conn throws in
                for i in 1...4_000 {
                    try conn.execute(sql: "INSERT INTO doc (body, n) VALUES (?, ?)", arguments: [String(repeating: "body \(i) ", count: 30), i])
                }
            }
            try db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            before = try db.read { try Fingerprint($0, table: "doc", expressions: Self.sums) }
        }
        try Data(schema.replacingOccurrences(of: "n:    int?", with: "n:    { type: int, default: 0, check: \"n >= 0\" }").utf8)
            .write(to: dir.url.appendingPathComponent("Sized.schema.yml"))
        #expect(try Reliability.strata("migration", "new", "Sized.schema.yml", "--name", "rebuild", in: dir.url).status == 0)

        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        #expect(size > 512 * 1024, "the database should be larger than the limit")
        let strata = try #require(Reliability.executable).path
        // bash's `ulimit -f` counts 1024-byte blocks: the WAL may grow to 256 KiB, the rebuild needs more.
        let limited = try Reliability.run(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", "trap '' XFSZ; ulimit -f 256; exec \"$0\" migrate Sized.schema.yml --database sized.sqlite", strata], in: dir.url)
        #expect(limited.status == 1, "\(limited.stdout) \(limited.stderr)")
        #expect(limited.stderr.contains("0002_rebuild.sql"), "\(limited.stderr)")
        let message = limited.stderr.split(separator: "\n").first.map(String.init) ?? ""
        do {
            let db = try Database(path: path)
            #expect(try db.value(String.self, "PRAGMA integrity_check") == "ok")
            #expect(try db.value(Int.self, "PRAGMA user_version") == 1)
            #expect(try db.read { try Fingerprint($0, table: "doc", expressions: Self.sums) } == before)
        }
        let unlimited = try Reliability.strata("migrate", "Sized.schema.yml", "--database", "sized.sqlite", in: dir.url)
        #expect(unlimited.status == 0, "\(unlimited.stderr)")
        let db = try Database(path: path)
        #expect(try db.value(Int.self, "PRAGMA user_version") == 2)
        #expect(try db.read { try Fingerprint($0, table: "doc", expressions: Self.sums) } == before)
        Reliability.figure("I/O error: `strata migrate` under `ulimit -f 256` exited 1 (\(message.prefix(160))); database intact at version 1, rows lost 0; migrated to 2 without the limit")
    }

    /// A read-only database refuses writes with a typed error and keeps its data.
    /// (The tests run as root, which ignores file permissions, so `chmod a-w` proves nothing
    /// here; the read-only configuration opens every connection with `SQLITE_OPEN_READONLY`.)
    @Test func aReadOnlyDatabaseRefusesWrites() throws {
        let dir = try TemporaryDirectory()
        let (db, before) = try Self.seeded(dir, rows: 50)
        try db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let readOnly = try Database(path: dir.path("full.sqlite"), configuration: .readOnly)
        #expect(throws: StrataError.self) { try readOnly.write { try $0.execute(sql: "DELETE FROM doc") } }
        do {
            try readOnly.read { conn in try conn.execute(sql: "DELETE FROM doc") }
            Issue.record("a read-only connection deleted rows")
        } catch let error as StrataError {
            #expect(error.resultCode == 8, "\(error)")  // SQLITE_READONLY
        }
        do {
            try Migrator(migrations: [Self.initial, Self.rebuild]).migrate(readOnly)
            Issue.record("a read-only database was migrated")
        } catch let error as StrataError {
            #expect(error.kind == .misuse, "\(error)")
        }
        #expect(try readOnly.read { try Fingerprint($0, table: "doc", expressions: Self.sums) } == before)
        try Self.expectIntact(db, before)
    }
}
