import Foundation
@testable import Strata
import StrataTestSupport
import Testing

/// Collects what an observation delivers, from a task of its own, so a test can wait for a
/// value with a timeout and cancel the consumer.
final class Collector<Value: Sendable>: @unchecked Sendable {
    let values = Protected<[Value]>([])
    let failure = Protected<(any Error)?>(nil)
    let finished = Protected(false)
    private(set) var task: Task<Void, Never>?

    init<S: AsyncSequence & Sendable>(_ sequence: S, pauseAfterFirst gate: Gate? = nil) where S.Element == Value {
        task = Task { [values, failure, finished] in
            do {
                for try await value in sequence {
                    let count = values.withLock { values -> Int in
                        values.append(value)
                        return values.count
                    }
                    if count == 1, let gate { await gate.wait() }
                }
            } catch {
                failure.withLock { $0 = error }
            }
            finished.withLock { $0 = true }
        }
    }

    var all: [Value] { values.withLock { $0 } }
    var last: Value? { values.withLock { $0.last } }

    func cancel() { task?.cancel() }

    /// A test that ends stops its observations (no poller left running for the others).
    deinit { task?.cancel() }
}

/// A one-shot signal a consumer waits on.
final class Gate: @unchecked Sendable {
    private let open = Protected(false)

    func wait() async {
        while !open.withLock({ $0 }) { try? await Task.sleep(nanoseconds: 5_000_000) }
    }

    func release() { open.withLock { $0 = true } }
}

