import Foundation
import Strata
import StrataTestSupport
import Testing

/// The migrator compares the live structure with the fingerprint recorded with the last applied
/// migration, and refuses when the file was altered by hand (drift); two migrators racing on one
/// file apply each migration once.
@Suite struct MigratorDriftTests {
    static let migrations = [MigratorTests.v1, MigratorTests.v2, MigratorTests.v3]

    func migrated(_ dir: TemporaryDirectory, upTo version: Int = 1) throws -> Database {
        let db = try Database(path: dir.path("drift.sqlite"))
        try Migrator(migrations: Self.migrations).migrate(db, upTo: version)
        return db
    }

    func version(_ db: Database) throws -> Int {
        try db.read { try $0.fetchValue(Int.self, sql: "SELECT max(version) FROM strata_migrations") ?? 0 }
    }

    @Test func eachAppliedMigrationRecordsTheStructureItLeft() throws {
        let dir = try TemporaryDirectory()
        let db = try migrated(dir, upTo: 3)
        let status = try Migrator(migrations: Self.migrations).status(of: db)
        #expect(status.applied.allSatisfy { $0.fingerprint != nil })
        #expect(status.applied.last?.fingerprint?.digest == status.liveFingerprint.digest)
        #expect(Set(status.applied.compactMap(\.fingerprint?.digest)).count == 3, "each version has its own structure")
        #expect(status.drift == nil && status.problems.isEmpty)
        #expect(status.liveFingerprint.manifest.contains("table\tauthor\t"))
    }

    /// Before the fix nothing compared the file with its recorded version: a column added by
    /// hand went unnoticed and the next migration ran on top of it.
    @Test(arguments: [
        "ALTER TABLE author ADD COLUMN nickname TEXT",
        "CREATE INDEX author_name ON author (name)",
        "DROP TABLE book",
        "CREATE TABLE scratch (x)",
        "CREATE VIEW author_names AS SELECT name FROM author",
        "CREATE TRIGGER author_audit AFTER INSERT ON author BEGIN SELECT 1; END",
        "ALTER TABLE book RENAME COLUMN title TO name",
    ])
    func aStructureAlteredByHandIsRefusedBeforeAnythingRuns(_ alteration: String) throws {
        let dir = try TemporaryDirectory()
        let db = try migrated(dir)
        try db.writeWithoutTransaction { try $0.execute(sql: alteration) }
        let migrator = Migrator(migrations: Self.migrations)
        let status = try migrator.status(of: db)
        let drift = try #require(status.drift)
        #expect(drift.version == 1 && drift.recordedDigest != drift.liveDigest)
        #expect(!drift.changes.isEmpty)
        #expect(status.problems.contains { $0.contains("altered outside its migrations since version 1") })
        do {
            try migrator.migrate(db)
            Issue.record("a drifted database was migrated")
        } catch let error as StrataError {
            #expect(error.kind == .migrationRefused, "\(error)")
            #expect(error.message.contains("since version 1 was applied"), "\(error)")
            #expect(error.message.contains(drift.changes[0]), "\(error)")
        }
        #expect(try version(db) == 1, "nothing was applied")
    }

    @Test func theRefusalNamesWhatChanged() throws {
        let dir = try TemporaryDirectory()
        let db = try migrated(dir)
        try db.writeWithoutTransaction { conn in
            try conn.execute(sql: "ALTER TABLE author ADD COLUMN nickname TEXT; CREATE INDEX extra ON book (title)")
        }
        let status = try Migrator(migrations: Self.migrations).status(of: db)
        #expect(status.drift?.changes == ["table author was changed", "index extra was added"])
    }

    @Test func aDatabaseUpToDateButAlteredIsRefusedToo() throws {
        let dir = try TemporaryDirectory()
        let db = try migrated(dir, upTo: 3)
        try db.writeWithoutTransaction { try $0.execute(sql: "CREATE INDEX i ON book (title)") }
        #expect(throws: StrataError.self) { try Migrator(migrations: Self.migrations).migrate(db) }
        // Undoing the change is enough.
        try db.writeWithoutTransaction { try $0.execute(sql: "DROP INDEX i") }
        #expect(try Migrator(migrations: Self.migrations).migrate(db).isEmpty)
    }

