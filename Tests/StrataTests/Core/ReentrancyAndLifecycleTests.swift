import Foundation
import Strata
import StrataTestSupport
import Testing

/// Regression tests for nesting, snapshots, abandoned statements and values that cannot be stored.
@Suite struct ReentrancyAndLifecycleTests {
    func fileDatabase(_ dir: TemporaryDirectory, readers: Int = 4) throws -> Database {
        var configuration = Database.Configuration()
        configuration.maximumReaderCount = readers
        return try Database(path: dir.path("db.sqlite"), configuration: configuration)
    }

    /// Runs `work` on another thread and fails (instead of hanging the suite) when it does not
    /// finish in time.
    func finishes(within seconds: Double, _ work: @escaping @Sendable () throws -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do { try work() } catch { Issue.record(error) }
            done.signal()
        }
        return done.wait(timeout: .now() + seconds) == .success
    }

    @Test func nestedReadsReuseTheirConnectionInsteadOfDeadlocking() throws {
        let dir = try TemporaryDirectory()
        let db = try fileDatabase(dir, readers: 1)
        try db.write { try $0.execute(sql: "CREATE TABLE t(v); INSERT INTO t VALUES (1)") }
        let finished = finishes(within: 10) {
            let count = try db.read { _ in try db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") } }
            #expect(count == 1)
        }
        #expect(finished, "a read nested in a read must not wait for a second reader")
    }

    @Test func readInsideAWriteSeesTheWritesOwnChanges() throws {
        let dir = try TemporaryDirectory()
        let db = try fileDatabase(dir)
        try db.write { try $0.execute(sql: "CREATE TABLE t(v)") }
        let seen = try db.write { conn -> Int? in
            try conn.execute(sql: "INSERT INTO t VALUES (1)")
            return try db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") }
        }
        #expect(seen == 1)
    }

    @Test func memoryPathOpensAnInMemoryDatabase() throws {
        for path in [":memory:", ""] {
            let db = try Database(path: path)
            try db.write { try $0.execute(sql: "CREATE TABLE t(v); INSERT INTO t VALUES (1)") }
            #expect(try db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") } == 1)
        }
    }

    @Test func anAbandonedStatementDoesNotPinAnOldSnapshot() throws {
        let dir = try TemporaryDirectory()
        let db = try fileDatabase(dir, readers: 1)
        try db.write { try $0.execute(sql: "CREATE TABLE t(v); INSERT INTO t VALUES (1), (2), (3)") }
        // Step a cached statement once and leave it mid-result.
        try db.read { conn in
            let statement = try conn.cachedStatement(sql: "SELECT v FROM t")
            #expect(try statement.step())
        }
        try db.write { try $0.execute(sql: "INSERT INTO t VALUES (4)") }
        #expect(try db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") } == 4)
    }

    /// The end of a closure resets the statements stepped in it (not a walk of every prepared
    /// statement): a statement stepped in an earlier closure and left mid-result in a later
    /// one is reset too, and one finalized mid-closure leaves the list safely.
    @Test func statementsLeftMidResultInLaterClosuresAreReset() throws {
        let dir = try TemporaryDirectory()
        let db = try fileDatabase(dir, readers: 1)
        try db.write { try $0.execute(sql: "CREATE TABLE t(v); INSERT INTO t VALUES (1), (2), (3)") }
        for round in 0..<3 {
            try db.read { conn in
                // Finalized inside the closure, after its first step.
                do {
                    let dropped = try conn.makeStatement(sql: "SELECT v FROM t")
                    #expect(try dropped.step())
                }
                let statement = try conn.cachedStatement(sql: "SELECT v FROM t")
                #expect(try statement.step())
            }
            try db.write { try $0.execute(sql: "INSERT INTO t VALUES (\(10 + round))") }
            #expect(try db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") } == 4 + round)
        }
    }

    @Test func aCursorUsedAfterItsClosureIsMisuse() throws {
        let dir = try TemporaryDirectory()
        let db = try fileDatabase(dir)
        try db.write { try $0.execute(sql: "CREATE TABLE t(v); INSERT INTO t VALUES (1), (2)") }
        let cursor = try db.read { conn in
            Cursor(statement: try conn.makeStatement(sql: "SELECT v FROM t")) { $0.int(at: 0) }
        }
        let error = #expect(throws: StrataError.self) { try cursor.next() }
        #expect(error?.kind == .misuse)
    }

    @Test func aTransactionLeftOpenIsRolledBackAndReported() throws {
        let db = try Database.inMemory()
        try db.write { try $0.execute(sql: "CREATE TABLE t(v)") }
        let error = #expect(throws: StrataError.self) {
            try db.writeWithoutTransaction { conn in
                try conn.execute(sql: "BEGIN; INSERT INTO t VALUES (1)")
            }
        }
        #expect(error?.kind == .misuse)
        #expect(throws: Boom.self) {
            try db.writeWithoutTransaction { conn in
                try conn.execute(sql: "BEGIN; INSERT INTO t VALUES (2)")
                throw Boom()
            }
        }
        try db.write { try $0.execute(sql: "INSERT INTO t VALUES (3)") }
        #expect(try db.read { try $0.fetch(sql: "SELECT v FROM t").map { try $0.get(0, as: Int.self) } } == [3])
    }

    @Test func unusedArgumentsAreRefusedBeforeAnythingRuns() throws {
        let db = try Database.inMemory()
        try db.write { try $0.execute(sql: "CREATE TABLE t(v)") }
        #expect(throws: StrataError.self) {
            try db.writeWithoutTransaction { try $0.execute(sql: "INSERT INTO t VALUES (1)", arguments: [42]) }
        }
        #expect(try db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") } == 0)
    }

    @Test func datesOutsideTheTextFormatAreRefused() throws {
        let db = try Database.inMemory()
        try db.write { try $0.execute(sql: "CREATE TABLE t(v TEXT)") }
        for seconds in [Double.nan, .infinity, 253_402_300_800.0 /* year 10000 */, -62_167_219_201.0 /* year -1 */, 1e12] {
            let error = #expect(throws: StrataError.self) {
                try db.write { try $0.execute(sql: "INSERT INTO t VALUES (?)", arguments: [Date(timeIntervalSince1970: seconds)]) }
            }
            #expect(error?.kind == .invalidValue, "\(seconds)")
        }
        #expect(try db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") } == 0)
        try db.write { try $0.execute(sql: "INSERT INTO t VALUES (?)", arguments: [Date(timeIntervalSince1970: -62_167_219_200)]) }
        #expect(try db.read { try $0.fetchValue(String.self, sql: "SELECT v FROM t") } == "0000-01-01 00:00:00.000")
        #expect(DateFormat.date(from: "2023-02-30") == nil)
        #expect(DateFormat.date(from: "2023-04-31") == nil)
        #expect(DateFormat.date(from: "2024-02-29") != nil)
        #expect(DateFormat.date(from: "2023-02-29") == nil)
    }

    @Test func sixteenCharacterTextIsNotARawUUID() throws {
        let db = try Database.inMemory()
        try db.write { try $0.execute(sql: "CREATE TABLE t(v TEXT); INSERT INTO t VALUES ('0123456789abcdef')") }
        try db.read { conn in
            let statement = try conn.cachedStatement(sql: "SELECT v FROM t")
            #expect(try statement.step())
            #expect(throws: StrataError.self) { try statement.uuid(at: 0) }
        }
    }

    @Test func theStatementCacheIsBounded() throws {
        let db = try Database.inMemory()
        try db.read { conn throws in
            for i in 0..<(Connection.statementCacheLimit + 10) {
                #expect(try conn.fetchValue(Int.self, sql: "SELECT \(i)") == i)
            }
        }
    }

    /// Another process applies a migration between this migrator's first status check and its
    /// migration: the migrator checks again under the write lock, skips the migration, and
    /// does not announce it.
    @Test func aMigrationAppliedMeanwhileByAnotherConnectionIsSkipped() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("shared.sqlite")
        let first = try Database(path: path)
        let second = try Database(path: path)
        let v1 = Migration(version: 1, name: "initial", sql: "CREATE TABLE t(v INTEGER);")
        #expect(try Migrator(migrations: [v1]).status(of: first).pending.count == 1)
        // The other process wins the race.
        #expect(try Migrator(migrations: [v1]).migrate(second).count == 1)
        var announced: [Int] = []
        let applied = try Migrator(migrations: [v1]).migrate(first) { announced.append($0.version) }
        #expect(applied.isEmpty && announced.isEmpty)
        #expect(try Migrator(migrations: [v1]).status(of: first).currentVersion == 1)
    }
}