/// Waits (generously) until `condition` holds; false after `attempts` checks 5 ms apart
/// (30 s when the process runs freely). Counting checks rather than reading a clock keeps a
/// stall of the whole test process (other suites blocking the cooperative threads) from
/// using up the budget before the observation had a chance to run.
func eventually(attempts: Int = 6_000, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<attempts {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
    return condition()
}

/// A counter the observed closures bump, to count fetches.
final class Counter: Sendable {
    private let value = Protected(0)
    func bump() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

@Suite struct ObservationTests {
    enum Backend: CaseIterable, Sendable { case file, memory }

    func open(_ backend: Backend, _ dir: TemporaryDirectory) throws -> Database {
        let db = backend == .file ? try Database(path: dir.path("observe.sqlite")) : try Database.inMemory()
        try db.write { conn in
            try conn.execute(sql: """
                CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL, price REAL);
                CREATE TABLE member (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE log (entry TEXT);
                CREATE VIEW cheap_book AS SELECT * FROM book WHERE price < 10;
                """)
        }
        return db
    }

    /// The current value at once, then a value after each commit that changed what was read:
    /// from a DAO-like cached statement, raw SQL, and a view.
    @Test(arguments: Backend.allCases) func deliversTheCurrentValueThenOneAfterEachRelevantCommit(_ backend: Backend) async throws {
        let dir = try TemporaryDirectory()
        let db = try open(backend, dir)
        let counts = Collector(db.observe { conn in try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM cheap_book") ?? -1 })
        #expect(await eventually { counts.last == 0 })
        try await db.write { try $0.execute(sql: "INSERT INTO book (title, price) VALUES ('a', 5)") }
        #expect(await eventually { counts.last == 1 })
        try await db.write { try $0.execute(sql: "INSERT INTO book (title, price) VALUES ('b', 50)") }  // not cheap: same count
        try await db.write { try $0.execute(sql: "INSERT INTO book (title, price) VALUES ('c', 1), ('d', 2)") }
        #expect(await eventually { counts.last == 3 })
        #expect(counts.all == [0, 1, 3], "equal values are not delivered twice")
        counts.cancel()
        #expect(await eventually { db.observationRegistrationCount == 0 })
    }

    /// Commits to other tables, rolled-back transactions and writes that change nothing cause
    /// no fetch at all; only the relevant commit does.
    @Test(arguments: Backend.allCases) func unrelatedCommitsRollbacksAndNoOpWritesCauseNoFetch(_ backend: Backend) async throws {
        let dir = try TemporaryDirectory()
        let db = try open(backend, dir)
        let fetches = Counter()
        let titles = Collector(db.observe { conn -> [String] in
            fetches.bump()
            return try conn.fetch(sql: "SELECT title FROM book ORDER BY id").map { try $0.get(0) }
        }.everyValue())
        #expect(await eventually { titles.all.count == 1 })
        for index in 0..<20 {
            try await db.write { try $0.execute(sql: "INSERT INTO member (name) VALUES (?)", arguments: ["m\(index)"]) }
        }
        struct Abort: Error {}
        await #expect(throws: Abort.self) {
            try await db.write { conn in
                try conn.execute(sql: "INSERT INTO book (title) VALUES ('rolled back')")
                throw Abort()
            }
        }
        try await db.write { try $0.execute(sql: "UPDATE book SET title = 'x' WHERE id = -1") }  // changes nothing
        try db.writeWithoutTransaction { try $0.execute(sql: "DELETE FROM book WHERE 0") }
        try await db.write { try $0.execute(sql: "INSERT INTO book (title) VALUES ('kept')") }
        #expect(await eventually { titles.last == ["kept"] })
        #expect(fetches.count == 2, "one first fetch, one for the relevant commit; got \(fetches.count)")
        #expect(titles.all == [[], ["kept"]])
        titles.cancel()
    }

    /// A commit made while the first fetch runs (after it read) is not lost: it causes one
    /// more fetch.
    @Test(arguments: Backend.allCases) func aCommitDuringTheFirstFetchIsNotLost(_ backend: Backend) async throws {
        let dir = try TemporaryDirectory()
        let db = try open(backend, dir)
        let first = Protected(true)
        let entered = Gate()
        let proceed = DispatchSemaphore(value: 0)
        let counts = Collector(db.observe { conn -> Int in
            let count = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM book") ?? -1
            if first.withLock({ value in defer { value = false }; return value }) {
                entered.release()
                proceed.wait()
            }
            return count
        })
        await entered.wait()
        if backend == .file {
            // The fetch holds its snapshot; the commit lands after it.
            try await db.write { try $0.execute(sql: "INSERT INTO book (title) VALUES ('during')") }
            proceed.signal()
        } else {
            // An in-memory database has one connection, busy with the fetch: commit as soon as
            // it is free.
            let writer = Task.detached { try await db.write { try $0.execute(sql: "INSERT INTO book (title) VALUES ('during')") } }
            proceed.signal()
            try await writer.value
        }
        #expect(await eventually { counts.last == 1 })
        #expect(counts.all == [0, 1])
    }

    /// Statements the connections cached before the observation began (by SQL text and by
    /// CachedSQL slot) still report what they read.
    @Test func statementsCachedBeforeTheObservationStillCount() async throws {
        let dir = try TemporaryDirectory()
        let db = try open(.file, dir)
        let countSQL: CachedSQL = "SELECT count(*) FROM member"
        // Prime every reader's caches.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try db.read { conn in
                        _ = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM book")
                        let statement = try conn.cachedStatement(countSQL)
                        _ = try statement.step()
                        statement.reset()
                    }
                }
            }
            try await group.waitForAll()
        }
        let pairs = Collector(db.observe { conn -> [Int] in
            let books = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM book") ?? -1
            let statement = try conn.cachedStatement(countSQL)
            defer { statement.reset() }
            let members = try statement.step() ? statement.int(at: 0) : -1
            return [books, members]
        })
        #expect(await eventually { pairs.last == [0, 0] })
        try await db.write { try $0.execute(sql: "INSERT INTO member (name) VALUES ('m')") }
        #expect(await eventually { pairs.last == [0, 1] })
        try await db.write { try $0.execute(sql: "INSERT INTO book (title) VALUES ('b')") }
        #expect(await eventually { pairs.last == [1, 1] })
    }

    /// The writer runs no observation code per statement: what a transaction wrote comes from
    /// the writing statements that ran in it, read once at commit. Each way a write can run is
    /// seen: commits of statements outside BEGIN/COMMIT folded into one closure (with a
    /// rolled-back transaction after them, which is not), a statement the caller prepared, ran
    /// and dropped before COMMIT, and a cached statement run again in later transactions.
    @Test(arguments: Backend.allCases) func everyWayAWriteRunsIsSeen(_ backend: Backend) async throws {
        let dir = try TemporaryDirectory()
        let db = try open(backend, dir)
        let memberFetches = Counter()
        let books = Collector(db.observe { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM book") ?? -1 })
        let members = Collector(db.observe { conn -> Int in
            memberFetches.bump()
            return try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM member") ?? -1
        })
        let bookChanges = Collector(db.changes(toTables: ["book"]))
        #expect(await eventually { books.last == 0 && members.last == 0 })

        try db.writeWithoutTransaction { conn in
            try conn.execute(sql: "INSERT INTO book (id, title) VALUES (1, 'autocommit')")
            try conn.execute(sql: "BEGIN")
            try conn.execute(sql: "INSERT INTO member (name) VALUES ('rolled back')")
            try conn.execute(sql: "INSERT INTO book (id, title) VALUES (2, 'rolled back')")
            try conn.execute(sql: "ROLLBACK")
        }
        #expect(await eventually { books.last == 1 })
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(memberFetches.count == 1, "the rolled-back insert into member causes no fetch")

        try await db.write { conn in
            let statement = try conn.makeStatement(sql: "INSERT INTO member (name) VALUES (?)")
            try statement.bind("dropped before COMMIT", at: 1)
            try statement.run()
        }
        #expect(await eventually { members.last == 1 })

        for id in 3...4 {
            try await db.write { conn in
                let statement = try conn.cachedStatement(sql: "INSERT INTO book (id, title) VALUES (?, 'cached')")
                try statement.bind(id, at: 1)
                try statement.run()
            }
            #expect(await eventually { books.last == id - 1 })
        }
        #expect(await eventually { bookChanges.all.count >= 3 })
        #expect(bookChanges.all.map(\.primaryKey) == [[.integer(1)], [.integer(3)], [.integer(4)]])
    }

    /// The commit hook looks only at the statements stepped since the last commit (the
    /// connection's step log), not at every statement the writer holds: a writer statement
    /// prepared and run before the observation began, and run again under it, is seen; so it
    /// is after that observation ended and another began (the log starts over).
    @Test func writerStatementsPreparedBeforeTheObservationAreSeen() async throws {
        let dir = try TemporaryDirectory()
        let db = try open(.file, dir)
        let insert: CachedSQL = "INSERT INTO book (title) VALUES ('cached')"
        try await db.write { conn in
            for index in 0..<200 { _ = try conn.cachedStatement(sql: "SELECT \(index) FROM member") }
            try conn.withCachedStatement(insert) { try $0.run() }
        }
        for round in 1...2 {
            let books = Collector(db.observe { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM book") ?? -1 })
            #expect(await eventually { books.last == round })
            try await db.write { conn in try conn.withCachedStatement(insert) { try $0.run() } }
            #expect(await eventually { books.last == round + 1 })
            books.cancel()
            #expect(await eventually { db.observationRegistrationCount == 0 })
        }
    }

    /// A trigger's write and a foreign-key cascade count as writes to their tables.
    @Test func triggersAndForeignKeyCascadesAreSeen() async throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("cascade.sqlite"))
        try await db.write { conn in
            try conn.execute(sql: """
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE child (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES parent(id) ON DELETE CASCADE);
                CREATE TABLE audit (n INTEGER);
                CREATE TRIGGER parent_audit AFTER INSERT ON parent BEGIN INSERT INTO audit VALUES (new.id); END;
                INSERT INTO parent VALUES (1); INSERT INTO child VALUES (1, 1), (2, 1);
                """)
        }
        let children = Collector(db.observe { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM child") ?? -1 })
        let audits = Collector(db.observe { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM audit") ?? -1 })
        #expect(await eventually { children.last == 2 && audits.last == 1 })
        try await db.write { try $0.execute(sql: "DELETE FROM parent WHERE id = 1") }
        #expect(await eventually { children.last == 0 })
        try await db.write { try $0.execute(sql: "INSERT INTO parent VALUES (2)") }
        #expect(await eventually { audits.last == 2 })
    }

    /// Another Database value on the same file (its own connections, as another process would
    /// have) and a child process (the sqlite3 shell) writing: both seen, through polling.
    @Test func commitsOfAnotherDatabaseAndAnotherProcessAreSeen() async throws {
        let dir = try TemporaryDirectory()
        let db = try open(.file, dir)
        let other = try Database(path: dir.path("observe.sqlite"))
        let counts = Collector(db.observe { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM book") ?? -1 })
        #expect(await eventually { counts.last == 0 })
        try await other.write { try $0.execute(sql: "INSERT INTO book (title) VALUES ('from another Database')") }
        #expect(await eventually { counts.last == 1 })

        let sqlite3 = try #require(
            ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "the sqlite3 shell is needed (.ci/run installs it)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sqlite3)
        process.arguments = [dir.path("observe.sqlite"), ".timeout 10000", "INSERT INTO book (title) VALUES ('from another process')"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(await eventually { counts.last == 2 })
        counts.cancel()
    }

    /// A read-only Database has no writer to hook: it sees every commit through polling, on a
    /// connection of its own, freed with the observation.
    @Test func aReadOnlyDatabaseSeesCommitsByPolling() async throws {
        let dir = try TemporaryDirectory()
        let writer = try open(.file, dir)
        let reader = try Database(path: dir.path("observe.sqlite"), configuration: .readOnly)
        let counts = Collector(reader.observe { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM book") ?? -1 })
        #expect(await eventually { counts.last == 0 })
        #expect(reader.observationRegistrationCount == 3, "the observer, the poller and its connection")
        try await writer.write { try $0.execute(sql: "INSERT INTO book (title) VALUES ('seen')") }
        #expect(await eventually { counts.last == 1 })
        counts.cancel()
        #expect(await eventually { reader.observationRegistrationCount == 0 })
    }

    /// changes(to:) on a read-only database ends at once with a clear error.
    @Test func changesOnAReadOnlyDatabaseEndWithAnError() async throws {
        let dir = try TemporaryDirectory()
        _ = try open(.file, dir)
        let reader = try Database(path: dir.path("observe.sqlite"), configuration: .readOnly)
        var iterator = reader.changes(toTables: ["book"]).makeAsyncIterator()
        await #expect(throws: StrataError.self) { _ = try await iterator.next() }
        #expect(await eventually { reader.observationRegistrationCount == 0 })
    }

    /// changes(to:) called inside a write, which holds the writer it needs, ends with a misuse
    /// error instead of waiting for itself, even while observations start and stop.
    @Test func changesInsideAWriteEndWithAnError() async throws {
        let dir = try TemporaryDirectory()
        let db = try open(.file, dir)
        let observers = (0..<4).map { _ in Collector(db.observe { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM book") ?? -1 }) }
        let changes = try await db.write { _ in db.changes(toTables: ["book"]) }
        var iterator = changes.makeAsyncIterator()
        await #expect(throws: StrataError.self) { _ = try await iterator.next() }
        for observer in observers { observer.cancel() }
        #expect(await eventually { db.observationRegistrationCount == 0 })
    }

    /// Polling turned off: other processes' commits are not seen, this Database's are.
    @Test func pollingCanBeTurnedOff() async throws {
        let dir = try TemporaryDirectory()
        var configuration = Database.Configuration()
        configuration.observationPollingInterval = nil
        let db = try Database(path: dir.path("quiet.sqlite"), configuration: configuration)
        try await db.write { try $0.execute(sql: "CREATE TABLE t (v INTEGER)") }
        let other = try Database(path: dir.path("quiet.sqlite"))
        let sums = Collector(db.observe { try $0.fetchValue(Int.self, sql: "SELECT total(v) FROM t").map { Int($0) } ?? -1 })
        #expect(await eventually { sums.last == 0 })
        #expect(db.observationRegistrationCount == 2, "the observer and the writer hooks, no poller")
        try await other.write { try $0.execute(sql: "INSERT INTO t VALUES (5)") }
        try await db.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(await eventually { sums.last == 6 }, "this Database's commit refetches, and the fetch sees everything committed")
    }

    /// 10,000 commits while the consumer sleeps: a bounded number of values, the last one the
    /// final state.
    @Test func aBurstOfCommitsFoldsIntoFewValues() async throws {
        let dir = try TemporaryDirectory()
        let db = try open(.file, dir)
        try db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = OFF") }
        let gate = Gate()
        let fetches = Counter()
        let counts = Collector(db.observe { conn -> Int in
            fetches.bump()
            return try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM book") ?? -1
        }, pauseAfterFirst: gate)
        #expect(await eventually { counts.last == 0 })
        // 10,000 transactions: each statement outside BEGIN/COMMIT commits on its own.
        try db.writeWithoutTransaction { conn in
            for index in 0..<10_000 {
                try conn.execute(sql: "INSERT INTO book (title) VALUES (?)", arguments: ["b\(index)"])
                #expect(!conn.isInTransaction)
            }
        }
        gate.release()
        #expect(await eventually { counts.last == 10_000 })
        let delivered = counts.all
        // The first value, the one value held while the consumer slept, and at most two
        // fetches still running when it woke (one that started before the last commit, one
        // after it): never more, however many commits.
        #expect(delivered.count <= 4, "values delivered: \(delivered.count)")
        #expect(delivered.first == 0)
        #expect(fetches.count < 10_000, "commits made during a fetch fold into one more fetch")
        counts.cancel()
    }

    /// Cancelling the consuming task, leaving the loop, and dropping a changes sequence free
    /// the observer, the writer hooks, the poller and its connection.
    @Test(arguments: Backend.allCases) func cancellationFreesEverything(_ backend: Backend) async throws {
        let dir = try TemporaryDirectory()
        let db = try open(backend, dir)
        #expect(db.observationRegistrationCount == 0)
        let first = Collector(db.observe { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM book") ?? -1 })
        let second = Collector(db.observe { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM member") ?? -1 })
        #expect(await eventually { first.last == 0 && second.last == 0 })
        let expected = 2 + 1 + (backend == .file ? 1 : 0)  // observers, hooks, poller
        #expect(db.observationRegistrationCount == expected)
        first.cancel()
        #expect(await eventually { db.observationRegistrationCount == expected - 1 })
        second.cancel()
        #expect(await eventually { db.observationRegistrationCount == 0 })
        #expect(await eventually { first.finished.withLock { $0 } && second.finished.withLock { $0 } })

        // Leaving the loop.
        for try await count in db.observe({ try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM book") ?? -1 }) {
            #expect(count == 0)
            break
        }
        #expect(await eventually { db.observationRegistrationCount == 0 })

        // A changes sequence dropped unread.
        do {
            let changes = db.changes(toTables: ["book"])
            #expect(db.observationRegistrationCount >= 2)
            _ = changes
        }
        #expect(await eventually { db.observationRegistrationCount == 0 })
        try await db.write { try $0.execute(sql: "INSERT INTO book (title) VALUES ('after')") }
    }

    /// A fetch that throws ends the sequence with that error.
    @Test func aFetchErrorEndsTheSequence() async throws {
        let dir = try TemporaryDirectory()
        let db = try open(.file, dir)
        let values = Collector(db.observe { conn -> Int in
            let count = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM book") ?? -1
            if count > 0 { throw StrataError.misuse("boom") }
            return count
        })
        #expect(await eventually { values.last == 0 })
        try await db.write { try $0.execute(sql: "INSERT INTO book (title) VALUES ('x')") }
        #expect(await eventually { values.finished.withLock { $0 } })
        let error = values.failure.withLock { $0 } as? StrataError
        #expect(error?.message == "boom")
        #expect(await eventually { db.observationRegistrationCount == 0 })
    }

    /// A schema change while observing: a rebuilt table keeps being observed; a dropped one
    /// ends the sequence with SQLite's "no such table" error.
    @Test func schemaChangesWhileObserving() async throws {
        let dir = try TemporaryDirectory()
        let db = try open(.file, dir)
        let counts = Collector(db.observe { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM book") ?? -1 })
        #expect(await eventually { counts.last == 0 })
        try db.writeWithoutTransaction { conn in
            try conn.execute(sql: "PRAGMA foreign_keys = OFF")
            try conn.inTransaction {
                try conn.execute(sql: """
                    CREATE TABLE new_book (id INTEGER PRIMARY KEY, title TEXT NOT NULL, price REAL, pages INTEGER);
                    INSERT INTO new_book (id, title, price) SELECT id, title, price FROM book;
                    DROP VIEW cheap_book;
                    DROP TABLE book;
                    ALTER TABLE new_book RENAME TO book;
                    INSERT INTO book (title, pages) VALUES ('after the migration', 10);
                    """)
            }
            try conn.execute(sql: "PRAGMA foreign_keys = ON")
        }
        #expect(await eventually { counts.last == 1 })
        try await db.write { try $0.execute(sql: "INSERT INTO book (title) VALUES ('again')") }
        #expect(await eventually { counts.last == 2 })
        try await db.write { try $0.execute(sql: "DROP TABLE book") }
        #expect(await eventually { counts.finished.withLock { $0 } })
        let error = counts.failure.withLock { $0 } as? StrataError
        #expect(error?.message.contains("no such table") == true, "\(String(describing: error))")
    }

    /// Row changes with their keys, in commit order; none for a rolled-back transaction; rows
    /// removed by INSERT OR REPLACE, by DELETE without WHERE, and in a WITHOUT ROWID table.
    @Test(.enabled(if: PreupdateAPI.shared != nil, "needs SQLite built with the preupdate hook"), arguments: Backend.allCases)
    func changesReportRowsWithTheirKeys(_ backend: Backend) async throws {
        let dir = try TemporaryDirectory()
        let db = try open(backend, dir)
        try await db.write { try $0.execute(sql: "CREATE TABLE tag (name TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID") }
        let changes = Collector(db.changes(toTables: ["BOOK", "tag"]))
        struct Abort: Error {}
        _ = try? await db.write { conn in
            try conn.execute(sql: "INSERT INTO book (id, title) VALUES (99, 'rolled back')")
            throw Abort()
        }
        try await db.write { conn in
            try conn.execute(sql: "INSERT INTO book (id, title) VALUES (1, 'a'), (2, 'b')")
            try conn.execute(sql: "INSERT INTO member (name) VALUES ('not listened to')")
            try conn.execute(sql: "UPDATE book SET title = 'c' WHERE id = 2")
        }
        try await db.write { try $0.execute(sql: "INSERT OR REPLACE INTO book (id, title) VALUES (1, 'replaced')") }
        try await db.write { try $0.execute(sql: "INSERT INTO tag VALUES ('sf', 1)") }
        try await db.write { try $0.execute(sql: "DELETE FROM book") }
        let expected: [DatabaseChange] = [
            DatabaseChange(table: "book", kind: .insert, primaryKey: [.integer(1)], rowID: 1),
            DatabaseChange(table: "book", kind: .insert, primaryKey: [.integer(2)], rowID: 2),
            DatabaseChange(table: "book", kind: .update, primaryKey: [.integer(2)], rowID: 2),
            DatabaseChange(table: "book", kind: .delete, primaryKey: [.integer(1)], rowID: 1),
            DatabaseChange(table: "book", kind: .insert, primaryKey: [.integer(1)], rowID: 1),
            DatabaseChange(table: "tag", kind: .insert, primaryKey: [.text("sf")], rowID: nil),
            DatabaseChange(table: "book", kind: .delete, primaryKey: [.integer(1)], rowID: 1),
            DatabaseChange(table: "book", kind: .delete, primaryKey: [.integer(2)], rowID: 2),
        ]
        #expect(await eventually { changes.all.count >= expected.count })
        #expect(changes.all == expected)
        changes.cancel()
        #expect(await eventually { db.observationRegistrationCount == 0 })
    }
}