    @Test func rowsAnalyzeAndVacuumAreNotDrift() throws {
        let dir = try TemporaryDirectory()
        let db = try migrated(dir)
        try db.write { conn in
            try conn.execute(sql: "INSERT INTO author (name) VALUES ('Ann'); INSERT INTO book (id, title, author_id) VALUES (1, 'A', 1)")
        }
        try db.writeWithoutTransaction { conn in
            try conn.execute(sql: "ANALYZE; VACUUM; PRAGMA optimize")
        }
        #expect(try Migrator(migrations: Self.migrations).migrate(db).map(\.version) == [2, 3])
    }

    /// A database without history has no recorded structure to compare with: tables that were
    /// there before the first migration become part of the structure it records.
    @Test func objectsBeforeTheFirstMigrationBecomePartOfTheRecordedStructure() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("other.sqlite"))
        try db.writeWithoutTransaction { try $0.execute(sql: "CREATE TABLE own (id INTEGER PRIMARY KEY)") }
        let migrator = Migrator(migrations: Self.migrations)
        #expect(try migrator.migrate(db, upTo: 1).map(\.version) == [1])
        #expect(try migrator.status(of: db).applied.last?.fingerprint?.manifest.contains("table\town\t") == true)
        #expect(try migrator.migrate(db).map(\.version) == [2, 3])
    }

    /// A database migrated by a Strata that recorded no fingerprint is not refused: the next
    /// migrate records the live structure, and drift after that is caught.
    @Test func aHistoryWithoutFingerprintsIsUpgradedNotRefused() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("old.sqlite"))
        try db.write { conn in
            try conn.execute(sql: MigratorTests.v1.sql)
            try conn.execute(
                sql: """
                    CREATE TABLE strata_migrations (
                      version INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL);
                    INSERT INTO strata_migrations VALUES (1, 'initial', ?, '2025-01-01T00:00:00.000Z');
                    PRAGMA user_version = 1;
                    """,
                arguments: [MigratorTests.v1.checksum])
        }
        let migrator = Migrator(migrations: Self.migrations)
        let old = try migrator.status(of: db)
        #expect(old.problems.isEmpty && old.drift == nil && old.applied.first?.fingerprint == nil)
        #expect(try migrator.migrate(db, upTo: 1).isEmpty)
        let recorded = try migrator.status(of: db)
        #expect(recorded.applied.first?.fingerprint?.digest == recorded.liveFingerprint.digest)
        try db.writeWithoutTransaction { try $0.execute(sql: "ALTER TABLE author ADD COLUMN extra TEXT") }
        #expect(throws: StrataError.self) { try migrator.migrate(db) }
        try db.writeWithoutTransaction { try $0.execute(sql: "ALTER TABLE author DROP COLUMN extra") }
        #expect(try migrator.migrate(db).map(\.version) == [2, 3])
        #expect(try migrator.status(of: db).applied.allSatisfy { $0.fingerprint != nil })
    }

    /// Each applied migration records the schema cookie it left; while the file's cookie is the
    /// recorded one the structure is not fingerprinted again (the cost of a launch), and any
    /// change of the structure changes the cookie, so drift is still caught.
    @Test func theSchemaCookieGatesTheFingerprintWithoutHidingDrift() throws {
        let dir = try TemporaryDirectory()
        let db = try migrated(dir, upTo: 2)
        let migrator = Migrator(migrations: Self.migrations)
        let cookie = try db.read { try $0.fetchValue(Int.self, sql: "PRAGMA schema_version") }
        let status = try migrator.status(of: db)
        #expect(status.applied.last?.schemaVersion == cookie)
        #expect(status.applied.allSatisfy { $0.schemaVersion != nil })
        // A recorded manifest nobody could match: taken as the live one while the cookie is
        // unchanged (proof that nothing was hashed) …
        try db.write { try $0.execute(sql: "UPDATE strata_migrations SET schema_fingerprint = 'not-a-digest' WHERE version = 2") }
        #expect(try migrator.status(of: db).drift == nil)
        #expect(try migrator.status(of: db).liveFingerprint.digest == "not-a-digest")
        // … and compared as soon as the structure changes: the cookie moved.
        try db.writeWithoutTransaction { try $0.execute(sql: "CREATE INDEX later ON book (title)") }
        let drifted = try migrator.status(of: db)
        #expect(drifted.drift?.recordedDigest == "not-a-digest")
        #expect(drifted.liveFingerprint.digest != "not-a-digest")
    }

    /// `VACUUM` changes the cookie but not the structure: the fingerprint is computed again and
    /// matches. A history recorded before the cookie column existed is fingerprinted at every
    /// status, and the next migration adds the column and records the cookie.
    @Test func aChangedCookieWithTheSameStructureIsNoDrift() throws {
        let dir = try TemporaryDirectory()
        let db = try migrated(dir)
        let before = try db.read { try $0.fetchValue(Int.self, sql: "PRAGMA schema_version") }
        try db.writeWithoutTransaction { try $0.execute(sql: "VACUUM") }
        try db.writeWithoutTransaction { try $0.execute(sql: "CREATE TABLE t (x); DROP TABLE t") }
        let after = try db.read { try $0.fetchValue(Int.self, sql: "PRAGMA schema_version") }
        #expect(before != after)
        let migrator = Migrator(migrations: Self.migrations)
        let moved = try migrator.status(of: db)
        #expect(moved.problems.isEmpty && moved.liveSchemaVersion == after && moved.applied.last?.schemaVersion == before)
        // Nothing to apply, but the moved cookie is recorded once, so that later launches do
        // not hash the structure again.
        #expect(try migrator.migrate(db, upTo: 1).isEmpty)
        let recorded = try migrator.status(of: db)
        #expect(recorded.applied.last?.schemaVersion == recorded.liveSchemaVersion)
        #expect(recorded.problems.isEmpty && recorded.applied.map(\.version) == [1])
        // An older history: no schema_version column.
        try db.writeWithoutTransaction { try $0.execute(sql: "ALTER TABLE strata_migrations DROP COLUMN schema_version") }
        let old = try migrator.status(of: db)
        #expect(old.problems.isEmpty && old.applied.last?.schemaVersion == nil)
        try db.writeWithoutTransaction { try $0.execute(sql: "ALTER TABLE author ADD COLUMN extra TEXT") }
        #expect(try migrator.status(of: db).drift != nil, "drift is caught without a recorded cookie")
        try db.writeWithoutTransaction { try $0.execute(sql: "ALTER TABLE author DROP COLUMN extra") }
        #expect(try migrator.migrate(db, upTo: 2).map(\.version) == [2])
        let upgraded = try migrator.status(of: db)
        #expect(upgraded.applied.last?.schemaVersion == (try db.read { try $0.fetchValue(Int.self, sql: "PRAGMA schema_version") }))
        #expect(upgraded.problems.isEmpty)
    }

    @Test func hostileNamesRoundTripThroughTheManifest() throws {
        let dir = try TemporaryDirectory()
        let name = "a\tb\nc\\d\r\ne"
        let escaped = name.replacingOccurrences(of: "\"", with: "\"\"")
        let migration = Migration(version: 1, name: "odd", sql: "CREATE TABLE \"\(escaped)\" (x)")
        let db = try Database(path: dir.path("odd.sqlite"))
        try Migrator(migrations: [migration]).migrate(db)
        try db.writeWithoutTransaction { try $0.execute(sql: "ALTER TABLE \"\(escaped)\" ADD COLUMN y") }
        let drift = try #require(try Migrator(migrations: [migration]).status(of: db).drift)
        #expect(drift.changes == ["table \(name) was changed"])
    }

    /// Two `Database` values on one file (as two processes would have) migrate at once: each
    /// migration is applied and announced exactly once, and both calls succeed.
    @Test func twoMigratorsRacingApplyEachMigrationOnce() throws {
        for _ in 0..<10 {
            let dir = try TemporaryDirectory()
            let path = dir.path("race.sqlite")
            let first = try Database(path: path)
            let second = try Database(path: path)
            let announced = Locked<[Int]>([])
            let applied = Locked<[Int]>([])
            let errors = Locked<[String]>([])
            let group = DispatchGroup()
            for db in [first, second] {
                let thread = Thread {
                    do {
                        let done = try Migrator(migrations: Self.migrations).migrate(db) { migration in
                            announced.withLock { $0.append(migration.version) }
                        }
                        applied.withLock { $0 += done.map(\.version) }
                    } catch {
                        errors.withLock { $0.append("\(error)") }
                    }
                    group.leave()
                }
                group.enter()
                thread.start()
            }
            group.wait()
            #expect(errors.withLock { $0 } == [])
            #expect(applied.withLock { $0.sorted() } == [1, 2, 3])
            #expect(announced.withLock { $0.sorted() } == [1, 2, 3])
            #expect(try version(first) == 3)
        }
    }
}

